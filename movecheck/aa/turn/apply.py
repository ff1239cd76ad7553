"""``movecheck apply`` for aa: the state that follows a phase's orders (aa.md, "the states ``apply`` writes").

The engine has carried the orders out (:func:`movecheck.aa.engine.run`); this module
reads the board as they left it and writes the next state:

- after a combat move, the state for the battles (``turn.phase: battles``): units where
  the moves left them with this turn's statuses (``moved``, ``aboard``, ``loaded``,
  ``unloaded``, and ``unloaded_from`` for land units put ashore from a zone whose sea battle
  is pending), every empty hostile territory a land unit entered taken (the ones a tank
  blitzed through included; control and ``captured_this_turn``, liberation:
  :mod:`movecheck.aa.turn.control`), and each battle space under ``battles:`` with the attacking
  and defending units by type;
- after battle results (:mod:`movecheck.aa.turn.battles`), the noncombat-move state: losses
  removed, retreats moved, survivors ``fought``, territories captured or liberated;
- after a purchase (:mod:`movecheck.aa.turn.purchase`), the combat-move state: ``purchased:`` set,
  the treasury less what was spent, repaired factories less their damage;
- after a noncombat move, the mobilization state (``turn.phase: mobilize``, the same power):
  this turn's statuses, ``purchased:`` and ``captured_this_turn`` kept, the aircraft with no
  landing space removed (listed in the header and the report), the fighters waiting at sea
  for a carrier bought this turn left where they are (the mobilization places the carrier).

Every state written carries the treasuries (``ipcs:``) when they are known, and a capital
taken takes its power's IPCs in the apply that records the capture (:mod:`movecheck.aa.turn.control`).
:func:`applied` also gives the :class:`~movecheck.aa.turn.apply_report.ApplyReport` of
``apply --format json``.
``to_place`` (units waiting between turns) passes through every apply until a mobilization places them.  The output
is deterministic: stacks sorted by space, power, type and id; identical units grouped with
``count:``; the state's unit ids kept (a vessel the state must name, for its cargo or a
fighter the reader would seat elsewhere, gets one).
"""

from __future__ import annotations

import os
import re
from typing import Any

from movecheck.aa.maps import BUILTIN_MAPS
from movecheck.aa.model import Board
from movecheck.aa.phase import Phase
from movecheck.aa.turn.apply_report import ApplyReport, Capture, Destroyed, Transfer
from movecheck.aa.units import Unit
from movecheck.aa.wording import unit_phrase

PURCHASE = "purchase"
COMBAT = "combat_move"
BATTLES = "battles"
NONCOMBAT = "noncombat_move"
MOBILIZE = "mobilize"


def next_state(final: Any, state: dict[str, Any], state_path: str, orders_path: str,
               output: str | None, forced: bool) -> str:
    """The YAML text of the state that follows: ``final`` is the phase the orders were carried out in,
    or the :class:`~movecheck.aa.turn.battles.Resolution` of battle results."""
    return applied(final, state, state_path, orders_path, output, forced)[0]


def applied(final: Any, state: dict[str, Any], state_path: str, orders_path: str,
            output: str | None, forced: bool) -> tuple[str, ApplyReport]:
    """The YAML text of the state that follows (see :func:`next_state`) and the report of what apply did."""
    head, data, report = _applied(final, state, state_path, orders_path, output, forced)
    return head + _dump(data), report


def applied_state(final: Any, state: dict[str, Any], state_path: str,
                  orders_path: str) -> tuple[dict[str, Any], ApplyReport]:
    """The state that follows as data (what :func:`applied` writes as YAML, not written) and the report of what
    apply did: for the readers of what apply would do (``summary``, ``render``), which need no text."""
    _head, data, report = _applied(final, state, state_path, orders_path, None, False)
    return data, report


def _applied(final: Any, state: dict[str, Any], state_path: str, orders_path: str,
             output: str | None, forced: bool) -> tuple[str, dict[str, Any], ApplyReport]:
    """The header of the state that follows, the state as data, and the report of what apply did."""
    from movecheck.aa.resolve import resolve
    from movecheck.aa.turn.battles import Resolution
    from movecheck.aa.turn.china import free_units
    from movecheck.aa.turn.mobilize import Mobilization
    from movecheck.aa.turn.purchase import Bought
    from movecheck.aa.turn.victory import cities_held, new_wins

    board = final.board
    turn = dict(state.get("turn") or {}, power=board.power)  # names as the map writes them, not abbreviated
    lost: set[int] = set()
    battles: list[dict[str, Any]] = []
    landings: dict[int, Unit] | None = {}
    destroyed: list[Unit] = []
    to_place = {power: dict(units) for power, units in board.to_place.items()}
    keep_status = True  # every state apply writes is of the same turn (the mobilization apply ends it)
    said: list[str] = []
    spent: dict[str, int] = {}
    seated: set[int] = set()
    settled = None
    if isinstance(final, Mobilization):
        from movecheck.aa.turn.mobilize_apply import carry_out, header_lines

        settled = carry_out(final)
        destroyed = settled.destroyed
        lost = {u.uid for u in destroyed}
        seated = settled.seated
        to_place = {p: u for p, u in to_place.items() if p != board.power}
        if settled.kept:
            to_place[board.power] = settled.kept
        turn = next_turn(board, turn, MOBILIZE)
        keep_status = False
        said = header_lines(settled, board.power)
    elif isinstance(final, Bought):
        spent = final.spent()
        to_place = free_units(final, to_place, said)
        turn = next_turn(board, turn, PURCHASE)
    elif isinstance(final, Resolution):
        lost = resolve(final, board.ipcs, said, destroyed)  # destroyed: fighters lost with their carrier
        turn = next_turn(board, turn, BATTLES)
    elif final.combat:
        _capture_entered(final)
        landings = _pending_landings(final)
        battles = _battles(final)
        turn = next_turn(board, turn, COMBAT)
    else:
        destroyed = _destroyed_aircraft(final)
        lost = {u.uid for u in destroyed}
        turn = next_turn(board, turn, NONCOMBAT)
    data: dict[str, Any] = {"movecheck": 1, "system": "aa"}
    for key in ("rules", "options"):
        if key in state:
            data[key] = state[key]
    data["map"] = _map_reference(state.get("map"), state_path, output)
    data["turn"] = {k: turn[k] for k in ("round", "power", "phase") if k in turn}
    if board.ipcs is not None:
        data["ipcs"] = {power: board.ipcs.get(power, 0) for power in board.map.powers}
    control = {space: owner for space, owner in sorted(board.control.items()) if board.map.control.get(space) != owner}
    if control:
        data["control"] = control
    if keep_status and board.captured:
        data["captured_this_turn"] = sorted(board.captured)
    if keep_status and (state.get("purchased") or board.purchased):
        data["purchased"] = in_unit_order(board, board.purchased)
    to_place = {power: in_unit_order(board, to_place[power]) for power in board.map.powers if to_place.get(power)}
    if to_place:
        data["to_place"] = to_place
    data["units"] = _units(board, keep_status=keep_status, lost=lost, landings=landings, seated=seated)
    if battles:
        data["battles"] = battles
    what = {Resolution: "the battle results", Bought: "the purchase", Mobilization: "the mobilization"}.get(
        type(final), "the orders")
    report = ApplyReport(orders_path, state_path, output or "-", dict(data["turn"]), forced,
                         destroyed=[Destroyed(u.type.name, u.power, u.at, u.id) for u in destroyed],
                         captured=captures(board), transfers=transfers(board), ipcs=data.get("ipcs"), spent=spent,
                         purchased=in_unit_order(board, final.units) if isinstance(final, Bought) else {})
    if isinstance(final, Resolution):
        report.extra["bombing"] = list(final.bombings)
    if settled is not None:
        report.income, report.refunded = settled.income, settled.refunded if settled.how == "refunded" else None
        report.extra["unplaced"] = {"units": dict(settled.left), "settled": settled.how}
    elif said:
        report.extra["notes"] = list(said)
    text = header(what, state_path, orders_path, report, to_place) + "".join(f"# {line}\n" for line in said)
    if board.map.victory_cities and report.captured:  # a capture may change who holds them (Anniversary)
        report.extra["victory_cities"] = {side: len(cities) for side, cities in cities_held(board.map,
                                                                                            board.control).items()}
    wins = new_wins(board, state)
    if wins:
        report.extra["victory"] = wins
        text += "".join(f"# victory: the {won['side']} hold {len(won['cities'])} victory cities ({won['needed']} "
                        f"needed): they have won.\n" for won in wins)
    return text, data, report


def header(what: str, state_path: str, orders_path: str, report: ApplyReport, to_place: dict[str, Any]) -> str:
    """The comment lines a written state opens with: where it comes from and what the rules did on the way."""
    lines = [f"# Written by movecheck apply: {what} {orders_path} carried out on the state {state_path}."]
    if report.forced:
        lines.append("# --force: the orders are NOT legal (see movecheck check); they were applied as checked.")
    if to_place:
        lines.append("# to_place: units bought in an earlier turn, still waiting to be placed.")
    if report.ipcs is None:
        lines.append("# ipcs: the treasury is unknown (the state read has no ipcs: and is past round 1): no ipcs: "
                     "written, and purchases are not checked until one is.")
    if report.destroyed and what != "the battle results":  # a battle's are in its lines (their carrier sunk)
        if what == "the mobilization":
            lines.append(
                "# destroyed: fighters that waited at sea and found no slot on a carrier placed there (AA708):"
            )
        else:
            lines.append("# destroyed: aircraft with no landing space at the end of the noncombat move (N17), removed:")
        lines.extend(
            f"#   {gone.id or unit_phrase(1, gone.type, gone.power)} in {gone.at}" for gone in report.destroyed
        )
    for taken in report.captured:
        if taken.returned:
            lines.append(f"# {taken.at}: returned to the {taken.holder} with their capital (held by the {taken.was} "
                         "before).")
            continue
        how = f"liberated for the {taken.holder}" if taken.liberated else "captured"
        lines.append(f"# {taken.at}: {how} by the {taken.by} (held by the {taken.was} before).")
    for moved in report.transfers:
        lines.append(f"# ipcs: the {moved.to} take {moved.amount} IPCs of the {moved.source}: {moved.reason}.")
    for key, amount in report.spent.items():
        lines.append(f"# ipcs: {amount} spent on {key}.")
    return "\n".join(lines) + "\n"


def captures(board: Board) -> list[Capture]:
    """The territories taken on the board (control.take's log), for the report: each with the power that holds it
    at the end of the apply, so that one a later liberation of its power's capital returns reads as liberated."""
    found = []
    for space, by, holder, was in board.taken:
        final = board.control.get(space) or holder
        found.append(Capture(space, by, final, was, liberated=final != by, returned=space not in board.captured))
    return found


def transfers(board: Board) -> list[Transfer]:
    """The IPCs that changed hands with a capital, for the report."""
    return [Transfer(loser, taker, amount, f"their capital {capital} was taken", capital)
            for loser, taker, amount, capital in board.transfers]


def in_unit_order(board: Board, counts: dict[str, int]) -> dict[str, int]:
    """Unit counts in the map's unit order (a canonical order: the same facts, the same bytes)."""
    order = {kind: index for index, kind in enumerate(board.map.unit_types)}
    return dict(sorted(counts.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def _destroyed_aircraft(phase: Phase) -> list[Unit]:
    """The mover's aircraft with no landing space where they ended the noncombat move (N17; AA308, and under
    ``--force`` AA303/AA304): the rules destroy them.  Fighters that a carrier bought this turn can take are
    not among them (:func:`movecheck.aa.landing.aircraft.noncombat_landing` seats them first)."""
    from movecheck.aa.landing.aircraft import noncombat_landing

    facts = noncombat_landing(phase)
    units = [g.unit for g in facts.grounded] + [f for crowded in facts.crowded for f in crowded.fighters]
    return sorted(units, key=lambda u: (_natural(u.at), u.type.name, u.uid))


def _dump(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def _map_reference(ref: Any, state_path: str, output: str | None) -> Any:
    """The state's ``map:``, a relative file path made relative to where the new state is written."""

    if not isinstance(ref, str) or ref in BUILTIN_MAPS or os.path.isabs(ref):
        return ref
    target = os.path.join(os.path.dirname(state_path), ref)
    if not os.path.exists(target):
        return ref
    base = os.path.dirname(os.path.abspath(output)) if output and output != "-" else os.getcwd()
    return os.path.relpath(os.path.abspath(target), base).replace(os.sep, "/")


def next_turn(board: Board, turn: dict[str, Any], phase: str = MOBILIZE) -> dict[str, Any]:
    """The turn of the state after ``phase`` of the moving power: the next phase of the map's sequence
    (:attr:`~movecheck.aa.maps.gamemap.GameMap.sequence`: each power's five phases in turn order, or the
    Anniversary maps' steps with the Chinese phases inside the Americans' turn); the round goes up by
    one after the sequence's last phase."""
    current = turn["power"] if turn.get("power") in board.map.powers else board.power
    power, following, new_round = board.map.next_step(current, phase)
    result: dict[str, Any] = {}
    if "round" in turn:
        result["round"] = turn["round"] + 1 if new_round and isinstance(turn["round"], int) else turn["round"]
    result["power"] = power
    result["phase"] = following
    return result


def _capture_entered(phase: Phase) -> None:
    """Every empty hostile territory a land unit of the moving power entered changes hands (in file order): one
    it stopped in and each one a tank blitzed through, but not one entered only from a sea zone whose battle
    is still to be fought (taken after that battle, if some of that cargo comes through: battles apply)."""
    from movecheck.aa.turn.control import take
    from movecheck.aa.turn.raids import pending_raids

    board = phase.board
    entered: dict[str, None] = {}
    for record in phase.records:
        path = record.move.path
        if any(u.power == board.power and u.type.is_land for u in record.units) and not board.is_sea(path[0]):
            for space in path[1:]:
                if board.is_sea(space):
                    break
                entered.setdefault(space)
        if record.unload_to and record.unloaded and not phase.battle_space(record.unload_zone or record.unload_to):
            entered.setdefault(record.unload_to)
    raided = pending_raids(phase)  # a factory-only territory with a raid pending on it is taken after the raid
    for space in entered:
        if board.hostile_territory(space) and not phase.battle_space(space) and space not in raided:
            take(board, space, board.power)


def _pending_landings(phase: Phase) -> dict[int, Unit]:
    """The land units unloaded from a sea zone whose battle is still to be fought, by uid, and their transports."""
    found: dict[int, Unit] = {}
    for record in phase.records:
        if record.unload_zone and phase.battle_space(record.unload_zone):
            for unit in record.unloaded:
                ride = record.rides.get(unit.uid)
                if ride is not None and ride[1].type.is_transport:
                    found[unit.uid] = ride[1]
    return found


def _battles(phase: Phase) -> list[dict[str, Any]]:
    """Each battle space: the attacking units (those that moved in) and the defending ones, by type;
    the spaces the attackers came from (where they may retreat to) and the land units that came from
    the sea (an amphibious assault, they never retreat)."""
    from movecheck.aa.turn.raids import pending_raids

    board = phase.board
    raids = pending_raids(phase)
    found = [_raid_entry(phase, space, raids[space]) for space in sorted(raids, key=_natural)]
    raiding = {u.uid for bombers in raids.values() for u in bombers}
    spaces = {u.at for u in board.units if u.in_battle and u.power == board.power} | set(phase.attack_zones)
    for space in sorted((s for s in spaces if phase.battle_space(s)), key=_natural):
        attackers = [u for u in board.units_at(space) if u.in_battle and u.power == board.power
                     and u.uid not in raiding]
        if not attackers and space not in phase.attack_zones:
            continue  # only raiders came: the raid is its battle
        defenders = [u for u in board.enemy_units(space) if not board.changes_hands(u)]
        kind = "sea" if board.is_sea(space) else "land"
        entry: dict[str, Any] = {"at": space, "kind": kind, "attackers": _by_type(attackers),
                                 "defenders": _by_type(defenders)}
        came_from, amphibious = _entries(phase, space, exclude=raiding)
        if came_from:
            entry["from"] = came_from
        if amphibious:
            entry["amphibious"] = _by_type(amphibious)
        found.append(entry)
    return found


def _raid_entry(phase: Phase, space: str, bombers: list[Unit]) -> dict[str, Any]:
    """A raid in the battles state: the raiding bombers, the factory and what fires at them, where they came from."""
    from movecheck.aa.turn.raids import raid_defenders

    entry: dict[str, Any] = {"at": space, "kind": "raid", "attackers": _by_type(bombers),
                             "defenders": _by_type(raid_defenders(phase.board, space))}
    came_from, _landed = _entries(phase, space, only={u.uid for u in bombers})
    if came_from:
        entry["from"] = came_from
    return entry


def _entries(phase: Phase, space: str, exclude: set[int] = frozenset(),  # type: ignore[assignment]
             only: set[int] | None = None) -> tuple[list[str], list[Unit]]:
    """The spaces from which units entered ``space`` to end there, and the land units unloaded into it (of the
    units ``only`` names, when given; never of those ``exclude`` names: a battle's own attackers)."""
    came_from: set[str] = set()
    amphibious: list[Unit] = []
    for record in phase.records:
        path = record.move.path
        if path[-1] != space or len(path) < 2:
            continue
        uids = {u.uid for u in record.units}
        if (only is not None and not uids & only) or (uids and uids <= exclude):
            continue
        came_from.add(path[-2])
        if record.unload_to == space:
            amphibious.extend(u for u in record.unloaded if u.at == space)
    return sorted(came_from, key=_natural), amphibious


def _by_type(units: list[Unit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for unit in sorted(units, key=lambda u: u.type.name):
        counts[unit.type.name] = counts.get(unit.type.name, 0) + 1
    return counts


def _units(board: Board, keep_status: bool, lost: set[int] = frozenset(),  # type: ignore[assignment]
           landings: dict[int, Unit] | None = None,
           seated: set[int] = frozenset()) -> list[dict[str, Any]]:  # type: ignore[assignment]
    """The stacks of the board (less the units ``lost`` in battle), identical units grouped, in a stable order.

    ``landings``: the land units unloaded from a zone whose battle is pending, and their transports
    (``unloaded_from:``); None: as the board read them.  Cargo and fighters aboard name their vessel.
    """
    if landings is None:
        landings = {u.uid: board.by_id[u.landed_from] for u in board.units if u.landed_from in board.by_id}
    seated = _seated_fighters(board, lost) | seated  # and the fighters placed on a carrier: they sit with it
    ids = _vessel_ids(board, lost, landings, seated)
    stacks: dict[tuple[Any, ...], dict[str, Any]] = {}
    for unit in board.units:
        if unit.uid in lost:
            continue
        entry: dict[str, Any] = {"at": unit.at, "power": unit.power, "type": unit.type.name}
        if unit.id:
            entry["id"] = unit.id
        elif unit.uid in ids:
            entry["id"] = ids[unit.uid]
        if unit.damage:
            entry["damage"] = unit.damage
        if keep_status:
            moved = unit.moved + unit.spent
            if moved:
                entry["moved"] = moved
            if unit.fought:
                entry["fought"] = True
            if unit.submerged:
                entry["submerged"] = True
            if unit.type.is_transport and (unit.loaded or unit.loaded_now):
                entry["loaded"] = True
            if unit.type.is_transport and unit.unloaded_to:
                entry["unloaded"] = unit.unloaded_to if unit.unloaded_to != "?" else True
            if unit.uid in landings:
                entry["unloaded_from"] = landings[unit.uid].id or ids[landings[unit.uid].uid]
        if unit.damaged:
            entry["damaged"] = True
        if unit.aboard is not None and unit.aboard.uid not in lost and (unit.type.is_land or unit.uid in seated):
            entry["aboard"] = unit.aboard.id or ids[unit.aboard.uid]
        key = tuple(sorted((k, str(v)) for k, v in entry.items()))
        if "id" in entry or key not in stacks:
            stacks[key if "id" not in entry else (*key, ("uid", str(unit.uid)))] = entry
        else:
            stacks[key]["count"] = stacks[key].get("count", 1) + 1
    ordered = sorted(
        stacks.values(),
        key=lambda e: (_natural(e["at"]), e["power"], e["type"], e.get("id", ""), str(sorted(e.items()))),
    )
    return [_count_after_type(e) for e in ordered]


def _natural(name: str) -> tuple[Any, ...]:
    """``4 Sea Zone`` before ``39 Sea Zone``: numbers compared as numbers."""

    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name) if part)


def _count_after_type(entry: dict[str, Any]) -> dict[str, Any]:
    order = ("at", "power", "type", "count", "id", "damage", "moved", "fought", "submerged", "damaged", "loaded",
             "unloaded", "aboard", "unloaded_from")
    return {k: entry[k] for k in order if k in entry}


def _seated_fighters(board: Board, lost: set[int]) -> set[int]:
    """The fighters aboard a carrier whose ``aboard:`` the state must say: the reader seats a fighter with none
    on a carrier of its side in its zone, its own power's first, so ``aboard:`` is written where that could
    seat it elsewhere (another carrier of its side there, or a fighter of its side there not aboard)."""
    found: set[int] = set()
    for zone in {u.at for u in board.units if u.type.is_fighter and u.aboard is not None and u.uid not in lost}:
        units = [u for u in board.units_at(zone) if u.uid not in lost]
        for side in {board.map.side_of.get(u.power) for u in units if u.type.is_fighter}:
            ours = [u for u in units if board.map.side_of.get(u.power) == side]
            fighters = [u for u in ours if u.type.is_fighter]
            if sum(1 for u in ours if u.type.is_carrier) > 1 or any(f.aboard is None for f in fighters):
                found.update(f.uid for f in fighters if f.aboard is not None)
    return found


def _vessel_ids(board: Board, lost: set[int], landings: dict[int, Unit], seated: set[int]) -> dict[int, str]:
    """Ids for the vessels that carry land units or fighters whose ``aboard:`` is written (or land units
    still to land) and have none: ``<power> <type> <n>``, unique."""
    taken = {u.id for u in board.units if u.id}
    ids: dict[int, str] = {}
    counters: dict[tuple[str, str], int] = {}
    named = {v.uid for v in landings.values()} | {
        u.aboard.uid for u in board.units if u.uid in seated and u.aboard is not None
    }
    carrying = (
        u
        for u in board.units
        if not u.id
        and u.uid not in lost
        and (any(c.type.is_land and c.uid not in lost for c in u.cargo) or u.uid in named)
    )
    for vessel in sorted(carrying, key=lambda u: (u.at, u.power, u.type.name, u.uid)):
        key = (vessel.power, vessel.type.name)
        while True:
            counters[key] = counters.get(key, 0) + 1
            name = f"{vessel.power} {vessel.type.name} {counters[key]}"
            if name not in taken:
                break
        taken.add(name)
        ids[vessel.uid] = name
    return ids


__all__ = ["BATTLES", "COMBAT", "MOBILIZE", "NONCOMBAT", "PURCHASE", "applied", "captures", "header", "next_state",
           "next_turn", "transfers"]
