"""The maneuver system: corps of bases on a continuous battlefield.

The entry points the core calls are light; the battlefield model and its
geometry (shapely) are imported only when a file of this system is linted or
checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.findings import Finding
from movecheck.loading import findings_at

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.core import Loaded, Outcome, Settings
    from movecheck.loading import Document


def lint_file(doc: Document, kind: str, prior: list[Finding]) -> list[Finding]:
    """Consistency of a maneuver battlefield (orders get their schema check only)."""
    if kind != "maneuver-state":
        return []
    return lint_state(doc, prior)[0]


def lint_state(doc: Document, prior: list[Finding] | None = None) -> tuple[list[Finding], Any]:
    """Findings of building and linting a battlefield, and the battlefield (None when unusable)."""
    from movecheck.core import has_errors
    from movecheck.maneuver import rules  # noqa: F401  (registers the clauses)
    from movecheck.maneuver.lint import LintContext, run_lint
    from movecheck.maneuver.setup import build_battlefield

    setup = build_battlefield(doc)
    findings = list(setup.findings)
    geometry = setup.battlefield is not None and not has_errors(list(prior or []) + findings)
    findings.extend(findings_at(doc, run_lint(LintContext(doc, setup.battlefield), geometry)))
    if not geometry or has_errors(findings):
        return findings, None
    return findings, setup.battlefield


def check_orders(orders: Loaded, state: Loaded, settings: Settings) -> Outcome:
    """Check a maneuver orders file against its battlefield."""
    from movecheck.core import Outcome
    from movecheck.maneuver.setup import suggestion

    doc = orders.doc
    items = doc.get("orders", default=[])
    outcome = Outcome(orders=len(items) if isinstance(items, list) else 0)
    findings, battlefield = lint_state(state.doc, state.findings)
    outcome.findings.extend(findings)
    if battlefield is None:
        outcome.reason = "the state has errors"
        return outcome
    outcome.readings = {"maneuver": battlefield.options.readings()}
    side = doc.get("side")
    if not isinstance(side, str) or side not in battlefield.sides:
        sides = sorted(battlefield.sides)
        hint = suggestion(side, sides, doc)
        outcome.findings.append(
            doc.finding(
                "MC006",
                f"the orders are for side {side!r}, which is not a side of {state.doc.path} ({', '.join(sides)}){hint}",
                ("side",),
            )
        )
        outcome.reason = "the orders do not match the state"
        return outcome
    from movecheck.maneuver.engine import run

    found, suggestions, checked = run(doc, battlefield, side, orders.findings)
    outcome.findings.extend(found)
    outcome.checked = checked
    if settings.suggest:
        outcome.suggestions = suggestions
    return outcome
