"""Scenario lint of maneuver battlefields (MV601–MV605, MC003/MC004 from the builder)."""

from __future__ import annotations

import math

import pytest

from tests.maneuver.helpers import base, codes, corps, rect_terrain, run_lint, state


def test_clean_battlefield(tmp_path):
    doc = state(
        [corps("red-1", base("r1", 50, 30), base("r2", 54, 30))],
        terrain=[rect_terrain("wood1", "forest", 10, 10, 20, 20)],
        landmarks=[
            {"id": "shrine", "point": [100, 100]},
            {"id": "w", "terrain": "wood1"},
            {"id": "c", "corps": "red-1"},
        ],
    )
    assert run_lint(tmp_path, doc) == []


def test_overlapping_bases_are_mv601(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30), base("r2", 53, 30))])
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MV601"]
    assert "base r2 overlaps base r1 (2.00 square steps in common)" in found[0].message


def test_overlap_across_sides_is_mv601(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30))], [corps("blue-1", base("b1", 50, 31.5, 180))])
    assert codes(run_lint(tmp_path, doc)) == ["MV601"]


def test_corps_not_in_contact_is_mv602(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30), base("r2", 54, 30), base("r3", 70, 30))])
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MV602"]
    assert found[0].severity.value == "warning"
    assert "2 groups (r1, r2 | r3)" in found[0].message


def test_corps_within_contact_gap_is_in_contact(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30), base("r2", 54.04, 30))])
    assert run_lint(tmp_path, doc) == []


def test_mixed_facing_is_mv603(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30), base("r2", 53, 31, 90))])
    found = run_lint(tmp_path, doc)
    assert "MV603" in codes(found)


def test_self_intersecting_polygon_is_mv604(tmp_path):
    bowtie = {"id": "bow", "kind": "forest", "polygon": [[10, 10], [20, 20], [20, 10], [10, 20]]}
    found = run_lint(tmp_path, state([corps("red-1", base("r1", 50, 30))], terrain=[bowtie]))
    assert codes(found) == ["MV604"]
    assert "not a simple polygon: self-intersection" in found[0].message


def test_polygon_with_repeated_points_is_mv604(tmp_path):
    flat = {"id": "flat", "kind": "forest", "polygon": [[10, 10], [10, 10], [20, 20]]}
    found = run_lint(tmp_path, state([corps("red-1", base("r1", 50, 30))], terrain=[flat]))
    assert codes(found) == ["MV604"]
    assert "2 distinct corners" in found[0].message


def test_collinear_polygon_is_mv604(tmp_path):
    line = {"id": "line", "kind": "forest", "polygon": [[10, 10], [15, 15], [20, 20]]}
    found = run_lint(tmp_path, state([corps("red-1", base("r1", 50, 30))], terrain=[line]))
    assert codes(found) == ["MV604"]


def test_terrain_and_bases_outside_the_field_are_mv604(tmp_path):
    doc = state([corps("red-1", base("r1", 1, 30))], terrain=[rect_terrain("sea", "impassable", 190, 0, 210, 10)])
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MV604", "MV604"]
    messages = " ".join(f.message for f in found)
    assert "terrain sea reaches outside the field (0..200 × 0..200)" in messages
    assert "base r1 lies (partly) outside the field" in messages


def test_terrain_on_the_field_edge_is_inside(tmp_path):
    doc = state([corps("red-1", base("r1", 2, 30, 90))], terrain=[rect_terrain("brook", "stream", 0, 34, 200, 37)])
    assert run_lint(tmp_path, doc) == []


def test_duplicate_ids_are_mv605(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30)), corps("red-1", base("r1", 80, 30))],
                terrain=[rect_terrain("w", "forest", 10, 10, 20, 20), rect_terrain("w", "forest", 30, 10, 40, 20)])
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MV605", "MV605", "MV605"]
    assert any("base id 'r1' is already used by the base on line" in f.message for f in found)


def test_landmark_naming_unknown_terrain_or_corps_is_mc004(tmp_path):
    doc = state([corps("red-1", base("r1", 50, 30))], terrain=[rect_terrain("wood1", "forest", 10, 10, 20, 20)],
                landmarks=[{"id": "a", "terrain": "wod1"}, {"id": "b", "corps": "red-2"}])
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MC004", "MC004"]
    assert "did you mean 'wood1'?" in found[0].message
    assert "did you mean 'red-1'?" in found[1].message


def test_landmark_must_be_exactly_one_thing(tmp_path):
    doc = state(
        [corps("red-1", base("r1", 50, 30))], landmarks=[{"id": "a", "point": [1, 1], "corps": "red-1"}, {"id": "b"}]
    )
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MC003", "MC003"]


@pytest.mark.parametrize("value", [".nan", ".inf", "1.0e+400"])
def test_non_finite_coordinates_are_findings_not_crashes(tmp_path, value):
    text = f"""\
movecheck: 1
system: maneuver
field: {{width: 100, depth: 100}}
terrain:
  - {{id: w, kind: forest, polygon: [[10, 10], [20, {value}], [20, 20]]}}
sides:
  red:
    - id: red-1
      bases: [{{id: r1, x: {value}, y: 30}}]
  blue:
    - id: blue-1
      bases: [{{id: b1, x: 50, y: 80, width: {value}}}]
"""
    found = run_lint(tmp_path, text)
    assert codes(found) == ["MC003", "MC003", "MC003"]
    assert all("is not a finite number" in f.message for f in found)
    assert {f.line for f in found} == {5, 9, 12}


def test_non_finite_field_is_a_finding(tmp_path):
    text = (
        "movecheck: 1\nsystem: maneuver\nfield: {width: .inf, depth: 100}\nsides: {red: [{id: c, bases: [{id: r, x: 1, "
        "y: 1}]}]}\n"
    )
    assert codes(run_lint(tmp_path, text)) == ["MC003"]


def test_negative_infinite_size_is_reported_once(tmp_path):
    text = (
        "movecheck: 1\nsystem: maneuver\nfield: {width: 100, depth: 100}\nsides: {red: [{id: c, bases: [{id: r, x: 1, "
        "y: 1, width: -.inf}]}]}\n"
    )
    found = run_lint(tmp_path, text)
    assert codes(found) == ["MC003"]


@pytest.mark.parametrize("size", ["0", "-2"])
def test_zero_or_negative_sizes_are_schema_findings(tmp_path, size):
    text = f"""\
movecheck: 1
system: maneuver
field: {{width: 100, depth: {size}}}
sides:
  red:
    - id: red-1
      base: [{size}, 2]
      bases: [{{id: r1, x: 50, y: 30, width: {size}, depth: {size}}}]
"""
    found = run_lint(tmp_path, text)
    assert found and set(codes(found)) == {"MC003"}


def test_bad_die_expression_and_unknown_die(tmp_path):
    doc = state(
        [corps("red-1", base("r1", 50, 30))], options={"dice": {"D1": "one d six"}, "penalties": {"forest": "D9"}}
    )
    found = run_lint(tmp_path, doc)
    assert codes(found) == ["MC003", "MC004"]


EVERY_DEGREE = [pytest.param(a, marks=() if a % 5 == 0 else pytest.mark.slow) for a in range(360)]
"""Every degree: every fifth in the default run, all 360 under slow."""


@pytest.mark.parametrize("angle", EVERY_DEGREE)
def test_bases_touching_at_every_angle_are_in_contact_not_overlapping(angle):
    """Two bases side by side in a corps turned to ``angle``: no MV601, and they form one group."""
    from movecheck.loading import load_bytes
    from movecheck.maneuver import lint_state

    rx, ry = math.cos(math.radians(angle)), -math.sin(math.radians(angle))  # right of the facing
    a = base("r1", 100, 100, angle)
    b = base("r2", round(100 + 4 * rx, 15), round(100 + 4 * ry, 15), angle)
    c = base("r3", round(100 - 4 * rx, 15), round(100 - 4 * ry, 15), angle)
    from tests.maneuver.helpers import dump

    doc = load_bytes(dump(state([corps("red-1", a, b, c)])).encode(), "state.yaml")
    findings, battlefield = lint_state(doc)
    assert findings == []
    assert battlefield is not None


def test_examples_battlefield_lints_clean():
    from pathlib import Path

    from movecheck.core import lint
    from movecheck.settings import Settings

    path = Path(__file__).resolve().parents[2] / "examples" / "maneuver" / "battlefield.yaml"
    report = lint([str(path)], Settings())
    assert report.sorted_findings() == []


def test_large_field_lints_quickly(tmp_path):
    """400 bases in 100 corps of 4: the overlap lint uses the STRtree, not all pairs."""
    import time

    red = [corps(f"c{i}", *(base(f"r{i}-{k}", 10 + (i % 10) * 20 + 4 * k, 10 + (i // 10) * 20) for k in range(4)))
           for i in range(100)]
    doc = state(red, field=(400, 400))
    start = time.perf_counter()
    assert run_lint(tmp_path, doc) == []
    assert time.perf_counter() - start < 20  # generous: a hang, not a benchmark
