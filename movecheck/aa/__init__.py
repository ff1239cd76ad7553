"""The aa system: Axis & Allies area movement (combat move, noncombat move, landing).

The entry points the core calls are light; the board model (networkx) is
imported only when a file of this system is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.findings import Finding
from movecheck.loading import findings_at

if TYPE_CHECKING:
    from movecheck.core import Loaded, Outcome, Settings
    from movecheck.loading import Document


def lint_file(doc: Document, kind: str, prior: list[Finding]) -> list[Finding]:
    """Consistency of an aa map or state (orders get their schema check only)."""
    from movecheck.aa.lint import LintContext, run_lint
    from movecheck.aa.model import GameMap
    from movecheck.aa.setup import build_board
    from movecheck.core import has_errors

    if has_errors(prior) or kind == "aa-orders":
        return []
    if kind == "aa-map":
        ctx = LintContext(doc, GameMap(doc.data), doc.data, ())
        return findings_at(doc, run_lint(ctx, "map"))
    return lint_state(doc)[0]


def lint_state(doc: Document) -> tuple[list[Finding], Any]:
    """Findings of building and linting a state, and the board (None when it cannot be built)."""
    from movecheck.aa.lint import LintContext, run_lint
    from movecheck.aa.setup import build_board

    setup = build_board(doc)
    findings = list(setup.findings)
    if setup.board is None:
        return findings, None
    map_data = doc.data["map"] if isinstance(doc.data.get("map"), dict) else {}
    ctx = LintContext(doc, setup.board.map, map_data, ("map",), setup.board)
    found = run_lint(ctx, "state")
    if map_data:
        found += run_lint(ctx, "map")
    findings.extend(findings_at(doc, found))
    return findings, setup.board


def check_orders(orders: Loaded, state: Loaded, settings: Settings) -> Outcome:
    """Check an aa orders file against its state."""
    from movecheck.aa.engine import run
    from movecheck.core import Outcome

    doc = orders.doc
    moves = doc.get("moves", default=[])
    outcome = Outcome(orders=len(moves) if isinstance(moves, list) else 0)  # not a list: MC003
    findings, board = lint_state(state.doc)
    outcome.findings.extend(findings)
    if board is None or any(f.severity.value == "error" for f in findings):
        outcome.reason = "the state has errors"
        return outcome
    power, phase = doc.get("power"), doc.get("phase")
    turn = state.doc.get("turn", default={})
    mismatch = []
    if not isinstance(power, str):
        pass  # missing or not text: the schema has said so (MC003)
    elif power not in board.map.powers:
        from movecheck.aa.setup import _unknown_power

        mismatch.append(_unknown_power(doc, board.map, power, ("power",)))
    elif power != turn.get("power"):
        mismatch.append(doc.finding("MC006", f"the orders are for the {power}, but the state is at the turn of the {turn.get('power')}", ("power",)))
    if phase in ("combat_move", "noncombat_move") and phase != turn.get("phase"):
        mismatch.append(doc.finding("MC006", f"the orders are for {phase}, but the state is at {turn.get('phase')}", ("phase",)))
    if mismatch:
        outcome.findings.extend(mismatch)
        outcome.reason = "the orders do not match the state"
        return outcome
    found, count, checked = run(doc, board, turn.get("phase", "combat_move"))
    outcome.findings.extend(found)
    outcome.orders = count
    outcome.checked = checked
    return outcome
