"""``check --suggest`` on a draft: corps orders without ``end:`` print their ends, with no MV202 (issue #29)."""

from __future__ import annotations

from pathlib import Path

from movecheck.cli import main
from tests.harness import yaml_data
from tests.maneuver.helpers import base, codes, corps, corps_order, dump, orders, rect_terrain, run_check, state

LINE = state([corps("red-1", base("r1", 50, 30), base("r2", 54, 30))],
             terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
DRAFT = orders({"id": "o1", "order": "all_ahead", "corps": "red-1", "rolls": {"r1": 4, "r2": 2}})


def test_a_draft_without_end_gives_no_mv202_and_is_legal(tmp_path):
    findings, suggestions, report = run_check(tmp_path, LINE, DRAFT, suggest=True)
    assert codes(findings) == []
    assert [v[2].value for v in report.verdicts()] == ["legal"]
    assert yaml_data("".join(suggestions))[0]["end"] == {"r1": {"x": 50, "y": 36}, "r2": {"x": 54, "y": 38}}


def test_the_draft_exits_0_on_the_command_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "state.yaml").write_text(dump(LINE), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(dump(DRAFT), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "orders.yaml", "--suggest", "--isolated"]) == 0
    captured = capsys.readouterr()
    assert "MV202" not in captured.out
    assert "r1: {x: 50, y: 36}" in captured.out


def test_an_end_declared_for_some_bases_still_misses_the_others(tmp_path):
    # a partial end: is no draft: the base left out is MV202, with or without --suggest
    partial = orders(corps_order("all_ahead", "red-1", {"r1": (50, 36)}, rolls={"r1": 4, "r2": 2}))
    for suggest in (True, False):
        findings, _, _ = run_check(Path(tmp_path), LINE, partial, suggest=suggest)
        assert codes(findings) == ["MV202"]
        assert "no end is declared for r2" in findings[0].message


def test_a_wrong_roll_in_a_draft_is_still_an_error(tmp_path):
    draft = orders({"id": "o1", "order": "all_ahead", "corps": "red-1", "rolls": {"r1": 9}})
    findings, _, _ = run_check(tmp_path, LINE, draft, suggest=True)
    assert "MV302" in codes(findings)
