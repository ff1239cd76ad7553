"""Issues 38/39 follow-up: the dice replay fires a map's AA type (a TripleA import's unit with ``aa`` stats) the
way the odds engine does: its value, shots and targets (aa-battle.md, "Results checked against the dice")."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from movecheck.cli import main
from tests.harness import dump, yaml_data

from .test_triplea import SMALL

FLAK = {"movement": 1, "attack": 0, "defense": 0, "domain": "land", "cost": 5,
        "aa": {"battle": True, "raids": False, "fly_over": False, "value": 2, "die_sides": 6, "shots": 1,
               "targets": ["plane"]}}
TYPES = {
    "infantry": {"movement": 1, "attack": 1, "defense": 2, "domain": "land", "cost": 3, "transport_cost": 2},
    "plane": {"movement": 4, "attack": 3, "defense": 4, "domain": "air", "cost": 10},
    "glider": {"movement": 4, "attack": 1, "defense": 1, "domain": "air", "cost": 5},
    "flak": FLAK,
}


def battle_over_flak(tmp_path: Path, rules: str | None, attackers: dict[str, int]) -> None:
    """A map with a flak (AA at 2, one shot, at planes only); the Reds' aircraft attack the Isthmus, held by a
    Blue infantry and a flak."""
    game = {**copy.deepcopy(SMALL), "movecheck": 1, "system": "aa", "kind": "map"}
    game["unit_types"] = {**game["unit_types"], **TYPES}
    (tmp_path / "map.yaml").write_text(dump(game), encoding="utf-8")
    units = [{"at": "Isthmus", "power": "Reds", "type": t, "count": n, "moved": 1} for t, n in attackers.items()]
    units += [{"at": "Isthmus", "power": "Blues", "type": "infantry"},
              {"at": "Isthmus", "power": "Blues", "type": "flak"}]
    state: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": "map.yaml",
                             "turn": {"round": 1, "power": "Reds", "phase": "battles"}, "units": units,
                             "battles": [{"at": "Isthmus", "kind": "land", "attackers": attackers,
                                          "defenders": {"flak": 1, "infantry": 1}, "from": ["Redland"]}]}
    if rules:
        state["rules"] = rules
    (tmp_path / "battles.yaml").write_text(dump(state), encoding="utf-8")


def check(capsys, tmp_path: Path, rounds: list[dict[str, Any]], losses: dict[str, Any]) -> tuple[int, list[str]]:
    data = {"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": "Reds", "phase": "battles",
            "results": [{"at": "Isthmus", "rounds": rounds, **losses}]}
    path = tmp_path / "results.yaml"
    path.write_text(dump(data), encoding="utf-8")
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    return code, [f"{f['code']} {f['message']}" for f in findings]


def test_a_map_aa_type_owes_its_shots_at_its_value(capsys, tmp_path: Path) -> None:
    """Before: the replay knew only the edition's ``aa_gun``, so the flak's die was AA513 and none was legal."""
    battle_over_flak(tmp_path, None, {"plane": 2})
    # the 1942 second edition: the flak is a unit of the battle (0/0), removed when left alone
    rounds = [{"defender": {"aa": {2: [2]}, "fire": {2: [6]}}, "attacker": {"fire": {3: [1]}},
               "attacker_losses": {"plane": 1}, "defender_losses": {"infantry": 1},
               "removed": {"defender": {"flak": 1}}}]
    totals = {"attacker_losses": {"plane": 1}, "defender_losses": {"flak": 1, "infantry": 1}}
    assert check(capsys, tmp_path, rounds, totals) == (0, [])
    rounds[0]["defender"]["aa"] = {2: [3, 4]}  # one shot per flak, not one per plane
    rounds[0]["attacker"]["fire"] = {3: [1, 5]}
    del rounds[0]["attacker_losses"]
    totals = {"defender_losses": {"flak": 1, "infantry": 1}}
    code, found = check(capsys, tmp_path, rounds, totals)
    assert code == 1 and found == ["AA513 round 1: the defender owes 1 at 2 in its aa step, 2 at 2 were rolled"]
    rounds[0]["defender"]["aa"] = {1: [3]}  # at the edition's AA gun's value
    code, found = check(capsys, tmp_path, rounds, totals)
    assert code == 1 and found == ["AA513 round 1: the defender owes 1 at 2 in its aa step, 1 at 1 were rolled"]


def test_a_map_aa_type_spares_the_planes_it_may_not_target(capsys, tmp_path: Path) -> None:
    """The flak targets planes only: over a lone glider it owes no die."""
    battle_over_flak(tmp_path, None, {"glider": 1})
    rounds = [{"defender": {"fire": {2: [6]}}, "attacker": {"fire": {1: [1]}}, "defender_losses": {"infantry": 1},
               "removed": {"defender": {"flak": 1}}}]
    totals = {"defender_losses": {"flak": 1, "infantry": 1}}
    assert check(capsys, tmp_path, rounds, totals) == (0, [])
    rounds[0]["defender"]["aa"] = {2: [5]}
    code, found = check(capsys, tmp_path, rounds, totals)
    assert code == 1 and found == ["AA513 round 1: the defender owes none in its aa step, 1 at 2 were rolled"]


def test_revised_map_aa_type_rolls_one_die_per_plane_hitting_at_its_value(capsys, tmp_path: Path) -> None:
    """Revised: the flak is infrastructure (0/0, as the AA gun) and fires one die per plane it may hit, named by
    the plane; a 2 hits at its value (the edition's gun would hit on 1 only)."""
    battle_over_flak(tmp_path, "revised", {"plane": 2})
    rounds = [{"defender": {"aa": {"plane": [2, 5]}, "fire": {2: [6]}}, "attacker": {"fire": {3: [1]}},
               "attacker_losses": {"plane": 1}, "defender_losses": {"infantry": 1}}]
    totals = {"attacker_losses": {"plane": 1}, "defender_losses": {"infantry": 1}}
    assert check(capsys, tmp_path, rounds, totals) == (0, [])
    rounds[0]["defender"]["aa"] = {"plane": [2]}
    code, found = check(capsys, tmp_path, rounds, totals)
    assert code == 1 and "AA513 round 1: the defender owes 2 at plane in its aa step, 1 at plane were rolled" in found


def rolled_aa(capsys, tmp_path: Path) -> dict[str, list[int]]:
    """The AA dice ``movecheck dice roll`` gives round 1 of the Isthmus battle."""
    x, y = "ab" * 32, "cd" * 32
    code = main(["dice", "roll", str(tmp_path / "battles.yaml"), "--round", "1", "--attacker", x, "--defender", y])
    out, err = capsys.readouterr()
    assert code == 0, err
    entry = yaml_data(out)["rounds"][0]
    return {str(k): v for k, v in entry["defender"].get("aa", {}).items()}


def test_dice_roll_gives_a_map_aa_type_its_dice(capsys, tmp_path: Path) -> None:
    """Before: the dice construction rolled only for the edition's AA gun, so a round rolled over a flak had no
    AA dice, and the replay now owes them."""
    battle_over_flak(tmp_path, None, {"plane": 2})
    aa = rolled_aa(capsys, tmp_path)
    assert list(aa) == ["2"] and len(aa["2"]) == 1  # one shot of the one flak, at 2
    battle_over_flak(tmp_path, "revised", {"plane": 2})
    aa = rolled_aa(capsys, tmp_path)
    assert list(aa) == ["plane"] and len(aa["plane"]) == 2  # one die per plane


def pasted(capsys, tmp_path: Path, text: str) -> tuple[int, list[str]]:
    data = {"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": "Reds", "phase": "battles",
            "results": [{"at": "Isthmus", "dice": text, "attacker_losses": {"plane": 1},
                         "defender_losses": {"flak": 1, "infantry": 1}}]}
    (tmp_path / "results.yaml").write_text(dump(data), encoding="utf-8")
    code = main(["check", str(tmp_path / "results.yaml"), "--format", "json", "--root", "/", "--isolated"])
    return code, [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]]


def test_pasted_triplea_lines_give_a_map_aa_type_its_dice_at_its_value(capsys, tmp_path: Path) -> None:
    """Before: a pasted AA roll was always taken as dice at 1, so the flak's 2 (a hit at its value) was AA513."""
    battle_over_flak(tmp_path, None, {"plane": 2})
    text = ("Blues roll AA dice in Isthmus : 2\n"
            "Reds roll dice for 1 plane in Isthmus, round 1 : 1\n"
            "Blues roll dice for 1 infantry in Isthmus, round 1 : 6\n")
    assert pasted(capsys, tmp_path, text) == (0, [])
    code, found = pasted(capsys, tmp_path, text.replace("Isthmus : 2", "Isthmus : 2,5"))
    assert code == 1 and "AA513" in found  # one shot per flak
