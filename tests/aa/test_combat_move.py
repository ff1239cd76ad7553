"""Combat-move clauses on the built-in aa1942-2e map: each fires where it must, and stays
silent for the closest legal move."""

from __future__ import annotations

from .conftest import codes, mv, only, state, unit

G, J = "Germans", "Japanese"
R, B, A = "Russians", "British", "Americans"
CM = "combat_move"

# Russian Ukraine with one infantry: a battle to move into, Poland between it and Germany.
EAST = {"Ukraine S.S.R.": R, "Belorussia": R, "West Russia": R, "Caucasus": R, "Baltic States": R}


def east(*extra, **kw):
    units = [
        unit("Germany", G, "tank", 2),
        unit("Germany", G, "infantry", 2),
        unit("Germany", G, "fighter", 2),
        unit("Ukraine S.S.R.", R, "infantry"),
    ]
    return state(G, units=units + list(extra), control={**EAST, **kw.pop("control", {})}, **kw)


# --- the full 1942 setup ------------------------------------------------------------------


def test_full_setup_legal_german_opening_is_clean(run):
    findings = run(state(G), [
        mv({"infantry": 3, "artillery": 1, "tank": 1}, "Ukraine S.S.R.", "Caucasus"),
        mv({"fighter": 1}, "Ukraine S.S.R.", "Caucasus"),
        mv({"infantry": 3, "artillery": 1, "tank": 1}, "West Russia", "Karelia S.S.R."),
        mv({"bomber": 1}, "Germany", "Baltic States", "Karelia S.S.R."),
        mv({"infantry": 1, "artillery": 1}, "Southern Europe", "15 Sea Zone"),
        mv({"transport": 1}, "15 Sea Zone", "17 Sea Zone"),
        mv({"battleship": 1}, "15 Sea Zone", "17 Sea Zone"),
        mv({"infantry": 1, "artillery": 1}, "17 Sea Zone", "Egypt"),
        mv({"infantry": 1, "tank": 1}, "Libya", "Egypt"),
        mv({"submarine": 2}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone"),
        mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone"),
        mv({"fighter": 1}, "Norway", "6 Sea Zone", "7 Sea Zone"),
        mv({"fighter": 1}, "Northwestern Europe", "6 Sea Zone", "7 Sea Zone"),
    ])
    assert findings == []


def test_full_setup_tank_through_defended_caucasus(run):
    findings = run(state(G), [mv({"tank": 1}, "Ukraine S.S.R.", "Caucasus", "Persia")])
    assert codes(findings) == ["AA201"]
    assert "Caucasus" in findings[0].message


def test_full_setup_british_fleet_on_the_german_turn(run):
    findings = run(state(G), [mv({"battleship": 1}, "7 Sea Zone", "6 Sea Zone", "5 Sea Zone")])
    assert codes(findings) == ["AA103"]
    assert "British" in findings[0].message


# --- AA101 path-not-adjacent ------------------------------------------------------------


def test_aa101_non_adjacent_step_position_and_message(run):
    text = (
        "movecheck: 1\nsystem: aa\npower: Germans\nphase: combat_move\nmoves:\n"
        "  - id: jump\n"
        "    units: {tank: 1}\n"
        "    path: [Germany, Ukraine S.S.R.]\n"
    )
    findings = run(east(), text)
    assert codes(findings) == ["AA101"]
    f = findings[0]
    assert (f.order, f.order_id, f.line, f.column) == (1, "jump", 8, 21)
    assert "Ukraine S.S.R." in f.message and "Germany" in f.message


def test_aa101_silent_for_the_adjacent_route(run):
    assert run(east(), [mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R.")]) == []


def test_aa101_canal_zones_are_adjacent(run):
    s = state(B, units=[unit("17 Sea Zone", B, "destroyer"), unit("34 Sea Zone", J, "cruiser")])
    assert run(s, [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")]) == []


def test_aa101_sea_zones_that_do_not_touch(run):
    s = state(B, units=[unit("17 Sea Zone", B, "destroyer"), unit("33 Sea Zone", J, "cruiser")])
    findings = run(s, [mv({"destroyer": 1}, "17 Sea Zone", "33 Sea Zone")])
    assert codes(findings) == ["AA101"]


# --- AA102 units-not-present ------------------------------------------------------------


def test_aa102_no_such_units_there(run):
    findings = run(east(), [mv({"artillery": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA102"]
    assert "artillery" in findings[0].message and "Germany" in findings[0].message


def test_aa102_full_setup_no_tank_in_norway(run):
    findings = run(state(G), [mv({"tank": 1}, "Norway", "Finland", "Karelia S.S.R.")])
    assert codes(findings) == ["AA102"]


def test_aa102_units_moved_away_by_an_earlier_order(run):
    findings = run(east(), [
        mv({"tank": 2}, "Germany", "Poland", "Ukraine S.S.R."),
        mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R."),
    ])
    assert codes(findings) == ["AA102"]
    assert findings[0].order == 2


def test_aa102_silent_while_enough_units_remain(run):
    findings = run(east(), [
        mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R."),
        mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R."),
    ])
    assert findings == []


def test_aa102_unit_id_elsewhere(run):
    s = east(unit("Poland", G, "tank", id="Panzer1"))
    findings = run(s, [mv(["Panzer1"], "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA102"]
    assert "Panzer1 is in Poland" in findings[0].message


def test_aa102_silent_for_unit_id_where_it_stands(run):
    s = east(unit("Poland", G, "tank", id="Panzer1"))
    assert run(s, [mv(["Panzer1"], "Poland", "Ukraine S.S.R.")]) == []


# --- AA103 not-own-units ----------------------------------------------------------------


def test_aa103_allied_units_are_not_ordered(run):
    s = east(unit("Poland", J, "infantry"), unit("Poland", G, "infantry"))
    findings = run(s, [mv({"infantry": 2}, "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA103"]
    assert "Japanese" in findings[0].message


def test_aa103_enemy_units_are_not_ordered(run):
    findings = run(east(), [mv({"infantry": 1}, "Ukraine S.S.R.", "Poland")])
    assert codes(findings) == ["AA103"]
    assert "Russians" in findings[0].message


def test_aa103_id_of_another_power(run):
    s = east(unit("Poland", J, "tank", id="Ha-Go"))
    findings = run(s, [mv(["Ha-Go"], "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA103"]
    assert "Ha-Go belongs to the Japanese" in findings[0].message


def test_aa103_silent_for_own_units_beside_allied_ones(run):
    s = east(unit("Poland", J, "infantry"), unit("Poland", G, "infantry"))
    assert run(s, [mv({"infantry": 1}, "Poland", "Ukraine S.S.R.")]) == []


# --- AA104 movement-exceeded ------------------------------------------------------------


def test_aa104_infantry_two_steps(run):
    findings = run(east(), [mv({"infantry": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA104"]
    assert "needs 2 movement" in findings[0].message and "has 1 left" in findings[0].message


def test_aa104_factory_never_moves(run):
    s = east(unit("Germany", G, "factory"))
    findings = run(s, [mv({"factory": 1}, "Germany", "Poland", "Ukraine S.S.R.")])
    assert "AA104" in codes(findings)
    assert any("never moves" in f.message for f in only(findings, "AA104"))


def test_aa104_fighter_four_spaces_is_within_range(run):
    # four spaces out to attack a lone transport, landing on the own carrier waiting there
    s = state(G, units=[unit("Germany", G, "fighter"), unit("6 Sea Zone", G, "carrier"),
                        unit("6 Sea Zone", B, "transport")])
    findings = run(s, [mv({"fighter": 1}, "Germany", "5 Sea Zone", "Norway", "3 Sea Zone", "6 Sea Zone", attack=True)])
    assert findings == []


def test_aa104_fighter_five_spaces_is_too_far(run):
    s = state(G, units=[unit("Germany", G, "fighter"), unit("Archangel", R, "infantry")])
    findings = run(
        s, [mv({"fighter": 1}, "Germany", "Poland", "Belorussia", "Karelia S.S.R.", "West Russia", "Archangel")]
    )
    assert "AA104" in codes(findings)
    assert "needs 5 movement" in only(findings, "AA104")[0].message


def test_aa104_cargo_voyage_costs_nothing(run):
    # the infantry spends its one point on the load; the voyage and the unload are free
    s = state(G, units=[
        unit("Germany", G, "infantry"),
        unit("5 Sea Zone", G, "transport"),
        unit("United Kingdom", B, "infantry"),
    ])
    findings = run(s, [
        mv({"infantry": 1}, "Germany", "5 Sea Zone"),
        mv({"transport": 1}, "5 Sea Zone", "6 Sea Zone"),
        mv({"infantry": 1}, "6 Sea Zone", "United Kingdom"),
    ])
    assert findings == []


def test_aa104_tank_three_steps(run):
    s = state(G, units=[unit("Germany", G, "tank")], control=EAST)
    findings = run(s, [mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R.", "Caucasus")])
    assert codes(findings) == ["AA104"]


# --- AA105 wrong-domain -----------------------------------------------------------------


def test_aa105_ship_onto_land(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("Karelia S.S.R.", R, "infantry")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "Karelia S.S.R.")])
    assert codes(findings) == ["AA105"]
    assert "Karelia S.S.R." in findings[0].message


def test_aa105_infantry_cannot_sail_on_its_own(run):
    s = state(G, units=[
        unit("5 Sea Zone", G, "transport", id="T1"),
        unit("5 Sea Zone", G, "infantry", aboard="T1"),
        unit("United Kingdom", B, "infantry"),
    ])
    findings = run(s, [mv({"infantry": 1}, "5 Sea Zone", "6 Sea Zone", "United Kingdom")])
    assert "AA105" in codes(findings)
    assert "on their own" in only(findings, "AA105")[0].message


def test_aa105_load_where_no_transport_waits(run):
    s = state(G, units=[unit("Norway", G, "infantry"), unit("United Kingdom", B, "infantry")])
    findings = run(s, [mv({"infantry": 1}, "Norway", "6 Sea Zone", "United Kingdom")])
    assert codes(findings) == ["AA105"]
    assert "no transport" in findings[0].message


def test_aa105_silent_for_load_and_unload_from_one_zone(run):
    s = state(G, units=[
        unit("Norway", G, "infantry"),
        unit("6 Sea Zone", G, "transport"),
        unit("United Kingdom", B, "infantry"),
    ])
    assert run(s, [mv({"infantry": 1}, "Norway", "6 Sea Zone", "United Kingdom")]) == []


# --- AA106 neutral ----------------------------------------------------------------------


def test_aa106_land_units_into_a_neutral(run):
    s = state(G, units=[unit("Norway", G, "infantry")])
    findings = run(s, [mv({"infantry": 1}, "Norway", "Sweden")])
    assert "AA106" in codes(findings)
    assert "Sweden" in only(findings, "AA106")[0].message


def test_aa106_aircraft_cannot_overfly_a_neutral(run):
    s = state(G, units=[unit("France", G, "bomber"), unit("Gibraltar", B, "infantry")])
    findings = run(s, [mv({"bomber": 1}, "France", "Spain Portugal", "Gibraltar")])
    assert codes(findings) == ["AA106"]
    assert "Spain Portugal" in findings[0].message


def test_aa106_silent_for_aircraft_around_the_neutral(run):
    s = state(G, units=[unit("France", G, "bomber"), unit("Gibraltar", B, "infantry")])
    assert run(s, [mv({"bomber": 1}, "France", "14 Sea Zone", "Gibraltar")]) == []


def test_aa106_off_with_option(run):
    s = state(G, units=[unit("France", G, "bomber"), unit("Gibraltar", B, "infantry")],
              options={"neutrals_impassable": False})
    assert run(s, [mv({"bomber": 1}, "France", "Spain Portugal", "Gibraltar")]) == []


# --- AA108 aa-gun-combat-move -----------------------------------------------------------


def test_aa108_aa_gun_in_combat_move(run):
    s = east(unit("Poland", G, "aa_gun"))
    findings = run(s, [mv({"aa_gun": 1}, "Poland", "Ukraine S.S.R.")])
    assert codes(findings) == ["AA108"]


def test_aa108_off_with_option(run):
    s = east(unit("Poland", G, "aa_gun"), options={"aa_guns_move_in_combat": True})
    assert run(s, [mv({"aa_gun": 1}, "Poland", "Ukraine S.S.R.")]) == []


# --- AA109 canal-closed -----------------------------------------------------------------

SUEZ = [unit("17 Sea Zone", G, "destroyer"), unit("34 Sea Zone", B, "cruiser")]


def test_aa109_suez_closed_gives_aa109_only(run):
    findings = run(state(G, units=SUEZ), [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")])
    assert codes(findings) == ["AA109"]
    assert "Suez Canal" in findings[0].message
    assert "Egypt" in findings[0].message and "Trans-Jordan" in findings[0].message


def test_aa109_one_canal_territory_is_not_enough(run):
    s = state(G, units=SUEZ, control={"Trans-Jordan": G})
    findings = run(s, [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")])
    assert codes(findings) == ["AA109"]
    assert "Egypt" in findings[0].message and "Trans-Jordan" not in findings[0].message


def test_aa109_open_when_both_held(run):
    s = state(G, units=SUEZ, control={"Egypt": G, "Trans-Jordan": J})
    assert run(s, [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone")]) == []


def test_aa109_full_setup_british_pass_their_own_canal(run):
    findings = run(state(B), [mv({"destroyer": 1}, "17 Sea Zone", "34 Sea Zone", "35 Sea Zone")])
    # Suez is open for the British; the move is merely not an attack
    assert codes(findings) == ["AA203"]


# --- AA201 stop-in-hostile --------------------------------------------------------------


def test_aa201_tank_through_defended_territory(run):
    s = east(unit("Poland", G, "tank", id="P"))
    findings = run(s, [mv(["P"], "Poland", "Ukraine S.S.R.", "Caucasus")])
    assert codes(findings) == ["AA201"]
    assert "must stop in Ukraine S.S.R." in findings[0].message


def test_aa201_silent_when_the_tank_stops_in_the_defended_territory(run):
    s = east(unit("Poland", G, "tank", id="P"))
    assert run(s, [mv(["P"], "Poland", "Ukraine S.S.R.")]) == []


def test_aa201_ship_through_hostile_zone(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "destroyer"),
                        unit("8 Sea Zone", B, "battleship")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")])
    assert codes(findings) == ["AA201"]
    assert "6 Sea Zone" in findings[0].message


def test_aa201_silent_when_the_ship_stops_in_the_hostile_zone(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "destroyer")])
    assert run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone")]) == []


def test_aa201_silent_for_friendly_then_hostile(run):
    s = east(unit("Bulgaria Romania", G, "tank"))
    assert run(s, [mv({"tank": 1}, "Bulgaria Romania", "Poland", "Ukraine S.S.R.")]) == []


SUB_ZONE = [unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "submarine"),
            unit("6 Sea Zone", B, "transport"), unit("8 Sea Zone", B, "battleship")]


def test_aa201_zone_with_only_subs_and_transports_is_not_hostile(run):
    findings = run(state(G, units=SUB_ZONE), [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")])
    assert findings == []


def test_aa201_zone_with_only_subs_and_transports_hostile_with_option(run):
    s = state(G, units=SUB_ZONE, options={"sub_transport_zones_hostile": True})
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "8 Sea Zone")])
    assert codes(findings) == ["AA201"]
    assert "submarine" in findings[0].message


def test_aa201_aircraft_fly_over_hostile_spaces(run):
    # over defended Ukraine into Caucasus, and back the same way with two points left
    s = east(unit("Caucasus", R, "infantry"), unit("Bulgaria Romania", G, "fighter", id="F"))
    assert run(s, [mv(["F"], "Bulgaria Romania", "Ukraine S.S.R.", "Caucasus")]) == []


# --- AA202 blitz ------------------------------------------------------------------------


def test_aa202_tank_through_territory_with_only_an_aa_gun(run):
    s = east(unit("Belorussia", R, "aa_gun"), unit("Poland", G, "tank", id="P"))
    findings = run(s, [mv(["P"], "Poland", "Belorussia", "West Russia")])
    assert codes(findings) == ["AA202"]
    assert "1 Russian AA gun" in findings[0].message and "Belorussia" in findings[0].message


def test_aa202_tank_through_territory_with_only_a_factory(run):
    s = east(unit("Belorussia", R, "factory"), unit("Poland", G, "tank", id="P"))
    findings = run(s, [mv(["P"], "Poland", "Belorussia", "West Russia")])
    assert codes(findings) == ["AA202"]


def test_aa202_silent_for_a_blitz_through_an_empty_hostile_territory(run):
    s = east(unit("Poland", G, "tank", id="P"))
    assert run(s, [mv(["P"], "Poland", "Baltic States", "Karelia S.S.R.")]) == []


def test_aa202_blitz_back_into_friendly_territory_is_a_combat_move(run):
    # the tank takes the empty Baltic States on the way: a combat move even though it ends home
    s = east(unit("Poland", G, "tank", id="P"))
    assert run(s, [mv(["P"], "Poland", "Baltic States", "Germany")]) == []


# --- AA203 not-a-combat-move ------------------------------------------------------------


def test_aa203_friendly_to_friendly(run):
    findings = run(east(), [mv({"tank": 1}, "Germany", "Poland")])
    assert codes(findings) == ["AA203"]
    assert findings[0].order == 1 and "Poland" in findings[0].message


def test_aa203_full_setup_shuffle_between_own_territories(run):
    findings = run(state(G), [mv({"infantry": 1}, "Germany", "Poland")])
    assert codes(findings) == ["AA203"]


def test_aa203_silent_for_an_attack(run):
    assert run(east(), [mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R.")]) == []


def test_aa203_off_with_option(run):
    s = east(options={"combat_move_must_attack": False})
    assert run(s, [mv({"tank": 1}, "Germany", "Poland")]) == []


AMPHIBIOUS = [
    unit("Germany", G, "infantry"),
    unit("Germany", G, "tank"),
    unit("5 Sea Zone", G, "transport", id="T1"),
    unit("5 Sea Zone", G, "cruiser"),
    unit("United Kingdom", B, "infantry", 2),
]


def test_aa203_silent_for_amphibious_assault_with_escort(run):
    findings = run(state(G, units=AMPHIBIOUS), [
        mv({"infantry": 1, "tank": 1}, "Germany", "5 Sea Zone", transport="T1"),
        mv(["T1"], "5 Sea Zone", "6 Sea Zone"),
        mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone"),
        mv({"infantry": 1, "tank": 1}, "6 Sea Zone", "United Kingdom"),
    ])
    assert findings == []


def test_aa203_load_and_sail_without_an_assault(run):
    findings = run(state(G, units=AMPHIBIOUS), [
        mv({"infantry": 1, "tank": 1}, "Germany", "5 Sea Zone", transport="T1"),
        mv(["T1"], "5 Sea Zone", "6 Sea Zone"),
        mv({"infantry": 1, "tank": 1}, "6 Sea Zone", "Northwestern Europe"),
    ])
    assert codes(findings) == ["AA203", "AA203", "AA203"]
    assert [f.order for f in findings] == [1, 2, 3]


def test_aa203_load_for_a_later_turn(run):
    findings = run(state(G, units=AMPHIBIOUS), [mv({"infantry": 1}, "Germany", "5 Sea Zone")])
    assert codes(findings) == ["AA203"]


def test_aa203_cargo_sailing_into_a_sea_battle_without_landing(run):
    # the transport's move into the sea battle is a combat move; loading for no assault is not
    s = state(G, units=[*AMPHIBIOUS, unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [
        mv({"infantry": 1}, "Germany", "5 Sea Zone", transport="T1"),
        mv(["T1"], "5 Sea Zone", "6 Sea Zone"),
    ])
    assert codes(findings) == ["AA203"]
    assert findings[0].order == 1 and "must be unloaded" in findings[0].message


def test_aa203_silent_for_ships_leaving_a_hostile_zone(run):
    s = state(G, units=[unit("6 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "battleship")])
    assert run(s, [mv({"cruiser": 1}, "6 Sea Zone", "5 Sea Zone")]) == []


def test_aa203_silent_for_an_attack_on_a_lone_transport(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "transport")])
    assert run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", attack=True)]) == []
    assert run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", attack="SZ 6")]) == []


def test_aa203_sailing_into_a_lone_transport_without_attack(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "transport")])
    assert codes(run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone")])) == ["AA203"]


def test_aa203_attack_on_an_empty_zone_is_no_battle(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("7 Sea Zone", B, "transport")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", attack=True)])
    assert codes(findings) == ["AA203"]


# --- AA204 sub-stops-at-destroyer -------------------------------------------------------

SUBS = [unit("5 Sea Zone", G, "submarine"), unit("7 Sea Zone", B, "transport")]


def test_aa204_sub_passing_an_enemy_destroyer(run):
    s = state(G, units=[*SUBS, unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone", attack=True)])
    assert codes(findings) == ["AA204"]
    assert "6 Sea Zone" in findings[0].message


def test_aa204_silent_past_a_zone_without_destroyer(run):
    s = state(G, units=[*SUBS, unit("6 Sea Zone", B, "battleship")])
    assert run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone", attack=True)]) == []


def test_aa204_off_with_option(run):
    s = state(G, units=[*SUBS, unit("6 Sea Zone", B, "destroyer")], options={"destroyer_stops_subs": False})
    assert run(s, [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone", attack=True)]) == []


def test_aa204_full_setup_german_subs_past_the_british_destroyer(run):
    # 9 Sea Zone's U-boats: 10 Sea Zone holds a British destroyer and transport
    findings = run(state(G), [mv({"submarine": 2}, "9 Sea Zone", "10 Sea Zone", "11 Sea Zone")])
    assert codes(findings) == ["AA204"]


# --- AA205 attacker-must-stop -----------------------------------------------------------


def test_aa205_attack_zone_not_last(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "transport")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone", attack="6 Sea Zone")])
    assert codes(findings) == ["AA205"]
    assert "6 Sea Zone" in findings[0].message


def test_aa205_attack_zone_not_on_the_path(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "transport"),
                        unit("7 Sea Zone", B, "transport")])
    findings = run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", attack="7 Sea Zone")])
    assert codes(findings) == ["AA205"]


def test_aa205_silent_when_the_attacker_ends_there(run):
    s = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("7 Sea Zone", B, "transport")])
    assert run(s, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone", attack="7 Sea Zone")]) == []


# --- AA206 left-battle ------------------------------------------------------------------


def test_aa206_unit_moves_on_after_entering_a_battle(run):
    # one step into the battle, one point left: only the battle stops it
    findings = run(east(unit("Poland", G, "tank")), [
        mv({"tank": 1}, "Poland", "Ukraine S.S.R."),
        mv({"tank": 1}, "Ukraine S.S.R.", "Caucasus"),
    ])
    assert codes(findings) == ["AA206"]
    assert findings[0].order == 2 and "order 1" in findings[0].message


def test_aa206_silent_for_more_units_joining_the_battle(run):
    s = east(unit("Poland", G, "infantry"))
    assert run(s, [
        mv({"tank": 1}, "Germany", "Poland", "Ukraine S.S.R."),
        mv({"infantry": 1}, "Poland", "Ukraine S.S.R."),
    ]) == []


# --- AA207 no-safe-landing --------------------------------------------------------------


def test_aa207_kamikaze_fighter(run):
    s = state(J, units=[unit("Okinawa", J, "fighter"), unit("58 Sea Zone", A, "destroyer")])
    findings = run(s, [mv({"fighter": 1}, "Okinawa", "51 Sea Zone", "59 Sea Zone", "58 Sea Zone")])
    assert codes(findings) == ["AA207"]
    f = findings[0]
    assert f.order == 1 and "58 Sea Zone" in f.message and "1 movement left" in f.message
    assert "nearest landing" in f.message and "Iwo Jima (2)" in f.message


def test_aa207_two_stranded_fighters_are_counted(run):
    """Two fighters without an id stranded by one order: one finding that says two (it said "1 fighter")."""
    s = state(J, units=[unit("Okinawa", J, "fighter", 2), unit("58 Sea Zone", A, "destroyer")])
    findings = run(s, [mv({"fighter": 2}, "Okinawa", "51 Sea Zone", "59 Sea Zone", "58 Sea Zone")])
    assert codes(findings) == ["AA207"]
    assert findings[0].message.startswith("2 Japanese fighters in 58 Sea Zone have 1 movement left and cannot land")


def test_aa207_silent_with_a_friendly_territory_in_reach(run):
    s = state(J, units=[unit("Iwo Jima", J, "fighter"), unit("58 Sea Zone", A, "destroyer")])
    assert run(s, [mv({"fighter": 1}, "Iwo Jima", "59 Sea Zone", "58 Sea Zone")]) == []


def test_aa207_full_setup_german_bomber_too_deep(run):
    findings = run(state(G), [mv({"bomber": 1}, "Germany", "Poland", "Belorussia", "West Russia",
                                 "Russia", "Kazakh S.S.R.", "Novosibirsk")])
    assert codes(findings) == ["AA207"]


FLEET = [unit("Germany", G, "fighter", 3), unit("7 Sea Zone", B, "battleship")]


def test_aa207_fighters_land_on_a_carrier_that_stays(run):
    s = state(G, units=[*FLEET, unit("6 Sea Zone", G, "carrier")])
    assert run(s, [mv({"fighter": 2}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")]) == []


def test_aa207_landing_on_a_carrier_that_must_move_is_a_note(run):
    s = state(G, units=[*FLEET, unit("5 Sea Zone", G, "carrier", id="Graf Zeppelin")])
    findings = run(s, [mv({"fighter": 2}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")])
    assert codes(findings) == ["AA309"]
    assert findings[0].severity.value == "note" and "Graf Zeppelin" in findings[0].message


def test_aa207_carrier_slots_contested(run):
    # three fighters, one 2-slot carrier in reach: exactly one has no landing
    s = state(G, units=[*FLEET, unit("5 Sea Zone", G, "carrier")])
    findings = run(s, [mv({"fighter": 3}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")])
    assert codes(only(findings, "AA207")) == ["AA207"]
    assert "needed by other fighters" in only(findings, "AA207")[0].message


def test_aa207_contested_slots_across_orders_names_the_last(run):
    s = state(G, units=[*FLEET, unit("6 Sea Zone", G, "carrier")])
    findings = run(s, [
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone"),
        mv({"fighter": 1}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone"),
    ])
    assert codes(findings) == ["AA207"]
    assert findings[0].order == 3


BOUGHT = [unit("Okinawa", J, "fighter"), unit("Japan", J, "factory"), unit("58 Sea Zone", A, "destroyer")]
DEEP = ["Okinawa", "51 Sea Zone", "59 Sea Zone", "58 Sea Zone"]


def test_aa207_bought_carrier_next_to_own_factory_gives_a_plan(run):
    findings = run(state(J, units=BOUGHT, purchased={"carrier": 1}), [mv({"fighter": 1}, *DEEP)])
    assert codes(findings) == ["AA309"]
    assert "bought this turn" in findings[0].message and "60 Sea Zone" in findings[0].message


def test_aa207_bought_carrier_without_the_option(run):
    s = state(J, units=BOUGHT, purchased={"carrier": 1}, options={"land_on_new_carrier": False})
    assert codes(run(s, [mv({"fighter": 1}, *DEEP)])) == ["AA207"]


def test_aa207_bought_carrier_needs_a_factory_held_since_the_turn_began(run):
    s = state(J, units=BOUGHT, purchased={"carrier": 1}, control={"Japan": A})
    assert "AA207" in codes(run(s, [mv({"fighter": 1}, *DEEP)]))


def test_aa207_bombers_never_land_on_carriers(run):
    s = state(J, units=[
        unit("Japan", J, "bomber"),
        unit("Okinawa", J, "fighter"),
        unit("57 Sea Zone", J, "carrier"),
        unit("57 Sea Zone", A, "destroyer"),
    ])
    long_way = ["Japan", "62 Sea Zone", "63 Sea Zone", "64 Sea Zone", "65 Sea Zone", "56 Sea Zone", "57 Sea Zone"]
    findings = run(s, [
        mv({"bomber": 1}, *long_way),
        mv({"fighter": 1}, "Okinawa", "51 Sea Zone", "59 Sea Zone", "57 Sea Zone"),
    ])
    assert codes(findings) == ["AA207"]
    assert findings[0].order == 1 and "bomber" in findings[0].message
