"""One file's rolls enumerated down the tree of runs (issue 37: the big ``per_file`` manoeuvre file).

:func:`rolls.enumerate_walk` must give what :func:`rolls.enumerate_rolls` gives running the allowance walk
again for every combination: the same combinations in the same order, the same probabilities and walks,
the dice met in the same order, and the same steps spent, so the budget runs out on the same orders.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from movecheck.budget import SearchLimit
from movecheck.maneuver import corps as corps_facts
from movecheck.maneuver.apply import assumption_lines
from movecheck.maneuver.dice import Dice
from movecheck.maneuver.model import Terrain
from movecheck.maneuver.rolls import (
    Feature,
    RollBook,
    Steps,
    Walk,
    enumerate_rolls,
    enumerate_walk,
    pool_walk,
    walk,
)
from movecheck.settings import Settings
from tests.harness import check_report
from tests.properties import in_two_runs

from .helpers import base, corps, corps_order, dump, orders
from .streams import streams_state

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


def _pools_sum_the_combinations(spec: list[tuple[int, float, int]], start: float, stop: float,
                                declared: dict[str, Any], limit: int) -> None:
    """:func:`rolls.pool_walk` (states merged feature by feature, or one combination at a time when a terrain is
    met twice) spends the steps of running every walk, and each pool holds what its combinations add up to."""
    features, book = _features(spec), RollBook(declared)
    old = Steps(limit)
    try:
        listed = enumerate_rolls(book, lambda lookup: {0: walk(start, features, stop, "r1", lookup)}, old)
    except SearchLimit:
        with pytest.raises(SearchLimit):
            pool_walk(book, start, features, stop, "r1", lambda w: {0: w}, Steps(limit))
        return
    new = Steps(limit)
    pooled = pool_walk(book, start, features, stop, "r1", lambda w: {0: w}, new)
    assert new.used == old.used and list(pooled.dice.items()) == list(listed.dice.items())
    sums: dict[tuple[float, tuple[str, ...]], Fraction] = {}
    for item in listed.items:
        at = (item.result[0].allowance, tuple(f.terrain.id for f, _ in item.result[0].reached))
        sums[at] = sums.get(at, Fraction(0)) + item.probability
    found = {(b.result[0].allowance, tuple(f.terrain.id for f, _ in b.result[0].reached)): b.probability
             for b in pooled.outcomes}
    assert found == sums
    assert pooled.assigned_keys == listed.assigned_keys and pooled.common_keys == listed.common_keys
    again = [(b.assigned, b.probability, b.result[0].allowance, b.result[0].reached) for b in pooled.items]
    assert again == [(b.assigned, b.probability, b.result[0].allowance, b.result[0].reached) for b in listed.items]
    for item in pooled.items:  # an example of each pool is one of its combinations
        example = pooled.outcomes[pooled.pool_of(item)]
        assert (example.result[0].allowance, [f for f, _ in example.result[0].reached]) == (
            item.result[0].allowance, [f for f, _ in item.result[0].reached])


test_pools_sum_the_combinations, test_pools_sum_the_combinations_in_full = in_two_runs(
    settings(max_examples=100, deadline=None, derandomize=True),
    spec=st.lists(st.tuples(st.integers(0, 4), st.floats(0.5, 20.0).map(lambda x: round(x, 1)), st.integers(0, 3)),
                  max_size=5, unique_by=lambda t: t[0]) | st.lists(st.tuples(
                      st.integers(0, 2), st.floats(0.5, 20.0).map(lambda x: round(x, 1)), st.integers(0, 3)),
                      max_size=4),
    start=st.floats(1.0, 30.0).map(lambda x: round(x, 1)),
    stop=st.sampled_from([6.0, 12.0, 100.0]),
    declared=st.one_of(st.just({}), st.just({"r1": 2}), st.dictionaries(
        st.just("r1"), st.dictionaries(st.sampled_from(["t0", "t1", "t2"]), st.integers(0, 13), max_size=2),
        max_size=1)),
    limit=st.sampled_from([40, 300, 10**6]),
)(_pools_sum_the_combinations)


def test_three_streams_give_every_combination_as_before():
    # the per_file bench's order: three D1 streams reached whatever the rolls, 216 combinations
    spec = [(k, 10.0 + 1.5 * k, 0) for k in range(3)]
    old, new = _both(_features(spec), 30.0, 100.0, RollBook(None), 10**6)
    assert new == old and len(new[0][0]) == 216
    # runs: the first (needs s0), 6 (need s1), 36 (need s2), 216 finished; each its walk's lookups
    assert new[1] == (1 + 1 + 6) + 6 * (1 + 2 + 6) + 36 * (1 + 3 + 6) + 216 * (1 + 3) == 1286
    steps = Steps(10**6)
    pooled = pool_walk(RollBook(None), 30.0, _features(spec), 100.0, "r1", lambda w: {0: w}, steps)
    assert steps.used == 1286  # charged as the runs would be, the states merged after each stream
    # 30 less three rolls, or the third stream's edge (13) when the first two leave 14 or less
    assert sorted(b.result[0].allowance for b in pooled.outcomes) == [float(a) for a in range(13, 28)]
    assert sum(b.probability for b in pooled.outcomes) == 1 and len(pooled.items) == 216


def test_the_budget_runs_out_as_before():
    features = _features([(k, 1.0 + 1.5 * k, 1) for k in range(12)])  # 11**12 combinations
    steps = Steps(5_000)
    with pytest.raises(SearchLimit):
        enumerate_walk(RollBook(None), 200.0, features, 500.0, "r1", lambda w: w, steps)
    assert steps.used > 5_000


# --- the combinations pooled by where the file ends (corps orders, ``per_file``) -----------------------------


def _everything(tmp_path: Path, state_doc: dict[str, Any], orders_doc: dict[str, Any]) -> Any:
    """What a check of the orders gives: findings, required ends, the assumed rolls' lines, where bases end."""
    report, outcome = check_report(dump(state_doc), dump(orders_doc), Settings(suggest=True), folder=tmp_path)
    battlefield, _side, assumed = outcome.final
    placed = sorted((b.id, round(b.x, 9), round(b.y, 9), round(b.facing, 9)) for b in battlefield.all_bases())
    findings = [(f.code, f.order, f.message, f.line, f.column) for f in report.sorted_findings()]
    return findings, outcome.required_ends, assumption_lines(assumed), placed


def _pooled_as_listed(tmp_path: Path, corps_ends: list[tuple[float, float, int]], streams: int,
                      rolls: dict[str, Any], back: bool, shift: float) -> None:
    """``corps_ends``: per corps, how far its one base is declared to go, sideways, its mobility.  ``shift``
    moves the bases off the whole steps, so a file stopped at a stream's edge and one stopped by its rolls
    end within the tolerance of each other: two pools the same declared end matches."""
    y0 = 10 + shift + (14 if back else 0)
    sign = -1 if back else 1
    red = [corps(f"red-{k}", base(f"r{k}", 4 + 8 * k, y0), mobility=mobility)
           for k, (_d, _x, mobility) in enumerate(corps_ends)]
    items = [corps_order("all_back" if back else "all_ahead", f"red-{k}", {f"r{k}": (4 + 8 * k + x, y0 + sign * d)},
                         **({"rolls": rolls} if rolls and k == 0 else {}))
             for k, (d, x, _m) in enumerate(corps_ends)]
    doc = streams_state(streams, red)
    pooled = _everything(tmp_path, doc, orders(*items))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(corps_facts, "_one_file", lambda *args, **kwargs: None)  # every combination listed
        listed = _everything(tmp_path, doc, orders(*items))
    assert pooled == listed


# a check per example and two checks each: the whole property under ``slow`` only (a second and more); the default
# run keeps the cases below, one of each fallback to the listed combinations
_quick, test_pooled_combinations_check_as_listed_ones_in_full = in_two_runs(
    settings(max_examples=40, deadline=None, derandomize=True,
             suppress_health_check=[HealthCheck.function_scoped_fixture]),
    corps_ends=st.lists(st.tuples(st.sampled_from([0.975, 2.025, 2.475, 3.975, 4.0, 6.0, 10.0, 12.3, 17.0, 30.0]),
                                  st.sampled_from([0.0, 0.0, 0.04, 3.0]), st.sampled_from([3, 4, 8, 12, 30])),
                        min_size=1, max_size=2),
    streams=st.integers(1, 3),
    rolls=st.one_of(st.just({}), st.just({"r0": 3}), st.just({"r0": {"s1": 6}}), st.just({"r0": {"s0": 1}})),
    back=st.booleans(),
    shift=st.sampled_from([0.0, 0.05, 0.45, 0.55]),
)(_pooled_as_listed)


def test_two_pools_within_the_tolerance_place_the_base_as_the_likeliest_combination(tmp_path):
    """A declared end within the tolerance of the ends of two pools (the streams' edges lie 0.05 off the whole
    steps the rolls leave): the base is placed as the likeliest matching combination (the first listed of
    them) places it, not as the first pool found (that placement failed this test)."""
    _pooled_as_listed(tmp_path, [(2.025, 0.0, 3)], 2, {}, False, 0.55)


def test_a_pool_of_one_roll_names_its_values(tmp_path):
    # one stream: the roll's values are named from the combinations themselves
    doc = streams_state(1, [corps("red-0", base("r0", 4, 10), mobility=30)])
    findings, *_ = _everything(tmp_path, doc, orders(corps_order("all_ahead", "red-0", {"r0": (4, 37)})))
    assert [code for code, *_ in findings] == ["MV304"] and "is exactly 5 (17%)" in findings[0][2]


# --- names in the required ends (``--suggest``) -------------------------------------------------------------


@pytest.mark.parametrize("name", ["r1", "red-1", "_x", "a_b-c", "yes", "No", "ON", "off", "true", "False", "null",
                                  "Null", "NULL", "y", "n", "inf", "nan", "e1", "x1e5", "Z"])
def test_a_word_is_plain_exactly_when_yaml_reads_it_back_as_itself(name):
    import yaml

    from movecheck.maneuver.engine import _name

    assert (_name(name) == name) == (yaml.safe_load(name) == name)
    assert yaml.safe_load(_name(name)) == name


def test_a_check_of_a_per_file_order_never_lists_its_combinations(tmp_path, monkeypatch):
    """The big manoeuvre file's order (issue 37): three streams, 216 combinations, 16 ends; the check reads the 16
    pools (MV304 said, the bases placed, the required ends written) and lists no combination; ``apply``'s lines
    of the rolls it assumed list them."""
    from movecheck.maneuver import engine
    from movecheck.maneuver.rolls import Pooled

    seen = []

    def analyse(world, order):
        analysis = corps_facts.analyse_corps(world, order)
        seen.append(analysis)
        return analysis

    monkeypatch.setattr(engine, "analyse_corps", analyse)
    doc = streams_state(3, [corps("red-0", base("r0", 4, 10), mobility=30)])
    order = orders(corps_order("all_ahead", "red-0", {"r0": (4, 30)}))
    report, outcome = check_report(dump(doc), dump(order), Settings(suggest=True), folder=tmp_path)
    findings = report.sorted_findings()
    assert [f.code for f in findings] == ["MV304"] and "fall favourably (12%)" in findings[0].message
    assert "declare the rolls first" in outcome.required_ends
    branches = seen[0].groups[0].branches
    assert isinstance(branches, Pooled) and len(branches.outcomes) == 16
    assert branches._items is None  # never listed
    lines = assumption_lines(outcome.final[2])
    assert len(branches.items) == 216 and "r0 entering s0" in lines[0]  # listed when asked for
