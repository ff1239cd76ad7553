"""Check a battle results file against its battles state (aa.md, "Battle results").

The results are read into a :class:`~movecheck.aa.turn.battles.Resolution`; the battle
clauses (:mod:`movecheck.aa.checks.battles`) run on each result, then on the file;
each result gets a verdict as an order does.  The resolution is the outcome's
``final``: ``movecheck apply`` resolves it into the noncombat-move state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from movecheck.aa import clause_index as _clause_index  # noqa: F401  (each clause family imported when needed)
from movecheck.aa.setup import wrong_power
from movecheck.aa.turn.battles import END, RESULT, Resolution, read_battles, read_raids, read_results, writes_kinds
from movecheck.clauses import CATALOGUE, Severity, Violation
from movecheck.findings import make_finding
from movecheck.i18n import _
from movecheck.systems import Outcome

if TYPE_CHECKING:
    from movecheck.aa.model import Board
    from movecheck.document import Document
    from movecheck.findings import Finding
    from movecheck.systems import Outcome, Prepared


def check_results(doc: Document, prepared: Prepared[Board]) -> Outcome[object]:
    """Check a results file against its battles state; ``final`` is the resolution when it was read."""

    board = prepared.ready().copy()
    raw = doc.get("results", default=[])
    outcome: Outcome[object] = Outcome(orders=len(raw) if isinstance(raw, list) else 0)
    mismatch = _mismatch(doc, prepared)
    if mismatch:
        outcome.findings.extend(mismatch)
        outcome.reason = _("the results do not match the state")
        return outcome
    battles, raids = read_battles(prepared.doc, board), read_raids(prepared.doc, board)
    named: set[str] = set()
    named_raids: set[str] = set()
    results, problems, _read = read_results(doc, board, battles, named, raids, named_raids)
    outcome.findings.extend(problems)
    resolution = Resolution(board, doc, battles, results, submerge_allowed(prepared), named, raids, named_raids,
                            kinds=writes_kinds(prepared.doc), state=prepared.doc)
    for result in results:
        for clause in CATALOGUE.running("aa", RESULT):
            for violation in clause.run(result, resolution):
                outcome.findings.append(_finding(doc, violation, result.index + 1, _label(doc, result.index)))
        outcome.checked.add(result.index + 1)
    for clause in CATALOGUE.running("aa", END):
        for violation in clause.run(resolution):
            outcome.findings.append(_finding(doc, violation, violation.order, violation.order_id))
    outcome.final = resolution
    return outcome


def submerge_allowed(prepared: Prepared[Board]) -> bool:
    """Whether the rules let submarines submerge at all (option ``subs_may_submerge``, on in both editions)."""
    return bool(prepared.ready().options["subs_may_submerge"])


def _label(doc: Document, index: int) -> str | None:
    label = doc.get("results", index, "id")
    return label if isinstance(label, str) else None


def _mismatch(doc: Document, prepared: Prepared[Board]) -> list[Finding]:
    """MC006 when the results are for another power, or the state is not waiting for battle results; MC004 for a
    power the map does not know (names resolve as in orders: ``USSR``, ``ger``)."""

    turn = prepared.doc.get("turn", default={}) or {}
    board = prepared.ready()
    found = wrong_power(doc, board.map, board.power,
                        _("the results are for the {power}, but the state is at the turn of the {turn}"))
    if turn.get("phase") != "battles":
        found.append(
            doc.finding(
                "MC006",
                _(
                    "battle results need a battles state (turn.phase: battles, written by movecheck "
                    "apply after a combat move); the state is at {phase}"
                ).format(phase=turn.get("phase")),
                ("phase",),
            )
        )
    return found


def _finding(doc: Document, violation: Violation, order: int | None, order_id: str | None) -> Finding:
    """A violation as a finding: at its node, or at the ``results:`` key for the file as a whole."""
    line, column = doc.key_pos(violation.where) if len(violation.where) == 1 else doc.pos(violation.where)
    severity = Severity(violation.severity) if violation.severity else None
    return make_finding(violation.code or "", violation.message, file=doc.path, line=line, column=column,
                        order=order, order_id=order_id, severity=severity)


__all__ = ["check_results"]
