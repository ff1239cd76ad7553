#!/usr/bin/env python3
"""Regenerate movecheck's built-in Axis & Allies maps from the TripleA-derived data.

The built-in maps ``movecheck/aa/maps/aa1942-2e.json`` and
``movecheck/aa/maps/aa-revised.json`` are generated files. Do not edit them by hand;
change this script (or the source data) and regenerate:

    python scripts/gen_maps.py                     # read ../shared/data, write the maps
    python scripts/gen_maps.py --shared DIR        # read the *.map.json files from DIR
    python scripts/gen_maps.py --check             # exit 1 if the committed maps are stale
                                                   #   (0, saying so, when there is no source folder)

The source directory defaults to ``data`` in the shared facts folder (``$MOVECHECK_SHARED``,
else ``<repo>/../shared``, else the nearest such folder further up); it holds
``aa1942-2e.map.json`` and ``aa-revised.map.json``
(players, alliances, territories, connections, owners, units, unit_stats, canals, resources, counts).

Each output file is a movecheck map document (``movecheck: 1``, ``system: aa``,
``kind: map``, see the "Files -> Map" section of the aa spec). The output is
deterministic: every list is sorted (sea zones by number before land territories by
name) and the JSON is written with ``indent=1`` and a trailing newline, so ``--check``
can detect drift byte for byte. While building, the script cross-checks the data (counts,
neutral territories, canal adjacency, unit locations) and fails loudly on anything
unexpected, including unknown unit types.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from shared_facts import shared_folder, without_facts  # noqa: E402

# ``data`` of the shared facts folder: $MOVECHECK_SHARED, else the first ``shared`` folder
# beside the repository or beside a folder holding it (see scripts/shared_facts.py)
DEFAULT_SHARED = shared_folder() / "data"
MAPS_DIR = REPO / "movecheck" / "aa" / "maps"
sys.path.insert(0, str(REPO))

from movecheck.aa.names import fold  # noqa: E402  (how movecheck compares two spellings)

# built-in map name -> source file in the shared data folder
MAPS = {
    "aa1942-2e": "aa1942-2e.map.json",
    "aa-revised": "aa-revised.map.json",
    "aa-anniversary-1941": "aa-anniversary-1941.map.json",
    "aa-anniversary-1942": "aa-anniversary-1942.map.json",
}

# built-in map name -> the rules edition it is drawn for (its ``edition`` key); an edition
# movecheck does not implement yet is named all the same (states on the map get a note)
MAP_EDITIONS = {
    "aa1942-2e": "aa1942",
    "aa-revised": "aa-revised",
    "aa-anniversary-1941": "aa-anniversary",
    "aa-anniversary-1942": "aa-anniversary",
}

# Numbers stated by the spec; checked in addition to the source's own `counts`.
EXPECTED = {
    "aa1942-2e": {
        "land_territories": 96,
        "neutral_land": 16,
        "sea_zones": 65,
        "connections": 403,
        "canals": 2,
        "units_total": 227,
    },
    "aa-revised": {
        "territories_total": 143,
        "connections": 349,
    },
    # spec aa-anniversary.md: 162 spaces (97 land of which 15 impassable, 65 sea), 407 connections
    "aa-anniversary-1941": {
        "territories_total": 162, "land_territories": 97, "impassable": 15, "sea_zones": 65, "connections": 407,
        "victory_cities": 18, "national_objectives": 17,
    },
    "aa-anniversary-1942": {
        "territories_total": 162, "land_territories": 97, "impassable": 15, "sea_zones": 65, "connections": 407,
        "victory_cities": 18, "national_objectives": 17,
    },
}

# TripleA unit type -> movecheck unit type, in the order the spec lists the types.
UNIT_TYPES = {
    "infantry": "infantry",
    "artillery": "artillery",
    "armour": "tank",
    "aaGun": "aa_gun",
    "factory": "factory",
    "fighter": "fighter",
    "bomber": "bomber",
    "transport": "transport",
    "submarine": "submarine",
    "destroyer": "destroyer",
    "cruiser": "cruiser",
    "carrier": "carrier",
    "battleship": "battleship",
}
TYPE_ORDER = list(UNIT_TYPES.values())

SEA_ZONE = re.compile(r"(\d+) Sea Zone")

# Territory abbreviations players write on forums, written as each territory's ``aliases``
# on every built-in map that has the territory. Powers, unit types and sea zones (``5 SZ``)
# are understood on every map (movecheck/aa/names.py); these are the map's own. "SA" stands
# for Saudi Arabia and for South Africa alike, so movecheck refuses it and names both.
TERRITORY_ABBREVIATIONS = {
    "Anglo Egypt": ("Egypt", "Anglo-Egypt"),
    "Anglo-Egyptian Sudan": ("AES", "Sudan"),
    "Baltic States": ("Baltics",),
    "Belorussia": ("Bel",),
    "Bulgaria Romania": ("Bulgaria", "Romania", "Balkans"),
    "Buryatia S.S.R.": ("Buryatia",),
    "Caroline Islands": ("Carolines", "Truk"),
    "Central United States": ("CUS", "Central US"),
    "Eastern Australia": ("EAus", "E Australia"),
    "Eastern Canada": ("ECan", "E Canada"),
    "Eastern Europe": ("EE", "E Europe"),
    "Eastern United States": ("EUS", "East US", "Eastern US"),
    "Evenki National Okrug": ("Evenki", "ENO"),
    "French Equatorial Africa": ("FEA",),
    "French Indo-China Thailand": ("FIC", "French Indo-China", "Indochina", "Thailand"),
    "French Indochina": ("FIC", "French Indo-China", "Indochina"),
    "French West Africa": ("FWA",),
    "Hawaiian Islands": ("Hawaii", "Hawaiis"),
    "Italian East Africa": ("IEA",),
    "Karelia S.S.R.": ("Karelia",),
    "Kazakh S.S.R.": ("Kazakh", "Kazakhstan"),
    "Northwestern Europe": ("NWE", "NW Europe"),
    "Philipine Islands": ("Philippines", "Philippine Islands", "Phil"),
    "Philippine Islands": ("Philippines", "Phil"),
    "Saudi Arabia": ("SA",),
    "Solomon Islands": ("Solomons",),
    "Southern Europe": ("SE", "S Europe"),
    "Soviet Far East": ("SFE",),
    "Spain Portugal": ("Spain", "Iberia"),
    "Trans-Jordan": ("TJ", "Transjordan", "Trans Jordan"),
    "Ukraine S.S.R.": ("Ukraine", "Ukr"),
    "Union of South Africa": ("SA", "South Africa", "SAF"),
    "United Kingdom": ("UK", "Britain"),
    "West Russia": ("WR", "W Russia"),
    "Western Australia": ("WAus", "W Australia"),
    "Western Canada": ("WCan", "W Canada"),
    "Western Europe": ("WE", "W Europe"),
    "Wake Island": ("Wake",),
    "Western United States": ("WUS", "West US", "Western US"),
    "Yakut S.S.R.": ("Yakut", "Yakutia"),
}


class MapDataError(ValueError):
    """The source data is inconsistent or not what this script expects."""


def check(condition: bool, message: str) -> None:
    """Fail loudly (independent of ``python -O``) when ``condition`` is false."""
    if not condition:
        raise MapDataError(message)


# --- spaces -----------------------------------------------------------------------------


def sea_number(name: str) -> int:
    match = SEA_ZONE.fullmatch(name)
    check(match is not None, f"sea zone {name!r} is not named 'N Sea Zone'")
    return int(match.group(1))


def space_key(territory: dict) -> tuple:
    """Order of spaces: sea zones by number, then land territories by name."""
    if territory.get("sea"):
        return (0, sea_number(territory["name"]), "")
    return (1, 0, territory["name"])


def is_neutral(source_territory: dict) -> bool:
    return bool(source_territory.get("neutral") or source_territory.get("impassable"))


def build_territory(t: dict) -> dict:
    out = {"name": t["name"]}
    if t.get("water"):
        check(not is_neutral(t), f"sea zone {t['name']!r} is marked neutral/impassable")
        check(not t.get("production") and not t.get("capital"),
              f"sea zone {t['name']!r} has production or a capital")
        sea_number(t["name"])
        out["sea"] = True
        return out
    check(SEA_ZONE.fullmatch(t["name"]) is None,
          f"land territory {t['name']!r} is named like a sea zone")
    if is_neutral(t):
        out["neutral"] = True
    if t.get("production", 0) > 0:
        out["production"] = t["production"]
    if t.get("capital"):
        out["capital"] = t["capital"]
    return out


def add_aliases(territories: list[dict]) -> None:
    """Give each territory its abbreviations, but not one spelt like a territory of the map (the Anniversary
    board has a territory Balkans, elsewhere an abbreviation of Bulgaria Romania)."""
    names = {fold(t["name"]) for t in territories}
    for t in territories:
        aliases = [a for a in TERRITORY_ABBREVIATIONS.get(t["name"], ()) if fold(a) not in names]
        if aliases:
            t["aliases"] = list(aliases)


def build_territories(src: dict) -> list[dict]:
    names = [t["name"] for t in src["territories"]]
    duplicates = sorted(n for n, k in Counter(names).items() if k > 1)
    check(not duplicates, f"duplicate territories: {duplicates}")
    territories = [build_territory(t) for t in src["territories"]]
    add_aliases(territories)
    powers = set(src["players"])
    for t in territories:
        if "capital" in t:
            check(t["capital"] in powers,
                  f"{t['name']!r}: capital of unknown power {t['capital']!r}")
    return sorted(territories, key=space_key)


def add_original_owners(territories: list[dict], src: dict) -> None:
    """Give each territory whose original owner (liberation returns it to them) is not its first holder
    its ``original_owner`` (TripleA's ``originalOwner``)."""
    original = {t["name"]: t["originalOwner"] for t in src["territories"] if t.get("originalOwner")}
    for t in territories:
        power = original.get(t["name"])
        if power is not None and power != src["owners"].get(t["name"]):
            check(power in src["players"], f"{t['name']!r}: original owner {power!r} is not a power")
            t["original_owner"] = power


def build_treasuries(src: dict) -> dict[str, int]:
    """Each power's starting treasury (the source's ``resources``: PUs), in turn order."""
    resources = src.get("resources") or {}
    treasuries = {}
    for power in src["players"]:
        given = resources.get(power, {})
        check(isinstance(given, dict), f"resources of {power!r} are not a mapping")
        pus = given.get("PUs", 0)
        check(isinstance(pus, int) and not isinstance(pus, bool) and pus >= 0, f"bad PUs of {power!r}: {pus!r}")
        treasuries[power] = pus
    unknown = sorted(set(resources) - set(src["players"]))
    check(not unknown, f"resources of unknown powers: {unknown}")
    return treasuries


# --- connections, control, sides, canals -------------------------------------------------


def build_connections(src: dict, order: dict[str, tuple]) -> list[list[str]]:
    pairs = set()
    for pair in src["connections"]:
        check(len(pair) == 2, f"connection {pair!r} is not a pair")
        a, b = pair
        check(a in order and b in order, f"connection {pair!r} names an unknown space")
        check(a != b, f"connection {pair!r} joins a space to itself")
        ordered = tuple(sorted((a, b), key=order.__getitem__))
        check(ordered not in pairs, f"duplicate connection {pair!r}")
        pairs.add(ordered)
    ordered_pairs = sorted(pairs, key=lambda p: (order[p[0]], order[p[1]]))
    return [list(p) for p in ordered_pairs]


def build_sides(src: dict) -> dict[str, list[str]]:
    turn = {p: i for i, p in enumerate(src["players"])}
    check(len(turn) == len(src["players"]), "a power appears twice in the turn order")
    alliances = src["alliances"]
    check(set(alliances) == {"Axis", "Allies"},
          f"expected alliances Axis and Allies, got {sorted(alliances)}")
    members = [p for side in alliances.values() for p in side]
    check(sorted(members) == sorted(turn),
          "every power must belong to exactly one alliance")
    return {side: sorted(alliances[side], key=turn.__getitem__)
            for side in ("Axis", "Allies")}


def build_control(src: dict, territories: list[dict]) -> dict[str, str]:
    by_name = {t["name"]: t for t in territories}
    # an impassable territory the source gives an owner (Saudi Arabia, British in Anniversary) is neutral
    # here, held by nobody: no unit may enter it and it is worth nothing
    impassable = {t["name"] for t in src["territories"] if t.get("impassable") and not t.get("neutral")}
    check(all(not by_name[name].get("production") for name in impassable), "an impassable territory has a value")
    owners = {name: power for name, power in src["owners"].items() if name not in impassable}
    for name, power in owners.items():
        check(name in by_name, f"owner given for unknown territory {name!r}")
        check(not by_name[name].get("sea"), f"owner given for sea zone {name!r}")
        check(not by_name[name].get("neutral"), f"neutral territory {name!r} has an owner")
        check(power in src["players"], f"{name!r} owned by unknown power {power!r}")
    for t in territories:
        if not t.get("sea") and t["name"] not in owners:
            check(bool(t.get("neutral")),
                  f"land territory {t['name']!r} has no owner but is not neutral")
    return {name: owners[name] for name in sorted(owners)}


def build_canals(src: dict, order: dict[str, tuple],
                 connections: list[list[str]]) -> list[dict]:
    by_name = {t["name"]: t for t in src["territories"]}
    adjacent = {tuple(c) for c in connections}
    canals = []
    for canal in src["canals"]:
        name = canal["name"]
        zones = sorted(canal["seaZones"], key=lambda z: order.get(z, (9,)))
        check(len(zones) == 2, f"{name}: expected two sea zones, got {zones}")
        for z in zones:
            check(z in by_name and by_name[z].get("water"), f"{name}: {z!r} is not a sea zone")
        check(tuple(zones) in adjacent, f"{name}: sea zones {zones} are not connected")
        land = sorted(canal["landTerritories"])
        check(bool(land), f"{name}: no land territories")
        for t in land:
            check(t in by_name and not by_name[t].get("water"),
                  f"{name}: {t!r} is not a land territory")
        canals.append({"name": name, "sea_zones": zones, "land": land})
    return sorted(canals, key=lambda c: c["name"])


# --- units --------------------------------------------------------------------------------


def normalise_type(tripleA_type: str) -> str:
    check(tripleA_type in UNIT_TYPES, f"unknown unit type {tripleA_type!r}")
    return UNIT_TYPES[tripleA_type]


def build_units(src: dict, order: dict[str, tuple]) -> list[dict]:
    totals: Counter = Counter()
    for u in src["units"]:
        at, power, count = u["territory"], u["owner"], u["count"]
        check(at in order, f"unit placed in unknown territory {at!r}")
        check(power in src["players"], f"unit of unknown power {power!r} at {at!r}")
        check(isinstance(count, int) and count > 0, f"bad unit count {count!r} at {at!r}")
        totals[(at, power, normalise_type(u["type"]))] += count
    return [{"at": at, "power": power, "type": kind, "count": n}
            for (at, power, kind), n in sorted(totals.items())]


def domain_of(kind: str, stats: dict) -> str:
    flags = [d for d, key in (("land", "isLand"), ("sea", "isSea"), ("air", "isAir"))
             if stats.get(key)]
    check(len(flags) == 1, f"unit type {kind!r} has domains {flags}, expected one")
    return flags[0]


def build_unit_type(kind: str, stats: dict) -> dict:
    domain = domain_of(kind, stats)
    for key in ("movement", "attack", "defense", "cost"):
        check(isinstance(stats.get(key), int), f"unit type {kind!r}: missing {key}")
    out = {"movement": stats["movement"], "attack": stats["attack"],
           "defense": stats["defense"], "domain": domain, "cost": stats["cost"]}
    if domain == "land" and stats.get("transportCost", -1) > 0:
        out["transport_cost"] = stats["transportCost"]
    # Only ships carry land units; a bomber's transportCapacity is TripleA's optional
    # paratrooper rule, which is not part of the aa rules.
    if domain == "sea" and stats.get("transportCapacity", -1) > 0:
        out["transport_capacity"] = stats["transportCapacity"]
    if stats.get("carrierCapacity", -1) > 0:
        out["carrier_capacity"] = stats["carrierCapacity"]
    if stats.get("carrierCost", -1) > 0:
        out["carrier_cost"] = stats["carrierCost"]
    if stats.get("canBlitz") or kind == "tank":
        out["blitz"] = True
    if stats.get("isSub"):
        out["submarine"] = True
    if stats.get("isDestroyer"):
        out["destroyer"] = True
    if stats.get("isInfantry"):
        out["infantry"] = True
    if stats.get("hitPoints", 1) > 1:
        out["hit_points"] = stats["hitPoints"]
    if kind == "factory":
        check(stats.get("isFactory") is True, "factory stats lack isFactory")
        check(domain == "land" and out["movement"] == 0, "a factory must be land, movement 0")
    return out


def build_unit_types(src: dict) -> dict[str, dict]:
    built = {normalise_type(t): build_unit_type(normalise_type(t), s)
             for t, s in src["unit_stats"].items()}
    return {kind: built[kind] for kind in TYPE_ORDER if kind in built}


# --- the Anniversary edition: turn sequence, National Objectives, China's rules, victory -------------

# TripleA step delegate -> movecheck phase; a step movecheck has no phase for (bids, technology,
# end of turn: the mobilization apply ends the turn) is left out
STEP_PHASES = {"purchase": "purchase", "purchaseNoPU": "purchase", "battle": "battles", "place": "mobilize"}
PHASE_ORDER = ["purchase", "combat_move", "battles", "noncombat_move", "mobilize"]
CONDITION_KINDS = ("controls", "no_allied_units", "no_enemy_surface_warships")
# TripleA's victory settings (game properties) -> the victory cities a side must hold
VICTORY_SETTINGS = {"Projection of Power": 13, "Honorable Surrender": 15, "Total Victory": 18}


def step_phase(step: dict) -> str | None:
    """The movecheck phase of one TripleA step (None: a step movecheck has no phase for)."""
    if step["delegate"] == "move":
        return "noncombat_move" if step["name"].endswith("NonCombatMove") else "combat_move"
    return STEP_PHASES.get(step["delegate"])


def build_sequence(src: dict, powers: list[str]) -> list[dict]:
    """The phases of a round in TripleA's step order: each power's five phases, in order, once each."""
    steps = []
    for step in src["sequence"]:
        phase = step_phase(step)
        if phase is not None:
            check(step.get("player") in powers, f"step {step['name']!r} of unknown player {step.get('player')!r}")
            steps.append({"power": step["player"], "phase": phase})
    for power in powers:
        own = [s["phase"] for s in steps if s["power"] == power]
        check(own == PHASE_ORDER, f"the sequence gives the {power} the phases {own}, expected {PHASE_ORDER}")
    return steps


def build_condition(condition: dict, names: set[str]) -> dict:
    kind = condition["kind"]
    check(kind in CONDITION_KINDS, f"unknown objective condition {kind!r}")
    out: dict = {"kind": kind}
    if isinstance(condition.get("territories"), list):
        listed = condition["territories"]
        check(all(t in names for t in listed), f"objective condition names unknown spaces: {listed}")
        check(condition.get("of") == len(listed), f"objective condition counts {condition.get('of')} of {listed}")
        out["territories"] = listed
        out["at_least"] = condition["at_least"]
    else:
        check(kind == "no_allied_units" and condition.get("territories") == "controlled",
              f"objective condition {kind!r} lists no territories")
    return out


def build_objectives(src: dict, names: set[str]) -> list[dict]:
    """The National Objectives: power, bonus, the conditions (all must hold) and the map's wording."""
    objectives = []
    for objective in src.get("national_objectives", []):
        check(objective["power"] in src["players"], f"objective of unknown power {objective['power']!r}")
        check(objective["applies"]["from_round"] == 1 and objective["applies"]["uses"] == "unlimited",
              f"objective {objective['name']!r} of the {objective['power']} is limited; movecheck reads none")
        objectives.append({
            "power": objective["power"], "name": objective["name"], "ipcs": objective["ipc"],
            "conditions": [build_condition(c, names) for c in objective["conditions"]],
            "text": objective["text"],
        })
    return objectives


def build_player_rules(src: dict, names: set[str]) -> dict[str, dict]:
    """A power's own rules (China's): where its units may move, its free units, where it places them."""
    rules = {}
    for entry in src.get("player_rules", []):
        read = entry["read"]
        check(read["movement"]["type"] == "allowed", f"{entry['player']}: movement restriction not 'allowed'")
        allowed = read["movement"]["territories"]
        check(all(t in names for t in allowed), f"{entry['player']}: unknown territories in {allowed}")
        check(read["placement"]["any_owned_territory"], f"{entry['player']}: placement rule not understood")
        rules[entry["player"]] = {
            "move_only_in": allowed,
            "free_units": {"type": normalise_type(read["production"]["unit"]),
                           "per_territories": read["production"]["per_territories"]},
            "no_treasury": True,
            "place_in_any_territory": True,
            "place_in_captured": bool(read["placement"]["captured_territories_too"]),
            "place_not_where_units_at_least": read["placement"]["not_where_own_units_at_least"],
        }
    return rules


def build_victory(src: dict) -> dict:
    """The victory cities a side must hold to win, by the map's victory setting (the smallest that is on)."""
    settings = [name for name in VICTORY_SETTINGS if src["properties"].get(name)]
    check(bool(settings), "no victory setting is on")
    return {"setting": settings[0], "cities": VICTORY_SETTINGS[settings[0]]}


def add_edition_facts(doc: dict, src: dict) -> None:
    """The facts only an Anniversary source gives: turn sequence, objectives, player rules, victory."""
    names = {t["name"] for t in doc["territories"]}
    cities = {t["name"] for t in src["territories"] if t.get("victoryCity")}
    for t in doc["territories"]:
        if t["name"] in cities:
            t["victory_city"] = True
    doc["powers"] = list(src["turn_order"])
    check(sorted(doc["powers"]) == sorted(src["players"]), "turn_order does not list every player once")
    doc["sequence"] = build_sequence(src, doc["powers"])
    doc["national_objectives"] = build_objectives(src, names)
    doc["player_rules"] = build_player_rules(src, names)
    doc["victory"] = build_victory(src)
    frontier = {normalise_type(r["unit"]): r["cost"]["PUs"] for r in src["production_frontiers"]["production"]}
    costs = {kind: facts["cost"] for kind, facts in doc["unit_types"].items()}
    check(frontier == costs, f"production frontier {frontier} differs from the unit costs {costs}")


# --- the whole map ------------------------------------------------------------------------


def measure(doc: dict, src: dict) -> dict[str, int]:
    """The numbers the source's `counts` object states, measured on the built map."""
    sea = {t["name"] for t in doc["territories"] if t.get("sea")}
    kinds = Counter("sea_sea" if a in sea and b in sea else
                    "land_land" if a not in sea and b not in sea else "land_sea"
                    for a, b in doc["connections"])
    land = [t for t in doc["territories"] if not t.get("sea")]
    return {
        "territories_total": len(doc["territories"]),
        "land_territories": len(land),
        "sea_zones": len(sea),
        # an impassable territory the source does not call neutral (Saudi Arabia in Anniversary) is neutral here
        "neutral_land": sum(1 for t in land if t.get("neutral")) - sum(
            1 for t in src["territories"] if t.get("impassable") and not t.get("neutral")),
        "impassable": sum(1 for t in src["territories"] if t.get("impassable")),
        "connections": len(doc["connections"]),
        "connections_land_land": kinds["land_land"],
        "connections_sea_sea": kinds["sea_sea"],
        "connections_land_sea": kinds["land_sea"],
        "unit_placements": len(src["units"]),
        "units_total": sum(u["count"] for u in doc["units"]),
        "canals": len(doc["canals"]),
        "victory_cities": sum(1 for t in land if t.get("victory_city")),
        "national_objectives": len(doc.get("national_objectives", [])),
        "units_per_power": dict(Counter(u["power"] for u in doc["units"] for _ in range(u["count"]))),
        "starting_pus": dict(doc["ipcs"]),
        "income_at_start": {power: sum(t.get("production", 0) for t in land if doc["control"].get(t["name"]) == power)
                            for power in doc["powers"]},
    }


def verify_counts(doc: dict, src: dict, name: str) -> None:
    measured = measure(doc, src)
    for key, value in src.get("counts", {}).items():
        check(key in measured, f"{name}: source count {key!r} is not checked by this script")
        check(measured[key] == value,
              f"{name}: {key} is {measured[key]}, the source data says {value}")
    for key, value in EXPECTED.get(name, {}).items():
        check(measured[key] == value,
              f"{name}: {key} is {measured[key]}, the spec says {value}")


def build_map(source_json: dict, name: str) -> dict:
    """Build the movecheck map document ``name`` from one TripleA-derived source file."""
    src = source_json
    info = src["info"]
    territories = build_territories(src)
    add_original_owners(territories, src)
    order = {t["name"]: space_key(t) for t in territories}
    connections = build_connections(src, order)
    doc = {
        "movecheck": 1,
        "system": "aa",
        "kind": "map",
        "name": name,
        "edition": MAP_EDITIONS.get(name),  # left out for a map this script does not list
        "title": info["name"],
        "source": f"{info['source']}, version {info['version']}",
        "powers": list(src["players"]),
        "sides": build_sides(src),
        "ipcs": build_treasuries(src),
        "territories": territories,
        "connections": connections,
        "control": build_control(src, territories),
        "canals": build_canals(src, order, connections),
        "units": build_units(src, order),
        "unit_types": build_unit_types(src),
    }
    if doc["edition"] is None:
        del doc["edition"]
    if "turn_order" in src:
        add_edition_facts(doc, src)
    used = {u["type"] for u in doc["units"]}
    check(used <= set(doc["unit_types"]),
          f"{name}: units of types without stats: {sorted(used - set(doc['unit_types']))}")
    verify_counts(doc, src, name)
    return doc


def render(map: dict) -> str:
    """The exact text of a generated map file."""
    return json.dumps(map, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def generate(shared: Path) -> dict[Path, str]:
    """Output path -> file text, for every built-in map."""
    outputs = {}
    for name, filename in MAPS.items():
        with open(shared / filename, encoding="utf-8") as f:
            source = json.load(f)
        outputs[MAPS_DIR / f"{name}.json"] = render(build_map(source, name))
    return outputs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                        help=f"folder with the *.map.json source files (default {DEFAULT_SHARED})")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the committed maps differ")
    args = parser.parse_args(argv)
    if not args.shared.is_dir():
        return without_facts("gen_maps", args.shared, args.check)
    try:
        outputs = generate(args.shared)
    except (OSError, MapDataError) as exc:
        print(f"gen_maps: {exc}", file=sys.stderr)
        return 2
    if args.check:
        stale = [p for p, text in outputs.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        for p in stale:
            print(f"gen_maps: {p.relative_to(REPO)} is out of date; "
                  f"run python scripts/gen_maps.py", file=sys.stderr)
        return 1 if stale else 0
    MAPS_DIR.mkdir(parents=True, exist_ok=True)
    for path, text in outputs.items():
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
