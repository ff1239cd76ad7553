"""Journeys and battle spaces (issue 14) on the built-in aa1942-2e map: a unit's orders in one
phase are one journey; AA206 is for battle spaces only; cargo may unload from a battle zone;
end-of-phase findings point at the order that moved the unit, or at ``moves:``.  Each case fires
where it must and stays silent for its legal counterpart."""

from __future__ import annotations

import pytest

from .conftest import codes, mv, only, orders, state, unit

G, J = "Germans", "Japanese"
R, B, A = "Russians", "British", "Americans"
CM, NCM = "combat_move", "noncombat_move"


def desert(*extra):
    """A British tank, bomber and infantry in Egypt; German Libya and Algeria are empty."""
    units = [unit("Egypt", B, "tank"), unit("Egypt", B, "bomber"), unit("Egypt", B, "infantry")]
    return state(B, units=units + list(extra))


# --- a blitz split over two orders ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["tank", "bomber"])
def test_blitz_split_over_two_orders_is_legal(run, kind):
    assert run(desert(), [mv({kind: 1}, "Egypt", "Libya"), mv({kind: 1}, "Libya", "Algeria")]) == []


@pytest.mark.parametrize("kind", ["tank", "bomber"])
def test_blitz_in_one_order_is_legal(run, kind):
    assert run(desert(), [mv({kind: 1}, "Egypt", "Libya", "Algeria")]) == []


def test_split_journey_judged_as_the_joined_path_for_infantry(run):
    joined = run(desert(), [mv({"infantry": 1}, "Egypt", "Libya", "Algeria")])
    split = run(desert(), [mv({"infantry": 1}, "Egypt", "Libya"), mv({"infantry": 1}, "Libya", "Algeria")])
    assert sorted(codes(joined)) == sorted(codes(split)) == ["AA104", "AA202"]
    blitz = only(split, "AA202")[0]
    assert blitz.order == 2 and "Libya" in blitz.message and "only tanks" in blitz.message


def test_split_journey_spends_movement_across_orders(run):
    findings = run(desert(), [mv({"tank": 1}, "Egypt", "Libya"), mv({"tank": 1}, "Libya", "Algeria", "Morocco")])
    assert codes(findings) == ["AA104"]
    assert findings[0].order == 2


def test_empty_hostile_territory_is_a_combat_destination_not_a_battle(run):
    assert run(desert(), [mv({"tank": 1}, "Egypt", "Libya")]) == []


def test_aa206_still_fires_when_the_first_order_ends_in_a_battle(run):
    findings = run(
        desert(unit("Libya", G, "infantry")), [mv({"tank": 1}, "Egypt", "Libya"), mv({"tank": 1}, "Libya", "Algeria")]
    )
    assert codes(findings) == ["AA206"]
    assert findings[0].order == 2 and "Libya" in findings[0].message


# --- cargo in a sea battle -------------------------------------------------------------------


def sea_battle(infantry: int = 2):
    units = [
        unit("Germany", G, "infantry", infantry),
        unit("6 Sea Zone", G, "cruiser"),
        unit("5 Sea Zone", G, "transport"),
        unit("5 Sea Zone", R, "transport"),
    ]
    return state(G, units=units)


def attack():
    return mv({"cruiser": 1}, "6 Sea Zone", "5 Sea Zone", attack=True)


def test_cargo_loaded_in_a_battle_zone_unloads_as_an_amphibious_assault(run):
    findings = run(sea_battle(), [attack(), mv({"infantry": 2}, "Germany", "5 Sea Zone"),
                                  mv({"infantry": 2}, "5 Sea Zone", "Karelia S.S.R.")])
    assert findings == []


def test_the_attacker_itself_may_not_move_on_from_the_battle_zone(run):
    findings = run(sea_battle(), [attack(), mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone")])
    assert "AA206" in codes(findings)


def test_refused_load_in_a_battle_zone_has_no_aa206_knock_on(run):
    findings = run(sea_battle(3), [attack(), mv({"infantry": 3}, "Germany", "5 Sea Zone"),
                                   mv({"infantry": 3}, "5 Sea Zone", "Karelia S.S.R.")])
    assert codes(findings) == ["AA401"]
    assert findings[0].order == 2


# --- tanks into friendly territory, canals, carriers ------------------------------------------


def test_tank_blitzes_into_a_friendly_territory(run):
    s = state(G, units=[unit("Germany", G, "tank")], control={"Poland": R, "Baltic States": G})
    assert run(s, [mv({"tank": 1}, "Germany", "Poland", "Baltic States")]) == []


def test_tank_into_a_friendly_territory_stops_at_an_enemy_aa_gun(run):
    s = state(
        G, units=[unit("Germany", G, "tank"), unit("Poland", R, "aa_gun")], control={"Poland": R, "Baltic States": G}
    )
    assert codes(run(s, [mv({"tank": 1}, "Germany", "Poland", "Baltic States")])) == ["AA202"]


SUEZ = {"Egypt": G}


def test_closed_canal_never_stops_aircraft(run):
    s = state(B, NCM, units=[unit("17 Sea Zone", B, "carrier"), unit("17 Sea Zone", B, "fighter")], control=SUEZ)
    findings = run(s, [mv({"fighter": 1}, "17 Sea Zone", "34 Sea Zone", "Anglo-Egyptian Sudan")])
    assert "AA109" not in codes(findings)
    assert findings == []


def test_closed_canal_stops_the_carrier(run):
    s = state(B, NCM, units=[unit("17 Sea Zone", B, "carrier")], control=SUEZ)
    findings = run(s, [mv({"carrier": 1}, "17 Sea Zone", "34 Sea Zone")])
    assert codes(findings) == ["AA109"]


def carrier_and_fighter():
    return state(B, NCM, units=[unit("United Kingdom", B, "fighter"), unit("7 Sea Zone", B, "carrier")])


@pytest.mark.parametrize("split", [False, True], ids=["one-order", "two-orders"])
def test_carrier_passing_a_waiting_fighter_does_not_land_it(run, split):
    carrier = ([mv({"carrier": 1}, "7 Sea Zone", "6 Sea Zone"), mv({"carrier": 1}, "6 Sea Zone", "5 Sea Zone")]
               if split else [mv({"carrier": 1}, "7 Sea Zone", "6 Sea Zone", "5 Sea Zone")])
    findings = run(carrier_and_fighter(), [mv({"fighter": 1}, "United Kingdom", "6 Sea Zone"), *carrier])
    assert codes(findings) == ["AA303"]
    assert findings[0].order == 1


def test_carrier_that_stays_with_the_waiting_fighter_lands_it(run):
    moves = [mv({"fighter": 1}, "United Kingdom", "6 Sea Zone"), mv({"carrier": 1}, "7 Sea Zone", "6 Sea Zone")]
    assert run(carrier_and_fighter(), moves) == []


# --- end-of-phase findings about units no order moved -------------------------------------------


def unlanded():
    units = [
        unit("Libya", B, "fighter", moved=2, fought=True),
        unit("Egypt", B, "infantry"),
        unit("Egypt", A, "infantry"),
    ]
    return state(B, NCM, units=units, control={"Libya": B}, captured=["Libya"])


def test_unmoved_unlanded_fighter_points_at_moves_key(run):
    text = orders(B, NCM, [mv({"infantry": 1}, "Egypt", "Trans-Jordan")])
    findings = run(unlanded(), text)
    assert codes(findings) == ["AA303"]
    f = findings[0]
    assert f.order is None and f.order_id is None
    assert f.line == text.splitlines().index("moves:") + 1  # not the line of the legal infantry move


def test_fighter_ordered_to_land_is_legal(run):
    findings = run(unlanded(), [mv({"infantry": 1}, "Egypt", "Trans-Jordan"), mv({"fighter": 1}, "Libya", "Egypt")])
    assert findings == []


# --- one cause, one finding -------------------------------------------------------------------


def test_factory_ordered_to_move_is_aa104_alone(run):
    s = state(G, units=[unit("Germany", G, "factory"), unit("Germany", G, "infantry")])
    findings = run(s, [mv({"factory": 1}, "Germany", "Poland")])
    assert codes(findings) == ["AA104"]
    assert "a factory never moves" in findings[0].message


def test_load_with_no_transport_is_aa105_alone(run):
    findings = run(state(G, units=[unit("Germany", G, "infantry", 2)]), [mv({"infantry": 2}, "Germany", "5 Sea Zone")])
    assert codes(findings) == ["AA105"]


def test_load_whose_transport_was_left_behind_is_told_so(run):
    units = [unit("Germany", G, "infantry", 2), unit("5 Sea Zone", G, "transport", id="T1"),
             unit("5 Sea Zone", G, "transport", id="T2")]
    findings = run(state(G, units=units), [mv({"infantry": 2}, "Germany", "5 Sea Zone", transport="T1"),
                                           mv(["T2"], "5 Sea Zone", "6 Sea Zone")])
    load = [f for f in only(findings, "AA203") if f.order == 1]
    assert len(load) == 1
    assert "T1" in load[0].message and "stays in 5 Sea Zone" in load[0].message
    assert "noncombat" not in load[0].message


def test_load_carried_to_an_assault_is_legal(run):
    units = [unit("Germany", G, "infantry", 2), unit("5 Sea Zone", G, "transport", id="T1")]
    findings = run(state(G, units=units), [mv({"infantry": 2}, "Germany", "5 Sea Zone", transport="T1"),
                                           mv(["T1"], "5 Sea Zone", "6 Sea Zone"),
                                           mv({"infantry": 2}, "6 Sea Zone", "United Kingdom")])
    assert findings == []


# --- a split journey gets the verdict of the joined one (issue 23) ---------------------------------


def both_spellings(run, text, unit_ref, path, k):
    """The findings of the journey as one order and as two orders split at ``path[k]``."""
    joined = run(text, [mv(unit_ref, *path)])
    split = run(text, [mv(unit_ref, *path[:k + 1]), mv(unit_ref, *path[k:])])
    return joined, split


def test_a_submarine_passing_a_hostile_zone_in_two_orders_is_legal(run):
    s = state(G, units=[unit("5 Sea Zone", G, "submarine", id="U"), unit("6 Sea Zone", B, "battleship"),
                        unit("7 Sea Zone", B, "battleship")])
    joined, split = both_spellings(run, s, ["U"], ["5 Sea Zone", "6 Sea Zone", "7 Sea Zone"], 1)
    assert joined == split == []


def test_a_fighter_flying_over_a_battle_in_two_orders_is_legal(run):
    s = state(G, units=[unit("Finland", G, "fighter", id="F"), unit("Karelia S.S.R.", R, "infantry"),
                        unit("Archangel", R, "infantry")])
    joined, split = both_spellings(run, s, ["F"], ["Finland", "Karelia S.S.R.", "Archangel"], 1)
    assert joined == split == []


def test_a_tank_going_on_from_a_battle_is_still_aa206(run):
    """AA206 stands where the joined path makes the tank stop (AA201): never the only difference."""
    s = desert(unit("Libya", G, "infantry"))
    joined, split = both_spellings(run, s, {"tank": 1}, ["Egypt", "Libya", "Algeria"], 1)
    assert codes(joined) == ["AA201"] and codes(split) == ["AA206"]


def test_a_submarine_passing_a_destroyer_in_noncombat_in_two_orders_is_aa204(run):
    """A false "legal" before: the second order started at the destroyer, so nothing stopped it."""
    s = state(G, NCM, units=[unit("5 Sea Zone", G, "submarine", id="U"), unit("6 Sea Zone", B, "destroyer")])
    joined, split = both_spellings(run, s, ["U"], ["5 Sea Zone", "6 Sea Zone", "3 Sea Zone"], 1)
    assert codes(joined) == codes(split) == ["AA204"]
    assert split[0].order == 2


def test_a_tank_through_a_hostile_territory_in_noncombat_is_aa302_in_both_spellings(run):
    s = state(G, NCM, units=[unit("Germany", G, "tank", id="U")], control={"Poland": R})
    joined, split = both_spellings(run, s, ["U"], ["Germany", "Poland", "Baltic States"], 1)
    assert codes(joined) == codes(split) == ["AA302"]
    assert split[0].order == 2


def test_a_bomber_flying_on_over_the_sea_in_noncombat_in_two_orders_is_legal(run):
    s = state(G, NCM, units=[unit("Germany", G, "bomber", id="U")])
    joined, split = both_spellings(run, s, ["U"], ["Germany", "5 Sea Zone", "Norway"], 1)
    assert joined == split == []


def test_a_bomber_ending_at_sea_is_aa105_at_its_last_order(run):
    s = state(G, NCM, units=[unit("Germany", G, "bomber", id="U")])
    findings = run(s, [mv(["U"], "Germany", "5 Sea Zone"), mv(["U"], "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA105"] and findings[0].order == 2


def test_a_blitz_into_a_friendly_territory_in_two_orders_is_a_combat_move(run):
    s = state(G, units=[unit("Germany", G, "tank", id="U")], control={"Poland": R, "Baltic States": G})
    joined, split = both_spellings(run, s, ["U"], ["Germany", "Poland", "Baltic States"], 1)
    assert joined == split == []


def test_ships_leaving_a_hostile_zone_in_two_orders_make_a_combat_move(run):
    s = state(G, units=[unit("6 Sea Zone", G, "destroyer", id="U"), unit("6 Sea Zone", B, "battleship")])
    joined, split = both_spellings(run, s, ["U"], ["6 Sea Zone", "3 Sea Zone", "2 Sea Zone"], 1)
    assert joined == split == []


def test_a_unit_ordered_on_after_unloading_is_aa403_alone(run):
    """Split after the unload, the rest of the path (a load in a zone a British destroyer holds) is no new cause."""
    s = state(
        G,
        units=[
            unit("Germany", G, "tank", id="U"),
            unit("5 Sea Zone", G, "transport"),
            unit("6 Sea Zone", G, "transport"),
            unit("6 Sea Zone", B, "destroyer"),
            unit("Norway", G, "infantry"),
        ],
    )
    joined, split = both_spellings(run, s, ["U"], ["Germany", "5 Sea Zone", "Norway", "6 Sea Zone"], 2)
    assert codes(joined) == codes(split) == ["AA403"]


def test_a_land_unit_sailing_on_its_own_arrives_as_written(run):
    """AA105 alone: the second order finds it where the first one said (no AA102 knock-on)."""
    s = state(G, units=[unit("Germany", G, "infantry", id="U"), unit("5 Sea Zone", G, "transport")])
    joined, split = both_spellings(run, s, ["U"], ["Germany", "5 Sea Zone", "6 Sea Zone", "United Kingdom"], 2)
    assert codes(joined) == codes(split) == ["AA105"]
