"""Battle results (aa-turn.md, "Battles: what the results may say"): the sea battle comes first (AA507),
the partial amphibious retreat, aircraft in a retreat, and names read as in orders."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness import yaml_data

from .next_state_helpers import applied, apply, check, codes, lints_clean, orders_text, stacks, state_text, write

ROOT = Path(__file__).resolve().parents[2]
G1_BATTLES = ROOT / "examples" / "aa" / "states" / "g1-battles.yaml"
G1_RESULTS = ROOT / "examples" / "aa" / "orders" / "g1-battles.yaml"


def battles_state(capsys, tmp_path: Path, *, defended: bool = True) -> Path:
    """Two German infantry sail in T1 from 5 to 6 Sea Zone, where a British destroyer waits, and land in
    the United Kingdom (held by one British infantry, or empty): the battles state apply writes."""
    units = ["{at: 5 Sea Zone, power: Germans, type: transport, id: T1}",
             "{at: 5 Sea Zone, power: Germans, type: infantry, count: 2, aboard: T1}",
             "{at: 5 Sea Zone, power: Germans, type: cruiser}", "{at: 6 Sea Zone, power: British, type: destroyer}"]
    garrison = ("Germans", "Russians", "Japanese", "Americans") + (("British",) if defended else ())
    write(tmp_path, "s.yaml", state_text("Germans", "combat_move", units, garrison=garrison))
    write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "combat_move", [
        "{units: {cruiser: 1, transport: 1}, path: [5 Sea Zone, 6 Sea Zone]}",
        "{units: {infantry: 2}, path: [6 Sea Zone, United Kingdom]}"]))
    code, out = apply(capsys, tmp_path / "o.yaml")
    assert code == 0, out
    battles = tmp_path / "battles.yaml"
    battles.write_text(out)
    return battles


def results(tmp_path: Path, *items: str) -> Path:
    return write(tmp_path, "r.yaml", orders_text("battles.yaml", "Germans", "battles", list(items)))


SUNK = "{at: 6 Sea Zone, attacker_losses: {transport: 1}, defender_losses: {destroyer: 1}}"
WON = "{at: 6 Sea Zone, defender_losses: {destroyer: 1}}"
RETREAT = "{at: 6 Sea Zone, retreat: 5 Sea Zone}"


# -- AA507 cargo-lost-at-sea ------------------------------------------------------------


def test_the_battles_state_names_the_transport_each_landed_unit_came_from(capsys, tmp_path):
    battles = battles_state(capsys, tmp_path)
    state = yaml_data(battles.read_text())
    landed = [u for u in state["units"] if u["at"] == "United Kingdom" and u["power"] == "Germans"]
    assert landed == [
        {"at": "United Kingdom", "power": "Germans", "type": "infantry", "count": 2, "unloaded_from": "T1"}
    ]
    lints_clean(capsys, battles)


def test_aa507_london_is_not_taken_by_infantry_whose_transport_went_down(capsys, tmp_path):
    battles_state(capsys, tmp_path)
    code, report = check(capsys, results(tmp_path, SUNK, "{at: United Kingdom, defender_losses: {infantry: 1}}"))
    assert code == 1 and codes(report) == ["AA507"]
    assert "2 infantry went down in 6 Sea Zone with their transport" in report["findings"][0]["message"]
    after = applied(capsys, results(tmp_path, SUNK))  # the land battle is not fought: it needs no result
    assert "control" not in after and "captured_this_turn" not in after
    assert stacks(after, "United Kingdom") == {"infantry": 1}


def test_aa507_cargo_of_a_transport_that_retreats_stays_aboard_and_goes_with_it(capsys, tmp_path):
    battles_state(capsys, tmp_path)
    _code, report = check(capsys, results(tmp_path, RETREAT, "{at: United Kingdom, attacker_losses: {infantry: 1}}"))
    assert codes(report) == ["AA507"] and "stayed aboard in 6 Sea Zone" in report["findings"][0]["message"]
    out = tmp_path / "ncm.yaml"
    out.write_text(apply(capsys, results(tmp_path, RETREAT))[1])
    after = yaml_data(out.read_text())
    assert stacks(after, "United Kingdom", "Germans") == {}
    cargo = [u for u in after["units"] if u["type"] == "infantry" and u["at"] == "5 Sea Zone"]
    assert cargo == [{"at": "5 Sea Zone", "power": "Germans", "type": "infantry", "count": 2, "aboard": "T1"}]
    lints_clean(capsys, out)


def test_a_transport_that_comes_through_lands_its_cargo(capsys, tmp_path):
    battles_state(capsys, tmp_path)
    after = applied(capsys, results(tmp_path, WON, "{at: United Kingdom, defender_losses: {infantry: 1}}"))
    assert after["control"] == {"United Kingdom": "Germans"} and after["captured_this_turn"] == ["United Kingdom"]


def test_aa507_a_land_battle_whose_cargo_sank_is_fought_by_the_units_that_came_overland(capsys, tmp_path):
    """Egypt: the artillery and infantry from 17 Sea Zone go down with their transport; the infantry and the
    tank from Libya fight on, and may retreat as in any land battle."""
    text = G1_RESULTS.read_text().replace("state: ../states/g1-battles.yaml", f"state: {G1_BATTLES}")
    text = text.replace(
        "    defender_losses: {destroyer: 1}",
        "    attacker_losses: {transport: 1}\n    defender_losses: {destroyer: 1}",
    )
    path = tmp_path / "r.yaml"
    path.write_text(
        text.replace(
            "    attacker_losses: {infantry: 1}\n    defender_losses: {infantry: 1, artillery: 1, tank: 1, fighter: 1}",
            "    attacker_losses: {artillery: 1}\n    defender_losses: {infantry: 1, artillery: 1, tank: 1, fighter: "
            "1}",
        )
    )
    _code, report = check(capsys, path)
    assert codes(report) == ["AA507"]  # the artillery never landed
    assert "1 artillery and 1 infantry went down in 17 Sea Zone" in report["findings"][0]["message"]
    path.write_text(
        text.replace(
            "    attacker_losses: {infantry: 1}\n    defender_losses: {infantry: 1, artillery: 1, tank: 1, fighter: 1}",
            "    attacker_losses: {tank: 1}\n    retreat: Libya",
        )
    )
    after = applied(capsys, path)
    assert stacks(after, "Libya", "Germans") == {"infantry": 1} and stacks(after, "Egypt", "Germans") == {}


def test_an_empty_territory_entered_from_a_zone_whose_battle_is_pending_is_taken_after_it(capsys, tmp_path):
    battles = battles_state(capsys, tmp_path, defended=False)
    state = yaml_data(battles.read_text())
    assert "captured_this_turn" not in state and [b["at"] for b in state["battles"]] == ["6 Sea Zone"]
    after = applied(capsys, results(tmp_path, WON))
    assert after["control"] == {"United Kingdom": "Germans"} and after["captured_this_turn"] == ["United Kingdom"]
    after = applied(capsys, results(tmp_path, SUNK))
    assert "control" not in after and stacks(after, "United Kingdom") == {}


# -- partial amphibious retreat, aircraft in a retreat --------------------------------------


def egypt(tmp_path: Path, egypt_result: str) -> Path:
    """The example results with Egypt's replaced."""
    text = G1_RESULTS.read_text().replace("state: ../states/g1-battles.yaml", f"state: {G1_BATTLES}")
    start = text.index("  - id: egypt\n")
    end = text.index("  - id: karelia")
    return write(tmp_path, "r.yaml", text[:start] + egypt_result + text[end:])


EGYPT_RETREAT = (
    "  - {at: Egypt, attacker_losses: {tank: 1}, defender_losses: {infantry: 1, artillery: 1, tank: 1, fighter: 1},"
    " retreat: Libya}\n"
)


def test_1942_the_overland_units_retreat_and_the_amphibious_ones_stay_and_take_the_territory(capsys, tmp_path):
    after = applied(capsys, egypt(tmp_path, EGYPT_RETREAT))
    assert stacks(after, "Libya", "Germans") == {"infantry": 1}
    assert stacks(after, "Egypt", "Germans") == {"artillery": 1, "infantry": 1}
    assert after["control"]["Egypt"] == "Germans"


def test_revised_no_land_unit_retreats_from_a_battle_with_amphibious_ones(capsys, tmp_path):
    option = ("--option", "aa.partial_amphibious_retreat=false")
    _code, report = check(capsys, egypt(tmp_path, EGYPT_RETREAT), *option)
    assert codes(report) == ["AA503"]
    assert "1 infantry may not retreat from Egypt" in report["findings"][0]["message"]
    both_lost = (
        "  - {at: Egypt, attacker_losses: {tank: 1, infantry: 2}, defender_losses: {infantry: 1}, retreat: Libya}\n"
    )
    _code, report = check(capsys, egypt(tmp_path, both_lost), *option)
    assert codes(report) == ["AA505"]  # the artillery stays and fights on


def test_a_retreat_never_moves_aircraft(capsys, tmp_path):
    text = G1_RESULTS.read_text().replace("state: ../states/g1-battles.yaml", f"state: {G1_BATTLES}")
    path = write(tmp_path, "r.yaml", text.replace(
        "    attacker_losses: {infantry: 2}\n    defender_losses: {infantry: 2, fighter: 1}",
        "    attacker_losses: {infantry: 2}\n    defender_losses: {infantry: 1}\n    retreat: Finland"))
    after = applied(capsys, path)
    assert stacks(after, "Karelia S.S.R.", "Germans") == {"fighter": 2}
    assert all(u.get("fought") for u in after["units"] if u["at"] == "Karelia S.S.R." and u["power"] == "Germans")
    assert stacks(after, "Finland", "Germans") == {"infantry": 2, "tank": 2}
    assert "Karelia S.S.R." not in after.get("control", {})  # Russian, as on the map


# -- names --------------------------------------------------------------------------------


@pytest.mark.parametrize("power", ["ger", "Germany", "GERMANS"])
def test_a_results_file_reads_names_like_orders(capsys, tmp_path, power):
    text = (G1_RESULTS.read_text().replace("state: ../states/g1-battles.yaml", f"state: {G1_BATTLES}")
            .replace("power: Germans", f"power: {power}").replace("at: 7 Sea Zone", "at: SZ 7")
            .replace("at: Karelia S.S.R.", "at: karelia").replace("{infantry: 2, fighter: 1}", "{inf: 2, ftr: 1}"))
    code, report = check(capsys, write(tmp_path, "r.yaml", text))
    assert code == 0, report["findings"]


def test_an_unknown_power_in_a_results_file_is_mc004_at_its_place(capsys, tmp_path):
    text = G1_RESULTS.read_text().replace("state: ../states/g1-battles.yaml", f"state: {G1_BATTLES}")
    _code, report = check(capsys, write(tmp_path, "r.yaml", text.replace("power: Germans", "power: Germanz")))
    assert codes(report) == ["MC004"]
    finding = report["findings"][0]
    assert "Germans" in finding["message"] and (finding["line"], finding["column"]) == (9, 8)
    _code, report = check(capsys, write(tmp_path, "r.yaml", text.replace("power: Germans", "power: UK")))
    assert codes(report) == ["MC006"]
