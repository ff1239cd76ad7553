"""The exact searches at scale (issue 28): landing and unit-choice families, and the editor latency.

Run from the repository root::

    .venv/bin/python bench/search.py [--quick]

Each row is one orders file checked in one process: the CPU time of the check itself
(``core.check``, start-up excluded), the findings it gives against the exact answer,
and the growth exponent between the sizes of a family (``log(t2/t1) / log(n2/n1)``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench" / "work" / "search"
A, J, G, B = "Americans", "Japanese", "Germans", "British"


def _write(name: str, state: dict[str, Any], orders: dict[str, Any]) -> Path:
    folder = WORK / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    orders = {"movecheck": 1, "system": "aa", "state": "state.json", **orders}
    (folder / "orders.json").write_text(json.dumps(orders), encoding="utf-8")
    return folder / "orders.json"


# -- landing families ------------------------------------------------------------------


def landing_case(zones: int, per_zone: int, carriers: int, mixed: bool = False, bought: int = 0) -> tuple[Path, int]:
    """Fighters attack a destroyer in their own battle zone B<i> (1 movement left); the only zone a carrier
    can reach for them is their private zone Z<i>, next to B<i> and to the hub H where the carriers wait.

    ``mixed``: half the carriers wait in a second hub next to the even zones only, every third
    carrier has an allied fighter aboard, and a bomber joins every fourth strike (it flies home).
    ``bought``: that many of the carriers are bought this turn, placed next to the factory in Yard, whose coast
    is the odd zones.
    Returns the orders and the exact number of AA207 (fighters no carrier can take).
    """
    sea = ["H", "H2"]
    territories: list[dict[str, Any]] = [{"name": "Home"}]
    connections: list[list[str]] = []
    for i in range(zones):
        a1, a2, b, z = f"A{i}-1", f"A{i}-2", f"B{i}", f"Z{i}"
        sea += [a1, a2, b, z]
        connections += [["Home", a1], [a1, a2], [a2, b], [b, z], ["H", z]]
        if i % 2 == 0:
            connections.append(["H2", z])
        elif bought:
            connections.append(["Yard", z])
    territories += [{"name": s, "sea": True} for s in sea]
    if bought:
        territories.append({"name": "Yard"})
    game_map = {
        "name": "hub",
        "powers": [A, B, J],
        "sides": {"Allies": [A, B], "Axis": [J]},
        "territories": territories,
        "connections": connections,
        "control": {"Home": A, "Yard": A} if bought else {"Home": A},
    }
    units: list[dict[str, Any]] = [{"at": f"B{i}", "power": J, "type": "destroyer"} for i in range(zones)]
    if bought:
        units.append({"at": "Yard", "power": A, "type": "factory"})
    units.append({"at": "Home", "power": A, "type": "fighter", "count": zones * per_zone})
    units.append({"at": "Home", "power": A, "type": "bomber", "count": zones})
    for n in range(carriers - bought):
        hub = "H2" if mixed and n % 2 else "H"
        units.append({"at": hub, "power": A, "type": "carrier", "id": f"CV{n}"})
        if mixed and n % 3 == 0:
            units.append({"at": hub, "power": B, "type": "fighter", "aboard": f"CV{n}"})
    moves = []
    for i in range(zones):
        path = ["Home", f"A{i}-1", f"A{i}-2", f"B{i}"]
        moves.append({"units": {"fighter": per_zone}, "path": path})
        if mixed and i % 4 == 0:
            moves.append({"units": {"bomber": 1}, "path": path})
    state: dict[str, Any] = {
        "movecheck": 1,
        "system": "aa",
        "map": game_map,
        "turn": {"round": 3, "power": A, "phase": "combat_move"},
        "units": units,
    }
    if bought:
        state["purchased"] = {"carrier": bought}
    # each carrier ends in one zone and fills it (a zone holds one fighter, or two and the carrier has no ally aboard
    # in the families below); there are fewer carriers than zones (H2's fewer than the even zones, the bought ones
    # fewer than the odd zones): every zone without a carrier is one AA207 (the fighters of one order are one finding)
    name = f"landing-{zones}x{per_zone}-{carriers}{'-mixed' if mixed else ''}{f'-bought{bought}' if bought else ''}"
    return _write(name, state, {"power": A, "phase": "combat_move", "moves": moves}), zones - carriers


def landing_exact(triangles: int, singles: int, carriers: int) -> int:
    """Fighters no plan lands when every carrier can reach every piece: a triangle lands 2 fighters with one carrier
    and 3 with two, a single fighter 1 with one, so the best plan gives the carriers to the largest gains first."""
    gains = sorted([2] * triangles + [1] * (triangles + singles), reverse=True)
    return 3 * triangles + singles - sum(gains[:carriers])


def triangles_case(fighters: int, carriers: int, bought: int = 0) -> tuple[Path, int]:
    """Fighters that each reach two zones: triangles of zones T<t>a, T<t>b, T<t>c, and three fighters per triangle,
    one striking a destroyer in the battle zone between each two of its zones (one movement left reaches those two);
    ``fighters % 3`` more fighters each reach a private zone S<i>.  ``carriers`` carriers in all: ``bought`` of them
    bought this turn (placed next to the factory in Yard, whose coast is the zones of the first triangles, at least
    one triangle per bought carrier), the others wait in the hub H next to every zone.

    Returns the orders and the exact number of AA207: a fighter per order, so one finding per fighter left over
    (:func:`landing_exact`; the bought carriers reach enough triangles that the hub's carriers make up the rest).
    """
    count, singles = divmod(fighters, 3)
    coast = min(count, max(bought, 1) * 2) if bought else 0
    sea = ["H"]
    connections: list[list[str]] = []
    strikes: list[tuple[str, str]] = []  # (battle zone, path prefix) per fighter
    for t in range(count):
        zones = [f"T{t}{x}" for x in "abc"]
        sea += zones
        connections += [["H", z] for z in zones]
        if t < coast:
            connections += [["Yard", z] for z in zones]
        for j in range(3):
            a, b = zones[j], zones[(j + 1) % 3]
            battle = f"B{t}{'abc'[j]}"
            sea.append(battle)
            connections += [[battle, a], [battle, b]]
            strikes.append((battle, f"{t}{'abc'[j]}"))
    for i in range(singles):
        sea += [f"S{i}", f"BS{i}"]
        connections += [["H", f"S{i}"], [f"BS{i}", f"S{i}"]]
        strikes.append((f"BS{i}", f"s{i}"))
    moves, units = [], []
    for battle, tag in strikes:
        a1, a2 = f"P{tag}-1", f"P{tag}-2"
        sea += [a1, a2]
        connections += [["Home", a1], [a1, a2], [a2, battle]]
        moves.append({"units": {"fighter": 1}, "path": ["Home", a1, a2, battle]})
        units.append({"at": battle, "power": J, "type": "destroyer"})
    game_map = {
        "name": "triangles",
        "powers": [A, B, J],
        "sides": {"Allies": [A, B], "Axis": [J]},
        "territories": [{"name": "Home"}, {"name": "Yard"}] + [{"name": s, "sea": True} for s in sea],
        "connections": connections,
        "control": {"Home": A, "Yard": A},
    }
    units.append({"at": "Home", "power": A, "type": "fighter", "count": len(strikes)})
    units.append({"at": "Yard", "power": A, "type": "factory"})
    units += [{"at": "H", "power": A, "type": "carrier"} for _ in range(carriers - bought)]
    state: dict[str, Any] = {
        "movecheck": 1,
        "system": "aa",
        "map": game_map,
        "turn": {"round": 3, "power": A, "phase": "combat_move"},
        "units": units,
    }
    if bought:
        state["purchased"] = {"carrier": bought}
    name = f"triangles-{fighters}-{carriers}-{bought}"
    orders = _write(name, state, {"power": A, "phase": "combat_move", "moves": moves})
    return orders, landing_exact(count, singles, carriers)


def pacific_case(carriers: int, seed: int, dense: bool = False) -> tuple[Path, int | None]:
    """Random Pacific-style combat moves (issue 37's landing frontier): a ring of sea zones (a board that wraps)
    with a cross-link every third zone and a shorter one every other zone, an American island every sixth zone;
    ``carriers`` American carriers (movement 2) in random zones and three fighters per carrier on random islands,
    each order one to three fighters striking a Japanese destroyer in a zone three steps away (one movement left to
    land: on an island next to it, or on a carrier that sails to meet them in the noncombat move).

    ``dense``: denser, like issue 37's own positions (32 carriers, 96 fighters, 26 KB; these are 23 KB): a third
    cross-link on every zone and a fourth on every other zone of the first half, and one fighter an order (twice
    the orders); the islands stay every sixth zone, the targets three steps away.

    Returns the orders and None: the exact AA207 count comes of the search with no budget (:func:`pacific_table`)."""
    import random

    rng = random.Random(seed * 1000 + carriers + (500 if dense else 0))
    zones = [f"P{k}" for k in range(carriers * 2)]
    n = len(zones)
    connections = [[zones[k], zones[(k + 1) % n]] for k in range(n)]
    connections += [[zones[k], zones[(k + n // 3) % n]] for k in range(0, n, 3)]
    connections += [[zones[k], zones[(k + n // 5) % n]] for k in range(1, n, 2)]
    if dense:
        connections += [[zones[k], zones[(k + n // 4 + 1) % n]] for k in range(n)]
        connections += [[zones[k], zones[(k + n // 2) % n]] for k in range(0, n // 2, 2)]
    islands = [f"I{k}" for k in range(0, n, 6)]
    connections += [[f"I{k}", zones[k]] for k in range(0, n, 6)]
    adjacent: dict[str, set[str]] = {}
    for a, b in connections:
        adjacent.setdefault(a, set()).add(b)
        adjacent.setdefault(b, set()).add(a)

    def sea_distances(start: str) -> dict[str, int]:
        seen, frontier = {start: 0}, [start]
        while frontier:
            nxt = []
            for here in frontier:
                for there in sorted(adjacent[here]):
                    if there not in seen and (there.startswith("P") or there == start):
                        seen[there] = seen[here] + 1
                        nxt.append(there)
            frontier = nxt
        return seen

    units: list[dict[str, Any]] = [{"at": rng.choice(zones), "power": A, "type": "carrier"} for _ in range(carriers)]
    moves: list[dict[str, Any]] = []
    fighters, targets = 3 * carriers, set()
    while fighters > 0:
        island = rng.choice(islands)
        near = sea_distances(island)
        target = rng.choice(sorted(z for z, d in near.items() if d == 3 and z.startswith("P")))
        count = 1 if dense else min(fighters, rng.randint(1, 3))
        fighters -= count
        path = [island]
        while path[-1] != target:  # a shortest sea path
            here = path[-1]
            steps = [z for z in adjacent[here] if z.startswith("P")]
            path.append(min(steps, key=lambda z: (sea_distances(z).get(target, 99), z)))
        units.append({"at": island, "power": A, "type": "fighter", "count": count})
        moves.append({"units": {"fighter": count}, "path": path})
        targets.add(target)
    units += [{"at": z, "power": J, "type": "destroyer"} for z in sorted(targets)]
    game_map = {"name": "pacific", "powers": [A, B, J], "sides": {"Allies": [A, B], "Axis": [J]},
                "territories": [{"name": i} for i in islands] + [{"name": z, "sea": True} for z in zones],
                "connections": connections, "control": dict.fromkeys(islands, A)}
    state: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": game_map,
                             "turn": {"round": 3, "power": A, "phase": "combat_move"}, "units": units}
    name = f"pacific-{carriers}-{seed}{'-dense' if dense else ''}"
    return _write(name, state, {"power": A, "phase": "combat_move", "moves": moves}), None


def error_first_case(transports: int) -> tuple[Path, int]:
    """Two parts: ``transports`` infantry then as many tanks load one per order onto empty transports (the greedy
    packing fails, another choice does not), then issue 37's B2 at a hub (far 2: one fresh tank short, an AA104 no
    choice avoids).  Measured with no counting bound (``--issue37`` rows "made hard"): the search has to prove it."""
    land = ["Port", "Depot", "Hub", "Near", "Far"]
    territories = [{"name": n} for n in land] + [{"name": "Bay", "sea": True}]
    connections = [["Port", "Bay"], ["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"]]
    units: list[dict[str, Any]] = [{"at": "Port", "power": G, "type": "infantry", "count": transports},
                                   {"at": "Port", "power": G, "type": "tank", "count": transports},
                                   {"at": "Depot", "power": G, "type": "tank", "count": 7},
                                   {"at": "Hub", "power": G, "type": "tank"}]
    units += [{"at": "Bay", "power": G, "type": "transport"} for _ in range(transports)]
    moves = [{"units": {"infantry": 1}, "path": ["Port", "Bay"]} for _ in range(transports)]
    moves += [{"units": {"tank": 1}, "path": ["Port", "Bay"]} for _ in range(transports)]
    moves += [{"units": {"tank": 1}, "path": ["Depot", "Hub"]} for _ in range(7)]
    moves += [{"units": {"tank": 1}, "path": ["Hub", "Near"]} for _ in range(6)]
    moves += [{"units": {"tank": 1}, "path": ["Hub", "Near", "Far"]} for _ in range(2)]
    control = dict.fromkeys(land, G)
    return _write(f"error-first-{transports}", _custom_state(G, territories, connections, control, units),
                  {"power": G, "phase": "noncombat_move", "moves": moves}), 1


# -- choice families (the built-in map) ----------------------------------------------------


def _aa_state(power: str, units: list[dict[str, Any]], phase: str = "noncombat_move") -> dict[str, Any]:
    return {
        "movecheck": 1,
        "system": "aa",
        "rules": "aa1942",
        "map": "aa1942-2e",
        "turn": {"round": 2, "power": power, "phase": phase},
        "units": units,
    }


def packing_case(transports: int) -> tuple[Path, int]:
    """Infantry first, tanks after, from count orders: the tanks need one infantry on each transport."""
    units = [
        {"at": "Germany", "power": G, "type": "infantry", "count": transports},
        {"at": "Germany", "power": G, "type": "tank", "count": transports},
    ]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(transports)]
    moves = [{"units": {"infantry": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(transports)]
    moves += [{"units": {"tank": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(transports)]
    return _write(
        f"packing-{transports}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}
    ), 0


def ids_case(ids: int) -> tuple[Path, int]:
    """Infantry named by id across several orders, then tanks by count onto the same transports."""
    transports = ids // 2
    units = [{"at": "Germany", "power": G, "type": "infantry", "id": f"I{k}"} for k in range(ids)]
    units += [{"at": "Germany", "power": G, "type": "tank", "count": transports}]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(transports)]
    moves = [{"units": [f"I{k}"], "path": ["Germany", "5 Sea Zone"]} for k in range(0, ids, 2)]
    moves += [{"units": {"tank": transports}, "path": ["Germany", "5 Sea Zone"]}]
    return _write(f"ids-{ids}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}), 0


def mixed_cargo_case(transports: int) -> tuple[Path, int]:
    """Artillery, then tanks, then infantry by count: each transport must end with one infantry and one other."""
    half = transports // 2
    units = [
        {"at": "Germany", "power": G, "type": "infantry", "count": transports},
        {"at": "Germany", "power": G, "type": "artillery", "count": half},
        {"at": "Germany", "power": G, "type": "tank", "count": transports - half},
    ]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(transports)]
    moves = [{"units": {"artillery": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(half)]
    moves += [{"units": {"tank": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(transports - half)]
    moves += [{"units": {"infantry": transports}, "path": ["Germany", "5 Sea Zone"]}]
    return _write(
        f"mixed-cargo-{transports}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}
    ), 0


def carriers_case(carriers: int) -> tuple[Path, int]:
    """Fighters land on carriers by count, then half the carriers sail on: the fighters must be on the others."""
    units = [{"at": "11 Sea Zone", "power": A, "type": "carrier"} for _ in range(carriers)]
    units += [{"at": "Eastern United States", "power": A, "type": "fighter", "count": carriers}]
    moves = [{"units": {"fighter": 1}, "path": ["Eastern United States", "11 Sea Zone"]} for _ in range(carriers)]
    moves += [{"units": {"carrier": 1}, "path": ["11 Sea Zone", "10 Sea Zone"]} for _ in range(carriers // 2)]
    return _write(
        f"carriers-{carriers}", _aa_state(A, units), {"power": A, "phase": "noncombat_move", "moves": moves}
    ), 0


def overload_case(transports: int) -> tuple[Path, int]:
    """One infantry more than the transports hold, one order each: illegal (one AA401)."""
    units = [{"at": "Germany", "power": G, "type": "infantry", "count": 2 * transports + 1}]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(transports)]
    moves = [{"units": {"infantry": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(2 * transports + 1)]
    return _write(
        f"overload-{transports}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}
    ), 1


def sail_in_case(transports: int) -> tuple[Path, int]:
    """A transport sails in first, then one infantry more than every transport there holds loads, one per order:
    illegal (one AA401); the room that sailed in keeps the zone's count from being proved by the starting room."""
    loads = 2 * (transports + 1) + 1
    units = [{"at": "Germany", "power": G, "type": "infantry", "count": loads}]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(transports)]
    units += [{"at": "6 Sea Zone", "power": G, "type": "transport", "id": "TX"}]
    moves: list[dict[str, Any]] = [{"units": ["TX"], "path": ["6 Sea Zone", "5 Sea Zone"]}]
    moves += [{"units": {"infantry": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(loads)]
    return _write(
        f"sail-in-{transports}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}
    ), 1


def british_case(loads: int) -> tuple[Path, int]:
    """Loads onto partly loaded transports, then an unrelated load into a full one (the issue's four British orders
    at 3 loads): AA401 at the last order, which no choice can avoid."""
    units = [
        {"at": "United Kingdom", "power": B, "type": kind, "count": loads} for kind in ("infantry", "tank", "artillery")
    ]
    for k in range(loads):
        units += [
            {"at": "7 Sea Zone", "power": B, "type": "transport", "id": f"T{k}"},
            {"at": "7 Sea Zone", "power": B, "type": "infantry", "aboard": f"T{k}"},
        ]
    units += [
        {"at": "8 Sea Zone", "power": B, "type": "transport", "id": "TF"},
        {"at": "8 Sea Zone", "power": B, "type": "infantry", "count": 2, "aboard": "TF"},
    ]
    kinds = ["infantry", "tank", "artillery"]
    moves = [{"units": {kinds[k % 3]: 1}, "path": ["United Kingdom", "7 Sea Zone"]} for k in range(loads)]
    moves.append({"units": {"infantry": 1}, "path": ["United Kingdom", "8 Sea Zone"]})
    return _write(f"british-{loads}", _aa_state(B, units), {"power": B, "phase": "noncombat_move", "moves": moves}), 1


def parts_case(loads: int) -> tuple[Path, int]:
    """Tanks then infantry loading by count, then two long flights with one fighter fresh enough (far away)."""
    units = [
        {"at": "Germany", "power": G, "type": "infantry", "count": loads},
        {"at": "Germany", "power": G, "type": "tank", "count": loads},
        {"at": "Italy", "power": G, "type": "fighter", "moved": 3},
        {"at": "Italy", "power": G, "type": "fighter"},
    ]
    units += [{"at": "5 Sea Zone", "power": G, "type": "transport"} for _ in range(loads)]
    moves = [{"units": {"tank": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(loads)]
    moves += [{"units": {"infantry": 1}, "path": ["Germany", "5 Sea Zone"]} for _ in range(loads)]
    flight = ["Italy", "Southern Europe", "Balkans", "Ukraine S.S.R.", "Caucasus"]
    moves += [{"units": {"fighter": 1}, "path": flight}, {"units": {"fighter": 1}, "path": flight}]
    return _write(f"parts-{loads}", _aa_state(G, units), {"power": G, "phase": "noncombat_move", "moves": moves}), 1


def crowded_parts_case(loads: int) -> tuple[Path, int]:
    """:func:`parts_case` on a crowded board: 1,000 more units far from every order (the search copies none)."""
    orders, exact = parts_case(loads)
    state = json.loads((orders.parent / "state.json").read_text(encoding="utf-8"))
    for k, where in enumerate(["France", "Norway", "Japan", "Manchuria", "India", "United Kingdom"] * 2):
        power = G if where in ("France", "Norway") else J if where in ("Japan", "Manchuria") else B
        state["units"].append({"at": where, "power": power, "type": ("infantry", "tank")[k // 6], "count": 1000 // 12})
    folder = orders.parent.with_name(f"crowded-{loads}")
    return _write(folder.name, state, json.loads(orders.read_text(encoding="utf-8"))), exact


# -- issue 37: ordinary turns whose exact answer is one plain error -----------------------------------


def _custom_state(power: str, territories: list[dict[str, Any]], connections: list[list[str]], control: dict[str, str],
                  units: list[dict[str, Any]], phase: str = "noncombat_move", **extra: Any) -> dict[str, Any]:
    game_map = {"name": "custom", "powers": [A, B, G, J], "sides": {"Allies": [A, B], "Axis": [G, J]},
                "territories": territories, "connections": connections, "control": control}
    return {"movecheck": 1, "system": "aa", "map": game_map, "turn": {"round": 3, "power": power, "phase": phase},
            "units": units, **extra}


def b1_case(transports: int) -> tuple[Path, int]:
    """B1: ``transports`` transports in each of 6 and 7 Sea Zone (every other one with an infantry aboard), half as
    many ``{infantry: 1, tank: 1}`` loads from the United Kingdom into each, a full transport sails 9 → 8 Sea Zone,
    then one more infantry loads into 8 Sea Zone: AA401 at the last order (the issue's size: 6)."""
    loads = transports // 2
    uk = "United Kingdom"
    units: list[dict[str, Any]] = [{"at": uk, "power": B, "type": "infantry", "count": 2 * loads + 1},
                                   {"at": uk, "power": B, "type": "tank", "count": 2 * loads}]
    for zone in ("6 Sea Zone", "7 Sea Zone"):
        for k in range(transports):
            tag = f"T{zone[0]}-{k}"
            units.append({"at": zone, "power": B, "type": "transport", "id": tag})
            if k % 2:
                units.append({"at": zone, "power": B, "type": "infantry", "aboard": tag})
    units += [{"at": "9 Sea Zone", "power": B, "type": "transport", "id": "TF"},
              {"at": "9 Sea Zone", "power": B, "type": "infantry", "count": 2, "aboard": "TF"}]
    moves = [{"units": {"infantry": 1, "tank": 1}, "path": [uk, zone]}
             for zone in ("6 Sea Zone", "7 Sea Zone") for _ in range(loads)]
    moves.append({"units": {"transport": 1}, "path": ["9 Sea Zone", "8 Sea Zone"]})
    moves.append({"units": {"infantry": 1}, "path": [uk, "8 Sea Zone"]})
    return _write(f"b1-{transports}", _aa_state(B, units), {"power": B, "phase": "noncombat_move", "moves": moves}), 1


def b2_case(far: int) -> tuple[Path, int]:
    """B2: 2·far + 3 tanks drive into the hub (1 movement left) where far - 1 fresh tanks stand; 2·far + 2 orders
    send one tank one step on, ``far`` orders two steps: one fresh tank short, one AA104 (the issue's size: 5)."""
    arrive, fresh = 2 * far + 3, far - 1
    territories = [{"name": n} for n in ("Depot", "Hub", "Near", "Far")]
    connections = [["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"]]
    units = [{"at": "Depot", "power": G, "type": "tank", "count": arrive},
             {"at": "Hub", "power": G, "type": "tank", "count": fresh}]
    moves = [{"units": {"tank": 1}, "path": ["Depot", "Hub"]} for _ in range(arrive)]
    moves += [{"units": {"tank": 1}, "path": ["Hub", "Near"]} for _ in range(arrive - 1)]
    moves += [{"units": {"tank": 1}, "path": ["Hub", "Near", "Far"]} for _ in range(far)]
    control = {t["name"]: G for t in territories}
    return _write(f"b2-{far}", _custom_state(G, territories, connections, control, units),
                  {"power": G, "phase": "noncombat_move", "moves": moves}), 1


def b3_case(transports: int) -> tuple[Path, int]:
    """B3: ``transports`` transports in one zone (half with infantry + tank, half with two infantry); one infantry
    unloads into each of ``transports`` territories, then a tank into one more: AA404 (the issue's size: 6)."""
    shores = [f"Shore{k}" for k in range(transports + 1)]
    territories = [{"name": "Sea", "sea": True}] + [{"name": s} for s in shores]
    connections = [["Sea", s] for s in shores]
    units: list[dict[str, Any]] = []
    for k in range(transports):
        units.append({"at": "Sea", "power": A, "type": "transport", "id": f"T{k}"})
        units.append({"at": "Sea", "power": A, "type": "infantry", "aboard": f"T{k}"})
        units.append({"at": "Sea", "power": A, "type": "tank" if k % 2 == 0 else "infantry", "aboard": f"T{k}"})
    moves = [{"units": {"infantry": 1}, "path": ["Sea", s]} for s in shores[:-1]]
    moves.append({"units": {"tank": 1}, "path": ["Sea", shores[-1]]})
    control = dict.fromkeys(shores, A)
    return _write(f"b3-{transports}", _custom_state(A, territories, connections, control, units),
                  {"power": A, "phase": "noncombat_move", "moves": moves}), 1


def b4_case(orders: int) -> tuple[Path, int]:
    """B4: an ordinary noncombat move of ``orders`` orders over a chain of territories (an infantry a step on from
    each, tanks two steps, every order sharing a space with the next), ending with one tank too many on a two-step
    path from a hub two tanks drove into: AA104 (the issue's size: 83)."""
    body = max(orders - 5, 1)
    chain = [f"R{k}" for k in range(body + 3)]
    territories = [{"name": n} for n in [*chain, "Hub", "Depot"]]
    connections = [[a, b] for a, b in itertools.pairwise(chain)]
    connections += [["Depot", "Hub"], ["Hub", chain[0]]]
    units: list[dict[str, Any]] = [{"at": r, "power": G, "type": "infantry", "count": 2} for r in chain]
    units += [{"at": r, "power": G, "type": "tank"} for r in chain]
    units += [{"at": "Depot", "power": G, "type": "tank", "count": 2}, {"at": "Hub", "power": G, "type": "tank"}]
    moves: list[dict[str, Any]] = []
    for k in range(body):
        if k % 3 == 2:
            moves.append({"units": {"tank": 1}, "path": [chain[k], chain[k + 1], chain[k + 2]]})
        else:
            moves.append({"units": {"infantry": 1}, "path": [chain[k], chain[k + 1]]})
    moves += [{"units": {"tank": 1}, "path": ["Depot", "Hub"]} for _ in range(2)]
    moves.append({"units": {"tank": 1}, "path": ["Hub", chain[0]]})
    moves += [{"units": {"tank": 1}, "path": ["Hub", chain[0], chain[1]]} for _ in range(2)]
    control = {t["name"]: G for t in territories}
    return _write(f"b4-{orders}", _custom_state(G, territories, connections, control, units),
                  {"power": G, "phase": "noncombat_move", "moves": moves}), 1


def b6_case(pairs: int) -> tuple[Path, int]:
    """B6: fighters from one airfield onto ``pairs`` zones of two carriers each (two orders of two fighters a zone),
    the last zone one fighter over: AA304 (the issue's size: 16)."""
    zones = [f"Z{k}" for k in range(pairs)]
    territories = [{"name": "Field"}] + [{"name": z, "sea": True} for z in zones]
    connections = [["Field", z] for z in zones]
    units: list[dict[str, Any]] = [{"at": "Field", "power": A, "type": "fighter", "count": 4 * pairs + 1}]
    for z in zones:
        units += [{"at": z, "power": A, "type": "carrier"} for _ in range(2)]
    moves = [{"units": {"fighter": 2}, "path": ["Field", z]} for z in zones for _ in range(2)]
    moves.append({"units": {"fighter": 1}, "path": ["Field", zones[-1]]})
    return _write(f"b6-{pairs}", _custom_state(A, territories, connections, {"Field": A}, units),
                  {"power": A, "phase": "noncombat_move", "moves": moves}), 1


def b9_case(loads: int) -> tuple[Path, int]:
    """B9: ``loads`` unrelated loads (each onto two transports of its own zone, one with an infantry aboard: an
    infantry, then a tank, by count) and one hopeless one (a full transport sails in, an infantry loads), with a
    carrier bought this turn and no aircraft moving: AA401 (the issue's size: 12)."""
    territories: list[dict[str, Any]] = [{"name": "Yard"}, {"name": "Far", "sea": True}, {"name": "Last", "sea": True}]
    connections = [["Yard", "Last"], ["Far", "Last"]]
    units: list[dict[str, Any]] = [{"at": "Yard", "power": A, "type": "factory"},
                                   {"at": "Yard", "power": A, "type": "infantry"},
                                   {"at": "Far", "power": A, "type": "transport", "id": "TF"},
                                   {"at": "Far", "power": A, "type": "infantry", "count": 2, "aboard": "TF"}]
    moves: list[dict[str, Any]] = []
    for k in range(loads):
        land, sea = f"L{k}", f"S{k}"
        territories += [{"name": land}, {"name": sea, "sea": True}]
        connections.append([land, sea])
        units += [{"at": land, "power": A, "type": "infantry", "count": 2}, {"at": land, "power": A, "type": "tank"},
                  {"at": sea, "power": A, "type": "transport", "id": f"T{k}"},
                  {"at": sea, "power": A, "type": "transport", "id": f"U{k}"},
                  {"at": sea, "power": A, "type": "infantry", "aboard": f"U{k}"}]
        moves += [{"units": {"infantry": 1}, "path": [land, sea]}, {"units": {"tank": 1}, "path": [land, sea]}]
    moves.append({"units": {"transport": 1}, "path": ["Far", "Last"]})
    moves.append({"units": {"infantry": 1}, "path": ["Yard", "Last"]})
    control = {t["name"]: A for t in territories if not t.get("sea")}
    state = _custom_state(A, territories, connections, control, units, purchased={"carrier": 1})
    return _write(f"b9-{loads}", state, {"power": A, "phase": "noncombat_move", "moves": moves}), 1


def corps_file_case(orders: int) -> tuple[Path, int]:
    """Issue 37's big manoeuvre file: ``orders`` one-base corps, each with an all-ahead order across three thin
    streams (a D1 roll each) that some rolls allow (``per_file`` corps penalty): one MV304 per order."""
    width = 8.0 * orders + 8
    terrain = [{"id": f"s{k}", "kind": "stream",
                "polygon": [[0, 12 + 1.5 * k], [width, 12 + 1.5 * k], [width, 12.5 + 1.5 * k], [0, 12.5 + 1.5 * k]]}
               for k in range(3)]
    red = [{"id": f"c{k}", "mobility": 30, "base": [4, 2], "bases": [{"id": f"r{k}", "x": 4 + 8 * k, "y": 10,
                                                                      "facing": 0}]} for k in range(orders)]
    state = {"movecheck": 1, "system": "maneuver", "field": {"width": width, "depth": 200}, "terrain": terrain,
             "sides": {"red": red, "blue": []}}
    moves = [{"order": "all_ahead", "corps": f"c{k}", "end": {f"r{k}": {"x": 4 + 8 * k, "y": 30}}}
             for k in range(orders)]
    folder = WORK / f"corps-file-{orders}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    doc = {"movecheck": 1, "system": "maneuver", "state": "state.json", "side": "red", "orders": moves}
    (folder / "orders.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder / "orders.json", orders


ISSUE_37: list[tuple[str, str, list[int], Callable[[int], tuple[Path, int]], str, str]] = [
    ("B1", "loads into two busy zones, a full transport sails in, one infantry too many", [4, 6, 12, 24], b1_case,
     "AA401", "transports"),
    ("B2", "tanks through a hub, one fresh tank short", [3, 5, 10, 20], b2_case, "AA104", "two-step orders"),
    ("B3", "one infantry unloaded into each territory, then a tank into one more", [4, 6, 12, 24], b3_case, "AA404",
     "transports"),
    ("B4", "an ordinary noncombat move ending with one tank too many", [21, 83, 166, 332], b4_case, "AA104",
     "orders"),
    ("B6", "fighters onto pairs of carriers, the last zone one fighter over", [4, 16, 32, 64], b6_case, "AA304",
     "pairs"),
    ("B9", "unrelated loads and a hopeless one, a carrier bought", [6, 12, 24, 48], b9_case, "AA401", "loads"),
    ("per_file", "one-base corps orders across three streams, each legal for some rolls", [50, 100, 200, 400],
     corps_file_case, "MV304", "orders"),
]
"""Issue 37's families: (name, what, sizes (the issue's the second), build, code, unit of the size)."""


# -- measuring --------------------------------------------------------------------------

_DRIVER = """
import json, sys, time
from movecheck.core import Settings, check
try:
    from movecheck.aa import choice
    seen = []
    choice.OBSERVER.set(seen.append)
except (ImportError, AttributeError):  # a tree without the search's counters
    seen = None
import os
if os.environ.get("MOVECHECK_BENCH_UNBOUNDED"):  # every choice tried: no counting bound ends the search early
    from movecheck.aa import engine, overloads
    engine.BOUNDS = False
    overloads.Overloads.lower_bound = lambda self: 0
    overloads.Overloads.counts = lambda self, order, code: False
if os.environ.get("MOVECHECK_BENCH_NO_BOUNDS"):  # no counting bound, the default budget: the search has to prove
    from movecheck.aa import engine, overloads
    engine.BOUNDS = False
    overloads.Overloads.lower_bound = lambda self: 0
    overloads.Overloads.counts = lambda self, order, code: False
if os.environ.get("MOVECHECK_BENCH_FILE_ORDER"):  # the parts searched in file order (before issue 37's error first)
    from movecheck.aa import engine
    engine.ERROR_FIRST = False
check([sys.argv[1]], Settings())  # warm: modules loaded, as in a long-running process
best = None
for _ in range(int(sys.argv[2])):
    if seen:
        seen.clear()
    start = time.process_time()
    report, _ = check([sys.argv[1]], Settings())
    spent = time.process_time() - start
    best = spent if best is None else min(best, spent)
counts = {}
for f in report.findings:
    counts[f.code] = counts.get(f.code, 0) + 1
stats = None
if seen:
    last = seen[-1]
    stats = [last.runs, last.points, last.listings, last.reused, last.copied]
elif seen is not None:
    stats = [0, 0, 0, 0, 0]  # the greedy run was legal, or a counting bound decided: no search
print(json.dumps([best, counts, stats]))
"""


REPEAT = 7
"""Checks per file (the least CPU is kept); ``--repeat`` sets it."""


def measure(orders: Path, repeat: int | None = None, unbounded: bool = False, env: dict[str, str] | None = None,
            tree: Path | None = None) -> tuple[float, dict[str, int], list[int] | None]:
    """The least CPU seconds of ``repeat`` checks in a fresh process (start-up excluded), its findings per code, and
    what the choice search did (runs, points, options listed, listings reused, units copied; None: not counted).

    ``unbounded``: no counting bound and a budget no search reaches (every choice tried: the exact answer).
    ``tree``: the movecheck of another source tree (first on the path, run from there), e.g. the branch point."""
    extra = dict(env or {})
    if tree is not None:
        extra["PYTHONPATH"] = str(tree)
    if unbounded:
        extra.update(MOVECHECK_BENCH_UNBOUNDED="1", MOVECHECK_CHOICE_BUDGET=str(10**11),
                     MOVECHECK_LANDING_BUDGET=str(10**11))
    out = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(orders), str(repeat or REPEAT)], capture_output=True, text=True,
        cwd=tree or ROOT, env=dict(os.environ, **extra) if extra else None,
    )
    try:
        spent, counts, stats = json.loads(out.stdout)
    except ValueError:
        return float("nan"), {"crash": 1}, None
    return float(spent), dict(counts), stats


_LATENCY = """
import sys, time
from pathlib import Path
from movecheck.core import Settings, check
path = Path(sys.argv[1])
text = path.read_text(encoding="utf-8")
check([str(path)], Settings())  # warm: modules loaded (each call reads and prepares the state again)
times = []
for k in range(int(sys.argv[2])):
    path.write_text(text.replace("moves:", "moves:" + " " * (k % 2 + 1), 1), encoding="utf-8")  # a one-character edit
    start = time.process_time()
    check([str(path)], Settings())
    times.append(time.process_time() - start)
path.write_text(text, encoding="utf-8")
times.sort()
print(times[len(times) // 2])
"""


def editor_latency(rounds: int = 9) -> float:
    """Median CPU of re-checking the example combat move in one process after a one-character edit."""
    folder = WORK / "latency"
    folder.mkdir(parents=True, exist_ok=True)
    for kind in ("orders", "states"):
        source = ROOT / "examples" / "aa" / kind / "g1-combat.yaml"
        (folder / f"{kind}.yaml").write_text(
            source.read_text(encoding="utf-8").replace("../states/", ""), encoding="utf-8"
        )
    orders = folder / "orders.yaml"
    text = orders.read_text(encoding="utf-8").replace("state: g1-combat.yaml", "state: states.yaml")
    orders.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _LATENCY, str(orders), str(rounds)], capture_output=True, text=True, cwd=ROOT
    )
    return float(out.stdout.strip() or "nan")


def family(title: str, sizes: list[int], build: Callable[[int], tuple[Path, int]], code: str, unit: str,
           search: bool = False) -> list[str]:
    """One table: per size, CPU, the findings of ``code`` against the exact count, MC012, and the growth.

    ``search``: the choice search's counters too (runs of the phase, choice points met, option lists made,
    lists taken from an earlier run, units copied onto the runs' boards)."""
    rows, times = [], []
    for n in sizes:
        orders, exact = build(n)
        spent, counts, stats = measure(orders)
        times.append(spent)
        row = f"| {n} {unit} | {spent:.3f} s | {counts.get(code, 0)} | {exact} | {counts.get('MC012', 0)} |"
        if search:
            row += " " + (" | ".join(str(x) for x in stats) if stats else "– | – | – | – | –") + " |"
        rows.append(row)
    exponent = [
        math.log(max(t2, 1e-4) / max(t1, 1e-4)) / math.log(n2 / n1)
        for (n1, t1), (n2, t2) in zip(
            zip(sizes, times, strict=True), zip(sizes[1:], times[1:], strict=True), strict=False
        )
    ]
    head = f"| size | CPU | {code} | exact {code} | MC012 |"
    rule = "| --- | --- | --- | --- | --- |"
    if search:
        head += " runs | points | options listed | lists reused | units copied |"
        rule += " --- | --- | --- | --- | --- |"
    lines = [f"\n### {title}\n", head, rule, *rows]
    if exponent:
        overall = math.log(max(times[-1], 1e-4) / max(times[0], 1e-4)) / math.log(sizes[-1] / sizes[0])
        lines.append(f"\ngrowth exponent: {', '.join(f'{e:.2f}' for e in exponent)}; {sizes[0]} → {sizes[-1]}: "
                     f"{overall:.2f} (target ≤ 1.5)")
    return lines


def error_first_table(quick: bool) -> list[str]:
    """Loads whose greedy packing fails, then a hub one tank short, with no counting bound and the default budget:
    the parts searched with the erring one that no choice helps first, against file order (before issue 37)."""
    lines = ["\n### error first: failing loads, then a hub one tank short (no counting bound, the default budget)\n",
             "| transports | CPU, error first | runs | findings | CPU, file order | runs | findings |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for n in [4, 6] if quick else [4, 6, 8, 12]:
        orders, _exact = error_first_case(n)
        row = f"| {n} |"
        for env in ({"MOVECHECK_BENCH_NO_BOUNDS": "1"},
                    {"MOVECHECK_BENCH_NO_BOUNDS": "1", "MOVECHECK_BENCH_FILE_ORDER": "1"}):
            spent, counts, stats = measure(orders, env=env)
            row += f" {spent:.3f} s | {stats[0] if stats else '-'} | {json.dumps(counts, sort_keys=True)} |"
        lines.append(row)
    return lines


def pacific_table(quick: bool, seeds: int = 10) -> list[str]:
    """Random Pacific-style landings (:func:`pacific_case`): per size, the median and worst CPU of ``seeds`` random
    positions and how many were MC012; at the small sizes, whether every one agrees with the search with no budget."""
    lines = ["\n### landing: random Pacific-style combat moves (three fighters per carrier, ten positions a size)\n",
             "| carriers | size of the files | median CPU | worst CPU | MC012 | agrees with no budget |",
             "| --- | --- | --- | --- | --- | --- |"]
    sizes = [(8, False), (16, False), (16, True)] if quick else [
        (8, False), (16, False), (24, False), (32, False), (48, False), (64, False), (16, True), (32, True)]
    for carriers, dense in sizes:
        times, unchecked, agree, size = [], 0, 0, 0
        for seed in range(seeds):
            orders, _ = pacific_case(carriers, seed, dense)
            size = orders.stat().st_size + (orders.parent / "state.json").stat().st_size
            spent, counts, _stats = measure(orders, 1)
            times.append(spent)
            unchecked += counts.get("MC012", 0) > 0
            if carriers <= 16:
                agree += measure(orders, 1, unbounded=True)[1] == counts
        verdict = f"{agree} of {seeds}" if carriers <= 16 else "–"
        median = sorted(times)[len(times) // 2]
        name = f"{carriers} dense" if dense else str(carriers)
        lines.append(f"| {name} | {size / 1024:.1f} KB | {median:.3f} s | {max(times):.3f} s "
                     f"| {unchecked} of {seeds} | {verdict} |")
    return lines


def side_by_side(before: Path, sizes: list[int], repeat: int) -> list[str]:
    """The big manoeuvre file (:func:`corps_file_case`) checked by the tree ``before`` and by this one, alternating
    size by size (the same load for both), the least CPU of ``repeat`` checks each."""
    lines = [f"\n### per_file: {before} against this tree (least of {repeat}, alternating)\n",
             "| orders | before | after | after / before | findings before | findings after |",
             "| --- | --- | --- | --- | --- | --- |"]
    for n in sizes:
        orders, _exact = corps_file_case(n)
        old, old_counts, _ = measure(orders, repeat, tree=before)
        new, new_counts, _ = measure(orders, repeat, tree=ROOT)
        lines.append(f"| {n} | {old:.3f} s | {new:.3f} s | {new / old:.2f} | {json.dumps(old_counts)} "
                     f"| {json.dumps(new_counts)} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="exact searches at scale")
    parser.add_argument("--quick", action="store_true", help="the two smallest sizes of each family")
    parser.add_argument("--issue37", action="store_true", help="only issue 37's families (B1-B4, B6, B9)")
    parser.add_argument("--pacific", action="store_true", help="only the random Pacific-style landings")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="checks per file (the least CPU is kept)")
    parser.add_argument("--per-file-before", type=Path, metavar="TREE",
                        help="only the big manoeuvre file, this source tree (e.g. `git archive` of the branch point) "
                        "against this one, 50 to 800 orders")
    args = parser.parse_args(argv)
    globals()["REPEAT"] = args.repeat
    WORK.mkdir(parents=True, exist_ok=True)
    if args.pacific:
        print("\n".join(pacific_table(args.quick)))
        return 0
    if args.per_file_before is not None:
        sizes = [50, 100] if args.quick else [50, 100, 200, 400, 800]
        print("\n".join(side_by_side(args.per_file_before.resolve(), sizes, args.repeat)))
        return 0
    if args.issue37:
        lines = ["# Issue 37's families (CPU of the check, start-up excluded)"]
        for name, title, sizes, build, code, unit in ISSUE_37:
            lines += family(f"{name}: {title}", sizes[:2] if args.quick else sizes, build, code, unit, search=True)
        lines += error_first_table(args.quick) + pacific_table(args.quick)
        lines += ["\n### the exact answers, by the search with no bound and no budget (the smallest size)\n",
                  "| family | size | CPU | findings | exact |", "| --- | --- | --- | --- | --- |"]
        for name, _title, sizes, build, code, unit in ISSUE_37:
            orders, exact = build(sizes[0])
            spent, counts, _stats = measure(orders, 1, unbounded=True)
            lines.append(f"| {name} | {sizes[0]} {unit} | {spent:.2f} s | {json.dumps(counts)} | {exact} {code} |")
        print("\n".join(lines))
        return 0

    def cut(sizes: list[int]) -> list[int]:
        return sizes[:2] if args.quick else sizes

    out = ["# Exact searches at scale (CPU of the check, start-up excluded)"]
    out += family(
        "landing: one fighter per private zone, carriers in a hub (2.5 fighters per carrier)",
        cut([16, 40, 100, 200]),
        lambda f: landing_case(f, 1, f * 2 // 5),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: fighters in pairs per zone",
        cut([32, 64, 100, 200]),
        lambda f: landing_case(f // 2, 2, f * 2 // 5),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: carriers of two reaches, allied fighters aboard, bombers mixed in",
        cut([16, 40, 100, 200]),
        lambda f: landing_case(f, 1, f * 2 // 5, mixed=True),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: one fighter per private zone, a quarter of the carriers bought this turn (on a factory's coast)",
        cut([16, 40, 100, 200]),
        lambda f: landing_case(f, 1, f * 2 // 5, bought=f // 10),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: two reaches, allied fighters, bombers, and a quarter of the carriers bought this turn",
        cut([16, 40, 100, 200]),
        lambda f: landing_case(f, 1, f * 2 // 5, mixed=True, bought=f // 10),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: fighters reaching two zones each (triangles of zones), carriers in a hub",
        cut([16, 40, 100, 200]),
        lambda f: triangles_case(f, f * 2 // 5),
        "AA207",
        "fighters",
    )
    out += family(
        "landing: fighters reaching two zones each, a quarter of the carriers bought this turn",
        cut([16, 40, 100, 200]),
        lambda f: triangles_case(f, f * 2 // 5, f // 10),
        "AA207",
        "fighters",
    )
    out += family(
        "choice: transports loading from count orders (bin packing)",
        cut([5, 10, 20, 40]),
        packing_case,
        "AA401",
        "transports",
        search=True,
    )
    out += family("choice: units named by id across several orders", cut([4, 10, 20, 40, 80]), ids_case, "AA401", "ids",
                  search=True)
    out += family("choice: mixed cargo", cut([5, 10, 20, 40]), mixed_cargo_case, "AA401", "transports", search=True)
    out += family("choice: fighters and carriers", cut([4, 10, 20, 40]), carriers_case, "AA304", "carriers",
                  search=True)
    out += family("choice: over-capacity loading (illegal)", cut([5, 11, 20, 40]), overload_case, "AA401",
                  "transports", search=True)
    out += family("choice: a transport sails in, then one infantry too many (illegal)", cut([4, 6, 10, 20, 40]),
                  sail_in_case, "AA401", "transports", search=True)
    out += family(
        "choice: loads onto partly loaded transports, then a load into a full one",
        cut([3, 6, 12, 20, 40]),
        british_case,
        "AA401",
        "loads",
        search=True,
    )
    out += family(
        "choice: loads, then an unrelated mistake elsewhere (independent parts)",
        cut([4, 8, 16, 20, 40]),
        parts_case,
        "AA104",
        "loads",
        search=True,
    )
    out += family(
        "choice: the same on a crowded board (1,000 more units far from every order)",
        cut([4, 8, 16, 20, 40]),
        crowded_parts_case,
        "AA104",
        "loads",
        search=True,
    )
    for name, title, sizes, build, code, unit in ISSUE_37:
        out += family(f"{name}: {title}", cut(sizes), build, code, unit, search=True)
    latency = editor_latency()
    out += [
        "\n### editor latency\n",
        "| case | CPU | target |",
        "| --- | --- | --- |",
        "| re-check of the example combat move after a one-character edit (one process, warm; state read again) "
        f"| {latency * 1000:.1f} ms | ≤ 30 ms |",
    ]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
