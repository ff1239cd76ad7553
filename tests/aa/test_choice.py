"""Choosing units (aa.md, Orders → Semantics, "Choosing units"), on the built-in aa1942-2e map.

A type-and-count order, or one without ``transport:``, leaves the choice of units,
transports and carriers to movecheck: the phase is legal when some choice makes every
order legal.  Each case below was an error with the greedy one-order-at-a-time choice.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from movecheck.cli import main

from .conftest import codes, errors, mv, orders, state, unit

G, A, R = "Germans", "Americans", "Russians"
ZONE = "5 Sea Zone"  # borders Germany, Finland, the Baltic States, Karelia
NCM = "noncombat_move"


def load_state(power=G, home="Germany", zone=ZONE, transports=2, infantry=2, tanks=2, phase=NCM, **kw):
    units = [unit(home, power, "infantry", infantry), unit(home, power, "tank", tanks)]
    units += [unit(zone, power, "transport", id=f"T{k + 1}") for k in range(transports)]
    return state(power, phase, units=units, **kw)


# -- loading two transports ---------------------------------------------------------------


def test_one_order_loads_two_transports_with_one_infantry_and_one_tank_each(run) -> None:
    assert run(load_state(), [mv({"infantry": 2, "tank": 2}, "Germany", ZONE)]) == []


def test_infantry_and_tanks_boarding_in_separate_orders_share_the_transports(run) -> None:
    # the infantry order alone would fill one transport; the tanks need one infantry on each
    moves = [mv({"infantry": 2}, "Germany", ZONE), mv({"tank": 2}, "Germany", ZONE)]
    assert run(load_state(), moves) == []


def test_american_load_in_the_atlantic(run) -> None:
    st = load_state(A, "Eastern United States", "11 Sea Zone")
    assert run(st, [mv({"infantry": 2}, "Eastern United States", "11 Sea Zone"),
                    mv({"tank": 2}, "Eastern United States", "11 Sea Zone")]) == []
    assert run(st, [mv({"infantry": 2, "tank": 2}, "Eastern United States", "11 Sea Zone")]) == []


def test_too_much_cargo_is_still_an_error(run) -> None:
    found = run(load_state(tanks=3, infantry=1), [mv({"infantry": 1, "tank": 3}, "Germany", ZONE)])
    assert codes(found) == ["AA401"]


def test_a_refused_load_does_not_cascade(run) -> None:
    """Cargo with no room boards anyway (AA401 there alone): a later unload of it finds it."""
    moves = [
        mv({"infantry": 1, "tank": 3}, "Germany", ZONE),
        mv({"tank": 3, "infantry": 1}, ZONE, "Finland"),
    ]
    found = run(load_state(tanks=3, infantry=1), moves)
    assert "AA102" not in codes(found)
    assert errors(found)[0] == "AA401"


def test_the_loads_are_packed_for_a_later_order(run) -> None:
    """The transports then sail apart and unload: 1 infantry + 1 tank on each."""
    moves = [
        mv({"infantry": 2, "tank": 2}, "Germany", ZONE),
        mv(["T1"], ZONE, "6 Sea Zone"),
        mv({"infantry": 1, "tank": 1}, "6 Sea Zone", "Norway"),
        mv({"infantry": 1, "tank": 1}, ZONE, "Finland"),
    ]
    assert run(load_state(), moves) == []


# -- unloading --------------------------------------------------------------------------


def loaded_state(*order_of_listing: str):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "transport", id="T2")]
    units += [unit(ZONE, G, "infantry", aboard=t) for t in order_of_listing]
    return state(G, NCM, units=units)


@pytest.mark.parametrize("listing", [("T1", "T2", "T1", "T2"), ("T1", "T1", "T2", "T2"), ("T2", "T1", "T2", "T1")])
def test_unloading_takes_one_transports_cargo_whatever_the_listing(run, listing) -> None:
    moves = [mv({"infantry": 2}, ZONE, "Baltic States"), mv({"infantry": 2}, ZONE, "Finland")]
    assert run(loaded_state(*listing), moves) == []


def test_the_transport_that_unloaded_stays(run) -> None:
    # T2 unloads; the transport order then takes T1, whichever is listed first
    st = state(G, NCM, units=[unit(ZONE, G, "transport", id="T2"), unit(ZONE, G, "infantry", aboard="T2"),
                               unit(ZONE, G, "transport", id="T1")])
    assert run(st, [mv({"infantry": 1}, ZONE, "Finland"), mv({"transport": 1}, ZONE, "6 Sea Zone")]) == []


# -- carriers ---------------------------------------------------------------------------


def test_a_count_order_moves_the_carrier_no_fighter_landed_on(run) -> None:
    st = state(A, NCM, units=[unit("11 Sea Zone", A, "carrier"), unit("11 Sea Zone", A, "carrier"),
                               unit("Eastern United States", A, "fighter")])
    moves = [
        mv({"fighter": 1}, "Eastern United States", "11 Sea Zone"),
        mv({"carrier": 1}, "11 Sea Zone", "10 Sea Zone"),
    ]
    assert run(st, moves) == []


def test_a_fighter_lands_on_the_carrier_that_stays(run) -> None:
    """Landing is chosen too: the first carrier would be the one a later order moves."""
    st = state(A, NCM, units=[unit("11 Sea Zone", A, "carrier", id="C1"), unit("11 Sea Zone", A, "carrier", id="C2"),
                               unit("Eastern United States", A, "fighter")])
    moves = [mv({"fighter": 1}, "Eastern United States", "11 Sea Zone"), mv(["C1"], "11 Sea Zone", "10 Sea Zone")]
    assert run(st, moves) == []


# -- pinned choices, no legal choice, the budget -----------------------------------------


def test_ids_pin_the_choice(run) -> None:
    """``transport: T1`` for both loads: the choice is the player's, and it is over capacity."""
    moves = [mv({"infantry": 2}, "Germany", ZONE, transport="T1"), mv({"tank": 2}, "Germany", ZONE)]
    found = run(load_state(), moves)
    assert codes(found) == ["AA401"]
    assert found[0].order == 2


def test_pinned_units_are_not_chosen_again(run) -> None:
    st = state(
        G,
        NCM,
        units=[
            unit(ZONE, G, "transport", id="T1"),
            unit(ZONE, G, "transport", id="T2"),
            unit(ZONE, G, "infantry", aboard="T1", id="I1"),
            unit(ZONE, G, "infantry", aboard="T2", id="I2"),
        ],
    )
    found = run(st, [mv(["I1"], ZONE, "Baltic States"), mv(["I2"], ZONE, "Finland")])
    assert codes(found) == []
    found = run(st, [mv(["I1", "I2"], ZONE, "Baltic States"), mv(["T1"], ZONE, "6 Sea Zone")])
    assert codes(found) == ["AA403"]  # T1 unloaded: the ids say so, nothing to choose


def test_no_legal_choice_reports_the_one_with_fewest_errors(run) -> None:
    # three tanks and one infantry for two transports: one tank never fits, whatever the packing;
    # the later orders are legal with the best packing
    moves = [
        mv({"infantry": 1, "tank": 3}, "Germany", ZONE),
        mv(["T1"], ZONE, "6 Sea Zone"),
        mv({"tank": 1}, ZONE, "Finland"),
    ]
    found = run(load_state(tanks=3, infantry=1), moves)
    assert errors(found) == ["AA401"]
    assert found[0].order == 1


def test_the_search_running_out_leaves_the_orders_unchecked(run, monkeypatch) -> None:
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    found = run(load_state(), [mv({"infantry": 2}, "Germany", ZONE), mv({"tank": 2}, "Germany", ZONE)])
    assert codes(found) == ["MC012"]
    assert found[0].order == 2
    assert "MOVECHECK_CHOICE_BUDGET" in found[0].message


def test_a_full_budget_does_not_change_a_legal_greedy_choice(run, monkeypatch) -> None:
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")  # the greedy choice needs no search
    assert run(load_state(), [mv({"infantry": 2, "tank": 2}, "Germany", ZONE)]) == []


# -- the assignment in the JSON report ----------------------------------------------------


def assignment_of(tmp_path, state_text, moves, power=G):
    (tmp_path / "state.yaml").write_text(state_text, encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(orders(power, NCM, moves), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            ["check", str(tmp_path / "orders.yaml"), "--state", str(tmp_path / "state.yaml"), "--format", "json"]
        )
    document = json.loads(out.getvalue())
    return code, document["files"][0]["assignment"]


def test_assignment_in_the_json_report(tmp_path) -> None:
    code, assignment = assignment_of(
        tmp_path, load_state(), [mv({"infantry": 2}, "Germany", ZONE), mv({"tank": 2}, "Germany", ZONE)]
    )
    assert code == 0
    assert assignment == [
        {"order": 1, "units": ["units[1]#1", "units[1]#2"], "rides": {"units[1]#1": "T1", "units[1]#2": "T2"}},
        {"order": 2, "units": ["units[2]#1", "units[2]#2"], "rides": {"units[2]#1": "T1", "units[2]#2": "T2"}},
    ]


def test_assignment_names_cargo_carried_along_and_carriers(tmp_path) -> None:
    code, assignment = assignment_of(
        tmp_path, loaded_state("T1", "T2", "T1"), [mv({"transport": 1}, ZONE, "6 Sea Zone")]
    )
    assert code == 0
    assert assignment == [{"order": 1, "units": ["T1"], "rides": {"units[3]": "T1", "units[5]": "T1"}}]
    st = state(
        A, NCM, units=[unit("11 Sea Zone", A, "carrier", id="C1"), unit("Eastern United States", A, "fighter", 2)]
    )
    code, assignment = assignment_of(
        tmp_path, st, [mv({"fighter": 2}, "Eastern United States", "11 Sea Zone")], power=A
    )
    assert assignment == [
        {"order": 1, "units": ["units[2]#1", "units[2]#2"], "rides": {"units[2]#1": "C1", "units[2]#2": "C1"}}
    ]


# -- movement left (AA104) ----------------------------------------------------------------

TWO_FIGHTERS = [unit("Germany", G, "fighter", moved=3), unit("Germany", G, "fighter")]  # 1 and 4 movement left
LONG = ["Germany", "Poland", "Baltic States", ZONE, "Norway"]
SHORT = ["Germany", "Poland"]


@pytest.mark.parametrize("first", ["short", "long"])
def test_two_count_orders_of_fighters_are_legal_either_way_round(run, first) -> None:
    """The first order takes the fighter with more movement; the long flight needs it, so the choice is searched."""
    flights = [mv({"fighter": 1}, *SHORT), mv({"fighter": 1}, *LONG)]
    moves = flights if first == "short" else flights[::-1]
    assert run(state(G, NCM, units=TWO_FIGHTERS), moves) == []


def test_a_flight_too_long_for_every_fighter_is_still_aa104(run) -> None:
    moves = [
        mv({"fighter": 1}, *SHORT),
        mv({"fighter": 1}, "Germany", "Poland", "Baltic States", ZONE, "Finland", "Norway"),
    ]
    found = run(state(G, NCM, units=TWO_FIGHTERS), moves)
    assert errors(found) == ["AA104"] and found[0].order == 2


def test_the_movement_search_running_out_is_mc012(run, monkeypatch) -> None:
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    found = run(state(G, NCM, units=TWO_FIGHTERS), [mv({"fighter": 1}, *SHORT), mv({"fighter": 1}, *LONG)])
    assert codes(found) == ["MC012"] and found[0].order == 2


def test_pinned_units_short_of_movement_need_no_search(run, monkeypatch) -> None:
    """Ids pin the choice: AA104 on units no order chose stays AA104, whatever the budget."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    st = state(G, NCM, units=[unit("Germany", G, "fighter", moved=3, id="F1"), unit("Germany", G, "fighter", id="F2")])
    found = run(st, [mv(["F2"], *SHORT), mv(["F1"], *LONG)])
    assert codes(found) == ["AA104"]


def test_an_error_no_choice_can_change_stays_an_error_when_the_search_runs_out(run, monkeypatch) -> None:
    """The tanks travel too far whichever tanks they are (AA104, all alike): that error stands beside MC012."""
    moves = [mv({"infantry": 2}, "Germany", ZONE), mv({"tank": 2}, "Germany", "Poland", "Germany", ZONE)]
    searched = run(load_state(), moves)
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    found = run(load_state(), moves)
    assert "AA104" in errors(searched) and "AA104" in errors(found)
    assert [f.order for f in found if f.code == "AA104"] == [2]
    assert "MC012" in codes(found) and "MC012" not in codes(searched)


# -- counting bounds: an overload no choice can fit needs no search ---------------------------

B = "British"
UK = "United Kingdom"


def british_state(room_in_8: bool = False) -> str:
    units = [unit(UK, B, "infantry", 6), unit(UK, B, "tank", 3), unit(UK, B, "artillery", 3)]
    for k in range(3):  # partly loaded transports in 7 Sea Zone
        units += [unit("7 Sea Zone", B, "transport", id=f"T{k}"), unit("7 Sea Zone", B, "infantry", aboard=f"T{k}")]
    units += [
        unit("8 Sea Zone", B, "transport", id="TF"),
        unit("8 Sea Zone", B, "infantry", 1 if room_in_8 else 2, aboard="TF"),
    ]
    return state(B, NCM, units=units)


FOUR_ORDERS = [mv({"infantry": 1}, UK, "7 Sea Zone"), mv({"tank": 1}, UK, "7 Sea Zone"),
               mv({"artillery": 1}, UK, "7 Sea Zone"), mv({"infantry": 1}, UK, "8 Sea Zone")]


def test_a_load_into_a_full_transport_is_aa401_without_a_search(run, monkeypatch) -> None:
    """Three loads onto partly loaded transports, then an unrelated load into a full one: no choice makes
    room in 8 Sea Zone (nothing sails there), so it is AA401 at once, whatever the budget."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    found = run(british_state(), FOUR_ORDERS)
    assert [(f.code, f.order) for f in found] == [("AA401", 4)]


def test_a_load_into_a_transport_with_room_is_legal(run, monkeypatch) -> None:
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    assert run(british_state(room_in_8=True), FOUR_ORDERS) == []


def test_a_transport_sailing_in_first_makes_the_count_no_proof(run) -> None:
    # T0 sails to 8 Sea Zone before the load: its room counts, and the load is legal
    moves = [mv(["T0"], "7 Sea Zone", "8 Sea Zone"), mv({"infantry": 1}, UK, "8 Sea Zone")]
    assert run(british_state(), moves) == []


def test_loads_overflowing_a_zone_together_are_one_aa401_without_a_search(run, monkeypatch) -> None:
    """Eleven infantry, one order each, onto five transports: some order is AA401 whatever the choice (a count
    proves it), so the greedy choice's one AA401 is the answer, with no search to run out."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "1")
    st = load_state(transports=5, infantry=11, tanks=1)
    found = run(st, [mv({"infantry": 1}, "Germany", ZONE) for _ in range(11)])
    assert [(f.code, f.order) for f in found] == [("AA401", 11)]
    assert run(st, [mv({"infantry": 1}, "Germany", ZONE) for _ in range(10)]) == []


def test_infantry_then_tanks_onto_many_transports_is_found_at_the_first_try(run, monkeypatch) -> None:
    """Ten infantry then ten tanks, one order each, onto ten transports: packing the infantry one per transport
    (the search's first try) is legal; the lexicographic search alone needed more than the budget."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "300")
    st = load_state(transports=10, infantry=10, tanks=10)
    moves = [mv({"infantry": 1}, "Germany", ZONE) for _ in range(10)] + [
        mv({"tank": 1}, "Germany", ZONE) for _ in range(10)
    ]
    assert run(st, moves) == []
    assert errors(run(st, [*moves, mv({"tank": 1}, "Germany", ZONE)])) == ["AA102"]  # no eleventh tank


# -- independent parts: an unrelated mistake does not multiply the search -----------------------

ITALY_EAST = ["Italy", "Southern Europe", "Balkans", "Ukraine S.S.R.", "Caucasus"]


def test_a_mistake_in_another_part_does_not_multiply_the_search(run, monkeypatch) -> None:
    """Eight loads with a choice of transports, then two long flights with one fighter fresh enough: the flights
    share no space with the loads, so only their own choices are tried (was MC012 after the whole budget)."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "2000")
    units = [unit("Germany", G, "infantry", 8), unit("Germany", G, "tank", 8)]
    units += [unit(ZONE, G, "transport", id=f"T{k}") for k in range(8)]
    units += [unit("Italy", G, "fighter", moved=3), unit("Italy", G, "fighter")]
    moves = [mv({"tank": 1}, "Germany", ZONE) for _ in range(8)] + [
        mv({"infantry": 1}, "Germany", ZONE) for _ in range(8)
    ]
    flights = [mv({"fighter": 1}, *ITALY_EAST), mv({"fighter": 1}, *ITALY_EAST)]
    found = run(state(G, NCM, units=units), moves + flights)
    assert "MC012" not in codes(found)
    assert errors(found).count("AA104") == 1  # one of the flights is too long whichever fighter flies it
    assert all(f.order in (17, 18) for f in found)


def test_ids_no_order_names_do_not_tell_units_apart(run, monkeypatch) -> None:
    """Twelve fighters with ids, six of them with one move left, chosen by count: the short flight must take
    the tired ones.  Only the ids an order names pin a unit, so the choice is among 4 options, not 220."""
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "400")
    tired = [unit("Germany", G, "fighter", moved=3, id=f"F{k}") for k in range(6)]
    fresh = [unit("Germany", G, "fighter", id=f"F{k + 6}") for k in range(6)]
    moves = [mv({"fighter": 3}, *SHORT), mv({"fighter": 3}, *LONG)]
    assert run(state(G, NCM, units=tired + fresh), moves) == []
    named = [mv(["F6"], *SHORT), *moves]  # F6 named: it is pinned, and the short flight of three still fits
    found = run(state(G, NCM, units=tired + fresh), named)
    assert "MC012" not in codes(found)
