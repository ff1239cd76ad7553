"""Mobilization files (spec aa-turn.md, "Mobilization"): AA701-AA709, bad input, the kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from movecheck.cli import main
from tests.harness import yaml_data, yaml_text

ROOT = Path(__file__).resolve().parents[2]
SETUP = json.loads((ROOT / "movecheck" / "aa" / "maps" / "aa1942-2e.json").read_text(encoding="utf-8"))["units"]


def state_file(tmp_path: Path, purchased: dict[str, int] | None = None, extra: list[dict[str, Any]] | None = None,
               **head: Any) -> Path:
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": "aa1942-2e",
                            "turn": {"round": 1, "power": "Germans", "phase": "mobilize"}}
    data.update(head)
    if purchased:
        data["purchased"] = purchased
    data["units"] = [dict(u) for u in SETUP] + list(extra or [])
    path = tmp_path / "state.yaml"
    path.write_text(yaml_text(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def place_file(tmp_path: Path, state: Path, place: list[dict[str, Any]], **head: Any) -> Path:
    data = {"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans", "phase": "mobilize", **head,
            "place": place}
    path = tmp_path / "place.yaml"
    path.write_text(yaml_text(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def check(capsys, path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated", *extra])
    return code, json.loads(capsys.readouterr().out)


def codes(report: dict[str, Any]) -> list[str]:
    return [f["code"] for f in report["findings"]]


def run(capsys, tmp_path: Path, place: list[dict[str, Any]], purchased: dict[str, int] | None = None,
        extra: list[dict[str, Any]] | None = None, options: tuple[str, ...] = (), **head: Any) -> tuple[int, dict]:
    state = state_file(tmp_path, purchased, extra, **head)
    return check(capsys, place_file(tmp_path, state, place), *options)


# -- the kind --------------------------------------------------------------------------------


def test_a_mobilization_is_its_own_kind_and_legal(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"inf": 3, "arm": 1}}], {"infantry": 3, "tank": 1})
    assert code == 0, report["findings"]
    entry = report["files"][0]
    assert entry["kind"] == "aa-mobilize"
    assert (entry["orders"], entry["legal"]) == (1, 1)


def test_an_empty_mobilization_is_legal(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [])
    assert code == 0 and report["findings"] == []


def test_the_system_lists_the_mobilization_among_its_orders_kinds() -> None:
    from movecheck.aa import SYSTEM

    assert "mobilize" in SYSTEM.orders_kinds
    assert SYSTEM.orders_key_of("aa-mobilize") == "place"


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(("place", "code"), [
    ([{"at": "Germany", "units": {"panzer": 1}}], "MC004"),
    ([{"at": "Germany", "units": {"infantry": -1}}], "MC003"),
    ([{"at": "Germany", "units": {"infantry": 1.5}}], "MC003"),
    ([{"at": "Atlantis", "units": {"infantry": 1}}], "MC004"),
    ([{"at": "5 Sea Zone", "units": {"carrier": 1}, "fighters_from": {"Nowhere": 1}}], "MC004"),
], ids=["unknown-unit", "negative", "float", "not-a-space", "fighters-from-unknown"])
def test_bad_input_is_a_finding_and_nothing_is_checked(capsys, tmp_path: Path, place, code) -> None:
    status, report = run(capsys, tmp_path, place, {"infantry": 3, "carrier": 1})
    assert status == 1
    assert code in codes(report)
    assert not any(c.startswith("AA") for c in codes(report))
    assert report["files"][0]["unchecked"] == 1
    finding = next(f for f in report["findings"] if f["code"] == code)
    assert finding["line"] > 1 and finding["column"] >= 1


def test_a_file_for_another_power_or_phase(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, {"infantry": 1})
    code, report = check(capsys, place_file(tmp_path, state, [{"at": "Germany", "units": {"inf": 1}}], power="UK"))
    assert code == 1 and codes(report) == ["MC006"]
    state = state_file(tmp_path, {"infantry": 1}, turn={"round": 1, "power": "Germans", "phase": "noncombat_move"})
    code, report = check(capsys, place_file(tmp_path, state, [{"at": "Germany", "units": {"inf": 1}}]))
    assert code == 1 and codes(report) == ["MC006"]
    assert "mobilize phase" in report["findings"][0]["message"]


# -- AA701 ------------------------------------------------------------------------------------


def test_aa701_more_placed_than_bought(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 2}}], {"tank": 1})
    assert code == 1 and codes(report) == ["AA701"]
    assert report["findings"][0]["message"] == "2 tanks placed, but 1 tank waiting to be placed"


def test_aa701_units_waiting_from_an_earlier_turn_count(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 2}}], {"tank": 1},
                       to_place={"Germans": {"tank": 1}})
    assert code == 0, report["findings"]


# -- AA702 ------------------------------------------------------------------------------------


def test_aa702_no_factory(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Poland", "units": {"infantry": 1}}], {"infantry": 1})
    assert code == 1 and codes(report) == ["AA702"]
    assert "no factory of the Germans in Poland" in report["findings"][0]["message"]


def test_aa702_a_factory_captured_this_turn(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, {"infantry": 1}, control={"Karelia S.S.R.": "Germans"},
                       captured_this_turn=["Karelia S.S.R."])
    data = yaml_data(state.read_text(encoding="utf-8"))
    for unit in data["units"]:
        if unit["at"] == "Karelia S.S.R.":
            unit["power"] = "Germans"  # the factory changed hands with the territory
    state.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    code, report = check(capsys, place_file(tmp_path, state, [{"at": "Karelia", "units": {"infantry": 1}}]))
    assert code == 1 and codes(report) == ["AA702"]
    assert report["findings"][0]["message"] == (
        "Karelia S.S.R. changed hands this turn: its factory mobilizes from the next turn of the Germans")


def test_aa702_land_units_at_sea(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"infantry": 1}}], {"infantry": 1})
    assert code == 1 and codes(report) == ["AA702"]


# -- AA703 ------------------------------------------------------------------------------------


def test_aa703_over_capacity(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Italy", "units": {"infantry": 4}}], {"infantry": 4})
    assert code == 1 and codes(report) == ["AA703"]
    assert "at most 3 units (IPC value 3)" in report["findings"][0]["message"]


def test_aa703_damage_lowers_capacity(capsys, tmp_path: Path) -> None:
    units = [dict(u) for u in SETUP if not (u["at"] == "Italy" and u["type"] == "factory")]
    units.append({"at": "Italy", "power": "Germans", "type": "factory", "damage": 1})
    state = state_file(tmp_path, {"infantry": 3})
    data = yaml_data(state.read_text(encoding="utf-8"))
    data["units"] = units
    state.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    code, report = check(capsys, place_file(tmp_path, state, [{"at": "Italy", "units": {"infantry": 3}}]))
    assert code == 1 and codes(report) == ["AA703"]
    assert "IPC value 3 less 1 damage" in report["findings"][0]["message"]


SOUTHERN_FACTORY = [{"at": "Southern Europe", "power": "Germans", "type": "factory"}]


def test_aa703_a_sea_zone_draws_on_whichever_factory_has_room(capsys, tmp_path: Path) -> None:
    # 15 Sea Zone borders Italy (3) and Southern Europe (2): 3 infantry fill Italy, the 2 ships go on Southern Europe
    place = [{"at": "SZ 15", "units": {"destroyer": 2}}, {"at": "Italy", "units": {"infantry": 3}}]
    code, report = run(capsys, tmp_path, place, {"infantry": 3, "destroyer": 2}, extra=SOUTHERN_FACTORY)
    assert code == 0, report["findings"]


def test_aa703_no_assignment_fits(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 15", "units": {"destroyer": 3}}, {"at": "Italy", "units": {"infantry": 3}}]
    code, report = run(capsys, tmp_path, place, {"infantry": 3, "destroyer": 3}, extra=SOUTHERN_FACTORY)
    assert code == 1 and codes(report) == ["AA703"]


def test_aa703_from_pins_the_factory(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 15", "units": {"destroyer": 2}, "from": "Italy"}, {"at": "Italy", "units": {"infantry": 3}}]
    code, report = run(capsys, tmp_path, place, {"infantry": 3, "destroyer": 2}, extra=SOUTHERN_FACTORY)
    assert code == 1 and codes(report) == ["AA703"]


# -- AA704 ------------------------------------------------------------------------------------


def test_aa704_a_zone_far_from_the_factories(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 7", "units": {"destroyer": 1}}], {"destroyer": 1})
    assert code == 1 and codes(report) == ["AA704"]


def test_aa704_ships_in_a_territory(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"destroyer": 1}}], {"destroyer": 1})
    assert code == 1 and codes(report) == ["AA704"]


ENEMY_IN_5 = [{"at": "5 Sea Zone", "power": "British", "type": "destroyer"}]


def test_aa704_a_zone_with_enemy_units_under_both_editions(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"destroyer": 1}}]
    code, report = run(capsys, tmp_path, place, {"destroyer": 1}, extra=ENEMY_IN_5)
    assert code == 0, report["findings"]
    code, report = run(capsys, tmp_path, place, {"destroyer": 1}, extra=ENEMY_IN_5,
                       options=("--option", "aa.place_in_enemy_seas=false"))
    assert code == 1 and codes(report) == ["AA704"]
    assert "place_in_enemy_seas is off" in report["findings"][0]["message"]


# -- AA705 ------------------------------------------------------------------------------------


def test_aa705_a_new_fighter_on_a_new_carrier(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 2}}],
                       {"carrier": 1, "fighter": 2})
    assert code == 0, report["findings"]


def test_aa705_a_new_fighter_with_no_carrier(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"fighter": 1}}], {"fighter": 1})
    assert code == 1 and codes(report) == ["AA705"]


def test_aa705_more_fighters_than_slots(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 3}}],
                       {"carrier": 1, "fighter": 3})
    assert code == 1 and codes(report) == ["AA705"]


OLD_CARRIER = [{"at": "5 Sea Zone", "power": "Germans", "type": "carrier"}]


def test_aa705_a_carrier_already_there_takes_new_fighters_where_the_edition_allows(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"fighter": 2}}], {"fighter": 2}, extra=OLD_CARRIER)
    assert code == 0, report["findings"]
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"fighter": 2}}], {"fighter": 2}, extra=OLD_CARRIER,
                       options=("--option", "aa.new_fighters_on_old_carriers=false"))
    assert code == 1 and codes(report) == ["AA705"]


def test_aa705_an_allied_carrier_takes_no_new_fighter(capsys, tmp_path: Path) -> None:
    allied = [{"at": "5 Sea Zone", "power": "Japanese", "type": "carrier"}]
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"fighter": 1}}], {"fighter": 1}, extra=allied)
    assert code == 1 and codes(report) == ["AA705"]


# -- AA706 ------------------------------------------------------------------------------------


def test_aa706_a_new_factory(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Finland", "units": {"factory": 1}}], {"factory": 1})
    assert code == 0, report["findings"]


def test_aa706_a_second_factory(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"factory": 1}}], {"factory": 1})
    assert code == 1 and codes(report) == ["AA706"]
    assert "already has a factory" in report["findings"][0]["message"]


def test_aa706_a_territory_not_held(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Karelia", "units": {"factory": 1}}], {"factory": 1})
    assert code == 1 and codes(report) == ["AA706"]


def test_aa706_a_worthless_territory_is_a_warning(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Gibraltar", "units": {"factory": 1}}], {"factory": 1},
                       control={"Gibraltar": "Germans"})
    assert code == 0
    assert codes(report) == ["AA706"] and report["findings"][0]["severity"] == "warning"
    assert "worth 0 IPCs" in report["findings"][0]["message"]


# -- AA707 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("how", "words"), [
    ("refunded", "their cost, 6 IPCs, is refunded"), ("lost", "they are lost"), ("kept", "they wait under to_place:")])
def test_aa707_units_left_unplaced(capsys, tmp_path: Path, how: str, words: str) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 1}}], {"tank": 2},
                       options=("--option", f"aa.unplaced_units={how}"))
    assert code == 0
    assert codes(report) == ["AA707"]
    assert report["findings"][0]["severity"] == "warning"
    assert words in report["findings"][0]["message"]


# -- AA708 ------------------------------------------------------------------------------------


WAITING_FIGHTER = [{"at": "5 Sea Zone", "power": "Germans", "type": "fighter", "moved": 3}]


def test_aa708_a_fighter_waiting_for_a_carrier_placed_elsewhere(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 15", "units": {"carrier": 1}}], {"carrier": 1},
                       extra=WAITING_FIGHTER)
    assert code == 0
    assert codes(report) == ["AA708"]
    assert "1 fighter waiting in 5 Sea Zone" in report["findings"][0]["message"]


def test_aa708_the_carrier_placed_under_it(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1}}], {"carrier": 1},
                       extra=WAITING_FIGHTER)
    assert code == 0 and codes(report) == []


# -- AA709 ------------------------------------------------------------------------------------


REVISED = ("--option", "aa.move_existing_fighters_to_new_carriers=true")


def test_aa709_fighters_of_the_factory_board_the_new_carrier(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1}, options=REVISED)
    assert code == 0, report["findings"]


def test_aa709_not_under_the_1942_rules(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1})
    assert code == 1 and codes(report) == ["AA709"]


def test_aa709_more_fighters_than_stand_there(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 2}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1}, options=REVISED)
    assert code == 1 and codes(report) == ["AA709"]
    assert "but 1 fighter stand there" in report["findings"][0]["message"]


def test_aa709_more_fighters_than_slots(capsys, tmp_path: Path) -> None:
    extra = [{"at": "Germany", "power": "Germans", "type": "fighter", "count": 2}]
    place = [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 1}, "fighters_from": {"Germany": 2}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1, "fighter": 1}, extra=extra, options=REVISED)
    assert code == 1 and codes(report) == ["AA709"]
    assert "they have 1 free slots" in report["findings"][0]["message"]


def test_aa709_from_a_territory_that_is_not_the_factory(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Norway": 1}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1}, options=REVISED)
    assert code == 1 and codes(report) == ["AA709"]


def test_a_huge_count_is_judged_at_once(capsys, tmp_path: Path) -> None:
    """The capacity search never walks a count unit by unit beyond what the factories could take."""
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"infantry": 90_000}}], {"infantry": 90_000})
    assert code == 1 and codes(report) == ["AA703"]
    assert "the placements need 90000 from it" in report["findings"][0]["message"]


def test_more_units_than_the_limit_is_an_input_problem(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "Germany", "units": {"infantry": 10**20}}], {"infantry": 1})
    assert code == 1 and codes(report) == ["MC008"]
    assert report["files"][0]["unchecked"] == 1


@pytest.mark.parametrize("place", [[{"at": "Germany", "units": [1, 2]}],
                                   [{"at": "Germany", "units": {"inf": 1}, "fighters_from": "x"}]],
                         ids=["units-a-list", "fighters-from-text"])
def test_a_placement_the_schema_refuses_leaves_the_file_unchecked(capsys, tmp_path: Path, place) -> None:
    code, report = run(capsys, tmp_path, place, {"infantry": 1})
    assert code == 1 and codes(report) == ["MC003"]  # no AA707 or other clause on a file not read
    assert report["files"][0]["unchecked"] == 1


# -- AA705/AA708/AA709: the whole file counts together (issue 35) -------------------------------------


STANDING = [{"at": "Germany", "power": "Germans", "type": "fighter", "count": 2}]  # with the map's one: 3


@pytest.mark.parametrize("reverse", [False, True], ids=["carrier-first", "fighters-first"])
def test_aa709_moved_and_new_fighters_share_the_zone_slots(capsys, tmp_path: Path, reverse: bool) -> None:
    """One new carrier takes two fighters of Germany, a second entry places two new fighters in the same zone:
    four fighters on two slots is an error, whichever entry comes first."""
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 2}},
             {"at": "SZ 5", "units": {"fighter": 2}}]
    code, report = run(capsys, tmp_path, place[::-1] if reverse else place, {"carrier": 1, "fighter": 2},
                       extra=STANDING, options=REVISED)
    assert code == 1
    assert sorted(codes(report)) == ["AA709"]
    assert "2 fighters move onto the carriers in 5 Sea Zone, but they have 0 free slots" in \
        report["findings"][0]["message"]


@pytest.mark.parametrize("reverse", [False, True], ids=["carrier-first", "fighters-first"])
def test_aa709_moved_and_new_fighters_that_fit_are_legal(capsys, tmp_path: Path, reverse: bool) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}},
             {"at": "SZ 5", "units": {"fighter": 1}}]
    code, report = run(capsys, tmp_path, place[::-1] if reverse else place, {"carrier": 1, "fighter": 1},
                       extra=STANDING, options=REVISED)
    assert code == 0, report["findings"]
    assert report["files"][0]["legal"] == 2


def test_aa709_two_entries_cannot_move_the_same_fighter(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}},
             {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 2}, options=REVISED)
    assert code == 1 and codes(report) == ["AA709"]
    finding = report["findings"][0]
    assert finding["order"] == 2
    assert finding["message"].startswith("2 fighters move from Germany in all the entries, but 1 fighter stand there")


def test_aa709_two_entries_moving_different_fighters(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}},
             {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 2}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 2}, extra=STANDING, options=REVISED)
    assert code == 0, report["findings"]


def test_aa709_fighters_placed_this_phase_are_not_moved_on(capsys, tmp_path: Path) -> None:
    place = [{"at": "Germany", "units": {"fighter": 1}},
             {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 2}}]
    code, report = run(capsys, tmp_path, place, {"carrier": 1, "fighter": 1}, options=REVISED)
    assert code == 1 and codes(report) == ["AA709"]
    assert "but 1 fighter stand there" in report["findings"][0]["message"]


def test_aa708_a_waiting_fighter_takes_its_slot_before_new_fighters(capsys, tmp_path: Path) -> None:
    """The fighter that waited for the bought carrier is seated first; two new fighters then find one slot."""
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 2}}],
                       {"carrier": 1, "fighter": 2}, extra=WAITING_FIGHTER)
    assert code == 1 and codes(report) == ["AA705"]
    message = report["findings"][0]["message"]
    assert "2 fighters placed in 5 Sea Zone" in message and "have 1 free slots" in message
    assert "1 fighter waiting there for a bought carrier took theirs first" in message


def test_aa708_a_waiting_fighter_and_one_new_fighter_fit(capsys, tmp_path: Path) -> None:
    code, report = run(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 1}}],
                       {"carrier": 1, "fighter": 1}, extra=WAITING_FIGHTER)
    assert code == 0 and codes(report) == []
