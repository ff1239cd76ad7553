"""China's rules in the Anniversary edition (aa-anniversary.md, "China"; option ``chinese_rules``).

A power the map's ``player_rules`` name (the Chinese on the Anniversary maps) moves only within its
listed territories (AA110), has no treasury and buys nothing, gets one free unit (infantry) per so
many territories it controls at its purchase step, written to ``to_place:`` by the purchase apply,
and places those units in any territory it controls, no factory needed (AA710), but not in one
holding three or more of its units when placing starts (AA711).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board
from movecheck.aa.wording import unit_phrase

if TYPE_CHECKING:
    from movecheck.aa.turn.purchase import Bought


def own_rules(board: Board, power: str | None) -> dict[str, Any] | None:
    """The rules of ``power`` from the map's ``player_rules`` when ``chinese_rules`` is on, else None."""
    if power is None or not board.options["chinese_rules"]:
        return None
    rules = board.map.player_rules.get(power)
    return rules if isinstance(rules, dict) else None


def allowed_spaces(board: Board, power: str | None) -> set[str] | None:
    """The only spaces the power's units may enter (None: no restriction)."""
    rules = own_rules(board, power)
    listed = rules.get("move_only_in") if rules else None
    return {board.map.resolve(name) or name for name in listed} if isinstance(listed, list) else None


def territories_held(board: Board, power: str) -> list[str]:
    """The territories the power controls, by name."""
    return sorted(space for space, holder in board.control.items() if holder == power)


def free_count(board: Board, power: str) -> tuple[str, int, int] | None:
    """The free units the power gets at its purchase: (type, how many, territories counted); None: it gets none."""
    rules = own_rules(board, power)
    free = rules.get("free_units") if rules else None
    if not isinstance(free, dict) or not isinstance(free.get("per_territories"), int) or free["per_territories"] < 1:
        return None
    kind = board.map.resolve_type(free.get("type")) or "infantry"
    held = len(territories_held(board, power))
    return kind, held // free["per_territories"], held


def free_units(bought: Bought, to_place: dict[str, Any], said: list[str]) -> dict[str, Any]:
    """``to_place`` with the power's free units of this purchase added (the Chinese infantry), the header's line
    about them in ``said``; unchanged for a power without such a rule."""
    board = bought.board
    found = free_count(board, bought.power)
    if found is None:
        return to_place
    kind, count, held = found
    per = (own_rules(board, bought.power) or {})["free_units"]["per_territories"]
    said.append(f"the {bought.power} control {held} territories: {unit_phrase(count, kind)} to place "
                f"(one per {per} territories), in to_place.")
    if not count:
        return to_place
    mine = dict(to_place.get(bought.power) or {})
    mine[kind] = mine.get(kind, 0) + count
    return dict(sorted({**to_place, bought.power: mine}.items()))


def places_anywhere(board: Board, power: str) -> bool:
    """The power places in any territory it controls, no factory needed (AA702 gives way to AA710/AA711)."""
    rules = own_rules(board, power)
    return bool(rules and rules.get("place_in_any_territory"))


def placement_limit(board: Board, power: str) -> int | None:
    """A territory holding this many of the power's units when placing starts takes none (None: no limit)."""
    rules = own_rules(board, power)
    limit = rules.get("place_not_where_units_at_least") if rules else None
    return limit if isinstance(limit, int) and limit > 0 else None


__all__ = ["allowed_spaces", "free_count", "free_units", "own_rules", "placement_limit", "places_anywhere",
           "territories_held"]
