"""The text and JSON renderings of a report: format, order, summary, schema, determinism."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import movecheck.problems  # noqa: F401  (registers the MC clauses)
from movecheck.catalogue import load_all
from movecheck.findings import FileReport, Finding, Report, make_finding
from movecheck.render import render
from movecheck.render.json import report_document
from movecheck.render.text import finding_line, summary_line

load_all()

LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]{2}\d{3}) "
    r"\[(?P<severity>error|warning|note)\] (?P<message>.+?)(?: \((?P<clauses>[^()]+)\))?$"
)
FINDING_KEYS = ["code", "name", "severity", "message", "clauses", "file", "line", "column", "order", "order_id"]


def sample_report() -> Report:
    report = Report()
    report.files = [
        FileReport(path="orders/b.yaml", kind="aa-orders", state="states/g1.yaml", orders=3, checked=set(range(1, 4))),
        FileReport(path="orders/a.yaml", kind="aa-orders", state="states/g1.yaml", orders=2, checked=set(range(1, 3))),
    ]
    report.findings = [
        make_finding(
            "AA203", "2 tank to Ukraine S.S.R. is not a combat move", file="orders/b.yaml", line=10, column=3, order=2
        ),
        make_finding("MC005", "0101 is read as 65", file="orders/b.yaml", line=9, column=12, order=1),
        make_finding(
            "AA101",
            "Germany and Caucasus do not border",
            file="orders/a.yaml",
            line=8,
            column=20,
            order=1,
            order_id="m1",
        ),
        make_finding("MC003", "unknown key 'pahse'", file="orders/b.yaml", line=9, column=5),
        make_finding("AA309", "carrier must move", file="orders/a.yaml", line=8, column=4, order=1, order_id="m1"),
        make_finding("AA201", "must stop", file="orders/b.yaml", line=10, column=3, order=2),
    ]
    return report


# -- text ----------------------------------------------------------------------------


def test_finding_line_format() -> None:
    finding = make_finding("AA207", "fighter cannot land", file="o.yaml", line=14, column=11, order=3)
    assert finding_line(finding) == "o.yaml:14:11: AA207 [error] fighter cannot land (N16)"
    finding = make_finding("MC002", "duplicate key 'a'", file="o.yaml", line=3, column=1)
    assert finding_line(finding) == "o.yaml:3:1: MC002 [error] duplicate key 'a'"  # no clauses: no parentheses


def test_finding_line_with_several_clauses() -> None:
    finding = make_finding("AA302", "tank passes hostile Poland", file="o.yaml", line=2, column=7)
    line = finding_line(finding)
    match = LINE.match(line)
    assert match is not None
    assert match["clauses"] == "N3, N19, N20"
    assert match["severity"] == "error"


def test_text_lines_sorted_by_file_line_column() -> None:
    out = render(sample_report(), "text")
    lines = out.splitlines()
    assert out.endswith("\n")
    parsed = [LINE.match(line) for line in lines[:-3]]
    assert all(parsed), lines
    assert lines[-3:-1] == [
        "orders/b.yaml: checked against states/g1.yaml",
        "orders/a.yaml: checked against states/g1.yaml",
    ]
    keys = [(m["file"], int(m["line"]), int(m["column"]), m["code"]) for m in parsed]
    assert keys == [
        ("orders/a.yaml", 8, 4, "AA309"),
        ("orders/a.yaml", 8, 20, "AA101"),
        ("orders/b.yaml", 9, 5, "MC003"),
        ("orders/b.yaml", 9, 12, "MC005"),
        ("orders/b.yaml", 10, 3, "AA201"),
        ("orders/b.yaml", 10, 3, "AA203"),
    ]
    assert parsed[0]["severity"] == "note"
    assert parsed[3]["severity"] == "warning"


def test_numeric_not_lexicographic_order() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", orders=0)])
    report.findings = [
        make_finding("MC003", "ten", file="o.yaml", line=10, column=1),
        make_finding("MC003", "nine", file="o.yaml", line=9, column=10),
        make_finding("MC003", "nine-two", file="o.yaml", line=9, column=2),
    ]
    lines = render(report, "text").splitlines()[:-1]
    assert [line.split(": ", 1)[0] for line in lines] == ["o.yaml:9:2", "o.yaml:9:10", "o.yaml:10:1"]


def test_summary_line_counts_orders() -> None:
    assert summary_line(sample_report()) == (
        "4 errors, 1 warning, 1 note in 2 files; 1 of 5 orders legal, 2 illegal,"
        " 2 not checked (the orders file has errors)."
    )
    assert render(sample_report(), "text").splitlines()[-1] == summary_line(sample_report())


def test_summary_line_clean_orders_file() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", "s.yaml", orders=1, checked=set(range(1, 2)))])
    assert (
        render(report, "text")
        == "o.yaml: checked against s.yaml\n0 errors, 0 warnings, 0 notes in 1 file; 1 of 1 order legal.\n"
    )


def test_summary_line_without_orders_files() -> None:
    report = Report(files=[FileReport("s.yaml", "aa-state"), FileReport("m.yaml", "aa-map")])
    report.findings = [make_finding("MC005", "no is false", file="s.yaml", line=2, column=3)]
    assert summary_line(report) == "0 errors, 1 warning, 0 notes in 2 files."


def test_warnings_and_notes_do_not_make_orders_illegal() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", "s.yaml", orders=2, checked=set(range(1, 3)))])
    report.findings = [
        make_finding("AA309", "carrier must move", file="o.yaml", line=3, column=3, order=1),
        make_finding("AA308", "fighter destroyed", file="o.yaml", line=5, column=3, order=2),
    ]
    assert report.illegal_orders() == 0
    assert report.exit_code() == 0
    assert summary_line(report) == "0 errors, 1 warning, 1 note in 1 file; 2 of 2 orders legal."


def test_two_errors_on_one_order_count_once() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", "s.yaml", orders=2, checked=set(range(1, 3)))])
    report.findings = [
        make_finding("AA201", "a", file="o.yaml", line=3, column=3, order=1),
        make_finding("AA202", "b", file="o.yaml", line=3, column=9, order=1),
        make_finding("MC003", "c", file="o.yaml", line=1, column=1),
    ]
    assert report.summary() == {
        "files": 1, "orders": 2, "legal_orders": 0, "illegal_orders": 1, "unchecked_orders": 1,
        "errors": 3, "warnings": 0, "notes": 0,
    }
    assert report.exit_code() == 1
    assert summary_line(report).endswith(
        "; 0 of 2 orders legal, 1 illegal, 1 not checked (the orders file has errors)."
    )


def test_colour_only_decorates() -> None:
    report = sample_report()
    plain = render(report, "text", color=False)
    coloured = render(report, "text", color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31m[error]\x1b[0m" in coloured
    assert "\x1b[33m[warning]\x1b[0m" in coloured
    assert "\x1b[36m[note]\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_the_report_prints_every_finding_it_is_given() -> None:
    # no de-duplication here: each source words a finding once (tests/aa/test_landing.py, tests/test_config.py)
    report = Report(files=[FileReport("o.yaml", "aa-orders", orders=1, checked=set(range(1, 2)))])
    finding = make_finding("AA101", "not adjacent", file="o.yaml", line=4, column=9, order=1)
    report.findings = [finding, finding]
    assert render(report, "text").splitlines()[:-1] == ["o.yaml:4:9: AA101 [error] not adjacent (C10)"] * 2
    assert report.summary()["errors"] == 2


# -- json ----------------------------------------------------------------------------


def test_json_report_keys_and_schema(report_validator) -> None:
    out = render(sample_report(), "json")
    assert out.endswith("}\n")
    document = json.loads(out)
    report_validator(document)
    assert list(document) == ["movecheck", "files", "summary", "findings"]
    assert document["movecheck"] == __import__("movecheck").__version__
    assert [
        (f["path"], f["kind"], f["state"], f["orders"], f["legal"], f["illegal"], f["unchecked"], f["config"])
        for f in document["files"]
    ] == [
        ("orders/b.yaml", "aa-orders", "states/g1.yaml", 3, 0, 1, 2, None),
        ("orders/a.yaml", "aa-orders", "states/g1.yaml", 2, 1, 1, 0, None),
    ]
    assert document["files"][0]["unchecked_reasons"] == ["the orders file has errors"]
    assert list(document["summary"]) == [
        "files", "orders", "legal_orders", "illegal_orders", "unchecked_orders", "errors", "warnings", "notes",
    ]
    assert document["summary"] == {
        "files": 2, "orders": 5, "legal_orders": 1, "illegal_orders": 2, "unchecked_orders": 2,
        "errors": 4, "warnings": 1, "notes": 1,
    }
    for finding in document["findings"]:
        assert list(finding) == FINDING_KEYS
    first = document["findings"][0]
    assert first == {
        "code": "AA309",
        "name": "carrier-must-move",
        "severity": "note",
        "message": "carrier must move",
        "clauses": ["N22"],
        "file": "orders/a.yaml",
        "line": 8,
        "column": 4,
        "order": 1,
        "order_id": "m1",
    }
    assert [(f["file"], f["line"], f["column"]) for f in document["findings"]] == [
        ("orders/a.yaml", 8, 4),
        ("orders/a.yaml", 8, 20),
        ("orders/b.yaml", 9, 5),
        ("orders/b.yaml", 9, 12),
        ("orders/b.yaml", 10, 3),
        ("orders/b.yaml", 10, 3),
    ]
    file_level = [f for f in document["findings"] if f["code"] == "MC003"]
    assert file_level[0]["order"] is None and file_level[0]["order_id"] is None


def test_json_keeps_unicode_literal() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", orders=1, checked=set(range(1, 2)))])
    report.findings = [make_finding("AA203", "Ukraine S.S.R. — no battle", file="o.yaml", line=8, column=29, order=1)]
    out = render(report, "json")
    assert "C1–C3" in out and "—" in out
    assert "\\u" not in out


def test_json_readings_only_when_present(report_validator) -> None:
    report = Report(files=[FileReport("o.yaml", "maneuver-orders", orders=0)])
    assert "readings" not in report_document(report)
    report.readings = {"dice": [3, 5]}
    document = report_validator(render(report, "json"))
    assert list(document) == ["movecheck", "files", "summary", "readings", "findings"]
    assert document["readings"] == {"dice": [3, 5]}


def test_cli_json_report_from_a_real_check(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)  # schema-checked by run_main
    assert code == 1
    document = json.loads(out)
    assert list(document) == ["movecheck", "files", "summary", "findings"]
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in document["files"]] == [
        {"path": "orders.yaml", "kind": "aa-orders", "state": "state.yaml", "config": None}
    ]
    assert document["summary"] == {
        "files": 1, "orders": 1, "legal_orders": 0, "illegal_orders": 1, "unchecked_orders": 0,
        "errors": 1, "warnings": 0, "notes": 0,
    }
    (finding,) = document["findings"]
    assert list(finding) == FINDING_KEYS
    assert (
        finding["code"],
        finding["name"],
        finding["line"],
        finding["column"],
        finding["order"],
        finding["order_id"],
    ) == (
        "AA203",
        "not-a-combat-move",
        8,
        29,
        1,
        None,
    )
    assert finding["clauses"] == ["C1–C3"]


def test_cli_text_and_json_agree(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "a.yaml", aa.illegal)
    write(aa_dir, "b.yaml", aa.illegal.replace("power: Germans", "power: no").replace("pahse", "phase"))
    _, text, _ = run_main(["check", "b.yaml", "a.yaml"], cwd=aa_dir)
    _, out, _ = run_main(["check", "b.yaml", "a.yaml", "--format", "json"], cwd=aa_dir)
    document = json.loads(out)
    lines = text.splitlines()
    assert len(lines) == len(document["findings"]) + 3  # the findings, the state of each file, the summary
    assert lines[-3:-1] == ["b.yaml: checked against state.yaml", "a.yaml: checked against state.yaml"]
    for line, finding in zip(lines, document["findings"], strict=False):
        match = LINE.match(line)
        assert match is not None, line
        assert (match["file"], int(match["line"]), int(match["column"]), match["code"], match["severity"]) == (
            finding["file"], finding["line"], finding["column"], finding["code"], finding["severity"],
        )
    assert [f["file"] for f in document["findings"]] == sorted(f["file"] for f in document["findings"])


# -- determinism -------------------------------------------------------------------------


def test_render_does_not_depend_on_finding_order() -> None:
    report = sample_report()
    expected = {fmt: render(report, fmt) for fmt in ("text", "json")}
    rng = random.Random(1)
    for _ in range(20):
        shuffled = sample_report()
        rng.shuffle(shuffled.findings)
        for fmt in ("text", "json"):
            assert render(shuffled, fmt) == expected[fmt]


CODES = ["MC001", "MC002", "MC003", "MC005", "AA101", "AA203", "AA207", "AA308", "AA309"]

findings_strategy = st.lists(
    st.builds(
        lambda code, message, file, line, column, order, order_id: make_finding(
            code, message, file=file, line=line, column=column, order=order, order_id=order_id if order else None
        ),
        code=st.sampled_from(CODES),
        message=st.text(min_size=1, max_size=30),
        file=st.sampled_from(["a.yaml", "b.yaml", "<stdin>", "dir/ü.yaml"]),
        line=st.integers(1, 200),
        column=st.integers(1, 80),
        order=st.one_of(st.none(), st.integers(1, 9)),
        order_id=st.one_of(st.none(), st.sampled_from(["m1", "m2"])),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(findings=findings_strategy, seed=st.integers(0, 1000))
def test_any_report_is_valid_sorted_and_order_independent(report_validator, findings: list[Finding], seed: int) -> None:
    files = [
        FileReport("a.yaml", "aa-orders", "s.yaml", orders=9, checked=set(range(1, 10))),
        FileReport("b.yaml", "aa-state"),
    ]
    report = Report(files=files, findings=list(findings))
    out = render(report, "json")
    document = report_validator(out)
    keys = [(f["file"], f["line"], f["column"]) for f in document["findings"]]
    assert keys == sorted(keys)
    assert document["summary"]["errors"] + document["summary"]["warnings"] + document["summary"]["notes"] == len(
        document["findings"]
    )
    shuffled = list(findings)
    random.Random(seed).shuffle(shuffled)
    again = Report(files=files, findings=shuffled)
    assert render(again, "json") == out
    assert render(again, "text") == render(report, "text")
    text_lines = render(report, "text").splitlines()
    assert len(text_lines) == len(document["findings"]) + 2  # and a.yaml's state line, the summary


def test_message_with_line_breaks_stays_one_line() -> None:
    report = Report(files=[FileReport("o.yaml", "aa-orders", orders=1, checked=set(range(1, 2)))])
    report.findings = [make_finding("MC003", "first part\n  second part\n", file="o.yaml", line=2, column=3)]
    assert render(report, "text").splitlines() == [  # the line breaks shown, not obeyed (issue 12)
        "o.yaml:2:3: MC003 [error] first part\\n  second part\\n",
        "1 error, 0 warnings, 0 notes in 1 file; 0 of 1 order legal, 1 not checked (the orders file has errors).",
    ]
    assert json.loads(render(report, "json"))["findings"][0]["message"] == "first part\n  second part\n"


# -- the renderers' docstrings show what they write (issue 24) ------------------------------------


def _docstring_example(module: object) -> tuple[list[str], list[str]]:
    """The command a renderer's docstring names, and the output block it shows (indented by four)."""
    import shlex
    import textwrap

    doc = module.__doc__ or ""
    command = doc.split("``movecheck ", 1)[1].split("``", 1)[0]
    block = doc.split("::\n\n", 1)[1].split("\n\n", 1)[0]
    return shlex.split(command), textwrap.dedent(block).splitlines()


@pytest.mark.parametrize("name", ["full", "github"])
def test_the_renderer_docstring_shows_its_output(name: str, run_cli: Any) -> None:
    import importlib

    args, shown = _docstring_example(importlib.import_module(f"movecheck.render.{name}"))
    assert args[-1] == name and shown
    code, out, _err = run_cli(args)
    assert code == 1
    assert out.splitlines()[: len(shown)] == shown
