"""Quick fixes: the fixes a finding carries, and the ends ``--suggest`` writes for manoeuvre orders.

A finding that suggests replacements ("; did you mean 'A' or 'B'?") carries them as data
(:mod:`movecheck.fixes`, in the diagnostic's ``data``): one quick fix per fix, the same edits
the JSON report and SARIF give.  A manoeuvre orders file whose corps orders have ends the rules
require (``check --suggest``) offers one fix that writes every such ``end:`` (replacing a
declared one, or adding it to the order).
"""

from __future__ import annotations

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
    from movecheck.server.kernel import Buffers

def finding_fixes(diag: lsp.Diagnostic) -> list[tuple[str, list[lsp.TextEdit]]]:
    """The fixes a diagnostic's finding carries (its ``data``, as the server published it): each a title and its
    edits, in LSP's 0-based positions; none when the finding suggests none or the data is not the server's."""
    data = diag.data if diag.source == "movecheck" else None
    fixes = data.get("fixes") if isinstance(data, dict) else None
    found = []
    for fix in fixes if isinstance(fixes, list) else []:
        edits = [_text_edit(edit) for edit in fix.get("edits", [])] if isinstance(fix, dict) else []
        if edits and all(edit is not None for edit in edits) and isinstance(fix.get("title"), str):
            found.append((fix["title"], [edit for edit in edits if edit is not None]))
    return found


def _text_edit(edit: Any) -> lsp.TextEdit | None:
    """One edit of a fix as an LSP text edit (the fix's lines and columns are 1-based, the end column just past)."""
    keys = ("line", "column", "end_line", "end_column")
    if not isinstance(edit, dict) or not isinstance(edit.get("text"), str) or not all(
            isinstance(edit.get(k), int) and not isinstance(edit.get(k), bool) and edit[k] >= 1 for k in keys):
        return None
    start, end = (edit["line"] - 1, edit["column"] - 1), (edit["end_line"] - 1, edit["end_column"] - 1)
    return lsp.TextEdit(range=lsp_range(start, end), new_text=edit["text"]) if start <= end else None


def code_actions(ls: Server, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """The fixes for the diagnostics in the request's range."""
    uri = params.text_document.uri
    checked, spans = ls.spans_of(uri)
    if checked is None or spans is None:
        return []
    fixes: list[lsp.CodeAction] = []
    for diag in params.context.diagnostics or checked.published:
        for title, edits in finding_fixes(diag):
            fixes.append(lsp.CodeAction(
                title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag],
                is_preferred=len(fixes) == 0, edit=lsp.WorkspaceEdit(changes={uri: edits})))
    return fixes


APPLY_ALL_FIXES = "movecheck.applyAllFixes"
"""The command that makes every preferred fix of a buffer at once (issue 42): ``arguments: [uri]``."""


def all_fixes(ls: Server, uri: str) -> lsp.WorkspaceEdit | None:
    """The preferred fix of every diagnostic of the buffer that has one (the first its finding carries),
    as one edit; fixes whose ranges overlap an earlier one are left for another round. None: nothing to fix."""
    checked, spans = ls.spans_of(uri)
    if checked is None or spans is None or checked.text != spans.text:
        return None  # the buffer changed since its check: its ranges are not the text's
    edits: list[lsp.TextEdit] = []
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for diag in checked.published:
        fixes = finding_fixes(diag)
        preferred = fixes[0][1] if fixes else []
        spans_of_edits = [((e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character))
                          for e in preferred]
        if not preferred or any(start < e and s < end for start, end in spans_of_edits for s, e in taken):
            continue
        edits.extend(preferred)
        taken.extend(spans_of_edits)
    return lsp.WorkspaceEdit(changes={uri: edits}) if edits else None


def suggested_ends(ls: Server, uri: str, checked: Any, spans: Any, buffers: Buffers) -> list[lsp.CodeAction]:
    """The fix that writes the ends the rules require of the corps orders (``check --suggest``): a check, so the
    server runs it in its worker thread, on the open buffers' texts ``buffers`` as they were asked."""
    path = path_of(uri)
    if path is None or checked.kind != "maneuver-orders" or not any(
            d.code and str(d.code).startswith("MV") for d in checked.published):
        return []
    settings = ls.roots.settings(path, suggest=True)
    ends = parse_suggestion(ls.kernel.check(path, checked.text, settings, buffers).required_ends)
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
