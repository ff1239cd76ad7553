"""The choice search tries the parts of the phase that carry an error first (issue 37): an error no choice avoids,
met early, ends the variation of every choice after it.  The verdict, every finding and the ``assignment`` stay
what the search in file order gives, and shuffling orders that share no space never changes them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa import engine
from tests.properties import in_two_runs

from .conftest import mv, state, unit
from .test_bounds import NCM, G, custom_map
from .test_replay import searched

LAND = ["Port", "Depot", "Hub", "Near", "Far"]
CONNECTIONS = [["Port", "Bay"], ["Depot", "Hub"], ["Hub", "Near"], ["Near", "Far"]]


def packing_then_hub(transports: int, far: int, fresh: int | None = None) -> tuple[str, list[dict[str, Any]]]:
    """Two parts on one map: ``transports`` infantry then as many tanks load one per order from Port into Bay (the
    greedy choice puts two infantry on a transport: an AA401 another choice avoids), then issue 37's B2 at a hub
    (2·far + 3 tanks drive in, ``fresh`` tanks stand there, far - 1 unless given; 2·far + 2 orders send one tank a
    step on, ``far`` two steps): one fresh tank short is an AA104 no choice avoids."""
    fresh = far - 1 if fresh is None else fresh
    arrive = 2 * far + 3
    units = [unit("Port", G, "infantry", transports), unit("Port", G, "tank", transports)]
    units += [unit("Bay", G, "transport") for _ in range(transports)]
    units += [unit("Depot", G, "tank", arrive)] + ([unit("Hub", G, "tank", fresh)] if fresh else [])
    moves = [mv({"infantry": 1}, "Port", "Bay") for _ in range(transports)]
    moves += [mv({"tank": 1}, "Port", "Bay") for _ in range(transports)]
    moves += [mv({"tank": 1}, "Depot", "Hub") for _ in range(arrive)]
    moves += [mv({"tank": 1}, "Hub", "Near") for _ in range(arrive - 1)]
    moves += [mv({"tank": 1}, "Hub", "Near", "Far") for _ in range(far)]
    return state(G, NCM, units=units, map=custom_map(LAND, ["Bay"], CONNECTIONS, G)), moves


def codes(found: list[tuple[str, int | None, str]]) -> list[tuple[str, int | None]]:
    return [(code, order) for code, order, _ in found if code.startswith(("AA", "MC"))]


def in_file_order(text: str, moves: list[dict[str, Any]]) -> tuple[Any, Any, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "ERROR_FIRST", False)
        return searched(text, G, moves)


def test_an_error_no_choice_avoids_is_searched_before_the_parts_ahead_of_it() -> None:
    """Loads whose greedy packing fails come first in the file, the hub's tank no choice finds after them (no
    counting bound: the search has to prove it).  In file order every packing tried was tried again with every
    choice at the hub (12 runs at 3 transports, 92 at 6); with the hub searched first, its error stops the variation
    of the loads after it: as many runs as the hub alone needs (8), whatever the loads."""
    runs = []
    for transports in (3, 6):
        text, moves = packing_then_hub(transports, 2)
        found, _, (stats,) = searched(text, G, moves)
        assert codes(found) == [("AA104", len(moves))]
        runs.append(stats.runs)
    assert runs[0] == runs[1] <= 10


@pytest.mark.slow
def test_error_first_gives_the_findings_of_file_order_in_fewer_runs() -> None:
    text, moves = packing_then_hub(6, 2)
    found, assignment, (stats,) = searched(text, G, moves)
    plain_found, plain_assignment, (plain,) = in_file_order(text, moves)
    assert (plain_found, plain_assignment) == (found, assignment)
    assert plain.runs > 5 * stats.runs


def test_the_loads_are_legal_when_the_hub_has_its_tank() -> None:
    """The close legal case: with one more fresh tank at the hub, the loads' packing is found and nothing is wrong."""
    text, moves = packing_then_hub(4, 2, fresh=2)
    found, _, _ = searched(text, G, moves)
    assert codes(found) == []


def test_parts_in_file_order_already_are_searched_as_written() -> None:
    """The hub first, the loads after: nothing to reorder (the erring part that no choice helps is first)."""
    text, moves = packing_then_hub(4, 2)
    hub_first = moves[8:] + moves[:8]
    found, assignment, _ = searched(text, G, hub_first)
    assert codes(found) == [("AA104", len(hub_first) - 8)]
    assert (found, assignment) == in_file_order(text, hub_first)[:2]


def _shuffled_keeps_findings(transports: int, far: int, fresh: int, keys: list[int]) -> None:
    """The loads and the hub's orders interleaved at random (each part in its own order): the findings, read back
    to the orders as first written, and the verdict are those of the file with the parts one after the other;
    and searching the erring parts first changes no finding and no ``assignment``."""
    text, moves = packing_then_hub(transports, far, fresh)
    loads, tanks = list(range(2 * transports)), list(range(2 * transports, len(moves)))
    order: list[int] = []
    for key in keys + [0] * len(moves):
        source = loads if loads and (not tanks or key % 2) else tanks
        if source:
            order.append(source.pop(0))
    mixed = [moves[k] for k in order]
    found, assignment, _ = searched(text, G, mixed)
    assert (found, assignment) == in_file_order(text, mixed)[:2]
    written, _, _ = searched(text, G, moves)
    assert sorted((code, order[k - 1] + 1 if k else k) for code, k in codes(found)) == sorted(codes(written))


test_shuffled_independent_orders_keep_every_finding, test_shuffled_independent_orders_keep_every_finding_in_full = (
    in_two_runs(
        settings(max_examples=30, deadline=None, derandomize=True),
        st.integers(1, 3), st.integers(1, 2), st.integers(0, 2), st.lists(st.integers(0, 1), max_size=24),
    )(_shuffled_keeps_findings)
)
