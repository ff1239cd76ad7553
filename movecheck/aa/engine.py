"""Apply a file of aa orders to a board, in file order, checking each move as it comes.

Each move is checked against the board as the earlier moves left it, then
applied as written (when its units exist), so one mistake does not cascade.
End-of-phase clauses run after the last move.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, cast

from movecheck import budget
from movecheck.aa import clause_index as _clause_index  # noqa: F401  (each clause family imported when needed)
from movecheck.aa.bounds import least_errors
from movecheck.aa.choice import (
    CHOICE_CODES,
    NAMED,
    OBSERVER,
    Chooser,
    Memo,
    Meter,
    Point,
    classes,
    named_ids,
    next_forcing,
    packing_key,
    packings,
    parts,
    unlinking,
)
from movecheck.aa.model import Board
from movecheck.aa.moves import Move, carried, land_route, resolve_move
from movecheck.aa.overloads import Overloads
from movecheck.aa.phase import Phase, Record, Undecided, occasion
from movecheck.aa.replay import Replayer
from movecheck.aa.setup import carrier_load
from movecheck.aa.units import Unit, describe
from movecheck.budget import SearchLimit, per_file
from movecheck.clauses import CATALOGUE, Severity, Violation
from movecheck.document import Document
from movecheck.findings import Finding, make_finding
from movecheck.i18n import _


def apply(phase: Phase, move: Move) -> None:
    """Carry out a move as written."""
    board = phase.board
    record = Record(move, list(move.units))
    riders = set(u.uid for u in move.riders)
    plan = phase.loading_plan(move)
    carried_along = [p for vessel in move.units if vessel.type.is_sea for p in _take_along(phase, move, vessel, record)]
    for unit in move.units:
        if unit.type.is_fighter and phase.passed_carrier(move, unit):
            _take_off(phase, unit)
        unit.last_order, unit.raiding = move.index, move.raid  # the last order of a journey says whether it raids
        phase.last_order[unit.uid] = move
        if move.attack is not None and move.attack in move.path:
            phase.attacked[unit.uid] = move.attack
        if unit.uid in riders:
            continue  # cargo of a carrier of the move: it goes with it, spending nothing
        unit.move_count += 1
        if unit.type.is_land:
            _apply_land(phase, move, unit, plan, record)
        elif unit.type.is_air:
            unit.spent += len(move.path) - 1
            board.leave_vessel(unit)
            board.move_unit(unit, move.end)
        else:
            unit.spent += len(move.path) - 1
            board.move_unit(unit, move.end)
    if not phase.combat:
        _land_on_carriers(phase, move, record)
    if phase.combat:
        battle = phase.battle_space(move.end)
        for unit in [*move.units, *(f for f in carried_along if f.type.is_fighter and f.power == board.power)]:
            if not (unit.type.is_land and board.is_sea(unit.at)):  # cargo may still unload: an assault
                unit.in_battle = battle
    phase.records.append(record)


def _take_off(phase: Phase, fighter: Unit) -> None:
    """A fighter whose journey goes on from a carrier it landed on, the carrier not having moved since:
    it did not land there after all (:meth:`Phase.passed_carrier`), nor does the report say it did."""
    carrier = fighter.aboard
    landed_at = phase.landings.pop(fighter.uid, None)
    phase.board.leave_vessel(fighter)
    fighter.landed = False
    if carrier is not None:
        carrier.landed = any(f.landed for f in carrier.cargo)
    for record in reversed(phase.records):
        if record.move.index == landed_at:
            record.rides.pop(fighter.uid, None)
            break


def _take_along(phase: Phase, move: Move, vessel: Unit, record: Record) -> list[Unit]:
    """Before a ship moves: the units it carries (:func:`carried`), recorded as riding it; a fighter in
    flight that was only seated on it stays where it is."""
    board = phase.board
    cargo = carried(vessel)
    for passenger in [u for u in vessel.cargo if u not in cargo]:
        board.leave_vessel(passenger)
    for passenger in cargo:
        record.rides[passenger.uid] = (passenger, vessel)
        if passenger.type.is_land:
            record.cargo.append(passenger)
        elif passenger.power == board.power:
            passenger.last_order = move.index  # an end-of-phase finding about it names this order
            phase.last_order[passenger.uid] = move
    return cargo


def _apply_land(phase: Phase, move: Move, unit: Unit, plan: dict[int, Unit | None], record: Record) -> None:
    board = phase.board
    if unit.unloaded_now:  # its move was over (AA403): it arrives as written, boards nothing, spends nothing more
        board.move_unit(unit, move.path[-1])
        return
    route = land_route(board, move.path)
    unit.spent += route.cost
    if route.problem == "at_sea":  # it cannot travel by sea on its own (AA105): it arrives as written, aboard nothing
        board.leave_vessel(unit)
        board.move_unit(unit, move.path[-1])
        return
    if route.load_at is not None:
        zone = move.path[route.load_at]
        vessel = plan.get(unit.uid) or phase.overflow(move, zone)
        board.leave_vessel(unit)
        board.move_unit(unit, zone)
        if vessel is not None:
            board.board_unit(unit, vessel)
            vessel.loaded_now = True
            record.loaded.append(unit)
            record.rides[unit.uid] = (unit, vessel)
            unit.loaded_now = True
    if route.unload_at is not None:
        vessel = unit.aboard
        target = move.path[route.unload_at]
        record.unload_zone = move.path[route.unload_at - 1]
        record.unload_to = target
        board.leave_vessel(unit)
        board.move_unit(unit, move.path[-1])
        unit.done = True
        unit.unloaded_now = True
        record.unloaded.append(unit)
        if vessel is not None:
            record.rides.setdefault(unit.uid, (unit, vessel))
            vessel.unloaded_now = True
            vessel.unloaded_to = vessel.unloaded_to or target
        return
    if route.load_at is None:
        board.move_unit(unit, move.path[-1])


def _land_on_carriers(phase: Phase, move: Move, record: Record) -> None:
    """Noncombat: fighters ending in a zone with a friendly carrier slot land on it.

    Greedy: on a carrier whose move is over anyway (a fighter landed on it, it moved)
    before one that may still move; in a search, any packing the chooser forces.
    """
    board = phase.board
    if not board.is_sea(move.end):
        return
    fighters = [u for u in move.units if u.type.is_fighter and u.aboard is None]
    if not fighters:
        return
    carriers = sorted(phase.carriers_in(move.end), key=_carrier_preference(board))
    free = {c.uid: c.type.carrier_capacity - carrier_load(c) for c in carriers}
    plan: dict[int, Unit] = {}
    for fighter in fighters:
        carrier = next((c for c in carriers if free[c.uid] >= fighter.type.carrier_cost), None)
        if carrier is not None:
            plan[fighter.uid] = carrier
            free[carrier.uid] -= fighter.type.carrier_cost
    if phase.chooser.searching and len(carriers) > 1 and len(plan) == len(fighters):
        units = {f.uid: f for f in fighters}
        plan = phase.chooser.pick(
            move.index,
            plan,
            lambda: packings(
                fighters,
                lambda f: f.type.carrier_cost,
                classes(carriers),
                lambda c: c.type.carrier_capacity - carrier_load(c),
            ),
            lambda p: packing_key(p, units),
        )
    for fighter in fighters:
        carrier = plan.get(fighter.uid)
        if carrier is not None:
            board.board_unit(fighter, carrier)
            fighter.landed = True
            carrier.landed = True
            phase.landings[fighter.uid] = move.index
            record.rides[fighter.uid] = (fighter, carrier)


def _carrier_preference(board: Board) -> Callable[[Unit], tuple[Any, ...]]:
    """Carriers whose move is over anyway first, the mover's own first."""
    return lambda c: (not c.landed, not (c.spent or c.move_count or c.moved), c.power != board.power, c.uid)


@dataclass
class Run:
    """One carrying-out of the orders file: its findings, and the phase as it ended."""

    findings: list[Finding]
    orders: int
    checked: set[int]
    phase: Phase
    moves: list[Move]
    choosing: bool = False
    """Its errors include one another choice of units might avoid (:data:`CHOICE_CODES`)."""

    overloads: Overloads | None = None
    shared: bool = False
    cut: bool = False
    """It stopped once its errors were as many as the best choice's: the later orders were not carried out."""
    """Its phase and board go on being changed by later runs of the search (:mod:`movecheck.aa.replay`)."""
    logged: InPlace | None = None
    """The greedy run's carrying-out, kept for the search's first try (:class:`InPlace`)."""
    begun: Board | None = None
    """A copy of the board as the phase began that nothing changes, read by the bounds and the split into parts
    (:func:`_as_begun`)."""
    split: dict[int, int] | None = None
    """Its orders' independent parts, read once (:func:`_parts_of`)."""
    spaces: frozenset[str] | None = None
    """The spaces of its orders' paths, read once (:func:`_spaces_of`)."""
    in_place: InPlace | None = None
    """The greedy run's carrying-out the file's run started from (:class:`InPlace`): the editor takes it back to an
    edited order (:mod:`movecheck.aa.kept`)."""

    @property
    def errors(self) -> int:
        """Errors a choice might avoid: those every choice gives (a counting bound) are left out."""
        return sum(1 for f in self.findings if _searched(f, self.overloads))

    def assignment(self) -> list[dict[str, Any]]:
        """Per order carried out: the units that moved and the vessel each unit rode (``assignment``)."""
        found = []
        for record in self.phase.records:
            entry: dict[str, Any] = {"order": record.move.index, "units": [unit_ref(u) for u in record.units]}
            rides = {unit_ref(u): unit_ref(v) for u, v in (record.rides[k] for k in sorted(record.rides))}
            if rides:
                entry["rides"] = rides
            found.append(entry)
        return found


def unit_ref(unit: Unit) -> str:
    """A unit's id, or the stable id generated from its place in the state (:attr:`Unit.ref`)."""
    return unit.id or unit.ref


def run(doc: Document, board: Board, phase_name: str, fresh: Fresh | None = None, log_from: int | None = None,
        again: tuple[InPlace, int] | None = None, begun: Board | None = None) -> Run:
    """Check every order of an aa orders document, choosing units as aa.md's "Choosing units" says.

    The orders are carried out with the greedy choice on ``board``; when that gives an
    error another choice might avoid, the choices are searched on fresh copies of the
    board (``fresh``) within the choice budget (:mod:`movecheck.aa.choice`).  The result
    holds the findings, the number of orders, the (1-based) orders on which every move
    clause ran, and the choice used.  One search budget covers the whole file
    (:func:`movecheck.budget.per_file`): the choice search and every landing search it asks for.

    The editor (:mod:`movecheck.aa.kept`): ``log_from``, the greedy run keeps its undo log from that (0-based) order
    on, where the player is editing; ``again``: a kept greedy run (:class:`InPlace`) is taken back to the given order
    and carried on from there with ``doc``'s orders (:meth:`InPlace.again_from`; ``board``, the board as the phase
    began, is only read).  ``begun``: the board ``fresh`` copies, which nothing changes: the readers of the board as
    the phase began (the counting bounds, the split into parts) read it rather than a copy of their own (issue 37).
    """
    token = NAMED.set(named_ids(doc.get("moves", default=[])))
    try:
        with per_file():
            return _run(doc, board, phase_name, fresh, log_from, again, begun)
    finally:
        NAMED.reset(token)


KEEP_LISTINGS = True
"""The search's runs share their listings of options (:class:`~movecheck.aa.choice.Memo`); off only to compare."""
PARTIAL_COPIES = True
"""A run of the search copies only the units in the spaces of the orders' paths; off only to compare."""
REPLAY = True
"""The search's runs share one board, each carrying out only the orders from the one whose choice it varies
(:mod:`movecheck.aa.replay`); off only to compare (a fresh copy of the board per run, every order carried out)."""
CUT = True
"""A run of the search stops once its errors are as many as the best choice's (replayed runs only)."""
SWAPPABLE = True
"""The search's parts are split by units that can be swapped: a land space whose units are alike links no orders
(:func:`~movecheck.aa.choice.unlinking`); off only to compare."""
BOUNDS = True
"""The counting bounds read off the orders (:mod:`movecheck.aa.bounds`) end the search early; off only to compare."""
ERROR_FIRST = True
"""Independent parts of the phase are searched with those that carry an error first (issue 37): an error no choice
avoids, met early, stops the search from varying every choice after it; off only to compare."""

Fresh = Callable[[Collection[str] | None], Board]
"""A fresh copy of the board the file is checked against: of the units in the given spaces only
(the others shared, :meth:`Board.copy`), or with None of every unit."""


FIRST_TRY_IN_PLACE = True
"""The greedy run keeps an undo log and notes where the search's first try would choose otherwise; the first try
goes back to that order on the greedy run's own board rather than carrying every order out again on a copy
(issue 37: the editor's re-check of a 100-order turn); off only to compare."""


class InPlace:
    """The greedy run's carrying-out on the engine's board, with its undo log (:class:`~movecheck.aa.replay.Replayer`)
    and the first order at which the search's first try (``Chooser(spread=True)``) would choose otherwise.

    Up to that order the two runs are one: the try carries out only the orders from there.  When the try does no
    better, the greedy run is carried out again from there (:meth:`put_back`), so the board the report and ``apply``
    read is the greedy run's."""

    def __init__(self, doc: Document, board: Board, phase_name: str, log_from: int | None = None) -> None:
        self.watch = Chooser(watch=True)
        self.carry = Carry(doc, board, phase_name, self.watch)
        self.replayer: Replayer[Run] = Replayer(self.carry, _paths(doc, board))
        self.diverged: int | None = None
        self.tried = False
        self.log_from = len(self.carry.raw_moves or []) if log_from is None else log_from
        """Every order from this one (0-based) on is logged, whatever the first try does (the editor's)."""

    def greedy(self) -> Run:
        """The greedy run, each order logged from the first at which the first try would choose otherwise."""
        carry, watch = self.carry, self.carry.chooser
        carry.resolved = self._resolved
        while carry.next < len(carry.raw_moves or []):
            carry.step()
        carry.resolved = None
        found = carry.finish(keep=True)
        self.diverged = watch.diverged
        found.shared, found.logged = False, self
        return found

    def _resolved(self, move: Move | None) -> None:
        """An order read, nothing of it done yet: where the first try would choose otherwise, log it (and every
        order after it) to be undone.  Its loading plan is made here (it reads the board alone, so it is the one the
        clauses and the move would make) for the first try's packing to be compared before anything changes."""
        watch = self.carry.chooser
        if move is not None and watch.watching:
            self.carry.phase.loading_plan(move)
        if watch.diverged is not None or self.carry.next >= self.log_from:
            self.replayer.mark()

    def again_from(self, doc: Document, order: int, begun: Board) -> Run | None:
        """The greedy run of ``doc``, whose orders before ``order`` (0-based) are this run's (their data the same, on
        the same board): this run taken back to ``order`` and carried on from there with ``doc``'s orders, logged
        from there on (the editor, :mod:`movecheck.aa.kept`).  None, with nothing changed, when it cannot be: the
        log does not reach back to ``order``, or ``doc``'s orders attack other sea zones (read off ``begun``, the
        board as the phase began).  The undo log puts back everything an order changes, as for the search's runs
        (a first try left on the board is undone too); the watching chooser keeps where the first try diverges when
        that is before ``order`` (the same orders on the same board)."""
        carry, log = self.carry, self.replayer.log
        raw_moves = doc.get("moves", default=[])
        if not isinstance(raw_moves, list) or not log or log[0].at > order or order >= carry.next:
            return None
        if attack_zones(begun, raw_moves) != carry.phase.attack_zones:
            return None
        if self.tried and self.diverged is not None and order > self.diverged - 1:
            self.put_back()  # the first try's orders from where it diverged are not the greedy run's
        self.tried = False  # before where the first try diverged, the two runs are one
        self.replayer.back_to(order)
        carry.doc = carry.phase.doc = doc
        carry.raw_moves = raw_moves
        self.replayer.paths = _paths(doc, carry.board)
        carry.chooser = carry.phase.chooser = self.watch
        if self.watch.diverged is not None and self.watch.diverged - 1 >= order:
            self.watch.diverged = None
        self.log_from = order
        return self.greedy()

    def first_try(self) -> Run | None:
        """The search's first try, or None when it chooses as the greedy run did at every order (the same run)."""
        if self.diverged is None:
            return None
        self.tried = True
        tried = self.replayer.again_from(self.diverged - 1, Chooser(spread=True))
        tried.shared = False  # on the engine's own board, which no later run of the search changes
        return tried

    def put_back(self) -> None:
        """The greedy run's board and phase again, after a first try that did no better."""
        if self.tried and self.diverged is not None:
            self.tried = False
            self.replayer.again_from(self.diverged - 1, Chooser())


def _run(doc: Document, board: Board, phase_name: str, fresh: Fresh | None, log_from: int | None = None,
         again: tuple[InPlace, int] | None = None, begun: Board | None = None) -> Run:
    resumed = again[0].again_from(doc, again[1], board) if again is not None and fresh is not None else None
    if again is not None and resumed is None and fresh is not None:
        board = fresh(None)  # the board given with ``again`` is the one the phase began on, never changed
    if resumed is not None:
        first = resumed
    elif fresh is not None and FIRST_TRY_IN_PLACE and isinstance(doc.get("moves", default=[]), list):
        first = InPlace(doc, board, phase_name, log_from).greedy()
    else:
        first = _run_once(doc, board, phase_name, Chooser())
    first.begun = first.begun or begun
    found = _chosen(doc, first, phase_name, fresh)
    found.in_place = first.logged
    return found


def _chosen(doc: Document, first: Run, phase_name: str, fresh: Fresh | None) -> Run:
    """The run kept: the greedy run ``first``, or the search's best when it has an error another choice might
    avoid."""
    if not first.choosing or fresh is None:
        return first
    memo = Memo()
    try:
        order = _error_first(doc, first, phase_name, fresh) if ERROR_FIRST else None
        if order is not None:  # the parts that carry an error searched first, then the run kept put back in file order
            return _search_reordered(doc, first, phase_name, fresh, memo, order)
        return _search(doc, first, phase_name, fresh, memo)
    finally:
        observer = OBSERVER.get()
        if observer is not None:
            observer(memo.stats)


def _search(doc: Document, first: Run, phase_name: str, fresh: Fresh, memo: Memo) -> Run:
    """The choice search after a greedy run with an error another choice might avoid (:mod:`movecheck.aa.choice`).

    Every run shares ``memo``: the options of a point an earlier run met are not listed again.  A run
    copies only the units in the spaces of the orders' paths (nothing else moves); the run whose choice
    the search keeps is carried out once more on a whole copy, the board the report and ``apply`` read."""
    best, how, limit = _best_choice(doc, first, phase_name, fresh, memo)
    kept = _again(doc, best, how, phase_name, fresh, memo)
    return kept if limit is None else _out_of_budget(doc, kept, limit)


def _error_first(doc: Document, first: Run, phase_name: str, fresh: Fresh) -> list[int] | None:
    """The orders (0-based) with the independent parts of the phase that carry an error first, each part's orders in
    file order; None when the file order is that already, or the orders are not split into parts whose errors are
    their own (an order not read, an error of no order, a landing plan linking the orders).

    The parts with no error in the greedy run come first (the search never varies their choices, so a run that goes
    back to a later order never carries them out again), then those with one: first those that err in the spread
    try too (the search's first try, made to avoid what the greedy choice runs into: an error both give is likely
    one no choice avoids), then the parts the bounds flag (a zone whose loads overflow whatever the choice), then the
    smaller.  An error met early ends the variation of every choice after it (a choice's errors only add up), so a
    part's error no choice avoids costs the runs of that part, not those of every part before it times its own."""
    raw_moves = doc.get("moves", default=[])
    if not _parts_apart(first) or not isinstance(raw_moves, list) or len(first.moves) != len(raw_moves):
        return None
    part_of = _parts_of(doc, first, fresh)
    erring = [f.order for f in first.findings if _searched(f, first.overloads)]
    if len(set(part_of.values())) < 2 or any(order not in part_of for order in erring):
        return None
    members: dict[int, list[int]] = {}
    for k in sorted(part_of):
        members.setdefault(part_of[k], []).append(k)
    errs = {part_of[cast(int, order)] for order in erring}
    stubborn: set[int] = set()
    if len(errs) > 1:  # the spread try tells the erring parts apart (one erring part goes last whatever it says)
        spread = _run_once(doc, fresh(_spaces_of(doc, first)), phase_name, Chooser(spread=True), first.overloads)
        stubborn = {part_of[f.order] for f in spread.findings if f.order in part_of and _searched(f, spread.overloads)}
    rank = _part_rank(first, errs, stubborn, part_of, members)
    order = [k - 1 for root in sorted(members, key=rank) for k in members[root]]
    return None if order == sorted(order) else order


def _part_rank(first: Run, errs: set[int], stubborn: set[int], part_of: dict[int, int], members: dict[int, list[int]]
               ) -> Callable[[int], tuple[bool, bool, bool, int, int]]:
    """Where a part (named by its first order) goes in the search (:func:`_error_first`): the lower, the earlier.
    ``errs``: the parts with an error in the greedy run; ``stubborn``: those with one in the spread try too."""
    overflowing = first.overloads.overflowing if first.overloads is not None else set()
    flagged = {part_of[m.index] for m in first.moves if overflowing.intersection(m.path)}
    return lambda root: (root in errs, root not in stubborn, root not in flagged, len(members[root]), root)


def _search_reordered(doc: Document, first: Run, phase_name: str, fresh: Fresh, memo: Memo, order: list[int]) -> Run:
    """The choice search over the orders in ``order`` (:func:`_error_first`), the run it keeps carried out again in
    file order with the same choices: the parts share no choice, so each part meets the same points, in the same
    order, whichever part comes first, and the points of the file-order run are the kept run's sorted by order."""
    raw_moves = cast(list[Any], doc.get("moves"))
    shuffled = replace(doc, data={**doc.data, "moves": [raw_moves[k] for k in order]})
    greedy = _run_once(shuffled, fresh(_spaces_of(doc, first)), phase_name, Chooser())
    if not greedy.choosing:
        return _search(doc, first, phase_name, fresh, memo)
    best, how, limit = _best_choice(shuffled, greedy, phase_name, fresh, memo)
    kept = first if how is None else _in_file_order(doc, how, order, phase_name, fresh, memo)
    if _errors_by_order(kept) != sorted((order[k - 1] + 1, code) for k, code in _errors_by_order(best)):
        return _search(doc, first, phase_name, fresh, Memo())  # never met: the parts were not independent after all
    return kept if limit is None else _out_of_budget(doc, kept, limit)


def _in_file_order(doc: Document, how: Chooser, order: list[int], phase_name: str, fresh: Fresh, memo: Memo) -> Run:
    """The orders in file order with the choices ``how`` made on them in the order ``order``, on a whole copy."""
    if how.spread:
        chooser = Chooser(spread=True)
    else:
        by_order = sorted(range(len(how.points)), key=lambda k: (order[how.points[k].order - 1], k))
        forced = [how.points[k].taken for k in by_order]
        chooser = Chooser(forced, Meter(limit=10 ** budget.MAX_DIGITS))
    memo.stats.replays += 1
    return _run_once(doc, fresh(None), phase_name, chooser)


def _errors_by_order(run: Run) -> list[tuple[int, str]]:
    return sorted((f.order, f.code) for f in run.findings if f.severity is Severity.ERROR and f.order)


def _best_choice(doc: Document, first: Run, phase_name: str, fresh: Fresh, memo: Memo
                 ) -> tuple[Run, Chooser | None, SearchLimit | None]:
    """The best run the search finds, the chooser that made it (None: the greedy run) and why it stopped short."""
    meter = Meter()
    best, how = first, None
    least = first.overloads.lower_bound() if first.overloads is not None else 0
    spaces = _spaces_of(doc, first)
    part_of = None
    if _parts_apart(first):  # noncombat: apart through land spaces whose units are alike (issue 37)
        part_of = _parts_of(doc, first, fresh)
    forced: list[int] = []

    def board() -> Board:
        copy = fresh(spaces if PARTIAL_COPIES else None)
        meter.charge(copy.copied)  # a copy of the board is work in proportion to what it copies
        memo.stats.copied += copy.copied
        return copy

    try:
        if BOUNDS:  # read off the orders and the board as the phase began (a copy nothing changes, not a run's)
            least += least_errors(doc.get("moves", default=[]), _as_begun(doc, first, fresh), first.phase.combat)
        if best.errors <= least:
            return best, how, None  # a counting bound: no choice has fewer errors
        # first try: transports packed to keep later loads' options, then the lexicographic search
        meter.charge(first.orders)
        spread = _first_try(doc, first, phase_name, spaces, fresh, meter, memo)
        if spread is not None and spread.errors < best.errors:
            best, how = spread, Chooser(spread=True)
        # a run stops at the best choice's errors only where no part of the phase is settled by its whole run
        cut = CUT and (part_of is None or len(set(part_of.values())) == 1)
        replayer: Replayer[Run] | None = None
        points: list[Point] = []
        while best.errors > least:
            memo.stats.runs += 1
            if REPLAY:  # one board for every run, each carrying out only the orders from the one it varies on
                if replayer is None:
                    copy = board()
                    chooser = Chooser(forced, meter, memo=memo if KEEP_LISTINGS else None, board=copy)
                    carry = Carry(doc, copy, phase_name, chooser, first.overloads)
                    replayer = Replayer(carry, _paths(doc, first.phase.board))
                tried = replayer.run(forced, points, best.errors if cut else None)
                memo.stats.restored = replayer.restored
                points = list(replayer.carry.chooser.points)
                kept = Chooser([p.taken for p in points], points=points)
            else:
                copy = board()
                chooser = Chooser(forced, meter, memo=memo if KEEP_LISTINGS else None, board=copy)
                tried = _run_once(doc, copy, phase_name, chooser, first.overloads)
                points, kept = chooser.points, chooser
            if tried.errors < best.errors:
                best, how = tried, kept
            if best.errors <= least:
                break
            following = next_forcing(points, best.errors, _settled_parts(tried, part_of))
            if following is None:
                break
            forced = following
    except SearchLimit as exc:
        _greedy_kept(first, best)
        return best, how, exc
    _greedy_kept(first, best)
    return best, how, None


def _as_begun(doc: Document, run: Run, fresh: Fresh) -> Board:
    """The units in the spaces of the orders' paths as the phase began, copied once for every reader that changes
    nothing (the counting bounds, the split into parts): a run's own board is changed by its orders."""
    if run.begun is None:
        run.begun = fresh(_spaces_of(doc, run))
    return run.begun


def _parts_of(doc: Document, run: Run, fresh: Fresh) -> dict[int, int]:
    """The independent parts of the run's orders (:func:`~movecheck.aa.choice.parts`, split by units that can be
    swapped), read once for the run (the order of the search and the search itself ask: issue 37)."""
    if run.split is None:
        alike = unlinking(_as_begun(doc, run, fresh), run.moves) if SWAPPABLE and not run.phase.combat else (
            frozenset())
        run.split = parts(run.moves, alike)
    return run.split


def _spaces_of(doc: Document, run: Run) -> frozenset[str]:
    """:func:`_spaces` of the run's orders ``doc``, read once for the run."""
    if run.spaces is None:
        run.spaces = _spaces(doc, run.phase.board)
    return run.spaces


def _first_try(doc: Document, first: Run, phase_name: str, spaces: frozenset[str], fresh: Fresh, meter: Meter,
               memo: Memo) -> Run | None:
    """The search's first try (transports packed to spread, walkers with the least movement that suffices): from the
    order where it chooses otherwise, on the greedy run's board (:class:`InPlace`), else on a copy of its own; None
    when it is the greedy run itself."""
    if first.logged is not None:
        return first.logged.first_try()
    return _run_once(doc, _first_try_board(first, spaces, fresh, meter, memo), phase_name, Chooser(spread=True),
                     first.overloads)


def _greedy_kept(first: Run, best: Run) -> None:
    """The greedy run is the one kept: its board again, when the first try went on it."""
    if best is first and first.logged is not None:
        first.logged.put_back()


def _first_try_board(first: Run, spaces: frozenset[str], fresh: Fresh, meter: Meter, memo: Memo) -> Board:
    """The board of the search's first try: a whole copy when at least half the units stand in the spaces of the
    orders' paths (issue 37: when the first try is the choice kept, often where a bound says how many errors to look
    for, the report and ``apply`` read its board as it is, with no third carrying-out of the orders), else a copy of
    the units in those spaces only (a crowded board: copying it whole costs more than carrying the orders out)."""
    board = first.phase.board
    near = sum(len(board._by_space.get(space, ())) for space in spaces)
    copy = fresh(None if 2 * near >= len(board.units) or not PARTIAL_COPIES else spaces)
    meter.charge(copy.copied)
    memo.stats.copied += copy.copied
    return copy


def _spaces(doc: Document, board: Board) -> frozenset[str]:
    """The spaces of every order's path: the only ones where carrying the orders out changes a unit."""
    return frozenset(space for spaces in _paths(doc, board) for space in spaces)


def _paths(doc: Document, board: Board) -> list[set[str]]:
    """The spaces of each order's path (those that name a space of the map), in file order."""
    found: list[set[str]] = []
    raw_moves = doc.get("moves", default=[])
    for raw in raw_moves if isinstance(raw_moves, list) else []:
        path = raw.get("path") if isinstance(raw, dict) else None
        names = path if isinstance(path, list) else []
        found.append({space for space in (board.map.resolve(n) for n in names) if space is not None})
    return found


def _again(doc: Document, best: Run, how: Chooser | None, phase_name: str, fresh: Fresh, memo: Memo) -> Run:
    """The run the search keeps, carried out again on a whole copy of the board (the same choices, so the same
    findings): a run of the search shares the units its orders do not move with the prepared board.

    Its steps were spent when it first ran: it draws on an account of its own (the choices it takes are kept)."""
    kept = best.phase.board
    if how is None or (not best.shared and (not PARTIAL_COPIES or kept.copied == len(kept.units))):
        return best  # the greedy run, on the engine's own board, or a run whose copy shares no unit
    forced = [p.taken for p in how.points]
    chooser = Chooser(spread=True) if how.spread else Chooser(forced, Meter(limit=10 ** budget.MAX_DIGITS), memo=memo)
    copy = fresh(None)
    chooser.board = copy if chooser.searching else None
    again = _run_once(doc, copy, phase_name, chooser, best.overloads)
    memo.stats.replays += 1
    return again


def _parts_apart(run: Run) -> bool:
    """Whether orders whose paths share no space are independent: not when a landing plan links them (aircraft
    after the combat move, carriers bought this turn that fighters wait for at sea)."""
    board = run.phase.board
    flying = any(u.type.is_air for move in run.moves for u in move.units)
    if run.phase.combat:
        return not flying
    if not any(board.map.unit_types[k].is_carrier for k in board.purchased if k in board.map.unit_types):
        return True
    # a carrier bought this turn links only aircraft: none moves, and none of the mover's waits at sea (issue 37, B9)
    return not flying and not any(u.type.is_air and board.is_sea(u.at) and u.power == board.power for u in board.units)


def _settled_parts(run: Run, part_of: dict[int, int] | None) -> Callable[[int], bool]:
    """Orders of parts with no error in ``run`` (every finding of it attributed to an order)."""
    # a run cut short says nothing of its later orders' parts
    if part_of is None or run.cut or any(f.order not in part_of for f in run.findings if _searched(f, run.overloads)):
        return lambda order: False
    erring = {part_of[f.order] for f in run.findings if f.order is not None and _searched(f, run.overloads)}
    return lambda order: order in part_of and part_of[order] not in erring


def _out_of_budget(doc: Document, best: Run, exc: SearchLimit) -> Run:
    """The best choice found, with the orders whose errors another choice might avoid unchecked (MC012)."""
    moves = {m.index: m for m in best.moves}
    doubtful = sorted(
        {f.order for f in best.findings if f.order is not None and _choice_dependent(f, moves, best.overloads)}
    )
    # an error no choice can change stays an error: only what a choice might avoid becomes unchecked
    kept = [f for f in best.findings if not _choice_dependent(f, moves, best.overloads)]
    for order in doubtful:
        move = moves[order]
        message = _(
            "{reason}: no choice of units, transports and carriers found makes this order legal, "
            "and not every choice was tried"
        ).format(reason=exc.reason())
        kept.append(_finding(doc, Violation(message, move.where, code="MC012"), move.index, move.order_id))
    best.findings = kept
    return best


def _searched(finding: Finding, overloads: Overloads | None) -> bool:
    """An error the search counts: not one a counting bound proved every choice gives."""
    fixed = overloads is not None and overloads.counts(finding.order, finding.code)
    return finding.severity is Severity.ERROR and not fixed


def _choice_dependent(finding: Finding, moves: dict[int, Move], overloads: Overloads | None = None) -> bool:
    """An error of this order that another choice of units might avoid."""
    if finding.severity is not Severity.ERROR or finding.code not in CHOICE_CODES or finding.order not in moves:
        return False
    if overloads is not None and overloads.counts(finding.order, finding.code):
        return False  # every choice gives it (a counting bound)
    move = moves[finding.order]
    if finding.code == "AA104":
        return move.short_by_choice
    return finding.code != "AA102" or move.at_sea


def _run_once(doc: Document, board: Board, phase_name: str, chooser: Chooser, start: Overloads | None = None) -> Run:
    """Carry the orders out once, with the choices ``chooser`` makes (``start``: the first run's counting bounds,
    whose rooms at the start of the phase this run shares)."""
    carry = Carry(doc, board, phase_name, chooser, start)
    if carry.raw_moves is None:
        return Run([], 0, set(), carry.phase, [])
    while carry.next < len(carry.raw_moves):
        carry.step()
    return carry.finish()


def attack_zones(board: Board, raw_moves: list[Any]) -> set[str]:
    """The sea zones with enemy units the orders attack (``attack:``), read before the first order is carried out."""
    found = set()
    for raw in raw_moves:
        if not isinstance(raw, dict):
            continue
        attack, path = raw.get("attack"), raw.get("path")
        if attack is True and isinstance(path, list) and path:
            zone = board.map.resolve(path[-1])
        elif isinstance(attack, str):
            zone = board.map.resolve(attack)
        else:
            zone = None
        if zone and board.is_sea(zone) and board.enemy_units(zone):
            found.add(zone)
    return found


class Carry:
    """The orders carried out one at a time: a run of the phase, which :mod:`movecheck.aa.replay` may take back
    to an earlier order and carry on from there with other choices."""

    def __init__(self, doc: Document, board: Board, phase_name: str, chooser: Chooser,
                 start: Overloads | None = None) -> None:
        self.doc, self.board, self.phase_name, self.chooser = doc, board, phase_name, chooser
        self.phase = Phase(board, doc, phase_name, chooser=chooser)
        self.findings: list[Finding] = []
        self.checked: set[int] = set()
        self.moves: list[Move] = []
        self.errors = 0
        """The errors of the orders so far, counted as they come (up to :attr:`seen` findings)."""
        self.seen = 0
        self.next = 0
        """The (0-based) order to carry out next."""
        raw_moves = doc.get("moves", default=[])
        self.raw_moves: list[Any] | None = raw_moves if isinstance(raw_moves, list) else None
        self.move_clauses = CATALOGUE.running("aa", occasion(phase_name, "move"))
        self.move_checks = [(c, c.check if c.check is not None else c.run) for c in self.move_clauses]
        """Each order's clauses and their checks, called directly (:meth:`Clause.vetted` on what they find)."""
        self.overloads = Overloads(board, start)
        self.resolved: Callable[[Move | None], None] | None = None
        """Called with each order once it is read and its units chosen, before it changes anything (``InPlace``)."""
        self.phase.attack_zones |= attack_zones(board, self.raw_moves or [])

    def step(self) -> None:
        """Carry out the next order: check it, then apply it."""
        doc, board, phase, chooser, findings = self.doc, self.board, self.phase, self.chooser, self.findings
        index = self.next
        raw = cast(list[Any], self.raw_moves)[index]
        self.errors += sum(1 for f in findings[self.seen:] if _searched(f, self.overloads))
        self.seen = len(findings)
        chooser.errors = self.errors
        chooser.charge()
        move, problems = resolve_move(doc, board, raw, index, chooser)
        if self.resolved is not None:
            self.resolved(move)
        self.next += 1
        findings.extend(_with_order(f, index + 1, raw) for f in problems)
        if move is None:
            return
        self.moves.append(move)
        move.riders = phase.riders(move)
        self.overloads.look(move, board, land_route(board, move.path))
        phase.counted |= move.counted
        for clause, check in self.move_checks:
            for found in check(move, phase):
                violation = clause.vetted(found)
                findings.append(_finding(doc, violation, move.index, move.order_id))
                move.short_by_choice = move.short_by_choice or (
                    violation.code == "AA104" and phase.short_by_choice(move)
                )
        self.checked.add(index + 1)
        apply(phase, move)

    def errors_so_far(self) -> int:
        """The errors the search counts in the orders carried out so far."""
        return self.errors + sum(1 for f in self.findings[self.seen:] if _searched(f, self.overloads))

    def cut(self) -> Run:
        """The run stopped before its end (:meth:`~movecheck.aa.replay.Replayer.run`): no verdict, only its errors."""
        return Run(list(self.findings), len(self.raw_moves or []), set(self.checked), self.phase, list(self.moves),
                   overloads=self.overloads.copy(), shared=True, cut=True)

    def finish(self, keep: bool = False) -> Run:
        """The end clauses, and the run.  ``keep``: this carrying-out goes on being changed (a replay), so the run
        gets copies of what it reads later (its findings, orders and counting bounds), not the objects themselves."""
        doc, moves, phase = self.doc, self.moves, self.phase
        findings = list(self.findings)
        unchecked: dict[int, Finding] = {}
        for clause in CATALOGUE.running("aa", occasion(self.phase_name, "end")):
            try:
                for violation in clause.run(phase):
                    findings.append(_finding(doc, violation, violation.order, violation.order_id))
            except SearchLimit as exc:
                for finding in _unchecked(doc, exc, moves):
                    # once per order (each MC012 names its order), whichever clauses ran out
                    unchecked.setdefault(cast(int, finding.order), finding)
        findings.extend(unchecked[order] for order in sorted(unchecked))
        overloads = self.overloads.copy() if keep else self.overloads
        result = Run(findings, len(self.raw_moves or []), set(self.checked), phase, list(moves), overloads=overloads,
                     shared=keep)
        indexed = {m.index: m for m in moves}
        result.choosing = any(_choice_dependent(f, indexed, overloads) for f in findings)
        return result


def _unchecked(doc: Document, exc: SearchLimit, moves: list[Move]) -> list[Finding]:
    """MC012 at each order a search that ran out left undecided (its clauses gave no finding for those units)."""
    if isinstance(exc, Undecided):
        undecided = exc.orders()
        what = exc.template
    else:  # a search that cannot say which orders it left undecided: none of them is checked
        undecided = [(move, move.units) for move in moves]
        what = Undecided.template
    return [
        _finding(doc, Violation(f"{exc.reason()}: " + _(what).format(units=describe(units)), move.where, code="MC012"),
                 move.index, move.order_id)
        for move, units in undecided
    ]


def _with_order(finding: Finding, order: int, raw: Any) -> Finding:
    order_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    return replace(finding, order=order, order_id=order_id)


def _finding(doc: Document, violation: Violation, order: int | None, order_id: str | None) -> Finding:
    # a finding about the file's orders as a whole (no order of it moved the unit) points at the
    # `moves:` key itself: its value starts on the line of the first order, which is not the one meant
    line, column = doc.key_pos(violation.where) if len(violation.where) == 1 else doc.pos(violation.where)
    severity = Severity(violation.severity) if violation.severity else None
    return make_finding(
        violation.code or "", violation.message, file=doc.path, line=line, column=column, order=order,
        order_id=order_id, severity=severity,
    )


__all__ = ["Run", "apply", "run", "unit_ref"]
