"""An independent audit of one ``movecheck apply`` of a whole-turn phase (issue 35, "Done when").

Everything here is computed from the map facts (``shared/data/*.map.json``: TripleA's territories,
connections, first owners, capitals, IPC values, unit costs and alliances) and from the files read as
plain YAML -- never from movecheck's board, rules or apply code.  For each phase it says what the
state after the apply must hold, given the state before, the file and the apply report:

* units: only where the file moved, placed or lost them (battle losses, the aircraft the report lists
  as destroyed); factories and AA guns change owner only with their territory;
* IPCs: spent on the purchase (units, repairs, research), refunded for units left unplaced where the
  edition refunds them, the income of the end of the turn, an enemy capital's treasury when it is taken;
* control: only the territories the report says were captured, each one the file's land units entered
  (or won a battle in), held by the mover or, liberated, by its first holder.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

TRIPLEA_TYPES = {"armour": "tank", "aaGun": "aa_gun"}
"""TripleA's unit names that movecheck spells otherwise."""

CHANGES_HANDS = ("factory", "aa_gun")
"""Unit types that stay in a captured territory and change owner with it (counted by type, not owner)."""

TAKEN_WITH_TERRITORY = {"aa1942-2e": ("factory",), "aa-revised": ("factory", "aa_gun")}
"""What changes owner with a captured territory, by map (aa-turn.md, "Control": in the 1942 second edition an
AA gun is a defending unit, a casualty, never captured)."""

LAND_TYPES = ("infantry", "artillery", "tank", "aa_gun", "factory")
AIR_TYPES = ("fighter", "bomber")

MAP_OF_EDITION = {"aa1942-2e": "aa1942-2e", "aa-revised": "aa-revised"}

REFUNDS_UNPLACED = {"aa1942-2e": True, "aa-revised": False}
"""Whether the edition pays back the units left unplaced (aa-turn.md AA707: refunded in 1942 second
edition, lost in Revised)."""


def facts_folder() -> Path | None:
    """The shared map facts, wherever this checkout finds them."""
    candidates = [ROOT.parent / "shared" / "data", Path("/work/shared/data")]
    shared = os.environ.get("MOVECHECK_SHARED")
    if shared:
        candidates.insert(0, Path(shared) / "data")
    return next((c for c in candidates if (c / "aa1942-2e.map.json").exists()), None)


@dataclass(frozen=True)
class Facts:
    """One map's facts, as TripleA gives them."""

    name: str
    players: tuple[str, ...]
    side: dict[str, str]
    land: frozenset[str]
    production: dict[str, int]
    owners: dict[str, str]
    capitals: dict[str, str]
    neighbours: dict[str, frozenset[str]]
    cost: dict[str, int]
    canals: frozenset[frozenset[str]]

    def enemies(self, one: str, other: str) -> bool:
        return self.side.get(one) != self.side.get(other)

    def land_neighbours(self, space: str) -> list[str]:
        return sorted(n for n in self.neighbours.get(space, ()) if n in self.land)

    def sea_neighbours(self, space: str) -> list[str]:
        """The sea zones next to a space (not through a canal)."""
        return sorted(n for n in self.neighbours.get(space, ()) if n not in self.land
                      and frozenset((space, n)) not in self.canals)


@cache
def facts_of(name: str) -> Facts:
    folder = facts_folder()
    assert folder is not None
    raw = json.loads((folder / f"{name}.map.json").read_text(encoding="utf-8"))
    neighbours: dict[str, set[str]] = {}
    for a, b in raw["connections"]:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return Facts(
        name=name,
        players=tuple(raw["players"]),
        side={power: side for side, powers in raw["alliances"].items() for power in powers},
        land=frozenset(t["name"] for t in raw["territories"] if not t.get("water")),
        production={t["name"]: int(t.get("production", 0)) for t in raw["territories"]},
        owners=dict(raw["owners"]),
        capitals={t["capital"]: t["name"] for t in raw["territories"] if t.get("capital")},
        neighbours={space: frozenset(n) for space, n in neighbours.items()},
        cost={TRIPLEA_TYPES.get(kind, kind): int(stats["cost"]) for kind, stats in raw["unit_stats"].items()},
        canals=frozenset(frozenset(c["seaZones"]) for c in raw.get("canals") or []),
    )


# -- a state read as plain YAML ------------------------------------------------------------


def units(state: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    """(space, owner, type) -> count; factories and AA guns counted under the owner ``*``."""
    found: Counter[tuple[str, str, str]] = Counter()
    for unit in state.get("units") or []:
        owner = "*" if unit["type"] in CHANGES_HANDS else unit["power"]
        found[(unit["at"], owner, unit["type"])] += int(unit.get("count", 1))
    return found


def unmoved(state: dict[str, Any], power: str) -> Counter[tuple[str, str]]:
    """(space, type) -> count of the power's units that have not moved this turn."""
    found: Counter[tuple[str, str]] = Counter()
    for unit in state.get("units") or []:
        if unit["power"] == power and not unit.get("moved"):
            found[(unit["at"], unit["type"])] += int(unit.get("count", 1))
    return found


def control(state: dict[str, Any], facts: Facts) -> dict[str, str]:
    """Who holds each territory: the first owners, overridden by the state's ``control:``."""
    return {**facts.owners, **(state.get("control") or {})}


def turn(state: dict[str, Any]) -> tuple[int, str, str]:
    t = state["turn"]
    return int(t["round"]), t["power"], t["phase"]


def income(state: dict[str, Any], facts: Facts, power: str) -> int:
    """The IPC value of what the power holds, nothing without its own capital (aa-turn.md, "Income")."""
    held = control(state, facts)
    if held.get(facts.capitals.get(power, "")) != power:
        return 0
    return sum(facts.production.get(space, 0) for space, holder in held.items() if holder == power)


def expected_holder(space: str, taker: str, held: dict[str, str], facts: Facts) -> str:
    """Who holds a territory the taker captured: its first holder when that is a friend whose capital it holds."""
    first = facts.owners.get(space, taker)
    if first != taker and not facts.enemies(first, taker) and held.get(facts.capitals.get(first, "")) == first:
        return first
    return taker


# -- the audit -------------------------------------------------------------------------------


@dataclass
class Audit:
    """What one apply must have done: the expected units, treasuries and captures, then the comparison."""

    facts: Facts
    edition: str
    before: dict[str, Any]
    after: dict[str, Any]
    report: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    @property
    def power(self) -> str:
        return turn(self.before)[1]

    def expect(self, what: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            self.problems.append(f"{what}: expected {expected!r}, got {actual!r}")

    def captured(self) -> dict[str, str]:
        """Territory -> holder, as the apply report lists them."""
        return {c["at"]: c["holder"] for c in self.report.get("captured") or []}

    def changed_control(self) -> dict[str, str]:
        old, new = control(self.before, self.facts), control(self.after, self.facts)
        return {space: new[space] for space in new if old.get(space) != new[space]}

    def destroyed(self) -> Counter[tuple[str, str, str]]:
        return Counter((d["at"], d["power"], d["type"]) for d in self.report.get("destroyed") or [])

    # -- units

    def units_moved(self, moves: list[dict[str, Any]]) -> None:
        """After a move phase: every unit where it was, but the moved ones at the end of their path."""
        expected = units(self.before)
        for move in moves:
            for kind, n in move["units"].items():
                expected[(move["path"][0], self.power, kind)] -= n
                expected[(move["path"][-1], self.power, kind)] += n
        self.units_match(+expected, "after the moves")

    def units_match(
        self, expected: Counter[tuple[str, str, str]], when: str, defenders_at: frozenset[str] = frozenset()
    ) -> None:
        """The units after the apply are the expected ones less the aircraft the report destroyed; at
        ``defenders_at`` the defending powers' units count together (a loss by type may be any of theirs)."""
        actual = units(self.after)
        gone = self.destroyed()
        for at, owner, kind in gone:  # the mover's aircraft; a defender's fighter only where its carrier sank
            allowed = kind in AIR_TYPES and (owner == self.power or at in defenders_at)
            assert allowed, f"destroyed: {owner} {kind} at {at}"
        expected = self.pooled(+(expected - gone), defenders_at)
        self.expect(f"units {when} (less the destroyed aircraft)", expected, self.pooled(actual, defenders_at))

    def pooled(self, found: Counter[tuple[str, str, str]], sites: frozenset[str]) -> Counter[tuple[str, str, str]]:
        pooled: Counter[tuple[str, str, str]] = Counter()
        for (at, owner, kind), n in found.items():
            pooled[(at, "defender" if at in sites and owner not in (self.power, "*") else owner, kind)] += n
        return +pooled

    # -- IPCs

    def ipcs_after_transfers(self, start: dict[str, int]) -> dict[str, int]:
        """The treasuries once every enemy capital taken in this apply has handed its IPCs to the taker."""
        expected = dict(start)
        old, new = control(self.before, self.facts), control(self.after, self.facts)
        for owner, capital in self.facts.capitals.items():
            if old.get(capital) == owner and new.get(capital) != owner and self.facts.enemies(owner, new[capital]):
                expected[self.power] = expected.get(self.power, 0) + expected.get(owner, 0)
                expected[owner] = 0
        return expected

    # -- control

    def control_by_captures(self, entered: set[str]) -> None:
        """Control changed exactly where the report says it was captured, only where the file entered, as the
        rules give the holder (the mover, or the liberated first holder)."""
        changed, reported = self.changed_control(), self.captured()
        self.expect("control changes (state vs apply report)", reported, changed)
        held = control(self.before, self.facts)
        for space, holder in changed.items():
            if space not in entered:
                self.problems.append(f"{space} changed hands ({holder}) but the file's land units did not take it")
            self.expect(f"holder of {space}", expected_holder(space, self.power, held, self.facts), holder)
        for space in sorted(changed):
            for (at, _, kind), n in units(self.after).items():
                if at == space and kind in TAKEN_WITH_TERRITORY[self.facts.name] and n:
                    owners = {u["power"] for u in self.after["units"] if u["at"] == space and u["type"] == kind}
                    self.expect(f"owner of the {kind} of {space}", {changed[space]}, owners)

    def control_unchanged(self) -> None:
        self.expect("control", control(self.before, self.facts), control(self.after, self.facts))
        self.expect("captured report", {}, self.captured())


# -- the phases ------------------------------------------------------------------------------


def audit_purchase(audit: Audit, orders: dict[str, Any]) -> None:
    bought = orders.get("purchase") or {}
    spent = sum(audit.facts.cost[k] * n for k, n in bought.items())
    spent += sum((orders.get("repair") or {}).values()) + int(orders.get("research") or 0)
    ipcs = dict(audit.before["ipcs"])
    ipcs[audit.power] -= spent
    audit.expect("ipcs after the purchase", ipcs, audit.after["ipcs"])
    audit.expect("purchased", {k: n for k, n in bought.items() if n}, audit.after.get("purchased") or {})
    audit.units_match(units(audit.before), "after the purchase")
    audit.control_unchanged()


def audit_combat_move(audit: Audit, orders: dict[str, Any]) -> None:
    moves = orders.get("moves") or []
    audit.units_moved(moves)
    entered = {s for m in moves if any(k in LAND_TYPES for k in m["units"]) for s in m["path"][1:]}
    audit.control_by_captures(entered)
    held = control(audit.before, audit.facts)
    for space in sorted(entered):
        defenders = [u for u in audit.before["units"] if u["at"] == space and u["power"] != audit.power]
        enemy = held.get(space) in audit.facts.side and audit.facts.enemies(held[space], audit.power)
        if enemy and not defenders and space not in audit.changed_control():
            # an empty enemy territory entered by land units is taken at once (aa-turn.md, "Control")
            audit.problems.append(f"{space}: an empty enemy territory entered but not taken")
    audit.expect("ipcs after the combat move", audit.ipcs_after_transfers(audit.before["ipcs"]), audit.after["ipcs"])


def audit_battles(audit: Audit, orders: dict[str, Any]) -> None:
    expected = units(audit.before)
    won: set[str] = set()
    for result in orders.get("results") or []:
        at = result["at"]
        for kind, n in (result.get("attacker_losses") or {}).items():
            expected[(at, audit.power, kind)] -= n
        for kind, n in (result.get("defender_losses") or {}).items():
            owners = sorted(o for (a, o, k), c in expected.items() if a == at and k == kind and o != audit.power and c)
            for owner in owners:  # the defenders' losses, from whichever defending powers have the type
                take = min(n, expected[(at, owner, kind)])
                expected[(at, owner, kind)] -= take
                n -= take
            assert n == 0, (at, kind, n)
        if _attacker_won(expected, at, audit.power, TAKEN_WITH_TERRITORY[audit.facts.name]):
            won.add(at)
    sites = frozenset(r["at"] for r in orders.get("results") or [])
    audit.units_match(+expected, "after the battles", defenders_at=sites)
    audit.control_by_captures(won)
    for space in sorted(won):
        if space not in audit.changed_control() and audit.facts.enemies(
                control(audit.before, audit.facts).get(space, audit.power), audit.power):
            audit.problems.append(f"{space}: the battle won with land units left, but the territory not taken")
    audit.expect("ipcs after the battles", audit.ipcs_after_transfers(audit.before["ipcs"]), audit.after["ipcs"])


def _attacker_won(left: Counter[tuple[str, str, str]], at: str, power: str, taken: tuple[str, ...]) -> bool:
    """Land attackers survive and no defender is left but what is taken with the territory."""
    attackers = any(c > 0 and o == power and k in LAND_TYPES for (a, o, k), c in left.items() if a == at)
    defenders = any(c > 0 and o != power and k not in taken for (a, o, k), c in left.items() if a == at)
    return attackers and not defenders


def audit_noncombat_move(audit: Audit, orders: dict[str, Any]) -> None:
    audit.units_moved(orders.get("moves") or [])
    audit.control_unchanged()
    audit.expect("ipcs after the noncombat move", audit.before["ipcs"], audit.after["ipcs"])


def audit_mobilize(audit: Audit, orders: dict[str, Any]) -> None:
    expected = units(audit.before)
    placed: Counter[str] = Counter()
    for entry in orders.get("place") or []:
        for kind, n in entry["units"].items():
            owner = "*" if kind in CHANGES_HANDS else audit.power
            expected[(entry["at"], owner, kind)] += n
            placed[kind] += n
    audit.units_match(expected, "after the mobilization")
    waiting = Counter(audit.before.get("purchased") or {})
    unplaced = waiting - placed
    audit.expect("units placed beyond those bought", Counter(), placed - waiting)
    refund = sum(audit.facts.cost[k] * n for k, n in unplaced.items()) if REFUNDS_UNPLACED[audit.edition] else 0
    ipcs = dict(audit.before["ipcs"])
    ipcs[audit.power] += refund + income(audit.after, audit.facts, audit.power)
    audit.expect("ipcs after the mobilization and income", ipcs, audit.after["ipcs"])
    audit.expect("purchased left", {}, audit.after.get("purchased") or {})
    audit.expect("to_place left", {}, audit.after.get("to_place") or {})
    audit.expect("captured_this_turn left", [], audit.after.get("captured_this_turn") or [])
    audit.control_unchanged()
    players = audit.facts.players
    rnd, power, _ = turn(audit.before)
    following = players[(players.index(power) + 1) % len(players)]
    audit.expect("next turn", (rnd + (following == players[0]), following, "purchase"), turn(audit.after))


AUDITS = {
    "purchase": audit_purchase,
    "combat_move": audit_combat_move,
    "battles": audit_battles,
    "noncombat_move": audit_noncombat_move,
    "mobilize": audit_mobilize,
}
