"""The landing solver: all aircraft at once, carriers in one zone each, bought carriers placed once.

Scenario tests on the built-in aa1942-2e map (AA207 / AA309 after the combat move), and
unit tests of the deck assignment against a brute-force optimum.
"""

from __future__ import annotations

import itertools
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from movecheck.aa.landing import Deck, Flyer, _match, assign_decks
from movecheck.aa.model import Unit, UnitType

from .conftest import codes, mv, only, state, unit

G, J = "Germans", "Japanese"
R, B = "Russians", "British"

# --- scenarios ----------------------------------------------------------------------------

# Two pairs of fighters end deep at sea with one point left: pair A in 9 Sea Zone (reaches
# 7 and 8 Sea Zone), pair B in 4 Sea Zone (reaches 3 Sea Zone).  Carriers wait in 5 Sea Zone.
PAIR_A = [unit("Northwestern Europe", G, "fighter", id="A1"), unit("Northwestern Europe", G, "fighter", id="A2")]
PAIR_B = [unit("Germany", G, "fighter", id="B1"), unit("Germany", G, "fighter", id="B2")]
TARGETS = [unit("9 Sea Zone", B, "cruiser"), unit("4 Sea Zone", R, "destroyer")]
SORTIES = [
    mv(["A1", "A2"], "Northwestern Europe", "6 Sea Zone", "7 Sea Zone", "9 Sea Zone"),
    mv(["B1", "B2"], "Germany", "Baltic States", "Karelia S.S.R.", "4 Sea Zone"),
]


def test_two_carriers_split_between_two_zones(run):
    carriers = [unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "carrier", id="C2")]
    findings = run(state(G, units=PAIR_A + PAIR_B + TARGETS + carriers), SORTIES)
    assert codes(findings) == ["AA309"] * 4
    zones = {f.message.split(" must move to ")[1].split(" in noncombat")[0] for f in findings}
    assert zones == {"3 Sea Zone", "7 Sea Zone"} or zones == {"3 Sea Zone", "8 Sea Zone"}
    carriers_named = {f.message.split()[1] for f in findings}
    assert carriers_named == {"C1", "C2"}  # one carrier per zone


def test_one_carrier_cannot_be_in_two_zones(run):
    carriers = [unit("5 Sea Zone", G, "carrier", id="C1")]
    findings = run(state(G, units=PAIR_A + PAIR_B + TARGETS + carriers), SORTIES)
    stranded = only(findings, "AA207")
    assert len(stranded) == 2
    assert {f.message.split()[0] for f in stranded} in ({"A1", "A2"}, {"B1", "B2"})
    assert all("needed by other fighters" in f.message for f in stranded)


FLEET = [unit("Germany", G, "fighter", 2), unit("7 Sea Zone", B, "battleship")]
SORTIE = mv({"fighter": 2}, "Germany", "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")


def test_carrier_that_moved_in_combat_stays_where_it_ended(run):
    s = state(G, units=FLEET + [unit("6 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", B, "transport")])
    findings = run(s, [SORTIE, mv(["C1"], "6 Sea Zone", "5 Sea Zone", attack=True)])
    assert codes(findings) == ["AA207"]
    assert "no friendly territory or carrier slot within reach" in findings[0].message


def test_carrier_that_did_not_move_can_still_come(run):
    s = state(G, units=FLEET + [unit("5 Sea Zone", G, "carrier", id="C1")])
    findings = run(s, [SORTIE])
    assert codes(findings) == ["AA309"]
    assert "C1" in findings[0].message and "5 Sea Zone" in findings[0].message


def test_allied_carrier_does_not_move_for_us(run):
    s = state(G, units=FLEET + [unit("5 Sea Zone", J, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA207"]


def test_allied_carrier_in_reach_is_a_landing(run):
    s = state(G, units=FLEET + [unit("6 Sea Zone", J, "carrier")])
    assert run(s, [SORTIE]) == []


def test_allied_fighters_aboard_take_their_slots(run):
    s = state(G, units=FLEET + [unit("6 Sea Zone", J, "carrier", id="Akagi"),
                                unit("6 Sea Zone", J, "fighter", aboard="Akagi")])
    assert codes(run(s, [SORTIE])) == ["AA207"]


def test_carrier_cannot_sail_through_a_hostile_zone_to_reach_them(run):
    s = state(G, units=FLEET + [unit("5 Sea Zone", G, "carrier"), unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [SORTIE])
    assert codes(findings) == ["AA207"]


def test_carrier_range_is_its_movement(run):
    # the fighters reach 8 and 9 Sea Zone: two moves from 14 Sea Zone, three from 15 Sea Zone
    s = state(G, units=FLEET + [unit("15 Sea Zone", G, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA207"]
    s = state(G, units=FLEET + [unit("14 Sea Zone", G, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA309"]


def test_carrier_moved_with_its_fighters_is_where_they_land(run):
    # the carrier sails with its fighters aboard into the attack and they stay aboard
    s = state(G, units=[unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "fighter", 2, aboard="C1"),
                        unit("6 Sea Zone", B, "destroyer")])
    assert run(s, [mv({"carrier": 1, "fighter": 2}, "5 Sea Zone", "6 Sea Zone")]) == []


def test_two_bought_carriers_are_two_decks(run):
    units = [unit("Okinawa", J, "fighter", 3), unit("Japan", J, "factory"), unit("58 Sea Zone", "Americans", "destroyer")]
    deep = ["Okinawa", "51 Sea Zone", "59 Sea Zone", "58 Sea Zone"]
    one = run(state(J, units=units, purchased={"carrier": 1}), [mv({"fighter": 3}, *deep)])
    assert "AA207" in codes(one)
    two = run(state(J, units=units, purchased={"carrier": 2}), [mv({"fighter": 3}, *deep)])
    assert "AA207" not in codes(two) and set(codes(two)) == {"AA309"}


def test_landing_in_friendly_territory_needs_no_carrier(run):
    s = state(G, units=[unit("Germany", G, "fighter", 5), unit("Karelia S.S.R.", R, "infantry")])
    assert run(s, [mv({"fighter": 5}, "Germany", "Baltic States", "Karelia S.S.R.")]) == []


# --- the deck assignment ------------------------------------------------------------------

FIGHTER = UnitType("fighter", 4, "air", carrier_cost=1)


def flyer(uid: int, zones: set[str]) -> Flyer:
    return Flyer(Unit(uid, FIGHTER, G, "x"), {}, [], set(zones))


def check_plan(flyers, decks, matching, zones):
    """The plan is real: slots respected, every deck's fighters in the deck's one zone."""
    for d, deck in enumerate(decks):
        members = [f for f, k in matching.items() if k == d]
        assert len(members) <= deck.slots
        if members:
            zone = zones[deck.key]
            assert zone in deck.zones
            assert all(zone in flyers[f].sea for f in members)


def brute_force(flyers, decks) -> int:
    best = 0
    for choice in itertools.product(*[deck.zones for deck in decks]):
        fixed = {deck.key: {zone} for deck, zone in zip(decks, choice)}
        best = max(best, len(_match(flyers, decks, fixed)))
    return best


def test_assignment_needs_a_carrier_away_from_home():
    decks = [Deck("a", 2, ["X", "Y"], "X"), Deck("b", 2, ["X"], "X")]
    flyers = [flyer(1, {"X"}), flyer(2, {"X"}), flyer(3, {"Y"})]
    matching, zones = assign_decks(flyers, decks)
    assert len(matching) == 3
    assert zones["a"] == "Y" and zones["b"] == "X"
    check_plan(flyers, decks, matching, zones)


def test_assignment_prefers_carriers_at_home():
    decks = [Deck("a", 2, ["X", "Y"], "Y")]
    flyers = [flyer(1, {"X", "Y"})]
    matching, zones = assign_decks(flyers, decks)
    assert len(matching) == 1 and zones["a"] == "Y"


def test_assignment_with_too_few_slots_lands_the_most():
    decks = [Deck("a", 2, ["X"], "X")]
    flyers = [flyer(n, {"X"}) for n in range(3)]
    matching, _ = assign_decks(flyers, decks)
    assert len(matching) == 2


def test_assignment_is_fast_on_a_big_fleet():
    zones = [f"Z{n}" for n in range(12)]
    decks = [Deck(f"d{n}", 2, zones[n:n + 4], zones[n]) for n in range(8)]
    flyers = [flyer(n, {zones[(n * 5) % 12], zones[(n * 7 + 3) % 12]}) for n in range(20)]
    start = time.perf_counter()
    matching, chosen = assign_decks(flyers, decks)
    assert time.perf_counter() - start < 5
    check_plan(flyers, decks, matching, chosen)
    assert len(matching) <= 16


ZONES = ["X", "Y", "Z"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 2), st.sets(st.sampled_from(ZONES), min_size=1)), min_size=1, max_size=3),
    st.lists(st.sets(st.sampled_from(ZONES), min_size=1), min_size=1, max_size=6),
)
def test_assignment_is_optimal(deck_specs, reaches):
    decks = [Deck(f"d{n}", slots, sorted(zones), sorted(zones)[0]) for n, (slots, zones) in enumerate(deck_specs)]
    flyers = [flyer(n, reach) for n, reach in enumerate(reaches)]
    matching, zones = assign_decks(flyers, decks)
    check_plan(flyers, decks, matching, zones)
    assert len(matching) == brute_force(flyers, decks)


def test_assignment_with_a_carrier_no_fighter_reaches():
    # regression: a deck with no zone any fighter wants used to end the search early
    decks = [Deck("a", 1, ["Z"], "Z"), Deck("b", 2, ["X", "Y"], "X")]
    flyers = [flyer(1, {"X"}), flyer(2, {"Y"})]
    matching, zones = assign_decks(flyers, decks)
    assert len(matching) == 1
    check_plan(flyers, decks, matching, zones)
