"""Power keys and other names in a state resolve like names in orders; two keys naming one thing are MC002; the
mappings apply writes are in a canonical order (aa-turn.md, "Treasury"; issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from movecheck.cli import main
from tests.harness import yaml_data

from .test_mobilize import place_file, state_file
from .test_mobilize_apply import BUILTIN, apply


def lint(capsys, path: Path) -> tuple[int, dict]:
    code = main(["lint", str(path), "--root", "/", "--isolated", "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"]]


def test_to_place_under_an_abbreviation_is_placed_and_no_longer_waits(capsys, tmp_path: Path) -> None:
    text, _report = apply(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 2}}], None,
                          to_place={"Ger": {"arm": 2}}, options=("--option", "aa.unplaced_units=kept"))
    state = yaml_data(text)
    assert "to_place" not in state  # placed: no longer waiting, under any spelling


def test_to_place_under_an_abbreviation_left_unplaced_is_refunded_once(capsys, tmp_path: Path) -> None:
    text, report = apply(capsys, tmp_path, [], None, to_place={"Ger": {"tank": 2}})
    state = yaml_data(text)
    assert report["refunded"] == 12
    assert "to_place" not in state  # paid back, so no longer waiting: no free IPCs a turn
    assert state["ipcs"]["Germans"] == BUILTIN["ipcs"]["Germans"] + 12 + report["income"]["amount"]


def test_to_place_of_other_powers_is_kept_in_turn_and_unit_order(capsys, tmp_path: Path) -> None:
    waiting = {"USA": {"tank": 1, "inf": 2}, "Rus": {"art": 1}, "Germans": {"tank": 1}}
    text, _report = apply(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 1}}], None, to_place=waiting)
    assert yaml_data(text)["to_place"] == {"Russians": {"artillery": 1}, "Americans": {"infantry": 2, "tank": 1}}
    assert list(yaml_data(text)["to_place"]) == ["Russians", "Americans"]


@pytest.mark.parametrize(("head", "key"), [
    ({"ipcs": {"Germans": 40, "Ger": 50}}, "Ger"),
    ({"to_place": {"Germans": {"tank": 1}, "Ger": {"tank": 2}}}, "Ger"),
    ({"purchased": {"infantry": 1, "inf": 2}}, "inf"),
    ({"control": {"Karelia S.S.R.": "Germans", "Karelia": "Russians"}}, "Karelia"),
], ids=["ipcs", "to_place", "purchased", "control"])
def test_two_keys_naming_one_thing_are_mc002_at_the_second(capsys, tmp_path: Path, head: dict, key: str) -> None:
    state = state_file(tmp_path, head.pop("purchased", None), **head)
    code, report = lint(capsys, state)
    assert code == 1
    found = [f for f in report["findings"] if f["code"] == "MC002"]
    assert len(found) == 1 and f"the key {key!r} names" in found[0]["message"]
    line = next(n for n, text in enumerate(state.read_text().splitlines(), 1) if text.lstrip().startswith(f"{key}:")
                or f" {key}:" in text)
    assert found[0]["line"] == line
    code = main(["check", str(place_file(tmp_path, state, [])), "--format", "json", "--root", "/", "--isolated"])
    checked = json.loads(capsys.readouterr().out)
    assert code == 1 and "MC002" in codes(checked)
    assert checked["files"][0]["legal"] == 0  # never legal on a state read two ways


def test_one_key_per_power_under_any_spelling_lints_clean(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, None, ipcs={"Ger": 40, "UK": 30}, to_place={"Ger": {"tank": 1}})
    code, report = lint(capsys, state)
    assert code == 0 and codes(report) == []


def test_an_unknown_power_in_to_place_is_mc004(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, None, to_place={"Italians": {"tank": 1}})
    code, report = lint(capsys, state)
    assert code == 1 and codes(report) == ["MC004"]
    assert "Italians" in report["findings"][0]["message"]


# -- canonical order ------------------------------------------------------------------------------------


def purchase_state(tmp_path: Path) -> Path:
    return state_file(tmp_path, None, turn={"round": 1, "power": "Germans", "phase": "purchase"})


def applied_text(capsys, orders: Path) -> str:
    code = main(["apply", str(orders), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_a_purchase_in_any_order_writes_the_same_bytes(capsys, tmp_path: Path) -> None:
    from tests.harness import yaml_text

    state = purchase_state(tmp_path)
    orders = tmp_path / "buy.yaml"
    texts = []
    for bought in ({"tank": 1, "infantry": 3}, {"infantry": 3, "tank": 1}, {"inf": 3, "arm": 1}):
        orders.write_text(yaml_text({"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans",
                                     "phase": "purchase", "purchase": bought}, sort_keys=False), encoding="utf-8")
        texts.append(applied_text(capsys, orders))
    assert "\npurchased: {infantry: 3, tank: 1}\n" in texts[0]  # the map's unit order, the map's names
    assert texts[0] == texts[1] == texts[2]


def test_a_purchase_report_lists_the_units_in_the_map_s_order(capsys, tmp_path: Path) -> None:
    from tests.harness import yaml_text

    state = purchase_state(tmp_path)
    orders = tmp_path / "buy.yaml"
    orders.write_text(yaml_text({"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans",
                                 "phase": "purchase", "purchase": {"tank": 1, "infantry": 3}}, sort_keys=False))
    assert main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["purchased"]) == ["infantry", "tank"]


SPELLINGS = [
    [{"at": "Germany", "units": {"inf": 2, "fighter": 1}}, {"at": "SZ 5", "units": {"carrier": 1, "fighter": 1}},
     {"at": "SZ 5", "units": {"carrier": 1, "fighter": 2}}],
    [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 2}}, {"at": "Germany", "units": {"fighter": 1}},
     {"at": "SZ 5", "units": {"carrier": 1}}, {"at": "Germany", "units": {"infantry": 2}},
     {"at": "SZ 5", "units": {"fighter": 1}}],
]


def test_split_or_reordered_placements_write_the_same_bytes(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, {"infantry": 2, "fighter": 4, "carrier": 2})  # one carrier full, one with one
    texts = []
    for place in SPELLINGS:
        assert main(["apply", str(place_file(tmp_path, state, place)), "--root", "/", "--isolated"]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]
    assert "Germans carrier 1" in texts[0] and "Germans carrier 2" in texts[0]


# -- a map's unit_types add to the edition's or replace one by name ------------------------------------


def map_with_types(tmp_path: Path, types: dict) -> Path:
    data = json.loads(json.dumps(BUILTIN))
    data["unit_types"] = types
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def buy(capsys, tmp_path: Path, bought: dict) -> tuple[int, dict]:
    from tests.harness import yaml_text

    state = state_file(tmp_path, None, map="m.json", ipcs={"Germans": 40},
                       turn={"round": 1, "power": "Germans", "phase": "purchase"})
    orders = tmp_path / "buy.yaml"
    orders.write_text(yaml_text({"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans",
                                 "phase": "purchase", "purchase": bought}, sort_keys=False), encoding="utf-8")
    code = main(["check", str(orders), "--format", "json", "--root", "/", "--isolated"])
    return code, json.loads(capsys.readouterr().out)


MARINE = {"movement": 1, "attack": 2, "defense": 2, "domain": "land", "cost": 5, "transport_cost": 2}


def test_a_map_declaring_only_a_new_unit_keeps_the_edition_s_types(capsys, tmp_path: Path) -> None:
    map_with_types(tmp_path, {"marine": MARINE})
    code, report = buy(capsys, tmp_path, {"infantry": 2, "marine": 1, "factory": 1})
    assert code == 0, report["findings"]
    assert report["files"][0]["legal"] == 1
    from movecheck.aa.maps.gamemap import GameMap

    types = GameMap({**BUILTIN, "unit_types": {"marine": MARINE}}).unit_types
    assert list(types)[-1] == "marine" and {"infantry", "factory", "carrier"} <= set(types)


def test_a_map_s_type_replaces_the_edition_s_of_that_name(capsys, tmp_path: Path) -> None:
    map_with_types(tmp_path, {"infantry": {**MARINE, "cost": 20}})
    code, report = buy(capsys, tmp_path, {"infantry": 2, "tank": 1})  # 40 + 6 > 40
    assert code == 1 and codes(report) == ["AA601"]
    assert "costs 46 IPCs" in report["findings"][0]["message"]
    code, report = buy(capsys, tmp_path, {"infantry": 2})
    assert code == 0, report["findings"]


# -- two keys naming one thing in a purchase or a mobilization file ------------------------------------


def test_a_purchase_naming_one_type_twice_is_mc002_and_not_checked(capsys, tmp_path: Path) -> None:
    from tests.harness import yaml_text

    state = purchase_state(tmp_path)
    orders = tmp_path / "buy.yaml"
    orders.write_text(yaml_text({"movecheck": 1, "system": "aa", "state": str(state), "power": "Germans",
                                 "phase": "purchase", "purchase": {"infantry": 1, "inf": 2}}, sort_keys=False))
    code = main(["check", str(orders), "--format", "json", "--root", "/", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and codes(report) == ["MC002"]
    assert "the key 'inf' names infantry, as the key 'infantry' before it does" in report["findings"][0]["message"]
    assert report["files"][0]["legal"] == 0 and report["files"][0]["unchecked"] == 1


def test_a_placement_naming_one_type_twice_is_mc002_and_not_checked(capsys, tmp_path: Path) -> None:
    state = state_file(tmp_path, {"infantry": 3})
    orders = place_file(tmp_path, state, [{"at": "Germany", "units": {"infantry": 1, "inf": 2}}])
    code = main(["check", str(orders), "--format", "json", "--root", "/", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and codes(report) == ["MC002"]
    assert report["files"][0]["unchecked"] == 1


# -- a map's starting treasuries -----------------------------------------------------------------------


def test_a_map_s_treasury_keys_resolve_and_unknown_or_repeated_ones_are_aa910(capsys, tmp_path: Path) -> None:
    source = (Path(__file__).resolve().parents[2] / "examples" / "aa" / "maps" / "two-islands.yaml").read_text()
    good = tmp_path / "good.yaml"
    good.write_text(source.replace("ipcs: {Reds: 12, Blues: 12}", "aliases: {Blues: [Blu]}\nipcs: {Reds: 12, Blu: 9}"))
    code, report = lint(capsys, good)
    assert code == 0 and codes(report) == []
    from movecheck.aa.maps.gamemap import GameMap
    from tests.harness import yaml_data

    assert GameMap(yaml_data(good.read_text())).ipcs == {"Reds": 12, "Blues": 9}
    bad = tmp_path / "bad.yaml"
    bad.write_text(source.replace("ipcs: {Reds: 12, Blues: 12}", "ipcs: {Reds: 12, Blues: 12, Reds : 3, Greens: 4}")
                   .replace("Reds : 3", "Red: 3").replace("powers: [Reds, Blues]",
                                                          "powers: [Reds, Blues]\naliases: {Reds: [Red]}"))
    code, report = lint(capsys, bad)
    messages = [f["message"] for f in report["findings"] if f["code"] == "AA910"]
    assert code == 1 and len(messages) == 2
    assert "ipcs names the Reds twice ('Reds' and 'Red')" in messages[0]
    assert "ipcs names 'Greens', which is not one of the map's powers" in messages[1]
