"""The movable index gives the answers of an index built anew, after any moves."""

from __future__ import annotations

import math

from hypothesis import settings
from hypothesis import strategies as st

from movecheck.maneuver import geometry as g
from tests.properties import in_two_runs

coord = st.floats(min_value=-200, max_value=200, allow_nan=False)
size = st.floats(min_value=0.5, max_value=30)
shape = st.tuples(coord, coord, st.floats(min_value=0, max_value=359), size, size)


def rect(spec: tuple[float, float, float, float, float]):
    x, y, facing, w, d = spec
    return g.base_rect(x, y, facing, w, d)


def _moves_answer_as_a_rebuild(start, moves, probes) -> None:
    shapes = {f"b{i}": rect(s) for i, s in enumerate(start)}
    index = g.MovableIndex(shapes.items())
    for k, spec in moves:
        key = f"b{k % len(start)}"
        shapes[key] = rect(spec)
        index.move(key, shapes[key])
        fresh = g.SpatialIndex(shapes.items())
        for probe, distance in probes:
            assert index.near(rect(probe), distance) == fresh.near(rect(probe), distance)
    fresh = g.SpatialIndex(shapes.items())
    for probe, distance in probes:
        assert index.near(rect(probe), distance) == fresh.near(rect(probe), distance)


# a property in two runs (tests/properties.py): a tenth of the examples in the default run, all under slow
test_moves_answer_as_a_rebuild, test_moves_answer_as_a_rebuild_in_full = in_two_runs(
    settings(max_examples=60, deadline=None),
    start=st.lists(shape, min_size=1, max_size=25),
    moves=st.lists(st.tuples(st.integers(min_value=0, max_value=24), shape), max_size=15),
    probes=st.lists(st.tuples(shape, st.floats(min_value=0, max_value=80)), min_size=1, max_size=5),
)(_moves_answer_as_a_rebuild)


def test_giant_and_empty_shapes_are_kept_aside() -> None:
    items = [("small", g.base_rect(0, 0, 0, 1, 1)), ("giant", g.base_rect(0, 0, 0, 1e6, 1e6)),
             ("far", g.base_rect(500, 500, 0, 1, 1))]
    index = g.MovableIndex(items)
    probe = g.base_rect(100, 100, 0, 1, 1)
    assert index.near(probe) == g.SpatialIndex(items).near(probe) == ["giant"]
    assert index.near(probe, math.inf) == ["small", "giant", "far"]
    index.move("giant", g.base_rect(1000, 1000, 0, 1, 1))
    assert index.near(probe, 1e9) == ["small", "giant", "far"]
    assert g.MovableIndex([]).near(probe) == []
