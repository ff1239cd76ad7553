"""The translation chord in plain floats (issue 37, the big manoeuvre file): the same numbers as GEOS's hull."""

from __future__ import annotations

import itertools
import math
import random
import warnings
from fractions import Fraction

import numpy as np
import pytest
from shapely.geometry import MultiPoint, Polygon, box
from shapely.geometry.polygon import orient

from movecheck.maneuver import sweep as sw
from movecheck.maneuver.geometry import base_rect, kept
from movecheck.maneuver.plane import EPS


def geos_chord(moving, fixed, d):
    """The chord as it was computed before issue 37's per_file work: the Minkowski difference's hull by GEOS."""
    pm = np.asarray(moving.convex_hull.exterior.coords)[:-1, :2]
    pf = np.asarray(fixed.convex_hull.exterior.coords)[:-1, :2]
    hull = MultiPoint((pf[:, None, :] - pm[None, :, :]).reshape(-1, 2)).convex_hull
    if not isinstance(hull, Polygon) or hull.area <= EPS:
        return None
    ring = np.asarray(orient(hull, 1.0).exterior.coords)[:, :2]
    t_lo, t_hi = -math.inf, math.inf
    for a, b in itertools.pairwise(ring):
        e = b - a
        n = np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])
        nd, c = float(n @ d), float(n @ a)
        if abs(nd) <= sw.PARALLEL_TOL:
            if c <= EPS:
                return None
        elif nd > 0:
            t_hi = min(t_hi, c / nd)
        else:
            t_lo = max(t_lo, c / nd)
    return None if t_hi - t_lo <= EPS else (t_lo, t_hi)


def random_shape(rng: random.Random) -> Polygon:
    """A base at a round or a random pose, or the hull of a few points (often on a grid: many on one line)."""
    if rng.random() < 0.5:
        facing = rng.choice([0, 90, 180, 45, 17, rng.uniform(0, 360)])
        return base_rect(rng.choice([0, 4, 8.5, rng.uniform(-20, 20)]), rng.choice([0, 10, rng.uniform(-20, 20)]),
                         facing, rng.choice([4, 2, rng.uniform(0.1, 6)]), rng.choice([2, 4, rng.uniform(0.1, 6)]))
    points = [(rng.choice([0, 1, 2, 0.1, rng.uniform(-10, 10)]), rng.choice([0, 1, 2, 0.3, rng.uniform(-10, 10)]))
              for _ in range(rng.randint(3, 7))]
    hull = MultiPoint(points).convex_hull
    return hull if isinstance(hull, Polygon) else base_rect(0, 0, 0, 1, 1)


@pytest.mark.parametrize("seed", range(2))
def test_chord_is_geos_hulls_to_the_bit(seed: int) -> None:
    """The float hull (exact orientation, on the grid or by whole numbers) gives GEOS's chord bit for bit, also
    for shapes with three corners of the difference on a line and for directions along their edges."""
    rng = random.Random(seed)
    for _ in range(300):
        moving, fixed = random_shape(rng), random_shape(rng)
        angle = math.radians(rng.choice([0, 90, 17, 45, rng.uniform(0, 360)]))
        d = np.asarray((math.sin(angle), math.cos(angle)))
        assert sw.translation_chord(moving, fixed, d) == geos_chord(moving, fixed, d)


def exact_turn(o, a, b) -> int:
    """The turn's sign in rationals."""
    fo, fa, fb = [(Fraction(p[0]), Fraction(p[1])) for p in (o, a, b)]
    det = (fa[0] - fo[0]) * (fb[1] - fo[1]) - (fa[1] - fo[1]) * (fb[0] - fo[0])
    return (det > 0) - (det < 0)


def test_orientation_off_the_grid_is_exact() -> None:
    """Nearly straight turns the float filter cannot tell are told by whole numbers, as rationals tell them."""
    rng = random.Random(7)
    undecided = 0
    for _ in range(500):
        o = (rng.uniform(-10, 10), rng.uniform(-10, 10))
        step = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        a = (o[0] + step[0] * 3.1, o[1] + step[1] * 3.1)
        b = (o[0] + step[0] * 7.3, o[1] + step[1] * 7.3)
        left, right = (a[0] - o[0]) * (b[1] - o[1]), (a[1] - o[1]) * (b[0] - o[0])
        undecided += abs(left - right) <= sw.ORIENT_BOUND * (abs(left) + abs(right))
        assert sw._orientation(o, a, b, exact=False) == exact_turn(o, a, b)
    assert undecided > 100  # the whole-number path ran
    assert sw._orientation((0.0, 0.0), (1.0, 1.0), (2.0, 2.0), exact=True) == 0
    assert sw._convex_hull([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)], True) == [
        (0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]


def test_kept_hull_is_the_shapes_own() -> None:
    """A shape's hull is remembered by the shape itself (held while kept), never by a shape once at its address."""
    rect = base_rect(0, 0, 0, 4, 2)
    first = kept(rect, "hull", sw._hull_vertices)
    assert kept(rect, "hull", sw._hull_vertices) is first
    other = base_rect(10, 0, 0, 4, 2)
    assert kept(other, "hull", sw._hull_vertices) != first
    assert first[1] is True and first[2] is True and sw._hull_vertices(base_rect(0.1, 0, 17, 4, 2))[1] is False


def numpy_leave_distance(moving, region, d, max_dist):
    """leave_distance as it was computed before (numpy per edge)."""
    d = np.asarray(d)
    pts = sw._vertices(moving)
    ring = sw._ccw_ring(region.convex_hull)
    best = math.inf
    for a, b in itertools.pairwise(ring):
        e = b - a
        n = np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])
        slack = float(n @ a - (pts @ n).max())
        if slack < -EPS:
            return 0.0
        nd = float(n @ d)
        if nd > sw.PARALLEL_TOL:
            best = min(best, max(slack, 0.0) / nd)
    if best > max_dist + EPS:
        return None
    return 0.0 if best <= EPS else min(best, float(max_dist))


def test_sweep_and_leaving_the_field_as_before() -> None:
    """The straight sweep from one array of coordinates is GEOS's hull of the two ends, vertex for vertex; leaving
    the field (a box: every normal along an axis) is the numpy computation's to the bit."""
    rng = random.Random(11)
    for k in range(200):
        rect = base_rect(rng.uniform(0, 50), rng.uniform(0, 50), rng.choice([0, 90, 17, rng.uniform(0, 360)]),
                         rng.uniform(0.5, 6), rng.uniform(0.5, 6))
        angle = math.radians(rng.choice([0, 90, 180, 17, rng.uniform(0, 360)]))
        d = (math.sin(angle), math.cos(angle))
        dist = rng.choice([0.0, 5.0, rng.uniform(0, 40)])
        ends = sw._hull(rect, sw.translate(rect, d, dist))
        assert list(sw.swept_straight(rect, d, dist).exterior.coords) == list(ends.exterior.coords)
        field = box(0, 0, rng.choice([48, 50, 60.5]), rng.choice([48, 50, 60]))
        assert sw.leave_distance(rect, field, d, dist) == numpy_leave_distance(rect, field, sw.unit(d), dist), k


def test_huge_coordinates_inside_a_huge_field() -> None:
    """Shapes near the largest float (a field that wide) take the chord through GEOS as before: its chord, no
    exception; below 2^500 the float computation never overflows."""
    d = np.asarray((0.0, 1.0))
    moving = Polygon([(1e307, 1e306), (1.2e308, 1e306), (1.2e308, 2e307), (1e307, 2e307)])
    fixed = Polygon([(2e307, 1.6e308), (1.7e308, 1.6e308), (1.7e308, 1.7e308), (2e307, 1.7e308)])
    assert not sw._hull_vertices(fixed)[2]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warnings would reach a player's terminal
        chord = sw.translation_chord(moving, fixed, d)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        assert chord == geos_chord(moving, fixed, d) is not None
    assert sw._hull_vertices(Polygon([(1e100, 0), (2e100, 0), (2e100, 1e100)]))[2]
