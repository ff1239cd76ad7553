"""The A&A board: a map (spaces and their neighbours), control, and the units on it.

Words as the spec defines them:

* *friendly* space: controlled by a power of the moving side;
* *hostile* territory: controlled by an enemy power; *hostile* sea zone: holds
  an enemy surface warship (or, with ``sub_transport_zones_hostile``, any
  enemy unit); a submerged submarine (Revised) counts for nothing;
* *friendly at the start of the turn*: the current control minus
  ``captured_this_turn``.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

if TYPE_CHECKING:
    import networkx as nx

from movecheck.aa.editions import DEFAULT_EDITION
from movecheck.aa.names import POWER_ABBREVIATIONS, UNIT_ABBREVIATIONS, Lexicon, sea_zone_name
from movecheck.i18n import _
from movecheck.suggest import Names, close_names


@dataclass(frozen=True)
class UnitType:
    """Movement facts of one unit type."""

    name: str
    movement: int
    domain: str
    transport_cost: int = 0
    transport_capacity: int = 0
    carrier_capacity: int = 0
    carrier_cost: int = 0
    blitz: bool = False
    submarine: bool = False
    destroyer: bool = False
    cost: int | None = None
    """What one unit costs in IPCs (None: the map gives no cost, so it cannot be bought)."""

    @classmethod
    def from_data(cls, name: str, data: dict[str, Any]) -> "UnitType":
        return cls(
            name=name,
            movement=int(data.get("movement", 0)),
            domain=str(data.get("domain", "land")),
            transport_cost=int(data.get("transport_cost", 0)),
            transport_capacity=int(data.get("transport_capacity", 0)),
            carrier_capacity=int(data.get("carrier_capacity", 0)),
            carrier_cost=int(data.get("carrier_cost", 0)),
            blitz=bool(data.get("blitz", False)),
            submarine=bool(data.get("submarine", False)),
            destroyer=bool(data.get("destroyer", False)),
            cost=_ipc(data["cost"]) if "cost" in data else None,
        )

    @property
    def is_land(self) -> bool:
        return self.domain == "land"

    @property
    def is_sea(self) -> bool:
        return self.domain == "sea"

    @property
    def is_air(self) -> bool:
        return self.domain == "air"

    @property
    def is_fighter(self) -> bool:
        """Aircraft that can land on carriers."""
        return self.is_air and self.carrier_cost > 0

    @property
    def is_transport(self) -> bool:
        return self.is_sea and self.transport_capacity > 0

    @property
    def is_carrier(self) -> bool:
        return self.is_sea and self.carrier_capacity > 0

    @property
    def is_surface_warship(self) -> bool:
        """Battleships, cruisers, destroyers, carriers: what makes a sea zone hostile."""
        return self.is_sea and not self.submarine and not self.is_transport

    @property
    def is_aa_gun(self) -> bool:
        return self.name == "aa_gun"

    @property
    def is_factory(self) -> bool:
        return self.is_land and self.movement == 0


def _ipc(value: Any) -> int:
    """An IPC amount as a map writes it: a whole number, else 0 (the schema has said so)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


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


class GameMap:
    """Spaces, their connections, canals, initial control and setup."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.name: str = str(data.get("name", "map"))
        self.powers: list[str] = list(data.get("powers", []))
        self.sides: dict[str, list[str]] = {k: list(v) for k, v in data.get("sides", {}).items()}
        self.side_of: dict[str, str] = {p: side for side, members in self.sides.items() for p in members}
        self.spaces: dict[str, Space] = {}
        for entry in data.get("territories", []):
            space = Space(entry["name"], bool(entry.get("sea")), bool(entry.get("neutral")))
            self.spaces[space.name] = space
        self.capitals: dict[str, str] = {str(e["capital"]): e["name"] for e in data.get("territories", []) if e.get("capital")}
        """Each power's capital (a territory's ``capital:``), where the map names one."""
        self.production: dict[str, int] = {e["name"]: _ipc(e.get("production")) for e in data.get("territories", [])
                                           if not e.get("sea")}
        """Each territory's IPC value (``production:``; 0 where the map gives none)."""
        treasuries = data.get("ipcs")
        self.ipcs: dict[str, int] | None = ({str(p): _ipc(n) for p, n in treasuries.items()}
                                            if isinstance(treasuries, dict) else None)
        """Each power's starting treasury (``ipcs:``), None where the map gives none."""
        self.space_names = Lexicon(self.spaces)
        for entry in data.get("territories", []):
            for alias in entry.get("aliases", []):
                self.space_names.add(alias, entry["name"])
        self.aliases: dict[str, list[str]] = dict(data.get("aliases") or {})
        """The map's own abbreviations of powers and unit types (``{name: [abbreviations]}``)."""
        self.power_names = Lexicon(self.powers)
        self.power_names.add_table(POWER_ABBREVIATIONS)
        self.power_names.add_table(self.aliases)
        # each space's neighbours, in the order the connections name them (a dict keeps
        # that order and answers "adjacent?" at once); networkx only for graph algorithms
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
                (self.resolve(c["sea_zones"][0]) or c["sea_zones"][0], self.resolve(c["sea_zones"][1]) or c["sea_zones"][1]),
                tuple(self.resolve(t) or t for t in c.get("land", [])),
            )
            for c in data.get("canals", [])
        ]
        self.control: dict[str, str] = dict(data.get("control", {}))
        self.setup: list[dict[str, Any]] = list(data.get("units", []))
        self.edition: Any = data.get("edition")
        """The rules edition the map names (None: it names none)."""
        self.options: dict[str, Any] = dict(data.get("options") or {})
        """The rule options the map sets (its game's own settings): over the edition's, under the state's."""
        self.brings_unit_types = bool(data.get("unit_types"))
        types = data.get("unit_types") or DEFAULT_EDITION.unit_types
        self.unit_types: dict[str, UnitType] = {n: UnitType.from_data(n, d) for n, d in types.items()}
        self.type_names = self._type_lexicon()
        self._indexes: dict[str, Names] = {}  # names indexed for "did you mean", when first asked

    def with_unit_types(self, types: dict[str, dict[str, Any]]) -> GameMap:
        """The same map with other unit types (an edition's, for a map that brings none)."""
        import copy

        other = copy.copy(self)
        other.unit_types = {n: UnitType.from_data(n, d) for n, d in types.items()}
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
        """The one space a name means (see :meth:`space_meanings`), or None."""
        found = self.space_meanings(name)
        return found[0] if len(found) == 1 else None

    def suggest(self, name: Any, charge: Any = None) -> list[str]:
        """Close names for a misspelt space (``charge``: the document whose hint budget pays)."""
        return close_names(name, self._index("space", self.space_names), n=3, cutoff=0.6, charge=charge)

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

    @property
    def graph(self) -> nx.Graph:
        """The map as a networkx graph, for graph algorithms (built on each call: networkx is heavy)."""
        import networkx

        graph = networkx.Graph()
        graph.add_nodes_from(self.adj)
        graph.add_edges_from((a, b) for a, others in self.adj.items() for b in others)
        return graph

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


@dataclass(eq=False)
class Unit:
    """One unit on the board, with this turn's status."""

    uid: int
    type: UnitType
    power: str
    at: str
    id: str | None = None
    moved: int = 0
    fought: bool = False
    submerged: bool = False
    """A submarine that submerged in a battle this turn (Revised): out of play, it makes no zone hostile."""
    aboard: "Unit | None" = None
    loaded: bool = False
    unloaded_to: str | None = None
    unloaded_before: bool = False
    landed_from: str | None = None
    damage: int = 0
    """A factory's damage from strategic bombing (``damage:``): its capacity is the IPC value less this."""
    """Land unit in a battles state: the id of the transport it was unloaded from this turn (``unloaded_from:``)."""
    # this phase
    spent: int = 0
    move_count: int = 0
    last_order: int | None = None
    done: bool = False
    in_battle: bool = False
    loaded_now: bool = False
    unloaded_now: bool = False
    landed: bool = False
    cargo: list["Unit"] = field(default_factory=list)
    source: tuple[Any, ...] = ()
    ref: str = ""
    """A generated id for a unit the state gives none (its place in ``units:``), for the report's ``assignment``."""

    @property
    def left(self) -> int:
        """Movement points left this turn."""
        return self.type.movement - self.moved - self.spent

    @property
    def moved_this_turn(self) -> bool:
        return self.moved > 0 or self.spent > 0 or self.move_count > 0

    def label(self) -> str:
        """Its id, or ``1 German fighter``."""
        return self.id if self.id else unit_phrase(1, self.type.name, self.power)


def readiness(unit: Unit) -> tuple[Any, ...]:
    """Sort key: the units best able to move first: not done, not in battle, no fighter landed on
    it (or it on a carrier), not a transport that unloaded, most movement left.

    A unit's key only ever grows during a phase (``done``/``in_battle`` become true,
    ``spent`` grows), which :meth:`Board.ready` relies on.
    """
    return (unit.done, unit.in_battle, unit.landed, unit.unloaded_to is not None, -unit.left, unit.uid)


POWER_ADJECTIVES = {
    "Germans": "German", "Japanese": "Japanese", "Russians": "Russian", "British": "British",
    "Americans": "American", "Italians": "Italian", "Chinese": "Chinese", "French": "French",
    "Soviets": "Soviet", "ANZAC": "ANZAC", "Australians": "Australian",
}
"""The adjective of each power the built-in maps and the usual editions name (their plural nouns)."""

TYPE_WORDS = {"aa_gun": ("AA gun", "AA guns"), "factory": ("factory", "factories"),
              "infantry": ("infantry", "infantry"), "artillery": ("artillery", "artillery")}
"""Unit types whose words are not the type name (singular, plural)."""


def power_adjective(power: str) -> str:
    """``German`` for ``Germans``: the table, else a name in -ans or -ets loses its ``s``, else the name itself."""
    if power in POWER_ADJECTIVES:
        return POWER_ADJECTIVES[power]
    if power.endswith("ans") or power.endswith("ets"):
        return power[:-1]
    return power


def type_noun(kind: str, count: int = 1) -> str:
    """The word for a unit type: ``fighter``/``fighters``, ``infantry``, ``AA gun``/``AA guns``."""
    if kind in TYPE_WORDS:
        one, many = TYPE_WORDS[kind]
    else:
        one = kind.replace("_", " ")
        many = one if one.endswith("s") else one + "s"
    return one if count == 1 else many


def unit_phrase(count: int, kind: str, power: str | None = None) -> str:
    """One phrase for units in messages: ``2 fighters``, ``1 American fighter``, ``2 German infantry``.

    ``count`` 0 reads ``no German fighters``.
    """
    owner = f"{power_adjective(power)} " if power else ""
    units = f"{owner}{type_noun(kind, count)}"
    return f"{count} {units}" if count else _("no {units}").format(units=units)


def describe(units: Iterable[Unit], powers: bool = False) -> str:
    """``2 tanks``, ``1 infantry and 1 tank`` or an id list, for messages.

    With ``powers``: ``2 German tanks``, ``the Japanese transport Maru``.
    """
    units = list(units)
    the = _("the {adjective} {kind} {id}")
    named = [the.format(adjective=power_adjective(u.power), kind=type_noun(u.type.name), id=u.id, power=u.power) if powers else u.id
             for u in units if u.id]
    counts: dict[tuple[str, str | None], int] = {}
    for unit in units:
        if not unit.id:
            key = (unit.type.name, unit.power if powers else None)
            counts[key] = counts.get(key, 0) + 1
    parts = [unit_phrase(n, t, p) for (t, p), n in counts.items()] + named
    if not parts:
        return _("no units")
    return parts[0] if len(parts) == 1 else _("{first} and {last}").format(first=", ".join(parts[:-1]), last=parts[-1])


class Board:
    """A map plus one moment of a game: control, units, the moving power and the options."""

    def __init__(self, game_map: GameMap, options: dict[str, Any], power: str, phase: str) -> None:
        self.map = game_map
        self.options = options
        self.power = power
        self.phase = phase
        self.control: dict[str, str] = dict(game_map.control)
        self.captured: set[str] = set()
        self.purchased: dict[str, int] = {}
        self.ipcs: dict[str, int] | None = None
        """Each power's unspent IPCs (the state's ``ipcs:``, or the map's starting treasuries in round 1);
        None: the state does not say and the map cannot."""
        self.taken: list[tuple[str, str, str, str | None]] = []
        """Territories taken on this board: (space, taker, new holder, former holder), in order."""
        self.transfers: list[tuple[str, str, int, str]] = []
        """IPCs moved by a capital taken: (from, to, amount, capital)."""
        self.units: list[Unit] = []
        self._by_space: dict[str, dict[int, Unit]] = {}  # by id(): a unit leaves its space in O(1), the order kept
        self.by_id: dict[str, Unit] = {}
        # (space, type, power) -> heap of (readiness, unit), built when first asked; entries
        # go stale as units move (checked when popped), arrivals are pushed
        self._ready: dict[tuple[str, str, str], list[tuple[tuple[Any, ...], Unit]]] = {}
        self._enemies: dict[str, list[Unit]] = {}  # _by_space's enemy units, in the same order

    def copy(self) -> "Board":
        """A board to carry one orders file out on: the same map, its own control, units and cargo.

        Much cheaper than building the board again from the state: the map (neighbours,
        names, unit types) is shared, the units are copied with who is aboard what.
        """
        twin = Board.__new__(Board)
        twin.map, twin.power, twin.phase = self.map, self.power, self.phase
        twin.options = dict(self.options)
        twin.control = dict(self.control)
        twin.captured = set(self.captured)
        twin.purchased = dict(self.purchased)
        twin.ipcs = dict(self.ipcs) if self.ipcs is not None else None
        twin.taken, twin.transfers = list(self.taken), list(self.transfers)
        clones: dict[int, Unit] = {}
        for unit in self.units:
            clone = object.__new__(Unit)  # a plain copy of the fields, without dataclass machinery
            clone.__dict__.update(unit.__dict__)
            clones[id(unit)] = clone
        for clone in clones.values():
            if clone.aboard is not None:
                clone.aboard = clones[id(clone.aboard)]
            if clone.cargo:
                clone.cargo = [clones[id(u)] for u in clone.cargo]
            else:
                clone.cargo = []
        twin.units = [clones[id(u)] for u in self.units]
        twin._by_space = {space: {id(c): c for c in (clones[id(u)] for u in units.values())}
                          for space, units in self._by_space.items()}
        twin.by_id = {key: clones[id(u)] for key, u in self.by_id.items()}
        twin._ready = {}  # rebuilt on first use, from the copy's own units
        twin._enemies = {space: [clones[id(u)] for u in units] for space, units in self._enemies.items()}
        return twin

    # -- sides -----------------------------------------------------------

    @property
    def side(self) -> str | None:
        return self.map.side_of.get(self.power)

    def friendly_power(self, power: str | None) -> bool:
        """A power of the moving side."""
        return power is not None and self.map.side_of.get(power) == self.side

    def enemy_power(self, power: str | None) -> bool:
        """A power of another side."""
        return power is not None and power in self.map.side_of and not self.friendly_power(power)

    # -- units -----------------------------------------------------------

    def add(self, unit: Unit) -> None:
        self.units.append(unit)
        self._by_space.setdefault(unit.at, {})[id(unit)] = unit
        if self._in_play_enemy(unit):
            self._enemies.setdefault(unit.at, []).append(unit)
        if unit.id:
            self.by_id.setdefault(unit.id, unit)
        self._arrived(unit)

    def ready(self, space: str, kind: str, power: str) -> list[tuple[tuple[Any, ...], Unit]]:
        """The heap of ``power``'s units of type ``kind`` that are or were at ``space``, by
        :func:`readiness` when pushed: an entry whose unit has left or whose key has grown is stale."""
        key = (space, kind, power)
        heap = self._ready.get(key)
        if heap is None:
            heap = [(readiness(u), u) for u in self.units_at(space) if u.type.name == kind and u.power == power]
            heapq.heapify(heap)
            self._ready[key] = heap
        return heap

    def _arrived(self, unit: Unit) -> None:
        heap = self._ready.get((unit.at, unit.type.name, unit.power))
        if heap is not None:
            heapq.heappush(heap, (readiness(unit), unit))

    def units_at(self, space: str) -> list[Unit]:
        units = self._by_space.get(space)
        return list(units.values()) if units else []

    def move_unit(self, unit: Unit, space: str) -> None:
        """Put a unit (and what it carries) in another space."""
        if unit.at == space:
            return
        del self._by_space[unit.at][id(unit)]
        enemy = self._in_play_enemy(unit)
        if enemy:
            self._enemies[unit.at].remove(unit)
        unit.at = space
        self._by_space.setdefault(space, {})[id(unit)] = unit
        if enemy:
            self._enemies.setdefault(space, []).append(unit)
        self._arrived(unit)
        for passenger in unit.cargo:
            self.move_unit(passenger, space)

    def board_unit(self, unit: Unit, vessel: Unit) -> None:
        """Put a unit aboard a transport or carrier."""
        self.leave_vessel(unit)
        unit.aboard = vessel
        vessel.cargo.append(unit)

    def leave_vessel(self, unit: Unit) -> None:
        """Take a unit off whatever it is aboard."""
        if unit.aboard is not None:
            unit.aboard.cargo.remove(unit)
            unit.aboard = None

    def _in_play_enemy(self, unit: Unit) -> bool:
        """An enemy unit the moving side must reckon with: a submerged submarine is not one."""
        return self.enemy_power(unit.power) and not unit.submerged

    def enemy_units(self, space: str) -> list[Unit]:
        """The enemy units in play in ``space``: a submerged submarine is not (no hostility, no block, no battle)."""
        return list(self._enemies.get(space, ()))

    # -- spaces ----------------------------------------------------------

    def is_sea(self, space: str) -> bool:
        return self.map.spaces[space].sea

    def is_neutral(self, space: str) -> bool:
        """Neutral land: flagged neutral, or controlled by no power."""
        info = self.map.spaces[space]
        return not info.sea and (info.neutral or self.control.get(space) is None)

    def controller(self, space: str) -> str | None:
        return self.control.get(space)

    def friendly_territory(self, space: str) -> bool:
        # a name the map does not have (a canal's land misspelt: AA908) is never friendly
        return space in self.map.spaces and not self.is_sea(space) and self.friendly_power(self.control.get(space))

    def friendly_at_start(self, space: str) -> bool:
        """Land controlled by the moving side when the turn began."""
        return self.friendly_territory(space) and space not in self.captured

    def hostile_territory(self, space: str) -> bool:
        return not self.is_sea(space) and self.enemy_power(self.control.get(space))

    def blocking_enemies(self, space: str) -> list[Unit]:
        """Enemy units that make a sea zone hostile."""
        every = self.options["sub_transport_zones_hostile"]
        return [u for u in self.enemy_units(space) if every or u.type.is_surface_warship]

    def hostile_zone(self, space: str) -> bool:
        return self.is_sea(space) and bool(self.blocking_enemies(space))

    def hostile(self, space: str) -> bool:
        """Hostile territory or hostile sea zone."""
        return self.hostile_zone(space) if self.is_sea(space) else self.hostile_territory(space)

    def changes_hands(self, unit: Unit) -> bool:
        """A unit that never fights and goes with its territory: a factory, and an AA gun where
        ``aa_guns_captured`` (Revised); in the 1942 second edition an AA gun is a defender."""
        return unit.type.is_factory or (unit.type.is_aa_gun and self.options["aa_guns_captured"])

    def enemy_destroyer(self, space: str) -> bool:
        return any(u.type.destroyer for u in self.enemy_units(space))

    def canal_open(self, a: str, b: str) -> bool:
        """A canal between two zones is open when its land was friendly since the turn began."""
        canal = self.map.canal_between(a, b)
        return canal is None or all(self.friendly_at_start(t) for t in canal.land)

    # -- distances -------------------------------------------------------

    def _distances(self, start: str, limit: int, step_ok: Callable[[str, str], bool]) -> dict[str, int]:
        """Breadth-first steps from ``start`` to every space within ``limit`` where ``step_ok(from, to)``."""
        seen = {start: 0}
        frontier = [start]
        for step in range(1, limit + 1):
            if not frontier:  # nothing new within reach: a huge limit must not spin on
                break
            nxt = []
            for space in frontier:
                for other in self.map.neighbours(space):
                    if other not in seen and step_ok(space, other):
                        seen[other] = step
                        nxt.append(other)
            frontier = nxt
        return seen

    def route(self, start: str, end: str, limit: int, passable: Callable[[str, str], bool]) -> list[str] | None:
        """A shortest path from ``start`` to ``end`` of at most ``limit`` steps, or None.

        Breadth-first over the board, neighbours by name (the same board, the same answer):
        ``passable(a, b)`` says whether a step from ``a`` may enter ``b`` on the way (``end``
        itself is always entered).  The search stops at ``limit`` steps, so its cost is bounded
        by the spaces within a unit's movement.
        """
        if limit < 1:
            return None
        parent: dict[str, str | None] = {start: None}
        frontier = [start]
        for _step in range(limit):
            nxt = []
            for space in frontier:
                for other in sorted(self.map.neighbours(space)):
                    if other in parent:
                        continue
                    if other == end:
                        path = [end, space]
                        while parent[path[-1]] is not None:
                            path.append(parent[path[-1]])  # type: ignore[arg-type]
                        return path[::-1]
                    if passable(space, other):
                        parent[other] = space
                        nxt.append(other)
            if not nxt:
                return None
            frontier = nxt
        return None

    def routes(
        self,
        start: str,
        end: str,
        limit: int,
        passable: Callable[[str, str], bool],
        enter: Callable[[str, str], bool] | None = None,
        first: int = 10,
    ) -> tuple[list[list[str]], int]:
        """All shortest paths from ``start`` to ``end`` of at most ``limit`` steps: the first
        ``first`` of them in sorted order (by their spaces' names), and how many there are.

        The rules of :meth:`route`: ``passable(a, b)`` says whether a step from ``a`` may
        enter ``b`` on the way; ``end`` is entered when ``enter(a, end)`` allows it (by
        default always).  ``([], 0)`` when no such path exists.
        """
        if start == end:
            return [[start]], 1
        if limit < 1:
            return [], 0
        depth = {start: 0}
        parents: dict[str, list[str]] = {start: []}
        frontier = [start]
        for step in range(1, limit + 1):
            nxt: list[str] = []
            reached = False
            for space in frontier:
                for other in self.map.neighbours(space):
                    if other == end:
                        if enter is None or enter(space, other):
                            parents.setdefault(end, []).append(space)
                            reached = True
                        continue
                    if depth.get(other, step) < step or not passable(space, other):
                        continue
                    if other not in depth:
                        depth[other] = step
                        parents[other] = []
                        nxt.append(other)
                    parents[other].append(space)
            if reached:
                break
            if not nxt:
                return [], 0
            frontier = nxt
        else:
            return [], 0
        # the spaces on some shortest path, walking back from the end
        on_path = {end}
        stack = [end]
        while stack:
            for parent in parents[stack.pop()]:
                if parent not in on_path:
                    on_path.add(parent)
                    stack.append(parent)
        children: dict[str, list[str]] = {}
        for child in on_path:
            for parent in parents[child]:
                children.setdefault(parent, []).append(child)
        counts: dict[str, int] = {end: 1}
        for space in sorted(on_path - {end}, key=lambda s: -depth[s]):
            counts[space] = sum(counts[c] for c in children.get(space, ()))
        found: list[list[str]] = []
        path = [start]

        def walk(space: str) -> None:
            if len(found) >= first:
                return
            if space == end:
                found.append(list(path))
                return
            for child in sorted(children.get(space, ())):
                path.append(child)
                walk(child)
                path.pop()

        walk(start)
        return found, counts[start]

    def air_distances(self, start: str, limit: int) -> dict[str, int]:
        """Steps an aircraft needs from ``start`` to every space within ``limit`` (no neutrals)."""
        impassable = self.options["neutrals_impassable"]
        return self._distances(start, limit, lambda _a, b: not (impassable and self.is_neutral(b)))

    def sea_distances(self, start: str, limit: int, avoid_hostile: bool = True) -> dict[str, int]:
        """Steps a ship needs from ``start`` to reachable zones (through open canals, around hostile zones)."""

        def step_ok(a: str, b: str) -> bool:
            return self.is_sea(b) and self.canal_open(a, b) and not (avoid_hostile and self.hostile_zone(b))

        return self._distances(start, limit, step_ok)
