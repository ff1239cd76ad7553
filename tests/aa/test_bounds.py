"""Issue 37: errors proved by counting before any search, and what the search promises.

Each family of the issue (B1, B2, B3, B6, B9; B4 is B2's hub at the end of a long move) is decided
with no run of the search, where it used to run out (MC012).  The bounds are tested against the
search with no bound and no budget on small random cases: a bound never claims an error some
choice avoids, and the verdict is the same.  Shuffling orders that share no space never changes
the verdict either.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from movecheck.aa import choice, engine
from movecheck.aa.choice import SearchStats
from movecheck.aa.overloads import Overloads
from movecheck.clauses import Severity
from tests.harness import check_report

from .conftest import mv, orders, state, unit

A, B, G = "Americans", "British", "Germans"
NCM = "noncombat_move"


def custom_map(land: list[str], sea: list[str], connections: list[list[str]], power: str) -> dict[str, Any]:
    return {"name": "custom", "powers": [A, B, G, "Japanese"], "sides": {"Allies": [A, B], "Axis": [G, "Japanese"]},
            "territories": [{"name": n} for n in land] + [{"name": n, "sea": True} for n in sea],
            "connections": connections, "control": dict.fromkeys(land, power)}


def checked(state_text: str, power: str, moves: list[dict[str, Any]], errors_only: bool = False
            ) -> tuple[list[tuple[str, int | None]], list[SearchStats]]:
    """The findings (code, order), sorted (``errors_only``: the errors), and the stats of each search run."""
    seen: list[SearchStats] = []
    token = choice.OBSERVER.set(seen.append)
    try:
        with tempfile.TemporaryDirectory() as folder:
            report, _ = check_report(state_text, orders(power, NCM, moves), folder=Path(folder))
    finally:
        choice.OBSERVER.reset(token)
    found = [f for f in report.sorted_findings() if not errors_only or f.severity is Severity.ERROR]
    return [(f.code, f.order) for f in found], seen


def unbounded(state_text: str, power: str, moves: list[dict[str, Any]], errors_only: bool = False
              ) -> list[tuple[str, int | None]]:
    """The verdict of the search with no counting bound and no budget worth the name: every choice tried."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "BOUNDS", False, raising=False)
        patch.setattr(Overloads, "lower_bound", lambda self: 0)
        patch.setattr(Overloads, "counts", lambda self, order, code: False)
        patch.setenv("MOVECHECK_CHOICE_BUDGET", "50000000")
        found, _ = checked(state_text, power, moves, errors_only)
    assert "MC012" not in {code for code, _ in found}
    return found


def errors(found: list[tuple[str, int | None]]) -> list[str]:
    return sorted(code for code, _ in found if code.startswith(("AA", "MC")))


# --- the families, decided with no search run ------------------------------------


def b1(transports: int) -> tuple[str, list[dict[str, Any]]]:
    """Loads into 6 and 7 Sea Zone (every other transport with an infantry aboard), a full transport sails
    9 -> 8 Sea Zone, then one more infantry loads into 8 Sea Zone."""
    uk = "United Kingdom"
    units = [unit(uk, B, "infantry", transports + 1), unit(uk, B, "tank", transports)]
    for zone in ("6 Sea Zone", "7 Sea Zone"):
        for k in range(transports):
            units.append(unit(zone, B, "transport", id=f"T{zone[0]}{k}"))
            if k % 2:
                units.append(unit(zone, B, "infantry", aboard=f"T{zone[0]}{k}"))
    units += [unit("9 Sea Zone", B, "transport", id="TF"), unit("9 Sea Zone", B, "infantry", 2, aboard="TF")]
    moves = [mv({"infantry": 1, "tank": 1}, uk, zone) for zone in ("6 Sea Zone", "7 Sea Zone")
             for _ in range(transports // 2)]
    moves += [mv({"transport": 1}, "9 Sea Zone", "8 Sea Zone"), mv({"infantry": 1}, uk, "8 Sea Zone")]
    return state(B, NCM, units=units), moves


def hub(fresh: int, plan: list[str]) -> tuple[str, list[dict[str, Any]]]:
    """Tanks at Depot and ``fresh`` tanks at Hub; ``plan``: "in" drives a tank Depot -> Hub, "1" sends one a step
    on (Hub -> Near), "2" two steps (Hub -> Near -> Far), "b" one back (Hub -> Depot)."""
    land = ["Depot", "Hub", "Near", "Far"]
    game_map = custom_map(land, [], [["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"]], G)
    units = [unit("Depot", G, "tank", max(2, plan.count("in")))] + ([unit("Hub", G, "tank", fresh)] if fresh else [])
    paths = {"in": ["Depot", "Hub"], "1": ["Hub", "Near"], "2": ["Hub", "Near", "Far"], "b": ["Hub", "Depot"]}
    return state(G, NCM, units=units, map=game_map), [mv({"tank": 1}, *paths[step]) for step in plan]


def shores(cargo: list[str], targets: list[int], sail_in: int = 0) -> tuple[str, list[dict[str, Any]]]:
    """Transports in Sea with ``cargo`` ("it": an infantry and a tank aboard), ``sail_in`` more (each with an
    infantry aboard) sailing in from Far first; one infantry (a tank for a negative target) unloads into
    Shore<t> for each target t."""
    land = [f"Shore{k}" for k in range(5)]
    game_map = custom_map(land, ["Sea", "Far"], [["Sea", s] for s in land] + [["Sea", "Far"]], A)
    units: list[dict[str, Any]] = []
    for k, aboard in enumerate(cargo):
        units.append(unit("Sea", A, "transport", id=f"T{k}"))
        units += [unit("Sea", A, "infantry" if c == "i" else "tank", aboard=f"T{k}") for c in aboard]
    for k in range(sail_in):
        units += [unit("Far", A, "transport", id=f"F{k}"), unit("Far", A, "infantry", aboard=f"F{k}")]
    moves = [mv([f"F{k}"], "Far", "Sea") for k in range(sail_in)]
    moves += [mv({"tank" if t < 0 else "infantry": 1}, "Sea", f"Shore{abs(t) % 5}") for t in targets]
    return state(A, NCM, units=units, map=game_map), moves


def decks(carriers: list[int], flights: list[tuple[int, int]]) -> tuple[str, list[dict[str, Any]]]:
    """Carriers per zone Z<i>, fighters at Field; ``flights``: (zone, fighters) per order."""
    zones = [f"Z{k}" for k in range(len(carriers))]
    game_map = custom_map(["Field"], zones, [["Field", z] for z in zones], A)
    units = [unit("Field", A, "fighter", max(1, sum(n for _, n in flights)))]
    for zone, count in zip(zones, carriers, strict=True):
        units += [unit(zone, A, "carrier") for _ in range(count)]
    return state(A, NCM, units=units, map=game_map), [mv({"fighter": n}, "Field", zones[z]) for z, n in flights]


def test_b1_a_full_transport_sailing_in_brings_no_room() -> None:
    """B1: the transport sailing into 8 Sea Zone is full, so the last load's AA401 is proved by counting (it
    used to count the transport's whole capacity as room that came in, and search every load into 6 and 7)."""
    found, seen = checked(*b1(6)[:1], B, b1(6)[1])
    assert found == [("AA401", 8)]
    assert all(stats.runs == 0 for stats in seen)


def test_b2_one_fresh_tank_short_at_a_hub_is_aa104_by_counting() -> None:
    """B2: 13 tanks drive into a hub where 4 fresh tanks stand, 12 orders send one a step on, 5 two steps."""
    text, moves = hub(4, ["in"] * 13 + ["1"] * 12 + ["2"] * 5)
    found, seen = checked(text, G, moves)
    assert [code for code, _ in found] == ["AA104"]
    assert all(stats.runs == 0 for stats in seen)


def test_b2_legal_when_the_fresh_tanks_suffice() -> None:
    """The close legal case: one two-step order fewer.  The greedy choice sends the fresh tanks a step on first;
    the search's first try keeps them for the two-step orders (it ran out of budget: MC012)."""
    text, moves = hub(4, ["in"] * 13 + ["1"] * 13 + ["2"] * 4)
    found, seen = checked(text, G, moves)
    assert found == []
    assert sum(stats.runs for stats in seen) == 0


def test_b3_more_unload_territories_than_transports_is_aa404_by_counting() -> None:
    """B3 at eight transports (over 240 s exact before): one infantry unloaded into each of eight territories, then
    a tank into a ninth.  The bound proves one error; the search's first try, cargo off transports that unloaded
    nowhere yet, has just one: the tank's."""
    land = [f"Shore{k}" for k in range(9)]
    game_map = custom_map(land, ["Sea"], [["Sea", s] for s in land], A)
    units: list[dict[str, Any]] = []
    for k in range(8):
        units += [unit("Sea", A, "transport", id=f"T{k}"), unit("Sea", A, "infantry", aboard=f"T{k}"),
                  unit("Sea", A, "tank" if k % 2 == 0 else "infantry", aboard=f"T{k}")]
    moves = [mv({"infantry": 1}, "Sea", s) for s in land[:8]] + [mv({"tank": 1}, "Sea", land[8])]
    found, seen = checked(state(A, NCM, units=units, map=game_map), A, moves)
    assert found == [("AA404", 9)]
    assert sum(stats.runs for stats in seen) == 0


def test_b3_legal_when_the_tank_goes_where_an_infantry_went() -> None:
    text, moves = shores(["it", "ii"], [1, 2, -1])
    found, _ = checked(text, A, moves)
    assert found == []


def test_b6_one_fighter_over_the_last_pair_of_carriers_is_aa304_by_counting() -> None:
    """B6: fighters onto 16 pairs of carriers, two orders of two per zone, the last zone one fighter over."""
    flights = [(z, 2) for z in range(16) for _ in range(2)] + [(15, 1)]
    found, seen = checked(*decks([2] * 16, flights)[:1], A, decks([2] * 16, flights)[1])
    assert [code for code, _ in found] == ["AA304"]
    assert all(stats.runs == 0 for stats in seen)


def b9(loads: int, bought: bool = True) -> tuple[str, list[dict[str, Any]]]:
    """Unrelated loads (an infantry, then a tank, onto two transports of their own zone, one with an infantry
    aboard) and a hopeless one into a zone a full transport sails into, with a carrier bought."""
    land = ["Yard"] + [f"L{k}" for k in range(loads)]
    sea = ["Far", "Last"] + [f"S{k}" for k in range(loads)]
    connections = [["Yard", "Last"], ["Far", "Last"]] + [[f"L{k}", f"S{k}"] for k in range(loads)]
    units = [unit("Yard", A, "factory"), unit("Yard", A, "infantry"), unit("Far", A, "transport", id="TF"),
             unit("Far", A, "infantry", 2, aboard="TF")]
    moves = []
    for k in range(loads):
        units += [unit(f"L{k}", A, "infantry", 2), unit(f"L{k}", A, "tank"),
                  unit(f"S{k}", A, "transport", id=f"T{k}"), unit(f"S{k}", A, "transport", id=f"U{k}"),
                  unit(f"S{k}", A, "infantry", aboard=f"U{k}")]
        moves += [mv({"infantry": 1}, f"L{k}", f"S{k}"), mv({"tank": 1}, f"L{k}", f"S{k}")]
    moves += [mv({"transport": 1}, "Far", "Last"), mv({"infantry": 1}, "Yard", "Last")]
    text = state(A, NCM, units=units, map=custom_map(land, sea, connections, A),
                 purchased={"carrier": 1} if bought else None)
    return text, moves


def test_b9_a_bought_carrier_keeps_unrelated_loads_apart_when_no_aircraft_moves(monkeypatch) -> None:
    """B9, without the counting bounds: the loads are searched apart although a carrier was bought (it used to
    switch the split off, and the search ran out); with the carrier or without it, the same verdict."""
    monkeypatch.setattr(engine, "BOUNDS", False, raising=False)
    monkeypatch.setattr(Overloads, "lower_bound", lambda self: 0)
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "20000")
    with_carrier, _ = checked(*b9(12)[:1], A, b9(12)[1])
    without, _ = checked(*b9(12, bought=False)[:1], A, b9(12, bought=False)[1])
    assert with_carrier == without == [("AA401", 26)]


# --- the bounds against every choice ---------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 3), st.lists(st.sampled_from(["in", "1", "2", "b"]), min_size=1, max_size=7))
@example(1, ["in", "in", "1", "2", "2"])  # one fresh tank, two two-step orders: one short
@example(0, ["in", "b", "in", "2"])  # a tank back to the depot and in again has no movement left
@example(2, ["2", "in", "1", "1", "2"])
def test_the_movement_bound_never_claims_an_error_some_choice_avoids(fresh, plan) -> None:
    _same_verdict(*hub(fresh, plan), G)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["", "i", "ii", "it"]), max_size=3),
       st.lists(st.integers(-4, 4), min_size=1, max_size=5), st.integers(0, 2))
@example(["it", "ii"], [1, 2, -3], 0)  # three territories, two transports
@example(["i"], [1, 2], 1)  # a transport that sails in unloads too
def test_the_unload_bound_never_claims_an_error_some_choice_avoids(cargo, targets, sail_in) -> None:
    _same_verdict(*shores(cargo, targets, sail_in), A)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=3),
       st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3)), min_size=1, max_size=4))
@example([1, 2], [(0, 2), (0, 1)])
@example([0, 1, 1], [(2, 2), (0, 1), (2, 2), (2, 3)])  # a zone with no carrier (AA303) and one overflowing
def test_the_slot_bound_never_claims_an_error_some_choice_avoids(carriers, flights) -> None:
    flights = [(z % len(carriers), n) for z, n in flights]
    _same_verdict(*decks(carriers, flights), A)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.sampled_from([2, 4]), st.booleans())
def test_the_room_a_sailing_transport_brings_never_claims_an_error_some_choice_avoids(transports, last) -> None:
    text, moves = b1(transports)
    if not last:
        moves = moves[:-1]
    _same_verdict(text, moves, B)


def _same_verdict(text: str, moves: list[dict[str, Any]], power: str) -> None:
    """The bounds (recorded as the search reads them) are at most the best choice's errors, and the verdict with
    them and the default budget is the unbounded search's."""
    proved: list[int] = []
    read = engine.least_errors

    def recording(*args: Any) -> int:
        proved.append(read(*args))
        return proved[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "least_errors", recording)
        bounded, _ = checked(text, power, moves)
    whole = unbounded(text, power, moves)
    assert all(least <= len(unbounded(text, power, moves, errors_only=True)) for least in proved)
    assert errors(bounded) == errors(whole)


# --- what the search promises ------------------------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2), st.lists(st.sampled_from(["in", "1", "2"]), min_size=1, max_size=5),
       st.lists(st.sampled_from(["", "i", "it"]), min_size=1, max_size=2), st.lists(st.integers(-2, 2), max_size=3),
       st.randoms(use_true_random=False))
def test_shuffling_orders_that_share_no_space_never_changes_the_verdict(fresh, plan, cargo, targets, rnd) -> None:
    """A hub's tanks and a zone's unloads on one map share no space: interleaving the two lists of orders
    (each keeping its own order) gives the verdict of the unbounded search on the orders as first written."""
    land = ["Depot", "Hub", "Near", "Far"] + [f"Shore{k}" for k in range(3)]
    connections = [["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"]] + [["Sea", f"Shore{k}"] for k in range(3)]
    game_map = custom_map(land, ["Sea"], connections, A)
    units = [unit("Depot", A, "tank", 4)] + ([unit("Hub", A, "tank", fresh)] if fresh else [])
    for k, aboard in enumerate(cargo):
        units.append(unit("Sea", A, "transport", id=f"T{k}"))
        units += [unit("Sea", A, "infantry" if c == "i" else "tank", aboard=f"T{k}") for c in aboard]
    paths = {"in": ["Depot", "Hub"], "1": ["Hub", "Near"], "2": ["Hub", "Near", "Far"]}
    tanks = [mv({"tank": 1}, *paths[step]) for step in plan]
    unloads = [mv({"tank" if t < 0 else "infantry": 1}, "Sea", f"Shore{abs(t)}") for t in targets]
    text = state(A, NCM, units=units, map=game_map)
    mixed: list[dict[str, Any]] = []
    a, b = list(tanks), list(unloads)
    while a or b:
        source = a if a and (not b or rnd.random() < 0.5) else b
        mixed.append(source.pop(0))
    assert errors(checked(text, A, mixed)[0]) == errors(unbounded(text, A, tanks + unloads))


def test_a_phase_with_a_shuffled_independent_part_keeps_its_verdict() -> None:
    """The issue's B1 with its loads into 6 and 7 Sea Zone written in another order: the same verdict."""
    text, moves = b1(4)
    shuffled = list(moves[:-2])
    random.Random(7).shuffle(shuffled)
    first = errors(checked(text, B, moves)[0])
    assert first == errors(checked(text, B, [*shuffled, *moves[-2:]])[0]) == ["AA401"]
