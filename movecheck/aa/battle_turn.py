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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board, Unit

if TYPE_CHECKING:
    from movecheck.aa.battles import Resolution, Result
    from movecheck.findings import Finding
    from movecheck.loading import Document

SIDES = ("attacker", "defender")


@dataclass
class Landing:
    """One entry of ``defender_landing:``, its names resolved."""

    index: int
    origin: str | None
    to: str
    units: dict[str, int]


@dataclass
class Extras:
    """The turn keys of one result."""

    damaged: dict[str, dict[str, int]] = field(default_factory=dict)
    """Side -> unit type -> count; side ``""``: written without a side (:func:`damaged_side` finds it)."""
    bombing: int | None = None
    bombing_at: str | None = None
    landings: list[Landing] = field(default_factory=list)


def read_extras(doc: Document, board: Board, entry: dict[str, Any], where: tuple[Any, ...],
                found: list[Finding]) -> tuple[Extras, bool]:
    """The turn keys of a result, MC004 for names the map does not know; and whether a shape was bad (MC003)."""
    from movecheck.aa.setup import unknown_space, unknown_type, whole

    extras, broken = Extras(), False
    damaged = entry.get("damaged")
    if damaged is not None and not isinstance(damaged, dict):
        broken = True
    for key, value in (damaged if isinstance(damaged, dict) else {}).items():
        if key in SIDES and isinstance(value, dict):
            side, counts, at = key, value, (*where, "damaged", key)
        else:
            side, counts, at = "", {key: value}, (*where, "damaged")
        for name, count in counts.items():
            kind = board.map.resolve_type(name)
            if whole(count) is None or count < 1:
                broken = True
            elif kind is None:
                found.append(unknown_type(doc, board.map, name, (*at, name), key=True))
            else:
                extras.damaged.setdefault(side, {})[kind] = extras.damaged.get(side, {}).get(kind, 0) + count
    bombing = entry.get("bombing")
    if isinstance(bombing, dict):
        if whole(bombing.get("damage")) is None or bombing["damage"] < 0:
            broken = True
        else:
            extras.bombing = bombing["damage"]
        if isinstance(bombing.get("at"), str):
            extras.bombing_at = board.map.resolve(bombing["at"])
            if extras.bombing_at is None:
                found.append(unknown_space(doc, board.map, bombing["at"], (*where, "bombing", "at")))
    elif bombing is not None:
        broken = True
    landings = entry.get("defender_landing")
    if landings is not None and not isinstance(landings, list):
        broken = True
    for index, item in enumerate(landings if isinstance(landings, list) else []):
        at = (*where, "defender_landing", index)
        if not isinstance(item, dict) or not isinstance(item.get("to"), str) or not isinstance(item.get("units"), dict):
            broken = True
            continue
        origin = board.map.resolve(item["from"]) if isinstance(item.get("from"), str) else None
        if isinstance(item.get("from"), str) and origin is None:
            found.append(unknown_space(doc, board.map, item["from"], (*at, "from")))
        to = board.map.resolve(item["to"])
        if to is None:
            found.append(unknown_space(doc, board.map, item["to"], (*at, "to")))
        units: dict[str, int] = {}
        for name, count in item["units"].items():
            kind = board.map.resolve_type(name)
            if whole(count) is None or count < 1:
                broken = True
            elif kind is None:
                found.append(unknown_type(doc, board.map, name, (*at, "units", name), key=True))
            else:
                units[kind] = units.get(kind, 0) + count
        if to is not None:
            extras.landings.append(Landing(index, origin, to, units))
    return extras, broken


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
    damage = result.extras.bombing or 0
    value = board.map.production.get(result.at, 0)
    if board.options["factory_damage"]:
        factory = factory_at(board, result.at)
        room = max(0, 2 * value - (factory.damage if factory else 0))
        return "damage", min(damage, room)
    owner = board.controller(result.at) or ""
    treasury = (ipcs or {}).get(owner, 0)
    return "ipcs", max(0, min(damage, value * len(bombers(result)), treasury))


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
    """The territories the attacker takes in this battles phase: land battles it wins with land units left."""
    from movecheck.aa.battles import fights

    board = resolution.board
    found = set()
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


def settle(resolution: Resolution, lost: set[int], ipcs: dict[str, int] | None) -> list[str]:
    """Carry the turn keys out after the losses; returns the header lines that say what was done."""
    from movecheck.aa.model import unit_phrase

    board = resolution.board
    said: list[str] = []
    for result in resolution.results:
        if result.battle is None or result.repeated:
            continue
        for unit in damaged_units(result):
            unit.damaged = True
        if result.extras.bombing is not None:
            how, amount = bombing_effect(result, board, ipcs)
            if how == "damage":
                factory = factory_at(board, result.at)
                if factory is not None:
                    factory.damage += amount
                cap = 2 * board.map.production.get(result.at, 0)
                now = factory.damage if factory else 0
                said.append(f"bombing of {result.at}: {amount} damage on the factory (now {now}; at most {cap})")
            else:
                owner = board.controller(result.at) or ""
                if ipcs is not None and owner in ipcs:
                    ipcs[owner] -= amount
                said.append(f"bombing of {result.at}: the {owner} lose {amount} IPCs")
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
                said.append(f"destroyed: {fighter.id or unit_phrase(1, fighter.type.name, fighter.power)} in "
                            f"{fighter.at}, its carrier sunk and no landing given")
    return said


__all__ = ["Extras", "Landing", "bombing_effect", "damaged_side", "damaged_units", "factory_at", "free_slots",
           "read_extras", "settle", "stranded", "taken"]
