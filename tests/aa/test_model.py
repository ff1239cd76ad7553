"""The board model: names and aliases, sides, and the spec's words hostile / friendly /
friendly at the start of the turn, on the built-in aa1942-2e map."""

from __future__ import annotations

import pytest

from movecheck.aa.maps import builtin_map
from movecheck.aa.maps.gamemap import GameMap
from movecheck.aa.setup import build_board
from movecheck.loading import load_bytes

from .conftest import codes, mv, state, unit

G, J = "Germans", "Japanese"
R, B, A = "Russians", "British", "Americans"


@pytest.fixture(scope="module")
def game_map() -> GameMap:
    return GameMap(builtin_map("aa1942-2e"))


def board_of(text: str):
    setup = build_board(load_bytes(text.encode("utf-8"), "state.yaml"))
    assert setup.findings == []
    return setup.board


# --- the built-in map -----------------------------------------------------------------------


def test_builtin_map_counts(game_map):
    land = [s for s in game_map.spaces.values() if not s.sea]
    assert len(land) == 96 and sum(s.neutral for s in land) == 16
    assert len(game_map.spaces) - len(land) == 65
    assert sum(len(others) for others in game_map.adj.values()) == 2 * 403  # each connection both ways
    assert {c.name for c in game_map.canals} == {"Suez Canal", "Panama Canal"}


def test_builtin_map_sides(game_map):
    assert game_map.side_of[G] == game_map.side_of[J] != game_map.side_of[R]
    assert game_map.side_of[R] == game_map.side_of[B] == game_map.side_of[A]


def test_canal_zones_are_a_connection(game_map):
    assert game_map.adjacent("17 Sea Zone", "34 Sea Zone")
    assert game_map.canal_between("34 Sea Zone", "17 Sea Zone").land == ("Egypt", "Trans-Jordan")
    assert game_map.canal_between("17 Sea Zone", "15 Sea Zone") is None


# --- sea-zone aliases -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["5 Sea Zone", "5 sea zone", "SZ 5", "sz5", "SZ5", "sz 5", "Sz 05", "  sz5  "])
def test_sea_zone_aliases(game_map, name):
    assert game_map.resolve(name) == "5 Sea Zone"


@pytest.mark.parametrize("name", ["5", "Sea Zone 5", "SZ", "sz 66", "zone 5", 5])
def test_not_sea_zone_aliases(game_map, name):
    assert game_map.resolve(name) is None


def test_territory_names_are_case_insensitive(game_map):
    assert game_map.resolve("ukraine s.s.r.") == "Ukraine S.S.R."
    assert game_map.resolve("GERMANY") == "Germany"
    assert game_map.resolve("Germny") is None
    assert game_map.suggest("Germny")[0] == "Germany"


def test_bare_number_in_an_order_is_an_unknown_name(run):
    s = state(G, "noncombat_move", units=[unit("5 Sea Zone", G, "cruiser")])
    findings = run(s, [mv({"cruiser": 1}, "sz5", "6")])
    assert codes(findings) == ["MC004"]
    assert "'6'" in findings[0].message


def test_aliases_in_orders_and_states(run):
    s = state(G, "noncombat_move", units=[unit("SZ 5", G, "cruiser"), unit("sz 6", G, "aircraft_carrier")])
    assert run(s, [mv({"cruiser": 1}, "sz5", "SZ 6"), mv({"carrier": 1}, "6 sea zone", "Sz3")]) == []


# --- unit type aliases ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "alias, name",
    [
        ("armour", "tank"),
        ("armor", "tank"),
        ("aaGun", "aa_gun"),
        ("industrial_complex", "factory"),
        ("aircraft_carrier", "carrier"),
        ("sub", "submarine"),
        ("Infantry", "infantry"),
        ("tank", "tank"),
    ],
)
def test_unit_type_aliases(game_map, alias, name):
    assert game_map.resolve_type(alias) == name


@pytest.mark.parametrize("name", ["tanks", "panzer", "", None])
def test_unknown_unit_types(game_map, name):
    assert game_map.resolve_type(name) is None


def test_unit_type_facts(game_map):
    types = game_map.unit_types
    assert types["tank"].blitz and types["tank"].movement == 2
    assert types["factory"].is_factory and types["factory"].movement == 0
    assert types["fighter"].is_fighter and not types["bomber"].is_fighter
    assert types["carrier"].is_carrier and types["transport"].is_transport
    assert {n for n, t in types.items() if t.is_surface_warship} == {"battleship", "cruiser", "destroyer", "carrier"}


def test_aliases_in_orders(run):
    s = state(G, "noncombat_move", units=[unit("Germany", G, "armour", 2), unit("Germany", G, "aaGun"),
                                          unit("5 Sea Zone", G, "sub")])
    findings = run(s, [mv({"armor": 2}, "Germany", "Poland"), mv({"aa_gun": 1}, "Germany", "Poland"),
                       mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone")])
    assert findings == []


# --- hostile, friendly, friendly at the start of the turn ------------------------------------


def test_friendly_and_hostile_territories():
    board = board_of(state(G, "noncombat_move", units=[], control={"Egypt": G}, captured=["Egypt"]))
    assert board.friendly_territory("Germany") and not board.hostile("Germany")
    assert board.friendly_territory("Japan")  # allied is friendly
    assert board.hostile_territory("Karelia S.S.R.") and board.hostile("Karelia S.S.R.")  # empty, still hostile
    assert not board.friendly_territory("Sweden") and not board.hostile("Sweden")  # neutral: neither
    assert board.is_neutral("Sweden") and not board.is_neutral("Germany")
    assert not board.friendly_territory("5 Sea Zone")  # only land is controlled


def test_friendly_at_start_is_control_minus_captured_this_turn():
    board = board_of(state(G, "noncombat_move", units=[], control={"Egypt": G}, captured=["Egypt"]))
    assert board.friendly_territory("Egypt") and not board.friendly_at_start("Egypt")
    assert board.friendly_at_start("Germany") and board.friendly_at_start("Japan")
    assert not board.canal_open("17 Sea Zone", "34 Sea Zone")


def test_control_changes_apply_to_the_initial_control():
    board = board_of(state(R, units=[], control={"Ukraine S.S.R.": R}))
    assert board.friendly_territory("Ukraine S.S.R.")
    assert board.hostile_territory("West Russia")  # German in the 1942 setup
    assert board.hostile_territory("Germany")


def test_sea_zone_hostile_only_with_an_enemy_surface_warship():
    units = [
        unit("5 Sea Zone", B, "submarine"),
        unit("5 Sea Zone", B, "transport"),
        unit("6 Sea Zone", B, "destroyer"),
        unit("7 Sea Zone", J, "battleship"),
        unit("8 Sea Zone", R, "carrier"),
    ]
    board = board_of(state(G, units=units))
    assert not board.hostile("5 Sea Zone") and board.enemy_units("5 Sea Zone")
    assert board.hostile("6 Sea Zone") and board.enemy_destroyer("6 Sea Zone")
    assert not board.hostile("7 Sea Zone")  # allied battleship
    assert board.hostile("8 Sea Zone") and not board.enemy_destroyer("8 Sea Zone")
    assert not board.hostile("9 Sea Zone")


def test_sub_and_transport_zone_hostile_with_option():
    units = [unit("5 Sea Zone", B, "submarine"), unit("6 Sea Zone", B, "transport")]
    board = board_of(state(G, units=units, options={"sub_transport_zones_hostile": True}))
    assert board.hostile("5 Sea Zone") and board.hostile("6 Sea Zone")


def test_friendly_and_enemy_powers():
    board = board_of(state(A, units=[]))
    assert board.friendly_power(R) and board.friendly_power(B) and board.friendly_power(A)
    assert board.enemy_power(G) and board.enemy_power(J)
    assert not board.enemy_power(None) and not board.enemy_power("Italians")


def test_units_replace_the_initial_setup_or_default_to_it():
    empty = board_of(state(G, units=[]))
    assert empty.units == []
    full = board_of(state(G))
    assert sum(1 for u in full.units if u.at == "Germany" and u.type.name == "infantry") == 3
    assert len(full.units) == sum(e.get("count", 1) for e in builtin_map("aa1942-2e")["units"])


def test_setup_seats_cargo_and_fighters():
    board = board_of(state(G, units=[
        unit("5 Sea Zone", G, "transport", id="T1"),
        unit("5 Sea Zone", G, "infantry", 2),
        unit("5 Sea Zone", G, "carrier", id="C1"),
        unit("5 Sea Zone", J, "fighter", 2),
    ]))
    t1, c1 = board.by_id["T1"], board.by_id["C1"]
    assert [u.type.name for u in t1.cargo] == ["infantry", "infantry"]
    assert [u.power for u in c1.cargo] == [J, J]


def test_air_distances_avoid_neutrals():
    board = board_of(state(G, units=[]))
    reach = board.air_distances("France", 2)
    assert "Spain Portugal" not in reach and "Gibraltar" in reach and reach["Gibraltar"] == 2
    free = board_of(state(G, units=[], options={"neutrals_impassable": False})).air_distances("France", 2)
    assert "Spain Portugal" in free


def test_sea_distances_respect_canals_and_hostile_zones():
    board = board_of(state(B, units=[unit("15 Sea Zone", G, "battleship")]))
    reach = board.sea_distances("17 Sea Zone", 2)
    assert reach["34 Sea Zone"] == 1 and "15 Sea Zone" not in reach and "14 Sea Zone" not in reach
    axis = board_of(state(G, units=[]))
    assert "34 Sea Zone" not in axis.sea_distances("17 Sea Zone", 2)


# --- robustness: random orders on the full setup never crash the engine ----------------------

import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from movecheck.clauses import CATALOGUE  # noqa: E402

from .conftest import check_files, orders  # noqa: E402

_MAP = GameMap(builtin_map("aa1942-2e"))
_GERMAN = sorted({(u["at"], u["type"]) for u in builtin_map("aa1942-2e")["units"] if u["power"] == G})


@st.composite
def random_order(draw):
    at, kind = draw(st.sampled_from(_GERMAN))
    path = [at]
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 9)) == 0:
            path.append(draw(st.sampled_from(sorted(_MAP.spaces))))  # now and then a jump
        else:
            path.append(draw(st.sampled_from(sorted(_MAP.neighbours(path[-1])))))
    order = {"units": {kind: draw(st.integers(1, 3))}, "path": path}
    if draw(st.booleans()) and _MAP.is_sea(path[-1]):
        order["attack"] = True
    return order


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["combat_move", "noncombat_move"]), st.lists(random_order(), min_size=1, max_size=6))
def test_random_orders_on_the_full_setup_never_crash(phase, moves):
    with tempfile.TemporaryDirectory() as folder:
        findings = check_files(state(G, phase), orders(G, phase, moves), Path(folder))
    for finding in findings:
        assert finding.code in CATALOGUE
        assert finding.line >= 1 and finding.column >= 1
        assert finding.code.startswith("AA") or finding.code == "MC004"
