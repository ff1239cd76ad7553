"""Issue 37: the geodesic balls built as arrays (shadows in one call, each node's shade once for every radius,
the visibility tests of Dijkstra in one call per node) are the balls built point by point, each shadow edge by
edge."""

from __future__ import annotations

import heapq
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from movecheck.maneuver.geodesic import OUTSIDE, QUAD_SEGS, Focus, Geodesic

SQUARE = st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.floats(0.5, 3))


def _shadow(node, obstacle, length):
    """The obstacle and what it hides from ``node``, edge by edge: each edge hides the quadrilateral between it and
    its ends pushed a million times as far from the node (far beyond any disc of these tests); a node inside the
    obstacle sees nothing.  Built otherwise than :func:`movecheck.maneuver.geodesic._shadows` on purpose."""
    if obstacle.contains(Point(node)):
        return Point(node).buffer(10 * (length + 1), quad_segs=4)
    points = list(obstacle.exterior.coords)
    quads = [obstacle]
    for a, b in itertools.pairwise(points):
        fa = (node[0] + (a[0] - node[0]) * 1e6, node[1] + (a[1] - node[1]) * 1e6)
        fb = (node[0] + (b[0] - node[0]) * 1e6, node[1] + (b[1] - node[1]) * 1e6)
        quad = Polygon([a, b, fb, fa])
        if quad.is_valid and quad.area > 0:
            quads.append(quad)
    return unary_union(quads)


def point_by_point(g: Geodesic, radius: float, outside: bool) -> Polygon:
    """The ball as it was built before issue 37: per node, the shadows of the obstacles its disc meets."""
    scale = OUTSIDE if outside else 1.0
    parts = []
    for node, d in zip(g.nodes, g.dist, strict=True):
        spare = radius - d
        if spare <= 1e-9:
            continue
        disc = Point(node).buffer(spare * scale, quad_segs=QUAD_SEGS)
        shadows = [_shadow(node, o, spare * scale + 1.0) for o in g.obstacles if o.intersects(disc)]
        seen = disc.intersection(g.area)
        if shadows:
            seen = seen.difference(unary_union(shadows))
        parts.append(seen)
    return unary_union(parts).buffer(0) if parts else Polygon()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(SQUARE, max_size=6), st.floats(3, 14), st.booleans())
def test_the_ball_is_the_one_built_point_by_point(squares, radius, outside) -> None:
    obstacles = [box(x, y, x + s, y + s) for x, y, s in squares if not box(x, y, x + s, y + s).contains(Point(0, 0))
                 and box(x, y, x + s, y + s).distance(Point(0, 0)) > 0.1]
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), obstacles, 14.0)
    for r in (radius, radius / 2):
        mine, theirs = g.ball(r, outside), point_by_point(g, r, outside)
        assert mine.symmetric_difference(theirs).area <= 1e-6 * max(theirs.area, 1.0)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(SQUARE, min_size=1, max_size=6))
def test_the_visibility_tests_in_one_call_are_the_tests_one_by_one(squares) -> None:
    obstacles = [box(x, y, x + s, y + s) for x, y, s in squares if box(x, y, x + s, y + s).distance(Point(0, 0)) > 0.1]
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), obstacles, 40.0)
    for a in g.nodes:
        assert g._clear_from(a, g.nodes) == [g.clear(a, b) for b in g.nodes]


def _dijkstra_one_by_one(g: Geodesic) -> list[float]:
    """The shortest paths' lengths as they were found before the arrays: each settled node's segments tested one by
    one, the lengths measured by :func:`math.dist`."""
    n = len(g.nodes)
    dist, done, heap = [math.inf] * n, [False] * n, [(0.0, 0)]
    dist[0] = 0.0
    while heap:
        d, i = heapq.heappop(heap)
        if done[i]:
            continue
        done[i] = True
        for j in range(n):
            nd = d + math.dist(g.nodes[i], g.nodes[j])
            if not done[j] and nd < dist[j] - 1e-12 and nd <= g.horizon + 1e-9 and g.clear(g.nodes[i], g.nodes[j]):
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return dist


SHAPE = st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.floats(0.5, 3), st.booleans())


def _shape(x: float, y: float, s: float, triangle: bool) -> Polygon:
    return Polygon([(x, y), (x + s, y + s / 3), (x + s / 2, y + s)]) if triangle else box(x, y, x + s, y + s)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(SHAPE, min_size=1, max_size=8), st.floats(4, 20))
def test_the_shortest_paths_as_arrays_are_those_found_one_by_one(shapes, horizon) -> None:
    """Issue 37 (reach2): Dijkstra's rows as arrays, on random fields of overlapping squares and triangles, some
    beyond the horizon: the same obstacles kept, the same corners, the same lengths, and each node's parent on a
    shortest path to it."""
    obstacles = [o for o in (_shape(*s) for s in shapes) if o.distance(Point(0, 0)) > 0.1]
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), obstacles, horizon)
    reach = horizon * OUTSIDE + 1e-6
    assert g.obstacles == [o for o in obstacles if o.distance(Point(0, 0)) <= reach]
    theirs = _dijkstra_one_by_one(g)
    assert [math.isfinite(d) for d in g.dist] == [math.isfinite(d) for d in theirs]
    for k, (mine, old) in enumerate(zip(g.dist, theirs, strict=True)):
        if math.isfinite(old):
            assert mine == pytest.approx(old, abs=1e-9)
        if k and math.isfinite(mine):
            via = g.parent[k]
            assert g.dist[via] + math.dist(g.nodes[via], g.nodes[k]) == pytest.approx(mine, abs=1e-9)
            assert g.clear(g.nodes[via], g.nodes[k])


def test_the_distance_to_a_target_is_the_nearest_node_plus_its_gap() -> None:
    """Issue 37 (reach2): :meth:`Geodesic.distance_to` in one call; an empty target, or one out of sight, is at no
    finite distance (as the loop over the nodes gave)."""
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), [box(2, -3, 3, 3)], 12.0)
    target = box(6, -0.5, 7, 0.5)
    expected = min(d + Point(n).distance(target) for n, d in zip(g.nodes, g.dist, strict=True) if math.isfinite(d))
    assert g.distance_to(target) == expected
    assert g.distance_to(box(6, -0.5, 7, 0.5).difference(box(5, -1, 8, 1))) == math.inf
    assert Geodesic((0.0, 0.0), box(-30, -30, 30, 30), [], 3.0).distance_to(target) == pytest.approx(6.0)


def test_the_corners_near_a_focus_in_one_call_are_those_of_the_rule_one_by_one() -> None:
    """Issue 37 (reach2): :meth:`Focus.near` as arrays, its gaps kept across radii, against its rule corner by corner
    (a corner a path around the target reaches as soon: within the spare length of the target; else also within
    its length past the entry)."""
    target = box(4, -1, 5, 1)
    nodes = [(0.0, 0.0), (3.0, 2.0), (6.0, 0.0), (9.0, 3.0), (1.0, -6.0), (4.5, 4.0)]
    dist = [0.0, 3.6, 6.5, 9.5, math.inf, 4.7]
    focus = Focus(target, 3.5, 10.0, (target,), {(3.0, 2.0): 3.6, (6.0, 0.0): 7.0, (4.5, 4.0): 4.7})
    measured = focus.measure(nodes, dist)
    for radius in (4.0, 6.0, 8.0, 10.0):
        rule = []
        for node, d in zip(nodes, dist, strict=True):
            around = focus.around.get(node, math.inf) <= d + 1e-9
            rule.append(Point(node).distance(target) <= max(radius - d, -math.inf if around else d - 3.5) + 1e-9)
        assert focus.near(nodes, dist, radius) == rule == focus.near_from(measured, dist, radius)
        assert any(rule) and not all(rule)
