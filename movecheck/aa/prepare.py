"""A state of the aa system made ready: its board built and linted (and whether a file is battle results)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.document import findings_at
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.systems import has_errors

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


def state_board(loaded: Any, path: str, not_a_state: str, rules: RuleSettings | None = None) -> Any:
    """The board of the aa state file ``loaded`` (read from ``path``), for a command that works on it (``map
    path --state``, ``odds``); :class:`~movecheck.reading.InputError` (one line, exit 2) when the file is of
    another kind (``not_a_state``, a translated message with ``{kind}``) or the state has an error; ``rules``: the
    edition and options to play under (default: the state's own)."""
    findings = list(loaded.findings)
    if loaded.usable and loaded.kind != "aa-state":
        raise InputError(f"{path}: " + not_a_state.format(kind=loaded.kind))
    board = None
    if loaded.usable and not has_errors(findings):
        more, board, _map_file = lint_state(loaded.doc, rules)
        findings += more
    errors = sorted((f for f in findings if f.severity.value == "error"), key=lambda f: f.sort_key())
    if errors or board is None:
        first = errors[0] if errors else None
        where = f"{first.file}:{first.line}:{first.column}: {first.code} {first.message}" if first else path
        raise InputError(where + _("; see 'movecheck lint {path}'").format(path=path))
    return board
