"""The language server's re-check after a one-character edit (issue 27): CPU per re-check.

Run alone (``.venv/bin/python bench/server.py [--rounds 60]``) it prints the figures as JSON;
``bench/run.py --only server`` runs it in a process of its own and adds the row and the goal.
The re-check is the server's own (:meth:`movecheck.server.app.MovecheckServer.run_check`, what a
change of a buffer runs once its pause is over) of the example combat move, edited by one
character each round (a space after a comma of a path, put in and taken out again): the state
and the built-in map come from the server's caches, as they do while a player types.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
TARGET_MS = 30.0


def measure(rounds: int) -> dict[str, float]:
    """Median and worst CPU milliseconds of a re-check, and the first check's (the state prepared)."""
    from movecheck.server.app import MovecheckServer
    from movecheck.server.files import Roots

    server = MovecheckServer()
    server.roots = Roots([str(ROOT)])
    path = str(ORDERS)
    text = ORDERS.read_text(encoding="utf-8")
    start = time.process_time()
    first = server.run_check(path, text, 1)
    first_ms = (time.process_time() - start) * 1000
    edited = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland,  Karelia S.S.R.]", 1)
    assert edited != text and first.result is not None and first.published == []
    times = []
    for k in range(rounds):
        start = time.process_time()
        checked = server.run_check(path, edited if k % 2 == 0 else text, k + 2)
        times.append((time.process_time() - start) * 1000)
        assert checked.published == [], checked.published
    return {"first_ms": first_ms, "median_ms": statistics.median(times), "max_ms": max(times),
            "rounds": rounds, "preparations": server.kernel.preparations}


def bench_server(repeat: int, table: Any, goal: Any) -> list[str]:
    """``run.py --only server``: the row of the re-check and its goal, measured in a process of its own."""
    import subprocess

    rounds = max(20, 12 * repeat)
    run = subprocess.run([sys.executable, str(Path(__file__)), "--rounds", str(rounds)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    found = json.loads(run.stdout)
    median = found["median_ms"]
    table(f"9. Language server (CPU of one re-check, median of {rounds})", [
        ("example combat move, one character edited", f"{median:.1f} ms", f"{found['max_ms']:.1f} ms",
         f"{found['first_ms']:.0f} ms", f"≤ {TARGET_MS:g} ms", "pass" if median <= TARGET_MS else "FAIL"),
    ], ("re-check", "CPU", "worst", "first check (state prepared)", "target", ""))
    goal("server: re-check of the example combat move after a one-character edit (CPU)",
         median / 1000, TARGET_MS / 1000, "s")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
