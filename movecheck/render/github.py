"""``--format github``: GitHub Actions workflow commands that annotate the changed files.

``movecheck check examples/aa/orders/variants/aa203-not-combat.yaml --format github`` writes
(``tests/test_render.py`` holds this example to the output)::

    ::error file=examples/aa/orders/variants/aa203-not-combat.yaml,line=29,col=21,title=AA203 not-a-combat-move::AA203 moving 1 infantry to Poland is not a combat move: no battle there and no amphibious assault; make this move in noncombat move (C1–C3)
    1 error, 0 warnings, 0 notes in 1 file; 17 of 18 orders legal, 1 illegal.

Errors come first (GitHub shows a limited number of annotations per step),
then warnings, then notes (``::notice``), each group in report order, then a
``::notice`` on each file whose rules or selection a configuration, its state or
``--option`` changed (the text report's lines, :mod:`movecheck.overrides`).  A plain
summary line ends the output (and, with ``--statistics``, the counts per code
before it); lines that are not workflow commands only go to the log.

Escaping follows the runner's rules: in the message ``%``, CR and LF become
``%25``, ``%0D``, ``%0A``; in property values also ``:`` → ``%3A`` and ``,`` → ``%2C``.
"""  # noqa: E501 - the example is the literal output, checked by tests/test_render.py

from __future__ import annotations

from movecheck.clauses import Severity
from movecheck.findings import Finding, Report
from movecheck.overrides import override_lines
from movecheck.render import portable_path
from movecheck.render.escape import escape
from movecheck.render.text import statistics_lines, summary_line

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


def escape_data(text: str) -> str:
    """Escape a workflow command's message.

    CR and LF become ``%0D``/``%0A`` (the annotation shows a line break); every other
    control character, the line separators the runner might split on and bidi
    overrides become visible escapes (``\\x1b``, ``\\u2028``), so the text can never
    start a line of its own, let alone a workflow command.
    """
    return escape(text, keep="\t\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    """One ``::error``/``::warning``/``::notice`` command."""
    clauses = f" ({', '.join(finding.clauses)})" if finding.clauses else ""
    properties = ",".join(
        f"{name}={escape_property(value)}"
        for name, value in (
            ("file", portable_path(finding.file)),
            ("line", str(finding.line)),
            ("col", str(finding.column)),
            ("title", f"{finding.code} {finding.name}"),
        )
    )
    message = escape_data(f"{finding.code} {finding.message}{clauses}")
    return f"::{COMMANDS[finding.severity]} {properties}::{message}"


def render(report: Report, *, color: bool = False, statistics: bool = False) -> str:
    """Annotations, errors first, then the plain summary line."""
    findings = sorted(enumerate(report.sorted_findings()), key=lambda item: (_ORDER[item[1].severity], item[0]))
    lines = [annotation(f) for _, f in findings]
    notices = override_lines(report)
    lines.extend(f"::notice file={escape_property(portable_path(path))}::{escape_data(line)}" for path, line in notices)
    if statistics:
        lines.extend(statistics_lines(report))
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"
