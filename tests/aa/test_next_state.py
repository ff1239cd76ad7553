"""What else the states ``apply`` writes carry from one phase to the next: aircraft the rules destroy
(aa-turn.md, "Aircraft that cannot land"), fighters aboard their carrier, and purchases not yet placed."""

from __future__ import annotations

from pathlib import Path

from movecheck.aa.prepare import lint_state
from movecheck.loading import load_file
from tests.harness import yaml_data, yaml_text

from .next_state_helpers import applied, apply, check, codes, lints_clean, orders_text, stacks, state_text, write

FACTORY = "{at: Germany, power: Germans, type: factory}"


def noncombat(tmp_path: Path, units: list[str], moves: list[str], head: str = "") -> Path:
    write(tmp_path, "s.yaml", state_text("Germans", "noncombat_move", [FACTORY, *units], head=head))
    return write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "noncombat_move", moves))


# -- aircraft that cannot land --------------------------------------------------------------


def test_an_aircraft_aa308_destroys_is_gone_from_the_next_state_and_listed(capsys, tmp_path):
    orders = noncombat(tmp_path, ["{at: 7 Sea Zone, power: Germans, type: fighter, id: JG-1}",
                                  "{at: 7 Sea Zone, power: Germans, type: fighter}"], [])
    code, report = check(capsys, orders)
    assert code == 0 and codes(report).count("AA308") == 2  # (and AA905 on the state: no carrier for them)
    code, text = apply(capsys, orders)
    assert code == 0
    (tmp_path / "next.yaml").write_text(text)
    lints_clean(capsys, tmp_path / "next.yaml")
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert header[1] == "# destroyed: aircraft with no landing space at the end of the noncombat move (N17), removed:"
    assert header[2:] == ["#   JG-1 in 7 Sea Zone", "#   1 German fighter in 7 Sea Zone"]
    assert stacks(yaml_data(text), "7 Sea Zone") == {}


def test_fighters_waiting_for_a_carrier_bought_this_turn_stay(capsys, tmp_path):
    """Three fighters wait in 5 Sea Zone, next to Germany's factory, for the one carrier bought: two will be
    seated on it and stay for the mobilization, the third has no slot and is destroyed."""
    orders = noncombat(tmp_path, ["{at: 5 Sea Zone, power: Germans, type: fighter, count: 3}"], [],
                       head="purchased: {carrier: 1}\n")
    code, text = apply(capsys, orders)
    assert code == 0, text
    state = yaml_data(text)
    assert state["turn"]["phase"] == "mobilize" and state["purchased"] == {"carrier": 1}
    assert stacks(state, "5 Sea Zone") == {"fighter": 2}
    assert "#   1 German fighter in 5 Sea Zone" in text.splitlines()
    assert "to_place" not in state
    (tmp_path / "next.yaml").write_text(text)
    lints_clean(capsys, tmp_path / "next.yaml")


# -- fighters aboard keep their carrier --------------------------------------------------------


def test_an_allied_fighter_keeps_its_carrier_between_turns(capsys, tmp_path):
    fleet = ["{at: 10 Sea Zone, power: British, type: carrier, id: HMS-1}",
             "{at: 10 Sea Zone, power: Americans, type: carrier, id: USS-1}",
             "{at: 10 Sea Zone, power: Americans, type: fighter, aboard: HMS-1}"]
    orders = noncombat(tmp_path, fleet, [])
    out = tmp_path / "next.yaml"
    code, text = apply(capsys, orders)
    assert code == 0, text
    out.write_text(text)
    fighter = next(u for u in yaml_data(text)["units"] if u["type"] == "fighter")
    assert fighter["aboard"] == "HMS-1"
    lints_clean(capsys, out)
    _, board, _ = lint_state(load_file(str(out)))
    seated = next(u for u in board.units if u.type.is_fighter)
    assert seated.aboard is not None and seated.aboard.id == "HMS-1"  # the reader seats it there, not on USS-1


def test_fighters_the_reader_seats_alike_need_no_aboard(capsys, tmp_path):
    orders = noncombat(tmp_path, ["{at: 10 Sea Zone, power: British, type: carrier}",
                                  "{at: 10 Sea Zone, power: British, type: fighter, count: 2}"], [])
    state = applied(capsys, orders)
    assert [u for u in state["units"] if u["at"] == "10 Sea Zone"] == [
        {"at": "10 Sea Zone", "power": "British", "type": "carrier"},
        {"at": "10 Sea Zone", "power": "British", "type": "fighter", "count": 2}]


# -- purchases are never dropped ---------------------------------------------------------------


def test_units_to_place_survive_every_apply(capsys, tmp_path):
    head = "to_place: {Germans: {infantry: 2}, British: {tank: 1}}\npurchased: {artillery: 1}\n"
    units = ["{at: Germany, power: Germans, type: tank}", "{at: Poland, power: Russians, type: infantry}"]
    write(tmp_path, "s.yaml", state_text("Germans", "combat_move", units, head="control: {Poland: Russians}\n" + head))
    write(
        tmp_path,
        "o.yaml",
        orders_text("s.yaml", "Germans", "combat_move", ["{units: {tank: 1}, path: [Germany, Poland]}"]),
    )
    battles = applied(capsys, tmp_path / "o.yaml")
    assert battles["to_place"] == {"British": {"tank": 1}, "Germans": {"infantry": 2}}
    (tmp_path / "battles.yaml").write_text(yaml_text(battles))
    write(
        tmp_path,
        "r.yaml",
        orders_text("battles.yaml", "Germans", "battles", ["{at: Poland, defender_losses: {infantry: 1}}"]),
    )
    after = applied(capsys, tmp_path / "r.yaml")
    assert after["to_place"] == {"British": {"tank": 1}, "Germans": {"infantry": 2}}
    (tmp_path / "ncm.yaml").write_text(yaml_text(after))
    write(tmp_path, "n.yaml", orders_text("ncm.yaml", "Germans", "noncombat_move", []))
    code, text = apply(capsys, tmp_path / "n.yaml")
    assert code == 0, text
    mobilize = yaml_data(text)
    assert mobilize["to_place"] == {"British": {"tank": 1}, "Germans": {"infantry": 2}}
    assert mobilize["purchased"] == {"artillery": 1}


def test_a_fighter_at_sea_in_a_mobilization_state_warns_only_when_no_carrier_is_bought(capsys, tmp_path):
    """AA905: a fighter waiting for a carrier bought this turn is for the mobilization to settle (AA708)."""
    from movecheck.cli import main

    fighter = "{at: 5 Sea Zone, power: Germans, type: fighter}"
    write(tmp_path, "m.yaml", state_text("Germans", "mobilize", [FACTORY, fighter], head="purchased: {carrier: 1}\n"))
    lints_clean(capsys, tmp_path / "m.yaml")
    write(tmp_path, "m.yaml", state_text("Germans", "mobilize", [FACTORY, fighter], head="purchased: {infantry: 1}\n"))
    assert main(["lint", str(tmp_path / "m.yaml"), "--root", "/", "--isolated"]) == 0
    assert "AA905" in capsys.readouterr().out
