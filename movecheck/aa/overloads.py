"""Counting bounds of the choice search: loads no choice of units, transports and carriers can fit.

Split from :mod:`movecheck.aa.choice` (the search itself); the engine asks both.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

_SETS = ("sailed", "arrived", "fixed_zones", "overflowing")
_LISTS = ("loaded", "incoming", "freed")


class Overloads:
    """Loads that no choice can fit: proved by counting, so the search never varies choices to avoid them.

    A land load into a zone no earlier order sails into, out of or through (only land
    units loading there, which take room and never make it) finds at most the room the
    zone's transports had when the phase began.  When the order's cargo needs more than
    that, AA401 holds for every choice of units, transports and carriers.  The cargo is
    the same for every choice when no earlier order ends where it starts (the units to
    choose from are the ones that were there to begin with, alike in cost by type).
    """

    def __init__(self, board: Any, start: Overloads | None = None) -> None:
        """``start``: the bounds of an earlier run of the same file, whose board began as this one does
        (the rooms the transports had when the phase began are taken from it, not counted again)."""
        from movecheck.aa.setup import cargo_load

        self.rooms: dict[str, list[int]]
        self.room: dict[str, int]
        if start is not None:
            self.rooms, self.room = start.rooms, start.room  # read only, never changed
        else:
            self.rooms = {}
            for unit in board.units:
                if unit.type.is_transport and board.friendly_power(unit.power):
                    self.rooms.setdefault(unit.at, []).append(unit.type.transport_capacity - cargo_load(unit))
            self.room = {zone: sum(rooms) for zone, rooms in self.rooms.items()}
        self.sailed: set[str] = set()
        self.arrived: set[str] = set()
        self.fixed: set[tuple[int, str]] = set()
        """(1-based order, code): errors every choice gives."""
        self.loaded: dict[str, list[int]] = {}
        """Per zone, the costs of the cargo loaded there so far by loads the count holds for."""
        self.fixed_zones: set[str] = set()
        self.overflowing: set[str] = set()
        """Zones whose loads together need more than their transports' room: one AA401 at least, in every choice."""
        self.incoming: dict[str, list[int]] = {}
        """Per zone, the most room each transport an earlier order took there can have brought (:meth:`_brought`)."""
        self.freed: dict[str, list[int]] = {}
        """Per zone, the cost of each land unit an earlier order took off a transport there (room it may free)."""

    def look(self, move: Any, board: Any, route: Any) -> None:
        """Before ``move`` is carried out: whether its load overflows whatever the choice; then note where it goes.

        ``route``: its land route (:func:`movecheck.aa.moves.land_route` of its path).

        The loads of a zone together overflow when they need more than all the room that can be there
        at some time: what its transports had when the phase began, the whole capacity of every transport
        an earlier order took there, and what earlier orders' cargo leaving a transport there frees (an
        upper bound, whatever sails out).  A single load's AA401 is every choice's only where nothing
        sails into, out of or through the zone (its transports are all still there to be full)."""
        land = move.land_movers()
        if (land and route.load_at is not None and move.transport is None and move.path[0] not in self.arrived
                and (route.bad_step is None or route.bad_step > route.load_at)):
            zone = move.path[route.load_at]
            costs = [u.type.transport_cost for u in land]
            if (zone in self.room or zone in self.incoming) and all(costs):
                if zone in self.room and zone not in self.sailed and sum(costs) > self.room[zone]:
                    self.fixed.add((move.index, "AA401"))
                    self.fixed_zones.add(zone)
                so_far = self.loaded.setdefault(zone, [])
                so_far += costs
                incoming, freed = self.incoming.get(zone, []), self.freed.get(zone, [])
                room = self.room.get(zone, 0) + sum(incoming) + sum(freed)
                if sum(so_far) > room or any(
                    sum(1 for c in so_far if c >= least) > self._seats(zone, least) for least in set(so_far)
                ):
                    self.overflowing.add(zone)
        if any(not u.type.is_land for u in move.units) or board.is_sea(move.path[0]):
            self.sailed.update(s for s in move.path if board.is_sea(s))
        if board.is_sea(move.end):
            self.incoming.setdefault(move.end, []).extend(self._brought(move))
        if board.is_sea(move.path[0]):
            self.freed.setdefault(move.path[0], []).extend(
                u.type.transport_cost for u in move.units if u.type.is_land and u.type.transport_cost)
        self.arrived.update(move.path[1:])

    def _brought(self, move: Any) -> list[int]:
        """The most room each transport of a move can bring: the largest rooms the transports of its first zone
        had when the phase began, when nothing came into that zone nor left a transport there before (loads there
        only take room: a full transport sailing in brings none, issue 37's B1); else each one's whole capacity."""
        capacities = sorted((u.type.transport_capacity for u in move.units if u.type.is_transport), reverse=True)
        origin = move.path[0]
        if not capacities or origin in self.arrived or origin in self.freed or origin not in self.rooms:
            return capacities
        rooms = sorted(self.rooms[origin], reverse=True)
        return [min(room, most) for room, most in zip(rooms, capacities, strict=False)] + capacities[len(rooms):]

    def _seats(self, zone: str, least: int) -> int:
        """The most units costing ``least`` or more that can board in ``zone`` over the phase: each transport's
        room there over ``least`` (an infantry and a tank fit a transport, two tanks never do), and a unit
        freeing c lets at most ceil(c / least) more aboard its transport."""
        return (sum(r // least for r in self.rooms.get(zone, [])) + sum(c // least for c in self.incoming.get(zone, []))
                + sum(-(-c // least) for c in self.freed.get(zone, [])))

    def mark(self, spaces: Collection[str], order: int) -> Any:
        """What :meth:`look` at the 1-based ``order`` with its path in ``spaces`` may change, as it is now (for
        :meth:`undo`): it adds only those spaces to the sets and lists, and only that order to :attr:`fixed`."""
        sets = {name: [s for s in spaces if s not in getattr(self, name)] for name in _SETS}
        lists = {name: {s: len(getattr(self, name)[s]) if s in getattr(self, name) else None for s in spaces}
                 for name in _LISTS}
        return sets, lists, (order, "AA401") in self.fixed, order

    def undo(self, kept: Any) -> None:
        """Back to what :meth:`mark` kept (the look it was taken before undone)."""
        sets, lists, fixed, order = kept
        for name, added in sets.items():
            getattr(self, name).difference_update(added)
        for name, lengths in lists.items():
            found = getattr(self, name)
            for space, length in lengths.items():
                if length is None:
                    found.pop(space, None)
                elif space in found:
                    del found[space][length:]
        if not fixed:
            self.fixed.discard((order, "AA401"))

    def copy(self) -> Overloads:
        """A copy that later changes to this one leave alone (the rooms at the start are shared: never changed)."""
        twin = Overloads.__new__(Overloads)
        twin.__dict__.update(self.__dict__)
        twin.sailed, twin.arrived, twin.fixed = set(self.sailed), set(self.arrived), set(self.fixed)
        twin.fixed_zones, twin.overflowing = set(self.fixed_zones), set(self.overflowing)
        twin.loaded = {zone: list(costs) for zone, costs in self.loaded.items()}
        twin.incoming = {zone: list(rooms) for zone, rooms in self.incoming.items()}
        twin.freed = {zone: list(costs) for zone, costs in self.freed.items()}
        return twin

    def lower_bound(self) -> int:
        """Errors every choice gives besides those of :attr:`fixed`: one per zone its loads overflow."""
        return len(self.overflowing - self.fixed_zones)

    def counts(self, order: int | None, code: str) -> bool:
        """The error is one every choice gives (so no search can avoid it)."""
        return (order, code) in self.fixed
