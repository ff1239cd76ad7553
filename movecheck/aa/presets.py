"""Rules presets of the aa system: option values and unit types.

Every rule that differs between editions is an option here, so another
preset (or a club's house rules) is data, not code.
"""

from __future__ import annotations

from typing import Any

DEFAULT_PRESET = "aa1942"

OPTION_HELP = {
    "sub_transport_zones_hostile": "enemy subs/transports make a sea zone hostile and block movement/loading",
    "subs_may_end_ncm_in_hostile": "subs may end noncombat move in a hostile zone",
    "destroyer_stops_subs": "a submarine stops on entering a zone with an enemy destroyer (AA204)",
    "land_on_new_carrier": "fighters may wait in a zone next to a factory for a carrier bought this turn (N13)",
    "aa_guns_move_in_combat": "AA guns may move in combat move (AA108 off)",
    "transport_ncm_after_combat": "transports that acted in combat may still move in noncombat (AA307 off)",
    "neutrals_impassable": "no unit enters, crosses or overflies a neutral territory (AA106)",
    "combat_move_must_attack": "every combat move must lead to a battle (AA203)",
}

PRESETS: dict[str, dict[str, Any]] = {
    "aa1942": {
        "sub_transport_zones_hostile": False,
        "subs_may_end_ncm_in_hostile": True,
        "destroyer_stops_subs": True,
        "land_on_new_carrier": True,
        "aa_guns_move_in_combat": False,
        "transport_ncm_after_combat": False,
        "neutrals_impassable": True,
        "combat_move_must_attack": True,
    },
}

UNIT_ALIASES = {
    "armour": "tank",
    "armor": "tank",
    "aaGun": "aa_gun",
    "aagun": "aa_gun",
    "industrial_complex": "factory",
    "aircraft_carrier": "carrier",
    "sub": "submarine",
}

# The aa1942 unit types; a map's own unit_types replace these.
UNIT_TYPES: dict[str, dict[str, Any]] = {
    "infantry": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 3, "transport_cost": 2, "infantry": True},
    "artillery": {"movement": 1, "attack": 2, "defense": 2, "domain": "land", "cost": 4, "transport_cost": 3},
    "tank": {"movement": 2, "attack": 3, "defense": 3, "domain": "land", "cost": 6, "transport_cost": 3, "blitz": True},
    "aa_gun": {"movement": 1, "attack": 0, "defense": 0, "domain": "land", "cost": 5, "transport_cost": 3},
    "factory": {"movement": 0, "attack": 0, "defense": 0, "domain": "land", "cost": 15},
    "fighter": {"movement": 4, "attack": 3, "defense": 4, "domain": "air", "cost": 10, "carrier_cost": 1},
    "bomber": {"movement": 6, "attack": 4, "defense": 1, "domain": "air", "cost": 12},
    "transport": {"movement": 2, "attack": 0, "defense": 0, "domain": "sea", "cost": 7, "transport_capacity": 5},
    "submarine": {"movement": 2, "attack": 2, "defense": 1, "domain": "sea", "cost": 6, "submarine": True},
    "destroyer": {"movement": 2, "attack": 2, "defense": 2, "domain": "sea", "cost": 8, "destroyer": True},
    "cruiser": {"movement": 2, "attack": 3, "defense": 3, "domain": "sea", "cost": 12},
    "carrier": {"movement": 2, "attack": 1, "defense": 2, "domain": "sea", "cost": 14, "carrier_capacity": 2},
    "battleship": {"movement": 2, "attack": 4, "defense": 4, "domain": "sea", "cost": 20},
}


def preset_options(name: str = DEFAULT_PRESET) -> dict[str, Any]:
    """The option values of a preset (a copy)."""
    return dict(PRESETS[name])
