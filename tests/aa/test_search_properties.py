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
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movecheck.aa.carrier_search import Deck, Flyer, solve_landing

from .conftest import check_files, mv, orders, state, unit

A, B, J, G = "Americans", "British", "Japanese", "Germans"
FEW = settings(max_examples=8, deadline=None, derandomize=True)
MANY = settings(max_examples=300, deadline=None, derandomize=True)


# --- landing ---------------------------------------------------------------------------------

CARRIER = st.tuples(st.sampled_from(["H", "H2"]), st.booleans())  # hub, an allied fighter aboard
LANDING = st.tuples(st.lists(st.integers(1, 2), min_size=1, max_size=4),  # fighters per zone (≤ 8 fighters)
                    st.lists(CARRIER, max_size=6))


def hub_files(per_zone: list[int], carriers: list[tuple[str, bool]], names: dict[str, str] | None = None,
              reverse: bool = False) -> tuple[str, str]:
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
