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

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from movecheck import budget
from movecheck.records import dataclass_on_first_use

if TYPE_CHECKING:
    from movecheck.aa.units import Unit

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


@dataclass_on_first_use
class Point:
    """One open choice met while carrying the phase out."""

    order: int
    taken: int
    more: bool
    errors_before: int


@dataclass_on_first_use
class SearchStats:
    """What one choice search did, for the benchmark and the tests (:data:`OBSERVER`)."""

    runs: int = 0
    """Runs of the phase with a searching chooser."""
    points: int = 0
    """Choice points met, over every run."""
    listings: int = 0
    """Points whose options were listed (the alternatives built): once per distinct point, not per run."""
    reused: int = 0
    """Points whose options a run took from an earlier run's listing."""
    copied: int = 0
    """Units copied onto fresh boards for the runs (only those in the spaces of the orders' paths)."""
    restored: int = 0
    """Units put back as they were before the order a run goes back to (:mod:`movecheck.aa.replay`)."""
    replays: int = 0
    """Runs carried out again on a whole copy of the board: the one the search keeps, when it is not the greedy run."""


OBSERVER: ContextVar[Callable[[SearchStats], None] | None] = ContextVar("movecheck_choice_observer", default=None)
"""Called with the :class:`SearchStats` of each choice search (tests and the benchmark set it)."""


@dataclass_on_first_use
class Listing:
    """The options of one choice point, kept for every later run that reaches the same point.

    Runs are deterministic: a run whose choices at the points before this one are the same
    reaches this point with the same board, so its options are the same.  Options are kept
    by unit identity (uids), and mapped onto each run's own board (:func:`_port`).  The
    listing is built lazily, as runs ask for later options; the alternatives' inputs were
    fixed when the point was first met (:func:`packings` and the selections read no board).
    """

    first: Hashable
    """The greedy option's key: a run reaching this point with another greedy option is not the same point."""
    options: list[Any]
    """The options so far, in uid form (:func:`_ids`), the greedy one first."""
    seen: set[Hashable]
    source: Iterator[Any] | None
    made_on: object
    """The token of the run whose board ``source`` lists on (a later run keys its options on its own board)."""
    children: dict[int, Listing] = field(default_factory=dict)
    """The next point's listing after each option taken here."""


@dataclass_on_first_use
class Memo:
    """The listings of one search, a tree: the first point's at the root, each next point's under the option taken."""

    root: Listing | None = None
    stats: SearchStats = field(default_factory=SearchStats)


def _ids(option: Any) -> Any:
    """An option in uid form: a selection (list of units) or a packing (uid -> vessel) without the units."""
    if isinstance(option, list):
        return tuple(u.uid for u in option)
    return tuple((uid, None if vessel is None else vessel.uid) for uid, vessel in option.items())


def _port(kept: Any, example: Any, units: Mapping[int, Unit]) -> Any:
    """An option in uid form on a run's own board, shaped as ``example`` (the greedy option) is."""
    if isinstance(example, list):
        return [units[uid] for uid in kept]
    return {uid: None if vessel is None else units[vessel] for uid, vessel in kept}


@dataclass
class Chooser:
    """The choices of one run of the phase: the ``forced`` option at the first points, option 0 after.

    Without ``meter`` it is the greedy run: :meth:`pick` returns the greedy
    option and records nothing (no alternative is built).  With ``memo`` (and the
    run's ``board``), the options of points an earlier run of the same search met are
    taken from its listing instead of listed again.
    """

    forced: Sequence[int] = ()
    meter: Meter | None = None
    errors: int = 0
    """Errors found so far in orders before the current one (the engine keeps it up to date)."""
    points: list[Point] = field(default_factory=list)
    spread: bool = False
    """Pack transports by :func:`spread_key` instead of best fit (the search's first try, before it branches)."""
    memo: Memo | None = None
    board: Any = None
    watch: bool = False
    """A greedy run that notes where the spread try would choose otherwise (:attr:`diverged`), so that the try
    goes back to that order only (:meth:`~movecheck.aa.replay.Replayer.again_from`, issue 37)."""
    diverged: int | None = None
    """The first (1-based) order at which the spread try's choice differs from this greedy run's (``watch``)."""
    _units: dict[int, Unit] | None = field(default=None, repr=False)
    _at: tuple[Listing, int] | None = field(default=None, repr=False)
    _token: object = field(default_factory=object, repr=False)
    """The listing of the point before and the option taken there."""

    @property
    def searching(self) -> bool:
        return self.meter is not None

    @property
    def watching(self) -> bool:
        """Whether the spread try's choices are still to be compared with this run's (none differed yet)."""
        return self.watch and self.diverged is None

    def differs(self, order: int) -> None:
        """The spread try chooses otherwise at this (1-based) order."""
        self.diverged = order if self.diverged is None else min(self.diverged, order)

    def charge(self, steps: int = 1) -> None:
        if self.meter is not None:
            self.meter.charge(steps)

    def pick(self, order: int, greedy: T, alternatives: Callable[[], Iterable[T]], key: Callable[[T], Hashable]) -> T:
        """The option to use at this point: ``greedy`` (option 0), or the forced alternative."""
        if self.meter is None:
            return greedy
        k = len(self.points)
        want = self.forced[k] if k < len(self.forced) else 0
        if self.memo is None:
            self.memo, self.board = Memo(), None  # a memo of its own: nothing shared, options kept as they are
        stats = self.memo.stats
        stats.points += 1
        first = key(greedy)
        listing = self.memo.root if self._at is None else self._at[0].children.get(self._at[1])
        if listing is None or listing.first != first:
            listing = Listing(first, [self._keep(greedy)], {first}, iter(alternatives()), self._token)
            stats.listings += 1
            if self._at is None:
                self.memo.root = listing
            else:
                self._at[0].children[self._at[1]] = listing
        else:
            stats.reused += 1
        while len(listing.options) <= want + 1 and listing.source is not None:
            option: Any = next(listing.source, _END)
            if option is _END:
                listing.source = None
                break
            self.charge()
            kept = self._keep(option)
            here: T = option if listing.made_on is self._token else self._use(kept, greedy)
            mark = key(here)
            if mark not in listing.seen:
                listing.seen.add(mark)
                listing.options.append(kept)
        index = min(want, len(listing.options) - 1)
        more = index == want and len(listing.options) > want + 1
        self.points.append(Point(order, index, more, self.errors))
        self._at = (listing, index)
        return greedy if index == 0 else self._use(listing.options[index], greedy)

    def _keep(self, option: Any) -> Any:
        """An option as a listing keeps it: in uid form when runs on other boards will read it."""
        return option if self.board is None else _ids(option)

    def _use(self, kept: Any, example: T) -> T:
        """A kept option on this run's board, shaped as ``example`` is."""
        if self.board is None:
            same: T = kept
            return same
        if self._units is None:
            self._units = {u.uid: u for u in self.board.units}
        moved: T = _port(kept, example, self._units)
        return moved


_END = object()


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
    packing is given once: per class, a multiset of fillings (how many of each item type a vessel takes),
    branching on the vessels that take something (the empty ones of a class are not walked one by one).
    The rooms and costs are read now: the packings listed later (a later run of the search) read no board.
    """
    kinds: dict[str, list[Unit]] = {}
    for item in items:
        kinds.setdefault(item.type.name, []).append(item)
    names = sorted(kinds, key=lambda n: (-cost(kinds[n][0]), n))
    costs = [cost(kinds[n][0]) for n in names]
    need = tuple(len(kinds[n]) for n in names)
    spaces = [room(vessels[0]) for vessels in bins]
    sizes = [len(vessels) for vessels in bins]
    pools = {n: [u.uid for u in kinds[n]] for n in names}
    return _packings(names, costs, need, spaces, sizes, [list(vessels) for vessels in bins], pools)


def _packings(names: list[str], costs: list[int], need: tuple[int, ...], spaces: list[int], sizes: list[int],
              bins: list[list[Unit]], pools: dict[str, list[int]]) -> Iterator[dict[int, Unit]]:
    def fillings(space: int, left: tuple[int, ...], k: int = 0) -> Iterator[tuple[int, ...]]:
        """Fillings of one vessel with ``space`` room, fullest first."""
        if k == len(left):
            yield ()
            return
        most = min(left[k], space // costs[k]) if costs[k] else 0
        for n in range(most, -1, -1):
            for tail in fillings(space - n * costs[k], left, k + 1):
                yield (n, *tail)

    def classwise(c: int, left: tuple[int, ...]) -> Iterator[list[list[tuple[int, ...]]]]:
        """Per class from ``c`` on, the fillings of its vessels that take something (the others take nothing)."""
        if not any(left):
            yield []
            return
        if c == len(spaces):
            return

        def per_vessel(v: int, left: tuple[int, ...], bound: tuple[int, ...] | None
                       ) -> Iterator[tuple[list[tuple[int, ...]], list[list[tuple[int, ...]]]]]:
            if v == sizes[c] or not any(left):
                for tail in classwise(c + 1, left):
                    yield [], tail
                return
            for fill in fillings(spaces[c], left):
                if bound is not None and fill > bound:
                    continue  # a multiset: each vessel of the class takes no more than the one before
                if not any(fill):  # this vessel takes nothing, nor does any after it in the class
                    for tail in classwise(c + 1, left):
                        yield [], tail
                    continue
                rest = tuple(a - b for a, b in zip(left, fill, strict=True))
                for mine, tail in per_vessel(v + 1, rest, fill):
                    yield [fill, *mine], tail

        for mine, tail in per_vessel(0, left, None):
            yield [mine, *tail]

    for fills in classwise(0, need):
        plan: dict[int, Unit] = {}
        taken = dict.fromkeys(names, 0)
        for vessels, per_class in zip(bins, fills, strict=False):
            for vessel, fill in zip(vessels, per_class, strict=False):
                for name, n in zip(names, fill, strict=True):
                    for uid in pools[name][taken[name]:taken[name] + n]:
                        plan[uid] = vessel
                    taken[name] += n
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


def parts(moves: Iterable[Any], unlinking: Collection[str] = ()) -> dict[int, int]:
    """Each order's part of the phase: orders are in one part when their paths share a space, directly or
    through other orders (the units an order may choose, the transports and carriers it may take, all
    stand in the spaces of its path).  Returns the 1-based order -> the first order of its part.

    ``unlinking``: spaces that link no orders (:func:`unlinking`): units can be swapped there only for alike ones."""
    from movecheck.aa.partition import Partition

    partition: Partition[tuple[str, Any]] = Partition()
    for move in moves:
        partition.join(("order", move.index), ("order", move.index))
        for space in move.path:
            if space not in unlinking:
                partition.join(("space", space), ("order", move.index))
    roots: dict[Any, int] = {}
    found = {}
    for move in sorted(moves, key=lambda m: m.index):
        found[move.index] = roots.setdefault(partition.find(("order", move.index)), move.index)
    return found


def unlinking(board: Any, moves: Iterable[Any]) -> frozenset[str]:
    """Land spaces through which the orders' choices cannot reach each other (issue 37: the search split by units
    that can be swapped, not by spaces touched): no order ends there, so the units there all through the phase are
    those it began with, and those are alike by type and power (one :func:`signature` each).  Whichever units an
    order takes there, they are of the kinds it names, alike, so what one order picks leaves every other order's
    choices as they were.  ``board``: as the phase began."""
    moves = list(moves)
    ends = {move.path[-1] for move in moves}
    candidates = {space for move in moves for space in move.path if space not in ends and not board.is_sea(space)}
    found = set()
    for space in sorted(candidates):
        kinds: dict[tuple[str, str], set[tuple[Any, ...]]] = {}
        for unit in board.units_at(space):
            kinds.setdefault((unit.type.name, unit.power), set()).add(signature(unit))
        if all(len(alike) == 1 for alike in kinds.values()):
            found.add(space)
    return frozenset(found)
