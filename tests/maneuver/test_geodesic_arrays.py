"""Issue 37: the geodesic balls built as arrays (shadows in one call, each node's shade once for every radius,
the visibility tests of Dijkstra in one call per node) are the balls built point by point, each shadow edge by
edge."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from movecheck.maneuver.geodesic import OUTSIDE, QUAD_SEGS, Geodesic

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
