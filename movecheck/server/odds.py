"""``movecheck.showOdds`` (issue 42): the odds of the battle under the cursor, as the system's odds command gives them.

Which entry of a file is, or leads to, a battle, and its odds, are the file's system's
(``System.battle_under`` and ``System.battle_odds``: an aa battles state's battle, or the battle an
order of a combat move ends in); the server finds the entry under the cursor and runs the system
with the kernel's readers in place, so the files are read from the open buffers.

The answer is ``{"battle": ..., "text": ...}``: the battle as the odds command writes it in JSON
and a short text (the battle and its outcomes) that the server also shows the user
(``window/showMessage``); when there is no battle there, or its odds cannot be given, ``battle`` is
None and the text says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from movecheck.files import is_kind
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.server.files import path_of
from movecheck.server.spans import Spans
from movecheck.systems import ORDERS, known, system_of

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.server.buffers import Server
    from movecheck.server.kernel import Buffers

SHOW_ODDS = "movecheck.showOdds"
"""The command: ``arguments: [uri, {line, character}]`` (0-based, as LSP positions)."""


def item_at(spans: Spans, key: str, point: tuple[int, int]) -> int | None:
    """The index of the entry of the top-level list ``key`` that holds ``point`` (None: none does)."""
    for node in spans.nodes:
        if len(node.path) == 2 and node.path[0] == key and isinstance(node.path[1], int) and not node.is_key \
                and node.start <= point <= node.end:
            return node.path[1]
    return None


def battle_item(kind: str | None, data: Any, spans: Spans, point: tuple[int, int]) -> int | None:
    """The entry under the cursor that is, or leads to, a battle (its system's say): None when there is none."""
    owner = (kind or "").split("-", 1)[0]
    if kind is None or not known(owner) or not isinstance(data, dict):
        return None
    return system_of(kind).battle_under(kind, data, lambda key: item_at(spans, key, point))


def show_odds(ls: Server, uri: str, point: tuple[int, int], buffers: Buffers) -> dict[str, Any]:
    """The odds of the battle under ``point`` in the buffer ``uri`` (run in the server's worker thread)."""
    path = path_of(uri)
    text = buffers(path) if path is not None else None
    if path is None or text is None:
        return _answer(None, _("no open buffer {uri}").format(uri=uri))
    loaded = ls.kernel.loaded(path, text)
    data = loaded.doc.data if loaded.usable else None
    index = battle_item(loaded.kind, data, Spans(text), point)
    if index is None or loaded.kind is None:
        return _answer(None, _("no battle under the cursor: put it on a battle of a battles state, or on an order "
                               "of a combat move"))
    kind = loaded.kind
    try:
        battle, said = ls.kernel.odds(path, text, buffers, lambda kernel: system_of(kind).battle_odds(
            path, kind, data, index, kernel))
    except InputError as exc:
        return _answer(None, str(exc))
    return _answer(battle if isinstance(battle, dict) else None, said)


def _answer(battle: dict[str, Any] | None, text: str) -> dict[str, Any]:
    return {"battle": battle, "text": text}


def odds_action(uri: str, checked: Any, spans: Spans, point: tuple[int, int]) -> lsp.Command | None:
    """The code action that runs the command on the battle under the cursor: none where there is no battle, nor on
    orders whose last check found errors (their battles are not known).  A bare command, which LSP allows among
    code actions (a code action holding a command reads back as a command)."""
    errors = any(d.severity == lsp.DiagnosticSeverity.Error for d in checked.published)
    if battle_item(checked.kind, checked.data, spans, point) is None or (is_kind(checked.kind, ORDERS) and errors):
        return None
    position = {"line": point[0], "character": point[1]}
    return lsp.Command(title=_("Show the odds of this battle"), command=SHOW_ODDS, arguments=[uri, position])
