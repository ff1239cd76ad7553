"""Tests for movecheck.maneuver.plane, .geometry and .sweep."""

from __future__ import annotations

import math

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon, box

from movecheck.maneuver import geometry as g
from movecheck.maneuver import plane as pl
from movecheck.maneuver import sweep as sw
from tests.properties import in_two_runs

W, D = 4.0, 2.0


def approx_xy(actual, expected, tol=1e-12):
    """Whether two points agree within tol."""
    return math.dist(actual, expected) <= tol


# --- vectors and facings ------------------------------------------------------------------


@pytest.mark.parametrize(
    "facing, expected",
    [(0, (0, 1)), (90, (1, 0)), (180, (0, -1)), (270, (-1, 0)), (45, (math.sqrt(0.5),) * 2)],
)
def test_heading_vector(facing, expected):
    assert approx_xy(pl.heading_vector(facing), expected)


def test_right_vector_is_clockwise_of_heading():
    assert approx_xy(pl.right_vector(0), (1, 0))
    assert approx_xy(pl.right_vector(90), (0, -1))


def test_angle_helpers():
    assert pl.angle_diff(350, 10) == pytest.approx(20)
    assert pl.angle_diff(10, 350) == pytest.approx(-20)
    assert pl.angle_diff(0, 180) == pytest.approx(180)
    assert pl.normalize_facing(-90) == pytest.approx(270)
    assert pl.normalize_facing(720) == 0
    assert pl.same_facing(0, 360)
    assert not pl.same_facing(0, 1)
    assert pl.bearing_of((1, 0)) == pytest.approx(90)
    assert pl.bearing_of((0, -2)) == pytest.approx(180)


def test_unit_rejects_zero_vector():
    with pytest.raises(ValueError):
        pl.unit((0, 0))


def test_local_offset():
    fwd, right = pl.local_offset(90, 3, -1)  # facing east: +x is forward, -y is right
    assert fwd == pytest.approx(3)
    assert right == pytest.approx(1)


# --- bases ------------------------------------------------------------------------------


def test_base_rect_shape_and_orientation():
    r = g.base_rect(10, 20, 0, W, D)
    assert r.area == pytest.approx(W * D)
    assert r.bounds == pytest.approx((8, 19, 12, 21))
    assert r.exterior.is_ccw
    assert len(r.exterior.coords) == 5


@pytest.mark.parametrize("facing", [0, 30, 90, 135, 180, 222.5, 270, 359])
def test_front_edge_faces_the_heading(facing):
    x, y = 50.0, 40.0
    front = g.front_edge(x, y, facing, W, D)
    rear = g.rear_edge(x, y, facing, W, D)
    h = pl.heading_vector(facing)
    fc, rc = front.centroid, rear.centroid
    assert approx_xy((fc.x, fc.y), (x + h[0] * D / 2, y + h[1] * D / 2), 1e-9)
    assert approx_xy((rc.x, rc.y), (x - h[0] * D / 2, y - h[1] * D / 2), 1e-9)
    assert front.length == pytest.approx(W)
    rect = g.base_rect(x, y, facing, W, D)
    assert rect.exterior.is_ccw
    assert rect.boundary.distance(front) < 1e-9


def test_polygon_edges():
    edges = g.polygon_edges(box(0, 0, 2, 1))
    assert len(edges) == 4
    assert sum(e.length for e in edges) == pytest.approx(6)


# --- contact and overlap at every angle -------------------------------------------------


def side_by_side(facing, shift=0.0):
    """Two bases abreast (the second to the right), separated by shift (negative: overlap)."""
    r = pl.right_vector(facing)
    a = g.base_rect(100, 80, facing, W, D)
    off = W + shift
    b = g.base_rect(100 + r[0] * off, 80 + r[1] * off, facing, W, D)
    return a, b


def front_to_front(facing, shift=0.0):
    """A base and an enemy facing it, front edges together, separated by shift."""
    h = pl.heading_vector(facing)
    a = g.base_rect(100, 80, facing, W, D)
    off = D + shift
    b = g.base_rect(100 + h[0] * off, 80 + h[1] * off, facing + 180, W, D)
    return a, b


@pytest.mark.parametrize("make", [side_by_side, front_to_front])
def test_touching_bases_at_every_angle_are_in_contact_not_overlapping(make):
    for facing in range(360):
        a, b = make(facing)
        assert g.in_contact(a, b), facing
        assert not g.overlaps(a, b), facing


@pytest.mark.parametrize("make", [side_by_side, front_to_front])
def test_gap_and_overlap_at_every_angle(make):
    for facing in range(360):
        gapped = make(facing, 0.2)
        assert not g.in_contact(*gapped), facing
        assert not g.overlaps(*gapped), facing
        near = make(facing, 0.04)
        assert g.in_contact(*near), facing
        overlapped = make(facing, -0.01)
        assert g.overlaps(*overlapped), facing
        assert not g.in_contact(*overlapped), facing
        assert g.overlap_area(*overlapped) > 0.009


def test_contact_with_custom_gap():
    a, b = side_by_side(30, 0.2)
    assert g.in_contact(a, b, gap=0.25)
    assert not g.in_contact(a, b, gap=0.1)


def test_edge_distance_is_edge_to_edge():
    assert g.edge_distance(box(0, 0, 4, 2), box(0, 12, 4, 14)) == pytest.approx(10)
    assert g.edge_distance(box(0, 0, 4, 2), box(3, 1, 5, 3)) == 0


def test_translate_normalises_direction():
    moved = sw.translate(box(0, 0, 1, 1), (0, 5), 2)
    assert moved.bounds == pytest.approx((0, 2, 1, 3))


def test_swept_straight_areas():
    r = g.base_rect(0, 0, 0, W, D)
    ahead = sw.swept_straight(r, (0, 1), 10)
    assert ahead.area == pytest.approx(W * (D + 10))
    sideways = sw.swept_straight(r, (1, 0), 3)
    assert sideways.area == pytest.approx((W + 3) * D)
    diag = sw.swept_straight(r, (1, 1), math.sqrt(2) * 3)  # moves (3, 3)
    assert diag.area == pytest.approx(W * D + 3 * D + 3 * W)
    assert sw.swept_straight(r, (0, 1), 0).area == pytest.approx(W * D)


def test_swept_path_with_turn_contains_start_and_end():
    start = g.base_rect(10, 10, 0, W, D)
    end = g.base_rect(20, 15, 90, W, D)
    swept = sw.swept_path(10, 10, 0, W, D, [(15, 15), (20, 15)], 90)
    assert swept.buffer(1e-9).contains(start)
    assert swept.buffer(1e-9).contains(end)
    first, second = 5 * math.sqrt(2), 5.0
    at_corner = 90 * first / (first + second)  # facing turns evenly along the path
    assert swept.buffer(1e-6).contains(g.base_rect(15, 15, at_corner, W, D))
    # between samples the sweep is approximated by hulls: off by well under 1e-3 step
    mid = g.base_rect(12.5, 12.5, 90 * first / 2 / (first + second), W, D)
    assert swept.buffer(1e-3).contains(mid)
    assert swept.area < start.area + end.area + 2 * 7.1 * (W + D)


def test_swept_path_straight_equals_hull():
    swept = sw.swept_path(0, 0, 0, W, D, [(0, 10)], 0)
    assert swept.area == pytest.approx(W * (D + 10))


def test_swept_path_turn_in_place():
    swept = sw.swept_path(0, 0, 0, W, D, [], 90)
    assert swept.buffer(1e-9).contains(g.base_rect(0, 0, 90, W, D))
    # a 4x2 rectangle turning a quarter about its centre sweeps a bit less than its circle
    radius = math.hypot(W, D) / 2
    assert W * D < swept.area < math.pi * radius**2


def test_swept_path_turns_the_short_way():
    swept = sw.swept_path(0, 0, 350, W, D, [(0, 10)], 10)
    assert swept.buffer(1e-6).contains(g.base_rect(0, 5, 0, W, D))
    assert not swept.buffer(1e-6).contains(g.base_rect(0, 5, 180 + 45, W, D))


# --- contact_distance ------------------------------------------------------------------


def test_contact_distance_straight_ahead():
    mover = g.base_rect(50, 30, 0, W, D)
    target = g.base_rect(50, 42, 180, W, D)  # 10 steps between the front edges
    assert sw.contact_distance(mover, target, (0, 1), 20) == pytest.approx(10, abs=1e-12)
    assert sw.contact_distance(mover, target, (0, 1), 9.5) is None
    assert sw.contact_distance(mover, target, (0, 1), 10) == pytest.approx(10, abs=1e-12)
    assert sw.contact_distance(mover, target, (0, -1), 50) is None


def test_contact_distance_offset_and_diagonal():
    mover = box(0, 0, 2, 2)
    target = box(5, 5, 7, 7)
    # corner to corner along the diagonal: (2, 2) meets (5, 5) after 3*sqrt(2)
    t = sw.contact_distance(mover, target, (1, 1), 100)
    assert t == pytest.approx(3 * math.sqrt(2), abs=1e-12)
    # moving east at a height where only part of the target's edge is hit
    t = sw.contact_distance(box(0, 4, 2, 6), target, (1, 0), 100)
    assert t == pytest.approx(3, abs=1e-12)
    # a rotated target: its corner is hit by the mover's front edge
    diamond = Polygon([(10, 0), (11, 1), (10, 2), (9, 1)])
    t = sw.contact_distance(box(0, 0.5, 2, 1.5), diamond, (1, 0), 100)
    assert t == pytest.approx(7, abs=1e-12)


def test_contact_distance_non_convex_obstacle():
    # a U open to the south; a base moving north into the notch touches its far wall
    u_shape = Polygon([(0, 0), (2, 0), (2, 8), (8, 8), (8, 0), (10, 0), (10, 10), (0, 10)])
    mover = box(3, -5, 7, -3)
    assert sw.contact_distance(mover, u_shape, (0, 1), 20) == pytest.approx(11, abs=1e-12)
    wide = box(1, -5, 9, -3)  # wider than the notch: stopped by the arms
    assert sw.contact_distance(wide, u_shape, (0, 1), 20) == pytest.approx(3, abs=1e-12)


def test_contact_distance_with_hole_and_lines():
    ring = box(0, 0, 20, 20).difference(box(5, 5, 15, 15))
    inner = box(9, 9, 11, 11)
    assert sw.contact_distance(inner, ring, (1, 0), 20) == pytest.approx(4, abs=1e-12)
    field_edge = box(0, 0, 240, 160).exterior
    assert sw.contact_distance(box(10, 10, 14, 12), field_edge, (0, -1), 100) == pytest.approx(10)


def test_contact_distance_zero_when_touching_or_overlapping():
    a, b = side_by_side(37)
    assert sw.contact_distance(a, b, (0, 1), 10) == 0.0
    assert sw.contact_distance(box(0, 0, 2, 2), box(1, 1, 3, 3), (1, 0), 10) == 0.0


def test_contact_distance_misses():
    assert sw.contact_distance(box(0, 0, 2, 2), box(5, 3, 7, 5), (1, 0), 100) is None
    # a vertex sliding exactly along the line of an edge touches it at its end
    assert sw.contact_distance(box(0, 0, 2, 2), box(5, 2, 7, 4), (1, 0), 100) == pytest.approx(3)


def test_contact_distance_at_every_angle():
    for facing in range(0, 360, 7):
        h = pl.heading_vector(facing)
        mover = g.base_rect(100, 80, facing, W, D)
        enemy = g.base_rect(100 + h[0] * 9, 80 + h[1] * 9, facing + 180, W, D)
        t = sw.contact_distance(mover, enemy, h, 20)
        assert t == pytest.approx(7, abs=1e-9), facing
        assert g.in_contact(sw.translate(mover, h, t), enemy)


# --- entry / exit / leave -----------------------------------------------------------------


def test_entry_distance_ignores_sliding_contact():
    a, b = side_by_side(25)
    h = pl.heading_vector(25)
    assert sw.entry_distance(a, b, h, 10) is None  # neighbours abreast move on freely
    r = pl.right_vector(25)
    assert sw.entry_distance(a, b, r, 10) == 0.0  # pushing into the neighbour
    assert sw.entry_distance(a, b, (-r[0], -r[1]), 10) is None  # moving away


def test_entry_distance_matches_contact_when_apart():
    mover = g.base_rect(50, 30, 0, W, D)
    target = g.base_rect(51, 42, 180, W, D)
    assert sw.entry_distance(mover, target, (0, 1), 20) == pytest.approx(10, abs=1e-12)
    assert sw.entry_distance(mover, target, (0, 1), 5) is None


def test_entry_distance_corner_graze_is_not_entry():
    # the mover's top-left corner slides exactly past the target's bottom-right corner
    assert sw.contact_distance(box(0, 0, 2, 2), box(0, 4, 2, 6), (1, 1), 100) == pytest.approx(
        2 * math.sqrt(2)
    )
    assert sw.entry_distance(box(0, 0, 2, 2), box(0, 4, 2, 6), (1, 1), 100) is None
    # head on along the diagonal it does enter
    t = sw.entry_distance(box(0, 0, 2, 2), box(3, 3, 5, 5), (1, 1), 100)
    assert t == pytest.approx(math.sqrt(2))


def test_entry_distance_non_convex_terrain():
    u_shape = Polygon([(0, 0), (2, 0), (2, 8), (8, 8), (8, 0), (10, 0), (10, 10), (0, 10)])
    assert sw.entry_distance(box(3, -5, 7, -3), u_shape, (0, 1), 20) == pytest.approx(11)
    # touching the inside of an arm and sliding north along it is not entering
    assert sw.entry_distance(box(2, -5, 4, -3), u_shape, (0, 1), 20) == pytest.approx(11)
    pieces = g.convex_pieces(u_shape)
    assert sum(p.area for p in pieces) == pytest.approx(u_shape.area)
    assert sw.entry_distance(box(1, -5, 5, -3), u_shape, (0, 1), 20, pieces) == pytest.approx(3)


def test_exit_distance():
    region = box(0, 0, 10, 10)
    assert sw.exit_distance(box(4, 4, 6, 6), region, (1, 0), 20) == pytest.approx(6)
    assert sw.exit_distance(box(4, 4, 6, 6), region, (1, 0), 5) is None
    assert sw.exit_distance(box(20, 4, 22, 6), region, (1, 0), 5) == 0.0


def test_leave_distance_field_edge():
    field = g.field_polygon(240, 160)
    base = g.base_rect(100, 157, 0, W, D)  # front edge 2 steps from the north edge
    assert sw.leave_distance(base, field, (0, 1), 10) == pytest.approx(2)
    assert sw.leave_distance(base, field, (0, -1), 10) is None
    edge_base = g.base_rect(100, 1, 0, W, D)  # rear edge on the south edge
    assert sw.leave_distance(edge_base, field, (0, 1), 10) is None
    assert sw.leave_distance(edge_base, field, (0, -1), 10) == 0.0
    outside = g.base_rect(100, 0.5, 0, W, D)
    assert sw.leave_distance(outside, field, (0, 1), 10) == 0.0


# --- max_overlap_along ------------------------------------------------------------------


def test_max_overlap_passing_half_width():
    mover = g.base_rect(0, 0, 0, W, D)
    fixed = g.base_rect(W / 2, 10, 0, W, D)
    assert sw.max_overlap_along(mover, fixed, (0, 1), 20) == pytest.approx(W * D / 2, rel=1e-9)
    # stopping short of it: only part of the depth overlaps
    assert sw.max_overlap_along(mover, fixed, (0, 1), 9.5) == pytest.approx(W / 2 * 1.5, rel=1e-9)
    assert sw.max_overlap_along(mover, fixed, (0, 1), 7) == 0.0
    assert sw.max_overlap_along(mover, fixed, (0, -1), 20) == 0.0


def test_max_overlap_head_on_and_rotated():
    mover = g.base_rect(0, 0, 0, W, D)
    assert sw.max_overlap_along(mover, g.base_rect(0, 10, 0, W, D), (0, 1), 20) == pytest.approx(8)
    # a base turned 90 degrees, crossed through its middle: the common area is at most 2x2
    cross = g.base_rect(0, 10, 90, W, D)
    assert sw.max_overlap_along(mover, cross, (0, 1), 20) == pytest.approx(4, rel=1e-9)


def test_max_overlap_diagonal_peak_is_found():
    mover = g.base_rect(0, 0, 30, W, D)
    fixed = g.base_rect(7, 9, 75, 3, 5)
    d = (7, 9)
    found = sw.max_overlap_along(mover, fixed, d, 30)
    brute = max(g.overlap_area(sw.translate(mover, d, 30 * i / 3000), fixed) for i in range(3001))
    assert found >= brute - 1e-9
    assert found <= brute + 1e-3


# --- field, points, index --------------------------------------------------------------


def test_field_and_inside():
    field = g.field_polygon(240, 160)
    assert field.bounds == (0, 0, 240, 160)
    assert g.inside_field(g.base_rect(2, 1, 0, W, D), field)
    assert not g.inside_field(g.base_rect(1.9, 1, 0, W, D), field)
    assert g.inside_field(g.base_rect(1.95, 1, 0, W, D), field, eps=0.1)


def test_nearest_point():
    assert g.nearest_point(box(0, 0, 10, 10), (15, 5)) == pytest.approx((10, 5))
    assert g.nearest_point(box(0, 0, 10, 10), Point(3, 4)) == pytest.approx((3, 4))


def test_spatial_index_near():
    items = [("far", box(100, 100, 104, 102)), ("touch", box(4, 0, 8, 2)),
             ("gap", box(0, 2.5, 4, 4.5)), ("under", box(1, 0, 3, 1))]
    index = g.SpatialIndex(items)
    probe = box(0, 0, 4, 2)
    assert index.near(probe) == ["touch", "under"]
    assert index.near(probe, distance=1.0) == ["touch", "gap", "under"]
    assert g.SpatialIndex([]).near(probe) == []
    assert len(index) == 4


def test_spatial_index_counts_trig_touching_as_near():
    a, b = side_by_side(33)
    assert g.SpatialIndex([("b", b)]).near(a) == ["b"]


def test_prepare_all():
    geoms = g.prepare_all([box(0, 0, 1, 1), box(2, 2, 3, 3)])
    assert len(geoms) == 2
    assert geoms[0].contains(Point(0.5, 0.5))


# --- properties -------------------------------------------------------------------------

coord = st.floats(-50, 50, allow_nan=False)
facing_st = st.floats(0, 360, allow_nan=False, exclude_max=True)
size = st.floats(0.5, 6, allow_nan=False)


@st.composite
def rect(draw):
    """A random base rectangle."""
    return g.base_rect(draw(coord), draw(coord), draw(facing_st), draw(size), draw(size))


def _contact_distance_is_first_touch(moving, obstacle, bearing):
    d = pl.heading_vector(bearing)
    t = sw.contact_distance(moving, obstacle, d, 200)
    if t is None:
        assert not sw.swept_straight(moving, d, 200).buffer(-1e-6).intersects(obstacle)
        return
    assert g.edge_distance(sw.translate(moving, d, t), obstacle) <= 1e-6
    if t > 0.01:
        assert not sw.translate(moving, d, t - 0.01).intersects(obstacle)


# the sweep properties in two runs (tests/properties.py): a tenth of the examples in the default run, all under slow
test_contact_distance_is_first_touch, test_contact_distance_is_first_touch_in_full = in_two_runs(
    settings(max_examples=200, deadline=None), moving=rect(), obstacle=rect(), bearing=facing_st
)(_contact_distance_is_first_touch)


def _entry_distance_never_before_contact(moving, obstacle, bearing):
    d = pl.heading_vector(bearing)
    touch = sw.contact_distance(moving, obstacle, d, 200)
    enter = sw.entry_distance(moving, obstacle, d, 200)
    if enter is None:
        return
    assert touch is not None and touch <= enter + 1e-9
    if enter > 0:
        assert not g.overlaps(sw.translate(moving, d, enter - min(enter, 0.01)), obstacle)
    steps = [s for s in (1e-7, 1e-5, 1e-3) if enter + s <= 200]
    assert not steps or any(
        g.overlap_area(sw.translate(moving, d, enter + s), obstacle) > 0 for s in steps
    )


test_entry_distance_never_before_contact, test_entry_distance_never_before_contact_in_full = in_two_runs(
    settings(max_examples=200, deadline=None), moving=rect(), obstacle=rect(), bearing=facing_st
)(_entry_distance_never_before_contact)


def _max_overlap_bounds(moving, fixed, bearing, dist):
    d = pl.heading_vector(bearing)
    m = sw.max_overlap_along(moving, fixed, d, dist)
    assert 0 <= m <= min(moving.area, fixed.area) + 1e-9
    for k in range(5):
        assert m >= g.overlap_area(sw.translate(moving, d, dist * k / 4), fixed) - 1e-9


test_max_overlap_bounds, test_max_overlap_bounds_in_full = in_two_runs(
    settings(max_examples=100, deadline=None), moving=rect(), fixed=rect(), bearing=facing_st, dist=st.floats(0, 100)
)(_max_overlap_bounds)


def test_sliding_off_a_flush_neighbour_along_a_hair_tilted_edge_is_not_entering():
    """Two squares turned by a millionth of a degree, flush side by side: moving along the shared
    edge away from the neighbour never enters it (the chord's end is a rounding error after 0)."""
    from shapely.geometry import Polygon

    moving = Polygon([(-0.4999999912733537, 0.5000000087266462), (-0.5000000087266462, -0.4999999912733537),
                      (0.4999999912733537, -0.5000000087266462), (0.5000000087266462, 0.4999999912733537)])
    obstacle = Polygon([(0.5000000087266463, 0.5000000087266462), (0.49999999127335376, -0.4999999912733537),
                        (1.4999999912733537, -0.5000000087266462), (1.5000000087266463, 0.4999999912733537)])
    north = pl.heading_vector(0.0)
    assert sw.entry_distance(moving, obstacle, north, 200) is None
    assert g.overlap_area(sw.translate(moving, north, 1e-3), obstacle) == 0
    east = pl.heading_vector(90.0)  # straight into it: entered at once
    assert sw.entry_distance(moving, obstacle, east, 200) == 0.0
