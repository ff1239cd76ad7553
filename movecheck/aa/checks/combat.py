"""Combat-move clauses: stopping in hostile spaces, blitzes, what counts as a combat move."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause
from movecheck.aa.turn.raids import enemy_factory
from movecheck.aa.units import describe
from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext

if TYPE_CHECKING:
    from movecheck.aa.moves import Move
    from movecheck.aa.phase import Phase, Record
    from movecheck.aa.units import Unit, UnitType


def _only_static(units: list[Unit]) -> bool:
    return bool(units) and all(u.type.is_aa_gun or u.type.is_factory for u in units)


# What makes a unit that enters a space on its way stop there, one predicate per clause.  The journey
# (aa.md, Words) makes the first space of an order such a space when an earlier order took the unit
# there (:meth:`Phase.legs`); going on from a battle space where the unit had to stop is AA206.


def _hostile_stop(phase: Phase, kind: UnitType, space: str) -> list[Unit]:
    """AA201: the enemies that stop a land or sea unit of this type entering ``space`` (none: it may pass).

    A hostile zone stops ships other than submarines; a hostile territory holding enemy units other
    than AA guns and factories stops land units (AA guns and factories alone are AA202's)."""
    board = phase.board
    if kind.is_sea and not kind.submarine and board.hostile_zone(space):
        return board.blocking_enemies(space)
    if kind.is_land and not board.is_sea(space) and board.hostile_territory(space):
        enemies = board.enemy_units(space)
        if enemies and not _only_static(enemies):
            return enemies
    return []


STATIC, GUARDED, NO_BLITZ = "static", "guarded", "no blitz"
"""Why a land unit stops in a territory on its way (AA202): only enemy AA guns or factories there;
enemy units in a territory that is not hostile; a hostile territory, empty, and the unit is no tank."""


def _blitz_stop(phase: Phase, kind: UnitType, space: str) -> str | None:
    """AA202: why a land unit of this type entering ``space`` stops there (:data:`STATIC`, :data:`GUARDED`,
    :data:`NO_BLITZ`), or None when it may go on (a tank through an empty hostile territory)."""
    board = phase.board
    if not kind.is_land or board.is_sea(space):
        return None
    enemies = board.enemy_units(space)
    if enemies and _only_static(enemies):
        return STATIC
    if enemies and not board.hostile_territory(space):
        return GUARDED
    if not enemies and board.hostile_territory(space) and not kind.blitz:
        return NO_BLITZ
    return None


def _destroyer_stop(phase: Phase, kind: UnitType, space: str) -> bool:
    """AA204: a submarine entering ``space`` stops at the enemy destroyer there."""
    return (kind.submarine and phase.options["destroyer_stops_subs"] and phase.board.is_sea(space)
            and phase.board.enemy_destroyer(space))


def _had_to_stop(phase: Phase, unit: Unit, space: str) -> bool:
    """The unit, on entering ``space`` earlier this phase, had to end its move there (AA201, AA202, AA204, AA205)."""
    kind = unit.type
    return (bool(_hostile_stop(phase, kind, space)) or _blitz_stop(phase, kind, space) is not None
            or _destroyer_stop(phase, kind, space) or phase.attacked.get(unit.uid) == space)


@aa_clause("AA201", "stop-in-hostile", "error",
           "a land or sea unit stops on entering a hostile space; a 2-move unit may go friendly→hostile or straight "
           "into hostile; submarines may pass hostile zones that hold no enemy destroyer (AA204)",
           ["C10"], phase="combat",
           example=("``{tank: 2}`` along ``[Poland, Ukraine S.S.R., Caucasus]`` with Russian infantry in Ukraine",
                    "the tanks stop in Ukraine S.S.R."))
def stop_in_hostile(move: Move, phase: Phase) -> Iterator[Violation]:
    """Land and sea units stop on entering a hostile space (C10).

    A unit with movement 2 may go friendly → hostile, or straight into a
    hostile space, never through one.  Tanks blitzing through an empty hostile
    territory are AA202's business; submarines pass hostile zones unless an
    enemy destroyer is there (AA204); aircraft fly over anything (C4).
    """
    for group, passes in phase.legs(move):
        for k in passes:
            space = move.path[k]
            enemies = _hostile_stop(phase, group[0].type, space)
            if not enemies:
                continue
            if group[0].type.is_sea:
                text = _("{units} must stop in {space} (hostile: {enemies}); path continues to {next}")
            else:
                text = _("{units} must stop in {space} (hostile, enemy units present); path continues to {next}")
            yield Violation(
                text.format(
                    units=describe(group), space=space, enemies=describe(enemies, powers=True), next=move.path[k + 1]
                ),
                move.step(k),
            )
            break


@aa_clause("AA202", "blitz", "error",
           "land units stop where enemy units stand, AA guns and factories included; only tanks continue through a "
           "hostile territory, and only one holding no enemy unit at all",
           ["C11"], phase="combat",
           example=("a tank through a hostile territory holding only an enemy AA gun",
                    "a tank through an empty hostile territory into the next one"))
def blitz(move: Move, phase: Phase) -> Iterator[Violation]:
    """Only tanks blitz, and only through a hostile territory holding no enemy unit at all (C11).

    Land units stop where they meet enemy units, AA guns and factories
    included; a hostile territory with enemy combat units is AA201.  A unit's
    orders in one phase are one journey: a blitz written as two orders
    (``[Egypt, Libya]``, then ``[Libya, Algeria]``) is judged as the joined
    path, so a unit that is not a tank may not go on from an empty hostile
    territory an earlier order took it to.  A tank may blitz into a friendly
    territory.
    """
    board = phase.board
    for group, passes in phase.legs(move):
        for k in passes:
            space = move.path[k]
            if board.is_sea(space):
                break  # a load: the rest of the path is the voyage
            why = _blitz_stop(phase, group[0].type, space)
            if why is None:
                continue
            enemies = describe(board.enemy_units(space), powers=True)
            if why == NO_BLITZ and k == 0:  # the journey passes the order's first space: a blitz written as two orders
                text = ngettext(
                    "{units} cannot blitz on from {space} (order {order} took it there): "
                    "only tanks continue through a hostile territory",
                    "{units} cannot blitz on from {space} (order {order} took them there): "
                    "only tanks continue through a hostile territory",
                    len(group),
                )
            elif why == NO_BLITZ:
                text = _("{units} cannot blitz through {space}: only tanks continue through a hostile territory")
            elif why == STATIC:
                text = _(
                    "{units} must stop in {space}: it holds {enemies}, and land units stop where they meet enemy units"
                )
            else:
                text = _("{units} must stop in {space}: {enemies} there")
            order = phase.last_order[group[0].uid].index if k == 0 else move.index
            yield Violation(text.format(units=describe(group), space=space, enemies=enemies, order=order),
                            move.units_node(group[0]) if k == 0 else move.step(k))
            break


@aa_clause("AA204", "sub-stops-at-destroyer", "error",
           "a submarine ends its move on entering a zone with an enemy destroyer", ["N20"], phase="both",
           example=("a submarine passes through a zone holding an enemy destroyer",
                    "it stops in that zone"))
def sub_stops_at_destroyer(move: Move, phase: Phase) -> Iterator[Violation]:
    """A submarine ends its move on entering a sea zone holding an enemy destroyer (N20).

    Governed by the option ``destroyer_stops_subs`` (on in aa1942).  A journey
    written as two orders may not go on from the destroyer's zone either.
    """
    for group, passes in phase.legs(move):
        stop = next((k for k in passes if _destroyer_stop(phase, group[0].type, move.path[k])), None)
        if stop is not None:
            yield Violation(
                _("{units} must stop in {space}: an enemy destroyer is there; path continues to {next}").format(
                    units=describe(group), space=move.path[stop], next=move.path[stop + 1]
                ),
                move.step(stop),
            )
            return


@aa_clause("AA205", "attacker-must-stop", "error",
           "a warship that attacks enemy subs/transports (`attack:` names the zone) ends its move in that zone",
           ["C12"], phase="combat",
           example=("a cruiser with ``attack: 6 Sea Zone`` goes on to 7 Sea Zone",
                    "it ends its move in 6 Sea Zone"))
def attacker_must_stop(move: Move, phase: Phase) -> Iterator[Violation]:
    """A ship that attacks enemy submarines or transports ends its move in their zone (C12).

    ``attack:`` names the zone (``attack: true`` is the path's last space);
    the path may not go on past it, nor a later order of the phase take the
    attackers on from it (outside a battle space, AA206 inside one).
    """
    for group, passes in phase.legs(move) if phase.attacked else ():
        if passes[:1] == [0] and phase.attacked.get(group[0].uid) == move.start:
            yield Violation(
                _("{units} attack in {space} and must end their move there; path continues to {end}").format(
                    units=describe(group), space=move.start, end=move.end
                ),
                move.units_node(group[0]),
            )
    if move.attack is None or move.attack == move.end:
        return
    where = (*move.where, "attack")
    if move.attack in move.path:
        yield Violation(
            _("{units} attack in {space} and must end their move there; path continues to {end}").format(
                units=move.label(), space=move.attack, end=move.end
            ),
            where,
        )
    else:
        yield Violation(
            _("attack: {space} is not on the path; an attacker ends its move in the zone it attacks").format(
                space=move.attack
            ),
            where,
        )


@aa_clause("AA208", "raid-not-allowed", "error",
           "an order with raid: true (a strategic bombing raid) moves bombers only and ends in a hostile territory "
           "holding an enemy factory",
           phase="combat",
           example=("``{units: {bomber: 1, fighter: 1}, path: [Germany, Karelia S.S.R.], raid: true}``",
                    "``{units: {bomber: 1}, path: [Germany, Karelia S.S.R.], raid: true}``"))
def raid_not_allowed(move: Move, phase: Phase) -> Iterator[Violation]:
    """Bombers raid the enemy factory of the territory their combat move ends in (aa-battle.md, "Strategic
    bombing raids"): the order moves bombers only (these editions have no escorts) and its last space is a
    hostile territory holding an enemy factory.  A raiding bomber takes no part in the land battle there.
    """
    if not move.raid:
        return
    where = (*move.where, "raid")
    others = [u for u in move.units if not u.type.is_bomber]
    if others:
        yield Violation(_("only bombers raid a factory, but the order also moves {units}").format(
            units=describe(others)), where)
    if enemy_factory(phase.board, move.end) is None:
        yield Violation(_("{space} holds no enemy factory to raid").format(space=move.end), where)


@aa_clause("AA206", "left-battle", "error",
           "a unit whose order ended in a battle space may not move on in the same phase (moves are simultaneous); "
           "cargo may still unload from a battle sea zone; an empty hostile territory is not a battle space",
           ["C8", "C9"], phase="combat",
           example=("a tank moves into a battle and a later order moves it on",
                    "it stays in the battle space"))
def left_battle(move: Move, phase: Phase) -> Iterator[Violation]:
    """A unit that had to stop in a battle space does not move on from it in the same phase.

    Combat moves happen at the same time (C8): a unit cannot move in, fight
    and move again.  A unit's orders in one phase are one journey, judged as
    its joined path (aa.md, Words): going on from the space an earlier order
    took it to is passing that space.  So this clause is for a unit that had
    to stop there — a land unit in a hostile territory holding enemy units
    (AA201, AA202), a ship in a hostile zone (AA201), a submarine at an enemy
    destroyer (AA204), an attacker in the zone it attacked (AA205) — when the
    space is a battle space: a hostile territory holding enemy units, a
    hostile sea zone or a zone an order attacks.  It is never the only
    difference between a journey written as one order and as two: aircraft
    fly on over a battle, submarines pass a hostile zone with no enemy
    destroyer, a tank blitzes on through an empty hostile territory (not a
    battle space).  Cargo aboard a transport in a battle sea zone may still be
    unloaded by a later order (an amphibious assault after the sea battle,
    C1, C12); this clause is for units that move on by themselves.
    """
    if not phase.battle_space(move.start):
        return
    engaged = [u for u in move.units if phase.joins_journey(u, move) and _had_to_stop(phase, u, move.start)]
    if engaged:
        yield Violation(
            _("{units} already moved into a battle in {space} (order {order}) and may not move on").format(
                units=describe(engaged), space=move.start, order=phase.last_order[engaged[0].uid].index
            ),
            move.units_node(engaged[0]),
        )


def combat_destinations(phase: Phase) -> set[str]:
    """Hostile spaces the mover's units ended in, and zones attacked for their subs/transports."""
    board = phase.board
    spaces = set(phase.attack_zones)
    for unit in board.units:
        if unit.move_count and board.friendly_power(unit.power) and board.hostile(unit.at):
            spaces.add(unit.at)
    return spaces


def _amphibious(phase: Phase) -> tuple[set[int], set[str]]:
    """Units unloaded into hostile territory, and the zones such unloads left from."""
    board = phase.board
    assault_units: set[int] = set()
    zones: set[str] = set()
    for record in phase.records:
        if record.unloaded and record.unload_to and board.hostile_territory(record.unload_to):
            assault_units.update(u.uid for u in record.unloaded)
            if record.unload_zone:
                zones.add(record.unload_zone)
    return assault_units, zones


def combat_reason(phase: Phase, record: Record, battles: set[str], assault: set[int], zones: set[str]) -> str | None:
    """Why a move counts as a combat move, or None when it does not."""
    board = phase.board
    move = record.move
    for unit in record.units:
        if unit.uid in assault:
            return _("an amphibious assault")
        if unit.type.is_land and board.is_sea(unit.at):
            continue  # cargo still at sea: only an assault later this phase makes its load a combat move
        if unit.at in battles:
            return _("{space} is a combat destination").format(space=unit.at)
    journeys = phase.journeys()  # a unit's orders are one journey: where it passed, where it began
    blitzed = phase.fact("blitzes", _blitzes)
    for unit in record.units:
        if unit.uid in blitzed:
            return _("a blitz through {space}").format(space=blitzed[unit.uid])
    ships = [u for u in record.units if u.type.is_sea]
    if ships:
        if any(board.hostile_zone(journeys.get(u.uid, move.path)[0]) for u in ships):
            return _("ships leave a hostile zone")
        if move.attack in phase.attack_zones or any(phase.attacked.get(u.uid) in phase.attack_zones for u in ships):
            return _("an attack on subs/transports")
        if any(u.uid in assault for u in record.cargo):
            return _("ships carry an amphibious assault")
        if any(u.at in zones for u in ships):
            return _("ships escort an amphibious assault")
    return None


def _blitzes(phase: Phase) -> dict[int, str]:
    """By uid: the first hostile territory a land unit's journey passed through on land, for each that passed one."""
    board = phase.board
    land = {u.uid for record in phase.records for u in record.units if u.type.is_land}
    found: dict[int, str] = {}
    for uid, path in phase.journeys().items():
        if uid not in land or board.is_sea(path[0]):
            continue
        for space in path[1:-1]:
            if board.is_sea(space):
                break
            if board.hostile_territory(space):
                found[uid] = space
                break
    return found


@aa_clause(
    "AA203",
    "not-a-combat-move",
    "error",
    "a combat move ends in a battle space, unloads into a hostile territory, or is one of the sea moves of C1–C3 "
    "— decided after the last move",
    ["C1–C3"],
    phase="combat",
    scope="end",
    example=(
        "in combat move, an infantry moves from one friendly territory to another",
        "it makes that move in the noncombat move",
    ),
)
def not_a_combat_move(phase: Phase) -> Iterator[Violation]:
    """Every combat move leads to a battle; the rest waits for the noncombat move.

    A move counts when a unit it moved ends the phase in a battle space (a
    hostile space entered, a zone attacked for its subs/transports) or is
    unloaded into a hostile territory, or when ships carry or escort an
    amphibious assault (C1), leave a hostile zone (C2) or attack subs or
    transports (C3).  Loading counts when the same units are unloaded into a
    hostile territory later in the phase.  Decided after the last move.
    Governed by the option ``combat_move_must_attack``.

    One cause, one finding: a unit that never moves (a factory) is AA104's
    alone, and a load refused for want of a transport or of room (AA105,
    AA401) is not also told to wait for the noncombat move.  Cargo loaded and
    never unloaded is told where its transport stayed.
    """
    if not phase.options["combat_move_must_attack"]:
        return
    battles = combat_destinations(phase)
    assault, zones = _amphibious(phase)
    board = phase.board
    for record in phase.records:
        # a unit that never moves (a factory) is AA104's alone; a load that found no transport stays
        # at sea aboard nothing, and AA105/AA401/AA403 said why: neither is told to wait for the noncombat move
        units = [
            u
            for u in record.units
            if u.type.movement > 0 and not (u.type.is_land and board.is_sea(u.at) and u.aboard is None)
        ]
        if not units:
            continue  # nothing moved (AA102/AA103 said why), or only what the clauses above judge
        if combat_reason(phase, replace(record, units=units), battles, assault, zones) is not None:
            continue
        move = record.move
        ends = sorted({u.at for u in units})
        if all(u.type.is_land and board.is_sea(u.at) for u in units):
            vessels = sorted(
                {u.aboard.uid: u.aboard for u in units if u.aboard is not None}.values(), key=lambda v: v.uid
            )
            stayed = [v for v in vessels if v.at == move.path[-1] and not _moved_after(phase, v, record)]
            if stayed:
                names = [v.id for v in stayed if v.id]
                why = {
                    (False, False): _(
                        "the transport it boarded{names} stays in {spaces}, and no later order unloads it"
                    ),
                    (True, False): _(
                        "the transport they boarded{names} stays in {spaces}, and no later order unloads them"
                    ),
                    (False, True): _(
                        "the transports it boarded{names} stay in {spaces}, and no later order unloads it"
                    ),
                    (True, True): _(
                        "the transports they boarded{names} stay in {spaces}, and no later order unloads them"
                    ),
                }[len(units) > 1, len(stayed) > 1].format(
                    names=" (" + ", ".join(names) + ")" if names else "", spaces=", ".join(ends)
                )
            else:
                why = ngettext(
                    "no later order unloads it from {spaces}", "no later order unloads them from {spaces}", len(units)
                ).format(spaces=", ".join(ends))
            message = _(
                "{units} loaded in combat move but never unloaded: {why}; cargo loaded in combat "
                "move must be unloaded into a hostile territory this phase"
            ).format(units=describe(units), why=why)
        else:
            message = _(
                "moving {units} to {spaces} is not a combat move: no battle there and no "
                "amphibious assault; make this move in noncombat move"
            ).format(units=move.label(units), spaces=", ".join(ends))
        yield Violation(message, move.step(len(move.path) - 1), order=move.index, order_id=move.order_id)


def _moved_after(phase: Phase, vessel: Unit, record: Record) -> bool:
    """An order after ``record`` moved the vessel."""
    later = False
    for other in phase.records:
        if other is record:
            later = True
        elif later and any(u is vessel for u in other.units):
            return True
    return False
