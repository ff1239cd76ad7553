"""``movecheck reach``: a base's free-move regions with the odds of its rolls, a corps' ends per outcome (issue #29)."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from shapely.geometry import Point

from movecheck.cli import main
from movecheck.core import prepare
from movecheck.files import read
from movecheck.maneuver.geodesic import Geodesic
from movecheck.maneuver.reach import allowance_distribution, base_reach, obstacles
from movecheck.maneuver.reach_corps import corps_reach
from movecheck.maneuver.world import World
from movecheck.settings import Settings
from movecheck.validators import is_valid
from tests.harness import yaml_data, yaml_text
from tests.maneuver.helpers import codes, free, orders, run_check

ROOT = Path(__file__).resolve().parents[2]
BATTLEFIELD = ROOT / "examples" / "maneuver" / "battlefield.yaml"
STATE_TEXT = BATTLEFIELD.read_text(encoding="utf-8")


def battlefield():
    return prepare(read(str(BATTLEFIELD)), Settings()).model


def _verdict(tmp_path: Path, name: str, bid: str, path: list[tuple[float, float]]) -> list[str]:
    folder = tmp_path / name
    folder.mkdir()
    found, _, _ = run_check(folder, STATE_TEXT, orders(free(bid, *path)))
    return codes([f for f in found if f.severity.value != "note"])


def _samples(centre: tuple[float, float], radius: float, count: int, seed: int) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    points = []
    for _ in range(count):
        r, a = radius * rng.random() ** 0.5, rng.uniform(0, 6.283185307179586)
        points.append((round(centre[0] + r * math.cos(a), 3), round(centre[1] + r * math.sin(a), 3)))
    return points


@pytest.mark.parametrize("bid", ["r1", "r14", "r13", "r19"])
def test_ends_in_the_certain_region_are_legal_for_every_roll(tmp_path, bid):
    bf = battlefield()
    base = bf.bases[bid]
    reach = base_reach(World(bf, base.side), base)
    certain = reach.certain.buffer(-1e-3)
    inside = [p for p in _samples(base.centre, reach.mobility, 400, 29) if certain.contains(Point(p))][:6]
    assert len(inside) >= 4
    for n, point in enumerate(inside):
        found = _verdict(tmp_path, f"s{n}", bid, [point])
        if found:  # the straight line is blocked: the shortest path around what blocks it
            path = reach.path_to(point)
            assert path is not None, point
            found = _verdict(tmp_path, f"p{n}", bid, path)
        assert found == [], (point, found)


@pytest.mark.parametrize("bid", ["r1", "r14", "r13", "r9"])
def test_ends_outside_the_limit_are_mv101_for_every_roll(tmp_path, bid):
    bf = battlefield()
    base = bf.bases[bid]
    reach = base_reach(World(bf, base.side), base)
    limit = reach.limit.buffer(1e-3)
    found = obstacles(bf, base, 3 * reach.mobility)
    around = Geodesic(base.centre, found.area, found.hard + found.enemies, 3 * reach.mobility)
    outside = [p for p in _samples(base.centre, reach.mobility + 4, 400, 7) if not limit.contains(Point(p))]
    checked = 0
    for n, point in enumerate(outside):
        path = around.path_to(point)
        if path is None:
            continue  # inside an obstacle or beyond the field: not a free move's end at all
        result = _verdict(tmp_path, f"o{n}", bid, path)
        assert "MV101" in result and "MV304" not in result, (point, result)
        checked += 1
        if checked == 5:
            break
    assert checked >= 3


def test_the_regions_are_nested_and_the_odds_grow_inwards():
    bf = battlefield()
    reach = base_reach(World(bf, "red"), bf.bases["r1"])
    assert [o.terrain.id for o in reach.owed] == ["brook"]
    assert [lv.allowance for lv in reach.levels] == [9, 8, 7, 6, 5, 4]
    assert [lv.probability for lv in reach.levels] == [Fraction(k, 6) for k in range(1, 7)]
    for outer, inner in zip(reach.levels, reach.levels[1:], strict=False):
        assert outer.region.buffer(1e-6).contains(inner.region)
    assert reach.limit.buffer(1e-6).contains(reach.levels[0].region)
    assert reach.levels[-1].region.buffer(1e-6).contains(reach.clear)


def test_the_reach_goes_around_an_impassable_barn_not_through_it():
    bf = battlefield()
    reach = base_reach(World(bf, "red"), bf.bases["r13"])  # skirmisher 3 steps south of the barn
    behind = Point(120, 93.6)  # just north of the barn: 8.6 steps straight through it, further around
    assert not reach.limit.contains(Point(120, 90))  # inside the barn
    straight = 93.6 - 85
    assert straight < reach.mobility
    path = reach.paths.path_to((120, 93.6))
    length = sum(math.dist(a, b) for a, b in zip([(120, 85), *path], path, strict=False))
    assert length > straight + 1
    assert reach.certain.contains(behind) == (length <= reach.levels[-1].allowance + reach.tolerance)


def test_the_allowance_walk_takes_the_floor_at_the_terrain_edge():
    from movecheck.maneuver.dice import Dice
    from movecheck.maneuver.reach import Owed

    class T:
        id = "w"

    owed = [Owed(T(), "D3", Dice.parse("1d6"), 4.0)]
    assert allowance_distribution(8, owed) == {7: Fraction(1, 6), 6: Fraction(1, 6), 5: Fraction(1, 6),
                                               4: Fraction(1, 2)}


def test_an_engaged_base_reaches_only_straight_back():
    bf = battlefield()
    reach = base_reach(World(bf, "red"), bf.bases["r15"])
    assert reach.engaged == ["b5", "b6"]
    minx, miny, maxx, _maxy = reach.certain.bounds
    assert maxx - minx <= 0.1 + 1e-9 and miny == pytest.approx(102 - 6.1)


def test_a_corps_gets_every_base_end_per_roll_outcome():
    bf = battlefield()
    orders = corps_reach(World(bf, "red"), bf.corps["red-2"])
    found = {(o.kind, o.landmark.id if o.landmark else None): o for o in orders}
    ahead = found[("all_ahead", None)]
    left = next(g for g in ahead.groups if "r3" in g[0].ends)
    assert [(o.probability, o.ends["r3"]) for o in left] == [
        (Fraction(2, 3), (150, 17)), (Fraction(1, 6), (150, 18)), (Fraction(1, 6), (150, 19))]
    assert left[0].rolls == {("r3", "plough"): [3, 4, 5, 6]}
    assert sum(o.probability for o in left) == 1
    assert set(found) >= {("all_back", None), ("to_landmark", "shrine"), ("to_landmark", "birches")}


def test_reach_json_follows_its_schema_and_is_deterministic(capsys):
    texts = []
    for _ in range(2):
        assert main(["reach", str(BATTLEFIELD), "r1", "red-1", "--format", "json", "--isolated"]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]
    data = json.loads(texts[0])
    assert is_valid("reach", data)
    level = data["reach"][0]["levels"][0]
    assert level["probability"] == {"fraction": "1/6", "decimal": 0.166667}
    point = level["region"][0][0][0]
    assert all(round(v, 3) == v for v in point)
    assert main(["schema", "reach"]) == 0
    assert json.loads(capsys.readouterr().out)["$id"].endswith("/reach/v1.json")


def test_reach_text_and_the_errors(capsys, tmp_path):
    assert main(["reach", str(BATTLEFIELD), "r14", "--isolated"]) == 0
    out = capsys.readouterr().out
    assert "could owe the D3 roll (3d6) for wood1" in out
    assert "allowance at least 4.00 steps: 1 (100%)" in out
    assert main(["reach", str(BATTLEFIELD), "nobody", "--isolated"]) == 2
    assert "'nobody' is neither a base nor a corps" in capsys.readouterr().err
    broken = yaml_data(STATE_TEXT)
    broken["sides"]["red"][0]["bases"][1]["x"] = 51  # overlaps r1: MV601
    (tmp_path / "bad.yaml").write_text(yaml_text(broken), encoding="utf-8")
    assert main(["reach", str(tmp_path / "bad.yaml"), "r1", "--isolated"]) == 2
    assert "MV601" in capsys.readouterr().err


def test_reach_in_russian(capsys):
    assert main(["reach", str(BATTLEFIELD), "r1", "--lang", "ru", "--isolated"]) == 0
    out = capsys.readouterr().out
    assert "allowance" not in out and "steps" not in out


# -- the property on a crowded field, with hypothesis ------------------------------------------------------------

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.maneuver.helpers import base, corps, dump, rect_terrain, state  # noqa: E402

CROWDED = state(
    [corps("red-1", base("r1", 50, 50)), corps("red-2", base("r2", 50, 56)), corps("red-3", base("r3", 57, 47))],
    [corps("blue-1", base("b1", 42, 52, 180)), corps("blue-far", base("bfar", 195, 195, 180))],
    terrain=[rect_terrain("pond", "impassable", 53, 52, 56, 58), rect_terrain("ford", "stream", 30, 58, 70, 59),
             rect_terrain("copse", "forest", 58, 40, 64, 45)],
)
CROWDED_TEXT = dump(CROWDED)
PROPERTY = settings(max_examples=12, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _crowded_reach(tmp_path: Path):
    (tmp_path / "state.yaml").write_text(CROWDED_TEXT, encoding="utf-8")
    bf = prepare(read(str(tmp_path / "state.yaml")), Settings()).model
    return bf, base_reach(World(bf, "red"), bf.bases["r1"])


def _crowded_verdict(tmp_path: Path, path: list[tuple[float, float]]) -> list[str]:
    found, _, _ = run_check(tmp_path, CROWDED_TEXT, orders(free("r1", *path)))
    return codes([f for f in found if f.severity.value != "note"])


@PROPERTY
@given(st.floats(0, 1), st.floats(0, 1))
def test_property_certain_ends_are_legal_on_a_crowded_field(tmp_path_factory, u, v):
    tmp_path = tmp_path_factory.mktemp("certain")
    _bf, reach = _crowded_reach(tmp_path)
    minx, miny, maxx, maxy = reach.certain.bounds
    point = (round(minx + u * (maxx - minx), 3), round(miny + v * (maxy - miny), 3))
    assume(reach.certain.buffer(-1e-3).contains(Point(point)))
    found = _crowded_verdict(tmp_path, [point])
    if found:
        found = _crowded_verdict(tmp_path, reach.path_to(point))
    assert found == [], (point, found)


@PROPERTY
@given(st.floats(0, 1), st.floats(0, 1))
def test_property_ends_beyond_the_limit_are_mv101_on_a_crowded_field(tmp_path_factory, u, v):
    tmp_path = tmp_path_factory.mktemp("limit")
    bf, reach = _crowded_reach(tmp_path)
    point = (round(35 + 30 * u, 3), round(35 + 30 * v, 3))
    assume(not reach.limit.buffer(1e-3).contains(Point(point)))
    found = obstacles(bf, bf.bases["r1"], 60)
    path = Geodesic((50, 50), found.area, found.hard + found.enemies, 60).path_to(point)
    assume(path is not None)
    result = _crowded_verdict(tmp_path, path)
    assert "MV101" in result and "MV304" not in result, (point, result)


def test_reach_text_of_a_corps(capsys):
    assert main(["reach", str(BATTLEFIELD), "red-2", "--isolated"]) == 0
    out = capsys.readouterr().out
    assert "  All ahead:\n    1 (100%): r4 (154.00, 20.00), r6 (154.00, 18.00)\n" in out
    assert "    2/3 (67%): r3 (150.00, 17.00), r5 (150.00, 15.00) [r3 plough D1 (1d6) 3..6]" in out
    assert "  Move to landmark shrine:" in out


def _dense(tmp_path, features: int):
    """One base among small terrain features of every kind close around it (issue 37's dense field)."""
    import json
    import math

    kinds = ["forest", "stream", "hill", "ploughed_field", "rice_paddy", "impassable"]
    terrain = []
    for n in range(features):
        a, r = (n + 1) * 2.399963, 4.0 + 6 * (((n + 1) * 0.618034) % 1.0)
        x, y = 30 + r * math.cos(a), 30 + r * math.sin(a)
        terrain.append({"id": f"t{n}", "kind": kinds[n % len(kinds)],
                        "polygon": [[x, y], [x + 1.5, y], [x + 1.5, y + 1.5], [x, y + 1.5]]})
    doc = {"movecheck": 1, "system": "maneuver", "field": {"width": 60, "depth": 60}, "terrain": terrain,
           "sides": {"red": [{"id": "probe", "mobility": 8, "base": [4, 2], "bases": [{"id": "p", "x": 30, "y": 30}]}],
                     "blue": []}}
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_reach_past_its_budget_says_so_and_shows_no_region(tmp_path, monkeypatch, capsys):
    """Issue 37: ``reach`` has a budget (``MOVECHECK_REACH_BUDGET``); running out is one line and exit 2, never
    a smaller region given as the answer.  Within the budget the same field is worked out."""
    from movecheck.cli import main

    path = _dense(tmp_path, 8)
    assert main(["reach", path, "p"]) == 0
    assert "free move of p" in capsys.readouterr().out
    monkeypatch.setenv("MOVECHECK_REACH_BUDGET", "50")
    assert main(["reach", path, "p"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "cannot work out the reach of p" in err and "MOVECHECK_REACH_BUDGET" in err and "limit of 50 steps" in err


@pytest.mark.slow
def test_the_default_budget_answers_the_bench_s_hundred_feature_field(tmp_path, monkeypatch, capsys):
    """Issue 37: the default ``MOVECHECK_REACH_BUDGET`` (2,000,000 steps) answers one base among 100 dense features
    (``bench/reach.py --dense``, about 630,000 steps) and says so, exit 2 and no region, at 200 (about 4.8 million).
    The old default (100,000) refused the 100-feature field although it costs about a second now."""
    import importlib.util

    from movecheck.budget import SEARCHES
    from movecheck.cli import main

    spec = importlib.util.spec_from_file_location("bench_reach", Path(__file__).parents[2] / "bench" / "reach.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, "WORK", tmp_path)
    monkeypatch.delenv("MOVECHECK_REACH_BUDGET", raising=False)
    assert SEARCHES["MOVECHECK_REACH_BUDGET"][1] == 2_000_000
    assert main(["reach", str(bench.write_dense(100)), "p"]) == 0
    assert "free move of p" in capsys.readouterr().out
    assert main(["reach", str(bench.write_dense(200)), "p"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "limit of 2,000,000 steps" in err
