"""The choice search's runs carried on from the order they change (issue 37): a run costs what it changes.

Successive runs of the search (lexicographic order of the choices) share the choices before the point
they vary, so they carry out the orders before that point's order alike.  One board serves every run,
with an undo log: before each order is carried out, what it may change is kept (an :class:`Entry`: the
units in the spaces of its path and what they carry or are aboard, the board's index of those spaces,
the phase's entries for those units, the counting bounds and how long the lists of records, findings and
choice points were).  A later run undoes the orders back to the one whose choice it varies, newest first,
and carries out only the orders from there.  An order changes no unit outside the spaces of its path (the
rule the partial copies of the board rely on too), so nothing else needs keeping; the objects stay the
same (the earlier orders' records and moves name them), only their fields are put back.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from movecheck.records import dataclass_on_first_use

if TYPE_CHECKING:
    from movecheck.aa.choice import Chooser, Point
    from movecheck.aa.model import Board
    from movecheck.aa.moves import Move
    from movecheck.aa.overloads import Overloads
    from movecheck.aa.phase import Phase, Record
    from movecheck.aa.units import Unit
    from movecheck.findings import Finding

RunT = TypeVar("RunT", covariant=True)


class Carrying(Protocol[RunT]):
    """What a replayer uses of the engine's carrying-out (:class:`movecheck.aa.engine.Carry`), named here so that
    this module needs nothing of the engine's (the engine imports it)."""

    board: Board
    phase: Phase
    chooser: Chooser
    raw_moves: list[Any] | None
    next: int
    overloads: Overloads
    findings: list[Finding]
    checked: set[int]
    moves: list[Move]
    errors: int
    seen: int

    def step(self) -> None: ...

    def errors_so_far(self) -> int: ...

    def cut(self) -> RunT: ...

    def finish(self, keep: bool = False) -> RunT: ...


_MISSING = object()


@dataclass_on_first_use
class Entry:
    """What carrying out the order :attr:`at` (0-based) may change, as it was before: put back, it undoes the order."""

    at: int
    units: list[tuple[Unit, dict[str, Any]]]
    spaces: dict[str, tuple[dict[int, Unit] | None, list[Unit] | None]]
    by_uid: dict[str, dict[int, Any]]
    """The phase's entries by uid for the units of :attr:`units` (:data:`_MISSING`: none)."""
    counted: set[int]
    """Those units' uids not yet counted."""
    rides: list[tuple[Record, dict[int, tuple[Unit, Unit]]]]
    facts: dict[str, Any]
    overloads: Any
    """What the counting bounds' look at the order may change (:meth:`~movecheck.aa.overloads.Overloads.mark`)."""
    records: int
    findings: int
    moves: int
    errors: int
    seen: int
    points: int
    listing: Any


_BY_UID = ("last_order", "attacked", "landings")


class Replayer(Generic[RunT]):
    """Runs of the search on one carrying-out, each going back to the order it varies (an undo log per order)."""

    def __init__(self, carry: Carrying[RunT], paths: Sequence[Collection[str]]) -> None:
        """``paths``: the spaces of each order's path (0-based, as the file gives them)."""
        self.carry = carry
        self.paths = paths
        self.log: list[Entry] = []
        self.restored = 0
        """Units put back, over every run (the work a run does besides carrying orders out)."""

    def run(self, forced: list[int], before: Sequence[Point], bound: int | None = None) -> RunT:
        """A run with the choices ``forced`` at the first points, after the run whose points were ``before``.

        ``bound``: the errors of the best choice so far.  Once the orders carried out have as many, no choice
        under this one does better (errors only add up): the run stops there, :attr:`Run.cut` (the points after
        it would not be varied either, their orders having as many errors before them)."""
        carry = self.carry
        varied = before[len(forced) - 1].order - 1 if forced and len(forced) <= len(before) else 0
        self.back_to(varied)
        carry.chooser.forced = forced
        raw_moves = carry.raw_moves or []
        while carry.next < len(raw_moves):
            self.log.append(self._entry())
            carry.step()
            if bound is not None and carry.errors_so_far() >= bound:
                return carry.cut()
        return carry.finish(keep=True)

    def back_to(self, order: int) -> None:
        """Undo the orders from ``order`` (0-based) on, newest first: the carrying-out is as it was before it."""
        while self.log and self.log[-1].at >= order:
            self._undo(self.log.pop())

    def mark(self) -> None:
        """Log the order to be carried out next, before it changes anything (it can be undone)."""
        self.log.append(self._entry())

    def again_from(self, order: int, chooser: Chooser) -> RunT:
        """The run that differs from the one carried out so far from ``order`` (0-based) on, where ``chooser`` (which
        chooses as the one before did at every earlier order) takes over: the orders before it are not carried out
        again (issue 37: the search's first try after the greedy run)."""
        self.back_to(order)
        carry = self.carry
        carry.chooser = carry.phase.chooser = chooser
        raw_moves = carry.raw_moves or []
        while carry.next < len(raw_moves):
            self.log.append(self._entry())
            carry.step()
        return carry.finish(keep=True)

    def _entry(self) -> Entry:
        carry = self.carry
        board, phase, chooser = carry.board, carry.phase, carry.chooser
        spaces = self.paths[carry.next] if carry.next < len(self.paths) else ()
        units = _linked(board, spaces)
        kept = []
        for unit in units:
            fields = dict(unit.__dict__)
            fields["cargo"] = list(unit.cargo)
            kept.append((unit, fields))
        by_space, enemies = board._by_space, board._enemies
        uids = [u.uid for u in units]
        landed_at = {phase.landings[uid] for uid in uids if uid in phase.landings}
        chooser.charge(len(kept))
        return Entry(
            carry.next, kept,
            {s: (dict(by_space[s]) if s in by_space else None, list(enemies[s]) if s in enemies else None)
             for s in spaces},
            {name: {uid: getattr(phase, name).get(uid, _MISSING) for uid in uids} for name in _BY_UID},
            {uid for uid in uids if uid not in phase.counted},
            _rides(phase.records, landed_at), dict(phase.facts), carry.overloads.mark(spaces, carry.next + 1),
            len(phase.records), len(carry.findings), len(carry.moves),
            carry.errors, carry.seen, len(chooser.points), chooser._at,
        )

    def _undo(self, entry: Entry) -> None:
        carry = self.carry
        board, phase, chooser = carry.board, carry.phase, carry.chooser
        for unit, fields in entry.units:
            unit.__dict__.update(fields)
            unit.cargo = list(fields["cargo"])
        for space, (units, enemies) in entry.spaces.items():
            _put(board._by_space, space, units)
            _put(board._enemies, space, enemies)
        board._ready = {}  # a cache: rebuilt from the units as they are now
        for name, olds in entry.by_uid.items():
            current = getattr(phase, name)
            for uid, old in olds.items():
                if old is _MISSING:
                    current.pop(uid, None)
                else:
                    current[uid] = old
        phase.counted -= entry.counted
        for record, rides in entry.rides:
            record.rides = rides
        phase.facts = entry.facts
        phase.plans.pop(entry.at + 1, None)
        del phase.records[entry.records:]
        phase._legs = {}
        carry.overloads.undo(entry.overloads)
        del carry.findings[entry.findings:]
        carry.checked.discard(entry.at + 1)
        del carry.moves[entry.moves:]
        carry.errors, carry.seen, carry.next = entry.errors, entry.seen, entry.at
        del chooser.points[entry.points:]
        chooser._at = entry.listing
        chooser.charge(len(entry.units))
        self.restored += len(entry.units)


def _rides(records: list[Record], orders: set[int]) -> list[tuple[Record, dict[int, tuple[Unit, Unit]]]]:
    """The records of the given (1-based) orders, with their rides as they are: found by halving (records come in
    file order), not by reading every record."""
    found = []
    for order in sorted(orders):
        k = bisect.bisect_left(records, order, key=lambda r: r.move.index)
        if k < len(records) and records[k].move.index == order:
            found.append((records[k], dict(records[k].rides)))
    return found


def _put(index: dict[str, Any], space: str, value: Any) -> None:
    if value is None:
        index.pop(space, None)
    else:
        index[space] = value


def _linked(board: Any, spaces: Collection[str]) -> list[Unit]:
    """The units in ``spaces`` and whatever they carry or are aboard (as :meth:`Board.copy` takes them)."""
    linked = {id(u): u for space in spaces for u in board._by_space.get(space, {}).values()}
    stack = list(linked.values())
    while stack:
        unit = stack.pop()
        for other in ([unit.aboard] if unit.aboard is not None else []) + unit.cargo:
            if id(other) not in linked:
                linked[id(other)] = other
                stack.append(other)
    return list(linked.values())
