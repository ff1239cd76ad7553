"""What a battle result may say beyond losses and retreats (aa-turn.md, "Battles"): ``damaged:``,
``bombing:`` and ``defender_landing:``, read from a result; and which units keep a battle going.

:mod:`movecheck.aa.turn.battles` reads them with each result; :mod:`movecheck.aa.turn.battle_turn` judges
and carries them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board
from movecheck.aa.units import Unit

if TYPE_CHECKING:
    from movecheck.document import Document
    from movecheck.findings import Finding

SIDES = ("attacker", "defender")


def fights(unit: Unit, board: Board) -> bool:
    """A unit that keeps a battle going: not one that changes hands with its territory (a factory, an
    AA gun where ``aa_guns_captured``), not a submerged submarine."""
    return not (board.changes_hands(unit) or unit.submerged)


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
    """The raid's damage as rolled: the total written, or the sum of the dice."""
    bombing_dice: list[int] | None = None
    """The damage written as the dice, one per surviving bomber (``damage: [5, 1]``); None: as a total."""
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
        dice = bombing.get("damage")
        total = whole(dice)
        if isinstance(dice, list) and all(whole(d) is not None and 1 <= d <= 6 for d in dice):
            extras.bombing, extras.bombing_dice = sum(dice), list(dice)
        elif total is None or total < 0:
            broken = True
        else:
            extras.bombing = total
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
