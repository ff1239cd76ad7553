"""Convert a TripleA game file (XML) into a movecheck aa map (``movecheck import triplea``).

A game file comes from a stranger: it is read with :mod:`defusedxml` (no entity
expansion, no external entities, no DTD retrieval), within ``MOVECHECK_MAX_BYTES``,
and anything wrong with it is an :class:`~movecheck.reading.InputError` (one line,
exit 2), never a traceback.

What is converted: territories (water, impassable, unowned land as neutral), connections,
canals (``canalAttachment*`` on the sea zones: ``canalName``, ``landTerritories``),
players in turn order (the game's turn steps, its bids left out) and their alliances (the
sides), unit types (``unitAttachment``: movement, attack, defense, air/sea, transport and carrier capacity
and cost, blitz, submarine, destroyer, infantry; the cost from the production rules),
production, capitals and original owners (``territoryAttachment``), initial owners and units, and the
rule options the game's settings give (:mod:`movecheck.aa.triplea.rules`).  What
movecheck does not model is listed (:attr:`Conversion.unmodelled`), and so are the
choices the conversion made (:attr:`Conversion.notes`); the edition is named only for a
game known to be played under it (:func:`~movecheck.aa.triplea.rules.edition_for`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from movecheck.aa.editions import UNIT_ALIASES
from movecheck.aa.options import OPTIONS
from movecheck.aa.triplea import objectives as triplea_objectives
from movecheck.aa.triplea.abilities import aa_ability, support_rule
from movecheck.aa.triplea.objectives import ANNIVERSARY_MAP
from movecheck.aa.triplea.report import Conversion
from movecheck.aa.triplea.rules import (
    ATTACHMENT_UNMODELLED,
    CANAL_UNMODELLED,
    POLITICS,
    TECHNOLOGY,
    TERRITORY_UNMODELLED,
    UNIT_UNMODELLED,
    Reading,
    aa_capture,
    caveats,
    combat_move,
    edition_for,
    fold_name,
    game_properties,
    neutrals_closed,
    open_neutrals,
    read_settings,
    turn_order,
)
from movecheck.aa.triplea.rules import (
    clean as _clean,
)
from movecheck.aa.triplea.xmlread import Game, options_of
from movecheck.i18n import _

__all__ = ["convert", "movecheck_type", "space_key", "victory_city"]
"""The conversion (:func:`convert`), with the reading of the file and the writing of the map it uses."""

SEA_ZONE = re.compile(r"(\d+) Sea Zone")


def movecheck_type(name: str) -> str:
    """The movecheck name of a TripleA unit type (``armour`` -> ``tank``, ``aaGun`` -> ``aa_gun``)."""
    return UNIT_ALIASES.get(name) or UNIT_ALIASES.get(name.lower()) or name


def space_key(name: str, sea: bool) -> tuple[Any, ...]:
    """Sea zones first (``N Sea Zone`` by number), then land territories, by name."""
    match = SEA_ZONE.fullmatch(name)
    if sea:
        return (0, int(match.group(1)) if match else 10**18, name)
    return (1, 0, name)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --- the conversion --------------------------------------------------------------------------


def convert(root: Any, name: str) -> Conversion:
    """The movecheck map of a parsed game file (``name``: the file, for messages)."""
    game = Game(root, name)
    missing: Counter[str] = Counter()  # what movecheck does not model
    choices: dict[str, None] = {}  # what the conversion chose, in the order found
    info = root.find("info")
    game_name = _clean(info.get("name", "")) if info is not None else ""
    version = _clean(info.get("version", "")) if info is not None else ""

    # territories and connections
    sea: dict[str, bool] = {}
    for t in root.findall("map/territory"):
        tname = game.attr(t, "name")
        if tname in sea:
            raise game.fail(_("territory {tname} is declared twice").format(tname=repr(tname)))
        sea[tname] = game.flag(t.get("water", "false"))
    if not sea:
        raise game.fail("the game has no territories (<map><territory>)")
    order = {n: space_key(n, s) for n, s in sea.items()}
    pairs: set[tuple[str, str]] = set()
    for c in root.findall("map/connection"):
        a, b = game.attr(c, "t1"), game.attr(c, "t2")
        for end in (a, b):
            if end not in sea:
                raise game.fail(
                    _("connection {a} - {b}: unknown territory {end}").format(a=repr(a), b=repr(b), end=repr(end))
                )
        if a == b:
            raise game.fail(_("connection {a} - {b} joins a territory to itself").format(a=repr(a), b=repr(b)))
        first, second = sorted((a, b), key=order.__getitem__)
        pairs.add((first, second))
    connections = [list(p) for p in sorted(pairs, key=lambda p: (order[p[0]], order[p[1]]))]

    # players, turn order, alliances
    players = [game.attr(p, "name") for p in root.findall("playerList/player")]
    if not players:
        raise game.fail("the game has no players (<playerList><player>)")
    if len(set(players)) != len(players):
        raise game.fail("a player is declared twice")
    turn, idle = turn_order(root, players)
    powers = turn + idle
    if not turn:
        choices["the game has no turn steps: the powers are in the order of its player list"] = None
    elif idle:
        choices[f"players who take no turn in the game's sequence ({', '.join(idle)}: last in the powers)"] = None
    alliances: dict[str, list[str]] = {}
    side_of: dict[str, str] = {}
    for a in root.findall("playerList/alliance"):
        player, alliance = game.attr(a, "player"), game.attr(a, "alliance")
        if player not in players:
            raise game.fail(
                _("alliance {alliance}: unknown player {player}").format(alliance=repr(alliance), player=repr(player))
            )
        if player in side_of and side_of[player] != alliance:
            choices[f"a player in more than one alliance ({player} is kept in {side_of[player]})"] = None
            continue
        side_of[player] = alliance
        alliances.setdefault(alliance, [])
        if player not in alliances[alliance]:
            alliances[alliance].append(player)
    for player in powers:
        if player not in side_of:
            choices[f"a player in no alliance ({player} forms a side of its own)"] = None
            alliances.setdefault(player, []).append(player)
    rank = {p: i for i, p in enumerate(powers)}
    sides = {s: sorted(members, key=rank.__getitem__) for s, members in sorted(alliances.items())}

    # unit types
    unit_names = [game.attr(u, "name") for u in root.findall("unitList/unit")]
    cost: dict[str, int] = {}
    for rule in root.iter("productionRule"):
        results = rule.findall("result")
        costs = [c for c in rule.findall("cost") if c.get("resource") == "PUs"]
        if len(results) == 1 and len(costs) == 1 and results[0].get("quantity", "1").strip() == "1":
            unit = results[0].get("resourceOrUnit", "")
            if unit in unit_names and unit not in cost:
                cost[unit] = game.number(costs[0].get("quantity", ""), f"production rule {rule.get('name')!r}")
    unit_options: dict[str, dict[str, str]] = {}
    territory_options: dict[str, dict[str, str]] = {}
    canal_parts: dict[str, list[tuple[str, dict[str, str]]]] = {}
    support_options: dict[str, list[dict[str, str]]] = {}
    for att in root.findall("attachmentList/attachment"):
        kind, target = att.get("name", ""), att.get("attachTo", "")
        given = options_of(att)
        if kind == "unitAttachment":
            if target not in unit_names:
                raise game.fail(_("unitAttachment of unknown unit type {target}").format(target=repr(target)))
            unit_options.setdefault(target, {}).update(given)
        elif kind == "territoryAttachment":
            if target not in sea:
                raise game.fail(_("territoryAttachment of unknown territory {target}").format(target=repr(target)))
            territory_options.setdefault(target, {}).update(given)
        elif kind.startswith("canalAttachment"):
            if not sea.get(target):
                raise game.fail(_("{kind} of {target}, which is not a sea zone").format(kind=kind, target=repr(target)))
            canal_parts.setdefault(given.get("canalName", kind), []).append((target, given))
        elif kind.startswith("supportAttachment") and target in unit_names:
            support_options.setdefault(target, []).append(given)
        elif kind == "techAttachment":
            if any(game.flag(value) for value in given.values()):
                missing[TECHNOLOGY] += 1  # a player starts with an advance
        else:
            for prefix, what in ATTACHMENT_UNMODELLED.items():
                if kind.startswith(prefix):
                    missing[what] += 1
    unit_types: dict[str, dict[str, Any]] = {}
    renamed: dict[str, str] = {}
    for tname in unit_names:
        new = movecheck_type(tname)
        if new in unit_types:
            raise game.fail(
                _("unit types {tname} and another both mean {new}").format(tname=repr(tname), new=repr(new))
            )
        renamed[tname] = new
        unit_types[new] = _unit_type(game, tname, unit_options.get(tname, {}), cost.get(tname), missing)
        rules = [support_rule(game, new, given, movecheck_type, missing) for given in support_options.get(tname, [])]
        if any(rules):
            unit_types[new]["support"] = [r for r in rules if r]
    types_given = {renamed[n]: (n, unit_options.get(n, {})) for n in unit_names}
    readings = combat_move(types_given, missing)

    # territories, control, canals
    owners: dict[str, str] = {}
    for o in root.findall("initialize/ownerInitialize/territoryOwner"):
        where, owner = game.attr(o, "territory"), game.attr(o, "owner")
        if where not in sea:
            raise game.fail(_("territoryOwner: unknown territory {where}").format(where=repr(where)))
        if owner not in players:
            raise game.fail(
                _("territoryOwner of {where}: unknown player {owner}").format(where=repr(where), owner=repr(owner))
            )
        owners[where] = owner
    territories = []
    control: dict[str, str] = {}
    neutral_land = impassable_land = 0
    for tname in sorted(sea, key=order.__getitem__):
        entry: dict[str, Any] = {"name": tname}
        given = territory_options.get(tname, {})
        for option in given:
            if option in TERRITORY_UNMODELLED:
                missing[TERRITORY_UNMODELLED[option]] += 1
        if sea[tname]:
            entry["sea"] = True
            territories.append(entry)
            continue
        impassable = game.flag(given.get("isImpassable", "false"))
        if impassable or tname not in owners:
            entry["neutral"] = True
            neutral_land += not impassable
            impassable_land += impassable
        else:
            control[tname] = owners[tname]
            original = _original_owner(game, tname, given, players)
            if original is not None and original != owners[tname]:
                entry["original_owner"] = original
        production = game.number(given.get("production", "0"), f"production of {tname!r}")
        if production > 0:
            entry["production"] = production
        capital = given.get("capital", "").strip()
        if capital:
            if capital not in players:
                raise game.fail(
                    _("{tname} is the capital of unknown player {capital}").format(
                        tname=repr(tname), capital=repr(capital)
                    )
                )
            entry["capital"] = capital
        if victory_city(given.get("victoryCity", "")):
            entry["victory_city"] = True
        territories.append(entry)
    canals = []
    for cname, parts in sorted(canal_parts.items()):
        zones = sorted({z for z, _ in parts}, key=order.__getitem__)
        land: set[str] = set()
        for _zone, given in parts:
            land.update(t for t in given.get("landTerritories", "").split(":") if t)
            for option in given:
                if option in CANAL_UNMODELLED:
                    missing[CANAL_UNMODELLED[option]] += 1
        for t in land:
            if t not in sea or sea[t]:
                raise game.fail(_("canal {cname}: {t} is not a land territory").format(cname=repr(cname), t=repr(t)))
        if len(zones) != 2 or tuple(zones) not in pairs:
            choices[f"canal {cname} left out: it joins {len(zones)} sea zones that are not one connected pair"] = None
            continue
        canals.append({"name": cname, "sea_zones": zones, "land": sorted(land)})

    # units
    stacks: Counter[tuple[Any, ...]] = Counter()
    for p in root.findall("initialize/unitInitialize/unitPlacement"):
        kind, where = game.attr(p, "unitType"), game.attr(p, "territory")
        owner = p.get("owner")
        quantity = game.number(game.attr(p, "quantity"), f"unitPlacement of {kind!r} in {where!r}")
        if kind not in renamed:
            raise game.fail(_("unitPlacement: unknown unit type {kind}").format(kind=repr(kind)))
        if where not in sea:
            raise game.fail(_("unitPlacement: unknown territory {where}").format(where=repr(where)))
        if not owner:
            missing["units that belong to no player (neutral units; left out)"] += 1
            continue
        if owner not in players:
            raise game.fail(
                _("unitPlacement in {where}: unknown player {owner}").format(where=repr(where), owner=repr(owner))
            )
        if quantity <= 0:
            continue
        stacks[(where, owner, renamed[kind])] += quantity
    units = [{"at": at, "power": owner, "type": kind, "count": n} for (at, owner, kind), n in sorted(stacks.items())]

    # the starting treasuries: each player's PUs (resourceGiven), in turn order
    given_pus: dict[str, int] = {}
    for r in root.findall("initialize/resourceInitialize/resourceGiven"):
        player = r.get("player")
        if r.get("resource") == "PUs" and player in players:
            quantity = game.number(game.attr(r, "quantity"), f"PUs of {player!r}")
            given_pus[player] = given_pus.get(player, 0) + max(quantity, 0)
    treasuries = {p: given_pus.get(p, 0) for p in powers} if given_pus else {}

    # the game's settings: rule options, and the rules movecheck does not check
    properties = game_properties(root)
    given_options, pending = read_settings(properties, OPTIONS)
    edition, reason = edition_for(game_name)
    if fold_name(properties.get("mapName", "")) == ANNIVERSARY_MAP:
        edition, reason = "aa-anniversary", "the game's mapName is world_war_ii_v3: TripleA's Anniversary edition"
    readings = sorted(
        [*readings, *aa_capture(types_given, properties, edition),
         *neutrals_closed(given_options, impassable_land, neutral_land, missing)],
        key=lambda r: OPTIONS.names().index(r.option),
    )
    if neutral_land and not next(r.value for r in readings if r.option == "neutrals_impassable"):
        missing.update(open_neutrals(properties))
    for what in caveats(properties, any(u.get("submarine") for u in unit_types.values())):
        missing[what] += 1
    if root.find("initialize/relationshipInitialize") is not None:
        missing[POLITICS] += 1

    slug = _slug(game_name) or _slug(os.path.splitext(os.path.basename(name))[0]) or "triplea"
    doc: dict[str, Any] = {"movecheck": 1, "system": "aa", "kind": "map", "name": slug}
    if edition:
        doc["edition"] = edition
    if game_name:
        doc["title"] = game_name
    source = f"TripleA game file {_clean(os.path.basename(name))}"
    doc["source"] = source + (f", version {version}" if version else "")
    if readings:
        doc["options"] = {r.option: r.value for r in readings}
    doc.update({"powers": powers, "sides": sides})
    if treasuries:
        doc["ipcs"] = treasuries
    doc.update({"territories": territories, "connections": connections})
    if control:
        doc["control"] = control
    if canals:
        doc["canals"] = canals
    if units:
        doc["units"] = units
    if unit_types:
        doc["unit_types"] = unit_types
    won = _anniversary_facts(doc, root, properties, missing)
    if won is not None:  # the victory setting the game turns on is the map's option (a configuration may choose)
        readings.append(won)
        doc["options"] = {**doc.get("options", {}), won.option: won.value}
    return Conversion(doc, edition, reason, sorted(missing), readings, pending, list(choices))


def _anniversary_facts(doc: dict[str, Any], root: Any, properties: dict[str, str],
                       missing: Counter[str]) -> Reading | None:
    """The turn's steps where China plays inside the Americans' turn, the National Objectives, a player's own
    rules and the victory condition (:mod:`movecheck.aa.triplea.objectives`), where the game has them; the
    option ``victory`` the game's settings give (None: the game has no victory cities or no setting on)."""
    names = {t["name"] for t in doc["territories"]}
    steps = triplea_objectives.sequence(root, doc["powers"])
    if steps:
        doc["sequence"] = steps
    found = triplea_objectives.objectives(root, doc["powers"], names, missing)
    if found:
        doc["national_objectives"] = found
    rules = triplea_objectives.player_rules(root, doc["powers"], names)
    if rules:
        doc["player_rules"] = rules
        key = ATTACHMENT_UNMODELLED["rulesAttachment"]
        missing[key] -= len(rules)
        if missing[key] <= 0:
            del missing[key]
    won = triplea_objectives.victory(properties)
    if not won or not any(t.get("victory_city") for t in doc["territories"]):
        return None
    doc["victory"] = won
    on = ", ".join(f"{name}: true" for name in triplea_objectives.VICTORY_SETTINGS
                   if properties.get(name, "").strip().lower() == "true")
    return Reading("victory", triplea_objectives.victory_option(won["setting"]), on)


def victory_city(value: str) -> bool:
    """Whether a territory's ``victoryCity`` makes it a victory city: TripleA reads it as a number of cities (its
    own games write ``1``), older files as ``true``."""
    text = value.strip().lower()
    return text == "true" or (text.isdigit() and int(text) > 0)


def _original_owner(game: Game, tname: str, given: dict[str, str], players: list[str]) -> str | None:
    """A territory's ``originalOwner`` (the power liberation returns it to), None where the game gives none."""
    original = given.get("originalOwner", "").strip()
    if not original:
        return None
    if original not in players:
        raise game.fail(_("the original owner of {tname} is unknown player {owner}").format(
            tname=repr(tname), owner=repr(original)))
    return original


def _unit_type(game: Game, name: str, given: dict[str, str], cost: int | None, missing: Counter[str]) -> dict[str, Any]:
    """A movecheck unit type from a TripleA ``unitAttachment``."""

    def num(key: str, default: int = 0) -> int:
        return game.number(given[key], f"{key} of {name!r}") if key in given else default

    air, sea = game.flag(given.get("isAir", "false")), game.flag(given.get("isSea", "false"))
    if air and sea:
        raise game.fail(_("unit type {name} is both isAir and isSea").format(name=repr(name)))
    domain = "air" if air else "sea" if sea else "land"
    out: dict[str, Any] = {
        "movement": max(num("movement"), 0),
        "attack": max(num("attack"), 0),
        "defense": max(num("defense"), 0),
        "domain": domain,
    }
    if cost is not None and cost >= 0:
        out["cost"] = cost
    if domain == "land" and num("transportCost", -1) > 0:
        out["transport_cost"] = num("transportCost")
    if domain == "sea" and num("transportCapacity", -1) > 0:
        out["transport_capacity"] = num("transportCapacity")
    if num("carrierCapacity", -1) > 0:
        out["carrier_capacity"] = num("carrierCapacity")
    if num("carrierCost", -1) > 0:
        out["carrier_cost"] = num("carrierCost")
    if game.flag(given.get("canBlitz", "false")):
        out["blitz"] = True
    if game.flag(given.get("isSub", "false")):
        out["submarine"] = True
    if game.flag(given.get("isDestroyer", "false")):
        out["destroyer"] = True
    if game.flag(given.get("isInfantry", "false")):
        out["infantry"] = True
    if num("hitPoints", 1) > 1:
        out["hit_points"] = num("hitPoints")
    out.update(_battle_abilities(game, given, out, num))
    for option, value in given.items():
        if option == "canMoveThroughEnemies" and out.get("submarine"):
            continue  # a submarine's passage through hostile zones is modelled (AA204)
        if option in UNIT_UNMODELLED and value.strip().lower() not in ("false", "0", "-1", ""):
            missing[UNIT_UNMODELLED[option]] += 1
    aa = aa_ability(game, name, given, movecheck_type)
    if aa is not None and movecheck_type(name) != "aa_gun":  # aa_gun: the edition's AA gun rules
        out["aa"] = aa
        missing[f"anti-aircraft unit type {name} (only its AA fire in battle is modelled; the moves and raids "
                "of an AA gun apply to aa_gun only)"] += 1
    return out


def _battle_abilities(game: Game, given: dict[str, str], out: dict[str, Any],
                      num: Callable[[str, int], int]) -> dict[str, Any]:
    """The battle abilities of a ``unitAttachment`` the battle model reads: bombardment, first strike (a
    submarine's is its ``submarine``), the types it cannot hit or be hit by, artillery support."""
    found: dict[str, Any] = {}
    if out["domain"] == "sea" and game.flag(given.get("canBombard", "false")):
        value = num("bombard", -1) if num("bombard", -1) > 0 else out["attack"]
        if value > 0:
            found["bombard"] = value
    if game.flag(given.get("isFirstStrike", "false")) and not game.flag(given.get("isSub", "false")):
        found["first_strike"] = True
    for option, key in (("canNotTarget", "can_not_target"), ("canNotBeTargetedBy", "can_not_be_targeted_by")):
        names = sorted({movecheck_type(n.strip()) for n in given.get(option, "").split(":") if n.strip()})
        if names:
            found[key] = names
    if game.flag(given.get("isArtillery", "false")):
        found["artillery"] = True
    if game.flag(given.get("isArtillerySupportable", "false")):
        found["artillery_supportable"] = True
    return found


def add_layout(conversion: Conversion, folder: str) -> None:
    """Give the converted map the layout of its TripleA map folder (``import triplea --map-folder``)."""
    from movecheck.aa.picture.layout import read_map_folder

    names = [str(t["name"]) for t in conversion.map.get("territories", [])]
    layout, notes = read_map_folder(folder, names)
    conversion.notes.extend(_clean(note) for note in notes)
    if layout is not None:
        conversion.map["layout"] = layout.as_data()
