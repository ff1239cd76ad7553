"""MV204 (issue 23): one order per base and per corps in a manoeuvre; M10 judged from the start of the turn."""

from __future__ import annotations

from movecheck.cli import main
from tests.harness import yaml_data
from tests.maneuver.helpers import base, codes, corps, corps_order, dump, errors, free, orders, run_check, state

# r9 at (90, 20) facing north, mobility 8, the enemy far away: allowance 10.
LONE = state([corps("red-3", base("r9", 90, 20))])
# red-1: two bases abreast, mobility 8 (allowance 10); red-3: a single base beside them.
LINE = state([corps("red-1", base("r1", 50, 30), base("r2", 54, 30)), corps("red-3", base("r9", 90, 20))])
# r1 and r2 face b1 and b2 (in contact: engaged, M10), mobility 6.
ENGAGED = state([corps("red-1", base("r1", 50, 30), base("r2", 54, 30), mobility=6)],
                [corps("blue-1", base("b1", 50, 32, 180), base("b2", 54, 32, 180))])


def check(tmp_path, doc, *items):
    found, _, report = run_check(tmp_path, doc, orders(*items))
    return found, report


def apply(tmp_path, capsys, doc, *items, force=False):
    (tmp_path / "state.yaml").write_text(dump(doc), encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(dump(orders(*items)), encoding="utf-8")
    code = main(["apply", str(tmp_path / "orders.yaml"), "--isolated", *(["--force"] if force else [])])
    out = capsys.readouterr().out
    return code, out


def where(text, bid):
    state_doc = yaml_data(text[text.index("movecheck: 1"):])
    for members in state_doc["sides"].values():
        for entry in members:
            for b in entry["bases"]:
                if b["id"] == bid:
                    return (b["x"], b["y"])
    raise KeyError(bid)


def test_three_free_moves_of_one_base_are_mv204_at_the_second_and_third(tmp_path):
    found, report = check(tmp_path, LONE, free("r9", (100, 20)), free("r9", (110, 20)), free("r9", (120, 20)))
    assert codes(found) == ["MV204", "MV204"]
    assert [f.order for f in found] == [2, 3]
    assert "r9 already moves in order 1" in found[0].message
    assert report.illegal_orders() == 2
    # the same path as one order is MV101
    found, _ = check(tmp_path, LONE, free("r9", (100, 20), (110, 20), (120, 20)))
    assert "MV101" in errors(found)


def test_apply_refuses_repeated_free_moves(tmp_path, capsys):
    code, out = apply(tmp_path, capsys, LONE, free("r9", (100, 20)), free("r9", (110, 20)), free("r9", (120, 20)))
    assert code == 1 and "MV204" in out and "Written by movecheck apply" not in out


def test_apply_force_carries_the_repeated_order_out_as_checked(tmp_path, capsys):
    code, out = apply(tmp_path, capsys, LONE, free("r9", (100, 20)), free("r9", (110, 20)), force=True)
    assert code == 0
    assert "# --force: the orders are NOT legal" in out
    assert where(out, "r9") == (110, 20)


def test_corps_orders_chained_are_mv204(tmp_path):
    found, _ = check(
        tmp_path, LINE,
        corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)}),
        corps_order("all_ahead", "red-1", {"r1": (50, 50), "r2": (54, 50)}),
        corps_order("all_back", "red-1", {"r1": (50, 45), "r2": (54, 45)}),
    )
    assert codes(found) == ["MV204", "MV204"]
    assert [f.order for f in found] == [2, 3]
    assert "red-1 already has an order in this file, order 1: one order per corps a turn" in found[0].message
    lines = (tmp_path / "orders.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[found[0].line - 1][found[0].column - 1:].startswith("red-1")  # at the second order's corps


def test_a_free_move_of_a_base_whose_corps_has_an_order_is_mv204(tmp_path):
    found, _ = check(tmp_path, LINE, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)}),
                     free("r1", (50, 42)))
    assert codes(found) == ["MV204"] and found[0].order == 2
    assert "r1 already moves with its corps red-1 in order 1" in found[0].message


def test_a_corps_order_after_a_free_move_of_one_of_its_bases_is_mv204(tmp_path):
    found, _ = check(tmp_path, LINE, free("r2", (54, 33)),
                     corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 43)}))
    assert "MV204" in codes(found)
    assert (
        "red-1's base r2 already moves by a free move in order 1" in next(f for f in found if f.code == "MV204").message
    )


def test_free_moves_of_two_different_bases_of_one_corps_are_allowed(tmp_path):
    found, _ = check(tmp_path, LINE, free("r1", (50, 33)), free("r2", (54, 33)), free("r9", (90, 25)))
    assert found == []


def test_an_unusable_first_order_still_counts(tmp_path):
    found, _ = check(tmp_path, LONE, {**free("r9", (100, 20)), "facing": "north"}, free("r9", (95, 20)))
    assert "MV204" in codes(found)


def test_m10_is_judged_from_where_the_base_stood_at_the_start_of_the_turn(tmp_path):
    # r1 backs off b1 (legal); the second order slides it sideways: still engaged for M10 (MV502)
    found, _ = check(tmp_path, ENGAGED, free("r1", (50, 27)), free("r1", (48, 27)))
    assert codes(found) == ["MV204", "MV502"]
    assert all(f.order == 2 for f in found)
    # alone, the same slide from a base clear of the enemy is only a free move
    clear = state([corps("red-1", base("r1", 50, 27), base("r2", 54, 30), mobility=6)],
                  [corps("blue-1", base("b1", 50, 32, 180), base("b2", 54, 32, 180))])
    found, _ = check(tmp_path, clear, free("r1", (48, 27)))
    assert errors(found) == []
