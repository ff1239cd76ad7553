"""The A&A map: its spaces and their neighbours, canals, names, initial control and setup."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from movecheck.aa.editions import DEFAULT_EDITION
from movecheck.aa.names import POWER_ABBREVIATIONS, UNIT_ABBREVIATIONS, Lexicon, sea_zone_name
from movecheck.aa.units import UnitType, ipc_amount
from movecheck.suggest import Names, close_names


@dataclass(frozen=True)
class Space:
    """A territory or sea zone."""

    name: str
    sea: bool = False
    neutral: bool = False


@dataclass(frozen=True)
class Canal:
    """Two sea zones joined only while the canal's land territories are held."""

    name: str
    zones: tuple[str, str]
    land: tuple[str, ...]


PHASES = ("purchase", "combat_move", "battles", "noncombat_move", "mobilize")
"""A power's phases in a turn, in order."""


def _sequence(data: dict[str, Any], powers: list[str]) -> list[tuple[str, str]]:
    """The map's ``sequence`` as (power, phase) pairs; each power's phases in turn order where it gives none."""
    written = data.get("sequence")
    if isinstance(written, list) and written:
        steps = [(str(s.get("power")), str(s.get("phase"))) for s in written
                 if isinstance(s, dict) and s.get("power") in powers and s.get("phase") in PHASES]
        if steps:  # a step of an unknown power or phase is the map schema's to report (MC003), never followed
            return steps
    return [(power, phase) for power in powers for phase in PHASES]


def with_own_types(edition: dict[str, dict[str, Any]], own: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """An edition's unit types with a map's own: a type the map declares replaces the edition's of that name
    (where it stood in the edition's order) or is added after them; the edition's other types stay
    (aa-turn.md, "Treasury": a map that declares only a new unit still has infantry and factories)."""
    merged = {name: own.get(name, facts) for name, facts in edition.items()}
    merged.update((name, facts) for name, facts in own.items() if name not in merged and isinstance(facts, dict))
    return {name: facts for name, facts in merged.items() if isinstance(facts, dict)}


NAMES_KEPT = 4096
"""Names whose space a map keeps (:meth:`GameMap.resolve`); past this many, the memo starts again."""


class GameMap:
    """Spaces, their connections, canals, initial control and setup."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.name: str = str(data.get("name", "map"))
        self.powers: list[str] = list(data.get("powers", []))
        self.sides: dict[str, list[str]] = {k: list(v) for k, v in data.get("sides", {}).items()}
        self.side_of: dict[str, str] = {p: side for side, members in self.sides.items() for p in members}
        self.spaces: dict[str, Space] = {}
        self.land_routes: dict[tuple[str, ...], Any] = {}
        self.resolved: dict[str, str | None] = {}
        """The space each name read on this map means (:meth:`resolve`), None for none or more than one."""
        """The land routes of the paths read on this map (:func:`movecheck.aa.moves.land_route`), by path."""
        for entry in data.get("territories", []):
            space = Space(entry["name"], bool(entry.get("sea")), bool(entry.get("neutral")))
            self.spaces[space.name] = space
        self.capitals: dict[str, str] = {
            str(e["capital"]): e["name"] for e in data.get("territories", []) if e.get("capital")
        }
        """Each power's capital (a territory's ``capital:``), where the map names one."""
        self.production: dict[str, int] = {
            e["name"]: ipc_amount(e.get("production")) for e in data.get("territories", []) if not e.get("sea")
        }
        """Each territory's IPC value (``production:``; 0 where the map gives none)."""
        self.space_names = Lexicon(self.spaces)
        for entry in data.get("territories", []):
            for alias in entry.get("aliases", []):
                self.space_names.add(alias, entry["name"])
        self.aliases: dict[str, list[str]] = dict(data.get("aliases") or {})
        """The map's own abbreviations of powers and unit types (``{name: [abbreviations]}``)."""
        self.power_names = Lexicon(self.powers)
        self.power_names.add_table(POWER_ABBREVIATIONS)
        self.power_names.add_table(self.aliases)
        treasuries = data.get("ipcs")
        self.ipcs: dict[str, int] | None = self._treasuries(treasuries) if isinstance(treasuries, dict) else None
        """Each power's starting treasury (``ipcs:``, keys resolved like names in orders; lint reports a key that
        names no power or one an earlier key named, AA910), None where the map gives none."""
        # each space's neighbours, in the order the connections name them (a dict keeps
        # that order and answers "adjacent?" at once)
        self.adj: dict[str, dict[str, None]] = {name: {} for name in self.spaces}
        self.bad_connections: list[tuple[int, str]] = []
        for index, pair in enumerate(data.get("connections", [])):
            a, b = (self.resolve(pair[0]), self.resolve(pair[1])) if len(pair) == 2 else (None, None)
            if a is None or b is None:
                self.bad_connections.append((index, pair[0] if a is None else pair[1]))
                continue
            self.adj[a][b] = None
            self.adj[b][a] = None
        self.canals: list[Canal] = [
            Canal(
                c["name"],
                (
                    self.resolve(c["sea_zones"][0]) or c["sea_zones"][0],
                    self.resolve(c["sea_zones"][1]) or c["sea_zones"][1],
                ),
                tuple(self.resolve(t) or t for t in c.get("land", [])),
            )
            for c in data.get("canals", [])
        ]
        self.control: dict[str, str] = dict(data.get("control", {}))
        self.original_owner: dict[str, str] = dict(self.control)
        """Each territory's original owner, which liberation reads: a territory's ``original_owner:`` (TripleA's
        ``originalOwner``, where it is not the power that holds it at the start), else its initial control."""
        self.original_owner.update(
            {e["name"]: str(e["original_owner"]) for e in data.get("territories", []) if e.get("original_owner")}
        )
        self.setup: list[dict[str, Any]] = list(data.get("units", []))
        self.edition: Any = data.get("edition")
        """The rules edition the map names (None: it names none)."""
        self.options: dict[str, Any] = dict(data.get("options") or {})
        """The rule options the map sets (its game's own settings): over the edition's, under the state's."""
        self.sequence: list[tuple[str, str]] = _sequence(data, self.powers)
        """The phases of a round in order, as (power, phase): the map's ``sequence`` (Anniversary), else each
        power's five phases in the order of ``powers``."""
        self.objectives: list[dict[str, Any]] = [
            o for o in data.get("national_objectives") or [] if isinstance(o, dict)
        ]
        """The National Objectives (aa-anniversary.md), as the map writes them."""
        self.player_rules: dict[str, dict[str, Any]] = dict(data.get("player_rules") or {})
        """A power's own rules (China's), by power."""
        self.victory_cities: list[str] = [e["name"] for e in data.get("territories", []) if e.get("victory_city")]
        self.victory: dict[str, Any] = dict(data.get("victory") or {})
        """The victory cities a side must hold to win (``cities``), where the map says."""
        own = data.get("unit_types")
        self.own_unit_types: dict[str, dict[str, Any]] = dict(own) if isinstance(own, dict) else {}
        """The unit types the map declares: each adds to the edition's types or replaces one of them by name."""
        types = with_own_types(DEFAULT_EDITION.unit_type_values(), self.own_unit_types)
        self.unit_types: dict[str, UnitType] = {n: UnitType.from_data(n, d) for n, d in types.items()}
        self.type_names = self._type_lexicon()
        self._indexes: dict[str, Names] = {}  # names indexed for "did you mean", when first asked

    def next_step(self, power: str, phase: str) -> tuple[str, str, bool]:
        """The phase after ``phase`` of ``power`` in the round's sequence: (power, phase, a new round begins)."""
        steps = self.sequence or [(power, PHASES[0])]
        index = steps.index((power, phase)) if (power, phase) in steps else -1
        if index < 0:  # a power the sequence does not know: its next phase, as the default sequence has it
            following = PHASES.index(phase) + 1 if phase in PHASES else len(PHASES)
            return (power, PHASES[following], False) if following < len(PHASES) else (*steps[0], True)
        if index + 1 < len(steps):
            return (*steps[index + 1], False)
        return (*steps[0], True)

    def with_unit_types(self, types: dict[str, dict[str, Any]]) -> GameMap:
        """The same map under another edition's unit types (``types``), the map's own added or replacing by name."""

        other = copy.copy(self)
        merged = with_own_types(types, self.own_unit_types)
        other.unit_types = {n: UnitType.from_data(n, d) for n, d in merged.items()}
        other.type_names = other._type_lexicon()
        other._indexes = {}
        return other

    def _type_lexicon(self) -> Lexicon:
        """The unit types' names, with the standard abbreviations and the map's own."""
        lexicon = Lexicon(self.unit_types)
        lexicon.add_table(UNIT_ABBREVIATIONS)
        lexicon.add_table(self.aliases)
        return lexicon

    def space_meanings(self, name: Any) -> list[str]:
        """The spaces a name may mean: its own name, an alias, or a sea-zone form (``SZ 5``, ``5 SZ``)."""
        found = self.space_names.meanings(name)
        if found or not isinstance(name, str):
            return found
        zone = sea_zone_name(name)
        return [zone] if zone in self.spaces and self.spaces[zone].sea else []

    def resolve(self, name: Any) -> str | None:
        """The one space a name means (see :meth:`space_meanings`), or None.  Kept per name (issue 37: a run reads
        every order's path several times; the names a map knows never change once it is made)."""
        if not isinstance(name, str):
            found = self.space_meanings(name)
            return found[0] if len(found) == 1 else None
        known = self.resolved.get(name, "")
        if known != "":
            return known
        if len(self.resolved) >= NAMES_KEPT:
            self.resolved.clear()
        meanings = self.space_meanings(name)
        space = self.resolved[name] = meanings[0] if len(meanings) == 1 else None
        return space

    def suggest(self, name: Any, charge: Any = None) -> list[str]:
        """Close names for a misspelt space (``charge``: the document whose hint budget pays)."""
        return close_names(name, self._index("space", self.space_names), n=3, cutoff=0.6, charge=charge)

    def _treasuries(self, written: dict[Any, Any]) -> dict[str, int]:
        """The map's starting treasuries by power: the first key naming each power counts."""
        found: dict[str, int] = {}
        for name, amount in written.items():
            power = self.resolve_power(name)
            if power is not None and power not in found:
                found[power] = ipc_amount(amount)
        return found

    def resolve_power(self, name: Any) -> str | None:
        """The one power a name means (its name or an abbreviation such as ``UK``), or None."""
        return self.power_names.resolve(name)

    def suggest_power(self, name: Any, charge: Any = None) -> list[str]:
        """Close names for a misspelt power."""
        return close_names(name, self._index("power", self.power_names), n=2, charge=charge)

    def resolve_type(self, name: Any) -> str | None:
        """The one unit type a name means (its name or an abbreviation such as ``inf``), or None."""
        return self.type_names.resolve(name)

    def suggest_type(self, name: Any, charge: Any = None) -> list[str]:
        """Close names for a misspelt unit type, abbreviations ranked with the names."""
        return close_names(name, self._index("type", self.type_names), n=3, cutoff=0.5, charge=charge)

    def _index(self, kind: str, lexicon: Lexicon) -> Names:
        """The names of a lexicon and their spellings, indexed once for "did you mean"."""
        if kind not in self._indexes:
            self._indexes[kind] = Names(lexicon.names, lexicon.spellings)
        return self._indexes[kind]

    def is_sea(self, name: str) -> bool:
        return self.spaces[name].sea

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.adj.get(a, ())

    def canal_between(self, a: str, b: str) -> Canal | None:
        """The canal whose two zones are ``a`` and ``b``, if any."""
        for canal in self.canals:
            if {a, b} == set(canal.zones):
                return canal
        return None

    def neighbours(self, name: str) -> Iterator[str]:
        return iter(self.adj[name])

