"""Apply a file of aa orders to a board, in file order, checking each move as it comes.

Each move is checked against the board as the earlier moves left it, then
applied as written (when its units exist), so one mistake does not cascade.
End-of-phase clauses run after the last move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from movecheck.aa import rules as _rules  # noqa: F401  (registers every clause)
from movecheck.aa.checks import COMBAT, NONCOMBAT, Problem, rules_for
from movecheck.aa.model import Board, Unit
from movecheck.aa.moves import Move, land_route, resolve_move
from movecheck.aa.setup import cargo_load, carrier_load
from movecheck.budget import SearchLimit
from movecheck.findings import Finding, Severity, make_finding
from movecheck.loading import Document


@dataclass
class Record:
    """What one applied move did, for the clauses decided at the end of the phase."""

    move: Move
    units: list[Unit]
    cargo: list[Unit] = field(default_factory=list)
    loaded: list[Unit] = field(default_factory=list)
    unloaded: list[Unit] = field(default_factory=list)
    unload_zone: str | None = None
    unload_to: str | None = None


@dataclass
class Phase:
    """The state of checking one orders file: the board, the orders, what has happened so far."""

    board: Board
    doc: Document
    name: str
    records: list[Record] = field(default_factory=list)
    attack_zones: set[str] = field(default_factory=set)
    last_order: dict[int, Move] = field(default_factory=dict)

    @property
    def combat(self) -> bool:
        return self.name == COMBAT

    @property
    def options(self) -> dict[str, Any]:
        return self.board.options

    # -- loading plan ------------------------------------------------------

    def loading_plan(self, move: Move) -> dict[int, Unit | None]:
        """Which transport each land unit of a loading move boards (None: no room anywhere)."""
        plan: dict[int, Unit | None] = {}
        extra: dict[int, int] = {}
        for unit in move.of_domain("land"):
            route = land_route(self.board, move.path)
            if route.load_at is None or route.bad_step is not None and route.bad_step <= route.load_at:
                continue
            zone = move.path[route.load_at]
            plan[unit.uid] = self._pick_transport(move, unit, zone, extra)
            if plan[unit.uid] is not None:
                vessel = plan[unit.uid]
                extra[vessel.uid] = extra.get(vessel.uid, 0) + unit.type.transport_cost
        return plan

    def named_transport_problem(self, move: Move, zone: str) -> str | None:
        """Why the transport an order names (``transport:``) cannot take cargo in a zone, if it cannot."""
        vessel = move.transport
        if vessel is None:
            return None
        if vessel.at != zone:
            return f"transport {vessel.id} is in {vessel.at}, not in {zone}"
        if not self.board.friendly_power(vessel.power):
            return f"transport {vessel.id} belongs to the {vessel.power}, an enemy"
        return None

    def transports_in(self, zone: str) -> list[Unit]:
        """Transports of the moving side in a zone, the mover's own first."""
        found = [u for u in self.board.units_at(zone) if u.type.is_transport and self.board.friendly_power(u.power)]
        return sorted(found, key=lambda u: (u.power != self.board.power, -len(u.cargo), u.uid))

    def _pick_transport(self, move: Move, unit: Unit, zone: str, extra: dict[int, int]) -> Unit | None:
        choices = [move.transport] if move.transport is not None else self.transports_in(zone)
        for vessel in choices:
            if vessel is None or vessel.at != zone or not self.board.friendly_power(vessel.power):
                continue
            room = vessel.type.transport_capacity - cargo_load(vessel) - extra.get(vessel.uid, 0)
            if unit.type.transport_cost and unit.type.transport_cost <= room:
                return vessel
        return None

    def riders(self, move: Move) -> list[Unit]:
        """Own fighters of a move that ride its carriers from the start zone (no movement spent)."""
        if not self.board.is_sea(move.start):
            return []
        carriers = [u for u in move.units if u.type.is_carrier]
        room = sum(c.type.carrier_capacity - carrier_load(c) for c in carriers)
        room += sum(f.type.carrier_cost for c in carriers for f in c.cargo if f in move.units)
        riding = []
        for fighter in (u for u in move.units if u.type.is_fighter):
            if room >= fighter.type.carrier_cost:
                riding.append(fighter)
                room -= fighter.type.carrier_cost
        return riding

    # -- applying ----------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Carry out a move as written."""
        board = self.board
        record = Record(move, list(move.units))
        riders = set(u.uid for u in move.riders)
        plan = self.loading_plan(move)
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
            self.last_order[unit.uid] = move
            if unit.uid in riders:
                continue
            if unit.type.is_land:
                self._apply_land(move, unit, plan, record)
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
        if not self.combat:
            self._land_on_carriers(move)
        hostile_end = board.hostile(move.end) or move.end in self.attack_zones
        if self.combat and hostile_end:
            for unit in move.units:
                unit.in_battle = True
        self.records.append(record)

    def _apply_land(self, move: Move, unit: Unit, plan: dict[int, Unit | None], record: Record) -> None:
        board = self.board
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

    def _land_on_carriers(self, move: Move) -> None:
        """Noncombat: fighters ending in a zone with a friendly carrier slot land on it."""
        board = self.board
        if not board.is_sea(move.end):
            return
        for fighter in (u for u in move.units if u.type.is_fighter and u.aboard is None):
            for carrier in self.carriers_in(move.end):
                if carrier.type.carrier_capacity - carrier_load(carrier) >= fighter.type.carrier_cost:
                    board.board_unit(fighter, carrier)
                    fighter.landed = True
                    carrier.landed = True
                    break

    def carriers_in(self, zone: str) -> list[Unit]:
        """Carriers of the moving side in a zone, the mover's own first."""
        found = [u for u in self.board.units_at(zone) if u.type.is_carrier and self.board.friendly_power(u.power)]
        return sorted(found, key=lambda u: (u.power != self.board.power, u.uid))


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
    move_rules = rules_for(phase_name, "move")
    moves: list[Move] = []
    for index, raw in enumerate(raw_moves):
        move, problems = resolve_move(doc, board, raw, index)
        findings.extend(_with_order(f, index + 1, raw) for f in problems)
        if move is None:
            continue
        moves.append(move)
        move.riders = phase.riders(move)
        for rule in move_rules:
            for problem in rule.run(move, phase):
                findings.append(_finding(doc, problem.code or rule.entry.code, problem, move.index, move.order_id))
        checked.add(index + 1)
        phase.apply(move)
    for rule in rules_for(phase_name, "end"):
        try:
            for problem in rule.run(phase):
                findings.append(_finding(doc, problem.code or rule.entry.code, problem, problem.order, problem.order_id))
        except SearchLimit as exc:
            findings.extend(_unchecked(doc, exc, moves))
    return findings, len(raw_moves), checked


def _unchecked(doc: Document, exc: SearchLimit, moves: list[Move]) -> list[Finding]:
    """MC012 at each order a search that ran out left undecided (the rule gave no finding for its aircraft)."""
    from movecheck.aa.landing import LandingLimit
    from movecheck.aa.model import describe

    if isinstance(exc, LandingLimit):
        undecided = exc.orders()
        what = "the landing of {} is undecided"
    else:  # a search that cannot say which orders it left undecided: none of them is checked
        undecided = [(move, move.units) for move in moves]
        what = "not every clause could decide {}"
    return [
        _finding(doc, "MC012", Problem(f"{exc.reason()}: {what.format(describe(units))}", move.where), move.index,
                 move.order_id)
        for move, units in undecided
    ]


def _with_order(finding: Finding, order: int, raw: Any) -> Finding:
    from dataclasses import replace

    order_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    return replace(finding, order=order, order_id=order_id)


def _finding(doc: Document, code: str, problem: Problem, order: int | None, order_id: str | None) -> Finding:
    line, column = doc.pos(problem.where)
    severity = Severity(problem.severity) if problem.severity else None
    return make_finding(
        code, problem.message, file=doc.path, line=line, column=column, order=order, order_id=order_id, severity=severity
    )


__all__ = ["Phase", "Record", "run", "NONCOMBAT"]
