"""What ``import triplea`` reads of an Anniversary game (aa-anniversary.md): its edition by ``mapName``, the
National Objectives, a player's own rules (China's), the victory cities and the order of the turn's steps.

TripleA writes a National Objective as a player's ``RulesAttachment`` named ``objectiveAttachment...`` with
``objectiveValue`` and its conditions (``alliedOwnershipTerritories``, ``alliedExclusionTerritories``,
``enemySurfaceExclusionTerritories``; how many of the territories count is the option's ``count`` attribute, which
TripleA's parser puts before the value as ``count:``, or that leading number written into the value; else all), and
China's restrictions as its ``rulesAttachment`` (``movementRestrictionTerritories``, ``productionPerXTerritories``,
``placementAnyTerritory``, ``placementCapturedTerritory``, ``placementPerTerritory``).  An objective with a
condition or limit movecheck does not read is left out and counted among what is not modelled.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from movecheck.aa.triplea.xmlread import options_of

ANNIVERSARY_MAP = "world war ii v3"
"""The ``mapName`` (folded) of TripleA's Anniversary games (WW2v3-1941.xml, WW2v3-1942.xml)."""

CONDITIONS = {
    "alliedOwnershipTerritories": "controls",
    "alliedExclusionTerritories": "no_allied_units",
    "enemySurfaceExclusionTerritories": "no_enemy_surface_warships",
}
"""The objective conditions movecheck reads, by TripleA option."""

VICTORY_SETTINGS = {"Projection of Power": 13, "Honorable Surrender": 15, "Total Victory": 18}
PHASE_OF_DELEGATE = {"PurchaseDelegate": "purchase", "NoPUPurchaseDelegate": "purchase",
                     "BattleDelegate": "battles", "PlaceDelegate": "mobilize"}
PHASES = ["purchase", "combat_move", "battles", "noncombat_move", "mobilize"]
UNREAD = "national objectives with conditions or limits movecheck does not read"


def _territories(value: str, names: set[str]) -> tuple[list[str], int] | None:
    """A condition's territories and how many must count (a leading number; else all), None if a name is unknown."""
    parts = [p for p in value.split(":") if p]
    count = int(parts.pop(0)) if parts and parts[0].isdigit() else None
    if not parts or any(p not in names for p in parts):
        return None
    return parts, count if count is not None else len(parts)


def _condition(option: str, value: str, names: set[str]) -> dict[str, Any] | None:
    kind = CONDITIONS.get(option)
    if kind == "no_allied_units":
        return {"kind": kind} if value.strip() == "controlled" else None
    found = _territories(value, names) if kind else None
    if found is None:
        return None
    return {"kind": kind, "territories": found[0], "at_least": found[1]}


def options_with_counts(attachment: Any) -> dict[str, str]:
    """The options of an attachment by name, an option's ``count`` attribute put before its value as ``count:value``
    (as TripleA's game parser reads ``<option name= value= count=>``)."""
    given = options_of(attachment)
    for option in attachment.findall("option"):
        count = (option.get("count") or "").strip()
        if count:
            given[option.get("name", "")] = f"{count}:{option.get('value', '')}"
    return given


def objectives(root: Any, players: list[str], names: set[str], missing: Counter[str]) -> list[dict[str, Any]]:
    """The National Objectives of the game, in the file's order (those movecheck cannot read counted in ``missing``)."""
    found = []
    for att in root.findall("attachmentList/attachment"):
        if not att.get("name", "").startswith("objectiveAttachment") or att.get("attachTo") not in players:
            continue
        given = options_with_counts(att)
        value = given.pop("objectiveValue", "")
        conditions = [_condition(k, v, names) for k, v in given.items()]
        if not value.lstrip("-").isdigit() or not conditions or None in conditions:
            missing[UNREAD] += 1
            continue
        found.append({"power": att.get("attachTo"), "name": att.get("name"), "ipcs": int(value),
                      "conditions": conditions})
    return found


def player_rules(root: Any, players: list[str], names: set[str]) -> dict[str, dict[str, Any]]:
    """A player's own rules (the Chinese in Anniversary): movement, free units, placement."""
    rules: dict[str, dict[str, Any]] = {}
    for att in root.findall("attachmentList/attachment"):
        if att.get("name") != "rulesAttachment" or att.get("attachTo") not in players:
            continue
        given = options_of(att)
        allowed = [t for t in given.get("movementRestrictionTerritories", "").split(":") if t in names]
        per = given.get("productionPerXTerritories", "")
        if given.get("movementRestrictionType") != "allowed" or not allowed or not per.isdigit():
            continue
        limit = given.get("placementPerTerritory", "")
        rules[str(att.get("attachTo"))] = {
            "move_only_in": allowed, "free_units": {"type": "infantry", "per_territories": int(per)},
            "no_treasury": True, "place_in_any_territory": given.get("placementAnyTerritory") == "true",
            "place_in_captured": given.get("placementCapturedTerritory") == "true",
            **({"place_not_where_units_at_least": int(limit)} if limit.isdigit() else {}),
        }
    return rules


def victory(properties: dict[str, str]) -> dict[str, Any] | None:
    """The smallest victory setting that is on, and the cities it needs (None: none is on)."""
    on = [name for name in VICTORY_SETTINGS if properties.get(name, "").strip().lower() == "true"]
    return {"setting": on[0], "cities": VICTORY_SETTINGS[on[0]]} if on else None


def victory_option(setting: str) -> str:
    """The value of the option ``victory`` for one of TripleA's victory settings (``Total Victory`` ->
    ``total_victory``)."""
    return setting.lower().replace(" ", "_")


def sequence(root: Any, powers: list[str]) -> list[dict[str, str]] | None:
    """The phases of a round in the order of the game's steps, when it is not each power's five in turn
    (the Chinese inside the Americans' turn); None when it is, or when a power lacks one of its phases."""
    classes = {d.get("name", ""): d.get("javaClass", "").rsplit(".", 1)[-1] for d in root.findall("gamePlay/delegate")}
    steps = []
    for step in root.findall("gamePlay/sequence/step"):
        player, delegate = step.get("player"), classes.get(step.get("delegate", ""), "")
        if player not in powers:
            continue
        if delegate == "MoveDelegate":
            phase = "noncombat_move" if "noncombat" in step.get("name", "").lower() else "combat_move"
        else:
            phase = PHASE_OF_DELEGATE.get(delegate, "")
        if phase:
            steps.append({"power": player, "phase": phase})
    if any([s["phase"] for s in steps if s["power"] == p] != PHASES for p in powers):
        return None
    default = [{"power": p, "phase": ph} for p in powers for ph in PHASES]
    return None if steps == default else steps


__all__ = ["ANNIVERSARY_MAP", "objectives", "options_with_counts", "player_rules", "sequence", "victory",
           "victory_option"]
