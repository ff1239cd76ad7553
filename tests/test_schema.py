"""The shipped JSON Schemas and schema validation into MC003/MC005/MC007/MC010 findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from movecheck.schema import SCHEMA_NAMES, load_schema, schema_dir, schema_text, validate_data

REPO = Path(__file__).resolve().parents[1]


def findings_of(out: str) -> list[dict]:
    return json.loads(out)["findings"]


def where(findings: list[dict]) -> list[tuple[str, str, int, int]]:
    return [(f["code"], f["severity"], f["line"], f["column"]) for f in findings]


# -- the schemas themselves ------------------------------------------------------------


def test_the_schemas() -> None:
    assert SCHEMA_NAMES == (
        "aa-map",
        "aa-state",
        "aa-orders",
        "aa-battles",
        "aa-purchase",
        "aa-mobilize",
        "aa-odds",
        "maneuver-state",
        "maneuver-orders",
        "reach",
        "report",
        "apply-report",
        "summary",
    )


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://movecheck.dev/schemas/{name}/v1.json"


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_packaged_schema_matches_source_tree(name: str) -> None:
    assert schema_text(name) == (REPO / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
    assert (schema_dir() / f"{name}.schema.json").is_file()


def test_unknown_schema_name_raises() -> None:
    with pytest.raises(KeyError):
        load_schema("aa-nothing")


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_command_prints_it(run_main, name: str) -> None:
    code, out, err = run_main(["schema", name])
    assert code == 0
    assert err == ""
    assert out == schema_text(name)
    assert json.loads(out) == load_schema(name)


def test_schema_command_unknown_name(run_cli) -> None:
    code, out, err = run_cli(["schema", "aa-nothing"])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("movecheck: error: unknown schema 'aa-nothing'")
    assert "Traceback" not in err


@pytest.mark.parametrize("name", ["aa1942-2e", "aa-revised"])
def test_builtin_maps_match_the_map_schema(name: str) -> None:
    data = json.loads((REPO / "movecheck" / "aa" / "maps" / f"{name}.json").read_text(encoding="utf-8"))
    assert [e.message for e in validate_data("aa-map", data)] == []


# -- MC003 at the right node, with suggestions ------------------------------------------------


ORDERS_MISSPELT_KEY = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
pahse: combat_move
moves:
  - units: {tank: 2}
    path: [Germany, Poland]
"""


def test_unknown_key_at_key_with_suggestion(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", ORDERS_MISSPELT_KEY)
    code, out, _ = run_main(["lint", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    findings = findings_of(out)
    unknown = [f for f in findings if "unknown key" in f["message"]]
    assert where(unknown) == [("MC003", "error", 5, 1)]
    assert unknown[0]["message"] == "unknown key 'pahse' in the file; did you mean 'phase'?"
    assert unknown[0]["name"] == "schema"
    missing = [f for f in findings if "missing required key" in f["message"]]
    assert [m["message"] for m in missing] == ["the file: missing required key 'phase'"]


def test_unknown_nested_keys(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "s.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn:\n  round: 1\n  power: Germans\n"
        "  phase: combat_move\n  pahse: x\ncontrl: {Poland: Russians}\n",
    )
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    findings = findings_of(out)
    assert where(findings) == [("MC003", "error", 8, 3), ("MC003", "error", 9, 1)]
    assert findings[0]["message"] == "unknown key 'pahse' in turn; did you mean 'phase'?"
    assert findings[1]["message"] == "unknown key 'contrl' in the file; did you mean 'control'?"


def test_unknown_key_inside_an_order_names_the_order(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "o.yaml",
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\nmoves:\n"
        "  - id: first\n    units: {tank: 1}\n    path: [Germany, Poland]\n"
        "  - id: second\n    units: {tank: 1}\n    paht: [Germany, Poland]\n",
    )
    code, out, _ = run_main(["lint", "o.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    findings = findings_of(out)
    unknown = [f for f in findings if "unknown key" in f["message"]]
    assert where(unknown) == [("MC003", "error", 12, 5)]
    assert unknown[0]["message"] == "unknown key 'paht' in moves[2]; did you mean 'path'?"
    missing = [f for f in findings if "missing required key" in f["message"]]
    assert where(missing) == [("MC003", "error", 10, 5)]
    assert missing[0]["message"] == "moves[2]: missing required key 'path'"


STATE_BAD_PHASE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {power: Germans, phase: combat_mvoe}
"""


def test_bad_enum_value_at_value_with_suggestion(run_main, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", STATE_BAD_PHASE)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert where(findings) == [("MC003", "error", 4, 31)]
    message = findings[0]["message"]
    assert message.startswith("turn.phase: 'combat_mvoe' is not one of: combat_move, noncombat_move")
    assert "did you mean 'combat_move'" in message
    assert findings[0]["order"] is None


def test_bad_enum_value_text_output(run_main, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", STATE_BAD_PHASE)
    code, out, _ = run_main(["lint", "state.yaml"], cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[0].startswith("state.yaml:4:31: MC003 [error] turn.phase: 'combat_mvoe'")


def test_missing_required_keys(run_main, tmp_path, write) -> None:
    write(tmp_path, "s.yaml", "movecheck: 1\nsystem: aa\nturn: {round: 1, power: Germans}\n")
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert [(f["line"], f["column"], f["message"]) for f in findings] == [
        (1, 1, "the file: missing required key 'map'"),
        (3, 7, "turn: missing required key 'phase'"),
    ]


@pytest.mark.parametrize(
    ("turn", "column", "message"),
    [
        (
            "{round: two, power: Germans, phase: combat_move}",
            15,
            "turn.round: expected a whole number, got the text 'two'",
        ),
        ("{round: 0, power: Germans, phase: combat_move}", 15, "turn.round: 0 is less than the minimum of 1"),
        ("[Germans, combat_move]", 7, "turn: expected a mapping, got a list"),
        ("{round: 1, power: [Germans], phase: combat_move}", 25, "turn.power: expected a text, got a list"),
    ],
)
def test_wrong_type_at_value(run_main, tmp_path, write, turn: str, column: int, message: str) -> None:
    write(tmp_path, "s.yaml", f"movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {turn}\n")
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert [(f["code"], f["line"], f["column"], f["message"]) for f in findings] == [("MC003", 4, column, message)]


ORDERS_SHAPES = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {tank: 0}
    path: [Germany]
  - units: []
    path: [Germany, Poland]
"""


def test_any_of_reports_the_branch_that_fits(run_main, aa_dir, write) -> None:
    # units is a mapping of counts or a list of ids: a bad mapping is reported as a bad
    # mapping (at the count), an empty list as an empty list -- each at its own node.
    write(aa_dir, "o.yaml", ORDERS_SHAPES)
    code, out, _ = run_main(["lint", "o.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    findings = findings_of(out)
    assert [(f["line"], f["column"], f["message"], f["order"]) for f in findings] == [
        (7, 19, "moves[1].units.tank: 0 is less than the minimum of 1", 1),
        (8, 11, "moves[1].path: ['Germany'] is too short", 1),
        (9, 12, "moves[2].units: [] should be non-empty", 2),
    ]
    summary = json.loads(out)["summary"]
    assert summary["orders"] == 2
    assert (summary["illegal_orders"], summary["unchecked_orders"]) == (0, 2)  # lint does not judge orders


# -- MC005 implicit types --------------------------------------------------------------


ORDERS_OCTAL_STEP = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {tank: 2}
    path: [0101, Poland]
"""


def test_octal_name_is_mc005_then_read_as_text(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", ORDERS_OCTAL_STEP)
    code, out, _ = run_main(["lint", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 0  # a warning only: no MC003 for the integer, it was taken as text
    findings = findings_of(out)
    assert where(findings) == [("MC005", "warning", 8, 12)]
    assert findings[0]["name"] == "implicit-type"
    assert findings[0]["message"] == (
        "0101 is read by YAML 1.1 as the integer 65 where a name is expected; quote it: '0101'"
    )
    assert findings[0]["order"] == 1


def test_octal_name_is_then_resolved_as_the_text(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", ORDERS_OCTAL_STEP)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    findings = findings_of(out)
    assert where(findings) == [("MC004", "error", 8, 12), ("MC005", "warning", 8, 12)]
    assert "'0101'" in findings[0]["message"]  # the text as written, not 65


def test_boolean_power_is_mc005_then_read_as_text(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "orders.yaml",
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: no\nphase: combat_move\nmoves: []\n",
    )
    code, out, _ = run_main(["lint", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 0
    findings = findings_of(out)
    assert where(findings) == [("MC005", "warning", 4, 8)]
    assert (
        findings[0]["message"] == "no is read by YAML 1.1 as the boolean false where a name is expected; quote it: 'no'"
    )
    assert findings[0]["order"] is None
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    codes = [(f["code"], f["line"], f["column"]) for f in findings_of(out)]
    assert ("MC005", 4, 8) in codes
    named = [f for f in findings_of(out) if f["code"] in ("MC004", "MC006")]
    assert named and all("'no'" in f["message"] or " no" in f["message"] for f in named)


def test_quoted_names_give_no_mc005(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "orders.yaml",
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: 'no'\nphase: combat_move\n"
        "moves:\n  - units: {tank: 2}\n    path: ['0101', Poland]\n",
    )
    code, out, _ = run_main(["lint", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 0
    assert findings_of(out) == []


def test_integer_where_integer_expected_is_not_mc005(run_main, tmp_path, write) -> None:
    write(
        tmp_path,
        "s.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 010, power: Germans, phase: combat_move}\n",
    )
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 0
    assert findings_of(out) == []


# -- MC007, MC010 ------------------------------------------------------------------------


@pytest.mark.parametrize(("version", "column"), [("2", 12), ("0", 12), ("true", 12), ("'1'", 12), ("1.5", 12)])
def test_unsupported_version_at_value(run_main, tmp_path, write, version: str, column: int) -> None:
    write(
        tmp_path,
        "o.yaml",
        f"movecheck: {version}\nsystem: aa\nstate: s.yaml\npower: Germans\nphase: combat_move\nmoves: []\n",
    )
    code, out, _ = run_main(["lint", "o.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert where(findings) == [("MC007", "error", 1, column)]  # no schema findings on top of it
    assert findings[0]["name"] == "unsupported-version"
    assert "this release reads movecheck: 1" in findings[0]["message"]


def test_version_2_in_check_stops_there(run_main, aa_dir, write) -> None:
    write(
        aa_dir, "o.yaml", "movecheck: 2\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\nmoves: []\n"
    )
    code, out, _ = run_main(["check", "o.yaml"], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0] == (
        "o.yaml:1:12: MC007 [error] format version 2 is not supported; this release reads movecheck: 1"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- movecheck: 1\n- system: aa\n", "the file is a list, not a movecheck mapping with a 'system:' key"),
        ("just text\n", "the file is a str, not a movecheck mapping with a 'system:' key"),
        ("movecheck: 1\nmap: aa1942-2e\n", "the file has no 'system:' key (aa or maneuver)"),
    ],
)
def test_not_a_movecheck_mapping_is_mc010(run_main, tmp_path, write, text: str, message: str) -> None:
    write(tmp_path, "s.yaml", text)
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert [(f["code"], f["line"], f["column"], f["message"]) for f in findings] == [("MC010", 1, 1, message)]
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in json.loads(out)["files"]] == [
        {"path": "s.yaml", "kind": "unknown", "state": None, "config": None}
    ]


def test_unknown_system_is_mc010_at_the_value(run_main, tmp_path, write) -> None:
    write(tmp_path, "s.yaml", "movecheck: 1\nsystem: chess\n")
    code, out, _ = run_main(["lint", "s.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    findings = findings_of(out)
    assert where(findings) == [("MC010", "error", 2, 9)]
    assert (
        findings[0]["message"] == "the file's system: is not one of: aa, maneuver; its value is not shown"
    )  # not a movecheck file


def test_clean_state_lints_clean(run_main, aa_dir) -> None:
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 0
    document = json.loads(out)
    assert document["findings"] == []
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in document["files"]] == [
        {"path": "state.yaml", "kind": "aa-state", "state": None, "config": None}
    ]
