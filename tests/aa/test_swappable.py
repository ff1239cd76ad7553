"""The choice search split by units that can be swapped, not by spaces touched (issue 37): a land space no order
ends in, whose units are alike by type and power, links no orders (:func:`movecheck.aa.choice.unlinking`), so the
loads out of one busy territory into different zones are searched apart.  The verdict stays the whole search's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from movecheck.aa import engine

from .conftest import mv, state, unit
from .test_bounds import NCM, B, b1, custom_map
from .test_replay import searched


def test_b1_loads_out_of_one_busy_territory_are_searched_apart() -> None:
    """B1 with no counting bound: the loads from the United Kingdom into 6 and 7 Sea Zone were one part with the
    hopeless load into 8 Sea Zone (529 runs at 4 transports a zone, 1,976,374 steps at 6); now each zone's loads
    are a part of their own, legal in the first run, and the search varies only the last load."""
    text, moves = b1(6)
    found, _, (stats,) = searched(text, B, moves)
    assert [(code, order) for code, order, _ in found if code.startswith(("AA", "MC"))] == [("AA401", len(moves))]
    assert stats.runs <= 2
    small_text, small_moves = b1(4)
    split_found, _, (split,) = searched(small_text, B, small_moves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "SWAPPABLE", False)
        plain_found, _, (plain,) = searched(small_text, B, small_moves)
    assert split_found == plain_found
    assert split.runs <= 2 < plain.runs  # split by spaces touched, the loads' packings were searched too


def test_b1_small_same_findings_with_and_without_the_split() -> None:
    text, moves = b1(2)
    with_split = searched(text, B, moves)[:2]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "SWAPPABLE", False)
        without = searched(text, B, moves)[:2]
    assert with_split == without


STEPS = st.lists(st.tuples(st.sampled_from(["load", "in", "out"]), st.sampled_from(["infantry", "tank"]),
                           st.integers(0, 2)), min_size=1, max_size=6)


def home(cargo: list[str], moved: int, plan: list[tuple[str, str, int]], stock: tuple[int, int] = (3, 2)
         ) -> tuple[str, list[dict[str, Any]]]:
    """Infantry and tanks at Home (``moved`` infantry more that moved already: not alike), transports in three zones
    with ``cargo`` aboard ("i", "t", "" per transport, zone by zone), and orders: "load" a unit Home -> Z<k>, "in" one
    Other -> Home (Home then holds units that moved), "out" one Home -> Other."""
    land, sea = ["Home", "Other"], ["Z0", "Z1", "Z2"]
    game_map = custom_map(land, sea, [["Home", z] for z in sea] + [["Home", "Other"]], B)
    units = [unit("Home", B, "infantry", stock[0]), unit("Home", B, "tank", stock[1]), unit("Other", B, "infantry", 2),
             unit("Other", B, "tank")]
    if moved:
        units.append(unit("Home", B, "infantry", moved, moved=1))
    for k, aboard in enumerate(cargo):
        zone = sea[k % 3]
        units.append(unit(zone, B, "transport", id=f"T{k}"))
        units += [unit(zone, B, "infantry" if c == "i" else "tank", aboard=f"T{k}") for c in aboard]
    moves = []
    for step, kind, zone in plan:
        if step == "load":
            moves.append(mv({kind: 1}, "Home", sea[zone]))
        elif step == "in":
            moves.append(mv({kind: 1}, "Other", "Home"))
        else:
            moves.append(mv({kind: 1}, "Home", "Other"))
    return state(B, NCM, units=units, map=game_map), moves


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["", "i", "t", "ii"]), max_size=5), st.integers(0, 2), STEPS)
@example(["", "i", "t"], 1, [("load", "infantry", 0), ("load", "tank", 0), ("load", "infantry", 1)])
@example(["i", "", ""], 0, [("in", "infantry", 0), ("load", "infantry", 0), ("load", "infantry", 1),
                            ("load", "tank", 2)])
def test_the_split_by_alike_units_never_changes_the_verdict(cargo, moved, plan) -> None:
    """Random loads out of one territory into three zones, with units moving in and out of it: the findings and
    the ``assignment`` are those of the search split by spaces touched."""
    text, moves = home(cargo, moved, plan)
    with_split = searched(text, B, moves)[:2]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "SWAPPABLE", False)
        without = searched(text, B, moves)[:2]
    assert with_split == without


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["", "i", "t", "ii"]), min_size=1, max_size=5),
       st.lists(st.tuples(st.sampled_from(["infantry", "tank"]), st.integers(0, 2)), min_size=1, max_size=6),
       st.randoms(use_true_random=False))
def test_shuffling_loads_into_different_zones_out_of_one_territory_never_changes_the_verdict(cargo, loads, rnd) -> None:
    """Loads out of Home, whose units are alike and enough for every load, into three zones: interleaving the
    zones' lists of loads (each keeping its own order) gives the verdict of the unbounded search on the loads as
    first written, zone by zone, with the default budget and the counting bounds on."""
    from .test_bounds import checked, errors, unbounded

    per_zone = [[("load", kind, zone) for kind, z in loads if (zone := z) == k] for k in range(3)]
    text, written = home(cargo, 0, [step for steps in per_zone for step in steps], (6, 6))
    lists = [list(steps) for steps in per_zone]
    mixed: list[tuple[str, str, int]] = []
    while any(lists):
        mixed.append(rnd.choice([steps for steps in lists if steps]).pop(0))
    _, shuffled = home(cargo, 0, mixed, (6, 6))
    assert errors(checked(text, B, shuffled)[0]) == errors(unbounded(text, B, written))
