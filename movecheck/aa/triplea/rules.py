"""The rules of a TripleA game as movecheck sees them (for ``movecheck import triplea``).

A TripleA game keeps its rules in ``<propertyList>``: ``<property name="Submersible Subs"
value="true" editable="false"><boolean/></property>`` (the value may also be the text of a
``<value>`` child).  TripleA reads a property the file does not set as false
(``games.strategy.triplea.Properties``: "These should always default to false"), and so
does this module.

:data:`SETTINGS` says, one declaration per movecheck option, which settings give the
option and how.  A declaration may name an option movecheck does not have yet: its
settings are read and listed as such, and the option is written into converted maps as
soon as :mod:`movecheck.aa.options` declares it.  :data:`CAVEATS` are the settings whose
rule movecheck does not check, and the ``*_UNMODELLED`` tables the unit, territory, canal
and attachment options (each a "not modelled" note).  :func:`turn_order` reads whose turn
comes when from the game's sequence, :func:`edition_for` the edition a game's name names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

IGNORE_TRANSPORTS = "Ignore Transport In Movement"
IGNORE_SUBS = "Ignore Sub In Movement"
SUBMERSIBLE = "Submersible Subs"
LHTR_CARRIERS = "LHTR Carrier production rules"
NEUTRALS_IMPASSABLE = "Neutrals Are Impassable"

# unitAttachment options that change movement in TripleA and that movecheck does not model
UNIT_UNMODELLED = {
    "isAirTransport": "air transport of land units (paratroopers)",
    "isAirTransportable": "air transport of land units (paratroopers)",
    "isLandTransport": "land transport (mechanised infantry carried by tanks)",
    "isLandTransportable": "land transport (mechanised infantry carried by tanks)",
    "isKamikaze": "kamikaze units",
    "isSuicide": "suicide units",
    "isSuicideOnAttack": "suicide units",
    "movementLimit": "limits on how many units may move into a territory",
    "canInvadeOnlyFrom": "units that may invade only from some transports",
    "requiresUnitsToMove": "units that need other units to move",
    "fuelCost": "fuel costs of movement",
    "fuelFlatCost": "fuel costs of movement",
    "canMoveThroughEnemies": "units that move through enemy units",
    "canBeMovedThroughByEnemies": "units that enemies may move through",
    "isAirBase": "air and naval bases (movement bonus, scrambling)",
    "givesMovement": "units that give or take movement (air and naval bases)",
    "isCombatTransport": "transports that fight",
    "isConstruction": "constructions (placed units with their own rules)",
    "canScramble": "scrambling aircraft",
    "maxScrambleDistance": "scrambling aircraft",
}
TERRITORY_UNMODELLED = {
    "navalBase": "air and naval bases (movement bonus, scrambling)",
    "airBase": "air and naval bases (movement bonus, scrambling)",
    "kamikazeZone": "kamikaze zones",
    "blockadeZone": "blockade zones",
    "convoyRoute": "convoy routes",
    "territoryEffect": "territory effects (terrain that changes movement or combat)",
    "changeUnitOwners": "units that change owner when a territory is captured",
    "captureUnitOnEnteringBy": "units captured on entering",
    "whenCapturedByGoesTo": "territories that go to another power when captured",
    "unitProduction": "territory unit production",
}
CANAL_UNMODELLED = {
    "excludedUnits": "canals some units may cross without holding them (excludedUnits)",
    "canNotMoveThroughDuringCombatMove": "canals closed during combat move",
}
POLITICS = "political relations (the sides are the game's alliances)"
TECHNOLOGY = "technology (advances that change movement: jet power, long-range aircraft, ...)"
# unit options that keep a unit type out of combat move: AA108 for AA guns (aa_guns_move_in_combat)
NO_COMBAT_MOVE = ("canNotMoveDuringCombatMove", "isAA", "isAAmovement")
# attachment names (prefixes) whose whole kind movecheck does not model (a player's techAttachment:
# only the advances it gives at the start)
ATTACHMENT_UNMODELLED = {
    "triggerAttachment": "triggers",
    "conditionAttachment": "conditions (rules attachments)",
    "rulesAttachment": "national objectives and rules attachments",
    "politicalActionAttachment": POLITICS,
    "userActionAttachment": "user actions",
    "relationshipTypeAttachment": POLITICS,
    "playerAttachment": "player attachments (capitals, retained units, ...)",
    "supportAttachment": "support attachments",
}


@dataclass(frozen=True)
class Setting:
    """A movecheck option made of TripleA settings: ``value`` takes each one's value (None: not set), in order."""

    option: str
    reads: tuple[str, ...]
    value: Callable[..., Any]


def setting(option: str, *reads: str, value: Callable[..., Any] = bool) -> Setting:
    """The declaration of an option (by default: the one setting it reads, false when not set)."""
    return Setting(option, reads, value)


SETTINGS = (
    # TripleA ignores enemy transports and submarines in movement separately; movecheck has one
    # switch for both: zones stay open to them only when TripleA ignores both (a CAVEAT otherwise)
    setting("sub_transport_zones_hostile", IGNORE_TRANSPORTS, IGNORE_SUBS,
            value=lambda transports, subs: not (transports and subs)),
    setting("subs_may_end_ncm_in_hostile", "Subs Can End NonCombat Move With Enemies"),
    setting("neutrals_impassable", NEUTRALS_IMPASSABLE),
    setting("land_on_new_carrier", "Land existing fighters on new carriers", LHTR_CARRIERS,
            value=lambda land, lhtr: bool(land or lhtr)),
    setting("partial_amphibious_retreat", "Partial Amphibious Retreat"),
    setting("subs_may_submerge", SUBMERSIBLE),
    # the options of spec/aa-turn.md ("Options added by this file")
    setting("place_in_enemy_seas", "Unit Placement In Enemy Seas", "WW2V2",
            value=lambda enemy_seas, ww2v2: bool(enemy_seas or ww2v2)),
    setting("move_existing_fighters_to_new_carriers", "Move existing fighters to new carriers", LHTR_CARRIERS,
            value=lambda move, lhtr: bool(move and not lhtr)),
    # TripleA's placement ignores this setting: a new fighter always may take a carrier already there
    setting("new_fighters_on_old_carriers", "Produce new fighters on old carriers", value=lambda _ignored: True),
    setting("unplaced_units", "Unplaced units live when not placed", value=lambda live: "kept" if live else "lost"),
    # TripleA falls back on the setting's older name when the file does not set it
    setting("factory_damage", "Damage From Bombing Done To Units Instead Of Territories", "SBR Affects Unit Production",
            value=lambda damage, older: bool(older if damage is None else damage)),
    # Low Luck (spec aa-battle.md, "Low Luck")
    setting("low_luck", "Low Luck"),
    setting("low_luck_aa", "Low Luck for AntiAircraft"),
    setting("low_luck_bombing", "Low Luck for Bombing and Territory Damage"),
)

# settings that change movement, each with what movecheck does not check when it is on
CAVEATS: tuple[tuple[Callable[[Callable[[str], bool]], bool], str], ...] = (
    (
        lambda on: on(IGNORE_TRANSPORTS) != on(IGNORE_SUBS),
        "enemy transports and submarines ignored in movement apart (Ignore Transport In Movement, Ignore Sub In "
        "Movement): movecheck lets both make a zone hostile",
    ),
    (
        lambda on: not on(SUBMERSIBLE) and on(HAS_SUBMARINES),
        "submarines that every enemy ship stops (Submersible Subs is false): "
        "movecheck stops them only at an enemy destroyer",
    ),
    (lambda on: on("Tech Development"), TECHNOLOGY),
    (lambda on: on("Use Politics"), POLITICS),
    (lambda on: on("Kamikaze Airplanes"), "kamikaze aircraft"),
    (lambda on: on("Movement By Territory Restricted"), "limits on movement by territory"),
    (lambda on: on("Territory Turn Limit"), "territory turn limits"),
    (lambda on: on("Naval Bases") or on("Air Bases"), "air and naval bases (movement bonus, scrambling)"),
    (lambda on: on("Scramble Rules In Effect"), "scrambling aircraft"),
    (lambda on: on("Paratroopers Can Move During Non Combat"), "air transport of land units (paratroopers)"),
    (lambda on: on("Use Fuel Cost"), "fuel costs of movement"),
)


def open_neutrals(properties: dict[str, str]) -> list[str]:
    """What TripleA asks of units entering neutral territories that movecheck, with them open, does not."""
    charge = properties.get("neutralCharge", "")
    notes = ["paying to enter neutral territories" + (f" (neutralCharge {clean(charge, 40)})" if charge else "")]
    if not is_on(properties.get("Neutrals Are Blitzable")):
        notes.append(
            "land units stopping in the first neutral territory they enter (Neutrals Are Blitzable is not true)"
        )
    if not is_on(properties.get("Neutral Flyover Allowed")):
        notes.append("aircraft kept from flying over neutral territories (Neutral Flyover Allowed is not true)")
    return notes


def clean(text: Any, limit: int | None = None) -> str:
    """One line of printable text, at most ``limit`` characters (names and values go into comments and stderr)."""
    line = " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())
    return line if limit is None or len(line) <= limit else line[: limit - 3] + "..."


def game_properties(root: Any) -> dict[str, str]:
    """Each setting of ``<propertyList>`` by name: its ``value=``, else the text of its ``<value>`` (the last one
    of a name wins)."""
    found: dict[str, str] = {}
    for prop in root.findall("propertyList/property"):
        name = prop.get("name")
        if not name:
            continue
        value = prop.get("value")
        if value is None:
            child = prop.find("value")
            value = child.text if child is not None and child.text else ""
        found[name] = value.strip()
    return found


def is_on(value: str | None) -> bool:
    """A setting's (or unit option's) truth as TripleA reads it (``Boolean.parseBoolean``)."""
    return value is not None and value.strip().lower() == "true"


def shown(name: str, properties: dict[str, str]) -> str:
    """``NAME: value`` of a setting, or ``NAME: not set`` (false in TripleA)."""
    value = properties.get(name)
    return f"{name}: {clean(value, 40)}" if value is not None else f"{name}: not set"


@dataclass(frozen=True)
class Reading:
    """One option the settings give: its value and the settings it came from, as the map's header says it."""

    option: str
    value: Any
    because: str


def read_settings(properties: dict[str, str], declared: Any) -> tuple[list[Reading], list[Reading]]:
    """The options the settings give that ``declared`` (an option set) has, and those it does not have yet."""
    def flag(name: str) -> bool | None:
        return is_on(properties[name]) if name in properties else None

    have: list[Reading] = []
    pending: list[Reading] = []
    for entry in SETTINGS:
        value = entry.value(*(flag(name) for name in entry.reads))
        reading = Reading(entry.option, value, ", ".join(shown(name, properties) for name in entry.reads))
        (have if entry.option in declared else pending).append(reading)
    order = {name: i for i, name in enumerate(declared.names())}
    return sorted(have, key=lambda r: order[r.option]), pending


HAS_SUBMARINES = "(the game has submarines)"
"""Not a setting: true for :func:`caveats` when the game has a submarine unit type."""


def caveats(properties: dict[str, str], submarines: bool) -> list[str]:
    """What movecheck does not check of the rules these settings switch on (``submarines``: the game has some)."""
    def on(name: str) -> bool:
        return submarines if name == HAS_SUBMARINES else is_on(properties.get(name))

    return [text for applies, text in CAVEATS if applies(on)]


# --- whose turn, and what the units and territories say --------------------------------------


BID_DELEGATES = ("BidPurchaseDelegate", "BidPlaceDelegate")
BID_NAME = re.compile(r"bid(?:place|purchase)?$|^(?:place|purchase)?bid", re.IGNORECASE)


def one_off(step: Any, delegates: dict[str, str]) -> bool:
    """A step of the game's start, not of every round: run a limited number of times
    (``maxRunCount``), or a bid (its delegate a bid purchase or placement, or so named)."""
    runs = step.get("maxRunCount", "").strip()
    if runs.isdigit() and int(runs) > 0:
        return True
    delegate = step.get("delegate", "")
    if delegates.get(delegate, "").rsplit(".", 1)[-1] in BID_DELEGATES:
        return True
    return any(BID_NAME.search(text) for text in (delegate, step.get("name", "")))


def turn_order(root: Any, players: list[str]) -> tuple[list[str], list[str]]:
    """The players who take turns, in the order of their first step in the game's sequence
    (one-off steps left out), and the players who take none, in the player list's order."""
    delegates = {d.get("name", ""): d.get("javaClass", "") for d in root.findall("gamePlay/delegate")}
    turn: list[str] = []
    for step in root.findall("gamePlay/sequence/step"):
        player = step.get("player")
        if player in players and player not in turn and not one_off(step, delegates):
            turn.append(player)
    return turn, [p for p in players if p not in turn]


def neutrals_closed(readings: list[Reading], impassable: int, passable: int, missing: Counter[str]) -> list[Reading]:
    """The options the settings give, neutrals kept closed where the game has impassable territories:
    movecheck makes them neutral too, and ``neutrals_impassable: false`` would open them."""
    out = []
    for reading in readings:
        if reading.option == "neutrals_impassable" and not reading.value and impassable:
            reading = Reading(
                reading.option,
                True,
                reading.because + "; kept closed: the game's impassable territories are neutral too",
            )
            if passable:
                missing["entering neutral territories that are not impassable (Neutrals Are Impassable is not "
                        "true, but movecheck closes every neutral as it closes the impassable ones)"] += 1
        out.append(reading)
    return out


def combat_move(types: dict[str, tuple[str, dict[str, str]]], missing: Counter[str]) -> list[Reading]:
    """``aa_guns_move_in_combat`` from the AA gun's unit options (TripleA: canNotMoveDuringCombatMove, which
    isAA and isAAmovement imply); the other unit types that may not move in combat move are not modelled."""
    readings, barred = [], []
    for new, (tname, given) in sorted(types.items()):
        flags = [key for key in NO_COMBAT_MOVE if is_on(given.get(key))]
        if new == "aa_gun":
            why = ", ".join(f"{key}: true" for key in flags) or "none of " + ", ".join(NO_COMBAT_MOVE)
            readings.append(Reading("aa_guns_move_in_combat", not flags, f"unit type {tname}: {why}"))
        elif flags:
            barred.append(tname)
    if barred:
        missing[f"unit types that may not move in combat move, AA guns apart ({', '.join(barred)})"] += 1
    return readings


def aa_capture(types: dict[str, tuple[str, dict[str, str]]], properties: dict[str, str],
               edition: str | None) -> list[Reading]:
    """``aa_guns_captured`` for a game with an AA gun type: true when TripleA makes the gun infrastructure
    (``isAA``, which implies ``isInfrastructure``, or ``isInfrastructure`` itself: captured with its territory)
    or the game is Revised (its edition by name, or its settings: ``WW2V2`` without ``WW2V3``); else false."""
    if "aa_gun" not in types:
        return []
    tname, given = types["aa_gun"]
    infrastructure = is_on(given["isInfrastructure"]) if "isInfrastructure" in given else is_on(given.get("isAA"))
    revised_settings = is_on(properties.get("WW2V2")) and not is_on(properties.get("WW2V3"))
    if infrastructure:
        why = f"unit type {tname}: " + ("isInfrastructure: true" if "isInfrastructure" in given else "isAA: true")
    elif edition == "aa-revised":
        why = "the game is Revised (its name)"
    elif revised_settings:
        why = "the game is Revised (WW2V2: true)"
    else:
        why = f"unit type {tname}: not infrastructure, and the game is not Revised"
    return [Reading("aa_guns_captured", bool(infrastructure or edition == "aa-revised" or revised_settings), why)]


# --- the edition a game's name names ---------------------------------------------------------

KNOWN_GAMES = {
    "world war ii revised": ("aa-revised", "TripleA's World War II Revised is Axis & Allies Revised"),
    "axis and allies revised": ("aa-revised", "the game name says Axis & Allies Revised"),
    "world war ii v5 1942 second edition": (
        "aa1942",
        "TripleA's World War II v5 1942 Second Edition is Axis & Allies 1942, second edition",
    ),
    "axis and allies 1942 second edition": ("aa1942", "the game name says Axis & Allies 1942, second edition"),
}
"""The games whose rules are an edition's, by folded name (:func:`fold_name`): no other game is guessed."""

FAMILIES = (
    (
        re.compile(r"\bworld war ii v3\b"),
        "TripleA's World War II v3 games are the Anniversary edition, named by the game's mapName "
        "(world_war_ii_v3), not by its name",
    ),
)
"""Names whose game is known to be none of movecheck's editions, with why."""


def fold_name(name: str) -> str:
    """A game's name compared loosely: lower case, ``&`` as ``and``, ``2nd`` as ``second``, words only."""
    text = name.lower().replace("&", " and ")
    text = re.sub(r"\b2nd\b", "second", text)
    return " ".join(re.findall(r"[a-z0-9]+", text))


def edition_for(game_name: str) -> tuple[str | None, str]:
    """The edition whose rules are the game's (by its name), and why; None when none is known to be."""
    folded = fold_name(game_name)
    if folded in KNOWN_GAMES:
        return KNOWN_GAMES[folded]
    if not game_name:
        return None, "the game has no name"
    for pattern, why in FAMILIES:
        if pattern.search(folded):
            return None, why
    return None, f"no movecheck edition is known to be the game {clean(game_name)!r}"
