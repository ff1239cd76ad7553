"""Battle results checked against their dice (aa-battle.md, "Results checked against the dice"): AA513-AA520."""

from __future__ import annotations

import copy
from typing import Any

from .test_battles import LEGAL, check_json, codes, results_file

BELORUSSIA_ROUNDS: list[dict[str, Any]] = [
    {   # 4 infantry at 1, 1 infantry supported and the artillery at 2, the tank at 3: 2 hits
        "attacker": {"fire": {1: [1, 4, 6, 5], 2: [2, 5], 3: [6]}},
        "defender": {"fire": {2: [1, 5], 3: [2]}},  # infantry and artillery at 2, the tank at 3: 2 hits
        "attacker_losses": {"infantry": 2},
        "defender_losses": {"infantry": 1, "artillery": 1},
    },
    {
        "attacker": {"fire": {1: [4, 5], 2: [2, 6], 3: [5]}},  # 1 hit
        "defender": {"fire": {3: [6]}},
        "defender_losses": {"tank": 1},
    },
]


def with_rounds(rounds: list[dict[str, Any]], **changes: Any) -> list[dict[str, Any]]:
    results = copy.deepcopy(LEGAL)
    for entry in results:
        if entry["at"] == "Belorussia":
            entry["rounds"] = rounds
            entry.update(changes)
    return results


def belorussia(capsys, tmp_path, rounds: list[dict[str, Any]], **changes: Any) -> list[str]:
    code, report = check_json(capsys, results_file(tmp_path, with_rounds(rounds, **changes)))
    found = [c for c, order in codes(report) if order == 3]
    assert (code == 0) == (not codes(report)), report
    return found


def test_a_land_battle_with_artillery_checked_against_its_dice_is_legal(capsys, tmp_path):
    assert belorussia(capsys, tmp_path, BELORUSSIA_ROUNDS) == []


def test_aa513_a_die_missing_from_a_step(capsys, tmp_path):
    rounds = copy.deepcopy(BELORUSSIA_ROUNDS)
    rounds[0]["attacker"]["fire"][1] = [1, 4, 6]
    assert belorussia(capsys, tmp_path, rounds) == ["AA513"]


def test_aa513_artillery_support_counts(capsys, tmp_path):
    rounds = copy.deepcopy(BELORUSSIA_ROUNDS)
    rounds[0]["attacker"]["fire"] = {1: [1, 4, 6, 5, 3], 2: [2], 3: [6]}  # the supported infantry rolled at 1
    assert "AA513" in belorussia(capsys, tmp_path, rounds)


def test_aa515_a_die_changed_so_the_losses_are_not_the_hits(capsys, tmp_path):
    rounds = copy.deepcopy(BELORUSSIA_ROUNDS)
    rounds[0]["attacker"]["fire"][2] = [3, 5]  # one hit less
    assert belorussia(capsys, tmp_path, rounds) == ["AA515"]


def test_aa518_a_round_after_the_battle_is_won(capsys, tmp_path):
    rounds = [*copy.deepcopy(BELORUSSIA_ROUNDS), {"attacker": {"fire": {1: [4, 5], 2: [3, 6], 3: [5]}}}]
    assert belorussia(capsys, tmp_path, rounds) == ["AA518"]


def test_aa519_a_round_dropped(capsys, tmp_path):
    rounds = copy.deepcopy(BELORUSSIA_ROUNDS[:1])
    found = belorussia(capsys, tmp_path, rounds, defender_losses={"infantry": 1, "artillery": 1})
    assert found == ["AA519"]


def test_aa519_a_retreat_ends_the_battle_after_its_round(capsys, tmp_path):
    rounds = copy.deepcopy(BELORUSSIA_ROUNDS[:1])
    rounds[0]["retreat"] = "Poland"
    found = belorussia(capsys, tmp_path, rounds, defender_losses={"infantry": 1, "artillery": 1}, retreat="Poland")
    assert found == []


def test_aa520_totals_off(capsys, tmp_path):
    assert belorussia(capsys, tmp_path, BELORUSSIA_ROUNDS, attacker_losses={"infantry": 3}) == ["AA520"]


def with_result(at: str, **changes: Any) -> list[dict[str, Any]]:
    results = copy.deepcopy(LEGAL)
    for entry in results:
        if entry["at"] == at:
            entry.update(changes)
    return results


def judged(capsys, tmp_path, at: str, **changes: Any) -> list[str]:
    _code, report = check_json(capsys, results_file(tmp_path, with_result(at, **changes)))
    order = next(i + 1 for i, r in enumerate(LEGAL) if r["at"] == at)
    assert all(o == order for _c, o in codes(report)), report
    return [c for c, _o in codes(report)]


# 7 Sea Zone (1942 second edition): a cruiser, a fighter and 4 submarines against a battleship and a transport
SEA_ROUNDS: list[dict[str, Any]] = [
    {
        "attacker": {"sub_strike": {2: [1, 5, 6, 4]}, "fire": {3: [2, 6]}},  # the surprise strike hits once
        "defender": {"fire": {4: [3]}},  # the battleship hits; the transport has no defence
        "attacker_losses": {"cruiser": 1},
        "defender_losses": {"battleship": 1},  # both hits in round 1: a loss, not damaged:
        "removed": {"defender": {"transport": 1}},  # left alone: removed without dice
    },
]
SEA = {"rounds": SEA_ROUNDS, "attacker_losses": {"cruiser": 1}, "defender_losses": {"battleship": 1, "transport": 1}}


def test_a_sea_battle_with_a_surprise_strike_and_a_lone_transport_is_legal(capsys, tmp_path):
    assert judged(capsys, tmp_path, "7 Sea Zone", **SEA) == []


def test_aa515_the_lone_transport_not_written_as_removed(capsys, tmp_path):
    rounds = copy.deepcopy(SEA_ROUNDS)
    del rounds[0]["removed"]
    assert judged(capsys, tmp_path, "7 Sea Zone", **{**SEA, "rounds": rounds}) == ["AA515"]


def test_aa513_a_countered_step_name(capsys, tmp_path):
    rounds = copy.deepcopy(SEA_ROUNDS)
    rounds[0]["attacker"] = {"subs": {2: [1, 5, 6, 4]}, "fire": {3: [2, 6]}}  # no destroyer counters them
    assert "AA513" in judged(capsys, tmp_path, "7 Sea Zone", **{**SEA, "rounds": rounds})


# Caucasus (1942 second edition): AA fire at a fighter and a bomber, the AA gun left alone at the end
LAND_AA_ROUNDS: list[dict[str, Any]] = [
    {
        "defender": {"aa": {1: [3, 5]}, "fire": {2: [1, 5, 6, 6], 3: [4]}},  # 2 shots (one gun, two planes)
        "attacker": {"fire": {1: [1, 1], 2: [2, 2], 3: [6, 6], 4: [5]}},  # 4 hits
        "attacker_losses": {"infantry": 1},
        "defender_losses": {"infantry": 3, "artillery": 1},
    },
    {
        "attacker": {"fire": {1: [1], 2: [6, 6], 3: [6, 6], 4: [6]}},
        "defender": {"fire": {3: [1]}},
        "attacker_losses": {"infantry": 1},
        "defender_losses": {"tank": 1},
        "removed": {"defender": {"aa_gun": 1}},  # a 1942 AA gun left alone
    },
]
LAND_AA = {"rounds": LAND_AA_ROUNDS, "attacker_losses": {"infantry": 2}}


def test_aa_fire_and_an_aa_gun_left_alone_are_legal(capsys, tmp_path):
    assert judged(capsys, tmp_path, "Caucasus", **LAND_AA) == []


def test_aa513_aa_fire_owes_one_shot_per_plane_up_to_three_per_gun(capsys, tmp_path):
    rounds = copy.deepcopy(LAND_AA_ROUNDS)
    rounds[0]["defender"]["aa"] = {1: [3]}
    assert judged(capsys, tmp_path, "Caucasus", **{**LAND_AA, "rounds": rounds}) == ["AA513"]


def test_aa513_aa_fire_after_round_1(capsys, tmp_path):
    rounds = copy.deepcopy(LAND_AA_ROUNDS)
    rounds[1]["defender"]["aa"] = {1: [3, 4]}
    assert judged(capsys, tmp_path, "Caucasus", **{**LAND_AA, "rounds": rounds}) == ["AA513"]


def test_aa516_an_aa_hit_taken_on_an_infantry(capsys, tmp_path):
    rounds = copy.deepcopy(LAND_AA_ROUNDS)
    rounds[0]["defender"]["aa"] = {1: [1, 5]}
    rounds[0]["attacker_losses"] = {"infantry": 2}
    assert judged(capsys, tmp_path, "Caucasus", **{**LAND_AA, "rounds": rounds, "attacker_losses":
                                                   {"infantry": 3}})[0] == "AA516"


def test_an_aa_hit_on_a_plane_stops_its_fire(capsys, tmp_path):
    rounds = copy.deepcopy(LAND_AA_ROUNDS)
    rounds[0]["defender"]["aa"] = {1: [1, 5]}
    rounds[0]["attacker_losses"] = {"infantry": 1, "fighter": 1}
    rounds[0]["attacker"]["fire"] = {1: [1, 1], 2: [2, 2], 3: [6], 4: [5]}  # the fighter shot down fires not
    rounds[1]["attacker"]["fire"] = {1: [1], 2: [6, 6], 3: [6], 4: [6]}
    total = {"infantry": 2, "fighter": 1}
    assert judged(capsys, tmp_path, "Caucasus", **{**LAND_AA, "rounds": rounds, "attacker_losses": total}) == []
    rounds[0]["attacker"]["fire"] = {1: [1, 1], 2: [2, 2], 3: [6, 6], 4: [5]}
    assert judged(capsys, tmp_path, "Caucasus", **{**LAND_AA, "rounds": rounds, "attacker_losses": total}) == [
        "AA513"]


def test_aa517_the_declared_order_of_loss_not_followed(capsys, tmp_path):
    ool = {"attacker": ["artillery", "infantry"]}
    assert belorussia(capsys, tmp_path, BELORUSSIA_ROUNDS, ool=ool) == ["AA517"]


def test_aa517_a_round_that_follows_the_order_of_loss_passes(capsys, tmp_path):
    ool = {"attacker": ["infantry", "artillery"], "defender": ["infantry", "artillery", "tank"]}
    assert belorussia(capsys, tmp_path, BELORUSSIA_ROUNDS, ool=ool) == []


def test_aa517_a_file_wide_order_of_loss_binds_too(capsys, tmp_path):
    path = results_file(tmp_path, with_rounds(BELORUSSIA_ROUNDS), ool={"defender": ["tank"]})
    _code, report = check_json(capsys, path)
    assert codes(report) == [("AA517", 3)]


# 17 Sea Zone (1942 second edition): a battleship and a transport against a destroyer
ESCORT_ROUNDS: list[dict[str, Any]] = [
    {
        "attacker": {"fire": {4: [2]}},  # the transport has no attack
        "defender": {"fire": {2: [1]}},
        "damaged": {"battleship": 1},
        "defender_losses": {"destroyer": 1},
    },
]


def test_a_battleship_takes_its_first_hit_as_damage(capsys, tmp_path):
    found = judged(capsys, tmp_path, "17 Sea Zone", rounds=ESCORT_ROUNDS, damaged={"battleship": 1})
    assert found == []


def test_aa516_a_transport_taken_before_the_battleship(capsys, tmp_path):
    rounds = copy.deepcopy(ESCORT_ROUNDS)
    del rounds[0]["damaged"]
    rounds[0]["attacker_losses"] = {"transport": 1}
    found = judged(capsys, tmp_path, "17 Sea Zone", rounds=rounds, attacker_losses={"transport": 1})
    assert "AA516" in found


# -- a raid's dice (1942 second edition: the factory's own AA fires one die per bomber) ----------------


def raid(capsys, tmp_path, rounds: list[dict[str, Any]], **more: Any) -> tuple[int, list[str], list[str]]:
    from .test_raids import KARELIA, battles_state, bomber, check, factory_only, results

    battles_state(capsys, tmp_path, factory_only(), [bomber()])
    return check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid", "rounds": rounds, **more}]))


RAID_ROUNDS: list[dict[str, Any]] = [{"defender": {"aa": {1: [4]}}, "attacker": {"damage": {6: [3]}}}]


def test_a_raid_whose_rounds_give_the_damage_dice_needs_no_bombing_total(capsys, tmp_path):
    code, _found, messages = raid(capsys, tmp_path, RAID_ROUNDS)
    assert code == 0, messages


def test_apply_of_a_raid_with_damage_dice_writes_their_damage(capsys, tmp_path):
    from .test_raids import apply

    raid(capsys, tmp_path, RAID_ROUNDS)
    _header, after = apply(capsys, tmp_path / "results.yaml", tmp_path / "after.yaml")
    assert [u.get("damage") for u in after["units"] if u["type"] == "factory"] == [3]


def test_aa514_a_bombing_total_other_than_the_dice(capsys, tmp_path):
    assert raid(capsys, tmp_path, RAID_ROUNDS, bombing={"damage": 4})[1] == ["AA514"]
    assert raid(capsys, tmp_path, RAID_ROUNDS, bombing={"damage": 3})[1] == []


def test_aa513_a_raid_without_its_aa_die_or_damage_die(capsys, tmp_path):
    assert raid(capsys, tmp_path, [{"attacker": {"damage": {6: [3]}}}])[1] == ["AA513"]
    assert raid(capsys, tmp_path, [{"defender": {"aa": {1: [4]}}, "attacker": {"damage": {6: [3, 2]}}}])[1] == [
        "AA512", "AA513"]


def test_aa515_a_bomber_shot_down_but_not_lost(capsys, tmp_path):
    rounds = [{"defender": {"aa": {1: [1]}}}]
    assert raid(capsys, tmp_path, rounds)[1] == ["AA512", "AA515"]  # and the bomber kept owes its damage
    rounds = [{"defender": {"aa": {1: [1]}}, "attacker_losses": {"bomber": 1}}]
    assert raid(capsys, tmp_path, rounds, attacker_losses={"bomber": 1})[1] == []


def test_the_example_game_carries_dice_for_a_land_and_a_sea_battle_and_checks_legal(capsys):
    """The 7 Sea Zone result loses submarines to the main fire: before the fix the submerged form of the
    submarine was taken for the unit, and AA516 fired."""
    from .test_battles import RESULTS

    code, report = check_json(capsys, RESULTS)
    assert code == 0, report["findings"]
    text = RESULTS.read_text(encoding="utf-8")
    assert text.count("rounds:") >= 2 and "sub_strike" in text and "fire: {1: [1, 4, 6, 5], 2: [2, 5]" in text


def test_aa517_the_example_sea_battle_against_an_order_of_loss(capsys, tmp_path):
    """One round of the example's sea battle, mutated to lose the cruiser where the order says subs first."""
    rounds = copy.deepcopy(SEA_ROUNDS)
    assert judged(capsys, tmp_path, "7 Sea Zone", **SEA, ool={"attacker": ["submarine", "cruiser"]}) == ["AA517"]
    rounds[0]["attacker_losses"] = {"submarine": 1}
    assert judged(capsys, tmp_path, "7 Sea Zone", **{**SEA, "rounds": rounds, "attacker_losses": {"submarine": 1}},
                  ool={"attacker": ["submarine", "cruiser"]}) == []


# the sub hunt (1942 second edition): a submarine and a destroyer attack two submarines
HUNT_ROUNDS: list[dict[str, Any]] = [
    {
        "attacker": {"sub_strike": {2: [5]}, "fire": {2: [1]}},  # no defending destroyer: a surprise strike
        "defender": {"subs": {1: [1, 6]}},  # countered by the destroyer: they fire with the main fire
        "attacker_losses": {"destroyer": 1},
        "defender_losses": {"submarine": 1},
    },
    {"submerged": {"defender": 1}},  # the destroyer gone: the last sub submerges before round 2's fire
]
HUNT = {"at": "7 Sea Zone", "attacker_losses": {"destroyer": 1}, "defender_losses": {"submarine": 1},
        "submerged": {"defender": 1}}


def hunt(capsys, tmp_path, rounds: list[dict[str, Any]]) -> list[str]:
    from .test_battles import sub_hunt

    _code, report = check_json(capsys, results_file(tmp_path, [{**HUNT, "rounds": rounds}],
                                                    state=sub_hunt(tmp_path)))
    return [c for c, _o in codes(report)]


def test_a_submarine_submerges_once_the_destroyer_is_sunk(capsys, tmp_path):
    assert hunt(capsys, tmp_path, HUNT_ROUNDS) == []


def test_aa506_submerging_while_the_enemy_destroyer_fights(capsys, tmp_path):
    rounds = [{**copy.deepcopy(HUNT_ROUNDS[0]), "submerged": {"defender": 2}}]
    rounds[0]["defender"] = {}
    rounds[0]["attacker"] = {"sub_strike": {2: [5]}}
    assert "AA506" in hunt(capsys, tmp_path, rounds)


def revised_raid(capsys, tmp_path, rounds: list[dict[str, Any]], gun: bool = True,
                 **more: Any) -> tuple[int, list[str], list[str]]:
    from .conftest import unit
    from .test_raids import BOMBER_REVISED, KARELIA, R, battles_state, bomber, check, factory_only, results

    units = factory_only(unit(KARELIA, R, "aa_gun")) if gun else factory_only()
    battles_state(capsys, tmp_path, units, [bomber(BOMBER_REVISED)], rules="revised")
    return check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid", "rounds": rounds, **more}]))


def test_revised_the_aa_gun_fires_one_die_per_bomber_keyed_by_plane_type(capsys, tmp_path):
    rounds = [{"defender": {"aa": {"bomber": [1]}}, "attacker_losses": {"bomber": 1}}]
    code, _found, messages = revised_raid(capsys, tmp_path, rounds, attacker_losses={"bomber": 1})
    assert code == 0, messages
    rounds = [{"defender": {"aa": {"bomber": [4]}}, "attacker": {"damage": {6: [2]}}}]
    assert revised_raid(capsys, tmp_path, rounds)[1] == []


def test_aa513_revised_no_aa_gun_no_aa_dice(capsys, tmp_path):
    rounds = [{"defender": {"aa": {"bomber": [4]}}, "attacker": {"damage": {6: [2]}}}]
    assert revised_raid(capsys, tmp_path, rounds, gun=False)[1] == ["AA513"]
    rounds = [{"attacker": {"damage": {6: [2]}}}]
    assert revised_raid(capsys, tmp_path, rounds, gun=False)[1] == []


def test_aa513_no_bombardment_from_a_zone_with_a_sea_battle(capsys, tmp_path):
    """Egypt's landing came from 17 Sea Zone, where the battleship fought a sea battle: it may not bombard."""
    rounds = [{"attacker": {"bombard": {4: [1]}}}]
    _code, report = check_json(capsys, results_file(tmp_path, with_result("Egypt", rounds=rounds)))
    messages = [f["message"] for f in report["findings"] if f["code"] == "AA513"]
    assert any("bombard" in m for m in messages), report["findings"]


def test_aa520_a_retreat_the_rounds_do_not_make(capsys, tmp_path):
    found = belorussia(capsys, tmp_path, BELORUSSIA_ROUNDS, retreat="Poland")
    assert "AA520" in found


def test_summary_says_dice_checked_for_each_battle_with_dice(capsys):
    from movecheck.cli import main

    from .test_battles import RESULTS

    assert main(["summary", str(RESULTS), "-f", "text", "--root", "/", "--isolated"]) == 0
    out = capsys.readouterr().out
    assert "7 Sea Zone: dice checked (3 rounds)" in out and "Belorussia: dice checked (2 rounds)" in out
    assert "Caucasus: dice checked (2 rounds)" in out and "Egypt: dice checked" not in out  # pasted dice count too


def test_aa515_cargo_removed_without_its_transport_lost(capsys, tmp_path):
    rounds = copy.deepcopy(ESCORT_ROUNDS)
    rounds[0]["removed"] = {"attacker": {"infantry": 1}}
    found = judged(capsys, tmp_path, "17 Sea Zone", rounds=rounds, damaged={"battleship": 1})
    assert found == ["AA515"]


def test_aa515_losses_in_a_round_the_automatic_steps_end_before_any_fire(capsys, tmp_path):
    rounds = [*copy.deepcopy(HUNT_ROUNDS)]
    rounds[1]["attacker_losses"] = {"submarine": 1}
    assert hunt(capsys, tmp_path, rounds)[0] == "AA515"


def _dice_checked(node: Any) -> dict[str, int]:
    """Each battle of a summary's JSON post whose dice were checked: its space -> the rounds checked."""
    found: dict[str, int] = {}
    if isinstance(node, dict):
        if "at" in node and node.get("dice_checked"):
            found[node["at"]] = node["dice_checked"]
        for value in node.values():
            found.update(_dice_checked(value))
    elif isinstance(node, list):
        for value in node:
            found.update(_dice_checked(value))
    return found


def test_the_example_game_round_gives_the_dice_of_an_artillery_land_battle_a_submarine_sea_battle_and_a_raid(
        run_main) -> None:
    """Issue 39's done-when: in examples/aa/game the Germans' Egypt (artillery attacks), the Americans' hunt
    in 44 Sea Zone (submarines on both sides) and the London raid give their dice, and they check legal."""
    import json
    from pathlib import Path

    from tests.harness import yaml_data

    game = Path(__file__).resolve().parents[2] / "examples" / "aa" / "game"
    checked: dict[str, int] = {}
    for power in ("germans", "americans"):
        orders = game / "orders" / f"r1-{power}-battles.yaml"
        battles = {b["at"]: b for b in yaml_data((game / "states" / orders.name).read_text("utf-8"))["battles"]}
        if power == "germans":
            assert battles["Egypt"]["attackers"]["artillery"] == 1
        else:
            assert battles["44 Sea Zone"]["attackers"]["submarine"] == battles["44 Sea Zone"]["defenders"]["submarine"]
        code, out, err = run_main(["summary", str(orders), "--format", "json"])
        assert (code, err) == (0, ""), out
        checked.update(_dice_checked(json.loads(out)))
    assert checked == {"Karelia S.S.R.": 2, "17 Sea Zone": 1, "Egypt": 2, "United Kingdom": 1, "44 Sea Zone": 1}
