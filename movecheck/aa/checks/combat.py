"""Combat-move clauses: stopping in hostile spaces, blitzes, what counts as a combat move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from movecheck.aa.checks import aa_clause
from movecheck.aa.model import describe
from movecheck.clauses import Violation

if TYPE_CHECKING:
    from movecheck.aa.model import Unit
    from movecheck.aa.moves import Move
    from movecheck.aa.phase import Phase, Record


def _passes(move: Move) -> range:
    """Indexes of the spaces a path passes through (neither first nor last)."""
    return range(1, len(move.path) - 1)


def _only_static(units: list[Unit]) -> bool:
    return bool(units) and all(u.type.is_aa_gun or u.type.is_factory for u in units)


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
    board = phase.board
    for group in move.groups():
        unit = group[0]
        if unit.type.is_air or unit.type.submarine or (unit.type.is_land and unit.aboard is not None):
            continue
        for k in _passes(move):
            space = move.path[k]
            if unit.type.is_sea and board.hostile_zone(space):
                enemies = board.blocking_enemies(space)
                yield Violation(
                    f"{describe(group)} must stop in {space} (hostile: enemy {describe(enemies)}); "
                    f"path continues to {move.path[k + 1]}",
                    move.step(k),
                )
                break
            if unit.type.is_land and not board.is_sea(space) and board.hostile_territory(space):
                enemies = board.enemy_units(space)
                if enemies and not _only_static(enemies):
                    yield Violation(
                        f"{describe(group)} must stop in {space} (hostile, enemy units present); "
                        f"path continues to {move.path[k + 1]}",
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
    included; a hostile territory with enemy combat units is AA201.
    """
    board = phase.board
    for group in move.groups():
        unit = group[0]
        if not unit.type.is_land or unit.aboard is not None:
            continue
        for k in _passes(move):
            space = move.path[k]
            if board.is_sea(space):
                break
            enemies = board.enemy_units(space)
            if enemies and _only_static(enemies):
                yield Violation(
                    f"{describe(group)} must stop in {space}: it holds enemy {describe(enemies)}, "
                    f"and land units stop where they meet enemy units",
                    move.step(k),
                )
                break
            if enemies and not board.hostile_territory(space):
                yield Violation(f"{describe(group)} must stop in {space}: enemy {describe(enemies)} there", move.step(k))
                break
            if not enemies and board.hostile_territory(space) and not unit.type.blitz:
                yield Violation(
                    f"{describe(group)} cannot blitz through {space}: only tanks continue through a hostile territory",
                    move.step(k),
                )
                break


@aa_clause("AA204", "sub-stops-at-destroyer", "error",
           "a submarine ends its move on entering a zone with an enemy destroyer", ["N20"], phase="both",
           example=("a submarine passes through a zone holding an enemy destroyer",
                    "it stops in that zone"))
def sub_stops_at_destroyer(move: Move, phase: Phase) -> Iterator[Violation]:
    """A submarine ends its move on entering a sea zone holding an enemy destroyer (N20).

    Governed by the option ``destroyer_stops_subs`` (on in aa1942).
    """
    if not phase.options["destroyer_stops_subs"]:
        return
    subs = [u for u in move.units if u.type.submarine]
    if not subs:
        return
    for k in _passes(move):
        space = move.path[k]
        if phase.board.is_sea(space) and phase.board.enemy_destroyer(space):
            yield Violation(
                f"{describe(subs)} must stop in {space}: an enemy destroyer is there; path continues to {move.path[k + 1]}",
                move.step(k),
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
    the path may not go on past it.
    """
    if move.attack is None or move.attack == move.end:
        return
    where = move.where + ("attack",)
    if move.attack in move.path:
        yield Violation(
            f"{move.label()} attack in {move.attack} and must end their move there; path continues to {move.end}", where
        )
    else:
        yield Violation(f"attack: {move.attack} is not on the path; an attacker ends its move in the zone it attacks", where)


@aa_clause("AA206", "left-battle", "error",
           "a unit that moved into a battle space may not move on in the same phase (moves are simultaneous)",
           ["C8", "C9"], phase="combat",
           example=("a tank moves into a battle and a later order moves it on",
                    "it stays in the battle space"))
def left_battle(move: Move, phase: Phase) -> Iterator[Violation]:
    """A unit that moved into a battle space does not move on in the same phase.

    Combat moves happen at the same time (C8): a unit cannot move in, fight
    and move again, and no order splits a move through a battle.
    """
    engaged = [u for u in move.units if u.in_battle]
    if engaged:
        yield Violation(
            f"{describe(engaged)} already moved into a battle in {move.start} (order "
            f"{phase.last_order[engaged[0].uid].index}) and may not move on",
            move.units_node(engaged[0]),
        )


def battle_spaces(phase: Phase) -> set[str]:
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
            return "an amphibious assault"
        if unit.type.is_land and board.is_sea(unit.at):
            continue  # cargo still at sea: only an assault later this phase makes its load a combat move
        if unit.at in battles:
            return f"{unit.at} is a battle"
    if any(u.type.is_land for u in record.units) and not board.is_sea(move.start):
        for space in move.path[1:-1]:
            if board.is_sea(space):
                break
            if board.hostile_territory(space):
                return f"a blitz through {space}"
    if any(u.type.is_sea for u in record.units):
        if board.hostile_zone(move.start):
            return "ships leave a hostile zone"
        if move.attack and move.attack in phase.attack_zones:
            return "an attack on subs/transports"
        if any(u.uid in assault for u in record.cargo):
            return "ships carry an amphibious assault"
        if move.end in zones:
            return "ships escort an amphibious assault"
    return None


@aa_clause("AA203", "not-a-combat-move", "error",
           "a combat move ends in a battle space, unloads into a hostile territory, or is one of the sea moves of C1–C3 "
           "— decided after the last move",
           ["C1–C3"], phase="combat", scope="end",
           example=("in combat move, an infantry moves from one friendly territory to another",
                    "it makes that move in the noncombat move"))
def not_a_combat_move(phase: Phase) -> Iterator[Violation]:
    """Every combat move leads to a battle; the rest waits for the noncombat move.

    A move counts when a unit it moved ends the phase in a battle space (a
    hostile space entered, a zone attacked for its subs/transports) or is
    unloaded into a hostile territory, or when ships carry or escort an
    amphibious assault (C1), leave a hostile zone (C2) or attack subs or
    transports (C3).  Loading counts when the same units are unloaded into a
    hostile territory later in the phase.  Decided after the last move.
    Governed by the option ``combat_move_must_attack``.
    """
    if not phase.options["combat_move_must_attack"]:
        return
    battles = battle_spaces(phase)
    assault, zones = _amphibious(phase)
    for record in phase.records:
        if not record.units:
            continue  # nothing moved (AA102/AA103 said why)
        if combat_reason(phase, record, battles, assault, zones) is None:
            move = record.move
            ends = sorted({u.at for u in record.units})
            board = phase.board
            if all(u.type.is_land and board.is_sea(u.at) for u in record.units):
                why = "cargo loaded in combat move must be unloaded into a hostile territory this phase"
            else:
                why = "no battle there and no amphibious assault"
            yield Violation(
                f"{move.label(record.units)} to {', '.join(ends)} is not a combat move: {why}; "
                f"make this move in noncombat move",
                move.step(len(move.path) - 1),
                order=move.index,
                order_id=move.order_id,
            )
