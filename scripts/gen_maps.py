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
}

# built-in map name -> the rules edition it is drawn for (its ``edition`` key); an edition
# movecheck does not implement yet is named all the same (states on the map get a note)
MAP_EDITIONS = {
    "aa1942-2e": "aa1942",
    "aa-revised": "aa-revised",
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
    """Give each territory its abbreviations (none may be spelt like a territory's name)."""
    names = {fold(t["name"]) for t in territories}
    for t in territories:
        aliases = TERRITORY_ABBREVIATIONS.get(t["name"], ())
        for alias in aliases:
            check(fold(alias) not in names,
                  f"abbreviation {alias!r} of {t['name']!r} is spelt like a territory")
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
    owners = src["owners"]
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
        "neutral_land": sum(1 for t in land if t.get("neutral")),
        "impassable": sum(1 for t in src["territories"] if t.get("impassable")),
        "connections": len(doc["connections"]),
        "connections_land_land": kinds["land_land"],
        "connections_sea_sea": kinds["sea_sea"],
        "connections_land_sea": kinds["land_sea"],
        "unit_placements": len(src["units"]),
        "units_total": sum(u["count"] for u in doc["units"]),
        "canals": len(doc["canals"]),
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
