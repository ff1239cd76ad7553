"""The array engine's levels (``fast.Levels``): a level of a land battle's grid fought in one matrix product.

Each case is solved twice, on arrays (from the first round: ``arrays_from = 0``) and by the engine's own
pure-Python loop, and every end (state and outcome) must agree within 1e-12: the cells where one side
cannot fire, hits beyond the enemy's units left, Low Luck's sure hits, AA guns and the retreat rule all
meet the level code's edges.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa.battle import fast
from movecheck.aa.battle.engine import Battle
from movecheck.aa.battle.model import AnniversaryBattle, BattleModel, RevisedBattle
from movecheck.aa.battle.side import RETREAT, State
from movecheck.aa.battle.units import make_battle
from tests.aa.odds_arrays import TYPES, assert_agree, both_ways
from tests.properties import in_two_runs


@pytest.fixture(autouse=True)
def levels_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every grid here is taken up by levels, however small (bigger ones are, by default)."""
    monkeypatch.setattr(fast, "LEVELS_FROM", 0)


@pytest.mark.parametrize(("model", "types", "att", "dfn", "kw"), [
    # hits far beyond the enemy's units left: summed into its last cell
    (BattleModel, "aa1942", {"tank": 12, "artillery": 2}, {"infantry": 4}, {}),
    (BattleModel, "aa1942", {"infantry": 4}, {"infantry": 9, "tank": 3}, {}),
    # supports, aircraft and uneven sides
    (BattleModel, "aa1942", {"infantry": 6, "artillery": 3, "tank": 3, "fighter": 2, "bomber": 1},
     {"infantry": 8, "artillery": 2, "tank": 2, "fighter": 1}, {}),
    (RevisedBattle, "aa-revised", {"infantry": 7, "artillery": 4, "tank": 2}, {"infantry": 6, "tank": 3}, {}),
    # Low Luck: distributions that open with sure hits (zeros first)
    (BattleModel, "aa1942", {"infantry": 6, "artillery": 3, "tank": 4}, {"infantry": 7, "tank": 3},
     {"low_luck": True}),
    # an AA gun: round 1 apart, and a defender left with a unit that does not fire
    (BattleModel, "aa1942", {"infantry": 5, "tank": 2, "fighter": 2, "bomber": 1}, {"infantry": 5, "aa_gun": 1}, {}),
    # a lone fighter against many: ends under 1e-18 that only the pure-Python loop lists
    (BattleModel, "aa1942", {"fighter": 1}, {"artillery": 3, "tank": 2, "fighter": 3, "aa_gun": 1}, {}),
], ids=["hits-beyond-defender", "hits-beyond-attacker", "mixed", "revised", "low-luck", "aa-gun", "tiny-ends"])
def test_levels_agree_with_pure_python(model: type[BattleModel], types: str, att: dict[str, int],
                                       dfn: dict[str, int], kw: dict[str, Any]) -> None:
    assert_agree(*both_ways(model, types, att, dfn, **kw))


def test_levels_retreat_where_the_rule_says() -> None:
    # the attacker leaves once it has fewer than 6 units: the cells of a level it leaves from are not fought
    def rule(battle: Battle) -> Callable[[State, int], bool]:
        return lambda state, _round: bool(battle.att.in_battle(state[0]) < 6)

    quick, slow = both_ways(BattleModel, "aa1942", {"infantry": 6, "artillery": 2, "tank": 3},
                            {"infantry": 8, "tank": 2}, rule, may_retreat=True)
    assert sum(p for (_s, outcome), p in quick[0].items() if outcome == RETREAT) > 0.1
    assert_agree(quick, slow)


def test_a_big_land_battle_is_taken_up_by_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    # 30 a side: the chain's grid, a matrix product per level; each product small enough for one thread
    products: list[int] = []
    original = fast.Levels.add

    def counted(self: fast.Levels, level: int, top: int, last: int, share: Any, grid: Any) -> None:
        products.append(level)
        original(self, level, top, last, share, grid)

    monkeypatch.setattr(fast.Levels, "add", counted)
    army = {"infantry": 15, "artillery": 7, "tank": 8}
    found = []
    for _ in range(2):
        products.clear()
        battle, _ool = make_battle(BattleModel, TYPES["aa1942"], army, army, land=True)
        found.append(battle.solve())
    assert abs(sum(found[0].ends.values()) - 1.0) < 1e-12
    assert found[0].ends == found[1].ends  # the same figures, to the last bit
    assert found[0].rounds == found[1].rounds
    assert len(set(products)) == len(products) > 40  # each level once, in one go


LAND = ("infantry", "artillery", "tank", "fighter", "bomber")


def _levels_agree(edition: int, att: list[int], dfn: list[int], guns: int, low_luck: bool) -> None:
    model, types = ((BattleModel, "aa1942"), (RevisedBattle, "aa-revised"), (AnniversaryBattle, "aa1942"))[edition]
    attackers = {n: c for n, c in zip(LAND, att, strict=True) if c}
    defenders = {n: c for n, c in zip(LAND, dfn, strict=True) if c} | ({"aa_gun": guns} if guns else {})
    if not attackers or not defenders:
        return
    assert_agree(*both_ways(model, types, attackers, defenders, low_luck=low_luck))


test_levels_agree_on_any_land_battle, test_levels_agree_on_any_land_battle_in_full = in_two_runs(
    settings(max_examples=60, deadline=None), edition=st.integers(0, 2),
    att=st.lists(st.integers(0, 4), min_size=5, max_size=5), dfn=st.lists(st.integers(0, 4), min_size=5, max_size=5),
    guns=st.integers(0, 1), low_luck=st.booleans(),
)(_levels_agree)
