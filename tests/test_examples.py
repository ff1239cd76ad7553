"""The bundled examples: their reports are snapshotted, their exit codes and counts asserted."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from reuse import check_once

from tests.sampling import sampled

ROOT = Path(__file__).resolve().parent.parent
AA_ORDERS = sorted((ROOT / "examples" / "aa" / "orders").rglob("*.yaml"))
MANEUVER_ORDERS = sorted((ROOT / "examples" / "maneuver").rglob("*orders*.yaml"))
ALL_ORDERS = AA_ORDERS + MANEUVER_ORDERS
STATES = sorted((ROOT / "examples").rglob("states/*.yaml")) + sorted(
    (ROOT / "examples" / "maneuver").rglob("*battlefield*.yaml")
)


def movecheck(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI from the repository root, in this process (a subprocess adds nothing here).

    The installed command in a real process is exercised by tests/test_cli.py and
    tests/test_determinism.py.
    """
    import contextlib
    import io
    import os

    from movecheck.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = {
        name: os.environ.pop(name) for name in ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR") if name in os.environ
    }
    try:
        with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.environ.update(saved)
    return subprocess.CompletedProcess(["movecheck", *args], code, out.getvalue(), err.getvalue())


@pytest.fixture(autouse=True)
def checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example is checked once: its text report, its JSON report and the tests below render copies of that
    report (tests/reuse.py)."""
    check_once(monkeypatch)


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def ids(paths: list[Path]) -> list[str]:
    return [rel(p).removeprefix("examples/") for p in paths]


@pytest.mark.parametrize("orders", ALL_ORDERS, ids=ids(ALL_ORDERS))
def test_text_report(orders: Path, snapshot) -> None:
    """Every example in the default run, not sampled: the snapshots share ``test_examples.ambr``, and syrupy calls
    unused the snapshots in such a file of a test's cases that a run without paths leaves out (tests/sampling.py)."""
    result = movecheck("check", rel(orders), "--color", "never")
    assert result.returncode in (0, 1), result.stderr
    assert result.stderr == ""
    assert result.stdout == snapshot


@pytest.mark.parametrize("orders", ALL_ORDERS, ids=ids(ALL_ORDERS))
def test_json_report(orders: Path, snapshot, report_validator) -> None:
    result = movecheck("check", rel(orders), "--format", "json")
    document = json.loads(result.stdout)
    report_validator(document)
    assert result.returncode == (1 if document["summary"]["errors"] else 0)
    assert result.stdout == snapshot


def test_legal_combat_move_is_clean() -> None:
    result = movecheck("check", "examples/aa/orders/g1-combat.yaml", "--format", "json")
    document = json.loads(result.stdout)
    assert result.returncode == 0
    assert document["summary"]["orders"] == 17
    assert document["summary"]["illegal_orders"] == 0
    assert document["findings"] == []


def test_blitz_split_over_two_orders_is_clean() -> None:
    result = movecheck("check", "examples/aa/orders/uk2-combat.yaml", "--format", "json")
    document = json.loads(result.stdout)
    assert result.returncode == 0
    assert document["summary"]["orders"] == 4
    assert document["findings"] == []


def test_legal_noncombat_move_is_clean() -> None:
    result = movecheck("check", "examples/aa/orders/g1-noncombat.yaml", "--format", "json")
    document = json.loads(result.stdout)
    assert result.returncode == 0
    assert document["summary"]["orders"] == 10
    assert document["findings"] == []


@pytest.mark.parametrize("orders", [p for p in AA_ORDERS if p.parent.name == "variants"],
                         ids=ids([p for p in AA_ORDERS if p.parent.name == "variants"]))
def test_each_variant_breaks_its_rule(orders: Path) -> None:
    """A variant named after a code reports that code, and only errors of that code; a variant of a warning
    clause (AA603, AA707, AA708) reports that warning and no error: the orders stay legal."""
    expected = next(part for part in orders.stem.split("-") if re.fullmatch(r"[a-z]{2}\d{3}", part)).upper()
    document = json.loads(movecheck("check", rel(orders), "--format", "json").stdout)
    error_codes = {f["code"] for f in document["findings"] if f["severity"] == "error"}
    warning_codes = {f["code"] for f in document["findings"] if f["severity"] == "warning"}
    if expected in warning_codes:
        assert error_codes == set()
        assert document["summary"]["legal_orders"] == document["summary"]["orders"]
        return
    assert error_codes == {expected}
    if expected.startswith("MC"):  # an input problem: the order cannot be judged
        assert document["summary"]["unchecked_orders"] >= 1
        assert document["summary"]["legal_orders"] < document["summary"]["orders"]
    else:
        assert document["summary"]["illegal_orders"] >= 1


@pytest.mark.parametrize(
    "state", sampled("tests/test_examples.py::test_example_states_lint_clean", STATES, ids(STATES))
)
def test_example_states_lint_clean(state: Path) -> None:
    """A sampled sweep (tests/sampling.py): every third example state in the default run, the others under ``slow``."""
    result = movecheck("lint", rel(state))
    assert result.returncode == 0, result.stdout
    assert " 0 errors" in result.stdout or result.stdout.startswith("0 errors")

