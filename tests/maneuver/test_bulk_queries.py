"""The lint's queries of every base at once (issue 37, the big manoeuvre file): the answers of one at a time."""

from __future__ import annotations

import random

from shapely.geometry import box

from movecheck.maneuver import geometry as g


def test_near_each_and_inside_each_answer_as_one_at_a_time() -> None:
    """Overlapping, touching and far bases, some across the field's edge: one query of the tree gives each shape
    the keys :meth:`near` gives it, in its order, and one covering test what :func:`inside_field` says."""
    rng = random.Random(9)
    rects = [g.base_rect(rng.choice([rng.uniform(-3, 63), 10.0, 12.0]), rng.choice([rng.uniform(-3, 63), 5.0]),
                         rng.choice([0, 90, rng.uniform(0, 360)]), 4, 2) for _ in range(120)]
    index = g.SpatialIndex((f"b{k}", r) for k, r in enumerate(rects))
    for distance in (0.0, 1.5):
        each = index.near_each(rects, distance)
        assert each == [index.near(r, distance) for r in rects]
    assert sum(len(keys) > 1 for keys in each) > 10  # shapes met others
    field = box(0, 0, 60, 60)
    inside = g.inside_field_each(rects, field, 0.01)
    assert inside == [g.inside_field(r, field, 0.01) for r in rects]
    assert True in inside and False in inside
    assert g.SpatialIndex([]).near_each(rects) == [[] for _ in rects]
