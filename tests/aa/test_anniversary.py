"""The Anniversary edition (spec aa-anniversary.md; issue 41): the built-in maps against the shared facts,
the edition and its options, ``init``, the turn sequence with China inside the Americans' turn, National
Objectives, China's rules (AA110, AA710, AA711) and victory cities."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.editions import AA1942, find_edition
from movecheck.aa.maps import BUILTIN_MAPS, builtin_map
from movecheck.aa.maps.gamemap import GameMap
from movecheck.cli import main
from tests.harness import yaml_data, yaml_text

REPO = Path(__file__).resolve().parents[2]
MAPS = ("aa-anniversary-1941", "aa-anniversary-1942")
SHARED = REPO.parent / "shared" / "data"


def shared(name: str) -> dict[str, Any]:
    """The shared facts of a built-in Anniversary map (themselves checked against TripleA's XML)."""
    import os

    folder = Path(os.environ.get("MOVECHECK_SHARED", REPO.parent / "shared")) / "data"
    path = folder / f"{name}.map.json"
    if not path.exists():
        pytest.skip(f"the shared facts {path} are missing")
    facts: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return facts


TYPES = {"armour": "tank", "aaGun": "aa_gun"}
"""TripleA's unit type names that movecheck spells otherwise."""


def kind(name: str) -> str:
    return TYPES.get(name, name)


# -- the built-in maps equal the shared facts (spaces, connections, canals, set-up, stats, costs, objectives, order) --


@pytest.mark.parametrize("name", MAPS)
def test_the_map_is_built_in_and_names_the_edition(name: str) -> None:
    assert name in BUILTIN_MAPS
    doc = builtin_map(name)
    assert (doc["name"], doc["edition"]) == (name, "aa-anniversary")
    assert find_edition(doc["edition"]).name == "aa-anniversary"


@pytest.mark.parametrize("name", MAPS)
def test_spaces_equal_the_facts(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    spaces = {t["name"]: t for t in doc["territories"]}
    assert set(spaces) == {t["name"] for t in facts["territories"]}
    assert len(spaces) == 162
    for t in facts["territories"]:
        built = spaces[t["name"]]
        assert bool(built.get("sea")) == t["water"], t["name"]
        assert bool(built.get("neutral")) == bool(t.get("neutral") or t.get("impassable")), t["name"]
        assert built.get("production", 0) == t.get("production", 0), t["name"]
        assert built.get("capital") == t.get("capital"), t["name"]
        assert bool(built.get("victory_city")) == bool(t.get("victoryCity")), t["name"]
    assert sum(1 for t in doc["territories"] if t.get("victory_city")) == 18
    land = [t for t in doc["territories"] if not t.get("sea")]
    assert (len(land), sum(1 for t in land if t.get("neutral"))) == (97, 15)


@pytest.mark.parametrize("name", MAPS)
def test_connections_and_canals_equal_the_facts(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    assert {frozenset(c) for c in doc["connections"]} == {frozenset(c) for c in facts["connections"]}
    assert len(doc["connections"]) == 407
    assert {(c["name"], frozenset(c["sea_zones"]), frozenset(c["land"])) for c in doc["canals"]} == {
        (c["name"], frozenset(c["seaZones"]), frozenset(c["landTerritories"])) for c in facts["canals"]}


@pytest.mark.parametrize("name", MAPS)
def test_setup_control_and_treasuries_equal_the_facts(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    wanted: dict[tuple[str, str, str], int] = {}
    for u in facts["units"]:
        key = (u["territory"], u["owner"], kind(u["type"]))
        wanted[key] = wanted.get(key, 0) + u["count"]
    assert {(u["at"], u["power"], u["type"]): u["count"] for u in doc["units"]} == wanted
    impassable = {t["name"] for t in facts["territories"] if t.get("impassable")}
    assert doc["control"] == {t: p for t, p in facts["owners"].items() if t not in impassable}
    assert doc["ipcs"] == {p: r["PUs"] for p, r in facts["resources"].items()}
    original = {t["name"]: t["originalOwner"] for t in facts["territories"] if t.get("originalOwner")}
    assert {t["name"]: t["original_owner"] for t in doc["territories"] if "original_owner" in t} == {
        t: p for t, p in original.items() if facts["owners"].get(t) != p}


@pytest.mark.parametrize("name", MAPS)
def test_unit_stats_and_costs_equal_the_facts(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    for tripleA, stats in facts["unit_stats"].items():
        built = doc["unit_types"][kind(tripleA)]
        assert (built["movement"], built["attack"], built["defense"], built["cost"]) == (
            stats["movement"], stats["attack"], stats["defense"], stats["cost"]), tripleA
    frontier = {kind(r["unit"]): r["cost"]["PUs"] for r in facts["production_frontiers"]["production"]}
    assert {k: t["cost"] for k, t in doc["unit_types"].items()} == frontier
    assert (frontier["tank"], frontier["aa_gun"]) == (5, 6)
    # the edition's own table is the maps' (a map that brings none gets it)
    assert {k: t["cost"] for k, t in find_edition("aa-anniversary").unit_type_values().items()} == frontier


@pytest.mark.parametrize("name", MAPS)
def test_objectives_and_china_equal_the_facts(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    assert len(doc["national_objectives"]) == 17
    for built, given in zip(doc["national_objectives"], facts["national_objectives"], strict=True):
        assert (built["power"], built["name"], built["ipcs"]) == (given["power"], given["name"], given["ipc"])
        assert [(c["kind"], c.get("territories"), c.get("at_least")) for c in built["conditions"]] == [
            (c["kind"], c["territories"] if isinstance(c["territories"], list) else None, c.get("at_least"))
            for c in given["conditions"]]
    china = facts["player_rules"][0]["read"]
    rules = doc["player_rules"]["Chinese"]
    assert rules["move_only_in"] == china["movement"]["territories"]
    assert rules["free_units"] == {"type": "infantry", "per_territories": 2}
    assert rules["place_not_where_units_at_least"] == 3
    assert doc["victory"] == {"setting": "Projection of Power", "cities": 13}


@pytest.mark.parametrize("name", MAPS)
def test_turn_order_is_tripleas_sequence(name: str) -> None:
    facts, doc = shared(name), builtin_map(name)
    assert doc["powers"] == facts["turn_order"]
    phases = {"purchase": "purchase", "purchaseNoPU": "purchase", "battle": "battles", "place": "mobilize"}
    steps = []
    for step in facts["sequence"]:
        if step["delegate"] == "move":
            steps.append((step["player"], "noncombat_move" if "NonCombat" in step["name"] else "combat_move"))
        elif step["delegate"] in phases:
            steps.append((step["player"], phases[step["delegate"]]))
    assert [(s["power"], s["phase"]) for s in doc["sequence"]] == steps


ROUND_END = {
    # spec aa-anniversary.md: the Americans' and Chinese phases, in order, after the Americans' purchase
    "aa-anniversary-1941": [
        ("Americans", "purchase"), ("Chinese", "purchase"), ("Americans", "combat_move"), ("Americans", "battles"),
        ("Americans", "noncombat_move"), ("Chinese", "combat_move"), ("Chinese", "battles"),
        ("Chinese", "noncombat_move"), ("Americans", "mobilize"), ("Chinese", "mobilize")],
    "aa-anniversary-1942": [
        ("Americans", "purchase"), ("Chinese", "purchase"), ("Americans", "combat_move"), ("Americans", "battles"),
        ("Americans", "noncombat_move"), ("Americans", "mobilize"), ("Chinese", "combat_move"), ("Chinese", "battles"),
        ("Chinese", "noncombat_move"), ("Chinese", "mobilize")],
}
FIRST = {"aa-anniversary-1941": ["Germans", "Russians", "Japanese", "British", "Italians"],
         "aa-anniversary-1942": ["Japanese", "Russians", "Germans", "British", "Italians"]}


@pytest.mark.parametrize("name", MAPS)
def test_the_round_follows_the_spec(name: str) -> None:
    game_map = GameMap(builtin_map(name))
    phases = ("purchase", "combat_move", "battles", "noncombat_move", "mobilize")
    expected = [(p, ph) for p in FIRST[name] for ph in phases] + ROUND_END[name]
    walked, step = [], expected[0]
    for _ in expected:
        walked.append(step)
        power, phase, new_round = game_map.next_step(*step)
        step = (power, phase)
    assert walked == expected
    assert (step, new_round) == (expected[0], True)


def test_a_map_without_a_sequence_plays_each_power_in_turn() -> None:
    game_map = GameMap(builtin_map("aa1942-2e"))
    assert game_map.next_step("Russians", "mobilize") == ("Germans", "purchase", False)
    assert game_map.next_step("Americans", "mobilize") == ("Russians", "purchase", True)
    assert game_map.next_step("Germans", "noncombat_move") == ("Germans", "mobilize", False)


# -- the edition --------------------------------------------------------------------------------------------------

SPEC_OPTIONS = {
    "sub_transport_zones_hostile": False, "subs_may_end_ncm_in_hostile": True, "destroyer_stops_subs": True,
    "land_on_new_carrier": True, "aa_guns_move_in_combat": False, "transport_ncm_after_combat": False,
    "neutrals_impassable": True, "combat_move_must_attack": True, "place_in_enemy_seas": True,
    "new_fighters_on_old_carriers": True, "move_existing_fighters_to_new_carriers": False, "unplaced_units": "kept",
    "partial_amphibious_retreat": True, "factory_damage": True, "aa_guns_captured": True, "subs_may_submerge": True,
    "national_objectives": True, "chinese_rules": True,
}


def test_the_edition_has_the_spec_options_and_extends_1942() -> None:
    edition = find_edition("aa-anniversary")
    assert edition is not None and edition.extends() is AA1942
    values = edition.option_values()
    assert {k: values[k] for k in SPEC_OPTIONS} == SPEC_OPTIONS
    for option in ("low_luck", "low_luck_aa", "low_luck_bombing"):
        assert values.get(option, False) is False
    assert (AA1942.option_values()["national_objectives"], AA1942.option_values()["chinese_rules"]) == (False, False)


# -- init ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "first", "ipcs"), [
    ("aa-anniversary-1941", "Germans",
     {"Germans": 31, "Russians": 30, "Japanese": 17, "British": 43, "Italians": 10, "Americans": 40, "Chinese": 0}),
    ("aa-anniversary-1942", "Japanese",
     {"Japanese": 31, "Russians": 24, "Germans": 37, "British": 31, "Italians": 10, "Americans": 38, "Chinese": 0}),
])
def test_init_writes_the_first_state(name: str, first: str, ipcs: dict[str, int], tmp_path: Path, capsys) -> None:
    out = tmp_path / "start.yaml"
    assert main(["init", name, "-o", str(out)]) == 0
    data = yaml_data(out.read_text(encoding="utf-8"))
    assert data["map"] == name
    assert data["turn"] == {"round": 1, "power": first, "phase": "purchase"}
    assert data["ipcs"] == ipcs
    assert sum(u.get("count", 1) for u in data["units"]) == sum(u["count"] for u in builtin_map(name)["units"])


# -- helpers: states and orders on the 1941 map ---------------------------------------------------------------------


def start(name: str = "aa-anniversary-1941") -> list[dict[str, Any]]:
    return [dict(u) for u in builtin_map(name)["units"]]


def write_state(tmp_path: Path, power: str, phase: str, units: list[dict[str, Any]] | None = None,
                **head: Any) -> Path:
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": "aa-anniversary-1941",
                            "turn": {"round": 1, "power": power, "phase": phase},
                            "ipcs": {p: 0 for p in builtin_map("aa-anniversary-1941")["powers"]}}
    data.update(head)
    data["units"] = start() if units is None else units
    path = tmp_path / f"state-{power}-{phase}.yaml"
    path.write_text(yaml_text(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def write_orders(tmp_path: Path, state: Path, power: str, phase: str, **body: Any) -> Path:
    data = {"movecheck": 1, "system": "aa", "state": state.name, "power": power, "phase": phase, **body}
    path = tmp_path / f"orders-{power}-{phase}.yaml"
    path.write_text(yaml_text(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def check_codes(capsys, orders: Path) -> list[str]:
    main(["check", str(orders), "--format", "json", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    return [f["code"] for f in report["findings"]]


def apply(capsys, orders: Path, *extra: str) -> str:
    assert main(["apply", str(orders), "--isolated", *extra]) == 0
    return capsys.readouterr().out


# -- China: AA110, the purchase, AA710, AA711 ---------------------------------------------------------------------


@pytest.mark.parametrize(("phase", "path", "unit", "fires"), [
    ("noncombat_move", ["Yunnan", "Burma"], {"infantry": 1}, True),        # a British territory
    ("noncombat_move", ["Yunnan", "Sikang"], {"infantry": 1}, False),      # a listed Chinese territory
    ("noncombat_move", ["Yunnan", "Sikang", "Chinghai"], {"fighter": 1}, False),
    ("noncombat_move", ["Yunnan", "French Indo-China Thailand", "Kwangtung"], {"fighter": 1}, True),  # overflies
    ("noncombat_move", ["Yunnan", "Burma", "37 Sea Zone"], {"fighter": 1}, True),  # a sea zone
])
def test_aa110_the_chinese_move_only_within_their_territories(capsys, tmp_path: Path, phase: str, path: list[str],
                                                             unit: dict[str, int], fires: bool) -> None:
    state = write_state(tmp_path, "Chinese", phase)
    orders = write_orders(tmp_path, state, "Chinese", phase, moves=[{"units": unit, "path": path}])
    found = check_codes(capsys, orders)
    assert ("AA110" in found) is fires, found
    if not fires:
        assert found == []


def test_aa110_binds_only_the_power_the_map_names(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "British", "noncombat_move")
    orders = write_orders(tmp_path, state, "British", "noncombat_move",
                          moves=[{"units": {"infantry": 1}, "path": ["India", "Burma"]}])
    assert "AA110" not in check_codes(capsys, orders)


def test_aa110_is_off_without_chinese_rules(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Chinese", "noncombat_move", options={"chinese_rules": False})
    orders = write_orders(tmp_path, state, "Chinese", "noncombat_move",
                          moves=[{"units": {"infantry": 1}, "path": ["Yunnan", "Burma"]}])
    assert check_codes(capsys, orders) == []


def test_the_chinese_purchase_buys_nothing_and_counts_their_infantry(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Chinese", "purchase", purchased={"infantry": 2})
    bought = write_orders(tmp_path, state, "Chinese", "purchase", purchase={"infantry": 1})
    assert check_codes(capsys, bought) == ["AA601"]  # no IPCs; not AA603 nor AA605 (no factory, no capital)
    orders = write_orders(tmp_path, state, "Chinese", "purchase", purchase={})
    assert check_codes(capsys, orders) == []
    text = apply(capsys, orders)
    data = yaml_data(text)
    # 7 territories at the start (Chinghai, Fukien, Hupeh, Ningxia, Sikang, Suiyuan, Yunnan): 3 infantry
    assert data["to_place"] == {"Chinese": {"infantry": 3}}
    assert data["turn"] == {"round": 1, "power": "Americans", "phase": "combat_move"}
    assert data["purchased"] == {"infantry": 2}  # the Americans' purchase waits for their mobilization
    assert "the Chinese control 7 territories: 3 Chinese infantry" in text or "the Chinese control 7" in text


def test_the_chinese_infantry_grows_with_their_territories(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Chinese", "purchase",
                        control={"Kiangsu": "Chinese", "Manchuria": "Chinese", "Kwangtung": "Chinese"})
    data = yaml_data(apply(capsys, write_orders(tmp_path, state, "Chinese", "purchase", purchase={})))
    assert data["to_place"] == {"Chinese": {"infantry": 5}}  # 10 territories


def mobilize(capsys, tmp_path: Path, place: list[dict[str, Any]], units: list[dict[str, Any]] | None = None,
             **head: Any) -> list[str]:
    state = write_state(tmp_path, "Chinese", "mobilize", units, to_place={"Chinese": {"infantry": 3}}, **head)
    return check_codes(capsys, write_orders(tmp_path, state, "Chinese", "mobilize", place=place))


def test_the_chinese_place_without_a_factory(capsys, tmp_path: Path) -> None:
    assert mobilize(capsys, tmp_path, [{"at": "Yunnan", "units": {"infantry": 1}},
                                       {"at": "Chinghai", "units": {"infantry": 2}}]) == []


def test_aa710_not_in_a_territory_they_do_not_hold(capsys, tmp_path: Path) -> None:
    assert mobilize(capsys, tmp_path, [{"at": "Burma", "units": {"infantry": 3}}]) == ["AA710"]
    assert mobilize(capsys, tmp_path, [{"at": "36 Sea Zone", "units": {"infantry": 3}}]) == ["AA710"]


def test_aa710_a_territory_captured_this_turn_takes_them(capsys, tmp_path: Path) -> None:
    assert mobilize(capsys, tmp_path, [{"at": "Kwangtung", "units": {"infantry": 3}}],
                    control={"Kwangtung": "Chinese"}, captured_this_turn=["Kwangtung"]) == []


def test_aa711_not_where_three_chinese_units_stand(capsys, tmp_path: Path) -> None:
    three = [*start(), {"at": "Sikang", "power": "Chinese", "type": "infantry", "count": 3}]
    assert mobilize(capsys, tmp_path, [{"at": "Sikang", "units": {"infantry": 3}}], three) == ["AA711"]
    two = [*start(), {"at": "Sikang", "power": "Chinese", "type": "infantry", "count": 2}]
    assert mobilize(capsys, tmp_path, [{"at": "Sikang", "units": {"infantry": 3}}], two) == []


def test_aa701_no_more_infantry_than_to_place(capsys, tmp_path: Path) -> None:
    assert mobilize(capsys, tmp_path, [{"at": "Yunnan", "units": {"infantry": 2}},
                                       {"at": "Sikang", "units": {"infantry": 2}}]) == ["AA701"]


def test_other_powers_still_need_a_factory(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Americans", "mobilize", purchased={"infantry": 1})
    orders = write_orders(tmp_path, state, "Americans", "mobilize",
                          place=[{"at": "Alaska", "units": {"infantry": 1}}])
    assert check_codes(capsys, orders) == ["AA702"]


def test_the_chinese_collect_no_income(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Chinese", "mobilize", to_place={"Chinese": {"infantry": 3}})
    orders = write_orders(tmp_path, state, "Chinese", "mobilize", place=[{"at": "Yunnan", "units": {"infantry": 3}}])
    text = apply(capsys, orders)
    data = yaml_data(text)
    assert data["ipcs"]["Chinese"] == 0
    assert data["turn"] == {"round": 2, "power": "Germans", "phase": "purchase"}
    assert "the Chinese have no treasury" in text


# -- National Objectives: each met and not met ---------------------------------------------------------------------

OBJECTIVES = builtin_map("aa-anniversary-1941")["national_objectives"]


def board_of(control: dict[str, str], units: list[dict[str, Any]], power: str, **head: Any) -> Any:
    """The board of a 1941 state at the end of ``power``'s turn, with ``control`` and ``units``."""
    from movecheck.aa.setup import build_board
    from movecheck.loading import load_bytes

    data = {"movecheck": 1, "system": "aa", "map": "aa-anniversary-1941",
            "turn": {"round": 1, "power": power, "phase": "mobilize"}, "control": control, "units": units, **head}
    found = build_board(load_bytes(json.dumps(data).encode("utf-8"), "<test>.json")).board
    assert found is not None
    return found


def enemy_of(power: str) -> str:
    sides = builtin_map("aa-anniversary-1941")["sides"]
    mine = next(side for side, members in sides.items() if power in members)
    return next(members[0] for side, members in sides.items() if side != mine)


def ally_of(power: str) -> str:
    sides = builtin_map("aa-anniversary-1941")["sides"]
    return next(p for members in sides.values() if power in members for p in members if p not in (power, "Chinese"))


def met_position(objective: dict[str, Any]) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """Control and units where every condition of the objective holds, with no more than it needs."""
    power = objective["power"]
    control: dict[str, str] = {}
    for condition in objective["conditions"]:
        if condition["kind"] == "controls":
            listed = condition["territories"]
            enemy = enemy_of(power)
            control.update({t: power for t in listed[:condition["at_least"]]})
            control.update({t: enemy for t in listed[condition["at_least"]:]})
    first = builtin_map("aa-anniversary-1941")["control"]
    held = {t for t, p in {**first, **control}.items() if p == power}
    side = next(members for members in builtin_map("aa-anniversary-1941")["sides"].values() if power in members)
    zones = {z for c in objective["conditions"] if c["kind"] == "no_enemy_surface_warships" for z in c["territories"]}
    units = []
    for u in start():
        if u["at"] in held and u["power"] != power and u["power"] in side:
            continue  # no allied units where the power holds (no_allied_units)
        if u["at"] in zones and u["power"] not in side and u["type"] not in ("submarine", "transport"):
            continue  # no enemy surface warship in the zones
        units.append(u)
    return control, units


def objective_met(objective: dict[str, Any], control: dict[str, str], units: list[dict[str, Any]]) -> bool:
    from movecheck.aa.turn.objectives import judged

    found = [o for o in judged(board_of(control, units, objective["power"]), objective["power"])
             if o.name == objective["name"]]
    assert len(found) == 1 and found[0].ipcs == objective["ipcs"]
    return found[0].met


IDS = [f"{o['power']}-{o['name'][-1]}" for o in OBJECTIVES]


@pytest.mark.parametrize("objective", OBJECTIVES, ids=IDS)
def test_the_objective_is_met(objective: dict[str, Any]) -> None:
    control, units = met_position(objective)
    assert objective_met(objective, control, units)


@pytest.mark.parametrize("objective", OBJECTIVES, ids=IDS)
def test_the_objective_is_not_met_one_territory_short(objective: dict[str, Any]) -> None:
    control, units = met_position(objective)
    condition = next(c for c in objective["conditions"] if c["kind"] == "controls")
    control[condition["territories"][condition["at_least"] - 1]] = enemy_of(objective["power"])
    assert not objective_met(objective, control, units)


def test_an_ally_counts_for_control() -> None:
    objective = OBJECTIVES[0]  # the Germans: the Axis control all six
    control, units = met_position(objective)
    control["France"] = "Italians"
    assert objective_met(objective, control, units)


def test_the_russian_objective_fails_with_an_allied_unit_on_russian_soil() -> None:
    objective = next(o for o in OBJECTIVES if any(c["kind"] == "no_allied_units" for c in o["conditions"]))
    control, units = met_position(objective)
    allied = [*units, {"at": "Russia", "power": ally_of("Russians"), "type": "infantry"}]
    assert not objective_met(objective, control, allied)
    at_sea = [*units, {"at": "4 Sea Zone", "power": ally_of("Russians"), "type": "destroyer"}]
    assert objective_met(objective, control, at_sea)  # a zone is no territory the Russians control


@pytest.mark.parametrize(("kind", "met"), [("destroyer", False), ("battleship", False), ("carrier", False),
                                          ("submarine", True), ("transport", True)])
def test_the_italian_objective_and_enemy_warships(kind: str, met: bool) -> None:
    objective = next(o for o in OBJECTIVES if any(c["kind"] == "no_enemy_surface_warships" for c in o["conditions"]))
    control, units = met_position(objective)
    assert objective_met(objective, control, [*units, {"at": "14 Sea Zone", "power": "British", "type": kind}]) is met


def test_the_bonus_is_collected_with_the_income_only_when_the_capital_is_held() -> None:
    from movecheck.aa.turn.income import income

    objective = OBJECTIVES[0]
    control, units = met_position(objective)
    held = income(board_of(control, units, "Germans"), "Germans")
    assert held.bonus >= 5 and held.amount == sum(held.territories.values()) + held.bonus
    lost = income(board_of({**control, "Germany": "Russians"}, units, "Germans"), "Germans")
    assert (lost.amount, lost.bonus) == (0, 0) and lost.objectives
    off = income(board_of(control, units, "Germans", options={"national_objectives": False}), "Germans")
    assert (off.bonus, off.objectives) == (0, [])


def test_apply_header_report_and_summary_list_each_objective(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Americans", "mobilize", ipcs={"Americans": 0})
    orders = write_orders(tmp_path, state, "Americans", "mobilize", place=[])
    text = apply(capsys, orders)
    # 1941 start: France is German (not met); the Philippines, the three States, 3 of the Pacific islands (met)
    assert "income: the Americans collect 55 IPCs: 40, the IPC value" in text
    assert "and 15 for National Objectives" in text
    assert text.count("# national objective (met, +5 IPCs)") == 3
    assert text.count("# national objective (not met, +5 IPCs)") == 1
    assert yaml_data(text)["ipcs"]["Americans"] == 55
    assert main(["apply", str(orders), "--isolated", "--format", "json", "-o", str(tmp_path / "next.yaml")]) == 0
    income = json.loads(capsys.readouterr().out)["income"]
    assert income["bonus"] == 15 and [o["met"] for o in income["objectives"]] == [False, True, True, True]
    assert main(["summary", str(orders), "--isolated"]) == 0
    post = capsys.readouterr().out
    assert post.count("National Objective met, +5 IPCs") == 3 and post.count("National Objective not met") == 1
    assert "income of the Americans: 40 IPCs from 10 territories" in post


# -- victory cities -------------------------------------------------------------------------------------------------

TWELVE = {"Russia": "Germans", "Karelia S.S.R.": "Germans", "Caucasus": "Germans", "United Kingdom": "Germans",
          "India": "Japanese", "Australia": "Japanese"}
"""With France, Germany, Italy, Japan, Kiangsu and Poland: 12 of the 18 victory cities for the Axis."""
FEW = [{"at": "Fukien", "power": "Japanese", "type": "infantry", "count": 2},
       {"at": "Yunnan", "power": "Chinese", "type": "infantry"}]


def test_the_state_summary_counts_each_sides_victory_cities(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, control={**TWELVE, "Fukien": "Japanese"})
    assert main(["summary", str(state), "--isolated"]) == 0
    post = capsys.readouterr().out
    assert "| Axis | 12 |" in post and "| Allies | 6 |" in post
    assert "A side that holds 13 of the 18 victory cities has won." in post and "they have won" not in post
    won = write_state(tmp_path, "Japanese", "combat_move", FEW,
                      control={**TWELVE, "Fukien": "Japanese", "Kwangtung": "Japanese"})
    assert main(["summary", str(won), "--isolated"]) == 0
    assert "The Axis hold 13 victory cities: they have won." in capsys.readouterr().out


def test_the_win_is_said_once_by_the_apply_that_makes_it(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, control={**TWELVE, "Fukien": "Japanese"})
    orders = write_orders(tmp_path, state, "Japanese", "combat_move",
                          moves=[{"units": {"infantry": 1}, "path": ["Fukien", "Kwangtung"]}])
    text = apply(capsys, orders)
    assert text.count("# victory: the Axis hold 13 victory cities (13 needed): they have won.") == 1
    assert main(["apply", str(orders), "--isolated", "--format", "json", "-o", str(tmp_path / "b.yaml")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(w["side"], len(w["cities"]), w["needed"]) for w in report["victory"]] == [("Axis", 13, 13)]
    assert main(["summary", str(orders), "--isolated"]) == 0
    assert capsys.readouterr().out.count("they have won") == 1
    # the next apply: the Axis still hold them, nothing is said again
    battles = write_orders(tmp_path, tmp_path / "b.yaml", "Japanese", "battles", results=[])
    later = apply(capsys, battles)
    assert "victory" not in later and yaml_data(later)["control"]["Kwangtung"] == "Japanese"


# -- import triplea -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MAPS)
def test_import_triplea_labels_the_game_and_carries_objectives_and_chinas_rules(name: str, tmp_path: Path,
                                                                              capsys) -> None:
    from tests.aa.triplea_writer import game_xml, objectives_xml, sequence_xml

    data = builtin_map(name)
    xml = game_xml(data, name=data["title"], players=[p for p in data["powers"] if p != "Chinese"] + ["Chinese"],
                   properties={"mapName": "world_war_ii_v3", "WW2V3": True, "Projection of Power": True,
                               "Honorable Surrender": False, "National Objectives": True},
                   gameplay=sequence_xml(data["sequence"], no_pu=("Chinese",)),
                   attachments=objectives_xml(data["national_objectives"], data["player_rules"]))
    (tmp_path / "game.xml").write_text(xml, encoding="utf-8")
    assert main(["import", "triplea", str(tmp_path / "game.xml"), "-o", str(tmp_path / "map.yaml")]) == 0
    capsys.readouterr()
    got = yaml_data((tmp_path / "map.yaml").read_text(encoding="utf-8"))
    assert got["edition"] == "aa-anniversary"
    assert got["powers"] == data["powers"]
    assert got["sequence"] == data["sequence"]
    assert got["national_objectives"] == [{k: o[k] for k in ("power", "name", "ipcs", "conditions")}
                                          for o in data["national_objectives"]]
    assert got["player_rules"] == data["player_rules"]
    assert got["victory"] == data["victory"]
    assert [t["name"] for t in got["territories"] if t.get("victory_city")] == [
        t["name"] for t in data["territories"] if t.get("victory_city")]


def test_import_triplea_by_the_game_name_alone_names_no_edition(tmp_path: Path, capsys) -> None:
    from tests.aa.triplea_writer import game_xml

    data = builtin_map("aa-anniversary-1941")
    (tmp_path / "game.xml").write_text(game_xml(data, name=data["title"], properties={"WW2V3": True}),
                                       encoding="utf-8")
    assert main(["import", "triplea", str(tmp_path / "game.xml"), "-o", str(tmp_path / "map.yaml")]) == 0
    capsys.readouterr()
    got = yaml_data((tmp_path / "map.yaml").read_text(encoding="utf-8"))
    assert "edition" not in got  # WW2V3 is set by the 1942 second edition too: only mapName says Anniversary


# -- the example round: examples/aa/anniversary/ --------------------------------------------------------------------

EXAMPLE = REPO / "examples" / "aa" / "anniversary"


def gen_examples() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_examples", REPO / "scripts" / "gen_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_round_is_every_phase_of_the_1941_sequence() -> None:
    gen = gen_examples()
    steps = [Path(o).stem for o, _state in gen.ANNIVERSARY if not o.startswith("init ")]
    sequence = builtin_map("aa-anniversary-1941")["sequence"]
    assert len(steps) == len(sequence) == 35
    assert [s.split("-")[1] for s in steps] == [s["power"].lower() for s in sequence]
    assert {s.split("-")[1] for s in steps} == {"germans", "russians", "japanese", "british", "italians",
                                                 "americans", "chinese"}
    assert gen.ANNIVERSARY[0] == ("init aa-anniversary-1941", "examples/aa/anniversary/states/r1-germans-purchase.yaml")
    assert gen.ANNIVERSARY[-1][1].endswith("r2-germans-purchase.yaml")


def test_every_file_of_the_example_round_checks_legal(capsys) -> None:
    files = sorted(str(p) for p in (EXAMPLE / "orders").glob("*.yaml"))
    assert len(files) == 35
    code = main(["check", *files, "--isolated", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["findings"] == []
    assert report["summary"]["orders"] == report["summary"]["legal_orders"] == 19  # moves: [] has no order
    for entry in report["files"]:
        assert entry["state"] and entry["error"] is None, entry
        assert (entry["illegal"], entry["unchecked"]) == (0, 0), entry


def test_the_example_states_and_posts_are_what_init_apply_and_summary_write() -> None:
    gen = gen_examples()
    for orders, state in gen.ANNIVERSARY:
        assert gen.generated(orders, state) == (REPO / state).read_text(encoding="utf-8"), state
    for orders, target in gen.POSTS:
        assert gen.post(orders) == (REPO / target).read_text(encoding="utf-8"), target
    assert len(gen.POSTS) == 7


def test_the_example_round_ends_as_the_rules_say() -> None:
    last = yaml_data((EXAMPLE / "states" / "r2-germans-purchase.yaml").read_text(encoding="utf-8"))
    assert last["turn"] == {"round": 2, "power": "Germans", "phase": "purchase"}
    assert last["control"] == {"Kwangtung": "Japanese"}
    assert last["ipcs"]["Chinese"] == 0
    chinese = {u["at"]: u.get("count", 1) for u in last["units"] if u["power"] == "Chinese" and u["type"] == "infantry"}
    assert chinese == {"Fukien": 1, "Sikang": 3, "Suiyuan": 1, "Yunnan": 2}  # 4 at the start, 3 placed
    post = (EXAMPLE / "posts" / "r1-chinese.md").read_text(encoding="utf-8")
    assert "Free units to place at the mobilization: 3 inf" in post
    japanese = (EXAMPLE / "posts" / "r1-japanese.md").read_text(encoding="utf-8")
    assert "- Kwangtung captured by the Japanese from the British" in japanese
    assert "- victory cities held: Axis 7, Allies 11" in japanese  # Kwangtung changed sides
    assert japanese.count("victory cities held") == 1 and "they have won" not in japanese


def test_chinas_capital_is_never_taken_and_its_territories_are_liberated_back(capsys, tmp_path: Path) -> None:
    # Kiangsu was Chinese (original owner); the Japanese hold it.  The British take it while no power holds
    # China's capital (Mongolia, impassable): it goes back to China (aa-turn.md, "held by no power").
    units = [{"at": "Fukien", "power": "British", "type": "infantry"},
             {"at": "Yunnan", "power": "Chinese", "type": "infantry"}]
    state = write_state(tmp_path, "British", "combat_move", units)
    orders = write_orders(tmp_path, state, "British", "combat_move",
                          moves=[{"units": {"infantry": 1}, "path": ["Fukien", "Kiangsu"]}])
    text = apply(capsys, orders)
    assert yaml_data(text)["control"]["Kiangsu"] == "Chinese"
    assert "Kiangsu: liberated for the Chinese by the British" in text
    assert builtin_map("aa-anniversary-1941")["control"].get("Mongolia") is None  # nobody holds the capital
    mongolia = write_orders(tmp_path, state, "British", "combat_move",
                            moves=[{"units": {"infantry": 1}, "path": ["Fukien", "Hupeh", "Suiyuan", "Mongolia"]}])
    assert "AA106" in check_codes(capsys, mongolia)  # impassable: no unit ever enters it


def test_a_post_of_the_round_tells_the_chinese_phases_inside_the_americans_turn(capsys) -> None:
    names = ["r1-chinese-mobilize", "r1-americans-mobilize", "r1-chinese-noncombat", "r1-americans-noncombat",
             "r1-chinese-purchase", "r1-americans-purchase"]
    files = [str(EXAMPLE / "orders" / f"{name}.yaml") for name in names]
    assert main(["summary", *files, "--isolated"]) == 0
    post = capsys.readouterr().out
    told = [line.rsplit("/", 1)[-1] for line in post.splitlines() if line.startswith("### ") and "orders/" in line]
    assert told == ["r1-americans-purchase.yaml", "r1-chinese-purchase.yaml", "r1-americans-noncombat.yaml",
                    "r1-chinese-noncombat.yaml", "r1-americans-mobilize.yaml", "r1-chinese-mobilize.yaml"]


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "text", "json"])
def test_the_round_is_told_in_every_format(fmt: str, capsys) -> None:
    files = [str(EXAMPLE / "orders" / "r1-japanese-battles.yaml"), str(EXAMPLE / "orders" / "r1-chinese-mobilize.yaml"),
             str(EXAMPLE / "states" / "r2-germans-purchase.yaml")]
    assert main(["summary", *files, "--isolated", "--format", fmt]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "Kwangtung" in out
    if fmt == "json":
        kinds = [s["kind"] for s in json.loads(out)["sections"]]
        assert "victory_cities" in kinds and "captures" in kinds


def test_in_1942_the_american_mobilization_comes_before_the_chinese_moves(capsys, tmp_path: Path) -> None:
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "map": "aa-anniversary-1942",
                            "turn": {"round": 1, "power": "Americans", "phase": "mobilize"},
                            "ipcs": {p: 0 for p in builtin_map("aa-anniversary-1942")["powers"]},
                            "purchased": {"infantry": 1}, "to_place": {"Chinese": {"infantry": 3}},
                            "units": start("aa-anniversary-1942")}
    state = tmp_path / "state.yaml"
    state.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    orders = write_orders(tmp_path, state, "Americans", "mobilize",
                          place=[{"at": "Eastern United States", "units": {"infantry": 1}}])
    after = yaml_data(apply(capsys, orders))
    assert after["turn"] == {"round": 1, "power": "Chinese", "phase": "combat_move"}
    assert after["to_place"] == {"Chinese": {"infantry": 3}} and "purchased" not in after


def test_the_round_s_treasuries_audited_by_hand() -> None:
    """Round 1's treasuries worked out from the map facts by hand: start - spent + territories + objectives met."""
    last = yaml_data((EXAMPLE / "states" / "r2-germans-purchase.yaml").read_text(encoding="utf-8"))
    assert last["ipcs"] == {
        "Germans": 31 - 18 + 31 + 5,        # objective 1 (all six of France ... Bulgaria Romania) met
        "Russians": 30 - 19 + 30 + 5,       # objective 1 (Archangel, no allied units on Russian soil) met
        "Japanese": 17 - 15 + 17 + 1 + 5,   # Kwangtung (1) taken; objective 1 (Manchuria, Kiangsu, FIC) met
        "British": 43 - 20 + 43 - 1 + 5,    # Kwangtung lost; objective 2 (the six territories of the Empire) met
        "Italians": 10 - 10 + 10 + 5,       # objective 2 (four territories held, no enemy warship in 13-15)
        "Americans": 40 - 22 + 40 + 15,     # 3 of 4 objectives met (France is German)
        "Chinese": 0,                       # no treasury
    }


def test_no_research_in_the_tournament_edition(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Germans", "purchase", ipcs={"Germans": 31})
    assert check_codes(capsys, write_orders(tmp_path, state, "Germans", "purchase", purchase={}, research=5)) == [
        "AA606"]
    assert check_codes(capsys, write_orders(tmp_path, state, "Germans", "purchase", purchase={"tank": 1})) == []


def test_units_left_unplaced_are_kept(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Germans", "mobilize", purchased={"infantry": 3})
    orders = write_orders(tmp_path, state, "Germans", "mobilize", place=[{"at": "Germany", "units": {"infantry": 1}}])
    assert check_codes(capsys, orders) == ["AA707"]  # a warning: legal
    data = yaml_data(apply(capsys, orders))
    assert data["to_place"] == {"Germans": {"infantry": 2}}


def test_an_objective_s_words_cannot_break_out_of_the_header(capsys, tmp_path: Path) -> None:
    doc = json.loads(json.dumps(builtin_map("aa-anniversary-1941")))
    doc["name"] = "odd"
    for objective in doc["national_objectives"]:
        objective["text"] = "met\nunits: []\r\n# \x1b[31mred"
    (tmp_path / "odd.json").write_text(json.dumps(doc), encoding="utf-8")
    state = write_state(tmp_path, "Americans", "mobilize", map="odd.json", rules="aa-anniversary")
    text = apply(capsys, write_orders(tmp_path, state, "Americans", "mobilize", place=[]))
    assert [line[:1] for line in text.splitlines() if "national objective" in line] == ["#"] * 4
    assert "\x1b" not in text and yaml_data(text)["units"]  # the units are the state's, not the map's words
    assert "national objective (met, +5 IPCs): met units: [] # [31mred" in text


def test_aa913_a_map_s_edition_facts_name_its_powers_and_spaces(capsys, tmp_path: Path) -> None:
    doc = json.loads(json.dumps(builtin_map("aa-anniversary-1941")))
    doc["sequence"][0] = {"power": "Martians", "phase": "purchase"}
    doc["national_objectives"][1]["conditions"][0]["territories"][0] = "Atlantis"
    doc["player_rules"]["Chinese"]["move_only_in"].append("Shangri-La")
    (tmp_path / "odd.json").write_text(json.dumps(doc), encoding="utf-8")
    main(["lint", str(tmp_path / "odd.json"), "--isolated", "--format", "json"])
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [f["code"] for f in found] == ["AA913"] * 4
    messages = " | ".join(f["message"] for f in found)
    for word in ("'Martians'", "'Atlantis'", "'Shangri-La'", "the sequence gives the Germans the phases combat_move"):
        assert word in messages
    for name in MAPS:  # the close legal case: the built-in maps
        main(["lint", str(REPO / "movecheck" / "aa" / "maps" / f"{name}.json"), "--isolated", "--format", "json"])
        assert json.loads(capsys.readouterr().out)["findings"] == []


# -- the victory setting a configuration or a state chooses (option victory) ----------------------------------------

FOURTEEN = {**TWELVE, "Fukien": "Japanese", "Eastern Canada": "Germans", "Hawaiian Islands": "Japanese"}
"""14 of the 18 victory cities for the Axis: taking Kwangtung from Fukien makes 15."""
TAKE_KWANGTUNG = [{"units": {"infantry": 1}, "path": ["Fukien", "Kwangtung"]}]


def fifteen_cities_apply(capsys, tmp_path: Path, *extra: str, **head: Any) -> tuple[str, dict[str, Any]]:
    """The Japanese combat move that brings the Axis from 14 to 15 victory cities: the apply's text and its JSON
    report (``head``: more keys of the state, such as its ``options``)."""
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, control=FOURTEEN, **head)
    orders = write_orders(tmp_path, state, "Japanese", "combat_move", moves=TAKE_KWANGTUNG)
    assert main(["apply", str(orders), *extra]) == 0
    text = capsys.readouterr().out
    assert yaml_data(text)["control"]["Kwangtung"] == "Japanese"
    assert main(["apply", str(orders), *extra, "--format", "json", "-o", str(tmp_path / "next.yaml")]) == 0
    return text, json.loads(capsys.readouterr().out)


def test_fifteen_cities_win_under_honorable_surrender_said_once(capsys, tmp_path: Path) -> None:
    text, report = fifteen_cities_apply(capsys, tmp_path, "--isolated", options={"victory": "honorable_surrender"})
    assert text.count("# victory: the Axis hold 15 victory cities (15 needed): they have won.") == 1
    assert [(w["side"], len(w["cities"]), w["needed"], w["setting"]) for w in report["victory"]] == [
        ("Axis", 15, 15, "Honorable Surrender")]
    # the next apply: the Axis still hold them, nothing is said again
    battles = write_orders(tmp_path, tmp_path / "next.yaml", "Japanese", "battles", results=[])
    later = apply(capsys, battles, "--isolated")
    assert "# victory:" not in later and yaml_data(later)["control"]["Kwangtung"] == "Japanese"
    assert main(["summary", str(tmp_path / "next.yaml"), "--isolated"]) == 0
    post = capsys.readouterr().out
    assert "A side that holds 15 of the 18 victory cities has won." in post
    assert post.count("The Axis hold 15 victory cities: they have won.") == 1


def test_fifteen_cities_do_not_win_under_total_victory(capsys, tmp_path: Path) -> None:
    text, report = fifteen_cities_apply(capsys, tmp_path, "--isolated", options={"victory": "total_victory"})
    assert "# victory:" not in text and "victory" not in report
    assert main(["summary", str(tmp_path / "next.yaml"), "--isolated"]) == 0
    post = capsys.readouterr().out
    assert "| Axis | 15 |" in post and "A side that holds 18 of the 18 victory cities has won." in post
    assert "they have won" not in post


def test_the_maps_setting_wins_at_13_so_15_says_nothing_new(capsys, tmp_path: Path) -> None:
    """Without a choice the map's Projection of Power (13) holds: the Axis had won already at 14, nothing is said."""
    text, report = fifteen_cities_apply(capsys, tmp_path, "--isolated")
    assert "# victory:" not in text and "victory" not in report


def test_a_configuration_chooses_the_victory_setting(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".movecheck.yaml").write_text("aa:\n  options: {victory: honorable_surrender}\n", encoding="utf-8")
    text, report = fifteen_cities_apply(capsys, tmp_path)
    assert text.count("(15 needed): they have won.") == 1 and report["victory"][0]["needed"] == 15
    # the command line is nearer than the configuration, the state's own choice nearer still
    text, report = fifteen_cities_apply(capsys, tmp_path, "--option", "aa.victory=total_victory")
    assert "# victory:" not in text and "victory" not in report
    text, report = fifteen_cities_apply(capsys, tmp_path, "--option", "aa.victory=total_victory",
                                        options={"victory": "honorable_surrender"})
    assert text.count("(15 needed): they have won.") == 1


def test_a_victory_setting_the_option_does_not_know_is_an_error(capsys, tmp_path: Path) -> None:
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, control=FOURTEEN, options={"victory": "sixteen"})
    orders = write_orders(tmp_path, state, "Japanese", "combat_move", moves=TAKE_KWANGTUNG)
    assert main(["apply", str(orders), "--isolated"]) != 0
    err = capsys.readouterr()
    assert "sixteen" in err.out + err.err


def test_the_victory_condition_in_force() -> None:
    from movecheck.aa.turn.victory import condition

    game_map = GameMap(builtin_map("aa-anniversary-1941"))
    assert condition(game_map, {"victory": "map"}) == ("Projection of Power", 13)
    assert condition(game_map, {"victory": "total_victory"}) == ("Total Victory", 18)
    assert condition(game_map, {"victory": "honorable_surrender"}) == ("Honorable Surrender", 15)
    assert find_edition("aa-anniversary").option_values()["victory"] == "projection_of_power"
    plain = GameMap(builtin_map("aa1942-2e"))  # no victory cities: no setting makes one
    assert condition(plain, {"victory": "total_victory"}) is None and condition(plain, {"victory": "map"}) is None


def lint_codes(capsys, state: Path) -> list[tuple[str, str]]:
    main(["lint", str(state), "--format", "json", "--isolated"])
    return [(f["code"], f["message"]) for f in json.loads(capsys.readouterr().out)["findings"]]


@pytest.mark.parametrize("setting", ["total_victory", "honorable_surrender", "projection_of_power", "map"])
def test_aa914_quiet_where_the_map_lists_enough_victory_cities(capsys, tmp_path: Path, setting: str) -> None:
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, options={"victory": setting})
    assert [c for c, _m in lint_codes(capsys, state) if c == "AA914"] == []


@pytest.mark.parametrize("setting", ["total_victory", "projection_of_power"])
def test_aa914_a_victory_setting_on_a_map_without_victory_cities(capsys, tmp_path: Path, setting: str) -> None:
    path = tmp_path / "state.yaml"
    path.write_text(yaml_text({"movecheck": 1, "system": "aa", "map": "aa1942-2e",
                               "turn": {"round": 1, "power": "Japanese", "phase": "combat_move"},
                               "options": {"victory": setting}, "units": []}), encoding="utf-8")
    needed = {"total_victory": 18, "projection_of_power": 13}[setting]
    assert ("AA914", f"the victory setting {setting} needs {needed} victory cities and the map lists 0: no side "
                     "can win") in lint_codes(capsys, path)
    # the close legal case: the map's own condition (none on this map) asks for nothing
    path.write_text(path.read_text(encoding="utf-8").replace(f"victory: {setting}", "victory: map"), encoding="utf-8")
    assert [c for c, _m in lint_codes(capsys, path) if c == "AA914"] == []


@pytest.mark.parametrize(("cities", "fires"), [(19, True), (18, False)])
def test_aa914_a_maps_own_victory_number_above_its_cities(capsys, tmp_path: Path, cities: int, fires: bool) -> None:
    """Under ``victory: map`` the map's own ``victory: cities`` is the number: 19 of 18 cannot be reached."""
    doc = json.loads(json.dumps(builtin_map("aa-anniversary-1941")))
    doc["name"], doc["victory"] = "odd", {"cities": cities}
    (tmp_path / "odd.json").write_text(json.dumps(doc), encoding="utf-8")
    state = write_state(tmp_path, "Japanese", "combat_move", FEW, map="odd.json", rules="aa-anniversary",
                        options={"victory": "map"})
    found = [(c, m) for c, m in lint_codes(capsys, state) if c == "AA914"]
    assert found == ([("AA914", "the victory setting map needs 19 victory cities and the map lists 18: no side can "
                                "win")] if fires else [])
