"""The search over undeclared rolls: a budget that runs out leaves the order unchecked (MC012), never legal.

Issue #12: a 90-step free move for a base whose maximum is 32 used to be legal
(an MV304 warning) once 8 thin streams lay across its path, because the roll
search stopped at its branch limit; a corps in dense terrain took gigabytes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movecheck.budget import SearchLimit
from movecheck.maneuver import corps as corps_facts
from movecheck.maneuver.checks.words import condition
from movecheck.maneuver.dice import Dice, describe_probability
from movecheck.maneuver.model import Terrain
from movecheck.maneuver.rolls import Feature, RollBook, Steps, enumerate_rolls, extreme, odds, walk
from tests.properties import in_two_runs

from .helpers import base, codes, corps, corps_order, free, orders, run_check
from .streams import STREAMS, streams_state

BUDGET = "MOVECHECK_ROLL_BUDGET"


def check(tmp_path, state_doc, *items):
    findings, _, report = run_check(tmp_path, state_doc, orders(*items))
    return findings, report


# --- the 8-streams free move --------------------------------------------------------------


def test_far_move_across_eight_streams_is_illegal(tmp_path):
    # mobility 30 + 2 before battle: 32 at most; the lowest rolls leave 24; it travels 90
    findings, report = check(tmp_path, streams_state(), free("r1", (100, 100)))
    assert codes(findings) == ["MV101"]
    assert "more than its allowance whatever" in findings[0].message
    assert "at most 24.00" in findings[0].message
    assert "s7" in findings[0].message  # every stream it may reach is named
    assert report.illegal_orders() == 1 and report.exit_code() == 1


def test_short_move_across_the_streams_is_legal_whatever_the_rolls(tmp_path):
    # 6.5 steps: even the highest rolls leave 8
    findings, report = check(tmp_path, streams_state(), free("r1", (100, 16.5)))
    assert findings == []
    assert report.illegal_orders() == 0 and report.exit_code() == 0


def test_move_legal_for_some_rolls_is_still_reasoned_over_exactly(tmp_path):
    # three streams: 29 steps with the lowest rolls, 14 with the highest; 20 steps needs a total of 12 or less
    findings, _ = check(tmp_path, streams_state(3), free("r1", (100, 30)))
    assert codes(findings) == ["MV304"]
    assert "legal only if" in findings[0].message and "(74%)" in findings[0].message


def test_tiny_budget_leaves_the_far_move_unchecked(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "1")
    findings, report = check(tmp_path, streams_state(), free("r1", (100, 100)))
    assert codes(findings) == ["MC012"]  # no MV101 from a search that did not finish, and no pass
    assert findings[0].order == 1 and findings[0].severity.value == "error"
    assert BUDGET in findings[0].message and "limit of 1 step" in findings[0].message
    assert (findings[0].line, findings[0].column) == (6, 3)  # at the order
    assert report.exit_code() == 1


def test_budget_exhausted_on_a_mixed_move_gives_no_warning_and_no_pass(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "20")  # the extremes fit (8 steps), weighing the rolls does not
    findings, report = check(tmp_path, streams_state(3), free("r1", (100, 30)))
    assert codes(findings) == ["MC012"]
    assert report.exit_code() == 1


def test_many_rolls_are_weighed_without_listing_every_combination(tmp_path):
    # 15 steps across 8 streams: legal for some rolls only, 6**8 combinations; was MV304 "too many undeclared rolls"
    findings, _report = check(tmp_path, streams_state(), free("r1", (100, 25)))
    assert codes(findings) == ["MV304"]
    assert "fall favourably" in findings[0].message and "s7" in findings[0].message


def test_weighed_odds_equal_the_listed_combinations(tmp_path):
    # five streams: few enough combinations to list; the message is the one the full enumeration gives
    findings, _ = check(tmp_path, streams_state(5), free("r1", (100, 25)))
    features = _features(5)
    stop = 15.0 - 0.1
    branches = enumerate_rolls(RollBook(None), lambda lookup: walk(32.0, features, stop, "r1", lookup), Steps(10**9))
    text, p = condition(branches, lambda b: b.result.allowance + 0.1 + 1e-9 >= 15.0)
    assert 0 < p < 1
    assert codes(findings) == ["MV304"]
    assert f"legal only if {text} ({describe_probability(p)})" in findings[0].message


def _odds_equal_the_enumeration(spec, start, length, declared):
    features = [Feature(_terrain_at(k), e, "D", dice) for k, (dice, e) in enumerate(spec)]
    book = RollBook({"r1": {f"s{k}": v for k, v in declared.items()}})
    stop = length - 0.1

    def holds(allowance: float) -> bool:
        return length <= allowance + 0.1 + 1e-9

    branches = enumerate_rolls(book, lambda lookup: walk(float(start), features, stop, "r1", lookup), Steps(10**9))
    listed = sum((b.probability for b in branches.items if holds(b.result.allowance)), Fraction(0))
    assert odds(book, features, float(start), stop, "r1", holds, Steps(10**9)) == listed


test_odds_equal_the_enumeration, test_odds_equal_the_enumeration_in_full = in_two_runs(
    settings(max_examples=150, deadline=None, derandomize=True),
    st.lists(st.tuples(st.sampled_from([Dice(1, 6), Dice(2, 6), Dice(1, 3, -1)]), st.floats(0, 12)), max_size=5),
    st.integers(4, 20),
    st.floats(1, 25),
    st.dictionaries(st.integers(0, 4), st.integers(0, 7), max_size=2),
)(_odds_equal_the_enumeration)


def test_declared_rolls_need_no_search(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "20")
    rolls = {"r1": {f"s{k}": 1 for k in range(STREAMS)}}
    findings, _ = check(tmp_path, streams_state(), free("r1", (100, 25), rolls=rolls))
    assert findings == []


def test_unchecked_free_move_leaves_the_base_at_its_declared_end(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "100")
    # order 2 is 20 steps from where order 1 ends (no MV101), 35 from where r1 started (MV101);
    # a second move of r1 is MV204 whatever it is
    findings, _ = check(tmp_path, streams_state(), free("r1", (100, 25)), free("r1", (100, 45)))
    assert [(f.code, f.order) for f in findings] == [("MC012", 1), ("MV204", 2)]


# --- corps orders ---------------------------------------------------------------------------


def _corps_state(files: int):
    bases = [base(f"r{i}", 4 + 4 * i, 10) for i in range(files)]
    return streams_state(red=[corps("red-1", *bases, mobility=30)])


def _ahead(files: int, y: float, **extra):
    return corps_order("all_ahead", "red-1", {f"r{i}": (4 + 4 * i, y) for i in range(files)}, **extra)


def test_corps_budget_is_for_the_whole_order(tmp_path, monkeypatch):
    # one file's search fits the budget; three files' searches together do not
    used = []

    class Counted(Steps):
        def spend(self, amount: int = 1) -> None:
            super().spend(amount)
            used.append(self.used)

    monkeypatch.setattr(corps_facts, "Steps", Counted)
    one = streams_state(3, [corps("red-1", base("r0", 4, 10), mobility=30)])
    findings, _ = check(tmp_path, one, _ahead(1, 20))
    assert "MC012" not in codes(findings)
    monkeypatch.setenv(BUDGET, str(max(used) * 2))
    findings, _ = check(tmp_path, one, _ahead(1, 20))
    assert "MC012" not in codes(findings)
    three = streams_state(3, [corps("red-1", *[base(f"r{i}", 4 + 4 * i, 10) for i in range(3)], mobility=30)])
    findings, report = check(tmp_path, three, _ahead(3, 20))
    assert codes(findings) == ["MC012"]
    assert report.exit_code() == 1


def test_corps_in_dense_terrain_is_unchecked_not_legal(tmp_path):
    # ten files, 6**8 roll combinations each: today's build gave ten MV304 warnings and "legal"
    findings, report = check(tmp_path, _corps_state(10), _ahead(10, 40))
    assert codes(findings) == ["MC012"]
    assert report.exit_code() == 1


def test_suggest_says_an_unchecked_corps_order_was_not_checked(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "50")
    _, suggestions, _ = run_check(tmp_path, _corps_state(2), orders(_ahead(2, 30)), suggest=True)
    text = "".join(suggestions)
    assert "# order 1: All ahead, red-1: not checked" in text and BUDGET in text
    assert "end:" not in text  # no required ends from a search that did not finish


def test_corps_with_declared_rolls_is_checked(tmp_path):
    # highest rolls: 32 -> 26 -> 20 -> 14 -> 8 -> max(7, 2) = 7; the streams further on are not reached,
    # so rolls declared for them are owed by no one (MV303)
    rolls = {f"r{i}": {f"s{k}": 6 for k in range(5)} for i in range(10)}
    findings, _ = check(tmp_path, _corps_state(10), _ahead(10, 17, rolls=rolls))
    assert findings == []
    rolls["r0"]["s5"] = 6
    findings, _ = check(tmp_path, _corps_state(10), _ahead(10, 17, rolls=rolls))
    assert [f.code for f in findings] == ["MV303"] and "r0 never reaches s5" in findings[0].message


def test_unchecked_corps_order_leaves_the_bases_at_their_declared_ends(tmp_path, monkeypatch):
    monkeypatch.setenv(BUDGET, "50")
    state_doc = _corps_state(2)
    state_doc["sides"]["red"].append(corps("red-2", base("q1", 4, 36)))
    # after order 1 r0 stands at (4, 30): q1 stepping back to (4, 31) ends on it
    findings, _ = check(tmp_path, state_doc, _ahead(2, 30), free("q1", (4, 31)))
    assert [(f.code, f.order) for f in findings] == [("MC012", 1), ("MV401", 2)]
    assert "ends overlapping friendly r0" in findings[1].message
    findings, _ = check(tmp_path, state_doc, free("q1", (4, 31)))
    assert findings == []


# --- the search itself ---------------------------------------------------------------------------


def _terrain_at(k: int) -> Terrain:
    return Terrain(f"s{k}", "stream", [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])


_D6 = Dice(1, 6)


def _features(n: int, dice: Dice = _D6) -> list[Feature]:
    return [Feature(_terrain_at(k), 1.0 + 1.5 * k, "D1", dice) for k in range(n)]


def test_search_work_and_memory_stay_within_the_budget():
    # 3d6 for 12 features: 16**12 combinations; the search stops at its budget, having kept no more
    features = _features(12, Dice(3, 6))
    runs = []

    def run(lookup):
        runs.append(1)
        return walk(200.0, features, 500.0, "r1", lookup)

    steps = Steps(5_000)
    with pytest.raises(SearchLimit) as caught:
        enumerate_rolls(RollBook(None), run, steps)
    assert caught.value.variable == BUDGET and caught.value.value == 5_000
    assert len(runs) <= 5_000 and steps.used == 5_001


def test_small_search_is_complete_and_exact():
    features = _features(2)
    branches = enumerate_rolls(RollBook(None), lambda lookup: walk(10.0, features, 50.0, "r1", lookup), Steps(10**6))
    assert branches.complete and len(branches.items) == 36
    assert sum(b.probability for b in branches.items) == Fraction(1)


def test_extremes_bound_every_combination():
    features = _features(4)
    book = RollBook(None)

    def run(lookup):
        return walk(12.0, features, 50.0, "r1", lookup)

    every = enumerate_rolls(book, run, Steps(10**6)).items
    low, dice = extreme(book, run, Steps(10**6), high=False)
    high, _ = extreme(book, run, Steps(10**6), high=True)
    assert low.result.allowance == max(b.result.allowance for b in every)
    assert high.result.allowance == min(b.result.allowance for b in every)
    assert set(low.assigned) == {k for b in every for k in b.assigned} == set(dice)


# --- whole corps: the slowest file sets the pace ---------------------------------------------------


def _abreast(files: int, streams: int) -> dict:
    doc = streams_state(streams, [corps("red-1", *[base(f"r{i}", 4 + 4 * i, 10) for i in range(files)], mobility=30)])
    doc["options"] = {"corps_penalty": "whole_corps"}
    return doc


@pytest.mark.parametrize("files, streams, y", [(3, 1, 30), (3, 1, 36), (2, 2, 30), (2, 2, 34), (2, 2, 20)])
def test_whole_corps_reasons_over_the_slowest_file_as_listing_every_combination_would(tmp_path, monkeypatch,
                                                                                     files, streams, y):
    """Bases abreast across streams: the least allowance's distribution, or every combination listed: the
    same findings, words and odds either way."""
    order = _ahead(files, y)
    monkeypatch.setattr("movecheck.maneuver.rolls.SLOWEST_FROM", 1)
    fast, _ = check(tmp_path, _abreast(files, streams), order)
    monkeypatch.setattr("movecheck.maneuver.rolls.SLOWEST_FROM", 10**9)
    listed, _ = check(tmp_path, _abreast(files, streams), order)
    assert [(f.code, f.message) for f in fast] == [(f.code, f.message) for f in listed]
    assert "MC012" not in codes(fast)


def test_whole_corps_across_streams_fits_the_default_budget(tmp_path):
    """Three bases abreast across two streams (6**6 combinations): MV304 at the odds the rolls give, not MC012."""
    findings, _ = check(tmp_path, _abreast(3, 2), _ahead(3, 34))
    assert codes(findings) == ["MV304"] and "(18%)" in findings[0].message


def test_suggest_for_a_whole_corps_across_streams_names_the_rolls(tmp_path):
    _, suggestions, _ = run_check(tmp_path, _abreast(3, 2), orders(_ahead(3, 34)), suggest=True)
    text = "".join(suggestions)
    assert "not checked" not in text and "declare the rolls first" in text and "r2 entering s1" in text


# --- issue 37: a budget per independent part ---------------------------------------------------


def test_each_order_has_the_roll_budget_for_itself(tmp_path, monkeypatch):
    """Three corps, one order each, every order within the budget: all three are decided (issue 37; with one
    account for the whole file, the later orders ran out and were unchecked)."""
    used = []

    class Counted(Steps):
        def spend(self, amount: int = 1) -> None:
            super().spend(amount)
            used.append(self.used)

    monkeypatch.setattr(corps_facts, "Steps", Counted)
    red = [corps(f"red-{k}", base(f"r{k}", 4 + 8 * k, 10), mobility=30) for k in range(3)]
    items = [corps_order("all_ahead", f"red-{k}", {f"r{k}": (4 + 8 * k, 20)}) for k in range(3)]
    alone, _ = check(tmp_path, streams_state(3, red[:1]), items[0])
    assert "MC012" not in codes(alone)
    monkeypatch.setenv(BUDGET, str(max(used) + 1))
    findings, _ = check(tmp_path, streams_state(3, red), *items)
    assert "MC012" not in codes(findings)
    assert [f.order for f in findings] == [1, 2, 3] and set(codes(findings)) == set(codes(alone))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(12, 60), st.booleans()), min_size=1, max_size=4,
                unique_by=lambda t: t[0]), st.randoms(use_true_random=False))
def test_the_verdict_is_the_unbounded_search_s_whatever_the_order_of_the_orders(tmp_path_factory, moves, rnd):
    """What the roll search promises (issue 37): on random small files of free moves and corps orders across
    streams, the default budget gives the verdict of a budget no search reaches, and orders of different corps
    (independent parts) written in another order give the same findings, each at its own order."""
    red = [corps(f"red-{k}", base(f"r{k}", 4 + 8 * k, 10), mobility=30) for k in range(4)]
    doc = streams_state(3, red)
    items = [free(f"r{k}", (4 + 8 * k, y)) if alone else corps_order("all_ahead", f"red-{k}", {f"r{k}": (4 + 8 * k, y)})
             for k, y, alone in moves]

    def verdict(written: list[Any]) -> list[tuple[str, str, str]]:
        findings, _ = check(tmp_path_factory.mktemp("v"), doc, *written)
        return sorted((f.code, f.message, str(written[f.order - 1]) if f.order else "") for f in findings)

    default = verdict(items)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(BUDGET, str(10**12 - 1))
        assert verdict(items) == default
    shuffled = list(items)
    rnd.shuffle(shuffled)
    assert verdict(shuffled) == default
    assert "MC012" not in {code for code, *_ in default}
