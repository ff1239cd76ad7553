"""The choice search's runs: option lists kept between runs, copies of only the spaces the orders touch,
packings by counts per class of vessel (issue 28).

Each shortcut must leave every verdict, finding and ``assignment`` as the plain search gives them:
the tests turn a shortcut off (:data:`movecheck.aa.engine.KEEP_LISTINGS`,
:data:`movecheck.aa.engine.PARTIAL_COPIES`) and compare, and count what a search did
(:data:`movecheck.aa.choice.OBSERVER`).
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from movecheck.aa import choice, engine
from movecheck.aa.choice import SearchStats, packings
from movecheck.aa.model import Board
from movecheck.aa.units import Unit, UnitType
from tests.harness import check_report

from .conftest import mv, orders, state, unit

G = "Germans"
ZONE = "5 Sea Zone"
NCM = "noncombat_move"
FLIGHT = ["Italy", "Southern Europe", "Balkans", "Ukraine S.S.R.", "Caucasus"]


def loads_then_flights(loads: int, spread: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """Tanks then infantry loading by count onto empty transports, then two long flights of which one is too long
    for every fighter there (the benchmark's "unrelated mistake elsewhere"), on a board with units far away."""
    units = [unit("Germany", G, "infantry", loads), unit("Germany", G, "tank", loads)]
    units += [unit(ZONE, G, "transport") for _ in range(loads)]
    units += [unit("Italy", G, "fighter", moved=3), unit("Italy", G, "fighter")]
    units += [unit("France", G, "infantry", 30), unit("Japan", "Japanese", "infantry", 30)]
    kinds = ["infantry", "tank"] if spread else ["tank", "infantry"]
    moves = [mv({kind: 1}, "Germany", ZONE) for kind in kinds for _ in range(loads)]
    moves += [mv({"fighter": 1}, *FLIGHT), mv({"fighter": 1}, *FLIGHT)]
    return state(G, NCM, units=units), moves


def checked(state_text: str, moves: list[dict[str, Any]]) -> tuple[list[tuple[Any, ...]], Any, list[SearchStats]]:
    """The findings (code, order, message), the ``assignment``, and the stats of each search run."""
    seen: list[SearchStats] = []
    token = choice.OBSERVER.set(seen.append)
    try:
        with tempfile.TemporaryDirectory() as folder:
            report, outcome = check_report(state_text, orders(G, NCM, moves), folder=Path(folder))
    finally:
        choice.OBSERVER.reset(token)
    found = [(f.code, f.order, f.message) for f in report.sorted_findings()]
    return found, outcome.assignment if outcome is not None else None, seen


def plainly(monkeypatch: pytest.MonkeyPatch, state_text: str, moves: list[dict[str, Any]]) -> Any:
    """The same check with the listings listed again on every run and whole copies of the board."""
    with monkeypatch.context() as patch:
        patch.setattr(engine, "KEEP_LISTINGS", False)
        patch.setattr(engine, "PARTIAL_COPIES", False)
        patch.setattr(engine, "REPLAY", False)
        patch.setattr(engine, "FIRST_TRY_IN_PLACE", False)
        return checked(state_text, moves)[:2]


def test_the_options_of_a_point_are_listed_once_for_every_run(monkeypatch) -> None:
    """The flights' choice is varied on a second run; the loads' points before it are met again and their options
    taken from the first run's listing, not listed again."""
    state_text, moves = loads_then_flights(8)
    with monkeypatch.context() as patch:
        patch.setattr(engine, "REPLAY", False)  # each run carries out every order again (issue 28's runs)
        found, assignment, seen = checked(state_text, moves)
    assert [code for code, *_ in found if code != "AA303"] == ["AA104"]
    (stats,) = seen
    assert stats.runs == 2
    assert stats.reused > 0
    assert stats.listings + stats.reused == stats.points
    assert stats.listings < stats.points * 2 // 3  # listed again on every run, it would be every point
    assert plainly(monkeypatch, state_text, moves) == (found, assignment)
    # replayed (issue 37), the second run goes back to the flights only: the loads' points are not met again
    replayed_found, replayed_assignment, (replayed,) = checked(state_text, moves)
    assert (replayed_found, replayed_assignment) == (found, assignment)
    assert replayed.runs == 2
    assert replayed.points < stats.points * 2 // 3


def test_a_run_copies_only_the_units_in_the_spaces_of_the_orders(monkeypatch) -> None:
    """60 infantry stand in France and Japan, far from every order: a run of the search copies none of them."""
    state_text, moves = loads_then_flights(4)
    found, assignment, seen = checked(state_text, moves)
    (stats,) = seen
    moving = 4 * 3 + 2  # infantry, tanks, transports, fighters
    # the board every run of the search goes on; the first try goes back on the greedy run's own board (issue 37)
    assert stats.copied == moving
    assert stats.restored <= stats.runs * moving  # a run puts back at most the units of the spaces of the orders
    assert plainly(monkeypatch, state_text, moves) == (found, assignment)


def test_a_search_run_changes_no_unit_it_shares_with_the_prepared_board(monkeypatch) -> None:
    """Every unit a partial copy shares with the prepared board is as it was once the search is over."""
    sources: list[tuple[Board, list[dict[str, Any]]]] = []
    copy = Board.copy

    def watched(board: Board, spaces: Any = None) -> Board:
        if spaces is not None and not any(b is board for b, _ in sources):
            sources.append((board, [_status(u) for u in board.units]))
        return copy(board, spaces)

    monkeypatch.setattr(Board, "copy", watched)
    state_text, moves = loads_then_flights(4, spread=True)
    moves.insert(0, mv({"infantry": 1}, "France", "Germany"))  # a walk: France is copied too
    checked(state_text, moves)
    assert sources
    for board, before in sources:
        assert [_status(u) for u in board.units] == before


def _status(unit: Unit) -> dict[str, Any]:
    fields = {k: v for k, v in unit.__dict__.items() if k not in ("aboard", "cargo")}
    return {**fields, "aboard": unit.aboard.uid if unit.aboard else None, "cargo": [c.uid for c in unit.cargo]}


@pytest.mark.parametrize(("aboard", "loads", "replays"), [
    # in both the first try (packing to spread) is kept, the best the search finds (two errors, then none): it ran
    # on a whole copy already, so it is not carried out a third time (issue 37; before, both were: one replay)
    (["", "t", "i"], [("infantry", 2), ("tank", 2), ("artillery", 2), ("tank", 2)], 0),
    (["i", "", "t", ""], [("infantry", 2), ("infantry", 1), ("tank", 1), ("artillery", 2)], 0),
])
def test_the_kept_choice_is_carried_out_on_a_whole_board(monkeypatch, aboard, loads, replays) -> None:
    """When a run of the search is kept, the board the report (and ``apply``) reads holds every unit of its own:
    the kept choice is carried out once more, on a whole copy, with the same findings and assignment (the first
    try runs on a whole copy: kept, it is not carried out again)."""
    state_text, moves = transport_case(aboard, loads, flight=False)
    seen: list[SearchStats] = []
    token = choice.OBSERVER.set(seen.append)
    try:
        with tempfile.TemporaryDirectory() as folder:
            report, outcome = check_report(state_text, orders(G, NCM, moves), folder=Path(folder))
    finally:
        choice.OBSERVER.reset(token)
    assert outcome is not None
    (stats,) = seen
    assert stats.replays == replays
    final = outcome.final.board
    assert final.copied == len(final.units)
    assert final.copied > stats.copied // max(stats.runs + 1, 1) or not replays
    found = [(f.code, f.order, f.message) for f in report.sorted_findings()]
    assert plainly(monkeypatch, state_text, moves) == (found, outcome.assignment)


def test_a_kept_run_whose_copy_shares_nothing_is_not_carried_out_again() -> None:
    """Every unit stands in a space of the orders' paths: the run's copy is whole already, so it is kept as it is."""
    units = [unit("Germany", G, "infantry", 4), unit("Germany", G, "tank", 4)]
    units += [unit(ZONE, G, "transport") for _ in range(4)]
    moves = [mv({"infantry": 1}, "Germany", ZONE) for _ in range(4)] + [mv({"tank": 1}, "Germany", ZONE)
                                                                          for _ in range(4)]
    seen: list[SearchStats] = []
    token = choice.OBSERVER.set(seen.append)
    try:
        with tempfile.TemporaryDirectory() as folder:
            report, outcome = check_report(state(G, NCM, units=units), orders(G, NCM, moves), folder=Path(folder))
    finally:
        choice.OBSERVER.reset(token)
    assert outcome is not None and report.sorted_findings() == []
    (stats,) = seen
    # the first try (packing to spread) is legal; it went back on the greedy run's own board, copying nothing
    assert stats.copied == 0 and stats.replays == 0
    assert outcome.final.board.copied == len(outcome.final.board.units) == 12


# -- the same verdicts, findings and assignment on random instances ---------------------------

TRANSPORTS = st.lists(st.sampled_from(["", "i", "t", "ii"]), min_size=1, max_size=6)
LOADS = st.lists(st.tuples(st.sampled_from(["infantry", "tank", "artillery"]), st.integers(1, 2)),
                 min_size=1, max_size=5)


def transport_case(aboard: list[str], loads: list[tuple[str, int]], flight: bool) -> tuple[str, list[Any]]:
    units = [unit("Germany", G, "infantry", 8), unit("Germany", G, "tank", 8), unit("Germany", G, "artillery", 8)]
    units += [unit("Norway", G, "infantry", 5), unit("Italy", G, "fighter", moved=3), unit("Italy", G, "fighter")]
    for k, cargo in enumerate(aboard):
        units.append(unit(ZONE, G, "transport", id=f"T{k}"))
        units += [unit(ZONE, G, "infantry" if kind == "i" else "tank", aboard=f"T{k}") for kind in cargo]
    moves = [mv({kind: n}, "Germany", ZONE) for kind, n in loads]
    if flight:
        moves += [mv({"fighter": 1}, *FLIGHT), mv({"fighter": 1}, *FLIGHT)]
    return state(G, NCM, units=units), moves


@settings(max_examples=12, deadline=None, derandomize=True)
@given(TRANSPORTS, LOADS, st.booleans())
def test_kept_listings_and_partial_copies_change_no_finding_nor_assignment(aboard, loads, flight) -> None:
    _as_plainly(aboard, loads, flight)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(TRANSPORTS, LOADS, st.booleans())
def test_kept_listings_and_partial_copies_change_no_finding_nor_assignment_many(aboard, loads, flight) -> None:
    _as_plainly(aboard, loads, flight)


def _as_plainly(aboard: list[str], loads: list[tuple[str, int]], flight: bool) -> None:
    state_text, moves = transport_case(aboard, loads, flight)
    found, assignment, _ = checked(state_text, moves)
    with pytest.MonkeyPatch.context() as patch:
        assert plainly(patch, state_text, moves) == (found, assignment)


# -- packings: by counts per class, each once, none missing --------------------------------------


def _units(kinds: list[tuple[str, int]], start: int = 0) -> list[Unit]:
    found = []
    for name, cost in kinds:
        kind = UnitType(name=name, domain="land", movement=1, transport_cost=cost)
        found.append(Unit(uid=start + len(found), type=kind, power=G, at="X"))
    return found


ITEMS = st.lists(st.sampled_from([("infantry", 2), ("tank", 3)]), min_size=1, max_size=5)
VESSELS = st.lists(st.tuples(st.integers(0, 2), st.sampled_from([3, 5])), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(ITEMS, VESSELS)
def test_packings_are_every_way_to_fill_the_vessels_once(items, vessels) -> None:
    """Against every assignment of every item to every vessel within its room, counted once per packing_key."""
    cargo = _units(items)
    ships = []
    for group, room in vessels:
        ship = _units([(f"transport{group}-{room}", 0)], start=100 + len(ships))[0]
        ship.ref = str(room)
        ships.append(ship)
    room = {s.uid: int(s.ref) for s in ships}
    classes: dict[tuple[str, int], list[Unit]] = {}
    for ship in ships:
        classes.setdefault((ship.type.name, room[ship.uid]), []).append(ship)
    units = {u.uid: u for u in cargo}

    def key(plan: dict[int, Unit]) -> Any:  # vessels alike by class, not by signature (no board here)
        loads: dict[int, list[str]] = {}
        for uid, vessel in plan.items():
            loads.setdefault(vessel.uid, []).append(units[uid].type.name)
        return tuple(sorted((repr((ships[v - 100].type.name, room[v])), tuple(sorted(t))) for v, t in loads.items()))

    listed = [key(p) for p in packings(cargo, lambda u: u.type.transport_cost, list(classes.values()),
                                       lambda s: room[s.uid])]
    assert len(listed) == len(set(listed))  # each packing once
    every = set()
    for choice_of in itertools.product(ships, repeat=len(cargo)):
        used = {s.uid: 0 for s in ships}
        for item, ship in zip(cargo, choice_of, strict=True):
            used[ship.uid] += item.type.transport_cost
        if all(used[s.uid] <= room[s.uid] for s in ships):
            every.add(key(dict(zip((u.uid for u in cargo), choice_of, strict=True))))
    assert set(listed) == every


# -- counting bounds with transports sailing in, out, and cargo unloading ---------------------------

ORDERS = st.lists(
    st.one_of(
        st.tuples(st.just("load"), st.sampled_from(["infantry", "tank", "artillery"]), st.integers(1, 2)),
        st.tuples(st.just("sail in"), st.integers(0, 1), st.just(0)),
        st.tuples(st.just("sail out"), st.just("transport"), st.just(1)),
        st.tuples(st.just("unload"), st.just("infantry"), st.just(1)),
    ),
    min_size=1, max_size=6,
)


def sailing_case(aboard: list[str], plan: list[tuple[Any, Any, int]]) -> tuple[str, list[dict[str, Any]]]:
    units = [unit("Germany", G, "infantry", 6), unit("Germany", G, "tank", 4), unit("Germany", G, "artillery", 4)]
    for k, cargo in enumerate(aboard):
        units.append(unit(ZONE, G, "transport", id=f"T{k}"))
        units += [unit(ZONE, G, "infantry" if kind == "i" else "tank", aboard=f"T{k}") for kind in cargo]
    units += [unit("6 Sea Zone", G, "transport", id="S0"), unit("6 Sea Zone", G, "transport", id="S1")]
    units += [unit("6 Sea Zone", G, "infantry", aboard="S1")]
    moves = []
    for what, a, n in plan:
        if what == "load":
            moves.append(mv({a: n}, "Germany", ZONE))
        elif what == "sail in":
            moves.append(mv([f"S{a}"], "6 Sea Zone", ZONE))
        elif what == "sail out":
            moves.append(mv({"transport": 1}, ZONE, "6 Sea Zone"))
        else:
            moves.append(mv({"infantry": 1}, ZONE, "Germany"))
    return state(G, NCM, units=units), moves


def _verdict(state_text: str, moves: list[dict[str, Any]]) -> tuple[list[tuple[Any, ...]], list[str]]:
    found, _, _ = checked(state_text, moves)
    errors = [(code, order) for code, order, _ in found if code.startswith("AA") and code != "AA303"]
    return errors, sorted({code for code, *_ in found})


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["", "i", "t", "ii"]), max_size=3), ORDERS)
@example([], [("sail in", 0, 0), ("load", "infantry", 1), ("load", "infantry", 1)])  # room that sailed in
@example(["ii"], [("unload", "infantry", 1), ("load", "infantry", 1)])  # room an unload freed
@example(["it", ""], [("sail in", 1, 0), ("load", "tank", 1), ("load", "infantry", 2)])
@example(["", ""], [("sail out", "transport", 1), ("load", "tank", 1), ("load", "tank", 1)])
def test_counting_bounds_with_transports_sailing_hold_for_the_whole_search(aboard, plan) -> None:
    _bounds_hold(aboard, plan)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["", "i", "t", "ii"]), max_size=4), ORDERS)
def test_counting_bounds_with_transports_sailing_hold_for_the_whole_search_many(aboard, plan) -> None:
    _bounds_hold(aboard, plan)


def _bounds_hold(aboard: list[str], plan: list[tuple[Any, Any, int]]) -> None:
    """The counting bounds (room that may sail in or be freed counted in full) against the search with no bound:
    each AA401 the bounds say every choice gives is in the best choice, the lower bound is at most its other
    errors, and the verdict is the same, on loads mixed with transports sailing in and out and unloads."""
    from movecheck.aa.overloads import Overloads

    state_text, moves = sailing_case(aboard, plan)
    bounds: list[tuple[int, set[tuple[int, str]]]] = []
    once = engine._run_once

    def bounded_run(*args: Any) -> Any:  # every run's bounds, the greedy run's first (searched or not)
        result = once(*args)
        bounds.append((result.overloads.lower_bound(), set(result.overloads.fixed)))
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "_run_once", bounded_run)
        bounded = _verdict(state_text, moves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Overloads, "lower_bound", lambda self: 0)
        patch.setattr(Overloads, "counts", lambda self, order, code: False)
        patch.setenv("MOVECHECK_CHOICE_BUDGET", "5000000")
        whole = _verdict(state_text, moves)
    assert "MC012" not in whole[1]
    for least, fixed in bounds:
        assert {(code, order) for order, code in fixed} <= set(whole[0])
        assert least <= len(whole[0]) - len(fixed)
    assert len(bounded[0]) == len(whole[0])
    assert bounded[1] == whole[1]


def test_a_load_overflowing_a_zone_a_transport_sails_into_needs_no_search() -> None:
    """One transport sails in, then one infantry more than every transport there can take loads, one per order:
    AA401 by counting (the room that sailed in counted in full), not a search through every order of loads."""
    units = [unit("Germany", G, "infantry", 13)] + [unit(ZONE, G, "transport") for _ in range(5)]
    units.append(unit("6 Sea Zone", G, "transport", id="TX"))
    moves = [mv(["TX"], "6 Sea Zone", ZONE)] + [mv({"infantry": 1}, "Germany", ZONE) for _ in range(13)]
    found, _, seen = checked(state(G, NCM, units=units), moves)
    assert [code for code, *_ in found] == ["AA401"]
    assert all(stats.runs == 0 for stats in seen)  # was 925 runs and MC012 (630 runs at 4 transports)


def test_more_tanks_than_transports_beside_infantry_is_aa401_by_counting(monkeypatch) -> None:
    """Two infantry, then one tank more than there are transports, one order each: a transport takes one tank at
    most, so some tank finds no room whatever the packing (a count of the units costing a tank or more)."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "200")  # the search through every packing took 67 runs
    units = [unit("Germany", G, "infantry", 2), unit("Germany", G, "tank", 13)]
    units += [unit(ZONE, G, "transport") for _ in range(12)]
    moves = [mv({"infantry": 1}, "Germany", ZONE) for _ in range(2)] + [mv({"tank": 1}, "Germany", ZONE)
                                                                          for _ in range(13)]
    found, _, seen = checked(state(G, NCM, units=units), moves)
    assert [code for code, *_ in found] == ["AA401"]
    assert all(stats.runs == 0 for stats in seen)
