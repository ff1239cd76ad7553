"""The carrier search runs each of its networks once (issue 37: the Pacific landings' worst positions).

A node's bound, its guess and its children's bounds often ask for the same network; :func:`branch` keeps its
answer and charges the steps of running it again, so the answer, and where the budget runs out, are what
running every flow again gave.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa.landing import branch as branch_module
from movecheck.aa.landing.carriers import Deck, _Work, solve_landing
from tests.properties import in_two_runs

from .test_landing import flyer

ZONES = ["V", "W", "X", "Y", "Z"]


def _both(decks: list[Deck], reaches: list[set[str]], limit: int) -> list[tuple[object, ...]]:
    out = []
    for reuse in (False, True):
        flyers = [flyer(n, reach) for n, reach in enumerate(reaches)]
        work = _Work(limit)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(branch_module, "REUSE_FLOWS", reuse)
            landing = solve_landing(flyers, decks, work)
        out.append((landing.matching, landing.zones, landing.undecided, landing.limit is None, work.used))
    return out


def _reused_as_run_again(deck_specs: list[tuple[int, list[str]]], reaches: list[set[str]], limit: int) -> None:
    decks = [Deck(f"d{n}", slots, sorted(zones), zones[-1]) for n, (slots, zones) in enumerate(deck_specs)]
    again, reused = _both(decks, reaches, limit)
    assert reused == again


test_reused_flows_answer_as_run_again, test_reused_flows_answer_as_run_again_in_full = in_two_runs(
    settings(max_examples=150, deadline=None, derandomize=True),
    st.lists(st.tuples(st.integers(1, 3), st.lists(st.sampled_from(ZONES), min_size=1, max_size=4, unique=True)),
             max_size=7),
    st.lists(st.sets(st.sampled_from(ZONES)), min_size=1, max_size=12),
    st.sampled_from([300, 3_000, 10**7]),
)(_reused_as_run_again)


def test_a_crowded_sea_reuses_flows_and_charges_them(monkeypatch):
    """Twelve carriers over a ring of zones, three fighters a carrier: the search asks for some networks more than
    once, runs each once, and spends the steps it spent running them all."""
    rnd = random.Random(7)
    ring = [f"S{k}" for k in range(10)]
    decks = [Deck(f"d{n}", 2, sorted({ring[(k + j) % 10] for j in range(3)}), ring[k]) for n, k in
             enumerate(rnd.randrange(10) for _ in range(12))]
    reaches = [{ring[(k + j) % 10] for j in range(2)} for k in (rnd.randrange(10) for _ in range(36))]
    runs: list[bool] = []
    flow = branch_module.flow

    def counted(*args):
        runs.append(branch_module.REUSE_FLOWS)
        return flow(*args)

    monkeypatch.setattr(branch_module, "flow", counted)
    again, reused = _both(decks, reaches, 10**8)
    assert reused == again
    assert 0 < runs.count(True) < runs.count(False)
