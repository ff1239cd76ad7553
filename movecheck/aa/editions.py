"""The A&A editions movecheck checks: each one is a small class, declared once.

An edition names itself and its aliases, extends another edition (its Python
base class), and says the option values (:mod:`movecheck.aa.options`) and the unit
types in which it differs.  Declaring the class registers
it: ``rules: NAME`` in a state, ``aa.rules`` in a configuration, a map's
``edition:`` and ``movecheck rules --rules NAME`` all find it.  Which edition a
state is checked under: its ``rules:`` > the configuration's > its map's
``edition:`` > :data:`DEFAULT_EDITION`.

The spec calls an edition a "rules preset"; messages keep that word.
"""

from __future__ import annotations

import difflib
from typing import Any, ClassVar

from movecheck.aa.names import unit_aliases
from movecheck.aa.options import OPTIONS

EDITIONS: dict[str, type[Edition]] = {}
"""Every edition by name, in declaration order (filled by declaring a subclass)."""


class Edition:
    """A rules edition: name, aliases, what it extends, option values, unit types."""

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[dict[str, Any]] = {}
    """Option values that differ from the edition this one extends."""
    unit_types: ClassVar[dict[str, dict[str, Any] | None]] = {}
    """Unit types that differ from the edition this one extends: for a type it has, the facts
    that change; a new type in full; None for a type it does not have.  :meth:`unit_type_values`
    gives the whole table, used for maps that bring none (a map's own ``unit_types`` replace it)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.name:
            raise TypeError(f"edition {cls.__name__} has no name")
        unknown = [key for key in cls.__dict__.get("options", {}) if key not in OPTIONS]
        if unknown:
            raise TypeError(f"edition {cls.name} sets undeclared options: {', '.join(unknown)}")
        for spelling in (cls.name, *cls.aliases):
            taken = find_edition(spelling)
            if taken is not None:
                raise TypeError(f"edition {cls.name}: the name {spelling!r} is taken by {taken.name}")
        EDITIONS[cls.name] = cls

    @classmethod
    def extends(cls) -> type[Edition] | None:
        """The edition this one extends (None for a base edition)."""
        base = cls.__mro__[1]
        return base if issubclass(base, Edition) and base is not Edition else None

    @classmethod
    def option_values(cls) -> dict[str, Any]:
        """Every option's value in this edition: the declared defaults, then each edition's changes."""
        values = OPTIONS.defaults()
        for edition in reversed(cls.__mro__):
            if issubclass(edition, Edition):
                values.update(edition.__dict__.get("options", {}))
        return values

    @classmethod
    def unit_type_values(cls) -> dict[str, dict[str, Any]]:
        """Every unit type of this edition: the base edition's, then each edition's changes
        (one table per edition, made once: it is shared, never to be changed)."""
        table = _UNIT_TYPES.get(cls)
        if table is None:
            table = {}
            for edition in reversed(cls.__mro__):
                if not issubclass(edition, Edition):
                    continue
                for kind, facts in edition.__dict__.get("unit_types", {}).items():
                    if facts is None:
                        table.pop(kind, None)
                    else:
                        table[kind] = {**table.get(kind, {}), **facts}
            _UNIT_TYPES[cls] = table
        return table


_UNIT_TYPES: dict[type[Edition], dict[str, dict[str, Any]]] = {}
"""Each edition's unit types, made when first asked."""


def find_edition(name: Any) -> type[Edition] | None:
    """The edition ``name`` names (its name or an alias), or None."""
    for edition in EDITIONS.values():
        if name == edition.name or name in edition.aliases:
            return edition
    return None


def close_editions(name: Any) -> list[str]:
    """The names of the editions whose name or alias is spelt like ``name``."""
    spellings = {
        spelling: edition.name for edition in EDITIONS.values() for spelling in (edition.name, *edition.aliases)
    }
    close = difflib.get_close_matches(str(name), list(spellings), n=3)
    return list(dict.fromkeys(spellings[spelling] for spelling in close))[:2]


UNIT_ALIASES = unit_aliases()
"""Other spellings of unit type names (TripleA's among them), in every edition: the abbreviation
table of :mod:`movecheck.aa.names`."""


class AA1942(Edition):
    """Axis & Allies 1942, second edition (seed texts 000 and 001)."""

    name = "aa1942"
    aliases = ("1942", "aa1942-2e")
    options: ClassVar[dict[str, Any]] = {}  # every option at its declared default
    unit_types: ClassVar[dict[str, dict[str, Any] | None]] = {
        "infantry": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 3, "transport_cost": 2,
                     "infantry": True},
        "artillery": {"movement": 1, "attack": 2, "defense": 2, "domain": "land", "cost": 4, "transport_cost": 3},
        "tank": {
            "movement": 2, "attack": 3, "defense": 3, "domain": "land", "cost": 6, "transport_cost": 3, "blitz": True,
        },
        "aa_gun": {"movement": 1, "attack": 0, "defense": 0, "domain": "land", "cost": 5, "transport_cost": 3},
        "factory": {"movement": 0, "attack": 0, "defense": 0, "domain": "land", "cost": 15},
        "fighter": {"movement": 4, "attack": 3, "defense": 4, "domain": "air", "cost": 10, "carrier_cost": 1},
        "bomber": {"movement": 6, "attack": 4, "defense": 1, "domain": "air", "cost": 12},
        "transport": {"movement": 2, "attack": 0, "defense": 0, "domain": "sea", "cost": 7, "transport_capacity": 5},
        "submarine": {"movement": 2, "attack": 2, "defense": 1, "domain": "sea", "cost": 6, "submarine": True},
        "destroyer": {"movement": 2, "attack": 2, "defense": 2, "domain": "sea", "cost": 8, "destroyer": True},
        "cruiser": {"movement": 2, "attack": 3, "defense": 3, "domain": "sea", "cost": 12},
        "carrier": {"movement": 2, "attack": 1, "defense": 2, "domain": "sea", "cost": 14, "carrier_capacity": 2},
        "battleship": {"movement": 2, "attack": 4, "defense": 4, "domain": "sea", "cost": 20, "hit_points": 2},
    }


class Revised(AA1942):
    """Axis & Allies Revised (2004): what differs from 1942 (docs/decisions.md, "The Revised edition")."""

    name = "aa-revised"
    aliases = ("revised", "aa2004")
    options: ClassVar[dict[str, Any]] = {
        "sub_transport_zones_hostile": True,   # any enemy sea unit makes a zone hostile
        "subs_may_end_ncm_in_hostile": False,  # subs pass hostile zones in noncombat, never end there
        "land_on_new_carrier": False,          # no waiting at sea for a carrier bought this turn
        "combat_move_must_attack": False,      # a combat move need not lead to a battle (as TripleA)
        # neutrals_impassable stays True, as in 1942 (Revised: neutrals may not be entered)
        "aa_guns_captured": True,              # AA guns change hands with the territory, as factories do
        "partial_amphibious_retreat": False,
        "move_existing_fighters_to_new_carriers": True,  # fighters in the factory territory board a new carrier
        "unplaced_units": "lost",                       # units not placed are lost
        "factory_damage": False,                        # bombing costs the owner IPCs, factories take no damage
        "research_step": True,                          # weapons development: research: in a purchase (AA606)
    }
    unit_types: ClassVar[dict[str, dict[str, Any] | None]] = {
        # the Revised unit stats where they differ (map facts ../data/aa-revised.map.json)
        "tank": {"cost": 5},
        "bomber": {"cost": 15},
        "transport": {"defense": 1, "cost": 8},
        "submarine": {"defense": 2, "cost": 8},
        "destroyer": {"attack": 3, "defense": 3, "cost": 12},
        "carrier": {"defense": 3, "cost": 16},
        "battleship": {"cost": 24},
        "cruiser": None,  # Revised has no cruiser
    }


class Anniversary(AA1942):
    """Axis & Allies Anniversary Edition, 1941 and 1942 scenarios (spec aa-anniversary.md): the 1942 second
    edition's units at the Anniversary costs, AA guns as infrastructure, National Objectives and China."""

    name = "aa-anniversary"
    aliases = ("anniversary", "aa50")
    options: ClassVar[dict[str, Any]] = {
        # the spec's table, from the maps' properties (only the values that differ from aa1942)
        "aa_guns_captured": True,        # AA guns are infrastructure, as in Revised
        "unplaced_units": "kept",        # "Unplaced units live when not placed"
        "national_objectives": True,
        "chinese_rules": True,
        "victory": "projection_of_power",  # the maps' properties: Projection of Power on (13 victory cities)
    }
    unit_types: ClassVar[dict[str, dict[str, Any] | None]] = {
        # the Anniversary costs where they differ (map facts ../data/aa-anniversary-1941.map.json)
        "tank": {"cost": 5},
        "aa_gun": {"cost": 6},
    }


DEFAULT_EDITION: type[Edition] = AA1942
"""The edition of a state that names none on a map that names none."""
