"""Abbreviations players type (``UK``, ``inf``, ``bb``, ``SZ5``, ``FIC``) wherever aa files expect a name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from movecheck.aa.maps import builtin_map
from movecheck.aa.maps.gamemap import GameMap
from movecheck.aa.names import POWER_ABBREVIATIONS, UNIT_ABBREVIATIONS, abbreviations_table, sea_zone_name
from movecheck.cli import main

from .conftest import codes, mv, only, state, unit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "aa"


@pytest.fixture(scope="module")
def game_map() -> GameMap:
    return GameMap(builtin_map("aa1942-2e"))


@pytest.fixture(scope="module")
def revised() -> GameMap:
    return GameMap(builtin_map("aa-revised"))


# --- each class of abbreviation ------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "power"),
    [("UK", "British"), ("uk", "British"), ("US", "Americans"), ("USA", "Americans"), ("usa", "Americans"),
     ("USSR", "Russians"), ("Ger", "Germans"), ("GER", "Germans"), ("Jap", "Japanese"), ("Germans", "Germans")],
)
def test_power_abbreviations(game_map, written, power):
    assert game_map.resolve_power(written) == power


@pytest.mark.parametrize(
    ("written", "kind"),
    [("inf", "infantry"), ("art", "artillery"), ("arm", "tank"), ("ftr", "fighter"), ("bmr", "bomber"),
     ("bb", "battleship"), ("BB", "battleship"), ("ca", "cruiser"), ("dd", "destroyer"), ("cv", "carrier"),
     ("tp", "transport"), ("trn", "transport"), ("sub", "submarine"), ("aa", "aa_gun"), ("armour", "tank")],
)
def test_unit_type_abbreviations(game_map, written, kind):
    assert game_map.resolve_type(written) == kind


@pytest.mark.parametrize("written", ["5 SZ", "SZ5", "sz 05", "SZ 5", "5sz", "sz-5", "5 Sea Zone", "5 sea zone"])
def test_sea_zone_forms(game_map, written):
    assert game_map.resolve(written) == "5 Sea Zone"


@pytest.mark.parametrize("written", ["5", "SZ", "sz 66", "SZ 0"])
def test_what_is_not_a_sea_zone(game_map, written):
    assert game_map.resolve(written) is None


def test_a_sea_zone_form_names_a_number_only():
    assert sea_zone_name("Sz 007") == "7 Sea Zone"
    assert sea_zone_name("Germany") is None


@pytest.mark.parametrize(
    ("written", "space"),
    [("FIC", "French Indo-China Thailand"), ("WUS", "Western United States"), ("EUS", "Eastern United States"),
     ("cus", "Central United States"), ("Karelia", "Karelia S.S.R."), ("karelia ssr", "Karelia S.S.R."),
     ("UK", "United Kingdom")],
)
def test_territory_abbreviations_of_the_1942_map(game_map, written, space):
    assert game_map.resolve(written) == space


def test_the_revised_map_has_its_own(revised):
    assert revised.resolve("FIC") == "French Indochina"
    assert revised.resolve("Philippines") == "Philipine Islands"


def test_a_map_file_declares_its_own_abbreviations():
    data = {
        "name": "tiny",
        "powers": ["Italians", "Greeks"],
        "aliases": {"Greeks": ["Gre", "Hellas"], "tank": ["panzer"]},
        "territories": [{"name": "Rome", "aliases": ["Roma"]}, {"name": "Athens"}],
    }
    tiny = GameMap(data)
    assert (tiny.resolve_power("Hellas"), tiny.resolve_power("ita")) == ("Greeks", "Italians")
    assert tiny.resolve_type("panzer") == "tank" and tiny.resolve("roma") == "Rome"
    assert tiny.resolve_power("UK") is None  # the table's powers only where the map has them


# --- ambiguity -----------------------------------------------------------------------------


def test_an_abbreviation_of_two_territories_is_refused(game_map, run):
    assert game_map.space_meanings("SA") == ["Saudi Arabia", "Union of South Africa"]
    assert game_map.resolve("SA") is None
    found = run(
        state("British", "combat_move", [unit("India", "British", "infantry")]), [mv({"inf": 1}, "India", "SA")]
    )
    assert [f.message for f in only(found, "MC004")] == [
        "territory or sea zone 'SA' is ambiguous: it may mean 'Saudi Arabia' or 'Union of South Africa'; write the name"
    ]


def test_a_map_abbreviation_of_two_powers_is_refused(run, tmp_path):
    data = {"name": "tiny", "powers": ["Reds", "Blues"], "sides": {"A": ["Reds"], "B": ["Blues"]},
            "aliases": {"Reds": ["R"], "Blues": ["R", "B"]},
            "territories": [{"name": "Here"}, {"name": "There"}], "connections": [["Here", "There"]]}
    text = json.dumps({"movecheck": 1, "system": "aa", "map": data, "turn": {"power": "B", "phase": "combat_move"},
                       "units": [{"at": "Here", "power": "R", "type": "inf"}]})
    found = run(text, [mv({"inf": 1}, "Here", "There")])
    assert "power 'R' is ambiguous: it may mean 'Reds' or 'Blues'; write the name" in [f.message for f in found]


# --- in real orders ------------------------------------------------------------------------

ABBREVIATED = {
    "power: Germans": "power: Ger",
    "{infantry: 3}": "{inf: 3}",
    "{infantry: 1, tank: 1}": "{INF: 1, arm: 1}",
    "{fighter: 1}": "{ftr: 1}",
    "{infantry: 2, tank: 1}": "{inf: 2, arm: 1}",
    "{infantry: 3, artillery: 1}": "{inf: 3, art: 1}",
    "{bomber: 1}": "{bmr: 1}",
    "{battleship: 1, transport: 1}": "{bb: 1, tp: 1}",
    "{cruiser: 1, submarine: 2}": "{ca: 1, sub: 2}",
    "Karelia S.S.R.]": "Karelia]",
    "[5 Sea Zone, 6 Sea Zone, 7 Sea Zone]": "[5 SZ, SZ6, sz 07]",
    "Ukraine S.S.R., Caucasus]": "Ukraine, Caucasus]",
    "[17 Sea Zone, Egypt]": "[SZ 17, Egypt]",
}


def abbreviate(text: str) -> str:
    """The text with names replaced by what a forum player would type."""
    for name, short in ABBREVIATED.items():
        assert name in text, name
        text = text.replace(name, short)
    return text


def report(capsys, path: Path) -> dict:
    """The JSON report of checking one orders file, without its paths."""
    code = main(["check", str(path), "-f", "json", "--root", "/"])
    data = json.loads(capsys.readouterr().out)
    data["exit"] = code
    for entry in data["files"]:
        entry.pop("path")
    for finding in data.get("findings", []):
        finding.pop("file", None)
    return data


def test_abbreviated_orders_give_the_same_verdicts(capsys, tmp_path):
    original = (EXAMPLES / "orders" / "g1-combat.yaml").read_text(encoding="utf-8")
    illegal = "  - id: too-far\n    units: {tank: 1}\n    path: [Germany, Poland, Belorussia, Russia]\n"
    for name, text in (
        ("plain.yaml", original + illegal),
        ("short.yaml", abbreviate(original) + illegal.replace("tank", "arm")),
    ):
        (tmp_path / name).write_text(text.replace("../states/", str(EXAMPLES / "states") + "/"), encoding="utf-8")
    plain, short = report(capsys, tmp_path / "plain.yaml"), report(capsys, tmp_path / "short.yaml")
    assert plain["exit"] == 1 and plain["summary"]["illegal_orders"] >= 1
    assert short == plain  # the same findings, worded with the same (full) names


def test_a_state_in_abbreviations_checks_like_the_full_one(run):
    full = state(
        "Germans", "combat_move", [unit("Germany", "Germans", "tank"), unit("5 Sea Zone", "Germans", "transport")]
    )
    short = state("Ger", "combat_move", [unit("Germany", "ger", "arm"), unit("SZ5", "Ger", "tp")])
    moves = [mv({"tank": 1}, "Germany", "Poland", "Belorussia"), mv({"transport": 1}, "5 Sea Zone", "6 Sea Zone")]
    assert [(f.code, f.message) for f in run(short, moves)] == [(f.code, f.message) for f in run(full, moves)]


def test_orders_for_a_power_by_abbreviation_match_the_state(run):
    found = run(state("British", "combat_move", [unit("United Kingdom", "British", "infantry")]),
                "movecheck: 1\nsystem: aa\npower: UK\nphase: combat_move\nmoves:\n"
                "  - {units: {inf: 1}, path: [UK, Eire]}\n")
    assert "MC006" not in codes(found)


def test_apply_writes_the_full_names(capsys, tmp_path):
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Ger, phase: combat_move}\n"
        "control: {Poland: USSR}\npurchased: {cv: 1}\nunits:\n  - {at: Germany, power: Ger, type: arm}\n  - {at: "
        "Poland, power: USSR, type: inf}\n",
        encoding="utf-8",
    )
    (tmp_path / "orders.yaml").write_text(
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\n"
        "moves:\n  - {units: {arm: 1}, path: [Germany, Poland], attack: true}\n", encoding="utf-8")
    code = main(["apply", str(tmp_path / "orders.yaml"), "--root", "/"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert not re.search(r"\b(Ger|USSR|arm|inf|cv)\b", out), out
    assert "power: Germans" in out and "carrier: 1" in out and "power: Russians" in out


# --- did you mean ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "first"),
    [("bbb", "battleship"), ("artt", "artillery"), ("arti", "artillery"), ("fgtr", "fighter"), ("tnak", "tank")],
)
def test_unit_type_hints_rank_abbreviations_and_names_first(game_map, word, first):
    assert game_map.suggest_type(word)[0] == first


def test_bb_is_never_a_bomber(game_map):
    assert "bomber" not in game_map.suggest_type("bbb")


@pytest.mark.parametrize(
    ("word", "first"),
    [("Karella", "Karelia S.S.R."), ("Ukrane", "Ukraine S.S.R."), ("FICT", "French Indo-China Thailand")],
)
def test_space_hints_use_the_maps_abbreviations(game_map, word, first):
    assert game_map.suggest(word)[0] == first


def test_a_misspelt_power_abbreviation_suggests_the_power(game_map):
    assert game_map.suggest_power("USAA") == ["Americans"]


def test_the_hint_names_the_name_not_the_abbreviation(run):
    found = run(
        state("Germans", "combat_move", [unit("Finland", "Germans", "infantry")]),
        [mv({"inf": 1}, "Finland", "Karella")],
    )
    assert [f.message for f in only(found, "MC004")] == [
        "unknown territory or sea zone 'Karella'; did you mean 'Karelia S.S.R.'?"
    ]


# --- the table of the Axis & Allies guide (docs/aa.md) ---------------------------------------


def test_every_power_and_unit_type_has_a_row():
    table = abbreviations_table()
    for name in [*POWER_ABBREVIATIONS, *UNIT_ABBREVIATIONS]:
        assert f"| {name} |" in table


def test_readme_table_is_the_codes():
    guide = (ROOT / "docs" / "aa.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- abbreviations:begin -->\n(.*?)<!-- abbreviations:end -->", guide, re.DOTALL)
    assert match is not None, "docs/aa.md lacks the abbreviations markers"
    assert match.group(1) == abbreviations_table(), (
        "docs/aa.md's abbreviations table is stale; paste movecheck.aa.names.abbreviations_table() between the markers"
    )
