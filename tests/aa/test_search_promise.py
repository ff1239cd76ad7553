"""What the aa searches promise (issue 37's "done when"): on random small phases, the verdict with the default
budget is the verdict of an unbounded search, and writing orders that do not depend on each other in another order
never changes it (nor any finding: each stays at its order).

The choice search: a noncombat move of up to four independent parts on one map (tanks through a hub, loads onto
partly loaded transports, unloads onto shores, fighters onto carriers); "unbounded" is the plainest search (no
counting bound, file order, a budget no search here reaches).  The landing search: combat moves of fighters whose
carriers wait in hubs (``test_search_properties.hub_files``); "unbounded" is a landing budget no search reaches; the
orders are shuffled at random (fighters that may want one carrier depend on each other: the verdict, the number of
fighters stranded, stays, not which).
The manoeuvre roll search keeps its own statement in ``tests/maneuver/test_limits.py``
(``test_the_verdict_is_the_unbounded_search_s_whatever_the_order_of_the_orders``).  The default run tries a few
examples; ``-m slow`` (and ``MOVECHECK_HYPOTHESIS=long`` for the hypothesis profile) many more.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa import engine
from movecheck.aa.overloads import Overloads
from tests.properties import in_two_runs

from .conftest import check_files, mv, state, unit
from .test_bounds import NCM, A, checked, custom_map
from .test_search_properties import hub_files

# --- the choice search -----------------------------------------------------------------------------------------

LAND = ["Depot", "Hub", "Near", "Far", "Port", "Field", "Shore0", "Shore1", "Shore2"]
SEA = ["Bay", "Sea", "Z0", "Z1"]
CONNECTIONS = [["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"], ["Port", "Bay"], ["Field", "Z0"], ["Field", "Z1"]]
CONNECTIONS += [["Sea", f"Shore{k}"] for k in range(3)]
HUB_PATHS = {"in": ["Depot", "Hub"], "1": ["Hub", "Near"], "2": ["Hub", "Near", "Far"]}

PHASE = st.fixed_dictionaries({
    "fresh": st.integers(0, 2),
    "hub": st.lists(st.sampled_from(["in", "1", "2"]), max_size=4),
    "aboard": st.lists(st.sampled_from(["", "i"]), max_size=3),
    "loads": st.lists(st.sampled_from(["infantry", "tank"]), max_size=4),
    "cargo": st.lists(st.sampled_from(["", "i", "it"]), max_size=2),
    "unloads": st.lists(st.integers(-2, 2), max_size=3),
    "carriers": st.tuples(st.integers(0, 2), st.integers(0, 2)),
    "flights": st.lists(st.tuples(st.integers(0, 1), st.integers(1, 2)), max_size=3),
})


def phase_files(plan: dict[str, Any]) -> tuple[str, list[list[dict[str, Any]]]]:
    """The state, and the orders of each part (each part's orders in the order they must come)."""
    units = [unit("Depot", A, "tank", 4), unit("Port", A, "infantry", 3), unit("Port", A, "tank", 3),
             unit("Field", A, "fighter", 6)]
    units += [unit("Hub", A, "tank", plan["fresh"])] if plan["fresh"] else []
    for k, aboard in enumerate(plan["aboard"]):
        units.append(unit("Bay", A, "transport", id=f"B{k}"))
        units += [unit("Bay", A, "infantry", aboard=f"B{k}")] if aboard else []
    for k, aboard in enumerate(plan["cargo"]):
        units.append(unit("Sea", A, "transport", id=f"S{k}"))
        units += [unit("Sea", A, "infantry" if c == "i" else "tank", aboard=f"S{k}") for c in aboard]
    for zone, count in zip(("Z0", "Z1"), plan["carriers"], strict=True):
        units += [unit(zone, A, "carrier") for _ in range(count)]
    parts = [
        [mv({"tank": 1}, *HUB_PATHS[step]) for step in plan["hub"]],
        [mv({kind: 1}, "Port", "Bay") for kind in plan["loads"]],
        [mv({"tank" if t < 0 else "infantry": 1}, "Sea", f"Shore{abs(t)}") for t in plan["unloads"]],
        [mv({"fighter": n}, "Field", f"Z{z}") for z, n in plan["flights"]],
    ]
    return state(A, NCM, units=units, map=custom_map(LAND, SEA, CONNECTIONS, A)), [p for p in parts if p]


def interleaved(parts: list[list[dict[str, Any]]], rnd: random.Random) -> list[int]:
    """A random order of every part's orders (numbered as the parts one after the other), each part's kept."""
    starts = [sum(len(p) for p in parts[:k]) for k in range(len(parts))]
    left = [list(range(start, start + len(part))) for start, part in zip(starts, parts, strict=True)]
    order: list[int] = []
    while any(left):
        order.append(rnd.choice([queue for queue in left if queue]).pop(0))
    return order


def unbounded_findings(text: str, moves: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    """Every choice tried, in file order, with no counting bound and a budget no search here reaches."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "BOUNDS", False)
        patch.setattr(engine, "ERROR_FIRST", False)
        patch.setattr(Overloads, "lower_bound", lambda self: 0)
        patch.setattr(Overloads, "counts", lambda self, order, code: False)
        patch.setenv("MOVECHECK_CHOICE_BUDGET", "50000000")
        found, _ = checked(text, A, moves, errors_only=True)
    return found


def _choice_search_keeps_its_promise(plan: dict[str, Any], seed: int) -> None:
    text, parts = phase_files(plan)
    moves = [move for part in parts for move in part]
    default, _ = checked(text, A, moves, errors_only=True)
    whole = unbounded_findings(text, moves)
    assert "MC012" not in {code for code, _ in whole}
    assert sorted(code for code, _ in default) == sorted(code for code, _ in whole)
    order = interleaved(parts, random.Random(seed))
    shuffled, _ = checked(text, A, [moves[k] for k in order], errors_only=True)
    assert sorted((code, order[k - 1] + 1 if k else k) for code, k in shuffled) == sorted(default)


test_the_choice_search_keeps_its_promise, test_the_choice_search_keeps_its_promise_in_full = in_two_runs(
    settings(max_examples=60, deadline=None, derandomize=True), PHASE, st.integers(0, 2**16)
)(_choice_search_keeps_its_promise)


def test_a_phase_of_four_parts_with_an_error_in_each_of_two() -> None:
    """A fixed case of the property: a hub one fresh tank short (two tanks drove in, one goes two steps on) and a
    zone's loads one tank too many (two transports, one with an infantry aboard, three tanks), among two legal
    parts; the default budget, the unbounded search and a shuffled file agree (AA104 and AA401)."""
    plan = {"fresh": 0, "hub": ["in", "in", "1", "2"], "aboard": ["i", ""], "loads": ["tank", "tank", "tank"],
            "cargo": ["it"], "unloads": [1, -1], "carriers": (1, 0), "flights": [(0, 2)]}
    text, parts = phase_files(plan)
    moves = [move for part in parts for move in part]
    default, _ = checked(text, A, moves, errors_only=True)
    assert sorted(code for code, _ in default) == ["AA104", "AA401"]
    _choice_search_keeps_its_promise(plan, 5)


def test_a_legal_phase_of_four_parts_stays_legal_shuffled() -> None:
    """The close legal case: a fresh tank at the hub, and the loads an infantry and two tanks (one tank onto the
    transport with an infantry aboard, an infantry and a tank onto the empty one)."""
    plan = {"fresh": 1, "hub": ["in", "in", "1", "2"], "aboard": ["i", ""], "loads": ["infantry", "tank", "tank"],
            "cargo": ["it"], "unloads": [1, -1], "carriers": (1, 0), "flights": [(0, 2)]}
    text, parts = phase_files(plan)
    assert checked(text, A, [move for part in parts for move in part], errors_only=True)[0] == []
    _choice_search_keeps_its_promise(plan, 11)


# --- the landing search ----------------------------------------------------------------------------------------

CARRIER = st.tuples(st.sampled_from(["H", "H2"]), st.booleans())
LANDING = st.tuples(st.lists(st.integers(1, 2), min_size=1, max_size=4), st.lists(CARRIER, max_size=5))


def landing_findings(per_zone: list[int], carriers: list[tuple[str, bool]], seed: int | None = None
                     ) -> list[tuple[str, str]]:
    """(code, message) of each finding (the fighters have ids: a message names its order's); ``seed``: the orders
    shuffled."""
    shuffle = random.Random(seed) if seed is not None else None
    with tempfile.TemporaryDirectory() as folder:
        found = check_files(*hub_files(per_zone, carriers, shuffle=shuffle), Path(folder))
    return sorted((f.code, f.message) for f in found)


def _landing_keeps_its_promise(case: tuple[list[int], list[tuple[str, bool]]], seed: int) -> None:
    per_zone, carriers = case
    default = landing_findings(per_zone, carriers)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MOVECHECK_LANDING_BUDGET", str(10**11))
        assert landing_findings(per_zone, carriers) == default
    assert "MC012" not in {code for code, _ in default}
    # fighters that want the same carrier depend on each other: which is stranded may follow the order, not how many
    assert [code for code, _ in landing_findings(per_zone, carriers, seed)] == [code for code, _ in default]


test_the_landing_search_keeps_its_promise, test_the_landing_search_keeps_its_promise_in_full = in_two_runs(
    settings(max_examples=60, deadline=None, derandomize=True), LANDING, st.integers(0, 2**16)
)(_landing_keeps_its_promise)
