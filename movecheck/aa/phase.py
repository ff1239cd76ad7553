"""What the aa clauses read: the phase being checked, its board, its orders so far, and facts about it.

The engine (:mod:`movecheck.aa.engine`) builds a :class:`Phase`, applies each
move to it and runs the clauses; the clauses (:mod:`movecheck.aa.checks`) only
read it.  Both import this module, neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from movecheck.aa.choice import Chooser, classes, packing_key, packings, spread_key
from movecheck.aa.model import Board
from movecheck.aa.moves import Move, carried, land_route
from movecheck.aa.setup import cargo_load
from movecheck.aa.units import Unit
from movecheck.budget import SearchLimit
from movecheck.i18n import N_, _

if TYPE_CHECKING:
    from movecheck.document import Document

COMBAT = "combat_move"
NONCOMBAT = "noncombat_move"
PHASES = {"combat": (COMBAT,), "noncombat": (NONCOMBAT,), "both": (COMBAT, NONCOMBAT)}
"""The phases a clause declared for ``combat``, ``noncombat`` or ``both`` runs in."""

SCOPES = ("move", "end")
"""A *move* clause looks at each move before it is applied; an *end* clause at the board after the last move."""

T = TypeVar("T")


def occasion(phase: str, scope: str) -> str:
    """The kernel occasion of an aa clause that runs in ``phase`` at ``scope`` (``combat_move/move``)."""
    return f"{phase}/{scope}"


@dataclass
class Record:
    """What one applied move did, for the clauses decided at the end of the phase."""

    move: Move
    units: list[Unit]
    cargo: list[Unit] = field(default_factory=list)
    loaded: list[Unit] = field(default_factory=list)
    unloaded: list[Unit] = field(default_factory=list)
    unload_zone: str | None = None
    unload_to: str | None = None
    rides: dict[int, tuple[Unit, Unit]] = field(default_factory=dict)
    """By uid: each unit of the move (or cargo carried along) and the transport or carrier it boarded, left or rode."""


@dataclass
class Phase:
    """The state of checking one orders file: the board, the orders, what has happened so far."""

    board: Board
    doc: Document
    name: str
    records: list[Record] = field(default_factory=list)
    attack_zones: set[str] = field(default_factory=set)
    last_order: dict[int, Move] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict, repr=False)
    """Facts computed once for the end of the phase (the landing plan), by name."""
    chooser: Chooser = field(default_factory=Chooser, repr=False)
    """Who decides the choices the orders leave open (:mod:`movecheck.aa.choice`)."""
    plans: dict[int, dict[int, Unit | None]] = field(default_factory=dict, repr=False)
    """The loading plan of each move (by order), decided once."""
    attacked: dict[int, str] = field(default_factory=dict, repr=False)
    """By uid: the zone a unit's order attacked (``attack:``) when the unit reached it."""
    landings: dict[int, int] = field(default_factory=dict, repr=False)
    """By uid: the order at whose end a fighter landed on a carrier (noncombat)."""
    counted: set[int] = field(default_factory=set, repr=False)
    _legs: dict[int, list[tuple[list[Unit], list[int]]]] = field(default_factory=dict, repr=False)
    """The units an order of the phase chose by type and count (uids): another choice might have taken others."""

    @property
    def combat(self) -> bool:
        return self.name == COMBAT

    @property
    def options(self) -> dict[str, Any]:
        return self.board.options

    def fact(self, name: str, compute: Callable[[Phase], T]) -> T:
        """The fact ``name`` about the phase as it ends, computed on first use (end clauses share it)."""
        if name not in self.facts:
            self.facts[name] = compute(self)
        known: T = self.facts[name]  # the value compute gave for this name
        return known

    # -- battle spaces and journeys -----------------------------------------

    def battle_space(self, space: str) -> bool:
        """A combat destination where fighting happens: a hostile territory holding enemy units that
        defend it, a hostile sea zone, or a zone an order attacks (``attack:``).  An empty hostile
        territory is a combat destination (it is captured) but not a battle space, nor is one that
        holds only units that change hands with it (factories; AA guns where ``aa_guns_captured``):
        land units still stop there (AA202)."""
        board = self.board
        if board.is_sea(space):
            return board.hostile_zone(space) or space in self.attack_zones
        return board.hostile_territory(space) and any(not board.changes_hands(u) for u in board.enemy_units(space))

    def joins_journey(self, unit: Unit, move: Move) -> bool:
        """The unit moved by itself earlier this phase and this order goes on from where that left it:
        the order's first space is a space its joined path passes through (a journey, judged as one path)."""
        return (bool(unit.move_count) and (unit.aboard is None or self.passed_carrier(move, unit))
                and not unit.unloaded_now and unit.at == move.start)

    def legs(self, move: Move) -> list[tuple[list[Unit], list[int]]]:
        """The units of a move that move by themselves (not aboard a vessel), by type and by whether their
        journey goes on from the path's first space, each group with the indexes of the spaces its journey
        passes through on this order: the path's inner spaces, and its first one when an earlier order of
        the phase took the units there (in combat move, unless it is a battle space: AA206 says why they may
        not go on from one).  A land unit passes only the spaces it walks through before it boards.
        Worked out once per move (the clauses that read it run before the move is applied)."""
        if move.index not in self._legs:
            self._legs = {move.index: self._legs_of(move)}
        return self._legs[move.index]

    def _legs_of(self, move: Move) -> list[tuple[list[Unit], list[int]]]:
        groups: dict[tuple[str, bool], list[Unit]] = {}
        for unit in move.units:
            if unit.unloaded_now:
                continue  # its move is over (AA403)
            if unit.aboard is None or self.passed_carrier(move, unit):
                groups.setdefault((unit.type.name, self.joins_journey(unit, move)), []).append(unit)
        inner = list(range(1, len(move.path) - 1))
        # a land unit walks the land its path starts on, until it boards (from the sea its first step is an unload)
        boards = next((k for k in range(len(move.path)) if self.board.is_sea(move.path[k])), len(move.path))
        ashore = [k for k in inner if k < boards]
        first = any(going_on for _kind, going_on in groups) and not (self.combat and self.battle_space(move.start))
        found = []
        for (_kind, going_on), units in groups.items():
            passes = ashore if units[0].type.is_land else inner  # a land unit's walk ends where it boards (AA403 after)
            found.append((units, [0, *passes] if going_on and first else passes))
        return found

    def passed_carrier(self, move: Move, fighter: Unit) -> bool:
        """A fighter that landed on a carrier at the end of an earlier order and flies on in this one, the
        carrier not having moved since: its journey passed the carrier's zone, so it did not land there
        (a fighter lands where its journey ends; once its carrier moves with it, it has landed)."""
        carrier = fighter.aboard
        return (fighter.landed and carrier is not None and fighter not in move.riders
                and (carrier.last_order or 0) < self.landings.get(fighter.uid, 0))

    def journeys(self) -> dict[int, list[str]]:
        """At the end of the phase: the path of each unit that moved by itself, its orders joined in file order."""
        def join(phase: Phase) -> dict[int, list[str]]:
            paths: dict[int, list[str]] = {}
            for record in phase.records:
                for unit in record.units:
                    if unit not in record.move.riders:
                        path = paths.setdefault(unit.uid, [])
                        path.extend(record.move.path[1:] if path else record.move.path)
            return paths

        return self.fact("journeys", join)

    def movement_needed(self, move: Move, unit: Unit) -> int:
        """Movement points a unit spends on a move (cargo rides free; fighters riding a carrier too)."""
        if unit in move.riders:
            return 0
        if unit.type.is_land:
            return land_route(self.board, move.path).cost
        return len(move.path) - 1

    def short_by_choice(self, move: Move) -> bool:
        """The move has units short of movement (AA104) that another choice of units might spare:
        units chosen by type and count, by this order or an earlier one, where a unit of their type
        began the phase with the movement the path needs."""
        for group in move.groups():
            need = self.movement_needed(move, group[0])
            if need <= min(u.left for u in group) or not any(u.uid in self.counted for u in group):
                continue
            if need <= self.fact(
                f"fresh movement of {group[0].type.name}", _fresh_movement(group[0].type.name)
            ):
                return True
        return False

    # -- loading plan ------------------------------------------------------

    def loading_plan(self, move: Move) -> dict[int, Unit | None]:
        """Which transport each land unit of a loading move boards (None: no room anywhere).

        Decided once per move, before it is applied (the clauses and the engine read the
        same plan): the greedy packing (:meth:`_best_fit`), or in a search the packing the
        chooser forces.  A ``transport:`` the order names pins it.
        """
        if move.index in self.plans:
            return self.plans[move.index]
        route = land_route(self.board, move.path)
        land = move.land_movers()
        if not land or route.load_at is None or (route.bad_step is not None and route.bad_step <= route.load_at):
            plan: dict[int, Unit | None] = {}
        else:
            zone = move.path[route.load_at]
            vessels = [move.transport] if move.transport is not None else self.transports_in(zone)
            vessels = [v for v in vessels if v.at == zone and self.board.friendly_power(v.power)]
            plan = self._spread_fit(land, vessels) if self.chooser.spread else self._best_fit(land, vessels)
            if self.chooser.watching and _plain(self._spread_fit(land, vessels)) != _plain(plan):
                self.chooser.differs(move.index)
            if self.chooser.searching and move.transport is None and len(vessels) > 1 and all(plan.values()):
                units = {u.uid: u for u in land}
                plan = self.chooser.pick(
                    move.index, plan, lambda: self._packings(land, vessels), lambda p: packing_key(p, units),
                )
        self.plans[move.index] = plan
        return plan

    def _best_fit(self, land: list[Unit], vessels: list[Unit]) -> dict[int, Unit | None]:
        """The greedy packing: the biggest units first, each onto the transport it fills best (own first)."""
        room = {v.uid: v.type.transport_capacity - cargo_load(v) for v in vessels}
        plan: dict[int, Unit | None] = {}
        for unit in sorted(land, key=lambda u: -u.type.transport_cost):
            fits = [v for v in vessels if unit.type.transport_cost and unit.type.transport_cost <= room[v.uid]]
            vessel = min(
                fits,
                key=lambda v: (
                    v.unloaded_to is not None,
                    v.power != self.board.power,
                    room[v.uid],
                    -len(v.cargo),
                    v.uid,
                ),
                default=None,
            )
            plan[unit.uid] = vessel
            if vessel is not None:
                room[vessel.uid] -= unit.type.transport_cost
        return {u.uid: plan[u.uid] for u in land}

    def _spread_fit(self, land: list[Unit], vessels: list[Unit]) -> dict[int, Unit | None]:
        """The packing that keeps later loads' options (:func:`~movecheck.aa.choice.spread_key`), own first."""
        room = {v.uid: v.type.transport_capacity - cargo_load(v) for v in vessels}
        costs = sorted({t.transport_cost for t in self.board.map.unit_types.values() if t.is_land and t.transport_cost})
        plan: dict[int, Unit | None] = {}
        for unit in sorted(land, key=lambda u: -u.type.transport_cost):
            cost = unit.type.transport_cost
            fits = [v for v in vessels if cost and cost <= room[v.uid]]
            vessel = min(fits, key=lambda v: (v.unloaded_to is not None, v.power != self.board.power,
                                              *spread_key(cost, room[v.uid], costs), v.uid), default=None)
            plan[unit.uid] = vessel
            if vessel is not None:
                room[vessel.uid] -= cost
        return {u.uid: plan[u.uid] for u in land}

    def _packings(self, land: list[Unit], vessels: list[Unit]) -> Any:
        if not all(u.type.transport_cost for u in land):
            return iter(())
        groups = classes(sorted(vessels, key=lambda v: (v.power != self.board.power, v.uid)))
        return packings(land, lambda u: u.type.transport_cost, groups,
                        lambda v: v.type.transport_capacity - cargo_load(v))

    def overflow(self, move: Move, zone: str) -> Unit | None:
        """The transport cargo with no room boards anyway (AA401 on its order, no knock-on later)."""
        if move.transport is not None:
            return (
                move.transport
                if move.transport.at == zone and self.board.friendly_power(move.transport.power)
                else None
            )
        vessels = self.transports_in(zone)
        return max(
            vessels,
            key=lambda v: (v.type.transport_capacity - cargo_load(v), v.power == self.board.power, -v.uid),
            default=None,
        )

    def named_transport_problem(self, move: Move, zone: str) -> str | None:
        """Why the transport an order names (``transport:``) cannot take cargo in a zone, if it cannot."""
        vessel = move.transport
        if vessel is None:
            return None
        if vessel.at != zone:
            return _("transport {id} is in {space}, not in {zone}").format(id=vessel.id, space=vessel.at, zone=zone)
        if not self.board.friendly_power(vessel.power):
            return _("transport {id} belongs to the {power}, an enemy").format(id=vessel.id, power=vessel.power)
        return None

    def transports_in(self, zone: str) -> list[Unit]:
        """Transports of the moving side in a zone, the mover's own first."""
        board = self.board
        side_of, side = board.map.side_of, board.side  # board.friendly_power, for each unit of the zone
        found = [u for u in board.units_at(zone)
                 if u.type.is_transport and u.power is not None and side_of.get(u.power) == side]
        return sorted(found, key=lambda u: (u.power != board.power, -len(u.cargo), u.uid))

    def transport_in(self, zone: str) -> bool:
        """Some transport of the moving side is in a zone (:meth:`transports_in` is not empty)."""
        board = self.board
        return any(u.type.is_transport and board.friendly_power(u.power) for u in board.units_at(zone))

    def riders(self, move: Move) -> list[Unit]:
        """The fighters of a move that are the cargo of one of its carriers (:func:`~movecheck.aa.moves.carried`):
        they go with it and spend nothing.  Any other fighter of the move flies the path on its own movement."""
        carriers = [u for u in move.units if u.type.is_carrier]
        cargo = {f.uid for c in carriers for f in carried(c)}
        return [u for u in move.units if u.type.is_fighter and u.uid in cargo]

    def carriers_in(self, zone: str) -> list[Unit]:
        """Carriers of the moving side in a zone, the mover's own first."""
        found = [u for u in self.board.units_at(zone) if u.type.is_carrier and self.board.friendly_power(u.power)]
        return sorted(found, key=lambda u: (u.power != self.board.power, u.uid))


class Undecided(SearchLimit):
    """A search ran out of its budget: the units it left undecided, with the orders that last moved them.

    An end clause raises it after yielding what it did decide; the engine makes
    each of these orders unchecked (MC012), once however many clauses raise it.
    """

    template = N_("not every clause could decide {units}")
    """The end of the MC012 message; ``{}`` is the undecided units."""

    def __init__(self, limit: SearchLimit, undecided: list[tuple[Move, Unit]]) -> None:
        super().__init__(limit.what, limit.variable, limit.value)
        self.undecided = undecided

    def orders(self) -> list[tuple[Move, list[Unit]]]:
        """Each order that last moved an undecided unit, with those units, in file order."""
        found: dict[int, tuple[Move, list[Unit]]] = {}
        for move, unit in self.undecided:
            found.setdefault(move.index, (move, []))[1].append(unit)
        return [found[k] for k in sorted(found)]


def _fresh_movement(kind: str) -> Callable[[Phase], int]:
    """The most movement a unit of ``kind`` of the moving power began the phase with."""

    def compute(phase: Phase) -> int:
        board = phase.board
        return max((u.type.movement - u.moved for u in board.units if u.type.name == kind and u.power == board.power),
                   default=0)

    return compute


def _plain(plan: dict[int, Unit | None]) -> list[tuple[int, int | None]]:
    """A packing as the uids of each unit and the vessel it boards, to compare two packings."""
    return [(uid, None if vessel is None else vessel.uid) for uid, vessel in plan.items()]
