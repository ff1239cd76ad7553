"""Battle abilities of an imported TripleA map: the attachments ``import triplea`` reads reach the odds."""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from movecheck.aa.battle.model import AnniversaryBattle, BattleModel, RevisedBattle
from movecheck.aa.battle.side import ATTACKER_WINS, BOTH_DESTROYED, DEFENDER_HOLDS
from movecheck.aa.battle.units import make_battle
from movecheck.aa.units import UnitType
from movecheck.schema import validate_data
from tests.aa.battle_reference import Ref, aa_infrastructure, exact_odds, units_of
from tests.harness import yaml_data

from .test_triplea import SMALL, convert
from .triplea_writer import game_xml

UNIT_TYPES = {
    "infantry": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 3, "transport_cost": 2},
    "marine": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 4, "transport_cost": 2},
    "gun": {"movement": 1, "attack": 2, "defense": 2, "domain": "land", "cost": 4, "transport_cost": 3},
    "dreadnought": {"movement": 2, "attack": 4, "defense": 4, "domain": "sea", "cost": 20, "hit_points": 2},
    "monitor": {"movement": 2, "attack": 3, "defense": 3, "domain": "sea", "cost": 12},
    "sniper": {"movement": 1, "attack": 2, "defense": 2, "domain": "land", "cost": 5, "transport_cost": 2},
    "pike": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 3, "transport_cost": 2},
    "ghost": {"movement": 1, "attack": 1, "defense": 1, "domain": "land", "cost": 3, "transport_cost": 2},
    "raider": {"movement": 2, "attack": 2, "defense": 2, "domain": "sea", "cost": 8},
    "escort": {"movement": 2, "attack": 2, "defense": 2, "domain": "sea", "cost": 8, "destroyer": True},
    "transport": {"movement": 2, "attack": 0, "defense": 0, "domain": "sea", "cost": 7, "transport_capacity": 5},
    "plane": {"movement": 4, "attack": 3, "defense": 4, "domain": "air", "cost": 10},
    "glider": {"movement": 4, "attack": 1, "defense": 1, "domain": "air", "cost": 5},
    "flak": {"movement": 1, "attack": 0, "defense": 0, "domain": "land", "cost": 5},
    "commander": {"movement": 1, "attack": 1, "defense": 1, "domain": "land", "cost": 6},
}
EXTRA = {
    "marine": [("isArtillerySupportable", "true")],
    "gun": [("isArtillery", "true")],
    "dreadnought": [("canBombard", "true")],
    "monitor": [("canBombard", "true"), ("bombard", "2")],
    "sniper": [("isFirstStrike", "true")],
    "raider": [("isFirstStrike", "true")],
    "pike": [("canNotTarget", "gun:dreadnought")],
    "ghost": [("canNotBeTargetedBy", "infantry")],
    "flak": [("isAAforCombatOnly", "true"), ("attackAA", "2"), ("maxAAattacks", "1"), ("targetsAA", "plane")],
}
SUPPORT = "".join(
    f'\n    <attachment name="supportAttachment{name}" attachTo="{unit}" '
    'javaClass="games.strategy.triplea.attachments.UnitSupportAttachment" type="unitType">'
    + "".join(f'\n      <option name="{k}" value="{v}"/>' for k, v in options) + "\n    </attachment>"
    for name, unit, options in (
        ("Command", "commander", [("unitType", "marine:infantry"), ("faction", "allied"), ("side", "offence:defence"),
                                  ("dice", "strength"), ("bonus", "1"), ("number", "2"), ("bonusType", "Command")]),
        ("Barrage", "gun", [("unitType", "marine"), ("faction", "allied"), ("side", "offence"), ("dice", "roll"),
                            ("bonus", "1"), ("number", "1")]),
    ))


def with_options(xml: str, extra: dict[str, list[tuple[str, str]]]) -> str:
    """The game's XML with more options in the unit attachments of some unit types."""
    for unit, pairs in extra.items():
        options = "".join(f'\n      <option name="{k}" value="{v}"/>' for k, v in pairs)
        xml, n = re.subn(rf'(attachTo="{unit}" [^>]*type="unitType">)', lambda m, o=options: m.group(1) + o, xml)
        assert n == 1, unit
    return xml


def converted(run_main: Any, tmp_path: Path) -> dict[str, Any]:
    data = copy.deepcopy(SMALL)
    data["unit_types"] = UNIT_TYPES
    data["units"] = []
    xml = with_options(game_xml(data), EXTRA).replace("</attachmentList>", SUPPORT + "\n  </attachmentList>", 1)
    code, _out, err = convert(run_main, tmp_path, xml, "-o", str(tmp_path / "m.yaml"))
    assert code == 0, err
    (tmp_path / "err.txt").write_text(err, encoding="utf-8")
    found = yaml_data((tmp_path / "m.yaml").read_text(encoding="utf-8"))
    assert validate_data("aa-map", found) == []
    return found


def test_the_battle_abilities_are_carried_into_the_unit_stats(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    assert stats["dreadnought"]["bombard"] == 4  # canBombard without a bombard value: its attack
    assert stats["monitor"]["bombard"] == 2
    assert stats["gun"]["artillery"] is True and stats["marine"]["artillery_supportable"] is True
    assert not {"bombard", "artillery", "artillery_supportable"} & (set(stats["infantry"]) | set(stats["transport"]))


def test_a_renamed_battleship_bombards_and_a_named_one_without_the_stat_keeps_the_edition(
        run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    assert BattleModel.bombard_value(types["dreadnought"]) == 4
    assert BattleModel.bombard_value(types["monitor"]) == 2
    assert BattleModel.bombard_value(types["transport"]) == 0
    built_in = UnitType.from_data("cruiser", {"movement": 2, "attack": 3, "defense": 3, "domain": "sea"})
    assert BattleModel.bombard_value(built_in) == 3


def test_artillery_named_by_the_map_supports_the_marine(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    ool = {"attacker": ["marine", "gun"]}

    def win(att: dict[str, int]) -> Fraction:
        battle, _ = make_battle(BattleModel, types, att, {"infantry": 1}, land=True, ool=ool, keep_land=0, exact=True)
        ends = battle.solve().ends
        return sum((p for (_s, outcome), p in ends.items() if outcome == ATTACKER_WINS), Fraction(0))

    # supported, the marine hits at 2 like the gun: a marine and a gun against an infantry are
    # the infantry and artillery of the 1942 second edition (83/95, test_odds_engine)
    assert win({"marine": 1, "gun": 1}) == Fraction(83, 95)
    stats["marine"].pop("artillery_supportable")
    types["marine"] = UnitType.from_data("marine", stats["marine"])
    assert win({"marine": 1, "gun": 1}) != Fraction(83, 95)


def test_bombardment_by_the_renamed_battleship_changes_the_landing_odds(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}

    def win(bombard: tuple[int, ...]) -> Fraction:
        battle, _ = make_battle(BattleModel, types, {"marine": 1}, {"infantry": 1}, land=True, bombard=bombard,
                                exact=True)
        ends = battle.solve().ends
        return sum((p for (_s, outcome), p in ends.items() if outcome == ATTACKER_WINS), Fraction(0))

    plain = win(())
    # the dreadnought hits at 4 (2/3); its casualty fires back at 2 (1/3), the marine then holds the field
    assert win((BattleModel.bombard_value(types["dreadnought"]),)) == Fraction(2, 3) * Fraction(2, 3) + plain / 3


def test_defenders_all_sunk_by_bombardment_still_fire_back_in_floating_point(run_main: Any, tmp_path: Path) -> None:
    types = {n: UnitType.from_data(n, d) for n, d in converted(run_main, tmp_path)["unit_types"].items()}
    battle, _ = make_battle(BattleModel, types, {"marine": 1}, {"infantry": 1}, land=True, bombard=(6,))
    ends = battle.solve().ends
    # the bombardment cannot miss; the infantry fires back at 2 before it is removed
    assert abs(sum(p for (_s, o), p in ends.items() if o == ATTACKER_WINS) - 2 / 3) < 1e-12


def outcome_odds(types: dict[str, UnitType], att: dict[str, int], dfn: dict[str, int],
                 land: bool) -> dict[str, Fraction]:
    battle, _ = make_battle(BattleModel, types, att, dfn, land=land, keep_land=0, exact=True)
    found: dict[str, Fraction] = {}
    for (_s, outcome), p in battle.solve().ends.items():
        found[outcome] = found.get(outcome, Fraction(0)) + p
    return found


def test_first_strike_from_the_map_fires_first_unless_a_destroyer_cancels_it(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    assert stats["sniper"]["first_strike"] is True and "submarine" not in stats["sniper"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    # a round of 2 against 2: the first striker's hit (1/3) removes the infantry before it fires
    assert outcome_odds(types, {"sniper": 1}, {"infantry": 1}, True) == {ATTACKER_WINS: Fraction(3, 5),
                                                                        DEFENDER_HOLDS: Fraction(2, 5)}
    # at sea against a destroyer it fires with everyone: the plain 2 against 2 (both may die)
    cancelled = outcome_odds(types, {"raider": 1}, {"escort": 1}, False)
    assert cancelled == {ATTACKER_WINS: Fraction(2, 5), DEFENDER_HOLDS: Fraction(2, 5), BOTH_DESTROYED: Fraction(1, 5)}
    plain = {n: UnitType.from_data(n, {k: v for k, v in d.items() if k != "first_strike"}) for n, d in stats.items()}
    assert outcome_odds(plain, {"sniper": 1}, {"infantry": 1}, True) == cancelled
    # and it may hit aircraft, unlike a submarine: a first striker alone against a fighter still fights
    fighter = UnitType.from_data("fighter", {"movement": 4, "attack": 3, "defense": 4, "domain": "air",
                                             "carrier_cost": 1})
    against_air = outcome_odds({**types, "fighter": fighter}, {"raider": 1}, {"fighter": 1}, False)
    assert against_air[ATTACKER_WINS] == Fraction(1, 3) / (1 - Fraction(2, 3) * Fraction(1, 3))


LAND_SIDES = [{"sniper": 1, "marine": 1}, {"sniper": 2}, {"sniper": 1, "gun": 1, "marine": 1}, {"infantry": 2},
              {"gun": 1, "ghost": 1}, {"pike": 1, "infantry": 1}, {"ghost": 2, "pike": 1}]
SEA_SIDES = [{"raider": 2}, {"raider": 1, "escort": 1}, {"escort": 1}, {"raider": 1, "dreadnought": 1},
             {"transport": 1, "raider": 1}]


def test_first_strike_agrees_with_every_die(run_main: Any, tmp_path: Path) -> None:
    types = {n: UnitType.from_data(n, d) for n, d in converted(run_main, tmp_path)["unit_types"].items()}
    assert "first_strike" in types["sniper"].abilities and "first_strike" in types["raider"].abilities
    cases = [(True, a, d) for a in LAND_SIDES for d in LAND_SIDES[1:]]
    cases += [(False, a, d) for a in SEA_SIDES[:2] for d in SEA_SIDES]
    for model in (BattleModel, RevisedBattle):
        for land, att, dfn in cases:
            battle, ool = make_battle(model, types, att, dfn, land=land, exact=True)
            ref = Ref(model, units_of(model, types, att, ool["attacker"], True, tuple(ool["defender"])),
                      units_of(model, types, dfn, ool["defender"], False, tuple(ool["attacker"])), land=land,
                      keep_land=battle.att.keep_land)
            want, want_rounds = exact_odds(ref)
            solution = battle.solve()
            got: dict[str, Fraction] = {}
            for (_s, outcome), p in solution.ends.items():
                got[outcome] = got.get(outcome, Fraction(0)) + p
            case = (model.__name__, att, dfn)
            assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}, case
            assert solution.rounds == want_rounds, case


def test_types_a_unit_cannot_hit_or_be_hit_by(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    assert stats["pike"]["can_not_target"] == ["dreadnought", "gun"]
    assert stats["ghost"]["can_not_be_targeted_by"] == ["infantry"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    # the pike cannot hit the gun: the gun hits at 2 until it wins, in 3 rounds on average
    battle, _ = make_battle(BattleModel, types, {"gun": 1}, {"pike": 1}, land=True, exact=True)
    solution = battle.solve()
    assert outcome_odds(types, {"gun": 1}, {"pike": 1}, True) == {ATTACKER_WINS: Fraction(1)}
    assert solution.rounds == 3
    # it may hit a marine beside the gun, never the gun: the attacker keeps the field, with fewer survivors
    battle, _ = make_battle(BattleModel, types, {"gun": 1, "marine": 1}, {"pike": 1}, land=True, exact=True)
    ends = battle.solve().ends
    assert {o for (_s, o), p in ends.items() if p} == {ATTACKER_WINS}
    assert any(state[0][battle.att.kinds.index(next(k for k in battle.att.kinds if k.name == "marine"))] == 0
               for (state, _o), p in ends.items() if p)
    # infantry cannot hit the ghost (attack 1): it wins at last; a pike can
    assert outcome_odds(types, {"ghost": 1}, {"infantry": 1}, True) == {ATTACKER_WINS: Fraction(1)}
    assert outcome_odds(types, {"ghost": 1}, {"pike": 1}, True)[DEFENDER_HOLDS] > 0


def agrees_with_every_die(types: dict[str, UnitType], model: type[BattleModel], att: dict[str, int],
                          dfn: dict[str, int], ool: dict[str, list[str]] | None = None) -> dict[str, Fraction]:
    """The engine's exact odds of a land battle, asserted equal to the brute force's; the odds."""
    battle, used = make_battle(model, types, att, dfn, land=True, exact=True, ool=ool)
    ref = Ref(model, units_of(model, types, att, used["attacker"], True, tuple(used["defender"])),
              units_of(model, types, dfn, used["defender"], False, tuple(used["attacker"])), land=True,
              keep_land=battle.att.keep_land, aa_guns=battle.aa_guns, aa_extra=aa_infrastructure(model, types, dfn))
    want, want_rounds = exact_odds(ref)
    solution = battle.solve()
    got: dict[str, Fraction] = {}
    for (_s, outcome), p in solution.ends.items():
        got[outcome] = got.get(outcome, Fraction(0)) + p
    case = (model.__name__, att, dfn)
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}, case
    assert solution.rounds == want_rounds, case
    return got


def test_aa_and_support_attachments_are_carried_into_the_unit_stats(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    assert stats["flak"]["aa"] == {"battle": True, "raids": False, "fly_over": False, "value": 2, "die_sides": 6,
                                   "shots": 1, "targets": ["plane"]}
    assert stats["commander"]["support"] == [{"units": ["infantry", "marine"], "bonus": 1, "number": 2,
                                              "attack": True, "defence": True, "bonus_type": "Command"}]
    # a support of extra dice is not modelled: left out of the stats, and said
    assert "support" not in stats["gun"]
    assert "support attachments other than a bonus" in (tmp_path / "err.txt").read_text(encoding="utf-8")
    assert not {"aa", "support"} & set(stats["infantry"])


def test_an_aa_unit_with_another_name_fires_at_the_planes_it_may_target(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    plain = {**types, "flak": UnitType.from_data("flak", {k: v for k, v in stats["flak"].items() if k != "aa"})}
    for model in (BattleModel, AnniversaryBattle, RevisedBattle):
        for att in ({"plane": 1}, {"plane": 2}, {"plane": 1, "glider": 1}, {"glider": 1, "infantry": 1}):
            agrees_with_every_die(types, model, att, {"flak": 1, "infantry": 1})
    # 1942 second edition: the flak is a unit of the battle (0/0); its one shot at 2 takes the plane a third of
    # the time, then the battle is the one without AA fire
    won = agrees_with_every_die(types, BattleModel, {"plane": 1}, {"flak": 1, "infantry": 1})
    without = agrees_with_every_die(plain, BattleModel, {"plane": 1}, {"flak": 1, "infantry": 1})
    assert won[ATTACKER_WINS] == Fraction(2, 3) * without[ATTACKER_WINS]
    # Anniversary: infrastructure, as its AA gun; one shot per gun (maxAAattacks 1) does not limit its dice there
    won = agrees_with_every_die(types, AnniversaryBattle, {"plane": 1}, {"flak": 1, "infantry": 1})
    alone = agrees_with_every_die(types, AnniversaryBattle, {"plane": 1}, {"infantry": 1})
    assert won[ATTACKER_WINS] == Fraction(2, 3) * alone[ATTACKER_WINS]
    # the glider is no target of it
    assert (agrees_with_every_die(types, BattleModel, {"glider": 1}, {"flak": 1, "infantry": 1})
            == agrees_with_every_die(plain, BattleModel, {"glider": 1}, {"flak": 1, "infantry": 1}))


def test_a_support_attachment_raises_the_units_it_names(run_main: Any, tmp_path: Path) -> None:
    stats = converted(run_main, tmp_path)["unit_types"]
    types = {n: UnitType.from_data(n, d) for n, d in stats.items()}
    plain = {**types, "commander": UnitType.from_data("commander", {k: v for k, v in stats["commander"].items()
                                                                    if k != "support"})}
    ool = {"attacker": ["marine", "commander", "gun"], "defender": ["infantry", "commander"]}
    cases = [({"commander": 1, "marine": 1}, {"infantry": 1}), ({"commander": 1, "marine": 3}, {"infantry": 2}),
             ({"marine": 2}, {"commander": 1, "infantry": 2}), ({"commander": 1, "gun": 1, "marine": 1},
                                                                 {"commander": 1, "infantry": 1})]
    for model in (BattleModel, RevisedBattle):
        for att, dfn in cases:
            supported = agrees_with_every_die(types, model, att, dfn, ool)
            assert supported != agrees_with_every_die(plain, model, att, dfn, ool), (att, dfn)
    # a commander and a marine against an infantry: the marine, raised to 2, is the 1942 infantry beside its
    # artillery, and the commander attacks at 1 as that artillery would not (2): not 83/95, but worked out here
    won = agrees_with_every_die(types, BattleModel, {"commander": 1, "marine": 1}, {"infantry": 1},
                                {"attacker": ["marine", "commander"]})
    # round from 2 v 1: the attacker hits >= 1 with 1 - (4/6)(5/6) = 4/9, the defender 1/3; after the marine is
    # lost, the commander (no marine to raise) is 1 at 1 against 1 at 2: it wins 1/4 of the time (by hand, 1942)
    p_a, p_d = Fraction(4, 9), Fraction(1, 3)
    stay = (1 - p_a) * (1 - p_d)
    assert won[ATTACKER_WINS] == (p_a + (1 - p_a) * p_d * Fraction(1, 4)) / (1 - stay)
