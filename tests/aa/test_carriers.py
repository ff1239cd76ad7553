"""Fighters aboard a moving carrier (aa.md, Orders → Semantics), on the built-in aa1942-2e map.

Fighters aboard a carrier at the start of the phase that have not moved by themselves are its
cargo: they go with it whether the order names them or not, own and allied alike, spending no
movement.  Any other fighter named with a carrier flies the carrier's path on its own movement
(AA104).  A fighter that landed on a carrier in noncombat move is aboard it from then on.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from movecheck.cli import main
from tests.harness import yaml_data

from .conftest import codes, errors, mv, only, orders, state, unit

G, J, B = "Germans", "Japanese", "British"
CM, NCM = "combat_move", "noncombat_move"

# Germany → Baltic States → 5 Sea Zone → 6 Sea Zone → 3 Sea Zone: four spaces, a fighter's whole movement
TO_THE_CARRIER = ["Germany", "Baltic States", "5 Sea Zone", "6 Sea Zone", "3 Sea Zone"]
INTO_BATTLE = ["3 Sea Zone", "2 Sea Zone", "7 Sea Zone"]  # a British battleship in 7 Sea Zone


def flown(*extra):
    units = [unit("Germany", G, "fighter", id="F1"), unit("3 Sea Zone", G, "carrier", id="C1"),
             unit("7 Sea Zone", B, "battleship"), *extra]
    return state(G, units=units)


# --- a fighter that has flown does not ride --------------------------------------------------------


@pytest.mark.parametrize("named", [["C1", "F1"], {"carrier": 1, "fighter": 1}], ids=["ids", "counts"])
def test_a_fighter_that_flew_to_its_carrier_does_not_ride_it_on(run, named):
    """Six spaces in all: the fighter flies the carrier's two zones on its own movement."""
    findings = run(flown(), [mv(["F1"], *TO_THE_CARRIER), mv(named, *INTO_BATTLE)])
    assert "AA104" in codes(findings)
    over = only(findings, "AA104")[0]
    assert over.order == 2 and "0 left" in over.message


def test_a_fighter_aboard_at_the_start_rides_into_the_battle(run):
    s = state(
        G,
        units=[
            unit("3 Sea Zone", G, "carrier", id="C1"),
            unit("3 Sea Zone", G, "fighter", id="F1", aboard="C1"),
            unit("7 Sea Zone", B, "battleship"),
        ],
    )
    assert run(s, [mv(["C1", "F1"], *INTO_BATTLE)]) == []
    assert run(s, [mv(["C1"], *INTO_BATTLE)]) == []


def test_a_fighter_aboard_another_carrier_flies_with_this_one(run):
    """Aboard C2, which stays: named with C1 it flies, spending its own movement."""
    s = state(G, NCM, units=[unit("3 Sea Zone", G, "carrier", id="C1"), unit("3 Sea Zone", G, "carrier", id="C2"),
                             unit("3 Sea Zone", G, "fighter", id="F1", aboard="C2", moved=0)])
    far = ["3 Sea Zone", "2 Sea Zone", "10 Sea Zone", "11 Sea Zone", "12 Sea Zone", "13 Sea Zone"]
    findings = run(s, [mv(["C1", "F1"], *far)])
    assert "AA104" in codes(findings)
    assert any("F1" in f.message for f in only(findings, "AA104"))


# --- cargo goes along, named or not ------------------------------------------------------------------


def aboard(*extra, phase=NCM):
    units = [unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "fighter", aboard="C1"), *extra]
    return state(G, phase, units=units)


def test_an_unnamed_own_fighter_aboard_goes_with_its_carrier(run):
    """Today's bug: it was left hovering in 5 Sea Zone, then "destroyed" (AA308)."""
    assert run(aboard(), [mv(["C1"], "5 Sea Zone", "6 Sea Zone")]) == []


def test_named_and_unnamed_cargo_get_the_same_verdict(run):
    for moves in (
        [mv(["C1"], "5 Sea Zone", "6 Sea Zone")],
        [mv({"carrier": 1, "fighter": 1}, "5 Sea Zone", "6 Sea Zone")],
    ):
        assert run(aboard(), moves) == []


def test_the_fighter_goes_with_a_carrier_that_moves_after_it_landed(run):
    """Landed in noncombat: AA306 for the carrier's move, and the fighter is carried, not left behind."""
    s = state(G, NCM, units=[unit("5 Sea Zone", G, "carrier", id="C1"), unit("Germany", G, "fighter", id="F1")])
    findings = run(s, [mv(["F1"], "Germany", "5 Sea Zone"), mv(["C1"], "5 Sea Zone", "6 Sea Zone")])
    assert codes(findings) == ["AA306"]  # no AA303/AA308: the fighter is aboard in 6 Sea Zone


# --- the report and the next state see the carried fighters ---------------------------------------


def report(tmp_path, state_text, moves, power=G, phase=NCM):
    (tmp_path / "state.yaml").write_text(state_text, encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(orders(power, phase, moves), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            ["check", str(tmp_path / "orders.yaml"), "--state", str(tmp_path / "state.yaml"), "--format", "json"]
        )
    document = json.loads(out.getvalue())
    return code, document["files"][0], document["findings"]


def test_the_assignment_lists_the_fighters_the_carrier_carried(tmp_path):
    st = state(
        G,
        NCM,
        units=[
            unit("5 Sea Zone", G, "carrier", id="C1"),
            unit("5 Sea Zone", G, "fighter", id="F1", aboard="C1"),
            unit("5 Sea Zone", J, "fighter", id="Zero", aboard="C1"),
        ],
    )
    code, result, findings = report(tmp_path, st, [mv(["C1"], "5 Sea Zone", "6 Sea Zone")])
    assert code == 0 and findings == []
    assert result["assignment"] == [{"order": 1, "units": ["C1"], "rides": {"F1": "C1", "Zero": "C1"}}]


def test_the_assignment_of_a_combat_move_lists_the_carried_fighter(tmp_path):
    st = state(
        G,
        units=[
            unit("5 Sea Zone", G, "carrier", id="C1"),
            unit("5 Sea Zone", G, "fighter", id="F1", aboard="C1"),
            unit("7 Sea Zone", B, "battleship"),
        ],
    )
    code, result, findings = report(tmp_path, st, [mv(["C1"], "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")], phase=CM)
    assert code == 0 and findings == []
    assert result["assignment"] == [{"order": 1, "units": ["C1"], "rides": {"F1": "C1"}}]


def test_apply_writes_the_carried_fighters_in_the_carriers_zone(tmp_path, capsys):
    st = state(G, NCM, units=[unit("5 Sea Zone", G, "carrier", id="C1"), unit("5 Sea Zone", G, "fighter", aboard="C1"),
                              unit("5 Sea Zone", J, "fighter", aboard="C1")])
    (tmp_path / "s.yaml").write_text(st, encoding="utf-8")
    (tmp_path / "o.yaml").write_text(orders(G, NCM, [mv(["C1"], "5 Sea Zone", "6 Sea Zone")]).replace(
        "movecheck: 1\n", "movecheck: 1\nstate: s.yaml\n", 1), encoding="utf-8")
    code = main(["apply", str(tmp_path / "o.yaml"), "--root", "/"])
    written = yaml_data(capsys.readouterr().out)
    assert code == 0
    fighters = [(u["at"], u["power"]) for u in written["units"] if u["type"] == "fighter"]
    assert sorted(fighters) == [("6 Sea Zone", G), ("6 Sea Zone", J)]


def test_a_fighter_in_flight_after_its_battle_is_not_cargo(run):
    """``moved: 3`` at sea in a noncombat state: in flight, seated for the count only; its carrier leaves without it."""
    s = state(G, NCM, units=[unit("7 Sea Zone", G, "carrier", id="C1"), unit("7 Sea Zone", G, "fighter", moved=3)])
    findings = run(s, [mv(["C1"], "7 Sea Zone", "8 Sea Zone")])
    assert errors(findings) == ["AA303"]


def test_a_fighter_that_flies_on_from_a_carrier_is_not_reported_landed(tmp_path):
    """Its journey passed the carrier's zone (aa-turn.md, Journeys): no landing in the assignment, no AA306."""
    st = state(G, NCM, units=[unit("5 Sea Zone", G, "carrier", id="C1"), unit("Germany", G, "fighter", id="F1")])
    code, result, findings = report(
        tmp_path, st, [mv(["F1"], "Germany", "5 Sea Zone"), mv(["F1"], "5 Sea Zone", "Germany")]
    )
    assert code == 0 and findings == []
    assert result["assignment"] == [{"order": 1, "units": ["F1"]}, {"order": 2, "units": ["F1"]}]
