"""Rule options and aa editions: each declared once, found by name or alias, listed by ``rules``."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

from movecheck.aa.editions import AA1942, DEFAULT_EDITION, EDITIONS, Edition, find_edition
from movecheck.aa.maps import BUILTIN_MAPS, builtin_map
from movecheck.catalogue import load_all
from movecheck.clauses import CATALOGUE
from movecheck.options import OptionSet, flag
from movecheck.schema import SCHEMA_NAMES
from movecheck.systems import option_sets

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "movecheck"
DECLARE = re.compile(r"\b(?:flag|choice|number|mapping)\(\s*\"(\w+)\"")


def sources(folder: Path) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.py"))}


def load_script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def house():
    """A throw-away edition on top of aa1942 (unregistered afterwards)."""

    class House(AA1942):
        name = "house"
        aliases = ("house-rules",)
        options: ClassVar[dict[str, Any]] = {"combat_move_must_attack": False}
        unit_types: ClassVar[dict[str, dict[str, Any] | None]] = {"tank": {"movement": 3}}

    yield House
    EDITIONS.pop("house")


# -- options: declared once, read without a fallback ---------------------------------------


def test_each_option_is_declared_once_in_its_system() -> None:
    declared = [name for text in sources(PACKAGE).values() for name in DECLARE.findall(text)]
    assert sorted(declared) == sorted(set(declared))
    sets = option_sets()
    assert sorted(declared) == sorted(name for options in sets.values() for name in options.names())
    assert sets["aa"].names()[:2] == ["sub_transport_zones_hostile", "subs_may_end_ncm_in_hostile"]
    assert sets["maneuver"].names()[:3] == ["dice", "penalties", "tolerance"]
    with pytest.raises(ValueError, match="declared twice"):
        OptionSet("aa", [flag("x", True, "one"), flag("x", False, "two")])


def test_every_aa_option_read_is_declared_and_has_no_fallback() -> None:
    declared = set(option_sets()["aa"].names())
    read: set[str] = set()
    for path, text in sources(PACKAGE / "aa").items():
        assert not re.search(r"options\.get\(\s*[\"']", text), f"{path}: an option read with a fallback default"
        read.update(re.findall(r"options\[\s*[\"'](\w+)[\"']\s*\]", text))
    assert read == declared  # every read is declared, every declaration is read


def test_every_maneuver_option_read_is_declared() -> None:
    declared = set(option_sets()["maneuver"].names())
    read: set[str] = set()
    for text in sources(PACKAGE / "maneuver").values():  # attribute reads, not method calls
        read.update(re.findall(r"\b(?:opts|options)\.([a-z_]+)\b(?!\s*\()", text))
    assert read == declared  # every read is declared, every declaration is read


def test_each_option_names_clauses_of_its_own_system() -> None:
    load_all()
    for system, options in option_sets().items():
        for option in options:
            assert option.help and option.clauses, option.name
            for code in option.clauses:
                assert CATALOGUE[code].system == system, (option.name, code)
    assert [o.name for o in option_sets()["aa"].governing("AA204")] == ["destroyer_stops_subs"]


def test_maneuver_options_start_at_their_declared_defaults() -> None:
    from movecheck.maneuver.options import OPTIONS, Options

    options = Options()
    for option in OPTIONS:
        shown = options.readings()[option.name]
        assert shown == (dict(sorted(option.default.items())) if isinstance(option.default, dict) else option.default)
    with pytest.raises(TypeError):
        Options(tolerence=0.2)


# -- the state schemas are generated from the declarations ----------------------------------


def test_state_schemas_match_the_declarations() -> None:
    from movecheck.schema import load_schema

    assert load_script("gen_schemas").main(["--check"]) == 0
    for system, options in option_sets().items():
        properties = load_schema(f"{system}-state")["$defs"]["options"]["properties"]
        assert list(properties) == options.names()
        assert all(properties[o.name]["description"] == o.help for o in options)


def test_gen_schemas_check_finds_a_stale_schema(tmp_path, monkeypatch, capsys) -> None:
    script = load_script("gen_schemas")
    for name in SCHEMA_NAMES:
        (tmp_path / f"{name}.schema.json").write_text(
            (script.SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8")
        )
    stale = tmp_path / "aa-state.schema.json"
    schema = json.loads(stale.read_text(encoding="utf-8"))
    del schema["$defs"]["options"]["properties"]["destroyer_stops_subs"]
    stale.write_text(script.render(schema), encoding="utf-8")
    monkeypatch.setattr(script, "SCHEMAS", tmp_path)
    assert script.main(["--check"]) == 1
    assert "aa-state.schema.json is out of date" in capsys.readouterr().err
    assert script.main([]) == 0
    assert script.main(["--check"]) == 0


# -- editions --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["aa1942", "1942", "aa1942-2e"])
def test_edition_by_name_or_alias(name: str) -> None:
    assert find_edition(name) is AA1942


def test_unknown_editions_are_not_found() -> None:
    assert [find_edition(n) for n in ("aa-revisited", "AA1942", "", None, ["aa1942"])] == [None] * 5


def test_aa1942_is_every_option_at_its_default() -> None:
    assert DEFAULT_EDITION is AA1942 and AA1942.extends() is None
    assert AA1942.option_values() == option_sets()["aa"].defaults()
    assert AA1942.option_values()["combat_move_must_attack"] is True


TURN_OPTIONS = {  # spec aa-turn.md, "Options added by this file": (aa1942, aa-revised)
    "place_in_enemy_seas": (True, True),
    "new_fighters_on_old_carriers": (True, True),
    "move_existing_fighters_to_new_carriers": (False, True),
    "unplaced_units": ("refunded", "lost"),
    "partial_amphibious_retreat": (True, False),
    "factory_damage": (True, False),
}


@pytest.mark.parametrize("option", TURN_OPTIONS)
def test_the_turn_options_take_the_spec_values_in_both_editions(option: str) -> None:
    from movecheck.aa.editions import Revised

    assert (AA1942.option_values()[option], Revised.option_values()[option]) == TURN_OPTIONS[option]
    declared = option_sets()["aa"][option]
    assert declared.clauses and declared.help  # documented and governing a clause, as every option
    assert declared.name in json.dumps(json.loads((REPO / "schemas" / "aa-state.schema.json").read_text()))


def test_an_edition_extends_another(house) -> None:
    assert find_edition("house-rules") is house and house.extends() is AA1942
    values = house.option_values()
    assert values["combat_move_must_attack"] is False
    assert {k: v for k, v in values.items() if k != "combat_move_must_attack"} == {
        k: v for k, v in AA1942.option_values().items() if k != "combat_move_must_attack"
    }
    assert list(EDITIONS)[-1] == "house"


def test_a_bad_edition_declaration_is_refused() -> None:
    with pytest.raises(TypeError, match="undeclared options: combat_moves"):
        type("Bad", (AA1942,), {"name": "bad", "options": {"combat_moves": False}})
    with pytest.raises(TypeError, match="'1942' is taken by aa1942"):
        type("Twin", (AA1942,), {"name": "twin", "aliases": ("1942",)})
    with pytest.raises(TypeError, match="has no name"):
        type("Nameless", (Edition,), {})
    assert set(EDITIONS) == {"aa1942", "aa-revised"}


def test_builtin_maps_name_their_edition() -> None:
    assert {name: builtin_map(name).get("edition") for name in BUILTIN_MAPS} == {
        "aa1942-2e": "aa1942",
        "aa-revised": "aa-revised",
    }


# -- which edition a state is checked under --------------------------------------------------

TINY_MAP = """\
map:
  name: tiny
  {edition}powers: [Germans, Russians]
  sides: {{Axis: [Germans], Allies: [Russians]}}
  territories: [{{name: Germany}}, {{name: Poland}}, {{name: Ukraine}}, {{name: Caucasus}}]
  connections: [[Germany, Poland], [Poland, Ukraine], [Ukraine, Caucasus]]
  control: {{Germany: Germans, Poland: Germans, Ukraine: Germans, Caucasus: Russians}}
"""


def tiny_state(edition: str | None = None, rules: str | None = None) -> str:
    head = "movecheck: 1\nsystem: aa\n" + (f"rules: {rules}\n" if rules else "")
    body = TINY_MAP.format(edition=f"edition: {edition}\n  " if edition else "")
    return (
        head
        + body
        + "turn: {round: 1, power: Germans, phase: combat_move}\nunits: [{at: Germany, power: Germans, type: tank}]\n"
    )


def board_of(tmp_path: Path, text: str) -> tuple[Any, list[Any]]:
    from movecheck.aa.setup import build_board
    from movecheck.files import read

    path = tmp_path / "state.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = read(str(path))
    assert [f.message for f in loaded.findings] == []
    setup = build_board(loaded.doc)
    return setup.board, setup.findings


def test_the_state_rules_beat_the_map_edition(tmp_path, house) -> None:
    board, findings = board_of(tmp_path, tiny_state(edition="house"))
    assert findings == [] and board.options["combat_move_must_attack"] is False
    assert board.map.unit_types["tank"].movement == 3  # the map brings no unit types: the edition's
    board, findings = board_of(tmp_path, tiny_state(edition="house", rules="aa1942"))
    assert findings == [] and board.options["combat_move_must_attack"] is True
    assert board.map.unit_types["tank"].movement == 2
    board, _ = board_of(tmp_path, tiny_state(rules="house-rules"))
    assert board.options["combat_move_must_attack"] is False


def test_a_map_without_edition_is_checked_under_the_default(tmp_path) -> None:
    board, findings = board_of(tmp_path, tiny_state())
    assert findings == [] and board.options == AA1942.option_values()


def test_an_unknown_map_edition_is_a_note_and_the_default_applies(tmp_path) -> None:
    board, findings = board_of(tmp_path, tiny_state(edition="aa1924"))
    assert board.options == AA1942.option_values()
    assert [(f.code, f.severity.value, f.line, f.column) for f in findings] == [("MC004", "note", 5, 12)]
    assert findings[0].message == (
        "the map names the rules 'aa1924', which this release does not implement; the aa1942 rules apply "
        "(write 'rules: aa1942' to choose them); did you mean 'aa1942' or 'aa-revised'?"  # aa1924 ~ aa2004
    )


REVISED_STATE = """\
movecheck: 1
system: aa
map: aa-revised
turn: {round: 1, power: Germans, phase: combat_move}
"""


def test_the_revised_map_is_checked_under_the_revised_rules(run_main, tmp_path, write) -> None:
    from movecheck.aa.editions import Revised
    from movecheck.aa.setup import build_board
    from movecheck.files import read

    write(tmp_path, "state.yaml", REVISED_STATE)
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=tmp_path)
    assert (code, json.loads(out)["findings"]) == (0, [])  # no "not implemented" note any more
    assert build_board(read(str(tmp_path / "state.yaml")).doc).board.options == Revised.option_values()
    write(tmp_path, "state.yaml", REVISED_STATE + "rules: aa1942\n")
    assert run_main(["lint", "state.yaml", "-f", "json"], cwd=tmp_path)[1].count('"code"') == 0
    assert build_board(read(str(tmp_path / "state.yaml")).doc).board.options == AA1942.option_values()
    write(tmp_path, "state.yaml", REVISED_STATE)
    write(tmp_path, ".movecheck.yaml", "aa:\n  rules: '1942'\n")  # the configuration beats the map
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=tmp_path)
    assert (code, json.loads(out)["findings"]) == (0, [])


def test_an_unknown_rules_name_is_mc004_with_did_you_mean(run_main, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", REVISED_STATE.replace("aa-revised", "aa1942-2e") + "rules: aa1943\n")
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=tmp_path)
    findings = json.loads(out)["findings"]
    assert code == 1
    assert [(f["code"], f["severity"], f["line"]) for f in findings] == [("MC004", "error", 5)]
    assert findings[0]["message"] == "unknown rules preset 'aa1943'; did you mean 'aa1942'?"
    write(tmp_path, "state.yaml", REVISED_STATE.replace("aa-revised", "aa1942-2e"))
    write(tmp_path, ".movecheck.yaml", "aa:\n  rules: '1924'\n")
    code, out, _ = run_main(["lint", "state.yaml", "-f", "json"], cwd=tmp_path)
    messages = [f["message"] for f in json.loads(out)["findings"]]
    assert messages == ["unknown rules preset '1924'; did you mean 'aa1942'?"]


# -- `movecheck rules` lists every option of both systems ----------------------------------


def test_rules_text_lists_every_option_with_value_and_meaning(run_main) -> None:
    code, out, _ = run_main(["rules"])
    assert code == 0
    assert "\nOptions of the aa preset aa1942:\n" in out and "\nOptions of maneuver (defaults):\n" in out
    for options in option_sets().values():
        for option in options:
            assert re.search(rf"^  {option.name} +\S.*  {re.escape(option.help)}$", out, re.M), option.name
    assert re.search(r"^  destroyer_stops_subs +true  ", out, re.M)
    assert re.search(r"^  tolerance +0\.1  ", out, re.M)


def test_rules_json_and_markdown_list_both_systems(run_main) -> None:
    _, out, _ = run_main(["rules", "--format", "json", "--rules", "aa1942-2e"])
    document = json.loads(out)
    assert document["rules"] == "aa1942"
    assert document["options"] == AA1942.option_values()
    details = {(row["system"], row["name"]): row for row in document["option_details"]}
    assert set(details) == {(s, o.name) for s, options in option_sets().items() for o in options}
    assert details["maneuver", "back_distance"]["value"] == "half_of_max"
    assert details["aa", "destroyer_stops_subs"]["clauses"] == ["AA204"]
    _, out, _ = run_main(["rules", "--format", "markdown", "--system", "maneuver"])
    assert "## Options of maneuver (defaults)" in out and "Options of the aa preset" not in out
    assert "| `pass_through_limit` | `0.5` |" in out
    _, out, _ = run_main(["rules", "--format", "json", "--system", "aa"])
    assert {row["system"] for row in json.loads(out)["option_details"]} == {"aa"}


def test_rules_of_an_unknown_edition_is_a_usage_error(run_main) -> None:
    code, out, err = run_main(["rules", "--rules", "aa-revisited"])
    assert (code, out) == (2, "")
    assert err == "movecheck: error: unknown rules preset 'aa-revisited'; choose one of: aa1942, aa-revised\n"
