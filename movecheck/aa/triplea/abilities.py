"""Battle abilities of TripleA attachments beyond the unit attachment's plain stats: AA fire and support.

``import triplea`` writes them into the map's ``unit_types`` (schema ``aa-map``): ``aa`` from a unit
attachment's AA options (``isAA``, ``isAAforCombatOnly``, ``isAAforBombingThisUnitOnly``,
``isAAforFlyOverOnly``, ``attackAA``, ``attackAAmaxDieSides``, ``maxAAattacks``, ``typeAA``,
``targetsAA``, ``mayOverStackAA``), and ``support`` from the ``supportAttachment…`` attachments of a
unit type (TripleA's ``UnitSupportAttachment``: ``unitType``, ``side``, ``dice``, ``bonus``, ``number``,
``faction``, ``bonusType``).  Defaults are TripleA's (``UnitAttachment.java``: attackAA 1, die sides
the game's, maxAAattacks -1 for no limit, typeAA ``AA``, targets every aircraft).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from movecheck.aa.triplea.xmlread import Game

AA_FLAGS = ("isAA", "isAAforCombatOnly", "isAAforBombingThisUnitOnly", "isAAforFlyOverOnly")
SUPPORT_UNMODELLED = "support attachments other than a bonus to the strength of allied units (rolls, AA, enemy)"


def aa_ability(game: Game, name: str, given: dict[str, str], rename: Any) -> dict[str, Any] | None:
    """A unit type's AA fire (None: it has none): when it fires (``battle``, ``raids``, ``fly_over``),
    its value on dice of ``die_sides``, ``shots`` per unit (absent: one per aircraft), ``kind`` (typeAA),
    ``targets`` (absent: every aircraft) and ``over_stack``."""
    flags = {key: game.flag(given.get(key, "false")) for key in AA_FLAGS}
    if not any(flags.values()):
        return None
    every = flags["isAA"]

    def num(key: str, default: int) -> int:
        return game.number(given[key], f"{key} of {name!r}") if key in given else default

    found: dict[str, Any] = {
        "battle": every or flags["isAAforCombatOnly"],
        "raids": every or flags["isAAforBombingThisUnitOnly"],
        "fly_over": every or flags["isAAforFlyOverOnly"],
        "value": max(num("attackAA", 1), 0),
        "die_sides": num("attackAAmaxDieSides", -1) if num("attackAAmaxDieSides", -1) > 0 else 6,
    }
    if num("maxAAattacks", -1) >= 0:
        found["shots"] = num("maxAAattacks", -1)
    kind = given.get("typeAA", "").strip()
    if kind and kind != "AA":
        found["kind"] = kind
    targets = sorted({rename(t.strip()) for t in given.get("targetsAA", "").split(":") if t.strip()})
    if targets:
        found["targets"] = targets
    if game.flag(given.get("mayOverStackAA", "false")):
        found["over_stack"] = True
    return found


def support_rule(game: Game, supporter: str, given: dict[str, str], rename: Any,
                 missing: Counter[str]) -> dict[str, Any] | None:
    """One support attachment as the battle reads it (None, counted in ``missing``, when it is of a kind
    the battle does not model): the types it ``units`` supports, its ``bonus`` to their strength,
    how many units each supporter supports (``number``), on ``attack`` and/or ``defence``, its
    ``bonus_type`` (a unit takes one bonus of each type)."""
    dice = {d.strip().lower() for d in given.get("dice", "").split(":") if d.strip()}
    faction = {f.strip().lower() for f in given.get("faction", "").split(":") if f.strip()}
    side = {s.strip().lower() for s in given.get("side", "").split(":") if s.strip()}
    units = sorted({rename(t.strip()) for t in given.get("unitType", "").split(":") if t.strip()})
    what = f"bonus of support attachment of {supporter!r}"
    bonus = game.number(given["bonus"], what) if "bonus" in given else 0
    number = game.number(given["number"], what) if "number" in given else 0
    if dice != {"strength"} or faction != {"allied"} or not side or not units or number <= 0 or bonus == 0:
        missing[SUPPORT_UNMODELLED] += 1
        return None
    bonus_type = given.get("bonusType", "").split(":")[-1].strip() or supporter
    return {"units": units, "bonus": bonus, "number": number, "attack": "offence" in side,
            "defence": "defence" in side, "bonus_type": bonus_type}
