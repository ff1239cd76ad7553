"""A received tree cannot weaken the rules unseen (issue 23, "Untrusted files").

A ``.movecheck.yaml`` beside the states may switch rule options off, one beside the
orders may select nothing; a state may carry ``options:`` of its own.  Each report
names, for each file, which configuration (or the state, or ``--option``) changed which
rule option or selection; ``--select ALL`` lets no configuration narrow the selection;
``--isolated`` reads none.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Two orders against the 1942 example state: a fighter over neutral Sweden (AA106 unless
# neutrals_impassable is off) and a reinforcement of German Poland (AA203 unless
# combat_move_must_attack is off).
ORDERS = """\
movecheck: 1
system: aa
state: ../states/g1.yaml
power: Germans
phase: combat_move
moves:
  - id: north
    units: {fighter: 1}
    path: [Norway, Sweden, Finland, Karelia S.S.R.]
  - id: reinforce
    units: {infantry: 1}
    path: [Germany, Poland]
"""
RULES_OFF = "aa:\n  options: {neutrals_impassable: false, combat_move_must_attack: false}\n"
SWITCHED_OFF = (
    "orders/g1.yaml: states/.movecheck.yaml sets aa.neutrals_impassable=false, aa.combat_move_must_attack=false"
)


@pytest.fixture
def received(tmp_path: Path, write) -> Path:
    """A received game: ``states/g1.yaml`` (the 1942 example) and ``orders/g1.yaml`` (AA106, AA203)."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, "states/g1.yaml", (REPO / "examples" / "aa" / "states" / "g1-combat.yaml").read_text())
    write(tmp_path, "orders/g1.yaml", ORDERS)
    return tmp_path


def findings(out: str) -> list[tuple[str, int]]:
    return [(f["code"], f["line"]) for f in json.loads(out)["findings"]]


def overrides(out: str) -> dict | None:
    return json.loads(out)["files"][0].get("overrides")


def test_a_configuration_beside_the_states_is_named_with_what_it_switched_off(run_main, received, write) -> None:
    write(received, "states/.movecheck.yaml", RULES_OFF)
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert code == 0  # house rules apply ...
    assert out.splitlines() == [  # ... but never unseen
        "orders/g1.yaml: checked against states/g1.yaml",
        SWITCHED_OFF,
        "0 errors, 0 warnings, 0 notes in 1 file; 2 of 2 orders legal.",
    ]
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=received)
    assert overrides(out) == {
        "edition": None,
        "options": [
            {"system": "aa", "name": "neutrals_impassable", "value": False, "edition_value": True,
             "source": "configuration", "file": "states/.movecheck.yaml"},
            {"system": "aa", "name": "combat_move_must_attack", "value": False, "edition_value": True,
             "source": "configuration", "file": "states/.movecheck.yaml"},
        ],
        "selection": [],
    }
    assert json.loads(out)["files"][0]["config"] is None  # the orders' own configuration: none


def test_select_all_keeps_configuration_rule_options_and_says_so(run_main, received, write) -> None:
    write(received, "states/.movecheck.yaml", RULES_OFF)
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL"], cwd=received)
    assert code == 0 and SWITCHED_OFF in out.splitlines()


def test_a_setting_equal_to_the_editions_changes_nothing_and_is_not_reported(run_main, received, write) -> None:
    _, plain, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    write(received, "states/.movecheck.yaml", "aa:\n  rules: aa1942\n  options: {neutrals_impassable: true}\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert (code, out) == (1, plain)
    code, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=received)
    assert "overrides" not in json.loads(out)["files"][0]


def test_the_states_own_options_and_the_command_line_are_named(run_main, received, write) -> None:
    state = received / "states" / "g1.yaml"
    write(received, "states/g1.yaml", state.read_text() + "options: {neutrals_impassable: false}\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "--option", "aa.combat_move_must_attack=false"], cwd=received)
    assert code == 0
    assert out.splitlines()[1:3] == [
        "orders/g1.yaml: states/g1.yaml sets aa.neutrals_impassable=false",
        "orders/g1.yaml: --option sets aa.combat_move_must_attack=false",
    ]
    _, out, _ = run_main(
        ["check", "orders/g1.yaml", "--option", "aa.combat_move_must_attack=false", "-f", "json"], cwd=received
    )
    assert [(o["name"], o["source"], o["file"]) for o in overrides(out)["options"]] == [
        ("neutrals_impassable", "state", "states/g1.yaml"),
        ("combat_move_must_attack", "command line", None),
    ]


def test_a_configured_edition_is_named(run_main, received, write) -> None:
    state = received / "states" / "g1.yaml"
    write(received, "states/g1.yaml", state.read_text().replace("rules: aa1942\n", ""))
    write(received, "states/.movecheck.yaml", "aa:\n  rules: revised\n")
    _code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert "orders/g1.yaml: states/.movecheck.yaml sets aa.rules=aa-revised" in out.splitlines()
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=received)
    assert overrides(out)["edition"] == {"system": "aa", "name": "aa-revised", "instead_of": "aa1942",
                                         "config": "states/.movecheck.yaml"}
    assert overrides(out)["options"] == []  # combat_move_must_attack=false is Revised's own value


def test_a_sub_folder_that_selects_nothing_is_named(run_main, received, write) -> None:
    write(received, "orders/.movecheck.yaml", "select: []\n")
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert code == 0
    assert "orders/g1.yaml: orders/.movecheck.yaml selects nothing" in out.splitlines()


def test_select_all_reports_every_finding_whatever_a_sub_folder_selects(run_main, received, write) -> None:
    _, isolated, _ = run_main(["check", "orders/g1.yaml", "--isolated", "-f", "json"], cwd=received)
    write(received, "orders/.movecheck.yaml", "select: []\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL", "-f", "json"], cwd=received)
    assert code == 1
    assert findings(out) == findings(isolated) == [("AA106", 9), ("AA203", 12)]
    assert overrides(out)["selection"] == [
        {"config": "orders/.movecheck.yaml", "key": "select", "codes": [], "pattern": None, "applied": False},
    ]
    _, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL"], cwd=received)
    assert "orders/g1.yaml: orders/.movecheck.yaml selects nothing (not applied: --select ALL)" in out.splitlines()


@pytest.mark.parametrize("config", [
    "per-file-ignores:\n  'orders/*.yaml': [AA]\n",
    "per-file-ignores:\n  'g1.yaml': AA1, AA2\n",
    "ignore: [AA]\n",
    "select: [MC]\n",
    "select: []\nignore: [ALL]\nper-file-ignores:\n  '**': [ALL]\n",
])
def test_no_configuration_narrows_select_all(run_main, received, write, config) -> None:
    write(received, ".movecheck.yaml", config)
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL", "-f", "json"], cwd=received)
    assert (code, findings(out)) == (1, [("AA106", 9), ("AA203", 12)])
    assert overrides(out)["selection"] and not any(s["applied"] for s in overrides(out)["selection"])


def test_a_per_file_ignore_is_named_with_its_pattern(run_main, received, write) -> None:
    write(
        received,
        ".movecheck.yaml",
        "ignore: [MC005]\nper-file-ignores:\n  'orders/*.yaml': [AA1]\n  'drafts/*': [AA]\n",
    )
    code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert code == 1
    assert (
        "orders/g1.yaml: .movecheck.yaml ignores MC005; ignores AA1 in the files matching orders/*.yaml"
        in out.splitlines()
    )
    code, out, _ = run_main(
        ["check", "orders/g1.yaml", "--select", "AA"], cwd=received
    )  # not ALL: per-file ignores stay
    assert ("orders/g1.yaml: .movecheck.yaml ignores MC005 (not applied: --select on the command line); "
            "ignores AA1 in the files matching orders/*.yaml") in out.splitlines()


def test_isolated_ignores_the_trees_configuration(run_main, received, write) -> None:
    _, plain, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    write(received, "states/.movecheck.yaml", RULES_OFF)
    write(received, "orders/.movecheck.yaml", "select: []\nformat: json-lines\n")
    write(received, ".movecheck.yaml", "aa:\n  rules: revised\n")
    code, out, _ = run_main(["check", "g1.yaml", "--isolated"], cwd=received / "orders")
    assert code == 1
    assert out == plain.replace("orders/g1.yaml", "g1.yaml").replace("states/g1.yaml", "../states/g1.yaml")
    code, out, _ = run_main(["check", "orders/g1.yaml", "--isolated", "-f", "json"], cwd=received)
    entry = json.loads(out)["files"][0]
    assert (entry["config"], "overrides" in entry, findings(out)) == (None, False, [("AA106", 9), ("AA203", 12)])


def test_lint_of_a_state_names_its_configuration(run_main, received, write) -> None:
    write(received, "states/.movecheck.yaml", "aa:\n  options: {neutrals_impassable: false}\nignore: [MC005]\n")
    code, out, _ = run_main(["lint", "states/g1.yaml"], cwd=received)
    assert code == 0
    assert (
        out.splitlines()[0] == "states/g1.yaml: states/.movecheck.yaml sets aa.neutrals_impassable=false; ignores MC005"
    )


def test_apply_names_the_rule_options_a_configuration_changed(run_main, received, write) -> None:
    write(received, "states/.movecheck.yaml", RULES_OFF)
    code, out, err = run_main(["apply", "orders/g1.yaml", "-o", "next.yaml"], cwd=received)
    assert (code, out) == (0, "")
    assert err == SWITCHED_OFF + "\n"


def test_github_and_sarif_carry_the_lines(run_main, received, write) -> None:
    write(received, "orders/.movecheck.yaml", "select: []\n")
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "github"], cwd=received)
    assert "::notice file=orders/g1.yaml::orders/g1.yaml: orders/.movecheck.yaml selects nothing" in out.splitlines()
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "sarif"], cwd=received)
    (notice,) = json.loads(out)["runs"][0]["invocations"][0]["toolConfigurationNotifications"]
    assert notice["message"]["text"] == "orders/g1.yaml: orders/.movecheck.yaml selects nothing"
    assert notice["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "orders/g1.yaml"


def test_the_lines_are_the_same_with_jobs(run_main, received, write) -> None:
    write(received, "states/.movecheck.yaml", RULES_OFF)
    write(received, "orders/g2.yaml", ORDERS)
    args = ["check", "orders/g1.yaml", "orders/g2.yaml", "-f", "json"]
    assert run_main([*args, "--jobs", "2"], cwd=received)[1] == run_main(args, cwd=received)[1]


def test_a_mapping_option_is_named_entry_by_entry_with_its_own_source(run_main, tmp_path, write) -> None:
    """The battlefield's own dice (D1-D3, the defaults) and a configuration's D4: only D4 changed, by the
    configuration."""
    config = write(
        tmp_path, "club.yaml", "maneuver:\n  options: {tolerance: 0.3, contact_gap: 0.07, dice: {D4: 4d6}}\n"
    )
    args = ["check", "examples/maneuver/corps-orders.yaml", "--config", str(config), "-f", "json"]
    _code, out, _ = run_main(args, cwd=REPO)
    shown = json.loads(out)["files"][0]["config"]
    assert [(o["name"], o["value"], o["edition_value"], o["source"], o["file"]) for o in overrides(out)["options"]] == [
        ("dice.D4", "4d6", None, "configuration", shown),
        ("contact_gap", 0.07, 0.05, "configuration", shown),  # tolerance: the battlefield's own 0.1 wins, no change
    ]


def test_a_map_files_own_options_are_named_with_the_map(run_main, received, write) -> None:
    """A received map file (say one ``import triplea`` wrote) that opens the neutrals is named too."""
    game = json.loads((REPO / "movecheck" / "aa" / "maps" / "aa1942-2e.json").read_text())
    game["options"] = {"neutrals_impassable": False}
    write(received, "states/world.json", json.dumps(game))
    state = received / "states" / "g1.yaml"
    write(received, "states/g1.yaml", state.read_text().replace("map: aa1942-2e\n", "map: world.json\n"))
    _code, out, _ = run_main(["check", "orders/g1.yaml"], cwd=received)
    assert "orders/g1.yaml: states/world.json sets aa.neutrals_impassable=false" in out.splitlines()
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=received)
    assert [(o["name"], o["source"], o["file"]) for o in overrides(out)["options"]] == [
        ("neutrals_impassable", "map", "states/world.json"),
    ]
    # the state's own options still beat the map's, and say so instead
    write(
        received,
        "states/g1.yaml",
        (received / "states" / "g1.yaml").read_text() + "options: {neutrals_impassable: true}\n",
    )
    _, out, _ = run_main(["check", "orders/g1.yaml", "-f", "json"], cwd=received)
    assert overrides(out) is None or overrides(out)["options"] == []


def test_the_state_apply_writes_carries_the_configurations_rules_in_its_header(run_main, received, write) -> None:
    """The state written leaves a trace of the house rules it was judged under (issue 35): the header says them."""
    write(received, "states/.movecheck.yaml", RULES_OFF)
    code, out, err = run_main(["apply", "orders/g1.yaml", "-o", "next.yaml"], cwd=received)
    assert code == 0, err
    lines = (received / "next.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Written by movecheck apply: ")
    assert lines[1] == ("# judged under rules this state does not carry: states/.movecheck.yaml sets "
                        "aa.neutrals_impassable=false, aa.combat_move_must_attack=false.")
    code, out, err = run_main(["apply", "orders/g1.yaml", "--format", "json", "--option",
                               "aa.land_on_new_carrier=false"], cwd=received)
    assert code == 0, err
    text = json.loads(out)["text"].splitlines()
    assert text[1].startswith("# judged under rules this state does not carry: states/.movecheck.yaml sets ")
    assert text[2] == "# judged under rules this state does not carry: --option sets aa.land_on_new_carrier=false."


def test_a_state_without_house_rules_has_no_such_header_line(run_main, received) -> None:
    code, out, err = run_main(["apply", "orders/g1.yaml"], cwd=received)
    assert code == 1 or "judged under rules" not in out  # the orders break the edition's rules: nothing written
    code, out, err = run_main(["apply", "orders/g1.yaml", "--option", "aa.neutrals_impassable=false", "--option",
                               "aa.combat_move_must_attack=false"], cwd=received)
    assert code == 0, err
    assert "# judged under rules this state does not carry: --option sets" in out


def test_a_configuration_file_name_cannot_break_out_of_the_header_comment() -> None:
    from movecheck.overrides import OptionOverride, Overrides, state_header_lines

    sneaky = Overrides(options=(OptionOverride("aa", "neutrals_impassable", False, True, "configuration",
                                               "x\nipcs: {Germans: 999}\n#/.movecheck.yaml"),))
    (line,) = state_header_lines(sneaky)
    assert "\n" not in line and line.startswith("# ") and "\\u000a" in line
