"""A check's findings as LSP diagnostics: code, message, severity, the code's link, a range.

The buffer's diagnostics are the findings of the run that name the buffer's file, less those
its configuration's selection turns off (as ``check`` reports them; an unchecked order's
MC012 is never turned off).  Orders the rules did not run on get one more diagnostic that
says why: on ``state:`` when the whole file went unchecked (the state has errors, names no
usable state ...), at the order when only some orders did.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from movecheck import DOCS_URL
from movecheck.clauses import Severity
from movecheck.findings import UNCHECKED_CODE, FileReport, Finding, Report, Verdict
from movecheck.i18n import _
from movecheck.server.spans import Point, Spans

SOURCE = "movecheck"
CODE_LINK = DOCS_URL + "rules/{code}/"
"""The code's link an editor shows beside a diagnostic: the clause's page (``docs/rules/CODE.md``,
as ``catalogue.rule_url`` gives it to ``explain`` and SARIF)."""

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}


def lsp_range(start: Point, end: Point) -> lsp.Range:
    """An LSP range of two 0-based points (characters; the server says it counts in UTF-16,
    and the text of a name is within the BMP in every map movecheck ships)."""
    return lsp.Range(lsp.Position(line=start[0], character=start[1]), lsp.Position(line=end[0], character=end[1]))


def diagnostic(finding: Finding, spans: Spans) -> lsp.Diagnostic:
    """One finding as a diagnostic, underlining its node from start to end."""
    start, end = spans.range_of(finding.line, finding.column)
    seeds = f" ({', '.join(finding.clauses)})" if finding.clauses else ""
    return lsp.Diagnostic(
        range=lsp_range(start, end),
        message=finding.message + seeds,
        severity=_SEVERITY.get(finding.severity, lsp.DiagnosticSeverity.Error),
        code=finding.code,
        code_description=lsp.CodeDescription(href=CODE_LINK.format(code=finding.code)),
        source=SOURCE,
        data=_data(finding),
    )


def _data(finding: Finding) -> dict[str, Any]:
    """What a diagnostic carries for the server's own requests: the clause's name, the order, and the finding's fixes
    (issue 42: the quick fixes are these, as JSON and SARIF give them, never read back out of the message)."""
    data: dict[str, Any] = {"name": finding.name, "order": finding.order}
    if finding.fixes:
        data["fixes"] = [fix.to_json() for fix in finding.fixes]
    return data


def selected(report: Report, path: str, config: Any) -> list[Finding]:
    """The findings of ``path`` that the file's selection reports, in the report's order."""
    own = [f for f in report.sorted_findings() if f.file == path]
    if config is None:
        return own
    selection = config.selection_for(path)
    return [f for f in own if f.code == UNCHECKED_CODE or selection.reported(f.code, path)]


def diagnostics(report: Report, entry: FileReport | None, path: str, spans: Spans, config: Any) -> list[lsp.Diagnostic]:
    """Every diagnostic of the buffer ``path`` after its check."""
    findings = selected(report, path, config)
    found = [diagnostic(f, spans) for f in findings]
    if entry is not None and entry.judged:
        found.extend(_unchecked(report, entry, findings, spans))
    return found


def _unchecked(report: Report, entry: FileReport, findings: list[Finding], spans: Spans) -> list[lsp.Diagnostic]:
    """Why orders went unchecked, where no finding of theirs says it already."""
    verdicts = entry.verdicts(report.sorted_findings())
    explained = {f.order for f in findings if f.order is not None and f.severity is Severity.ERROR}
    silent = {order: reason for order, (verdict, reason) in verdicts.items()
              if verdict is Verdict.UNCHECKED and order not in explained}
    if not silent:
        return []
    if len(silent) == len(verdicts) and len(set(silent.values())) == 1:
        if any(f.order is None and f.severity is Severity.ERROR for f in findings):
            return []  # the file's own error (state: outside the root, missing ...) says why already
        reason = next(iter(silent.values())) or _("the rules did not run on it")
        node = spans.node(("state",))
        key = next((n for n in spans.nodes if n.path == ("state",) and n.is_key), None)
        where = (key.start, node.end) if key is not None and node is not None else ((0, 0), (0, 0))
        message = _("orders not checked ({count}): {reason}").format(count=len(silent), reason=reason)
        return [_note(where, message)]
    found = []
    for order, why in sorted(silent.items()):
        item = _order_node(spans, order)
        start = item.start if item is not None else (0, 0)
        end = spans.range_of(start[0] + 1, start[1] + 1)[1]
        reason = why or _("the rules did not run on it")
        found.append(_note((start, end), _("order not checked: {reason}").format(reason=reason)))
    return found


def _order_node(spans: Spans, order: int) -> Any:
    """The node of the order (1-based) in the buffer's list of orders, whatever that list's key."""
    return next((n for n in spans.nodes if len(n.path) == 2 and n.path[1] == order - 1 and not n.is_key), None)


def _note(where: tuple[Point, Point], message: str) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=lsp_range(*where), message=message, severity=lsp.DiagnosticSeverity.Warning,
                          source=SOURCE)
