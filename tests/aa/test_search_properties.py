"""The exact searches against brute force on small random instances, and their verdicts under renaming.

Landing (AA207): fighters in their own battle zones, carriers waiting in hubs (some with an
allied fighter aboard); the brute force tries every zone for every carrier.  Transports
(AA401): count orders loading onto partly loaded transports; the brute force tries every
final content of every transport.  A renamed, reordered or regrouped instance gets the
same verdict.  The default run keeps the example counts small; ``-m slow`` runs many more.
"""

from __future__ import annotations

import itertools
import json
import random
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movecheck.aa.landing import carriers as carrier_search
from movecheck.aa.landing.carriers import Deck, Flyer, solve_landing
from tests.properties import in_two_runs

from .conftest import check_files, mv, orders, state, unit

A, B, J, G = "Americans", "British", "Japanese", "Germans"
FEW = settings(max_examples=8, deadline=None, derandomize=True)
MANY = settings(max_examples=300, deadline=None, derandomize=True)


# --- landing ---------------------------------------------------------------------------------

CARRIER = st.tuples(st.sampled_from(["H", "H2"]), st.booleans())  # hub, an allied fighter aboard
LANDING = st.tuples(st.lists(st.integers(1, 2), min_size=1, max_size=4),  # fighters per zone (≤ 8 fighters)
                    st.lists(CARRIER, max_size=6))


def hub_files(per_zone: list[int], carriers: list[tuple[str, bool]], names: dict[str, str] | None = None,
              reverse: bool = False, shuffle: random.Random | None = None) -> tuple[str, str]:
    """State and orders: fighters of zone i strike B<i> (one move left, reaching only Z<i>); hub H borders every
    Z<i>, hub H2 the even ones.  ``names`` renames spaces; ``reverse`` lists units and orders backwards."""
    n = (names or {}).get
    sea = ["H", "H2"]
    connections = []
    for i in range(len(per_zone)):
        sea += [f"A{i}", f"C{i}", f"B{i}", f"Z{i}"]
        connections += [["Home", f"A{i}"], [f"A{i}", f"C{i}"], [f"C{i}", f"B{i}"], [f"B{i}", f"Z{i}"], ["H", f"Z{i}"]]
        if i % 2 == 0:
            connections.append(["H2", f"Z{i}"])
    rename = lambda s: n(s, s)  # noqa: E731
    game_map = {"name": "hub", "powers": [A, B, J], "sides": {"Allies": [A, B], "Axis": [J]},
                "territories": [{"name": "Home"}] + [{"name": rename(s), "sea": True} for s in sea],
                "connections": [[rename(a), rename(b)] for a, b in connections], "control": {"Home": A}}
    units: list[dict[str, Any]] = [
        {"at": rename(f"B{i}"), "power": J, "type": "destroyer"} for i in range(len(per_zone))
    ]
    units += [
        {"at": "Home", "power": A, "type": "fighter", "id": f"F{i}-{k}"}
        for i, count in enumerate(per_zone)
        for k in range(count)
    ]
    for k, (hub, ally) in enumerate(carriers):
        units.append({"at": rename(hub), "power": A, "type": "carrier", "id": f"CV{k}"})
        if ally:
            units.append({"at": rename(hub), "power": B, "type": "fighter", "aboard": f"CV{k}"})
    moves = [
        mv([f"F{i}-{k}" for k in range(count)], "Home", rename(f"A{i}"), rename(f"C{i}"), rename(f"B{i}"))
        for i, count in enumerate(per_zone)
    ]
    if reverse:
        units, moves = units[::-1], moves[::-1]
    if shuffle is not None:  # the orders only (each moves its own fighters)
        shuffle.shuffle(moves)
    doc = {
        "movecheck": 1,
        "system": "aa",
        "map": game_map,
        "turn": {"round": 3, "power": A, "phase": "combat_move"},
        "units": units,
    }
    return json.dumps(doc), orders(A, "combat_move", moves)


def stranded_fighters(per_zone: list[int], carriers: list[tuple[str, bool]], **kw: Any) -> tuple[int, list[str]]:
    """Fighters the check says cannot land (one AA207 each: they have ids), and its other codes."""
    with tempfile.TemporaryDirectory() as folder:
        found = check_files(*hub_files(per_zone, carriers, **kw), Path(folder))
    count = sum(1 for f in found if f.code == "AA207")
    return count, sorted({f.code for f in found} - {"AA207", "AA309"})


def landing_brute_force(per_zone: list[int], carriers: list[tuple[str, bool]]) -> int:
    """Fighters left without a slot in the best placement of the carriers (each in one zone it reaches)."""
    reach = {"H": list(range(len(per_zone))), "H2": list(range(0, len(per_zone), 2))}
    best = 0
    for place in itertools.product(*[reach[hub] or [None] for hub, _ in carriers]):
        slots = [0] * len(per_zone)
        for zone, (_, ally) in zip(place, carriers, strict=True):
            if zone is not None:
                slots[zone] += 1 if ally else 2
        best = max(best, sum(min(a, b) for a, b in zip(per_zone, slots, strict=True)))
    return sum(per_zone) - best


def _landing_agrees(case: tuple[list[int], list[tuple[str, bool]]]) -> None:
    per_zone, carriers = case
    count, others = stranded_fighters(per_zone, carriers)
    assert others == []  # no MC012: exact
    assert count == landing_brute_force(per_zone, carriers)
    names = {s: f"{s} renamed" for s in ["H", "H2", *[f"{p}{i}" for i in range(len(per_zone)) for p in "ACBZ"]]}
    assert stranded_fighters(per_zone, carriers, names=names, reverse=True) == (count, others)


@FEW
@given(LANDING)
def test_landing_agrees_with_brute_force(case) -> None:
    _landing_agrees(case)


@pytest.mark.slow
@MANY
@given(LANDING)
def test_landing_agrees_with_brute_force_many(case) -> None:
    _landing_agrees(case)


DECKS = st.lists(
    st.tuples(st.integers(1, 2), st.sampled_from([("X", "Y"), ("X", "Y", "Z"), ("Y", "Z"), ("Z",)])), max_size=6
)
FLYERS = st.lists(st.sets(st.sampled_from("XYZ"), min_size=1), max_size=8)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(DECKS, FLYERS, st.randoms(use_true_random=False))
def test_alike_carriers_regrouped_and_renamed_land_as_many(decks, reaches, rng) -> None:
    """Many alike decks (classes of the search): the count is the brute-force optimum, whatever their order or names."""
    def solve(deck_specs, flyer_zones, rename):
        built = [
            Deck(f"d{k}", slots, [rename[z] for z in zones], rename[zones[0]])
            for k, (slots, zones) in enumerate(deck_specs)
        ]
        flyers = [Flyer(None, {}, [], {rename[z] for z in zones}) for zones in flyer_zones]  # type: ignore[arg-type]
        landing = solve_landing(flyers, built)
        assert landing.limit is None
        return len(landing.matching)

    same = {z: z for z in "XYZ"}
    landed = solve(decks, reaches, same)
    best = 0
    for place in itertools.product(*[zones for _, zones in decks]):
        slots = {z: 0 for z in "XYZ"}
        for zone, (k, _) in zip(place, decks, strict=True):
            slots[zone] += k
        best = max(best, _bipartite(reaches, slots))
    assert landed == best
    shuffled_decks, shuffled_reaches = list(decks), list(reaches)
    rng.shuffle(shuffled_decks)
    rng.shuffle(shuffled_reaches)
    assert solve(shuffled_decks, shuffled_reaches, {"X": "Z9", "Y": "A1", "Z": "M5"}) == landed


def _bipartite(reaches: list[set[str]], slots: dict[str, int]) -> int:
    """Most fighters seated: every way to seat them, one by one (a tiny exhaustive matching)."""
    best = 0

    def seat(k: int, left: dict[str, int], count: int) -> None:
        nonlocal best
        if count + len(reaches) - k <= best:
            return
        if k == len(reaches):
            best = max(best, count)
            return
        seat(k + 1, left, count)
        for z in sorted(reaches[k]):
            if left[z]:
                left[z] -= 1
                seat(k + 1, left, count + 1)
                left[z] += 1

    seat(0, dict(slots), 0)
    return best


# --- transports --------------------------------------------------------------------------------

ZONE = "5 Sea Zone"
CONTENTS = ["", "i", "t", "ii", "it"]  # what a transport may hold: nothing, infantry, another unit, or two
TRANSPORTS = st.lists(st.sampled_from(["", "i", "t", "ii"]), min_size=1, max_size=6)
LOADS = st.lists(
    st.tuples(st.sampled_from(["infantry", "tank", "artillery"]), st.integers(1, 2)), min_size=1, max_size=4
)


def transport_state(aboard: list[str], names: list[str]) -> str:
    units = [unit("Germany", G, "infantry", 8), unit("Germany", G, "tank", 8), unit("Germany", G, "artillery", 8)]
    for name, cargo in zip(names, aboard, strict=True):
        units.append(unit(ZONE, G, "transport", id=name))
        for kind in cargo:
            units.append(unit(ZONE, G, "infantry" if kind == "i" else "tank", aboard=name))
    return state(G, "noncombat_move", units=units)


def transport_brute_force(aboard: list[str], loads: list[tuple[str, int]]) -> bool:
    """Some final content of every transport holds what it had and all the loads."""
    want_i = sum(n for kind, n in loads if kind == "infantry")
    want_o = sum(n for kind, n in loads if kind != "infantry")
    for final in itertools.product(CONTENTS, repeat=len(aboard)):
        if all(
            f.count("i") >= a.count("i") and f.count("t") >= a.count("t") for f, a in zip(final, aboard, strict=True)
        ):
            gain_i = sum(f.count("i") - a.count("i") for f, a in zip(final, aboard, strict=True))
            gain_o = sum(f.count("t") - a.count("t") for f, a in zip(final, aboard, strict=True))
            if gain_i == want_i and gain_o == want_o:
                return True
    return False


def transport_codes(aboard: list[str], loads: list[tuple[str, int]], names: list[str]) -> list[str]:
    moves = [mv({kind: n}, "Germany", ZONE) for kind, n in loads]
    with tempfile.TemporaryDirectory() as folder:
        found = check_files(transport_state(aboard, names), orders(G, "noncombat_move", moves), Path(folder))
    return sorted({f.code for f in found})


def _transports_agree(aboard: list[str], loads: list[tuple[str, int]]) -> None:
    names = [f"T{k}" for k in range(len(aboard))]
    found = transport_codes(aboard, loads, names)
    assert "MC012" not in found
    assert (found == []) == transport_brute_force(aboard, loads), found
    # renamed transports, the orders reversed, and all the loads as one order: the same verdict
    assert (transport_codes(aboard, loads[::-1], [f"X{k}" for k in range(len(aboard))][::-1]) == []) == (found == [])
    merged: dict[str, int] = {}
    for kind, n in loads:
        merged[kind] = merged.get(kind, 0) + n
    with tempfile.TemporaryDirectory() as folder:
        one = check_files(
            transport_state(aboard, names), orders(G, "noncombat_move", [mv(merged, "Germany", ZONE)]), Path(folder)
        )
    assert (one == []) == (found == [])


@FEW
@given(TRANSPORTS, LOADS)
def test_transports_agree_with_brute_force(aboard, loads) -> None:
    _transports_agree(aboard, loads)


@pytest.mark.slow
@MANY
@given(TRANSPORTS, LOADS)
def test_transports_agree_with_brute_force_many(aboard, loads) -> None:
    _transports_agree(aboard, loads)


# --- landing: fighters reaching several zones, carriers bought this turn, the search by pieces -----------------

ZONES = ["Z0", "Z1", "Z2", "Z3", "Z4"]
SOME_ZONES = st.sets(st.sampled_from(ZONES), min_size=1, max_size=3)
SOLVER_DECK = st.tuples(st.sampled_from(["hub", "home", "fixed", "bought"]), st.integers(1, 2),
                        st.one_of(st.just(set(ZONES)), SOME_ZONES))
# fighters that keep to the pieces {Z0, Z1}, {Z2}, {Z3, Z4}, and a coast of whole pieces: the search by pieces,
# with bought carriers counted with the hub's where they are alike
PIECE_REACH = st.sampled_from([{"Z0"}, {"Z1"}, {"Z0", "Z1"}, {"Z2"}, {"Z3"}, {"Z4"}, {"Z3", "Z4"}])
PIECE_COAST = st.sampled_from([{"Z0", "Z1"}, {"Z2"}, {"Z0", "Z1", "Z2"}, {"Z3", "Z4"}, {"Z1", "Z3"}])
SOLVER_CASE = st.one_of(
    st.tuples(st.lists(SOLVER_DECK, max_size=6), st.lists(SOME_ZONES, max_size=8), SOME_ZONES),
    st.tuples(st.lists(SOLVER_DECK, max_size=6), st.lists(PIECE_REACH, max_size=8), PIECE_COAST),
)


def solver_decks(specs: list[tuple[str, int, set[str]]], coast: set[str], rename: dict[str, str]) -> list[Deck]:
    """Decks of the solver: waiting in a hub no fighter reaches, movable from one of their zones, fixed in one
    zone, or bought this turn (two slots, placed on the factory's coast)."""
    decks = []
    for k, (kind, slots, zones) in enumerate(specs):
        named, first = sorted(rename[z] for z in zones), rename[min(zones)]
        if kind == "hub":
            decks.append(Deck(f"c{k}", slots, named, "H"))
        elif kind == "home":
            decks.append(Deck(f"c{k}", slots, named, first))
        elif kind == "fixed":
            decks.append(Deck(f"c{k}", slots, [first], first))
        else:
            decks.append(Deck(f"~bought-carrier-{k}", 2, sorted(rename[z] for z in coast), None))
    return decks


def solver_brute_force(decks: list[Deck], reaches: list[set[str]]) -> int:
    """The most fighters landed over every zone of every deck (each deck in one zone)."""
    best = 0
    for place in itertools.product(*[d.zones for d in decks]):
        slots = {z: 0 for z in {z for r in reaches for z in r} | set(place)}
        for zone, deck in zip(place, decks, strict=True):
            slots[zone] += deck.slots
        best = max(best, _bipartite(reaches, slots))
    return best


def solve_checked(decks: list[Deck], reaches: list[set[str]]) -> int:
    """Fighters the search lands, after checking its plan is one: each deck in one of its zones, each fighter on a
    deck in a zone it reaches, no deck over its slots."""
    landing = solve_landing([Flyer(None, {}, [], set(r)) for r in reaches], decks)  # type: ignore[arg-type]
    assert landing.limit is None and landing.undecided == []
    used: dict[int, int] = {}
    for f, d in landing.matching.items():
        zone = landing.zones[decks[d].key]
        assert zone in decks[d].zones and zone in reaches[f]
        used[d] = used.get(d, 0) + 1
        assert used[d] <= decks[d].slots
    return len(landing.matching)


def _solver_agrees(case: tuple[list[tuple[str, int, set[str]]], list[set[str]], set[str]], rng: Any) -> None:
    specs, reaches, coast = case
    same = {z: z for z in ZONES}
    best = solver_brute_force(solver_decks(specs, coast, same), reaches)
    assert solve_checked(solver_decks(specs, coast, same), reaches) == best
    # the search by pieces alone (the branch-and-bound given no steps first) agrees too
    with mock.patch.object(carrier_search, "TRIAL", 0):
        assert solve_checked(solver_decks(specs, coast, same), reaches) == best
    # renamed zones, decks and fighters in another order, alike decks regrouped (listed apart): the same count
    names = dict(zip(ZONES, ["Y9", "A1", "M5", "B2", "Q0"], strict=True))
    specs, reaches = list(specs), [{names[z] for z in r} for r in reaches]
    rng.shuffle(specs)
    rng.shuffle(reaches)
    shuffled = solver_decks(specs, coast, names)
    assert solve_checked(shuffled, reaches) == best


test_solver_landing_agrees_with_brute_force, test_solver_landing_agrees_with_brute_force_in_full = in_two_runs(
    settings(max_examples=300, deadline=None, derandomize=True), SOLVER_CASE, st.randoms(use_true_random=False)
)(_solver_agrees)


def test_triangles_of_fighters_with_bought_carriers_are_exact_in_few_steps() -> None:
    """Six triangles of zones, three fighters each reaching two zones of theirs, and two more fighters; six alike
    carriers in a hub and two bought (issue 28's F=20 / D=8): exact, the branch-and-bound ran out past 10 million
    steps.  One carrier lands two fighters of a triangle, two land three."""
    reaches = [set(p) for t in range(6) for p in ((f"T{t}a", f"T{t}b"), (f"T{t}b", f"T{t}c"), (f"T{t}c", f"T{t}a"))]
    reaches += [{"E0", "T0a"}, {"E1", "T0a"}]
    zones = sorted({z for r in reaches for z in r})
    coast = sorted(z for z in zones if z[:2] in ("T0", "T1", "E0", "E1"))
    decks = [Deck(f"c{k}", 2, zones, "H") for k in range(6)]
    decks += [Deck(f"~bought-carrier-{k}", 2, coast, None) for k in range(2)]
    work = carrier_search._Work(10_000_000)
    landing = solve_landing([Flyer(None, {}, [], r) for r in reaches], decks, work)  # type: ignore[arg-type]
    assert landing.limit is None and len(landing.matching) == 15  # 7 carriers land 2 + one more lands 1
    assert work.used < 60_000
    alike = [Deck(f"c{k}", 2, zones[:18], "H") for k in range(7)]  # seven alike carriers, the triangles alone
    work = carrier_search._Work(10_000_000)
    landing = solve_landing([Flyer(None, {}, [], r) for r in reaches[:18]], alike, work)  # type: ignore[arg-type]
    assert landing.limit is None and len(landing.matching) == 13 and work.used < 30_000


# file level: fighters of group i strike B<i>, next to the zones of their group; hubs H (next to every Z<j>) and H2
# (next to the even ones); carriers bought this turn go next to the factory in Yard (coast: some Z<j>)
REACH_GROUP = st.tuples(st.sets(st.integers(0, 4), min_size=1, max_size=3), st.integers(1, 2))
REACH_CASE = st.tuples(
    st.lists(REACH_GROUP, min_size=1, max_size=4).filter(lambda g: sum(n for _, n in g) <= 8),
    st.lists(CARRIER, max_size=5),
    st.integers(0, 2),
    st.sets(st.integers(0, 4), min_size=1, max_size=3),
)


def reach_files(groups: list[tuple[set[int], int]], carriers: list[tuple[str, bool]], bought: int, coast: set[int],
                names: dict[str, str] | None = None, reverse: bool = False, zones: int = 5) -> tuple[str, str]:
    rename = (names or {}).get
    r = lambda s: rename(s, s)  # noqa: E731
    sea = ["H", "H2", *[f"Z{j}" for j in range(zones)]]
    connections = [["H", f"Z{j}"] for j in range(zones)] + [["H2", f"Z{j}"] for j in range(0, zones, 2)]
    connections += [["Yard", f"Z{j}"] for j in sorted(coast)]
    units: list[dict[str, Any]] = [{"at": "Yard", "power": A, "type": "factory"}]
    moves = []
    for i, (reach, count) in enumerate(groups):
        sea += [f"A{i}", f"C{i}", f"B{i}"]
        connections += [["Home", f"A{i}"], [f"A{i}", f"C{i}"], [f"C{i}", f"B{i}"]]
        connections += [[f"B{i}", f"Z{j}"] for j in sorted(reach)]
        units.append({"at": r(f"B{i}"), "power": J, "type": "destroyer"})
        units += [{"at": "Home", "power": A, "type": "fighter", "id": f"F{i}-{k}"} for k in range(count)]
        moves.append(mv([f"F{i}-{k}" for k in range(count)], "Home", r(f"A{i}"), r(f"C{i}"), r(f"B{i}")))
    for k, (hub, ally) in enumerate(carriers):
        units.append({"at": r(hub), "power": A, "type": "carrier", "id": f"CV{k}"})
        if ally:
            units.append({"at": r(hub), "power": B, "type": "fighter", "aboard": f"CV{k}"})
    if reverse:
        units, moves = units[::-1], moves[::-1]
    game_map = {"name": "reach", "powers": [A, B, J], "sides": {"Allies": [A, B], "Axis": [J]},
                "territories": [{"name": "Home"}, {"name": "Yard"}] + [{"name": r(s), "sea": True} for s in sea],
                "connections": [[r(a), r(b)] for a, b in connections], "control": {"Home": A, "Yard": A}}
    doc: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": game_map,
                           "turn": {"round": 3, "power": A, "phase": "combat_move"}, "units": units}
    if bought:
        doc["purchased"] = {"carrier": bought}
    return json.dumps(doc), orders(A, "combat_move", moves)


def reach_brute_force(groups: list[tuple[set[int], int]], carriers: list[tuple[str, bool]], bought: int,
                      coast: set[int]) -> int:
    """Fighters left without a slot in the best placement: H's carriers in any Z, H2's in the even ones, bought
    ones on the coast."""
    decks = [Deck("", 1 if ally else 2, [f"Z{j}" for j in (range(5) if hub == "H" else range(0, 5, 2))], None)
             for hub, ally in carriers]
    decks += [Deck("", 2, [f"Z{j}" for j in sorted(coast)], None) for _ in range(bought)]
    reaches = [{f"Z{j}" for j in zones} for zones, count in groups for _ in range(count)]
    return len(reaches) - solver_brute_force(decks, reaches)


def _reach_agrees(case: tuple[list[tuple[set[int], int]], list[tuple[str, bool]], int, set[int]]) -> None:
    groups, carriers, bought, coast = case
    found = {}
    for key, kw in (("plain", {}), ("renamed", {"names": {s: f"{s}'" for s in ["H", "H2", "Z0", "Z3", "B0", "C1"]},
                                                "reverse": True})):
        with tempfile.TemporaryDirectory() as folder:
            findings = check_files(*reach_files(groups, carriers, bought, coast, **kw), Path(folder))
        others = sorted({f.code for f in findings} - {"AA207", "AA309"})
        found[key] = (sum(1 for f in findings if f.code == "AA207"), others)
    assert found["plain"] == (reach_brute_force(groups, carriers, bought, coast), [])  # exact: no MC012
    assert found["renamed"] == found["plain"]


test_landing_with_bought_carriers_and_wider_reach_agrees_with_brute_force, \
    test_landing_with_bought_carriers_and_wider_reach_agrees_with_brute_force_in_full = in_two_runs(
        settings(max_examples=150, deadline=None, derandomize=True), REACH_CASE
    )(_reach_agrees)


def test_triangles_with_bought_carriers_through_an_orders_file_are_exact() -> None:
    """Issue 28's F=20 / D=8 through a real orders file: six triangles of zones (each fighter strikes a battle zone
    next to two zones of its triangle), two fighters more (each reaching a zone of its own and the first triangle's
    first zone), six carriers in the hub and two bought this turn (the factory's coast: the first two triangles and
    the two extra zones).  Exactly the 5 fighters no plan lands: the first piece's five fighters take two carriers
    (four reach one zone), every other triangle one (two fighters) and one triangle a second (its third fighter):
    4 + 5 * 2 + 1 = 15 of 20.  Before the search by pieces: MC012 for all 20 orders after 2.4 s."""
    groups = [({3 * t + j, 3 * t + (j + 1) % 3}, 1) for t in range(6) for j in range(3)] + [({18, 0}, 1), ({19, 0}, 1)]
    with tempfile.TemporaryDirectory() as folder:
        files = reach_files(groups, [("H", False)] * 6, 2, {0, 1, 2, 3, 4, 5, 18, 19}, zones=20)
        findings = check_files(*files, Path(folder))
    assert sum(1 for f in findings if f.code == "AA207") == 5
    assert {f.code for f in findings} <= {"AA207", "AA309"}  # no MC012
