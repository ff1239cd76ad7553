"""Victory cities (aa-anniversary.md, "Victory"): each side's count, and the win a count reaches.

The map lists its victory cities (a territory's ``victory_city``) and how many a side must hold to win
(``victory: {setting, cities}``, the TripleA setting its game turns on).  The option ``victory`` lets a
configuration or a state choose another of TripleA's settings: Projection of Power 13, Honorable Surrender 15,
Total Victory 18 (``map``, the default: the map's own).  The state's summary counts each side's; the post of the
apply that first brings a side to the number says the win, once: a later file, the side still holding them, says it
no more.
"""

from __future__ import annotations

from typing import Any

from movecheck.aa.model import Board

SETTINGS = {
    "projection_of_power": ("Projection of Power", 13),
    "honorable_surrender": ("Honorable Surrender", 15),
    "total_victory": ("Total Victory", 18),
}
"""The option ``victory``'s settings: TripleA's name and the victory cities each needs."""


def cities_held(game_map: Any, control: dict[str, str]) -> dict[str, list[str]]:
    """Each side's victory cities under ``control``, the sides in the map's order (every side listed)."""
    held: dict[str, list[str]] = {side: [] for side in game_map.sides}
    for city in game_map.victory_cities:
        side = game_map.side_of.get(control.get(city, ""))
        if side is not None:
            held[side].append(city)
    return held


def condition(game_map: Any, options: dict[str, Any]) -> tuple[str | None, int] | None:
    """The victory setting in force and the cities it needs: the option ``victory`` where it names a setting
    (and the map lists victory cities), else the map's ``victory`` (None: no victory condition)."""
    chosen = SETTINGS.get(str(options["victory"]))
    if chosen is not None:
        return chosen if game_map.victory_cities else None
    cities = game_map.victory.get("cities")
    if not isinstance(cities, int) or isinstance(cities, bool) or cities <= 0:
        return None
    setting = game_map.victory.get("setting")
    return (setting if isinstance(setting, str) else None), cities


def needed(game_map: Any, options: dict[str, Any]) -> int | None:
    """The victory cities a side must hold to win (None: no victory condition)."""
    found = condition(game_map, options)
    return found[1] if found else None


def winners(game_map: Any, options: dict[str, Any], control: dict[str, str]) -> list[str]:
    """The sides that hold the victory cities the victory condition needs."""
    number = needed(game_map, options)
    if number is None:
        return []
    return [side for side, cities in cities_held(game_map, control).items() if len(cities) >= number]


def new_wins(board: Board, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The sides the apply brings to victory: they hold the cities needed on ``board`` and did not in ``state``."""
    game_map, options = board.map, board.options
    found = condition(game_map, options)
    if found is None:
        return []
    written = state.get("control")
    before = {**game_map.control, **(written if isinstance(written, dict) else {})}
    held = cities_held(game_map, board.control)
    return [{"side": side, "cities": sorted(held[side]), "needed": found[1], "setting": found[0]}
            for side in winners(game_map, options, board.control) if side not in winners(game_map, options, before)]


__all__ = ["SETTINGS", "cities_held", "condition", "needed", "new_wins", "winners"]
