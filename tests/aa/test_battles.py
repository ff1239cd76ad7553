"""Battle results (aa.md, "Battle results"): the ``aa-battles`` file, its clauses AA501-AA506, and apply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from movecheck.cli import main
from tests.harness import yaml_data, yaml_text

from .test_apply import CAPITALS

ROOT = Path(__file__).resolve().parents[2]
BATTLES_STATE = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"
RESULTS = ROOT / "examples" / "aa" / "orders" / "g1-battles.yaml"

LEGAL = [
    {
        "at": "7 Sea Zone",
        "attacker_losses": {"cruiser": 1, "submarine": 2},
        "defender_losses": {"battleship": 1, "transport": 1},
    },
    {"at": "17 Sea Zone", "defender_losses": {"destroyer": 1}},
    {
        "at": "Belorussia",
        "attacker_losses": {"infantry": 2},
        "defender_losses": {"infantry": 1, "artillery": 1, "tank": 1},
    },
    {
        "at": "Caucasus",
        "attacker_losses": {"infantry": 2, "artillery": 1},
        "defender_losses": {"infantry": 3, "artillery": 1, "tank": 1, "aa_gun": 1},
    },
    {
        "at": "Egypt",
        "attacker_losses": {"infantry": 1},
        "defender_losses": {"infantry": 1, "artillery": 1, "tank": 1, "fighter": 1},
    },
    {"at": "Karelia S.S.R.", "attacker_losses": {"infantry": 2}, "defender_losses": {"infantry": 2, "fighter": 1}},
]


def results_file(tmp_path: Path, results: list[dict[str, Any]], state: Path = BATTLES_STATE, **head: Any) -> Path:
    data = {"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans", "phase": "battles", **head,
            "results": results}
    path = tmp_path / "results.yaml"
    path.write_text(yaml_text(data, sort_keys=False, allow_unicode=True))
    return path


def check_json(capsys, path: Path) -> tuple[int, dict[str, Any]]:
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated"])
    return code, json.loads(capsys.readouterr().out)


def codes(report: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(f["code"], f["order"]) for f in report["findings"]]


def with_result(at: str, **changes: Any) -> list[dict[str, Any]]:
    """The legal results with the one at ``at`` changed (a value None drops the key)."""
    results = []
    for result in LEGAL:
        entry = dict(result)
        if entry["at"] == at:
            entry.update(changes)
            entry = {k: v for k, v in entry.items() if v is not None}
        results.append(entry)
    return results


# -- the file --------------------------------------------------------------------------


def test_the_example_results_are_legal_and_judged_one_by_one(capsys):
    code, report = check_json(capsys, RESULTS)
    assert code == 0, report["findings"]
    entry = report["files"][0]
    assert entry["kind"] == "aa-battles"
    assert (entry["orders"], entry["legal"], entry["illegal"], entry["unchecked"]) == (6, 6, 0, 0)


def test_lint_knows_a_results_file_and_its_schema(capsys, tmp_path):
    bad = results_file(tmp_path, [{"at": "Egypt", "attacker_loses": {"infantry": 1}}])
    code = main(["lint", str(bad), "--format", "json", "--root", "/"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["files"][0]["kind"] == "aa-battles"
    assert [f["code"] for f in report["findings"]] == ["MC003"]
    assert "attacker_loses" in report["findings"][0]["message"]


def test_results_against_a_combat_state_do_not_match(capsys, tmp_path):
    path = results_file(tmp_path, LEGAL, state=ROOT / "examples" / "aa" / "states" / "g1-combat.yaml")
    code, report = check_json(capsys, path)
    assert code == 1
    assert ("MC006", None) in codes(report)
    assert report["files"][0]["unchecked"] == 6


def test_an_unknown_space_or_type_leaves_the_result_unchecked(capsys, tmp_path):
    results = with_result("Egypt", attacker_losses={"infantery": 1})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1
    assert codes(report) == [("MC004", 5)]
    assert "infantry" in report["findings"][0]["message"]  # did you mean
    assert report["files"][0]["unchecked"] == 1


# -- AA501 battle-unknown ---------------------------------------------------------------


def test_aa501_a_result_for_a_space_with_no_battle(capsys, tmp_path):
    results = [*LEGAL, {"at": "Poland", "defender_losses": {"infantry": 1}}]
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1
    assert codes(report) == [("AA501", 7)]
    assert "no battle in Poland" in report["findings"][0]["message"]


def test_aa501_a_battle_resolved_twice(capsys, tmp_path):
    results = [*LEGAL, dict(LEGAL[1])]
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA501", 7)]
    assert "already has a result" in report["findings"][0]["message"]


# -- AA502 losses-not-present -----------------------------------------------------------


def test_aa502_more_losses_than_fought(capsys, tmp_path):
    results = with_result("Belorussia", attacker_losses={"infantry": 2, "tank": 2})
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA502", 3)]
    assert "loses 2 tanks in Belorussia, but had 1 tank" in report["findings"][0]["message"]


def test_aa502_a_type_that_did_not_fight(capsys, tmp_path):
    results = with_result(
        "Egypt", defender_losses={"infantry": 1, "artillery": 1, "tank": 1, "fighter": 1, "bomber": 1}
    )
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA502", 5)]
    assert "had no bombers" in report["findings"][0]["message"]


def test_aa502_losses_that_fought_pass(capsys, tmp_path):
    results = with_result("Belorussia", attacker_losses={"infantry": 5, "artillery": 1}, defender_losses=None,
                          retreat=None)
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert "AA502" not in [c for c, _ in codes(report)]


# -- AA503 retreat-illegal --------------------------------------------------------------


def test_aa503_retreat_to_a_space_no_attacker_came_from(capsys, tmp_path):
    results = with_result("Caucasus", defender_losses={"infantry": 1}, retreat="West Russia")
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA503", 4)]
    assert "no attacking unit came from there (they came from Ukraine S.S.R.)" in report["findings"][0]["message"]


def test_aa503_amphibious_units_never_retreat_the_overland_ones_may(capsys, tmp_path):
    """1942 (partial_amphibious_retreat): the infantry that came from Libya retreats, the landed artillery and
    infantry stay in Egypt and fight on, so the battle must end for them (AA505, not AA503)."""
    results = with_result("Egypt", attacker_losses={"tank": 1}, defender_losses={"fighter": 1}, retreat="Libya")
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA505", 5)]
    message = report["findings"][0]["message"]
    assert "the attackers keep 1 artillery and 1 infantry there after the retreat, fighting on" in message


def test_aa503_a_sea_battle_retreats_to_a_sea_zone(capsys, tmp_path):
    results = with_result("17 Sea Zone", defender_losses=None, retreat="Egypt")
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA503", 2)]
    assert "a battle at sea retreats to a sea zone" in report["findings"][0]["message"]


def test_aa503_nothing_retreats_from_a_battle_lost_whole(capsys, tmp_path):
    results = with_result("Belorussia", attacker_losses={"infantry": 5, "artillery": 1, "tank": 1}, retreat="Poland")
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA503", 3)]


def test_aa503_retreat_to_where_the_attackers_came_from_passes(capsys, tmp_path):
    results = with_result(
        "Belorussia", attacker_losses={"infantry": 4}, defender_losses={"infantry": 1}, retreat="Poland"
    )
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 0, report["findings"]


# -- AA504 battle-unresolved ------------------------------------------------------------


def test_aa504_a_battle_without_a_result(capsys, tmp_path):
    results = [r for r in LEGAL if r["at"] != "Egypt"]
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1
    assert codes(report) == [("AA504", None)]
    assert report["findings"][0]["message"] == "the battle in Egypt has no result"


# -- AA505 battle-not-over --------------------------------------------------------------


def test_aa505_both_sides_left_and_no_retreat(capsys, tmp_path):
    results = with_result("Egypt", defender_losses={"infantry": 1})
    _code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA505", 5)]
    assert "the battle in Egypt is not over" in report["findings"][0]["message"]


def test_aa505_an_aa_gun_left_keeps_the_battle_going_under_1942(capsys, tmp_path):
    """1942 second edition: an AA gun is a defender, destroyed before the territory is taken."""
    results = with_result("Caucasus", defender_losses={"infantry": 3, "artillery": 1, "tank": 1})
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert codes(report) == [("AA505", 4)]
    assert "1 Russian AA gun" in report["findings"][0]["message"]
    # the verb agrees whatever the count: "1 Russian AA gun defend" read wrong
    assert "and the defenders 1 Russian AA gun (add losses or a retreat)" in report["findings"][0]["message"]
    code, report = check_json(capsys, results_file(tmp_path, LEGAL))  # its AA gun among the losses
    assert code == 0, report["findings"]


# -- AA506 submerge-not-allowed ---------------------------------------------------------


REVISED_STATE = """\
movecheck: 1
system: aa
rules: aa-revised
map: aa1942-2e
turn: {round: 1, power: Germans, phase: battles}
units:
  - {at: Germany, power: Germans, type: infantry}
  - {at: 7 Sea Zone, power: Germans, type: submarine, count: 2, moved: 2}
  - {at: 7 Sea Zone, power: British, type: destroyer}
  - {at: 7 Sea Zone, power: British, type: submarine}
""" + CAPITALS + """\
battles:
  - {at: 7 Sea Zone, attackers: {submarine: 2}, defenders: {destroyer: 1, submarine: 1}, from: [6 Sea Zone]}
"""


SUB_HUNT_1942 = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 1, power: Germans, phase: battles}
units:
  - {at: Germany, power: Germans, type: infantry}
  - {at: 7 Sea Zone, power: Germans, type: submarine, moved: 2}
  - {at: 7 Sea Zone, power: Germans, type: destroyer, moved: 2}
  - {at: 7 Sea Zone, power: British, type: submarine, count: 2}
""" + CAPITALS + """\
battles:
  - {at: 7 Sea Zone, attackers: {submarine: 1, destroyer: 1}, defenders: {submarine: 2}, from: [6 Sea Zone]}
"""


def sub_hunt(tmp_path: Path, *, options: str = "") -> Path:
    state = tmp_path / "sub-hunt.yaml"
    state.write_text(SUB_HUNT_1942.replace("map: aa1942-2e\n", "map: aa1942-2e\n" + options))
    return state


def test_aa506_a_sub_cannot_submerge_while_an_enemy_destroyer_is_left(capsys, tmp_path):
    results = [{"at": "7 Sea Zone", "defender_losses": {"submarine": 1}, "submerged": {"defender": 1}}]
    _code, report = check_json(capsys, results_file(tmp_path, results, state=sub_hunt(tmp_path)))
    assert codes(report) == [("AA506", 1)]
    assert "attacking destroyer" in report["findings"][0]["message"]


def test_aa506_a_sub_may_submerge_once_the_enemy_destroyer_is_sunk_under_aa1942(capsys, tmp_path):
    """The destroyer may have gone down in an earlier round: submerging is legal (1942 second edition too)."""
    results = [{"at": "7 Sea Zone", "attacker_losses": {"destroyer": 1}, "defender_losses": {"submarine": 1},
                "submerged": {"defender": 1}}]
    code, report = check_json(capsys, results_file(tmp_path, results, state=sub_hunt(tmp_path)))
    assert code == 0, report["findings"]


def test_aa506_no_submerging_when_the_option_is_off(capsys, tmp_path):
    state = sub_hunt(tmp_path, options="options: {subs_may_submerge: false}\n")
    results = [{"at": "7 Sea Zone", "attacker_losses": {"destroyer": 1}, "defender_losses": {"submarine": 1},
                "submerged": {"defender": 1}}]
    _code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert codes(report) == [("AA506", 1)]
    assert "subs_may_submerge" in report["findings"][0]["message"]


def test_aa506_submerging_under_revised_passes_and_the_sub_stays_submerged(capsys, tmp_path):
    state = tmp_path / "revised.yaml"
    state.write_text(REVISED_STATE)
    results = [{"at": "7 Sea Zone", "attacker_losses": {"submarine": 1}, "defender_losses": {"destroyer": 1},
                "submerged": {"defender": 1}}]
    path = results_file(tmp_path, results, state=state)
    code, report = check_json(capsys, path)
    assert code == 0, report["findings"]
    code = main(["apply", str(path), "--root", "/", "--isolated"])
    after = yaml_data(capsys.readouterr().out)
    assert code == 0
    british = [u for u in after["units"] if u["at"] == "7 Sea Zone" and u["power"] == "British"]
    assert british == [{"at": "7 Sea Zone", "power": "British", "type": "submarine", "submerged": True}]


def test_aa502_more_subs_submerge_than_survive(capsys, tmp_path):
    state = tmp_path / "revised.yaml"
    state.write_text(REVISED_STATE)
    results = [
        {
            "at": "7 Sea Zone",
            "attacker_losses": {"submarine": 1},
            "defender_losses": {"destroyer": 1, "submarine": 1},
            "submerged": {"defender": 1},
        }
    ]
    _code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert codes(report) == [("AA502", 1)]
    assert "submerge" in report["findings"][0]["message"]


# -- apply -----------------------------------------------------------------------------


def apply_results(capsys, path: Path) -> dict[str, Any]:
    code = main(["apply", str(path), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0, out
    return yaml_data(out)


def stacks(state: dict[str, Any], at: str, power: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for u in state["units"]:
        if u["at"] == at and u["power"] == power:
            found[u["type"]] = found.get(u["type"], 0) + u.get("count", 1)
    return found


def test_apply_removes_losses_captures_and_marks_the_survivors(capsys):
    after = apply_results(capsys, RESULTS)
    assert after["turn"] == {"round": 1, "power": "Germans", "phase": "noncombat_move"}
    assert "battles" not in after
    assert after["captured_this_turn"] == ["Archangel", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."]
    assert after["control"] == {
        "Archangel": "Germans",
        "Caucasus": "Germans",
        "Egypt": "Germans",
        "Karelia S.S.R.": "Germans",
    }
    assert stacks(after, "Caucasus", "Germans") == {"bomber": 1, "factory": 1, "fighter": 1, "infantry": 1, "tank": 1}
    assert stacks(after, "Caucasus", "Russians") == {}
    assert stacks(after, "7 Sea Zone", "British") == {}
    assert stacks(after, "7 Sea Zone", "Germans") == {"fighter": 1, "submarine": 2}
    fought = [
        u for u in after["units"] if u["at"] == "Karelia S.S.R." and u["power"] == "Germans" and u["type"] != "factory"
    ]
    assert fought and all(u.get("fought") is True for u in fought)
    assert not any(u.get("fought") for u in after["units"] if u["power"] != "Germans")


def test_apply_moves_every_survivor_of_a_retreat_and_captures_nothing(capsys, tmp_path):
    results = with_result(
        "Belorussia", attacker_losses={"infantry": 4}, defender_losses={"infantry": 1}, retreat="Poland"
    )
    after = apply_results(capsys, results_file(tmp_path, results))
    assert stacks(after, "Belorussia", "Germans") == {}
    assert stacks(after, "Belorussia", "Russians") == {"artillery": 1, "tank": 1}
    assert stacks(after, "Poland", "Germans") == {"artillery": 1, "fighter": 1, "infantry": 1, "tank": 1}
    assert "Belorussia" not in after["captured_this_turn"]
    assert after["control"]["Belorussia"] == "Russians"
    retreated = [u for u in after["units"] if u["at"] == "Poland" and u["type"] != "fighter"]
    assert all(u["fought"] is True and u["moved"] == 1 for u in retreated)


def test_illegal_results_write_nothing(capsys, tmp_path):
    out = tmp_path / "next.yaml"
    path = results_file(tmp_path, with_result("Egypt", defender_losses={"infantry": 1}))
    code = main(["apply", str(path), "-o", str(out), "--root", "/", "--isolated"])
    assert code == 1
    assert "AA505" in capsys.readouterr().out
    assert not out.exists()


@pytest.mark.parametrize("name", ["g1-battles.yaml"])
def test_applied_results_lint_clean(capsys, tmp_path, name):
    out = tmp_path / "noncombat.yaml"
    assert main(["apply", str(RESULTS), "-o", str(out), "--root", "/", "--isolated"]) == 0
    capsys.readouterr()
    code = main(["lint", str(out), "--root", "/", "--isolated"])
    assert code == 0 and "0 errors, 0 warnings" in capsys.readouterr().out


def test_a_result_the_schema_rejects_is_not_judged(capsys, tmp_path):
    results = with_result("Egypt", attacker_losses=[1])
    code, report = check_json(capsys, results_file(tmp_path, results))
    assert code == 1
    assert codes(report) == [("MC003", 5)]  # no AA505 from a result read as if it had no losses
    assert report["files"][0]["unchecked"] == 1


def test_aa503_a_hand_written_battle_without_from_allows_no_retreat(capsys, tmp_path):
    state = tmp_path / "revised.yaml"
    state.write_text(REVISED_STATE.replace(", from: [6 Sea Zone]", ""))
    results = [{"at": "7 Sea Zone", "attacker_losses": {"submarine": 1}, "retreat": "6 Sea Zone"}]
    _code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert codes(report) == [("AA503", 1)]
    assert "does not say where the attackers came from" in report["findings"][0]["message"]


def test_results_for_another_power_do_not_match(capsys, tmp_path):
    code, report = check_json(capsys, results_file(tmp_path, LEGAL, power="British"))
    assert code == 1
    assert codes(report) == [("MC006", None)]
    assert "the results are for the British" in report["findings"][0]["message"]


def test_unknown_names_in_a_battles_state_are_mc004_and_leave_the_results_unchecked(tmp_path, capsys):
    """A typo in ``battles:`` (its space, ``from``, a unit type) is an input problem, never silently dropped."""
    state = yaml_data(BATTLES_STATE.read_text())
    battle = state["battles"][0]
    battle["from"] = ["Karella", *battle.get("from", [])]
    battle["attackers"] = {"tnak": 1, **battle["attackers"]}
    state["battles"].append({"at": "Atlantis", "attackers": {"infantry": 1}, "defenders": {"infantry": 1}})
    bad_state = tmp_path / "battles.yaml"
    bad_state.write_text(yaml_text(state, sort_keys=False, allow_unicode=True))
    assert main(["lint", str(bad_state), "--format", "json", "--isolated"]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    messages = sorted(f["message"] for f in found if f["code"] == "MC004")
    assert len(messages) == 3
    assert any("'Karella'" in m and "Karelia S.S.R." in m for m in messages)
    assert any("'tnak'" in m and "'tank'" in m for m in messages)
    assert any("'Atlantis'" in m for m in messages)
    code, report = check_json(capsys, results_file(tmp_path, LEGAL, state=bad_state))
    assert code == 1
    assert report["summary"]["legal_orders"] == 0


def test_a_clean_battles_state_lints_clean(capsys):
    assert main(["lint", str(BATTLES_STATE), "--isolated"]) == 0


# -- casualties named by id ------------------------------------------------------------

NAMED_SUBS = SUB_HUNT_1942.replace(
    "  - {at: 7 Sea Zone, power: British, type: submarine, count: 2}\n",
    "  - {at: 7 Sea Zone, power: British, type: submarine, id: HMS-Alpha}\n"
    "  - {at: 7 Sea Zone, power: British, type: submarine, id: HMS-Beta}\n",
)


def named_state(tmp_path: Path) -> Path:
    state = tmp_path / "named.yaml"
    state.write_text(NAMED_SUBS)
    return state


def test_a_casualty_named_by_id_is_the_one_removed(capsys, tmp_path):
    """``defender_losses: {HMS-Alpha: 1}``: the referee picks which submarine goes down, not apply."""
    results = [{"at": "7 Sea Zone", "defender_losses": {"HMS-Alpha": 1, "submarine": 1}}]
    path = results_file(tmp_path, results, state=named_state(tmp_path))
    code, report = check_json(capsys, path)
    assert code == 0, report["findings"]
    results = [{"at": "7 Sea Zone", "attacker_losses": {"destroyer": 1}, "defender_losses": {"HMS-Alpha": 1},
                "submerged": {"defender": 1}}]
    after = apply_results(capsys, results_file(tmp_path, results, state=named_state(tmp_path)))
    british = [u for u in after["units"] if u["power"] == "British" and u["at"] == "7 Sea Zone"]
    assert british == [
        {"at": "7 Sea Zone", "power": "British", "type": "submarine", "id": "HMS-Beta", "submerged": True}
    ]


def test_aa502_a_casualty_named_by_id_must_have_fought_for_that_side(capsys, tmp_path):
    state = named_state(tmp_path)
    results = [{"at": "7 Sea Zone", "attacker_losses": {"HMS-Alpha": 1}, "defender_losses": {"submarine": 2}}]
    _code, report = check_json(capsys, results_file(tmp_path, results, state=state))
    assert ("AA502", 1) in codes(report)
    assert any("HMS-Alpha did not fight for the attacker" in f["message"] for f in report["findings"])


def test_an_id_counts_one_unit(capsys, tmp_path):
    results = [{"at": "7 Sea Zone", "defender_losses": {"HMS-Alpha": 2}}]
    code, report = check_json(capsys, results_file(tmp_path, results, state=named_state(tmp_path)))
    assert code == 1
    assert [f["code"] for f in report["findings"]] == ["MC003"]
    assert "write HMS-Alpha: 1" in report["findings"][0]["message"]
    assert report["summary"]["unchecked_orders"] == 1
