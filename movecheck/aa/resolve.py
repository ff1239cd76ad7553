"""Battle results carried out on the board: losses, the cargo of sunk transports, retreats, submerged
submarines, the turn's extras (damage, bombing, defending fighters) and the territories taken.

:mod:`movecheck.aa.turn.apply` calls :func:`resolve` once the results are legal.
"""

from __future__ import annotations

from movecheck.aa.model import Board
from movecheck.aa.turn.battle_turn import settle
from movecheck.aa.turn.battles import SIDES, SUNK, Battle, Resolution, Result, cargo_ashore
from movecheck.aa.units import Unit


def resolve(resolution: Resolution, ipcs: dict[str, int] | None = None, said: list[str] | None = None,
            destroyed: list[Unit] | None = None) -> set[int]:
    """Carry the results out on the board; returns the uids of the units lost (they leave the state).

    The cargo of a transport sunk in its sea battle goes down with it, ashore or not; the cargo of a
    transport that retreats from it goes back aboard first, and with it.  A retreat moves the attackers
    that retreat (:meth:`Result.staying` stay and fight on) but never aircraft: they stay in the battle
    space, out of the battle, and land in the noncombat move.  Then every hostile territory where the
    mover's land units stand and no defender is left is taken (:func:`movecheck.aa.turn.control.take`).
    """
    board = resolution.board
    lost: set[int] = set()
    for unit, why in cargo_ashore(resolution).values():
        vessel = board.by_id[unit.landed_from or ""]
        if why == SUNK:
            lost.add(unit.uid)
        else:
            board.move_unit(unit, vessel.at)
            board.board_unit(unit, vessel)
            vessel.unloaded_to = None
    for result in resolution.results:
        battle = result.battle
        if battle is None or result.repeated:
            continue
        for side in SIDES:
            for unit in result.casualties(side):
                lost.add(unit.uid)
                lost.update(c.uid for c in unit.cargo if c.type.is_land)
        _submerge(battle, result, lost)
        survivors = [u for u in battle.side("attacker") if u.uid not in lost]
        for unit in survivors:
            unit.fought = True
        if result.retreat is not None:
            staying = {u.uid for u in result.staying(board.options)}
            for unit in survivors:
                if unit.type.is_air:
                    board.leave_vessel(unit)
                elif unit.uid not in staying:
                    board.move_unit(unit, result.retreat)
    lines = settle(resolution, lost, ipcs, destroyed)
    if said is not None:
        said.extend(lines)
    _capture(board, lost)
    return lost


def _submerge(battle: Battle, result: Result, lost: set[int]) -> None:
    for side in SIDES:
        subs = [u for u in battle.side(side) if u.type.submarine and u.uid not in lost]
        for unit in subs[: int(result.submerged.get(side, 0) or 0)]:
            unit.submerged = True


def _capture(board: Board, lost: set[int]) -> None:
    """Every hostile territory where a land unit of the mover stands and no defender is left is taken."""
    from movecheck.aa.turn.control import take

    held = {u.at for u in board.units if u.power == board.power and u.type.is_land and not u.type.is_factory
            and u.uid not in lost and u.aboard is None and not board.is_sea(u.at)}
    for space in sorted(held):
        defended = any(u.uid not in lost and not board.changes_hands(u) for u in board.enemy_units(space))
        if board.hostile_territory(space) and not defended:
            take(board, space, board.power)
