"""A run of the choice search carries out only the orders from the one whose choice it varies (issue 37,
:mod:`movecheck.aa.replay`), and stops at the best choice's errors: the verdict, every finding and the
``assignment`` stay what a fresh copy of the board per run, every order carried out, gives."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa import choice, engine
from movecheck.aa.choice import SearchStats
from movecheck.aa.overloads import Overloads
from tests.harness import check_report
from tests.properties import in_two_runs

from .conftest import mv, orders, state, unit
from .test_bounds import NCM, G, custom_map, decks, hub, shores

A = "Americans"


def chain(body: int) -> tuple[str, list[dict[str, Any]]]:
    """Issue 37's B4, small: an infantry a step on from each territory of a chain, a tank two steps from every
    third, then two tanks into a hub and one tank too many on a two-step path out of it (AA104 on the last order)."""
    names = [f"R{k}" for k in range(body + 3)]
    connections = [[a, b] for a, b in itertools.pairwise(names)] + [["Depot", "Hub"], ["Hub", names[0]]]
    units = [unit(r, G, "infantry", 2) for r in names] + [unit(r, G, "tank") for r in names]
    units += [unit("Depot", G, "tank", 2), unit("Hub", G, "tank")]
    moves = [mv({"tank": 1}, *names[k:k + 3]) if k % 3 == 2 else mv({"infantry": 1}, *names[k:k + 2])
             for k in range(body)]
    moves += [mv({"tank": 1}, "Depot", "Hub") for _ in range(2)] + [mv({"tank": 1}, "Hub", names[0])]
    moves += [mv({"tank": 1}, "Hub", names[0], names[1]) for _ in range(2)]
    text = state(G, NCM, units=units, map=custom_map([*names, "Hub", "Depot"], [], connections, G))
    return text, moves


def searched(text: str, power: str, moves: list[dict[str, Any]], replay: bool = True
             ) -> tuple[list[tuple[str, int | None, str]], Any, list[SearchStats]]:
    """The findings, the ``assignment`` and the search's counters, with no counting bound (the search runs)."""
    seen: list[SearchStats] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "BOUNDS", False)
        patch.setattr(engine, "REPLAY", replay)
        patch.setattr(engine, "FIRST_TRY_IN_PLACE", replay)  # the first try on a copy of its own, from the start
        patch.setattr(Overloads, "lower_bound", lambda self: 0)
        patch.setattr(Overloads, "counts", lambda self, order, code: False)
        patch.setenv("MOVECHECK_CHOICE_BUDGET", "50000000")
        token = choice.OBSERVER.set(seen.append)
        try:
            with tempfile.TemporaryDirectory() as folder:
                report, outcome = check_report(text, orders(power, NCM, moves), folder=Path(folder))
        finally:
            choice.OBSERVER.reset(token)
    found = [(f.code, f.order, f.message) for f in report.sorted_findings()]
    return found, outcome.assignment if outcome is not None else None, seen


def test_a_run_carries_out_only_the_orders_from_the_choice_it_varies() -> None:
    """B4 with 30 orders: every run of the search used to carry out all of them (each met every choice point);
    now a run goes back to the order it varies, and stops at its first error (the best choice has one)."""
    text, moves = chain(27)
    found, assignment, seen = searched(text, G, moves)
    assert [(code, order) for code, order, _ in found if code.startswith(("AA", "MC"))] == [("AA104", 32)]
    (stats,) = seen
    assert stats.runs > 5
    assert stats.points <= len(moves) + 2 * stats.runs  # after the first, a run meets the point it varies
    plain_found, plain_assignment, (plain,) = searched(text, G, moves, replay=False)
    assert (plain_found, plain_assignment) == (found, assignment)
    assert plain.points >= stats.runs * (len(moves) - 2)  # there, each run meets (nearly) every point
    assert stats.points * 3 < plain.points


def test_a_run_puts_back_what_the_orders_it_goes_back_over_changed() -> None:
    """The work of one run (units put back, choice points met) does not grow with the file: B4 at 30 and 57 orders."""
    per_run = []
    for body in (27, 54):
        text, moves = chain(body)
        found, _, (stats,) = searched(text, G, moves)
        assert [(code, order) for code, order, _ in found if code.startswith(("AA", "MC"))] == [("AA104", len(moves))]
        per_run.append((stats.restored / stats.runs, (stats.points - len(moves)) / stats.runs))
    (restored_small, points_small), (restored_big, points_big) = per_run
    assert restored_big <= restored_small * 1.25
    assert points_big <= points_small * 1.25


def _replayed_runs_change_no_finding_at_a_hub(fresh, plan) -> None:
    text, moves = hub(fresh, plan)
    assert searched(text, G, moves)[:2] == searched(text, G, moves, replay=False)[:2]


# the replay properties in two runs (tests/properties.py): a tenth of the examples (at least three) in the default run
test_replayed_runs_change_no_finding_at_a_hub, test_replayed_runs_change_no_finding_at_a_hub_in_full = in_two_runs(
    settings(max_examples=25, deadline=None, derandomize=True),
    st.integers(0, 3), st.lists(st.sampled_from(["in", "1", "2", "b"]), min_size=1, max_size=7),
)(_replayed_runs_change_no_finding_at_a_hub)


def _replayed_runs_change_no_finding_on_shores(cargo, targets, sail_in) -> None:
    text, moves = shores(cargo, targets, sail_in)
    assert searched(text, A, moves)[:2] == searched(text, A, moves, replay=False)[:2]


test_replayed_runs_change_no_finding_on_shores, test_replayed_runs_change_no_finding_on_shores_in_full = in_two_runs(
    settings(max_examples=25, deadline=None, derandomize=True),
    st.lists(st.sampled_from(["", "i", "ii", "it"]), max_size=3),
    st.lists(st.integers(-4, 4), min_size=1, max_size=4), st.integers(0, 1),
)(_replayed_runs_change_no_finding_on_shores)


def _replayed_runs_change_no_finding_on_carriers(carriers, flights) -> None:
    text, moves = decks(carriers, [(z % len(carriers), n) for z, n in flights])
    assert searched(text, A, moves)[:2] == searched(text, A, moves, replay=False)[:2]


test_replayed_runs_change_no_finding_on_carriers, test_replayed_runs_change_no_finding_on_carriers_in_full = (
    in_two_runs(
        settings(max_examples=20, deadline=None, derandomize=True),
        st.lists(st.integers(0, 2), min_size=1, max_size=3),
        st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3)), min_size=1, max_size=4),
    )(_replayed_runs_change_no_finding_on_carriers)
)


def test_a_first_try_kept_is_not_carried_out_a_third_time() -> None:
    """B4 at 32 orders with its bounds: the greedy run has two errors, the movement bound proves one, and the
    search's first try (walkers with the least movement that suffices) has that one.  It ran on a whole copy of the
    board (every unit stands on the orders' paths), so the report reads it as it is: two carryings-out of the
    orders, not three (issue 37, the editor's re-check of a 100-order turn)."""
    from .test_bounds import checked

    text, moves = chain(27)
    found, (stats,) = checked(text, G, moves)
    assert [(code, order) for code, order in found if code.startswith(("AA", "MC"))] == [("AA104", len(moves))]
    assert stats.runs == 0 and stats.replays == 0


@pytest.mark.parametrize("legal", [False, True])
def test_the_first_try_goes_back_only_to_the_order_it_chooses_otherwise(monkeypatch, legal) -> None:
    """B4 at 32 orders (``legal``: without the tank too many): the first try (walkers with the least movement that
    suffices) chooses as the greedy run did up to the hub's tanks, so it carries out only the orders from there, on
    the greedy run's own board: the orders are carried out once and a few again, not twice (issue 37, the editor's
    re-check of a 100-order turn).  The findings and the ``assignment`` are those of a first try on a copy of its
    own that carries out every order."""
    text, moves = chain(27)
    if legal:
        moves.pop()
    steps = []
    step = engine.Carry.step

    def counted(carry: engine.Carry) -> None:
        steps.append(carry.next)
        step(carry)

    def check() -> tuple[list[tuple[str, int | None, int, int, str]], Any]:
        with tempfile.TemporaryDirectory() as folder:
            report, outcome = check_report(text, orders(G, NCM, moves), folder=Path(folder))
        assert outcome is not None
        found = [(f.code, f.order, f.line, f.column, f.message) for f in report.sorted_findings()]
        return found, outcome.assignment

    with monkeypatch.context() as patch:
        patch.setattr(engine.Carry, "step", counted)
        in_place = check()
    assert [(code, order) for code, order, *_ in in_place[0] if code.startswith(("AA", "MC"))] == (
        [] if legal else [("AA104", len(moves))])
    assert len(steps) <= len(moves) + 5, steps
    with monkeypatch.context() as patch:
        patch.setattr(engine, "FIRST_TRY_IN_PLACE", False)
        assert check() == in_place
