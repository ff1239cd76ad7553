"""Findings a player can act on (issue 14): unit phrases read as English, one cause gives one
finding, and AA101 names a path that would work.  The messages are snapshotted."""

from __future__ import annotations

import pytest

from movecheck.aa.wording import power_adjective, type_noun, unit_phrase

from .conftest import codes, mv, state, unit

G, J = "Germans", "Japanese"
R, B, A = "Russians", "British", "Americans"
CM, NCM = "combat_move", "noncombat_move"

# Ukraine Russian with one infantry: a battle two steps from Germany.
EAST = {"Ukraine S.S.R.": R, "Belorussia": R, "West Russia": R, "Caucasus": R, "Baltic States": R}


def messages(findings):
    return [f"{f.code} order={f.order}: {f.message}" for f in findings]


# --- unit phrases --------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "kind", "power", "expected"), [
    (2, "infantry", G, "2 German infantry"),
    (1, "fighter", A, "1 American fighter"),
    (2, "fighter", None, "2 fighters"),
    (1, "tank", None, "1 tank"),
    (3, "aa_gun", R, "3 Russian AA guns"),
    (2, "factory", None, "2 factories"),
    (0, "fighter", J, "no Japanese fighters"),
    (1, "battleship", B, "1 British battleship"),
])
def test_unit_phrase(count, kind, power, expected):
    assert unit_phrase(count, kind, power) == expected


@pytest.mark.parametrize(("power", "expected"), [
    ("Germans", "German"), ("Russians", "Russian"), ("Americans", "American"), ("British", "British"),
    ("Japanese", "Japanese"), ("Italians", "Italian"), ("Martians", "Martian"), ("ANZAC", "ANZAC"), ("Elves", "Elves"),
])
def test_power_adjective_table_and_fallback(power, expected):
    assert power_adjective(power) == expected


def test_type_noun_plurals():
    assert [type_noun(k, 2) for k in ("infantry", "artillery", "tank", "aa_gun", "factory", "carrier")] == [
        "infantry", "artillery", "tanks", "AA guns", "factories", "carriers"]


def test_shortfall_reads_as_english(run, snapshot):
    findings = run(
        state(G, units=[unit("Germany", G, "infantry", 2), unit("Germany", J, "fighter")], control={"Poland": R}),
        [
            mv({"infantry": 3}, "Germany", "Poland"),
            mv({"fighter": 2}, "Germany", "Poland"),
        ],
    )
    assert codes(findings) == ["AA102", "AA103"]
    assert "only 2 German infantry there" in findings[0].message
    assert "no German fighters there" in findings[1].message and "2 fighters ordered" in findings[1].message
    assert messages(findings) == snapshot


def test_unlanded_fighter_names_its_power_as_an_adjective(run, snapshot):
    s = state(A, NCM, units=[unit("Hawaiian Islands", A, "fighter"), unit("Hawaiian Islands", A, "infantry")])
    findings = run(s, [mv({"fighter": 1}, "Hawaiian Islands", "53 Sea Zone")])
    assert codes(findings) == ["AA303"]
    assert findings[0].message.startswith("1 American fighter in 53 Sea Zone")
    assert messages(findings) == snapshot


def test_enemies_are_named_by_their_power(run, snapshot):
    s = state(G, units=[unit("Germany", G, "tank", 2), unit("Poland", R, "aa_gun")], control={**EAST, "Poland": R})
    findings = run(s, [mv({"tank": 2}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA202"]
    assert "2 tanks must stop in Poland: it holds 1 Russian AA gun" in findings[0].message
    assert messages(findings) == snapshot


# --- one cause, one finding ------------------------------------------------------------------


def test_one_cause_one_finding(run, snapshot):
    units = [unit("Germany", G, "factory"), unit("Germany", G, "infantry", 2),
             unit("5 Sea Zone", G, "transport", id="T1"), unit("5 Sea Zone", G, "transport", id="T2")]
    findings = run(state(G, units=units), [
        mv({"factory": 1}, "Germany", "Poland"),
        mv({"infantry": 2}, "Germany", "5 Sea Zone", transport="T1"),
        mv(["T2"], "5 Sea Zone", "6 Sea Zone"),
    ])
    assert [(f.code, f.order) for f in findings] == [("AA104", 1), ("AA203", 2), ("AA203", 3)]
    assert "noncombat" not in findings[1].message
    assert messages(findings) == snapshot


# --- AA101 names a path that works -------------------------------------------------------------


def east(*extra, **kw):
    units = [unit("Germany", G, "tank", 2), unit("Germany", G, "infantry", 2), unit("Germany", G, "fighter"),
             unit("Ukraine S.S.R.", R, "infantry")]
    return state(G, units=units + list(extra), control={**EAST, **kw.pop("control", {})}, **kw)


def test_aa101_names_a_path_within_the_tanks_movement(run, snapshot):
    findings = run(east(), [mv({"tank": 2}, "Germany", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA101"]
    message = findings[0].message
    assert message.startswith("Germany does not border Ukraine S.S.R.; Germany → ")
    assert message.endswith(" → Ukraine S.S.R. is 2 steps")
    assert messages(findings) == snapshot


def test_aa101_suggested_path_is_legal(run):
    findings = run(east(), [mv({"tank": 2}, "Germany", "Ukraine S.S.R.")])
    route = findings[0].message.split("; ")[1].removesuffix(" is 2 steps").split(" → ")
    assert run(east(), [mv({"tank": 2}, *route)]) == []


def test_aa101_names_no_path_beyond_the_units_movement(run):
    findings = run(east(), [mv({"infantry": 1}, "Germany", "Ukraine S.S.R.")])
    assert "AA101" in codes(findings)
    assert findings[0].message == "Germany does not border Ukraine S.S.R."


def test_aa101_path_avoids_what_would_stop_the_units(run, snapshot):
    # Poland and Bulgaria Romania Russian and defended: a tank may not pass them, a fighter flies over
    blocked = {"Poland": R, "Bulgaria Romania": R}
    extra = (unit("Poland", R, "infantry"), unit("Bulgaria Romania", R, "infantry"))
    tank = run(east(*extra, control=blocked), [mv({"tank": 1}, "Germany", "Ukraine S.S.R.")])
    fighter = run(east(*extra, control=blocked), [mv({"fighter": 1}, "Germany", "Ukraine S.S.R.")])
    assert only_aa101(tank) == ["Germany does not border Ukraine S.S.R."]
    assert "→" in only_aa101(fighter)[0]
    assert only_aa101(fighter) == snapshot


def test_aa101_in_noncombat_keeps_land_units_out_of_hostile_territory(run):
    s = state(
        G, NCM, units=[unit("Germany", G, "tank")], control={"Poland": R, "Bulgaria Romania": R, "Ukraine S.S.R.": G}
    )
    findings = run(s, [mv({"tank": 1}, "Germany", "Ukraine S.S.R.")])
    assert only_aa101(findings) == ["Germany does not border Ukraine S.S.R."]


def test_aa101_ships_take_no_closed_canal(run):
    s = state(B, NCM, units=[unit("17 Sea Zone", B, "battleship")], control={"Egypt": G})
    findings = run(s, [mv({"battleship": 1}, "17 Sea Zone", "35 Sea Zone")])
    assert "AA101" in codes(findings)
    assert only_aa101(findings) == ["17 Sea Zone does not border 35 Sea Zone"]
    opened = run(
        state(B, NCM, units=[unit("17 Sea Zone", B, "battleship")]),
        [mv({"battleship": 1}, "17 Sea Zone", "35 Sea Zone")],
    )
    assert only_aa101(opened) == [
        "17 Sea Zone does not border 35 Sea Zone; 17 Sea Zone → 34 Sea Zone → 35 Sea Zone is 2 steps"
    ]


def only_aa101(findings):
    return [f.message for f in findings if f.code == "AA101"]
