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
