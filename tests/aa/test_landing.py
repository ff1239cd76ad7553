"""The landing solver: all aircraft at once, carriers in one zone each, bought carriers placed once.

Scenario tests on the built-in aa1942-2e map (AA207 / AA309 after the combat move), and
unit tests of the deck assignment against a brute-force optimum.
"""

from __future__ import annotations

import itertools
import time

from hypothesis import settings
from hypothesis import strategies as st

from movecheck.aa.landing import carriers as carrier_search
from movecheck.aa.landing.carriers import LANDING_BUDGET_VARIABLE as LANDING_VARIABLE
from movecheck.aa.landing.carriers import Deck, Flyer, _match, _Work, assign_decks, solve_landing
from movecheck.aa.units import Unit, UnitType
from tests.properties import in_two_runs

from .conftest import codes, mv, only, state, unit
from .landing_cases import write_case

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
    s = state(G, units=[*FLEET, unit("6 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", B, "transport")])
    findings = run(s, [SORTIE, mv(["C1"], "6 Sea Zone", "5 Sea Zone", attack=True)])
    assert codes(findings) == ["AA207"]
    assert "no friendly territory or carrier slot within reach" in findings[0].message


def test_carrier_that_did_not_move_can_still_come(run):
    s = state(G, units=[*FLEET, unit("5 Sea Zone", G, "carrier", id="C1")])
    findings = run(s, [SORTIE])
    assert codes(findings) == ["AA309"]
    assert "C1" in findings[0].message and "5 Sea Zone" in findings[0].message


def test_allied_carrier_does_not_move_for_us(run):
    s = state(G, units=[*FLEET, unit("5 Sea Zone", J, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA207"]


def test_allied_carrier_in_reach_is_a_landing(run):
    s = state(G, units=[*FLEET, unit("6 Sea Zone", J, "carrier")])
    assert run(s, [SORTIE]) == []


def test_allied_fighters_aboard_take_their_slots(run):
    s = state(
        G,
        units=[*FLEET, unit("6 Sea Zone", J, "carrier", id="Akagi"), unit("6 Sea Zone", J, "fighter", aboard="Akagi")],
    )
    assert codes(run(s, [SORTIE])) == ["AA207"]


def test_carrier_cannot_sail_through_a_hostile_zone_to_reach_them(run):
    s = state(G, units=[*FLEET, unit("5 Sea Zone", G, "carrier"), unit("6 Sea Zone", B, "destroyer")])
    findings = run(s, [SORTIE])
    assert codes(findings) == ["AA207"]


def test_carrier_range_is_its_movement(run):
    # the fighters reach 8 and 9 Sea Zone: two moves from 14 Sea Zone, three from 15 Sea Zone
    s = state(G, units=[*FLEET, unit("15 Sea Zone", G, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA207"]
    s = state(G, units=[*FLEET, unit("14 Sea Zone", G, "carrier")])
    assert codes(run(s, [SORTIE])) == ["AA309"]


def test_two_unnamed_fighters_of_one_order_are_one_finding(run):
    # both fighters read "Germans fighter" at the same place of the same order: one AA207 counting both, one AA309
    stranded = run(state(G, units=[*FLEET, unit("15 Sea Zone", G, "carrier")]), [SORTIE])
    assert codes(stranded) == ["AA207"]
    assert stranded[0].message.startswith("2 German fighters in 7 Sea Zone have 1 movement left")
    rescued = run(state(G, units=[*FLEET, unit("14 Sea Zone", G, "carrier")]), [SORTIE])
    assert codes(rescued) == ["AA309"]


def test_carrier_moved_with_its_fighters_is_where_they_land(run):
    # the carrier sails with its fighters aboard into the attack and they stay aboard
    s = state(G, units=[unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "fighter", 2, aboard="C1"),
                        unit("6 Sea Zone", B, "destroyer")])
    assert run(s, [mv({"carrier": 1, "fighter": 2}, "5 Sea Zone", "6 Sea Zone")]) == []


def test_two_bought_carriers_are_two_decks(run):
    units = [
        unit("Okinawa", J, "fighter", 3),
        unit("Japan", J, "factory"),
        unit("58 Sea Zone", "Americans", "destroyer"),
    ]
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
        fixed = {deck.key: {zone} for deck, zone in zip(decks, choice, strict=True)}
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


def _assignment_is_optimal(deck_specs, reaches):
    decks = [Deck(f"d{n}", slots, sorted(zones), sorted(zones)[0]) for n, (slots, zones) in enumerate(deck_specs)]
    flyers = [flyer(n, reach) for n, reach in enumerate(reaches)]
    matching, zones = assign_decks(flyers, decks)
    check_plan(flyers, decks, matching, zones)
    assert len(matching) == brute_force(flyers, decks)


test_assignment_is_optimal, test_assignment_is_optimal_in_full = in_two_runs(
    settings(max_examples=400, deadline=None),
    st.lists(st.tuples(st.integers(1, 2), st.sets(st.sampled_from(ZONES), min_size=1)), min_size=1, max_size=3),
    st.lists(st.sets(st.sampled_from(ZONES), min_size=1), min_size=1, max_size=6),
)(_assignment_is_optimal)


def test_assignment_with_a_carrier_no_fighter_reaches():
    # regression: a deck with no zone any fighter wants used to end the search early
    decks = [Deck("a", 1, ["Z"], "Z"), Deck("b", 2, ["X", "Y"], "X")]
    flyers = [flyer(1, {"X"}), flyer(2, {"Y"})]
    matching, zones = assign_decks(flyers, decks)
    assert len(matching) == 1
    check_plan(flyers, decks, matching, zones)


# --- the search against brute force, its budget, and big turns (issues #12, #19) ------------

ZONES4 = ["W", "X", "Y", "Z"]


def optimum(flyers, decks) -> int:
    """Most fighters landed, by trying every placement of the decks (networkx max flow for each)."""
    import networkx as nx

    best = 0
    for choice in itertools.product(*[deck.zones for deck in decks]):
        graph = nx.DiGraph()
        for f, fl in enumerate(flyers):
            graph.add_edge("s", ("f", f), capacity=1)
            for zone in fl.sea:
                graph.add_edge(("f", f), ("z", zone), capacity=1)
        for deck, zone in zip(decks, choice, strict=True):
            cap = graph.get_edge_data(("z", zone), "t", {}).get("capacity", 0)
            graph.add_edge(("z", zone), "t", capacity=cap + deck.slots)
        if "s" in graph and "t" in graph:
            best = max(best, nx.maximum_flow_value(graph, "s", "t"))
    return best


DECK_SPECS = st.lists(
    st.tuples(st.integers(1, 3), st.lists(st.sampled_from(ZONES4), min_size=1, max_size=4, unique=True)), max_size=5
)
REACHES = st.lists(st.sets(st.sampled_from(ZONES4)), min_size=1, max_size=8)


def build(deck_specs, reaches):
    decks = [Deck(f"d{n}", slots, sorted(zones), zones[-1]) for n, (slots, zones) in enumerate(deck_specs)]
    return [flyer(n, reach) for n, reach in enumerate(reaches)], decks


def _landing_search_matches_brute_force(deck_specs, reaches):
    flyers, decks = build(deck_specs, reaches)
    landing = solve_landing(flyers, decks)
    assert landing.limit is None and landing.undecided == []
    check_plan(flyers, decks, landing.matching, landing.zones)
    assert len(landing.matching) == optimum(flyers, decks)


test_landing_search_matches_brute_force, test_landing_search_matches_brute_force_in_full = in_two_runs(
    settings(max_examples=250, deadline=None, derandomize=True),
    DECK_SPECS,
    REACHES,
)(_landing_search_matches_brute_force)


def _landing_search_out_of_budget_never_strands_a_fighter_wrongly(deck_specs, reaches, limit):
    flyers, decks = build(deck_specs, reaches)
    landing = solve_landing(flyers, decks, _Work(limit))
    check_plan(flyers, decks, landing.matching, landing.zones)
    # fighters neither landed nor undecided are reported stranded: never more than truly are
    assert len(landing.matching) + len(landing.undecided) >= optimum(flyers, decks)
    assert (landing.limit is None) == (landing.undecided == [])
    if landing.limit is None:
        assert len(landing.matching) == optimum(flyers, decks)
    assert set(landing.matching).isdisjoint(landing.undecided)


(
    test_landing_search_out_of_budget_never_strands_a_fighter_wrongly,
    test_landing_search_out_of_budget_never_strands_a_fighter_wrongly_in_full,
) = in_two_runs(
    settings(max_examples=150, deadline=None, derandomize=True),
    DECK_SPECS,
    REACHES,
    st.integers(1, 300),
)(_landing_search_out_of_budget_never_strands_a_fighter_wrongly)


def test_landing_budget_exhausted_leaves_the_orders_unchecked(run, monkeypatch):
    monkeypatch.setenv(LANDING_VARIABLE, "1")
    carriers = [unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "carrier", id="C2")]
    findings = run(state(G, units=PAIR_A + PAIR_B + TARGETS + carriers), SORTIES)
    assert codes(findings) == ["MC012", "MC012"]  # no AA207 and no AA309 from a search that did not finish
    assert [f.order for f in findings] == [1, 2]
    assert LANDING_VARIABLE in findings[0].message and "A1 and A2" in findings[0].message
    assert "B1 and B2" in findings[1].message
    assert (findings[0].line, findings[0].column) == (6, 3)  # at the order (its first key), not at its path


def test_landing_budget_large_enough_decides(run):
    carriers = [unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "carrier", id="C2")]
    findings = run(state(G, units=PAIR_A + PAIR_B + TARGETS + carriers), SORTIES)
    assert codes(findings) == ["AA309"] * 4


def test_landing_decided_without_search_is_still_reported(run, monkeypatch):
    # the carrier moved in combat: it is fixed slots in a zone the fighters cannot reach, nothing to search
    monkeypatch.setenv(LANDING_VARIABLE, "1")
    s = state(G, units=[*FLEET, unit("6 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", B, "transport")])
    findings = run(s, [SORTIE, mv(["C1"], "6 Sea Zone", "5 Sea Zone", attack=True)])
    assert codes(findings) == ["AA207"]


def _run_case(tmp_path, fighters, carriers, idle=0, seed=1):
    from movecheck.core import check
    from movecheck.settings import Settings

    path = write_case(tmp_path / f"case-{fighters}-{carriers}-{idle}-{seed}", fighters, carriers, idle, seed)
    report, _ = check([str(path)], Settings())
    return report.sorted_findings()


class Counted(_Work):
    """The search's work, recorded (the largest use of one search)."""

    used_most = 0

    def spend(self, amount: int) -> None:
        super().spend(amount)
        Counted.used_most = max(Counted.used_most, self.used)


def test_twelve_hundred_fighters_do_not_recurse_and_stay_cheap(tmp_path, monkeypatch):
    monkeypatch.setattr(carrier_search, "_Work", Counted)
    Counted.used_most = 0
    findings = _run_case(tmp_path, 1200, 40)
    assert "MC012" not in codes(findings)
    stranded = only(findings, "AA207")
    assert len(stranded) == 1122 and len({f.order for f in stranded}) == 1122
    assert 0 < Counted.used_most < 100_000  # work, not time: far below the budget


def test_idle_carriers_out_of_reach_cost_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(carrier_search, "_Work", Counted)
    Counted.used_most = 0
    plain = _run_case(tmp_path, 60, 30)
    work = Counted.used_most
    Counted.used_most = 0
    idle = _run_case(tmp_path, 60, 30, idle=1000)
    assert [(f.code, f.order) for f in idle] == [(f.code, f.order) for f in plain]
    assert len(only(plain, "AA207")) == 30 and "MC012" not in codes(plain)
    assert Counted.used_most == work


def test_search_is_iterative():
    # 1,000 carriers in a chain of zones and 1,200 fighters: no recursion anywhere, whatever the depth left
    import inspect
    import sys

    zones = [f"Z{n:04d}" for n in range(1001)]
    decks = [Deck(f"d{n:04d}", 2, [zones[n], zones[n + 1]], zones[n]) for n in range(1000)]
    flyers = [flyer(n, {zones[n % 1000], zones[n % 1000 + 1]}) for n in range(1200)]
    depth = len(inspect.stack(0))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 60)
    try:
        result = solve_landing(flyers, decks, _Work(10_000_000))
    finally:
        sys.setrecursionlimit(old)
    assert result.limit is None and len(result.matching) == 1200


def test_large_turn_is_exact_or_unchecked_within_the_budget(tmp_path, monkeypatch):
    # 200 fighters, 80 carriers: exact with the default budget; with a small one, unchecked, never guessed
    exact = _run_case(tmp_path, 200, 80)
    assert "MC012" not in codes(exact)
    stranded = {f.order for f in only(exact, "AA207")}
    monkeypatch.setenv(LANDING_VARIABLE, "20000")
    monkeypatch.setattr(carrier_search, "_Work", Counted)
    Counted.used_most = 0
    small = _run_case(tmp_path, 200, 80)
    unchecked = {f.order for f in only(small, "MC012")}
    assert unchecked and Counted.used_most <= 20000 + 2000
    assert {f.order for f in only(small, "AA207")} <= stranded  # every AA207 it still gives is a real one
    assert stranded <= {f.order for f in only(small, "AA207")} | unchecked


# --- noncombat: where the bought carriers go ---------------------------------------------------

WAITING = [
    unit("Germany", G, "fighter", id="G1"),
    unit("Germany", G, "fighter", id="G2"),
    unit("France", G, "fighter", id="F1"),
    unit("Germany", G, "factory"),
    unit("Italy", G, "factory"),
]
SPLIT = [mv(["F1"], "France", "Italy", "15 Sea Zone"), mv(["G1", "G2"], "Germany", "5 Sea Zone")]


def test_bought_carrier_goes_where_it_seats_the_most(run):
    # 1 fighter waits in 15 Sea Zone, 2 in 5 Sea Zone, both next to a factory: the carrier seats the two
    findings = run(state(G, phase="noncombat_move", units=WAITING, purchased={"carrier": 1}), SPLIT)
    assert codes(findings) == ["AA305"]  # was two (G1, G2): the carrier went to the first zone by name
    assert findings[0].order == 1 and findings[0].message.startswith("F1 ")


def test_two_bought_carriers_seat_both_zones(run):
    assert run(state(G, phase="noncombat_move", units=WAITING, purchased={"carrier": 2}), SPLIT) == []
