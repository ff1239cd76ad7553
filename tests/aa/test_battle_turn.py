"""Battle results for the whole turn (spec aa-turn.md): two-hit battleships (AA509), strategic bombing (AA508),
defending fighters whose carrier sank (AA510), and what apply does with them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.harness import yaml_data, yaml_text

from .test_battles import BATTLES_STATE, apply_results, check_json, codes, stacks, with_result
from .test_battles import results_file as _results_file


def legacy(tmp_path: Path) -> Path:
    """The example battles state as written before raids were battles: no ``kind:`` on its battles, so a
    ``bombing:`` on a land battle's result keeps its meaning (aa-battle.md, "Strategic bombing raids")."""
    data = yaml_data(BATTLES_STATE.read_text(encoding="utf-8"))
    data["battles"] = [{k: v for k, v in battle.items() if k != "kind"} for battle in data["battles"]]
    path = tmp_path / "legacy-battles-state.yaml"
    path.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    return path


def results_file(tmp_path: Path, results: list[dict[str, Any]], state: Path | None = None, **head: Any) -> Path:
    """A results file on the legacy state unless another is given."""
    return _results_file(tmp_path, results, state=state or legacy(tmp_path), **head)


def only(report: dict[str, Any]) -> list[str]:
    return [code for code, _order in codes(report)]


# -- AA509 damaged ---------------------------------------------------------------------------


def test_a_battleship_hit_once_is_damaged_and_carried_so(capsys, tmp_path: Path) -> None:
    results = with_result("17 Sea Zone", damaged={"battleship": 1})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 0, report["findings"]
    after = apply_results(capsys, results_file(tmp_path, results))
    battleship = [u for u in after["units"] if u["at"] == "17 Sea Zone" and u["type"] == "battleship"]
    assert battleship == [{"at": "17 Sea Zone", "power": "Germans", "type": "battleship", "moved": 1, "fought": True,
                           "damaged": True}]


def test_damaged_with_a_side(capsys, tmp_path: Path) -> None:
    results = with_result("17 Sea Zone", damaged={"attacker": {"battleship": 1}})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 0, report["findings"]


def test_a_one_hit_unit_is_never_damaged(capsys, tmp_path: Path) -> None:
    code, report = check_json(capsys, results_file(tmp_path, with_result("17 Sea Zone", damaged={"destroyer": 1})))
    assert code == 1 and only(report) == ["AA509"]
    assert "takes one hit" in report["findings"][0]["message"]


def test_more_damaged_than_survive(capsys, tmp_path: Path) -> None:
    code, report = check_json(capsys, results_file(tmp_path, with_result("17 Sea Zone", damaged={"battleship": 2})))
    assert code == 1 and only(report) == ["AA509"]
    assert "1 battleship come through" in report["findings"][0]["message"]


def test_the_damage_is_repaired_at_the_end_of_the_turn() -> None:
    from movecheck.aa.maps.gamemap import GameMap
    from movecheck.aa.model import Board
    from movecheck.aa.turn.mobilize_apply import repair
    from movecheck.aa.units import Unit, UnitType

    board = Board(GameMap({"territories": [{"name": "1 Sea Zone", "sea": True}]}), {}, "Germans", "noncombat_move")
    board.add(Unit(uid=1, type=UnitType("battleship", 2, "sea", hit_points=2), power="Germans", at="1 Sea Zone",
                   damaged=True))
    repair(board)
    assert not board.units[0].damaged


# -- AA508 bombing ---------------------------------------------------------------------------


def test_a_bomber_that_comes_through_bombs_the_factory(capsys, tmp_path: Path) -> None:
    results = with_result("Caucasus", bombing={"at": "Caucasus", "damage": 6})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 0, report["findings"]
    out = _apply_text(capsys, results_file(tmp_path, results))
    after = yaml_data(out)
    factory = [u for u in after["units"] if u["at"] == "Caucasus" and u["type"] == "factory"]
    assert factory[0]["damage"] == 6  # Caucasus is worth 4 IPCs: at most 8 in all (1942 second edition)
    assert "# bombing of Caucasus: 6 damage on the factory (now 6; at most 8)" in out


def test_factory_damage_stops_at_twice_the_ipc_value(capsys, tmp_path: Path) -> None:
    state = raid_state(tmp_path, bombers=2)
    out = _apply_text(capsys, results_file(tmp_path, raid_results({"bombing": {"damage": 11}}), state=state))
    assert "# bombing of Caucasus: 8 damage on the factory (now 8; at most 8)" in out


def test_bombing_with_the_bomber_shot_down(capsys, tmp_path: Path) -> None:
    lost = {**next(r for r in with_result("Caucasus") if r["at"] == "Caucasus")["attacker_losses"], "bomber": 1}
    results = with_result("Caucasus", bombing={"damage": 3}, attacker_losses=lost)
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1 and only(report) == ["AA508"]
    assert "no attacking bomber" in report["findings"][0]["message"]


def test_bombing_where_there_is_no_factory(capsys, tmp_path: Path) -> None:
    code, report = check_json(capsys, results_file(tmp_path, with_result("Belorussia", bombing={"damage": 3})))
    assert code == 1 and only(report) == ["AA508"]
    assert "no factory in Belorussia" in report["findings"][0]["message"]


def test_bombing_of_another_territory(capsys, tmp_path: Path) -> None:
    results = with_result("Caucasus", bombing={"at": "Karelia", "damage": 3})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1 and only(report) == ["AA508"]


def test_bad_bombing_input_is_a_finding(capsys, tmp_path: Path) -> None:
    results = with_result("Caucasus", bombing={"at": "Atlantis", "damage": 2.5})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code in (1, 2)
    assert {"MC003", "MC004"} & set(only(report))
    assert not any(f["code"].startswith("AA") for f in report["findings"])


# -- AA510 defender_landing ------------------------------------------------------------------


def carrier_state(tmp_path: Path) -> Path:
    """The example battles state with a British carrier and fighter among 7 Sea Zone's defenders."""
    data = yaml_data(legacy(tmp_path).read_text(encoding="utf-8"))
    data["map"] = "aa1942-2e"
    data["units"] += [{"at": "7 Sea Zone", "power": "British", "type": "carrier"},
                      {"at": "7 Sea Zone", "power": "British", "type": "fighter"}]
    for battle in data["battles"]:
        if battle["at"] == "7 Sea Zone":
            battle["defenders"] = {**battle["defenders"], "carrier": 1, "fighter": 1}
    path = tmp_path / "battles-state.yaml"
    path.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    return path


SEA_LOSSES = {"battleship": 1, "transport": 1, "carrier": 1}
ALL_ATTACKERS = {"cruiser": 1, "fighter": 1, "submarine": 4}  # the defender's fighter comes through


def test_a_fighter_whose_carrier_sank_lands_in_a_friendly_territory(capsys, tmp_path: Path) -> None:
    state = carrier_state(tmp_path)
    results = with_result("7 Sea Zone", attacker_losses=ALL_ATTACKERS, defender_losses=SEA_LOSSES,
                          defender_landing=[{"from": "SZ 7", "to": "UK", "units": {"fighter": 1}}])
    code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert code == 0, report["findings"]
    after = apply_results(capsys, results_file(tmp_path, results, state=state))
    assert stacks(after, "United Kingdom", "British").get("fighter") == 3  # two there before
    assert stacks(after, "7 Sea Zone", "British") == {}


def test_a_fighter_not_landed_is_destroyed(capsys, tmp_path: Path) -> None:
    state = carrier_state(tmp_path)
    results = with_result("7 Sea Zone", attacker_losses=ALL_ATTACKERS, defender_losses=SEA_LOSSES)
    out = _apply_text(capsys, results_file(tmp_path, results, state=state))
    after = yaml_data(out)
    assert stacks(after, "7 Sea Zone", "British") == {}
    assert stacks(after, "United Kingdom", "British").get("fighter") == 2
    assert "# destroyed: 1 British fighter in 7 Sea Zone, its carrier sunk and no landing given" in out


def test_a_fighter_may_not_land_in_enemy_territory(capsys, tmp_path: Path) -> None:
    state = carrier_state(tmp_path)
    results = with_result("7 Sea Zone", attacker_losses=ALL_ATTACKERS, defender_losses=SEA_LOSSES,
                          defender_landing=[{"to": "Eire", "units": {"fighter": 1}}])  # Eire: neutral, no side holds it
    code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert code == 1 and only(report) == ["AA510"]
    assert "may not land in Eire" in report["findings"][0]["message"]


def test_more_fighters_landed_than_lost_their_carrier(capsys, tmp_path: Path) -> None:
    state = carrier_state(tmp_path)
    results = with_result("7 Sea Zone", attacker_losses=ALL_ATTACKERS,
                          defender_losses={"battleship": 1, "transport": 1},  # the carrier survives
                          defender_landing=[{"to": "United Kingdom", "units": {"fighter": 1}}])
    code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert code == 1 and "AA510" in only(report)
    assert "no fighters lose their carrier in 7 Sea Zone, not 1" in report["findings"][0]["message"]


def test_a_landing_at_sea_needs_a_free_slot_on_an_allied_carrier(capsys, tmp_path: Path) -> None:
    state = carrier_state(tmp_path)
    results = with_result("7 Sea Zone", attacker_losses=ALL_ATTACKERS, defender_losses=SEA_LOSSES,
                          defender_landing=[{"to": "6 Sea Zone", "units": {"fighter": 1}}])
    code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert code == 1 and only(report) == ["AA510"]
    assert "free slot" in report["findings"][0]["message"]


def _apply_text(capsys, path: Path) -> str:
    from movecheck.cli import main

    code = main(["apply", str(path), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_without_factory_damage_the_owner_loses_ipcs(capsys, tmp_path: Path) -> None:
    from movecheck.cli import main

    results = with_result("Caucasus", bombing={"damage": 6})
    code = main(["apply", str(results_file(tmp_path, results)), "--root", "/", "--isolated", "--format", "json",
                 "--option", "aa.factory_damage=false"])
    report = capsys.readouterr().out
    assert code == 0, report
    import json

    data = json.loads(report)
    after = yaml_data(data["text"])
    # Revised: each bomber at most the territory's IPC value (Caucasus 4); the Russians start with 24
    assert after["ipcs"]["Russians"] == 24 - 4
    assert data["notes"] == ["bombing of Caucasus: the Russians lose 4 IPCs (6 rolled, cut by the cap: each "
                             "bomber's die counts at most 4, the IPC value of Caucasus)"]
    assert not any(u.get("damage") for u in after["units"])


def raid_state(tmp_path: Path, bombers: int = 1) -> Path:
    """The battles state with only German bombers (``bombers`` of them) attacking Caucasus."""
    data = yaml_data(legacy(tmp_path).read_text(encoding="utf-8"))
    data["units"] = [u for u in data["units"] if not (u["at"] == "Caucasus" and u["power"] == "Germans"
                                                      and u["type"] != "bomber")]
    data["units"].extend({"at": "Caucasus", "power": "Germans", "type": "bomber", "moved": 3}
                         for _ in range(bombers - 1))
    for battle in data["battles"]:
        if battle["at"] == "Caucasus":
            battle["attackers"] = {"bomber": bombers}
    state = tmp_path / "raid-state.yaml"
    state.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    return state


def raid_results(raid: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal results, with ``raid`` the result of the raid on Caucasus."""
    return [r if r["at"] != "Caucasus" else {"at": "Caucasus", **raid} for r in with_result("Egypt")]


def test_a_raid_of_bombers_alone_is_no_battle(capsys, tmp_path: Path) -> None:
    """Bombers alone over a factory drop their bombs and leave: the defenders do not keep a battle going."""
    state = raid_state(tmp_path)
    raid = raid_results({"bombing": {"damage": 5}})
    code, report = check_json(capsys, results_file(tmp_path, raid, state=state))
    assert code == 0, report["findings"]
    without = [r if r["at"] != "Caucasus" else {"at": "Caucasus"} for r in raid]
    code, report = check_json(capsys, results_file(tmp_path, without, state=state))
    assert code == 1 and "AA505" in only(report)  # without bombing: a battle that is not over


# -- AA511 / AA512 raids ------------------------------------------------------------------------


def test_aa511_a_raid_kills_no_defender(capsys, tmp_path: Path) -> None:
    """A lone bomber over a factory with ``defender_losses``: AA511, and apply removes no defender."""
    from movecheck.cli import main

    state = raid_state(tmp_path)
    path = results_file(tmp_path, raid_results({"bombing": {"damage": 5}, "defender_losses": {"infantry": 2}}),
                        state=state)
    code, report = check_json(capsys, path)
    assert code == 1 and only(report) == ["AA511"]
    assert "kill no defender" in report["findings"][0]["message"]
    assert "2 Russian infantry" in report["findings"][0]["message"]
    assert report["findings"][0]["order"] == 4
    assert main(["apply", str(path), "--root", "/", "--isolated"]) == 1
    assert "units:" not in capsys.readouterr().out  # no state written


def test_aa511_a_raid_that_loses_bombers_only_is_legal(capsys, tmp_path: Path) -> None:
    state = raid_state(tmp_path, bombers=2)
    path = results_file(tmp_path, raid_results({"bombing": {"damage": 5}, "attacker_losses": {"bomber": 1}}),
                        state=state)
    code, report = check_json(capsys, path)
    assert code == 0, report["findings"]


def test_aa512_more_damage_than_the_bombers_roll(capsys, tmp_path: Path) -> None:
    state = raid_state(tmp_path)
    code, report = check_json(capsys, results_file(tmp_path, raid_results({"bombing": {"damage": 7}}), state=state))
    assert code == 1 and only(report) == ["AA512"]
    assert report["findings"][0]["message"] == "1 bomber can roll 1 to 6 damage, not 7"
    code, report = check_json(capsys, results_file(tmp_path, raid_results({"bombing": {"damage": 6}}), state=state))
    assert code == 0, report["findings"]


def test_aa512_counts_the_surviving_bombers_only(capsys, tmp_path: Path) -> None:
    state = raid_state(tmp_path, bombers=2)
    shot = {"attacker_losses": {"bomber": 1}}
    code, report = check_json(capsys, results_file(tmp_path, raid_results({**shot, "bombing": {"damage": 11}}),
                                                   state=state))
    assert code == 1 and only(report) == ["AA512"]
    code, report = check_json(capsys, results_file(tmp_path, raid_results({"bombing": {"damage": 11}}), state=state))
    assert code == 0, report["findings"]


def test_aa512_less_than_one_per_surviving_bomber(capsys, tmp_path: Path) -> None:
    state = raid_state(tmp_path, bombers=2)
    code, report = check_json(capsys, results_file(tmp_path, raid_results({"bombing": {"damage": 1}}), state=state))
    assert code == 1 and only(report) == ["AA512"]
    assert "2 bombers can roll 2 to 12 damage, not 1" in report["findings"][0]["message"]


def test_aa512_in_a_battle_with_other_attackers(capsys, tmp_path: Path) -> None:
    """The old silent cap: one bomber writing 11 damage was applied as 8; it is an error now."""
    code, report = check_json(capsys, results_file(tmp_path, with_result("Caucasus", bombing={"damage": 11})))
    assert code == 1 and only(report) == ["AA512"]
