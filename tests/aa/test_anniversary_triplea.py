"""The built-in Anniversary maps against TripleA's own game file (issue 41, aa-anniversary.md "Acceptance").

``tests/data/triplea/WW2v3-1941.xml`` is TripleA's ``WW2v3-1941.xml`` byte for byte (tests/data/triplea/README.md).
movecheck's own ``import triplea`` converter reads it here, in this process, and the result must equal the built-in
``aa-anniversary-1941`` map in spaces, connections, canals, set-up, unit stats and costs, National Objectives, China's
rules, victory cities and turn order; ``aa-anniversary-1942`` is the same board, so everything but its set-up and
order is compared with the same file.  The 1942 set-up, IPCs and order are compared with TripleA's 1942 game, the
``ww2v3_1942_test.xml`` its own unit tests play, in tests/aa/test_anniversary_triplea_1942.py (which reuses
``comparable`` and ``INTENDED`` from here; tests/data/triplea/README.md).

Every difference that is meant is listed below (``INTENDED``) with its reason; any other difference fails.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.battle.model import AnniversaryBattle
from movecheck.aa.editions import find_edition
from movecheck.aa.maps import builtin_map

XML = Path(__file__).resolve().parents[1] / "data" / "triplea" / "WW2v3-1941.xml"
XML_SIZE = 123533
XML_SHA256 = "393c16d5367838a7033692006dc816f1d6b601d62fef7192e4919c82f88dbe02"
"""The file's size and SHA-256 as read from triplea-game/triplea at b163de5ec9ef398283fe8d0caa236a7531a91009."""

INTENDED = {
    "name": "the built-in map's name is its own (aa-anniversary-1941); an import is named after the game",
    "source": "the built-in map names the shared facts it was generated from, an import the file it read",
    "options": "the built-in maps take their options from the preset aa-anniversary; an import writes what the "
               "game's settings give (compared with the preset below)",
    "territories.aliases": "movecheck's other spellings of a territory (UK, NWE, ...), added by scripts/gen_maps.py",
    "national_objectives.text": "the objective in words, added by scripts/gen_maps.py for the posts",
    "sides.order": "the order of the powers inside a side means nothing to the rules: the built-in map lists the "
                   "XML's alliance order, the import the turn order",
    "unit_types.bombard": "an import carries TripleA's canBombard per unit type; the built-in map leaves it to the "
                          "edition's battle model (AnniversaryBattle.bombard_types bombard at their attack)",
}
"""What differs on purpose between the converted XML and the built-in map, and why."""

UNMODELLED = [
    "air transport of land units (paratroopers)",
    "land transport (mechanised infantry carried by tanks)",
    "limits on movement by territory",
    "technology (advances that change movement: jet power, long-range aircraft, ...)",
    "territory unit production",
]
"""What the converter says movecheck does not model in this file: TripleA's technology (the tournaments play without
it, and the presets have no research step), the bomber's and tank's transport abilities that only technology turns
on, China's movement limit read through ``player_rules`` instead of the generic one, and ``unitProduction`` (the
factory's limit is the territory's IPC value in Anniversary too)."""

BOARD = ("movecheck", "system", "kind", "edition", "title", "powers", "ipcs", "connections", "canals", "unit_types",
         "national_objectives", "player_rules", "victory", "territories", "sides")
SETUP = ("control", "units", "sequence")


@pytest.fixture(scope="module")
def converted() -> Any:
    """The conversion of TripleA's WW2v3-1941.xml by ``import triplea``'s converter, once for the module."""
    from movecheck.aa.triplea.convert import convert
    from movecheck.aa.triplea.xmlread import read_game

    return convert(read_game(str(XML)), XML.name)


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    """A map with the intended differences (``INTENDED``) taken out."""
    out = {k: v for k, v in doc.items() if k not in ("name", "source", "options")}
    out["territories"] = [{k: v for k, v in t.items() if k != "aliases"} for t in doc["territories"]]
    out["national_objectives"] = [{k: v for k, v in o.items() if k != "text"} for o in doc["national_objectives"]]
    out["sides"] = {side: sorted(members) for side, members in doc["sides"].items()}
    out["unit_types"] = {name: {k: v for k, v in t.items() if k != "bombard"} for name, t in doc["unit_types"].items()}
    return out


def test_the_file_is_tripleas_byte_for_byte() -> None:
    raw = XML.read_bytes()
    assert len(raw) == XML_SIZE
    assert hashlib.sha256(raw).hexdigest() == XML_SHA256
    assert raw.startswith(b'<?xml version="1.0"?>\n<!DOCTYPE game SYSTEM "game.dtd">\n<game>\n')


@pytest.mark.parametrize("key", BOARD + SETUP)
def test_the_1941_map_equals_tripleas_file(converted: Any, key: str) -> None:
    assert converted.edition == "aa-anniversary"
    ours, theirs = comparable(builtin_map("aa-anniversary-1941")), comparable(converted.map)
    assert theirs.get(key) == ours[key]


@pytest.mark.parametrize("key", BOARD)
def test_the_1942_board_equals_tripleas_file(converted: Any, key: str) -> None:
    """The 1942 scenario is played on the same board: everything but the set-up (who holds what, and so who held a
    territory first), the starting IPCs, the title and the order of the turns is the same."""
    ours, theirs = comparable(builtin_map("aa-anniversary-1942")), comparable(converted.map)
    if key in ("ipcs", "title"):  # the 1942 game's own
        assert ours[key] != theirs[key]
    elif key == "powers":  # the same seven powers, the Japanese first
        assert (sorted(ours[key]), ours[key][0]) == (sorted(theirs[key]), "Japanese")
    elif key == "territories":
        assert [without_owner(t) for t in ours[key]] == [without_owner(t) for t in theirs[key]]
        assert ours[key] != theirs[key]  # Baltic States and the others taken by 1942 have their first owners
    else:
        assert theirs[key] == ours[key]


def without_owner(territory: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in territory.items() if k != "original_owner"}


def test_the_facts_the_comparison_covers(converted: Any) -> None:
    """The comparison is of the whole board: 162 spaces (97 land, 15 impassable), 407 connections, two canals,
    18 victory cities, 17 objectives, seven powers, China's rules."""
    doc = converted.map
    assert set(comparable(doc)) == set(comparable(builtin_map("aa-anniversary-1941"))) == set(BOARD + SETUP)
    land = [t for t in doc["territories"] if not t.get("sea")]
    assert (len(doc["territories"]), len(land), sum(1 for t in land if t.get("neutral"))) == (162, 97, 15)
    assert len(doc["connections"]) == 407
    assert sorted(c["name"] for c in doc["canals"]) == ["Panama Canal", "Suez Canal"]
    assert sum(1 for t in doc["territories"] if t.get("victory_city")) == 18
    assert doc["victory"] == {"setting": "Projection of Power", "cities": 13}
    assert len(doc["national_objectives"]) == 17
    assert Counter(o["conditions"][0]["at_least"] for o in doc["national_objectives"]) == Counter(
        {1: 7, 3: 6, 4: 2, 6: 2})  # TripleA's count="N" (at least N of the listed), not all of them
    assert doc["powers"] == ["Germans", "Russians", "Japanese", "British", "Italians", "Americans", "Chinese"]
    assert set(doc["player_rules"]) == {"Chinese"}
    assert sum(u.get("count", 1) for u in doc["units"]) > 200


def test_the_intended_differences_are_what_they_say(converted: Any) -> None:
    """Each entry of ``INTENDED`` is a real difference, and no more than it says."""
    ours, theirs = builtin_map("aa-anniversary-1941"), converted.map
    assert (ours["name"], theirs["name"]) == ("aa-anniversary-1941", "world-war-ii-v3-1941")
    assert "WW2v3-1941.xml" in ours["source"] and "WW2v3-1941.xml" in theirs["source"]
    assert any("aliases" in t for t in ours["territories"]) and not any("aliases" in t for t in theirs["territories"])
    assert all("text" in o for o in ours["national_objectives"])
    assert ours["sides"] != theirs["sides"]
    bombard = {name: t["bombard"] for name, t in theirs["unit_types"].items() if "bombard" in t}
    assert not any("bombard" in t for t in ours["unit_types"].values())
    assert bombard == {name: ours["unit_types"][name]["attack"] for name in AnniversaryBattle.bombard_types}
    # the settings the game gives are the preset's values
    values = find_edition("aa-anniversary").option_values()
    assert theirs["options"] == {k: values[k] for k in theirs["options"]}
    assert converted.unmodelled == UNMODELLED
    assert set(INTENDED) == {"name", "source", "options", "territories.aliases", "national_objectives.text",
                             "sides.order", "unit_types.bombard"}


# -- what the file showed the converter read wrong --------------------------------------------------------------------


def test_an_objectives_count_attribute_is_how_many_must_be_held() -> None:
    """TripleA writes "at least N of" as the option's ``count`` attribute (``count="3"``); its parser reads it as
    ``3:`` before the value.  Before, the converter read only the value and asked for all of the territories."""
    from defusedxml import ElementTree

    from movecheck.aa.triplea.objectives import objectives

    root = ElementTree.fromstring(
        '<game><attachmentList><attachment name="objectiveAttachment1" attachTo="Germans" type="player">'
        '<option name="objectiveValue" value="5"/>'
        '<option name="alliedOwnershipTerritories" value="A:B:C:D" count="3"/></attachment>'
        '<attachment name="objectiveAttachment2" attachTo="Germans" type="player">'
        '<option name="objectiveValue" value="5"/>'
        '<option name="alliedOwnershipTerritories" value="A:B"/></attachment></attachmentList></game>')
    missing: Counter[str] = Counter()
    found = objectives(root, ["Germans"], {"A", "B", "C", "D"}, missing)
    assert [o["conditions"] for o in found] == [
        [{"kind": "controls", "territories": ["A", "B", "C", "D"], "at_least": 3}],
        [{"kind": "controls", "territories": ["A", "B"], "at_least": 2}]]  # no count: all of them
    assert not missing


@pytest.mark.parametrize(("value", "city"), [("1", True), ("2", True), ("true", True), ("TRUE", True), ("0", False),
                                             ("false", False), ("", False), ("-1", False)])
def test_a_victory_city_is_a_positive_number_or_true(value: str, city: bool) -> None:
    """TripleA's own games write ``victoryCity`` as a number of cities (``1``); before, only ``true`` counted, so an
    imported Anniversary game had no victory cities and no victory condition."""
    from movecheck.aa.triplea.convert import victory_city

    assert victory_city(value) is city


@pytest.mark.parametrize(("on", "setting", "cities"), [
    (("Honorable Surrender",), "honorable_surrender", 15),
    (("Total Victory", "Honorable Surrender"), "honorable_surrender", 15),  # the smallest that is on wins first
    (("Total Victory",), "total_victory", 18),
])
def test_import_reads_which_victory_setting_is_on(tmp_path: Path, on: tuple[str, ...], setting: str,
                                                  cities: int) -> None:
    """The game's victory settings are the map's option ``victory`` (a configuration may still choose another)."""
    from movecheck.aa.triplea.convert import convert
    from movecheck.aa.triplea.xmlread import read_game

    text = XML.read_text(encoding="utf-8")
    for name in ("Projection of Power", "Honorable Surrender", "Total Victory"):
        old = f'<property name="{name}" value="{"true" if name == "Projection of Power" else "false"}"'
        assert text.count(old) == 1
        text = text.replace(old, f'<property name="{name}" value="{"true" if name in on else "false"}"')
    (tmp_path / "game.xml").write_text(text, encoding="utf-8")
    conversion = convert(read_game(str(tmp_path / "game.xml")), "game.xml")
    assert conversion.map["options"]["victory"] == setting
    assert conversion.map["victory"] == {"setting": setting.replace("_", " ").title(), "cities": cities}
    assert [r.because for r in conversion.options if r.option == "victory"] == [
        ", ".join(f"{name}: true" for name in ("Honorable Surrender", "Total Victory") if name in on)]
