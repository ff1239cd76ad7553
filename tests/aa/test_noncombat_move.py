"""Noncombat-move clauses on the built-in aa1942-2e map, with the statuses a combat move leaves
(`moved`, `fought`, `loaded`, `unloaded`, `captured_this_turn`, `purchased`)."""

from __future__ import annotations

import pytest

from .conftest import codes, errors, mv, only, state, unit

G, J = "Germans", "Japanese"
R, B, A = "Russians", "British", "Americans"
NCM = "noncombat_move"


def ncm(units, **kw):
    return state(G, NCM, units=units, **kw)


# --- the full 1942 setup ------------------------------------------------------------------


def test_full_setup_legal_reinforcements_are_clean(run):
    findings = run(state(G, NCM), [
        mv({"infantry": 2}, "Germany", "Poland"),
        mv({"tank": 2}, "France", "Germany", "Poland"),
        mv({"aa_gun": 1}, "Germany", "Poland"),
        mv({"fighter": 1}, "Norway", "Finland"),
        mv({"bomber": 1}, "Germany", "Poland", "Ukraine S.S.R."),
        mv({"infantry": 1, "tank": 1}, "Baltic States", "5 Sea Zone"),
        mv({"transport": 1}, "5 Sea Zone", "6 Sea Zone"),
        mv({"infantry": 1, "tank": 1}, "6 Sea Zone", "Northwestern Europe"),
    ])
    assert findings == []


def test_full_setup_into_russian_karelia(run):
    findings = run(state(G, NCM), [mv({"infantry": 1}, "Finland", "Karelia S.S.R.")])
    assert codes(findings) == ["AA301"]


# --- AA107 moved-in-combat --------------------------------------------------------------

FRONT = [
    unit("Ukraine S.S.R.", G, "tank", moved=1, fought=True),
    unit("Poland", G, "infantry", fought=True),
    unit("Poland", G, "tank"),
    unit("Poland", G, "artillery", moved=1),
    unit("Ukraine S.S.R.", G, "fighter", moved=2, fought=True),
    unit("West Russia", R, "infantry"),
]
WON = {"Ukraine S.S.R.": G, "West Russia": R, "Belorussia": R}


def front(**kw):
    return ncm(FRONT, control=WON, captured=["Ukraine S.S.R."], **kw)


def landed_fighter():
    return mv({"fighter": 1}, "Ukraine S.S.R.", "Poland")


def test_aa107_unit_that_moved_in_combat(run):
    findings = run(front(), [mv({"tank": 1}, "Ukraine S.S.R.", "Poland"), landed_fighter()])
    assert codes(findings) == ["AA107"]
    assert findings[0].order == 1 and "tank" in findings[0].message


def test_aa107_unit_that_fought(run):
    findings = run(front(), [mv({"infantry": 1}, "Poland", "Germany"), landed_fighter()])
    assert codes(findings) == ["AA107"]
    assert "fought" in findings[0].message


def test_aa107_status_moved_alone(run):
    # moved: 1 spent the artillery's only point; a unit that may not move at all gets AA107
    # alone, not also AA104 for the movement it no longer has
    findings = run(front(), [mv({"artillery": 1}, "Poland", "Germany"), landed_fighter()])
    assert codes(findings) == ["AA107"]


def test_aa107_silent_for_a_fresh_unit(run):
    assert run(front(), [mv({"tank": 1}, "Poland", "Germany", "France"), landed_fighter()]) == []


def test_aa107_aircraft_fly_on_to_land_with_what_they_have_left(run):
    assert run(front(), [mv({"fighter": 1}, "Ukraine S.S.R.", "Poland", "Germany")]) == []


def test_aa107_aircraft_movement_left_is_movement_minus_moved(run):
    findings = run(front(), [mv({"fighter": 1}, "Ukraine S.S.R.", "Poland", "Germany", "France")])
    assert codes(findings) == ["AA104"]
    assert "has 2 left" in findings[0].message


# --- captured this turn -----------------------------------------------------------------


def test_captured_territory_can_be_entered_by_land_units(run):
    assert run(front(), [mv({"tank": 1}, "Poland", "Ukraine S.S.R."), landed_fighter()]) == []


def test_captured_territory_can_be_crossed_by_land_units(run):
    s = ncm([unit("Poland", G, "tank")], control={"Ukraine S.S.R.": G, "Belorussia": G},
            captured=["Ukraine S.S.R."])
    assert run(s, [mv({"tank": 1}, "Poland", "Ukraine S.S.R.", "Belorussia")]) == []


def test_aa303_aircraft_cannot_land_in_a_captured_territory(run):
    findings = run(front(), [])
    assert codes(findings) == ["AA303"]
    f = findings[0]
    assert "captured this turn" in f.message and "Ukraine S.S.R." in f.message
    assert "nearest landing" in f.message and "Poland (1)" in f.message


def test_aa303_aircraft_cannot_fly_into_a_captured_territory(run):
    s = ncm([unit("Germany", G, "fighter")], control={"Ukraine S.S.R.": G}, captured=["Ukraine S.S.R."])
    findings = run(s, [mv({"fighter": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA303"]
    assert findings[0].order == 1


# --- AA301 ncm-into-hostile -------------------------------------------------------------


def test_aa301_land_unit_into_an_empty_hostile_territory(run):
    s = ncm([unit("Poland", G, "tank")], control={"Belorussia": R})
    findings = run(s, [mv({"tank": 1}, "Poland", "Belorussia")])
    assert codes(findings) == ["AA301"]
    assert "Belorussia" in findings[0].message and "hostile" in findings[0].message


def test_aa301_silent_into_a_friendly_territory(run):
    s = ncm([unit("Poland", G, "tank")], control={"Belorussia": R})
    assert run(s, [mv({"tank": 1}, "Poland", "Ukraine S.S.R.")]) == []


def test_aa301_silent_into_an_allied_territory(run):
    s = ncm([unit("Poland", G, "tank")], control={"Belorussia": J})
    assert run(s, [mv({"tank": 1}, "Poland", "Belorussia")]) == []


def test_aa301_ship_into_a_hostile_zone(run):
    s = ncm([unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA301"]


def test_aa301_silent_for_ship_into_zone_with_only_enemy_sub_and_transport(run):
    s = ncm([unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "submarine"), unit("6 Sea Zone", B, "transport")])
    assert run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone")]) == []


def test_aa301_sub_may_end_in_a_hostile_zone(run):
    s = ncm([unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "destroyer")])
    assert run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone")]) == []


def test_aa301_sub_may_not_end_in_a_hostile_zone_with_option(run):
    s = ncm([unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "destroyer")],
            options={"subs_may_end_ncm_in_hostile": False})
    assert codes(run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone")])) == ["AA301"]


# --- AA302 ncm-through-hostile ----------------------------------------------------------


def test_aa302_tank_through_a_hostile_territory(run):
    s = ncm([unit("Belorussia", G, "tank")], control={"West Russia": R})
    findings = run(s, [mv({"tank": 1}, "Belorussia", "West Russia", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA302"]
    assert "West Russia" in findings[0].message


def test_aa302_ship_through_a_hostile_zone(run):
    s = ncm([unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")])
    assert codes(findings) == ["AA302"]


def test_aa302_silent_for_a_sub_through_a_hostile_zone(run):
    s = ncm([unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "battleship")])
    assert run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")]) == []


def test_aa302_silent_for_aircraft_over_hostile_spaces(run):
    s = ncm([unit("Belorussia", G, "fighter")], control={"West Russia": R})
    assert run(s, [mv({"fighter": 1}, "Belorussia", "West Russia", "Ukraine S.S.R.")]) == []


# --- AA204 in noncombat -----------------------------------------------------------------


def test_aa204_noncombat_sub_stops_at_an_enemy_destroyer(run):
    s = ncm([unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")])
    assert codes(findings) == ["AA204"]


def test_aa204_noncombat_off_with_option(run):
    s = ncm([unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "destroyer")],
            options={"destroyer_stops_subs": False})
    assert run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")]) == []


# --- AA104 / AA106 / AA109 in noncombat -------------------------------------------------


def test_aa104_noncombat_fighter_four_ok_five_too_far(run):
    s = state(G, NCM)  # full setup: Belorussia, West Russia and Ukraine are German in 1942
    four = ["Germany", "Poland", "Belorussia", "West Russia", "Ukraine S.S.R."]
    assert run(s, [mv({"fighter": 1}, *four)]) == []
    findings = run(s, [mv({"fighter": 1}, *four, "Bulgaria Romania")])
    assert codes(findings) == ["AA104"]


def test_aa106_noncombat_tank_through_sweden(run):
    s = ncm([unit("Finland", G, "tank")])
    findings = run(s, [mv({"tank": 1}, "Finland", "Sweden", "Norway")])
    assert codes(findings) == ["AA106"]


def test_aa106_noncombat_silent_around_sweden(run):
    s = ncm([unit("Finland", G, "tank")])
    assert run(s, [mv({"tank": 1}, "Finland", "Norway")]) == []


def test_aa109_canal_territory_captured_this_turn_does_not_open_it(run):
    s = ncm([unit("17 Sea Zone", G, "destroyer")], control={"Egypt": G, "Trans-Jordan": G}, captured=["Egypt"])
    findings = run(s, [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")])
    assert codes(findings) == ["AA109"]
    assert "Egypt" in findings[0].message and "Trans-Jordan" not in findings[0].message


def test_aa109_canal_held_since_the_turn_began(run):
    s = ncm([unit("17 Sea Zone", G, "destroyer")], control={"Egypt": G, "Trans-Jordan": G})
    assert run(s, [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")]) == []


# --- AA303 air-landing ------------------------------------------------------------------

AIR = [unit("Germany", G, "fighter", 3), unit("Germany", G, "bomber"), unit("Germany", G, "factory"),
       unit("5 Sea Zone", G, "carrier", id="C1")]


def test_aa303_fighter_at_sea_without_carrier(run):
    findings = run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA303"]
    f = findings[0]
    assert f.order == 1 and "6 Sea Zone" in f.message and "2 movement left" in f.message


def test_aa303_silent_for_a_fighter_onto_a_carrier(run):
    assert run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone")]) == []


def test_aa303_silent_for_a_fighter_onto_an_allied_carrier(run):
    s = ncm([unit("Germany", G, "fighter"), unit("5 Sea Zone", J, "carrier")])
    assert run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone")]) == []


def test_aa303_aircraft_that_fought_in_hostile_territory_and_stays(run):
    s = ncm([unit("Karelia S.S.R.", G, "bomber", moved=2, fought=True)])
    findings = run(s, [])
    assert codes(findings) == ["AA303"]
    assert "not friendly at the start of the turn" in findings[0].message


def test_aa303_bomber_at_sea_is_wrong_domain(run):
    findings = run(ncm(AIR), [mv({"bomber": 1}, "Germany", "5 Sea Zone")])
    assert codes(findings) == ["AA105"]
    assert "bombers never land at sea" in findings[0].message


def test_aa303_fighter_that_lands_on_a_carrier_that_then_moves_away(run):
    # the fighter is aboard from its landing on; the carrier's move is AA306, the fighter goes with it
    findings = run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv(["C1"], "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA306"]


# --- AA304 carrier-full -----------------------------------------------------------------


def test_aa304_three_fighters_onto_one_carrier(run):
    findings = run(ncm(AIR), [mv({"fighter": 3}, "Germany", "5 Sea Zone")])
    assert codes(findings) == ["AA304"]
    assert "5 Sea Zone" in findings[0].message and findings[0].order == 1


def test_aa304_names_the_last_order_to_the_zone(run):
    findings = run(ncm(AIR), [
        mv({"fighter": 1}, "Germany", "5 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone"),
    ])
    assert codes(findings) == ["AA304"]
    assert findings[0].order == 3


def test_aa304_allied_fighters_aboard_take_slots(run):
    s = ncm([unit("Germany", G, "fighter"), unit("5 Sea Zone", G, "carrier", id="C1"),
             unit("5 Sea Zone", J, "fighter", 2, aboard="C1")])
    findings = run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone")])
    assert codes(findings) == ["AA304"]


def test_aa304_silent_when_the_carrier_comes_after_the_fighters(run):
    # N15: a carrier that moves there picks the fighters up, whatever the order of the moves
    findings = run(ncm(AIR), [
        mv({"fighter": 2}, "Germany", "5 Sea Zone", "6 Sea Zone"),
        mv(["C1"], "5 Sea Zone", "6 Sea Zone"),
    ])
    assert findings == []


def test_aa304_carrier_that_comes_later_still_has_two_slots(run):
    findings = run(ncm(AIR), [
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone"),
        mv(["C1"], "5 Sea Zone", "6 Sea Zone"),
    ])
    assert codes(findings) == ["AA304"]
    assert findings[0].order == 3 and "3 fighters end in 6 Sea Zone" in findings[0].message


def test_aa304_silent_for_two_fighters(run):
    assert run(ncm(AIR), [mv({"fighter": 2}, "Germany", "5 Sea Zone")]) == []


# --- AA305 new-carrier-zone -------------------------------------------------------------

WAIT = [unit("Germany", G, "fighter", 3), unit("Germany", G, "factory"), unit("Italy", G, "factory"),
        unit("France", G, "fighter")]


def test_aa305_silent_next_to_own_factory_with_a_bought_carrier(run):
    s = ncm(WAIT, purchased={"carrier": 1})
    assert run(s, [mv({"fighter": 2}, "Germany", "5 Sea Zone")]) == []


def test_aa305_zone_not_next_to_a_factory(run):
    s = ncm(WAIT, purchased={"aircraft_carrier": 1})
    findings = run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA305"]
    assert "6 Sea Zone is not next to a factory" in findings[0].message


def test_aa305_factory_not_held_since_the_turn_began(run):
    s = ncm(WAIT, purchased={"carrier": 1}, control={"Italy": G}, captured=["Italy"])
    findings = run(s, [mv({"fighter": 1}, "France", "Italy", "15 Sea Zone")])
    assert codes(findings) == ["AA305"]


def test_aa305_one_bought_carrier_takes_two_fighters(run):
    s = ncm(WAIT, purchased={"carrier": 1})
    findings = run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone") for _ in range(3)])
    assert codes(findings) == ["AA305"]
    assert findings[0].order == 3


def test_aa305_one_bought_carrier_is_placed_in_one_zone(run):
    s = ncm(WAIT, purchased={"carrier": 1})
    findings = run(
        s, [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv({"fighter": 1}, "France", "Italy", "15 Sea Zone")]
    )
    assert codes(findings) == ["AA305"]


def test_aa305_silent_with_two_bought_carriers_in_two_zones(run):
    s = ncm(WAIT, purchased={"carrier": 2})
    assert (
        run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv({"fighter": 1}, "France", "Italy", "15 Sea Zone")])
        == []
    )


def test_aa305_option_off_means_no_carrier_to_wait_for(run):
    s = ncm(WAIT, purchased={"carrier": 1}, options={"land_on_new_carrier": False})
    assert codes(run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone")])) == ["AA303"]


def test_aa305_next_to_a_full_carrier_the_bought_one_takes_the_rest(run):
    s = ncm([*WAIT, unit("5 Sea Zone", G, "carrier")], purchased={"carrier": 1})
    assert run(s, [mv({"fighter": 3}, "Germany", "5 Sea Zone")]) == []


# --- AA306 landed-move-over -------------------------------------------------------------


def test_aa306_carrier_moves_after_a_fighter_landed(run):
    findings = run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv(["C1"], "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA306"]
    assert findings[0].order == 2 and "C1" in findings[0].message


def test_aa306_fighter_moves_again_after_its_carrier_moved_with_it(run):
    findings = run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv(["C1"], "5 Sea Zone", "6 Sea Zone"),
                              mv({"fighter": 1}, "6 Sea Zone", "Norway")])
    assert codes(findings) == ["AA306", "AA306"]
    assert [f.order for f in findings] == [2, 3]


def test_aa306_silent_for_a_fighter_whose_journey_passes_the_carrier(run):
    """Written as two orders, the flight over the carrier is the one-order flight: it did not land."""
    findings = run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone"), mv({"fighter": 1}, "5 Sea Zone", "Germany")])
    assert findings == []
    assert run(ncm(AIR), [mv({"fighter": 1}, "Germany", "5 Sea Zone", "Germany")]) == []


def test_aa306_silent_when_the_carrier_moves_first(run):
    findings = run(
        ncm(AIR), [mv(["C1"], "5 Sea Zone", "6 Sea Zone"), mv({"fighter": 2}, "Germany", "5 Sea Zone", "6 Sea Zone")]
    )
    assert findings == []


def test_aa306_silent_for_fighters_riding_a_moving_carrier(run):
    s = ncm([unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "fighter", 2, aboard="C1")])
    assert run(s, [mv({"carrier": 1, "fighter": 2}, "5 Sea Zone", "6 Sea Zone")]) == []


# --- AA307 transport-after-combat -------------------------------------------------------

CARGO = [unit("Germany", G, "infantry", 2)]


@pytest.mark.parametrize("status", [{"moved": 1}, {"fought": True}, {"loaded": True}, {"unloaded": "Karelia S.S.R."}],
                         ids=["moved", "fought", "loaded", "unloaded"])
def test_aa307_transport_that_acted_in_combat_may_not_move(run, status):
    s = ncm([*CARGO, unit("5 Sea Zone", G, "transport", id="T1", **status)])
    findings = run(s, [mv(["T1"], "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA307"]
    assert "T1" in findings[0].message


@pytest.mark.parametrize("status", [{"moved": 1}, {"fought": True}], ids=["moved", "fought"])
def test_aa307_transport_that_acted_in_combat_may_not_load_or_unload(run, status):
    s = ncm(
        [*CARGO, unit("5 Sea Zone", G, "transport", id="T1", **status), unit("5 Sea Zone", G, "infantry", aboard="T1")]
    )
    assert codes(run(s, [mv({"infantry": 1}, "Germany", "5 Sea Zone")])) == ["AA307"]
    assert codes(run(s, [mv({"infantry": 1}, "5 Sea Zone", "Germany")])) == ["AA307"]


def test_aa307_silent_for_a_transport_that_stayed_out_of_combat(run):
    s = ncm([*CARGO, unit("5 Sea Zone", G, "transport", id="T1")])
    findings = run(s, [
        mv({"infantry": 2}, "Germany", "5 Sea Zone"),
        mv(["T1"], "5 Sea Zone", "6 Sea Zone"),
        mv({"infantry": 2}, "6 Sea Zone", "Northwestern Europe"),
    ])
    assert findings == []


def test_aa307_off_with_option(run):
    s = ncm([*CARGO, unit("5 Sea Zone", G, "transport", id="T1", moved=1)],
            options={"transport_ncm_after_combat": True})
    assert run(s, [mv(["T1"], "5 Sea Zone", "6 Sea Zone")]) == []


def test_aa403_with_option_a_transport_that_unloaded_in_combat_still_stays(run):
    s = ncm([*CARGO, unit("5 Sea Zone", G, "transport", id="T1", unloaded="Karelia S.S.R.")],
            options={"transport_ncm_after_combat": True})
    assert codes(run(s, [mv(["T1"], "5 Sea Zone", "6 Sea Zone")])) == ["AA403"]


def test_aa404_after_a_combat_unload(run):
    s = ncm([unit("5 Sea Zone", G, "transport", id="T1", unloaded="Karelia S.S.R."),
             unit("5 Sea Zone", G, "infantry", aboard="T1")],
            options={"transport_ncm_after_combat": True})
    findings = run(s, [mv({"infantry": 1}, "5 Sea Zone", "Germany")])
    assert codes(findings) == ["AA404"]
    assert "Karelia S.S.R." in findings[0].message


def test_aa405_cargo_loaded_in_combat_onto_an_allied_transport(run):
    s = ncm([unit("5 Sea Zone", J, "transport", id="Maru", loaded=True),
             unit("5 Sea Zone", G, "infantry", aboard="Maru")],
            options={"transport_ncm_after_combat": True})
    findings = run(s, [mv({"infantry": 1}, "5 Sea Zone", "Germany")])
    assert codes(findings) == ["AA405"]


# --- AA308 air-destroyed ----------------------------------------------------------------


def test_aa308_unmoved_fighter_at_sea_without_carrier(run):
    s = ncm([unit("6 Sea Zone", G, "fighter"), unit("Germany", G, "infantry")])
    findings = run(s, [mv({"infantry": 1}, "Germany", "Poland")])
    warnings = only(findings, "AA308")
    assert len(warnings) == 1 and warnings[0].severity.value == "warning"
    assert "will be destroyed" in warnings[0].message
    assert errors(findings) == []


def test_aa308_silent_for_a_fighter_aboard_its_carrier(run):
    s = ncm([unit("6 Sea Zone", G, "carrier", id="C1"), unit("6 Sea Zone", G, "fighter", aboard="C1"),
             unit("Germany", G, "infantry")])
    assert run(s, [mv({"infantry": 1}, "Germany", "Poland")]) == []


def test_aa308_silent_when_the_stranded_fighter_flies_home(run):
    s = ncm([unit("6 Sea Zone", G, "fighter")])
    findings = run(s, [mv({"fighter": 1}, "6 Sea Zone", "Northwestern Europe")])
    assert codes(findings) == ["AA905"]  # the state's own lint warning: no carrier under it
