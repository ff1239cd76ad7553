"""The built-in ``aa-anniversary-1942`` map against TripleA's 1942 Anniversary game (issue 41, aa-anniversary.md
"Acceptance").

TripleA's shipped ``WW2v3-1942.xml`` cannot be reached from here; the 1942 Anniversary file triplea-game/triplea
has is ``ww2v3_1942_test.xml``, the game TripleA's own unit tests play the 1942 scenario with, kept byte for byte in
``tests/data/triplea/`` (tests/data/triplea/README.md).  movecheck's ``import triplea`` converter reads it here, in
this process, and the result must equal the built-in map in spaces, connections, canals, set-up (control, units,
starting IPCs, original owners), unit stats and costs, National Objectives, China's rules, victory cities and turn
order.  What the converter does not read (the per-territory ``unitProduction``, every step of the sequence, the
game's properties, technology and the production frontier) is compared with the shared facts the built-in map was
generated from, which name the shipped game as their source.

Every difference that is meant is listed below (``INTENDED``, on top of the 1941 comparison's) with its reason; any
other difference fails.  The comparison found none: the fixture is the shipped 1942 game but for its name.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.editions import find_edition
from movecheck.aa.maps import builtin_map
from tests.aa.test_anniversary import shared
from tests.aa.test_anniversary_triplea import BOARD, INTENDED, SETUP, UNMODELLED, comparable

XML = Path(__file__).resolve().parents[1] / "data" / "triplea" / "ww2v3_1942_test.xml"
XML_SIZE = 157091
XML_SHA256 = "d9d3117a6c336327f640fc242e851a153cbbb1181e39ef74e281dcb62e0ed79a"
"""The file's size and SHA-256 as read from triplea-game/triplea at 275f429ebdb688e09cfb91e54250627fec3f641d
(``game-app/game-core/src/testFixtures/resources/ww2v3_1942_test.xml``)."""

TEST_NAME = "World War II v3 1942 Test"
SHIPPED_MAP_NAME = "world_war_ii_v3"

INTENDED_1942 = {
    **INTENDED,
    "title": "the fixture's game is called 'World War II v3 1942 Test'; the built-in map keeps the shipped game's "
             "name, 'World War II v3 1942'",
    "edition": "import triplea names the Anniversary edition by the game's mapName (world_war_ii_v3, the shipped "
               "games' map folder); the fixture's mapName is its test name, so the import names none and says "
               "why. Given the shipped mapName, the same file converts to edition aa-anniversary and nothing else "
               "changes (tested below)",
    "properties.mapName": "the only game property of the fixture that is not the shipped game's (compared with the "
                          "shared facts below)",
}
"""What differs on purpose between the converted fixture and the built-in 1942 map, and why."""

KEYS = tuple(k for k in BOARD + SETUP if k not in ("title", "edition"))
"""The keys compared one by one (the title and the edition are intended differences)."""


@pytest.fixture(scope="module")
def converted() -> Any:
    """The conversion of TripleA's ww2v3_1942_test.xml by ``import triplea``'s converter, once for the module."""
    from movecheck.aa.triplea.convert import convert
    from movecheck.aa.triplea.xmlread import read_game

    return convert(read_game(str(XML)), XML.name)


@pytest.fixture(scope="module")
def root() -> Any:
    """The fixture's XML, for what the converter does not read."""
    from defusedxml import ElementTree

    return ElementTree.parse(str(XML)).getroot()


def test_the_file_is_tripleas_fixture_byte_for_byte() -> None:
    raw = XML.read_bytes()
    assert len(raw) == XML_SIZE
    assert hashlib.sha256(raw).hexdigest() == XML_SHA256
    assert raw.startswith(b'<?xml version="1.0" ?>\n\n<!DOCTYPE game SYSTEM "game.dtd">\n\n<game>\n'
                          b'        <info name="World War II v3 1942 Test"/>\n')


@pytest.mark.parametrize("key", KEYS)
def test_the_1942_map_equals_tripleas_1942_game(converted: Any, key: str) -> None:
    ours, theirs = comparable(builtin_map("aa-anniversary-1942")), comparable(converted.map)
    assert theirs.get(key) == ours[key]


def test_the_facts_the_comparison_covers(converted: Any) -> None:
    """Every key of both maps is compared (none escapes as missing on one side), and the 1942 set-up is what it
    is: the Japanese first, China's phases inside the Americans' turn after their mobilization, 251 units."""
    doc, ours = converted.map, builtin_map("aa-anniversary-1942")
    assert set(comparable(doc)) - {"title", "edition"} == set(comparable(ours)) - {"title", "edition"} == set(KEYS)
    assert doc["powers"] == ["Japanese", "Russians", "Germans", "British", "Italians", "Americans", "Chinese"]
    assert doc["ipcs"] == {"Japanese": 31, "Russians": 24, "Germans": 37, "British": 31, "Italians": 10,
                           "Americans": 38, "Chinese": 0}
    assert [(s["power"], s["phase"]) for s in doc["sequence"][-6:]] == [
        ("Americans", "noncombat_move"), ("Americans", "mobilize"), ("Chinese", "combat_move"),
        ("Chinese", "battles"), ("Chinese", "noncombat_move"), ("Chinese", "mobilize")]
    units: Counter[str] = Counter()
    for stack in doc["units"]:
        units[stack["power"]] += stack.get("count", 1)
    assert units == {"Japanese": 43, "Russians": 41, "Germans": 61, "British": 46, "Italians": 17, "Chinese": 10,
                     "Americans": 33}
    assert doc["control"]["Libya"] == "Italians" and {"Germans", "Italians"} == {
        u["power"] for u in doc["units"] if u["at"] == "Libya"}  # the Afrika Korps in Italian Libya
    originals = {t["name"]: t["original_owner"] for t in doc["territories"] if "original_owner" in t}
    assert {name: doc["control"][name] for name in ("Baltic States", "Kwangtung", "Philippine Islands")} == {
        "Baltic States": "Germans", "Kwangtung": "Japanese", "Philippine Islands": "Japanese"}
    assert (originals["Baltic States"], originals["Kwangtung"], originals["Philippine Islands"]) == (
        "Russians", "British", "Americans")
    assert sum(1 for t in doc["territories"] if t.get("victory_city")) == 18
    assert len(doc["national_objectives"]) == 17 and set(doc["player_rules"]) == {"Chinese"}


def test_the_intended_differences_are_what_they_say(converted: Any) -> None:
    """Each entry of ``INTENDED_1942`` beyond the 1941 ones is a real difference, and no more than it says."""
    ours, theirs = builtin_map("aa-anniversary-1942"), converted.map
    assert (ours["name"], theirs["name"]) == ("aa-anniversary-1942", "world-war-ii-v3-1942-test")
    assert "WW2v3-1942.xml" in ours["source"] and "ww2v3_1942_test.xml" in theirs["source"]
    assert (ours["title"], theirs["title"]) == ("World War II v3 1942", TEST_NAME)
    assert (ours["edition"], converted.edition, "edition" in theirs) == ("aa-anniversary", None, False)
    assert "mapName" in converted.edition_reason
    assert any("aliases" in t for t in ours["territories"]) and not any("aliases" in t for t in theirs["territories"])
    assert all("text" in o for o in ours["national_objectives"])
    assert ours["sides"] != theirs["sides"]
    assert not any("bombard" in t for t in ours["unit_types"].values())
    assert {name for name, t in theirs["unit_types"].items() if "bombard" in t} == {"battleship", "cruiser"}
    values = find_edition("aa-anniversary").option_values()
    assert theirs["options"] == {k: values[k] for k in theirs["options"]}
    assert converted.unmodelled == UNMODELLED
    assert set(INTENDED_1942) - set(INTENDED) == {"title", "edition", "properties.mapName"}


def test_with_the_shipped_map_name_the_import_names_the_edition_and_nothing_else_changes(tmp_path: Path) -> None:
    """The edition forced the way the product names it: the same file with the shipped games' ``mapName``."""
    from movecheck.aa.triplea.convert import convert
    from movecheck.aa.triplea.xmlread import read_game

    text = XML.read_text(encoding="utf-8")
    old = f'<property name="mapName" value="{TEST_NAME}" editable="false"/>'
    assert text.count(old) == 1
    (tmp_path / XML.name).write_text(text.replace(old, old.replace(TEST_NAME, SHIPPED_MAP_NAME)), encoding="utf-8")
    forced = convert(read_game(str(tmp_path / XML.name)), XML.name)
    plain = convert(read_game(str(XML)), XML.name)
    assert (forced.edition, plain.edition) == ("aa-anniversary", None)
    assert {k: v for k, v in forced.map.items() if k != "edition"} == plain.map
    assert forced.map["edition"] == builtin_map("aa-anniversary-1942")["edition"]
    assert (forced.unmodelled, forced.options, forced.pending) == (plain.unmodelled, plain.options, plain.pending)


# -- what the converter does not read, against the shared facts (which name the shipped WW2v3-1942.xml) -------------


def properties(root: Any) -> dict[str, str]:
    """The game's properties as written (the notes left out: they are words for the players)."""
    found = {}
    for prop in root.iter("property"):
        if prop.get("value") is not None:
            found[prop.get("name")] = prop.get("value")
    return found


def test_the_games_properties_are_the_shipped_games_but_its_name(root: Any) -> None:
    facts = shared("aa-anniversary-1942")
    assert facts["info"]["source"].endswith("WW2v3-1942.xml")
    given = properties(root)
    assert set(given) == set(facts["properties"])
    differ = {k for k, v in facts["properties"].items() if str(v).lower() != given[k].lower()}
    assert differ == {"mapName"}
    assert (facts["properties"]["mapName"], given["mapName"]) == (SHIPPED_MAP_NAME, TEST_NAME)


def test_unit_production_sequence_technology_and_frontier_are_the_shipped_games(root: Any) -> None:
    facts = shared("aa-anniversary-1942")
    production = {a.get("attachTo"): int(o.get("value")) for a in root.iter("attachment")
                  if a.get("name") == "territoryAttachment" for o in a.findall("option")
                  if o.get("name") == "unitProduction"}
    assert production == {t["name"]: t["unitProduction"] for t in facts["territories"] if "unitProduction" in t}
    keys = ("name", "delegate", "player", "display")
    steps = [{k: v for k, v in step.attrib.items() if k in keys} for step in root.iter("step")]
    assert steps == [{k: v for k, v in s.items() if k in keys} for s in facts["sequence"]]
    tech = {a.get("attachTo"): {o.get("name"): o.get("value") == "true" for o in a.findall("option")}
            for a in root.iter("attachment") if a.get("name") == "techAttachment"}
    assert tech == facts["technologies"]
    costs = {r.get("name"): int(r.find("cost").get("quantity")) for r in root.iter("productionRule")}
    frontier = [f.get("name") for f in root.find("production/productionFrontier[@name='production']")]
    assert [(rule["rule"], rule["cost"]["PUs"]) for rule in facts["production_frontiers"]["production"]] == [
        (name, costs[name]) for name in frontier]
