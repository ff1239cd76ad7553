"""Apply a file of aa orders to a board, in file order, checking each move as it comes.

Each move is checked against the board as the earlier moves left it, then
applied as written (when its units exist), so one mistake does not cascade.
End-of-phase clauses run after the last move.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from movecheck.aa import rules as _rules  # noqa: F401  (registers every clause in the kernel's catalogue)
from movecheck.aa.model import Board, Unit, describe
from movecheck.aa.moves import Move, land_route, resolve_move
from movecheck.aa.phase import Phase, Record, Undecided, occasion
from movecheck.aa.setup import carrier_load
from movecheck.budget import SearchLimit
from movecheck.clauses import CATALOGUE, Violation
from movecheck.findings import Finding, Severity, make_finding
from movecheck.loading import Document


def apply(phase: Phase, move: Move) -> None:
    """Carry out a move as written."""
    board = phase.board
    record = Record(move, list(move.units))
    riders = set(u.uid for u in move.riders)
    plan = phase.loading_plan(move)
    carriers = [u for u in move.units if u.type.is_carrier]
    for unit in move.units:
        if unit.type.is_sea:
            record.cargo.extend(u for u in unit.cargo if u.type.is_land)
            for passenger in list(unit.cargo):
                if passenger.type.is_fighter and passenger.power == board.power and not passenger.landed and passenger not in move.units:
                    board.leave_vessel(passenger)
    for unit in move.units:
        unit.move_count += 1
        unit.last_order = move.index
        phase.last_order[unit.uid] = move
        if unit.uid in riders:
            continue
        if unit.type.is_land:
            _apply_land(phase, move, unit, plan, record)
        elif unit.type.is_air:
            unit.spent += len(move.path) - 1
            board.leave_vessel(unit)
            board.move_unit(unit, move.end)
        else:
            unit.spent += len(move.path) - 1
            board.move_unit(unit, move.end)
    for fighter in (u for u in move.units if u.uid in riders):
        vessel = next((c for c in carriers if c.type.carrier_capacity - carrier_load(c) >= fighter.type.carrier_cost), None)
        if vessel is not None and fighter.aboard is not vessel:
            board.board_unit(fighter, vessel)
        board.move_unit(fighter, move.end)
    if not phase.combat:
        _land_on_carriers(phase, move)
    if phase.combat and phase.battle_space(move.end):
        for unit in move.units:
            if not (unit.type.is_land and board.is_sea(unit.at)):  # cargo may still unload: an assault
                unit.in_battle = True
    phase.records.append(record)


def _apply_land(phase: Phase, move: Move, unit: Unit, plan: dict[int, Unit | None], record: Record) -> None:
    board = phase.board
    route = land_route(board, move.path)
    unit.spent += route.cost
    if route.load_at is not None:
        vessel = plan.get(unit.uid)
        zone = move.path[route.load_at]
        board.leave_vessel(unit)
        board.move_unit(unit, zone)
        if vessel is not None:
            board.board_unit(unit, vessel)
            vessel.loaded_now = True
            record.loaded.append(unit)
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
            vessel.unloaded_now = True
            vessel.unloaded_to = vessel.unloaded_to or target
        return
    if route.load_at is None:
        board.move_unit(unit, move.path[-1])


def _land_on_carriers(phase: Phase, move: Move) -> None:
    """Noncombat: fighters ending in a zone with a friendly carrier slot land on it."""
    board = phase.board
    if not board.is_sea(move.end):
        return
    for fighter in (u for u in move.units if u.type.is_fighter and u.aboard is None):
        for carrier in phase.carriers_in(move.end):
            if carrier.type.carrier_capacity - carrier_load(carrier) >= fighter.type.carrier_cost:
                board.board_unit(fighter, carrier)
                fighter.landed = True
                carrier.landed = True
                break


def run(doc: Document, board: Board, phase_name: str) -> tuple[list[Finding], int, set[int]]:
    """Check every order of an aa orders document.

    Returns the findings, the number of orders, and the (1-based) orders on
    which every move clause ran (an order whose units or path could not be
    resolved is not among them).
    """
    phase = Phase(board, doc, phase_name)
    findings: list[Finding] = []
    checked: set[int] = set()
    raw_moves = doc.get("moves", default=[])
    if not isinstance(raw_moves, list):
        return findings, 0, checked
    for raw in raw_moves:
        if isinstance(raw, dict):
            attack = raw.get("attack")
            path = raw.get("path")
            if attack is True and isinstance(path, list) and path:
                zone = board.map.resolve(path[-1])
            elif isinstance(attack, str):
                zone = board.map.resolve(attack)
            else:
                zone = None
            if zone and board.is_sea(zone) and board.enemy_units(zone):
                phase.attack_zones.add(zone)
    move_clauses = CATALOGUE.running("aa", occasion(phase_name, "move"))
    moves: list[Move] = []
    for index, raw in enumerate(raw_moves):
        move, problems = resolve_move(doc, board, raw, index)
        findings.extend(_with_order(f, index + 1, raw) for f in problems)
        if move is None:
            continue
        moves.append(move)
        move.riders = phase.riders(move)
        for clause in move_clauses:
            for violation in clause.run(move, phase):
                findings.append(_finding(doc, violation, move.index, move.order_id))
        checked.add(index + 1)
        apply(phase, move)
    unchecked: dict[int, Finding] = {}
    for clause in CATALOGUE.running("aa", occasion(phase_name, "end")):
        try:
            for violation in clause.run(phase):
                findings.append(_finding(doc, violation, violation.order, violation.order_id))
        except SearchLimit as exc:
            for finding in _unchecked(doc, exc, moves):
                unchecked.setdefault(finding.order, finding)  # once per order, whichever clauses ran out
    findings.extend(unchecked[order] for order in sorted(unchecked))
    return findings, len(raw_moves), checked


def _unchecked(doc: Document, exc: SearchLimit, moves: list[Move]) -> list[Finding]:
    """MC012 at each order a search that ran out left undecided (its clauses gave no finding for those units)."""
    if isinstance(exc, Undecided):
        undecided = exc.orders()
        what = exc.template
    else:  # a search that cannot say which orders it left undecided: none of them is checked
        undecided = [(move, move.units) for move in moves]
        what = Undecided.template
    return [
        _finding(doc, Violation(f"{exc.reason()}: {what.format(describe(units))}", move.where, code="MC012"),
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


__all__ = ["apply", "run"]
