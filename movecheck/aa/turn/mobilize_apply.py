"""``movecheck apply`` of a mobilization (aa-turn.md, "Mobilization" and "Income"): the end of a power's turn.

:func:`carry_out` puts the placed units on the board (a fighter placed at sea sits aboard a carrier
of its power there: the new ones first, then those already there where
``new_fighters_on_old_carriers``; fighters of ``fighters_from:`` move onto the new carriers),
settles the units left unplaced (``unplaced_units``: refunded, lost or kept under ``to_place:``),
seats the fighters that waited at sea for a bought carrier and destroys those that still find no
slot (AA708), collects the income (:mod:`movecheck.aa.turn.income`), and repairs every damaged
battleship.  :mod:`movecheck.aa.turn.apply` then writes the next power's purchase state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from movecheck.aa.model import Board
from movecheck.aa.units import Unit
from movecheck.aa.wording import unit_phrase

if TYPE_CHECKING:
    from movecheck.aa.turn.apply_report import Income
    from movecheck.aa.turn.mobilize import Mobilization


@dataclass
class Settled:
    """What the end of the turn did."""

    destroyed: list[Unit] = field(default_factory=list)
    """Fighters that waited at sea for a carrier and found no slot (AA708)."""
    seated: set[int] = field(default_factory=set)
    """The fighters placed or moved onto a carrier this phase (their ``aboard:`` is written)."""
    left: dict[str, int] = field(default_factory=dict)
    """Units left unplaced, by type."""
    how: str = "refunded"
    refunded: int = 0
    kept: dict[str, int] = field(default_factory=dict)
    income: Income | None = None


def room(carrier: Unit) -> int:
    """Free slots on a carrier: its capacity less the aircraft aboard (allied ones included)."""
    return carrier.type.carrier_capacity - sum(u.type.carrier_cost for u in carrier.cargo if u.type.is_air)


def seat(board: Board, fighter: Unit, carriers: list[Unit]) -> bool:
    """Put a fighter aboard the first of ``carriers`` with a free slot for it; whether it found one."""
    for carrier in carriers:
        if room(carrier) >= fighter.type.carrier_cost:
            board.board_unit(fighter, carrier)
            return True
    return False


def carry_out(mob: Mobilization) -> Settled:
    """The mobilization on its board, then the end of the turn (see the module's text)."""
    from movecheck.aa.turn.income import collect

    board, settled = mob.board, Settled(how=str(mob.board.options["unplaced_units"]))
    waiting = [u for u in board.units if u.type.is_fighter and u.power == mob.power and u.aboard is None
               and board.is_sea(u.at)]
    movable = {space: mob.standing_fighters(space) for p in mob.placements for space in p.fighters_from}
    old_carriers = {u.uid for u in board.units if u.type.is_carrier and u.power == mob.power}
    new_carriers, fighters = _place_units(mob, movable)
    for fighter in waiting:  # those that waited for a bought carrier first (AA708): it was there first
        if seat(board, fighter, new_carriers.get(fighter.at, [])):
            settled.seated.add(fighter.uid)
        else:
            settled.destroyed.append(fighter)
    use_old = bool(board.options["new_fighters_on_old_carriers"])
    for fighter in fighters:  # then the new fighters and those moved on (AA705, AA709): the zone's slots left
        old = [u for u in board.units_at(fighter.at) if u.uid in old_carriers] if use_old else []
        if seat(board, fighter, new_carriers.get(fighter.at, []) + old):
            settled.seated.add(fighter.uid)
    _settle_unplaced(mob, settled)
    settled.income = collect(board, mob.power)
    repair(board)
    board.captured.clear()
    return settled


def _place_units(mob: Mobilization, movable: dict[str, list[Unit]]) -> tuple[dict[str, list[Unit]], list[Unit]]:
    """Every placed unit on the board, and the fighters of ``fighters_from:`` moved to their zone (each once, of
    those that stood in the territory at the start: ``movable``).  Returns the new carriers by zone and the
    fighters at sea that need a slot (new ones, then moved ones).  The file's entries are summed by space and
    type first, and the units made in a canonical order (space, the map's unit order), so entries split or
    reordered write the same state."""
    board = mob.board
    uid = max((u.uid for u in board.units), default=0)
    new_carriers: dict[str, list[Unit]] = {}
    new_fighters: list[Unit] = []
    moved: list[Unit] = []
    for space, kind, count in _placed_in_order(mob):
        unit_type = board.map.unit_types[kind]
        for _n in range(count):
            uid += 1
            unit = Unit(uid=uid, type=unit_type, power=mob.power, at=space, ref=f"placed {uid}")
            board.add(unit)
            if unit_type.is_carrier:
                new_carriers.setdefault(space, []).append(unit)
            elif unit_type.is_fighter and board.is_sea(space):
                new_fighters.append(unit)
    journeys: dict[tuple[str, str], int] = {}
    for placement in mob.placements:
        for space, count in placement.fighters_from.items():
            journeys[(placement.at, space)] = journeys.get((placement.at, space), 0) + count
    for (zone, space), count in sorted(journeys.items()):
        for fighter in movable.get(space, [])[:count]:
            board.move_unit(fighter, zone)
            moved.append(fighter)
        movable[space] = movable.get(space, [])[count:]
    return new_carriers, new_fighters + moved


def _placed_in_order(mob: Mobilization) -> list[tuple[str, str, int]]:
    """The units the file places, summed by space and type: (space, type, count) by space, then the map's unit order."""
    order = {kind: index for index, kind in enumerate(mob.board.map.unit_types)}
    totals: dict[tuple[str, str], int] = {}
    for placement in mob.placements:
        for kind, count in placement.units.items():
            totals[(placement.at, kind)] = totals.get((placement.at, kind), 0) + count
    return [(space, kind, count) for (space, kind), count in sorted(totals.items(),
                                                                    key=lambda i: (i[0][0], order[i[0][1]]))]


def _settle_unplaced(mob: Mobilization, settled: Settled) -> None:
    """Units left unplaced (AA707): their cost back to the treasury, lost, or kept for a later mobilization."""
    board = mob.board
    settled.left = mob.left_unplaced()
    if settled.how == "refunded":
        settled.refunded = sum((board.map.unit_types[k].cost or 0) * n for k, n in settled.left.items())
        if board.ipcs is not None:
            board.ipcs[mob.power] = board.ipcs.get(mob.power, 0) + settled.refunded
    elif settled.how == "kept":
        settled.kept = dict(settled.left)
    board.purchased.clear()


def header_lines(settled: Settled, power: str) -> list[str]:
    """The apply header's lines on the end of the turn."""

    lines = []
    if settled.left:
        units = ", ".join(unit_phrase(n, k) for k, n in settled.left.items())
        if settled.how == "refunded":
            lines.append(f"unplaced ({settled.how}): {units}; {settled.refunded} IPCs back to the {power}")
        elif settled.how == "kept":
            lines.append(f"unplaced ({settled.how}): {units}, under to_place:")
        else:
            lines.append(f"unplaced ({settled.how}): {units}")
    if settled.income is not None:
        found = settled.income
        if found.reason:
            lines.append(f"income: the {power} collect 0 IPCs: {found.reason}")
        elif found.objectives:
            counted = ", ".join(f"{space} {value}" for space, value in found.territories.items())
            lines.append(f"income: the {power} collect {found.amount} IPCs: {found.amount - found.bonus}, the IPC "
                         f"value of the {len(found.territories)} territories they hold at the end of their turn "
                         f"({counted}), and {found.bonus} for National Objectives")
        else:
            counted = ", ".join(f"{space} {value}" for space, value in found.territories.items())
            lines.append(f"income: the {power} collect {found.amount} IPCs, the IPC value of the "
                         f"{len(found.territories)} territories they hold at the end of their turn ({counted})")
        for objective in found.objectives:
            met = "met" if objective.met else "not met"
            lines.append(f"national objective ({met}, +{objective.ipcs} IPCs): {objective.text}")
    return lines


__all__ = ["Settled", "carry_out", "header_lines", "room", "seat"]


def repair(board: Board) -> None:
    """The end-of-turn repair: every damaged two-hit unit on the board is whole again (Units Repair Hits End Turn)."""
    for unit in board.units:
        unit.damaged = False
