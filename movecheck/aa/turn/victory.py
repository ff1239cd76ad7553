"""Victory cities (aa-anniversary.md, "Victory"): each side's count, and the win a count reaches.

The map lists its victory cities (a territory's ``victory_city``) and how many a side must hold to win
(``victory: {setting, cities}``, TripleA's Projection of Power 13, Honorable Surrender 15, Total
Victory 18).  The state's summary counts each side's; the post of the apply that first brings a side
to the number says the win, once: a later file, the side still holding them, says it no more.
"""

from __future__ import annotations

from typing import Any

from movecheck.aa.model import Board


def cities_held(game_map: Any, control: dict[str, str]) -> dict[str, list[str]]:
    """Each side's victory cities under ``control``, the sides in the map's order (every side listed)."""
    held: dict[str, list[str]] = {side: [] for side in game_map.sides}
    for city in game_map.victory_cities:
        side = game_map.side_of.get(control.get(city, ""))
        if side is not None:
            held[side].append(city)
    return held


def needed(game_map: Any) -> int | None:
    """The victory cities a side must hold to win (None: the map names no victory condition)."""
    cities = game_map.victory.get("cities")
    return cities if isinstance(cities, int) and not isinstance(cities, bool) and cities > 0 else None


def winners(game_map: Any, control: dict[str, str]) -> list[str]:
    """The sides that hold the victory cities the map's victory condition needs."""
    number = needed(game_map)
    if number is None:
        return []
    return [side for side, cities in cities_held(game_map, control).items() if len(cities) >= number]


def new_wins(board: Board, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The sides the apply brings to victory: they hold the cities needed on ``board`` and did not in ``state``."""
    game_map = board.map
    if needed(game_map) is None:
        return []
    written = state.get("control")
    before = {**game_map.control, **(written if isinstance(written, dict) else {})}
    held = cities_held(game_map, board.control)
    return [{"side": side, "cities": sorted(held[side]), "needed": needed(game_map),
             "setting": game_map.victory.get("setting")}
            for side in winners(game_map, board.control) if side not in winners(game_map, before)]


__all__ = ["cities_held", "needed", "new_wins", "winners"]
