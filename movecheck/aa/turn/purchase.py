"""Purchase orders (aa-turn.md, "Purchase"): read a purchase file, check it, carry it out.

A purchase file (``phase: purchase``; ``purchase:``, ``repair:``, ``research:``) is read
against a state at its purchase phase into a :class:`Bought`: the unit types resolved as
players write them (``inf``), the repaired territories (``UK``), the research spending,
and the cost of each.  The purchase clauses (:mod:`movecheck.aa.checks.purchase`,
occasion ``purchase/file``) judge it; the file counts as one order.  Carried out, the
purchase is ``purchased:`` in the combat-move state, the treasury less what was spent
(units, repairs at 1 IPC a point, research) and the repaired factories' damage less the
points mended (``movecheck apply``: :func:`movecheck.aa.turn.apply.applied`).

A name the map does not know, a count that is not a whole number or a file for another
power or phase is an input problem (MC003, MC004, MC006) that leaves the purchase
unchecked; so does a state whose treasury is unknown (no ``ipcs:`` after round 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa import clause_index as _clause_index  # noqa: F401  (each clause family imported when needed)
from movecheck.aa.model import Board
from movecheck.aa.units import Unit
from movecheck.clauses import CATALOGUE, Severity
from movecheck.findings import make_finding
from movecheck.i18n import _
from movecheck.systems import Outcome

if TYPE_CHECKING:
    from movecheck.aa.model import Board
    from movecheck.document import Document
    from movecheck.findings import Finding
    from movecheck.systems import Outcome, Prepared

PURCHASE = "purchase/file"
"""The occasion the purchase clauses run at: once, on the whole file."""

REPAIR_COST = 1
"""IPCs a point of factory damage costs to repair (1942 second edition)."""


@dataclass
class Bought:
    """A purchase file read against its state: what is bought, repaired and spent on research, and where."""

    board: Board
    doc: Document
    units: dict[str, int] = field(default_factory=dict)
    """Unit type -> count (counts of 0 left out), in the order written."""
    unit_keys: dict[str, str] = field(default_factory=dict)
    """Unit type -> the key the file wrote it under (``inf``)."""
    repair: dict[str, int] = field(default_factory=dict)
    """Territory -> points mended."""
    repair_keys: dict[str, str] = field(default_factory=dict)
    research: int = 0
    unreadable: bool = False
    """A count is not a whole number of at least 0 (the schema's MC003): the purchase is not checked."""
    waiting: dict[str, int] = field(default_factory=dict)
    """Units of the power bought earlier and still waiting to be placed (the state's ``purchased:`` and its
    ``to_place:`` for the power), by type."""

    @property
    def power(self) -> str:
        return self.board.power

    @property
    def treasury(self) -> int:
        """The buying power's IPCs before the purchase (known: an unknown treasury leaves the file unchecked)."""
        return (self.board.ipcs or {}).get(self.power, 0)

    def unit_cost(self) -> int:
        """The cost of the units bought whose cost the map gives (the others are AA602)."""
        types = self.board.map.unit_types
        return sum((types[kind].cost or 0) * count for kind, count in self.units.items())

    def repair_cost(self) -> int:
        return REPAIR_COST * sum(self.repair.values())

    def total(self) -> int:
        """Everything the file spends: units, repairs, research."""
        return self.unit_cost() + self.repair_cost() + self.research

    def spent(self) -> dict[str, int]:
        """What each part costs, for the apply header and report (parts that cost nothing left out)."""
        parts = {"purchase": self.unit_cost(), "repair": self.repair_cost(), "research": self.research}
        return {k: v for k, v in parts.items() if v}

    def unit_where(self, kind: str) -> tuple[Any, ...]:
        return ("purchase", self.unit_keys[kind])

    def repair_where(self, space: str) -> tuple[Any, ...]:
        return ("repair", self.repair_keys[space])

    def factory_at(self, space: str) -> Unit | None:
        """The buying power's factory in ``space``, if any."""
        return next((u for u in self.board.units_at(space) if u.type.is_factory and u.power == self.power), None)

    def factories(self) -> list[Unit]:
        """The factories the buying power holds in territories it controls."""
        return [u for u in self.board.units if u.type.is_factory and u.power == self.power
                and self.board.control.get(u.at) == self.power]

    def capacity(self, factory: Unit) -> int:
        """How many units a factory mobilizes: its territory's IPC value less its damage, never below 0."""
        return max(self.board.map.production.get(factory.at, 0) - factory.damage, 0)

    def has_capital(self) -> bool:
        """The power holds its own capital (a power the map names no capital for always does)."""
        capital = self.board.map.capitals.get(self.power)
        return capital is None or self.board.control.get(capital) == self.power


def check_purchase(doc: Document, prepared: Prepared[Board]) -> Outcome[object]:
    """Check a purchase file against its purchase state; ``final`` is the :class:`Bought` when it was checked.

    The purchase clauses must be registered (:mod:`movecheck.aa.checks.purchase` imported: the system does it).
    """

    outcome: Outcome[object] = Outcome(orders=1)
    board = prepared.ready().copy()
    problems = _mismatch(doc, prepared) + (read := _read(doc, board))[1]
    outcome.findings.extend(problems)
    if read[0].unreadable or any(f.severity is Severity.ERROR for f in problems):
        outcome.reason = _("the purchase could not be read against the state")
        return outcome
    if board.ipcs is None:
        outcome.reason = _("the state does not say how many IPCs the powers have (write ipcs:; only a round-1 state "
                           "takes the map's starting treasuries)")
        return outcome
    bought = read[0]
    bought.waiting = _waiting(prepared.doc, board)
    for clause in CATALOGUE.running("aa", PURCHASE):
        for violation in clause.run(bought):
            line, column = doc.key_pos(violation.where) if violation.where else (1, 1)
            severity = Severity(violation.severity) if violation.severity else None
            outcome.findings.append(make_finding(violation.code or "", violation.message, file=doc.path, line=line,
                                                 column=column, order=1, severity=severity))
    outcome.checked.add(1)
    carry_out(bought)
    outcome.final = bought
    return outcome


def carry_out(bought: Bought) -> None:
    """The purchase on its board: ``purchased`` grows, the treasury shrinks (never below 0, under ``--force``), the
    repaired factories lose the damage mended."""
    board = bought.board
    for kind, count in bought.units.items():
        board.purchased[kind] = board.purchased.get(kind, 0) + count
    if board.ipcs is not None:
        board.ipcs[bought.power] = max(bought.treasury - bought.total(), 0)
    for space, points in bought.repair.items():
        factory = bought.factory_at(space)
        if factory is not None:
            factory.damage = max(factory.damage - points, 0)


def _waiting(state: Document, board: Board) -> dict[str, int]:
    """The units of the moving power that wait to be placed: ``purchased:`` and its ``to_place:`` (both read with the
    board, keys resolved like names in orders)."""
    found = dict(board.purchased)
    for kind, count in board.to_place.get(board.power, {}).items():
        found[kind] = found.get(kind, 0) + count
    return found


def _mismatch(doc: Document, prepared: Prepared[Board]) -> list[Finding]:
    """MC006 when the file is for another power or the state is not at its purchase phase; MC004: an unknown power."""
    from movecheck.aa.setup import wrong_power

    board = prepared.ready()
    found = wrong_power(doc, board.map, board.power,
                        _("the purchase is for the {power}, but the state is at the turn of the {turn}"))
    phase = (prepared.doc.get("turn", default={}) or {}).get("phase")
    if phase != "purchase":
        message = _("a purchase needs a state at its purchase phase (turn.phase: purchase, written "
                    "by movecheck init or by apply of a mobilization); the state is at {phase}")
        found.append(doc.finding("MC006", message.format(phase=phase), ("phase",)))
    return found


def _read(doc: Document, board: Board) -> tuple[Bought, list[Finding]]:
    """The purchase file's units, repairs and research, names resolved; MC004 for a name the map does not know.
    A count that is not a whole number (MC003, said by the schema) makes the purchase ``unreadable``."""
    from movecheck.aa.setup import repeated_key, unknown_space, unknown_type, whole

    bought = Bought(board, doc)
    problems: list[Finding] = []
    for key, resolve, unknown, counts, keys in (
        ("purchase", board.map.resolve_type, unknown_type, bought.units, bought.unit_keys),
        ("repair", board.map.resolve, unknown_space, bought.repair, bought.repair_keys),
    ):
        written = doc.get(key, default={})
        first: dict[str, Any] = {}
        for name, count in (written if isinstance(written, dict) else {}).items():
            meant = resolve(name)
            if meant is None:
                problems.append(unknown(doc, board.map, name, (key, name), key=True))
            elif meant in first:  # two keys naming one thing: never both read (MC002)
                problems.append(repeated_key(doc, (key, name), meant, first[meant]))
            elif whole(count) is None or count < 0:
                bought.unreadable = True  # the schema has said so (MC003)
            else:
                first[meant] = name
                if count:
                    counts[meant] = count
                    keys[meant] = str(name)
    research = doc.get("research", default=0)
    if whole(research) is None or research < 0:
        bought.unreadable = True  # the schema has said so (MC003)
    else:
        bought.research = research
    return bought, problems


__all__ = ["PURCHASE", "REPAIR_COST", "Bought", "carry_out", "check_purchase"]
