"""One file's rolls enumerated down the tree of runs (issue 37: the big ``per_file`` manoeuvre file).

:func:`rolls.enumerate_walk` must give what :func:`rolls.enumerate_rolls` gives running the allowance walk
again for every combination: the same combinations in the same order, the same probabilities and walks,
the dice met in the same order, and the same steps spent, so the budget runs out on the same orders.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.budget import SearchLimit
from movecheck.maneuver.dice import Dice
from movecheck.maneuver.model import Terrain
from movecheck.maneuver.rolls import Feature, RollBook, Steps, Walk, enumerate_rolls, enumerate_walk, walk
from tests.properties import in_two_runs

_SQUARE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
_DICE = [Dice(1, 6), Dice(2, 6), Dice(1, 3, 1), Dice(1, 2)]


def _features(spec: list[tuple[int, float, int]]) -> list[Feature]:
    """(terrain number, entry distance, die) per feature; a terrain number may repeat (one terrain met twice)."""
    return [Feature(Terrain(f"t{t}", "stream", _SQUARE), e, f"D{d}", _DICE[d]) for t, e, d in spec]


def _both(features: list[Feature], start: float, stop: float, book: RollBook, limit: int) -> tuple[Any, Any]:
    """(branches or the limit, steps used) of the old search and of the new one."""

    def finish(w: Walk) -> dict[int, Walk]:
        return {0: w}

    out = []
    for search in ("rolls", "walk"):
        steps = Steps(limit)
        try:
            if search == "rolls":
                found: Any = enumerate_rolls(
                    book, lambda lookup: finish(walk(start, features, stop, "r1", lookup)), steps)
            else:
                found = enumerate_walk(book, start, features, stop, "r1", finish, steps)
        except SearchLimit:
            out.append(("limit", None))
            continue
        items = [(b.assigned, b.probability, b.result[0].allowance, b.result[0].reached) for b in found.items]
        out.append(((items, list(found.dice.items())), steps.used))
    return out[0], out[1]


def _same_as_running_every_walk(spec: list[tuple[int, float, int]], start: float, stop: float,
                                declared: dict[str, Any], limit: int) -> None:
    old, new = _both(_features(spec), start, stop, RollBook(declared), limit)
    assert new == old


test_the_walk_down_the_tree_is_every_run, test_the_walk_down_the_tree_is_every_run_in_full = in_two_runs(
    settings(max_examples=100, deadline=None, derandomize=True),
    spec=st.lists(st.tuples(st.integers(0, 4), st.floats(0.5, 20.0).map(lambda x: round(x, 1)), st.integers(0, 3)),
                  max_size=5),
    start=st.floats(1.0, 30.0).map(lambda x: round(x, 1)),
    stop=st.sampled_from([6.0, 12.0, 100.0]),
    declared=st.one_of(st.just({}), st.just({"r1": 2}), st.dictionaries(
        st.just("r1"), st.dictionaries(st.sampled_from(["t0", "t1", "t2"]), st.integers(0, 13), max_size=2),
        max_size=1)),
    limit=st.sampled_from([40, 300, 10**6]),
)(_same_as_running_every_walk)


def test_three_streams_give_every_combination_as_before():
    # the per_file bench's order: three D1 streams reached whatever the rolls, 216 combinations
    spec = [(k, 10.0 + 1.5 * k, 0) for k in range(3)]
    old, new = _both(_features(spec), 30.0, 100.0, RollBook(None), 10**6)
    assert new == old and len(new[0][0]) == 216
    # runs: the first (needs s0), 6 (need s1), 36 (need s2), 216 finished; each its walk's lookups
    assert new[1] == (1 + 1 + 6) + 6 * (1 + 2 + 6) + 36 * (1 + 3 + 6) + 216 * (1 + 3) == 1286


def test_the_budget_runs_out_as_before():
    features = _features([(k, 1.0 + 1.5 * k, 1) for k in range(12)])  # 11**12 combinations
    steps = Steps(5_000)
    with pytest.raises(SearchLimit):
        enumerate_walk(RollBook(None), 200.0, features, 500.0, "r1", lambda w: w, steps)
    assert steps.used > 5_000
