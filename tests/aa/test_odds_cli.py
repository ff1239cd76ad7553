"""movecheck odds on files: the example game's battles, JSON against the aa-odds schema, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from movecheck.aa.battle.odds import Spec, price_raid, read_state

ROOT = Path(__file__).resolve().parent.parent.parent
BATTLES = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "aa-odds.schema.json").read_text(encoding="utf-8"))
SPACES = ["7 Sea Zone", "17 Sea Zone", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."]


def decimal(entry: dict[str, Any]) -> float:
    return float(entry["decimal"])


def test_every_german_battle_and_the_turn(run_main: Any) -> None:
    code, out, err = run_main(["odds", str(BATTLES)])
    assert code == 0, err
    for space in SPACES:
        assert f"{space} (" in out
    assert out.rstrip().splitlines()[-1].startswith("turn: every battle won ")


def test_json_report_follows_its_schema_and_sums_to_one(run_main: Any) -> None:
    code, out, _err = run_main(["odds", str(BATTLES), "--format", "json"])
    assert code == 0
    report = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert [b["at"] for b in report["battles"]] == SPACES
    for battle in report["battles"]:
        outcomes = battle["outcomes"]
        total = sum(decimal(outcomes[k]) for k in ("attacker_wins", "defender_holds", "both_destroyed", "stalemate"))
        assert abs(total - 1) < 1e-12
        assert decimal(outcomes["territory_taken"]) <= decimal(outcomes["attacker_wins"])
        assert battle["ipc_swing"]["p5"] <= battle["ipc_swing"]["p50"] <= battle["ipc_swing"]["p95"]
    sea = report["battles"][0]
    assert decimal(sea["outcomes"]["territory_taken"]) == 0
    turn = report["turn"]
    assert 0 < decimal(turn["every_battle_won"]) <= decimal(turn["every_territory_taken"]) <= 1


def test_landing_waits_for_the_sea_battle(run_main: Any) -> None:
    # Egypt's amphibious units come through 17 Sea Zone: when that battle is lost they do not land, so the
    # chance that every territory is taken is below the product of the land battles' own chances
    _c, out, _e = run_main(["odds", str(BATTLES), "--format", "json"])
    report = json.loads(out)
    taken = 1.0
    won = 1.0
    for battle in report["battles"]:
        won *= decimal(battle["outcomes"]["attacker_wins"])
        if battle["kind"] == "land":
            taken *= decimal(battle["outcomes"]["territory_taken"])
    sea = report["battles"][1]
    assert sea["at"] == "17 Sea Zone" and decimal(sea["outcomes"]["defender_holds"]) > 0
    assert decimal(report["turn"]["every_territory_taken"]) < taken * (1 - 1e-6)
    # the transport is taken last: when the sea battle is won it always comes through
    assert abs(decimal(report["turn"]["every_battle_won"]) - won) < 1e-12


def test_exact_fraction_gives_fractions(run_main: Any) -> None:
    code, out, _e = run_main(["odds", str(BATTLES), "--battle", "Karelia", "--exact-fraction", "--format", "json"])
    assert code == 0
    outcomes = json.loads(out)["battles"][0]["outcomes"]
    numerator, denominator = (int(x) for x in outcomes["attacker_wins"]["fraction"].split("/"))
    assert abs(numerator / denominator - decimal(outcomes["attacker_wins"])) < 1e-15


def test_best_retreat_is_no_worse_than_fighting_on(run_main: Any) -> None:
    code, out, _e = run_main(["odds", str(BATTLES), "--battle", "Caucasus", "--best-retreat", "--format", "json"])
    assert code == 0
    best = json.loads(out)["battles"][0]["best_retreat"]
    assert decimal(best["swing"]) >= decimal(best["fight_to_end"]) - 1e-9
    code, out, _e = run_main(["odds", str(BATTLES), "--battle", "Caucasus", "--retreat-after", "1", "--format",
                              "json"])
    assert code == 0 and json.loads(out)["battles"][0]["retreat"] == {"after": 1}


def test_ool_naming_an_absent_type_is_a_usage_error(run_main: Any) -> None:
    code, out, err = run_main(["odds", str(BATTLES), "--ool", "attacker=inf,zeppelin"])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "zeppelin" in err
    code, _out, _err = run_main(["odds", str(BATTLES), "--ool", "attacker=inf,arm,art"])
    assert code == 0


def test_a_state_with_no_battles_is_one_line(run_main: Any) -> None:
    code, out, err = run_main(["odds", str(ROOT / "examples" / "aa" / "states" / "g1-combat.yaml")])
    assert code == 2 and not out
    assert err.count("\n") == 1 and "no battles" in err


def test_a_battle_beyond_its_budget_is_unchecked(run_main: Any) -> None:
    code, out, _err = run_main(["odds", str(BATTLES), "--battle", "Belorussia", "--format", "json"],
                               env={"MOVECHECK_ODDS_BUDGET": "50"})
    assert code == 1
    report = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["battles"][0]["unchecked"]["code"] == "MC012" and report["turn"] is None
    code, out, _err = run_main(["odds", str(BATTLES), "--battle", "Belorussia"], env={"MOVECHECK_ODDS_BUDGET": "50"})
    assert code == 1 and "MC012" in out
    code, _out, _err = run_main(["odds", str(BATTLES), "--battle", "Belorussia"], env={"MOVECHECK_ODDS_BUDGET": "1e9"})
    assert code == 2


def test_raid_odds_in_closed_form() -> None:
    game, _specs = read_state(str(BATTLES))
    spec = Spec("Caucasus", "raid", {"bomber": 1}, {"factory": 1}, [], {}, 0)
    priced = price_raid(game, spec)
    assert priced.raid is not None
    assert abs(priced.raid["bombers_lost"][1] - 1 / 6) < 1e-15  # the factory's own AA (1942 second edition)
    value = game.production["Caucasus"]
    damage = priced.raid["damage"]
    assert max(damage) <= min(6, 2 * value) and abs(sum(damage.values()) - 1) < 1e-12


def test_combat_move_orders_are_priced_as_their_battles_state(run_main: Any) -> None:
    # examples/aa/states/g1-battles.yaml is what apply writes for these orders
    code, from_orders, _e = run_main(["odds", str(ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"), "-f",
                                      "json"])
    assert code == 0
    _c, from_state, _e = run_main(["odds", str(BATTLES), "-f", "json"])
    assert json.loads(from_orders) == json.loads(from_state)


def test_illegal_orders_are_one_line(run_main: Any) -> None:
    path = ROOT / "examples" / "aa" / "orders" / "variants" / "aa101-not-adjacent.yaml"
    code, out, err = run_main(["odds", str(path)])
    assert code == 2 and not out and err.count("\n") == 1 and "not legal" in err


def test_results_get_their_luck(run_main: Any) -> None:
    results = ROOT / "examples" / "aa" / "orders" / "g1-battles.yaml"
    code, out, _err = run_main(["odds", str(results), "-f", "json"])
    assert code == 0
    report = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    by_at = {b["at"]: b for b in report["battles"]}
    # Karelia: 2 infantry lost (6) against 2 infantry and a fighter (16) and the territory (2): swing 12
    karelia = by_at["Karelia S.S.R."]
    assert karelia["result"]["ipc_swing"] == 12
    luck = decimal(karelia["result"]["luck"])
    dist = karelia["ipc_swing"]
    assert 0 < luck < 1 and dist["p5"] <= 12 <= dist["p95"]
    # the Germans' luck is minus the sum of the defending powers' (each battle has one defending power here)
    powers = {k: decimal(v) for k, v in report["luck"].items()}
    assert abs(powers["Germans"] + powers["British"] + powers["Russians"]) < 1e-9
    code, out, _err = run_main(["odds", str(results)])
    assert code == 0 and "luck of the Germans" in out


def test_a_near_certainty_is_never_shown_as_one() -> None:
    from fractions import Fraction

    from movecheck.aa.battle.report import shown_percent

    assert shown_percent(0.99996, 1) == "> 99.9 %"
    assert shown_percent(0.99996, 2) == "> 99.99 %"
    assert shown_percent(0.00004, 1) == "< 0.1 %"
    assert shown_percent(1.0, 1) == shown_percent(Fraction(1), 2) == "100 %"
    assert shown_percent(0, 2) == "0 %"
    assert shown_percent(0.5531, 1) == "55.3 %"
    assert shown_percent(0.9994, 1) == "99.9 %"


def test_odds_text_of_a_sure_sea_battle_is_not_rounded_up(run_main: Any) -> None:
    code, out, _err = run_main(["odds", str(BATTLES)])
    assert code == 0
    assert "100.00 %" not in out and " 0.00 %" not in out


def test_a_landing_retreats_its_overland_units_and_its_amphibious_ones_fight_on(run_main: Any) -> None:
    # Egypt: 1 infantry and 1 artillery land from 17 Sea Zone, 1 infantry and 1 tank come from Libya (1942 second
    # edition: the overland units may leave, the amphibious ones fight on)
    def egypt(*extra: str) -> dict[str, Any]:
        code, out, err = run_main(["odds", str(BATTLES), "--battle", "Egypt", "--format", "json", *extra])
        assert code == 0, err
        battle: dict[str, Any] = json.loads(out)["battles"][0]
        return battle

    fought, retreated = egypt(), egypt("--retreat-after", "1")
    won = decimal(fought["outcomes"]["attacker_wins"])
    won_after = decimal(retreated["outcomes"]["attacker_wins"])
    assert 0.01 < won_after < won - 0.1  # the amphibious pair still wins sometimes, alone
    tanks = decimal(retreated["survivors"]["attacker"]["tank"]["mean"])
    assert tanks > decimal(fought["survivors"]["attacker"]["tank"]["mean"]) + 0.5  # the tank left after round 1
    best = egypt("--best-retreat")["best_retreat"]
    assert decimal(best["swing"]) > decimal(best["fight_to_end"]) + 0.5
