"""Low Luck in the odds (aa-battle.md, "Low Luck"; aa-battle-rules.md 5): tiny battles against a brute force of
every die (tests/aa/battle_reference.py), the raid's AA fire and damage, the options read from a state and from
a TripleA game."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa.battle.cli import run_odds
from movecheck.aa.battle.engine import spreads
from movecheck.aa.battle.model import AnniversaryBattle, BattleModel, RevisedBattle
from movecheck.aa.battle.units import make_battle
from movecheck.aa.editions import AA1942, Revised
from movecheck.aa.units import UnitType
from tests.aa.battle_reference import Ref, exact_odds, units_of
from tests.properties import in_two_runs

ROOT = Path(__file__).resolve().parent.parent.parent
STATE = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "aa-odds.schema.json").read_text(encoding="utf-8"))
TYPES = {
    "aa1942": {n: UnitType.from_data(n, d) for n, d in AA1942.unit_type_values().items()},
    "aa-revised": {n: UnitType.from_data(n, d) for n, d in Revised.unit_type_values().items()},
}
CASES = [
    (BattleModel, "aa1942", True, {"infantry": 3, "artillery": 1}, {"infantry": 2}),
    (BattleModel, "aa1942", True, {"tank": 2, "fighter": 2}, {"infantry": 2, "aa_gun": 1}),
    (RevisedBattle, "aa-revised", True, {"fighter": 2, "bomber": 1, "infantry": 1}, {"infantry": 2, "aa_gun": 1}),
    (AnniversaryBattle, "aa1942", True, {"fighter": 1, "bomber": 2}, {"infantry": 1, "fighter": 1, "aa_gun": 1}),
    (BattleModel, "aa1942", False, {"submarine": 2, "fighter": 1}, {"destroyer": 1, "transport": 1}),
    (RevisedBattle, "aa-revised", False, {"battleship": 1, "submarine": 2}, {"submarine": 1, "destroyer": 1}),
    (AnniversaryBattle, "aa1942", False, {"fighter": 2, "destroyer": 1}, {"submarine": 2, "battleship": 1}),
]


def outcomes(ends: dict[Any, Any]) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for (_state, outcome), p in ends.items():
        found[outcome] = found.get(outcome, Fraction(0)) + p
    return {k: v for k, v in found.items() if v}


@pytest.mark.parametrize(("model", "types", "land", "att", "dfn"), CASES)
@pytest.mark.parametrize(("low_luck", "low_luck_aa"), [(True, False), (False, True)])
def test_low_luck_agrees_with_every_die(model: Any, types: str, land: bool, att: dict[str, int],
                                        dfn: dict[str, int], low_luck: bool, low_luck_aa: bool) -> None:
    table = TYPES[types]
    battle, ool = make_battle(model, table, att, dfn, land=land, exact=True, low_luck=low_luck,
                              low_luck_aa=low_luck_aa)
    ref = Ref(model, units_of(model, table, att, ool["attacker"], True),
              units_of(model, table, dfn, ool["defender"], False), land=land, keep_land=battle.att.keep_land,
              aa_guns=battle.aa_guns, low_luck=low_luck, low_luck_aa=low_luck_aa)
    want, want_rounds = exact_odds(ref)
    solution = battle.solve()
    assert outcomes(solution.ends) == {k: v for k, v in want.items() if v}
    assert solution.rounds == want_rounds
    # and Low Luck is not the dice: the same battle with dice has other odds, where the option applies
    dice = make_battle(model, table, att, dfn, land=land, exact=True)[0].solve()
    applies = low_luck or ("aa_gun" in dfn and any(table[t].is_air for t in att))
    assert (outcomes(dice.ends) != outcomes(solution.ends)) is applies
    floating = make_battle(model, table, att, dfn, land=land, low_luck=low_luck, low_luck_aa=low_luck_aa)[0]
    assert abs(sum(floating.solve().ends.values()) - 1) < 1e-12


def _agrees_under_low_luck(edition: int, land: bool, att: dict[str, int], dfn: dict[str, int], aa_only: bool
                           ) -> None:
    model, types = EDITIONS[edition]
    table = TYPES[types]
    att = {n: c for n, c in att.items() if n in table}
    dfn = {n: c for n, c in dfn.items() if n in table}
    if not att or not dfn:
        return
    battle, ool = make_battle(model, table, att, dfn, land=land, exact=True, low_luck=not aa_only,
                              low_luck_aa=aa_only)
    ref = Ref(model, units_of(model, table, att, ool["attacker"], True),
              units_of(model, table, dfn, ool["defender"], False), land=land, keep_land=battle.att.keep_land,
              aa_guns=battle.aa_guns, low_luck=not aa_only, low_luck_aa=aa_only)
    want, want_rounds = exact_odds(ref)
    solution = battle.solve()
    assert outcomes(solution.ends) == {k: v for k, v in want.items() if v}
    assert solution.rounds == want_rounds


EDITIONS = [(BattleModel, "aa1942"), (RevisedBattle, "aa-revised"), (AnniversaryBattle, "aa1942")]
LAND = ["infantry", "artillery", "tank", "fighter", "bomber", "aa_gun"]
SEA = ["submarine", "destroyer", "cruiser", "carrier", "battleship", "transport", "fighter", "bomber"]


def side(names: list[str]) -> st.SearchStrategy[dict[str, int]]:
    return st.lists(st.sampled_from(names), min_size=1, max_size=4).map(
        lambda picked: {n: picked.count(n) for n in picked})


def _case(edition: int, land: bool, att: dict[str, int], dfn: dict[str, int], aa_only: bool) -> None:
    """A land battle keeps the land units and aircraft, a sea battle the ships and aircraft."""
    def keep(name: str) -> bool:
        return name in ("fighter", "bomber") or (name in LAND) == land

    _agrees_under_low_luck(edition, land, {n: c for n, c in att.items() if keep(n)},
                           {n: c for n, c in dfn.items() if keep(n) and not (n == "bomber" and not land)}, aa_only)


test_low_luck_battles_agree_with_every_die, test_low_luck_battles_agree_with_every_die_in_full = in_two_runs(
    settings(max_examples=200, deadline=None), edition=st.integers(0, 2), land=st.booleans(),
    att=side(LAND[:-1] + SEA[:6]), dfn=side(LAND + SEA[:6]), aa_only=st.booleans(),
)(_case)


def test_low_luck_power_of_twelve_is_two_sure_hits() -> None:
    battle = make_battle(BattleModel, TYPES["aa1942"], {"tank": 4}, {"infantry": 3}, land=True, exact=True,
                         low_luck=True)[0]
    # 4 tanks at 3: power 12, two hits for sure, then 3 at 3 ... the defender's 2 infantry at 2 each: power 4
    assert battle.convolution(((3, 4),)) == [0, 0, 1]
    assert battle.convolution(((2, 2),)) == [Fraction(1, 3), Fraction(2, 3)]
    assert battle.convolution(((1, 3), (2, 1))) == [Fraction(1, 6), Fraction(5, 6)]


def test_spreads_count_every_set_of_planes() -> None:
    assert sorted(spreads([2, 1], 2)) == [((1, 1), 2), ((2, 0), 1)]
    assert sum(ways for _take, ways in spreads([3, 2, 4], 4)) == 126  # C(9, 4)


def low_luck_state(folder: Path, options: str, battle: str) -> Path:
    text = STATE.read_text(encoding="utf-8")
    head, _sep, rest = text.partition("\nbattles:\n")
    lines = rest.split("\n")
    end = next((i for i, line in enumerate(lines) if line and not line.startswith(("-", " "))), len(lines))
    body = head + "\nbattles:\n" + battle + "\n".join(lines[end:])
    if options:
        body = body.replace("\nmap: ", f"\noptions: {{{options}}}\nmap: ", 1)
    path = folder / "state.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def odds(path: Path) -> dict[str, Any]:
    text, code = run_odds([str(path)], battle=None, ool=[], keep_land=None, retreat_after=None, retreat_below=None,
                          best_retreat=False, submerge=None, bombard=True, exact=False, fmt="json")
    assert code == 0
    report: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    return report


KARELIA = ("- at: Karelia S.S.R.\n  kind: land\n  attackers: {tank: 4}\n  defenders: {infantry: 2}\n"
           "  from: [Belorussia]\n")
RAID = ("- at: Caucasus\n  kind: raid\n  attackers: {bomber: 7}\n  defenders: {factory: 1}\n"
        "  from: [Ukraine S.S.R.]\n")


def test_a_state_under_low_luck_is_priced_under_it(tmp_path: Path) -> None:
    dice = odds(low_luck_state(tmp_path, "", KARELIA))["battles"][0]
    low = odds(low_luck_state(tmp_path, "low_luck: true", KARELIA))["battles"][0]
    # 4 tanks at 3 (power 12): 2 sure hits kill both infantry in round 1, always
    assert low["outcomes"]["attacker_wins"]["decimal"] == 1.0 and low["rounds"]["decimal"] == 1.0
    assert dice["outcomes"]["attacker_wins"]["decimal"] < 1.0
    assert low["low_luck"] == ["low_luck"] and "low_luck" not in dice
    text, _code = run_odds([str(tmp_path / "state.yaml")], battle=None, ool=[], keep_land=None, retreat_after=None,
                           retreat_below=None, best_retreat=False, submerge=None, bombard=True, exact=False,
                           fmt="text")
    assert "under Low Luck (low_luck)" in text


def test_a_raid_under_low_luck(tmp_path: Path) -> None:
    dice = odds(low_luck_state(tmp_path, "", RAID))["battles"][0]["outcomes"]
    aa_only = odds(low_luck_state(tmp_path, "low_luck: true", RAID))["battles"][0]["outcomes"]
    bombing = odds(low_luck_state(tmp_path, "low_luck_bombing: true", RAID))["battles"][0]["outcomes"]
    # Low Luck AA: 7 bombers, 1 sure hit and a die at 1 for the 7th
    assert set(aa_only["bombers_lost"]) == {"1", "2"} and len(dice["bombers_lost"]) == 8
    assert abs(aa_only["bombers_lost"]["2"]["decimal"] - 1 / 6) < 1e-12
    # Low Luck bombing (only it changes the damage): 3 or 4 a bomber, the dice's AA (up to 7 lost)
    assert len(bombing["bombers_lost"]) == 8
    sole = {int(k): v["decimal"] for k, v in bombing["damage"].items()}
    assert all(value == 0 or value >= 3 for value in sole)
    assert 1 not in sole and 2 not in sole


def test_dice_under_low_luck_are_not_checked_and_aa522_says_so(tmp_path: Path, run_main: Any) -> None:
    state = STATE.read_text(encoding="utf-8")
    results = (ROOT / "examples" / "aa" / "orders" / "g1-battles.yaml").read_text(encoding="utf-8")
    results = results.replace("state: ../states/g1-battles.yaml", "state: state.yaml")
    # a die missing: the attacker's 4 infantry at 1 owe 4 dice in Belorussia's round 1
    results = results.replace("{fire: {1: [1, 4, 6, 5], 2: [2, 5], 3: [6]}}",
                              "{fire: {1: [1, 4, 6], 2: [2, 5], 3: [6]}}")
    (tmp_path / "results.yaml").write_text(results, encoding="utf-8")
    (tmp_path / "state.yaml").write_text(state, encoding="utf-8")
    code, out, _err = run_main(["check", str(tmp_path / "results.yaml")])
    assert "AA513" in out and "AA522" not in out and code == 1
    (tmp_path / "state.yaml").write_text(state.replace("\nmap: ", "\noptions: {low_luck: true}\nmap: ", 1),
                                         encoding="utf-8")
    code, out, _err = run_main(["check", str(tmp_path / "results.yaml")])
    # judged as results without dice: the losses are possible, so legal, with one warning per result with dice
    # (rounds: or pasted dice: alike)
    with_dice = results.count("\n    rounds:") + results.count("\n    dice: |")
    assert with_dice == 3
    assert "AA513" not in out and out.count("AA522") == with_dice and code == 0


def test_a_configuration_sets_low_luck_for_the_odds(tmp_path: Path) -> None:
    state = low_luck_state(tmp_path, "", KARELIA)
    assert "low_luck" not in odds(state)["battles"][0]
    (tmp_path / ".movecheck.yaml").write_text("aa:\n  options:\n    low_luck: true\n", encoding="utf-8")
    assert odds(state)["battles"][0]["low_luck"] == ["low_luck"]
