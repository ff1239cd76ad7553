"""``movecheck.showOdds`` (issue 42): the odds of the battle under the cursor, as ``movecheck odds`` gives them.

The battle is the entry of ``battles:`` under the cursor in an aa battles state, or the battle
that the order under the cursor ends in, in a combat-move orders file (the battle of the space
the order attacks, or of its path's last space, a raid's when the order raids): that file's
battles are those of the state ``movecheck apply`` would write, so the orders must be legal.
Both are read from the open buffers (the kernel's readers, :mod:`movecheck.server.kernel`).

The answer is the battle's entry of ``movecheck odds --format json`` (``battle``) and a short
text (the battle and its outcomes) that the server also shows the user (``window/showMessage``);
when there is no battle there, or its odds cannot be given, ``battle`` is None and the text says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.server.files import path_of
from movecheck.server.spans import Spans

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.server.buffers import Server
    from movecheck.server.kernel import Buffers

SHOW_ODDS = "movecheck.showOdds"
"""The command: ``arguments: [uri, {line, character}]`` (0-based, as LSP positions)."""

BATTLE_LISTS = {"aa-state": "battles", "aa-orders": "moves"}
"""Where a battle is under the cursor: an entry of a battles state's ``battles:``, an order of combat-move orders."""


def item_at(spans: Spans, key: str, point: tuple[int, int]) -> int | None:
    """The index of the entry of the top-level list ``key`` that holds ``point`` (None: none does)."""
    for node in spans.nodes:
        if len(node.path) == 2 and node.path[0] == key and isinstance(node.path[1], int) and not node.is_key \
                and node.start <= point <= node.end:
            return node.path[1]
    return None


def battle_item(kind: str | None, data: Any, spans: Spans, point: tuple[int, int]) -> int | None:
    """The entry under the cursor that is, or leads to, a battle: None when the buffer has none there."""
    key = BATTLE_LISTS.get(kind or "")
    if key is None or not isinstance(data, dict):
        return None
    if kind == "aa-orders" and data.get("phase") != "combat_move":
        return None
    if kind == "aa-state" and not isinstance(data.get("battles"), list):
        return None
    return item_at(spans, key, point)


def show_odds(ls: Server, uri: str, point: tuple[int, int], buffers: Buffers) -> dict[str, Any]:
    """The odds of the battle under ``point`` in the buffer ``uri`` (run in the server's worker thread)."""
    path = path_of(uri)
    text = buffers(path) if path is not None else None
    if path is None or text is None:
        return _answer(None, _("no open buffer {uri}").format(uri=uri))
    loaded = ls.kernel.loaded(path, text)
    data = loaded.doc.data if loaded.usable else None
    index = battle_item(loaded.kind, data, Spans(text), point)
    if index is None or not isinstance(data, dict):
        return _answer(None, _("no battle under the cursor: put it on a battle of a battles state, or on an order "
                               "of a combat move"))
    try:
        game, specs = ls.kernel.battles(path, text, buffers)
    except InputError as exc:
        return _answer(None, str(exc))
    spec = _battle_of(game, specs, loaded.kind, data, index)
    if spec is None:
        return _answer(None, _("this order ends in no battle"))
    return _priced(game, specs, spec)


def _battle_of(game: Any, specs: list[Any], kind: str | None, data: dict[str, Any], index: int) -> Any:
    """The battle of the state's entry ``index``, or the one the order ``index`` ends in."""
    if kind == "aa-state":
        return next((s for s in specs if s.index == index), None)
    order = data["moves"][index] if index < len(data["moves"]) else None
    if not isinstance(order, dict):
        return None
    path = order.get("path") if isinstance(order.get("path"), list) else []
    target = order.get("attack") if isinstance(order.get("attack"), str) else (path[-1] if path else None)
    space = game.board.map.resolve(target) if isinstance(target, str) else None
    raid = order.get("raid") is True
    return next((s for s in specs if s.at == space and (s.kind == "raid") == raid), None)


def _priced(game: Any, specs: list[Any], spec: Any) -> dict[str, Any]:
    """The battle priced as ``movecheck odds --battle`` prices it, as its JSON entry and a short text."""
    from movecheck.aa.battle.odds import Ask, check_ool, price
    from movecheck.aa.battle.report import battle_json, battle_text

    ask = Ask(battle=spec.at)
    priced = price(game, spec, specs, ask, check_ool(game, ask))
    lines = battle_text(priced)  # the battle, then its order of loss (when one binds), outcomes, survivors ...
    said = [lines[0], *lines[2 if priced.ool is not None else 1:][:1]]
    return _answer(battle_json(priced, False), "; ".join(line.strip() for line in said))


def _answer(battle: dict[str, Any] | None, text: str) -> dict[str, Any]:
    return {"battle": battle, "text": text}


def odds_action(uri: str, checked: Any, spans: Spans, point: tuple[int, int]) -> lsp.Command | None:
    """The code action that runs the command on the battle under the cursor: none where there is no battle, nor on
    orders whose last check found errors (their battles are not known).  A bare command, which LSP allows among
    code actions (a code action holding a command reads back as a command)."""
    errors = any(d.severity == lsp.DiagnosticSeverity.Error for d in checked.published)
    if battle_item(checked.kind, checked.data, spans, point) is None or (checked.kind == "aa-orders" and errors):
        return None
    position = {"line": point[0], "character": point[1]}
    return lsp.Command(title=_("Show the odds of this battle"), command=SHOW_ODDS, arguments=[uri, position])
