"""What a battle result says for the rest of the turn (spec aa-turn.md, "Battles: what the results may say").

Three keys of a result, read here and carried out by :func:`settle` after the losses:

- ``damaged:`` two-hit units (battleships) hit once and still afloat: ``{battleship: 1}`` for the
  side that has such units there, or ``{attacker: {battleship: 1}}``; the state carries
  ``damaged: true`` on them until the end-of-turn repair;
- ``bombing: {at, damage}``: the attacking bombers' strategic bombing of the factory there;
  where ``factory_damage`` (1942 second edition) the factory takes the damage, at most twice
  the territory's IPC value in all; otherwise (Revised) the owner loses that many IPCs, at most
  the territory's IPC value for each bomber that survives, never below 0;
- ``defender_landing:`` defending fighters whose carrier sank move to an adjacent friendly
  territory or to a zone with a free slot on an allied carrier; a fighter not so moved is
  destroyed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board
from movecheck.aa.turn.battle_extras import SIDES, fights
from movecheck.aa.units import Unit
from movecheck.aa.wording import unit_phrase

if TYPE_CHECKING:
    from movecheck.aa.turn.battles import Resolution, Result


def damaged_side(result: Result, kind: str) -> str | None:
    """The side a ``damaged:`` written without a side speaks of: the only one with units of ``kind`` there."""
    assert result.battle is not None
    having = [side for side in SIDES if any(u.type.name == kind for u in result.battle.listed(side))]
    return having[0] if len(having) == 1 else None


def damaged_units(result: Result) -> list[Unit]:
    """The survivors the result marks ``damaged`` (of each type, those already damaged first, then the last listed)."""
    chosen: list[Unit] = []
    for side, counts in sorted(result.extras.damaged.items()):
        for kind, count in sorted(counts.items()):
            owner = side or damaged_side(result, kind)
            if owner is None:
                continue
            alive = [u for u in result.survivors(owner) if u.type.name == kind and u.type.hit_points > 1]
            alive.sort(key=lambda u: (not u.damaged, -u.uid))
            chosen.extend(alive[:count])
    return chosen


def factory_at(board: Board, space: str) -> Unit | None:
    """The factory of the territory, if it has one."""
    return next((u for u in board.units_at(space) if u.type.is_factory), None)


def bombers(result: Result) -> list[Unit]:
    """The attacking bombers that come through the battle (those that drop bombs)."""
    return [u for u in result.survivors("attacker") if u.type.is_air and not u.type.is_fighter]


def bombing_effect(result: Result, board: Board, ipcs: dict[str, int] | None) -> tuple[str, int]:
    """What the bombing does: ``("damage", N)`` added to the factory, or ``("ipcs", N)`` the owner loses (capped)."""
    how, amount, _cap = capped_bombing(result, board, ipcs)
    return how, amount


def capped_bombing(result: Result, board: Board, ipcs: dict[str, int] | None) -> tuple[str, int, str | None]:
    """The bombing after the edition's caps: ``("damage", N, cap)`` added to the factory, or ``("ipcs", N, cap)``
    the owner loses; ``cap`` says which cap cut the damage rolled (None: none did)."""
    damage = result.extras.bombing or 0
    value = board.map.production.get(result.at, 0)
    if board.options["factory_damage"]:
        factory = factory_at(board, result.at)
        room = max(0, 2 * value - (factory.damage if factory else 0))
        cap = f"at most {2 * value} damage on the factory in all" if damage > room else None
        return "damage", min(damage, room), cap
    dice = result.extras.bombing_dice
    per_bomber = sum(min(d, value) for d in dice) if dice is not None else min(damage, value * len(bombers(result)))
    owner = board.controller(result.at) or ""
    treasury = (ipcs or {}).get(owner, 0) if ipcs is not None else per_bomber
    cap = None
    if per_bomber < damage:
        cap = f"each bomber's die counts at most {value}, the IPC value of {result.at}"
    if treasury < per_bomber:
        cap = f"the {owner} have {max(0, treasury)} IPCs"
    return "ipcs", max(0, min(per_bomber, treasury)), cap


def _bomb(result: Result, board: Board, ipcs: dict[str, int] | None, done: list[dict[str, Any]]) -> str:
    """Carry a bombing out after the caps; the header line that says what was rolled, applied and cut (and the
    same as data in ``done``, for the apply report)."""
    how, amount, cap = capped_bombing(result, board, ipcs)
    rolled = result.extras.bombing or 0
    done.append({"at": result.at, "rolled": rolled, "dice": result.extras.bombing_dice, "applied": amount,
                 "on": "factory" if how == "damage" else "ipcs", "owner": board.controller(result.at), "cap": cap})
    cut = f" ({rolled} rolled, cut by the cap: {cap})" if cap is not None else ""
    if how == "damage":
        factory = factory_at(board, result.at)
        if factory is not None:
            factory.damage += amount
        most = 2 * board.map.production.get(result.at, 0)
        now = factory.damage if factory else 0
        return f"bombing of {result.at}: {amount} damage on the factory (now {now}; at most {most}){cut}"
    owner = board.controller(result.at) or ""
    if ipcs is not None and owner in ipcs:
        ipcs[owner] -= amount
    return f"bombing of {result.at}: the {owner} lose {amount} IPCs{cut}"


def stranded(result: Result, board: Board, lost: set[int] | None = None) -> list[Unit]:
    """The defending fighters at sea left without a carrier: those aboard a carrier lost in the battle that the
    surviving carriers of their side there have no free slot for (``lost``: default, the result's casualties)."""
    battle = result.battle
    if battle is None or not board.is_sea(battle.at):
        return []
    if lost is None:
        lost = {u.uid for side in SIDES for u in result.casualties(side)}
    fighters = [u for u in battle.defenders if u.type.is_fighter and u.uid not in lost]
    carriers = [u for u in battle.defenders if u.type.is_carrier and u.uid not in lost]
    slots = sum(c.type.carrier_capacity for c in carriers)
    keep = sorted(fighters, key=lambda u: (u.aboard is None or u.aboard.uid in lost, u.uid))
    left: list[Unit] = []
    for fighter in keep:
        if fighter.type.carrier_cost <= slots:
            slots -= fighter.type.carrier_cost
        else:
            left.append(fighter)
    return left


def taken(resolution: Resolution) -> set[str]:
    """The territories the attacker takes in this battles phase: land battles it wins with land units left, and the
    factory-only territories its land units entered while a raid on them was pending (taken after the raid)."""

    board = resolution.board
    found = {space for space in resolution.raids if space not in resolution.battles and any(
        u.power == board.power and u.type.is_land and not u.type.is_factory and u.aboard is None
        for u in board.units_at(space))}
    for result in resolution.results:
        battle = result.battle
        if battle is None or result.repeated or board.is_sea(battle.at) or result.retreat is not None:
            continue
        if any(u.type.is_land for u in result.survivors("attacker")) and not any(
                fights(u, board) for u in result.survivors("defender")):
            found.add(battle.at)
    return found


def free_slots(board: Board, zone: str, side: str | None, lost: set[int]) -> int:
    """Free carrier slots in ``zone`` for fighters of ``side``: its carriers' capacity less its fighters there."""
    units = [u for u in board.units_at(zone) if u.uid not in lost and board.map.side_of.get(u.power) == side]
    return (sum(u.type.carrier_capacity for u in units if u.type.is_carrier)
            - sum(u.type.carrier_cost for u in units if u.type.is_fighter))


def settle(resolution: Resolution, lost: set[int], ipcs: dict[str, int] | None,
           destroyed: list[Unit] | None = None) -> list[str]:
    """Carry the turn keys out after the losses; returns the header lines that say what was done.  A defending
    fighter whose carrier sank and that no ``defender_landing:`` moves is lost, and listed in ``destroyed``."""

    board = resolution.board
    said: list[str] = []
    for result in resolution.results:
        if result.battle is None or result.repeated:
            continue
        for unit in damaged_units(result):
            unit.damaged = True
        if result.extras.bombing is not None:
            said.append(_bomb(result, board, ipcs, resolution.bombings))
        moved: set[int] = set()
        strand = stranded(result, board, lost)
        for landing in result.extras.landings:
            for kind, count in sorted(landing.units.items()):
                for fighter in [u for u in strand if u.type.name == kind and u.uid not in moved][:count]:
                    moved.add(fighter.uid)
                    board.leave_vessel(fighter)
                    board.move_unit(fighter, landing.to)
                    if board.is_sea(landing.to):
                        carrier = next((c for c in board.units_at(landing.to) if c.type.is_carrier and c.uid not in lost
                                        and board.map.side_of.get(c.power) == board.map.side_of.get(fighter.power)
                                        and sum(f.type.carrier_cost for f in c.cargo if f.type.is_fighter)
                                        + fighter.type.carrier_cost <= c.type.carrier_capacity), None)
                        if carrier is not None:
                            board.board_unit(fighter, carrier)
        for fighter in strand:
            if fighter.uid not in moved:
                lost.add(fighter.uid)
                if destroyed is not None:
                    destroyed.append(fighter)
                said.append(f"destroyed: {fighter.id or unit_phrase(1, fighter.type.name, fighter.power)} in "
                            f"{fighter.at}, its carrier sunk and no landing given")
    return said


__all__ = [
    "bombing_effect", "capped_bombing", "damaged_side", "damaged_units", "factory_at", "free_slots", "settle",
    "stranded", "taken",
]
