"""``movecheck apply`` for maneuver: the battlefield after the orders, and the side to move next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from movecheck.cli import main
from movecheck.maneuver.apply import next_side

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "maneuver"


def bases(state: dict) -> dict[str, dict]:
    return {b["id"]: b for members in state["sides"].values() for corps in members for b in corps["bases"]}


def apply(capsys, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    code = main(["apply", *args, "--isolated"])
    return code, capsys.readouterr().out


def required_ends(capsys, orders: str) -> dict[str, dict]:
    """The ends the rules require of each base of the corps orders (``check --suggest``)."""
    main(["check", orders, "--suggest", "--format", "json", "--isolated"])
    captured = capsys.readouterr()
    suggested = yaml.safe_load(captured.err)
    return {base: end for order in suggested for base, end in order["end"].items()}


def test_corps_orders_leave_every_base_at_the_end_the_rules_require(capsys, monkeypatch):
    code, text = apply(capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    assert code == 0
    after = bases(yaml.safe_load(text))
    required = required_ends(capsys, "examples/maneuver/corps-orders.yaml")
    assert len(required) >= 10
    for base, end in required.items():
        assert after[base]["x"] == pytest.approx(end["x"], abs=0.006), base
        assert after[base]["y"] == pytest.approx(end["y"], abs=0.006), base
    assert after["r17"]["x"] == 108.028  # the required end, not the declared 108.03 (within tolerance)
    before = bases(yaml.safe_load((EXAMPLES / "battlefield.yaml").read_text()))
    untouched = set(before) - set(required)
    assert untouched and all(after[b] == before[b] for b in untouched)


def test_free_moves_end_at_the_declared_end_with_the_declared_facing(capsys, monkeypatch):
    code, text = apply(capsys, monkeypatch, "examples/maneuver/free-orders.yaml")
    assert code == 0
    state = yaml.safe_load(text)
    after = bases(state)
    assert (after["r9"]["x"], after["r9"]["y"], after["r9"]["facing"]) == (90, 30, 0)
    assert (after["r17"]["x"], after["r17"]["y"], after["r17"]["facing"]) == (106, 115, 45)
    assert after["r9"]["width"] == 4  # the rest of each base entry is kept
    assert state["to_move"] == "blue"
    assert text.startswith("# Written by movecheck apply: the orders examples/maneuver/free-orders.yaml carried out")


@pytest.mark.parametrize("orders", ["corps-orders.yaml", "free-orders.yaml"])
def test_applied_battlefield_lints_without_errors_and_is_deterministic(capsys, monkeypatch, tmp_path, snapshot, orders):
    out = tmp_path / "after.yaml"
    code, _ = apply(capsys, monkeypatch, f"examples/maneuver/{orders}", "-o", str(out))
    assert code == 0
    code = main(["lint", str(out), "--format", "json", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["summary"]["errors"] == 0
    _, again = apply(capsys, monkeypatch, f"examples/maneuver/{orders}")
    assert again == out.read_text()
    assert again == snapshot


def test_illegal_orders_write_nothing_unless_forced(capsys, monkeypatch, tmp_path):
    out = tmp_path / "after.yaml"
    code, text = apply(capsys, monkeypatch, "examples/maneuver/free-orders-mv101.yaml", "-o", str(out))
    assert code == 1 and "MV101" in text
    assert not out.exists()
    code, text = apply(capsys, monkeypatch, "examples/maneuver/free-orders-mv101.yaml", "--force")
    assert code == 0
    assert "# --force: the orders are NOT legal" in text


def test_the_next_side_goes_round():
    assert next_side(["red", "blue"], "red") == "blue"
    assert next_side(["red", "blue"], "blue") == "red"
    assert next_side(["red", "blue", "green"], "blue") == "green"
