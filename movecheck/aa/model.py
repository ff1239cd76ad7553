"""The A&A board: a map (spaces and their neighbours), control, and the units on it.

Words as the spec defines them:

* *friendly* space: controlled by a power of the moving side;
* *hostile* territory: controlled by an enemy power; *hostile* sea zone: holds
  an enemy surface warship (or, with ``sub_transport_zones_hostile``, any
  enemy unit); a submerged submarine (Revised) counts for nothing;
* *friendly at the start of the turn*: the current control minus
  ``captured_this_turn``.

The map is :mod:`movecheck.aa.maps.gamemap`, the units (and a list of them in words)
:mod:`movecheck.aa.units`, the words for unit types and powers :mod:`movecheck.aa.wording`;
they are named here too, as the board's parts.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection
from typing import Any

from movecheck.aa.maps.gamemap import GameMap
from movecheck.aa.units import Unit, readiness

__all__ = ["Board"]


class Board:
    """A map plus one moment of a game: control, units, the moving power and the options."""

    def __init__(self, game_map: GameMap, options: dict[str, Any], power: str, phase: str) -> None:
        self.map = game_map
        self.options = options
        self.power = power
        self.phase = phase
        self.control: dict[str, str] = dict(game_map.control)
        self.captured: set[str] = set()
        self.purchased: dict[str, int] = {}
        self.to_place: dict[str, dict[str, int]] = {}
        """Units bought in earlier turns still waiting to be placed (the state's ``to_place:``), by power and type."""
        self.ipcs: dict[str, int] | None = None
        """Each power's unspent IPCs (the state's ``ipcs:``, or the map's starting treasuries in round 1);
        None: the state does not say and the map cannot."""
        self.taken: list[tuple[str, str, str, str | None]] = []
        """Territories taken on this board: (space, taker, new holder, former holder), in order."""
        self.transfers: list[tuple[str, str, int, str]] = []
        """IPCs moved by a capital taken: (from, to, amount, capital)."""
        self.units: list[Unit] = []
        self._by_space: dict[str, dict[int, Unit]] = {}  # by id(): a unit leaves its space in O(1), the order kept
        self.by_id: dict[str, Unit] = {}
        # (space, type, power) -> heap of (readiness, unit), built when first asked; entries
        # go stale as units move (checked when popped), arrivals are pushed
        self._ready: dict[tuple[str, str, str], list[tuple[tuple[Any, ...], Unit]]] = {}
        self._enemies: dict[str, list[Unit]] = {}  # _by_space's enemy units, in the same order
        self.copied = 0
        """Units copied when the board was made by :meth:`copy` (all of them, unless it was given spaces)."""

    def copy(self, spaces: Collection[str] | None = None) -> Board:
        """A board to carry one orders file out on: the same map, its own control, units and cargo.

        Much cheaper than building the board again from the state: the map (neighbours,
        names, unit types) is shared, the units are copied with who is aboard what.

        With ``spaces``, only the units in those spaces (and what they carry or are aboard)
        are copied; the others are this board's own objects, shared.  Neither board may
        then change a shared unit: an orders file moves, loads and lands only units in the
        spaces of its paths (the choice search's runs, :func:`movecheck.aa.engine.run`).
        :attr:`copied` says how many units were copied.
        """
        twin = Board.__new__(Board)
        twin.map, twin.power, twin.phase = self.map, self.power, self.phase
        twin.options = dict(self.options)
        twin.control = dict(self.control)
        twin.captured = set(self.captured)
        twin.purchased = dict(self.purchased)
        twin.to_place = {power: dict(units) for power, units in self.to_place.items()}
        twin.ipcs = dict(self.ipcs) if self.ipcs is not None else None
        twin.taken, twin.transfers = list(self.taken), list(self.transfers)
        if spaces is None:
            chosen = self.units
        else:
            linked = {id(u): u for space in spaces for u in self._by_space.get(space, {}).values()}
            stack = list(linked.values())
            while stack:  # and whatever they carry or are aboard, wherever the state put it
                unit = stack.pop()
                for other in ([unit.aboard] if unit.aboard is not None else []) + unit.cargo:
                    if id(other) not in linked:
                        linked[id(other)] = other
                        stack.append(other)
            chosen = [u for u in self.units if id(u) in linked]
        clones: dict[int, Unit] = {}
        for unit in chosen:
            clone = object.__new__(Unit)  # a plain copy of the fields, without dataclass machinery
            clone.__dict__.update(unit.__dict__)
            clones[id(unit)] = clone
        for clone in clones.values():
            if clone.aboard is not None:
                clone.aboard = clones[id(clone.aboard)]
            if clone.cargo:
                clone.cargo = [clones[id(u)] for u in clone.cargo]
            else:
                clone.cargo = []
        twin.copied = len(clones)
        if spaces is None:
            twin.units = [clones[id(u)] for u in self.units]
            twin._by_space = {space: {id(c): c for c in (clones[id(u)] for u in units.values())}
                              for space, units in self._by_space.items()}
            twin.by_id = {key: clones[id(u)] for key, u in self.by_id.items()}
            twin._enemies = {space: [clones[id(u)] for u in units] for space, units in self._enemies.items()}
        else:
            touched = {c.at for c in clones.values()}
            twin.units = [clones.get(id(u), u) for u in self.units]
            twin._by_space = {
                space: {id(c): c for c in (clones.get(id(u), u) for u in units.values())} if space in touched
                else dict(units)
                for space, units in self._by_space.items()
            }
            twin.by_id = {key: clones.get(id(u), u) for key, u in self.by_id.items()}
            twin._enemies = {space: [clones.get(id(u), u) for u in units] for space, units in self._enemies.items()}
        twin._ready = {}  # rebuilt on first use, from the copy's own units
        return twin

    # -- sides -----------------------------------------------------------

    @property
    def side(self) -> str | None:
        return self.map.side_of.get(self.power)

    def friendly_power(self, power: str | None) -> bool:
        """A power of the moving side."""
        return power is not None and self.map.side_of.get(power) == self.side

    def enemy_power(self, power: str | None) -> bool:
        """A power of another side."""
        return power is not None and power in self.map.side_of and not self.friendly_power(power)

    # -- units -----------------------------------------------------------

    def add(self, unit: Unit) -> None:
        self.units.append(unit)
        self._by_space.setdefault(unit.at, {})[id(unit)] = unit
        if self._in_play_enemy(unit):
            self._enemies.setdefault(unit.at, []).append(unit)
        if unit.id:
            self.by_id.setdefault(unit.id, unit)
        self._arrived(unit)

    def ready(self, space: str, kind: str, power: str) -> list[tuple[tuple[Any, ...], Unit]]:
        """The heap of ``power``'s units of type ``kind`` that are or were at ``space``, by
        :func:`readiness` when pushed: an entry whose unit has left or whose key has grown is stale."""
        key = (space, kind, power)
        heap = self._ready.get(key)
        if heap is None:
            heap = [(readiness(u), u) for u in self.units_at(space) if u.type.name == kind and u.power == power]
            heapq.heapify(heap)
            self._ready[key] = heap
        return heap

    def _arrived(self, unit: Unit) -> None:
        heap = self._ready.get((unit.at, unit.type.name, unit.power))
        if heap is not None:
            heapq.heappush(heap, (readiness(unit), unit))

    def units_at(self, space: str) -> list[Unit]:
        units = self._by_space.get(space)
        return list(units.values()) if units else []

    def move_unit(self, unit: Unit, space: str) -> None:
        """Put a unit (and what it carries) in another space."""
        if unit.at == space:
            return
        del self._by_space[unit.at][id(unit)]
        enemy = self._in_play_enemy(unit)
        if enemy:
            self._enemies[unit.at].remove(unit)
        unit.at = space
        self._by_space.setdefault(space, {})[id(unit)] = unit
        if enemy:
            self._enemies.setdefault(space, []).append(unit)
        self._arrived(unit)
        for passenger in unit.cargo:
            self.move_unit(passenger, space)

    def board_unit(self, unit: Unit, vessel: Unit) -> None:
        """Put a unit aboard a transport or carrier."""
        self.leave_vessel(unit)
        unit.aboard = vessel
        vessel.cargo.append(unit)

    def leave_vessel(self, unit: Unit) -> None:
        """Take a unit off whatever it is aboard."""
        if unit.aboard is not None:
            unit.aboard.cargo.remove(unit)
            unit.aboard = None

    def _in_play_enemy(self, unit: Unit) -> bool:
        """An enemy unit the moving side must reckon with: a submerged submarine is not one."""
        return self.enemy_power(unit.power) and not unit.submerged

    def enemy_units(self, space: str) -> list[Unit]:
        """The enemy units in play in ``space``: a submerged submarine is not (no hostility, no block, no battle)."""
        return list(self._enemies.get(space, ()))

    # -- spaces ----------------------------------------------------------

    def is_sea(self, space: str) -> bool:
        return self.map.spaces[space].sea

    def is_neutral(self, space: str) -> bool:
        """Neutral land: flagged neutral, or controlled by no power."""
        info = self.map.spaces[space]
        return not info.sea and (info.neutral or self.control.get(space) is None)

    def controller(self, space: str) -> str | None:
        return self.control.get(space)

    def friendly_territory(self, space: str) -> bool:
        # a name the map does not have (a canal's land misspelt: AA908) is never friendly
        return space in self.map.spaces and not self.is_sea(space) and self.friendly_power(self.control.get(space))

    def friendly_at_start(self, space: str) -> bool:
        """Land controlled by the moving side when the turn began."""
        return self.friendly_territory(space) and space not in self.captured

    def hostile_territory(self, space: str) -> bool:
        return not self.is_sea(space) and self.enemy_power(self.control.get(space))

    def blocking_enemies(self, space: str) -> list[Unit]:
        """Enemy units that make a sea zone hostile."""
        every = self.options["sub_transport_zones_hostile"]
        return [u for u in self.enemy_units(space) if every or u.type.is_surface_warship]

    def hostile_zone(self, space: str) -> bool:
        return self.is_sea(space) and bool(self.blocking_enemies(space))

    def hostile(self, space: str) -> bool:
        """Hostile territory or hostile sea zone."""
        return self.hostile_zone(space) if self.is_sea(space) else self.hostile_territory(space)

    def changes_hands(self, unit: Unit) -> bool:
        """A unit that never fights and goes with its territory: a factory, and an AA gun where
        ``aa_guns_captured`` (Revised); in the 1942 second edition an AA gun is a defender."""
        return unit.type.is_factory or (unit.type.is_aa_gun and self.options["aa_guns_captured"])

    def enemy_destroyer(self, space: str) -> bool:
        return any(u.type.destroyer for u in self.enemy_units(space))

    def canal_open(self, a: str, b: str) -> bool:
        """A canal between two zones is open when its land was friendly since the turn began."""
        canal = self.map.canal_between(a, b)
        return canal is None or all(self.friendly_at_start(t) for t in canal.land)

    # -- distances -------------------------------------------------------

    def _distances(self, start: str, limit: int, step_ok: Callable[[str, str], bool]) -> dict[str, int]:
        """Breadth-first steps from ``start`` to every space within ``limit`` where ``step_ok(from, to)``."""
        seen = {start: 0}
        frontier = [start]
        for step in range(1, limit + 1):
            if not frontier:  # nothing new within reach: a huge limit must not spin on
                break
            nxt = []
            for space in frontier:
                for other in self.map.neighbours(space):
                    if other not in seen and step_ok(space, other):
                        seen[other] = step
                        nxt.append(other)
            frontier = nxt
        return seen

    def route(self, start: str, end: str, limit: int, passable: Callable[[str, str], bool]) -> list[str] | None:
        """A shortest path from ``start`` to ``end`` of at most ``limit`` steps, or None.

        Breadth-first over the board, neighbours by name (the same board, the same answer):
        ``passable(a, b)`` says whether a step from ``a`` may enter ``b`` on the way (``end``
        itself is always entered).  The search stops at ``limit`` steps, so its cost is bounded
        by the spaces within a unit's movement.
        """
        if limit < 1:
            return None
        parent: dict[str, str | None] = {start: None}
        frontier = [start]
        for _step in range(limit):
            nxt = []
            for space in frontier:
                for other in sorted(self.map.neighbours(space)):
                    if other in parent:
                        continue
                    if other == end:
                        path = [end, space]
                        while parent[path[-1]] is not None:
                            path.append(parent[path[-1]])  # type: ignore[arg-type]
                        return path[::-1]
                    if passable(space, other):
                        parent[other] = space
                        nxt.append(other)
            if not nxt:
                return None
            frontier = nxt
        return None

    def routes(
        self,
        start: str,
        end: str,
        limit: int,
        passable: Callable[[str, str], bool],
        enter: Callable[[str, str], bool] | None = None,
        first: int = 10,
    ) -> tuple[list[list[str]], int]:
        """All shortest paths from ``start`` to ``end`` of at most ``limit`` steps: the first
        ``first`` of them in sorted order (by their spaces' names), and how many there are.

        The rules of :meth:`route`: ``passable(a, b)`` says whether a step from ``a`` may
        enter ``b`` on the way; ``end`` is entered when ``enter(a, end)`` allows it (by
        default always).  ``([], 0)`` when no such path exists.
        """
        if start == end:
            return [[start]], 1
        if limit < 1:
            return [], 0
        depth = {start: 0}
        parents: dict[str, list[str]] = {start: []}
        frontier = [start]
        for step in range(1, limit + 1):
            nxt: list[str] = []
            reached = False
            for space in frontier:
                for other in self.map.neighbours(space):
                    if other == end:
                        if enter is None or enter(space, other):
                            parents.setdefault(end, []).append(space)
                            reached = True
                        continue
                    if depth.get(other, step) < step or not passable(space, other):
                        continue
                    if other not in depth:
                        depth[other] = step
                        parents[other] = []
                        nxt.append(other)
                    parents[other].append(space)
            if reached:
                break
            if not nxt:
                return [], 0
            frontier = nxt
        else:
            return [], 0
        # the spaces on some shortest path, walking back from the end
        on_path = {end}
        stack = [end]
        while stack:
            for parent in parents[stack.pop()]:
                if parent not in on_path:
                    on_path.add(parent)
                    stack.append(parent)
        children: dict[str, list[str]] = {}
        for child in on_path:
            for parent in parents[child]:
                children.setdefault(parent, []).append(child)
        counts: dict[str, int] = {end: 1}
        for space in sorted(on_path - {end}, key=lambda s: -depth[s]):
            counts[space] = sum(counts[c] for c in children.get(space, ()))
        found: list[list[str]] = []
        path = [start]

        def walk(space: str) -> None:
            if len(found) >= first:
                return
            if space == end:
                found.append(list(path))
                return
            for child in sorted(children.get(space, ())):
                path.append(child)
                walk(child)
                path.pop()

        walk(start)
        return found, counts[start]

    def air_distances(self, start: str, limit: int) -> dict[str, int]:
        """Steps an aircraft needs from ``start`` to every space within ``limit`` (no neutrals)."""
        impassable = self.options["neutrals_impassable"]
        return self._distances(start, limit, lambda _a, b: not (impassable and self.is_neutral(b)))

    def sea_distances(self, start: str, limit: int, avoid_hostile: bool = True) -> dict[str, int]:
        """Steps a ship needs from ``start`` to reachable zones (through open canals, around hostile zones)."""

        def step_ok(a: str, b: str) -> bool:
            return self.is_sea(b) and self.canal_open(a, b) and not (avoid_hostile and self.hostile_zone(b))

        return self._distances(start, limit, step_ok)

