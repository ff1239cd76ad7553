#!/usr/bin/env python3
"""Regenerate the example states that ``movecheck init`` and ``movecheck apply`` write: a whole German round 1.

    movecheck init aa1942-2e --power Germans      -> examples/aa/states/g1-purchase.yaml
    movecheck init examples/aa/maps/two-islands.yaml -> examples/aa/states/islands-purchase.yaml
    examples/aa/orders/g1-purchase.yaml           -> examples/aa/states/g1-purchased.yaml
    examples/aa/orders/g1-combat.yaml             -> examples/aa/states/g1-battles.yaml
    examples/aa/orders/g1-battles.yaml            -> examples/aa/states/g1-noncombat-applied.yaml
    examples/aa/orders/g1-noncombat-applied.yaml  -> examples/aa/states/g1-mobilize.yaml
    examples/aa/orders/g1-mobilize.yaml           -> examples/aa/states/uk1-purchase.yaml

the British blitz of round 2 (examples/aa/orders/uk2-combat.yaml -> examples/aa/states/uk2-battles.yaml),
and a whole round 1 of all five powers in examples/aa/game/ (:data:`GAME`), from ``movecheck init`` to the
Russians' round-2 purchase state, and a round 1 of the Anniversary 1941 scenario, all seven powers, in
examples/aa/anniversary/ (:data:`ANNIVERSARY`) with each power's post (:data:`POSTS`).

Run from anywhere: paths are given relative to the repository (they appear in each
state's header comment), so the output is the same bytes on every machine.

    python scripts/gen_examples.py            # rewrite the generated states
    python scripts/gen_examples.py --check    # exit 1 if a committed state is stale
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from itertools import pairwise
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CHAIN = (
    ("init aa1942-2e --power Germans", "examples/aa/states/g1-purchase.yaml"),
    ("init examples/aa/maps/two-islands.yaml", "examples/aa/states/islands-purchase.yaml"),
    ("examples/aa/orders/g1-purchase.yaml", "examples/aa/states/g1-purchased.yaml"),
    ("examples/aa/orders/g1-combat.yaml", "examples/aa/states/g1-battles.yaml"),
    ("examples/aa/orders/g1-battles.yaml", "examples/aa/states/g1-noncombat-applied.yaml"),
    ("examples/aa/orders/g1-noncombat-applied.yaml", "examples/aa/states/g1-mobilize.yaml"),
    ("examples/aa/orders/g1-mobilize.yaml", "examples/aa/states/uk1-purchase.yaml"),
    ("examples/aa/orders/uk2-combat.yaml", "examples/aa/states/uk2-battles.yaml"),
)
"""Each orders file and the state ``apply`` writes from it, in the order of play (``init ...``: the state
``movecheck init`` writes)."""

GAME_POWERS = ("russians", "germans", "british", "japanese", "americans")
GAME_PHASES = ("purchase", "combat", "battles", "noncombat", "mobilize")


def game_chain() -> tuple[tuple[str, str], ...]:
    """examples/aa/game/: each power's five files of round 1, each applied to the state of its own name."""
    folder = "examples/aa/game"
    steps = [("init aa1942-2e", f"{folder}/states/r1-russians-purchase.yaml")]
    names = [f"r1-{power}-{phase}" for power in GAME_POWERS for phase in GAME_PHASES] + ["r2-russians-purchase"]
    steps += [(f"{folder}/orders/{name}.yaml", f"{folder}/states/{after}.yaml") for name, after in pairwise(names)]
    return tuple(steps)


GAME = game_chain()

ANNIVERSARY_PHASES = {"purchase": "purchase", "combat_move": "combat", "battles": "battles",
                      "noncombat_move": "noncombat", "mobilize": "mobilize"}


def anniversary_chain() -> tuple[tuple[str, str], ...]:
    """examples/aa/anniversary/: round 1 of the Anniversary 1941 scenario, every phase of the map's sequence (the
    Chinese phases inside the Americans' turn), each file applied to the state of its own name."""
    from movecheck.aa.maps import builtin_map

    folder = "examples/aa/anniversary"
    steps = [(step["power"].lower(), ANNIVERSARY_PHASES[step["phase"]])
             for step in builtin_map("aa-anniversary-1941")["sequence"]]
    names = [f"r1-{power}-{phase}" for power, phase in steps] + ["r2-germans-purchase"]
    chain = [("init aa-anniversary-1941", f"{folder}/states/{names[0]}.yaml")]
    chain += [(f"{folder}/orders/{name}.yaml", f"{folder}/states/{after}.yaml") for name, after in pairwise(names)]
    return tuple(chain)


ANNIVERSARY = anniversary_chain()
CHAIN = CHAIN + GAME + ANNIVERSARY


def anniversary_posts() -> tuple[tuple[tuple[str, ...], str], ...]:
    """The forum post of each power's turn of the Anniversary round (``movecheck summary`` of its files; the
    Chinese post tells the Chinese phases, the American one the Americans')."""
    orders = [o for o, _state in ANNIVERSARY if not o.startswith("init ")]
    powers = dict.fromkeys(Path(o).name.split("-")[1] for o in orders)
    return tuple((tuple(o for o in orders if Path(o).name.split("-")[1] == power),
                  f"examples/aa/anniversary/posts/r1-{power}.md") for power in powers)


POSTS = anniversary_posts()


def post(orders: tuple[str, ...]) -> str:
    """The text ``movecheck summary ORDERS...`` prints, run from the repository's root."""
    from movecheck.cli import main

    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            code = main(["summary", *orders, "--isolated"])
    finally:
        os.chdir(cwd)
    if code != 0:
        raise SystemExit(f"gen_examples: movecheck summary {' '.join(orders)} failed (exit {code}):\n{out.getvalue()}")
    return out.getvalue()


def applied(orders: str) -> str:
    """The text ``movecheck apply ORDERS`` prints, run from the repository's root."""
    from movecheck.cli import main

    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            code = main(["apply", orders, "--isolated"])
    finally:
        os.chdir(cwd)
    if code != 0:
        raise SystemExit(f"gen_examples: movecheck apply {orders} failed (exit {code}):\n{out.getvalue()}")
    return out.getvalue()


def initialised(command: str, state: str) -> str:
    """The text ``movecheck init MAP [--power P] -o STATE`` writes, run from the repository's root."""
    from movecheck.aa.init import init_text

    words = command.split()
    power = words[words.index("--power") + 1] if "--power" in words else None
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return init_text(words[1], power, state)
    finally:
        os.chdir(cwd)


def generated(orders: str, state: str) -> str:
    """The example state file: the editor's schema modeline, then what ``init`` or ``apply`` writes."""
    schema = os.path.relpath(REPO / "schemas" / "aa-state.schema.json", (REPO / state).parent).replace(os.sep, "/")
    text = initialised(orders, state) if orders.startswith("init ") else applied(orders)
    return f"# yaml-language-server: $schema={schema}\n" + text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a generated state differs")
    args = parser.parse_args(argv)
    stale = []
    for orders, state in CHAIN:  # in order: each step reads the state the one before wrote
        text = generated(orders, state)
        target = REPO / state
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(state)
            if args.check:
                print(f"gen_examples: {state} is out of date; run python scripts/gen_examples.py", file=sys.stderr)
                continue
            target.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {state}")
    for orders, target_name in POSTS:
        text = post(orders)
        target = REPO / target_name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(target_name)
            if args.check:
                print(f"gen_examples: {target_name} is out of date; run python scripts/gen_examples.py",
                      file=sys.stderr)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {target_name}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
