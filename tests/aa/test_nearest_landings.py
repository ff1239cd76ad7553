"""The nearest landings AA207 names: one search from every friendly territory at once gives, for every space,
what a breadth-first search from that space alone gives (the built-in map and small random maps)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movecheck.aa.landing.aircraft import SEARCHED_ALONE, _nearest_alone, _nearest_table, nearest_landings
from movecheck.aa.model import Board
from movecheck.aa.setup import build_board
from movecheck.aa.units import Unit
from movecheck.loading import load_bytes
from tests.harness import dump

from .conftest import state

G, A, J = "Germans", "Americans", "Japanese"


def board_of(text: str) -> Board:
    setup = build_board(load_bytes(text.encode("utf-8"), "state.yaml"))
    assert setup.findings == [] and setup.board is not None
    return setup.board


def assert_same(board: Board, limit: int) -> None:
    table = _nearest_table(board, limit)
    for space in board.map.spaces:
        assert table.get(space, []) == _nearest_alone(board, space, limit), space


@pytest.mark.parametrize("impassable", [True, False])
def test_builtin_map_every_space(impassable: bool) -> None:
    board = board_of(state(G, units=[], captured=["Ukraine S.S.R."], control={"Ukraine S.S.R.": G},
                           options={"neutrals_impassable": impassable}))
    assert_same(board, 3)
    assert_same(board, 1)
    # the table is not empty talk: Germany itself is its own nearest landing, at 0 steps
    assert _nearest_table(board, 3)["Germany"][0] == ("Germany", 0)
    assert "Ukraine S.S.R." not in {s for s, _ in _nearest_table(board, 3)["Caucasus"]}


def test_far_from_everything_has_none() -> None:
    chain = [f"S{i}" for i in range(15)]
    game_map = {"name": "chain", "powers": [A, J], "sides": {"Allies": [A], "Axis": [J]},
                "territories": [{"name": "Home"}] + [{"name": s, "sea": True} for s in chain],
                "connections": [["Home", "S0"], *([a, b] for a, b in itertools.pairwise(chain))],
                "control": {"Home": A}}
    board = board_of(dump({"movecheck": 1, "system": "aa", "map": game_map,
                           "turn": {"round": 2, "power": A, "phase": "combat_move"}, "units": []}))
    table = _nearest_table(board, 3)
    assert table["S11"] == [("Home", 12)]
    assert table.get("S12", []) == []
    assert_same(board, 3)


KIND = st.sampled_from(["sea", "own", "enemy", "neutral", "captured"])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(KIND, min_size=2, max_size=14),
       st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=30),
       st.booleans(), st.integers(1, 4))
def test_random_maps_agree(kinds: list[str], edges: list[tuple[int, int]], impassable: bool, limit: int) -> None:
    names = [f"P{i}" for i in range(len(kinds))]
    territories: list[dict[str, Any]] = []
    control: dict[str, str] = {}
    for name, kind in zip(names, kinds, strict=True):
        territories.append({"name": name, "sea": True} if kind == "sea" else {"name": name})
        if kind in ("own", "captured"):
            control[name] = A
        elif kind == "enemy":
            control[name] = J
    pairs = sorted({(min(a, b), max(a, b)) for a, b in edges if a != b and max(a, b) < len(names)})
    game_map = {"name": "random", "powers": [A, J], "sides": {"Allies": [A], "Axis": [J]}, "territories": territories,
                "connections": [[names[a], names[b]] for a, b in pairs], "control": control}
    captured = [n for n, k in zip(names, kinds, strict=True) if k == "captured"]
    data = {"movecheck": 1, "system": "aa", "options": {"neutrals_impassable": impassable}, "map": game_map,
            "turn": {"round": 2, "power": A, "phase": "combat_move"}, "units": [], "captured_this_turn": captured}
    assert_same(board_of(dump(data)), limit)


def test_many_spaces_asked_switch_to_one_search() -> None:
    from movecheck.aa.landing import aircraft as landing

    board = board_of(state(G, units=[], captured=["Ukraine S.S.R."], control={"Ukraine S.S.R.": G}))
    spaces = sorted(board.map.spaces)
    for space in spaces:
        aircraft = cast(Unit, SimpleNamespace(at=space))
        assert nearest_landings(board, aircraft) == _nearest_alone(board, space, 3), space
    known = landing._NEAREST[board]
    assert len(known.alone) == SEARCHED_ALONE and set(known.tables) == {3}
