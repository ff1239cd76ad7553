"""The treasury (aa-turn.md, "Treasury"): ``ipcs:`` in states and maps, written by every apply, and the
JSON apply report (``apply --format json``, schema ``apply-report``)."""

from __future__ import annotations

import json
from pathlib import Path

from movecheck.aa.maps import builtin_map
from movecheck.cli import main
from movecheck.schema import load_schema
from tests.harness import yaml_data

from .next_state_helpers import apply, check, codes, lints_clean, orders_text, state_text, write

FACTORY = "{at: Germany, power: Germans, type: factory}"
START = {"Russians": 24, "Germans": 41, "British": 31, "Japanese": 30, "Americans": 42}


def noncombat(tmp_path: Path, units: list[str], head: str = "") -> Path:
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY, *units], head=head))
    return write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move", []))


def report_of(capsys, orders: Path, *extra: str) -> dict:
    code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json", *extra])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def valid(report: dict) -> bool:
    import jsonschema

    jsonschema.validate(report, load_schema("apply-report"))
    return True


def test_the_built_in_maps_carry_the_starting_treasuries():
    assert builtin_map("aa1942-2e")["ipcs"] == START
    assert builtin_map("aa-revised")["ipcs"] == {"Russians": 24, "Germans": 40, "British": 30, "Japanese": 30,
                                                 "Americans": 42}


def test_a_round_1_state_without_ipcs_takes_the_map_s_and_apply_writes_them(capsys, tmp_path):
    code, text = apply(capsys, noncombat(tmp_path, []))
    assert code == 0, text
    state = yaml_data(text)
    assert state["ipcs"] == START
    assert list(state)[:6] == ["movecheck", "system", "map", "turn", "ipcs", "units"]
    (tmp_path / "next.yaml").write_text(text)
    lints_clean(capsys, tmp_path / "next.yaml")


def test_the_state_s_ipcs_pass_through_apply_with_names_players_type(capsys, tmp_path):
    code, text = apply(capsys, noncombat(tmp_path, [], head="ipcs: {Germans: 12, UK: 5}\n"))
    assert code == 0, text
    assert yaml_data(text)["ipcs"] == {"Russians": 0, "Germans": 12, "British": 5, "Japanese": 0, "Americans": 0}


def test_a_later_round_without_ipcs_writes_none(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY]).replace("round: 1", "round: 2"))
    code, text = apply(capsys, write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move", [])))
    assert code == 0, text
    assert "ipcs" not in yaml_data(text)


def test_an_unknown_power_in_ipcs_is_mc004_at_its_key(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY], head="ipcs: {Italians: 3}\n"))
    code, report = check(capsys, write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move", [])))
    assert code == 1 and "MC004" in codes(report)
    found = next(f for f in report["findings"] if f["code"] == "MC004")
    assert "Italians" in found["message"] and found["line"] == 4


def test_purchase_and_mobilize_are_phases_of_a_state(capsys, tmp_path):
    for phase in ("purchase", "mobilize"):
        path = write(tmp_path, f"{phase}.yaml", state_text("Germans", phase, [FACTORY]))
        lints_clean(capsys, path)


# -- the JSON apply report -------------------------------------------------------------------


def test_the_json_report_lists_the_aircraft_destroyed(capsys, tmp_path):
    """Issue 23: an aircraft AA308 says will be destroyed is removed, and the header and the JSON report list it."""
    orders = noncombat(tmp_path, ["{at: 7 Sea Zone, power: Germans, type: fighter, id: JG-1}",
                                  "{at: 7 Sea Zone, power: Germans, type: fighter}"])
    report = report_of(capsys, orders)
    assert report["destroyed"] == [{"type": "fighter", "power": "Germans", "at": "7 Sea Zone", "id": "JG-1"},
                                   {"type": "fighter", "power": "Germans", "at": "7 Sea Zone"}]
    assert report["written"] is None and report["turn"] == {"round": 1, "power": "Germans", "phase": "mobilize"}
    state = yaml_data(report["text"])
    assert not [u for u in state["units"] if u["at"] == "7 Sea Zone"]
    assert "#   JG-1 in 7 Sea Zone" in report["text"].splitlines()
    assert report["ipcs"] == START and valid(report)


def test_the_json_report_with_o_writes_the_state_there(capsys, tmp_path):
    out = tmp_path / "next.yaml"
    report = report_of(capsys, noncombat(tmp_path, []), "-o", str(out))
    assert report["written"] == str(out) and "text" not in report
    assert yaml_data(out.read_text())["ipcs"] == START
    assert valid(report)


def test_illegal_orders_under_json_print_the_check_report(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY]))
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move",
                                                   ["{unit: inf, from: Germany, to: Russia}"]))
    code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["findings"]


def test_the_apply_report_schema_is_shipped(capsys):
    assert main(["schema", "apply-report"]) == 0
    assert json.loads(capsys.readouterr().out)["$id"] == "https://movecheck.dev/schemas/apply-report/v1.json"


# -- capitals: a capital taken takes its power's IPCs at once ------------------------------------

ALL_BUT_RUSSIANS = ("Germans", "British", "Japanese", "Americans")


def test_a_capital_taken_in_the_combat_move_takes_the_ipcs_at_once(capsys, tmp_path):
    """Russia holds only a factory: the tank takes it in the combat move, and the Russian 24 IPCs with it."""
    units = ["{at: West Russia, power: Germans, type: tank}", "{at: Russia, power: Russians, type: factory}"]
    write(tmp_path, "s.yaml", state_text("Germans", "combat_move", units, garrison=ALL_BUT_RUSSIANS,
                                         head="control: {West Russia: Germans}\n"))
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "combat_move",
                                                   ["{units: {tank: 1}, path: [West Russia, Russia]}"]))
    code, text = apply(capsys, orders)
    assert code == 0, text
    state = yaml_data(text)
    assert state["ipcs"]["Russians"] == 0 and state["ipcs"]["Germans"] == 41 + 24
    assert "# ipcs: the Germans take 24 IPCs of the Russians: their capital Russia was taken." in text.splitlines()
    report = report_of(capsys, orders)
    assert report["transfers"] == [{"from": "Russians", "to": "Germans", "amount": 24,
                                    "reason": "their capital Russia was taken", "at": "Russia"}]
    assert report["captured"] == [{"at": "Russia", "by": "Germans", "holder": "Germans", "was": "Russians",
                                   "liberated": False}]
    assert valid(report)


def test_a_capital_taken_in_battle_takes_the_ipcs_when_the_results_are_applied(capsys, tmp_path):
    units = ["{at: West Russia, power: Germans, type: tank, count: 2}", "{at: Russia, power: Russians, type: infantry}"]
    write(tmp_path, "s.yaml", state_text("Germans", "combat_move", units, garrison=ALL_BUT_RUSSIANS,
                                         head="control: {West Russia: Germans}\n"))
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "combat_move",
                                                   ["{units: {tank: 2}, path: [West Russia, Russia]}"]))
    code, text = apply(capsys, orders)
    assert code == 0, text
    assert yaml_data(text)["ipcs"]["Russians"] == 24  # not yet: the battle is still to be fought
    (tmp_path / "b.yaml").write_text(text)
    results = write(tmp_path, "r.yaml", orders_text("b.yaml", "Germans", "battles",
                                                    ["{at: Russia, defender_losses: {infantry: 1}}"]))
    report = report_of(capsys, results)
    assert report["ipcs"]["Russians"] == 0 and report["ipcs"]["Germans"] == 65
    assert [t["amount"] for t in report["transfers"]] == [24]
    assert "# ipcs: the Germans take 24 IPCs of the Russians" in report["text"]


def test_liberating_a_capital_moves_no_ipcs(capsys, tmp_path):
    """The Germans hold Russia (with their IPCs); a British tank frees it: it returns to the Russians, no IPCs move."""
    units = ["{at: Caucasus, power: British, type: tank}", "{at: Russia, power: Germans, type: factory}"]
    write(tmp_path, "s.yaml", state_text("British", "combat_move", units, garrison=ALL_BUT_RUSSIANS,
                                         head="ipcs: {Russians: 0, Germans: 65, British: 31}\n"
                                              "control: {Russia: Germans, Caucasus: British}\n"))
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "British", "combat_move",
                                                   ["{units: {tank: 1}, path: [Caucasus, Russia]}"]))
    report = report_of(capsys, orders)
    assert report["transfers"] == []
    assert report["ipcs"] == {"Russians": 0, "Germans": 65, "British": 31, "Japanese": 0, "Americans": 0}
    assert report["captured"] == [
        {"at": "Russia", "by": "British", "holder": "Russians", "was": "Germans", "liberated": True},
        # the British-held Caucasus returns with the capital: said too (issue 35)
        {"at": "Caucasus", "by": "British", "holder": "Russians", "was": "British", "liberated": True}]
    assert "# Russia: liberated for the Russians by the British (held by the Germans before)." in report["text"]


def test_another_system_s_apply_report_says_what_was_read_and_written(capsys):
    root = Path(__file__).resolve().parents[2]
    code = main(["apply", str(root / "examples" / "maneuver" / "corps-orders.yaml"), "--isolated", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["system"] == "maneuver" and report["text"].startswith("# Written by movecheck apply")
    assert valid(report)


# -- an unknown treasury (issue 35) ----------------------------------------------------------------


def test_a_later_round_without_ipcs_says_the_treasury_is_unknown_in_the_apply_header(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY]).replace("round: 1", "round: 2"))
    code, text = apply(capsys, write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move", [])))
    assert code == 0, text
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("the treasury is unknown" in line for line in header), header


def test_a_round_1_state_without_ipcs_says_nothing_of_an_unknown_treasury(capsys, tmp_path):
    code, text = apply(capsys, noncombat(tmp_path, []))
    assert code == 0 and "treasury is unknown" not in text


def test_lint_warns_of_an_unknown_treasury_past_round_1(capsys, tmp_path):
    path = write(tmp_path, "s.yaml", state_text("Germans", "purchase", [FACTORY]).replace("round: 1", "round: 2"))
    code = main(["lint", str(path), "--root", "/", "--isolated", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and codes(report) == ["AA912"]
    finding = report["findings"][0]
    assert finding["severity"] == "warning" and finding["line"] == 4
    assert "the state is at round 2 and writes no ipcs; the treasuries are unknown" in finding["message"]
    write(tmp_path, "s.yaml", state_text("Germans", "purchase", [FACTORY], head="ipcs: {Germans: 3}\n")
          .replace("round: 1", "round: 2"))
    lints_clean(capsys, path)


def test_a_purchase_against_an_unknown_treasury_is_not_checked(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "purchase", [FACTORY]).replace("round: 1", "round: 2"))
    orders = write(tmp_path, "p.yaml", "movecheck: 1\nsystem: aa\nstate: s.yaml\npower: Germans\nphase: purchase\n"
                                       "purchase: {inf: 1}\n")
    code, report = check(capsys, orders)
    assert code != 0
    assert report["files"][0]["legal"] == 0 and report["files"][0]["unchecked"] == 1
    assert "AA912" in codes(report)
    code, text = apply(capsys, orders)
    assert code != 0 and "movecheck: 1" not in text  # no state written
