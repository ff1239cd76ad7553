"""``movecheck map show`` and ``movecheck map path``: questions about an aa map.

``show`` lists a map's spaces (kind, owner at start, IPC, factory, neighbours) and its
canals.  ``path`` gives the shortest paths a unit of one type may take between two
spaces, under the rules the checks use: a step enters a space on the way only where
AA101's path hint would (``movecheck.aa.checks.movement._may_pass``: land units never
through enemy units or hostile territory unless they blitz in combat move, ships
around hostile zones and through open canals only, submarines past all but
destroyers where the edition says so, no neutral while neutrals are impassable), and
the last step enters the end only where the unit may end there (its domain; not
hostile in noncombat move).  Whether a fighter can land afterwards is ``check``'s
business.

Without ``--state`` the board is the map's own setup at round 1, in combat move
unless ``--phase`` says otherwise; the moving power is ``--power``, else the power
that controls the start at the beginning, else the only power with units there, else
the first power in turn order.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from movecheck.aa.maps import BUILTIN_MAPS, builtin_map
from movecheck.aa.names import ambiguous_message
from movecheck.aa.prepare import state_board
from movecheck.document import Document
from movecheck.i18n import N_, _, ngettext
from movecheck.reading import InputError
from movecheck.suggest import close_names, did_you_mean
from movecheck.systems import has_errors, system

FIRST_PATHS = 10
"""How many of the shortest paths ``map path`` lists (the first ones in sorted order)."""


def natural(name: str) -> tuple[Any, ...]:
    """Sort key: ``2 Sea Zone`` before ``10 Sea Zone``."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part.casefold()) for part in re.split(r"(\d+)", name) if part
    )


@dataclass
class MapSource:
    """A map as data, and the name to call it by."""

    name: str
    data: dict[str, Any]


def open_map(ref: str) -> MapSource:
    """A built-in map, or a map file read as ``lint`` reads it (its errors: one line, exit 2)."""

    if ref in BUILTIN_MAPS:
        return MapSource(ref, builtin_map(ref))
    if not os.path.exists(ref):
        hint = did_you_mean(close_names(ref, BUILTIN_MAPS, n=2, cutoff=0.5))
        raise InputError(
            _("map {name} is neither a built-in map ({names}) nor a file").format(
                name=repr(ref), names=", ".join(BUILTIN_MAPS)
            )
            + hint
        )
    from movecheck.files import read

    loaded = read(ref)
    findings = list(loaded.findings)
    if loaded.usable and loaded.kind != "aa-map":
        raise InputError(f"{ref}: " + _("not an aa map file (it is {kind})").format(kind=loaded.kind))
    if loaded.usable and not has_errors(findings):
        findings += system("aa").lint_file(loaded.doc, loaded.kind or "", True)
    errors = sorted((f for f in findings if f.severity.value == "error"), key=lambda f: f.sort_key())
    if errors or not loaded.usable:
        first = errors[0] if errors else (findings[0] if findings else None)
        where = f"{first.file}:{first.line}:{first.column}: {first.code} {first.message}" if first else ref
        more = " " + _("(and {count} more)").format(count=len(errors) - 1) if len(errors) > 1 else ""
        raise InputError(where + more + _("; see 'movecheck lint {path}'").format(path=ref))
    return MapSource(str(loaded.doc.data.get("name", ref)), loaded.doc.data)


# -- show ------------------------------------------------------------------


def space_rows(source: MapSource) -> dict[str, dict[str, Any]]:
    """Every space of the map as ``show`` reports it, by name."""
    from movecheck.aa.maps.gamemap import GameMap

    data = source.data
    game_map = GameMap(data)
    factories = {game_map.resolve(u.get("at")) for u in data.get("units", []) if u.get("type") == "factory"}
    canals_of: dict[str, list[str]] = {}
    for canal in game_map.canals:
        for member in (*canal.zones, *canal.land):
            canals_of.setdefault(member, []).append(canal.name)
    rows: dict[str, dict[str, Any]] = {}
    for entry in data.get("territories", []):
        name = entry["name"]
        space = game_map.spaces[name]
        kind = "sea" if space.sea else "neutral" if space.neutral else "land"
        rows[name] = {
            "name": name,
            "kind": kind,
            "owner": None if space.sea else game_map.control.get(name),
            "ipc": None if space.sea else int(entry.get("production", 0)),
            "factory": name in factories,
            "aliases": sorted(entry.get("aliases", []), key=natural),
            "neighbours": sorted(game_map.neighbours(name), key=natural),
            "canals": sorted(canals_of.get(name, []), key=natural),
        }
    return rows


def canal_rows(source: MapSource) -> list[dict[str, Any]]:
    from movecheck.aa.maps.gamemap import GameMap

    game_map = GameMap(source.data)
    return sorted(
        (
            {"name": c.name, "sea_zones": sorted(c.zones, key=natural), "land": sorted(c.land, key=natural)}
            for c in game_map.canals
        ),
        key=lambda c: natural(c["name"]),
    )


def resolve_space(source: MapSource, name: str) -> str:
    """The space a name means (aliases, ``SZ 5``), or a one-line error with close names."""
    from movecheck.aa.maps.gamemap import GameMap

    game_map = GameMap(source.data)
    found = game_map.resolve(name)
    meanings = game_map.space_meanings(name)
    if len(meanings) > 1:
        raise InputError(
            _("{message} (map {map})").format(
                message=ambiguous_message("territory or sea zone", name, meanings), map=source.name
            )
        )
    if found is None:
        raise InputError(
            _("unknown territory or sea zone {name} on map {map}").format(name=repr(name), map=source.name)
            + did_you_mean(game_map.suggest(name))
        )
    return found


def render_show(ref: str, space: str | None, fmt: str, units: bool = False, state: str | None = None) -> str:
    """``map show``: the whole map, or one space; with ``units`` (or a ``state``) the units in each space."""
    source = open_map(ref)
    rows = space_rows(source)
    if units or state is not None:
        from movecheck.aa.maps.units import units_by_space

        found = units_by_space(board_for(source, ref, state, None, None, ""))
        for name, row in rows.items():
            row["units"] = found.get(name, [])
    if space is not None:
        row = rows[resolve_space(source, space)]
        if fmt == "json":
            return _json({"map": source.name, "space": row})
        return "\n".join(_space_block(row, rows)) + "\n"
    canals = canal_rows(source)
    ordered = [rows[name] for name in sorted(rows, key=natural)]
    powers = list(source.data.get("powers", []))
    if fmt == "json":
        return _json({
            "map": source.name,
            "title": source.data.get("title", source.name),
            "powers": powers,
            "turn_order": powers,
            "spaces": ordered,
            "canals": canals,
        })
    lines = [f"{source.name}: {source.data.get('title', source.name)}: "
             + _("{spaces} spaces, {canals} canals").format(spaces=len(ordered), canals=len(canals)),
             _("turn order: {powers}").format(powers=", ".join(powers))]
    for row in ordered:
        lines.append(f"{row['name']} ({_facts(row)}): {', '.join(row['neighbours']) or _('no neighbours')}")
        if row.get("units"):
            lines.append("  " + _("units: {units}").format(units=_units_text(row["units"])))
    if canals:
        lines.append("")
        lines.append(_("canals:"))
        lines += [f"  {_canal_line(c)}" for c in canals]
    return "\n".join(lines) + "\n"


KIND_WORDS = {"land": N_("land"), "sea": N_("sea")}
"""The kinds of space as the text output names them (the JSON keeps the data words)."""
PHASE_WORDS = {"combat_move": N_("combat move"), "noncombat_move": N_("noncombat move")}


def _facts(row: dict[str, Any]) -> str:
    if row["kind"] == "sea":
        return _("sea")
    parts = [_(KIND_WORDS.get(row["kind"], row["kind"])), row["owner"] or _("no owner"), f"IPC {row['ipc']}"]
    if row["factory"]:
        parts.append(_("factory"))
    return ", ".join(parts)


def _space_block(row: dict[str, Any], rows: dict[str, dict[str, Any]]) -> list[str]:
    lines = [row["name"], "  " + _("kind: {kind}").format(kind=_(KIND_WORDS.get(row["kind"], row["kind"])))]
    if row["kind"] != "sea":
        lines.append("  " + _("owner at start: {owner}").format(owner=row["owner"] or _("none")))
        lines.append(f"  IPC: {row['ipc']}")
        lines.append("  " + (_("factory at start: yes") if row["factory"] else _("factory at start: no")))
    if row["aliases"]:
        lines.append("  " + _("aliases: {names}").format(names=", ".join(row["aliases"])))
    lines.append("  " + _("neighbours ({count}):").format(count=len(row["neighbours"])))
    lines += [f"    {n} ({_facts(rows[n])})" for n in row["neighbours"]]
    if row["canals"]:
        lines.append("  " + _("canals: {names}").format(names=", ".join(row["canals"])))
    if "units" in row:
        lines.append("  " + _("units: {units}").format(units=_units_text(row["units"]) or _("none")))
    return lines


def space_facts(source: MapSource, space: str) -> str | None:
    """One space's block of ``map show MAP SPACE`` (``space``: its name on the map), or None when the map has none."""
    rows = space_rows(source)
    return "\n".join(_space_block(rows[space], rows)) if space in rows else None


def _units_text(stacks: list[dict[str, Any]]) -> str:
    from movecheck.aa.maps.units import units_text

    return units_text(stacks)


def _canal_line(canal: dict[str, Any]) -> str:
    return f"{canal['name']}: {' <-> '.join(canal['sea_zones'])}, " + _(
        "open to a side that holds {spaces} since its turn began"
    ).format(spaces=_(" and ").join(canal["land"]))


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# -- path ------------------------------------------------------------------


def board_for(source: MapSource, ref: str, state: str | None, phase: str | None, power: str | None, start: str) -> Any:
    """The board to search: the state's, or the map's setup at round 1."""
    from movecheck.aa.maps.gamemap import GameMap

    if state is not None:
        board = _state_board(state)
        if board.map.name != source.name:
            raise InputError(
                f"{state}: " + _("the state is on map {map}, not {other}").format(map=board.map.name, other=source.name)
            )
        if power is not None and board.map.resolve_power(power) != board.power:
            raise InputError(
                f"{state}: "
                + _("the state is at the turn of the {power}; --power cannot change it").format(power=board.power)
            )
    else:
        from movecheck.aa.setup import build_board

        game_map = GameMap(source.data)
        if power is None:
            power = _default_power(source, game_map, start)
        elif game_map.resolve_power(power) is None:
            hint = did_you_mean(game_map.suggest_power(power))
            raise InputError(
                _("unknown power {name} (powers: {powers})").format(name=repr(power), powers=", ".join(game_map.powers))
                + hint
            )
        else:
            power = game_map.resolve_power(power)
        doc = Document(path=ref, data={
            "movecheck": 1, "system": "aa", "map": source.data,
            "turn": {"round": 1, "power": power, "phase": phase or "combat_move"},
        })
        setup = build_board(doc)
        if setup.board is None:  # pragma: no cover - a map that passed lint builds a board
            raise InputError(f"{ref}: " + _("no board can be built from the map's setup"))
        board = setup.board
    if phase is not None:
        board.phase = phase
    return board


def _default_power(source: MapSource, game_map: Any, start: str) -> str:
    owner = game_map.control.get(start)
    if owner in game_map.powers:
        return str(owner)
    there = {u.get("power") for u in source.data.get("units", []) if game_map.resolve(u.get("at")) == start}
    there &= set(game_map.powers)
    if len(there) == 1:
        return str(there.pop())
    if not game_map.powers:
        raise InputError(_("map {map} names no powers").format(map=source.name))
    return str(game_map.powers[0])


def _state_board(path: str) -> Any:
    from movecheck.files import read

    return state_board(read(path), path, _("not an aa state file (it is {kind})"))


def unit_type(board: Any, name: str | None, start: str) -> Any:
    """The unit type asked for; by default infantry from land, a transport from a sea zone."""
    game_map = board.map
    if name is None:
        name = "transport" if board.is_sea(start) else "infantry"
    kind = game_map.resolve_type(name)
    if kind is None:
        hint = did_you_mean(game_map.suggest_type(name))
        raise InputError(
            _("unknown unit type {name} on map {map} (types: {types})").format(
                name=repr(name), map=game_map.name, types=", ".join(sorted(game_map.unit_types))
            ) + hint
        )
    return game_map.unit_types[kind]


def find_paths(board: Any, kind: Any, start: str, end: str) -> dict[str, Any]:
    """The shortest paths within the unit's movement, and, when there are none, ignoring it."""
    from movecheck.aa.checks.movement import _may_pass

    combat = board.phase == "combat_move"
    phase: Any = SimpleNamespace(board=board, combat=combat, options=board.options)  # what _may_pass reads of a Phase
    neutral_blocks = board.options["neutrals_impassable"]

    def passable(x: str, y: str) -> bool:
        if neutral_blocks and board.is_neutral(y):
            return False
        return _may_pass(phase, kind, x, y)

    def enter(x: str, y: str) -> bool:
        if kind.is_sea:
            if not board.is_sea(y) or not board.canal_open(x, y):
                return False
        elif (kind.is_land and board.is_sea(y)) or (neutral_blocks and board.is_neutral(y)):
            return False
        return combat or (not board.hostile(y) and not (kind.is_land and board.enemy_units(y)))

    fits = not (kind.is_land and board.is_sea(start)) and not (kind.is_sea and not board.is_sea(start))
    paths, count = board.routes(start, end, kind.movement, passable, enter, FIRST_PATHS) if fits else ([], 0)
    result: dict[str, Any] = {
        "reachable": bool(paths),
        "cost": len(paths[0]) - 1 if paths else None,
        "count": count,
        "paths": paths,
        "ignoring_movement": None,
    }
    if not paths and fits:
        far, far_count = board.routes(start, end, len(board.map.spaces), passable, enter, FIRST_PATHS)
        if far:
            result["ignoring_movement"] = {"cost": len(far[0]) - 1, "count": far_count, "paths": far}
    return result


def render_path(ref: str, start: str, end: str, unit: str | None, state: str | None, phase: str | None,
                power: str | None, fmt: str) -> str:
    """``map path``: the shortest paths, their cost, or why there is none."""
    source = open_map(ref)
    a, b = resolve_space(source, start), resolve_space(source, end)
    board = board_for(source, ref, state, phase, power, a)
    kind = unit_type(board, unit, a)
    found = find_paths(board, kind, a, b)
    head = {
        "map": source.name, "from": a, "to": b, "unit": kind.name, "movement": kind.movement,
        "power": board.power, "phase": board.phase, "state": state,
    }
    if fmt == "json":
        return _json({**head, **found})
    from movecheck.aa.wording import power_adjective, type_noun

    who = _("a {adjective} {kind} (movement {movement}), {phase}").format(
        adjective=power_adjective(board.power), kind=type_noun(kind.name), movement=kind.movement,
        phase=_(PHASE_WORDS.get(board.phase, board.phase)), power=board.power,
    )
    who += f", {state}" if state else ", " + _("the map's setup")
    lines = [f"{a} → {b}: {who}"]
    if found["paths"]:
        lines.append(_paths_line(found["cost"], found["count"]))
        lines += [f"  {' → '.join(p)}" for p in found["paths"]]
        return "\n".join(lines) + "\n"
    if (kind.is_land and board.is_sea(a)) or (kind.is_sea and not board.is_sea(a)):
        lines.append(_("no path: a {kind} does not move from {space}").format(kind=type_noun(kind.name), space=a))
        return "\n".join(lines) + "\n"
    far = found["ignoring_movement"]
    if far is None:
        lines.append(_("no path, whatever the movement"))
        return "\n".join(lines) + "\n"
    lines.append(
        _("no path within movement {movement}; ignoring movement, ").format(movement=kind.movement)
        + _paths_line(far["cost"], far["count"])
    )
    lines += [f"  {' → '.join(p)}" for p in far["paths"]]
    return "\n".join(lines) + "\n"


def _paths_line(cost: int, count: int) -> str:
    shown = " " + _("(the first {count} shown)").format(count=FIRST_PATHS) if count > FIRST_PATHS else ""
    many = ngettext("{count} shortest path", "{count} shortest paths", count).format(count=count)
    return many + ", " + _("cost {cost}").format(cost=cost) + shown + ":"
