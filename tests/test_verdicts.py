"""Verdicts (issue #12): every order is legal, illegal or unchecked, and only a checked order is legal.

An order is counted legal only when every clause that applies ran on it.  A
state that cannot be read or has errors, orders that do not match the state,
schema errors and unknown names, and a search that ran out of budget all leave
orders *unchecked*: never legal, exit 1, and no ``--select``/``--ignore`` or
per-file ignore can hide it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import settings
from hypothesis import strategies as st

import movecheck.aa.rules
import movecheck.problems  # noqa: F401  (registers the MC clauses)
from movecheck.findings import FileReport, Report, Verdict, make_finding
from tests.properties import in_two_runs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "aa"

TWO_LEGAL = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {infantry: 1}
    path: [Ukraine S.S.R., Caucasus]
  - units: {tank: 1}
    path: [Ukraine S.S.R., Caucasus]
"""


def summary_of(out: str) -> dict:
    return json.loads(out)["summary"]


# -- the verdict of one order ----------------------------------------------------------


def _report(**entry) -> Report:
    return Report(files=[FileReport("o.yaml", "aa-orders", "s.yaml", **entry)])


def test_an_order_the_engine_did_not_check_is_never_legal() -> None:
    report = _report(orders=3, checked={1, 3})
    verdicts = report.files[0].verdicts(report.findings)
    assert [verdicts[i][0] for i in (1, 2, 3)] == [Verdict.LEGAL, Verdict.UNCHECKED, Verdict.LEGAL]
    assert report.exit_code() == 1


def test_a_rule_error_makes_an_order_illegal_even_if_other_checks_stopped() -> None:
    report = _report(orders=1, checked=set())
    report.findings = [make_finding("AA201", "stop", file="o.yaml", line=3, order=1)]
    assert report.summary()["illegal_orders"] == 1
    assert report.summary()["unchecked_orders"] == 0


def test_a_search_limit_makes_the_order_unchecked_not_illegal() -> None:
    report = _report(orders=2, checked={1, 2})
    report.findings = [make_finding("MC012", "the landing search hit its limit", file="o.yaml", line=3, order=2)]
    summary = report.summary()
    assert (summary["legal_orders"], summary["illegal_orders"], summary["unchecked_orders"]) == (1, 0, 1)
    assert report.unchecked_reasons() == ["a search limit was hit"]


def test_schema_errors_in_an_order_leave_it_unchecked() -> None:
    report = _report(orders=2, checked={1, 2})
    report.findings = [make_finding("MC003", "tank: 5.0 is not an integer", file="o.yaml", line=8, order=1)]
    assert report.files[0].verdicts(report.findings)[1] == (Verdict.UNCHECKED, "schema errors in the order")
    assert report.files[0].verdicts(report.findings)[2] == (Verdict.LEGAL, None)


def test_file_level_errors_leave_every_order_unchecked() -> None:
    report = _report(orders=2, checked={1, 2})
    report.findings = [make_finding("MC003", "phase: 'combat_mvoe'", file="o.yaml", line=5)]
    assert report.summary()["unchecked_orders"] == 2


def test_warnings_on_the_state_do_not_uncheck_orders() -> None:
    report = _report(orders=1, checked={1})
    report.findings = [make_finding("MC005", "no is false", file="s.yaml", line=2)]
    assert report.summary()["legal_orders"] == 1
    assert report.exit_code() == 0


# -- whole runs -------------------------------------------------------------------------


def test_clean_run_counts_every_order_legal(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", TWO_LEGAL)
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert code == 0
    assert out.splitlines()[-1] == "0 errors, 0 warnings, 0 notes in 1 file; 2 of 2 orders legal."


@pytest.mark.parametrize(
    "state, reason",
    [
        (
            "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\nbogus: "
            "1\n",
            "the state has errors",
        ),
        (
            "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\n"
            "units:\n  Germany: {Germans: {tank: 1}}\n  Karelia S.S.R.: {Russians: {infantry: 1}}\n"
            "  Nowhere Land: {Germans: {tank: 1}}\n",
            "the state has errors",
        ),
        (
            "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Russians, phase: combat_move}\n",
            "the orders do not match the state",
        ),
        (
            "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: noncombat_move}\n",
            "the orders do not match the state",
        ),
        ("movecheck: 1\nsystem: aa\nmap: [aa1942\n", "the state could not be read"),
        ("movecheck: [1\n", "the orders name no usable state"),
        ("movecheck: 1\nsystem: maneuver\n", "the orders name no usable state"),
    ],
    ids=[
        "state-schema",
        "state-unknown-territory",
        "other-power",
        "other-phase",
        "state-yaml",
        "not-movecheck",
        "state-kind",
    ],
)
def test_orders_against_a_broken_state_are_unchecked(run_main, aa_dir, write, state: str, reason: str) -> None:
    write(aa_dir, "state.yaml", state)
    write(aa_dir, "orders.yaml", TWO_LEGAL)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    summary = summary_of(out)
    assert (summary["legal_orders"], summary["unchecked_orders"]) == (0, 2)
    assert json.loads(out)["files"][0]["unchecked_reasons"] == [reason]
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert out.splitlines()[-1].endswith(f"; 0 of 2 orders legal, 2 not checked ({reason}).")


@pytest.mark.parametrize("state_line", ["", "state: missing.yaml\n", "state: .\n", "state: orders.yaml\n"])
def test_orders_without_a_usable_state_are_unchecked(run_main, aa_dir, write, state_line: str) -> None:
    write(aa_dir, "orders.yaml", TWO_LEGAL.replace("state: state.yaml\n", state_line))
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    assert summary_of(out)["legal_orders"] == 0
    assert summary_of(out)["unchecked_orders"] == 2


def test_an_unknown_power_leaves_the_orders_unchecked(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", TWO_LEGAL.replace("power: Germans", "power: Untied Kingdom"))
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    assert "MC004" in {f["code"] for f in json.loads(out)["findings"]}
    assert summary_of(out)["legal_orders"] == 0


@pytest.mark.parametrize("flags", [["--select", "AA"], ["--ignore", "MC"], ["--select", "AA201"]])
def test_selection_cannot_hide_unchecked_orders(run_main, aa_dir, write, flags: list[str]) -> None:
    write(
        aa_dir,
        "state.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\nbogus: 1\n",
    )
    write(aa_dir, "orders.yaml", TWO_LEGAL)
    code, out, _ = run_main(["check", "orders.yaml", *flags], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[-1] == (
        "0 errors, 0 warnings, 0 notes in 1 file; 0 of 2 orders legal, 2 not checked (the state has errors)."
    )
    code, out, _ = run_main(["check", "orders.yaml", *flags, "--exit-zero"], cwd=aa_dir)
    assert code == 0


def test_per_file_ignores_cannot_hide_unchecked_orders(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "state.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\nbogus: 1\n",
    )
    write(aa_dir, "orders.yaml", TWO_LEGAL)
    write(aa_dir, ".movecheck.yaml", "per-file-ignores:\n  '*.yaml': [MC, AA]\n")
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert code == 1
    assert "2 not checked" in out.splitlines()[-1]


def test_an_ignored_search_limit_still_shows(run_main, aa_dir, write) -> None:
    from movecheck.session import Session

    report = _report(orders=1, checked={1})
    report.findings = [make_finding("MC012", "limit", file="o.yaml", line=3, order=1)]
    session = Session.start([], ignore=["MC012"], select=["AA"])
    assert [f.code for f in session.select(report).findings] == ["MC012"]


def test_lint_of_orders_does_not_call_them_legal(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", TWO_LEGAL.replace("Caucasus", "Untied Kingdom"))
    code, out, _ = run_main(["lint", "orders.yaml"], cwd=aa_dir)
    assert code == 0  # lint reads the file; judging the orders is check's job
    assert out.splitlines()[-1] == (
        "0 errors, 0 warnings, 0 notes in 1 file; 2 orders not judged (lint does not judge orders: use 'movecheck "
        "check')."
    )
    assert "legal" not in out
    code, out, _ = run_main(["lint", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert summary_of(out)["legal_orders"] == 0


def test_the_same_file_twice_is_checked_once(run_main, aa_dir, write) -> None:
    write(aa_dir, "orders.yaml", TWO_LEGAL)
    code, out, _ = run_main(["check", "orders.yaml", "./orders.yaml", "orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 0
    document = json.loads(out)
    assert [f["path"] for f in document["files"]] == ["orders.yaml"]
    assert document["summary"]["orders"] == 2
    code, out, _ = run_main(["lint", "state.yaml", "state.yaml"], cwd=aa_dir)
    assert out.splitlines()[-1] == "0 errors, 0 warnings, 0 notes in 1 file."


def test_each_file_carries_its_own_counts(run_main, aa_dir, write, aa) -> None:
    write(aa_dir, "good.yaml", TWO_LEGAL)
    write(aa_dir, "bad.yaml", aa.illegal)
    code, out, _ = run_main(["check", "good.yaml", "bad.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert {k: files["good.yaml"][k] for k in ("orders", "legal", "illegal", "unchecked", "errors")} == {
        "orders": 2, "legal": 2, "illegal": 0, "unchecked": 0, "errors": 0,
    }
    assert {k: files["bad.yaml"][k] for k in ("orders", "legal", "illegal", "unchecked", "errors")} == {
        "orders": 1, "legal": 0, "illegal": 1, "unchecked": 0, "errors": 1,
    }


# -- no clause is skipped for a legal order (property) ---------------------------------

AA_PAIRS = [
    ("orders/g1-combat.yaml", "states/g1-combat.yaml"),
    ("orders/g1-noncombat.yaml", "states/g1-noncombat.yaml"),
]


def _mutations() -> st.SearchStrategy:
    """A change to one order: drop a key, change a count (also to the equal float), swap a path step."""
    return st.tuples(
        st.integers(min_value=0, max_value=40),
        st.sampled_from(["drop-key", "float-count", "bump-count", "reverse-path", "truncate-path", "none"]),
        st.integers(min_value=0, max_value=5),
    )


def _apply(moves: list, mutation: tuple[int, str, int]) -> None:
    index, kind, pick = mutation
    if not moves:
        return
    move = moves[index % len(moves)]
    if not isinstance(move, dict):
        return
    units = move.get("units")
    if kind == "drop-key" and move:
        move.pop(sorted(move)[pick % len(move)])
    elif kind in ("float-count", "bump-count") and isinstance(units, dict) and units:
        key = sorted(units)[pick % len(units)]
        if isinstance(units[key], int):
            units[key] = float(units[key]) if kind == "float-count" else units[key] + pick + 1
    elif kind == "reverse-path" and isinstance(move.get("path"), list):
        move["path"] = list(reversed(move["path"]))
    elif kind == "truncate-path" and isinstance(move.get("path"), list) and len(move["path"]) > 2:
        move["path"] = move["path"][:-1]


def _a_legal_order_had_every_move_clause_run_on_it(
    orders_file: str, state_file: str, mutations: list, tmp_path_factory, monkeypatch_module
) -> None:
    """For mutated example turns: each order the report calls legal was seen by every move clause of its phase."""
    from movecheck.aa.checks import rules_for
    from movecheck.cli import main

    folder = tmp_path_factory.mktemp("verdicts")
    shutil.copy(EXAMPLES / state_file, folder / "state.yaml")
    data = yaml.safe_load((EXAMPLES / orders_file).read_text())
    data["state"] = "state.yaml"
    for mutation in mutations:
        _apply(data["moves"], mutation)
    (folder / "orders.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    seen: dict[int, set[str]] = {}
    phase = data.get("phase", "combat_move")
    rules = rules_for(phase, "move")
    # the engine calls a clause's check itself (``Run.move_checks``), or its run where it has no check
    entry = {id(rule): "check" if rule.check is not None else "run" for rule in rules}
    originals = {id(rule): getattr(rule, entry[id(rule)]) for rule in rules}

    def spy(rule):
        def run(move, state):
            seen.setdefault(move.index, set()).add(rule.code)
            return originals[id(rule)](move, state)
        return run

    for rule in rules:
        monkeypatch_module.setattr(rule, entry[id(rule)], spy(rule))
    try:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["check", str(folder / "orders.yaml"), "--format", "json", "--root", str(folder)])
    finally:
        for rule in rules:
            monkeypatch_module.setattr(rule, entry[id(rule)], originals[id(rule)])
    assert code in (0, 1)
    document = json.loads(out.getvalue())
    expected = {rule.code for rule in rules}
    verdicts = document["files"][0]["verdicts"]
    assert len(verdicts) == len(data["moves"])
    for order, verdict in enumerate(verdicts, start=1):
        if verdict != "legal":
            continue
        assert seen.get(order) == expected, (order, seen.get(order))  # no move clause was skipped
        move = data["moves"][order - 1]
        units = move.get("units")
        if isinstance(units, dict):  # a float count is never legal
            assert all(isinstance(v, int) for v in units.values()), move
    if code == 0:
        assert "unchecked" not in verdicts and "illegal" not in verdicts
    assert "the orders name no usable state" not in document["files"][0]["unchecked_reasons"]  # the state was read
    # most orders stay legal whatever three mutations do: the state was read and the orders judged (a mutation can
    # carry on to the orders that depend on its order: a transport left without a path strands its cargo's unload)
    assert verdicts.count("legal") > len(verdicts) // 2


test_a_legal_order_had_every_move_clause_run_on_it, test_a_legal_order_had_every_move_clause_run_on_it_in_full = (
    in_two_runs(
        settings(max_examples=25, derandomize=True, deadline=None, database=None),
        mutations=st.lists(_mutations(), min_size=1, max_size=3),
        marks=[pytest.mark.parametrize("orders_file,state_file", AA_PAIRS, ids=["combat", "noncombat"])],
    )(_a_legal_order_had_every_move_clause_run_on_it)
)


def test_a_transport_left_without_its_path_strands_its_cargo_and_every_clause_still_ran(tmp_path_factory,
                                                                                          monkeypatch_module) -> None:
    """The full run's example (CI, 2026-12-07): the Finns' and the Egypt fleet's orders lose their paths, so the
    fleet's cargo cannot be unloaded (AA203, AA102): four orders not legal for two mutations, every legal one seen by
    every move clause."""
    _a_legal_order_had_every_move_clause_run_on_it(
        "orders/g1-combat.yaml", "states/g1-combat.yaml", [(0, "drop-key", 1), (11, "drop-key", 1)],
        tmp_path_factory, monkeypatch_module)


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@pytest.mark.parametrize("raw, expected", [("", 7), ("  ", 7), ("25", 25), (" 3 ", 3), ("9" * 12, 10**12 - 1)])
def test_a_budget_variable_is_a_plain_positive_number(monkeypatch, raw: str, expected: int) -> None:
    from movecheck.budget import budget

    monkeypatch.setenv("MOVECHECK_TEST_BUDGET", raw)
    assert budget("MOVECHECK_TEST_BUDGET", 7) == expected


@pytest.mark.parametrize("raw", ["0", "²", "1e6", "1_000", "-5", "9" * 13, "9" * 5000, "ten"])
def test_a_budget_variable_that_is_no_plain_number_is_a_usage_error(monkeypatch, raw: str) -> None:
    from movecheck.budget import BudgetError, budget

    monkeypatch.setenv("MOVECHECK_TEST_BUDGET", raw)
    with pytest.raises(BudgetError, match="MOVECHECK_TEST_BUDGET must be a positive whole number"):
        budget("MOVECHECK_TEST_BUDGET", 7)


@pytest.mark.parametrize("variable", ["MOVECHECK_CHOICE_BUDGET", "MOVECHECK_LANDING_BUDGET", "MOVECHECK_ROLL_BUDGET"])
def test_check_refuses_a_budget_variable_in_one_line(monkeypatch, capsys, variable: str) -> None:
    from movecheck.cli import main

    monkeypatch.setenv(variable, "1e9")
    assert (
        main(["check", str(Path(__file__).resolve().parent.parent / "examples" / "aa" / "orders" / "g1-combat.yaml")])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and variable in err and "'1e9'" in err and "Traceback" not in err
