"""Generators of aircraft-landing cases (issues #12 and #19) on a made-up map, for tests and timing.

``landing_case(fighters, carriers, ...)`` is a sea of ``rows`` x ``COLUMNS`` zones with an
American airbase west of each row.  Each fighter (one order each) flies 3 of its 4 steps from
an airbase to a Japanese destroyer, ending 2 or 3 zones out to sea with 1 movement left, so
its only landings are carrier slots in the zones next to its battle.  The carriers have not
moved: each can still sail 2 zones (never into a battle zone) and so serves several battles;
the search must place every carrier in one zone and seat the fighters at once.  ``idle``
more carriers wait in a far corner of the map, out of reach of every fighter.  The same
``seed`` gives the same files.

Run as a script to write ``state.json`` and ``orders.json`` into a folder::

    python -m tests.aa.landing_cases OUT_DIR FIGHTERS CARRIERS [IDLE] [SEED]

for example ``60 30``, ``100 40``, ``200 80`` (the landing goals), ``1200 40`` (1,200 fighters)
or ``60 30 1000`` (1,000 idle carriers out of reach).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

COLUMNS = 8
FAR = 40  # columns of open sea between the battle area and the idle carriers


def zone(r: int, c: int) -> str:
    return f"Sea {r}-{c}"


def landing_case(fighters: int, carriers: int, idle: int = 0, seed: int = 1, rows: int | None = None
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(state, orders) documents; the state holds the map inline."""
    rng = random.Random(seed)
    rows = rows or max(3, (fighters + 3) // 4)
    width = COLUMNS + (FAR + 4 if idle else 0)
    territories = [{"name": zone(r, c), "sea": True} for r in range(rows) for c in range(width)]
    territories += [{"name": f"Airbase {r}"} for r in range(rows)]
    connections = []
    for r in range(rows):
        connections.append([f"Airbase {r}", zone(r, 0)])
        for c in range(width):
            if c + 1 < width:
                connections.append([zone(r, c), zone(r, c + 1)])
            if r + 1 < rows:
                connections.append([zone(r, c), zone(r + 1, c)])
    game_map = {
        "name": "landing", "powers": ["Americans", "Japanese"],
        "sides": {"Allies": ["Americans"], "Axis": ["Japanese"]},
        "territories": territories, "connections": connections,
        "control": {f"Airbase {r}": "Americans" for r in range(rows)},
    }
    units: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    battles: set[str] = set()
    for n in range(fighters):
        r = rng.randrange(rows)
        turn = rng.choice([0, 1, -1]) if 0 < r < rows - 1 else 0
        if turn:  # airbase, out one zone, along the coast, out again: ends in column 1 of the next row
            path = [f"Airbase {r}", zone(r, 0), zone(r + turn, 0), zone(r + turn, 1)]
        else:  # straight out to column 2
            path = [f"Airbase {r}", zone(r, 0), zone(r, 1), zone(r, 2)]
        battles.add(path[-1])
        units.append({"at": path[0], "power": "Americans", "type": "fighter", "id": f"F{n + 1}"})
        moves.append({"id": f"strike-{n + 1}", "units": [f"F{n + 1}"], "path": path})
    for target in sorted(battles):
        units.append({"at": target, "power": "Japanese", "type": "destroyer"})
    open_zones = [zone(r, c) for r in range(rows) for c in range(1, 5) if zone(r, c) not in battles]
    for n in range(carriers):
        units.append({"at": rng.choice(open_zones), "power": "Americans", "type": "carrier", "id": f"CV{n + 1}"})
    for n in range(idle):
        units.append({"at": zone(n % rows, width - 1 - (n // rows) % 4), "power": "Americans", "type": "carrier",
                      "id": f"Idle{n + 1}"})
    state = {"movecheck": 1, "system": "aa", "map": game_map,
             "turn": {"round": 3, "power": "Americans", "phase": "combat_move"}, "units": units}
    orders = {"movecheck": 1, "system": "aa", "state": "state.json", "power": "Americans",
              "phase": "combat_move", "moves": moves}
    return state, orders


def write_case(folder: Path, fighters: int, carriers: int, idle: int = 0, seed: int = 1) -> Path:
    """Write ``state.json`` and ``orders.json`` into ``folder``; the orders' path."""
    state, orders = landing_case(fighters, carriers, idle, seed)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (folder / "orders.json").write_text(json.dumps(orders), encoding="utf-8")
    return folder / "orders.json"


if __name__ == "__main__":
    args = sys.argv[1:]
    numbers = [int(a) for a in args[1:]]
    print(write_case(Path(args[0]), *numbers))
