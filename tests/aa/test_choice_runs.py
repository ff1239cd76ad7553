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
from hypothesis import given, settings
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
        return checked(state_text, moves)[:2]


def test_the_options_of_a_point_are_listed_once_for_every_run(monkeypatch) -> None:
    """The flights' choice is varied on a second run; the loads' points before it are met again and their options
    taken from the first run's listing, not listed again."""
    state_text, moves = loads_then_flights(8)
    found, assignment, seen = checked(state_text, moves)
    assert [code for code, *_ in found if code != "AA303"] == ["AA104"]
    (stats,) = seen
    assert stats.runs == 2
    assert stats.reused > 0
    assert stats.listings + stats.reused == stats.points
    assert stats.listings < stats.points * 2 // 3  # listed again on every run, it would be every point
    assert plainly(monkeypatch, state_text, moves) == (found, assignment)


def test_a_run_copies_only_the_units_in_the_spaces_of_the_orders(monkeypatch) -> None:
    """60 infantry stand in France and Japan, far from every order: a run of the search copies none of them."""
    state_text, moves = loads_then_flights(4)
    found, assignment, seen = checked(state_text, moves)
    (stats,) = seen
    moving = 4 * 3 + 2  # infantry, tanks, transports, fighters
    assert stats.copied == (stats.runs + 1) * moving  # the search's runs and its first try, packing to spread
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


@pytest.mark.parametrize(("aboard", "loads"), [
    (["", "t", "i"], [("infantry", 2), ("tank", 2), ("artillery", 2), ("tank", 2)]),  # a search run is kept
    (["i", "", "t", ""], [("infantry", 2), ("infantry", 1), ("tank", 1), ("artillery", 2)]),  # the first try
])
def test_the_kept_choice_is_carried_out_on_a_whole_board(monkeypatch, aboard, loads) -> None:
    """When a run of the search is kept, the board the report (and ``apply``) reads holds every unit of its own:
    the kept choice is carried out once more, on a whole copy, with the same findings and assignment."""
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
    assert stats.replays == 1
    final = outcome.final.board
    assert final.copied == len(final.units) > stats.copied // max(stats.runs + 1, 1)
    found = [(f.code, f.order, f.message) for f in report.sorted_findings()]
    assert plainly(monkeypatch, state_text, moves) == (found, outcome.assignment)


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
