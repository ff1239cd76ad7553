"""A state of the aa system made ready: its board built and linted (and whether a file is battle results)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.document import findings_at

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.document import Document
    from movecheck.findings import Finding
    from movecheck.systems import RuleSettings


def is_results(data: Any) -> bool:
    """A battle results file: ``phase: battles`` or a ``results:`` list (aa.md, "Battle results")."""
    return isinstance(data, dict) and (data.get("phase") == "battles" or "results" in data) and "turn" not in data


def is_purchase(data: Any) -> bool:
    """A purchase file: ``phase: purchase`` or ``purchase:``/``repair:``/``research:``, no ``turn:`` (aa-turn.md)."""
    return (isinstance(data, dict) and "turn" not in data
            and (data.get("phase") == "purchase" or any(k in data for k in ("purchase", "repair", "research"))))


def is_mobilize(data: Any) -> bool:
    """A mobilization file: ``phase: mobilize`` or a ``place:`` list, no ``turn:`` (aa-turn.md, "Mobilization")."""
    return isinstance(data, dict) and (data.get("phase") == "mobilize" or "place" in data) and "turn" not in data


def lint_state(doc: Document, rules: RuleSettings | None = None) -> tuple[list[Finding], Any, Any]:
    """Findings of building and linting a state, its board (None when it cannot be built), its map file.

    The map file (a ``Loaded``, when ``map:`` names a file) carries its own findings;
    they are not among the state's.
    """
    from movecheck.aa.lint import LintContext, run_lint
    from movecheck.aa.setup import build_board

    setup = build_board(doc, rules)
    findings = list(setup.findings)
    if setup.board is None:
        return findings, None, setup.map_file
    map_data = doc.data["map"] if isinstance(doc.data.get("map"), dict) else {}
    ctx = LintContext(doc, setup.board.map, map_data, ("map",), setup.board)
    found = run_lint(ctx, "state")
    if map_data:
        found += run_lint(ctx, "map")
    findings.extend(findings_at(doc, found))
    return findings, setup.board, setup.map_file
