"""``movecheck import triplea``: TripleA game files (XML) converted into movecheck aa maps.

The game files are written here (tests/aa/triplea_writer.py), in the format of TripleA's
game.dtd; none is copied from TripleA.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from movecheck.aa.editions import AA1942, Revised
from movecheck.core import check
from movecheck.schema import validate_data
from movecheck.settings import Settings
from tests.harness import yaml_data, yaml_text

from .triplea_writer import game_xml

REPO = Path(__file__).resolve().parents[2]
REVISED = json.loads((REPO / "movecheck" / "aa" / "maps" / "aa-revised.json").read_text(encoding="utf-8"))

SMALL = {
    "name": "small",
    "title": "Tiny War",
    "powers": ["Reds", "Blues"],
    "sides": {"East": ["Reds"], "West": ["Blues"]},
    "territories": [
        {"name": "1 Sea Zone", "sea": True},
        {"name": "2 Sea Zone", "sea": True},
        {"name": "Blueland", "production": 5, "capital": "Blues"},
        {"name": "Isthmus"},
        {"name": "Redland", "production": 4, "capital": "Reds"},
        {"name": "Swampland", "neutral": True},
    ],
    "connections": [
        ["1 Sea Zone", "2 Sea Zone"],
        ["1 Sea Zone", "Isthmus"],
        ["2 Sea Zone", "Isthmus"],
        ["Blueland", "Isthmus"],
        ["Isthmus", "Redland"],
        ["Redland", "Swampland"],
        ["1 Sea Zone", "Redland"],
        ["2 Sea Zone", "Blueland"],
    ],
    "control": {"Blueland": "Blues", "Isthmus": "Blues", "Redland": "Reds"},
    "canals": [{"name": "Tiny Canal", "sea_zones": ["1 Sea Zone", "2 Sea Zone"], "land": ["Isthmus"]}],
    "units": [
        {"at": "1 Sea Zone", "power": "Reds", "type": "transport", "count": 1},
        {"at": "Redland", "power": "Reds", "type": "tank", "count": 2},
    ],
    "unit_types": {
        "tank": {
            "movement": 2,
            "attack": 3,
            "defense": 3,
            "domain": "land",
            "cost": 5,
            "transport_cost": 3,
            "blitz": True,
        },
        "transport": {"movement": 2, "attack": 0, "defense": 1, "domain": "sea", "cost": 7, "transport_capacity": 5},
    },
}


def convert(run_main, tmp_path: Path, text: str | bytes, *extra: str, env=None) -> tuple[int, str, str]:
    path = tmp_path / "game.xml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return run_main(["import", "triplea", str(path), *extra], env=env)


def one_error_line(err: str) -> str:
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert err.startswith("movecheck: error: ")
    return err


def test_a_small_game_converts_to_a_valid_map(run_main, tmp_path: Path) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, properties={"neutralCharge": 3}, impassable=False))
    assert code == 0, err
    data = yaml_data(out)
    assert validate_data("aa-map", data) == []
    assert data["territories"] == SMALL["territories"]
    assert data["control"] == SMALL["control"]
    assert data["canals"] == SMALL["canals"]
    assert data["units"] == SMALL["units"]  # sorted by space, power, type
    assert data["unit_types"] == SMALL["unit_types"]
    assert data["sides"] == {"East": ["Reds"], "West": ["Blues"]}
    assert data["powers"] == ["Reds", "Blues"]
    assert "edition" not in data
    # the unowned land is neutral, and entering it for a charge is not modelled: said in both places
    assert "paying to enter neutral territories (neutralCharge 3)" in out.split("movecheck: 1")[0]
    assert "movecheck: note: " in err and "not modelled: paying to enter neutral territories (neutralCharge 3)" in err
    assert "no edition named" in err and "# Rules: none named" in out


def test_output_file_and_determinism(run_main, tmp_path: Path) -> None:
    code, out, _ = convert(run_main, tmp_path, game_xml(SMALL))
    code2, out2, _ = convert(run_main, tmp_path, game_xml(SMALL), "-o", str(tmp_path / "map.yaml"))
    assert code == code2 == 0 and out2 == ""
    assert (tmp_path / "map.yaml").read_text(encoding="utf-8") == out
    # the order of the XML does not matter: connections and placements shuffled give the same map
    shuffled = dict(SMALL, connections=[[b, a] for a, b in reversed(SMALL["connections"])],
                    units=list(reversed(SMALL["units"])))
    assert convert(run_main, tmp_path, game_xml(shuffled))[1] == out


@pytest.mark.parametrize(("name", "edition", "why"), [
    ("World War II Revised", "aa-revised", "TripleA's World War II Revised is Axis & Allies Revised"),
    ("World War II v5 1942 Second Edition", "aa1942", "is Axis & Allies 1942, second edition"),
    ("Axis & Allies 1942 Second Edition", "aa1942", "the game name says"),
    ("Axis and Allies 1942 2nd edition", "aa1942", "the game name says"),
    ("World War II Global 1940", None, "no movecheck edition is known"),
    # only the games known to be an edition's are named: none of these is
    ("World War II v3 1942", None, "Anniversary edition"),  # the 1942 set-up of the Anniversary edition
    ("World War II v3 1941", None, "Anniversary edition"),
    ("Global 1942 v2", None, "no movecheck edition is known"),
    ("World War II Global 1942 2nd Edition", None, "no movecheck edition is known"),
    ("Ultimate World - Revised", None, "no movecheck edition is known"),
    ("AA Enhanced Revised", None, "no movecheck edition is known"),
    ("World War II Revised Test", None, "no movecheck edition is known"),
])
def test_the_edition_is_named_only_for_a_game_known_to_be_it(run_main, tmp_path: Path, name: str, edition: str | None,
                                                              why: str) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, name=name))
    assert code == 0
    assert yaml_data(out).get("edition") == edition
    if edition:
        assert f"# Rules: {edition} " in out and f"rules {edition} " in err
    else:
        assert "# Rules: none named (" in out and "no edition named (" in err
    assert why in out.splitlines()[1] and why in err.splitlines()[0]


def test_what_movecheck_does_not_model_is_listed(run_main, tmp_path: Path) -> None:
    extra = """  <technology><technologies><techname name="jetPower"/></technologies></technology>
  <attachmentList>
    <attachment name="triggerAttachmentX" attachTo="Reds" type="player"><option name="when" value="before:x"/></attachment>
  </attachmentList>"""
    text = game_xml(SMALL, properties={"Use Politics": True, "Neutrals Are Impassable": True, "Tech Development": True},
                    extra=extra)
    text = text.replace('<option name="movement" value="2"/>', '<option name="movement" value="2"/>'
                        '<option name="isAirBase" value="true"/>', 1)
    text = text.replace("</ownerInitialize>", "</ownerInitialize>", 1).replace(
        "</initialize>", '<relationshipInitialize><relationship type="War" player1="Reds" player2="Blues"'
        ' roundValue="1"/></relationshipInitialize></initialize>')
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 0, err
    header = out.split("movecheck: 1")[0]
    for item in ("political relations", "technology", "triggers", "air and naval bases"):
        assert item in header, item
        assert re.search(rf"^movecheck: note: .*: not modelled: {item}", err, re.M), item
    assert "paying to enter" not in err  # neutrals impassable: movecheck models that
    # one stderr line per item not modelled, plus the edition and the options
    not_modelled = header.split("# Not modelled by movecheck (the checks ignore them):")[1]
    assert err.count("\n") == 2 + not_modelled.count("#   - ")
    assert err.count(": not modelled: ") == not_modelled.count("#   - ")


def test_not_modelled_notes_are_true_and_said_once(run_main, tmp_path: Path) -> None:
    # technology and politics each come from several parts of a game: one note each
    extra = """  <technology><technologies><techname name="jetPower"/></technologies></technology>
  <attachmentList>
    <attachment name="techAttachment" attachTo="Reds" type="player"><option name="jetPower" value="true"/></attachment>
    <attachment name="techAttachment" attachTo="Blues" type="player"><option name="jetPower" value="false"/></attachment>
    <attachment name="techAbilityAttachment" attachTo="jetPower" type="technology"><option name="attackBonus" value="1:fighter"/></attachment>
    <attachment name="politicalActionAttachment" attachTo="peace" type="player"><option name="relationshipChange" value="Reds:Blues:Neutrality"/></attachment>
    <attachment name="relationshipTypeAttachment" attachTo="War" type="relationship"><option name="archeType" value="war"/></attachment>
  </attachmentList>"""
    game = {**SMALL, "unit_types": {**SMALL["unit_types"], "aa_gun": AA1942.unit_type_values()["aa_gun"]},
            "sides": {"East": ["Reds"]}}
    text = game_xml(
        game, properties={"Use Politics": True, "Tech Development": True, "Neutrals Are Impassable": True}, extra=extra
    ).replace(
        "</initialize>",
        '<relationshipInitialize><relationship type="War" player1="Reds"'
        ' player2="Blues" roundValue="1"/></relationshipInitialize></initialize>',
    )
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 0, err
    header = out.split("movecheck: 1")[0]
    not_modelled = header.split("# Not modelled by movecheck (the checks ignore them):\n")[1].splitlines()
    items = [line[len("#   - "):] for line in itertools.takewhile(lambda line: line.startswith("#   - "), not_modelled)]
    assert items == ["political relations (the sides are the game's alliances)",
                     "technology (advances that change movement: jet power, long-range aircraft, ...)"]
    # the AA gun's canNotMoveDuringCombatMove is modelled (AA108): an option, not a note
    assert yaml_data(out)["options"]["aa_guns_move_in_combat"] is False
    assert "aa_guns_move_in_combat: false (unit type aaGun: canNotMoveDuringCombatMove: true)" in header
    # a player in no alliance is modelled (a side of its own): a conversion note
    assert "# Conversion notes:\n#   - a player in no alliance (Blues forms a side of its own)\n" in header
    assert len(err.splitlines()) == len(set(err.splitlines()))
    assert err.count("conversion note: a player in no alliance (Blues forms a side of its own)") == 1


# -- the converted Revised map checks a turn exactly like the built-in one ------------------------

ORDERS = [
    [  # a combat move with legal and illegal orders
        {"units": {"tank": 2}, "path": ["Germany", "Eastern Europe", "Karelia S.S.R."]},
        {"units": {"infantry": 1}, "path": ["Germany", "Switzerland"]},
        {"units": {"tank": 1}, "path": ["Libya", "Anglo Egypt", "Trans-Jordan"]},
        {"units": {"battleship": 1}, "path": ["14 Sea Zone", "15 Sea Zone", "34 Sea Zone"]},
        {"units": {"fighter": 1}, "path": ["Norway", "Karelia S.S.R."]},
        {"units": {"submarine": 2}, "path": ["5 Sea Zone", "6 Sea Zone"], "attack": True},
    ],
    [
        {"units": {"infantry": 3}, "path": ["Belorussia", "West Russia", "Russia"]},
        {"units": {"bomber": 1}, "path": ["Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia",
                                           "Russia", "Kazakh S.S.R.", "Novosibirsk", "Evenki National Okrug"]},
        {"units": {"tank": 1}, "path": ["Western Europe", "Spain"]},
    ],
]


def _findings(tmp_path: Path, folder: str, map_ref: str, moves: list, rules: str | None,
              options: dict | None = None) -> list[tuple]:
    where = tmp_path / folder
    where.mkdir(exist_ok=True)
    state = {"movecheck": 1, "system": "aa", "map": map_ref,
             "turn": {"round": 1, "power": "Germans", "phase": "combat_move"}}
    if rules is not None:  # None: the edition the map names
        state["rules"] = rules
    if options:
        state["options"] = options
    (where / "state.yaml").write_text(yaml_text(state), encoding="utf-8")
    orders = {"movecheck": 1, "system": "aa", "power": "Germans", "phase": "combat_move", "moves": moves}
    (where / "orders.yaml").write_text(yaml_text(orders, sort_keys=False), encoding="utf-8")
    report, _ = check([str(where / "orders.yaml")], Settings(state=str(where / "state.yaml")))
    return [(f.code, f.severity, f.message, f.line, f.column) for f in report.sorted_findings()
            if f.file.endswith("orders.yaml")]


# the settings of TripleA's Revised game (ww2v2.xml) that movecheck reads
REVISED_SETTINGS = {"WW2V2": True, "Submersible Subs": True, "Neutrals Are Impassable": True, "neutralCharge": 9999999,
                    "Move existing fighters to new carriers": True}  # as ww2v2.xml sets them


def test_the_converted_revised_map_is_the_built_in_map(run_main, tmp_path: Path) -> None:
    text = game_xml(REVISED, version="1.4.1", properties=REVISED_SETTINGS)
    code, _out, err = convert(run_main, tmp_path, text, "-o", str(tmp_path / "revised.yaml"))
    assert code == 0, err
    data = yaml_data((tmp_path / "revised.yaml").read_text(encoding="utf-8"))
    assert data["edition"] == "aa-revised"
    territories = [{k: v for k, v in t.items() if k != "aliases"} for t in REVISED["territories"]]  # gen_maps adds them
    assert {k: v for k, v in data.items() if k not in ("name", "source", "options")} == {
        **{k: v for k, v in REVISED.items() if k not in ("name", "source")}, "territories": territories}
    values = Revised.option_values()
    assert data["options"] == {k: values[k] for k in data["options"]}  # the game's settings are the edition's
    # the edition and the options (every setting read gives a declared option): nothing left out
    assert [re.sub(r"^movecheck: (note: )?[^:]*: ", "", line)[:12] for line in err.splitlines()] == [
        "rules aa-rev", "16 rule opti"]  # the Low Luck settings among them


@pytest.fixture(scope="module")
def converted_revised(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str, dict | None]:
    """``movecheck import triplea`` of the Revised game, run once for the module (in this process): the exit
    code, the standard error, the converted map's text and its ``options``."""
    import contextlib
    import io

    from movecheck.cli import main

    where = tmp_path_factory.mktemp("revised")
    (where / "game.xml").write_text(game_xml(REVISED, version="1.4.1", properties=REVISED_SETTINGS),
                                    encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["import", "triplea", str(where / "game.xml"), "-o", str(where / "revised.yaml")])
    written = (where / "revised.yaml").read_text(encoding="utf-8") if code == 0 else ""
    return code, err.getvalue(), written, yaml_data(written)["options"] if written else None


@pytest.mark.parametrize("rules", ["aa1942", "aa-revised", None], ids=["rules-1942", "rules-revised", "map-edition"])
@pytest.mark.parametrize("moves", ORDERS, ids=["combat-mixed", "combat-more"])
def test_the_converted_revised_map_checks_a_turn_like_the_built_in_map(converted_revised, tmp_path: Path, moves,
                                                                       rules) -> None:
    code, err, written, options = converted_revised  # the conversion is the same for every turn: made once
    assert code == 0, err
    (tmp_path / "revised.yaml").write_text(written, encoding="utf-8")
    converted = _findings(tmp_path, "converted", "../revised.yaml", moves, rules)
    # the map's options come after the edition's: as if the state said them
    builtin = _findings(tmp_path, "builtin", "aa-revised", moves, rules, options)
    assert converted == builtin
    assert any(f[1].name == "ERROR" for f in builtin)  # the orders do break rules: the comparison means something


# -- broken and hostile files ---------------------------------------------------------------------

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE game [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
]>
<game><info name="&lol9;" version="1"/></game>
"""

EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE game [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<game><info name="&xxe;" version="1"/><map><territory name="&xxe;"/></map></game>
"""

EXTERNAL_DTD = """<?xml version="1.0"?>
<!DOCTYPE game SYSTEM "file:///etc/passwd">
<game><info name="x" version="1"/><map><territory name="a"/></map><playerList><player name="P"/></playerList></game>
"""


@pytest.mark.parametrize(("text", "expected"), [
    (BILLION_LAUGHS, "unsafe XML file"),
    (EXTERNAL, "unsafe XML file"),
    ("this is not XML at all", "not a well-formed XML file"),
    ("<game><map></game>", "not a well-formed XML file"),
    ("<?xml version='1.0'?><notagame/>", "not a TripleA game file"),
    (b"\xff\xfe\x00<", "not a"),
    ("", "not a well-formed XML file"),
    ("<game/>", "no territories"),
    ('<game><map><territory name="a"/><connection t1="a" t2="b"/></map></game>', "unknown territory 'b'"),
], ids=["billion-laughs", "external-entity", "not-xml", "unclosed", "wrong-root", "binary", "empty",
        "no-territories", "bad-connection"])
def test_a_broken_or_hostile_file_is_one_error_line(run_main, tmp_path: Path, text, expected) -> None:
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 2 and out == ""
    assert expected in one_error_line(err)
    assert "root:" not in out + err  # nothing of /etc/passwd


def test_names_in_the_file_cannot_write_into_the_map(run_main, tmp_path: Path) -> None:
    # a name with a character reference for a new line goes into the header's notes: it stays a comment
    odd = "Blues\nedition: aa-revised\noptions: {neutrals_impassable: false}"
    game = {**SMALL, "powers": ["Reds", odd], "sides": {"East": ["Reds"]},
            "territories": [{k: v for k, v in t.items() if k != "capital"} for t in SMALL["territories"]],
            "control": {"Redland": "Reds", "Blueland": odd}}
    text = game_xml(game, properties={"Neutrals Are Impassable": True})
    assert "&#10;" in text
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 0, err
    data = yaml_data(out)
    assert "edition" not in data and data["options"]["neutrals_impassable"] is True
    assert data["powers"] == ["Reds", odd]  # the name itself is data, quoted by YAML
    header = out.split("movecheck: 1")[0]
    assert all(line.startswith("#") for line in header.splitlines())
    assert "a player in no alliance (Blues edition: aa-revised options: {neutrals_impassable: false} forms" in header
    assert all(line.startswith("movecheck: ") for line in err.splitlines())


def test_a_parse_error_gives_its_position(run_main, tmp_path: Path) -> None:
    code, _, err = convert(run_main, tmp_path, "<game>\n  <map>\n</game>\n")
    assert code == 2
    assert re.search(r"game\.xml:3:\d+: not a well-formed XML file", one_error_line(err))


def test_an_external_dtd_is_never_fetched(run_main, tmp_path: Path) -> None:
    code, out, err = convert(run_main, tmp_path, EXTERNAL_DTD)
    assert "root:" not in out + err
    assert "Traceback" not in err
    assert code == 0 and "name: x" in out


def test_a_file_over_the_size_limit_is_refused(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "big.xml"
    path.write_text("<game>" + "<!-- padding -->" * 10_000 + "</game>", encoding="utf-8")
    code, out, err = run_cli(["import", "triplea", str(path)], env={"MOVECHECK_MAX_BYTES": "100000"})
    assert code == 2 and out == ""
    assert "larger than 100000 bytes" in one_error_line(err)


@pytest.mark.slow
def test_a_50_mb_file_is_one_error_line(run_cli, tmp_path: Path) -> None:
    # 50 MB under the default limit: read, parsed and refused (no territory) without a traceback;
    # over a lower limit: refused before parsing
    path = tmp_path / "huge.xml"
    chunk = '<unit name="u"/>' * 4096
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("<game><unitList>")
        while handle.tell() < 50 * 1024 * 1024:
            handle.write(chunk)
        handle.write("</unitList></game>")
    code, out, err = run_cli(["import", "triplea", str(path)])
    assert code == 2 and out == ""
    assert "no territories" in one_error_line(err)
    code, out, err = run_cli(["import", "triplea", str(path)], env={"MOVECHECK_MAX_BYTES": str(10 * 1024 * 1024)})
    assert code == 2 and "larger than" in one_error_line(err)


def test_the_cli_does_not_load_the_converter_at_start_up() -> None:
    import subprocess
    import sys

    code = "import movecheck.cli, sys; print(sorted(m for m in sys.modules if 'defusedxml' in m or 'triplea' in m))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]"


# -- original owners and liberation (issue 35) ----------------------------------------------------

CHINA = {
    "name": "china",
    "title": "Little Pacific",
    "powers": ["Americans", "Japanese", "Chinese"],
    "sides": {"Allies": ["Americans", "Chinese"], "Axis": ["Japanese"]},
    "territories": [
        {"name": "Burma", "production": 1},
        {"name": "Chungking", "production": 2, "capital": "Chinese"},  # held by no power, as in the v3 maps
        {"name": "Tokyo", "production": 8, "capital": "Japanese"},
        {"name": "Washington", "production": 10, "capital": "Americans"},
        {"name": "Yunnan", "production": 1, "original_owner": "Chinese"},
    ],
    "connections": [["Burma", "Yunnan"], ["Yunnan", "Chungking"], ["Tokyo", "Yunnan"], ["Burma", "Washington"]],
    "control": {"Burma": "Americans", "Tokyo": "Japanese", "Washington": "Americans", "Yunnan": "Japanese"},
    "units": [
        {"at": "Burma", "power": "Americans", "type": "tank", "count": 1},
        {"at": "Tokyo", "power": "Japanese", "type": "tank", "count": 1},
    ],
    "unit_types": {"tank": SMALL["unit_types"]["tank"]},
}


def test_original_owners_are_carried_into_the_map(run_main, tmp_path: Path) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(CHINA))
    assert code == 0, err
    data = yaml_data(out)
    assert validate_data("aa-map", data) == []
    assert next(t for t in data["territories"] if t["name"] == "Yunnan")["original_owner"] == "Chinese"
    assert data["control"]["Yunnan"] == "Japanese"  # who holds it at the start is unchanged
    assert "original owners" not in err  # no longer "not modelled"


def test_an_original_owner_that_is_no_player_is_one_error_line(run_main, tmp_path: Path) -> None:
    bad = {**CHINA, "territories": [{**t, "original_owner": "Martians"} if t["name"] == "Yunnan" else t
                                    for t in CHINA["territories"]]}
    code, _out, err = convert(run_main, tmp_path, game_xml(bad))
    assert code == 2 and "original owner of 'Yunnan' is unknown player 'Martians'" in one_error_line(err)


def test_an_imported_game_liberates_as_triplea_does(run_main, tmp_path: Path) -> None:
    """Yunnan, Chinese originally and Japanese at the start, taken by the Americans: China's capital is held by no
    power, so it returns to the Chinese (TripleA does the same)."""
    code, _out, err = convert(run_main, tmp_path, game_xml(CHINA), "-o", str(tmp_path / "china.yaml"))
    assert code == 0, err
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: china.yaml\nturn: {round: 1, power: Americans, phase: combat_move}\n",
        encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Americans\nphase: combat_move\n"
        "moves:\n  - {units: {tank: 1}, path: [Burma, Yunnan]}\n", encoding="utf-8")
    code, out, err = run_main(["apply", str(tmp_path / "orders.yaml"), "--isolated"])
    assert code == 0, out + err
    after = yaml_data(out)
    assert after["control"] == {"Yunnan": "Chinese"}
    assert "# Yunnan: liberated for the Chinese" in out


@pytest.mark.parametrize(("aa_gun", "properties", "name", "captured"), [
    ((("isAA", True),), {}, "Some Game", True),  # TripleA: isAA makes the gun infrastructure
    ((("isAAforCombatOnly", True), ("isInfrastructure", True)), {}, "Some Game", True),
    ((("isAAforCombatOnly", True),), {"WW2V2": True}, "World War II Revised Variant", True),  # Revised settings
    ((("isAAforCombatOnly", True),), {"WW2V2": True, "WW2V3": True}, "Some Game", False),
    ((("isAAforCombatOnly", True),), {}, "World War II Revised", True),  # Revised by its name
    ((("canNotMoveDuringCombatMove", True), ("isAAforCombatOnly", True)), {"WW2V3": True}, "Some Game", False),
], ids=["isAA", "isInfrastructure", "WW2V2", "WW2V3", "named-revised", "1942"])
def test_aa_guns_are_captured_on_revised_games(run_main, tmp_path: Path, aa_gun, properties, name, captured) -> None:
    game = {**SMALL, "unit_types": {**SMALL["unit_types"], "aa_gun": AA1942.unit_type_values()["aa_gun"]}}
    code, out, err = convert(run_main, tmp_path, game_xml(game, name=name, aa_gun=aa_gun, properties=properties))
    assert code == 0, err
    assert yaml_data(out)["options"]["aa_guns_captured"] is captured
    assert f"aa_guns_captured: {str(captured).lower()} (" in out


def test_an_aa_gun_of_an_imported_revised_variant_changes_hands(run_main, tmp_path: Path) -> None:
    """A Revised game movecheck does not know by name: its AA gun is captured with its territory all the same."""
    game = {**SMALL, "unit_types": {**SMALL["unit_types"], "aa_gun": AA1942.unit_type_values()["aa_gun"]},
            "control": {**SMALL["control"], "Isthmus": "Blues"},
            "units": [*SMALL["units"], {"at": "Isthmus", "power": "Blues", "type": "aa_gun", "count": 1}]}
    code, _out, err = convert(run_main, tmp_path, game_xml(game, name="Tiny Revised War", aa_gun=(("isAA", True),)),
                              "-o", str(tmp_path / "tiny.yaml"))
    assert code == 0, err
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: tiny.yaml\nturn: {round: 1, power: Reds, phase: combat_move}\n",
        encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Reds\nphase: combat_move\n"
        "moves:\n  - {units: {tank: 1}, path: [Redland, Isthmus]}\n", encoding="utf-8")
    code, out, err = run_main(["apply", str(tmp_path / "orders.yaml"), "--isolated"])
    assert code == 0, out + err
    after = yaml_data(out)
    assert after["control"] == {"Isthmus": "Reds"}
    assert [u["power"] for u in after["units"] if u["type"] == "aa_gun"] == ["Reds"]
