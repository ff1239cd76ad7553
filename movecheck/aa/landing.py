"""Where aircraft can land, decided for all of them at once.

Fighters compete for carrier slots, and a carrier can end in only one zone,
so landing is not a per-aircraft question.  The solver:

1. lets every aircraft that reaches a territory friendly at the start of the
   turn land there (territories have no capacity);
2. for the fighters left, searches an assignment of each carrier (existing
   ones and carriers bought this turn) to one zone it can end in, such that a
   matching puts every fighter in a slot of a carrier in a zone it reaches.
   The search branches on carriers, bounded by the matching of the relaxed
   problem (a carrier in all its zones at once), so it is exact; a node budget
   keeps the worst case bounded (then the best plan found is reported).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from movecheck.aa.checks import Problem
from movecheck.aa.model import Board, Unit, describe
from movecheck.aa.setup import carrier_load

if TYPE_CHECKING:
    from movecheck.aa.engine import Phase

SEARCH_BUDGET = 20_000


@dataclass
class Deck:
    """A carrier (or a carrier to be bought and placed) that can end in some zones."""

    key: str
    slots: int
    zones: list[str]
    home: str | None
    unit: Unit | None = None

    def describe(self) -> str:
        if self.unit is None:
            return "the carrier bought this turn"
        return f"{self.unit.id or self.unit.power + ' carrier'} in {self.home}"


@dataclass
class Flyer:
    """An aircraft that has to land, and where it can."""

    unit: Unit
    reach: dict[str, int]
    land: list[str] = field(default_factory=list)
    sea: set[str] = field(default_factory=set)


@dataclass
class Plan:
    """The result: which aircraft land, and where carriers must go."""

    landed: dict[int, tuple[Deck, str] | str] = field(default_factory=dict)
    stranded: list[Flyer] = field(default_factory=list)


def _match(flyers: list[Flyer], decks: list[Deck], zone_of: dict[str, set[str]]) -> dict[int, int]:
    """Maximum b-matching of fighters to decks (deck capacity = slots), by augmenting paths."""
    options = [
        [d for d, deck in enumerate(decks) if flyer.sea & zone_of[deck.key]] for flyer in flyers
    ]
    holders: list[list[int]] = [[] for _ in decks]
    owner: dict[int, int] = {}

    def augment(f: int, seen: set[int]) -> bool:
        for d in options[f]:
            if d in seen:
                continue
            seen.add(d)
            if len(holders[d]) < decks[d].slots:
                holders[d].append(f)
                owner[f] = d
                return True
            for other in list(holders[d]):
                if augment(other, seen):
                    holders[d].remove(other)
                    holders[d].append(f)
                    owner[f] = d
                    return True
        return False

    for f in range(len(flyers)):
        augment(f, set())
    return owner


def assign_decks(flyers: list[Flyer], decks: list[Deck]) -> tuple[dict[int, int], dict[str, str]]:
    """Best assignment of fighters to decks with each deck in one zone: (fighter -> deck, deck -> zone)."""
    wanted = set().union(*(f.sea for f in flyers)) if flyers else set()
    choices = {d.key: [z for z in d.zones if z in wanted] for d in decks}
    order = sorted(range(len(decks)), key=lambda d: (len(choices[decks[d].key]), decks[d].key))
    best: tuple[int, dict[int, int], dict[str, str]] = (-1, {}, {})
    budget = [SEARCH_BUDGET]

    def search(position: int, fixed: dict[str, str]) -> bool:
        nonlocal best
        budget[0] -= 1
        zone_of = {d.key: ({fixed[d.key]} if d.key in fixed else set(choices[d.key])) for d in decks}
        matching = _match(flyers, decks, zone_of)
        if len(matching) <= best[0]:
            return False
        if _consistent(flyers, decks, matching, fixed):
            zones = _zones_used(flyers, decks, matching, fixed)
            best = (len(matching), matching, zones)
            return len(matching) == len(flyers)
        if position == len(order) or budget[0] <= 0:
            return False
        deck = decks[order[position]]
        if not choices[deck.key]:
            return search(position + 1, fixed)  # no fighter reaches it: nothing to decide
        for zone in _zone_order(deck, choices[deck.key]):
            if search(position + 1, {**fixed, deck.key: zone}):
                return True
        return False

    search(0, {})
    return best[1], best[2]


def _zone_order(deck: Deck, zones: list[str]) -> list[str]:
    """Try a carrier's own zone first, so that plans needing no carrier move come first."""
    return sorted(zones, key=lambda z: (z != deck.home, z))


def _consistent(flyers: list[Flyer], decks: list[Deck], matching: dict[int, int], fixed: dict[str, str]) -> bool:
    """Every deck's fighters share a zone the deck can end in."""
    return all(_common_zone(flyers, deck, [f for f, d in matching.items() if d == i], fixed) for i, deck in enumerate(decks))


def _common_zone(flyers: list[Flyer], deck: Deck, members: list[int], fixed: dict[str, str]) -> str | None:
    zones = [fixed[deck.key]] if deck.key in fixed else _zone_order(deck, deck.zones)
    for zone in zones:
        if all(zone in flyers[f].sea for f in members):
            return zone
    return None


def _zones_used(flyers: list[Flyer], decks: list[Deck], matching: dict[int, int], fixed: dict[str, str]) -> dict[str, str]:
    used = {}
    for i, deck in enumerate(decks):
        members = [f for f, d in matching.items() if d == i]
        if members:
            used[deck.key] = _common_zone(flyers, deck, members, fixed) or deck.zones[0]
    return used


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
    """The closest territories friendly at the start of the turn, with their distance in steps."""
    reach = board.air_distances(unit.at, 12)
    found = [(space, steps) for space, steps in reach.items() if board.friendly_at_start(space)]
    return sorted(found, key=lambda item: (item[1], item[0]))[:limit]


def _describe_nearest(board: Board, unit: Unit) -> str:
    near = nearest_landings(board, unit)
    if not near:
        return "no friendly territory within 12 steps"
    return "nearest landing: " + ", ".join(f"{space} ({steps})" for space, steps in near)


def combat_landing_problems(phase: Phase) -> Iterator[Problem]:
    """AA207 for aircraft with no place in any landing plan; AA309 notes for carriers the plan moves."""
    board = phase.board
    movers = [u for u in board.units if u.type.is_air and u.power == board.power and u.move_count]
    if not movers:
        return
    flyers = []
    for unit in sorted(movers, key=lambda u: (u.last_order or 0, u.uid)):
        reach = board.air_distances(unit.at, max(unit.left, 0))
        flyer = Flyer(unit, reach)
        flyer.land = sorted(s for s in reach if board.friendly_at_start(s))
        if unit.type.is_fighter:
            flyer.sea = {s for s in reach if board.is_sea(s)}
        flyers.append(flyer)
    at_sea = [f for f in flyers if not f.land and f.sea]
    decks = combat_decks(phase, at_sea)
    matching, zones = assign_decks(at_sea, decks) if at_sea else ({}, {})
    for flyer in flyers:
        if flyer.land:
            continue
        index = at_sea.index(flyer) if flyer in at_sea else -1
        move = phase.last_order[flyer.unit.uid]
        where = move.step(len(move.path) - 1)
        if index in matching:
            deck = decks[matching[index]]
            zone = zones.get(deck.key, deck.home)
            if deck.unit is None:
                yield Problem(
                    f"{flyer.unit.label()} can land only on a carrier bought this turn, placed in {zone}",
                    where, move.index, move.order_id, severity="note", code="AA309",
                )
            elif zone != deck.home:
                yield Problem(
                    f"carrier {deck.describe()} must move to {zone} in noncombat to land {flyer.unit.label()}",
                    where, move.index, move.order_id, severity="note", code="AA309",
                )
            continue
        left = max(flyer.unit.left, 0)
        contested = any(flyer.sea & set(deck.zones) for deck in decks)
        reason = (
            "the carrier slots within reach are needed by other fighters"
            if contested
            else "no friendly territory or carrier slot within reach"
        )
        yield Problem(
            f"{flyer.unit.label()} in {flyer.unit.at} has {left} movement left and cannot land: {reason} "
            f"({_describe_nearest(board, flyer.unit)})",
            where, move.index, move.order_id,
        )


def combat_decks(phase: Phase, flyers: list[Flyer]) -> list[Deck]:
    """Carrier slots open to fighters after the combat move."""
    board = phase.board
    pending = {f.unit.uid for f in flyers} | {u.uid for u in board.units if u.type.is_air and u.move_count}
    decks = []
    for carrier in sorted(board.units, key=lambda u: u.uid):
        if not carrier.type.is_carrier or not board.friendly_power(carrier.power):
            continue
        used = sum(f.type.carrier_cost for f in carrier.cargo if f.uid not in pending)
        slots = carrier.type.carrier_capacity - used
        if slots <= 0:
            continue
        can_move = carrier.power == board.power and not carrier.move_count and not carrier.moved and not board.hostile_zone(carrier.at)
        zones = sorted(board.sea_distances(carrier.at, carrier.left)) if can_move else [carrier.at]
        decks.append(Deck(f"c{carrier.uid:06d}", slots, zones, carrier.at, carrier))
    return decks + bought_decks(board)


def _where(phase: Phase, unit: Unit) -> tuple[tuple, int | None, str | None]:
    """The node, order and order id to report an aircraft's landing at."""
    move = phase.last_order.get(unit.uid)
    if move is None:
        return ("moves",), None, None
    return move.step(len(move.path) - 1), move.index, move.order_id


def _stranded(phase: Phase, unit: Unit, code: str, why: str) -> tuple[str, Problem]:
    where, order, order_id = _where(phase, unit)
    board = phase.board
    left = max(unit.left, 0)
    message = (
        f"{unit.label()} in {unit.at} cannot land: {why}; {left} movement left "
        f"({_describe_nearest(board, unit)})"
    )
    if code == "AA308":
        message = f"{unit.label()} in {unit.at} has no landing space and will be destroyed: {why} ({_describe_nearest(board, unit)})"
    return code, Problem(message, where, order, order_id)


def noncombat_landing(phase: Phase) -> list[tuple[str, Problem]]:
    """Every aircraft of the mover at the end of the noncombat move: AA303/AA304/AA305/AA308 problems."""
    cached = getattr(phase, "_landing", None)
    if cached is not None:
        return cached
    board = phase.board
    problems: list[tuple[str, Problem]] = []
    waiting: dict[str, list[Unit]] = {}
    for unit in sorted(board.units, key=lambda u: u.uid):
        if not unit.type.is_air or unit.power != board.power:
            continue
        moved = bool(unit.moved or unit.move_count)
        code = "AA303" if moved else "AA308"
        if not board.is_sea(unit.at):
            if not board.friendly_at_start(unit.at):
                why = "captured this turn" if unit.at in board.captured else "not friendly at the start of the turn"
                problems.append(_stranded(phase, unit, code, f"{unit.at} is {why}"))
        elif not unit.type.is_fighter:
            if not unit.move_count:  # a bomber moved to sea this phase already has AA105
                problems.append(_stranded(phase, unit, code, "bombers never land at sea"))
        elif unit.aboard is None:
            waiting.setdefault(unit.at, []).append(unit)
    problems.extend(_waiting_fighters(phase, waiting))
    phase._landing = problems  # type: ignore[attr-defined]
    return problems


def _waiting_fighters(phase: Phase, waiting: dict[str, list[Unit]]) -> list[tuple[str, Problem]]:
    """Fighters at sea with no carrier slot: bought carriers, full carriers, or nothing at all."""
    board = phase.board
    problems: list[tuple[str, Problem]] = []
    spare = [deck.slots for deck in bought_decks(board)]
    eligible = set(factory_zones(board)) if spare else set()
    for zone in sorted(waiting):
        fighters = sorted(waiting[zone], key=lambda f: (f.last_order or 0, f.uid))
        carriers = [u for u in board.units_at(zone) if u.type.is_carrier and board.friendly_power(u.power)]
        # a carrier that moved there after the fighter (N15, N22) takes it in its free slots
        free = sum(c.type.carrier_capacity - carrier_load(c) for c in carriers)
        seated = 0
        while fighters and fighters[0].type.carrier_cost <= free:
            free -= fighters.pop(0).type.carrier_cost
            seated += 1
        if not fighters:
            continue
        if zone in eligible:
            # each bought carrier is placed in one zone and seats its slots' worth of fighters
            while fighters and spare:
                slots = spare.pop(0)
                while fighters and fighters[0].type.carrier_cost <= slots:
                    slots -= fighters.pop(0).type.carrier_cost
            if not fighters:
                continue
        moved = [f for f in fighters if f.moved or f.move_count]
        for fighter in (f for f in fighters if f not in moved):
            problems.append(_stranded(phase, fighter, "AA308", f"no free carrier slot in {zone}"))
        if not moved:
            continue
        if carriers:
            last = max(moved, key=lambda f: (f.last_order or 0, f.uid))
            where, order, order_id = _where(phase, last)
            slots = sum(c.type.carrier_capacity for c in carriers)
            aboard = sum(len([f for f in c.cargo if f.type.is_fighter]) for c in carriers)
            problems.append(("AA304", Problem(
                f"{aboard + seated + len(fighters)} fighters end in {zone} but its {len(carriers)} friendly carrier"
                f"{'s have' if len(carriers) > 1 else ' has'} {slots} slots: {describe(moved)} cannot land",
                where, order, order_id)))
        elif phase.board.purchased.get("carrier") and board.options["land_on_new_carrier"]:
            why = (
                f"{zone} is not next to a factory of the {board.power} held since the turn began"
                if zone not in eligible
                else "the carriers bought this turn are full or placed elsewhere (2 fighters each, one zone each)"
            )
            for fighter in moved:
                problems.append(_stranded(phase, fighter, "AA305", f"waiting for a bought carrier, but {why}"))
        else:
            for fighter in moved:
                problems.append(_stranded(phase, fighter, "AA303", f"no friendly carrier in {zone}"))
    return problems


def noncombat_landing_problems(phase: Phase, code: str) -> Iterator[Problem]:
    """The noncombat landing problems of one clause."""
    for found, problem in noncombat_landing(phase):
        if found == code:
            yield problem
