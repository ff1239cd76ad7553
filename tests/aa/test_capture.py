"""Control in the states ``apply`` writes (aa-turn.md, "Control: capture and liberation"): blitz capture,
liberation, and AA guns and factories by edition."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness import yaml_data, yaml_text

from .next_state_helpers import applied, check, codes, lints_clean, orders_text, owners, stacks, state_text, write

ROOT = Path(__file__).resolve().parents[2]


# -- blitz capture ---------------------------------------------------------------------


def test_every_empty_territory_a_tank_blitzes_through_changes_hands(capsys, tmp_path):
    """examples/aa/orders/uk2-combat.yaml: the tank's journey Egypt -> Libya -> Algeria takes both."""
    out = tmp_path / "battles.yaml"
    out.write_text(yaml_text(applied(capsys, ROOT / "examples/aa/orders/uk2-combat.yaml")))
    state = yaml_data(out.read_text())
    assert state["control"] == {"Algeria": "British", "Libya": "British"}
    assert state["captured_this_turn"] == ["Algeria", "Libya"]


def test_a_blitzed_territory_is_friendly_for_the_rest_of_the_turn(capsys, tmp_path):
    """After the battles, a noncombat move into the territory the tank blitzed through is legal (AA301 before)."""
    units = ["{at: Egypt, power: British, type: tank, id: T}", "{at: Egypt, power: British, type: infantry}",
             "{at: Algeria, power: Germans, type: infantry}"]
    write(
        tmp_path,
        "s.yaml",
        state_text("British", "combat_move", units, garrison=("Germans", "Russians", "Japanese", "Americans")),
    )
    write(
        tmp_path,
        "o.yaml",
        orders_text("s.yaml", "British", "combat_move", ["{units: [T], path: [Egypt, Libya, Algeria]}"]),
    )
    (tmp_path / "battles.yaml").write_text(yaml_text(applied(capsys, tmp_path / "o.yaml")))
    state = yaml_data((tmp_path / "battles.yaml").read_text())
    assert state["control"]["Libya"] == "British" and "Algeria" not in state.get("control", {})
    assert [b["at"] for b in state["battles"]] == ["Algeria"]
    write(tmp_path, "r.yaml", orders_text("battles.yaml", "British", "battles",
                                          ["{at: Algeria, attacker_losses: {tank: 1}}"]))
    (tmp_path / "ncm.yaml").write_text(yaml_text(applied(capsys, tmp_path / "r.yaml")))
    assert yaml_data((tmp_path / "ncm.yaml").read_text())["control"] == {"Libya": "British"}
    write(
        tmp_path,
        "n.yaml",
        orders_text("ncm.yaml", "British", "noncombat_move", ["{units: {infantry: 1}, path: [Egypt, Libya]}"]),
    )
    code, report = check(capsys, tmp_path / "n.yaml")
    assert code == 0, report["findings"]


def test_a_territory_holding_only_a_factory_is_taken_in_the_combat_move_not_fought_over(capsys, tmp_path):
    units = ["{at: Germany, power: Germans, type: tank}", "{at: Poland, power: Russians, type: factory}"]
    write(tmp_path, "s.yaml", state_text("Germans", "combat_move", units, head="control: {Poland: Russians}\n"))
    write(
        tmp_path,
        "o.yaml",
        orders_text("s.yaml", "Germans", "combat_move", ["{units: {tank: 1}, path: [Germany, Poland]}"]),
    )
    state = applied(capsys, tmp_path / "o.yaml")
    assert "battles" not in state
    assert state["captured_this_turn"] == ["Poland"] and owners(state, "Poland", "factory") == ["Germans"]


# -- AA guns by edition -------------------------------------------------------------------


def aa_gun_board(tmp_path: Path, rules: str) -> Path:
    units = ["{at: Germany, power: Germans, type: tank}", "{at: Poland, power: Russians, type: aa_gun}"]
    write(
        tmp_path,
        "s.yaml",
        state_text("Germans", "combat_move", units, head=f"rules: {rules}\ncontrol: {{Poland: Russians}}\n"),
    )
    return write(
        tmp_path,
        "o.yaml",
        orders_text("s.yaml", "Germans", "combat_move", ["{units: {tank: 1}, path: [Germany, Poland]}"]),
    )


def test_1942_an_enemy_aa_gun_is_a_defender_never_captured(capsys, tmp_path):
    battles = tmp_path / "battles.yaml"
    battles.write_text(yaml_text(applied(capsys, aa_gun_board(tmp_path, "aa1942"))))
    state = yaml_data(battles.read_text())
    assert "captured_this_turn" not in state and state["control"] == {"Poland": "Russians"}
    assert state["battles"] == [
        {"at": "Poland", "kind": "land", "attackers": {"tank": 1}, "defenders": {"aa_gun": 1}, "from": ["Germany"]}
    ]
    lints_clean(capsys, battles)
    write(tmp_path, "r.yaml", orders_text("battles.yaml", "Germans", "battles", ["{at: Poland}"]))
    _code, report = check(capsys, tmp_path / "r.yaml")
    assert codes(report) == ["AA505"]  # the gun is still there: the battle goes on
    write(
        tmp_path,
        "r.yaml",
        orders_text("battles.yaml", "Germans", "battles", ["{at: Poland, defender_losses: {aa: 1}}"]),
    )
    after = applied(capsys, tmp_path / "r.yaml")
    assert "control" not in after and after["captured_this_turn"] == ["Poland"]  # German again, as on the map
    assert stacks(after, "Poland") == {"tank": 1}


def test_revised_an_enemy_aa_gun_changes_hands_with_its_territory(capsys, tmp_path):
    state = applied(capsys, aa_gun_board(tmp_path, "aa-revised"))
    assert "battles" not in state
    assert state["captured_this_turn"] == ["Poland"] and owners(state, "Poland", "aa_gun") == ["Germans"]


def test_revised_an_aa_gun_is_no_casualty(capsys, tmp_path):
    units = [
        "{at: Karelia S.S.R., power: Germans, type: tank, moved: 1}",
        "{at: Karelia S.S.R., power: Russians, type: infantry}",
        "{at: Karelia S.S.R., power: Russians, type: aa_gun}",
    ]
    text = state_text("Germans", "battles", units, head="rules: aa-revised\n") + (
        "battles:\n  - {at: Karelia S.S.R., attackers: {tank: 1}, defenders: {infantry: 1}, from: [Baltic States]}\n")
    write(tmp_path, "b.yaml", text)
    write(
        tmp_path,
        "r.yaml",
        orders_text(
            "b.yaml", "Germans", "battles", ["{at: Karelia S.S.R., defender_losses: {infantry: 1, aa_gun: 1}}"]
        ),
    )
    _code, report = check(capsys, tmp_path / "r.yaml")
    assert codes(report) == ["AA502"]
    write(
        tmp_path,
        "r.yaml",
        orders_text("b.yaml", "Germans", "battles", ["{at: Karelia S.S.R., defender_losses: {infantry: 1}}"]),
    )
    after = applied(capsys, tmp_path / "r.yaml")
    assert after["control"] == {"Karelia S.S.R.": "Germans"} and owners(after, "Karelia S.S.R.", "aa_gun") == [
        "Germans"
    ]


# -- liberation ----------------------------------------------------------------------------


def liberation(tmp_path: Path, control: str, path: str, extra: tuple[str, ...] = ()) -> Path:
    """A British tank in Archangel, the German-held Russian lands of ``control`` empty."""
    units = ["{at: Archangel, power: British, type: tank}", *extra]
    garrison = ("Germans", "British", "Japanese", "Americans") + (() if "Russia:" in control else ("Russians",))
    write(
        tmp_path,
        "s.yaml",
        state_text("British", "combat_move", units, head=f"control: {{{control}}}\n", garrison=garrison),
    )
    return write(
        tmp_path, "o.yaml", orders_text("s.yaml", "British", "combat_move", [f"{{units: {{tank: 1}}, path: {path}}}"])
    )


def test_a_territory_of_an_ally_returns_to_it(capsys, tmp_path):
    state = applied(capsys, liberation(tmp_path, "Karelia S.S.R.: Germans", "[Archangel, Karelia S.S.R.]"))
    assert "control" not in state  # Karelia is Russian again, as on the map
    assert state["captured_this_turn"] == ["Karelia S.S.R."]


def test_while_the_allys_capital_is_enemy_held_the_liberator_holds_it(capsys, tmp_path):
    state = applied(
        capsys, liberation(tmp_path, "Karelia S.S.R.: Germans, Russia: Germans", "[Archangel, Karelia S.S.R.]")
    )
    assert state["control"] == {"Karelia S.S.R.": "British", "Russia": "Germans"}


def test_a_liberated_capital_returns_at_once_with_the_lands_allies_hold(capsys, tmp_path):
    control = "Karelia S.S.R.: British, Russia: Germans, Vologda: Americans, Caucasus: Germans"
    factory = ("{at: Russia, power: Germans, type: factory}", "{at: Karelia S.S.R., power: British, type: factory}")
    state = applied(capsys, liberation(tmp_path, control, "[Archangel, Russia]", factory))
    assert state["control"] == {"Caucasus": "Germans"}  # Russia, Karelia and Vologda Russian again
    assert state["captured_this_turn"] == ["Russia"]
    assert owners(state, "Russia", "factory") == ["Russians"] and owners(state, "Karelia S.S.R.", "factory") == [
        "Russians"
    ]


def test_a_territory_freed_in_battle_is_liberated_too(capsys, tmp_path):
    units = [
        "{at: Karelia S.S.R., power: British, type: tank, moved: 1}",
        "{at: Karelia S.S.R., power: Germans, type: infantry}",
    ]
    text = state_text("British", "battles", units, head="control: {Karelia S.S.R.: Germans}\n") + (
        "battles:\n  - {at: Karelia S.S.R., attackers: {tank: 1}, defenders: {infantry: 1}, from: [Archangel]}\n")
    write(tmp_path, "b.yaml", text)
    write(
        tmp_path,
        "r.yaml",
        orders_text("b.yaml", "British", "battles", ["{at: Karelia S.S.R., defender_losses: {infantry: 1}}"]),
    )
    after = applied(capsys, tmp_path / "r.yaml")
    assert "control" not in after and after["captured_this_turn"] == ["Karelia S.S.R."]


def test_a_territory_a_later_liberation_returns_is_reported_liberated(capsys, tmp_path):
    """The British tank blitzes through German-held Archangel (Russia is German: the British hold it) into Russia,
    liberating it: Archangel goes back to the Russians with their capital, and the header says so."""
    from movecheck.cli import main

    units = ["{at: Karelia S.S.R., power: British, type: tank}"]
    garrison = ("Germans", "British", "Japanese", "Americans")
    head = "control: {Archangel: Germans, Russia: Germans, Vologda: Americans}\n"
    write(tmp_path, "s.yaml", state_text("British", "combat_move", units, head=head, garrison=garrison))
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "British", "combat_move",
                                                   ["{units: {tank: 1}, path: [Karelia S.S.R., Archangel, Russia]}"]))
    code = main(["apply", str(orders), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "control" not in yaml_data(out)  # all Russian again
    assert "# Archangel: liberated for the Russians by the British (held by the Germans before)." in out
    assert "# Russia: liberated for the Russians by the British (held by the Germans before)." in out
    assert "# Vologda: returned to the Russians with their capital (held by the Americans before)." in out
    assert "captured by the British" not in out
    code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert {c["at"]: (c["holder"], c["liberated"]) for c in report["captured"]} == {
        "Archangel": ("Russians", True), "Russia": ("Russians", True), "Vologda": ("Russians", True)}
    main(["summary", str(orders), "--root", "/", "--isolated", "-f", "text"])
    post = capsys.readouterr().out
    assert "Archangel liberated by the British: back to the Russians" in post
    assert "Archangel captured" not in post


def test_apply_json_always_gives_notes_and_unplaced(run_main, tmp_path):
    """``apply --format json`` gives ``notes`` (empty) and ``unplaced`` (null) after a combat move, as documented."""
    orders = liberation(tmp_path, "Karelia S.S.R.: Germans", "[Archangel, Karelia S.S.R.]")
    code, out, err = run_main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json"])
    assert code == 0, err
    report = json.loads(out)
    assert report["notes"] == [] and report["unplaced"] is None
    from movecheck.schema import validate_data

    assert validate_data("apply-report", report) == []
