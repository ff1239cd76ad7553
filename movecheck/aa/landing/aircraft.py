"""Where the mover's aircraft land: facts about the end of a phase, computed once for the clauses that use them.

After the combat move (:func:`combat_landing`, read by AA207 and AA309) every
aircraft that moved needs a place to land, all of them at once: the carrier
search (:mod:`movecheck.aa.landing.carriers`) decides which fighters carriers
can take, which carriers must move for them, where a bought carrier goes,
and which aircraft are left over; when its budget runs out, which aircraft it
left undecided.  After the noncombat move (:func:`noncombat_landing`, read by
AA303, AA304, AA305 and AA308) aircraft are where they ended: the facts say
which of them have no landing space there, and why.

The facts name units, zones and carriers; the clauses word them.  Each is
computed once per phase (:meth:`Phase.fact`).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import cast
from weakref import WeakKeyDictionary

from movecheck.aa.landing.carriers import Deck, Flyer, Landing, solve_landing
from movecheck.aa.model import Board
from movecheck.aa.moves import Move
from movecheck.aa.phase import Phase, Undecided
from movecheck.aa.setup import carrier_load
from movecheck.aa.units import Unit
from movecheck.budget import SearchLimit
from movecheck.i18n import N_
from movecheck.records import dataclass_on_first_use


def factory_zones(board: Board) -> list[str]:
    """Sea zones next to a territory with a factory of the mover, held since the turn began."""
    zones: set[str] = set()
    for unit in board.units:
        if unit.type.is_factory and board.controller(unit.at) == board.power and board.friendly_at_start(unit.at):
            zones.update(z for z in board.map.neighbours(unit.at) if board.is_sea(z))
    return sorted(zones)


def bought_decks(board: Board) -> list[Deck]:
    """Carriers bought this turn, each placeable once in a zone next to an own factory."""
    if not board.options["land_on_new_carrier"]:
        return []
    zones = factory_zones(board)
    # each fighter takes at most one carrier: more bought carriers than the mover has
    # fighters change nothing (and a hostile count of 10**12 must not be enumerated)
    fighters = sum(1 for u in board.units if u.type.is_fighter and u.power == board.power)
    decks = []
    for kind, count in sorted(board.purchased.items()):
        unit_type = board.map.unit_types.get(kind)
        if unit_type is None or not unit_type.is_carrier:
            continue
        for n in range(min(count, fighters)):
            decks.append(Deck(f"~bought-{kind}-{n + 1}", unit_type.carrier_capacity, zones, None))
    return decks


def nearest_landings(board: Board, unit: Unit, limit: int = 3) -> list[tuple[str, int]]:
    """The closest territories friendly at the start of the turn, with their distance in steps (at most 12).

    Aircraft in one space have the same nearest landings.  The first few spaces asked about are
    searched one by one; past :data:`SEARCHED_ALONE` of them one search answers for every space
    of the board (its cost is a few of the single ones), so many stranded aircraft in many spaces
    cost no search of the board each.
    """
    known = _NEAREST.get(board)
    if known is None:
        known = _NEAREST[board] = _Nearest()
    table = known.tables.get(limit)
    if table is not None:
        return table.get(unit.at, [])
    mark = (unit.at, limit)
    if mark not in known.alone:
        if len(known.alone) >= SEARCHED_ALONE:
            table = known.tables[limit] = _nearest_table(board, limit)
            return table.get(unit.at, [])
        known.alone[mark] = _nearest_alone(board, unit.at, limit)
    return known.alone[mark]


SEARCHED_ALONE = 8
"""Spaces whose nearest landings are searched one by one before one search for the whole board."""


@dataclass_on_first_use
class _Nearest:
    """A board's nearest landings found so far: per (space, limit), or per limit for every space."""

    alone: dict[tuple[str, int], list[tuple[str, int]]] = field(default_factory=dict)
    tables: dict[int, dict[str, list[tuple[str, int]]]] = field(default_factory=dict)


def _nearest_alone(board: Board, start: str, limit: int) -> list[tuple[str, int]]:
    """A breadth-first search of 12 steps from ``start``: its friendly territories by steps, then name."""
    reach = board.air_distances(start, 12)
    found = [(space, steps) for space, steps in reach.items() if board.friendly_at_start(space)]
    return sorted(found, key=lambda item: (item[1], item[0]))[:limit]


def _nearest_table(board: Board, limit: int, reach: int = 12) -> dict[str, list[tuple[str, int]]]:
    """For every space, its ``limit`` closest territories friendly at the start of the turn, by steps then name.

    One search from all those territories at once: labels ``(steps, territory, space)`` come off a heap
    in that order and each space keeps the first ``limit`` territories it meets.  A territory that a
    space on its shortest way to another space does not keep is never among that space's closest
    either (the ``limit`` it kept come first there too), so the table is what a breadth-first search
    from each space would give.  An aircraft enters every space of its way but the first, so a label
    spreads from a space only where an aircraft may enter it (not a neutral where they are impassable).
    The table equals :func:`_nearest_alone` of every space (tested).
    """
    impassable = board.options["neutrals_impassable"]
    heap = [(0, space, space) for space in board.map.spaces if board.friendly_at_start(space)]
    heapq.heapify(heap)
    table: dict[str, list[tuple[str, int]]] = {}
    while heap:
        steps, source, space = heapq.heappop(heap)
        found = table.setdefault(space, [])
        if len(found) >= limit or any(known == source for known, _ in found):
            continue
        found.append((source, steps))
        if steps >= reach or (impassable and board.is_neutral(space)):
            continue
        for other in board.map.neighbours(space):
            if len(table.get(other, ())) < limit:
                heapq.heappush(heap, (steps + 1, source, other))
    return table


_NEAREST: WeakKeyDictionary[Board, _Nearest] = WeakKeyDictionary()
"""Per board, the nearest landings found (territories friendly at the start never change)."""


# --- after the combat move ---------------------------------------------------------------


@dataclass_on_first_use
class Stranded:
    """An aircraft that moved and that no landing plan lands, with the order that last moved it."""

    unit: Unit
    move: Move
    contested: bool
    """Carrier slots lie within its reach, but the plan needs them for other fighters."""


@dataclass_on_first_use
class CarrierCall:
    """A fighter the plan lands on a carrier that must move to ``zone``, or on a bought carrier placed in ``zone``."""

    unit: Unit
    move: Move
    deck: Deck
    zone: str

    @property
    def bought(self) -> bool:
        return self.deck.unit is None


@dataclass
class CombatLanding:
    """The landing plan after the combat move: what it cannot land, what it needs, what it left undecided."""

    stranded: list[Stranded] = field(default_factory=list)
    calls: list[CarrierCall] = field(default_factory=list)
    undecided: list[tuple[Move, Unit]] = field(default_factory=list)
    """Aircraft of the parts the search could not finish (with the orders that last moved them)."""
    limit: SearchLimit | None = None

    def raise_undecided(self) -> None:
        """Raise :class:`LandingLimit` when the search left aircraft undecided (after the decided ones are worded)."""
        if self.limit is not None:
            raise LandingLimit(self.limit, self.undecided)


class LandingLimit(Undecided):
    """The carrier search ran out of its budget before deciding some aircraft."""

    template = N_("the landing of {units} is undecided")


def combat_landing(phase: Phase) -> CombatLanding:
    """The landing plan for every aircraft the mover moved, computed once per phase."""
    return phase.fact("combat_landing", _combat_landing)


def _combat_landing(phase: Phase) -> CombatLanding:
    board = phase.board
    result = CombatLanding()
    movers = [u for u in board.units if u.type.is_air and u.power == board.power and u.move_count]
    flyers = []
    reaches: dict[tuple[str, int], dict[str, int]] = {}  # aircraft in one space with the same movement left reach alike
    for unit in sorted(movers, key=lambda u: (u.last_order or 0, u.uid)):
        mark = (unit.at, max(unit.left, 0))
        if mark not in reaches:
            reaches[mark] = board.air_distances(*mark)
        reach = reaches[mark]
        flyer = Flyer(unit, reach)
        flyer.land = sorted(s for s in reach if board.friendly_at_start(s))
        if unit.type.is_fighter:
            flyer.sea = {s for s in reach if board.is_sea(s)}
        flyers.append(flyer)
    at_sea = [f for f in flyers if not f.land and f.sea]
    decks = combat_decks(phase, at_sea)
    landing = solve_landing(at_sea, decks) if at_sea else Landing()
    position = {id(f): i for i, f in enumerate(at_sea)}
    undecided = set(landing.undecided)
    served = {z for deck in decks for z in deck.zones}
    for flyer in flyers:
        if flyer.land:
            continue
        index = position.get(id(flyer), -1)
        if index in undecided:
            continue  # the search ran out before deciding it
        move = phase.last_order[flyer.unit.uid]
        if index in landing.matching:
            deck = decks[landing.matching[index]]
            zone = cast(str, landing.zones.get(deck.key, deck.home))  # a bought carrier is always placed
            if deck.unit is None or zone != deck.home:
                result.calls.append(CarrierCall(flyer.unit, move, deck, zone))
            continue
        result.stranded.append(Stranded(flyer.unit, move, bool(flyer.sea & served)))
    if landing.limit is not None:
        result.limit = landing.limit
        result.undecided = [(phase.last_order[at_sea[f].unit.uid], at_sea[f].unit) for f in landing.undecided]
    return result


def combat_decks(phase: Phase, flyers: list[Flyer]) -> list[Deck]:
    """Carrier slots open to fighters after the combat move."""
    board = phase.board
    pending = {f.unit.uid for f in flyers} | {u.uid for u in board.units if u.type.is_air and u.move_count}
    decks = []
    sails: dict[tuple[str, int], list[str]] = {}  # carriers in one zone with the same movement left reach alike
    for carrier in sorted(board.units, key=lambda u: u.uid):
        if not carrier.type.is_carrier or not board.friendly_power(carrier.power):
            continue
        used = sum(f.type.carrier_cost for f in carrier.cargo if f.uid not in pending)
        slots = carrier.type.carrier_capacity - used
        if slots <= 0:
            continue
        can_move = (
            carrier.power == board.power
            and not carrier.move_count
            and not carrier.moved
            and not board.hostile_zone(carrier.at)
        )
        if can_move and (carrier.at, carrier.left) not in sails:
            sails[(carrier.at, carrier.left)] = sorted(board.sea_distances(carrier.at, carrier.left))
        zones = list(sails[(carrier.at, carrier.left)]) if can_move else [carrier.at]
        decks.append(Deck(f"c{carrier.uid:06d}", slots, zones, carrier.at, carrier))
    return decks + bought_decks(board)


# --- after the noncombat move ------------------------------------------------------------

CAPTURED = "captured"
"""Why an aircraft cannot land where it is: the territory was captured this turn."""
NOT_FRIENDLY = "not friendly"
"""... the territory was not friendly at the start of the turn."""
BOMBER_AT_SEA = "bomber at sea"
"""... it is a bomber at sea (bombers never land at sea)."""


@dataclass_on_first_use
class Grounded:
    """An aircraft of the mover that ends the noncombat move in a space where it cannot land, and why."""

    unit: Unit
    why: str
    """:data:`CAPTURED`, :data:`NOT_FRIENDLY` or :data:`BOMBER_AT_SEA`."""

    @property
    def moved(self) -> bool:
        """It moved this turn (else it is lost where it stood: its carrier was sunk, say)."""
        return bool(self.unit.moved or self.unit.move_count)


@dataclass_on_first_use
class Crowded:
    """A sea zone where fighters of the mover are left without a carrier slot."""

    zone: str
    fighters: list[Unit]
    """The fighters left without a slot (earlier orders seated first)."""
    carriers: list[Unit]
    """The friendly carriers in the zone."""
    seated: int
    """Waiting fighters that did find a free slot there."""
    awaiting_bought: bool
    """Carriers were bought this turn and fighters may wait at sea for them (``land_on_new_carrier``)."""
    near_factory: bool
    """A bought carrier could be placed here (next to a factory of the mover held since the turn began)."""

    @property
    def moved(self) -> list[Unit]:
        return [f for f in self.fighters if f.moved or f.move_count]


@dataclass_on_first_use
class NoncombatLanding:
    """The aircraft of the mover with no landing space where they ended the noncombat move."""

    grounded: list[Grounded] = field(default_factory=list)
    crowded: list[Crowded] = field(default_factory=list)


def noncombat_landing(phase: Phase) -> NoncombatLanding:
    """Where the mover's aircraft cannot land at the end of the noncombat move, computed once per phase."""
    return phase.fact("noncombat_landing", _noncombat_landing)


def _noncombat_landing(phase: Phase) -> NoncombatLanding:
    board = phase.board
    result = NoncombatLanding()
    waiting: dict[str, list[Unit]] = {}
    for unit in sorted(board.units, key=lambda u: u.uid):
        if not unit.type.is_air or unit.power != board.power:
            continue
        if not board.is_sea(unit.at):
            if not board.friendly_at_start(unit.at):
                result.grounded.append(Grounded(unit, CAPTURED if unit.at in board.captured else NOT_FRIENDLY))
        elif not unit.type.is_fighter:
            result.grounded.append(Grounded(unit, BOMBER_AT_SEA))
        elif unit.aboard is None:
            waiting.setdefault(unit.at, []).append(unit)
    result.crowded = _crowded(board, waiting)
    return result


def _crowded(board: Board, waiting: dict[str, list[Unit]]) -> list[Crowded]:
    """Fighters at sea with no carrier slot, zone by zone, after free slots and bought carriers took what they could."""
    spare = sorted((deck.slots for deck in bought_decks(board)), reverse=True)
    eligible = set(factory_zones(board)) if spare else set()
    left: dict[str, tuple[list[Unit], list[Unit], int]] = {}
    for zone in sorted(waiting):
        fighters = sorted(waiting[zone], key=lambda f: (f.last_order or 0, f.uid))
        carriers = [u for u in board.units_at(zone) if u.type.is_carrier and board.friendly_power(u.power)]
        # a carrier that moved there after the fighter (N15, N22) takes it in its free slots
        free = sum(c.type.carrier_capacity - carrier_load(c) for c in carriers)
        seated = 0
        while fighters and fighters[0].type.carrier_cost <= free:
            free -= fighters.pop(0).type.carrier_cost
            seated += 1
        left[zone] = (fighters, carriers, seated)
    # each bought carrier is placed in one zone and seats its slots' worth of fighters: the biggest first,
    # each where it seats the most (every zone's gains only shrink, so this seats the most for equal carriers)
    for slots in spare:
        gains = {zone: _seats(left[zone][0], slots) for zone in sorted(left) if zone in eligible and left[zone][0]}
        if not gains:
            break
        zone = max(gains, key=lambda z: gains[z])
        del left[zone][0][:gains[zone]]
    awaiting = bool(board.purchased.get("carrier") and board.options["land_on_new_carrier"])
    return [
        Crowded(zone, fighters, carriers, seated, awaiting, zone in eligible)
        for zone, (fighters, carriers, seated) in left.items()
        if fighters
    ]


def _seats(fighters: list[Unit], slots: int) -> int:
    """How many of the fighters, in order, a carrier with ``slots`` free slots takes."""
    count = 0
    for fighter in fighters:
        if fighter.type.carrier_cost > slots:
            break
        slots -= fighter.type.carrier_cost
        count += 1
    return count
