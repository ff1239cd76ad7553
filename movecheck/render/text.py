"""The concise text report: one line per finding, then a summary."""

from __future__ import annotations

from movecheck.clauses import CATALOGUE, Severity
from movecheck.findings import NOT_JUDGED, Finding, Report
from movecheck.i18n import _, ngettext
from movecheck.render.escape import escape

_COLOURS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.NOTE: "\x1b[36m"}
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"


def finding_line(finding: Finding, *, color: bool = False) -> str:
    """``path:line:col: CODE [severity] message (clauses)``."""
    clauses = f" ({', '.join(finding.clauses)})" if finding.clauses else ""
    code, severity = finding.code, f"[{finding.severity.value}]"
    if color:
        code = f"{_BOLD}{code}{_RESET}"
        severity = f"{_COLOURS[finding.severity]}{severity}{_RESET}"
    message = escape(finding.message)  # one line per finding, and no control character from the input
    return f"{escape(finding.file)}:{finding.line}:{finding.column}: {code} {severity} {message}{clauses}"


def summary_line(report: Report) -> str:
    """Counts of findings and files, then the orders by verdict (and why some were not checked)."""
    summary = report.summary()
    parts = [
        ngettext("{count} error", "{count} errors", summary["errors"]).format(count=summary["errors"]),
        ngettext("{count} warning", "{count} warnings", summary["warnings"]).format(count=summary["warnings"]),
        ngettext("{count} note", "{count} notes", summary["notes"]).format(count=summary["notes"]),
    ]
    files = summary["files"]
    in_files = ngettext("{findings} in {count} file", "{findings} in {count} files", files)
    line = in_files.format(findings=", ".join(parts), count=files)
    orders = summary["orders"]
    if not orders and not _any_orders(report):
        return line + "."
    if orders and all(not f.judged for f in report.files if f.orders):
        judged = ngettext("{count} order not judged ({why})", "{count} orders not judged ({why})", orders)
        return line + "; " + judged.format(count=orders, why=_(NOT_JUDGED)) + "."
    legal = ngettext("{legal} of {count} order legal", "{legal} of {count} orders legal", orders)
    line += "; " + legal.format(legal=summary["legal_orders"], count=orders)
    if summary["illegal_orders"]:
        line += ", " + _("{count} illegal").format(count=summary["illegal_orders"])
    if summary["unchecked_orders"]:
        unchecked = _("{count} not checked ({why})")
        line += ", " + unchecked.format(count=summary["unchecked_orders"], why="; ".join(report.unchecked_reasons()))
    return line + "."


def statistics_lines(report: Report) -> list[str]:
    """``count  CODE  name  [severity]`` per code, most frequent first."""
    rows = []
    counts = report.statistics()
    if any(CATALOGUE.get(code) is None for code in counts):  # a --jobs run checked the files in other processes
        from movecheck.catalogue import load_all

        load_all()
    for code, count in counts.items():
        entry = CATALOGUE.get(code)
        name = entry.name if entry else ""
        severity = next(f.severity.value for f in report.sorted_findings() if f.code == code)
        rows.append((-count, code, f"{count:>5}  {code}  {name:<24} [{severity}]".rstrip()))
    return [row[2] for row in sorted(rows)]


def _any_orders(report: Report) -> bool:
    """Does the report hold a file of a kind its system checks as orders (aa battle results too)?"""
    from movecheck.files import is_kind
    from movecheck.systems import ORDERS

    return any(is_kind(f.kind, ORDERS) for f in report.files)


def state_lines(report: Report, quiet: bool = False) -> list[str]:
    """``orders.yaml: checked against state.yaml`` for each orders file that found its state, then
    what changed its rules or selection (``orders.yaml: .movecheck.yaml sets aa.neutrals_impassable=false``).

    ``quiet`` (``-q``): without the ``checked against`` lines; what changed the rules is never unseen.
    """
    against = _("{orders}: checked against {state}")
    lines = []
    for entry in report.files:
        if entry.state and not quiet:
            lines.append(against.format(orders=escape(entry.path), state=escape(entry.state)))
        if entry.overrides:
            lines.extend(escape(line) for line in entry.overrides.lines(entry.path))
    return lines


def render(report: Report, *, color: bool = False, statistics: bool = False, quiet: bool = False) -> str:
    """Every finding on its own line, sorted, then the state of each orders file, then the summary line.

    With ``statistics`` the lines are counts per code instead of the findings; ``quiet``: no
    ``checked against`` lines (see :func:`state_lines`).
    """
    lines = statistics_lines(report) if statistics else [finding_line(f, color=color) for f in report.sorted_findings()]
    lines.extend(state_lines(report, quiet))
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"
