"""The battle under an editor's cursor and its odds (the language server's ``movecheck.showOdds``, issue 42).

The battle is the entry of ``battles:`` under the cursor in a battles state, or the battle that
the order under the cursor ends in, in combat-move orders: the battle of the space the order
attacks, else of its path's last space (a raid's when the order raids), among the battles of the
state ``movecheck apply`` would write (so the orders must be legal).  It is priced as
``movecheck odds --battle SPACE`` prices it: the answer is that command's JSON entry of the
battle and a short text (the battle and its outcomes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from movecheck.aa.battle.odds import Ask, Game, Spec, check_ool, price, read_state
from movecheck.aa.battle.report import battle_json, battle_text
from movecheck.i18n import _
from movecheck.reading import InputError


def battle_under(kind: str, data: Any, item_in: Callable[[str], int | None]) -> int | None:
    """The battles state's entry, or the combat-move order, under the cursor; None: neither is."""
    if not isinstance(data, dict):
        return None
    if kind == "aa-state" and isinstance(data.get("battles"), list):
        return item_in("battles")
    if kind == "aa-orders" and data.get("phase") == "combat_move":
        return item_in("moves")
    return None


def battle_odds(path: str, kind: str, data: Any, item: int, kernel: Any) -> tuple[dict[str, Any] | None, str]:
    """The odds of the battle of entry ``item`` (:func:`battle_under`) of ``path``: its JSON entry and a short text,
    or None and why there are none (read through ``kernel``'s readers, as ``movecheck odds`` reads)."""
    try:
        game, specs = read_state(path, kernel)
    except InputError as exc:
        return None, str(exc)
    spec = _battle_of(game, specs, kind, data, item)
    if spec is None:
        return None, _("this order ends in no battle")
    ask = Ask(battle=spec.at)
    priced = price(game, spec, specs, ask, check_ool(game, ask))
    lines = battle_text(priced)  # the battle, then its order of loss (when one binds), outcomes, survivors ...
    said = [lines[0], *lines[2 if priced.ool is not None else 1:][:1]]
    return battle_json(priced, False), "; ".join(line.strip() for line in said)


def _battle_of(game: Game, specs: list[Spec], kind: str, data: Any, item: int) -> Spec | None:
    """The battle of the state's entry ``item``, or the one the order ``item`` ends in."""
    if kind == "aa-state":
        return next((s for s in specs if s.index == item), None)
    moves = data.get("moves") if isinstance(data, dict) else None
    order = moves[item] if isinstance(moves, list) and 0 <= item < len(moves) else None
    if not isinstance(order, dict):
        return None
    path = order.get("path") if isinstance(order.get("path"), list) else []
    target = order.get("attack") if isinstance(order.get("attack"), str) else (path[-1] if path else None)
    space = game.board.map.resolve(target) if isinstance(target, str) else None
    raid = order.get("raid") is True
    return next((s for s in specs if s.at == space and (s.kind == "raid") == raid), None)
