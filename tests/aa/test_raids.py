"""Strategic bombing raids as battles of their own (aa-battle.md, "Strategic bombing raids"), end to end: the
combat move (``raid: true``, AA208), the battles state ``apply`` writes (``kind: raid``, listed first), the raid's
result (``kind: raid``, AA501, AA504, AA508, AA512, AA523) and the battles ``apply`` (caps said, capture after
the raid)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from movecheck.cli import main
from tests.harness import dump, yaml_data

from .conftest import unit

G, R = "Germans", "Russians"
KARELIA = "Karelia S.S.R."
BOMBER_1942 = ["Germany", "Baltic States", KARELIA]
BOMBER_REVISED = ["Germany", "Eastern Europe", KARELIA]


def combat(tmp_path: Path, units: list[dict[str, Any]], moves: list[dict[str, Any]],
           rules: str = "aa1942") -> Path:
    """A German combat move on a small board of the edition's own map; returns the orders file."""
    board = {"aa1942": "aa1942-2e", "revised": "aa-revised"}[rules]
    state = {"movecheck": 1, "system": "aa", "rules": rules, "map": board,
             "turn": {"round": 2, "power": G, "phase": "combat_move"}, "units": units}
    (tmp_path / "state.yaml").write_text(dump(state), encoding="utf-8")
    orders = {"movecheck": 1, "system": "aa", "state": "state.yaml", "power": G, "phase": "combat_move",
              "moves": moves}
    path = tmp_path / "orders.yaml"
    path.write_text(dump(orders), encoding="utf-8")
    return path


def check(capsys, path: Path) -> tuple[int, list[str], list[str]]:
    """Exit code, codes and messages of ``movecheck check``."""
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    return code, [f["code"] for f in findings], [f["message"] for f in findings]


def apply(capsys, path: Path, output: Path) -> tuple[str, dict[str, Any]]:
    """The header and data of the state ``movecheck apply`` writes."""
    assert main(["apply", str(path), "--root", "/", "--isolated", "-o", str(output)]) == 0, capsys.readouterr()
    capsys.readouterr()
    text = output.read_text(encoding="utf-8")
    return text, yaml_data(text)


def results(tmp_path: Path, entries: list[dict[str, Any]]) -> Path:
    path = tmp_path / "results.yaml"
    path.write_text(dump({"movecheck": 1, "system": "aa", "state": "battles.yaml", "power": G, "phase": "battles",
                          "results": entries}), encoding="utf-8")
    return path


def battles_state(capsys, tmp_path: Path, units: list[dict[str, Any]], moves: list[dict[str, Any]],
                  rules: str = "aa1942") -> dict[str, Any]:
    orders = combat(tmp_path, units, moves, rules)
    code, _found, messages = check(capsys, orders)
    assert code == 0, messages
    return apply(capsys, orders, tmp_path / "battles.yaml")[1]


def factory_only(*more: dict[str, Any]) -> list[dict[str, Any]]:
    return [unit("Germany", G, "bomber"), unit(KARELIA, R, "factory"), *more]


def bomber(path: list[str] = BOMBER_1942, count: int = 1, **extra: Any) -> dict[str, Any]:
    return {"units": {"bomber": count}, "path": path, **extra}


# -- a lone bomber over a factory-only territory: a raid, end to end --------------------------


def test_a_lone_bomber_over_a_factory_only_territory_raids_it(capsys, tmp_path: Path) -> None:
    """Before: accepted, but no battle listed, so its raid could never be written (AA501)."""
    state = battles_state(capsys, tmp_path, factory_only(), [bomber()])
    assert state["battles"] == [{"at": KARELIA, "kind": "raid", "attackers": {"bomber": 1},
                                 "defenders": {"factory": 1}, "from": ["Baltic States"]}]
    path = results(tmp_path, [{"at": KARELIA, "kind": "raid", "bombing": {"damage": 5}}])
    code, _found, messages = check(capsys, path)
    assert code == 0, messages
    header, after = apply(capsys, path, tmp_path / "after.yaml")
    factory = [u for u in after["units"] if u["type"] == "factory"]
    assert factory == [{"at": KARELIA, "power": R, "type": "factory", "damage": 4}]  # at most twice its IPC value 2
    assert ("# bombing of Karelia S.S.R.: 4 damage on the factory (now 4; at most 4) (5 rolled, cut by the cap: "
            "at most 4 damage on the factory in all)") in header
    assert KARELIA not in after.get("control", {})  # a raid takes no territory


def test_the_raids_result_may_leave_out_kind_where_the_raid_is_the_only_battle(capsys, tmp_path: Path) -> None:
    battles_state(capsys, tmp_path, factory_only(), [bomber()])
    code, _found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "bombing": {"damage": 3}}]))
    assert code == 0, messages


def test_aa504_a_raid_without_result(capsys, tmp_path: Path) -> None:
    battles_state(capsys, tmp_path, factory_only(), [bomber()])
    code, found, messages = check(capsys, results(tmp_path, []))
    assert (code, found) == (1, ["AA504"])
    assert messages == ["the raid on Karelia S.S.R. has no result (kind: raid)"]


def test_aa501_kind_raid_where_no_raid_is_fought(capsys, tmp_path: Path) -> None:
    battles_state(capsys, tmp_path, factory_only(unit("Archangel", R, "infantry"), unit("West Russia", G, "infantry")),
                  [bomber(), {"units": {"infantry": 1}, "path": ["West Russia", "Archangel"]}])
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 2}}
    code, found, messages = check(capsys, results(tmp_path, [raid, {"at": "Archangel", "kind": "raid",
                                                                    "defender_losses": {"infantry": 1}}]))
    assert (code, found) == (1, ["AA501"])
    assert messages == ["there is no raid on Archangel (the state's raids: Karelia S.S.R.)"]
    code, found, messages = check(capsys, results(tmp_path, [raid, {"at": "Archangel",
                                                                    "defender_losses": {"infantry": 1}}]))
    assert code == 0, messages


# -- an implicit raid only where nothing can be fought -------------------------------------------


def test_a_bomber_with_land_units_is_no_raid_and_the_territory_is_taken(capsys, tmp_path: Path) -> None:
    state = battles_state(capsys, tmp_path, factory_only(unit("Finland", G, "infantry")),
                          [bomber(), {"units": {"infantry": 1}, "path": ["Finland", KARELIA]}])
    assert "battles" not in state
    assert state["control"][KARELIA] == G


def test_1942_an_aa_gun_defends_so_a_lone_bomber_fights_it(capsys, tmp_path: Path) -> None:
    """1942 second edition: the AA gun is a combat unit, so a bomber without ``raid: true`` fights a land battle."""
    state = battles_state(capsys, tmp_path, factory_only(unit(KARELIA, R, "aa_gun")), [bomber()])
    assert state["battles"] == [{"at": KARELIA, "kind": "land", "attackers": {"bomber": 1},
                                 "defenders": {"aa_gun": 1}, "from": ["Baltic States"]}]
    state = battles_state(capsys, tmp_path, factory_only(unit(KARELIA, R, "aa_gun")), [bomber(raid=True)])
    assert state["battles"] == [{"at": KARELIA, "kind": "raid", "attackers": {"bomber": 1},
                                 "defenders": {"factory": 1}, "from": ["Baltic States"]}]


def test_revised_the_aa_gun_is_infrastructure_and_fires_at_the_raiders(capsys, tmp_path: Path) -> None:
    units = factory_only(unit(KARELIA, R, "aa_gun"))
    state = battles_state(capsys, tmp_path, units, [bomber(BOMBER_REVISED)], rules="revised")
    assert state["battles"] == [{"at": KARELIA, "kind": "raid", "attackers": {"bomber": 1},
                                 "defenders": {"aa_gun": 1, "factory": 1}, "from": ["Eastern Europe"]}]
    shot = {"at": KARELIA, "kind": "raid", "attacker_losses": {"bomber": 1}}
    code, _found, messages = check(capsys, results(tmp_path, [shot]))  # shot down by the AA gun: no bombing
    assert code == 0, messages


# -- a factory-only territory entered while a raid on it is pending ------------------------------


def test_the_territory_is_taken_after_the_raid(capsys, tmp_path: Path) -> None:
    """Before: taken in the combat move, the raid never listed."""
    state = battles_state(capsys, tmp_path, factory_only(unit("Finland", G, "infantry")),
                          [bomber(raid=True), {"units": {"infantry": 1}, "path": ["Finland", KARELIA]}])
    assert state["battles"] == [{"at": KARELIA, "kind": "raid", "attackers": {"bomber": 1},
                                 "defenders": {"factory": 1}, "from": ["Baltic States"]}]
    assert KARELIA not in state.get("control", {}) and KARELIA not in state.get("captured_this_turn", [])
    path = results(tmp_path, [{"at": KARELIA, "kind": "raid", "bombing": {"damage": 3}}])
    code, _found, messages = check(capsys, path)
    assert code == 0, messages
    header, after = apply(capsys, path, tmp_path / "after.yaml")
    assert after["control"][KARELIA] == G
    assert [u for u in after["units"] if u["type"] == "factory"] == [
        {"at": KARELIA, "power": G, "type": "factory", "damage": 3}]  # it keeps the damage the raid did
    assert "# Karelia S.S.R.: captured by the Germans (held by the Russians before)." in header


# -- a territory both raided and attacked: two battles, two results -------------------------------


def two_battles(capsys, tmp_path: Path) -> dict[str, Any]:
    units = factory_only(unit(KARELIA, R, "infantry"), unit("Finland", G, "infantry", 2))
    return battles_state(capsys, tmp_path, units,
                         [{"units": {"infantry": 2}, "path": ["Finland", KARELIA]}, bomber(raid=True)])


def test_the_raid_is_listed_first_and_the_bomber_is_no_attacker_of_the_land_battle(capsys, tmp_path: Path) -> None:
    state = two_battles(capsys, tmp_path)
    assert state["battles"] == [
        {"at": KARELIA, "kind": "raid", "attackers": {"bomber": 1}, "defenders": {"factory": 1},
         "from": ["Baltic States"]},
        {"at": KARELIA, "kind": "land", "attackers": {"infantry": 2}, "defenders": {"infantry": 1},
         "from": ["Finland"]},
    ]


def test_two_results_at_one_space_one_of_them_the_raid(capsys, tmp_path: Path) -> None:
    two_battles(capsys, tmp_path)
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 2}}
    land = {"at": KARELIA, "defender_losses": {"infantry": 1}}
    code, found, messages = check(capsys, results(tmp_path, [raid, land]))
    assert code == 0, messages
    header, after = apply(capsys, results(tmp_path, [raid, land]), tmp_path / "after.yaml")
    assert after["control"][KARELIA] == G
    assert "# bombing of Karelia S.S.R.: 2 damage on the factory (now 2; at most 4)" in header
    code, found, messages = check(capsys, results(tmp_path, [land, dict(land)]))
    assert code == 1 and sorted(found) == ["AA501", "AA504"]  # two land results; the raid has none


def test_aa502_the_raiding_bomber_is_not_a_casualty_of_the_land_battle(capsys, tmp_path: Path) -> None:
    two_battles(capsys, tmp_path)
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 2}}
    land = {"at": KARELIA, "attacker_losses": {"bomber": 1}, "defender_losses": {"infantry": 1}}
    code, found, _messages = check(capsys, results(tmp_path, [raid, land]))
    assert (code, found) == (1, ["AA502"])


def test_aa508_bombing_on_the_land_battles_result(capsys, tmp_path: Path) -> None:
    two_battles(capsys, tmp_path)
    land = {"at": KARELIA, "defender_losses": {"infantry": 1}, "bombing": {"damage": 2}}
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "bombing": {"damage": 2}}, land]))
    assert (code, found) == (1, ["AA508"])
    assert messages == ["the bombing of Karelia S.S.R. is the raid's: write it in the raid's own result (kind: "
                        "raid), not in the land battle's"]


def test_aa508_bombing_where_no_raid_is_fought(capsys, tmp_path: Path) -> None:
    """A bomber in a land battle drops no bombs once the state says the kinds of its battles."""
    battles_state(capsys, tmp_path, factory_only(unit(KARELIA, R, "infantry"), unit("Finland", G, "infantry")),
                  [{"units": {"infantry": 1}, "path": ["Finland", KARELIA]}, bomber()])
    land = {"at": KARELIA, "defender_losses": {"infantry": 1}}
    code, found, messages = check(capsys, results(tmp_path, [{**land, "bombing": {"damage": 2}}]))
    assert (code, found) == (1, ["AA508"])
    assert "no bomber raids Karelia S.S.R." in messages[0]
    code, found, messages = check(capsys, results(tmp_path, [land]))
    assert code == 0, messages


# -- AA511 / AA512 / AA523 on a raid's own result ----------------------------------------------


def raid_of(capsys, tmp_path: Path, bombers: int, rules: str = "aa1942") -> None:
    units = [unit("Germany", G, "bomber", bombers), unit(KARELIA, R, "factory"), unit(KARELIA, R, "infantry")]
    path = BOMBER_1942 if rules == "aa1942" else BOMBER_REVISED
    battles_state(capsys, tmp_path, units, [bomber(path, bombers, raid=True)], rules)


def test_aa511_the_raid_kills_no_defender(capsys, tmp_path: Path) -> None:
    raid_of(capsys, tmp_path, 1)
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 2}}
    code, found, messages = check(capsys, results(tmp_path, [{**raid, "defender_losses": {"infantry": 1}}]))
    assert (code, found) == (1, ["AA511"])
    code, found, messages = check(capsys, results(tmp_path, [raid]))
    assert code == 0, messages  # the defenders do not keep a raid going (no AA505)


def test_aa512_a_surviving_bomber_writes_its_damage(capsys, tmp_path: Path) -> None:
    raid_of(capsys, tmp_path, 2)
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "attacker_losses": {"bomber": 1}}]))
    assert (code, found) == (1, ["AA512"])
    assert messages == ["the raid on Karelia S.S.R. has 1 bomber left: write the damage rolled "
                        "(bombing: {damage: N})"]
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "attacker_losses": {"bomber": 2}}]))
    assert code == 0, messages  # both shot down by the factory's AA: nothing to write


def test_aa512_dice_one_per_surviving_bomber(capsys, tmp_path: Path) -> None:
    raid_of(capsys, tmp_path, 2)
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "bombing": {"damage": [5]}}]))
    assert (code, found) == (1, ["AA512"])
    assert messages == ["the raid on Karelia S.S.R. has 2 bombers left: write one die for each, not 1"]
    path = results(tmp_path, [{"at": KARELIA, "kind": "raid", "bombing": {"damage": [1, 2]}}])
    code, found, messages = check(capsys, path)
    assert code == 0, messages
    header, _after = apply(capsys, path, tmp_path / "after.yaml")
    assert "# bombing of Karelia S.S.R.: 3 damage on the factory (now 3; at most 4)\n" in header


def test_aa523_revised_a_total_above_the_value_with_several_bombers(capsys, tmp_path: Path) -> None:
    raid_of(capsys, tmp_path, 2, rules="revised")
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "bombing": {"damage": 9}}]))
    assert (code, found) == (1, ["AA523"])
    assert messages == ["the raid on Karelia S.S.R. has 2 bombers left and each die counts at most 2, the IPC value "
                        "there: a total of 9 cannot be capped, write the dice (damage: [...])"]
    path = results(tmp_path, [{"at": KARELIA, "kind": "raid", "bombing": {"damage": [5, 1]}}])
    code, found, messages = check(capsys, path)
    assert code == 0, messages
    header, _after = apply(capsys, path, tmp_path / "after.yaml")
    # each die counts at most Karelia's 2 IPCs: 2 + 1
    assert ("# bombing of Karelia S.S.R.: the Russians lose 3 IPCs (6 rolled, cut by the cap: each bomber's die "
            "counts at most 2, the IPC value of Karelia S.S.R.)") in header
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "bombing": {"damage": 2}}]))
    assert code == 0, messages  # a total within the value needs no dice


# -- AA208 --------------------------------------------------------------------------------------


def test_aa208_raid_with_other_units(capsys, tmp_path: Path) -> None:
    orders = combat(tmp_path, factory_only(unit("Germany", G, "fighter")),
                    [{"units": {"bomber": 1, "fighter": 1}, "path": BOMBER_1942, "raid": True}])
    code, found, messages = check(capsys, orders)
    assert (code, found) == (1, ["AA208"])
    assert messages == ["only bombers raid a factory, but the order also moves 1 fighter"]


def test_aa208_raid_where_there_is_no_enemy_factory(capsys, tmp_path: Path) -> None:
    orders = combat(tmp_path, factory_only(unit("Archangel", R, "infantry")),
                    [bomber(["Germany", "Baltic States", KARELIA, "Archangel"], raid=True)])
    code, found, messages = check(capsys, orders)
    assert (code, found) == (1, ["AA208"])
    assert messages == ["Archangel holds no enemy factory to raid"]
    orders = combat(tmp_path, factory_only(unit("Archangel", R, "infantry")), [bomber(raid=True)])
    code, found, messages = check(capsys, orders)
    assert code == 0, messages


def test_bad_damage_dice_are_a_finding_never_a_crash(capsys, tmp_path: Path) -> None:
    raid_of(capsys, tmp_path, 2)
    for damage in ([7, 1], ["five"], [0, 2]):
        code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                                  "bombing": {"damage": damage}}]))
        assert code in (1, 2) and "MC003" in found, messages
        assert not any(c.startswith("AA") for c in found)


def test_aa524_revised_no_aa_gun_no_bomber_lost(capsys, tmp_path: Path) -> None:
    """Revised: only the territory's AA gun fires at raiders; with none there, no bomber falls."""
    battles_state(capsys, tmp_path, factory_only(), [bomber(BOMBER_REVISED)], rules="revised")
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "attacker_losses": {"bomber": 1}}]))
    assert (code, found) == (1, ["AA524"])
    assert messages == ["no AA gun defends Karelia S.S.R., so nothing fires at the raiders: the raid loses no bomber, "
                        "not 1 bomber"]
    code, found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "bombing": {"damage": 2}}]))
    assert code == 0, messages


def test_aa524_1942_the_factorys_own_aa_fires(capsys, tmp_path: Path) -> None:
    """1942 second edition: the factory's own AA shoots at the raiders even where no AA gun stands."""
    battles_state(capsys, tmp_path, factory_only(), [bomber()])
    code, _found, messages = check(capsys, results(tmp_path, [{"at": KARELIA, "kind": "raid",
                                                              "attacker_losses": {"bomber": 1}}]))
    assert code == 0, messages


def test_aa510_a_defending_fighter_may_not_land_where_the_raid_is_followed_by_a_capture(capsys,
                                                                                       tmp_path: Path) -> None:
    """Karelia S.S.R. changes hands this turn (after the raid on it): a British fighter whose carrier sank next
    to it may not land there; it may on a British carrier with a free slot in 6 Sea Zone."""
    units = factory_only(unit("Finland", G, "infantry"), unit("Germany", G, "fighter"),
                         unit("5 Sea Zone", "British", "carrier"), unit("5 Sea Zone", "British", "fighter"),
                         unit("6 Sea Zone", "British", "carrier"))
    battles_state(capsys, tmp_path, units, [bomber(raid=True), {"units": {"infantry": 1}, "path": ["Finland", KARELIA]},
                                            {"units": {"fighter": 1}, "path": ["Germany", "5 Sea Zone"]}])
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 1}}
    sea = {"at": "5 Sea Zone", "attacker_losses": {"fighter": 1}, "defender_losses": {"carrier": 1}}
    code, found, messages = check(capsys, results(tmp_path, [raid, {**sea, "defender_landing": [
        {"to": KARELIA, "units": {"fighter": 1}}]}]))
    assert (code, found) == (1, ["AA510"])
    assert "it changes hands this turn" in messages[0]
    code, found, messages = check(capsys, results(tmp_path, [raid, {**sea, "defender_landing": [
        {"to": "6 Sea Zone", "units": {"fighter": 1}}]}]))
    assert code == 0, messages


def test_the_json_apply_report_says_what_was_rolled_applied_and_cut(capsys, tmp_path: Path) -> None:
    from movecheck.schema import validate_data

    raid_of(capsys, tmp_path, 2, rules="revised")
    path = results(tmp_path, [{"at": KARELIA, "kind": "raid", "bombing": {"damage": [5, 1]}}])
    assert main(["apply", str(path), "--root", "/", "--isolated", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert validate_data("apply-report", report) == []
    assert report["bombing"] == [{"at": KARELIA, "rolled": 6, "dice": [5, 1], "applied": 3, "on": "ipcs",
                                  "owner": R, "cap": "each bomber's die counts at most 2, the IPC value of "
                                  "Karelia S.S.R."}]


def test_aa503_a_raid_has_no_retreat(capsys, tmp_path: Path) -> None:
    battles_state(capsys, tmp_path, factory_only(), [bomber()])
    raid = {"at": KARELIA, "kind": "raid", "bombing": {"damage": 2}}
    code, found, messages = check(capsys, results(tmp_path, [{**raid, "retreat": "Baltic States"}]))
    assert (code, found) == (1, ["AA503"])
    assert messages == ["bombers that raid Karelia S.S.R. do not retreat: a raid has one round, and they leave "
                        "after it"]
    code, found, messages = check(capsys, results(tmp_path, [raid]))
    assert code == 0, messages
