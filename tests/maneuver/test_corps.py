"""Corps orders (issue 6): All ahead, All back, Move to landmark with the maximum possible distance."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from reuse import check_once

from tests.harness import yaml_data
from tests.maneuver.helpers import (
    base,
    codes,
    corps,
    corps_order,
    errors,
    orders,
    rect_terrain,
    run_check,
    state,
)
from tests.properties import in_two_runs

# red-1: two bases abreast at y=30 facing north, mobility 8; allowance 10 on an open field.
LINE = [corps("red-1", base("r1", 50, 30), base("r2", 54, 30))]
# red-2: two files of two (r3 r4 in front, r5 r6 behind).
BLOCK = [corps("red-2", base("r3", 50, 30), base("r4", 54, 30), base("r5", 50, 28), base("r6", 54, 28))]


def check(tmp_path, state_doc, *items, **kw):
    findings, _, _ = run_check(tmp_path, state_doc, orders(*items, **kw))
    return findings


def suggest(tmp_path, state_doc, *items):
    _, suggestions, _ = run_check(tmp_path, state_doc, orders(*items), suggest=True)
    return yaml_data("".join(suggestions))


# --- open field ---------------------------------------------------------------------------------


def test_all_ahead_on_open_field(tmp_path):
    doc = state(LINE)
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})) == []
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40.08), "r2": (54, 39.95)})) == []


def test_all_ahead_short_is_mv202_with_the_expected_position(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-1", {"r1": (50, 39), "r2": (54, 39)}))
    assert codes(found) == ["MV202", "MV202"]
    assert (
        "r1 is declared at (50.00, 39.00), 1.00 steps short of where it must end: All ahead takes it to (50.00, 40.00)"
        in found[0].message
    )
    assert "allowance 10.00 (mobility 8 + 2 pre-battle)" in found[0].message
    assert found[0].line == 9 and found[1].line == 10  # each base's end entry


def test_all_ahead_beyond_is_mv202(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-1", {"r1": (50, 41), "r2": (54, 41)}))
    assert errors(found) == ["MV202", "MV202"]
    assert "1.00 steps beyond" in found[0].message


def test_missing_end_is_mv202(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-1", {"r1": (50, 40)}))
    assert errors(found) == ["MV202"]
    assert "no end is declared for r2: All ahead takes it to (54.00, 40.00)" in found[0].message


def test_corps_mobility_is_the_smallest(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30, mobility=6), base("r2", 54, 30))])
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 38), "r2": (54, 38)})) == []


def test_all_back_on_open_field_is_half(tmp_path):
    assert check(tmp_path, state(LINE), corps_order("all_back", "red-1", {"r1": (50, 25), "r2": (54, 25)})) == []


def test_all_back_half_of_mobility_reading(tmp_path):
    doc = state(LINE, options={"back_distance": "half_of_mobility"})
    assert check(tmp_path, doc, corps_order("all_back", "red-1", {"r1": (50, 25), "r2": (54, 25)})) == []


def test_wrong_direction_is_mv201(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-1", {"r1": (53, 39.5), "r2": (57, 39.5)}))
    assert codes(found) == ["MV201"]
    assert "All ahead moves it strictly forward, towards 0°" in found[0].message


def test_all_back_forwards_is_mv201(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_back", "red-1", {"r1": (50, 35), "r2": (54, 35)}))
    assert codes(found) == ["MV201"]


def test_rotated_corps_is_mv203(tmp_path):
    order = corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})
    for entry in order["end"].values():
        entry["facing"] = 15
    found = check(tmp_path, state(LINE), order)
    assert codes(found) == ["MV203"]
    assert "does not turn the corps" in found[0].message


def test_small_rotation_within_tolerance_is_fine(tmp_path):
    order = corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})
    order["end"]["r1"]["facing"] = 1  # a corner moves 0.04 step
    assert check(tmp_path, state(LINE), order) == []


def test_one_base_turned_is_mv301(tmp_path):
    order = corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})
    order["end"]["r2"]["facing"] = 30
    found = check(tmp_path, state(LINE), order)
    assert codes(found) == ["MV301"]


def test_base_out_of_its_place_is_mv301(tmp_path):
    ends = {"r3": (50, 40), "r4": (54, 40), "r5": (50, 38), "r6": (55, 38)}
    found = check(tmp_path, state(BLOCK), corps_order("all_ahead", "red-2", ends))
    assert codes(found) == ["MV301"]
    assert "r6 is declared at (55.00, 38.00), out of its place in the formation" in found[0].message
    assert "must end at (54.00, 38.00)" in found[0].message


def test_rear_base_lagging_inside_its_file_is_mv301(tmp_path):
    ends = {"r3": (50, 40), "r4": (54, 40), "r5": (50, 37), "r6": (54, 38)}
    found = check(tmp_path, state(BLOCK), corps_order("all_ahead", "red-2", ends))
    assert codes(found) == ["MV301"]


def test_whole_file_short_is_mv202(tmp_path):
    ends = {"r3": (50, 39), "r4": (54, 40), "r5": (50, 37), "r6": (54, 38)}
    found = check(tmp_path, state(BLOCK), corps_order("all_ahead", "red-2", ends))
    assert codes(found) == ["MV202", "MV202"]


# --- terrain ----------------------------------------------------------------------------------


def test_one_file_slowed_by_a_forest_roll_while_the_other_goes_on(tmp_path):
    # the copse lies before r3's file only; r3's front edge is 3 steps from it
    doc = state(BLOCK, terrain=[rect_terrain("copse", "forest", 46, 34, 52, 50)])
    ends = {"r3": (50, 35), "r4": (54, 40), "r5": (50, 33), "r6": (54, 38)}  # max(3, 10 - 5) = 5
    assert check(tmp_path, doc, corps_order("all_ahead", "red-2", ends, rolls={"r3": 5})) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-2", ends, rolls={"r3": 4}))
    assert codes(found) == ["MV202", "MV202"]
    assert "10.00, copse D3 (3d6) = 4 → 6.00" in found[0].message


def test_whole_corps_penalty_reading(tmp_path):
    doc = state(
        BLOCK, terrain=[rect_terrain("copse", "forest", 46, 34, 52, 50)], options={"corps_penalty": "whole_corps"}
    )
    ends = {"r3": (50, 35), "r4": (54, 35), "r5": (50, 33), "r6": (54, 33)}
    assert check(tmp_path, doc, corps_order("all_ahead", "red-2", ends, rolls={"r3": 5})) == []
    ends = {"r3": (50, 35), "r4": (54, 40), "r5": (50, 33), "r6": (54, 38)}
    found = check(tmp_path, doc, corps_order("all_ahead", "red-2", ends, rolls={"r3": 5}))
    assert codes(found) == ["MV202", "MV202"]
    assert "the slowest file sets the pace: 5.00" in found[0].message


def test_stream_crossed_by_two_front_bases_with_different_rolls(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    order = corps_order("all_ahead", "red-1", {"r1": (50, 36), "r2": (54, 38)}, rolls={"r1": 4, "r2": 2})
    assert check(tmp_path, doc, order) == []
    order = corps_order(
        "all_ahead", "red-1", {"r1": (50, 36), "r2": (54, 38)}, rolls={"r1": {"brook": 4}, "r2": {"brook": 2}}
    )
    assert check(tmp_path, doc, order) == []


def test_missing_roll_gives_mv304_with_the_condition(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 36), "r2": (54, 38)}, rolls={"r2": 2}))
    assert codes(found) == ["MV304"]
    assert "right only if the D1 roll (1d6) for r1 entering brook is exactly 4 (17%)" in found[0].message


def test_missing_roll_wrong_for_every_roll_is_mv202_with_the_range(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 38)}, rolls={"r2": 2}))
    assert codes(found) == ["MV202"]
    assert ("All ahead takes it to between (50.00, 34.00) and (50.00, 39.00) depending on "
            "the D1 roll (1d6) for r1 entering brook (1..6)") in found[0].message


def test_missing_roll_that_does_not_matter_gives_nothing(tmp_path):
    # the brook is entered after 3 steps, but an enemy stops the corps after 2
    doc = state(
        LINE,
        [corps("blue-1", base("b1", 52, 34, 180, width=8))],
        terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)],
    )
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 32), "r2": (54, 32)}))
    assert codes(found) == ["MV501", "MV501"]


def test_roll_out_of_range_is_mv302(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    found = check(
        tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 34), "r2": (54, 38)}, rolls={"r1": 7, "r2": 2})
    )
    assert codes(found) == ["MV302"]
    assert "r1's roll 7 for brook (stream) is outside the range of D1 (1d6: 1..6)" in found[0].message


def test_roll_for_a_following_base_is_mv303(tmp_path):
    doc = state(BLOCK, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    ends = {"r3": (50, 36), "r4": (54, 36), "r5": (50, 34), "r6": (54, 34)}  # max(3, 10 - 4) = 6
    found = check(tmp_path, doc, corps_order("all_ahead", "red-2", ends, rolls={"r3": 4, "r4": 4, "r5": 3}))
    assert codes(found) == ["MV303"]
    assert "r5 is not a front base: it follows r3" in found[0].message


def test_roll_for_terrain_not_entered_is_mv303(tmp_path):
    doc = state(
        LINE, terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37), rect_terrain("far", "forest", 0, 80, 10, 90)]
    )
    order = corps_order(
        "all_ahead", "red-1", {"r1": (50, 36), "r2": (54, 38)}, rolls={"r1": {"brook": 4, "far": 5}, "r2": 2}
    )
    found = check(tmp_path, doc, order)
    assert codes(found) == ["MV303"]
    assert "r1 does not enter far (forest)" in found[0].message


def test_impassable_terrain_stops_the_file(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("pond", "impassable", 46, 36, 52, 40)])
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 35), "r2": (54, 40)})) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)}))
    assert codes(found) == ["MV202"]
    assert "stopped after 5.00 by impassable pond" in found[0].message


# --- contact, friends, the field edge ------------------------------------------------------------


def test_blocked_by_an_enemy_stops_at_contact_with_a_note(tmp_path):
    doc = state(LINE, [corps("blue-1", base("b1", 49, 37, 180))])  # before r1 only
    # no pre-battle bonus (the enemy is 5 steps away): r2 moves 8
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 35), "r2": (54, 38)}))
    assert codes(found) == ["MV501"]
    assert "r1 ends in contact with enemy b1" in found[0].message
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 38), "r2": (54, 38)}))
    assert codes(found) == ["MV202"]
    assert "stopped after 5.00 by contact with enemy b1" in found[0].message


def test_stationary_friend_passed_within_half(tmp_path):
    doc = state([*LINE, corps("red-9", base("r7", 56, 35))])  # covers half of r2's lane
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})) == []


def test_stationary_friend_that_blocks(tmp_path):
    doc = state([*LINE, corps("red-9", base("r7", 55, 35))])  # 3 of r2's 4 steps of frontage
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 33)})) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)}))
    assert codes(found) == ["MV202"]
    assert "friendly r7, which it cannot pass" in found[0].message


def test_file_may_not_end_on_a_friend_it_could_pass(tmp_path):
    # r7 covers half of r2's lane 8 steps ahead: passing it needs 12 steps, so r2 stops before it
    doc = state([*LINE, corps("red-9", base("r7", 56, 40))])
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 38)})) == []


def test_field_edge_stops_the_file(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 195), base("r2", 54, 195))])
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 199), "r2": (54, 199)})) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 200), "r2": (54, 200)}))
    assert "stopped after 4.00 by the field edge" in found[0].message


# --- the pre-battle bonus at the 15-step boundary --------------------------------------------------


@pytest.mark.parametrize("gap, reach", [(15.0, 8), (15.5, 10)])
def test_prebattle_bonus_boundary(tmp_path, gap, reach):
    # the enemy is behind the corps (south) at an edge-to-edge distance of ``gap``
    doc = state(LINE, [corps("blue-1", base("b1", 52, 28 - gap, 0))])  # its front edge at 29 - gap
    ends = {"r1": (50, 30 + reach), "r2": (54, 30 + reach)}
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", ends)) == []


# --- All back with an obstacle between half and full distance --------------------------------------


@pytest.mark.parametrize("reading, y", [("half_of_max", 26.5), ("half_of_mobility", 25)])
def test_all_back_with_an_obstacle_between_half_and_full(tmp_path, reading, y):
    # impassable ground 7 steps behind the rear edges: maximum 7, half of it 3.5; half of mobility 5 is clear
    doc = state(
        LINE, terrain=[rect_terrain("ravine", "impassable", 40, 10, 70, 22)], options={"back_distance": reading}
    )
    assert check(tmp_path, doc, corps_order("all_back", "red-1", {"r1": (50, y), "r2": (54, y)})) == []
    other = 25 if y != 25 else 26.5
    assert codes(check(tmp_path, doc, corps_order("all_back", "red-1", {"r1": (50, other), "r2": (54, other)}))) == [
        "MV202",
        "MV202",
    ]


def test_all_back_through_terrain_rolls_for_the_full_maximum(tmp_path):
    # a stream 4 steps behind: maximum max(4, 10 - 3) = 7, half 3.5 (the stream is not reached)
    doc = state(LINE, terrain=[rect_terrain("brook", "stream", 0, 22, 200, 25)])
    order = corps_order("all_back", "red-1", {"r1": (50, 26.5), "r2": (54, 26.5)}, rolls={"r1": 3, "r2": 3})
    assert check(tmp_path, doc, order) == []


# --- Move to landmark ------------------------------------------------------------------------------


def test_to_landmark_point(tmp_path):
    doc = state(LINE, landmarks=[{"id": "shrine", "point": [52, 100]}])
    ends = {"r1": (50, 40), "r2": (54, 40)}
    assert check(tmp_path, doc, corps_order("to_landmark", "red-1", ends, landmark="shrine")) == []


def test_to_landmark_stops_when_the_reference_point_reaches_it(tmp_path):
    doc = state(LINE, landmarks=[{"id": "well", "point": [52, 36]}])
    ends = {"r1": (50, 36), "r2": (54, 36)}
    assert check(tmp_path, doc, corps_order("to_landmark", "red-1", ends, landmark="well")) == []


def test_to_landmark_diagonal(tmp_path):
    doc = state(LINE, landmarks=[{"id": "shrine", "point": [112, 90]}])  # 60 east, 60 north of (52, 30)
    d = 10 / 2 ** 0.5
    ends = {"r1": (50 + d, 30 + d), "r2": (54 + d, 30 + d)}
    assert check(tmp_path, doc, corps_order("to_landmark", "red-1", ends, landmark="shrine")) == []
    found = check(
        tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 40), "r2": (54, 40)}, landmark="shrine")
    )
    assert codes(found) == ["MV201"]


def test_to_landmark_terrain(tmp_path):
    # the reference point (52, 30) heads for the nearest point of the wood, (52, 35): it stops there
    doc = state(
        LINE, terrain=[rect_terrain("wood1", "open", 40, 35, 70, 60)], landmarks=[{"id": "w", "terrain": "wood1"}]
    )
    assert (
        check(tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 35), "r2": (54, 35)}, landmark="w")) == []
    )
    # naming the terrain element directly works too
    assert (
        check(tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 35), "r2": (54, 35)}, landmark="wood1"))
        == []
    )


def test_to_landmark_corps_stops_at_contact(tmp_path):
    doc = state(LINE, [corps("blue-1", base("b1", 52, 38, 180))], landmarks=[{"id": "them", "corps": "blue-1"}])
    found = check(tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 36), "r2": (54, 36)}, landmark="them"))
    assert codes(found) == ["MV501", "MV501"]


def test_to_landmark_friendly_corps_stops_at_contact(tmp_path):
    doc = state([*LINE, corps("red-9", base("r7", 52, 38))])
    found = check(
        tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 36), "r2": (54, 36)}, landmark="red-9")
    )
    assert found == []


def test_unknown_landmark_is_mc004(tmp_path):
    doc = state(LINE, landmarks=[{"id": "shrine", "point": [52, 100]}])
    found = check(
        tmp_path, doc, corps_order("to_landmark", "red-1", {"r1": (50, 40), "r2": (54, 40)}, landmark="shrin")
    )
    assert codes(found) == ["MC004"]
    assert "did you mean 'shrine'?" in found[0].message


def test_unknown_corps_and_end_base_are_mc004(tmp_path):
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-l", {"r1": (50, 40)}))
    assert codes(found) == ["MC004"]
    assert "did you mean 'red-1'?" in found[0].message
    found = check(tmp_path, state(LINE), corps_order("all_ahead", "red-1", {"r1": (50, 40), "r3": (54, 40)}))
    assert codes(found) == ["MC004"]


# --- engaged corps (M10) ----------------------------------------------------------------------------

ENGAGED = state(LINE, [corps("blue-1", base("b1", 50, 32, 180), base("b2", 54, 32, 180))],
                landmarks=[{"id": "east", "point": [150, 30]}, {"id": "north", "point": [52, 120]}])


def test_engaged_all_ahead_stays_in_full_contact(tmp_path):
    assert check(tmp_path, ENGAGED, corps_order("all_ahead", "red-1", {"r1": (50, 30), "r2": (54, 30)})) == []


def test_engaged_all_back_retreats(tmp_path):
    # mobility 8 (the enemy is in contact), half of it: 4
    assert check(tmp_path, ENGAGED, corps_order("all_back", "red-1", {"r1": (50, 26), "r2": (54, 26)})) == []


def test_engaged_to_landmark_sideways_is_mv502(tmp_path):
    found = check(
        tmp_path, ENGAGED, corps_order("to_landmark", "red-1", {"r1": (58, 30), "r2": (62, 30)}, landmark="east")
    )
    assert codes(found) == ["MV502"]
    assert "may only move straight forward (0°) or straight back" in found[0].message


def test_engaged_to_landmark_straight_ahead_is_allowed(tmp_path):
    assert (
        check(
            tmp_path, ENGAGED, corps_order("to_landmark", "red-1", {"r1": (50, 30), "r2": (54, 30)}, landmark="north")
        )
        == []
    )


# an enemy at r2's right flank (b9) and, for some tests, one ahead of it (b8: square, or offset by a step)
FLANKED = state(LINE, [corps("blue-1", base("b9", 57, 30, 270))])


def _ahead(x: float):
    return state([corps("red-2", base("r2", 54, 30))],
                 [corps("blue-1", base("b9", 57, 30, 270)), corps("blue-2", base("b8", x, 35, 180))])


def test_engaged_base_keeps_its_place_under_all_ahead(tmp_path):
    # mobility 8 (an enemy is in contact): r1 marches 8, r2 (flank engaged) stays
    assert errors(check(tmp_path, FLANKED, corps_order("all_ahead", "red-1", {"r1": (50, 38), "r2": (54, 30)}))) == []


def test_engaged_base_marching_away_is_mv502(tmp_path):
    found = check(tmp_path, FLANKED, corps_order("all_ahead", "red-1", {"r1": (50, 38), "r2": (54, 38)}))
    assert errors(found) == ["MV502"]
    assert ("r2 is in contact with b9 at the start: it may only move straight back or straight into full contact, "
            "so All ahead keeps it at (54.00, 30.00), but it is declared at (54.00, 38.00)") in found[0].message


def test_engaged_base_goes_straight_into_full_contact(tmp_path):
    assert errors(check(tmp_path, _ahead(54), corps_order("all_ahead", "red-2", {"r2": (54, 33)}))) == []
    found = check(tmp_path, _ahead(54), corps_order("all_ahead", "red-2", {"r2": (54, 30)}))
    assert errors(found) == ["MV202"]
    assert "3.00 steps short" in found[0].message


def test_engaged_base_does_not_advance_into_partial_contact(tmp_path):
    assert errors(check(tmp_path, _ahead(55), corps_order("all_ahead", "red-2", {"r2": (54, 30)}))) == []
    found = check(tmp_path, _ahead(55), corps_order("all_ahead", "red-2", {"r2": (54, 33)}))
    assert errors(found) == ["MV502"]


def test_engaged_base_short_of_full_contact_keeps_its_place(tmp_path):
    # mobility 2: r2 cannot reach b8 (3 steps ahead), so it stays; the required end says why
    doc = state([corps("red-2", base("r2", 54, 30), mobility=2)],
                [corps("blue-1", base("b9", 57, 30, 270)), corps("blue-2", base("b8", 54, 35, 180))])
    assert errors(check(tmp_path, doc, corps_order("all_ahead", "red-2", {"r2": (54, 30)}))) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-2", {"r2": (54, 32)}))
    assert errors(found) == ["MV502"]


def test_engaged_file_keeps_its_place_with_its_engaged_base(tmp_path):
    # r6 (behind r4) has b9 at its flank: the file r4-r6 stays, the file r3-r5 marches
    doc = state(BLOCK, [corps("blue-1", base("b9", 57, 26.9, 270))])  # clear of r4
    ends = {"r3": (50, 38), "r4": (54, 30), "r5": (50, 36), "r6": (54, 28)}
    assert errors(check(tmp_path, doc, corps_order("all_ahead", "red-2", ends))) == []
    found = check(tmp_path, doc, corps_order("all_ahead", "red-2", {**ends, "r4": (54, 38)}))
    assert errors(found) == ["MV301"] or errors(found) == ["MV202"]
    assert "the contact of r6 with enemy b9 at the start" in found[0].message


def test_engaged_base_goes_back_with_all_back(tmp_path):
    assert errors(check(tmp_path, FLANKED, corps_order("all_back", "red-1", {"r1": (50, 26), "r2": (54, 26)}))) == []


def test_corps_orders_in_sequence(tmp_path):
    # red-1 advances; red-9 then advances behind it and stops at contact with its friend? no: friends are
    # passable up to half; here red-9 is squarely behind, so it stops in contact with red-1's rear
    doc = state([*LINE, corps("red-9", base("r7", 50, 20))])
    first = corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})
    second = corps_order("all_ahead", "red-9", {"r7": (50, 30)})
    assert check(tmp_path, doc, first, second) == []


# --- --suggest ----------------------------------------------------------------------------------


def test_suggest_gives_the_required_ends(tmp_path):
    doc = state(BLOCK, terrain=[rect_terrain("copse", "forest", 46, 34, 52, 50)])
    result = suggest(tmp_path, doc, corps_order("all_ahead", "red-2", {}, rolls={"r3": 5}, id="o1"))
    assert result == [{"id": "o1", "corps": "red-2", "order": "all_ahead", "rolls": {"r3": 5},
                       "end": {"r3": {"x": 50, "y": 35}, "r4": {"x": 54, "y": 40}, "r5": {"x": 50, "y": 33},
                               "r6": {"x": 54, "y": 38}}}]


def test_suggest_says_which_rolls_are_needed(tmp_path):
    doc = state(BLOCK, terrain=[rect_terrain("copse", "forest", 46, 34, 52, 50)])
    _, suggestions, _ = run_check(tmp_path, doc, orders(corps_order("all_ahead", "red-2", {})), suggest=True)
    text = "".join(suggestions)
    assert "declare the rolls first: the D3 roll (3d6) for r3 entering copse" in text
    assert yaml_data(text) == [{"corps": "red-2", "order": "all_ahead"}]


# r1 alone, mobility 6 + 2: a brook 1 step ahead (D1), a wood 6 steps ahead (D3)
BROOK_WOOD = state(
    [corps("red-1", base("r1", 50, 30), mobility=6)],
    terrain=[rect_terrain("brook", "stream", 0, 32, 200, 33), rect_terrain("wood", "forest", 40, 37, 60, 60)],
)


def test_roll_for_terrain_an_earlier_penalty_keeps_out_of_reach_is_mv303(tmp_path):
    # the brook roll of 6 leaves max(1, 8 - 6) = 2: the wood, 6 steps ahead, is never reached
    found = check(tmp_path, BROOK_WOOD,
                  corps_order("all_ahead", "red-1", {"r1": (50, 32)}, rolls={"r1": {"brook": 6, "wood": 3}}))
    assert errors(found) == ["MV303"]
    assert ("r1 never reaches wood (forest), 6.00 steps ahead: the penalties before it leave an allowance "
            "of at most 2.00; no roll is owed for it") in found[0].message


def test_roll_for_terrain_reached_after_a_penalty_is_owed(tmp_path):
    # the brook roll of 1 leaves 7: the wood is reached, and its roll of 3 leaves max(6, 4) = 6
    found = check(tmp_path, BROOK_WOOD,
                  corps_order("all_ahead", "red-1", {"r1": (50, 36)}, rolls={"r1": {"brook": 1, "wood": 3}}))
    assert found == []


def test_roll_for_terrain_reached_for_some_earlier_rolls_is_owed(tmp_path):
    # the brook roll is not declared: for low rolls the wood is reached, so its declared roll is owed
    found = check(tmp_path, BROOK_WOOD, corps_order("all_ahead", "red-1", {"r1": (50, 36)}, rolls={"r1": {"wood": 3}}))
    assert "MV303" not in codes(found)


# r1 alone, allowance 10: a ridge (D2 = 2d6) 8.5 steps ahead: 10 - 2 <= 8.5, so any roll stops it at the edge
RIDGE = state([corps("red-1", base("r1", 50, 30))], terrain=[rect_terrain("ridge", "hill", 40, 39.5, 60, 60)])


def test_suggest_gives_the_end_when_no_roll_can_change_it(tmp_path):
    result = suggest(tmp_path, RIDGE, {"id": "o1", "order": "all_ahead", "corps": "red-1"})
    assert result == [{"id": "o1", "corps": "red-1", "order": "all_ahead", "end": {"r1": {"x": 50, "y": 38.5}}}]
    assert check(tmp_path, RIDGE, corps_order("all_ahead", "red-1", {"r1": (50, 38.5)})) == []


def test_required_end_never_shows_a_roll_nobody_declared(tmp_path):
    found = check(tmp_path, RIDGE, corps_order("all_ahead", "red-1", {"r1": (50, 40)}))
    assert errors(found) == ["MV202"]
    assert "allowance 10.00, ridge: any D2 (2d6) roll stops it at the edge → 8.50" in found[0].message
    assert "D2=" not in found[0].message and "D2 (2d6) =" not in found[0].message


def test_roll_that_cannot_change_where_an_enemy_stops_the_file_is_not_asked_for(tmp_path):
    # a brook (D1) 1 step ahead, an enemy 1.5 steps ahead: max(1, 8 - roll) >= 2 for every roll, the enemy stops it
    doc = state([corps("red-1", base("r1", 50, 30))], [corps("blue-1", base("b1", 50, 33.5, 180))],
                terrain=[rect_terrain("brook", "stream", 0, 32, 200, 33)])
    _, suggestions, _ = run_check(tmp_path, doc, orders({"order": "all_ahead", "corps": "red-1"}), suggest=True)
    text = "".join(suggestions)
    assert "declare the rolls" not in text
    assert yaml_data(text)[0]["end"] == {"r1": {"x": 50, "y": 31.5}}
    found = check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 31)}))
    assert errors(found) == ["MV202"]
    assert (
        "brook D1 (1d6) not declared (mobility 8, no pre-battle bonus: an enemy is 1.50 steps away); stopped after "
        "1.50 by contact with enemy b1"
        in found[0].message
    )


def test_suggest_cli_prints_after_the_report(run_main, monkeypatch):
    root = Path(__file__).resolve().parents[2]
    check_once(monkeypatch)  # the three runs of corps-orders.yaml below render one check of it (tests/reuse.py)
    code, out, err = run_main(
        ["check", "examples/maneuver/corps-orders.yaml", "--suggest", "--color", "never"], cwd=root
    )
    assert code == 0, out + err
    report, _, suggestion = out.partition("\n\n")
    assert "orders legal" in report
    assert suggestion.startswith("# examples/maneuver/corps-orders.yaml: end positions the rules require")
    assert yaml_data(suggestion)


# --- properties --------------------------------------------------------------------------------------

TERRAIN = [
    rect_terrain("brook", "stream", 0, 44, 200, 47),
    rect_terrain("copse", "forest", 60, 52, 70, 60),
    rect_terrain("pond", "impassable", 85, 50, 95, 58),
]


def _layout(x0: float, y0: float, files: int, ranks: int, facing: int) -> list[dict]:
    import math

    hx, hy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
    rx, ry = hy, -hx
    bases = []
    for f in range(files):
        for r in range(ranks):
            cx = x0 + rx * 4 * f - hx * 2 * r
            cy = y0 + ry * 4 * f - hy * 2 * r
            bases.append(base(f"r{f}{r}", cx, cy, facing))
    return bases


def _property_suggested_ends_pass_and_moved_ones_fail(x0, y0, files, ranks, facing, kind, rolls, which, sign):
    """Declared ends equal to the --suggest output pass; moving a base by more than tolerance along the motion fails."""
    import math

    red = [corps("red-1", *_layout(round(x0, 3), round(y0, 3), files, ranks, facing))]
    enemy = [corps("blue-1", base("b1", 150, 90, 180, width=8), base("b2", 158, 90, 180, width=8))]
    doc = state(red, enemy, terrain=TERRAIN, landmarks=[{"id": "mark", "point": [120, 120]}])
    front_ids = [b["id"] for b in red[0]["bases"]]
    order = {"id": "o1", "order": kind, "corps": "red-1", "end": {}}
    if kind == "to_landmark":
        order["landmark"] = "mark"
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        # first pass: which rolls are needed? declare them (clamped into each die's range)
        _, suggestions, _ = run_check(tmp_path, doc, orders(order), suggest=True)
        text = "".join(suggestions)
        needed: dict = {}
        dice = {"D1": (1, 6), "D2": (2, 12), "D3": (3, 18)}
        for _ in range(4):  # a roll owed only once earlier ones are known is asked for in a later pass
            if "declare the rolls first" not in text:
                break
            for line in (each for each in text.splitlines() if each.startswith("# order")):
                for part in line.split("declare the rolls first: ")[1].split(", "):
                    die, _, rest = part.removeprefix("the ").partition(" roll (")
                    bid, _, tid = rest.partition(") for ")[2].partition(" entering ")
                    low, high = dice[die]
                    needed.setdefault(bid, {})[tid] = min(max(rolls[len(needed) % 3], low), high)
            order["rolls"] = needed
            _, suggestions, _ = run_check(tmp_path, doc, orders(order), suggest=True)
            text = "".join(suggestions)
        suggested = yaml_data(text)
        assert suggested and "end" in suggested[0], text
        order["end"] = suggested[0]["end"]
        findings, _, _ = run_check(tmp_path, doc, orders(order))
        assert errors(findings) == [], [f.message for f in findings]
        # move one base by 3 x tolerance along the motion (or, when it does not move, along its facing)
        target = front_ids[which % len(front_ids)]
        start = next(b for b in red[0]["bases"] if b["id"] == target)
        end = order["end"][target]
        dx, dy = end["x"] - start["x"], end["y"] - start["y"]
        length = math.hypot(dx, dy)
        if length < 1e-6:
            dx, dy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
            length = 1.0
        moved = dict(order, end={k: dict(v) for k, v in order["end"].items()})
        moved["end"][target]["x"] = round(end["x"] + sign * 0.3 * dx / length, 4)
        moved["end"][target]["y"] = round(end["y"] + sign * 0.3 * dy / length, 4)
        findings, _, _ = run_check(tmp_path, doc, orders(moved))
        assert errors(findings), (target, moved["end"][target])


test_property_suggested_ends_pass_and_moved_ones_fail, test_property_suggested_ends_pass_and_moved_ones_fail_in_full = (
    in_two_runs(
        settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]),
        x0=st.floats(40, 110),
        y0=st.floats(30, 60),
        files=st.integers(1, 3),
        ranks=st.integers(1, 2),
        facing=st.sampled_from([0, 30, 90, 180, 250, 315]),
        kind=st.sampled_from(["all_ahead", "all_back", "to_landmark"]),
        rolls=st.lists(st.integers(1, 18), min_size=3, max_size=3),
        which=st.integers(0, 5),
        sign=st.sampled_from([-1, 1]),
    )(_property_suggested_ends_pass_and_moved_ones_fail)
)


def test_suggest_output_snapshot(run_main, monkeypatch, snapshot):
    root = Path(__file__).resolve().parents[2]
    check_once(monkeypatch)  # the three runs of corps-orders.yaml below render one check of it (tests/reuse.py)
    _code, out, _err = run_main(
        ["check", "examples/maneuver/corps-orders.yaml", "--suggest", "--color", "never"], cwd=root
    )
    assert out == snapshot


def test_suggest_with_json_goes_to_stderr(run_main, monkeypatch):
    root = Path(__file__).resolve().parents[2]
    check_once(monkeypatch)  # the three runs of corps-orders.yaml below render one check of it (tests/reuse.py)
    code, out, err = run_main(
        ["check", "examples/maneuver/corps-orders.yaml", "--suggest", "--format", "json"], cwd=root
    )
    assert code == 0
    import json

    assert json.loads(out)["summary"]["illegal_orders"] == 0
    assert err.lstrip().startswith("# examples/maneuver/corps-orders.yaml: end positions the rules require")


def test_declaring_the_rules_imports_no_geometry():
    import subprocess
    import sys

    code = (
        "import sys, movecheck.maneuver.rules, movecheck.maneuver; "
        "print(sorted(m for m in ('shapely', 'numpy', 'jsonschema', 'networkx') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "[]", result.stderr


def test_corps_already_on_a_hill_owes_no_roll(tmp_path):
    doc = state(LINE, terrain=[rect_terrain("knoll", "hill", 40, 25, 70, 60)])
    assert check(tmp_path, doc, corps_order("all_ahead", "red-1", {"r1": (50, 40), "r2": (54, 40)})) == []
    below = state(
        [corps("red-1", base("r1", 50, 20), base("r2", 54, 20))],
        terrain=[rect_terrain("knoll", "hill", 40, 25, 70, 60)],
    )
    found = check(tmp_path, below, corps_order("all_ahead", "red-1", {"r1": (50, 30), "r2": (54, 30)}))
    assert codes(found) == ["MV202", "MV202"]  # climbing onto it costs D2 = 2d6: at most 8 steps
