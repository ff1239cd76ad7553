"""Output formats for CI and pipelines: full, json-lines, github, sarif; --statistics, --exit-zero; rules tables."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from reuse import check_once

from movecheck.findings import FileReport, Report, make_finding
from movecheck.render import render
from movecheck.render.full import token_width
from movecheck.render.github import escape_data, escape_property

ROOT = Path(__file__).resolve().parents[1]
SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
"""OASIS's SARIF 2.1.0 schema (errata 01), vendored: the validation never skips in a fresh clone (issue 36)."""
AA201 = "examples/aa/orders/variants/aa201-stop-in-hostile.yaml"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def sarif_validator() -> Any:
    from jsonschema import Draft4Validator

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    validator = Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)

    def validate(text: str) -> dict[str, Any]:
        document = json.loads(text)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        assert not errors, "SARIF log does not match the SARIF 2.1.0 schema:\n" + "\n".join(
            f"  at {list(e.absolute_path)}: {e.message}" for e in errors[:20]
        )
        return document

    return validate


@pytest.fixture(scope="session")
def finding_validator(report_schema: dict[str, Any]) -> Any:
    from jsonschema import Draft202012Validator

    schema = {"$schema": report_schema["$schema"], "$defs": report_schema["$defs"], "$ref": "#/$defs/finding"}
    validator = Draft202012Validator(schema)

    def validate(line: str) -> dict[str, Any]:
        document = json.loads(line)
        errors = list(validator.iter_errors(document))
        assert not errors, f"json-lines line is not a finding: {[e.message for e in errors]}\n{line}"
        return document

    return validate


def validate_lines(out: str, finding_validator: Any) -> list[dict[str, Any]]:
    assert out == "" or out.endswith("\n")
    return [finding_validator(line) for line in out.splitlines()]


def movecheck(run_main: Any, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``movecheck ARGS`` in this process (run_main): a fresh interpreter adds nothing to what these tests read."""
    code, out, err = run_main(list(args), cwd=cwd)
    return subprocess.CompletedProcess(["movecheck", *args], code, out, err)


def tricky_report() -> Report:
    """Findings whose paths and messages hold every character the CI formats must escape."""
    report = Report()
    report.files = [FileReport(path="odd, name: 100%.yaml", kind="aa-orders", orders=2, checked=set(range(1, 3)))]
    report.findings = [
        make_finding("MC005", "50% of\r\nthe name: 'no', read as false", file="odd, name: 100%.yaml", line=3, column=7),
        make_finding("AA201", "1 tank must stop: here, now", file="odd, name: 100%.yaml", line=9, column=3, order=2),
        make_finding("AA309", "carrier must move", file="odd, name: 100%.yaml", line=1, column=1),
    ]
    return report


# -- sarif -----------------------------------------------------------------------------------


def test_sarif_of_an_example_validates_and_lists_the_catalogue(run_main, sarif_validator) -> None:
    code, out, err = run_main(["check", AA201, "--format", "sarif"], cwd=ROOT)
    assert (code, err) == (1, "")
    log = sarif_validator(out)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "movecheck"
    from movecheck import __version__
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    assert driver["version"] == __version__
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [c.code for c in CATALOGUE.all()]
    by_id = {r["id"]: r for r in rules}
    aa201 = by_id["AA201"]
    assert aa201["name"] == "stop-in-hostile"
    assert aa201["shortDescription"]["text"] == CATALOGUE["AA201"].summary
    assert aa201["defaultConfiguration"]["level"] == "error"
    assert by_id["MC005"]["defaultConfiguration"]["level"] == "warning"
    assert "C10:" in aa201["help"]["text"]  # the seed paragraph's text
    assert "A land or sea unit may move" in aa201["help"]["text"]
    assert CATALOGUE["AA201"].documentation() in aa201["fullDescription"]["text"]
    (result,) = run["results"]
    assert result["ruleId"] == "AA201"
    assert rules[result["ruleIndex"]]["id"] == "AA201"
    assert result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": AA201, "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 40, "startColumn": 28}
    assert "must stop in Caucasus" in result["message"]["text"]
    assert set(result["partialFingerprints"]) == {"movecheck/v1"}


def test_sarif_of_a_clean_run_and_of_stdin_validate(run_main, sarif_validator, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.legal)
    code, out, _ = run_main(["check", "orders.yaml", "-f", "sarif"], cwd=aa_dir)
    assert code == 0
    assert sarif_validator(out)["runs"][0]["results"] == []
    code, out, _ = run_main(
        ["check", "-", "-f", "sarif"], stdin=aa.illegal.replace("state.yaml", "state.yaml\nbogus: 1"), cwd=aa_dir
    )
    assert code == 1
    log = sarif_validator(out)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"%3Cstdin%3E"}


def test_sarif_with_configuration_notifications_validates(run_main, sarif_validator, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    write(aa_dir, ".movecheck.yaml", "ignore: [AA2]\naa:\n  options: {combat_move_must_attack: false}\n")
    _code, out, _ = run_main(["check", "orders.yaml", "-f", "sarif"], cwd=aa_dir)
    (invocation,) = sarif_validator(out)["runs"][0]["invocations"]
    assert [n["message"]["text"] for n in invocation["toolConfigurationNotifications"]] == [
        "orders.yaml: .movecheck.yaml sets aa.combat_move_must_attack=false; ignores AA2"
    ]


def test_sarif_uris_are_relative_forward_slashed_and_encoded(run_main, sarif_validator, aa, write, tmp_path) -> None:
    write(tmp_path, "game/state.yaml", aa.state)
    write(tmp_path, "game/my orders #1.yaml", aa.illegal)
    absolute = str(tmp_path / "game" / "my orders #1.yaml")
    code, out, _ = run_main(["check", absolute, "--format", "sarif"], cwd=tmp_path)
    assert code == 1
    result = sarif_validator(out)["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "game/my%20orders%20%231.yaml",
        "uriBaseId": "%SRCROOT%",
    }


def test_sarif_fingerprints_ignore_line_moves(run_main, sarif_validator, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    first = sarif_validator(run_main(["check", "orders.yaml", "-f", "sarif"], cwd=aa_dir)[1])["runs"][0]["results"]
    write(aa_dir, "orders.yaml", "# a comment\n\n" + aa.illegal)
    moved = sarif_validator(run_main(["check", "orders.yaml", "-f", "sarif"], cwd=aa_dir)[1])["runs"][0]["results"]
    assert moved[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 10
    assert first[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 8
    assert moved[0]["partialFingerprints"] == first[0]["partialFingerprints"]


def test_sarif_fingerprints_are_unique_per_finding(sarif_validator) -> None:
    report = Report()
    report.files = [FileReport(path="o.yaml", kind="aa-orders", orders=2, checked=set(range(1, 3)))]
    report.findings = [
        make_finding("AA101", "Germany and Caucasus do not border", file="o.yaml", line=4, column=9, order=1),
        make_finding("AA101", "Germany and Caucasus do not border", file="o.yaml", line=6, column=9, order=2),
    ]
    log = sarif_validator(render(report, "sarif"))
    prints = [r["partialFingerprints"]["movecheck/v1"] for r in log["runs"][0]["results"]]
    assert len(set(prints)) == 2
    assert render(report, "sarif") == render(report, "sarif")


def test_sarif_of_tricky_paths_and_config_findings_validate(run_main, sarif_validator, tmp_path, aa, write) -> None:
    write(tmp_path, "state.yaml", aa.state)
    write(tmp_path, "odd, name: 100%.yaml", aa.illegal)
    write(tmp_path, ".movecheck.yaml", "select: [AA, XX]\n")
    code, out, _ = run_main(["check", "odd, name: 100%.yaml", "-f", "sarif", "--statistics"], cwd=tmp_path)
    assert code == 1
    log = sarif_validator(out)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"AA203", "MC004"}
    assert log["runs"][0]["properties"]["statistics"] == {"AA203": 1, "MC004": 1}
    sarif_validator(render(tricky_report(), "sarif"))


# -- json-lines ------------------------------------------------------------------------------


def test_json_lines_one_finding_per_line(run_main, finding_validator) -> None:
    files = [AA201, "examples/aa/orders/variants/mc004-typo.yaml", "examples/aa/orders/variants/mc003-schema.yaml"]
    code, out, err = run_main(["check", *files, "--format", "json-lines"], cwd=ROOT)
    assert (code, err) == (1, "")
    lines = validate_lines(out, finding_validator)
    code, full, _ = run_main(["check", *files, "--format", "json"], cwd=ROOT)
    assert lines == json.loads(full)["findings"]
    assert len(lines) >= 4


def test_json_lines_of_a_clean_run_is_empty(run_main, aa_dir, aa, write, finding_validator) -> None:
    write(aa_dir, "orders.yaml", aa.legal)
    code, out, _ = run_main(["check", "orders.yaml", "-f", "json-lines", "--statistics"], cwd=aa_dir)
    assert (code, out) == (0, "")


def test_json_lines_of_tricky_findings(finding_validator) -> None:
    out = render(tricky_report(), "json-lines")
    lines = validate_lines(out, finding_validator)
    assert len(lines) == 3
    assert lines[0]["message"] == "carrier must move"  # sorted like every format
    assert "\r\n" in lines[1]["message"]  # kept, JSON-escaped on one line


# -- github ----------------------------------------------------------------------------------


def test_github_escaping_rules() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a,b:c%d\ne\rf") == "a%2Cb%3Ac%25d%0Ae%0Df"
    assert escape_data("%0A") == "%250A"  # a literal escape sequence stays literal


def test_github_annotations_escape_paths_and_messages() -> None:
    out = render(tricky_report(), "github")
    lines = out.splitlines()
    assert lines[0] == (
        "::error file=odd%2C name%3A 100%25.yaml,line=9,col=3,title=AA201 stop-in-hostile"
        "::AA201 1 tank must stop: here, now (C10)"
    )
    assert lines[1] == (
        "::warning file=odd%2C name%3A 100%25.yaml,line=3,col=7,title=MC005 implicit-type"
        "::MC005 50%25 of%0D%0Athe name: 'no', read as false"
    )
    assert lines[2].startswith("::notice file=odd%2C name%3A 100%25.yaml,line=1,col=1,title=AA309 ")
    assert lines[3] == "1 error, 1 warning, 1 note in 1 file; 1 of 2 orders legal, 1 illegal."
    assert len(lines) == 4
    for line in lines[:3]:
        _command, properties, message = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line).groups()
        assert "\n" not in message and "\r" not in message
        assert all(re.fullmatch(r"(file|line|col|title)=[^,:]*", p) for p in properties.split(","))


def test_github_puts_errors_first(run_main) -> None:
    report = Report()
    report.files = [FileReport(path="a.yaml", kind="aa-orders", orders=1, checked=set(range(1, 2)))]
    report.findings = [
        make_finding("MC005", "w", file="a.yaml", line=1, column=1),
        make_finding("AA309", "n", file="a.yaml", line=2, column=1),
        make_finding("AA101", "e", file="b.yaml", line=3, column=1),
    ]
    commands = [line.split(" ", 1)[0] for line in render(report, "github").splitlines()[:3]]
    assert commands == ["::error", "::warning", "::notice"]


def test_github_from_the_environment(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir, env={"MOVECHECK_FORMAT": "github"})
    assert code == 1
    assert out.startswith("::error file=orders.yaml,line=8,col=29,title=AA203 not-a-combat-move::AA203 moving 2 tanks")


# -- full ------------------------------------------------------------------------------------


def test_full_aa_example(run_main, snapshot) -> None:
    result = movecheck(run_main, "check", AA201, "--format", "full", "--color", "never")
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    assert "^^^^^^^^ AA201 stop-in-hostile" in result.stdout
    assert result.stdout == snapshot


MANEUVER_EXAMPLE = ROOT / "examples" / "maneuver" / "corps-orders-mv201.yaml"


def test_full_maneuver_example(run_main, snapshot) -> None:
    if not MANEUVER_EXAMPLE.is_file():
        pytest.skip(f"{MANEUVER_EXAMPLE.relative_to(ROOT)} does not exist (maneuver examples not written yet)")
    example = str(MANEUVER_EXAMPLE.relative_to(ROOT))
    result = movecheck(run_main, "check", example, "--format", "full", "--color", "never")
    assert result.returncode == 1, result.stderr
    assert re.search(r"^ *\d+ \| ", result.stdout, re.M)
    assert re.search(r"^ *\| +\^+ MV\d{3} ", result.stdout, re.M)
    assert result.stdout == snapshot


def test_full_reads_stdin_source(run_main, aa_dir, aa) -> None:
    code, out, _ = run_main(["check", "-", "--stdin-filename", "g1.yaml", "-f", "full"], stdin=aa.illegal, cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[:8] == [
        "g1.yaml:8:29: AA203 [error] moving 2 tanks to Ukraine S.S.R. is not a combat move: no battle there and no "
        "amphibious assault; make this move in noncombat move (C1–C3)",
        "  |",
        "6 | moves:",
        "7 |   - units: {tank: 2}",
        "8 |     path: [Germany, Poland, Ukraine S.S.R.]",
        "  |                             ^^^^^^^^^^^^^^ AA203 not-a-combat-move",
        "  |",
        "",
    ]


def test_full_colours_only_when_asked(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    _, plain, _ = run_main(["check", "orders.yaml", "-f", "full"], cwd=aa_dir)
    _, coloured, _ = run_main(["check", "orders.yaml", "-f", "full", "--color", "always"], cwd=aa_dir)
    assert not ANSI.search(plain)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == plain
    _, no_color, _ = run_main(
        ["check", "orders.yaml", "-f", "full", "--color", "auto"], cwd=aa_dir, env={"NO_COLOR": "1"}
    )
    assert no_color == plain


def test_full_without_source_lines_is_the_text_line() -> None:
    report = Report()
    report.files = [FileReport(path="gone.yaml", kind="aa-orders")]
    report.findings = [make_finding("MC003", "bad", file="gone.yaml", line=3, column=1)]
    out = render(report, "full")
    assert out.startswith("gone.yaml:3:1: MC003 [error] bad\n\n")
    report.sources["gone.yaml"] = "a: 1\n"  # line 3 does not exist
    assert render(report, "full") == out


@pytest.mark.parametrize(
    ("line", "column", "width"),
    [
        ("    path: [Germany, Poland, Ukraine S.S.R.]", 28, 14),
        ("    path: [Germany, Poland]", 4, 4),
        ("phase: combat_mvoe  # typo", 7, 11),
        ("  - {units: 'a, b', path: x}", 12, 6),
        ("name: \"it's\"", 6, 6),
        ("units: {tank: 2}", 7, 1),
        ("x: 1", 10, 1),
        ("  - id: a", 2, 1),
    ],
)
def test_caret_spans_the_token(line: str, column: int, width: int) -> None:
    assert token_width(line, column) == width


# -- statistics, exit-zero, determinism -------------------------------------------------------


def test_statistics_text_and_json(run_main) -> None:
    files = [AA201, "examples/aa/orders/variants/mc004-typo.yaml"]
    code, out, _ = run_main(["check", *files, "--statistics"], cwd=ROOT)
    assert code == 1
    assert out.splitlines() == [
        "    2  MC004  unknown-name             [error]",
        "    1  AA201  stop-in-hostile          [error]",
        f"{AA201}: checked against examples/aa/states/g1-combat.yaml",
        "examples/aa/orders/variants/mc004-typo.yaml: checked against examples/aa/states/g1-combat.yaml",
        "3 errors, 0 warnings, 0 notes in 2 files; 33 of 36 orders legal, 1 illegal,"
        " 2 not checked (unknown names in the order).",
    ]
    code, out, _ = run_main(["check", *files, "--statistics", "--format", "json"], cwd=ROOT)
    document = json.loads(out)  # validated against the report schema by run_main
    assert document["statistics"] == {"AA201": 1, "MC004": 2}
    assert len(document["findings"]) == 3


def test_exit_zero(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml", "--exit-zero"], cwd=aa_dir)
    assert code == 0
    assert "AA203" in out
    code, _, err = run_main(["check", "missing.yaml", "--exit-zero"], cwd=aa_dir)
    assert code == 2
    assert err.startswith("movecheck: error:")
    code, _, _ = run_main(["lint", "orders.yaml", "state.yaml", "--exit-zero", "-f", "json"], cwd=aa_dir)
    assert code == 0


@pytest.mark.parametrize("fmt", ["text", "full", "json", "json-lines", "github", "sarif"])
def test_every_format_is_valid_with_statistics(fmt: str, request, run_main, monkeypatch) -> None:
    # determinism (same bytes twice, across hash seeds) is tests/test_determinism.py's
    check_once(monkeypatch)  # the six formats render copies of one check of the files (tests/reuse.py)
    files = [AA201, "examples/aa/orders/variants/mc004-typo.yaml", "examples/aa/orders/variants/mc003-schema.yaml"]
    first = movecheck(run_main, "check", *files, "--format", fmt, "--statistics")
    assert first.returncode == 1, first.stderr
    assert first.stderr == ""
    if fmt == "sarif":
        request.getfixturevalue("sarif_validator")(first.stdout)
    elif fmt == "json-lines":
        validate_lines(first.stdout, request.getfixturevalue("finding_validator"))
    elif fmt == "json":
        request.getfixturevalue("report_validator")(first.stdout)


def test_unknown_format_is_a_usage_error(run_main) -> None:
    code, out, err = run_main(["check", AA201, "--format", "xml"], cwd=ROOT)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("movecheck: error:")


# -- rules tables ----------------------------------------------------------------------------


def test_rules_markdown(run_main) -> None:
    code, out, err = run_main(["rules", "--format", "markdown"])
    assert (code, err) == (0, "")
    assert out.startswith("# movecheck rules\n")
    _, text, _ = run_main(["rules", "--format", "json"])
    codes = [c["code"] for c in json.loads(text)["clauses"]]
    rows = re.findall(r"^\| `([A-Z]{2}\d{3})` \|", out, re.M)
    assert rows == codes
    for line in out.splitlines():
        if re.match(r"\| `[A-Z]{2}\d{3}` \|", line):
            assert len(re.split(r"(?<!\\)\|", line)) == 8  # six cells: any pipe inside one is escaped
    assert re.search(r"^\| `AA207` \| no-safe-landing \| error \| .* \| N16 \|$", out, re.M)
    assert "## Options of the aa preset `aa1942`" in out
    assert "| `land_on_new_carrier` | `true` |" in out
    code, out, _ = run_main(["rules", "--system", "mc", "-f", "markdown"])
    assert code == 0 and "## aa" not in out and "Options" not in out


def test_rules_rejects_report_formats(run_main) -> None:
    code, _, err = run_main(["rules", "--format", "sarif"])
    assert code == 2
    assert err.startswith("movecheck: error:")


# -- fixes as data (issue 42) ------------------------------------------------------------------

TYPO = "examples/aa/orders/variants/mc004-typo.yaml"


def _replaced(text: str, edit: dict[str, Any]) -> str:
    """The text an edit of a fix replaces (1-based lines and columns, the end column just past)."""
    lines = text.splitlines(keepends=True)
    start = sum(map(len, lines[:edit["line"] - 1])) + edit["column"] - 1
    end = sum(map(len, lines[:edit["end_line"] - 1])) + edit["end_column"] - 1
    return text[start:end]


def test_json_gives_the_fixes_of_a_misspelt_space_and_type(run_main) -> None:
    code, out, _err = run_main(["check", TYPO, "--format", "json"], cwd=ROOT)
    assert code == 1
    space, kind = json.loads(out)["findings"]
    text = (ROOT / TYPO).read_text(encoding="utf-8")
    assert [fix["title"] for fix in space["fixes"]] == [
        "Replace with Ukraine S.S.R.", "Replace with Karelia S.S.R.", "Replace with Buryatia S.S.R."]
    (edit,) = space["fixes"][0]["edits"]
    assert edit == {"line": 40, "column": 30, "end_line": 40, "end_column": 44, "text": "Ukraine S.S.R."}
    assert _replaced(text, edit) == "Ukriane S.S.R."
    assert [fix["edits"] for fix in kind["fixes"]] == [
        [{"line": 41, "column": 13, "end_line": 41, "end_column": 20, "text": "fighter"}]]


def test_fixes_keep_the_quoting_and_a_finding_without_a_suggestion_has_none(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", AA_FIX_ORDERS)
    code, out, _err = run_main(["check", "orders.yaml", "-f", "json"], cwd=aa_dir)
    assert code == 1
    findings = json.loads(out)["findings"]
    text = AA_FIX_ORDERS
    by_written = {_replaced(text, f["fixes"][0]["edits"][0]): f["fixes"][0]["edits"][0]["text"]
                  for f in findings if "fixes" in f}
    assert by_written == {"'Ukriane S.S.R.'": "'Ukraine S.S.R.'", '"Caucasuss"': '"Caucasus"', "tnak": "tank"}
    assert [f for f in findings if "fixes" not in f] == [f for f in findings if "did you mean" not in f["message"]]
    assert any("fixes" not in f for f in findings)  # the unit id nothing is close to


def test_sarif_gives_the_fixes_as_replacements(run_main, sarif_validator, monkeypatch) -> None:
    check_once(monkeypatch)  # the two formats render copies of one check (tests/reuse.py)
    _code, out, _err = run_main(["check", TYPO, "--format", "json"], cwd=ROOT)
    expected = [f["fixes"] for f in json.loads(out)["findings"]]
    _code, out, _err = run_main(["check", TYPO, "--format", "sarif"], cwd=ROOT)
    results = sarif_validator(out)["runs"][0]["results"]
    assert len(results) == len(expected) == 2
    for result, fixes in zip(results, expected, strict=True):
        assert [fix["description"]["text"] for fix in result["fixes"]] == [fix["title"] for fix in fixes]
        for sarif_fix, fix in zip(result["fixes"], fixes, strict=True):
            (change,) = sarif_fix["artifactChanges"]
            assert change["artifactLocation"] == {"uri": TYPO, "uriBaseId": "%SRCROOT%"}
            assert change["replacements"] == [
                {"deletedRegion": {"startLine": e["line"], "startColumn": e["column"],
                                   "endLine": e["end_line"], "endColumn": e["end_column"]},
                 "insertedContent": {"text": e["text"]}} for e in fix["edits"]]


@pytest.mark.parametrize(("name", "style", "written"), [
    ("Ukraine S.S.R.", None, "Ukraine S.S.R."),
    ("Ukraine S.S.R.", "'", "'Ukraine S.S.R.'"),
    ("Ukraine S.S.R.", '"', '"Ukraine S.S.R."'),
    ("Yes", None, "'Yes'"),  # YAML 1.1 reads a plain Yes as true
    ("a: b", None, "'a: b'"),
    ("O'Hare", None, "O'Hare"),
    ("'quoted'", None, "'''quoted'''"),
    ("13 Sea Zone", None, "13 Sea Zone"),
    ("1", None, "'1'"),
])
def test_a_fix_writes_a_name_that_yaml_reads_back(name: str, style: str | None, written: str) -> None:
    import yaml

    from movecheck.fixes import yaml_text

    assert yaml_text(name, style) == written
    assert yaml.safe_load(f"[{written}]") == [name]


AA_FIX_ORDERS = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {infantry: 1}
    path: ['Ukriane S.S.R.', "Caucasuss"]
  - units: {tnak: 1}
    path: [Ukraine S.S.R., Caucasus]
  - units: [qqqqqqqq]
    path: [Ukraine S.S.R., Caucasus]
"""


@pytest.mark.parametrize(("example", "replaced"), [
    ("examples/aa/orders/variants/mc003-schema.yaml", {"combat_mvoe": "combat_move", "unit": "units"}),
    ("examples/maneuver/free-orders-mc004.yaml", {"r41": "r4", "wod1": "wood1"}),
    ("examples/maneuver/free-orders-mc006.yaml", {"reds": "red"}),
])
def test_schema_and_maneuver_suggestions_are_fixes_too(run_main, example: str, replaced: dict[str, str]) -> None:
    _code, out, _err = run_main(["check", example, "--format", "json"], cwd=ROOT)
    text = (ROOT / example).read_text(encoding="utf-8")
    found = {}
    for finding in json.loads(out)["findings"]:
        if "fixes" in finding:
            (edit,) = finding["fixes"][0]["edits"]
            assert (edit["line"], edit["column"]) == (finding["line"], finding["column"])  # the node it underlines
            found[_replaced(text, edit)] = edit["text"]
    assert found == replaced
    assert all(("did you mean" in f["message"]) == ("fixes" in f) for f in json.loads(out)["findings"])
