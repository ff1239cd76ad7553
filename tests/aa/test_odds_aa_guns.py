"""Issues 38/39 follow-up: the AA gun of a land battle's territory fires in the odds in every edition, as the
rules give (aa-battle-rules.md, "The battle of each edition") and as the dice replay counts it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from movecheck.aa.battle.odds import Ask, price, read_state
from tests.aa.battle_reference import Ref, exact_odds, units_of

from .conftest import unit
from .test_raids import BOMBER_1942, BOMBER_REVISED, KARELIA, G, R, battles_state


def two_fighters_over_a_gun(capsys, tmp_path: Path, rules: str) -> Path:
    """Two German fighters attack Karelia, held by one Russian infantry and an AA gun."""
    path = BOMBER_REVISED if rules == "revised" else BOMBER_1942
    units = [unit("Germany", G, "fighter", 2), unit(KARELIA, R, "infantry"), unit(KARELIA, R, "aa_gun")]
    battles_state(capsys, tmp_path, units, [{"units": {"fighter": 2}, "path": path}], rules=rules)
    return tmp_path / "battles.yaml"


def odds_and_reference(path: Path, guns: int) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The odds of the state's one battle (exact), and the brute-force reference's with ``guns`` AA guns that
    are no units of the battle."""
    game, specs = read_state(str(path))
    [spec] = specs
    priced = price(game, spec, specs, Ask(exact=True), {})
    got: dict[str, Fraction] = {}
    for (_state, outcome), p in priced.ends.items():
        got[outcome] = got.get(outcome, Fraction(0)) + p
    battle = priced.battle
    assert battle is not None
    model, types = game.model, game.types
    ool = priced.ool
    assert ool is not None
    ref = Ref(model, units_of(model, types, spec.attackers, ool["attacker"], True),
              units_of(model, types, spec.defenders, ool["defender"], False), land=True,
              keep_land=battle.att.keep_land, aa_guns=guns)
    want, _rounds = exact_odds(ref)
    return {k: v for k, v in got.items() if v}, {k: v for k, v in want.items() if v}


def test_revised_odds_fire_the_infrastructure_gun_at_two_fighters(capsys, tmp_path: Path) -> None:
    """Before: the battles state leaves the Revised AA gun out of the defenders (it is infrastructure), so the
    odds priced no AA fire: the attacker's chances were those of the reference without the gun."""
    path = two_fighters_over_a_gun(capsys, tmp_path, "revised")
    _game, [spec] = read_state(str(path))
    assert spec.defenders == {"infantry": 1}  # the state format is unchanged: the gun is on the board only
    got, want = odds_and_reference(path, guns=1)
    assert got == want
    _got, without = odds_and_reference(path, guns=0)
    assert got["attacker"] < without["attacker"]  # the gun's fire is priced, not a no-op


def test_1942_odds_fire_the_gun_that_is_a_defender(capsys, tmp_path: Path) -> None:
    """The 1942 second edition: the AA gun is a defender (0 defence, a casualty) firing up to 3 shots at 1, the
    attacker choosing the planes hit; it is priced once (never again as infrastructure)."""
    path = two_fighters_over_a_gun(capsys, tmp_path, "aa1942")
    _game, [spec] = read_state(str(path))
    assert spec.defenders == {"aa_gun": 1, "infantry": 1}
    got, want = odds_and_reference(path, guns=0)
    assert got == want


def test_an_aa_gun_the_state_lists_among_the_defenders_is_not_counted_twice(capsys, tmp_path: Path) -> None:
    """A hand-written Revised state may list the gun in ``defenders:`` as well as on the board: one gun fires."""
    path = two_fighters_over_a_gun(capsys, tmp_path, "revised")
    text = path.read_text(encoding="utf-8").replace("defenders: {infantry: 1}",
                                                    "defenders: {aa_gun: 1, infantry: 1}")
    assert "{aa_gun: 1, infantry: 1}" in text
    path.write_text(text, encoding="utf-8")
    got, want = odds_and_reference(path, guns=1)
    assert got == want


ANNIVERSARY = Path(__file__).parents[2] / "examples/aa/anniversary/states/r1-japanese-battles.yaml"


def test_anniversary_odds_fire_the_infrastructure_gun(tmp_path: Path) -> None:
    """Anniversary: the AA gun is infrastructure as in Revised (one die per plane, at 1); the example's
    Kwangtung battle with two Japanese fighters added and a British AA gun in the territory."""
    text = ANNIVERSARY.read_text(encoding="utf-8")
    text = text.replace("units:\n", "units:\n- {at: Kwangtung, power: British, type: aa_gun}\n", 1)
    text = text.replace("attackers: {infantry: 2}\n  defenders: {infantry: 1}",
                        "attackers: {fighter: 2}\n  defenders: {infantry: 1}")
    assert "attackers: {fighter: 2}" in text
    path = tmp_path / "battles.yaml"
    path.write_text(text, encoding="utf-8")
    got, want = odds_and_reference(path, guns=1)
    assert got == want
    assert got != odds_and_reference(path, guns=0)[1]


def test_the_odds_report_says_which_guns_fire_beside_the_defenders(capsys, tmp_path: Path, run_main) -> None:
    path = two_fighters_over_a_gun(capsys, tmp_path, "revised")
    code, out, err = run_main(["odds", str(path)])
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "Karelia S.S.R. (land): 2 fighters against 1 infantry",
        "  and 1 AA gun of the territory, no unit of the battle, firing at the aircraft in round 1"]
    assert "attacker wins 79.86 %" in out  # 115/144
    code, out, err = run_main(["odds", str(path), "--lang", "ru"])
    assert code == 0 and "и 1 зенитное орудие территории" in out, err
    code, out, err = run_main(["odds", str(path), "--format", "json"])
    assert code == 0, err
    report = json.loads(out)
    from movecheck.schema import validate_data

    assert validate_data("aa-odds", report) == []
    [battle] = report["battles"]
    assert battle["defenders"] == {"infantry": 1} and battle["aa_guns"] == 1


@pytest.mark.parametrize(("edition", "att", "dfn"), [
    (1, {"fighter": 2}, {"infantry": 1}),
    (1, {"fighter": 1, "bomber": 1, "infantry": 1}, {"infantry": 2}),
    (2, {"fighter": 2}, {"infantry": 1}),
    (2, {"bomber": 1, "tank": 1}, {"infantry": 1, "fighter": 1}),
], ids=["revised-2-fighters", "revised-mixed", "anniversary-2-fighters", "anniversary-bomber-tank"])
def test_infrastructure_guns_agree_with_every_die(edition: int, att: dict[str, int], dfn: dict[str, int]) -> None:
    """make_battle's ``aa_guns`` (the territory's guns outside the defenders) against the brute force."""
    from movecheck.aa.battle.model import AnniversaryBattle, RevisedBattle
    from movecheck.aa.battle.units import make_battle
    from movecheck.aa.editions import AA1942, Revised
    from movecheck.aa.units import UnitType

    model, values = (RevisedBattle, Revised) if edition == 1 else (AnniversaryBattle, AA1942)
    table = {n: UnitType.from_data(n, d) for n, d in values.unit_type_values().items()}
    battle, ool = make_battle(model, table, att, dfn, land=True, exact=True, aa_guns=1)
    ref = Ref(model, units_of(model, table, att, ool["attacker"], True),
              units_of(model, table, dfn, ool["defender"], False), land=True, keep_land=battle.att.keep_land,
              aa_guns=1)
    want, want_rounds = exact_odds(ref)
    solution = battle.solve()
    got: dict[str, Fraction] = {}
    for (_s, outcome), p in solution.ends.items():
        got[outcome] = got.get(outcome, Fraction(0)) + p
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}
    assert solution.rounds == want_rounds
    without = make_battle(model, table, att, dfn, land=True, exact=True)[0].solve()
    assert without.ends != solution.ends  # the gun's fire changes the battle
