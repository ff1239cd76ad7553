"""Strategic bombing raids in the combat move (aa-battle.md, "Strategic bombing raids").

A bomber whose combat move ends in a hostile territory holding an enemy factory raids it when its
order says ``raid: true``, or without saying so when the bombers are the only units the mover
brought there and nothing can be fought there (only a factory; where AA guns are infrastructure,
Revised and Anniversary, AA guns too).  A raid is a battle of its own: the combat-move ``apply``
lists it first in the battles state, with ``kind: raid``; the factory-only territory it raids is
taken only after it (:func:`movecheck.aa.resolve.resolve`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from movecheck.aa.model import Board
    from movecheck.aa.phase import Phase
    from movecheck.aa.units import Unit


def enemy_factory(board: Board, space: str) -> Unit | None:
    """The enemy factory of a hostile territory, the target of a raid there (None: nothing to raid)."""
    if not board.hostile_territory(space):
        return None
    return next((u for u in board.units_at(space) if u.type.is_factory and board.enemy_power(u.power)), None)


def raid_defenders(board: Board, space: str) -> list[Unit]:
    """What a raid on ``space`` is fought against: the factory and, where AA guns are infrastructure that
    changes hands (Revised, Anniversary), the AA guns, which fire at the raiders.  In the 1942 second
    edition the AA gun is a combat unit that does not fire at raiders: the factory's own AA does."""
    return [u for u in board.units_at(space) if board.enemy_power(u.power)
            and (u.type.is_factory or (u.type.is_aa_gun and board.changes_hands(u)))]


def raiders(phase: Phase, space: str) -> list[Unit]:
    """The mover's bombers that raid the factory of ``space`` at the end of the combat move (none: no raid)."""
    board = phase.board
    if enemy_factory(board, space) is None:
        return []
    here = [u for u in board.units_at(space) if u.power == board.power and u.move_count and not u.type.is_factory]
    said = [u for u in here if u.raiding and u.type.is_bomber]
    if said:
        return said
    if here and all(u.type.is_bomber for u in here) and not phase.battle_space(space):
        return here  # the only attackers of a territory where nothing can be fought: they raid without saying so
    return []


def pending_raids(phase: Phase) -> dict[str, list[Unit]]:
    """Each territory raided at the end of the combat move, with its raiding bombers."""
    board = phase.board
    spaces = {u.at for u in board.units if u.power == board.power and u.move_count and u.type.is_bomber}
    found = {}
    for space in sorted(spaces):
        bombers = raiders(phase, space)
        if bombers:
            found[space] = bombers
    return found


__all__ = ["enemy_factory", "pending_raids", "raid_defenders", "raiders"]
