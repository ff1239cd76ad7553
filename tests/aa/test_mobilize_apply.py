"""``movecheck apply`` of a mobilization: units placed, unplaced ones settled, income, repair, the next turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from movecheck.cli import main
from tests.harness import yaml_data, yaml_text

from .test_mobilize import SETUP, place_file, state_file

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = json.loads((ROOT / "movecheck" / "aa" / "maps" / "aa1942-2e.json").read_text(encoding="utf-8"))


def apply(capsys, tmp_path: Path, place: list[dict[str, Any]], purchased: dict[str, int] | None = None,
          extra: list[dict[str, Any]] | None = None, options: tuple[str, ...] = (), **head: Any) -> tuple[str, dict]:
    state = state_file(tmp_path, purchased, extra, **head)
    orders = place_file(tmp_path, state, place, power=head.get("turn", {}).get("power", "Germans"))
    code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json", *options])
    out = capsys.readouterr().out
    assert code == 0, out
    report = json.loads(out)
    return report["text"], report


def stack(state: dict[str, Any], at: str, power: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for unit in state["units"]:
        if unit["at"] == at and unit["power"] == power:
            found[unit["type"]] = found.get(unit["type"], 0) + unit.get("count", 1)
    return found


def held_value(control: dict[str, str], power: str) -> int:
    """The IPC value of the territories ``power`` holds, from the map's own territories and setup control."""
    return sum(t.get("production", 0) for t in BUILTIN["territories"] if control.get(t["name"]) == power)


def test_apply_places_the_units_and_collects_the_income(capsys, tmp_path: Path) -> None:
    place = [{"at": "Germany", "units": {"inf": 3}}, {"at": "SZ 5", "units": {"carrier": 1, "fighter": 1}}]
    text, report = apply(capsys, tmp_path, place, {"infantry": 3, "carrier": 1, "fighter": 1})
    state = yaml_data(text)
    assert state["turn"] == {"round": 1, "power": "British", "phase": "purchase"}
    assert "purchased" not in state and "to_place" not in state
    before = {u["type"]: u.get("count", 1) for u in SETUP if u["at"] == "Germany" and u["power"] == "Germans"}
    assert stack(state, "Germany", "Germans")["infantry"] == before["infantry"] + 3
    carrier = next(u for u in state["units"] if u["at"] == "5 Sea Zone" and u["type"] == "carrier")
    fighter = next(u for u in state["units"] if u["at"] == "5 Sea Zone" and u["type"] == "fighter")
    assert fighter["aboard"] == carrier["id"]  # a fighter placed on a carrier sits with it
    value = held_value(BUILTIN["control"], "Germans")
    assert report["income"]["amount"] == value == sum(report["income"]["territories"].values())
    assert state["ipcs"]["Germans"] == BUILTIN["ipcs"]["Germans"] + value
    assert f"# income: the Germans collect {value} IPCs" in text


def test_units_left_unplaced_are_refunded_in_1942(capsys, tmp_path: Path) -> None:
    text, report = apply(capsys, tmp_path, [{"at": "Germany", "units": {"tank": 1}}], {"tank": 2})
    state = yaml_data(text)
    assert report["refunded"] == 6 and report["unplaced"] == {"units": {"tank": 1}, "settled": "refunded"}
    assert state["ipcs"]["Germans"] == BUILTIN["ipcs"]["Germans"] + 6 + report["income"]["amount"]
    assert "# unplaced (refunded): 1 tank; 6 IPCs back to the Germans" in text


def test_units_left_unplaced_are_lost_or_kept(capsys, tmp_path: Path) -> None:
    text, report = apply(capsys, tmp_path, [], {"tank": 2}, options=("--option", "aa.unplaced_units=lost"))
    assert yaml_data(text)["ipcs"]["Germans"] == BUILTIN["ipcs"]["Germans"] + report["income"]["amount"]
    assert "to_place" not in yaml_data(text) and report["refunded"] is None
    text, report = apply(capsys, tmp_path, [], {"tank": 2}, options=("--option", "aa.unplaced_units=kept"))
    assert yaml_data(text)["to_place"] == {"Germans": {"tank": 2}}


def test_a_fighter_waiting_for_a_carrier_boards_it_or_is_destroyed(capsys, tmp_path: Path) -> None:
    waiting = [{"at": "5 Sea Zone", "power": "Germans", "type": "fighter", "moved": 3}]
    text, _report = apply(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1}}], {"carrier": 1}, extra=waiting)
    assert stack(yaml_data(text), "5 Sea Zone", "Germans")["fighter"] == 1
    text, report = apply(capsys, tmp_path, [{"at": "SZ 15", "units": {"carrier": 1}}], {"carrier": 1}, extra=waiting)
    assert "fighter" not in stack(yaml_data(text), "5 Sea Zone", "Germans")
    assert report["destroyed"] == [{"type": "fighter", "power": "Germans", "at": "5 Sea Zone"}]
    assert "found no slot on a carrier placed there (AA708)" in text


def test_existing_fighters_board_a_new_carrier_in_revised(capsys, tmp_path: Path) -> None:
    place = [{"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}}]
    text, _report = apply(capsys, tmp_path, place, {"carrier": 1},
                          options=("--option", "aa.move_existing_fighters_to_new_carriers=true"))
    state = yaml_data(text)
    assert "fighter" not in stack(state, "Germany", "Germans")
    assert stack(state, "5 Sea Zone", "Germans")["fighter"] == 1


def test_no_income_without_the_capital(capsys, tmp_path: Path) -> None:
    text, report = apply(capsys, tmp_path, [], control={"Germany": "Russians"})
    assert report["income"]["amount"] == 0
    assert "its capital Germany is held by the Russians" in report["income"]["reason"]
    assert yaml_data(text)["ipcs"]["Germans"] == BUILTIN["ipcs"]["Germans"]


def test_a_capital_taken_back_during_the_turn_counts(capsys, tmp_path: Path) -> None:
    # Germany was lost and taken back this turn: held at the end of the turn, so the income is collected
    text, report = apply(capsys, tmp_path, [], captured_this_turn=["Germany"])
    assert report["income"]["amount"] == held_value(BUILTIN["control"], "Germans")
    assert "captured_this_turn" not in yaml_data(text)


def test_damaged_battleships_are_repaired_and_the_round_turns(capsys, tmp_path: Path) -> None:
    units = [dict(u) for u in SETUP]
    for unit in units:
        if unit["type"] == "battleship":
            unit["damaged"] = True
    state = state_file(tmp_path, None, None, turn={"round": 1, "power": "Americans", "phase": "mobilize"})
    data = yaml_data(state.read_text(encoding="utf-8"))
    data["units"] = units
    state.write_text(yaml_text(data, sort_keys=False), encoding="utf-8")
    orders = place_file(tmp_path, state, [], power="Americans")
    code = main(["apply", str(orders), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0, out
    after = yaml_data(out)
    assert after["turn"] == {"round": 2, "power": BUILTIN["powers"][0], "phase": "purchase"}
    assert not any(u.get("damaged") for u in after["units"])


REVISED = ("--option", "aa.move_existing_fighters_to_new_carriers=true")


def air_and_carriers(state: dict[str, Any]) -> dict[str, int]:
    found = stack(state, "5 Sea Zone", "Germans")
    return {k: n for k, n in found.items() if k in ("carrier", "fighter")}


def test_a_waiting_fighter_boards_before_a_new_fighter(capsys, tmp_path: Path) -> None:
    """AA708 before AA705: the fighter that waited keeps its slot on the new carrier, never destroyed for a new one."""
    waiting = [{"at": "5 Sea Zone", "power": "Germans", "type": "fighter", "moved": 3, "id": "jg-1"}]
    text, report = apply(capsys, tmp_path, [{"at": "SZ 5", "units": {"carrier": 1, "fighter": 1}}],
                         {"carrier": 1, "fighter": 1}, extra=waiting)
    state = yaml_data(text)
    assert report["destroyed"] == []
    carrier = next(u for u in state["units"] if u["at"] == "5 Sea Zone" and u["type"] == "carrier")
    aboard = [u for u in state["units"] if u.get("aboard") == carrier["id"]]
    assert sum(u.get("count", 1) for u in aboard) == 2
    assert any(u.get("id") == "jg-1" for u in aboard)


def test_split_or_reordered_entries_give_the_same_state(capsys, tmp_path: Path) -> None:
    """The whole file counts together: the same placements in another order or split write the same bytes."""
    extra = [{"at": "Germany", "power": "Germans", "type": "fighter", "count": 2}]
    bought = {"carrier": 2, "fighter": 1}
    spellings = [
        [{"at": "SZ 5", "units": {"carrier": 2, "fighter": 1}, "fighters_from": {"Germany": 3}}],
        [{"at": "SZ 5", "units": {"fighter": 1}},
         {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}},
         {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 2}}],
    ]
    states = []
    for place in spellings:
        text, report = apply(capsys, tmp_path, place, bought, extra=extra, options=REVISED)
        assert report["destroyed"] == []
        state = yaml_data(text)
        assert "fighter" not in stack(state, "Germany", "Germans")
        assert air_and_carriers(state) == {"carrier": 2, "fighter": 4}
        assert all(u.get("aboard") for u in state["units"] if u["at"] == "5 Sea Zone" and u["type"] == "fighter")
        states.append(stack(state, "5 Sea Zone", "Germans"))
        capsys.readouterr()
    assert states[0] == states[1]


def test_forced_fighters_from_moves_each_standing_fighter_once(capsys, tmp_path: Path) -> None:
    """Two entries naming the same fighter (forced past AA709) move it once: no fighter placed this phase
    is moved on, none is duplicated or lost."""
    place = [{"at": "Germany", "units": {"fighter": 1}},
             {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}},
             {"at": "SZ 5", "units": {"carrier": 1}, "fighters_from": {"Germany": 1}}]
    text, _report = apply(capsys, tmp_path, place, {"carrier": 2, "fighter": 1}, options=(*REVISED, "--force"))
    state = yaml_data(text)
    assert stack(state, "Germany", "Germans")["fighter"] == 1  # the new one stays where it was placed
    assert air_and_carriers(state) == {"carrier": 2, "fighter": 1}


def _random_mobilization(rng: Any) -> tuple[list[dict[str, Any]], dict[str, int], list[dict[str, Any]]]:
    """A few entries in 5 Sea Zone (carriers, new fighters, fighters from Germany), what they need bought, and
    the board's extra units (fighters waiting at sea, more fighters in Germany, perhaps an old carrier)."""
    extra: list[dict[str, Any]] = []
    if rng.random() < 0.5:
        extra.append({"at": "5 Sea Zone", "power": "Germans", "type": "fighter", "moved": 3,
                      "count": rng.randint(1, 2)})
    if rng.random() < 0.5:
        extra.append({"at": "Germany", "power": "Germans", "type": "fighter", "count": rng.randint(1, 2)})
    if rng.random() < 0.3:
        extra.append({"at": "5 Sea Zone", "power": "Germans", "type": "carrier"})
    place: list[dict[str, Any]] = []
    bought: dict[str, int] = {}
    for _entry in range(rng.randint(1, 3)):
        units = {k: n for k, n in (("carrier", rng.randint(0, 1)), ("fighter", rng.randint(0, 2))) if n}
        entry: dict[str, Any] = {"at": "SZ 5", "units": units or {"carrier": 1}}
        if entry["units"].get("carrier") and rng.random() < 0.6:
            entry["fighters_from"] = {"Germany": rng.randint(1, 2)}
        place.append(entry)
        for k, n in entry["units"].items():
            bought[k] = bought.get(k, 0) + n
    return place, bought, extra


def test_check_and_apply_agree_on_fighters_at_sea_whatever_the_entries(capsys, tmp_path: Path) -> None:
    """Random Revised-style mobilizations in one zone: a legal file's apply seats every new and moved fighter and
    destroys exactly the waiting fighters AA708 named; the entries in reverse order give the same findings and,
    when legal, the same bytes."""
    import random

    rng = random.Random(35)
    for _case in range(30):
        place, bought, extra = _random_mobilization(rng)
        verdicts, texts = [], []
        for entries in (place, place[::-1]):
            state = state_file(tmp_path, bought, extra)
            orders = place_file(tmp_path, state, entries)
            code = main(["check", str(orders), "--root", "/", "--isolated", "--format", "json", *REVISED])
            report = json.loads(capsys.readouterr().out)
            verdicts.append((code, sorted(f["code"] for f in report["findings"])))
            if code != 0:
                continue
            code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json", *REVISED])
            applied = json.loads(capsys.readouterr().out)
            written = yaml_data(applied["text"])
            warned = [f for f in report["findings"] if f["code"] == "AA708"]
            named = int(warned[0]["message"].split()[0]) if warned else 0
            assert len(applied["destroyed"]) == named, (place, extra, report["findings"])
            at_sea = [u for u in written["units"] if u["at"] == "5 Sea Zone" and u["type"] == "fighter"
                      and u["power"] == "Germans"]
            assert all(u.get("aboard") for u in at_sea), (place, extra, at_sea)
            texts.append(applied["text"])
        assert verdicts[0] == verdicts[1], (place, extra, verdicts)
        if len(texts) == 2:
            assert texts[0] == texts[1], (place, extra)
