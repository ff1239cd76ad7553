"""The odds engine on numpy arrays against its pure-Python loop: the helpers the land-level and sea-batch tests
share (tests/aa/test_odds_levels.py, tests/aa/test_odds_sea_batch.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from movecheck.aa.battle.engine import Battle
from movecheck.aa.battle.model import BattleModel
from movecheck.aa.battle.side import State
from movecheck.aa.battle.units import make_battle
from movecheck.aa.editions import AA1942, Revised
from movecheck.aa.units import UnitType

TYPES = {
    "aa1942": {n: UnitType.from_data(n, d) for n, d in AA1942.unit_type_values().items()},
    "aa-revised": {n: UnitType.from_data(n, d) for n, d in Revised.unit_type_values().items()},
}

Found = tuple[dict[Any, float], float]
"""A solution's ends (outcome -> probability) and its expected rounds."""


def both_ways(model: type[BattleModel], types: str, att: dict[str, int], dfn: dict[str, int],
              rule: Callable[[Battle], Callable[[State, int], bool]] | None = None, land: bool = True, **kw: Any
              ) -> tuple[Found, Found]:
    """The ends and expected rounds on arrays, then in pure Python (``land``: a land battle, else one at sea)."""
    found = []
    for arrays in (True, False):
        battle, _ool = make_battle(model, TYPES[types], att, dfn, land=land, **kw)
        battle.arrays = arrays
        battle.arrays_from = 0
        solution = battle.solve(rule(battle) if rule else None)
        found.append((solution.ends, solution.rounds))
    return found[0], found[1]


def assert_agree(fast_found: Found, slow_found: Found) -> None:
    """The same ends and rounds within rounding; probabilities that sum to 1."""
    (quick, quick_rounds), (slow, slow_rounds) = fast_found, slow_found
    # an end reached with less than 1e-18 may be missing from one of them: the arrays drop a cell that small
    # before its end is found (counted in the dropped probability), the pure-Python loop adds it as an end
    assert {k for k, p in quick.items() if p > 1e-15} == {k for k, p in slow.items() if p > 1e-15}
    gaps = [abs(quick.get(k, 0.0) - slow.get(k, 0.0)) for k in quick.keys() | slow.keys()]
    assert max(gaps) < 1e-12, max(gaps)
    assert abs(sum(quick.values()) - 1.0) < 1e-12
    assert abs(quick_rounds - slow_rounds) < 1e-9
