"""A third rule system plugs in from outside the package, with no change to the kernel.

``tests/toysystem`` is a small system (two kinds of file with their schemas, one clause,
one option).  It is registered the way any package registers one: an entry point in the
group ``movecheck.systems``, here from a ``.dist-info`` folder written for the test and put
on ``PYTHONPATH``.  One fresh interpreter then runs every command on it (``check`` in
every output format, ``lint``, ``rules``, ``explain``, ``schema``, a configuration's
``toy:`` section, ``--option toy.max_step``) and the tests read what each printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from movecheck.render import FORMATS

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent

STATE = "movecheck: 1\nsystem: toy\ntokens: {a: 0, b: 5}\n"
ILLEGAL = "movecheck: 1\nsystem: toy\nstate: state.yaml\nsteps:\n  - {token: a, to: 1}\n  - {token: b, to: 8}\n"
LEGAL = "movecheck: 1\nsystem: toy\nstate: state.yaml\nsteps:\n  - {token: a, to: 1}\n  - {token: a, to: 2}\n"
BAD_STATE = "movecheck: 1\nsystem: toy\ntokens: {a: zero}\n"

DRIVER = """
import contextlib, io, json, sys
from movecheck.cli import main
results = []
for args in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    results.append({"args": args, "code": code, "out": out.getvalue(), "err": err.getvalue()})
print(json.dumps(results))
"""

COMMANDS: dict[str, list[str]] = {
    "check": ["check", "illegal.yaml"],
    "legal": ["check", "legal.yaml"],
    "option": ["check", "illegal.yaml", "--option", "toy.max_step=3"],
    "select": ["check", "illegal.yaml", "--ignore", "TY1"],
    "configured": ["check", "configured/illegal.yaml"],
    "lint": ["lint", "state.yaml", "legal.yaml"],
    "lint_bad": ["lint", "bad-state.yaml"],
    "rules": ["rules", "--system", "toy"],
    "rules_json": ["rules", "--format", "json"],
    "rules_markdown": ["rules", "--system", "toy", "--format", "markdown"],
    "rules_edition": ["rules", "--system", "toy", "--rules", "aa1942"],
    "explain": ["explain", "TY101"],
    "schema_state": ["schema", "toy-state"],
    "schema_orders": ["schema", "toy-orders"],
    "schema_unknown": ["schema", "toy-map"],
    **{f"format_{name}": ["check", "illegal.yaml", "--format", name] for name in FORMATS},
}


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every command's exit code and output, run once in an interpreter that finds the toy system."""
    root = tmp_path_factory.mktemp("toy")
    info = root / "site" / "toysystem_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toysystem-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[movecheck.systems]\ntoy = toysystem:SYSTEM\n", encoding="utf-8")
    work = root / "work"
    (work / "configured").mkdir(parents=True)
    for name, text in {
        "state.yaml": STATE,
        "illegal.yaml": ILLEGAL,
        "legal.yaml": LEGAL,
        "bad-state.yaml": BAD_STATE,
        "configured/state.yaml": STATE,
        "configured/illegal.yaml": ILLEGAL,
        "configured/.movecheck.yaml": "toy:\n  options: {max_step: 3}\n",
    }.items():
        (work / name).write_text(text, encoding="utf-8")
    (work / ".git").mkdir()  # the root of the run's files
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "site"), str(TESTS), str(REPO)]), "COLUMNS": "200"}
    for name in ("MOVECHECK_FORMAT", "MOVECHECK_LANG", "NO_COLOR", "FORCE_COLOR"):
        env.pop(name, None)
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(list(COMMANDS.values()))],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return dict(zip(COMMANDS, json.loads(proc.stdout), strict=True))


def test_check_finds_the_toy_clause(toy: dict[str, dict[str, Any]]) -> None:
    run = toy["check"]
    assert run["code"] == 1, run
    assert "illegal.yaml:6:20: TY101 [error] b steps from 5 to 8, further than 1" in run["out"]
    assert "1 of 2 orders legal, 1 illegal" in run["out"]


def test_legal_orders_pass(toy: dict[str, dict[str, Any]]) -> None:
    assert toy["legal"]["code"] == 0, toy["legal"]
    assert "2 of 2 orders legal" in toy["legal"]["out"]


def test_its_option_comes_from_the_command_line_and_the_configuration(toy: dict[str, dict[str, Any]]) -> None:
    assert toy["option"]["code"] == 0, toy["option"]
    assert toy["configured"]["code"] == 0, toy["configured"]
    assert "toy.max_step=3" in toy["configured"]["out"] + toy["configured"]["err"]


def test_its_codes_can_be_selected(toy: dict[str, dict[str, Any]]) -> None:
    assert toy["select"]["code"] == 0 and "TY101" not in toy["select"]["out"], toy["select"]


def test_lint_reads_its_files_and_schemas(toy: dict[str, dict[str, Any]]) -> None:
    assert toy["lint"]["code"] == 0, toy["lint"]
    assert "in 2 files" in toy["lint"]["out"]
    bad = toy["lint_bad"]
    assert bad["code"] == 1 and "bad-state.yaml:3:13: MC003" in bad["out"], bad


def test_rules_lists_its_clause_and_option(toy: dict[str, dict[str, Any]]) -> None:
    text = toy["rules"]["out"]
    assert text.startswith("toy: tokens stepping along a line\n  TY101 step-too-long"), text
    assert "Options of toy (defaults):" in text and "max_step" in text
    document = json.loads(toy["rules_json"]["out"])
    assert document["rules"] == "aa1942"  # the built-in system with editions
    assert "TY101" in [c["code"] for c in document["clauses"]]
    assert {
        "system": "toy",
        "name": "max_step",
        "value": 1,
        "meaning": "the longest step a token may take",
        "clauses": ["TY101"],
    } in document["option_details"]
    assert "## toy: tokens stepping along a line" in toy["rules_markdown"]["out"]
    assert toy["rules_edition"]["code"] == 2
    assert "the system toy has none" in toy["rules_edition"]["err"]


def test_explain_prints_its_clause(toy: dict[str, dict[str, Any]]) -> None:
    run = toy["explain"]
    assert run["code"] == 0, run
    assert run["out"].startswith("TY101 step-too-long (error)\n\na token steps further than max_step\n")
    assert "A token moves at most `max_step` places in one step, either way." in run["out"]
    assert "Governed by options: max_step (default 1)" in run["out"]


def test_schema_prints_its_schemas(toy: dict[str, dict[str, Any]]) -> None:
    assert json.loads(toy["schema_state"]["out"])["$id"] == "https://movecheck.dev/schemas/toy-state/v1.json"
    assert json.loads(toy["schema_orders"]["out"])["title"] == "toy orders"
    unknown = toy["schema_unknown"]
    assert unknown["code"] == 2 and "toy-state, toy-orders, report" in unknown["err"]


@pytest.mark.parametrize("name", FORMATS)
def test_every_output_format_reports_it(toy: dict[str, dict[str, Any]], name: str) -> None:
    run = toy[f"format_{name}"]
    assert run["code"] == 1, run
    assert "TY101" in run["out"]
    if name == "json":
        report = json.loads(run["out"])
        assert [f["code"] for f in report["findings"]] == ["TY101"]
        assert report["findings"][0]["order"] == 2
    if name == "sarif":
        rules = json.loads(run["out"])["runs"][0]["tool"]["driver"]["rules"]
        assert "TY101" in [rule["id"] for rule in rules]


def test_the_package_does_not_name_the_toy() -> None:
    named = [p for p in (REPO / "movecheck").rglob("*.py") if "toy" in p.read_text(encoding="utf-8").lower()]
    assert named == []
