"""Quick fixes: each "did you mean" of a finding, and the ends ``--suggest`` writes for manoeuvre orders.

A finding that ends "; did you mean 'A' or 'B'?" offers one fix per name, replacing the
node it underlines.  A manoeuvre orders file whose corps orders have ends the rules
require (``check --suggest``) offers one fix that writes every such ``end:`` (replacing a
declared one, or adding it to the order).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

import yaml
from lsprotocol import types as lsp

from movecheck.i18n import _
from movecheck.server.diagnostics import lsp_range
from movecheck.server.files import path_of
from movecheck.server.names import quote

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.server.buffers import Server

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def _marker() -> tuple[str, str]:
    """The words around the names of a "did you mean" hint, in the current language."""
    sample = _("; did you mean {names}?").format(names="\0")
    before, _sep, after = sample.partition("\0")
    return before, after


def did_you_mean(message: str) -> list[str]:
    """The names a finding's message suggests (none when it suggests nothing)."""
    before, after = _marker()
    at = message.rfind(before)
    if at < 0:
        return []
    tail = message[at + len(before):]
    cut = tail.rfind(after) if after else len(tail)
    found = []
    for token in _QUOTED.findall(tail[:cut if cut >= 0 else len(tail)]):
        try:
            value = ast.literal_eval(token)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str) and value not in found:
            found.append(value)
    return found


def code_actions(ls: Server, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """The fixes for the diagnostics in the request's range."""
    uri = params.text_document.uri
    checked, spans = ls.spans_of(uri)
    if checked is None or spans is None:
        return []
    fixes: list[lsp.CodeAction] = []
    for diag in params.context.diagnostics or checked.published:
        if diag.source != "movecheck":
            continue
        start = (diag.range.start.line, diag.range.start.character)
        written = spans.lines[start[0]][start[1]:start[1] + 1] if start[0] < len(spans.lines) else ""
        for name in did_you_mean(diag.message):
            edit = lsp.TextEdit(range=diag.range, new_text=quote(name, force=written in ("'", '"')))
            fixes.append(lsp.CodeAction(
                title=_("Replace with {name}").format(name=name), kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag],
                is_preferred=len(fixes) == 0, edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    fixes.extend(_suggested_ends(ls, uri, checked, spans))
    return fixes


def _suggested_ends(ls: Server, uri: str, checked: Any, spans: Any) -> list[lsp.CodeAction]:
    """The fix that writes the ends the rules require of the corps orders (``check --suggest``)."""
    path = path_of(uri)
    if path is None or checked.kind != "maneuver-orders" or not any(
            d.code and str(d.code).startswith("MV") for d in checked.published):
        return []
    settings = ls.roots.settings(path, suggest=True)
    ends = parse_suggestion(ls.kernel.check(path, checked.text, settings, ls.buffer_text).required_ends)
    edits = []
    for order, end in sorted(ends.items()):
        flow = "{" + ", ".join(f"{quote(base)}: {{x: {xy['x']}, y: {xy['y']}}}" for base, xy in end.items()) + "}"
        declared = spans.node(("orders", order - 1, "end"))
        keys = [n for n in spans.nodes if n.is_key and len(n.path) == 3 and n.path[:2] == ("orders", order - 1)]
        key = next((k for k in keys if k.path[2] == "end"), None)
        if declared is not None and key is not None:  # from the key's end: a block mapping starts on the next line
            edits.append(lsp.TextEdit(range=lsp_range(key.end, spans.clip(declared)), new_text=": " + flow))
            continue
        item = spans.node(("orders", order - 1))
        if item is None or not keys:
            continue
        last = spans.clip(item)
        edits.append(lsp.TextEdit(range=lsp_range(last, last), new_text="\n" + " " * keys[0].start[1] + "end: " + flow))
    if not edits:
        return []
    return [lsp.CodeAction(title=_("Write the end positions the rules require"), kind=lsp.CodeActionKind.QuickFix,
                           edit=lsp.WorkspaceEdit(changes={uri: edits}))]


def parse_suggestion(text: str) -> dict[int, dict[str, dict[str, Any]]]:
    """The ``end:`` of each order (1-based) in ``check --suggest`` text."""
    ends: dict[int, dict[str, dict[str, Any]]] = {}
    for block in re.split(r"^(?=# order \d+)", text, flags=re.M):
        number = re.match(r"# order (\d+)", block)
        if number is None:
            continue
        try:
            items = yaml.safe_load(block)
        except yaml.YAMLError:
            continue
        if isinstance(items, list) and items and isinstance(items[0], dict) and isinstance(items[0].get("end"), dict):
            ends[int(number.group(1))] = items[0]["end"]
    return ends
