"""Benchmark rows of ``movecheck odds`` (issue 38): exact odds beside an independent simulation.

Run alone: ``.venv/bin/python bench/odds.py [--runs N] [--repeat R]``.  Each row is one battle (or
the example game's battles state): the median CPU time (``time.process_time``) of its exact
odds in this process (numpy imported beforehand: a one-time cost of the command, not of a
battle), and beside it, in the same run, the CPU time of an independent Monte Carlo simulation
of N battles (10^5 by default) and how far its attacker-win rate falls from the exact value, in
standard errors.  Land rows simulate on arrays (numpy's binomial draws, every battle at once);
sea rows and the example game with the unit-by-unit simulator of the tests
(``tests/aa/battle_reference.py``), which shares no code with the engine.

Goals (aa-battle.md, "Speed"): a land battle of 60 per side within 50 ms, a mixed naval battle of
20 per side within 500 ms.  The script exits 1 when a goal fails.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LAND_SIZES = (10, 20, 40, 60, 100)
SEA_SIZES = (5, 10, 20)
GOALS = {("land", 60): 0.050, ("sea", 20): 0.500}
SEA_MIX = ("submarine", "destroyer", "fighter", "carrier", "battleship", "transport", "cruiser")


def land_army(n: int) -> dict[str, int]:
    """n units: half infantry, a quarter artillery, the rest tanks."""
    return {"infantry": n // 2, "artillery": n // 4, "tank": n - n // 2 - n // 4}


def fleet(n: int) -> dict[str, int]:
    """n units of a mixed fleet, the types in turn."""
    found: dict[str, int] = {}
    for i in range(n):
        found[SEA_MIX[i % len(SEA_MIX)]] = found.get(SEA_MIX[i % len(SEA_MIX)], 0) + 1
    return found


def types() -> dict[str, Any]:
    from movecheck.aa.editions import AA1942
    from movecheck.aa.units import UnitType

    return {n: UnitType.from_data(n, d) for n, d in AA1942.unit_type_values().items()}


def exact(att: dict[str, int], dfn: dict[str, int], land: bool, repeat: int) -> tuple[float, float]:
    """Median CPU seconds of the exact odds, and the attacker's chance to win."""
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.battle.units import make_battle

    table = types()
    times, win = [], 0.0
    for _ in range(repeat):
        battle, _ool = make_battle(BattleModel, table, att, dfn, land=land)
        start = time.process_time()
        ends = battle.solve().ends
        times.append(time.process_time() - start)
        win = sum(p for (_s, o), p in ends.items() if o == "attacker")
    return statistics.median(times), win


def simulate_land(att: dict[str, int], dfn: dict[str, int], runs: int) -> tuple[float, float]:
    """CPU seconds and attacker-win rate of ``runs`` land battles simulated on arrays."""
    import numpy as np

    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.battle.units import make_battle

    battle, _ool = make_battle(BattleModel, types(), att, dfn, land=True)
    start = time.process_time()
    rng = np.random.default_rng(38)
    dice = []
    for side, counts, attacking in ((battle.att, battle.start[0], True), (battle.dfn, battle.start[1], False)):
        seq = [side.take(counts, k, "any")[0] for k in range(side.in_battle(counts) + 1)]
        table = np.zeros((len(seq), 7), dtype=np.int64)
        for k, c in enumerate(seq):
            for value, count in battle.firing(side, c, attacking, lambda _k: True):
                table[k, value] += count
        dice.append(table)
    na, nd = len(dice[0]) - 1, len(dice[1]) - 1
    lost_a = np.zeros(runs, dtype=np.int64)
    lost_d = np.zeros(runs, dtype=np.int64)
    going = np.ones(runs, dtype=bool)
    while going.any():
        idx = np.nonzero(going)[0]
        hits_a = sum(rng.binomial(dice[0][lost_a[idx], v], v / 6) for v in range(1, 7))
        hits_d = sum(rng.binomial(dice[1][lost_d[idx], v], v / 6) for v in range(1, 7))
        lost_a[idx] = np.minimum(lost_a[idx] + hits_d, na)
        lost_d[idx] = np.minimum(lost_d[idx] + hits_a, nd)
        going = (lost_a < na) & (lost_d < nd)
    wins = np.count_nonzero((lost_d == nd) & (lost_a < na))
    return time.process_time() - start, wins / runs


def simulate_units(att: dict[str, int], dfn: dict[str, int], land: bool, runs: int) -> tuple[float, float]:
    """CPU seconds and attacker-win rate of ``runs`` battles with the tests' unit-by-unit simulator."""
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.battle.units import make_battle
    from tests.aa.battle_reference import Ref, simulate, units_of

    table = types()
    battle, ool = make_battle(BattleModel, table, att, dfn, land=land)
    ref = Ref(BattleModel, units_of(BattleModel, table, att, ool["attacker"], True),
              units_of(BattleModel, table, dfn, ool["defender"], False), land=land,
              keep_land=battle.att.keep_land, aa_guns=battle.aa_guns)
    start = time.process_time()
    counts = simulate(ref, runs, seed=38)
    return time.process_time() - start, counts.get("attacker", 0) / runs


def example_rows(runs: int, repeat: int) -> tuple[float, float]:
    """The example game's battles state: exact odds of every battle and the turn, and a simulation of each."""
    from movecheck.aa.battle.odds import Ask, read_state
    from movecheck.aa.battle.turn import price_all

    path = str(ROOT / "examples" / "aa" / "states" / "g1-battles.yaml")
    game, specs = read_state(path)
    times = []
    for _ in range(repeat):
        start = time.process_time()
        price_all(game, specs, Ask())
        times.append(time.process_time() - start)
    sim = 0.0
    for spec in specs:
        if spec.kind == "raid":
            continue
        sim += simulate_units(spec.attackers, spec.defenders, spec.kind == "land", runs)[0]
    return statistics.median(times), sim


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100_000, help="battles per simulation (default 10^5)")
    parser.add_argument("--repeat", type=int, default=5, help="exact runs per row; the median is given")
    parser.add_argument("--largest", action="store_true",
                        help="also find the largest battle each goal holds for (land by tens, sea by twos)")
    args = parser.parse_args(argv)
    import numpy  # noqa: F401 - a one-time import of the command, not a battle's work

    rows = []
    failed = False
    print("| battle | exact CPU | simulation CPU (runs) | ratio | attacker wins | simulation off by | goal |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    cases = [("land", n, land_army(n), True) for n in LAND_SIZES] + [("sea", n, fleet(n), False) for n in SEA_SIZES]
    for kind, n, army, land in cases:
        cpu, win = exact(army, army, land, args.repeat)
        sim_cpu, rate = simulate_land(army, army, args.runs) if land else simulate_units(army, army, False, args.runs)
        error = math.sqrt(max(win * (1 - win), 1e-12) / args.runs)
        goal = GOALS.get((kind, n))
        verdict = "" if goal is None else ("pass" if cpu <= goal else "FAIL")
        failed |= verdict == "FAIL"
        goal_text = "" if goal is None else f"≤ {goal * 1000:.0f} ms {verdict}"
        print(f"| {kind} {n} v {n} | {cpu * 1000:.1f} ms | {sim_cpu * 1000:.0f} ms ({args.runs:,}) | "
              f"{sim_cpu / cpu:.0f}× | {win:.6f} | {(rate - win) / error:+.2f} se | {goal_text} |")
        rows.append((kind, n, cpu))
    cpu, sim_cpu = example_rows(args.runs, args.repeat)
    print(f"| example game g1-battles (6 battles + turn) | {cpu * 1000:.1f} ms | {sim_cpu * 1000:.0f} ms "
          f"({args.runs:,} each) | {sim_cpu / cpu:.0f}× | | | |")
    print()
    print(growth(rows))
    if args.largest:
        for (kind, n), goal in GOALS.items():
            found = largest(kind, n, goal, args.repeat)
            print(f"largest {kind} battle within {goal * 1000:.0f} ms: {found} per side")
    return 1 if failed else 0


def growth(rows: list[tuple[str, int, float]]) -> str:
    """The land rows' growth exponents: log(t(m) / t(n)) / log(m / n), from the smallest row and from 60."""
    land = {n: cpu for kind, n, cpu in rows if kind == "land"}
    low, high = min(land), max(land)
    parts = [f"{a} → {b}: n^{math.log(land[b] / land[a]) / math.log(b / a):.2f}" for a, b in ((low, high), (60, high))
             if a in land and a < b]
    return "land growth " + ", ".join(parts)


def largest(kind: str, start: int, goal: float, repeat: int) -> int:
    """The most units per side whose exact odds stay within ``goal`` (land by tens, sea by twos): up from
    ``start`` while it holds, or down from it until it does (0: not even the smallest)."""
    step = 10 if kind == "land" else 2

    def holds(n: int) -> bool:
        army = land_army(n) if kind == "land" else fleet(n)
        return exact(army, army, kind == "land", repeat)[0] <= goal

    n = start
    if not holds(n):
        while n > step and not holds(n - step):
            n -= step
        return max(0, n - step)
    while n < 500 and holds(n + step):
        n += step
    return n


if __name__ == "__main__":
    sys.exit(main())
