"""Issue 37: what a corner sees is one angular sweep (:mod:`movecheck.maneuver.sight`) shared by every way.

The reference is the construction the sweep replaced, built independently: the corner's disc less the union of the
shadows of the way's obstacles, each shadow edge by edge (:func:`tests.maneuver.test_geodesic_arrays._shadow`).  A
sight told the kinds of its obstacles leaves out the corners and crossings no way of a base's reach can see; it must
see what a sight that keeps them all sees, for each of those ways.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box
from shapely.ops import unary_union

from movecheck.maneuver.sight import DIFFICULT, FIXED, FRIEND, Sight
from tests.maneuver.test_geodesic_arrays import _shadow
from tests.maneuver.test_reach_exact import _reach, _reference_levels, _same_region

RECT = st.tuples(st.floats(-9, 9), st.floats(-9, 9), st.floats(0.5, 6), st.floats(0.5, 6),
                 st.sampled_from([FIXED, FRIEND, DIFFICULT, DIFFICULT]))
FEW = settings(max_examples=4, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow])


def _ways(kinds: list[int]) -> list[np.ndarray]:
    """The ways of a base's reach: everything, every obstacle but one difficult one, none of the difficult ones,
    the fixed ones only."""
    kinds_ = np.asarray(kinds)
    ways = [np.ones(len(kinds), dtype=bool), kinds_ != DIFFICULT, kinds_ == FIXED]
    ways += [np.arange(len(kinds)) != j for j in np.flatnonzero(kinds_ == DIFFICULT)]
    return ways


def _seen_by_shadows(node: tuple[float, float], obstacles: list, radius: float) -> object:
    disc = Point(node).buffer(radius, quad_segs=16)
    shadows = [_shadow(node, o, 2 * radius + 1) for o in obstacles if o.distance(Point(node)) <= radius]
    with np.errstate(divide="ignore", invalid="ignore"):  # the edge-by-edge quads of a corner's own edges are flat
        return disc.difference(unary_union(shadows)) if shadows else disc


@FEW
@example([(-2.0, 1.0, 3.0, 2.0, DIFFICULT)] * 3 + [(-1.0, -1.0, 4.0, 4.0, FIXED), (0.5, 2.5, 1.0, 5.0, DIFFICULT)])
@given(st.lists(RECT, min_size=1, max_size=9))
def test_every_way_sees_what_its_shadows_leave(rects) -> None:
    obstacles = [box(x, y, x + w, y + h) for x, y, w, h, _k in rects]
    kinds = [k for *_r, k in rects]
    whole, told = Sight(obstacles), Sight(obstacles, kinds)
    corners = {(x, y) for o in obstacles for x, y in list(o.exterior.coords)[:-1]}
    nodes = [(0.0, 0.0), (-10.0, -10.0), *sorted(corners)[:5]]
    radius = 9.0
    for way in _ways(kinds)[:5]:
        chosen = [o for o, on in zip(obstacles, way, strict=True) if on]
        for node in nodes:
            if any(o.contains(Point(node)) for o in chosen):
                continue  # no corner of a way lies inside one of its obstacles
            disc = Point(node).buffer(radius, quad_segs=16)
            theirs = _seen_by_shadows(node, chosen, radius)
            for sight in (whole, told):
                mine = disc.intersection(sight.view(node, radius * 1.01).polygon(way))
                assert mine.symmetric_difference(theirs).area <= 1e-6 * max(theirs.area, 10.0), (node, way)


@FEW
@given(st.lists(RECT, min_size=1, max_size=9), st.integers(0, 8))
def test_what_a_corner_sees_behind_a_feature_is_what_its_shadow_holds(rects, pick) -> None:
    obstacles = [box(x, y, x + w, y + h) for x, y, w, h, _k in rects]
    target = pick % len(obstacles)
    way = np.arange(len(obstacles)) != target
    chosen = [o for o, on in zip(obstacles, way, strict=True) if on]
    sight = Sight(obstacles, [DIFFICULT] * len(obstacles))
    radius = 9.0
    for node in [(0.0, 0.0), (-10.0, 0.0), (10.0, 10.0)]:
        if any(o.contains(Point(node)) for o in chosen) or obstacles[target].distance(Point(node)) <= 1e-9:
            continue  # (a corner on the target's edge: the edge-by-edge shadow has no meaning there)
        view = sight.view(node, radius * 1.01)
        disc = Point(node).buffer(radius, quad_segs=16)
        behind = _shadow(node, obstacles[target], 2 * radius + 1)
        theirs = _seen_by_shadows(node, chosen, radius).intersection(behind)
        mine = disc.intersection(view.behind(way, target))
        assert mine.symmetric_difference(theirs).area <= 1e-6 * max(theirs.area, 10.0), node


def test_an_edge_crossing_beyond_the_reach_still_decides_the_nearer_edge() -> None:
    # two edges crossing past the reach of a corner's view: the nearer edge changes there, so the crossing is an
    # event however far it lies (a view that left it out let the corner see into the nearer obstacle)
    near, far = box(-6.0, 6.0, -1.0, 9.0), box(-9.0, 4.0, -4.5, 8.2)
    node = (0.0, 0.0)
    for sight in (Sight([near, far]), Sight([near, far], [DIFFICULT, DIFFICULT])):
        seen = Point(node).buffer(8.0, quad_segs=16).intersection(sight.view(node, 8.0).polygon(np.ones(2, bool)))
        theirs = _seen_by_shadows(node, [near, far], 8.0)
        assert seen.symmetric_difference(theirs).area <= 1e-6 * theirs.area
        assert seen.intersection(near).area <= 1e-5 and seen.intersection(far).area <= 1e-5  # edges, seen


@pytest.mark.slow
def test_the_dense_field_levels_are_the_ones_drawn_whole() -> None:
    # the bench's dense family, small: features overlapping each other, every one owing a roll
    features = []
    for k in range(1, 16):
        a, r = k * 2.399963, 3.5 + 8.5 * ((k * 0.618034) % 1.0)
        x, y = 30 + r * math.cos(a), 30 + r * math.sin(a)
        if not (abs(x - 30) < 3.5 and abs(y - 30) < 2.5):
            features.append((x, y, 1.5, 1.5, ["forest", "stream", "hill", "impassable"][k % 4]))
    reach = _reach(Path(tempfile.mkdtemp()), features, 0, None)
    assert len(reach.owed) >= 6
    for level, theirs in zip(reach.levels, _reference_levels(reach), strict=True):
        _same_region(level.region, theirs, reach.mobility + reach.tolerance)
