"""Transports and cargo (AA401–AA406), in both phases, on the built-in aa1942-2e map.

The same orders are checked in combat move, where the cargo lands in hostile territory (an
amphibious assault: Karelia and the Baltic States are Russian), and in noncombat move,
where it lands in friendly territory (the Baltic States and Finland are German).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .conftest import codes, mv, only, state, unit

G, J = "Germans", "Japanese"
R, B = "Russians", "British"
ZONE = "5 Sea Zone"  # borders Germany, the Baltic States, Finland, Karelia


@dataclass
class Phase:
    name: str
    first: str  # a territory to unload into
    second: str  # another one, also on 5 Sea Zone
    beyond: str  # a land neighbour of `first`
    control: dict

    def state(self, units, **kw):
        return state(G, self.name, units=units, control={**self.control, **kw.pop("control", {})}, **kw)

    @property
    def enemy_garrison(self):
        """A defender for the combat targets; nothing in noncombat."""
        if self.name == "combat_move":
            return [unit(self.first, R, "infantry")]
        return []


COMBAT = Phase("combat_move", "Karelia S.S.R.", "Baltic States", "Archangel", {"Baltic States": R})
NONCOMBAT = Phase("noncombat_move", "Baltic States", "Finland", "Belorussia", {})


@pytest.fixture(params=[COMBAT, NONCOMBAT], ids=["combat", "noncombat"])
def ph(request) -> Phase:
    return request.param


def home(*extra, infantry=3):
    return [
        unit("Germany", G, "infantry", infantry),
        unit("Germany", G, "artillery"),
        unit("Germany", G, "tank"),
        unit(ZONE, G, "transport", id="T1"),
        unit(ZONE, G, "transport", id="T2"),
        *extra,
    ]


# --- AA401 transport-capacity -----------------------------------------------------------


def test_aa401_three_infantry_on_one_transport(run, ph):
    findings = run(ph.state(home() + ph.enemy_garrison), [
        mv({"infantry": 3}, "Germany", ZONE, ph.first, transport="T1"),
    ])
    assert codes(findings) == ["AA401"]
    assert "T1" in findings[0].message
    assert (findings[0].line, findings[0].column, findings[0].order) == (12, 14, 1)  # `transport: T1`


def test_aa401_silent_for_two_infantry(run, ph):
    findings = run(ph.state(home() + ph.enemy_garrison), [
        mv({"infantry": 2}, "Germany", ZONE, ph.first, transport="T1"),
    ])
    assert findings == []


def test_aa401_three_infantry_spread_over_two_transports_fit(run, ph):
    findings = run(ph.state(home() + ph.enemy_garrison), [
        mv({"infantry": 3}, "Germany", ZONE, ph.first),
    ])
    assert "AA401" not in codes(findings)


def test_aa401_tank_and_artillery(run, ph):
    findings = run(ph.state(home() + ph.enemy_garrison), [
        mv({"tank": 1, "artillery": 1}, "Germany", ZONE, ph.first, transport="T1"),
    ])
    assert codes(findings) == ["AA401"]


def test_aa401_silent_for_infantry_and_tank(run, ph):
    findings = run(ph.state(home() + ph.enemy_garrison), [
        mv({"tank": 1, "infantry": 1}, "Germany", ZONE, ph.first, transport="T1"),
    ])
    assert findings == []


def test_aa401_factory_is_never_carried(run, ph):
    findings = run(ph.state(home(unit("Germany", G, "factory")) + ph.enemy_garrison), [
        mv({"factory": 1}, "Germany", ZONE),
    ])
    assert "AA401" in codes(findings)
    assert "never carried" in only(findings, "AA401")[0].message


def test_aa401_cargo_already_aboard_counts(run, ph):
    units = home(unit(ZONE, G, "infantry", aboard="T1"), unit(ZONE, G, "infantry", aboard="T1"))
    findings = run(ph.state(units + ph.enemy_garrison), [
        mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="T1"),
    ])
    assert codes(findings) == ["AA401"]


# --- AA402 load-after-move --------------------------------------------------------------


def test_aa402_walk_then_load_in_one_order(run, ph):
    units = home(unit("Poland", G, "tank", id="P")) + ph.enemy_garrison
    findings = run(ph.state(units), [mv(["P"], "Poland", "Germany", ZONE, transport="T1")])
    assert "AA402" in codes(findings)
    assert "already moved" in only(findings, "AA402")[0].message


def test_aa402_move_then_load_in_two_orders(run, ph):
    units = [unit("Poland", G, "tank", id="P"), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv(["P"], "Poland", "Germany"),
        mv(["P"], "Germany", ZONE, ph.first),
    ])
    assert "AA402" in codes(findings)
    assert only(findings, "AA402")[0].order == 2


def test_aa402_silent_for_a_unit_that_has_not_moved(run, ph):
    units = [unit("Germany", G, "tank", id="P"), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    assert run(ph.state(units), [mv(["P"], "Germany", ZONE, ph.first)]) == []


# --- AA403 unload-ends-move -------------------------------------------------------------


def test_aa403_unload_then_move_on_in_the_same_order(run, ph):
    units = [unit("Germany", G, "tank", id="P"), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [mv(["P"], "Germany", ZONE, ph.first, ph.beyond)])
    assert "AA403" in codes(findings)
    assert ph.first in only(findings, "AA403")[0].message


def test_aa403_unload_then_move_on_in_a_later_order(run, ph):
    units = [unit("Germany", G, "tank", id="P"), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv(["P"], "Germany", ZONE, ph.first),
        mv(["P"], ph.first, ph.beyond),
    ])
    assert codes(only(findings, "AA403")) == ["AA403"]
    assert only(findings, "AA403")[0].order == 2


def test_aa403_transport_moves_after_unloading(run, ph):
    units = [unit("Germany", G, "infantry"), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="T1"),
        mv(["T1"], ZONE, "6 Sea Zone"),
    ])
    assert "AA403" in codes(findings)
    assert only(findings, "AA403")[0].order == 2 and "T1" in only(findings, "AA403")[0].message


def test_aa403_transport_loads_after_unloading(run, ph):
    units = [unit("Germany", G, "infantry", 2), unit(ZONE, G, "transport", id="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="T1"),
        mv({"infantry": 1}, "Germany", ZONE, transport="T1"),
    ])
    assert "AA403" in codes(findings)


def test_aa403_silent_for_move_load_sail_unload(run, ph):
    # a transport may move, then unload; its cargo's move ends there
    garrison = [unit("Northwestern Europe", B, "infantry")] if ph.name == "combat_move" else []
    control = {"Northwestern Europe": B} if ph.name == "combat_move" else {}
    units = [unit("Germany", G, "infantry", 2), unit(ZONE, G, "transport", id="T1"), *garrison]
    findings = run(ph.state(units, control=control), [
        mv({"infantry": 2}, "Germany", ZONE, transport="T1"),
        mv(["T1"], ZONE, "6 Sea Zone"),
        mv({"infantry": 2}, "6 Sea Zone", "Northwestern Europe"),
    ])
    assert findings == []


# --- AA404 unload-one-territory ---------------------------------------------------------


def test_aa404_one_transport_unloads_into_two_territories(run, ph):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, ZONE, ph.first),
        mv({"infantry": 1}, ZONE, ph.second),
    ])
    assert codes(findings) == ["AA404"]
    f = findings[0]
    assert f.order == 2 and ph.first in f.message and ph.second in f.message


def test_aa404_silent_for_two_unloads_into_one_territory(run, ph):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, ZONE, ph.first),
        mv({"infantry": 1}, ZONE, ph.first),
    ])
    assert findings == []


def test_aa404_silent_for_two_transports_and_two_territories(run, ph):
    units = [
        unit(ZONE, G, "transport", id="T1"),
        unit(ZONE, G, "infantry", aboard="T1"),
        unit(ZONE, G, "transport", id="T2"),
        unit(ZONE, G, "infantry", aboard="T2"),
        *ph.enemy_garrison,
    ]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, ZONE, ph.first),
        mv({"infantry": 1}, ZONE, ph.second),
    ])
    assert findings == []


# --- AA405 allied-transport -------------------------------------------------------------


def test_aa405_load_onto_an_allied_transport_and_unload(run, ph):
    units = [unit("Germany", G, "infantry"), unit(ZONE, J, "transport", id="Maru"), *ph.enemy_garrison]
    findings = run(ph.state(units), [
        mv({"infantry": 1}, "Germany", ZONE, transport="Maru"),
        mv({"infantry": 1}, ZONE, ph.first),
    ])
    assert codes(findings) == ["AA405"]
    assert findings[0].order == 2 and "Japanese" in findings[0].message


def test_aa405_in_one_order(run, ph):
    units = [unit("Germany", G, "infantry"), unit(ZONE, J, "transport", id="Maru"), *ph.enemy_garrison]
    findings = run(ph.state(units), [mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="Maru")])
    assert codes(findings) == ["AA405"]


def test_aa405_silent_for_unloading_cargo_boarded_on_an_earlier_turn(run, ph):
    units = [unit(ZONE, J, "transport", id="Maru"), unit(ZONE, G, "infantry", aboard="Maru"), *ph.enemy_garrison]
    assert run(ph.state(units), [mv({"infantry": 1}, ZONE, ph.first)]) == []


def test_aa405_silent_for_boarding_an_allied_transport_in_noncombat(run):
    units = [unit("Germany", G, "infantry"), unit(ZONE, J, "transport", id="Maru")]
    assert run(NONCOMBAT.state(units), [mv({"infantry": 1}, "Germany", ZONE, transport="Maru")]) == []


# --- AA406 load-in-hostile-zone ---------------------------------------------------------


def test_aa406_load_in_a_zone_with_an_enemy_warship(run, ph):
    units = home(unit(ZONE, B, "destroyer")) + ph.enemy_garrison
    findings = run(ph.state(units), [mv({"infantry": 1}, "Germany", ZONE, ph.first)])
    assert codes(findings) == ["AA406"]
    assert "destroyer" in findings[0].message and ZONE in findings[0].message


@pytest.mark.parametrize("enemy", ["submarine", "transport"])
def test_aa406_enemy_sub_or_transport_prevents_nothing(run, ph, enemy):
    units = home(unit(ZONE, B, enemy)) + ph.enemy_garrison
    findings = run(ph.state(units), [mv({"infantry": 2}, "Germany", ZONE, ph.first, transport="T1")])
    assert findings == []


def test_aa406_enemy_transport_blocks_with_option(run, ph):
    units = home(unit(ZONE, B, "transport")) + ph.enemy_garrison
    s = ph.state(units, options={"sub_transport_zones_hostile": True})
    findings = run(s, [mv({"infantry": 2}, "Germany", ZONE, ph.first, transport="T1")])
    assert "AA406" in codes(findings)


def test_aa406_combat_unload_from_hostile_zone_into_friendly_territory(run):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"),
             unit(ZONE, B, "cruiser")]
    s = COMBAT.state(units, options={"combat_move_must_attack": False})
    findings = run(s, [mv({"infantry": 2}, ZONE, "Germany")])
    assert codes(findings) == ["AA406"]
    assert "hostile territory" in findings[0].message


def test_aa406_silent_for_amphibious_assault_from_hostile_zone(run):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"),
             unit(ZONE, B, "cruiser"), unit("Karelia S.S.R.", R, "infantry")]
    assert run(COMBAT.state(units), [mv({"infantry": 2}, ZONE, "Karelia S.S.R.")]) == []


def test_aa406_noncombat_unload_from_hostile_zone(run):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"),
             unit(ZONE, B, "cruiser")]
    findings = run(NONCOMBAT.state(units), [mv({"infantry": 2}, ZONE, "Germany")])
    assert codes(findings) == ["AA406"]
    assert "noncombat" in findings[0].message


def test_aa406_silent_for_noncombat_unload_beside_enemy_sub(run):
    units = [unit(ZONE, G, "transport", id="T1"), unit(ZONE, G, "infantry", 2, aboard="T1"),
             unit(ZONE, B, "submarine")]
    assert run(NONCOMBAT.state(units), [mv({"infantry": 2}, ZONE, "Germany")]) == []


# --- naming the transport -------------------------------------------------------------------


def test_named_enemy_transport_cannot_be_boarded(run, ph):
    units = home(unit(ZONE, B, "transport", id="Tommy")) + ph.enemy_garrison
    findings = run(ph.state(units), [mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="Tommy")])
    assert codes(findings) == ["AA105"]
    assert "Tommy belongs to the British" in findings[0].message


def test_named_transport_in_another_zone(run, ph):
    units = home(unit("6 Sea Zone", G, "transport", id="T3")) + ph.enemy_garrison
    findings = run(ph.state(units), [mv({"infantry": 1}, "Germany", ZONE, ph.first, transport="T3")])
    assert codes(findings) == ["AA105"]
    assert "T3 is in 6 Sea Zone" in findings[0].message


def test_unnamed_cargo_never_boards_an_enemy_transport(run, ph):
    units = [unit("Germany", G, "infantry"), unit(ZONE, B, "transport"), *ph.enemy_garrison]
    findings = run(ph.state(units), [mv({"infantry": 1}, "Germany", ZONE, ph.first)])
    assert codes(findings) == ["AA105"]
