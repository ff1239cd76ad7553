"""Dice pasted as text under ``dice: |`` (aa-battle.md, "Pasted dice"; issue 39): the readers of TripleA's
history and summary lines and of forum ``N@V`` lines, the rounds they give, and AA522."""

from __future__ import annotations

import copy
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.battle import pasted
from movecheck.aa.battle.settle import Pool, Unachievable, concrete
from movecheck.cli import main

from .test_battles import BATTLES_STATE, LEGAL, check_json, codes, results_file

DICE = Path(__file__).resolve().parents[1] / "data" / "dice"
LOGS = {  # battle -> its hand-written log and the totals it adds up to
    "caucasus-history.txt": ("Caucasus", {}),  # TripleA history: AA dice, artillery, two rounds
    "belorussia-summary.txt": ("Belorussia", {"attacker_losses": {"infantry": 3}}),  # TripleA summary, 3 rounds
    "atlantic-forum.txt": ("7 Sea Zone", {}),  # forum N@V: surprise strikes, a battleship damaged, a lone transport
}


def log(name: str) -> str:
    return (DICE / name).read_text(encoding="utf-8")


def pasted_results(at: str, text: str, **changes: Any) -> list[dict[str, Any]]:
    results = copy.deepcopy(LEGAL)
    for entry in results:
        if entry["at"] == at:
            entry.update(dice=text, **changes)
    return results


def order_of(at: str) -> int:
    return next(i + 1 for i, r in enumerate(LEGAL) if r["at"] == at)


def judged(capsys, tmp_path, at: str, text: str, **changes: Any) -> list[str]:
    code, report = check_json(capsys, results_file(tmp_path, pasted_results(at, text, **changes)))
    found = codes(report)
    assert all(order == order_of(at) for _c, order in found), report
    assert (code == 0) == (not [f for f in report["findings"] if f["severity"] == "error"]), report
    return [c for c, _o in found]


def block_file(tmp_path: Path, at: str, text: str, **changes: Any) -> Path:
    """A results file written by hand, the text as a literal block scalar (``dice: |``), like a referee's."""
    lines = ["movecheck: 1", "system: aa", f"state: {BATTLES_STATE}", "power: Germans", "phase: battles", "results:"]
    for entry in LEGAL:
        lines.append(f"  - at: {entry['at']}")
        merged = {**entry, **changes} if entry["at"] == at else entry
        lines += [f"    {key}: {json.dumps(value)}" for key, value in merged.items() if key != "at"]
        if entry["at"] == at:
            lines += ["    dice: |", textwrap.indent(text, "      ").rstrip("\n")]
    path = tmp_path / "results.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- the readers --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_readers_round_trip_the_hand_written_logs(name):
    text = log(name)
    rolls, unread = pasted.read(text)
    assert unread == []
    assert [pasted.written(r) for r in rolls] == [" ".join(line.split()) for line in text.splitlines()]


def test_a_triplea_history_line_gives_its_units_round_and_dice():
    [roll], [] = pasted.read("Germans roll dice for 4 infantry, 1 artillery, 1 armour in Karelia S.S.R., "
                             "round 1 : 1,4,6,2,5,3")
    assert (roll.power, roll.round, roll.at, dict(roll.units), roll.dice) == (
        "Germans", 1, "Karelia S.S.R.", {"infantry": 4, "artillery": 1, "armour": 1}, [1, 4, 6, 2, 5, 3])
    [aa], [] = pasted.read("Russians roll AA dice in Caucasus : 2,5")
    assert (aa.step, aa.round, aa.dice) == ("aa", 1, [2, 5])


def test_a_summary_line_gives_hits_and_dice_not_values():
    [roll], [] = pasted.read("Germans roll dice for 4 infantry, 1 artillery, 1 armour in Karelia S.S.R., "
                             "round 1 : 3/6 hits, 1.67 expected hits")
    assert (roll.hits, roll.count, roll.dice) == (3, 6, [])


def test_a_forum_line_gives_its_groups_and_its_step():
    [roll], [] = pasted.read("Germans round 1: 3@1: 1 4 6  2@2: 2,5  1@3: 3")
    assert (roll.step, roll.groups) == ("fire", {"1": [1, 4, 6], "2": [2, 5], "3": [3]})
    [aa], [] = pasted.read("Russians round 1 aa: 2@1: 2 5")
    assert (aa.step, aa.groups) == ("aa", {"1": [2, 5]})


@pytest.mark.parametrize("line", [
    "Germans rolled 1,4,6",
    "Germans round 1: 3@1: 1 4",  # a group of three with two dice
    "Germans roll dice for lots of infantry in Belorussia, round 1 : 1,4",
    "Germans round 1: 2@1: 1 7",
    "Germans round 0: 1@1: 3",  # no round 0 (and none after round 30)
    "Germans round 31: 1@1: 3",
])
def test_a_line_that_is_none_of_the_formats_is_unread(line):
    rolls, unread = pasted.read(f"\n{line}\n")
    assert rolls == [] and [u.line for u in unread] == [1]


def test_a_pool_reaches_every_hit_count_between_its_fewest_and_its_most():
    """Four dice at values 1, 1, 2, 3: the dice 1, 2, 3, 6 give 1 to 3 hits as they are assigned, never 0 or 4."""
    owed = {"1": 2, "2": 1, "3": 1}
    reached = []
    for hits in range(5):
        try:
            dice = concrete(Pool(0, dice=(1, 2, 3, 6), chosen=hits), owed)
        except Unachievable:
            continue
        assert sorted(d for ds in dice.values() for d in ds) == [1, 2, 3, 6]
        assert sum(1 for v, ds in dice.items() for d in ds if d <= int(v)) == hits
        reached.append(hits)
    assert reached == [1, 2, 3]


# -- the logs checked against the battle ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_hand_written_log_checks_legal_against_its_battle(capsys, tmp_path, name):
    at, totals = LOGS[name]
    assert judged(capsys, tmp_path, at, log(name), **totals) == []


def test_summary_counts_pasted_dice_as_checked(capsys, tmp_path):
    path = results_file(tmp_path, pasted_results("7 Sea Zone", log("atlantic-forum.txt")))
    assert main(["summary", str(path), "-f", "text", "--root", "/", "--isolated"]) == 0
    assert "7 Sea Zone: dice checked (3 rounds)" in capsys.readouterr().out


def test_a_triplea_line_is_accepted_when_some_assignment_of_its_dice_fits(capsys, tmp_path):
    """Belorussia's round 1 as TripleA writes it: which die was the tank's is not said."""
    text = ("Germans roll dice for 5 infantry, 1 artillery, 1 armour in Belorussia, round 1 : 1,4,6,5,2,5,6\n"
            "Russians roll dice for 1 infantry, 1 artillery, 1 armour in Belorussia, round 1 : 1,5,2\n"
            "Germans roll dice for 3 infantry, 1 artillery, 1 armour in Belorussia, round 2 : 4,5,2,6,5\n"
            "Russians roll dice for 1 armour in Belorussia, round 2 : 6\n")
    assert judged(capsys, tmp_path, "Belorussia", text) == []
    # the 2 of round 2 a 4: no assignment gives the tank's loss, and no split of the losses fits
    assert judged(capsys, tmp_path, "Belorussia", text.replace("4,5,2,6,5", "4,5,4,6,5"))[0] == "AA520"


def test_aa513_a_pasted_roll_with_a_die_too_many(capsys, tmp_path):
    text = log("caucasus-history.txt").replace("round 1 : 1,2,3,4,6,6,5", "round 1 : 1,2,3,4,6,6,5,6")
    assert "AA513" in judged(capsys, tmp_path, "Caucasus", text)


def test_aa520_pasted_totals_that_no_split_of_the_rounds_gives(capsys, tmp_path):
    """The summary log hits 3 German infantry; totals of 2 fit no split."""
    assert judged(capsys, tmp_path, "Belorussia", log("belorussia-summary.txt"),
                  attacker_losses={"infantry": 2}) == ["AA520"]


def test_aa514_a_summary_line_with_more_hits_than_dice(capsys, tmp_path):
    text = log("belorussia-summary.txt").replace("round 3 : 1/1 hits", "round 3 : 2/1 hits")
    assert "AA514" in judged(capsys, tmp_path, "Belorussia", text, attacker_losses={"infantry": 3})


def test_pasted_dice_with_each_rounds_losses_written(capsys, tmp_path):
    """``rounds:`` gives each round's losses, the text the dice: a round's losses other than its hits are AA515."""
    rounds = [{"attacker_losses": {"submarine": 1}, "damaged": {"battleship": 1}},
              {"attacker_losses": {"submarine": 1}},
              {"attacker_losses": {"cruiser": 1}, "defender_losses": {"battleship": 1},
               "removed": {"defender": {"transport": 1}}}]
    text = log("atlantic-forum.txt")
    assert judged(capsys, tmp_path, "7 Sea Zone", text, rounds=rounds) == []
    mixed = copy.deepcopy(rounds)  # a step's dice under rounds:, the rest pasted: both are read
    mixed[2]["defender"] = {"fire": {4: [3]}}
    assert judged(capsys, tmp_path, "7 Sea Zone", text.replace("British round 3: 1@4: 3\n", ""), rounds=mixed) == []
    mixed[2]["defender"] = {"fire": {4: [5]}}  # the battleship's last shot a miss: the cruiser is not lost
    assert "AA515" in judged(capsys, tmp_path, "7 Sea Zone", text.replace("British round 3: 1@4: 3\n", ""),
                             rounds=mixed)
    wrong = copy.deepcopy(rounds)
    wrong[1]["attacker_losses"] = {"submarine": 2}
    found = judged(capsys, tmp_path, "7 Sea Zone", text, rounds=wrong, attacker_losses={"cruiser": 1, "submarine": 3})
    assert found == ["AA513", "AA515"]  # and the submarine lost too many does not roll its die in round 3


# -- AA522: each line not read, at its own line -------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LOGS))
def test_aa522_a_malformed_line_is_reported_at_its_line_in_the_file(capsys, tmp_path, name):
    at, totals = LOGS[name]
    lines = log(name).splitlines()
    lines[1] = lines[1].replace(" : ", " ; ").replace(": ", "; ")  # the separator mistyped
    path = block_file(tmp_path, at, "\n".join(lines) + "\n", **totals)
    code, report = check_json(capsys, path)
    unread = [f for f in report["findings"] if f["code"] == "AA522"]
    file_lines = path.read_text(encoding="utf-8").splitlines()
    assert len(unread) == 1 and unread[0]["severity"] == "warning"
    assert file_lines[unread[0]["line"] - 1].strip() == lines[1].strip()
    assert unread[0]["column"] == 7
    assert code == 1  # the roll not read leaves the battle's dice short: never legal by skipping it


def test_aa522_a_line_of_another_territory(capsys, tmp_path):
    text = log("caucasus-history.txt") + "Germans roll dice for 1 infantry in Ukraine S.S.R., round 2 : 3\n"
    assert judged(capsys, tmp_path, "Caucasus", text) == ["AA522"]


def test_aa522_a_line_of_a_power_not_in_the_battle(capsys, tmp_path):
    text = log("caucasus-history.txt") + "Japanese round 2: 1@1: 3\n"
    assert judged(capsys, tmp_path, "Caucasus", text) == ["AA522"]


def test_aa522_a_line_of_units_the_side_does_not_have_there(capsys, tmp_path):
    text = log("caucasus-history.txt").replace("Russians roll dice for 1 infantry, 1 armour in Caucasus, round 2",
                                               "Russians roll dice for 1 infantry, 1 fighter in Caucasus, round 2")
    assert judged(capsys, tmp_path, "Caucasus", text) == ["AA513", "AA520", "AA522"]  # and that roll is missing


def test_text_no_line_of_which_is_read_leaves_the_result_judged_without_dice(capsys, tmp_path):
    assert judged(capsys, tmp_path, "Caucasus", "the dice were lost\n") == ["AA522"]


# -- a raid's pasted dice -----------------------------------------------------------------------------------


def raid_state(capsys, tmp_path) -> None:
    from .test_raids import battles_state, bomber, factory_only

    battles_state(capsys, tmp_path, factory_only(), [bomber()])


def pasted_raid(capsys, tmp_path, text: str, **more: Any) -> tuple[int, list[str], list[str]]:
    """``check`` of a raid's result with pasted dice, against the battles state :func:`raid_state` wrote."""
    from .test_raids import KARELIA, check, results

    return check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid", "dice": text, **more}]))


def test_a_raid_with_pasted_aa_and_damage_dice(capsys, tmp_path):
    raid_state(capsys, tmp_path)
    text = "Russians round 1 aa: 1@1: 4\nGermans round 1 damage: 1@6: 3\n"
    code, _found, messages = pasted_raid(capsys, tmp_path, text)
    assert code == 0, messages
    assert pasted_raid(capsys, tmp_path, text, bombing={"damage": 4})[1] == ["AA514"]
    assert "AA513" in pasted_raid(capsys, tmp_path, "Germans round 1 damage: 1@6: 3\n")[1]
    summary = "Russians round 1 aa: 1@1: 4\nGermans roll dice for 1 bomber in Karelia S.S.R., round 1 : 1/1 hits, " \
              "0.17 expected hits\n"  # a summary line gives no damage dice
    assert pasted_raid(capsys, tmp_path, summary, bombing={"damage": 3})[1] == ["AA513", "AA522", "AA514"]


def test_the_search_is_bounded_and_a_battle_it_cannot_settle_is_not_legal(capsys, tmp_path, monkeypatch):
    from movecheck.aa.battle import settle

    monkeypatch.setattr(settle, "MAX_TRIALS", 2)
    assert judged(capsys, tmp_path, "Caucasus", log("caucasus-history.txt")) == ["AA520"]


def test_revised_a_pasted_aa_die_is_the_bombers_whichever_format(capsys, tmp_path):
    """Revised keys AA dice by plane type; neither TripleA's AA line nor a forum line says the type."""
    from .conftest import unit
    from .test_raids import BOMBER_REVISED, KARELIA, R, battles_state, bomber, check, factory_only, results

    battles_state(capsys, tmp_path, factory_only(unit(KARELIA, R, "aa_gun")), [bomber(BOMBER_REVISED)],
                  rules="revised")
    for text in ("Russians roll AA dice in Karelia S.S.R. : 4\n"
                 "Germans roll dice for 1 bomber in Karelia S.S.R., round 1 : 2\n",
                 "Russians round 1 aa: 1@1: 4\nGermans round 1 damage: 1@6: 2\n"):
        code, _found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid", "dice": text}]))
        assert code == 0, messages


def test_apply_of_a_raid_with_pasted_damage_dice_writes_their_damage(capsys, tmp_path):
    from .test_raids import apply

    raid_state(capsys, tmp_path)
    text = "Russians round 1 aa: 1@1: 4\nGermans round 1 damage: 1@6: 3\n"
    code, _found, messages = pasted_raid(capsys, tmp_path, text)
    assert code == 0, messages
    _header, after = apply(capsys, tmp_path / "results.yaml", tmp_path / "after.yaml")
    assert [u.get("damage") for u in after["units"] if u["type"] == "factory"] == [3]


def test_pasted_totals_with_a_submerge_in_a_round_without_dice(capsys, tmp_path):
    """The sub hunt (1942): a destroyer and a submarine against two submarines; the destroyer sinks in round 1, and
    the last British submarine submerges before round 2's fire (a round of no dice, after the pasted ones)."""
    from .test_battles import sub_hunt

    text = ("Germans round 1 sub_strike: 1@2: 5\n"
            "Germans roll dice for 1 destroyer in 7 Sea Zone, round 1 : 1\n"
            "British roll dice for 2 submarines in 7 Sea Zone, round 1 : 1,6\n")
    totals = {"at": "7 Sea Zone", "attacker_losses": {"destroyer": 1}, "defender_losses": {"submarine": 1},
              "submerged": {"defender": 1}}
    code, report = check_json(capsys, results_file(tmp_path, [{**totals, "dice": text}], state=sub_hunt(tmp_path)))
    assert code == 0, report["findings"]
    wrong = {**totals, "defender_losses": {"submarine": 2}}  # the destroyer's one hit cannot sink both
    code, report = check_json(capsys, results_file(tmp_path, [{**wrong, "dice": text}], state=sub_hunt(tmp_path)))
    assert "AA520" in [c for c, _o in codes(report)]
