"""Random but legal-ish whole turns of an aa game, drawn phase by phase from the state they follow (issue 35).

A turn is five files -- purchase, combat move, battle results, noncombat move, mobilization -- each
drawn with hypothesis from the state before it, read as plain YAML, and the map facts
(:mod:`tests.aa.turn_audit`): units bought within (or now and then beyond) the treasury, land units
attacking neighbouring enemy territories, each battle ending with one side wiped out, land units
moving home between friendly territories, the purchases placed at the power's factories (some left
unplaced).  Each file also has a re-spelled twin that means the same (:func:`respell`): powers, unit
types and sea zones under the abbreviations players type, keys and entries in another order,
placements and moves split.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

from tests.aa.turn_audit import TAKEN_WITH_TERRITORY, Facts, control, turn, unmoved

BUYABLE = ("infantry", "artillery", "tank", "fighter", "transport", "destroyer", "carrier", "factory")
MOST = {"factory": 1, "transport": 2, "destroyer": 2, "carrier": 1}
"""The most of a type one purchase draws (4 of the others)."""
SEA_TYPES = ("transport", "destroyer", "carrier")
WARSHIPS = ("submarine", "destroyer", "cruiser", "battleship")
"""The ships that attack a neighbouring sea zone (carriers and transports stay: their cargo is another test's)."""
CARRIER_SLOTS = 2
ATTACKERS = ("infantry", "artillery", "tank")
MOVERS = ("infantry", "artillery", "tank")

POWER_SPELLINGS = {"Russians": "Rus", "Germans": "Ger", "British": "UK", "Japanese": "Jpn", "Americans": "US"}
"""How forum players write the powers (the test's own table, not movecheck's)."""

TYPE_SPELLINGS = {"infantry": "inf", "artillery": "art", "tank": "arm", "fighter": "ftr", "aa_gun": "aag"}
"""How forum players write the unit types."""


def header(state_name: str, state: dict[str, Any]) -> dict[str, Any]:
    _, power, phase = turn(state)
    return {"movecheck": 1, "system": "aa", "state": state_name, "power": power, "phase": phase}


# -- the files of a turn ---------------------------------------------------------------------


def purchase(data: st.DataObject, state: dict[str, Any], facts: Facts, reserve: int = 0) -> dict[str, Any]:
    """Units within the treasury (less ``reserve``, spent on research), now and then a few beyond it."""
    _, power, _ = turn(state)
    budget = int(state["ipcs"][power]) - reserve
    if data.draw(st.integers(0, 9), label="overspend") == 0:
        budget += data.draw(st.integers(1, 20), label="beyond")
    bought: dict[str, int] = {}
    for kind in data.draw(st.permutations(BUYABLE), label="buying order"):
        most = max(budget, 0) // facts.cost[kind]
        n = data.draw(st.integers(0, min(most, MOST.get(kind, 4))), label=f"buy {kind}")
        if n:
            bought[kind] = n
            budget -= n * facts.cost[kind]
    return {"purchase": bought}


def combat_move(data: st.DataObject, state: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """Land units into neighbouring enemy-held territories, one step each (tanks also blitzing through an
    empty one), fighters joining where a battle is fought, warships into neighbouring sea zones with enemies."""
    _, power, _ = turn(state)
    held = control(state, facts)
    free = unmoved(state, power)
    taken = TAKEN_WITH_TERRITORY[facts.name]
    units = state.get("units") or []
    defended = {u["at"] for u in units if facts.enemies(u["power"], power) and u["type"] not in taken}
    occupied = {u["at"] for u in state.get("units") or []}
    options = [
        (space, kind, target)
        for (space, kind), n in sorted(free.items())
        if n and held.get(space) == power and (kind in ATTACKERS or kind == "fighter")
        for target in facts.land_neighbours(space)
        if held.get(target) in facts.side and facts.enemies(held[target], power)
        and (kind != "fighter" or target in defended)  # fighters only where a battle is fought
    ]
    naval = [
        (space, kind, target)
        for (space, kind), n in sorted(free.items())
        if n and kind in WARSHIPS and space not in facts.land
        for target in facts.sea_neighbours(space)
        if target in defended
    ]
    blitzes = [
        (space, "tank", (middle, target))
        for (space, kind), n in sorted(free.items())
        if n and kind == "tank" and held.get(space) == power
        for middle in facts.land_neighbours(space)
        if middle not in occupied and held.get(middle) in facts.side and facts.enemies(held[middle], power)
        for target in facts.land_neighbours(middle)
        if target != space and held.get(target) in facts.side and facts.enemies(held[target], power)
    ]
    moves: list[dict[str, Any]] = []
    if not options and not blitzes and not naval:
        return {"moves": moves}
    attacks = st.lists(st.sampled_from(options + blitzes + naval), max_size=4, unique=True)
    for space, kind, target in data.draw(attacks, label="attacks"):
        n = data.draw(st.integers(1, free[(space, kind)]), label="attackers") if free[(space, kind)] else 0
        if n:
            free[(space, kind)] -= n
            path = [space, *target] if isinstance(target, tuple) else [space, target]
            moves.append({"id": f"m{len(moves) + 1}", "units": {kind: n}, "path": path})
    return {"moves": moves}


def battle_results(data: st.DataObject, state: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """Each battle ends with one side gone: all defenders lost (the attacker may lose some), or all attackers."""
    results = []
    for battle in state.get("battles") or []:
        attackers = dict(battle.get("attackers") or {})
        taken = TAKEN_WITH_TERRITORY[facts.name]
        defenders = {k: n for k, n in (battle.get("defenders") or {}).items() if k not in taken}
        attacker_wins = data.draw(st.booleans(), label=f"{battle['at']} won")
        if attacker_wins:
            losses_a = _some(data, attackers, keep_one=True)
            losses_d = defenders
        else:
            losses_a = attackers
            losses_d = _some(data, defenders, keep_one=False)
        result: dict[str, Any] = {"id": f"b{len(results) + 1}", "at": battle["at"]}
        if losses_a:
            result["attacker_losses"] = losses_a
        if losses_d:
            result["defender_losses"] = losses_d
        results.append(result)
    return {"results": results}


def _some(data: st.DataObject, units: dict[str, int], keep_one: bool) -> dict[str, int]:
    """Some of the units (at least one left when ``keep_one``)."""
    losses: dict[str, int] = {}
    left = sum(units.values())
    for kind, n in sorted(units.items()):
        most = min(n, left - 1) if keep_one else n
        lost = data.draw(st.integers(0, max(most, 0)), label=f"lost {kind}")
        if lost:
            losses[kind] = lost
            left -= lost
    return losses


def noncombat_move(data: st.DataObject, state: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """Land units that have not moved, one step to a neighbouring territory the power holds."""
    _, power, _ = turn(state)
    held = control(state, facts)
    free = unmoved(state, power)
    moved_to = {u["at"] for u in state.get("units") or [] if u["power"] == power and u.get("moved")}
    options = [
        (space, kind, target)
        for (space, kind), n in sorted(free.items())
        if n and kind in MOVERS and held.get(space) == power and space not in moved_to
        for target in facts.land_neighbours(space)
        if held.get(target) in facts.side and not facts.enemies(held[target], power)
    ]
    moves = landings(data, state, facts)
    if not options:
        return {"moves": moves}
    for space, kind, target in data.draw(st.lists(st.sampled_from(options), max_size=3, unique=True), label="moves"):
        if free[(space, kind)]:
            n = data.draw(st.integers(1, free[(space, kind)]), label="movers")
            free[(space, kind)] -= n
            moves.append({"id": f"n{len(moves) + 1}", "units": {kind: n}, "path": [space, target]})
    return {"moves": moves}


def landings(data: st.DataObject, state: dict[str, Any], facts: Facts) -> list[dict[str, Any]]:
    """The fighters that fought fly one step to a territory the power held before this turn; now and then
    one is left where it is (in a territory taken this turn, or an enemy's: the file is then refused)."""
    _, power, _ = turn(state)
    held = control(state, facts)
    taken = set(state.get("captured_this_turn") or [])
    flying: Counter[str] = Counter()
    for unit in state.get("units") or []:
        if unit["power"] == power and unit["type"] == "fighter" and unit.get("moved"):
            flying[unit["at"]] += int(unit.get("count", 1))
    moves: list[dict[str, Any]] = []
    for space, n in sorted(flying.items()):
        homes = [t for t in facts.land_neighbours(space) if held.get(t) == power and t not in taken]
        stay = data.draw(st.integers(0, 19), label="fighters stay") == 0
        if homes and not stay:
            home = data.draw(st.sampled_from(homes), label=f"home of the fighters of {space}")
            moves.append({"id": f"f{len(moves) + 1}", "units": {"fighter": n}, "path": [space, home]})
    return moves


def mobilization(data: st.DataObject, state: dict[str, Any], facts: Facts, start: dict[str, Any]) -> dict[str, Any]:
    """The units bought, placed at the factories the power held at the start of its turn, within their
    IPC value (ships in a sea zone beside the factory), a new factory where it holds none; some may be
    left unplaced."""
    _, power, _ = turn(state)
    held_then, held_now = control(start, facts), control(state, facts)
    kept = set(state.get("captured_this_turn") or [])
    room = {
        u["at"]: facts.production.get(u["at"], 0) - int(u.get("damage", 0))
        for u in state.get("units") or []
        if u["type"] == "factory" and held_then.get(u["at"]) == power and held_now.get(u["at"]) == power
        and u["at"] not in kept
    }
    with_factory = {u["at"] for u in state.get("units") or [] if u["type"] == "factory"}
    sites = sorted(t for t in facts.land if held_then.get(t) == power and held_now.get(t) == power
                   and t not in kept and t not in with_factory and facts.production.get(t, 0))
    place: dict[str, Counter[str]] = {}
    slots: Counter[str] = Counter()  # free slots of the carriers placed in each zone
    for kind, n in sorted((state.get("purchased") or {}).items()):  # carriers before fighters
        for _ in range(n):
            if kind == "factory":
                choices = [(t, t) for t in sites if not place.get(t)]
            elif kind in SEA_TYPES:
                choices = [(f, sea) for f in sorted(room) if room[f] > 0 for sea in facts.sea_neighbours(f)]
            else:
                choices = [(f, f) for f in sorted(room) if room[f] > 0]
            if kind == "fighter":  # a new fighter on a new carrier, from a factory beside its zone
                choices += [(f, sea) for f in sorted(room) if room[f] > 0 for sea in facts.sea_neighbours(f)
                            if slots[sea]]
            where = data.draw(st.sampled_from([None, *choices]), label=f"place {kind}")
            if where is None:
                continue
            if kind != "factory":
                room[where[0]] -= 1
            if kind == "carrier":
                slots[where[1]] += CARRIER_SLOTS
            elif kind == "fighter" and where[1] not in facts.land:
                slots[where[1]] -= 1
            place.setdefault(where[1], Counter())[kind] += 1
    return {"place": [{"at": at, "units": dict(sorted(kinds.items()))} for at, kinds in sorted(place.items())]}


# -- the same file, spelled otherwise --------------------------------------------------------


def spell_space(space: str) -> str:
    """``SZ 5`` for a sea zone; a territory in lower case without its dots (``karelia ssr``)."""
    if space.endswith(" Sea Zone"):
        return "SZ " + space.removesuffix(" Sea Zone")
    return space.lower().replace(".", "")


def spell_units(units: dict[str, int], data: st.DataObject) -> dict[str, int]:
    items = [(TYPE_SPELLINGS.get(k, k), n) for k, n in units.items()]
    return dict(data.draw(st.permutations(items), label="unit order"))


def _split(entries: list[dict[str, Any]], data: st.DataObject) -> list[dict[str, Any]]:
    """Each entry of several units split in two entries of the same kind (counts split too)."""
    split: list[dict[str, Any]] = []
    for entry in entries:
        pieces: list[dict[str, int]] = [{}, {}]
        for kind, n in entry["units"].items():
            first = data.draw(st.integers(0, n), label="split")
            if first:
                pieces[0][kind] = first
            if n - first:
                pieces[1][kind] = n - first
        for i, piece in enumerate(p for p in pieces if p):
            part = {**entry, "units": piece}
            if "id" in part:
                part["id"] = f"{entry['id']}-{i}"
            split.append(part)
    return split


def respell(orders: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The same orders as a player might write them: abbreviations, another order of keys and entries,
    placements and moves split."""
    twin: dict[str, Any] = {}
    for key in data.draw(st.permutations(list(orders)), label="key order"):
        value = orders[key]
        if key == "power":
            value = POWER_SPELLINGS.get(value, value)
        elif key == "purchase":
            value = spell_units(value, data)
        elif key in ("moves", "place"):
            entries = _split(value, data)
            entries = data.draw(st.permutations(entries), label="entry order")
            value = [_spell_entry(e, data) for e in entries]
        elif key == "results":
            value = [_spell_result(r, data) for r in data.draw(st.permutations(value), label="result order")]
        twin[key] = value
    return twin


def _spell_entry(entry: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    spelled = {**entry, "units": spell_units(entry["units"], data)}
    if "path" in spelled:
        spelled["path"] = [spell_space(s) for s in spelled["path"]]
    if "at" in spelled:
        spelled["at"] = spell_space(spelled["at"])
    return dict(reversed(list(spelled.items())))


def _spell_result(result: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    spelled: dict[str, Any] = {}
    for key in data.draw(st.permutations(list(result)), label="result keys"):
        value = result[key]
        if key == "at":
            value = spell_space(value)
        elif key.endswith("_losses"):
            value = spell_units(value, data)
        spelled[key] = value
    return spelled


POWER_KEYS = ("ipcs", "purchased", "to_place", "control")


def respell_units(state: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The state with its top-level keys in another order and its units listed otherwise: another order,
    counts split over several entries, powers, types and spaces as players write them."""
    rng = data.draw(st.randoms(use_true_random=False), label="state spelling")  # few choices for a long list
    keys = list(state)
    rng.shuffle(keys)
    twin = {key: state[key] for key in keys}
    units: list[dict[str, Any]] = []
    for unit in state.get("units") or []:
        n = int(unit.get("count", 1))
        first = rng.randint(1, n) if n > 1 and "id" not in unit else n
        for part in (first, n - first):
            if part:
                entry = {k: v for k, v in unit.items() if k != "count"}
                entry["type"] = TYPE_SPELLINGS.get(entry["type"], entry["type"])
                entry["at"] = spell_space(entry["at"])
                entry["power"] = POWER_SPELLINGS.get(entry["power"], entry["power"])
                if part > 1:
                    entry["count"] = part
                units.append(dict(reversed(list(entry.items()))))
    rng.shuffle(units)
    twin["units"] = units
    return twin


def respell_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state with each power written under the abbreviation players type, in its keys and values."""
    twin = dict(state)
    if isinstance(twin.get("ipcs"), dict):
        twin["ipcs"] = {POWER_SPELLINGS.get(p, p): n for p, n in twin["ipcs"].items()}
    if isinstance(twin.get("control"), dict):
        twin["control"] = {s: POWER_SPELLINGS.get(p, p) for s, p in twin["control"].items()}
    return twin
