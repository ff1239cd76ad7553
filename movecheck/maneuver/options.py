"""The maneuver rule options: the readings of seed text 003 it leaves open, declared once.

The clauses listed are the ones whose verdict the option changes.  After adding
or changing an option here, run ``python scripts/gen_schemas.py`` (the state
schema's ``options`` are generated from this list).  Light: no shapely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.maneuver.dice import Dice
from movecheck.maneuver.terrain import TERRAIN_KINDS
from movecheck.options import OptionSet, choice, mapping, number

OPTIONS = OptionSet("maneuver", (
    mapping("dice", {"D1": "1d6", "D2": "2d6", "D3": "3d6"},
            "the penalty dice by name: NdM, NdM+K or a constant (M7)",
            {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
            ("MV101", "MV202", "MV302", "MV304")),
    mapping("penalties", {"stream": "D1", "ploughed_field": "D1", "rice_paddy": "D2", "hill": "D2", "forest": "D3"},
            "the die each difficult terrain kind costs (M7)",
            {
                "type": "object",
                "propertyNames": {"enum": list(TERRAIN_KINDS)},
                "additionalProperties": {"type": "string", "minLength": 1},
            },
            ("MV101", "MV202", "MV302", "MV303", "MV304"),
        ),
        number(
            "tolerance",
            0.1,
            "a declared position this close (steps) to the one the rules require is taken as it: "
            "positions are measured by hand",
            ("MV101", "MV102", "MV201", "MV202", "MV203", "MV301", "MV402", "MV403", "MV502"),
        ),
        number(
            "contact_gap",
            0.05,
            "bases this close (steps, edge to edge) are in contact",
            ("MV301", "MV501", "MV502", "MV602"),
        ),
        number(
            "prebattle_distance",
            15.0,
            "a base further than this (steps) from every enemy base gets the pre-battle bonus (M11)",
            ("MV101", "MV202"),
        ),
        number(
            "prebattle_bonus", 2.0, "steps added to mobility before battle (M11)", ("MV101", "MV202"), minimum=-100_000
        ),
        choice(
            "prebattle_measure",
            "edge",
            ("edge", "centre"),
            "the pre-battle distance is measured edge to edge or centre to centre",
            ("MV101", "MV202"),
        ),
        choice(
            "corps_penalty",
            "per_file",
            ("per_file", "whole_corps"),
            "per_file: each file pays its own terrain penalties (M8); whole_corps: the slowest file sets the pace",
            ("MV202", "MV301"),
        ),
        choice(
            "back_distance",
            "half_of_max",
            ("half_of_max", "half_of_mobility"),
            "All back goes half the maximum possible distance (M1 as written) or half the mobility",
            ("MV202",),
        ),
        number(
            "pass_through_limit",
            0.5,
            "the share of its area a moving base may pass over a stationary friendly base (M6)",
            ("MV401",),
            maximum=1,
        ),
    ),
)


class Options:
    """The option values a battlefield is checked with: one attribute per declared option."""

    dice: dict[str, Dice]

    if TYPE_CHECKING:
        # each declared option is an attribute, set in __init__ from OPTIONS
        tolerance: float
        contact_gap: float

        def __getattr__(self, name: str) -> Any: ...

    def __init__(self, **values: Any) -> None:
        unknown = set(values) - set(OPTIONS.names())
        if unknown:
            raise TypeError(f"unknown maneuver options: {', '.join(sorted(unknown))}")
        for option in OPTIONS:
            setattr(self, option.name, values[option.name] if option.name in values else option.fresh_default())
        if "dice" not in values:
            self.dice = {name: Dice.parse(str(text)) for name, text in self.dice.items()}

    def die_of_kind(self, kind: str) -> tuple[str, Dice] | None:
        """The penalty die (name, dice) a terrain kind costs, or None (no penalty)."""
        name = self.penalties.get(kind)
        if name is None or kind == "impassable":
            return None
        dice = self.dice.get(name)
        return (name, dice) if dice is not None else None

    def readings(self) -> dict[str, Any]:
        """The options as the JSON report's ``readings`` show them (mappings sorted, dice as text)."""
        shown: dict[str, Any] = {}
        for name in OPTIONS.names():
            value = getattr(self, name)
            if isinstance(value, dict):
                value = {key: str(item) if isinstance(item, Dice) else item for key, item in sorted(value.items())}
            shown[name] = value
        return shown
