"""The ``full`` report: each finding with the YAML lines around it and a caret under it.

``movecheck check examples/aa/orders/variants/aa203-not-combat.yaml --format full``
begins (``tests/test_render.py`` holds this example to the output)::

    examples/aa/orders/variants/aa203-not-combat.yaml:29:21: AA203 [error] moving 1 infantry to Poland is not a combat move: no battle there and no amphibious assault; make this move in noncombat move (C1–C3)
       |
    27 |   - id: reinforce-poland
    28 |     units: {infantry: 1}
    29 |     path: [Germany, Poland]
       |                     ^^^^^^ AA203 not-a-combat-move
    30 |   - id: belorussia-poland
    31 |     units: {infantry: 2, tank: 1}
       |

The lines come from the text the loader read (so standard input works too),
never from reading a file again; the caret stands at the finding's column and
underlines the YAML token there.  A file the run was not asked to check (a
state, a map, a configuration) shows the finding's line alone.
"""  # noqa: E501 - the example is the literal output, checked by tests/test_render.py

from __future__ import annotations

from movecheck.findings import Finding, Report
from movecheck.render.escape import escape
from movecheck.render.text import _COLOURS, _RESET, finding_line, state_lines, statistics_lines, summary_line

CONTEXT = 2  # lines shown before and after the finding's line
_BLUE = "\x1b[34m"


def _source_lines(report: Report, path: str, cache: dict[str, list[str] | None]) -> list[str] | None:
    """The lines of ``path`` as the run read them: the report's sources, else a map a state named."""
    if path not in cache:
        text = report.sources.get(path)
        if text is None:
            from movecheck.loading import QUOTABLE

            text = QUOTABLE.get(path)
        cache[path] = text.splitlines() if text is not None else None
    return cache[path]


def _flow_depth(text: str) -> int:
    """Unclosed ``[``/``{`` in ``text`` (outside quotes): > 0 means a flow collection."""
    depth, quote = 0, ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(0, depth - 1)
    return depth


def token_width(line: str, start: int) -> int:
    """How many characters the YAML token starting at ``start`` (0-based) spans; at least 1."""
    if start >= len(line):
        return 1
    first = line[start]
    if first in "\"'":
        index = start + 1
        while index < len(line):
            if line[index] == first:
                if first == "'" and line[index + 1 : index + 2] == "'":
                    index += 2
                    continue
                if first == '"' and line[index - 1] == "\\":
                    index += 1
                    continue
                return index - start + 1
            index += 1
        return len(line) - start
    if first in "[{-|>&*!":
        return 1
    in_flow = _flow_depth(line[:start]) > 0
    end = start
    while end < len(line):
        char = line[end]
        if in_flow and char in ",]}":
            break
        if char == ":" and (end + 1 == len(line) or line[end + 1] == " "):
            break
        if char == "#" and end > start and line[end - 1] == " ":
            break
        end += 1
    width = len(line[start:end].rstrip())
    return max(width, 1)


def _pad(line: str, column: int) -> str:
    """Blanks up to 0-based ``column``, keeping the line's tabs so the caret lines up."""
    return "".join("\t" if char == "\t" else " " for char in line[:column]) + " " * max(0, column - len(line))


def excerpt(finding: Finding, lines: list[str] | None, *, color: bool = False, context: int = CONTEXT) -> list[str]:
    """The source lines around a finding with a caret line; nothing when the line is unknown."""
    if not lines or not 1 <= finding.line <= len(lines):
        return []
    first = max(1, finding.line - context)
    last = min(len(lines), finding.line + context)
    width = len(str(last))
    gutter = " " * width + " |"
    bar = f"{_BLUE}{gutter}{_RESET}" if color else gutter
    out = [bar]
    for number in range(first, last + 1):
        text = lines[number - 1].rstrip("\r")
        label = f"{number:>{width}} |"
        if color:
            label = f"{_BLUE}{label}{_RESET}"
        out.append(f"{label} {escape(text)}".rstrip())
        if number == finding.line:
            column = finding.column - 1
            # the caret goes under the escaped line: measure the escaped text before and of the token
            before = escape(text[:column])
            token = escape(text[column : column + token_width(text, column)])
            carets = "^" * max(1, len(token))
            marker = f"{carets} {finding.code} {finding.name}"
            if color:
                marker = f"{_COLOURS[finding.severity]}{marker}{_RESET}"
            out.append(f"{bar} {_pad(before, len(before))}{' ' * max(0, column - len(text))}{marker}")
    out.append(bar)
    return out


def render(report: Report, *, color: bool = False, statistics: bool = False, quiet: bool = False) -> str:
    """Each finding, its excerpt and a blank line; then the summary line (``quiet``: see :func:`state_lines`)."""
    if statistics:
        return "\n".join([*statistics_lines(report), *state_lines(report, quiet), summary_line(report)]) + "\n"
    cache: dict[str, list[str] | None] = {}
    blocks: list[str] = []
    checked = {entry.path for entry in report.files}
    for finding in report.sorted_findings():
        lines = [finding_line(finding, color=color)]
        context = CONTEXT if finding.file in checked else 0
        lines.extend(excerpt(finding, _source_lines(report, finding.file, cache), color=color, context=context))
        blocks.append("\n".join(lines) + "\n")
    blocks.append("\n".join([*state_lines(report, quiet), summary_line(report)]) + "\n")
    return "\n".join(blocks)
