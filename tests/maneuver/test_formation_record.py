"""The formation a legal order left is the corps' formation from then on (M5, M8; issue #29)."""

from __future__ import annotations

from pathlib import Path

from movecheck.cli import main
from tests.harness import yaml_data
from tests.maneuver.helpers import (
    base,
    codes,
    corps,
    corps_order,
    dump,
    orders,
    rect_terrain,
    run_check,
    run_lint,
    state,
)


def _brook_state() -> dict:
    """Two bases abreast 4 steps short of a 3-step brook; blue far away."""
    red = [corps("red-1", base("r1", 50, 30), base("r2", 54, 30))]
    return state(red, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])


def _staggered(tmp_path: Path, capsys, monkeypatch) -> dict:
    """Apply a legal All ahead whose rolls leave r2 five steps ahead of r1; the written state."""
    (tmp_path / "state.yaml").write_text(dump(_brook_state()), encoding="utf-8")
    order = corps_order("all_ahead", "red-1", {"r1": (50, 34), "r2": (54, 39)}, rolls={"r1": 6, "r2": 1})
    (tmp_path / "orders.yaml").write_text(dump(orders(order)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["apply", "orders.yaml", "-o", "next.yaml", "--isolated"]) == 0
    capsys.readouterr()
    return yaml_data((tmp_path / "next.yaml").read_text(encoding="utf-8"))


def test_a_staggered_formation_without_a_record_is_mv602(tmp_path):
    doc = _brook_state()
    doc["sides"]["red"][0]["bases"][1]["y"] = 35
    assert codes(run_lint(tmp_path, doc)) == ["MV602"]


def test_apply_records_the_formation_a_legal_order_left(tmp_path, capsys, monkeypatch):
    written = _staggered(tmp_path, capsys, monkeypatch)
    entry = written["sides"]["red"][0]
    assert entry["formation"] == {"order": "orders.yaml order 1", "offsets": {"r1": [0, 0], "r2": [4, 5]}}
    assert [(b["x"], b["y"]) for b in entry["bases"]] == [(50, 34), (54, 39)]
    assert "formation" not in written["sides"]["blue"][0]  # nothing moved it


def test_the_written_state_lints_and_checks_without_mv602(tmp_path, capsys, monkeypatch):
    written = _staggered(tmp_path, capsys, monkeypatch)
    (tmp_path / "lint").mkdir()
    assert codes(run_lint(tmp_path / "lint", written)) == []
    blue = orders(corps_order("all_back", "blue-far", {"bfar": (195, 197)}), side="blue")
    (tmp_path / "blue").mkdir()
    found, _, _ = run_check(tmp_path / "blue", written, blue)
    assert codes(found) == []  # no MV602 repeated at the other side's check


def test_the_next_turn_is_judged_against_the_staggered_formation(tmp_path, capsys, monkeypatch):
    written = _staggered(tmp_path, capsys, monkeypatch)
    (tmp_path / "next").mkdir()
    # open ground ahead: each file moves its full 10 steps, and the stagger is kept
    written["terrain"] = []
    red = orders(corps_order("all_ahead", "red-1", {"r1": (50, 44), "r2": (54, 49)}))
    found, _, report = run_check(tmp_path / "next", written, red)
    assert codes(found) == []
    assert [v[2].value for v in report.verdicts()] == ["legal"]


def test_a_recorded_formation_the_bases_left_explains_nothing(tmp_path, capsys, monkeypatch):
    written = _staggered(tmp_path, capsys, monkeypatch)
    written["sides"]["red"][0]["bases"][1]["y"] = 40  # moved by hand after apply
    (tmp_path / "edited").mkdir()
    assert codes(run_lint(tmp_path / "edited", written)) == ["MV602"]


def test_a_forced_illegal_order_records_no_formation(tmp_path, capsys, monkeypatch):
    (tmp_path / "state.yaml").write_text(dump(_brook_state()), encoding="utf-8")
    order = corps_order("all_ahead", "red-1", {"r1": (50, 34), "r2": (54, 45)}, rolls={"r1": 6, "r2": 1})
    (tmp_path / "orders.yaml").write_text(dump(orders(order)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["apply", "orders.yaml", "-o", "next.yaml", "--force", "--isolated"])
    capsys.readouterr()
    written = yaml_data((tmp_path / "next.yaml").read_text(encoding="utf-8"))
    assert "formation" not in written["sides"]["red"][0]


def test_a_free_move_that_leaves_a_base_apart_records_no_formation(tmp_path, capsys, monkeypatch):
    red = [corps("red-1", base("r1", 50, 30), base("r2", 54, 30))]
    (tmp_path / "state.yaml").write_text(dump(state(red)), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(dump(orders({"order": "free", "base": "r2", "path": [[60, 30]]})),
                                          encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["apply", "orders.yaml", "-o", "next.yaml", "--isolated"]) == 0
    capsys.readouterr()
    written = yaml_data((tmp_path / "next.yaml").read_text(encoding="utf-8"))
    assert "formation" not in written["sides"]["red"][0]
    (tmp_path / "lint").mkdir()
    assert codes(run_lint(tmp_path / "lint", written)) == ["MV602"]


def test_the_record_survives_the_other_sides_turn(tmp_path, capsys, monkeypatch):
    _staggered(tmp_path, capsys, monkeypatch)  # writes next.yaml in tmp_path
    blue = orders(corps_order("all_back", "blue-far", {"bfar": (195, 197)}), side="blue")
    blue["state"] = "next.yaml"
    (tmp_path / "blue.yaml").write_text(dump(blue), encoding="utf-8")
    assert main(["apply", "blue.yaml", "-o", "after.yaml", "--isolated"]) == 0
    capsys.readouterr()
    after = yaml_data((tmp_path / "after.yaml").read_text(encoding="utf-8"))
    assert after["sides"]["red"][0]["formation"]["offsets"] == {"r1": [0, 0], "r2": [4, 5]}
    assert after["to_move"] == "red"
    assert main(["lint", "after.yaml", "--isolated"]) == 0
    assert "MV602" not in capsys.readouterr().out
