"""Tests of scripts/gen_maps.py and the built-in aa maps it generates."""

from __future__ import annotations

import copy
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "gen_maps.py"
MAPS_DIR = REPO / "movecheck" / "aa" / "maps"
NAMES = ["aa1942-2e", "aa-revised"]


def load_script():
    spec = importlib.util.spec_from_file_location("gen_maps", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_maps = load_script()
SHARED = gen_maps.DEFAULT_SHARED


def committed(name: str) -> dict:
    return json.loads((MAPS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def source(name: str) -> dict:
    path = SHARED / gen_maps.MAPS[name]
    if not path.exists():
        pytest.skip(f"source data {path} is missing (needs the shared/data folder "
                    f"next to the repository)")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(params=NAMES)
def name(request) -> str:
    return request.param


# --- the committed files are what the script generates ------------------------------------


def test_committed_maps_are_up_to_date(name):
    text = gen_maps.render(gen_maps.build_map(source(name), name))
    assert (MAPS_DIR / f"{name}.json").read_text(encoding="utf-8") == text, (
        f"{name}.json is stale: run python scripts/gen_maps.py")


def test_check_mode_passes_on_committed_files():
    if not SHARED.exists():
        pytest.skip(f"source data folder {SHARED} is missing")
    assert gen_maps.main(["--check", "--shared", str(SHARED)]) == 0


def test_render_is_stable_json_with_trailing_newline(name):
    doc = committed(name)
    text = gen_maps.render(doc)
    assert text.endswith("}\n")
    assert json.loads(text) == doc
    assert gen_maps.render(json.loads(text)) == text


# --- document shape -----------------------------------------------------------------------


def test_header_and_sides(name):
    doc = committed(name)
    assert (doc["movecheck"], doc["system"], doc["kind"], doc["name"]) == (1, "aa", "map", name)
    assert list(doc)[:4] == ["movecheck", "system", "kind", "name"]
    assert doc["powers"] == ["Russians", "Germans", "British", "Japanese", "Americans"]
    assert doc["sides"] == {"Axis": ["Germans", "Japanese"],
                            "Allies": ["Russians", "British", "Americans"]}
    assert list(doc["sides"]) == ["Axis", "Allies"]
    assert "version" in doc["source"]


def test_territory_order_and_keys(name):
    territories = committed(name)["territories"]
    seas = [t for t in territories if t.get("sea")]
    land = [t for t in territories if not t.get("sea")]
    assert territories == seas + land
    assert [int(t["name"].split()[0]) for t in seas] == list(range(1, len(seas) + 1))
    assert [t["name"] for t in land] == sorted(t["name"] for t in land)
    for t in territories:
        assert set(t) <= {"name", "sea", "neutral", "production", "capital", "aliases"}
        assert t.get("sea", True) is True and t.get("neutral", True) is True
        assert not (t.get("sea") and t.get("neutral"))
        assert t.get("production", 1) > 0


def test_connections_sorted_unique_and_known(name):
    doc = committed(name)
    position = {t["name"]: i for i, t in enumerate(doc["territories"])}
    pairs = [tuple(c) for c in doc["connections"]]
    assert all(a in position and b in position for a, b in pairs)
    assert all(position[a] < position[b] for a, b in pairs)
    assert len(set(map(frozenset, pairs))) == len(pairs)
    keys = [(position[a], position[b]) for a, b in pairs]
    assert keys == sorted(keys)


# --- counts -------------------------------------------------------------------------------


def test_counts_aa1942_2e():
    doc = committed("aa1942-2e")
    land = [t for t in doc["territories"] if not t.get("sea")]
    seas = [t for t in doc["territories"] if t.get("sea")]
    assert len(land) == 96
    assert sum(1 for t in land if t.get("neutral")) == 16
    assert len(seas) == 65
    assert len(doc["connections"]) == 403
    assert len(doc["canals"]) == 2
    assert sum(u["count"] for u in doc["units"]) == 227


def test_counts_aa_revised():
    doc = committed("aa-revised")
    assert len(doc["territories"]) == 143
    assert len(doc["connections"]) == 349


def test_counts_match_source_counts(name):
    src = source(name)
    measured = gen_maps.measure(gen_maps.build_map(src, name), src)
    for key, value in src["counts"].items():
        assert measured[key] == value, key


# --- control, neutrals, canals, units -----------------------------------------------------


def test_germany_controlled_by_germans(name):
    assert committed(name)["control"]["Germany"] == "Germans"


def test_control_covers_exactly_the_non_neutral_land(name):
    doc = committed(name)
    owned_land = {t["name"] for t in doc["territories"]
                  if not t.get("sea") and not t.get("neutral")}
    assert set(doc["control"]) == owned_land
    assert list(doc["control"]) == sorted(doc["control"])
    assert set(doc["control"].values()) <= set(doc["powers"])


def test_capitals(name):
    capitals = {t["capital"]: t["name"] for t in committed(name)["territories"] if "capital" in t}
    assert capitals == {"Germans": "Germany", "Japanese": "Japan", "Russians": "Russia",
                        "British": "United Kingdom", "Americans": "Eastern United States"}


def test_canals_present_and_their_zones_adjacent(name):
    doc = committed(name)
    spaces = {t["name"]: t for t in doc["territories"]}
    connections = {frozenset(c) for c in doc["connections"]}
    assert {c["name"] for c in doc["canals"]} == {"Suez Canal", "Panama Canal"}
    for canal in doc["canals"]:
        a, b = canal["sea_zones"]
        assert spaces[a].get("sea") and spaces[b].get("sea")
        assert frozenset((a, b)) in connections
        assert canal["land"] and all(not spaces[t].get("sea") for t in canal["land"])


def test_aa1942_canal_details():
    canals = {c["name"]: c for c in committed("aa1942-2e")["canals"]}
    assert canals["Suez Canal"] == {"name": "Suez Canal",
                                    "sea_zones": ["17 Sea Zone", "34 Sea Zone"],
                                    "land": ["Egypt", "Trans-Jordan"]}
    assert canals["Panama Canal"]["sea_zones"] == ["18 Sea Zone", "19 Sea Zone"]
    assert canals["Panama Canal"]["land"] == ["Central America"]


def test_unit_types_normalised(name):
    doc = committed(name)
    text = gen_maps.render(doc)
    assert "armour" not in text and "aaGun" not in text
    allowed = set(gen_maps.TYPE_ORDER)
    assert {u["type"] for u in doc["units"]} <= set(doc["unit_types"]) <= allowed
    assert "tank" in doc["unit_types"] and "aa_gun" in doc["unit_types"]


def test_unit_type_stats(name):
    types = committed(name)["unit_types"]
    assert types["tank"]["blitz"] is True
    assert types["infantry"]["infantry"] is True
    assert types["infantry"]["transport_cost"] == 2
    assert types["transport"]["transport_capacity"] == 5
    assert types["carrier"]["carrier_capacity"] == 2
    assert types["fighter"]["carrier_cost"] == 1
    assert types["submarine"]["submarine"] is True
    assert types["destroyer"]["destroyer"] is True
    assert types["factory"] == {"movement": 0, "attack": 0, "defense": 0,
                                "domain": "land", "cost": 15}
    assert "transport_capacity" not in types["bomber"]
    domains = {k: v["domain"] for k, v in types.items()}
    assert domains["fighter"] == domains["bomber"] == "air"
    assert domains["battleship"] == "sea" and domains["aa_gun"] == "land"


def test_germany_has_german_units(name):
    germany = [u for u in committed(name)["units"] if u["at"] == "Germany"]
    assert germany and all(u["power"] == "Germans" for u in germany)
    by_type = {u["type"]: u["count"] for u in germany}
    assert by_type["infantry"] >= 1 and by_type["tank"] >= 1 and by_type["factory"] == 1


def test_units_sorted_merged_and_placed(name):
    doc = committed(name)
    spaces = {t["name"] for t in doc["territories"]}
    keys = [(u["at"], u["power"], u["type"]) for u in doc["units"]]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(u["at"] in spaces and u["count"] > 0 for u in doc["units"])
    assert all(set(u) == {"at", "power", "type", "count"} for u in doc["units"])


def test_total_units_aa1942_2e():
    assert sum(u["count"] for u in committed("aa1942-2e")["units"]) == 227


# --- the script fails loudly on bad data ---------------------------------------------------


def test_duplicate_unit_entries_are_merged():
    src = copy.deepcopy(source("aa1942-2e"))
    src["units"].append({"territory": "Germany", "owner": "Germans",
                         "type": "infantry", "count": 2})
    src["counts"]["unit_placements"] += 1
    src["counts"]["units_total"] += 2
    with pytest.raises(gen_maps.MapDataError, match="units_total"):
        gen_maps.build_map(src, "aa1942-2e")  # the spec's 227 no longer holds
    doc = gen_maps.build_map(src, "aa1942-test")
    counts = Counter({(u["at"], u["power"], u["type"]): u["count"] for u in doc["units"]})
    assert counts[("Germany", "Germans", "infantry")] == 5


@pytest.mark.parametrize("mutate, message", [
    (lambda s: s["units"][0].update(type="jetFighter"), "unknown unit type"),
    (lambda s: s["units"][0].update(territory="Atlantis"), "unknown territory"),
    (lambda s: s["connections"].append(["Germany", "Atlantis"]), "unknown space"),
    (lambda s: s["connections"].append(list(reversed(s["connections"][0]))), "duplicate"),
    (lambda s: s["owners"].pop("Germany"), "no owner but is not neutral"),
    (lambda s: s["canals"][0].update(seaZones=["1 Sea Zone", "65 Sea Zone"]), "not connected"),
    (lambda s: s["canals"][0].update(landTerritories=["Atlantis"]), "not a land territory"),
])
def test_bad_data_fails_loudly(mutate, message):
    src = copy.deepcopy(source("aa1942-2e"))
    mutate(src)
    with pytest.raises(gen_maps.MapDataError, match=message):
        gen_maps.build_map(src, "aa1942-2e")
