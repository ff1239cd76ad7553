"""The round of examples/aa/game audited from the map facts alone (not from movecheck's code).

For each power's turn: its IPCs after the turn = its IPCs before - the cost of what it bought and
repaired + the cost of the units it could not place (refunded, 1942 second edition) + the IPC value of
the territories it controls at the end of its turn (nothing without its capital); every other
treasury is unchanged.  Costs, IPC values, capitals, first owners and starting treasuries come from
the TripleA facts (shared/data/aa1942-2e.map.json); the files are read as plain YAML.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.harness import yaml_data

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "aa" / "game"
FACTS_FILE = ROOT.parent / "shared" / "data" / "aa1942-2e.map.json"
for candidate in (FACTS_FILE, Path("/work/shared/data/aa1942-2e.map.json")):
    if candidate.exists():
        FACTS_FILE = candidate
        break
POWERS = ("russians", "germans", "british", "japanese", "americans")


def load(path: Path) -> dict[str, Any]:
    return yaml_data(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def facts() -> dict[str, Any]:
    if not FACTS_FILE.exists():
        pytest.skip(f"map facts {FACTS_FILE} are missing")
    return json.loads(FACTS_FILE.read_text(encoding="utf-8"))


def after_state(index: int) -> Path:
    return GAME / "states" / (f"r1-{POWERS[index + 1]}-purchase.yaml" if index + 1 < len(POWERS)
                              else "r2-russians-purchase.yaml")


def test_the_round_starts_with_the_starting_treasuries(facts) -> None:
    first = load(GAME / "states" / "r1-russians-purchase.yaml")
    assert first["ipcs"] == {power: money["PUs"] for power, money in facts["resources"].items()}


@pytest.mark.parametrize("index", range(len(POWERS)), ids=POWERS)
def test_each_turn_adds_up(facts, index: int) -> None:
    name = POWERS[index]
    before = load(GAME / "states" / f"r1-{name}-purchase.yaml")
    after = load(after_state(index))
    power = before["turn"]["power"]
    bought = load(GAME / "orders" / f"r1-{name}-purchase.yaml")
    placed = load(GAME / "orders" / f"r1-{name}-mobilize.yaml")
    cost_of = {kind: stats["cost"] for kind, stats in facts["unit_stats"].items()}
    cost_of["factory"] = cost_of.get("factory", cost_of.get("industrial_complex", 0))
    units = bought.get("purchase") or {}
    spent = sum(cost_of[kind] * n for kind, n in units.items()) + sum((bought.get("repair") or {}).values())
    spent += bought.get("research", 0)
    put: dict[str, int] = {}
    for placement in placed["place"]:
        for kind, n in placement["units"].items():
            put[kind] = put.get(kind, 0) + n
    refunded = sum(cost_of[kind] * (n - put.get(kind, 0)) for kind, n in units.items())
    control = {**facts["owners"], **(after.get("control") or {})}
    capital = next(t["name"] for t in facts["territories"] if t.get("capital") == power)
    income = 0 if control.get(capital) != power else sum(
        t.get("production", 0) for t in facts["territories"] if control.get(t["name"]) == power)
    assert after["ipcs"][power] == before["ipcs"][power] - spent + refunded + income
    others = {p: n for p, n in before["ipcs"].items() if p != power}
    assert {p: n for p, n in after["ipcs"].items() if p != power} == others


def test_the_round_shows_what_the_issue_asks(facts) -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted((GAME / "states").glob("*.yaml"))}
    everything = "\n".join(texts.values())
    assert "# Karelia S.S.R.: captured by the Germans" in everything           # a factory captured
    blitz = texts["r1-germans-battles.yaml"]                                   # a blitz: one tank, one order,
    assert "# Archangel: captured by the Germans" in blitz                     # through empty Archangel
    assert "# Vologda: captured by the Germans" in blitz                       # into empty Vologda
    orders = load(GAME / "orders" / "r1-germans-combat.yaml")["moves"]
    assert {"id": "archangel-blitz", "units": {"tank": 1}, "path": ["West Russia", "Archangel", "Vologda"]} in orders
    assert "# Burma: liberated for the British by the Americans" in everything  # a liberation
    assert "# unplaced (refunded): 2 infantry; 6 IPCs back to the Japanese" in everything
    assert "# bombing of United Kingdom: 6 damage on the factory" in everything
    assert "# ipcs: 6 spent on repair." in everything                          # the raid's repair
    assert "damaged: true" in texts["r1-germans-mobilize.yaml"]
    assert "damaged: true" not in texts["r1-british-purchase.yaml"]             # repaired at the end of the turn
    assert any("amphibious:" in text for text in texts.values())
    last = load(GAME / "states" / "r2-russians-purchase.yaml")
    assert last["turn"] == {"round": 2, "power": "Russians", "phase": "purchase"}
    fighter = next(u for u in last["units"] if u["at"] == "56 Sea Zone" and u["type"] == "fighter")
    assert fighter["aboard"] == "Americans carrier 1"                          # a fighter on a new carrier
