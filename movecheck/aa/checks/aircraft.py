"""Where aircraft land: the clauses that word the landing facts (:mod:`movecheck.aa.landing.aircraft`).

After the combat move every aircraft that moved must still be able to land
(AA207), perhaps on a carrier that has to move for it (AA309); after the
noncombat move each must be in a space where it can (AA303, AA304, AA305),
and one that did not move and cannot is lost (AA308).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause
from movecheck.aa.landing.aircraft import (
    BOMBER_AT_SEA,
    CAPTURED,
    Crowded,
    Grounded,
    Stranded,
    combat_landing,
    nearest_landings,
    noncombat_landing,
)
from movecheck.aa.units import describe
from movecheck.aa.wording import unit_phrase
from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext

if TYPE_CHECKING:
    from movecheck.aa.landing.carriers import Deck
    from movecheck.aa.model import Board
    from movecheck.aa.phase import Phase
    from movecheck.aa.units import Unit


def _nearest(board: Board, unit: Unit) -> str:
    near = nearest_landings(board, unit)
    if not near:
        return _("no friendly territory within 12 steps")
    return _("nearest landing: {spaces}").format(spaces=", ".join(f"{space} ({steps})" for space, steps in near))


def _at_last_order(phase: Phase, unit: Unit, message: str) -> Violation:
    """A violation at the end of the path of the order that last moved ``unit`` (at ``moves:`` if none did)."""
    move = phase.last_order.get(unit.uid)
    if move is None:
        return Violation(message, ("moves",))
    return Violation(message, move.step(len(move.path) - 1), move.index, move.order_id)


def _each_once(check: Callable[[Phase], Iterator[Violation]]) -> Callable[[Phase], Iterator[Violation]]:
    """The check's violations, each distinct one once.

    These clauses word each aircraft by its label, and aircraft without an id
    read alike ("Germans fighter"): two of them stranded at the end of one
    order are one finding, not two identical ones.
    """

    @functools.wraps(check)
    def distinct(phase: Phase) -> Iterator[Violation]:
        said: set[tuple[object, ...]] = set()
        for violation in check(phase):
            key = (violation.message, violation.where, violation.order)
            if key not in said:
                said.add(key)
                yield violation

    return distinct


@aa_clause("AA207", "no-safe-landing", "error",
           "every aircraft moved must still be able to reach a landing space with the movement it has left — all "
           "aircraft at once: each carrier ends in one zone and holds at most its slots, each bought carrier is placed "
           "once (kamikaze moves are illegal)",
           ["N16"], phase="combat", scope="end",
           example=("a fighter with 4 movement flies 4 spaces out to sea to attack, no carrier in reach",
                    "the same attack 2 spaces out, with a friendly territory 2 spaces beyond the battle"))
@_each_once
def no_safe_landing(phase: Phase) -> Iterator[Violation]:
    """Aircraft may not be moved out of reach of a safe landing (N16).

    After the last combat move, a landing plan must exist for every aircraft
    that moved, all at once: each reaches, with the movement it has left, a
    territory friendly at the start of the turn, or (fighters) a carrier
    slot.  Carriers that have not moved may still move in noncombat within
    their movement through non-hostile zones; carriers that moved and allied
    carriers stay where they are; each bought carrier is placed once, in a
    zone next to a factory held since the turn began; every carrier ends in one
    zone with at most its slots.  When the plan needs a carrier to move or a
    bought carrier to be placed, AA309 says so.

    The search is exact; when it runs out of its budget
    (``MOVECHECK_LANDING_BUDGET``) the aircraft it left undecided get no AA207
    and the orders that last moved them are unchecked (MC012).
    """
    facts = combat_landing(phase)
    nearest: dict[str, str] = {}  # by place: many stranded aircraft share one
    alike: dict[tuple[object, ...], int] = {}  # aircraft without an id that read alike: one finding, counted
    for stranded in facts.stranded:
        key = _alike(stranded)
        alike[key] = alike.get(key, 0) + 1
    for stranded in facts.stranded:
        unit, move = stranded.unit, stranded.move
        count = alike[_alike(stranded)]
        if unit.at not in nearest:
            nearest[unit.at] = _nearest(phase.board, unit)
        reason = (
            _("the carrier slots within reach are needed by other fighters")
            if stranded.contested
            else _("no friendly territory or carrier slot within reach")
        )
        label = unit.id or unit_phrase(count, unit.type.name, unit.power)
        yield Violation(
            ngettext("{unit} in {space} has {left} movement left and cannot land: {why} ({nearest})",
                     "{unit} in {space} have {left} movement left and cannot land: {why} ({nearest})",
                     1 if unit.id else count).format(
                unit=label, space=unit.at, left=max(unit.left, 0), why=reason, nearest=nearest[unit.at]
            ),
            move.step(len(move.path) - 1), move.index, move.order_id,
        )
    facts.raise_undecided()


def _alike(stranded: Stranded) -> tuple[object, ...]:
    """What a stranded aircraft's finding says of it: aircraft without an id that share it are one finding."""
    unit = stranded.unit
    return (unit.uid if unit.id else 0, unit.type.name, unit.power, unit.at, max(unit.left, 0), stranded.contested,
            stranded.move.index)


def _carrier(deck: Deck) -> str:
    """A carrier of the plan as the note names it: its id (or its power's carrier) and where it is."""
    unit = deck.unit
    assert unit is not None, "a bought carrier is named by where it is placed"
    name = unit.id or _("{power} carrier").format(power=unit.power)
    return _("{carrier} in {space}").format(carrier=name, space=deck.home)


@aa_clause("AA309", "carrier-must-move", "note",
           "the landing found for a fighter needs a carrier that has not moved to move there in noncombat",
           ["N22"], phase="both", scope="end",
           example=("after the combat move a fighter can land only on carrier C1, which must move one zone to reach it",
                    "the fighter ends in C1's zone, or within reach of a friendly territory"))
@_each_once
def carrier_must_move(phase: Phase) -> Iterator[Violation]:
    """The landing plan for a fighter needs a carrier to move to it, or a bought carrier placed for it (N22).

    After the combat move, the plan that AA207 looks for may land a fighter on
    a carrier that did not move in combat and must now move to the fighter's
    zone in noncombat, or on a carrier bought this turn, placed next to a
    factory.  This note says which carrier goes where, at the order that last
    moved the fighter.  Nothing to add after the noncombat move, where carriers
    are where they ended.
    """
    if not phase.combat:
        return
    facts = combat_landing(phase)
    for call in facts.calls:
        move = call.move
        where = move.step(len(move.path) - 1)
        if call.bought:
            message = _("{unit} can land only on a carrier bought this turn, placed in {zone}").format(
                unit=call.unit.label(), zone=call.zone
            )
        else:
            message = _("carrier {carrier} must move to {zone} in noncombat to land {unit}").format(
                carrier=_carrier(call.deck), zone=call.zone, unit=call.unit.label()
            )
        yield Violation(message, where, move.index, move.order_id)
    facts.raise_undecided()


def _cannot_land(phase: Phase, unit: Unit, why: str) -> Violation:
    """An aircraft that moved and cannot land where it is (AA303, AA305)."""
    return _at_last_order(
        phase, unit,
        _("{unit} in {space} cannot land: {why}; {left} movement left ({nearest})").format(
            unit=unit.label(), space=unit.at, why=why, left=max(unit.left, 0), nearest=_nearest(phase.board, unit)
        ),
    )


def _bomber_at_sea(phase: Phase, unit: Unit) -> Violation:
    """AA105 for a bomber whose journey this phase ends at sea."""
    found = _at_last_order(phase, unit, _("{units} cannot end at sea in {space}: bombers never land at sea").format(
        units=describe([unit]), space=unit.at))
    return replace(found, code="AA105")


def _grounded_why(grounded: Grounded) -> str:
    if grounded.why == BOMBER_AT_SEA:
        return _("bombers never land at sea")
    at = grounded.unit.at
    if grounded.why == CAPTURED:
        return _("{space} is captured this turn").format(space=at)
    return _("{space} is not friendly at the start of the turn").format(space=at)


def _awaits_carrier(crowded: Crowded) -> bool:
    """The fighters of a zone with no friendly carrier wait for a bought one (AA305), else they have none (AA303)."""
    return not crowded.carriers and crowded.awaiting_bought


@aa_clause(
    "AA303",
    "air-landing",
    "error",
    "an aircraft ends in a territory friendly at the start of the turn (not one captured this turn), or — fighters "
    "only — a sea zone with a friendly carrier slot or a bought carrier to be placed there",
    ["N9", "N10", "N18"],
    phase="noncombat",
    scope="end",
    consequences=("AA105",),
    example=(
        "a fighter ends the noncombat move in a territory captured this turn",
        "it flies on to a territory its side held when the turn began",
    ),
)
@_each_once
def air_landing(phase: Phase) -> Iterator[Violation]:
    """Every aircraft that moved this turn ends the phase in a valid landing space (N9, N10, N18).

    A territory friendly at the start of the turn (never one captured this
    turn), or for fighters a sea zone with a friendly carrier (AA304 counts the
    slots) or one where a carrier bought this turn will be placed (AA305).
    The message gives the aircraft's place, the movement it has left and the
    nearest legal landing spaces.  A bomber this phase moved to sea is AA105
    ("bombers never land at sea"), worded here because it is decided where the
    bomber's journey ends.
    """
    facts = noncombat_landing(phase)
    for grounded in facts.grounded:
        if grounded.why == BOMBER_AT_SEA and grounded.unit.move_count:
            yield _bomber_at_sea(phase, grounded.unit)
        elif grounded.moved:
            yield _cannot_land(phase, grounded.unit, _grounded_why(grounded))
    for crowded in facts.crowded:
        if crowded.carriers or _awaits_carrier(crowded):
            continue  # AA304, AA305
        for fighter in crowded.moved:
            yield _cannot_land(phase, fighter, _("no friendly carrier in {zone}").format(zone=crowded.zone))


@aa_clause(
    "AA304",
    "carrier-full",
    "error",
    "the fighters in a sea zone at the end of the phase exceed the free slots of the friendly carriers there (2 each)",
    ["N11"],
    phase="noncombat",
    scope="end",
    example=(
        "three fighters end the noncombat move in a zone whose one carrier has 2 slots",
        "two of them land there and the third lands elsewhere",
    ),
)
def carrier_full(phase: Phase) -> Iterator[Violation]:
    """The fighters in a sea zone fit the slots of the friendly carriers there (N11).

    Own and allied carriers, 2 slots each; own and allied fighters counted.
    Reported once for the zone, naming the last order that moved a fighter
    there.
    """
    for crowded in noncombat_landing(phase).crowded:
        moved = crowded.moved
        if not moved or not crowded.carriers:
            continue
        carriers = crowded.carriers
        last = max(moved, key=lambda f: (f.last_order or 0, f.uid))
        slots = sum(c.type.carrier_capacity for c in carriers)
        aboard = sum(len([f for f in c.cargo if f.type.is_fighter]) for c in carriers)
        yield _at_last_order(
            phase, last,
            ngettext(
                "{fighters} fighters end in {zone} but its {count} friendly carrier has {slots} slots: "
                "{units} cannot land",
                "{fighters} fighters end in {zone} but its {count} friendly carriers have {slots} slots: "
                "{units} cannot land",
                len(carriers),
            ).format(fighters=aboard + crowded.seated + len(crowded.fighters), zone=crowded.zone, count=len(carriers),
                     slots=slots, units=describe(moved)),
        )


@aa_clause(
    "AA305",
    "new-carrier-zone",
    "error",
    "a fighter waiting for a bought carrier is in a sea zone adjacent to a factory of the moving power held since "
    "the turn began, and the bought carriers cover every such fighter (2 each, one zone each)",
    ["N13", "N15"],
    phase="noncombat",
    scope="end",
    example=(
        "with a carrier bought, a fighter ends at sea in a zone next to no factory of its power",
        "it ends in a zone next to its power's factory, where the bought carrier will be placed",
    ),
)
@_each_once
def new_carrier_zone(phase: Phase) -> Iterator[Violation]:
    """A fighter may wait at sea for a carrier bought this turn only next to the mover's factory (N13, N15).

    The factory must have been held since the turn began; each bought carrier
    is placed in one zone and takes 2 fighters.  Governed by the option
    ``land_on_new_carrier``.
    """
    board = phase.board
    for crowded in noncombat_landing(phase).crowded:
        if not _awaits_carrier(crowded):
            continue
        why = (
            _("{zone} is not next to a factory of the {power} held since the turn began").format(
                zone=crowded.zone, power=board.power
            )
            if not crowded.near_factory
            else _("the carriers bought this turn are full or placed elsewhere (2 fighters each, one zone each)")
        )
        for fighter in crowded.moved:
            yield _cannot_land(phase, fighter, _("waiting for a bought carrier, but {why}").format(why=why))


@aa_clause(
    "AA308",
    "air-destroyed",
    "warning",
    "an aircraft of the moving power ends the phase with no landing space and will be destroyed (it did "
    "not move, e.g. its carrier was sunk)",
    ["N17"],
    phase="noncombat",
    scope="end",
    example=(
        "a fighter that did not move stays at sea after its carrier was sunk",
        "it flies to a friendly territory or a carrier slot in the noncombat move",
    ),
)
@_each_once
def air_destroyed(phase: Phase) -> Iterator[Violation]:
    """Aircraft with no landing space at the end of the noncombat move are destroyed (N17).

    This warning is for aircraft that did not move this turn (their carrier
    was sunk, say); an aircraft that moved and cannot land is AA303.
    """
    facts = noncombat_landing(phase)
    for grounded in facts.grounded:
        if not grounded.moved:
            yield _destroyed(phase, grounded.unit, _grounded_why(grounded))
    for crowded in facts.crowded:
        moved = crowded.moved
        for fighter in (f for f in crowded.fighters if f not in moved):
            yield _destroyed(phase, fighter, _("no free carrier slot in {zone}").format(zone=crowded.zone))


def _destroyed(phase: Phase, unit: Unit, why: str) -> Violation:
    return _at_last_order(
        phase, unit,
        _("{unit} in {space} has no landing space and will be destroyed: {why} ({nearest})").format(
            unit=unit.label(), space=unit.at, why=why, nearest=_nearest(phase.board, unit)
        ),
    )
