"""``movecheck apply`` for maneuver: the battlefield after the orders, and the side to move next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from movecheck.cli import main
from movecheck.maneuver.apply import next_side
from tests.harness import yaml_data, yaml_text

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
    suggested = yaml_data(captured.err)
    return {base: end for order in suggested for base, end in order["end"].items()}


def test_corps_orders_leave_every_base_at_the_end_the_rules_require(capsys, monkeypatch):
    code, text = apply(capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    assert code == 0
    after = bases(yaml_data(text))
    required = required_ends(capsys, "examples/maneuver/corps-orders.yaml")
    assert len(required) >= 10
    for base, end in required.items():
        assert after[base]["x"] == pytest.approx(end["x"], abs=0.006), base
        assert after[base]["y"] == pytest.approx(end["y"], abs=0.006), base
    assert after["r17"]["x"] == 108.028  # the required end, not the declared 108.03 (within tolerance)
    before = bases(yaml_data((EXAMPLES / "battlefield.yaml").read_text()))
    untouched = set(before) - set(required)
    assert untouched and all(after[b] == before[b] for b in untouched)


def test_free_moves_end_at_the_declared_end_with_the_declared_facing(capsys, monkeypatch):
    code, text = apply(capsys, monkeypatch, "examples/maneuver/free-orders.yaml")
    assert code == 0
    state = yaml_data(text)
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


# --- issue 23: the states apply writes lint clean; undeclared rolls need --force ------------------


def lint_codes(capsys, path) -> list[str]:
    main(["lint", str(path), "--format", "json", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    return sorted(f["code"] for f in report["findings"] if f["severity"] == "error")


def test_engaged_orders_apply_to_a_state_without_overlaps(capsys, monkeypatch, tmp_path):
    # e2 wheels r2 into full contact with b2, declared (as measured by hand) a sliver into it
    out = tmp_path / "after.yaml"
    code, _ = apply(capsys, monkeypatch, "examples/maneuver/engaged-orders.yaml", "-o", str(out))
    assert code == 0
    assert lint_codes(capsys, out) == []


def write_pair(tmp_path, state_doc, orders_doc):
    (tmp_path / "state.yaml").write_text(yaml_text(state_doc, sort_keys=False), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(yaml_text(orders_doc, sort_keys=False), encoding="utf-8")
    return tmp_path / "orders.yaml"


def small_state(red, blue):
    return {"movecheck": 1, "system": "maneuver", "field": {"width": 100, "depth": 100},
            "sides": {"red": red, "blue": blue}}


def orders_of(*items):
    return {"movecheck": 1, "system": "maneuver", "state": "state.yaml", "side": "red", "orders": list(items)}


def test_a_free_move_ending_within_tolerance_on_a_friend_is_written_touching_it(capsys, monkeypatch, tmp_path):
    red = [{"id": "red-1", "mobility": 8, "base": [4, 2], "bases": [{"id": "r1", "x": 50, "y": 50, "facing": 0}]},
           {"id": "red-2", "mobility": 8, "base": [4, 2], "bases": [{"id": "r2", "x": 50, "y": 60, "facing": 0}]}]
    blue = [{"id": "blue-1", "base": [4, 2], "bases": [{"id": "b1", "x": 90, "y": 90, "facing": 180}]}]
    path = write_pair(
        tmp_path, small_state(red, blue), orders_of({"order": "free", "base": "r1", "path": [[50, 58.05]]})
    )
    out = tmp_path / "after.yaml"
    code, report = apply(capsys, monkeypatch, str(path), "-o", str(out))
    assert code == 0, report  # 0.05 into r2: within the tolerance, taken as touching
    assert bases(yaml_data(out.read_text()))["r1"]["y"] == 58  # written touching r2, not on it
    assert lint_codes(capsys, out) == []


def test_a_free_move_with_no_clear_place_near_its_end_is_illegal(tmp_path):
    from tests.maneuver.helpers import base, codes, corps, free, orders, run_check, state

    # r1 (4 wide) declared between r2 and r3, which stand 3.92 apart: no clear place within the tolerance
    doc = state([corps("red-1", base("r1", 50, 40)), corps("red-2", base("r2", 46.04, 50)),
                 corps("red-3", base("r3", 53.96, 50))])
    found, _, _ = run_check(tmp_path, doc, orders(free("r1", (50, 50))))
    assert "MV401" in codes(found)


def test_rounding_never_writes_a_base_into_the_enemy_it_touches(capsys, monkeypatch, tmp_path):
    # r1 marches to b1, turned 197.207°, and stops in contact at an irrational distance
    red = [{"id": "red-1", "mobility": 8, "base": [4, 2], "bases": [{"id": "r1", "x": 50, "y": 50, "facing": 0}]}]
    blue = [{"id": "blue-1", "base": [4, 2], "bases": [{"id": "b1", "x": 48.1076, "y": 56.6584, "facing": 197.207}]}]
    order = {"id": "o1", "corps": "red-1", "order": "to_landmark", "landmark": "blue-1",
             "end": {"r1": {"x": 49.78, "y": 54.11}}}
    path = write_pair(tmp_path, small_state(red, blue), orders_of(order))
    out = tmp_path / "after.yaml"
    code, report = apply(capsys, monkeypatch, str(path), "-o", str(out))
    assert code == 0, report
    after = bases(yaml_data(out.read_text()))
    assert after["b1"] == {"id": "b1", "x": 48.1076, "y": 56.6584, "facing": 197.207}  # unmoved: kept as written
    assert lint_codes(capsys, out) == []


@pytest.mark.parametrize("orders", ["free-orders-mv304.yaml", "corps-orders-mv304.yaml"])
def test_a_turn_legal_only_for_undeclared_rolls_is_written_only_with_force(capsys, monkeypatch, tmp_path, orders):
    out = tmp_path / "after.yaml"
    monkeypatch.chdir(ROOT)
    code = main(["apply", f"examples/maneuver/{orders}", "-o", str(out), "--isolated"])
    captured = capsys.readouterr()
    assert code == 1 and not out.exists()
    assert "MV304" in captured.out
    assert captured.err.strip().splitlines() == [
        "movecheck: not written: the orders are legal only for some results of rolls nobody declared (MV304); "
        "declare the rolls, or give --force to write the state that assumes them"]
    code = main(["apply", f"examples/maneuver/{orders}", "-o", str(out), "--isolated", "--force"])
    capsys.readouterr()
    assert code == 0
    header = [line for line in out.read_text().splitlines() if line.startswith("#")]
    assert "# --force: legal only for some results of rolls nobody declared (MV304); this state assumes:" in header
    assert "# --force: the orders are NOT legal (see movecheck check); they were applied as checked." not in header
    if orders.startswith("free"):
        assert "#   order 1 (f3): the D3 roll (3d6) for r14 entering wood1 is 5 or less (5%)" in header
    else:
        assert "#   order 1 (o1): the D1 roll (1d6) for r1 entering brook is exactly 4 (17%)" in header
        assert "#   order 1 (o1): the D1 roll (1d6) for r2 entering brook is exactly 2 (17%)" in header


def test_the_assumed_rolls_are_named_in_english_whatever_the_language(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    main(["apply", "examples/maneuver/free-orders-mv304.yaml", "--isolated", "--force", "--lang", "ru"])
    out = capsys.readouterr().out
    assert "#   order 1 (f3): the D3 roll (3d6) for r14 entering wood1 is 5 or less (5%)" in out
