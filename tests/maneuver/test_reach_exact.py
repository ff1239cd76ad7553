"""Issue 37: ``reach`` made faster draws the same regions.

The reference is the reach as it was before the speed-ups: every way's ball drawn whole, node by node, with the
shadows of every obstacle its disc meets (:func:`tests.maneuver.test_geodesic_arrays.point_by_point`), on random
small fields.  Both are polygons inside the true regions (discs are inscribed polygons), so they may differ by the
slivers between two polygons of one arc, never by more: nothing is drawn that the reference leaves out.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import GeometryCollection, LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

from movecheck.core import prepare
from movecheck.files import read
from movecheck.maneuver.geodesic import OUTSIDE, Geodesic
from movecheck.maneuver.reach import BaseReach, base_reach
from movecheck.maneuver.world import World
from movecheck.settings import Settings
from tests.maneuver.helpers import base, corps, dump, rect_terrain, state
from tests.maneuver.test_geodesic_arrays import point_by_point

KINDS = ["forest", "stream", "hill", "ploughed_field", "rice_paddy", "impassable"]
FEATURE = st.tuples(st.floats(18, 40), st.floats(18, 40), st.floats(0.5, 4), st.floats(0.5, 4),
                    st.sampled_from(KINDS))
FEW = settings(max_examples=3, derandomize=True, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
MANY = settings(FEW, max_examples=40)
SKIRMISH = st.lists(FEATURE, min_size=2, max_size=4)
WAR = st.lists(FEATURE, min_size=2, max_size=8)
FACING = st.sampled_from([0, 30, 90])
ENEMY = st.one_of(st.none(), st.tuples(st.floats(20, 40), st.floats(36, 40)))


def _reach(folder: Path, features: list[tuple[float, float, float, float, str]], facing: float,
           enemy: tuple[float, float] | None) -> BaseReach:
    terrain = [rect_terrain(f"t{n}", kind, x, y, x + w, y + h) for n, (x, y, w, h, kind) in enumerate(features)
               if not (x < 33.5 and x + w > 26.5 and y < 32.5 and y + h > 27.5)]  # none under the base
    blue = [corps("blue-1", base("b1", *enemy, 180))] if enemy is not None else []
    doc = state([corps("red-1", base("p", 30, 30, facing))], blue, terrain=terrain, field=(60, 60))
    (folder / "state.yaml").write_text(dump(doc), encoding="utf-8")
    bf = prepare(read(str(folder / "state.yaml")), Settings()).model
    return base_reach(World(bf, "red"), bf.bases["p"])


def _reference_levels(reach: BaseReach) -> list[object]:
    """The levels as the reach drew them before issue 37's pruning: every way's ball whole."""
    tol = reach.tolerance
    assert reach.clear_paths is not None
    clear = point_by_point(reach.clear_paths, reach.mobility + tol, False)
    out = []
    for q in sorted({p for sc in reach.scenarios for _v, p in sc.levels}):
        far = [(sc, max(v for v, p in sc.levels if p >= q)) for sc in reach.scenarios]
        out.append(unary_union([clear, *(point_by_point(sc.paths, v + tol, False) for sc, v in far)]))
    return out


def _same_region(mine: object, theirs: object, radius: float) -> None:
    assert mine.difference(theirs).area <= 1e-9 * max(theirs.area, 1.0)  # type: ignore[attr-defined]
    missing = theirs.difference(mine)  # type: ignore[attr-defined]
    assert missing.area <= 1e-4 * max(theirs.area, 1.0)  # type: ignore[attr-defined]
    sagitta = radius * OUTSIDE * (1 - math.cos(math.pi / 64))
    assert missing.buffer(-2 * sagitta).is_empty  # slivers along arcs, never a piece of ground


def _levels_are_drawn_whole(folder: Path, features: list[tuple[float, float, float, float, str]], facing: float,
                            enemy: tuple[float, float] | None) -> None:
    reach = _reach(folder, features, facing, enemy)
    reference = _reference_levels(reach)
    assert [lv.probability for lv in reach.levels] == sorted({p for sc in reach.scenarios for _v, p in sc.levels})
    for level, theirs in zip(reach.levels, reference, strict=True):
        _same_region(level.region, theirs, reach.mobility + reach.tolerance)


@FEW
@given(SKIRMISH, FACING, ENEMY)
def test_the_levels_are_the_ones_drawn_whole(tmp_path_factory, features, facing, enemy) -> None:
    _levels_are_drawn_whole(tmp_path_factory.mktemp("exact"), features, facing, enemy)


@pytest.mark.slow
@MANY
@given(WAR, FACING, ENEMY)
def test_the_levels_are_the_ones_drawn_whole_on_many_fields(tmp_path_factory, features, facing, enemy) -> None:
    _levels_are_drawn_whole(tmp_path_factory.mktemp("exact"), features, facing, enemy)


def test_a_disc_reaching_an_obstacle_past_the_coarse_circle_is_shaded() -> None:
    # the obstacles that shade a node's disc (and those a geodesic keeps at all) were the ones meeting a
    # 16-sided polygon inside the widest disc: one between that polygon and the disc, 11.25 degrees off the
    # polygon's vertices, was drawn as ground the base reaches
    horizon = 10.0 / OUTSIDE  # the widest disc: radius 10; the 16-sided polygon inside it: 9.81 at 11.25 degrees
    a = math.radians(11.25)
    u, n = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    obstacle = Polygon([(t * u[0] + s * n[0], t * u[1] + s * n[1]) for t, s in
                        ((9.9, -0.025), (10.2, -0.025), (10.2, 0.025), (9.9, 0.025))])
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), [obstacle], horizon)
    ball = g.ball(horizon)
    assert ball.intersects(obstacle.buffer(0.2))  # the disc goes past the obstacle's near side (radius 9.95)
    assert ball.intersection(obstacle).area <= 1e-9


def test_a_node_close_to_a_wide_obstacle_sees_nothing_behind_it() -> None:
    # the shadow was the hull of the corners and the corners pushed a fixed length away: seen from close to the
    # middle of a long wall, the pushed corners lay almost sideways, and the ground behind the wall was reachable
    g = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), [box(-20, 0.5, 20, 1.5)], 10.0)
    ball = g.ball(10.0)
    assert not ball.intersects(box(-5, 1.5, 5, 10))  # the way round the wall is over 20 long
    assert ball.contains(Point(0, -9.5)) and ball.contains(Point(0, 0.45))
    short = Geodesic((0.0, 0.0), box(-30, -30, 30, 30), [box(-2, 0.5, 2, 1.5)], 10.0).ball(10.0)
    assert short.contains(Point(0, 5)) and not short.contains(Point(0, 9))  # round a short wall: 2.06 + 1 + 4.03


@pytest.mark.parametrize("features", [8, 14])
def test_each_level_joined_from_the_one_before_is_the_union_of_every_ways_ball(tmp_path, features) -> None:
    """Issue 37, seventh part: a level is the likelier level's region joined with the balls that grew; it is the
    union of clear ground and every way's ball at its allowance there, as a set, with the same holes of some area
    and none of no area (joining, in either way, can leave a slit of the last digits' noise)."""
    from movecheck.maneuver.reach import _unholed
    from tests.maneuver.test_reach import _dense

    bf = prepare(read(_dense(tmp_path, features)), Settings()).model
    reach = base_reach(World(bf, "red"), bf.bases["p"])
    tol = reach.tolerance
    assert len(reach.levels) > 3 and len(reach.scenarios) > 3
    for level in reach.levels:
        far = [(sc, max(v for v, p in sc.levels if p >= level.probability)) for sc in reach.scenarios]
        plain = unary_union([reach.clear, *(sc.paths.ball(v + tol, focus=sc.focus) for sc, v in far)])
        whole = _unholed(plain)
        assert level.region.symmetric_difference(whole).area <= 1e-9 * whole.area
        assert _apart(level.region, whole) <= 1e-9 and _apart(whole, level.region) <= 1e-9
        assert all(Polygon(h).area > 1e-9 for p in _parts(level.region) for h in p.interiors)
        assert level.allowance == max(v for _sc, v in far)
    assert reach.levels[-1].region.equals_exact(whole, 0)  # the likeliest: the plain union, to the last digit


def _apart(region: object, other: object) -> float:
    """How far the farthest vertex of ``region`` lies from ``other`` (0 inside it)."""
    return float(shapely.distance(shapely.points(shapely.get_coordinates(region)), other).max())


def _parts(region: object) -> list[Polygon]:
    return [region] if region.geom_type == "Polygon" else list(region.geoms)  # type: ignore[attr-defined]


def test_a_hole_of_no_area_is_left_out_of_a_level_and_a_real_one_kept() -> None:
    from movecheck.maneuver.reach import _unholed

    ring = box(0, 0, 10, 10).exterior
    sliver = [(5, 5), (5 + 1e-6, 5), (5, 5 + 1e-6)]
    region = Polygon(ring, [sliver, [(1, 1), (2, 1), (2, 2), (1, 2)]])
    cleaned = _unholed(region)
    assert len(cleaned.interiors) == 1 and cleaned.interiors[0].equals(region.interiors[1])
    two = _unholed(unary_union([region, box(20, 0, 21, 1)]))
    assert two.geom_type == "MultiPolygon" and sum(len(p.interiors) for p in two.geoms) == 1
    plain = Polygon(ring, [[(1, 1), (2, 1), (2, 2), (1, 2)]])
    assert _unholed(plain) is plain
    one = _unholed(MultiPolygon([region]))
    assert one.geom_type == "MultiPolygon" and len(one.geoms[0].interiors) == 1
    mixed = GeometryCollection([region, LineString([(0, 0), (1, 1)])])
    assert _unholed(mixed) is mixed
