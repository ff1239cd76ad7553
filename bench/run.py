"""movecheck's benchmark: start-up, batch lint, and growth with the size of a game.

Run from the repository root, after the README's install::

    .venv/bin/python bench/run.py [--repeat 5] [--quick] [--timeout 120]
        [--only startup,batch,aa,choice,maneuver,worst,server,reach,search,render]

Every figure is a median over repeated runs, printed next to the figure it is
compared with in the same run (these machines are noisy: ratios measured side
by side hold, absolute times drift); the worst cases (hostile inputs) are CPU times,
each stopped after ``--timeout`` seconds.  Synthetic inputs are written under
``bench/work/`` (ignored by git).  ``check-jsonschema`` is installed into the
running environment when it is missing, for the start-up comparison.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench" / "work"
BIN = Path(sys.executable).parent
EXAMPLE_ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
EXAMPLE_STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"
EXAMPLE_PURCHASE = ROOT / "examples" / "aa" / "orders" / "g1-purchase.yaml"
EXAMPLE_MOBILIZE = ROOT / "examples" / "aa" / "orders" / "g1-mobilize.yaml"


# -- measuring -----------------------------------------------------------------


def timed_run(cmd: list[str], cwd: Path = ROOT) -> tuple[float, int, int]:
    """Wall time, exit code and peak RSS (KiB) of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode not in (0, 1):
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return elapsed, proc.returncode, max(peak, before)


def median_of(repeat: int, action: Callable[[], float]) -> float:
    return statistics.median(action() for _ in range(repeat))


def median_run(cmd: list[str], repeat: int, cwd: Path = ROOT) -> float:
    return median_of(repeat, lambda: timed_run(cmd, cwd)[0])


def peak_rss_mib(cmd: list[str]) -> float:
    """Peak resident memory of a command, measured with /usr/bin/time-like getrusage in a child."""
    probe = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True, cwd=ROOT)
    return int(out.stdout.strip() or 0) / 1024


def table(title: str, rows: list[tuple[str, ...]], header: tuple[str, ...]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(f"\n## {title}\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("| " + " | ".join("-" * w for w in widths) + " |")
    for row in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)) + " |")


@dataclass
class Goal:
    """One goal of the performance issue: a measured ``value`` against its ``target``.

    ``kind``: ``ratio`` (× a reference run side by side), ``exponent`` (log(t(10n)/t(n))/log 10
    on CPU medians), ``s`` (CPU or wall seconds), ``MiB``, ``count``; a goal passes when the
    value is at most the target.
    """

    name: str
    value: float
    target: float
    kind: str

    @property
    def passed(self) -> bool:
        return self.value <= self.target

    def shown(self, number: float) -> str:
        if self.kind == "count":
            return f"{number:.0f}"
        if self.kind == "MiB":
            return f"{number:.0f} MiB"
        if self.kind == "s":
            return f"{number:.2f} s"
        if self.kind == "ratio":
            return f"{number:.2f}×"
        return f"{number:.2f}"


GOALS: list[Goal] = []


def goal(name: str, value: float, target: float, kind: str) -> None:
    """Add a goal to the table printed at the end."""
    GOALS.append(Goal(name, value, target, kind))


def cpu_exponent(small: float, large: float) -> float:
    """The growth exponent of a ×10 step: log(t(10n)/t(n)) / log 10."""
    return math.log(large / small) / math.log(10) if small > 0 and large > 0 else float("nan")


def print_goals() -> None:
    rows = [(g.name, g.shown(g.value), ("≤ " if g.kind != "count" or g.target else "= ") + g.shown(g.target),
             "pass" if g.passed else "FAIL") for g in GOALS]
    if rows:
        table("Goals of issue #19", rows, ("goal", "value", "target", "mark"))
        print(f"\n{sum(g.passed for g in GOALS)} of {len(GOALS)} goals met.")


def movecheck_cmd(*args: str) -> list[str]:
    script = BIN / "movecheck"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "movecheck", *args]


# -- 1. start-up ------------------------------------------------------------------


def ensure_check_jsonschema() -> str:
    script = BIN / "check-jsonschema"
    if not script.exists():
        print("installing check-jsonschema into this environment for the comparison ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "check-jsonschema"], check=True)
    return str(script)


BASELINE = "35caa3a"
"""The commit before the start-up work of issue #19: "today's time" of the big-map goal."""


def compiled(folder: Path) -> None:
    """Byte-compile a package's modules, as installing a wheel does (with PYTHONDONTWRITEBYTECODE set,
    every run would otherwise compile them again)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder)], check=True, stdout=subprocess.DEVNULL)


def baseline_checkout(rev: str = BASELINE) -> Path | None:
    """The movecheck package of commit ``rev``, unpacked under bench/work (None without git history)."""
    folder = WORK / f"baseline-{rev}"
    if not (folder / "movecheck").is_dir():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", rev, "movecheck", "schemas"], cwd=ROOT, capture_output=True)
        if archive.returncode != 0:
            return None
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    compiled(folder / "movecheck")
    return folder


def paired_cpu(
    commands: dict[str, list[str]], rounds: int, env: dict[str, dict[str, str]] | None = None
) -> dict[str, float]:
    """Median CPU time (user + system) of each command, run in turn round after round (interleaved,
    so that a busy machine weighs on every command alike)."""
    spent: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, cmd in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, **(env or {}).get(name, {})})
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
            spent[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {name: statistics.median(times) for name, times in spent.items()}


def bench_startup(repeat: int) -> list[str]:
    """Start-up goals of issue #19 (CPU medians of interleaved runs), and the 100k-space map against the baseline."""
    checker = ensure_check_jsonschema()
    compiled(ROOT / "movecheck")
    schemas = ROOT / "schemas"
    state_schema, orders_schema = str(schemas / "aa-state.schema.json"), str(schemas / "aa-orders.schema.json")
    rounds = max(5, 2 * repeat)
    cpu = paired_cpu({
        "check": movecheck_cmd("check", str(EXAMPLE_ORDERS)),
        "purchase": movecheck_cmd("check", str(EXAMPLE_PURCHASE)),
        "check mobilize": movecheck_cmd("check", str(EXAMPLE_MOBILIZE)),
        "cj state": [checker, "--schemafile", state_schema, str(EXAMPLE_STATE)],
        "cj orders": [checker, "--schemafile", orders_schema, str(EXAMPLE_ORDERS)],
        "lint": movecheck_cmd("lint", str(EXAMPLE_STATE)),
        "version": movecheck_cmd("--version"),
        "help": movecheck_cmd("--help"),
        "yaml": [sys.executable, "-c", "import yaml"],
    }, rounds)
    pair = cpu["cj state"] + cpu["cj orders"]
    goals = [
        ("movecheck check (example turn, full rules)", cpu["check"], "check-jsonschema, state + orders", pair, 0.25),
        ("movecheck lint (the example's state)", cpu["lint"], "check-jsonschema, the state", cpu["cj state"], 0.3),
        (
            "movecheck check (the example purchase)",
            cpu["purchase"],
            "movecheck check (example turn)",
            cpu["check"],
            1.0,
        ),
        (
            "movecheck check (a mobilization file)",
            cpu["check mobilize"],
            "movecheck check (example turn)",
            cpu["check"],
            1.0,
        ),
        ("movecheck --version", cpu["version"], 'python -c "import yaml"', cpu["yaml"], 2.0),
        ("movecheck --help", cpu["help"], 'python -c "import yaml"', cpu["yaml"], 2.0),
    ]
    rows = [
        (
            ours,
            f"{a * 1000:.0f} ms",
            ref,
            f"{b * 1000:.0f} ms",
            f"{a / b:.2f}",
            f"≤ {target:g}",
            "pass" if a / b <= target else "FAIL",
        )
        for ours, a, ref, b, target in goals
    ]
    table(f"1. Start-up (median CPU time of {rounds} interleaved runs)", rows,
          ("command", "CPU", "reference", "CPU", "ratio", "target", ""))
    for ours, a, ref, b, target in goals:
        goal(f"start-up: {ours}, × {ref}", a / b, target, "ratio")
    return bench_big_map(max(1, repeat // 2))


def bench_big_map(rounds: int) -> list[str]:
    """``check`` on a 100,000-space JSON map (10,000 moves) against the same at the baseline commit."""
    orders = write_scale_case(100000, 10000)
    baseline = baseline_checkout()
    if baseline is None:
        return [f"big map: baseline {BASELINE} not available (no git history): not measured"]
    # the baseline's cli.main, found first on the path (-P: not the current folder's movecheck)
    old = [
        sys.executable,
        "-P",
        "-c",
        "import sys; from movecheck.cli import main; sys.exit(main())",
        "check",
        str(orders),
    ]
    cpu = paired_cpu({"now": movecheck_cmd("check", str(orders)), "baseline": old}, rounds,
                     env={"baseline": {"PYTHONPATH": str(baseline)}})
    ratio = cpu["now"] / cpu["baseline"]
    rows = [
        (
            "100,000 spaces, 10,000 moves (JSON)",
            f"{cpu['now']:.2f} s",
            f"{cpu['baseline']:.2f} s",
            f"{ratio:.2f}",
            "≤ 0.3",
            "pass" if ratio <= 0.3 else "FAIL",
        )
    ]
    table(f"1b. Big map (median CPU time of {rounds} interleaved runs)", rows,
          ("check", "CPU now", f"CPU at {BASELINE}", "ratio", "target", ""))
    goal(f"big map: 100k-space check now, × at {BASELINE}", ratio, 0.3, "ratio")
    return []


# -- 2. lint batch ----------------------------------------------------------------


def bench_batch(repeat: int, count: int = 200) -> list[str]:
    folder = WORK / "batch"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    text = EXAMPLE_STATE.read_text(encoding="utf-8")
    files = []
    for n in range(count):
        path = folder / f"scenario-{n:03d}.yaml"
        path.write_text(text.replace("round: 1", f"round: {n % 9 + 1}"), encoding="utf-8")
        files.append(str(path))
    one_call = median_run(movecheck_cmd("lint", *files), repeat)
    singles = median_of(max(1, repeat // 2), lambda: sum(timed_run(movecheck_cmd("lint", f))[0] for f in files))
    rows = [
        (
            f"{count} files, one call",
            f"{one_call:.2f} s",
            f"{one_call / count * 1000:.1f} ms",
            f"{one_call / singles:.3f}",
        ),
        (f"{count} single calls", f"{singles:.2f} s", f"{singles / count * 1000:.1f} ms", "1.000"),
    ]
    table("2. Lint batch (aa scenario files)", rows, ("run", "total", "per file", "× single calls"))
    return [f"batch ratio one call/single calls = {one_call / singles:.3f} (target ≤ 0.2)"]


# -- 3. aa scale ------------------------------------------------------------------


def grid_map(spaces: int) -> dict[str, Any]:
    """A square grid of land territories; the west half German, the east half Russian."""
    side = max(2, round(spaces ** 0.5))
    names = [[f"T{r}-{c}" for c in range(side)] for r in range(side)]
    territories = [{"name": n} for row in names for n in row]
    connections = []
    for r in range(side):
        for c in range(side):
            if c + 1 < side:
                connections.append([names[r][c], names[r][c + 1]])
            if r + 1 < side:
                connections.append([names[r][c], names[r + 1][c]])
    control = {names[r][c]: ("Germans" if c < side // 2 else "Russians") for r in range(side) for c in range(side)}
    return {
        "movecheck": 1, "system": "aa", "kind": "map", "name": f"grid-{spaces}",
        "powers": ["Germans", "Russians"], "sides": {"Axis": ["Germans"], "Allies": ["Russians"]},
        "territories": territories, "connections": connections, "control": control,
    }, names, side


def write_scale_case(spaces: int, moves: int) -> Path:
    """A grid map, a state with infantry along the front, and ``moves`` attacks across it."""
    folder = WORK / f"aa-{spaces}-{moves}"
    folder.mkdir(parents=True, exist_ok=True)
    game_map, names, side = grid_map(spaces)
    (folder / "map.json").write_text(json.dumps(game_map), encoding="utf-8")
    front = side // 2 - 1
    units, orders = [], []
    for n in range(moves):
        row = n % side
        units.append({"at": names[row][front], "power": "Germans", "type": "infantry"})
        orders.append({"units": {"infantry": 1}, "path": [names[row][front], names[row][front + 1]]})
    for row in range(side):
        units.append({"at": names[row][front + 1], "power": "Russians", "type": "infantry"})
    merged: dict[tuple[str, str], int] = {}
    for u in units:
        merged[(u["at"], u["power"])] = merged.get((u["at"], u["power"]), 0) + 1
    state = {
        "movecheck": 1, "system": "aa", "map": "map.json",
        "turn": {"round": 1, "power": "Germans", "phase": "combat_move"},
        "units": [{"at": at, "power": p, "type": "infantry", "count": c} for (at, p), c in sorted(merged.items())],
    }
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    order_doc = {
        "movecheck": 1,
        "system": "aa",
        "state": "state.json",
        "power": "Germans",
        "phase": "combat_move",
        "moves": orders,
    }
    (folder / "orders.json").write_text(json.dumps(order_doc), encoding="utf-8")
    return folder / "orders.json"


def write_landing_case(carriers: int = 20, fighters: int = 60, idle: int = 0) -> Path:
    """60 fighters attack a destroyer 3 spaces out (1 movement left); 20 carriers that have not moved are their
    only landing.

    Each carrier can reach several zones next to the battle, so the solver has to place
    carriers and match fighters to slots at once; 20 carriers hold 40 of the 60 fighters.
    """
    folder = WORK / f"aa-landing-{fighters}-{carriers}-{idle}"
    folder.mkdir(parents=True, exist_ok=True)
    width = 12
    zones = [[f"{r * width + c + 1} Sea Zone" for c in range(width)] for r in range(width)]
    territories = [{"name": z, "sea": True} for row in zones for z in row] + [{"name": "Homeland"}]
    connections = []
    for r in range(width):
        for c in range(width):
            if c + 1 < width:
                connections.append([zones[r][c], zones[r][c + 1]])
            if r + 1 < width:
                connections.append([zones[r][c], zones[r + 1][c]])
    connections.append(["Homeland", zones[0][0]])
    game_map = {
        "name": "landing",
        "powers": ["Americans", "Japanese"],
        "sides": {"Allies": ["Americans"], "Axis": ["Japanese"]},
        "territories": territories,
        "connections": connections,
        "control": {"Homeland": "Americans"},
    }
    battle = zones[0][2]
    units = [{"at": battle, "power": "Japanese", "type": "destroyer"},
             {"at": "Homeland", "power": "Americans", "type": "fighter", "count": fighters}]
    near = [(r, c) for r in (1, 2, 3) for c in range(6)] + [(0, 4), (0, 5), (4, 2), (4, 3)]
    for n in range(carriers):
        r, c = near[n % len(near)]
        units.append({"at": zones[r][c], "power": "Americans", "type": "carrier", "id": f"CV{n + 1}"})
    for n in range(idle):  # out of every fighter's reach: the search must rule them out, not try them
        units.append(
            {"at": zones[8 + n % 4][(n // 4) % width], "power": "Americans", "type": "carrier", "id": f"CV-idle{n + 1}"}
        )
    state = {"movecheck": 1, "system": "aa", "map": game_map,
             "turn": {"round": 3, "power": "Americans", "phase": "combat_move"}, "units": units}
    orders = [{"id": f"strike-{n + 1}", "units": {"fighter": 1}, "path": ["Homeland", zones[0][0], zones[0][1], battle]}
              for n in range(fighters)]
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    order_doc = {
        "movecheck": 1,
        "system": "aa",
        "state": "state.json",
        "power": "Americans",
        "phase": "combat_move",
        "moves": orders,
    }
    (folder / "orders.json").write_text(json.dumps(order_doc), encoding="utf-8")
    return folder / "orders.json"


def bench_aa(repeat: int, quick: bool) -> list[str]:
    cases = [(1000, 100), (1000, 1000), (10000, 1000), (10000, 10000)]
    if not quick:
        cases += [(100000, 10000)]
    times: dict[tuple[int, int], float] = {}
    rows = []
    for spaces, moves in cases:
        orders = write_scale_case(spaces, moves)
        cmd = movecheck_cmd("check", str(orders))
        times[(spaces, moves)] = median_run(cmd, max(1, repeat // 2))
        rows.append((f"{spaces:,}", f"{moves:,}", f"{times[(spaces, moves)]:.2f} s", f"{peak_rss_mib(cmd):.0f} MiB"))
    landing = write_landing_case()
    landing_time = median_run(movecheck_cmd("check", str(landing)), repeat)
    base_time = median_run(movecheck_cmd("--version"), repeat)
    rows.append(
        (
            "landing: 20 carriers, 60 fighters",
            "60",
            f"{landing_time:.2f} s",
            f"{peak_rss_mib(movecheck_cmd('check', str(landing))):.0f} MiB",
        )
    )
    table("3. aa scale (median wall time, peak memory)", rows, ("spaces", "moves", "time", "peak RSS"))
    growth_moves = times[(1000, 1000)] / times[(1000, 100)]
    growth_moves_big = times[(10000, 10000)] / times[(10000, 1000)]
    growth_spaces = times[(10000, 1000)] / times[(1000, 1000)]
    notes = [
        f"aa growth ×10 moves (1k map, 100→1k) = {growth_moves:.1f}×; "
        f"(10k map, 1k→10k) = {growth_moves_big:.1f}× (target ≤ 12)",
        f"aa growth ×10 spaces (1k→10k, 1k moves) = {growth_spaces:.1f}× (target ≤ 12)",
        f"10k moves on 10k spaces = {times[(10000, 10000)]:.2f} s (target < 10 s)",
        f"landing check = {landing_time:.2f} s, of which start-up {base_time:.2f} s (target < 1 s)",
    ]
    if (100000, 10000) in times:
        notes.append(
            f"aa growth ×10 spaces (10k→100k, 10k moves) = {times[(100000, 10000)] / times[(10000, 10000)]:.1f}×"
        )
    return notes


def write_choice_case(split: bool, transports: int = 20, infantry: int = 20, tanks: int = 20) -> Path:
    """20 transports in 5 Sea Zone, 40 land units in Germany boarding them: in one order (the greedy
    packing is legal) or infantry first and tanks after (the greedy packing fills transports with
    infantry, the search finds 1 infantry + 1 tank on each)."""
    folder = WORK / f"aa-choice-{'split' if split else 'one'}"
    folder.mkdir(parents=True, exist_ok=True)
    units = [{"at": "Germany", "power": "Germans", "type": "infantry", "count": infantry},
             {"at": "Germany", "power": "Germans", "type": "tank", "count": tanks}]
    units += [{"at": "5 Sea Zone", "power": "Germans", "type": "transport"} for _ in range(transports)]
    state = {"movecheck": 1, "system": "aa", "map": "aa1942-2e",
             "turn": {"round": 2, "power": "Germans", "phase": "noncombat_move"}, "units": units}
    if split:
        moves = [{"units": {"infantry": infantry}, "path": ["Germany", "5 Sea Zone"]},
                 {"units": {"tank": tanks}, "path": ["Germany", "5 Sea Zone"]}]
    else:
        moves = [{"units": {"infantry": infantry, "tank": tanks}, "path": ["Germany", "5 Sea Zone"]}]
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    order_doc = {
        "movecheck": 1,
        "system": "aa",
        "state": "state.json",
        "power": "Germans",
        "phase": "noncombat_move",
        "moves": moves,
    }
    (folder / "orders.json").write_text(json.dumps(order_doc), encoding="utf-8")
    return folder / "orders.json"


def search_figures(orders: Path) -> tuple[int, int, int]:
    """Errors, runs of the phase and steps of the choice search for one orders file (in process)."""
    code = (
        "import json, sys; import movecheck.aa.engine as e; from movecheck.core import Settings, check;"
        "runs = [0]; spent = [0]; once = e._run_once\n"
        "def counted(doc, board, name, chooser):\n"
        "    runs[0] += 1\n"
        "    result = once(doc, board, name, chooser)\n"
        "    spent[0] = max(spent[0], chooser.meter.spent if chooser.meter else 0)\n"
        "    return result\n"
        "e._run_once = counted; report, _ = check([sys.argv[1]], Settings());"
        "errors = report.count(__import__('movecheck.findings', fromlist=['Severity']).Severity.ERROR);"
        "print(json.dumps([errors, runs[0], spent[0]]))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(orders)], capture_output=True, text=True, cwd=ROOT)
    errors, runs, steps = json.loads(out.stdout)
    return errors, runs, steps


def bench_choice(repeat: int) -> list[str]:
    """The cost of choosing units: the example turns, and 20 transports loading 40 land units."""
    cases = [
        (rel, ROOT / "examples" / "aa" / "orders" / rel)
        for rel in ("g1-combat.yaml", "g1-noncombat.yaml", "us1-noncombat.yaml", "g2-noncombat.yaml")
    ]
    cases += [("20 transports, 40 land units, one order", write_choice_case(False)),
              ("20 transports, 40 land units, infantry then tanks", write_choice_case(True))]
    rows = []
    times = {}
    for name, orders in cases:
        times[name] = median_run(movecheck_cmd("check", str(orders)), repeat)
        errors, runs, steps = search_figures(orders)
        rows.append((name, f"{times[name]:.2f} s", str(errors), str(runs), f"{steps:,}"))
    base = median_run(movecheck_cmd("--version"), repeat)
    table("3b. Choosing units (median wall time; runs of the phase; search steps)", rows,
          ("orders", "time", "errors", "runs", "search steps"))
    one, split = times[cases[-2][0]], times[cases[-1][0]]
    return [
        f"choice search, 20 transports / 40 land units: {split:.2f} s with the search vs {one:.2f} s greedy-legal "
        f"(start-up {base:.2f} s); the example turns need no search",
    ]


# -- 4. maneuver scale ------------------------------------------------------------------


def write_maneuver_case(bases: int, polygons: int) -> Path:
    """A wide field with corps of 4 bases in lines, scattered terrain, one all-ahead order per corps."""
    folder = WORK / f"mv-{bases}-{polygons}"
    folder.mkdir(parents=True, exist_ok=True)
    corps_count = max(1, bases // 4)
    width = 40.0 * (corps_count ** 0.5 + 2)
    depth = width
    kinds = ["forest", "stream", "hill", "ploughed_field", "rice_paddy", "impassable"]
    terrain = []
    for n in range(polygons):
        x = (n * 37.3) % (width - 20) + 5
        y = (n * 53.7) % (depth - 20) + 5
        terrain.append(
            {"id": f"t{n}", "kind": kinds[n % len(kinds)], "polygon": [[x, y], [x + 6, y], [x + 6, y + 4], [x, y + 4]]}
        )
    sides: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    orders = []
    per_row = max(1, int(corps_count ** 0.5))
    for n in range(corps_count):
        side = "red" if n % 2 == 0 else "blue"
        gx, gy = n % per_row, n // per_row
        x0, y0 = 20 + gx * 36.0, 20 + gy * 30.0
        facing = 0 if side == "red" else 180
        corps_bases = [{"id": f"b{n}-{k}", "x": x0 + 4 * k, "y": y0, "facing": facing} for k in range(4)]
        sides[side].append({"id": f"c{n}", "mobility": 8, "base": [4, 2], "bases": corps_bases})
        if side == "red":
            orders.append(
                {
                    "corps": f"c{n}",
                    "order": "all_ahead",
                    "end": {b["id"]: {"x": b["x"], "y": b["y"] + 1} for b in corps_bases},
                }
            )
    state = {
        "movecheck": 1,
        "system": "maneuver",
        "field": {"width": width, "depth": depth},
        "terrain": terrain,
        "sides": sides,
    }
    (folder / "battlefield.json").write_text(json.dumps(state), encoding="utf-8")
    order_doc = {"movecheck": 1, "system": "maneuver", "state": "battlefield.json", "side": "red", "orders": orders}
    (folder / "orders.json").write_text(json.dumps(order_doc), encoding="utf-8")
    return folder / "orders.json"


def bench_maneuver(repeat: int, quick: bool) -> list[str]:
    cases = [(100, 50), (1000, 200)] + ([] if quick else [(5000, 500)])
    rows, times = [], {}
    for bases, polygons in cases:
        orders = write_maneuver_case(bases, polygons)
        cmd = movecheck_cmd("check", str(orders))
        times[bases] = median_run(cmd, max(1, repeat // 2))
        rows.append((f"{bases:,}", f"{polygons}", f"{times[bases]:.2f} s", f"{peak_rss_mib(cmd):.0f} MiB"))
    table(
        "4. maneuver scale (one all-ahead order per red corps)", rows, ("bases", "terrain polygons", "time", "peak RSS")
    )
    return [
        f"maneuver 1,000 bases / 200 polygons = {times[1000]:.2f} s (target < 5 s)",
        f"maneuver growth 100→1,000 bases = {times[1000] / times[100]:.1f}× (target ≤ 15)",
    ]


# -- 6. growth: every generator over ×10 (CPU medians) ---------------------------------------


def write_games(count: int) -> list[str]:
    """``count`` referee's games, each a folder with the example state (its round varied) and the orders naming it."""
    folder = WORK / f"games-{count}"
    shutil.rmtree(folder, ignore_errors=True)
    state = EXAMPLE_STATE.read_text(encoding="utf-8")
    orders = EXAMPLE_ORDERS.read_text(encoding="utf-8").replace("state: ../states/g1-combat.yaml", "state: state.yaml")
    paths = []
    for n in range(count):
        game = folder / f"game-{n:04d}"
        game.mkdir(parents=True)
        (game / "state.yaml").write_text(state.replace("round: 1", f"round: {n % 9 + 1}"), encoding="utf-8")
        (game / "orders.yaml").write_text(orders, encoding="utf-8")
        paths.append(str(game / "orders.yaml"))
    return paths


def growth_cases(quick: bool) -> list[tuple[str, int, Callable[[int], list[str]]]]:
    """(what grows, n, the movecheck arguments for a size): each is run at n and 10 n."""
    stacks = WORK / "stacks"
    stacks.mkdir(parents=True, exist_ok=True)

    def stack(moves: int) -> list[str]:
        folder = stacks / str(moves)
        folder.mkdir(parents=True, exist_ok=True)
        return write_big_aa_orders(folder, moves)[1]

    return [
        ("aa moves (1,000-space map)", 2000, lambda n: ["check", str(write_scale_case(1000, n))]),
        ("aa spaces (1,000 moves)", 1000, lambda n: ["check", str(write_scale_case(n, 1000))]),
        ("aa stack: N moves of one unit out of N-unit stacks", 1600, stack),
        ("maneuver bases (one order per red corps, bases/10 polygons)", 1000,
         lambda n: ["check", str(write_maneuver_case(n, n // 10))]),
        ("files: check of N games in one call", 30 if quick else 100, lambda n: ["check", *write_games(n)]),
    ]


def bench_growth(repeat: int, quick: bool, timeout: float) -> list[str]:
    """Each generator at n and 10 n, CPU medians of the whole run, interleaved; the exponent of the step."""
    rows = []
    empty = WORK / "empty-orders.yaml"
    empty.write_text(
        f"movecheck: 1\nsystem: aa\nstate: {EXAMPLE_STATE}\npower: Germans\nphase: combat_move\nmoves: []\n",
        encoding="utf-8",
    )
    start_up = statistics.median(cpu_run(movecheck_cmd("check", str(empty)), timeout)[0] or 0.0 for _ in range(3))
    for label, n, args_for in growth_cases(quick):
        small_args, large_args = args_for(n), args_for(10 * n)
        small, large = [], []
        for _ in range(max(1, repeat // 2)):  # interleaved: a busy spell hits both sizes alike
            small.append(cpu_run(movecheck_cmd(*small_args), 10 * timeout)[0] or float("nan"))
            large.append(cpu_run(movecheck_cmd(*large_args), 10 * timeout)[0] or float("nan"))
        t_small, t_large = statistics.median(small), statistics.median(large)
        power = cpu_exponent(t_small, t_large)
        work = cpu_exponent(t_small - start_up, t_large - start_up)
        rows.append(
            (label, f"{n:,} → {10 * n:,}", f"{t_small:.2f} s", f"{t_large:.2f} s", f"{power:.2f}", f"{work:.2f}")
        )
        goal(f"growth exponent: {label}, {n:,} → {10 * n:,}", power, 1.15, "exponent")
    table("6. Growth over ×10 (median CPU time of the whole run)", rows,
          ("what grows", "n", "CPU at n", "CPU at 10 n", "exponent", "less start-up"))
    return [f"growth: 'less start-up' takes off {start_up:.2f} s, the CPU time of checking an empty aa orders file"]


# -- 7. landing (AA207 search) ---------------------------------------------------------------


def landing_expected(fighters: int, carriers: int) -> int:
    """The exact number of fighters of :func:`write_landing_case` that cannot land (AA207).

    The fighters are alike and end in the battle zone with one move left; each carrier
    holds two; a carrier helps when it can reach, within its 2 moves and not through the
    battle zone, a zone next to the battle (the idle carriers never can).
    """
    width = 12
    battle = (0, 2)
    near = [(r, c) for r in (1, 2, 3) for c in range(6)] + [(0, 4), (0, 5), (4, 2), (4, 3)]
    landing = {(0, 1), (0, 3), (1, 2), battle}

    def helps(start: tuple[int, int]) -> bool:
        seen, frontier = {start}, [start]
        for _ in range(2):
            step = []
            for r, c in frontier:
                for zone in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= zone[0] < width and 0 <= zone[1] < width and zone not in seen:
                        seen.add(zone)
                        if zone != battle:
                            step.append(zone)
            frontier = step
        return bool(seen & landing)

    useful = sum(helps(near[n % len(near)]) for n in range(carriers))
    return max(0, fighters - 2 * useful)


def findings_of(cmd: list[str]) -> tuple[float, int, dict[str, int]]:
    """CPU time, exit code and findings per code of one JSON run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([*cmd, "--format", "json"], cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    counts: dict[str, int] = {}
    try:
        for finding in json.loads(proc.stdout)["findings"]:
            counts[finding["code"]] = counts.get(finding["code"], 0) + 1
    except (ValueError, KeyError):
        counts["crash"] = 1
    return spent, proc.returncode, counts


def bench_landing(repeat: int) -> list[str]:
    """The landing search on realistic and larger turns: CPU time, and AA207 against the exact count."""
    cases = [(60, 30, 0, "realistic"), (100, 40, 0, "larger"), (200, 80, 0, "larger"), (60, 20, 1000, "idle carriers")]
    rows = []
    for fighters, carriers, idle, kind in cases:
        orders = write_landing_case(carriers, fighters, idle)
        runs = [findings_of(movecheck_cmd("check", str(orders))) for _ in range(max(1, repeat // 2))]
        spent = statistics.median(r[0] for r in runs)
        code, counts = runs[-1][1], runs[-1][2]
        expected = landing_expected(fighters, carriers)
        found, unchecked = counts.get("AA207", 0), counts.get("MC012", 0)
        name = f"{fighters} fighters, {carriers} carriers" + (f", {idle:,} idle carriers" if idle else "")
        rows.append((name, f"{spent:.2f} s", str(code), str(found), str(expected), str(unchecked)))
        goal(f"landing {name}: CPU of the whole check", spent, 1.0 if kind == "realistic" else 5.0, "s")
        goal(f"landing {name}: false AA207", max(0, found - expected), 0, "count")
        if kind == "realistic":
            goal(f"landing {name}: AA207 missed or unchecked", max(0, expected - found) + unchecked, 0, "count")
    table("7. Landing search (median CPU time of the whole run)", rows,
          ("turn", "CPU", "exit", "AA207", "exact AA207", "MC012 (unchecked)"))
    return []


# -- 8. a referee's batch --------------------------------------------------------------------


def bench_games(repeat: int, quick: bool, count: int = 1000) -> list[str]:
    """``count`` games in one call: peak memory, and --jobs 2 against one process (wall time, same bytes)."""
    count = 200 if quick else count
    paths = write_games(count)
    one = movecheck_cmd("check", "--format", "json", *paths)
    two = movecheck_cmd("check", "--jobs", "2", "--format", "json", *paths)
    peak = peak_rss_mib(movecheck_cmd("check", *paths))  # the default (text) report
    peak_json = peak_rss_mib(one)
    walls: dict[str, list[float]] = {"1": [], "2": []}
    for _ in range(max(1, repeat // 4)):
        walls["1"].append(timed_run(one)[0])
        walls["2"].append(timed_run(two)[0])
    single, double = statistics.median(walls["1"]), statistics.median(walls["2"])
    same = (
        subprocess.run(one, cwd=ROOT, capture_output=True).stdout
        == subprocess.run(two, cwd=ROOT, capture_output=True).stdout
    )
    rows = [
        (
            f"{count:,} games, one process",
            f"{single:.2f} s",
            f"{peak:.0f} MiB (JSON report: {peak_json:.0f} MiB)",
            "1.00",
        ),
        (f"{count:,} games, --jobs 2", f"{double:.2f} s", "-", f"{double / single:.2f}"),
    ]
    table(f"8. A referee's batch (median wall time; {os.cpu_count()} cores shared with other work)", rows,
          ("run", "wall", "peak RSS", "× one process"))
    goal(f"batch: peak RSS of {count:,} games in one call (text report)", peak, 100.0, "MiB")
    goal(f"batch: --jobs 2 wall time × one process ({count:,} games)", double / single, 0.75, "ratio")
    goal("batch: --jobs 2 output differs from one process (files)", 0 if same else 1, 0, "count")
    return []


# -- 5. worst cases ------------------------------------------------------------------


def cpu_run(cmd: list[str], timeout: float) -> tuple[float | None, int | None]:
    """CPU time (user + system, seconds) and exit code of one subprocess; (None, None) on timeout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.returncode


def median_cpu(cmd: list[str], repeat: int, timeout: float) -> tuple[float | None, int | None]:
    """Median CPU time over ``repeat`` runs; a timeout ends the series (and is the result)."""
    times, code = [], None
    for _ in range(repeat):
        spent, code = cpu_run(cmd, timeout)
        if spent is None:
            return None, None
        times.append(spent)
    return statistics.median(times), code


def anchor_heavy(head: list[str], anchors: int = 500, width: int = 1000, copies: int = 1000) -> str:
    """One block of ``width`` numbers aliased ``copies`` times, then ``anchors`` small anchors."""
    lines = [*head, "notes: &big [" + ",".join(["1"] * width) + "]", "copies:"]
    lines += ["  - *big"] * copies
    lines += ["small:"] + [f"  - &a{i} [1]" for i in range(anchors)]
    return "\n".join(lines) + "\n"


AA_STATE_HEAD = ["movecheck: 1", "system: aa", "map: aa1942-2e", "turn: {round: 1, power: Germans, phase: combat_move}"]
AA_ORDERS_HEAD = [
    "movecheck: 1",
    "system: aa",
    "state: state.yaml",
    "power: Germans",
    "phase: combat_move",
    "moves: []",
]


def write_worst_cases() -> list[tuple[str, list[str], Path]]:
    """The hostile inputs of the soundness issue: (label, movecheck arguments, the file to parse)."""
    folder = WORK / "worst"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "anchors").mkdir(parents=True)
    cases: list[tuple[str, list[str], Path]] = []

    anchors = folder / "anchors"
    (anchors / "state.yaml").write_text("\n".join(AA_STATE_HEAD) + "\n", encoding="utf-8")
    (anchors / "orders.yaml").write_text(anchor_heavy(AA_ORDERS_HEAD), encoding="utf-8")
    (anchors / "big-state.yaml").write_text(anchor_heavy(AA_STATE_HEAD), encoding="utf-8")
    (anchors / "config").mkdir()  # alone in its folder: no other case picks it up as its configuration
    (anchors / "config" / ".movecheck.yaml").write_text(anchor_heavy(["select: [ALL]"]), encoding="utf-8")
    (anchors / "workflow.yml").write_text(anchor_heavy(["on: push"]), encoding="utf-8")
    size = (anchors / "orders.yaml").stat().st_size // 1024
    cases += [
        (
            f"anchors: aa orders ({size} KB, 500 anchors over a 1,000,000-number alias block)",
            ["check", str(anchors / "orders.yaml")],
            anchors / "orders.yaml",
        ),
        ("anchors: aa state, lint", ["lint", str(anchors / "big-state.yaml")], anchors / "big-state.yaml"),
        (
            "anchors: .movecheck.yaml, lint",
            ["lint", str(anchors / "config" / ".movecheck.yaml")],
            anchors / "config" / ".movecheck.yaml",
        ),
        (
            "anchors: foreign YAML, lint --skip-foreign",
            ["lint", "--skip-foreign", str(anchors / "workflow.yml")],
            anchors / "workflow.yml",
        ),
    ]

    names = [f"Terra {i}" if i % 2 else f"Germany {i}" for i in range(70000)]
    unknown = {
        "movecheck": 1,
        "system": "aa",
        "state": "anchors/state.yaml",
        "power": "Germans",
        "phase": "combat_move",
        "moves": [{"units": {"infantry": 1}, "path": ["Germany", *names]}],
    }
    (folder / "unknown-names.json").write_text(json.dumps(unknown), encoding="utf-8")
    cases.append(
        ("70,000 unknown territory names", ["check", str(folder / "unknown-names.json")], folder / "unknown-names.json")
    )

    battlefield = str(ROOT / "examples" / "maneuver" / "battlefield.yaml")
    narrow = [[round(90 + (i % 2) * 0.5, 2), round(30 + 0.001 * i, 3)] for i in range(64000)]
    wide = [[round(60 + (i % 2) * 100, 2), round(30 + 0.0005 * i, 4)] for i in range(64000)]
    for label, path, extra in (("straight zigzag", narrow, {}), ("turning, across the field", wide, {"facing": 90})):
        doc = {"movecheck": 1, "system": "maneuver", "state": battlefield, "side": "red",
               "orders": [{"id": "f1", "order": "free", "base": "r9", "path": path, **extra}]}
        name = folder / f"waypoints-{len(cases)}.json"
        name.write_text(json.dumps(doc), encoding="utf-8")
        cases.append((f"free move, {name.stat().st_size // 1024} KB of waypoints, {label}", ["check", str(name)], name))

    cases.append(write_big_aa_orders(folder))
    cases.append(write_landing_crowd(folder, "noncombat_move"))
    cases.append(
        write_landing_crowd(folder, "combat_move", 2000, 1000)
    )  # the augmenting path recursed past 1,000 frames
    return cases


def write_big_aa_orders(folder: Path, moves: int = 16000) -> tuple[str, list[str], Path]:
    """About 1 MB of aa orders: one unit at a time out of stacks of 16,000, half of them illegal."""
    state = (ROOT / "examples" / "aa" / "states" / "g1-combat.yaml").read_text(encoding="utf-8")
    state += "".join(
        f"  - {{at: Germany, power: Germans, type: {kind}, count: {moves}}}\n" for kind in ("infantry", "tank")
    )
    (folder / "big-stack-state.yaml").write_text(state, encoding="utf-8")
    routes = [
        ["Germany", "Poland"],
        ["Germany", "Poland", "Baltic States"],
        ["Germany", "Southern Europe"],
        ["Germany", "Karelia S.S.R."],
    ]
    lines = [
        "movecheck: 1",
        "system: aa",
        "state: big-stack-state.yaml",
        "power: Germans",
        "phase: combat_move",
        "moves:",
    ]
    for i in range(moves):
        path = ", ".join(routes[i % len(routes)])
        lines.append(f"  - {{id: m{i}, units: {{{('infantry', 'tank')[i % 2]}: 1}}, path: [{path}]}}")
    orders = folder / "big-orders.yaml"
    orders.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"aa orders, {orders.stat().st_size // 1024} KB ({moves:,} moves)", ["check", str(orders)], orders


def write_landing_crowd(
    folder: Path, phase: str, fighters: int = 1200, carriers: int = 600
) -> tuple[str, list[str], Path]:
    """aa1942-2e, American fighters with 2 movement left in 50/51 Sea Zone and no friendly land in
    reach; carriers that have not moved (half as many) are their only landing.

    noncombat_move: each fighter flies one zone on and lands where it ends.  combat_move: a
    Japanese destroyer in 50 Sea Zone, every fighter attacks it from 51 Sea Zone with 1 movement
    left, so where the carriers go is the landing search's choice (its worst case).
    """
    hops = {"50 Sea Zone": ["44 Sea Zone", "48 Sea Zone", "49 Sea Zone", "52 Sea Zone"],
            "51 Sea Zone": ["48 Sea Zone", "52 Sea Zone", "59 Sea Zone", "60 Sea Zone"]}
    zones = sorted({z for hop in hops.values() for z in hop} | set(hops))
    combat = phase == "combat_move"
    start = ["51 Sea Zone"] * 2 if combat else ["50 Sea Zone", "51 Sea Zone"]
    units = [{"at": start[0], "power": "Americans", "type": "fighter", "count": fighters // 2, "moved": 2},
             {"at": start[1], "power": "Americans", "type": "fighter", "count": fighters - fighters // 2, "moved": 2}]
    units += [
        {"at": zones[n % len(zones)], "power": "Americans", "type": "carrier", "id": f"CV{n + 1}"}
        for n in range(carriers)
    ]
    if combat:
        units.append({"at": "50 Sea Zone", "power": "Japanese", "type": "destroyer"})
    state = {"movecheck": 1, "system": "aa", "rules": "aa1942", "map": "aa1942-2e",
             "turn": {"round": 3, "power": "Americans", "phase": phase}, "units": units}
    (folder / f"landing-{phase}-state.json").write_text(json.dumps(state), encoding="utf-8")
    lines = [
        "movecheck: 1",
        "system: aa",
        f"state: landing-{phase}-state.json",
        "power: Americans",
        f"phase: {phase}",
        "moves:",
    ]
    for n in range(fighters):
        here = start[n % 2]
        there = "50 Sea Zone" if combat else hops[here][(n // 2) % len(hops[here])]
        lines.append(f"  - {{id: f{n + 1}, units: {{fighter: 1}}, path: [{here}, {there}]}}")
    orders = folder / f"landing-{phase}.yaml"
    orders.write_text("\n".join(lines) + "\n", encoding="utf-8")
    size = orders.stat().st_size // 1024
    label = f"landing, {phase.replace('_', ' ')}: {fighters:,} fighters, {carriers} carriers ({size} KB)"
    return label, ["check", str(orders)], orders


def bench_worst(repeat: int, timeout: float, target: float = 5.0) -> list[str]:
    """Each hostile input's CPU time, next to PyYAML's C loader reading the same file."""
    reader = [sys.executable, "-c", "import sys, yaml; yaml.load(open(sys.argv[1], 'rb'), Loader=yaml.CSafeLoader)"]
    rows, notes, slow = [], [], []
    for label, args, source in write_worst_cases():
        spent, code = median_cpu(movecheck_cmd(*args), repeat, timeout)
        floor, _ = median_cpu([*reader, str(source)], repeat, timeout)
        if spent is None:
            rows.append((label, f"> {timeout:.0f} s (stopped)", "-", "-", "fail"))
            slow.append(label)
            continue
        ratio = f"{spent / floor:.1f}" if floor else "-"
        mark = "pass" if spent <= target and code in (0, 1) else "fail"
        if mark == "fail":
            slow.append(label)
        rows.append((label, f"{spent:.2f} s", ratio, str(code), mark))
    table(
        "5. Worst cases (median CPU time of the whole run)",
        rows,
        ("input", "CPU", "× PyYAML load", "exit", f"≤ {target:.0f} s"),
    )
    notes.append(
        f"worst cases within {target:.0f} s CPU: {len(rows) - len(slow)} of {len(rows)}"
        + (f" (not: {'; '.join(slow)})" if slow else "")
    )
    return notes


def bench_reach_section(repeat: int) -> list[str]:
    """``movecheck reach``: one base on the example battlefield, growth (``bench/reach.py``)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from reach import bench_reach  # type: ignore[import-not-found]

    rows, goals = bench_reach(repeat)
    table("8. reach of one base (median CPU of the computation)", rows, ("case", "what grows", "CPU"))
    for name, value, target in goals:
        goal(name, value, target, "s" if "CPU" in name else "ratio")
    return []


def bench_render(repeat: int) -> list[str]:
    """``movecheck render`` (issue 40): the example board, a turn on it, and the turn as a PNG (extra ``png``)."""
    out = WORK / "render"
    out.mkdir(parents=True, exist_ok=True)
    cases = [("board (state, SVG)", EXAMPLE_STATE, "board.svg"), ("combat move (SVG)", EXAMPLE_ORDERS, "turn.svg"),
             ("mobilization (SVG)", EXAMPLE_MOBILIZE, "mobilize.svg")]
    try:
        import resvg_py  # noqa: F401
    except ImportError:
        pass
    else:
        cases.append(("combat move (PNG, 1,200 px)", EXAMPLE_ORDERS, "turn.png"))
    rows = [(name, f"{median_run(movecheck_cmd('render', str(source), '-o', str(out / target)), repeat):.2f} s")
            for name, source, target in cases]
    table("9. render (median wall time)", rows, ("picture", "wall"))
    return []


def _bench_server(repeat: int) -> list[str]:
    from server import bench_server

    return list(bench_server(repeat, table, goal))


def _bench_search(quick: bool) -> list[str]:
    subprocess.run([sys.executable, str(ROOT / "bench" / "search.py"), *(["--quick"] if quick else [])], cwd=ROOT)
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="movecheck benchmark")
    parser.add_argument("--repeat", type=int, default=5, help="runs per median (default 5)")
    parser.add_argument("--quick", action="store_true", help="skip the largest cases")
    parser.add_argument(
        "--only",
        default="startup,batch,aa,choice,maneuver,worst,growth,landing,games,server,reach,search,render",
        help="comma-separated sections",
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds before a worst case is stopped (default 120)"
    )
    args = parser.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    sections: dict[str, Callable[[], list[str]]] = {
        "startup": lambda: bench_startup(args.repeat),
        "batch": lambda: bench_batch(args.repeat),
        "aa": lambda: bench_aa(args.repeat, args.quick),
        "choice": lambda: bench_choice(args.repeat),
        "maneuver": lambda: bench_maneuver(args.repeat, args.quick),
        "worst": lambda: bench_worst(max(1, args.repeat // 5), args.timeout),
        "growth": lambda: bench_growth(args.repeat, args.quick, args.timeout),
        "landing": lambda: bench_landing(args.repeat),
        "games": lambda: bench_games(args.repeat, args.quick),
        "server": lambda: _bench_server(args.repeat),  # issue 27: bench/server.py
        "reach": lambda: bench_reach_section(args.repeat),
        "render": lambda: bench_render(args.repeat),
        "search": lambda: _bench_search(args.quick),  # issue 28: the exact searches at scale (bench/search.py)
    }
    print(
        f"# movecheck benchmark — {time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}, {os.cpu_count()} cores"
    )
    notes: list[str] = []
    for name in args.only.split(","):
        if name in sections:
            notes += sections[name]()
    if notes:
        print("\n## Ratios and targets of earlier issues\n")
        for note in notes:
            print(f"- {note}")
    print_goals()
    return 0 if all(g.passed for g in GOALS) else 1


if __name__ == "__main__":
    sys.exit(main())
