"""Free moves of single bases (issue 5): every clause fires, and a close legal move passes."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.maneuver.helpers import (
    base,
    codes,
    corps,
    errors,
    free,
    orders,
    rect_terrain,
    run_check,
    state,
)

# r9 at (50, 20) facing north, 4 x 2, mobility 8; the only enemy far away: allowance 10.
LONE = state([corps("red-3", base("r9", 50, 20))])


def check(tmp_path, state_doc, *items, **kw):
    findings, _, _report = run_check(tmp_path, state_doc, orders(*items, **kw))
    return findings


# --- MV101: distance against mobility ---------------------------------------------------------


def test_straight_move_within_mobility_and_bonus_passes(tmp_path):
    assert check(tmp_path, LONE, free("r9", (50, 30))) == []


def test_move_within_tolerance_of_the_allowance_passes(tmp_path):
    assert check(tmp_path, LONE, free("r9", (50, 30.08))) == []


def test_move_beyond_allowance_is_mv101(tmp_path):
    found = check(tmp_path, LONE, free("r9", (50, 30.2)))
    assert codes(found) == ["MV101"]
    message = found[0].message
    assert "r9 travels 10.20 steps but its allowance is 10.00" in message
    assert "mobility 8 + 2 pre-battle" in message
    assert (found[0].line, found[0].order) == (9, 1)  # the path's last waypoint


def test_path_length_is_the_sum_of_segments(tmp_path):
    # straight line blocked by impassable terrain, so the detour is allowed; its length counts
    terrain = [rect_terrain("rock", "impassable", 48, 26, 52, 28)]
    doc = state([corps("red-3", base("r9", 50, 20), mobility=12)], terrain=terrain)
    assert check(tmp_path, doc, free("r9", (54.1, 25), (54.1, 31))) == []  # 6.47 + 6.00 <= 14
    found = check(tmp_path, doc, free("r9", (54.1, 25), (54.1, 33)))  # 6.47 + 8.00 > 14
    assert errors(found) == ["MV101"]
    assert "r9 travels 14.47 steps but its allowance is 14.00" in found[0].message


# --- M11: the pre-battle bonus ----------------------------------------------------------------


def _enemy_ahead(distance: float, facing: float = 0.0):
    """An enemy base straight ahead of r9 (facing ``facing``) at an edge-to-edge ``distance``."""
    hx, hy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    gap = 1 + distance + 1  # half depths plus the distance
    return base("b1", 100 + hx * gap, 100 + hy * gap, (facing + 180) % 360)


def test_base_at_exactly_15_steps_gets_no_bonus(tmp_path):
    doc = state([corps("red-3", base("r9", 100, 100))], [corps("blue-1", _enemy_ahead(15.0))])
    # moving away (south) by 9.5: legal with mobility 8 only if the bonus applies
    found = check(tmp_path, doc, free("r9", (100, 90.5)))
    assert errors(found) == ["MV101"]
    assert "no pre-battle bonus: an enemy is 15.00 steps away" in found[0].message


def test_base_just_beyond_15_steps_gets_the_bonus(tmp_path):
    doc = state([corps("red-3", base("r9", 100, 100))], [corps("blue-1", _enemy_ahead(15.01))])
    assert check(tmp_path, doc, free("r9", (100, 90.5))) == []


def _world_with_enemy_ahead(facing: float, distance: float):
    from movecheck.maneuver.model import Base, Battlefield, Corps
    from movecheck.maneuver.world import World

    bf = Battlefield(400, 400)
    hx, hy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    r9 = Base("r9", "red", "red-3", 200, 200, facing, 4, 2, 8)
    b1 = Base(
        "b1", "blue", "blue-1", 200 + hx * (distance + 2), 200 + hy * (distance + 2), (facing + 180) % 360, 4, 2, 8
    )
    bf.bases = {"r9": r9, "b1": b1}
    bf.sides = {"red": [Corps("red-3", "red", [r9])], "blue": [Corps("blue-1", "blue", [b1])]}
    return World(bf, "red"), r9


EVERY_DEGREE = [pytest.param(a, marks=() if a % 5 == 0 else pytest.mark.slow) for a in range(360)]
"""Every degree: every fifth in the default run, all 360 under slow."""


@pytest.mark.parametrize("facing", EVERY_DEGREE)
def test_exactly_15_steps_at_every_angle_gets_no_bonus(facing):
    world, r9 = _world_with_enemy_ahead(facing, 15.0)
    bonus, nearest = world.prebattle([r9])
    assert bonus is False and nearest == pytest.approx(15.0, abs=1e-9)
    world, r9 = _world_with_enemy_ahead(facing, 15.000001)
    assert world.prebattle([r9])[0] is True


def test_prebattle_measure_centre(tmp_path):
    # edge to edge 15.5 (bonus), centre to centre 17.5: with centre measure and distance 17 still a bonus
    blue = [corps("blue-1", _enemy_ahead(15.5))]
    doc = state(
        [corps("red-3", base("r9", 100, 100))],
        blue,
        options={"prebattle_measure": "centre", "prebattle_distance": 17.6},
    )
    found = check(tmp_path, doc, free("r9", (100, 90.5)))
    assert errors(found) == ["MV101"]
    doc = state(
        [corps("red-3", base("r9", 100, 100))],
        blue,
        options={"prebattle_measure": "centre", "prebattle_distance": 17.4},
    )
    assert check(tmp_path, doc, free("r9", (100, 90.5))) == []


# --- terrain: penalties, rolls, range reasoning ------------------------------------------------

FOREST = state([corps("red-3", base("r9", 50, 20))], terrain=[rect_terrain("wood1", "forest", 30, 25, 70, 60)])
# r9's front edge is at y=21: it enters wood1 after e = 4 steps.


def test_forest_roll_reduces_the_allowance(tmp_path):
    # allowance max(4, 10 - 5) = 5
    assert check(tmp_path, FOREST, free("r9", (50, 25), rolls={"r9": 5})) == []
    found = check(tmp_path, FOREST, free("r9", (50, 25.5), rolls={"r9": 5}))
    assert errors(found) == ["MV101"]
    assert "wood1 D3 (3d6) = 5 → 5.00" in found[0].message


def test_penalty_never_pushes_back_behind_the_terrain_edge(tmp_path):
    # whatever the roll, the allowance is at least e = 4: the base may reach the wood's edge
    assert check(tmp_path, FOREST, free("r9", (50, 24.05))) == []
    assert check(tmp_path, FOREST, free("r9", (50, 24.05), rolls={"r9": {"wood1": 18}})) == []
    found = check(tmp_path, FOREST, free("r9", (50, 24.5), rolls={"r9": {"wood1": 18}}))
    assert errors(found) == ["MV101"]
    assert "allowance is 4.00 (10.00, wood1 D3 (3d6) = 18 → 4.00" in found[0].message


def test_missing_roll_gives_the_condition(tmp_path):
    found = check(tmp_path, FOREST, free("r9", (50, 26)))  # 6 steps: legal only if roll <= 4
    assert codes(found) == ["MV304"]
    assert found[0].severity.value == "warning"
    assert "legal only if the D3 roll (3d6) for r9 entering wood1 is 4 or less (2%)" in found[0].message


def test_missing_roll_illegal_for_every_roll_is_mv101_with_the_range(tmp_path):
    found = check(tmp_path, FOREST, free("r9", (50, 28)))  # 8 steps > max(4, 10 - 3)
    assert errors(found) == ["MV101"]
    assert "whatever the D3 roll (3d6) for r9 entering wood1 (3..18): at most 7.00" in found[0].message


def test_missing_roll_legal_for_every_roll_gives_nothing(tmp_path):
    assert check(tmp_path, FOREST, free("r9", (50, 24.1))) == []


def test_two_features_each_cost_their_own_roll(tmp_path):
    terrain = [rect_terrain("brook", "stream", 0, 22, 200, 23), rect_terrain("field", "ploughed_field", 0, 25, 200, 40)]
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=terrain)
    # brook at e=1: 10-2=8; field at e=4: 8-3=5 -> allowance 5
    assert check(tmp_path, doc, free("r9", (50, 25), rolls={"r9": {"brook": 2, "field": 3}})) == []
    found = check(tmp_path, doc, free("r9", (50, 25.5), rolls={"r9": {"brook": 2, "field": 3}}))
    assert errors(found) == ["MV101"]
    found = check(tmp_path, doc, free("r9", (50, 25)))
    assert codes(found) == ["MV304"]
    assert (
        "the rolls (D1 (1d6) for r9 entering brook, D1 (1d6) for r9 entering field) fall favourably" in found[0].message
    )


def test_hill_counts_only_when_climbing_onto_it(tmp_path):
    terrain = [rect_terrain("knoll", "hill", 30, 25, 70, 60)]
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=terrain)
    found = check(tmp_path, doc, free("r9", (50, 30)))
    assert codes(found) == ["MV101"]  # 2d6 roll of at least 2: at most 8 < 10
    on_hill = state([corps("red-3", base("r9", 50, 30))], terrain=terrain)
    assert check(tmp_path, on_hill, free("r9", (50, 40))) == []


def test_open_terrain_costs_nothing(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=[rect_terrain("meadow", "open", 0, 22, 200, 60)])
    assert check(tmp_path, doc, free("r9", (50, 30))) == []


def test_roll_out_of_range_is_mv302(tmp_path):
    found = check(tmp_path, FOREST, free("r9", (50, 25), rolls={"r9": 2}))
    assert errors(found) == ["MV302"]
    assert "outside the range of D3 (3d6: 3..18)" in found[0].message
    assert found[0].line == 10  # the roll's node


def test_roll_for_terrain_not_entered_is_mv303(tmp_path):
    found = check(tmp_path, FOREST, free("r9", (50, 23), rolls={"r9": 4}))
    assert errors(found) == ["MV303"]
    assert "enters no difficult terrain" in found[0].message


def test_roll_for_another_base_is_mv303(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20)), corps("red-4", base("r10", 80, 20))])
    found = check(tmp_path, doc, free("r9", (50, 25), rolls={"r10": 4}))
    assert errors(found) == ["MV303"]
    assert "r10, which this order does not move" in found[0].message


def test_options_dice_and_penalties(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=[rect_terrain("wood1", "forest", 30, 25, 70, 60)],
                options={"dice": {"D3": "1d3"}})
    found = check(tmp_path, doc, free("r9", (50, 28)))  # 8 steps: legal only if the 1d3 shows 2 or less
    assert codes(found) == ["MV304"]
    assert "D3 roll (1d3) for r9 entering wood1 is 2 or less (67%)" in found[0].message
    doc["options"] = {"penalties": {"forest": "D1"}}
    found = check(tmp_path, doc, free("r9", (50, 28)))
    assert "D1 roll (1d6)" in found[0].message


# --- MV102: straight line ---------------------------------------------------------------------


def test_two_segments_when_the_straight_line_is_clear_is_mv102(tmp_path):
    found = check(tmp_path, LONE, free("r9", (52, 24), (50, 28)))
    assert errors(found) == ["MV102"]
    assert "the straight line to (50.00, 28.00) (8.00 steps) is clear" in found[0].message


def test_waypoints_on_the_straight_line_are_straight(tmp_path):
    assert check(tmp_path, LONE, free("r9", (50, 24), (50, 28))) == []


def test_detour_round_impassable_terrain_is_allowed(tmp_path):
    terrain = [rect_terrain("rock", "impassable", 48, 24, 52, 26)]
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=terrain)
    assert check(tmp_path, doc, free("r9", (54.1, 23), (54.1, 27))) == []


def test_detour_round_an_enemy_is_allowed(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20), mobility=10)], [corps("blue-1", base("b1", 50, 25, 180))])
    found = check(tmp_path, doc, free("r9", (54.1, 23), (54.1, 27)))
    assert errors(found) == []


def test_detour_round_a_forest_is_allowed(tmp_path):
    terrain = [rect_terrain("copse", "forest", 47, 24, 53, 26)]
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=terrain)
    assert check(tmp_path, doc, free("r9", (55.1, 23), (55.1, 27))) == []


# --- MV401: friends -------------------------------------------------------------------------


def _with_friend(x: float, y: float):
    return state([corps("red-3", base("r9", 50, 20)), corps("red-4", base("r7", x, y))])


def test_passing_a_friend_within_half_its_area_is_legal(tmp_path):
    # r7 shifted 2 to the side: at most 2 x 2 = 4 = half of r9's 8 square steps
    assert check(tmp_path, _with_friend(52, 25), free("r9", (50, 29))) == []


def test_passing_through_more_than_half_a_friend_is_mv401(tmp_path):
    found = check(tmp_path, _with_friend(51.5, 25), free("r9", (50, 29)))
    assert errors(found) == ["MV401"]
    assert "passes through friendly r7, overlapping it by 5.00 of its own 8.00 square steps" in found[0].message


def test_ending_on_a_friend_is_mv401(tmp_path):
    found = check(tmp_path, _with_friend(53, 25), free("r9", (50, 25)))
    assert errors(found) == ["MV401"]
    assert "ends overlapping friendly r7" in found[0].message


def test_pass_through_limit_option(tmp_path):
    doc = _with_friend(52, 25)
    doc["options"] = {"pass_through_limit": 0.25}
    found = check(tmp_path, doc, free("r9", (50, 29)))
    assert errors(found) == ["MV401"]


# --- MV402 / MV501: enemies ----------------------------------------------------------------------


def test_moving_into_contact_is_a_note(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 26, 180))])
    found = check(tmp_path, doc, free("r9", (50, 24)))
    assert codes(found) == ["MV501"]
    assert found[0].severity.value == "note"
    assert "r9 ends in contact with enemy b1" in found[0].message


def test_declared_contact_slightly_overlapping_within_tolerance_is_contact(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 26, 180))])
    assert codes(check(tmp_path, doc, free("r9", (50, 24.06)))) == ["MV501"]


def test_overlapping_an_enemy_is_mv402(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 26, 180))])
    found = check(tmp_path, doc, free("r9", (50, 24.5)))
    assert errors(found) == ["MV402"]


def test_passing_through_an_enemy_is_mv402(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 25, 90, width=1, depth=1))])
    found = check(tmp_path, doc, free("r9", (50, 29)))
    assert "MV402" in errors(found)


# --- MV403: impassable terrain and the field edge ---------------------------------------------------


def test_entering_impassable_terrain_is_mv403(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], terrain=[rect_terrain("lake", "impassable", 40, 25, 60, 40)])
    found = check(tmp_path, doc, free("r9", (50, 26)))
    assert errors(found) == ["MV403"]
    assert "enters impassable terrain lake" in found[0].message
    assert check(tmp_path, doc, free("r9", (50, 24))) == []  # touching the shore is fine


def test_leaving_the_field_is_mv403(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 4))])
    found = check(tmp_path, doc, free("r9", (50, 0.5)))
    assert errors(found) == ["MV403"]
    assert "leaves the field (0..200 × 0..200)" in found[0].message
    assert check(tmp_path, doc, free("r9", (50, 1))) == []  # rear edge on the field edge


# --- MV502: engaged bases ----------------------------------------------------------------------


ENGAGED = state([corps("red-6", base("r15", 50, 20))], [corps("blue-2", base("b5", 50, 22, 180))])


def test_engaged_base_may_go_straight_back(tmp_path):
    assert check(tmp_path, ENGAGED, free("r15", (50, 16))) == []


def test_engaged_base_moving_sideways_is_mv502(tmp_path):
    found = check(tmp_path, ENGAGED, free("r15", (46, 19)))
    assert errors(found) == ["MV502"]
    assert "r15 is in contact with b5 at the start" in found[0].message


def test_engaged_base_turning_while_backing_is_mv502(tmp_path):
    found = check(tmp_path, ENGAGED, free("r15", (50, 16), facing=30))
    assert errors(found) == ["MV502"]


def _corner_contact(offset: float):
    """r15 (facing 0) touches the lowest corner of b5 (turned to 200°) with its front edge,
    ``offset`` steps left of its front-right corner; and the end flush in front of b5, facing 20°."""
    import math as m

    from movecheck.maneuver import geometry as g

    low = min(g.base_rect(50, 30, 200, 4, 2).exterior.coords, key=lambda p: p[1])
    doc = state([corps("red-6", base("r15", low[0] - 2 + offset, low[1] - 1, 0))],
                [corps("blue-2", base("b5", 50, 30, 200))])
    hx, hy = m.sin(m.radians(200)), m.cos(m.radians(200))
    return doc, (50 + hx * 2, 30 + hy * 2)


def test_engaged_base_may_wheel_forward_into_full_contact(tmp_path):
    # its front-right corner touches b5's corner: it wheels right about that corner, flush with b5
    doc, end = _corner_contact(0)
    assert errors(check(tmp_path, doc, free("r15", end, facing=20))) == []


def test_engaged_base_sliding_into_contact_is_mv502(tmp_path):
    # b5's corner touches the middle of r15's front edge: the same end needs a 2-step slide to the left
    doc, end = _corner_contact(2)
    found = check(tmp_path, doc, free("r15", end, facing=20))
    assert errors(found) == ["MV502"]
    assert "it slides sideways: its end is 2.00 steps from any end a straight advance or a wheel" in found[0].message


def test_engaged_base_sliding_from_full_to_partial_contact_is_mv502(tmp_path):
    found = check(tmp_path, ENGAGED, free("r15", (51, 20)))
    assert errors(found) == ["MV502"]
    assert "it slides sideways: its end is 1.00 steps" in found[0].message


def _facing_enemy(facing: float, slide: float, digits: int = 9):
    """r15 in full contact with b5 (0.0002 apart), face to face along ``facing``; and r15's centre slid
    ``slide`` steps to its right, each position rounded to ``digits`` decimals."""
    import math as m

    hx, hy = m.sin(m.radians(facing)), m.cos(m.radians(facing))
    rx, ry = hy, -hx
    doc = state(
        [corps("red-6", base("r15", 100, 100, facing))],
        [
            corps(
                "blue-2",
                base("b5", round(100 + 2.0002 * hx, digits), round(100 + 2.0002 * hy, digits), (facing + 180) % 360),
            )
        ],
    )
    return doc, (round(100 + slide * rx, digits), round(100 + slide * ry, digits))


@pytest.mark.parametrize("facing, slide, digits", [(137, 3, 9), (45, 4 - 0.00004, 4), (45, 3.9, 4)])
def test_engaged_base_sliding_along_a_turned_enemy_is_mv502(tmp_path, facing, slide, digits):
    doc, end = _facing_enemy(facing, slide, digits)
    found = check(tmp_path, doc, free("r15", end))
    assert errors(found) == ["MV502"], [f.message for f in found]


def test_engaged_base_advancing_along_a_turned_enemy_stays_legal(tmp_path):
    doc, _ = _facing_enemy(137, 0)
    assert check(tmp_path, doc, free("r15", (100, 100))) == []
    doc, end = _facing_enemy(137, 0.05, 4)  # within the tolerance: still full contact
    assert errors(check(tmp_path, doc, free("r15", end))) == []


def test_engaged_base_advancing_into_partial_contact_is_mv502(tmp_path):
    # r15 touches b5 at a corner only; it advances 0.5 to stand beside b5's edge over 1 step of 4
    doc = state([corps("red-6", base("r15", 50, 20))], [corps("blue-2", base("b5", 53, 22, 180))])
    found = check(tmp_path, doc, free("r15", (50, 20.5)))
    assert sorted(errors(found)) in (["MV502"], ["MV402", "MV502"])
    assert any("does not end in full contact" in f.message for f in found)


# --- names and sides --------------------------------------------------------------------------


def test_unknown_base_is_mc004_with_a_suggestion(tmp_path):
    found = check(tmp_path, LONE, free("r99", (50, 25)))
    assert codes(found) == ["MC004"]
    assert "did you mean 'r9'?" in found[0].message
    assert (found[0].line, found[0].column) == (7, 9)


def test_unknown_names_are_resolved_even_with_schema_errors(tmp_path):
    found = check(tmp_path, FOREST, free("r99", (50, 25), rolls={"r9": {"wod1": 3}}, speed=3))
    assert sorted(codes(found)) == ["MC003", "MC004", "MC004"]
    assert any("did you mean 'wood1'?" in f.message for f in found)
    assert all(f.order == 1 for f in found)


def test_base_of_the_enemy_is_mc004(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 80, 180))])
    found = check(tmp_path, doc, free("b1", (50, 75)))
    assert codes(found) == ["MC004"]
    assert "belongs to blue, not to red" in found[0].message


def test_side_that_is_not_in_the_state_is_mc006(tmp_path):
    found = check(tmp_path, LONE, free("r9", (50, 25)), side="rd")
    assert codes(found) == ["MC006"]
    assert "did you mean 'red'?" in found[0].message


def test_corps_and_base_must_agree(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20)), corps("red-4", base("r10", 80, 20))])
    found = check(tmp_path, doc, {**free("r9", (50, 25)), "corps": "red-4"})
    assert codes(found) == ["MC004"]
    assert "r9' is in corps red-3, not in red-4" in found[0].message


def test_orders_carried_out_in_file_order(tmp_path):
    # r9 goes to (50, 28) first; r10's move then ends on it where it stands now
    doc = state([corps("red-3", base("r9", 50, 20)), corps("red-4", base("r10", 50, 34))])
    assert check(tmp_path, doc, free("r10", (50, 28.5)), free("r9", (50, 24))) == []
    found = check(tmp_path, doc, free("r9", (50, 28)), free("r10", (50, 28.5)))
    assert set(errors(found)) == {"MV401"} and {f.order for f in found} == {2}
    # a second order for the same base is MV204 (tests/maneuver/test_repeat.py), judged from where the first left it
    found = check(tmp_path, LONE, free("r9", (50, 30)), free("r9", (50, 41)))
    assert sorted(errors(found)) == ["MV101", "MV204"] and {f.order for f in found} == {2}


def test_json_report_gives_the_readings(tmp_path):
    _, _, report = run_check(tmp_path, FOREST, orders(free("r9", (50, 25), rolls={"r9": 5})))
    readings = report.readings["maneuver"]
    assert readings["dice"] == {"D1": "1d6", "D2": "2d6", "D3": "3d6"}
    assert readings["penalties"]["forest"] == "D3"
    assert readings["prebattle_measure"] == "edge"
    assert readings["corps_penalty"] == "per_file"
    assert readings["back_distance"] == "half_of_max"
    assert readings["tolerance"] == 0.1


# --- geometry at every angle ----------------------------------------------------------------------


@pytest.mark.parametrize("angle", EVERY_DEGREE)
def test_move_into_contact_at_every_angle_is_contact_not_overlap(angle):
    """r9 moves 5 steps along ``angle`` and ends exactly touching an enemy turned the same way."""
    from movecheck.maneuver.free import analyse_free
    from movecheck.maneuver.model import Base, Battlefield, Corps
    from movecheck.maneuver.orders import Order
    from movecheck.maneuver.world import World

    bf = Battlefield(400, 400)
    hx, hy = math.sin(math.radians(angle)), math.cos(math.radians(angle))
    r9 = Base("r9", "red", "red-3", 200, 200, angle, 4, 2, 8)
    end = (200 + 5 * hx, 200 + 5 * hy)
    b1 = Base("b1", "blue", "blue-1", end[0] + 2 * hx, end[1] + 2 * hy, (angle + 180) % 360, 4, 2, 8)
    bf.bases = {"r9": r9, "b1": b1}
    bf.sides = {"red": [Corps("red-3", "red", [r9])], "blue": [Corps("blue-1", "blue", [b1])]}
    order = Order(0, "free", None, ("orders", 0), base=r9, path=[end])
    a = analyse_free(World(bf, "red"), order)
    assert a.events.enemy_hits == []
    assert [e.id for e in a.new_contacts] == ["b1"]
    assert all(a.legal_length(b) for b in a.branches.items)


# --- property: random bases on an open field ---------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    x=st.floats(20, 180), y=st.floats(20, 180), facing=st.floats(0, 359.9),
    bearing=st.floats(0, 359.9), fraction=st.floats(0.0, 1.0), mobility=st.integers(4, 12),
    excess=st.floats(0.11, 5.0),
)
def test_property_free_straight_moves(x, y, facing, bearing, fraction, mobility, excess):
    """A straight move of at most the mobility that touches nothing passes; beyond mobility + bonus it is MV101."""
    hx, hy = math.sin(math.radians(bearing)), math.cos(math.radians(bearing))
    red = [corps("red-3", base("r9", round(x, 3), round(y, 3), round(facing, 3)), mobility=mobility)]
    doc = state(red, [corps("blue-far", base("bfar", 5, 5, 0, width=1, depth=1))], field=(400, 400))
    start = (round(x, 3), round(y, 3))
    with tempfile.TemporaryDirectory() as tmp:
        length = mobility * fraction
        end = (start[0] + hx * length, start[1] + hy * length)
        found, _, _ = run_check(Path(tmp), doc, orders(free("r9", end, facing=round(facing, 3))))
        assert found == []
        length = mobility + 2 + excess
        end = (start[0] + hx * length, start[1] + hy * length)
        found, _, _ = run_check(Path(tmp), doc, orders(free("r9", end)))
        assert "MV101" in errors(found)


def test_turning_in_place_into_an_enemy_is_mv402(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 50, 22.8, 180))])
    found = check(tmp_path, doc, free("r9", (50, 20), facing=90))
    assert "MV402" in errors(found)
    assert check(tmp_path, doc, free("r9", (50, 20), facing=0)) == []


def test_sliding_along_an_enemy_is_contact_not_overlap(tmp_path):
    doc = state([corps("red-3", base("r9", 50, 20))], [corps("blue-1", base("b1", 54, 24, 180))])
    found = check(tmp_path, doc, free("r9", (50, 26)))
    assert codes(found) == ["MV501"]  # no bonus: 8 steps; it ends beside b1, touching
