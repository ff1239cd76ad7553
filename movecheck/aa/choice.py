"""Choosing units: which units an order moves, which transport each land unit boards, which carrier a fighter lands on.

An order that names units by type and count, or leaves out ``transport:``,
leaves a choice open.  The phase is legal when *some* choice makes every
order legal (aa.md, "Choosing units").  The engine first carries the orders
out with the greedy choice (:class:`Chooser` with no search: option 0 at every
point, computed without enumerating the others).  When that gives an error a
different choice could avoid (:data:`CHOICE_CODES`), it searches: it carries
the phase out again, from a fresh copy of the board, with the choices at the
first points *forced* and the greedy choice after them, in lexicographic order
of the option indices (the greedy choice, option 0, first at every point).

* Options are built canonically: units of the same type, power, position and
  status are interchangeable (:func:`signature`), so a choice among 20 identical
  infantry is one option, and a load onto 20 empty transports is one option
  per way of packing them, not per permutation.
* Branch and bound: a point whose earlier orders already have as many errors
  as the best choice found is not varied (nothing under it can do better, and a
  tie goes to the earlier choice).  A choice with no errors ends the search.
* The search is bounded by ``MOVECHECK_CHOICE_BUDGET`` steps (one step per
  order carried out and per option or unit looked at, default
  :data:`DEFAULT_BUDGET`); running out raises :class:`SearchLimit`, and the
  engine makes the orders whose errors another choice might have avoided
  unchecked (MC012).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

from movecheck import budget

if TYPE_CHECKING:
    from movecheck.aa.model import Unit

T = TypeVar("T")

BUDGET_VARIABLE = "MOVECHECK_CHOICE_BUDGET"
DEFAULT_BUDGET = budget.SEARCHES[BUDGET_VARIABLE][1]
"""Steps of the choice search per file: orders carried out again, options and units looked at, boards copied."""

CHOICE_CODES = frozenset({"AA102", "AA104", "AA304", "AA306", "AA401", "AA402", "AA403", "AA404", "AA405"})
"""Error codes a different choice of units, transports or carriers may avoid: the greedy
choice giving one of these starts the search (AA102 only for an order starting at sea,
where cargo left ashore or aboard another transport is a knock-on of an earlier choice;
AA104 only for units chosen by count where a unit of their type began the phase with the
movement needed: :meth:`~movecheck.aa.phase.Phase.short_by_choice`)."""


class Meter(budget.Meter):
    """The choice search's steps, charged to the file's budget (``MOVECHECK_CHOICE_BUDGET``)."""

    variable = BUDGET_VARIABLE

    @property
    def spent(self) -> int:
        return self.used


@dataclass
class Point:
    """One open choice met while carrying the phase out."""

    order: int
    taken: int
    more: bool
    errors_before: int


@dataclass
class Chooser:
    """The choices of one run of the phase: the ``forced`` option at the first points, option 0 after.

    Without ``meter`` it is the greedy run: :meth:`pick` returns the greedy
    option and records nothing (no alternative is built).
    """

    forced: Sequence[int] = ()
    meter: Meter | None = None
    errors: int = 0
    """Errors found so far in orders before the current one (the engine keeps it up to date)."""
    points: list[Point] = field(default_factory=list)
    spread: bool = False
    """Pack transports by :func:`spread_key` instead of best fit (the search's first try, before it branches)."""

    @property
    def searching(self) -> bool:
        return self.meter is not None

    def charge(self, steps: int = 1) -> None:
        if self.meter is not None:
            self.meter.charge(steps)

    def pick(self, order: int, greedy: T, alternatives: Callable[[], Iterable[T]], key: Callable[[T], Hashable]) -> T:
        """The option to use at this point: ``greedy`` (option 0), or the forced alternative."""
        if self.meter is None:
            return greedy
        k = len(self.points)
        want = self.forced[k] if k < len(self.forced) else 0
        first = key(greedy)
        seen = {first}

        def others() -> Iterator[T]:
            for option in alternatives():
                self.charge()
                mark = key(option)
                if mark not in seen:
                    seen.add(mark)
                    yield option

        options = chain([greedy], others())
        chosen, index = greedy, -1
        for index, option in enumerate(options):
            chosen = option
            if index == want:
                break
        more = index == want and next(options, None) is not None
        self.points.append(Point(order, min(index, want), more, self.errors))
        return chosen


def next_forcing(points: list[Point], best_errors: int, settled: Callable[[int], bool] = lambda order: False
                 ) -> list[int] | None:
    """The forced prefix of the next choice to try (lexicographic order), or None when none can do better.

    ``settled(order)``: the order belongs to a part of the phase that had no error in the run
    the points come from, and that no other part's choices touch; another choice there cannot
    do better, and changes nothing elsewhere, so its points are not varied.
    """
    for i in range(len(points) - 1, -1, -1):
        point = points[i]
        if point.errors_before >= best_errors or settled(point.order):
            continue  # orders before this point already have as many errors as the best choice
        if point.more:
            return [p.taken for p in points[:i]] + [point.taken + 1]
    return None


# -- equivalence -----------------------------------------------------------------------


NAMED: ContextVar[frozenset[str] | None] = ContextVar("movecheck_named_ids", default=None)
"""The ids the orders of the file being checked name (None: any id may be named)."""


def named_ids(raw_moves: Any) -> frozenset[str]:
    """Every id the orders name: in ``units:`` lists and as ``transport:``."""
    found: set[str] = set()
    for raw in raw_moves if isinstance(raw_moves, list) else []:
        if not isinstance(raw, dict):
            continue
        units, transport = raw.get("units"), raw.get("transport")
        if isinstance(units, list):
            found.update(u for u in units if isinstance(u, str))
        if isinstance(transport, str):
            found.add(transport)
    return frozenset(found)


def signature(unit: Unit) -> tuple[Any, ...]:
    """What makes two units different for the rules: units with the same signature are interchangeable.

    A unit with an id an order names is like no other; an id no order of the file names
    tells nothing apart (twelve infantry with ids, three of them named: the other nine are alike).
    """
    aboard = unit.aboard.uid if unit.aboard is not None else None
    cargo = tuple(sorted(c.type.name for c in unit.cargo)) if unit.cargo else ()
    named = NAMED.get()
    return (
        unit.id if named is None or unit.id in named else None,
        unit.type.name,
        unit.power,
        unit.at,
        unit.moved,
        unit.spent,
        unit.move_count,
        unit.done,
        unit.in_battle,
        unit.fought,
        unit.landed,
        unit.loaded,
        unit.loaded_now,
        unit.unloaded_now,
        unit.unloaded_to,
        unit.unloaded_before,
        aboard,
        cargo,
    )


def classes(units: Iterable[Unit]) -> list[list[Unit]]:
    """The units in classes of interchangeable ones, in the order their first member comes."""
    found: dict[tuple[Any, ...], list[Unit]] = {}
    for unit in units:
        found.setdefault(signature(unit), []).append(unit)
    return list(found.values())


# -- options ---------------------------------------------------------------------------


def selections(groups: list[list[Unit]], count: int) -> Iterator[list[Unit]]:
    """Every way to take ``count`` units from classes of interchangeable ones (most from the first classes first)."""

    def walk(k: int, left: int) -> Iterator[list[int]]:
        if k == len(groups):
            if left == 0:
                yield []
            return
        rest = sum(len(g) for g in groups[k + 1:])
        for take in range(min(left, len(groups[k])), max(0, left - rest) - 1, -1):
            for tail in walk(k + 1, left - take):
                yield [take, *tail]

    for takes in walk(0, count):
        yield [u for group, n in zip(groups, takes, strict=True) for u in group[:n]]


def selection_key(units: list[Unit]) -> Hashable:
    """Selections that take as many units of each class are the same choice."""
    counts: dict[tuple[Any, ...], int] = {}
    for unit in units:
        counts[signature(unit)] = counts.get(signature(unit), 0) + 1
    return tuple(sorted(counts.items(), key=repr))


def packings(items: list[Unit], cost: Callable[[Unit], int], bins: list[list[Unit]],
             room: Callable[[Unit], int]) -> Iterator[dict[int, Unit]]:
    """Every way to put all ``items`` into ``bins`` (classes of interchangeable vessels) within their room.

    Items of one type are interchangeable; so are the vessels of a class, so each
    packing is given once: per class, a multiset of fillings (how many of each item type a vessel takes).
    """
    kinds: dict[str, list[Unit]] = {}
    for item in items:
        kinds.setdefault(item.type.name, []).append(item)
    names = sorted(kinds, key=lambda n: (-cost(kinds[n][0]), n))
    costs = [cost(kinds[n][0]) for n in names]
    need = tuple(len(kinds[n]) for n in names)

    def fillings(space: int, left: tuple[int, ...], k: int = 0) -> Iterator[tuple[int, ...]]:
        """Fillings of one vessel with ``space`` room, fullest first."""
        if k == len(left):
            yield ()
            return
        most = min(left[k], space // costs[k]) if costs[k] else 0
        for n in range(most, -1, -1):
            for tail in fillings(space - n * costs[k], left, k + 1):
                yield (n, *tail)

    def classwise(c: int, left: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if not any(left):
            yield []
            return
        if c == len(bins):
            return
        vessels = bins[c]
        space = room(vessels[0])

        def per_vessel(v: int, left: tuple[int, ...], bound: tuple[int, ...] | None) -> Iterator[list[tuple[int, ...]]]:
            if v == len(vessels):
                for tail in classwise(c + 1, left):
                    yield tail
                return
            for fill in fillings(space, left):
                if bound is not None and fill > bound:
                    continue  # a multiset: each vessel of the class takes no more than the one before
                rest = tuple(a - b for a, b in zip(left, fill, strict=True))
                for tail in per_vessel(v + 1, rest, fill):
                    yield [fill, *tail]

        yield from per_vessel(0, left, None)

    flat = [v for group in bins for v in group]
    for fills in classwise(0, need):
        plan: dict[int, Unit] = {}
        pools = {n: list(kinds[n]) for n in names}
        for vessel, fill in zip(flat, fills, strict=False):
            for name, n in zip(names, fill, strict=True):
                for _ in range(n):
                    plan[pools[name].pop(0).uid] = vessel
        yield plan


def packing_key(plan: Mapping[int, Unit | None], units: dict[int, Unit]) -> Hashable:
    """Packings that give each class of vessel the same types of cargo are the same choice."""
    loads: dict[int, list[str]] = {}
    vessels: dict[int, Unit] = {}
    for uid, vessel in plan.items():
        if vessel is None:
            continue
        vessels[vessel.uid] = vessel
        loads.setdefault(vessel.uid, []).append(units[uid].type.name)
    return tuple(sorted((repr(signature(vessels[v])), tuple(sorted(t))) for v, t in loads.items()))


def spread_key(unit_cost: int, room: int, dearer: Iterable[int]) -> tuple[bool, int]:
    """Where a load harms later loads least: a vessel whose room no dearer unit could use, then the most room left.

    With aa1942's transports (2 infantry, or 1 infantry and 1 other) an infantry goes
    first beside another unit, then onto an empty transport, last beside an infantry:
    two transports with an infantry each take whatever an empty one and a full one
    take, and two tanks more.  So cargo loaded order by order keeps every later
    load's options (infantry first, tanks after: one of each per transport).
    """
    return (any(unit_cost < cost <= room for cost in dearer), -(room - unit_cost))


# -- independent parts ------------------------------------------------------------------


def parts(moves: Iterable[Any]) -> dict[int, int]:
    """Each order's part of the phase: orders are in one part when their paths share a space, directly or
    through other orders (the units an order may choose, the transports and carriers it may take, all
    stand in the spaces of its path).  Returns the 1-based order -> the first order of its part."""
    from movecheck.aa.partition import Partition

    partition: Partition[tuple[str, Any]] = Partition()
    for move in moves:
        for space in move.path:
            partition.join(("space", space), ("order", move.index))
    roots: dict[Any, int] = {}
    found = {}
    for move in sorted(moves, key=lambda m: m.index):
        found[move.index] = roots.setdefault(partition.find(("order", move.index)), move.index)
    return found


# -- counting bounds -------------------------------------------------------------------


class Overloads:
    """Loads that no choice can fit: proved by counting, so the search never varies choices to avoid them.

    A land load into a zone no earlier order sails into, out of or through (only land
    units loading there, which take room and never make it) finds at most the room the
    zone's transports had when the phase began.  When the order's cargo needs more than
    that, AA401 holds for every choice of units, transports and carriers.  The cargo is
    the same for every choice when no earlier order ends where it starts (the units to
    choose from are the ones that were there to begin with, alike in cost by type).
    """

    def __init__(self, board: Any) -> None:
        from movecheck.aa.setup import cargo_load

        self.rooms: dict[str, list[int]] = {}
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

    def look(self, move: Any, board: Any, route: Any) -> None:
        """Before ``move`` is carried out: whether its load overflows whatever the choice; then note where it goes.

        ``route``: its land route (:func:`movecheck.aa.moves.land_route` of its path)."""
        land = move.land_movers()
        if (land and route.load_at is not None and move.transport is None and move.path[0] not in self.arrived
                and (route.bad_step is None or route.bad_step > route.load_at)):
            zone = move.path[route.load_at]
            costs = [u.type.transport_cost for u in land]
            if zone in self.room and zone not in self.sailed and all(costs):
                if sum(costs) > self.room[zone]:
                    self.fixed.add((move.index, "AA401"))
                    self.fixed_zones.add(zone)
                so_far = self.loaded.setdefault(zone, [])
                so_far += costs
                least = min(so_far)
                if sum(so_far) > self.room[zone] or len(so_far) > sum(r // least for r in self.rooms[zone]):
                    self.overflowing.add(zone)
        if any(not u.type.is_land for u in move.units) or board.is_sea(move.path[0]):
            self.sailed.update(s for s in move.path if board.is_sea(s))
        self.arrived.update(move.path[1:])

    def lower_bound(self) -> int:
        """Errors every choice gives besides those of :attr:`fixed`: one per zone its loads overflow."""
        return len(self.overflowing - self.fixed_zones)

    def counts(self, order: int | None, code: str) -> bool:
        """The error is one every choice gives (so no search can avoid it)."""
        return (order, code) in self.fixed
