"""``movecheck schema aa-orders --map MAP``: a schema that knows one map's names.

The shipped aa state and orders schemas take any text where a territory, sea zone,
power or unit type is expected; movecheck itself finds an unknown name (MC004).  An
editor, given this schema instead, completes the map's names as you type and flags a
misspelt one at once: the territory, sea-zone, power and unit-type fields become
enums of the names and the other spellings the map accepts (its aliases, the
abbreviations movecheck understands, ``SZ 5`` for each sea zone), each checked
against the map's own resolution so that only spellings movecheck reads are listed.

An enum is exact where movecheck is not: other capitalisations (``karelia s.s.r.``)
and other sea-zone forms that movecheck reads are flagged by the editor.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from movecheck.aa.maps.query import natural, open_map

MAP_SCHEMAS = ("aa-orders", "aa-state", "aa-battles", "aa-purchase", "aa-mobilize")
"""The schemas ``--map`` applies to."""

TERRITORY, SEA, SPACE, POWER, TYPE = "territory", "sea zone", "space", "power", "unit type"

# Where each kind of name sits in a schema: (path to a subschema, what it names, values or keys).
FIELDS: dict[str, list[tuple[tuple[Any, ...], str, str]]] = {
    "aa-orders": [
        (("properties", "power"), POWER, "value"),
        (("$defs", "move", "properties", "path", "items"), SPACE, "value"),
        (("$defs", "move", "properties", "units", "anyOf", 0), TYPE, "keys"),
        (("$defs", "move", "properties", "attack"), SEA, "value"),
    ],
    "aa-state": [
        (("properties", "turn", "properties", "power"), POWER, "value"),
        (("properties", "control"), TERRITORY, "keys"),
        (("properties", "control", "additionalProperties"), POWER, "value"),
        (("properties", "captured_this_turn", "items"), TERRITORY, "value"),
        (("properties", "purchased"), TYPE, "keys"),
        (("properties", "ipcs"), POWER, "keys"),
        (("properties", "to_place"), POWER, "keys"),
        (("properties", "to_place", "additionalProperties"), TYPE, "keys"),
        (("$defs", "unit", "properties", "at"), SPACE, "value"),
        (("$defs", "unit", "properties", "power"), POWER, "value"),
        (("$defs", "unit", "properties", "type"), TYPE, "value"),
        (("$defs", "unit", "properties", "unloaded"), TERRITORY, "value"),
        (("properties", "battles", "items", "properties", "at"), SPACE, "value"),
        (("properties", "battles", "items", "properties", "attackers"), TYPE, "keys"),
        (("properties", "battles", "items", "properties", "defenders"), TYPE, "keys"),
    ],
    "aa-battles": [
        (("properties", "power"), POWER, "value"),
        (("$defs", "result", "properties", "at"), SPACE, "value"),
        (("$defs", "result", "properties", "retreat"), SPACE, "value"),
        # losses are keyed by unit type or by a unit's id: no enum for their keys
    ],
    "aa-purchase": [
        (("properties", "power"), POWER, "value"),
        (("properties", "purchase"), TYPE, "keys"),
        (("properties", "repair"), TERRITORY, "keys"),
    ],
    "aa-mobilize": [
        (("properties", "power"), POWER, "value"),
        (("$defs", "placement", "properties", "at"), SPACE, "value"),
        (("$defs", "placement", "properties", "from"), TERRITORY, "value"),
        (("$defs", "placement", "properties", "fighters_from"), TERRITORY, "keys"),
        (("$defs", "counts"), TYPE, "keys"),
    ],
}


@dataclass(frozen=True)
class Spellings:
    """Every spelling a map accepts for each kind of name, the names first."""

    territories: list[str]
    sea_zones: list[str]
    powers: list[str]
    types: list[str]

    def of(self, kind: str) -> list[str]:
        """The spellings of one kind of name (a space is a territory or a sea zone)."""
        if kind == SPACE:
            return self.territories + self.sea_zones
        return {TERRITORY: self.territories, SEA: self.sea_zones, POWER: self.powers, TYPE: self.types}[kind]


def spellings(game_map: Any, data: dict[str, Any]) -> Spellings:
    """The names of a map and the other spellings it accepts, each one the map resolves to its name.

    The other spellings come from the map's lexicons when it has them (``space_names``,
    ``power_names``, ``type_names``: abbreviations and the map's own aliases), else from
    its territories' ``aliases`` and the unit type aliases of the editions.
    """
    from movecheck.aa.editions import UNIT_ALIASES

    entries = [e for e in data.get("territories", []) if isinstance(e, dict) and isinstance(e.get("name"), str)]
    land = [e["name"] for e in entries if not e.get("sea")]
    seas = [e["name"] for e in entries if e.get("sea")]
    space_aliases = _lexicon_spellings(game_map, "space_names") or [a for e in entries for a in e.get("aliases", [])]
    sea_forms = [f"SZ {name.split()[0]}" for name in seas if name.split()[0].isdigit()]
    resolve_power = getattr(game_map, "resolve_power", lambda name: name if name in game_map.powers else None)
    return Spellings(
        territories=_accepted(land, space_aliases, game_map.resolve),
        sea_zones=_accepted(seas, [*space_aliases, *sea_forms], game_map.resolve),
        powers=_accepted(game_map.powers, _lexicon_spellings(game_map, "power_names"), resolve_power),
        types=_accepted(
            game_map.unit_types, _lexicon_spellings(game_map, "type_names") or UNIT_ALIASES, game_map.resolve_type
        ),
    )


def _lexicon_spellings(game_map: Any, attribute: str) -> list[str]:
    """The other spellings a lexicon of the map holds (none when the map has no such lexicon)."""
    lexicon = getattr(game_map, attribute, None)
    return list(getattr(lexicon, "spellings", {}) or {})


def _accepted(names: Iterable[str], others: Iterable[str], resolve: Callable[[str], Any]) -> list[str]:
    """The names, then the other spellings that resolve to one of them, each once, in natural order."""
    names = sorted(dict.fromkeys(names), key=_order)
    kept = set(names)
    extra = sorted({s for s in others if isinstance(s, str) and s not in kept and resolve(s) in kept}, key=_order)
    return names + extra


def _order(name: str) -> tuple[Any, ...]:
    """Natural order (``2 Sea Zone`` before ``10 Sea Zone``), spellings that differ in case only by their text."""
    return natural(name), name


def map_schema(name: str, ref: str) -> dict[str, Any]:
    """The schema ``name`` (aa-orders or aa-state) with the names of the map ``ref`` as enums."""
    from movecheck.aa.maps.gamemap import GameMap
    from movecheck.schema import load_schema

    source = open_map(ref)
    found = spellings(GameMap(source.data), source.data)
    schema: dict[str, Any] = json.loads(json.dumps(load_schema(name)))
    schema.pop("$id", None)  # not the shipped schema: its names are one map's
    schema["title"] = f"{schema['title']} on the map {source.name}"
    for path, kind, where in FIELDS[name]:
        _restrict(_at(schema, path), found.of(kind), where)
    return schema


def _at(schema: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    """The subschema at ``path`` (KeyError when the shipped schema no longer has it)."""
    node: Any = schema
    for step in path:
        node = node[step]
    found: dict[str, Any] = node
    return found


def _restrict(node: dict[str, Any], names: list[str], where: str) -> None:
    """Make a field's values (or a mapping's keys) one of ``names``; a true/false the field takes stays allowed."""
    if where == "keys":
        node["propertyNames"] = {"enum": names}
        return
    types = node.get("type")
    flags = [True, False] if isinstance(types, list) and "boolean" in types else []
    node["enum"] = flags + names


def map_schema_text(name: str, ref: str) -> str:
    """The text ``movecheck schema NAME --map MAP`` prints (deterministic)."""
    return json.dumps(map_schema(name, ref), indent=2, ensure_ascii=False) + "\n"


__all__ = ["MAP_SCHEMAS", "Spellings", "map_schema", "map_schema_text", "spellings"]
