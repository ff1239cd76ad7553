"""Scenario lint for aa maps and states: consistency the schema cannot see (AA9xx).

Each clause is a small check over a :class:`LintContext`; ``movecheck lint``
runs them after the schema, and ``movecheck check`` runs the state ones on the
state it checks against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from movecheck.aa.maps.gamemap import PHASES, GameMap
from movecheck.aa.model import Board
from movecheck.aa.units import Unit, describe
from movecheck.clauses import CATALOGUE, Violation, clause
from movecheck.document import Document
from movecheck.i18n import _
from movecheck.suggest import did_you_mean

TARGETS = ("map", "state")


@dataclass
class LintContext:
    """A map or state under lint: the document, where its map lives in it, the built map and board."""

    doc: Document
    game_map: GameMap
    map_data: dict[str, Any]
    map_prefix: tuple[Any, ...]
    board: Board | None = None


def lint_clause(
    code: str, name: str, severity: str, summary: str, seeds: tuple[str, ...] = (), *, target: str,
    example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare a lint check of an aa ``target`` (map or state): it runs on the occasion ``lint/TARGET``."""
    if target not in TARGETS:
        raise ValueError(f"{code}: lint target {target!r} is not one of {TARGETS}")
    return clause(
        code, name, severity, summary, seeds, system="aa", phase="lint", runs=[f"lint/{target}"], example=example
    )


@lint_clause(
    "AA901",
    "land-unit-at-sea",
    "error",
    "land units in a sea zone not aboard a transport",
    target="state",
    example=(
        "a state puts an infantry in a sea zone with no transport of its side there",
        "it stands aboard a transport with room",
    ),
)
def land_unit_at_sea(ctx: LintContext) -> Iterator[Violation]:
    """Land units stand at sea only as cargo of a transport of their side with room for them.

    Cargo names its transport with ``aboard:``; cargo without it is seated on
    the transports of its zone, and what does not fit is reported here.
    """
    if ctx.board is None:
        return  # a map under lint: no units
    for unit in _units(ctx):
        if unit.type.is_land and ctx.board.is_sea(unit.at) and unit.aboard is None:
            yield Violation(
                _("{unit} ({kind}) in {space} is not aboard a transport with room").format(
                    unit=unit.label(), kind=unit.type.name, space=unit.at
                ),
                unit.source,
            )


@lint_clause(
    "AA902",
    "cargo-over-capacity",
    "error",
    "a transport's or carrier's cargo exceeds its capacity",
    target="state",
    example=("a transport carries three infantry", "it carries two"),
)
def cargo_over_capacity(ctx: LintContext) -> Iterator[Violation]:
    """A transport's cargo fits its capacity (2 infantry, or 1 infantry and 1 other); nothing else rides a transport.

    A carrier's fighters fit its landing slots (2).
    """
    for vessel in _units(ctx):
        if vessel.type.is_transport:
            used = sum(u.type.transport_cost for u in vessel.cargo)
            bad = [u for u in vessel.cargo if not u.type.transport_cost]
            if used > vessel.type.transport_capacity or bad:
                yield Violation(
                    _("{unit} in {space} carries {cargo}: over its capacity").format(
                        unit=vessel.label(), space=vessel.at, cargo=describe(vessel.cargo)
                    ),
                    vessel.source,
                )
        elif vessel.type.is_carrier:
            fighters = [u for u in vessel.cargo if u.type.is_fighter]  # other aircraft aboard: AA903
            if sum(u.type.carrier_cost for u in fighters) > vessel.type.carrier_capacity:
                yield Violation(
                    _("{unit} in {space} carries {cargo}: over its {slots} landing slots").format(
                        unit=vessel.label(),
                        space=vessel.at,
                        cargo=describe(fighters),
                        slots=vessel.type.carrier_capacity,
                    ),
                    vessel.source,
                )


@lint_clause(
    "AA903",
    "aboard-elsewhere",
    "error",
    "`aboard:` names a unit that is not a transport or carrier in the same space",
    target="state",
    example=("``aboard: T1`` names a transport in another zone", "it names a transport in the unit's own zone"),
)
def aboard_elsewhere(ctx: LintContext) -> Iterator[Violation]:
    """``aboard:`` names a transport (land units) or carrier (fighters) standing in the same space."""
    if ctx.board is None:
        return  # a map under lint: no units
    for unit in _units(ctx):
        entry = ctx.doc.get(*unit.source)
        target_id = entry.get("aboard") if isinstance(entry, dict) else None
        vessel = ctx.board.by_id.get(target_id) if target_id else None
        if vessel is None:
            continue
        if vessel.at != unit.at:
            yield Violation(
                _("{unit} is in {space} but aboard {vessel}, which is in {other}").format(
                    unit=unit.label(), space=unit.at, vessel=target_id, other=vessel.at
                ),
                (*unit.source, "aboard"),
            )
        elif not (vessel.type.is_transport and unit.type.is_land) and not (
            vessel.type.is_carrier and unit.type.is_fighter
        ):
            yield Violation(
                _("{unit} ({kind}) cannot be aboard {vessel}, a {vessel_kind}").format(
                    unit=unit.label(), kind=unit.type.name, vessel=target_id, vessel_kind=vessel.type.name
                ),
                (*unit.source, "aboard"),
            )


@lint_clause("AA904", "duplicate-unit-id", "error", "two units share an id", target="state",
             example=("two units have ``id: T1``",
                      "each id is used once"))
def duplicate_id(ctx: LintContext) -> Iterator[Violation]:
    """Unit ids are unique: orders name units by id."""
    seen: dict[str, Any] = {}
    for index, entry in enumerate(ctx.doc.get("units", default=[]) or []):
        unit_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(unit_id, str):
            continue
        if unit_id in seen:
            yield Violation(
                _("id {id} is already used by unit {index}").format(id=repr(unit_id), index=seen[unit_id] + 1),
                ("units", index, "id"),
            )
        else:
            seen[unit_id] = index


@lint_clause(
    "AA905",
    "fighters-over-slots",
    "warning",
    "fighters at sea exceed the slots of the friendly carriers there",
    target="state",
    example=("three fighters that did not move stand at sea beside one carrier", "two fighters, on its two slots"),
)
def fighters_over_slots(ctx: LintContext) -> Iterator[Violation]:
    """Fighters at sea fit the slots of their side's carriers in the zone.

    A warning, not an error: they will be destroyed unless a carrier comes.
    Fighters that moved this turn (``moved:`` above 0) are in flight and still
    to land, so they are not counted; nor, in a mobilization state, the moving
    power's fighters while it has carriers bought to place (AA708 settles them).
    """
    board = ctx.board
    waiting = board is not None and board.phase == "mobilize" and any(
        board.map.unit_types[k].is_carrier for k, n in board.purchased.items() if n)
    if ctx.board is None:
        return  # a map under lint: no units
    for unit in _units(ctx):
        if waiting and unit.power == board.power:  # type: ignore[union-attr]
            continue
        if unit.type.is_fighter and ctx.board.is_sea(unit.at) and unit.aboard is None and not unit.moved:
            yield Violation(
                _("{unit} in {space} has no free carrier slot there").format(unit=unit.label(), space=unit.at),
                unit.source,
            )


@lint_clause("AA906", "unit-in-neutral", "error", "units stand in a neutral territory", target="state",
             example=("a unit stands in a neutral territory",
                      "it stands in a territory of a power"))
def unit_in_neutral(ctx: LintContext) -> Iterator[Violation]:
    """No unit stands in a neutral territory: none may enter one.

    Governed by the option ``neutrals_impassable``: where neutrals may be entered
    (the option off), a unit may stand in one.
    """
    if ctx.board is None or not ctx.board.options["neutrals_impassable"]:
        return
    for unit in _units(ctx):
        if ctx.board.is_neutral(unit.at):
            yield Violation(
                _("{unit} stands in {space}, a neutral territory").format(unit=unit.label(), space=unit.at),
                (*unit.source, "at"),
            )


@lint_clause(
    "AA907",
    "connection-unknown-space",
    "error",
    "a connection names a space the map does not have",
    target="map",
    example=("a connection names ``Germny``", "it names ``Germany``, a space of the map"),
)
def connection_unknown_space(ctx: LintContext) -> Iterator[Violation]:
    """Both ends of every connection are territories or sea zones of the map."""
    for index, name in ctx.game_map.bad_connections:
        close = ctx.game_map.suggest(name)
        pair = ctx.doc.get(*ctx.map_prefix, "connections", index)
        at = pair.index(name) if isinstance(pair, list) and name in pair else None
        yield Violation(
            _("connection {index} names {name}, which is not a space of the map").format(
                index=index + 1, name=repr(name)
            )
            + did_you_mean(close),
            (*ctx.map_prefix, "connections", index, *([at] if at is not None else [])),
            replace_with=tuple(close),
        )


@lint_clause(
    "AA908",
    "canal-not-adjacent",
    "error",
    "a canal's zones are unknown, not sea zones, or not connected",
    target="map",
    example=("a canal joins two sea zones the map does not connect", "its zones are sea zones the map connects"),
)
def canal_not_adjacent(ctx: LintContext) -> Iterator[Violation]:
    """A canal joins two sea zones that the map connects, and its land territories exist."""
    game_map = ctx.game_map
    for index, canal in enumerate(game_map.canals):
        where = (*ctx.map_prefix, "canals", index)
        a, b = (game_map.resolve(z) for z in canal.zones)
        if a is None or b is None:
            yield Violation(
                _("{canal} names a sea zone the map does not have").format(canal=canal.name), (*where, "sea_zones")
            )
        elif not (game_map.is_sea(a) and game_map.is_sea(b)):
            yield Violation(
                _("{canal} joins {a} and {b}, which are not both sea zones").format(canal=canal.name, a=a, b=b),
                (*where, "sea_zones"),
            )
        elif not game_map.adjacent(a, b):
            yield Violation(
                _("{canal} joins {a} and {b}, which the map does not connect").format(canal=canal.name, a=a, b=b),
                (*where, "sea_zones"),
            )
        for k, name in enumerate(canal.land):
            if game_map.resolve(name) is None:
                yield Violation(
                    _("{canal} needs {name}, which is not a territory of the map").format(
                        canal=canal.name, name=repr(name)
                    ),
                    (*where, "land", k),
                )


@lint_clause("AA909", "ship-on-land", "error", "a ship stands in a land territory", target="state",
             example=("a battleship stands in Germany",
                      "it stands in a sea zone"))
def ship_on_land(ctx: LintContext) -> Iterator[Violation]:
    """Ships stand in sea zones only."""
    if ctx.board is None:
        return  # a map under lint: no units
    for unit in _units(ctx):
        if unit.type.is_sea and not ctx.board.is_sea(unit.at):
            yield Violation(
                _("{unit} ({kind}) stands in {space}, a land territory").format(
                    unit=unit.label(), kind=unit.type.name, space=unit.at
                ),
                (*unit.source, "at"),
            )


@lint_clause(
    "AA910",
    "sides-inconsistent",
    "error",
    "sides and powers do not match, or control names a sea zone",
    target="map",
    example=("a power is listed in two sides", "each power belongs to exactly one side"),
)
def sides_inconsistent(ctx: LintContext) -> Iterator[Violation]:
    """Every power belongs to exactly one side, sides list only powers, the starting treasuries (``ipcs:``)
    name only powers (as players write them: ``Ger``), each once, and only land is controlled."""
    game_map = ctx.game_map
    sides = ctx.map_data.get("sides", {}) or {}
    for side, members in sides.items():
        for k, power in enumerate(members):
            if power not in game_map.powers:
                yield Violation(
                    _("side {side} lists {power}, which is not one of the map's powers").format(
                        side=side, power=repr(power)
                    ),
                    (*ctx.map_prefix, "sides", side, k),
                )
    listed = [p for members in sides.values() for p in members]
    for index, power in enumerate(game_map.powers):
        if listed.count(power) != 1:
            yield Violation(
                _("power {power} belongs to {count} sides; it must belong to exactly one").format(
                    power=power, count=listed.count(power)
                ),
                (*ctx.map_prefix, "powers", index),
            )
    yield from _treasury_keys(ctx)
    for name, owner in (ctx.map_data.get("control", {}) or {}).items():
        space = game_map.resolve(name)
        where = (*ctx.map_prefix, "control", name)
        if space is None:
            yield Violation(
                _("control names {name}, which is not a territory of the map").format(name=repr(name)), where
            )
        elif game_map.is_sea(space):
            yield Violation(
                _("control names {space}, a sea zone: only land territories are controlled").format(space=space), where
            )
        elif owner not in game_map.powers:
            yield Violation(
                _("control gives {space} to {owner}, which is not one of the map's powers").format(
                    space=space, owner=repr(owner)
                ),
                where,
            )


def _treasury_keys(ctx: LintContext) -> Iterator[Violation]:
    """The keys of the map's ``ipcs:`` name its powers (as players write them), each power once."""
    written = ctx.map_data.get("ipcs")
    named: dict[str, Any] = {}
    for name in written if isinstance(written, dict) else {}:
        power = ctx.game_map.resolve_power(name)
        where = (*ctx.map_prefix, "ipcs", name)
        if power is None:
            yield Violation(_("ipcs names {name}, which is not one of the map's powers").format(name=repr(name)),
                            where)
        elif power in named:
            yield Violation(_("ipcs names the {power} twice ({first} and {name}): write each power once").format(
                power=power, first=repr(named[power]), name=repr(name)), where)
        else:
            named[power] = name


@lint_clause(
    "AA911",
    "submerged-not-submarine",
    "error",
    "a unit that is not a submarine is marked `submerged: true`",
    target="state",
    example=(
        "``{at: 7 Sea Zone, power: British, type: destroyer, submerged: true}``",
        "``{at: 7 Sea Zone, power: British, type: submarine, submerged: true}``",
    ),
)
def submerged_not_submarine(ctx: LintContext) -> Iterator[Violation]:
    """Only submarines submerge (Revised: a submarine may submerge instead of fighting on).

    A submerged submarine is out of play for the rest of the turn: it makes no
    sea zone hostile, blocks no movement, loading or unloading, and makes no
    battle.  Any other unit marked ``submerged:`` would vanish the same way, so
    the state is wrong.
    """
    for unit in _units(ctx):
        if unit.submerged and not unit.type.submarine:
            yield Violation(_("{unit} ({kind}) in {space} is marked submerged; only submarines submerge").format(
                                unit=unit.label(), kind=unit.type.name, space=unit.at),
                            (*unit.source, "submerged") if unit.source != ("map",) else unit.source)


@lint_clause(
    "AA912",
    "treasury-unknown",
    "warning",
    "a purchase state past round 1 without ipcs: has an unknown treasury: its purchase is not checked",
    target="state",
    example=(
        "a round-2 state with no ``ipcs:``",
        "the same state with ``ipcs: {Germans: 40, ...}`` (or a round-1 state, which takes the map's)",
    ),
)
def treasury_unknown(ctx: LintContext) -> Iterator[Violation]:
    """A state carries each power's unspent IPCs (``ipcs:``); a round-1 state without it takes the map's
    starting treasuries.  Past round 1 (or on a map that gives none) the treasuries are unknown: a
    purchase against the state is not checked (never legal), and ``apply`` of any phase says so in its
    header.  The warning is given on a state at its purchase phase, the one whose check the unknown
    treasury stops (docs/decisions.md, issue 35).
    """
    if ctx.board is None or ctx.board.ipcs is not None or ctx.board.phase != "purchase":
        return
    turn = ctx.doc.get("turn", default={})
    round_ = turn.get("round") if isinstance(turn, dict) else None
    if round_ == 1:
        message = _("the state writes no ipcs and the map gives no starting treasuries; the treasuries are unknown, "
                    "and purchases against it are not checked (write ipcs:)")
    else:
        message = _("the state is at round {round} and writes no ipcs; the treasuries are unknown, and purchases "
                    "against it are not checked (write ipcs:; only a round-1 state takes the map's starting "
                    "treasuries)").format(
            round=round_ if round_ is not None else "?")
    yield Violation(message, ("turn",) if isinstance(turn, dict) else ())


def _units(ctx: LintContext) -> list[Unit]:
    return sorted(ctx.board.units, key=lambda u: u.uid) if ctx.board is not None else []


def run_lint(ctx: LintContext, target: str) -> list[tuple[str, Violation]]:
    """The violations of the lint clauses for a map or a state, with their codes."""
    return [(v.code or c.code, v) for c in CATALOGUE.running("aa", f"lint/{target}") for v in c.run(ctx)]


# -- the facts an Anniversary map adds (aa-anniversary.md) ---------------------------------------------------


@lint_clause(
    "AA913",
    "edition-facts-unknown",
    "error",
    "a map's sequence, national objectives or player rules name a power or space the map does not have",
    target="map",
    example=("``sequence: [{power: Martians, phase: purchase}, ...]``", "every step names one of the map's powers"),
)
def edition_facts_unknown(ctx: LintContext) -> Iterator[Violation]:
    """Each step of ``sequence`` is a phase of one of the map's powers, and each power has its five phases once
    each, in order; each objective and each player's rules name the map's powers and spaces."""
    yield from _sequence_steps(ctx)
    for k, objective in enumerate(ctx.map_data.get("national_objectives") or []):
        where = (*ctx.map_prefix, "national_objectives", k)
        yield from _named_power(ctx, objective.get("power"), (*where, "power"))
        for c, condition in enumerate(objective.get("conditions") or []):
            for t, name in enumerate(condition.get("territories") or []):
                yield from _named_space(ctx, name, (*where, "conditions", c, "territories", t))
    for power, rules in (ctx.map_data.get("player_rules") or {}).items():
        where = (*ctx.map_prefix, "player_rules", power)
        yield from _named_power(ctx, power, where)
        for t, name in enumerate(rules.get("move_only_in") or []):
            yield from _named_space(ctx, name, (*where, "move_only_in", t))


@lint_clause(
    "AA914",
    "victory-out-of-reach",
    "warning",
    "the victory setting in force needs more victory cities than the map lists: no side can win",
    target="state",
    example=("``options: {victory: total_victory}`` on a map with no victory cities",
             "``options: {victory: honorable_surrender}`` on ``aa-anniversary-1941``, which lists 18"),
)
def victory_out_of_reach(ctx: LintContext) -> Iterator[Violation]:
    """The victory setting in force (the option ``victory``: a TripleA setting a configuration or the state
    chooses, or the map's own ``victory: cities``) can be reached: the map lists at least the victory cities it
    needs.  A warning: the game is still played, but no apply or summary will ever say a side has won.
    """
    if ctx.board is None:
        return
    from movecheck.aa.turn.victory import SETTINGS

    chosen = str(ctx.board.options["victory"])
    if chosen in SETTINGS:
        setting, needed = chosen, SETTINGS[chosen][1]
    else:
        cities = ctx.game_map.victory.get("cities")
        if not isinstance(cities, int) or isinstance(cities, bool):
            return
        setting, needed = "map", cities
    total = len(ctx.game_map.victory_cities)
    if total >= needed:
        return
    options = ctx.doc.get("options", default={})
    where = ("options", "victory") if isinstance(options, dict) and "victory" in options else ("map",)
    yield Violation(_("the victory setting {setting} needs {needed} victory cities and the map lists {total}: no "
                      "side can win").format(setting=setting, needed=needed, total=total), where)


def _sequence_steps(ctx: LintContext) -> Iterator[Violation]:
    steps = ctx.map_data.get("sequence")
    if not isinstance(steps, list):
        return
    for k, step in enumerate(steps):
        yield from _named_power(ctx, step.get("power"), (*ctx.map_prefix, "sequence", k, "power"))
    for power in ctx.game_map.powers:
        own = [s.get("phase") for s in steps if s.get("power") == power]
        if own != list(PHASES):
            yield Violation(_("the sequence gives the {power} the phases {phases}; each power has {expected}, once "
                              "each and in that order").format(power=power, phases=", ".join(map(str, own)) or "none",
                                                               expected=", ".join(PHASES)),
                            (*ctx.map_prefix, "sequence"))


def _named_power(ctx: LintContext, name: Any, where: tuple[Any, ...]) -> Iterator[Violation]:
    if name not in ctx.game_map.powers:
        yield Violation(_("{name} is not one of the map's powers").format(name=repr(name)), where)


def _named_space(ctx: LintContext, name: Any, where: tuple[Any, ...]) -> Iterator[Violation]:
    if ctx.game_map.resolve(name) is None:
        yield Violation(_("{name} is not a space of the map").format(name=repr(name)), where)
