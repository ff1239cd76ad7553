"""Build an A&A board from a state document: its map, options, control and units.

Unknown names become MC004 findings at the node that holds them, with the
closest known names; a board is built only from what resolves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from movecheck.aa.editions import DEFAULT_EDITION
from movecheck.aa.maps.files import edition_of, load_map, options_of
from movecheck.aa.maps.gamemap import GameMap
from movecheck.aa.model import Board
from movecheck.aa.names import ambiguous_message
from movecheck.aa.units import Unit
from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.fixes import replacements
from movecheck.i18n import N_, _
from movecheck.reading import _limit
from movecheck.suggest import did_you_mean as suggestion
from movecheck.systems import RuleSettings, resolve_rules, system

MAX_UNITS = _limit("MOVECHECK_MAX_UNITS", 100_000)
"""Units a state (or a map's setup) may place: ``count: 1000000000`` must not build a billion units."""


@dataclass
class Setup:
    """A board built from a state, and what went wrong on the way.

    ``map_file`` is the map file the state names (a ``Loaded``, when it is a movecheck
    file): its own findings are its, not among the state's ``findings``.
    """

    board: Board | None
    findings: list[Finding] = field(default_factory=list)
    map_file: Any = None


def build_board(state: Document, rules: RuleSettings | None = None) -> Setup:
    """A board for a state document (which has passed its schema).

    ``rules``: the edition and options to play under (default: the state's own, see
    :func:`movecheck.systems.resolve_rules`).
    """
    game_map, findings, map_file = load_map(state)
    findings = list(findings)
    if game_map is None:
        return Setup(None, findings, map_file)
    if rules is None:

        rules = resolve_rules(system("aa"), state.data)
    edition, problems = edition_of(state, game_map, rules)
    findings.extend(problems)
    if edition.unit_type_values() is not DEFAULT_EDITION.unit_type_values():
        game_map = game_map.with_unit_types(edition.unit_type_values())
    options = options_of(edition, rules, game_map)
    turn = state.get("turn", default={})
    written = turn.get("power") if isinstance(turn, dict) else None
    phase = turn.get("phase", "combat_move") if isinstance(turn, dict) else "combat_move"
    power = game_map.resolve_power(written)
    if power is None:
        findings.append(unknown_power(state, game_map, written, ("turn", "power")))
        return Setup(None, findings, map_file)
    too_many = _too_many_units(state, game_map)
    if too_many is not None:
        findings.append(too_many)
        return Setup(None, findings, map_file)
    board = Board(game_map, options, power, phase)
    findings.extend(_apply_control(state, board))
    findings.extend(_apply_captured(state, board))
    findings.extend(_apply_purchased(state, board))
    findings.extend(_apply_to_place(state, board))
    findings.extend(_apply_ipcs(state, board))
    findings.extend(_place_units(state, board))
    findings.extend(_battle_names(state, board))
    return Setup(board, findings, map_file)


def unknown_power(doc: Document, game_map: GameMap, power: Any, path: tuple[Any, ...]) -> Finding:
    """MC004 for a power the map does not have, or an abbreviation of two."""
    meanings = game_map.power_names.meanings(power)
    if len(meanings) > 1:
        return doc.finding("MC004", ambiguous_message("power", power, meanings), path)
    close = game_map.suggest_power(power, charge=doc)
    return doc.finding(
        "MC004",
        _("unknown power {name} (powers: {powers})").format(name=repr(power), powers=", ".join(game_map.powers))
        + suggestion(close),
        path,
        fixes=replacements(doc, path, close),
    )


def wrong_power(doc: Document, game_map: GameMap, power: str, message: str) -> list[Finding]:
    """MC004 for a file's ``power:`` the map does not know, MC006 (``message``, fields ``power`` and ``turn``)
    for one that is not ``power``, the power whose turn it is; nothing for a matching or missing one."""
    written = doc.get("power")
    meant = game_map.resolve_power(written) if isinstance(written, str) else None
    if isinstance(written, str) and meant is None:
        return [unknown_power(doc, game_map, written, ("power",))]
    if meant is not None and meant != power:
        return [doc.finding("MC006", message.format(power=meant, turn=power), ("power",))]
    return []


def unknown_space(doc: Document, game_map: GameMap, name: Any, path: tuple[Any, ...], key: bool = False) -> Finding:
    """MC004 for a territory or sea zone the map does not have, or an abbreviation of two."""
    meanings = game_map.space_meanings(name)
    if len(meanings) > 1:
        return doc.finding("MC004", ambiguous_message("territory or sea zone", name, meanings), path, key=key)
    close = game_map.suggest(name, charge=doc)
    message = _("unknown territory or sea zone {name}").format(name=repr(name)) + suggestion(close)
    return doc.finding("MC004", message, path, key=key, fixes=replacements(doc, path, close, key=key))


def unknown_type(doc: Document, game_map: GameMap, name: Any, path: tuple[Any, ...], key: bool = False) -> Finding:
    """MC004 for a unit type the map does not have, or an abbreviation of two."""
    meanings = game_map.type_names.meanings(name)
    if len(meanings) > 1:
        return doc.finding("MC004", ambiguous_message("unit type", name, meanings), path, key=key)
    close = game_map.suggest_type(name, charge=doc)
    message = _("unknown unit type {name}").format(name=repr(name)) + suggestion(close)
    return doc.finding("MC004", message, path, key=key, fixes=replacements(doc, path, close, key=key))


def resolved_keys(doc: Document, path: tuple[Any, ...], resolve: Callable[[Any], str | None],
                  unknown: Callable[[Any, tuple[Any, ...]], Finding], findings: list[Finding]) -> list[tuple[str, Any]]:
    """The entries of a mapping whose keys are names (powers, spaces, unit types), each key resolved like a name in
    orders (``Ger``, ``UK``, ``inf``): ``unknown`` for one that names nothing, MC002 at a key that names what an
    earlier key of the mapping named (never both read, never one silently used)."""
    written = doc.get(*path, default={})
    found: list[tuple[str, Any]] = []
    first: dict[str, Any] = {}
    for name, value in (written if isinstance(written, dict) else {}).items():
        meant = resolve(name)
        if meant is None:
            findings.append(unknown(name, (*path, name)))
        elif meant in first:
            findings.append(repeated_key(doc, (*path, name), meant, first[meant]))
        else:
            first[meant] = name
            found.append((meant, value))
    return found


def repeated_key(doc: Document, at: tuple[Any, ...], meant: str, first: Any) -> Finding:
    """MC002 at the key ``at`` (its last step): it names ``meant``, as the earlier key ``first`` of its mapping did."""
    return doc.finding("MC002", _(SAME_NAME).format(name=repr(at[-1]), meant=meant, first=repr(first)), at, key=True)


SAME_NAME = N_("the key {name} names {meant}, as the key {first} before it does: write each once")


def _apply_control(state: Document, board: Board) -> list[Finding]:
    findings: list[Finding] = []
    spaces = resolved_keys(state, ("control",), board.map.resolve,
                           lambda name, at: unknown_space(state, board.map, name, at, key=True), findings)
    for space, written in spaces:
        power = board.map.resolve_power(written)
        if power is None:
            findings.append(unknown_power(state, board.map, written, ("control", _key_of(state, ("control",), space,
                                                                                          board.map.resolve))))
            continue
        board.control[space] = power
    return findings


def _key_of(state: Document, path: tuple[Any, ...], meant: str, resolve: Callable[[Any], str | None]) -> Any:
    """The key a resolved mapping wrote ``meant`` under (its first)."""
    written = state.get(*path, default={})
    return next((k for k in (written if isinstance(written, dict) else {}) if resolve(k) == meant), meant)


def _apply_captured(state: Document, board: Board) -> list[Finding]:
    findings = []
    for index, name in enumerate(state.get("captured_this_turn", default=[]) or []):
        space = board.map.resolve(name)
        if space is None:
            findings.append(unknown_space(state, board.map, name, ("captured_this_turn", index)))
        else:
            board.captured.add(space)
    return findings


def _battle_names(state: Document, board: Board) -> list[Finding]:
    """MC004 for the names of a battles state's ``battles:`` the map does not know (space, ``from``, unit types)."""
    findings = []
    for index, entry in enumerate(state.get("battles", default=[]) or []):
        if not isinstance(entry, dict):
            continue  # the schema says so (MC003)
        at = entry.get("at")
        if isinstance(at, str) and board.map.resolve(at) is None:
            findings.append(unknown_space(state, board.map, at, ("battles", index, "at")))
        came_from = entry.get("from")
        for k, name in enumerate(came_from if isinstance(came_from, list) else []):
            if isinstance(name, str) and board.map.resolve(name) is None:
                findings.append(unknown_space(state, board.map, name, ("battles", index, "from", k)))
        for key in ("attackers", "defenders", "amphibious"):
            kinds = entry.get(key)
            for name in kinds if isinstance(kinds, dict) else {}:
                if board.map.resolve_type(name) is None:
                    findings.append(unknown_type(state, board.map, name, ("battles", index, key, name), key=True))
    return findings


def _apply_purchased(state: Document, board: Board) -> list[Finding]:
    findings: list[Finding] = []
    board.purchased = _unit_counts(state, ("purchased",), board, findings)
    return findings


def _unit_counts(state: Document, path: tuple[Any, ...], board: Board, findings: list[Finding]) -> dict[str, int]:
    """A mapping of unit types to counts (``purchased:``, a power's ``to_place:``), names resolved."""
    counts: dict[str, int] = {}
    kinds = resolved_keys(state, path, board.map.resolve_type,
                          lambda name, at: unknown_type(state, board.map, name, at, key=True), findings)
    for kind, count in kinds:
        if whole(count) is None:
            findings.append(_not_whole(state, (*path, _key_of(state, path, kind, board.map.resolve_type)), count))
        else:
            counts[kind] = count
    return counts


def _apply_to_place(state: Document, board: Board) -> list[Finding]:
    """Units bought in earlier turns and still waiting (``to_place:``), by power: keys resolved like names in orders."""
    findings: list[Finding] = []
    powers = resolved_keys(state, ("to_place",), board.map.resolve_power,
                           lambda name, at: unknown_power(state, board.map, name, at), findings)
    for power, units in powers:
        if isinstance(units, dict):
            key = _key_of(state, ("to_place",), power, board.map.resolve_power)
            counts = {k: n for k, n in _unit_counts(state, ("to_place", key), board, findings).items() if n > 0}
            if counts:
                board.to_place[power] = counts
    return findings


def _apply_ipcs(state: Document, board: Board) -> list[Finding]:
    """The treasury: the state's ``ipcs:`` (a power it leaves out has none), else in round 1 the map's
    starting treasuries (aa-turn.md, "Treasury"); else unknown (None)."""
    written = state.get("ipcs")
    if not isinstance(written, dict):
        turn = state.get("turn", default={})
        if isinstance(turn, dict) and turn.get("round") == 1 and board.map.ipcs is not None:
            board.ipcs = {power: board.map.ipcs.get(power, 0) for power in board.map.powers}
        return []
    findings: list[Finding] = []
    board.ipcs = dict.fromkeys(board.map.powers, 0)
    powers = resolved_keys(state, ("ipcs",), board.map.resolve_power,
                           lambda name, at: unknown_power(state, board.map, name, at), findings)
    for power, count in powers:
        if whole(count) is None or count < 0:
            findings.append(_not_whole(state, ("ipcs", _key_of(state, ("ipcs",), power, board.map.resolve_power)),
                                       count))
        else:
            board.ipcs[power] = count
    return findings


def _too_many_units(state: Document, game_map: GameMap) -> Finding | None:
    """MC008 when the units listed (the state's, else the map's setup) add up to more than MAX_UNITS."""
    entries = state.get("units")
    from_map = entries is None
    if from_map:
        entries = game_map.setup
    total = 0
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        total += _claimed(entry.get("count", 1) if isinstance(entry, dict) else 1)
        if total > MAX_UNITS:
            where: tuple[Any, ...] = ("map",) if from_map else ("units", index, "count")
            return state.finding(
                "MC008",
                (
                    _("the map places more than {limit} units; raise MOVECHECK_MAX_UNITS to read it")
                    if from_map
                    else _("the state places more than {limit} units; raise MOVECHECK_MAX_UNITS to read it")
                ).format(limit=MAX_UNITS),
                where,
            )
    return None


def whole(value: Any) -> int | None:
    """The value when it is a YAML integer (not a boolean, not a float such as 5.0), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _claimed(count: Any) -> int:
    """How many units a ``count:`` asks for, whatever form it has (the limit applies to all of them)."""
    if isinstance(count, bool) or not isinstance(count, (int, float)):
        return 1  # not a number at all: the schema says so, no unit is built from it
    if not count <= MAX_UNITS:  # also NaN and infinity
        return MAX_UNITS + 1
    return max(math.ceil(count), 1)


def _not_whole(doc: Document, path: tuple[Any, ...], value: Any) -> Finding:
    """MC003 for a number the engine will not guess at (the schema normally reports it first)."""
    where = "".join(f"[{p + 1}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    return doc.finding(
        "MC003", f"{where}: " + _("expected a whole number, got {value}").format(value=repr(value)), path
    )


def _place_units(state: Document, board: Board) -> list[Finding]:
    """Create the units of the state (or of the map's setup), then seat cargo and fighters."""
    findings: list[Finding] = []
    entries = state.get("units")
    from_map = entries is None
    if from_map:
        entries = board.map.setup
    pending_aboard: list[tuple[Unit, str, tuple[Any, ...]]] = []
    uid = 0
    for index, entry in enumerate(entries):
        where = ("units", index)
        space = board.map.resolve(entry.get("at"))
        kind = board.map.resolve_type(entry.get("type"))
        power = board.map.resolve_power(entry.get("power"))
        problems = []
        if space is None:
            problems.append(unknown_space(state, board.map, entry.get("at"), (*where, "at")))
        if kind is None:
            problems.append(unknown_type(state, board.map, entry.get("type"), (*where, "type")))
        if power is None:
            problems.append(unknown_power(state, board.map, entry.get("power"), (*where, "power")))
        bad = [key for key in ("count", "moved", "damage") if key in entry and whole(entry[key]) is None]
        problems += [_not_whole(state, (*where, key), entry[key]) for key in bad]
        if problems:
            if not from_map:
                findings.extend(problems)
            continue
        assert space is not None and kind is not None and power is not None  # else a problem above
        count = entry.get("count", 1)
        for k in range(count):
            uid += 1
            unit = Unit(
                uid=uid,
                type=board.map.unit_types[kind],
                power=power,
                at=space,
                id=entry.get("id"),
                moved=entry.get("moved", 0),
                fought=bool(entry.get("fought", False)),
                submerged=bool(entry.get("submerged", False)),
                damaged=entry.get("damaged") is True,
                loaded=bool(entry.get("loaded", False)),
                damage=entry.get("damage", 0),
                source=("map",) if from_map else where,
                ref=unit_ref_of(index, k, count, from_map),
            )
            unloaded = entry.get("unloaded")
            if isinstance(unloaded, str):
                unit.unloaded_to = board.map.resolve(unloaded) or unloaded
            elif unloaded is True:
                unit.unloaded_to = "?"
            unit.unloaded_before = unit.unloaded_to is not None
            board.add(unit)
            if entry.get("aboard"):
                pending_aboard.append((unit, entry["aboard"], (*where, "aboard")))
            if isinstance(entry.get("unloaded_from"), str) and not from_map:
                unit.landed_from = entry["unloaded_from"]
    for unit, vessel_id, where in pending_aboard:
        vessel = board.by_id.get(vessel_id)
        if vessel is None:
            findings.append(
                state.finding("MC004", "aboard: " + _("no unit has the id {id}").format(id=repr(vessel_id)), where)
            )
        elif vessel.at == unit.at and (vessel.type.is_transport or vessel.type.is_carrier):
            board.board_unit(unit, vessel)
    findings.extend(_landed_from(state, board))
    seat_implicit_cargo(board)
    return findings


def _landed_from(state: Document, board: Board) -> list[Finding]:
    """MC004 where ``unloaded_from:`` names no transport (the unit is then taken for one that came overland)."""
    findings = []
    said: set[tuple[Any, ...]] = set()
    for unit in board.units:
        vessel = board.by_id.get(unit.landed_from) if unit.landed_from else None
        if unit.landed_from and (vessel is None or not vessel.type.is_transport or not unit.type.is_land):
            where = (*unit.source, "unloaded_from")
            if where in said:
                pass  # another unit of the same stack
            elif vessel is None:
                findings.append(
                    state.finding(
                        "MC004",
                        "unloaded_from: " + _("no unit has the id {id}").format(id=repr(unit.landed_from)),
                        where,
                    )
                )
            else:
                findings.append(
                    state.finding(
                        "MC004",
                        "unloaded_from: "
                        + _("{id} is a {kind}, not a transport a land unit was unloaded from").format(
                            id=repr(unit.landed_from), kind=vessel.type.name
                        ),
                        where,
                    )
                )
            said.add(where)
            unit.landed_from = None
    return findings


def unit_ref_of(index: int, k: int, count: int, from_map: bool) -> str:
    """The generated id of the ``k``-th unit (0-based) of the ``index``-th entry (0-based) of ``units:``.

    ``units[3]`` for a stack of one, ``units[3]#2`` for the second unit of a bigger stack
    (1-based, as in the MC003 messages); ``map.units[3]#2`` for the map's own setup.  Stable:
    the same state gives the same ids.
    """
    name = f"{'map.' if from_map else ''}units[{index + 1}]"
    return name if count == 1 else f"{name}#{k + 1}"


def seat_implicit_cargo(board: Board) -> None:
    """Land units and fighters at sea with no ``aboard:`` ride the vessels of their zone."""
    for space in list(board._by_space):
        if not board.is_sea(space):
            continue
        units = board.units_at(space)
        for unit in list(units):
            if unit.aboard is not None:
                continue
            if unit.type.is_land:
                vessel = _vessel_with_room(board, unit, units, transport=True)
            elif unit.type.is_fighter:
                vessel = _vessel_with_room(board, unit, units, transport=False)
            else:
                continue
            if vessel is not None:
                board.board_unit(unit, vessel)


def _vessel_with_room(board: Board, unit: Unit, units: list[Unit], transport: bool) -> Unit | None:
    candidates = [
        v
        for v in units
        if (v.type.is_transport if transport else v.type.is_carrier)
        and board.map.side_of.get(v.power) == board.map.side_of.get(unit.power)
    ]
    candidates.sort(key=lambda v: (v.power != unit.power, v.uid))
    for vessel in candidates:
        if (
            transport
            and cargo_load(vessel) + unit.type.transport_cost <= vessel.type.transport_capacity
            and unit.type.transport_cost
        ):
            return vessel
        if not transport and carrier_load(vessel) + unit.type.carrier_cost <= vessel.type.carrier_capacity:
            return vessel
    return None


def cargo_load(transport: Unit) -> int:
    """Capacity a transport's cargo uses."""
    return sum(u.type.transport_cost for u in transport.cargo)


def carrier_load(carrier: Unit) -> int:
    """Slots a carrier's fighters use."""
    return sum(u.type.carrier_cost for u in carrier.cargo)
