"""Odd but schema-shaped maneuver orders and battlefields never crash the checker."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.maneuver.helpers import base, corps, orders, rect_terrain, run_check, run_lint, state
from tests.properties import in_two_runs

IDS = ["r1", "r2", "r3", "r4", "r9", "b1", "red-1", "red-2", "red-3", "blue-1", "wood1", "brook", "lake", "mark", "zz"]
NUMBERS = st.one_of(
    st.floats(-50, 250, allow_nan=False), st.integers(-5, 250),
    st.sampled_from([0.0, 1e-12, 1e9, float("nan"), float("inf")]),
)
ROLLS = st.one_of(
    st.integers(-3, 40), st.dictionaries(st.sampled_from(IDS), st.integers(-3, 40), min_size=1, max_size=2)
)

BATTLEFIELD = state(
    [corps("red-1", base("r1", 50, 30), base("r2", 54, 30), base("r3", 50, 28)),
     corps("red-2", base("r4", 100, 30, 90)),
     corps("red-3", base("r9", 60, 60, 45))],
    [corps("blue-1", base("b1", 52, 45, 180))],
    terrain=[rect_terrain("wood1", "forest", 40, 36, 70, 40), rect_terrain("brook", "stream", 0, 50, 200, 52),
             rect_terrain("lake", "impassable", 90, 40, 110, 50)],
    landmarks=[{"id": "mark", "point": [150, 150]}],
)


@st.composite
def an_order(draw):
    kind = draw(st.sampled_from(["all_ahead", "all_back", "to_landmark", "free"]))
    order = {"order": kind}
    if kind == "free":
        order["base"] = draw(st.sampled_from(IDS))
        order["path"] = draw(st.lists(st.lists(NUMBERS, min_size=2, max_size=2), min_size=1, max_size=3))
        if draw(st.booleans()):
            order["facing"] = draw(NUMBERS)
    else:
        order["corps"] = draw(st.sampled_from(IDS))
        order["end"] = draw(st.dictionaries(
            st.sampled_from(IDS),
            st.fixed_dictionaries({"x": NUMBERS, "y": NUMBERS}, optional={"facing": NUMBERS}),
            max_size=4,
        ))
        if kind == "to_landmark":
            order["landmark"] = draw(st.sampled_from(IDS))
    if draw(st.booleans()):
        order["rolls"] = draw(st.dictionaries(st.sampled_from(IDS), ROLLS, max_size=3))
    return order


def _odd_orders_never_crash(items, options):
    doc = dict(BATTLEFIELD, options=options) if options else BATTLEFIELD
    with tempfile.TemporaryDirectory() as tmp:
        _findings, _, report = run_check(Path(tmp), doc, orders(*items), suggest=True)
        assert report.exit_code() in (0, 1)


test_odd_orders_never_crash, test_odd_orders_never_crash_in_full = in_two_runs(
    settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]),
    items=st.lists(an_order(), min_size=1, max_size=4),
    options=st.fixed_dictionaries({}, optional={
        "corps_penalty": st.sampled_from(["per_file", "whole_corps"]),
        "back_distance": st.sampled_from(["half_of_max", "half_of_mobility"]),
        "tolerance": st.sampled_from([0.0, 0.1, 2.0]),
    }),
)(_odd_orders_never_crash)


def _odd_battlefields_never_crash(xs, facing, width):
    doc = state(
        [corps("red-1", base("r1", xs[0], xs[1], facing), base("r2", xs[2], xs[3], 0, width=width))],
        [corps("blue-1", base("b1", xs[4], xs[5], 180))],
        terrain=[{"id": "t", "kind": "forest", "polygon": [[xs[0], xs[1]], [xs[2], xs[3]], [xs[4], xs[5]]]}],
    )
    with tempfile.TemporaryDirectory() as tmp:
        run_lint(Path(tmp), doc)
        run_check(Path(tmp), doc, orders({"order": "all_ahead", "corps": "red-1", "end": {}}), suggest=True)


test_odd_battlefields_never_crash, test_odd_battlefields_never_crash_in_full = in_two_runs(
    settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]),
    xs=st.lists(NUMBERS, min_size=6, max_size=6),
    facing=NUMBERS,
    width=NUMBERS,
)(_odd_battlefields_never_crash)
