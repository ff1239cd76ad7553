"""The luck of battle results (aa-battle.md, "IPC swing and luck"): percentiles against a brute force of every
die, a result priced as it was fought (its order of loss, its retreat and submerges at their rounds), and the
luck of each power over several results files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from movecheck.aa.battle.cli import run_odds
from movecheck.aa.battle.model import BattleModel
from movecheck.aa.battle.units import make_battle
from movecheck.aa.editions import AA1942
from movecheck.aa.units import UnitType
from tests.aa.battle_reference import Ref, end_states, units_of

ROOT = Path(__file__).resolve().parent.parent.parent
STATE = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "aa-odds.schema.json").read_text(encoding="utf-8"))
TYPES = {n: UnitType.from_data(n, d) for n, d in AA1942.unit_type_values().items()}
KARELIA = 2
"""Karelia S.S.R.'s IPC value (the swing of taking it)."""
ATTACKERS = {"infantry": 2, "artillery": 1}
DEFENDERS = {"infantry": 2}


def tiny_state(folder: Path, battle: str) -> Path:
    """The example's battles state with one tiny battle in place of its own."""
    text = STATE.read_text(encoding="utf-8")
    head, _sep, rest = text.partition("\nbattles:\n")
    lines = rest.split("\n")
    end = next((i for i, line in enumerate(lines) if line and not line.startswith(("-", " "))), len(lines))
    path = folder / "state.yaml"
    path.write_text(head + "\nbattles:\n" + battle + "\n".join(lines[end:]), encoding="utf-8")
    return path


def karelia_state(folder: Path) -> Path:
    return tiny_state(folder, "- at: Karelia S.S.R.\n  kind: land\n  attackers: {infantry: 2, artillery: 1}\n"
                              "  defenders: {infantry: 2}\n  from: [Belorussia]\n")


def results_file(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: battles\n" + body,
                    encoding="utf-8")
    return path


def odds_json(*paths: Path, **asked: Any) -> dict[str, Any]:
    options: dict[str, Any] = {"battle": None, "ool": [], "keep_land": None, "retreat_after": None,
                               "retreat_below": None, "best_retreat": False, "submerge": None, "bombard": True,
                               "exact": False, "fmt": "json"}
    text, code = run_odds([str(p) for p in paths], **{**options, **asked})
    assert code == 0
    report: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    return report


def brute_swings(order: dict[str, list[str]], retreat_after: int | None = None) -> dict[int, Fraction]:
    """The IPC swing of the Karelia battle by every die (tests/aa/battle_reference.py)."""
    battle, ool = make_battle(BattleModel, TYPES, ATTACKERS, DEFENDERS, land=True, ool=order)
    ref = Ref(BattleModel, units_of(BattleModel, TYPES, ATTACKERS, ool["attacker"], True),
              units_of(BattleModel, TYPES, DEFENDERS, ool["defender"], False), land=True,
              keep_land=battle.att.keep_land, may_retreat=True)
    start_cost = [sum(TYPES[u.name].cost or 0 for u in side) for side in ref.start]
    swings: dict[int, Fraction] = {}
    for ((a, d), outcome), p in end_states(ref, retreat_after).items():
        lost = [start_cost[0] - sum(TYPES[u.name].cost or 0 for u in a),
                start_cost[1] - sum(TYPES[u.name].cost or 0 for u in d)]
        taken = outcome == "attacker" and any(u.land for u in a)
        swing = lost[1] - lost[0] + (KARELIA if taken else 0)
        swings[swing] = swings.get(swing, Fraction(0)) + p
    return swings


def tail(swings: dict[int, Fraction], at_least: int) -> Fraction:
    return sum((p for s, p in swings.items() if s >= at_least), Fraction(0))


def test_luck_is_the_brute_force_tail_of_the_swing(tmp_path: Path) -> None:
    from movecheck.aa.battle.luck import judge
    from movecheck.aa.battle.odds import Ask, read_state
    from movecheck.aa.battle.turn import price_all

    game, specs = read_state(str(karelia_state(tmp_path)))
    want = brute_swings({})
    # each end of the battle, written as a result: the luck is P(swing >= its swing) by every die
    for lost_a, lost_d, swing in (({"infantry": 1}, {"infantry": 2}, 3 * 2 - 3 + KARELIA),
                                  ({"infantry": 2, "artillery": 1}, {"infantry": 1}, 3 - 10),
                                  ({"infantry": 2}, {"infantry": 2}, KARELIA)):
        priced, _turn = price_all(game, specs, Ask())
        result = {"at": "Karelia S.S.R.", "attacker_losses": lost_a, "defender_losses": lost_d}
        judge(game, specs, priced, [result], Ask())
        assert priced[0].result is not None and priced[0].result["ipc_swing"] == swing
        luck = priced[0].result["luck"]
        assert abs(luck - float(tail(want, swing))) < 1e-12 and 0 < luck < 1


def test_result_is_priced_under_its_own_order_of_loss(tmp_path: Path) -> None:
    karelia_state(tmp_path)
    body = ("results:\n  - at: Karelia S.S.R.\n    ool: {attacker: [artillery, infantry]}\n"
            "    attacker_losses: {artillery: 1}\n    defender_losses: {infantry: 2}\n")
    battle = odds_json(results_file(tmp_path, "r.yaml", body))["battles"][0]
    assert battle["ool"]["attacker"] == ["artillery", "infantry"]
    swing = 6 - 4 + KARELIA
    want = brute_swings({"attacker": ["artillery", "infantry"]})
    assert want != brute_swings({})  # the order changes the odds: the test can tell them apart
    assert abs(battle["result"]["luck"]["decimal"] - float(tail(want, swing))) < 1e-12
    # the file's order of loss, when the result has none
    body = ("ool: {attacker: [artillery, infantry]}\nresults:\n  - at: Karelia S.S.R.\n"
            "    attacker_losses: {artillery: 1}\n    defender_losses: {infantry: 2}\n")
    battle = odds_json(results_file(tmp_path, "f.yaml", body))["battles"][0]
    assert battle["ool"]["attacker"] == ["artillery", "infantry"]
    assert abs(battle["result"]["luck"]["decimal"] - float(tail(want, swing))) < 1e-12


def test_retreat_at_round_two_is_priced_as_retreat_after_two(tmp_path: Path) -> None:
    karelia_state(tmp_path)
    body = ("results:\n  - at: Karelia S.S.R.\n    rounds:\n"
            "      - attacker_losses: {infantry: 1}\n"
            "      - attacker_losses: {infantry: 1}\n        retreat: Belorussia\n"
            "    attacker_losses: {infantry: 2}\n    retreat: Belorussia\n")
    battle = odds_json(results_file(tmp_path, "r.yaml", body))["battles"][0]
    assert battle["retreat"] == {"after": 2}
    want = brute_swings({}, retreat_after=2)
    assert want != brute_swings({}, retreat_after=1)
    assert battle["result"]["ipc_swing"] == -6
    assert abs(battle["result"]["luck"]["decimal"] - float(tail(want, -6))) < 1e-12
    mean = sum(s * float(p) for s, p in want.items())
    assert abs(battle["ipc_swing"]["mean"]["decimal"] - mean) < 1e-12


def test_retreat_without_rounds_has_unknown_luck(tmp_path: Path) -> None:
    karelia_state(tmp_path)
    body = ("results:\n  - at: Karelia S.S.R.\n    attacker_losses: {infantry: 2}\n    retreat: Belorussia\n")
    path = results_file(tmp_path, "r.yaml", body)
    assert odds_json(path)["battles"][0]["result"]["luck"] is None
    text, _code = run_odds([str(path)], battle=None, ool=[], keep_land=None, retreat_after=None,
                           retreat_below=None, best_retreat=False, submerge=None, bombard=True, exact=False,
                           fmt="text")
    assert "luck unknown" in text and "round not given" in text


def test_luck_of_each_power_adds_up_over_files(tmp_path: Path) -> None:
    karelia_state(tmp_path)
    won = results_file(tmp_path, "won.yaml", "results:\n  - at: Karelia S.S.R.\n"
                       "    attacker_losses: {infantry: 1}\n    defender_losses: {infantry: 2}\n")
    lost = results_file(tmp_path, "lost.yaml", "results:\n  - at: Karelia S.S.R.\n"
                        "    attacker_losses: {infantry: 2, artillery: 1}\n    defender_losses: {infantry: 1}\n")
    want = brute_swings({})
    expected = sum(s * float(p) for s, p in want.items())
    both = odds_json(won, lost)["luck"]
    # the Germans attack: expected minus actual swing; the Russians defend: actual minus expected
    germans = (expected - (6 - 3 + KARELIA)) + (expected - (3 - 10))
    assert abs(both["Germans"]["decimal"] - germans) < 1e-9
    assert abs(both["Russians"]["decimal"] + germans) < 1e-9
    alone = [odds_json(p)["luck"]["Germans"]["decimal"] for p in (won, lost)]
    assert abs(sum(alone) - both["Germans"]["decimal"]) < 1e-9


@pytest.mark.parametrize("switch", [2, 3])
def test_a_submerge_from_a_round_is_fought_without_it_before(switch: int) -> None:
    from movecheck.aa.battle.solve import solve_switched

    att, dfn = {"cruiser": 1, "battleship": 1}, {"submarine": 2}
    after = make_battle(BattleModel, TYPES, att, dfn, land=False, submerge=frozenset({"defender"}), exact=True)[0]
    before = make_battle(BattleModel, TYPES, att, dfn, land=False, exact=True)[0]
    switched = solve_switched(before, after, switch).ends
    assert abs(sum(switched.values()) - 1) == 0
    if switch == 2:  # the first moment 1942 allows: the same as --submerge
        assert switched == after.solve().ends
    else:
        assert switched not in (after.solve().ends, before.solve().ends)


def test_a_chosen_submerge_is_priced_from_its_round(tmp_path: Path) -> None:
    tiny_state(tmp_path, "- at: 7 Sea Zone\n  kind: sea\n  attackers: {submarine: 2}\n  defenders: {battleship: 1}\n"
                         "  from: [8 Sea Zone]\n")

    def priced(rounds: str, submerged: str = "    submerged: {attacker: 2}\n") -> dict[str, Any]:
        body = "results:\n  - at: 7 Sea Zone\n" + rounds + submerged
        battle: dict[str, Any] = odds_json(results_file(tmp_path, "r.yaml", body))["battles"][0]
        return battle

    third = priced("    rounds:\n      - {}\n      - {}\n      - submerged: {attacker: 2}\n")
    second = priced("    rounds:\n      - {}\n      - submerged: {attacker: 2}\n")
    fought = priced("    rounds:\n      - {}\n      - {}\n      - {}\n", submerged="")
    assert third["result"]["luck"] is not None and second["result"]["luck"] is not None
    means = [b["ipc_swing"]["mean"]["decimal"] for b in (second, third, fought)]
    assert len(set(means)) == 3  # a submerge at round 2, at round 3, and none are three different battles
    # without rounds, the round of a chosen submerge is not known
    assert priced("")["result"]["luck"] is None


def test_summary_luck_section(tmp_path: Path) -> None:
    from movecheck.aa.post.luck import luck_section

    karelia_state(tmp_path)
    path = results_file(tmp_path, "r.yaml", "results:\n  - at: Karelia S.S.R.\n"
                        "    attacker_losses: {infantry: 1}\n    defender_losses: {infantry: 2}\n")
    section = luck_section(str(path), legal=True)
    assert section.kind == "luck"
    report = odds_json(path)  # the same figures as movecheck odds
    assert section.facts["battles"] == [{"at": "Karelia S.S.R.", "ipc_swing": 5,
                                         "luck": report["battles"][0]["result"]["luck"]["decimal"]}]
    assert section.facts["powers"] == {k: v["decimal"] for k, v in report["luck"].items()}
    assert set(section.facts["powers"]) == {"Germans", "Russians"}
    assert luck_section(str(path), legal=False).facts == {"battles": [], "powers": {}}


def test_summary_luck_is_not_told_for_an_illegal_file(run_main: Any, tmp_path: Path) -> None:
    karelia_state(tmp_path)
    path = results_file(tmp_path, "r.yaml", "results:\n  - at: Karelia S.S.R.\n    defender_losses: {infantry: 5}\n")
    code, out, _err = run_main(["summary", str(path), "--luck", "-f", "json"])
    assert code == 1
    post = json.loads(out)
    jsonschema.Draft202012Validator(
        json.loads((ROOT / "schemas" / "summary.schema.json").read_text(encoding="utf-8"))).validate(post)
    luck = next(s for s in post["sections"] if s["kind"] == "luck")
    assert luck["facts"] == {"battles": [], "powers": {}}


def test_a_raid_result_has_its_luck() -> None:
    # one bomber over the United Kingdom (1942 second edition): the factory's AA misses (5/6), then a 6 (1/6)
    report = odds_json(ROOT / "examples" / "aa" / "game" / "orders" / "r1-germans-battles.yaml")
    raid = next(b for b in report["battles"] if b["kind"] == "raid")
    assert raid["result"]["ipc_swing"] == 6
    assert abs(raid["result"]["luck"]["decimal"] - 5 / 36) < 1e-12
