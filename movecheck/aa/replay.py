"""The choice search's runs carried on from the order they change (issue 37): a run costs what it changes.

Successive runs of the search (lexicographic order of the choices) share the choices before the point
they vary, so they carry out the orders before that point's order alike.  One board serves every run:
before an order a run varies a choice in, the state is kept (a :class:`Mark`: the units in the spaces of
that order's path and of every later one, which are the only units the later orders change, and the
phase's own records); a later run goes back to the latest mark at or before the order it varies and
carries out only the orders from there.  The units outside those spaces are never changed after the
mark, so they need no keeping; the objects stay the same (the earlier orders' records and moves name
them), only their fields are put back.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from movecheck.aa.choice import Point
    from movecheck.aa.engine import Carry, Run
    from movecheck.aa.overloads import Overloads
    from movecheck.aa.phase import Record
    from movecheck.aa.units import Unit


@dataclass
class Mark:
    """The state of a carrying-out before its order :attr:`at` (0-based)."""

    at: int
    units: list[tuple[Unit, dict[str, Any]]]
    spaces: dict[str, tuple[dict[int, Unit] | None, list[Unit] | None]]
    records: int
    rides: list[tuple[Record, dict[int, tuple[Unit, Unit]]]]
    phase: dict[str, Any]
    overloads: Overloads
    findings: int
    checked: set[int]
    moves: int
    errors: int
    seen: int
    points: int
    listing: Any


_PHASE_DICTS = ("last_order", "attacked", "landings", "plans", "facts")


class Replayer:
    """Runs of the search on one carrying-out, each from the latest mark before the order it varies."""

    def __init__(self, carry: Carry, paths: Sequence[Collection[str]]) -> None:
        """``paths``: the spaces of each order's path (0-based, as the file gives them)."""
        self.carry = carry
        last: dict[str, int] = {}
        for index, spaces in enumerate(paths):
            for space in spaces:
                last[space] = index
        self._spaces = sorted(last, key=lambda s: (-last[s], s))
        self._last = [-last[s] for s in self._spaces]  # ascending, for bisect
        self.marks: list[Mark] = []
        self.restored = 0
        """Units put back, over every run (the work a run does besides carrying orders out)."""

    def spaces_from(self, index: int) -> list[str]:
        """The spaces of the paths of the orders from ``index`` on."""
        return self._spaces[:bisect.bisect_right(self._last, -index)]

    def run(self, forced: list[int], before: Sequence[Point], bound: int | None = None) -> Run:
        """A run with the choices ``forced`` at the first points, after the run whose points were ``before``.

        ``bound``: the errors of the best choice so far.  Once the orders carried out have as many, no choice
        under this one does better (errors only add up): the run stops there, :attr:`Run.cut` (the points after
        it would not be varied either, their orders having as many errors before them)."""
        carry = self.carry
        varied = before[len(forced) - 1].order - 1 if forced and len(forced) <= len(before) else 0
        if not self.marks:  # the first run: the state as the phase began
            self.marks.append(self._mark())
        else:
            while self.marks[-1].at > varied:
                self.marks.pop()  # never the first: no order comes before it
            self._restore(self.marks[-1])
        carry.chooser.forced = forced
        raw_moves = carry.raw_moves or []
        while carry.next < len(raw_moves):
            if carry.next == varied and self.marks[-1].at < varied:
                self.marks.append(self._mark())
            carry.step()
            if bound is not None and carry.errors_so_far() >= bound:
                return carry.cut()
        return carry.finish(keep=True)

    def _mark(self) -> Mark:
        carry = self.carry
        board, phase, chooser = carry.board, carry.phase, carry.chooser
        spaces = self.spaces_from(carry.next)
        units = _linked(board, spaces)
        kept = []
        for unit in units:
            fields = dict(unit.__dict__)
            fields["cargo"] = list(unit.cargo)
            kept.append((unit, fields))
        by_space, enemies = board._by_space, board._enemies
        rides = [(r, dict(r.rides)) for r in phase.records if r.move.index in set(phase.landings.values())]
        state: dict[str, Any] = {name: dict(getattr(phase, name)) for name in _PHASE_DICTS}
        state["counted"] = set(phase.counted)
        chooser.charge(len(kept))
        return Mark(
            carry.next, kept,
            {s: (dict(by_space[s]) if s in by_space else None, list(enemies[s]) if s in enemies else None)
             for s in spaces},
            len(phase.records), rides, state, carry.overloads.copy(), len(carry.findings), set(carry.checked),
            len(carry.moves), carry.errors, carry.seen, len(chooser.points), chooser._at,
        )

    def _restore(self, mark: Mark) -> None:
        carry = self.carry
        board, phase, chooser = carry.board, carry.phase, carry.chooser
        for unit, fields in mark.units:
            unit.__dict__.update(fields)
            unit.cargo = list(fields["cargo"])
        for space, (units, enemies) in mark.spaces.items():
            _put(board._by_space, space, None if units is None else dict(units))
            _put(board._enemies, space, None if enemies is None else list(enemies))
        board._ready = {}  # a cache: rebuilt from the units as they are now
        del phase.records[mark.records:]
        for record, rides in mark.rides:
            record.rides = dict(rides)
        for name in _PHASE_DICTS:
            setattr(phase, name, dict(mark.phase[name]))
        phase.counted = set(mark.phase["counted"])
        phase._legs = {}
        carry.overloads = mark.overloads.copy()
        del carry.findings[mark.findings:]
        carry.checked = set(mark.checked)
        del carry.moves[mark.moves:]
        carry.errors, carry.seen, carry.next = mark.errors, mark.seen, mark.at
        del chooser.points[mark.points:]
        chooser._at = mark.listing
        chooser.charge(len(mark.units))
        self.restored += len(mark.units)


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
