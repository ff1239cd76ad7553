"""``check --suggest``: a draft order without ``end:``, and orders it has nothing to write for."""

from __future__ import annotations

from pathlib import Path

from tests.harness import yaml_data
from tests.maneuver.helpers import base, codes, corps, orders, run_check, state

ROOT = Path(__file__).resolve().parents[2]
LINE = state([corps("red-1", base("r1", 50, 30), base("r2", 54, 30))])
DRAFT = orders({"id": "o1", "order": "all_ahead", "corps": "red-1"})


def test_suggest_fills_in_an_order_without_end(tmp_path):
    findings, suggestions, _ = run_check(tmp_path, LINE, DRAFT, suggest=True)
    assert "MC003" not in codes(findings)
    assert yaml_data("".join(suggestions)) == [
        {
            "id": "o1",
            "corps": "red-1",
            "order": "all_ahead",
            "end": {"r1": {"x": 50, "y": 40}, "r2": {"x": 54, "y": 40}},
        }
    ]


def test_check_without_suggest_still_requires_end(tmp_path):
    findings, suggestions, _ = run_check(tmp_path, LINE, DRAFT)
    assert codes(findings) == ["MC003"]
    assert "'end'" in findings[0].message
    assert suggestions == []


def test_suggest_keeps_every_other_schema_rule(tmp_path):
    # only end: may be left out; an order without corps: is still MC003
    findings, _, _ = run_check(tmp_path, LINE, orders({"order": "all_ahead"}), suggest=True)
    assert codes(findings) == ["MC003"]
    assert "'corps'" in findings[0].message


def test_suggest_on_aa_orders_is_a_usage_error(run_main):
    code, out, err = run_main(["check", "examples/aa/orders/g1-combat.yaml", "--suggest"], cwd=ROOT)
    assert code == 2
    assert out == ""
    assert (
        err
        == "movecheck: error: --suggest has nothing to write for an aa-orders file: examples/aa/orders/g1-combat.yaml\n"
    )


def test_aa_orders_without_suggest_are_checked(run_main):
    code, _, err = run_main(["check", "examples/aa/orders/g1-combat.yaml"], cwd=ROOT)
    assert code == 0 and err == ""
