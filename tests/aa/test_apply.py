"""``movecheck apply``: legal aa orders -> the next state (aa.md, "the states apply writes")."""

from __future__ import annotations

from pathlib import Path

import pytest

from movecheck.cli import main
from tests.harness import yaml_data, yaml_text

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "examples" / "aa" / "orders"
EXAMPLES = ["g1-combat.yaml", "g1-noncombat.yaml", "us1-noncombat.yaml"]


def apply(capsys, *args: str) -> tuple[int, str]:
    code = main(["apply", *args, "--root", "/"])
    return code, capsys.readouterr().out


def lint_clean(capsys, path: Path) -> None:
    code = main(["lint", str(path), "--root", "/"])
    out = capsys.readouterr().out
    assert code == 0 and "0 errors, 0 warnings" in out, out


def orders_file(path: Path, phase: str, *items: str) -> Path:
    """A German orders file naming ``state: s.yaml`` (or the battles state), one item per line."""
    key, state = ("results", "battles.yaml") if phase == "battles" else ("moves", "s.yaml")
    lines = [f"movecheck: 1\nsystem: aa\nstate: {state}\npower: Germans\nphase: {phase}\n{key}:\n"]
    path.write_text("".join(lines + [f"  - {item}\n" for item in items]))
    return path


def units_of(state: dict, at: str, power: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for u in state["units"]:
        if u["at"] == at and u["power"] == power:
            found[u["type"]] = found.get(u["type"], 0) + u.get("count", 1)
    return found


def test_combat_orders_give_the_battles_state(capsys, tmp_path):
    out = tmp_path / "battles.yaml"
    code, _ = apply(capsys, str(ORDERS / "g1-combat.yaml"), "-o", str(out))
    assert code == 0
    text = out.read_text()
    assert text.startswith("# Written by movecheck apply: the orders ") and "g1-combat.yaml" in text.splitlines()[0]
    state = yaml_data(text)
    assert state["turn"] == {"round": 1, "power": "Germans", "phase": "battles"}
    assert units_of(state, "Karelia S.S.R.", "Germans") == {"infantry": 4, "tank": 2, "fighter": 2}
    assert units_of(state, "Egypt", "Germans") == {"infantry": 2, "artillery": 1, "tank": 1}
    assert not units_of(state, "Finland", "Germans").get("infantry")
    transport = next(u for u in state["units"] if u["at"] == "17 Sea Zone" and u["type"] == "transport")
    assert transport["moved"] == 1 and transport["loaded"] is True and transport["unloaded"] == "Egypt"
    battles = {b["at"]: b for b in state["battles"]}
    assert set(battles) == {"17 Sea Zone", "7 Sea Zone", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."}
    assert battles["Karelia S.S.R."]["attackers"] == {"fighter": 2, "infantry": 4, "tank": 2}
    assert battles["17 Sea Zone"]["defenders"] == {"destroyer": 1}
    lint_clean(capsys, out)


def test_an_empty_hostile_territory_is_captured(capsys, tmp_path):
    state = tmp_path / "s.yaml"
    state.write_text(
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\n"
        "control: {Poland: Russians}\n"
        "units:\n"
        "  - {at: Germany, power: Germans, type: tank}\n"
        "  - {at: Germany, power: Germans, type: infantry, count: 2}\n"
        "  - {at: 5 Sea Zone, power: Germans, type: transport, id: T1}\n"
        "  - {at: Karelia S.S.R., power: Russians, type: infantry}\n"
        "  - {at: Karelia S.S.R., power: Russians, type: factory}\n"
        "  - {at: Russia, power: Russians, type: infantry}\n"
        "  - {at: United Kingdom, power: British, type: infantry}\n"
        "  - {at: Eastern United States, power: Americans, type: infantry}\n"
        "  - {at: Japan, power: Japanese, type: infantry}\n"
    )
    orders = orders_file(tmp_path / "o.yaml", "combat_move", "{units: {tank: 1}, path: [Germany, Poland]}")
    code, text = apply(capsys, str(orders))
    assert code == 0, text
    result = yaml_data(text)
    assert "Poland" not in result.get("control", {})  # back to its owner on the map
    assert result["captured_this_turn"] == ["Poland"]
    assert units_of(result, "Poland", "Germans") == {"tank": 1}
    assert "battles" not in result
    out = tmp_path / "battles.yaml"
    out.write_text(text)
    lint_clean(capsys, out)


def test_illegal_orders_write_nothing(capsys, tmp_path):
    orders = tmp_path / "bad.yaml"
    orders.write_text((ORDERS / "g1-combat.yaml").read_text().replace(
        "state: ../states/g1-combat.yaml", f"state: {ROOT / 'examples/aa/states/g1-combat.yaml'}"
    ).replace("path: [Finland, Karelia S.S.R.]", "path: [Finland, Karelia S.S.R., Archangel]"))
    out = tmp_path / "next.yaml"
    code, text = apply(capsys, str(orders), "-o", str(out))
    assert code == 1
    assert "AA1" in text or "AA2" in text
    assert not out.exists()
    code, text = apply(capsys, str(orders), "--force")
    assert code == 0
    assert "# --force: the orders are NOT legal" in text
    assert "movecheck: 1" in text


def test_noncombat_orders_give_the_mobilization_state(capsys):
    code, text = apply(capsys, str(ORDERS / "g1-noncombat.yaml"))
    assert code == 0
    state = yaml_data(text)
    assert state["turn"] == {"round": 1, "power": "Germans", "phase": "mobilize"}
    assert state["purchased"] == {"carrier": 1, "infantry": 3} and state["captured_this_turn"]
    assert "battles" not in state and "to_place" not in state
    code, text = apply(capsys, str(ORDERS / "us1-noncombat.yaml"))
    assert yaml_data(text)["turn"] == {"round": 1, "power": "Americans", "phase": "mobilize"}


def test_the_next_turn_is_the_next_powers_purchase_and_the_round_grows_after_the_last():
    from movecheck.aa.maps import builtin_map
    from movecheck.aa.maps.gamemap import GameMap
    from movecheck.aa.model import Board
    from movecheck.aa.turn.apply import next_turn

    board = Board(GameMap(builtin_map("aa1942-2e")), {}, "Americans", "mobilize")
    after_the_last = next_turn(board, {"round": 1, "power": "Americans"})
    assert after_the_last == {"round": 2, "power": "Russians", "phase": "purchase"}
    assert next_turn(board, {"round": 1, "power": "Germans"}) == {"round": 1, "power": "British", "phase": "purchase"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_apply_output_of_the_examples_lints_clean_and_is_deterministic(capsys, tmp_path, name):
    first = tmp_path / "first.yaml"
    code, _ = apply(capsys, str(ORDERS / name), "-o", str(first))
    assert code == 0
    lint_clean(capsys, first)
    code, again = apply(capsys, str(ORDERS / name))
    assert again == first.read_text()
    state = yaml_data(again)
    ids = [u["id"] for u in state["units"] if "id" in u]
    assert len(ids) == len(set(ids))
    assert all(u.get("count", 1) >= 1 and ("id" not in u or "count" not in u) for u in state["units"])


# -- the German round 1 made by apply alone ---------------------------------------------

STATES = ROOT / "examples" / "aa" / "states"
CHAIN = [
    ("g1-purchase.yaml", "g1-purchased.yaml"),
    ("g1-combat.yaml", "g1-battles.yaml"),
    ("g1-battles.yaml", "g1-noncombat-applied.yaml"),
    ("g1-noncombat-applied.yaml", "g1-mobilize.yaml"),
    ("g1-mobilize.yaml", "uk1-purchase.yaml"),
    ("uk2-combat.yaml", "uk2-battles.yaml"),
]


def test_the_generated_example_states_are_in_sync():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_examples", ROOT / "scripts" / "gen_examples.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for orders, state in gen.CHAIN:  # regenerating gives the committed bytes
        assert gen.generated(orders, state) == (ROOT / state).read_text(encoding="utf-8"), state
    steps = [step for step in gen.CHAIN if step not in gen.GAME]  # the round of examples/aa/game: its own tests
    assert [Path(o).name for o, _ in steps if not o.startswith("init ")] == [o for o, _ in CHAIN]


@pytest.mark.parametrize(("orders", "state"), CHAIN)
def test_apply_output_of_each_step_of_the_chain(capsys, snapshot, monkeypatch, orders, state):
    monkeypatch.chdir(ROOT)  # the header names the files as given
    code = main(["apply", f"examples/aa/orders/{orders}", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0
    assert out == snapshot
    lint_clean(capsys, STATES / state)


def _stacks(state: dict) -> dict[tuple, int]:
    """Units by place, owner, type and status, ids left out."""
    found: dict[tuple, int] = {}
    for u in state["units"]:
        key = (u["at"], u["power"], u["type"], u.get("moved", 0), bool(u.get("fought")), bool(u.get("loaded")),
               u.get("unloaded"))
        found[key] = found.get(key, 0) + u.get("count", 1)
    return found


def _control(state: dict) -> dict[str, str]:
    from movecheck.aa.maps import builtin_map
    from movecheck.aa.maps.gamemap import GameMap

    control = dict(GameMap(builtin_map(state["map"])).control)
    control.update(state.get("control") or {})
    return control


def test_the_chain_reproduces_the_hand_written_noncombat_state():
    """The state made by apply from g1-combat and g1-battles is the hand-written g1-noncombat.yaml but for
    two documented differences (examples/README.md): the hand-written state has unit ids the combat state
    does not give (JG-Nord, KG-1, T-Baltic ...; apply names only the transport its battles state needed),
    and the two U-boats that survive in 7 Sea Zone are, by
    apply's choice of casualties, the pair that came from 9 Sea Zone (moved 1), not the Baltic pair (moved 2)."""
    made = yaml_data((STATES / "g1-noncombat-applied.yaml").read_text())
    hand = yaml_data((STATES / "g1-noncombat.yaml").read_text())
    for key in ("turn", "purchased", "rules", "map"):
        assert made[key] == hand[key], key
    assert sorted(made["captured_this_turn"]) == sorted(hand["captured_this_turn"])
    assert _control(made) == _control(hand)
    ours, theirs = _stacks(made), _stacks(hand)
    differ = {k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)}
    assert differ == {
        ("7 Sea Zone", "Germans", "submarine", 1, True, False, None),
        ("7 Sea Zone", "Germans", "submarine", 2, True, False, None),
    }
    sub = ("7 Sea Zone", "Germans", "submarine")
    assert ours[(*sub, 1, True, False, None)] == theirs[(*sub, 2, True, False, None)] == 2
    ids = {u["id"] for u in hand["units"] if "id" in u}
    assert ids == {"JG-Nord", "JG-Reich", "JG-West", "JG-Sued", "KG-1", "T-Baltic", "T-Med"}
    # the one id apply made: the transport that unloaded into Egypt from 17 Sea Zone, whose battle was pending
    assert [u["id"] for u in made["units"] if "id" in u] == ["Germans transport 1"]


def test_noncombat_apply_keeps_the_purchases_for_the_mobilization(capsys):
    text = (STATES / "g1-mobilize.yaml").read_text()
    state = yaml_data(text)
    assert state["turn"] == {"round": 1, "power": "Germans", "phase": "mobilize"}
    assert state["purchased"] == {"carrier": 1, "infantry": 3} and "to_place" not in state
    # the fighter waiting in 5 Sea Zone for the carrier bought stays there: the mobilization places the carrier
    assert units_of(state, "5 Sea Zone", "Germans") == {"fighter": 1, "transport": 1}
    assert "# destroyed:" not in text


CAPITALS = """\
  - {at: United Kingdom, power: British, type: infantry}
  - {at: Russia, power: Russians, type: infantry}
  - {at: Japan, power: Japanese, type: infantry}
  - {at: Eastern United States, power: Americans, type: infantry}
"""
"""One infantry in each capital but Germany's: a small board where every power has a unit."""

CARGO_STATE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 1, power: Germans, phase: combat_move}
units:
  - {at: Germany, power: Germans, type: infantry}
  - {at: 5 Sea Zone, power: Germans, type: transport, id: T1}
  - {at: 5 Sea Zone, power: Germans, type: infantry, count: 2, aboard: T1}
  - {at: 5 Sea Zone, power: Germans, type: cruiser}
  - {at: 6 Sea Zone, power: British, type: destroyer}
""" + CAPITALS


def test_cargo_stays_aboard_through_a_sea_battle_and_goes_down_with_its_transport(capsys, tmp_path):
    (tmp_path / "s.yaml").write_text(CARGO_STATE)
    orders = orders_file(
        tmp_path / "o.yaml", "combat_move", "{units: {cruiser: 1, transport: 1}, path: [5 Sea Zone, 6 Sea Zone]}"
    )
    battles = tmp_path / "battles.yaml"
    code, text = apply(capsys, str(orders), "-o", str(battles))
    assert code == 0, text
    state = yaml_data(battles.read_text())
    cargo = [u for u in state["units"] if u["type"] == "infantry" and u["at"] == "6 Sea Zone"]
    assert cargo == [{"at": "6 Sea Zone", "power": "Germans", "type": "infantry", "count": 2, "aboard": "T1"}]
    assert state["battles"] == [{"at": "6 Sea Zone", "kind": "sea", "attackers": {"cruiser": 1, "transport": 1},
                                 "defenders": {"destroyer": 1}, "from": ["5 Sea Zone"]}]
    lint_clean(capsys, battles)
    results = orders_file(tmp_path / "r.yaml", "battles",
                          "{at: 6 Sea Zone, attacker_losses: {transport: 1}, defender_losses: {destroyer: 1}}")
    code, text = apply(capsys, str(results))
    assert code == 0, text
    after = yaml_data(text)
    assert units_of(after, "6 Sea Zone", "Germans") == {"cruiser": 1}  # the infantry went down with T1
    assert units_of(after, "6 Sea Zone", "British") == {}


# -- property: apply(legal orders) is a state that lints clean, reads back the same, conserves the units,
#    changes control only by capture and liberation, and is checked with no orders --------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from .apply_properties import (  # noqa: E402
    changes_control_only_by_capture,
    checks_with_no_orders,
    conserves_units,
    takes_what_it_entered,
)

PLAYED = {  # orders file -> its list key; each names its state with state:
    "g1-combat.yaml": "moves",
    "g1-battles.yaml": "results",
    "g1-noncombat-applied.yaml": "moves",
    "g1-noncombat.yaml": "moves",
    "g2-noncombat.yaml": "moves",
    "uk1-revised-noncombat.yaml": "moves",
    "uk2-combat.yaml": "moves",
    "us1-noncombat.yaml": "moves",
}


def _round_trip(path: Path) -> None:
    """Reading the written state and writing its units again gives the same ``units:``."""
    from movecheck.aa.prepare import lint_state
    from movecheck.aa.turn.apply import _units
    from movecheck.loading import load_file

    doc = load_file(str(path))
    findings, board, _ = lint_state(doc)
    assert board is not None and not [f for f in findings if f.severity.value == "error"]
    assert _units(board, keep_status=True) == doc.data["units"]


def _holds(capsys, orders: Path, out: Path) -> None:
    """Every property of the state ``out`` that apply wrote from ``orders``."""
    lint_clean(capsys, out)
    _round_trip(out)
    conserves_units(orders, out)
    changes_control_only_by_capture(orders, out)
    takes_what_it_entered(orders, out)
    checks_with_no_orders(capsys, out)


@settings(max_examples=24, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(PLAYED)), data=st.data())
def test_applying_legal_orders_gives_a_clean_state_that_reads_back(capsys, tmp_path_factory, name, data):
    source = yaml_data((ORDERS / name).read_text())
    key = PLAYED[name]
    keep = data.draw(st.lists(st.booleans(), min_size=len(source[key]), max_size=len(source[key])), label="keep")
    source[key] = [item for item, kept in zip(source[key], keep, strict=True) if kept]
    source["state"] = str((ORDERS / source["state"]).resolve())
    folder = tmp_path_factory.mktemp("prop")
    orders = folder / "orders.yaml"
    orders.write_text(yaml_text(source, sort_keys=False, allow_unicode=True))
    out = folder / "next.yaml"
    code = main(["apply", str(orders), "-o", str(out), "--root", "/", "--isolated"])
    report = capsys.readouterr().out
    if code != 0:  # the mutation made the orders illegal: apply writes nothing
        assert code == 1 and not out.exists(), report
        return
    _holds(capsys, orders, out)
    again = folder / "again.yaml"
    assert main(["apply", str(orders), "-o", str(again), "--root", "/", "--isolated"]) == 0
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_every_played_example_is_legal_and_round_trips(capsys, tmp_path, name):
    out = tmp_path / "next.yaml"
    code, _ = apply(capsys, str(ORDERS / name), "-o", str(out))
    assert code == 0
    _holds(capsys, ORDERS / name, out)
