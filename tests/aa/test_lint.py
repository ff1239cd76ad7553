"""Scenario lint (AA901–AA910) on crafted states and maps, the built-in maps linting clean,
and unknown names (MC004) in states and orders."""

from __future__ import annotations

import pytest

from movecheck.aa.maps import BUILTIN_MAPS, builtin_path
from tests.harness import yaml_data

from .conftest import codes, errors, lint_paths, lint_text, mv, orders, state, unit

G, J = "Germans", "Japanese"
R, B = "Russians", "British"


def lint_state(tmp_path, units, **kw):
    return lint_text(state(G, units=units, **kw), tmp_path, "state.yaml")


# --- the built-in maps ----------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_builtin_map_file_lints_clean(name):
    findings = lint_paths([builtin_path(name)])
    assert findings == []


@pytest.mark.parametrize("name", BUILTIN_MAPS)
@pytest.mark.parametrize("power", ["Germans", "Americans"])
@pytest.mark.parametrize("phase", ["combat_move", "noncombat_move"])
def test_state_with_builtin_setup_lints_clean(tmp_path, name, power, phase):
    assert lint_text(state(power, phase, map=name), tmp_path, "state.yaml") == []


def test_builtin_map_name_misspelt(tmp_path):
    findings = lint_text(state(G, map="aa1942"), tmp_path, "state.yaml")
    assert codes(findings) == ["MC004"]
    assert "did you mean" in findings[0].message


# --- AA901 land-unit-at-sea -----------------------------------------------------------------


def test_aa901_infantry_at_sea_without_transport(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "infantry")])
    assert codes(findings) == ["AA901"]
    assert "5 Sea Zone" in findings[0].message


def test_aa901_more_cargo_than_the_transports_hold(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "transport"), unit("5 Sea Zone", G, "infantry", 3)])
    assert codes(findings) == ["AA901"]


def test_aa901_silent_for_cargo_seated_on_transports_of_its_zone(tmp_path):
    units = [unit("5 Sea Zone", G, "transport"), unit("5 Sea Zone", G, "infantry"), unit("5 Sea Zone", G, "tank"),
             unit("5 Sea Zone", J, "transport"), unit("5 Sea Zone", G, "infantry", 2)]
    assert lint_state(tmp_path, units) == []


def test_aa901_enemy_transport_carries_no_cargo(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", B, "transport"), unit("5 Sea Zone", G, "infantry")])
    assert codes(findings) == ["AA901"]


# --- AA902 cargo-over-capacity --------------------------------------------------------------


def test_aa902_three_infantry_aboard_one_transport(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "transport", id="T1"),
                                     unit("5 Sea Zone", G, "infantry", 3, aboard="T1")])
    assert codes(findings) == ["AA902"]
    assert "T1" in findings[0].message


def test_aa902_three_fighters_aboard_one_carrier(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "carrier", id="C1"),
                                     unit("5 Sea Zone", G, "fighter", 3, aboard="C1")])
    assert codes(findings) == ["AA902"]
    assert "C1" in findings[0].message and "slots" in findings[0].message


def test_aa902_silent_for_two_fighters_aboard_one_carrier(tmp_path):
    assert lint_state(tmp_path, [unit("5 Sea Zone", G, "carrier", id="C1"),
                                 unit("5 Sea Zone", J, "fighter", 2, aboard="C1")]) == []


def test_aa902_silent_for_infantry_and_tank_aboard(tmp_path):
    units = [unit("5 Sea Zone", G, "transport", id="T1"), unit("5 Sea Zone", G, "infantry", aboard="T1"),
             unit("5 Sea Zone", G, "tank", aboard="T1")]
    assert lint_state(tmp_path, units) == []


# --- AA903 aboard-elsewhere -----------------------------------------------------------------


def test_aa903_aboard_a_transport_in_another_space(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "transport", id="T1"),
                                     unit("Germany", G, "tank", aboard="T1")])
    assert codes(findings) == ["AA903"]
    f = findings[0]
    assert "5 Sea Zone" in f.message and (f.line, f.column) == (17, 11)  # the tank's `aboard: T1`


def test_aa903_fighter_aboard_a_transport(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "transport", id="T1"),
                                     unit("5 Sea Zone", G, "fighter", aboard="T1")])
    assert "AA903" in codes(findings)


def test_aa903_unknown_aboard_id(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "infantry", aboard="T9")])
    assert "MC004" in codes(findings)


def test_aa903_silent_for_fighter_aboard_a_carrier(tmp_path):
    assert lint_state(tmp_path, [unit("5 Sea Zone", G, "carrier", id="C1"),
                                 unit("5 Sea Zone", G, "fighter", aboard="C1")]) == []


# --- AA904 duplicate-unit-id--------------------------------------------------------------------


def test_aa904_two_units_share_an_id(tmp_path):
    findings = lint_state(tmp_path, [unit("Germany", G, "tank", id="T1"), unit("5 Sea Zone", G, "transport", id="T1")])
    assert codes(findings) == ["AA904"]
    assert "'T1'" in findings[0].message


def test_aa904_silent_for_distinct_ids(tmp_path):
    assert (
        lint_state(tmp_path, [unit("Germany", G, "tank", id="T1"), unit("5 Sea Zone", G, "transport", id="T2")]) == []
    )


# --- AA905 fighters-over-slots --------------------------------------------------------------


def test_aa905_three_fighters_over_one_carrier_is_a_warning(tmp_path):
    findings = lint_state(tmp_path, [unit("5 Sea Zone", G, "carrier"), unit("5 Sea Zone", G, "fighter", 3)])
    assert codes(findings) == ["AA905"]
    assert findings[0].severity.value == "warning" and errors(findings) == []


def test_aa905_silent_for_allied_fighters_on_a_carrier(tmp_path):
    assert lint_state(tmp_path, [unit("5 Sea Zone", G, "carrier"), unit("5 Sea Zone", J, "fighter", 2)]) == []


# --- AA906 unit-in-neutral ------------------------------------------------------------------


def test_aa906_unit_in_a_neutral_territory(tmp_path):
    findings = lint_state(tmp_path, [unit("Switzerland", G, "infantry")])
    assert codes(findings) == ["AA906"]
    assert "Switzerland" in findings[0].message


def test_aa906_silent_when_the_territory_is_not_neutral(tmp_path):
    assert lint_state(tmp_path, [unit("Germany", G, "infantry")]) == []


def test_aa906_silent_when_neutrals_may_be_entered(tmp_path):
    """With ``neutrals_impassable: false`` a unit may enter a neutral, so it may stand in one."""
    assert lint_state(tmp_path, [unit("Switzerland", G, "infantry")], options={"neutrals_impassable": False}) == []


def test_a_state_with_passable_neutrals_is_checked(run):
    """The state ``apply`` writes after a move into a neutral (AA106 off) is checked, not refused by its lint."""
    st = state(G, "noncombat_move", units=[unit("Switzerland", G, "infantry")], options={"neutrals_impassable": False})
    assert run(st, [mv({"infantry": 1}, "Switzerland", "Germany")]) == []


# --- AA909 ship-on-land ---------------------------------------------------------------------


def test_aa909_ship_in_a_land_territory(tmp_path):
    findings = lint_state(tmp_path, [unit("Germany", G, "battleship")])
    assert codes(findings) == ["AA909"]


def test_aa909_silent_for_a_ship_at_sea(tmp_path):
    assert lint_state(tmp_path, [unit("5 Sea Zone", G, "battleship")]) == []


# --- map clauses: AA907, AA908, AA910 -------------------------------------------------------

TINY = """\
movecheck: 1
system: aa
kind: map
name: tiny
powers: [Reds, Blues]
sides: {East: [Reds], West: [Blues]}
territories:
  - {name: Alpha}
  - {name: Beta}
  - {name: Gamma, neutral: true}
  - {name: 1 Sea Zone, sea: true}
  - {name: 2 Sea Zone, sea: true}
  - {name: 3 Sea Zone, sea: true}
connections:
  - [Alpha, Beta]
  - [Alpha, 1 Sea Zone]
  - [Beta, 2 Sea Zone]
  - [1 Sea Zone, 2 Sea Zone]
  - [Beta, Gamma]
control: {Alpha: Reds, Beta: Blues}
canals:
  - {name: Strait, sea_zones: [SZ 1, sz2], land: [Alpha, Beta]}
"""


def lint_map(tmp_path, text):
    return lint_text(text, tmp_path, "map.yaml")


def test_tiny_map_lints_clean(tmp_path):
    assert lint_map(tmp_path, TINY) == []


def test_aa907_connection_names_an_unknown_space(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("  - [Beta, Gamma]", "  - [Beta, Gama]"))
    assert codes(findings) == ["AA907"]
    f = findings[0]
    assert "'Gama'" in f.message and "did you mean 'Gamma'" in f.message and f.line == 19


def test_aa907_gives_the_close_space_as_a_fix_of_the_name(tmp_path):
    text = TINY.replace("  - [Beta, Gamma]", "  - [Beta, Gama]")
    (finding,) = lint_map(tmp_path, text)
    line = text.splitlines()[finding.line - 1]
    assert line[finding.column - 1:].startswith("Gama]")  # at the name, not at its connection
    (fix,) = finding.fixes
    (edit,) = fix.edits
    assert (edit.line, edit.column, edit.end_line, edit.end_column, edit.text) == (
        finding.line, finding.column, finding.line, finding.column + 4, "Gamma")


def test_aa908_canal_between_zones_that_do_not_touch(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("sea_zones: [SZ 1, sz2]", "sea_zones: [1 Sea Zone, 3 Sea Zone]"))
    assert codes(findings) == ["AA908"]
    assert "does not connect" in findings[0].message


def test_aa908_canal_with_a_land_end(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("sea_zones: [SZ 1, sz2]", "sea_zones: [1 Sea Zone, Beta]"))
    assert codes(findings) == ["AA908"]


def test_aa908_canal_needs_an_unknown_territory(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("land: [Alpha, Beta]", "land: [Alpha, Betta]"))
    assert codes(findings) == ["AA908"]
    assert "'Betta'" in findings[0].message


def test_aa908_canal_names_an_unknown_zone(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("sea_zones: [SZ 1, sz2]", "sea_zones: [SZ 1, 9 Sea Zone]"))
    assert codes(findings) == ["AA908"]


def test_aa910_power_on_no_side(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("powers: [Reds, Blues]", "powers: [Reds, Blues, Greens]"))
    assert codes(findings) == ["AA910"]
    assert "Greens" in findings[0].message


def test_aa910_power_on_two_sides(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("West: [Blues]", "West: [Blues, Reds]"))
    assert codes(findings) == ["AA910"]


def test_aa910_side_lists_an_unknown_power(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("East: [Reds]", "East: [Reds, Ghosts]"))
    assert codes(findings) == ["AA910"]
    assert "'Ghosts'" in findings[0].message


def test_aa910_control_of_a_sea_zone(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("control: {Alpha: Reds, Beta: Blues}",
                                               "control: {Alpha: Reds, Beta: Blues, 1 Sea Zone: Reds}"))
    assert codes(findings) == ["AA910"]


def test_aa910_control_by_an_unknown_power(tmp_path):
    findings = lint_map(tmp_path, TINY.replace("Beta: Blues}", "Beta: Purples}"))
    assert codes(findings) == ["AA910"]


def test_inline_map_in_a_state_gets_the_map_clauses(tmp_path):

    inline = yaml_data(TINY.replace("  - [Beta, Gamma]", "  - [Beta, Gama]"))
    for key in ("movecheck", "system", "kind"):
        inline.pop(key)
    findings = lint_text(state("Reds", map=inline, units=[unit("Alpha", "Reds", "infantry")]), tmp_path, "state.yaml")
    assert codes(findings) == ["AA907"]


def test_state_with_a_map_file_beside_it(tmp_path):
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    (tmp_path / "state.yaml").write_text(state("Reds", map="tiny.yaml", units=[unit("Gamma", "Reds", "infantry")]),
                                         encoding="utf-8")
    findings = lint_paths([tmp_path / "state.yaml"])
    assert codes(findings) == ["AA906"]


def test_orders_on_a_custom_map_use_its_canal(run, tmp_path):
    # the canal's zones are written as aliases: the canal still governs the connection
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    units = [unit("1 Sea Zone", "Reds", "cruiser")]
    s = state("Reds", "noncombat_move", map=str(tmp_path / "tiny.yaml"), units=units)
    findings = run(s, [mv({"cruiser": 1}, "1 Sea Zone", "2 Sea Zone")])
    assert codes(findings) == ["AA109"]
    held = state("Reds", "noncombat_move", map=str(tmp_path / "tiny.yaml"), units=units, control={"Beta": "Reds"})
    assert run(held, [mv({"cruiser": 1}, "1 Sea Zone", "2 Sea Zone")]) == []


# --- MC004 unknown names --------------------------------------------------------------------

RUSSIA = dict(units=[unit("Germany", G, "tank", id="Tiger"), unit("Ukraine S.S.R.", R, "infantry")],
              control={"Ukraine S.S.R.": R})


def test_mc004_unknown_territory_in_an_order(run):
    findings = run(state(G, **RUSSIA), [mv({"tank": 1}, "Germany", "Polannd")])
    assert codes(findings) == ["MC004"]
    f = findings[0]
    assert "'Polannd'" in f.message and "did you mean 'Poland'" in f.message
    assert (f.order, f.line) == (1, 10)


def test_mc004_unknown_unit_type_in_an_order(run):
    findings = run(state(G, **RUSSIA), [mv({"panzer": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["MC004"]
    assert "'panzer'" in findings[0].message


def test_mc004_unknown_unit_type_suggests(run):
    findings = run(state(G, **RUSSIA), [mv({"tanks": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["MC004"]
    assert "did you mean 'tank'" in findings[0].message


def test_mc004_unknown_unit_id_in_an_order(run):
    findings = run(state(G, **RUSSIA), [mv(["Tigre"], "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["MC004"]
    assert "'Tigre'" in findings[0].message and "did you mean 'Tiger'" in findings[0].message


def test_mc004_unknown_transport_id(run):
    s = state(G, units=[unit("Germany", G, "infantry"), unit("5 Sea Zone", G, "transport", id="T1")])
    findings = run(s, [mv({"infantry": 1}, "Germany", "5 Sea Zone", transport="T2")])
    assert "MC004" in codes(findings)


def test_mc004_unknown_power_in_the_orders(run):
    findings = run(state(G, **RUSSIA), orders("Germanz", "combat_move", [mv({"tank": 1}, "Germany", "Poland")]))
    assert codes(findings) == ["MC004"]
    assert "did you mean 'Germans'" in findings[0].message


def test_mc006_known_power_out_of_turn(run):
    findings = run(state(G, **RUSSIA), orders("Japanese", "combat_move", [mv({"tank": 1}, "Germany", "Poland")]))
    assert codes(findings) == ["MC006"]


def test_mc004_names_resolved_despite_schema_errors(run):
    findings = run(state(G, **RUSSIA), [{"units": {"tank": 1}, "path": ["Germany", "Polannd"], "speed": 3}])
    assert sorted(codes(findings)) == ["MC003", "MC004"]
    assert any("did you mean 'Poland'" in f.message for f in findings)


def test_mc004_unknown_names_in_a_state(tmp_path):
    text = state(
        G,
        units=[unit("Germny", G, "tank"), unit("Germany", G, "panzer"), unit("Germany", "Prussians", "tank")],
        control={"Polland": G},
        captured=["Ukrain S.S.R."],
        purchased={"carier": 1},
    )
    findings = lint_text(text, tmp_path, "state.yaml")
    assert codes(findings) == ["MC004"] * 6
    messages = " | ".join(f.message for f in findings)
    for hint in ("'Germany'", "'Poland'", "'Ukraine S.S.R.'", "'carrier'", "'Russians'", "'panzer'"):
        assert hint in messages


def test_mc004_unknown_power_in_the_state_turn(tmp_path):
    findings = lint_text(state("Italians"), tmp_path, "state.yaml")
    assert codes(findings) == ["MC004"]
