"""Issue 37 (sixth part): every way of a reach reads its visibility graph from one :class:`Lanes`.

The reference is each way's own graph, as before: its obstacles shrunk and joined into one union, its corners those
inside none of it, its segments tested against it one call per settled node.  The shared graph must give every way
of a base's reach (everything, every obstacle but one difficult one, none of the difficult ones, the fixed ones
only) the same corners, in the same order, the same lengths and the same parents; and the segments' meetings with
the obstacles, decided by separating axes where clear, must be the ones GEOS gives.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
import shapely.affinity
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from movecheck.budget import SearchLimit
from movecheck.maneuver.geodesic import SLIVER, Geodesic, Lanes, ReachSteps, _meetings, minkowski, minkowskis
from movecheck.maneuver.sight import DIFFICULT, FIXED, FRIEND, Sight
from tests.maneuver.test_reach_exact import ENEMY, FACING, WAR, _reach
from tests.maneuver.test_reach_exact import FEW as FEW_FIELDS
from tests.maneuver.test_reach_sight import _ways

RECT = st.tuples(st.integers(-18, 18), st.integers(-18, 18), st.integers(1, 12), st.integers(1, 12),
                 st.sampled_from([FIXED, FRIEND, DIFFICULT, DIFFICULT]), st.booleans())
FEW = settings(max_examples=6, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow])


def _shape(x: int, y: int, w: int, h: int, triangle: bool) -> Polygon:
    """A rectangle or a triangle on a half-step grid (shared edges, corners on edges and duplicates are common)."""
    x0, y0, x1, y1 = x / 2, y / 2, (x + w) / 2, (y + h) / 2
    return Polygon([(x0, y0), (x1, y0), (x0, y1)]) if triangle else box(x0, y0, x1, y1)


def _same_graph(mine: Geodesic, theirs: Geodesic) -> None:
    assert mine.nodes == theirs.nodes
    assert [math.isfinite(d) for d in mine.dist] == [math.isfinite(d) for d in theirs.dist]
    assert mine.dist == theirs.dist
    assert mine.parent == theirs.parent


@FEW
@example([(-4, -2, 4, 4, DIFFICULT, False)] * 2 + [(0, -6, 6, 4, FIXED, False), (2, 2, 4, 4, FRIEND, True),
                                                   (-6, 1, 12, 2, DIFFICULT, False)], 0, 8.0)
@given(st.lists(RECT, min_size=1, max_size=10), st.sampled_from([-30, 0]), st.floats(3, 16))
def test_every_way_gets_the_graph_it_built_alone(rects, left, horizon) -> None:
    """Random fields of overlapping rectangles and triangles of random kinds (duplicates included), the start inside
    the area or on its edge, each difficult obstacle a feature, or two a feature: each way's corners, lengths and
    parents through the shared graph are its own."""
    obstacles = [_shape(x, y, w, h, t) for x, y, w, h, _k, t in rects]
    kinds = [k for _x, _y, _w, _h, k, _t in rects]
    start, area = (0.0, 0.0), box(left, -30, 30, 30)
    difficult = np.flatnonzero(np.asarray(kinds) == DIFFICULT).tolist()
    groups = list(range(len(kinds)))
    for a, b in zip(difficult[::2], difficult[1::2], strict=False):
        groups[b] = a  # the difficult obstacles as features of two pieces
    paired = [np.isin(np.arange(len(kinds)), [a, b], invert=True)
              for a, b in zip(difficult[::2], difficult[1::2], strict=False)]
    plain, grouped = Sight(obstacles, kinds), Sight(obstacles, kinds, groups)
    for sight, ways in ((plain, _ways(kinds)), (grouped, _ways(kinds)[:3] + paired)):
        lanes = Lanes(sight, start, area, horizon)
        for way in ways:
            chosen = [o for o, on in zip(obstacles, way, strict=True) if on]
            theirs = Geodesic(start, area, chosen, horizon, sight=sight)
            _same_graph(Geodesic(start, area, chosen, horizon, sight=sight, lanes=lanes), theirs)


def test_a_way_through_a_gap_only_one_feature_closes() -> None:
    """A wall with one difficult feature in its gap: clear ground goes round, the feature's own way goes through
    (the corners behind the gap nearer); every way as its own graph gives."""
    wall = [box(-10, 2, -0.5, 3), box(0.5, 2, 10, 3)]
    plug = box(-0.6, 1.9, 0.6, 3.1)
    obstacles = [*wall, plug, box(-3, 6, 3, 7)]
    kinds = [FIXED, FIXED, DIFFICULT, DIFFICULT]
    sight = Sight(obstacles, kinds)
    area = box(-30, -30, 30, 30)
    lanes = Lanes(sight, (0.0, 0.0), area, 14.0)
    ways = {"all": obstacles, "plug out": [*wall, obstacles[3]], "fixed": wall}
    lengths = {}
    for name, chosen in ways.items():
        mine = Geodesic((0.0, 0.0), area, chosen, 14.0, sight=sight, lanes=lanes)
        _same_graph(mine, Geodesic((0.0, 0.0), area, chosen, 14.0, sight=sight))
        lengths[name] = dict(zip(mine.nodes, mine.dist, strict=True))
    behind = (-3.0, 7.0)  # a corner of the far feature, above the wall
    assert lengths["plug out"][behind] < lengths["all"][behind] - 1.0


SEGMENT = st.tuples(st.integers(-16, 16), st.integers(-16, 16), st.integers(-16, 16), st.integers(-16, 16))


@FEW
@given(st.lists(RECT, min_size=1, max_size=10), st.lists(SEGMENT, min_size=1, max_size=40))
def test_the_meetings_by_separating_axes_are_those_geos_gives(rects, ends) -> None:
    """Segments between half-step grid points (along edges, through corners, touching) against the shrunk
    obstacles: the same (segment, obstacle) pairs as the tree's ``intersects`` query, in the same order."""
    obstacles = [_shape(x, y, w, h, t) for x, y, w, h, _k, t in rects]
    shrunk = shapely.buffer(np.array(obstacles, dtype=object), -SLIVER, join_style="mitre")
    coords = np.array([[[a / 2, b / 2], [c / 2, d / 2]] for a, b, c, d in ends if (a, b) != (c, d)], dtype=float)
    if not len(coords):
        return
    segments = shapely.linestrings(coords)
    tree = shapely.STRtree(shrunk)
    expected = tree.query(segments, predicate="intersects")
    assert np.array_equal(_meetings(tree, segments, coords), expected)
    unshrunk = shapely.STRtree(np.array(obstacles, dtype=object))  # touching, not shrunk: GEOS decides those
    assert np.array_equal(_meetings(unshrunk, segments, coords), unshrunk.query(segments, predicate="intersects"))


@FEW
@given(st.lists(RECT, min_size=1, max_size=10), st.floats(0, 90), st.floats(-5, 5), st.floats(-5, 5))
def test_the_obstacles_summed_in_one_call_are_those_summed_one_by_one(rects, turn, cx, cy) -> None:
    """:func:`minkowskis` gives each piece's :func:`minkowski`, corner for corner (a turned base, triangles)."""
    pieces = [_shape(x, y, w, h, t) for x, y, w, h, _k, t in rects]
    rect = shapely.affinity.rotate(box(cx - 2, cy - 1, cx + 2, cy + 1), turn, origin=(cx, cy))
    theirs = [minkowski(p, rect, (cx, cy)) for p in pieces]
    mine = minkowskis(pieces, rect, (cx, cy))
    assert [list(p.exterior.coords) for p in mine] == [list(p.exterior.coords) for p in theirs]


def _every_pair(self, here, columns, gaps, middle):
    """Every (interval, column) pair: the sweep as it was cast before the sixth part."""
    row, col = np.meshgrid(np.arange(len(middle)), np.arange(len(columns)), indexing="ij")
    return row.ravel(), col.ravel()


@FEW
@given(st.lists(RECT, min_size=1, max_size=10), st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)),
                                                         min_size=1, max_size=4))
def test_a_sweep_cast_only_where_rays_face_an_obstacle_is_the_whole_sweep(rects, points) -> None:
    """The sweep casts each ray only against the obstacles whose corners' directions hold it: what it finds is what
    casting every ray against every obstacle finds (points on, inside, beside and far from the obstacles)."""
    obstacles = [_shape(x, y, w, h, t) for x, y, w, h, _k, t in rects]
    kinds = [k for _x, _y, _w, _h, k, _t in rects]
    corners = [c for o in obstacles for c in list(o.exterior.coords)[:2]]
    for node in [(x / 2, y / 2) for x, y in points] + corners[:4]:
        for sight in (Sight(obstacles), Sight(obstacles, kinds)):
            mine = sight.view(node, 12.0)
            whole = Sight(obstacles, sight.kinds)
            whole._facing = _every_pair.__get__(whole)  # type: ignore[method-assign]
            theirs = whole.view(node, 12.0)
            assert np.array_equal(mine.bounds, theirs.bounds) and np.array_equal(mine.columns, theirs.columns)
            assert np.array_equal(mine.entry, theirs.entry)
            met = np.isfinite(theirs.entry)
            for name in ("edge", "near", "far"):
                assert np.array_equal(getattr(mine, name)[met], getattr(theirs, name)[met]), name


def test_the_shared_graph_charges_its_pairs_before_it_tests_them(monkeypatch) -> None:
    """The shared graph tests every pair of its nodes at once: the pairs are charged to the reach's budget first, so
    a field too big for the budget stops before the work (``reach`` then says so), not after it."""
    obstacles = [box(x, y, x + 0.5, y + 0.5) for x in range(-6, 6, 2) for y in range(-6, 6, 2) if (x, y) != (0, 0)]
    sight = Sight(obstacles, [DIFFICULT] * len(obstacles))
    tested = []
    none = np.zeros((2, 0), dtype=int)
    monkeypatch.setattr("movecheck.maneuver.geodesic._meetings", lambda *a: tested.append(a) or none)
    meter = ReachSteps(limit=1000)
    with pytest.raises(SearchLimit):
        Lanes(sight, (0.5, 0.5), box(-30, -30, 30, 30), 12.0, meter=meter)
    assert not tested
    assert meter.used == len(obstacles) * 4 * (len(obstacles) * 4 + 1) // 2  # every corner and the start, in pairs
    roomy = ReachSteps(limit=10**6)
    Lanes(sight, (0.5, 0.5), box(-30, -30, 30, 30), 12.0, meter=roomy)
    assert tested and roomy.used == meter.used


def _the_old_construction(monkeypatch) -> None:
    """Every way builds its own graph (no shared :class:`Lanes`) and every sweep casts every ray against every
    obstacle: the construction before the sixth part."""
    import movecheck.maneuver.reach as reach_module

    monkeypatch.setattr(reach_module, "Lanes", lambda *a, **k: None)
    monkeypatch.setattr(Sight, "_facing", _every_pair)


def _regions(found) -> list[object]:
    return [found.clear, found.limit, *(level.region for level in found.levels)]


@pytest.mark.slow
@settings(FEW_FIELDS, max_examples=4)
@given(WAR, FACING, ENEMY)
def test_the_regions_are_the_old_constructions(tmp_path_factory, monkeypatch, features, facing, enemy) -> None:
    """Random fields of features of every kind (and an enemy): clear ground, the limit and every level are the
    regions the old construction draws, to the last digit (the same graph, the same sweeps)."""
    mine = _reach(tmp_path_factory.mktemp("new"), features, facing, enemy)
    with monkeypatch.context() as patch:
        _the_old_construction(patch)
        theirs = _reach(tmp_path_factory.mktemp("old"), features, facing, enemy)
    assert [lv.probability for lv in mine.levels] == [lv.probability for lv in theirs.levels]
    for a, b in zip(_regions(mine), _regions(theirs), strict=True):
        assert a.equals_exact(b, 0) or a.symmetric_difference(b).area <= 1e-9


def test_the_dense_field_is_the_old_constructions(tmp_path, monkeypatch) -> None:
    """Issue 37's dense field, 6 features of every kind close round the base: the same regions as the old
    construction, to the last digit."""
    from movecheck.core import prepare
    from movecheck.files import read
    from movecheck.maneuver.reach import base_reach
    from movecheck.maneuver.world import World
    from movecheck.settings import Settings
    from tests.maneuver.test_reach import _dense

    bf = prepare(read(_dense(tmp_path, 6)), Settings()).model
    ours = bf.copy()
    mine = base_reach(World(ours, "red"), ours.bases["p"])
    with monkeypatch.context() as patch:
        _the_old_construction(patch)
        fresh = bf.copy()
        theirs = base_reach(World(fresh, "red"), fresh.bases["p"])
    assert len(mine.levels) == len(theirs.levels) > 3 and len(mine.scenarios) > 5
    for a, b in zip(_regions(mine), _regions(theirs), strict=True):
        assert a.equals_exact(b, 0)


def test_a_way_leaving_out_a_feature_of_several_pieces_keeps_the_corners_inside_them() -> None:
    """A difficult feature's pieces, grown by the base, overlap; a corner of another difficult feature lies inside
    two of them.  The way that leaves the first feature out (all its pieces) keeps that corner, as its own graph
    does: the shared graph must not drop a corner because two difficult obstacles hold it."""
    wood = box(2.0, -4.0, 3.0, 1.5)  # another feature: its corner (3, 1.5) lies inside both pieces below
    pieces = [box(1.5, 1.0, 4.0, 3.0), box(2.5, 1.0, 5.0, 4.0)]
    wall = box(-4.0, 5.0, -3.0, 6.0)
    obstacles = [wood, *pieces, wall]
    sight = Sight(obstacles, [DIFFICULT, DIFFICULT, DIFFICULT, FIXED], [0, 1, 1, 3])  # the pieces: one feature
    area = box(-30, -30, 30, 30)
    lanes = Lanes(sight, (0.0, 0.0), area, 12.0)
    assert (3.0, 1.5) in lanes.nodes
    for chosen in ([wood, wall], obstacles, [*pieces, wall], [wall]):
        mine = Geodesic((0.0, 0.0), area, chosen, 12.0, sight=sight, lanes=lanes)
        _same_graph(mine, Geodesic((0.0, 0.0), area, chosen, 12.0, sight=sight))
    alone = Geodesic((0.0, 0.0), area, [wood, wall], 12.0, sight=sight, lanes=lanes)
    assert (3.0, 1.5) in alone.nodes


SIGHT_RECT = st.tuples(st.floats(-9, 9), st.floats(-9, 9), st.floats(0.5, 6), st.floats(0.5, 6),
                       st.sampled_from([FIXED, FRIEND, DIFFICULT, DIFFICULT]))


@FEW
@example([(0.149, -2.555, 5.742, 4.276, FRIEND), (-1.726, -5.361, 1.953, 3.168, FRIEND),
          (1.01, 8.959, 5.668, 3.75, DIFFICULT), (0.0, 5.953, 2.033, 4.0, FRIEND),
          (0.05, 8.344, 3.073, 2.006, DIFFICULT), (0.05, 8.344, 3.073, 2.006, DIFFICULT)])
@given(st.lists(SIGHT_RECT, min_size=3, max_size=9))
def test_a_feature_of_several_pieces_left_out_is_seen_past_as_by_a_sight_that_keeps_every_event(rects) -> None:
    """A sight told its obstacles' kinds leaves out the corners and crossings no way can see; told which difficult
    pieces are one feature, it keeps those inside pieces of one feature only (the way that leaves that feature out
    sees them), and sees, for that way, what a sight that keeps every event sees."""
    from shapely.geometry import Point

    obstacles = [box(x, y, x + w, y + h) for x, y, w, h, _k in rects]
    kinds = [k for *_r, k in rects]
    whole = Sight(obstacles)
    difficult = np.flatnonzero(np.asarray(kinds) == DIFFICULT).tolist()
    corners = sorted({(x, y) for o in obstacles for x, y in list(o.exterior.coords)[:-1]})
    for a, b in itertools.pairwise(difficult):
        groups = list(range(len(obstacles)))
        groups[b] = a  # one feature of two pieces
        told = Sight(obstacles, kinds, groups)
        way = ~np.isin(np.arange(len(obstacles)), [a, b])
        chosen = [o for o, on in zip(obstacles, way, strict=True) if on]
        for node in [(0.0, 0.0), (-10.0, -10.0), *corners[:6], (0.05, 10.35)]:
            if any(o.contains(Point(node)) for o in chosen):
                continue
            disc = Point(node).buffer(9.0, quad_segs=16)
            mine = disc.intersection(told.view(node, 9.09).polygon(way))
            theirs = disc.intersection(whole.view(node, 9.09).polygon(way))
            assert mine.symmetric_difference(theirs).area <= 1e-9 * max(theirs.area, 1.0), (node, a, b)
