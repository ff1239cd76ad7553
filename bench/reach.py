"""Benchmark rows of ``movecheck reach`` (issue #29): one base on the example battlefield, and growth.

Run alone (``.venv/bin/python bench/reach.py``) or as the ``reach`` section of ``bench/run.py``;
``bench/reach.py --dense`` measures issue 37's dense family (one base among 25 to 200 small features).
Every figure is the median CPU time (``time.process_time``) of the reach computation in this
process, the battlefield read and prepared beforehand.  Growth keeps the density: ``n`` terrain
features and ``n`` bases scattered over a field whose area grows with ``n`` (a bigger battle is
fought on a bigger table), the base measured at its centre.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench" / "work"
sys.path.insert(0, str(ROOT))

EXAMPLE = ROOT / "examples" / "maneuver" / "battlefield.yaml"
TARGET_CPU = 0.5
TARGET_EXPONENT = 1.2


def _prepared(path: Path) -> Any:
    from movecheck.core import prepare
    from movecheck.files import read
    from movecheck.settings import Settings

    return prepare(read(str(path)), Settings()).model


def reach_cpu(path: Path, base_id: str, repeat: int) -> float:
    """Median CPU seconds of one base's reach (regions and odds)."""
    from movecheck.maneuver.reach import base_reach
    from movecheck.maneuver.world import World

    bf = _prepared(path)
    base = bf.bases[base_id]
    times = []
    for _ in range(repeat):
        fresh = bf.copy()
        start = time.process_time()
        base_reach(World(fresh, base.side), fresh.bases[base_id])
        times.append(time.process_time() - start)
    return statistics.median(times)


def write_case(features: int, bases: int) -> Path:
    """A field with ``features`` terrain rectangles and ``bases`` single-base corps scattered at a constant density."""
    side = 30.0 * math.sqrt(max(features, bases, 1))
    kinds = ["forest", "stream", "hill", "ploughed_field", "rice_paddy", "impassable"]
    terrain = []
    for n in range(features):
        x, y = (n * 37.3) % (side - 12) + 2, (n * 53.7 + 11) % (side - 12) + 2
        terrain.append({"id": f"t{n}", "kind": kinds[n % len(kinds)],
                        "polygon": [[x, y], [x + 6, y], [x + 6, y + 4], [x, y + 4]]})
    probe = {"id": "p", "x": side / 2 + 0.5, "y": side / 2 + 0.5}
    red = [{"id": "probe", "mobility": 8, "base": [4, 2], "bases": [probe]}]
    blue = []
    for n in range(bases):
        x, y = (n * 41.9 + 7) % (side - 8) + 4, (n * 29.3 + 3) % (side - 8) + 4
        entry = {"id": f"b{n}", "x": x, "y": y, "facing": 180}
        blue.append({"id": f"c{n}", "mobility": 8, "base": [4, 2], "bases": [entry]})
    doc = {"movecheck": 1, "system": "maneuver", "field": {"width": side, "depth": side}, "terrain": terrain,
           "sides": {"red": red, "blue": blue}}
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / f"reach-{features}-{bases}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _clear_of(path: Path) -> Path:
    """The same field with every base and terrain rectangle that overlaps the probe, or another base, taken out."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    from shapely.geometry import box

    def rect(b: dict[str, Any]) -> Any:
        return box(b["x"] - 2, b["y"] - 1, b["x"] + 2, b["y"] + 1)

    probe = rect(doc["sides"]["red"][0]["bases"][0])
    kept: list[Any] = [probe]
    blue = []
    for corps in doc["sides"]["blue"]:
        r = rect(corps["bases"][0])
        if not any(r.buffer(0.1).intersects(k) for k in kept):
            kept.append(r)
            blue.append(corps)
    doc["sides"]["blue"] = blue
    doc["terrain"] = [t for t in doc.get("terrain", [])
                      if not box(*t["polygon"][0], *t["polygon"][2]).intersects(probe)]
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def bench_reach(repeat: int) -> tuple[list[tuple[str, ...]], list[tuple[str, float, float]]]:
    """The rows of the table and the goals (name, value, target)."""
    rows: list[tuple[str, ...]] = []
    goals: list[tuple[str, float, float]] = []
    one = reach_cpu(EXAMPLE, "r1", repeat)
    rows.append(("examples/maneuver/battlefield.yaml, r1 before the brook", "-", f"{one * 1000:.1f} ms"))
    goals.append(("reach of one base on the example battlefield (CPU s)", one, TARGET_CPU))
    for label, small, large in (("terrain features", (20, 0), (200, 0)), ("bases", (0, 20), (0, 200))):
        t = []
        for features, bases in (small, large):
            t.append(reach_cpu(_clear_of(write_case(features, bases)), "p", repeat))
            rows.append((f"{features} features, {bases} bases", label, f"{t[-1] * 1000:.1f} ms"))
        exponent = math.log(t[1] / t[0]) / math.log(10) if t[0] > 0 and t[1] > 0 else float("nan")
        goals.append((f"reach growth exponent with {label} (x10)", exponent, TARGET_EXPONENT))
    t, kept_counts = [], []
    for count in (4, 40):  # obstacles crowded within the base's reach: the visibility graph grows with them
        path = _clear_of(write_crowded(count))
        kept = len(json.loads(path.read_text(encoding="utf-8"))["sides"]["blue"])
        t.append(reach_cpu(path, "p", repeat))
        kept_counts.append(kept)
        rows.append((f"{kept} enemy bases within reach", "bases within reach", f"{t[-1] * 1000:.1f} ms"))
    exponent = math.log(t[1] / t[0]) / math.log(kept_counts[1] / kept_counts[0])
    rows.append(("(exponent, for information)", "bases within reach", f"{exponent:.2f}"))
    return rows, goals


def write_crowded(count: int) -> Path:
    """A 60 x 60 field: the probe at the centre and ``count`` enemy bases on a ring 6 to 9 steps from it."""
    blue = []
    for n in range(count):
        a = 2 * math.pi * n / count
        r = 6 + 3 * ((n * 7) % count) / count
        blue.append({"id": f"c{n}", "mobility": 8, "base": [1, 0.5],
                     "bases": [{"id": f"b{n}", "x": 30 + r * math.cos(a), "y": 30 + r * math.sin(a), "facing": 180}]})
    doc = {"movecheck": 1, "system": "maneuver", "field": {"width": 60, "depth": 60},
           "sides": {"red": [{"id": "probe", "mobility": 8, "base": [4, 2], "bases": [{"id": "p", "x": 30, "y": 30}]}],
                     "blue": blue}}
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / f"reach-crowded-{count}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def write_dense(features: int) -> Path:
    """Issue 37's dense field: one base (mobility 8) among ``features`` small terrain features (1.5 x 1.5, of every
    kind, scattered deterministically within 12 steps of it, none on it): most of them owe a roll within its reach."""
    kinds = ["forest", "stream", "hill", "ploughed_field", "rice_paddy", "impassable"]
    terrain = []
    n = k = 0
    while n < features:
        k += 1
        a, r = k * 2.399963, 3.5 + 8.5 * ((k * 0.618034) % 1.0)
        x, y = 30 + r * math.cos(a), 30 + r * math.sin(a)
        if abs(x - 30) < 3.5 and abs(y - 30) < 2.5:
            continue
        terrain.append({"id": f"t{n}", "kind": kinds[n % len(kinds)],
                        "polygon": [[x, y], [x + 1.5, y], [x + 1.5, y + 1.5], [x, y + 1.5]]})
        n += 1
    doc = {"movecheck": 1, "system": "maneuver", "field": {"width": 60, "depth": 60}, "terrain": terrain,
           "sides": {"red": [{"id": "probe", "mobility": 8, "base": [4, 2], "bases": [{"id": "p", "x": 30, "y": 30}]}],
                     "blue": []}}
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / f"reach-dense-{features}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def dense_cpu(features: int, repeat: int) -> tuple[float, int]:
    """Median CPU seconds of the reach of the probe among ``features`` dense features, and the steps it charges to
    ``MOVECHECK_REACH_BUDGET`` (run with no budget: the figure is the whole computation's)."""
    import os

    from movecheck.budget import Meter

    os.environ["MOVECHECK_REACH_BUDGET"] = str(10**11)
    before = Meter.spend
    charged = [0]

    def spend(meter: Meter, amount: int = 1) -> None:
        charged[0] += amount
        before(meter, amount)

    Meter.spend = spend  # type: ignore[method-assign]
    try:
        cpu = reach_cpu(write_dense(features), "p", repeat)
    finally:
        Meter.spend = before  # type: ignore[method-assign]
    return cpu, charged[0] // repeat


DENSE_TARGET = 1.0
"""Issue 37: one base among 100 dense features under 1 s CPU."""


def bench_dense(repeat: int, sizes: tuple[int, ...] = (25, 50, 100, 200)) -> list[tuple[str, ...]]:
    """Issue 37's dense family: rows (features, CPU, steps, growth exponent from the previous size)."""
    rows: list[tuple[str, ...]] = []
    last: tuple[int, float] | None = None
    for n in sizes:
        cpu, steps = dense_cpu(n, repeat)
        growth = f"{math.log(cpu / last[1]) / math.log(n / last[0]):.2f}" if last and last[1] > 0 else "-"
        rows.append((str(n), f"{cpu:.3f} s", f"{steps:,}", growth))
        last = (n, cpu)
    return rows


def main() -> int:
    if "--dense" in sys.argv[1:]:  # issue 37's dense family, 3 runs each (minutes: not part of bench/run.py)
        for row in bench_dense(3):
            print(" | ".join(row))
        return 0
    rows, goals = bench_reach(5)
    for row in rows:
        print(" | ".join(row))
    for name, value, target in goals:
        print(f"{name}: {value:.3f} (target ≤ {target}) {'pass' if value <= target else 'FAIL'}")
    return 0 if all(v <= t for _n, v, t in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
