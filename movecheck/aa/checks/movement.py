"""Movement along the graph, for both phases: adjacency, units, movement points, domains, neutrals, canals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause
from movecheck.aa.moves import land_route, others_at
from movecheck.aa.units import describe
from movecheck.aa.wording import power_adjective, type_noun, unit_phrase
from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext

if TYPE_CHECKING:
    from movecheck.aa.moves import Move, Short
    from movecheck.aa.phase import Phase
    from movecheck.aa.units import UnitType


@aa_clause(
    "AA101",
    "path-not-adjacent",
    "error",
    "consecutive spaces of a path must border each other "
    "(a canal's zones are a connection; whether it is open is AA109)",
    ["C10"],
    phase="both",
    example=(
        "``path: [Germany, Ukraine S.S.R.]`` (Poland lies between)",
        "``path: [Germany, Poland, Ukraine S.S.R.]``",
    ),
)
def path_not_adjacent(move: Move, phase: Phase) -> Iterator[Violation]:
    """Consecutive spaces of a path must border each other.

    A canal's two sea zones are a connection of the map; whether the canal is
    open is AA109's business, never this clause's.  When a path between the
    two spaces exists that the moving units could take with the movement they
    have left, under the rules the other clauses apply (neutrals, hostile
    spaces they must stop in, blitzes, canals), the finding names the shortest
    one: ``Germany does not border Ukraine S.S.R.; Germany → Poland →
    Ukraine S.S.R. is 2 steps``.
    """
    for k in range(1, len(move.path)):
        a, b = move.path[k - 1], move.path[k]
        if not phase.board.map.adjacent(a, b):
            found = _detour(move, phase, k)
            hint = _("; {path} is {count} steps").format(path=" → ".join(found), count=len(found) - 1) if found else ""
            yield Violation(_("{a} does not border {b}").format(a=a, b=b) + hint, move.step(k))


def _detour(move: Move, phase: Phase, k: int) -> list[str] | None:
    """A path the move's units could take from ``path[k-1]`` to ``path[k]`` within their movement, or None."""
    board = phase.board
    a, b = move.path[k - 1], move.path[k]
    movers = [u for u in move.units if u not in move.riders]
    if not movers:
        return None
    kinds = {u.type.name: u.type for u in movers}.values()
    if any(t.is_land for t in kinds) and (board.is_sea(a) or board.is_sea(b)):
        return None  # a load or an unload: the transport's zone is not a detour
    budget = min(u.left for u in movers) - max(phase.movement_needed(move, u) for u in movers) + 1
    if budget < 2:
        return None
    neutral_blocks = phase.options["neutrals_impassable"]

    def passable(x: str, y: str) -> bool:
        if neutral_blocks and board.is_neutral(y):
            return False
        return all(_may_pass(phase, t, x, y) for t in kinds)

    return board.route(a, b, budget, passable)


def _may_pass(phase: Phase, kind: UnitType, x: str, y: str) -> bool:
    """A unit of this type may go from ``x`` through ``y`` on its way (AA105, AA109, AA201, AA202, AA204, AA302)."""
    board = phase.board
    if kind.is_air:
        return True
    if kind.is_land:
        if board.is_sea(y):
            return False
        if board.enemy_units(y):
            return False
        return not board.hostile_territory(y) or (phase.combat and kind.blitz)
    if not board.is_sea(y) or not board.canal_open(x, y):
        return False
    if kind.submarine:
        return not (phase.options["destroyer_stops_subs"] and board.enemy_destroyer(y))
    return not board.hostile_zone(y)


@aa_clause("AA102", "units-not-present", "error",
           "the named units are not at path[0] (after earlier moves)", [], phase="both",
           example=("an order moves 2 tanks from Germany after an earlier order took them away",
                    "it names units that stand at the path's first space"))
def units_not_present(move: Move, phase: Phase) -> Iterator[Violation]:
    """The units an order names must stand at the first space of its path.

    Checked against the board as the earlier orders of the file left it: a
    tank moved away by order 2 is not there for order 5.  Units named by count
    of which too few stand there are this clause's when no other power has
    such units there either (else AA103's: they are there, but not the mover's).
    """
    for unit, node in move.untaken:
        if unit.at != move.start:
            message = _("{unit} is in {space}, not in {start}")
            yield Violation(message.format(unit=unit.id, space=unit.at, start=move.start), node)
    for short in move.short:
        if not others_at(phase.board, move.start, short.kind):
            yield Violation(_ordered(move, short, phase.board.power), short.where)


@aa_clause("AA103", "not-own-units", "error",
           "only the moving power's units move; allied cargo/fighters ride along", ["C7"], phase="both",
           example=("on the Germans' turn, an order moves a Japanese fighter",
                    "the fighter moves on the Japanese turn (aboard a German carrier it rides along)"))
def not_own_units(move: Move, phase: Phase) -> Iterator[Violation]:
    """Only the moving power's units move.

    Allied units share spaces, holds and decks (C7), but they move on their
    owner's turn; allied cargo and allied fighters aboard a moving transport or
    carrier simply ride along.  Units named by count of which too few are the
    mover's are this clause's when other powers' units of the type stand there.
    """
    power = phase.board.power
    for unit, node in move.untaken:
        if unit.at == move.start and unit.power != power:
            message = _("{unit} belongs to the {power}; only {adjective} units move now")
            yield Violation(
                message.format(unit=unit.id, power=unit.power, adjective=power_adjective(power), mover=power), node
            )
    for short in move.short:
        others = others_at(phase.board, move.start, short.kind)
        if others:
            owners = ", ".join(sorted({u.power for u in others}))
            other = ngettext(
                "{ordered}; the other {kind} there belongs to the {owners} and moves on their own turn",
                "{ordered}; the other {kind} there belong to the {owners} and move on their own turn",
                len(others),
            )
            ordered = _ordered(move, short, power)
            yield Violation(other.format(ordered=ordered, kind=type_noun(short.kind, len(others)), owners=owners),
                            short.where)


def _ordered(move: Move, short: Short, power: str) -> str:
    """``2 tanks ordered from Germany, but only 1 German tank there``."""
    have = unit_phrase(short.found, short.kind, power)
    if short.found:
        have = _("only {units}").format(units=have)
    return _("{units} ordered from {space}, but {have} there").format(
        units=unit_phrase(short.count, short.kind), space=move.start, have=have
    )


@aa_clause("AA104", "movement-exceeded", "error",
           "path cost exceeds movement left (movement − moved); factories never move", ["C10"], phase="both",  # noqa: RUF001
           example=("an infantry (movement 1) moves two spaces",
                    "it moves one space"))
def movement_exceeded(move: Move, phase: Phase) -> Iterator[Violation]:
    """A path may not cost more than the movement the units have left.

    Cost is one point per step, whatever the space; a land unit's load step
    costs 1 and its voyage and unload cost nothing.  Movement left is the
    type's movement minus what the unit spent earlier this turn.  Factories
    have no movement and never move.
    """
    for group in move.groups():
        unit = group[0]
        if not phase.combat and not unit.type.is_air and all(u.moved or u.fought for u in group):
            continue  # may not move at all in noncombat: AA107 (or AA307) says so
        if all(u.type.is_land and u.unloaded_now for u in group):
            continue  # unloaded earlier this phase: its move is over, AA403 says so
        need = phase.movement_needed(move, unit)
        worst = min(u.left for u in group)
        if unit.type.movement == 0 and need > 0:
            yield Violation(
                _("{units} cannot move: a {kind} never moves").format(
                    units=describe(group), kind=type_noun(unit.type.name)
                ),
                move.units_node(unit),
            )
        elif need > worst:
            stop = max(1, min(len(move.path) - 1, worst + 1))
            yield Violation(
                _(
                    "{units} needs {need} movement for this path but has {left} left "
                    "(movement {movement}, {spent} already spent)"
                ).format(
                    units=describe(group),
                    need=need,
                    left=max(worst, 0),
                    movement=unit.type.movement,
                    spent=unit.type.movement - worst,
                ),
                move.step(stop),
            )


@aa_clause("AA105", "wrong-domain", "error",
           "land units at sea only aboard a transport with room; ships never on land; bombers never land at sea",
           ["N10"], phase="both",
           example=("a battleship's path enters a land territory",
                    "its path stays in sea zones"))
def wrong_domain(move: Move, phase: Phase) -> Iterator[Violation]:
    """Units stay in their element.

    Land units enter a sea zone only to board a transport there (and then
    travel with it; they never move from zone to zone on their own); ships
    never enter land; bombers never end the noncombat move at sea (N10:
    only fighters land at sea, on carriers) — decided where the bomber's
    journey ends, after the last move (AA303's check words it, at the order
    that took the bomber there).
    """
    board = phase.board
    for group in move.groups():
        unit = group[0]
        if unit.type.is_sea:
            for k, space in enumerate(move.path[1:], start=1):
                if not board.is_sea(space):
                    yield Violation(
                        _("{units} cannot enter {space}: ships stay at sea").format(units=describe(group), space=space),
                        move.step(k),
                    )
                    break
        elif unit.type.is_land and any(not u.unloaded_now for u in group):
            group = [u for u in group if not u.unloaded_now]  # the others' move is over: AA403's
            route = land_route(board, move.path)
            if route.problem == "at_sea":
                yield Violation(
                    _("{units} cannot travel by sea on their own: cargo moves only with its transport "
                      "(load in one zone, then move the transport)").format(units=describe(group)),
                    move.step(route.bad_step or 1),
                )
            elif route.load_at is not None and phase.named_transport_problem(move, move.path[route.load_at]):
                yield Violation(
                    _("{units} cannot board in {space}: {problem}").format(
                        units=describe(group), space=move.path[route.load_at],
                        problem=phase.named_transport_problem(move, move.path[route.load_at]),
                    ),
                    (*move.where, "transport"),
                )
            elif route.load_at is not None and not phase.transport_in(move.path[route.load_at]):
                yield Violation(
                    _("{units} cannot enter {space}: no transport of your side there to board").format(
                        units=describe(group), space=move.path[route.load_at]
                    ),
                    move.step(route.load_at),
                )


@aa_clause("AA106", "neutral", "error",
           "no unit enters, crosses or overflies a neutral/impassable territory", ["C6"], phase="both",
           example=("a fighter's path crosses a neutral territory",
                    "it flies round the neutral territory"))
def neutral(move: Move, phase: Phase) -> Iterator[Violation]:
    """No unit enters or passes through a neutral territory, aircraft included (C6).

    Governed by the option ``neutrals_impassable`` (on in aa1942).
    """
    if not phase.options["neutrals_impassable"]:
        return
    for k, space in enumerate(move.path[1:], start=1):
        if phase.board.is_neutral(space):
            yield Violation(
                _("{units} cannot enter {space}: neutral territories are impassable").format(
                    units=move.label(), space=space
                ),
                move.step(k),
            )
            return


@aa_clause("AA108", "aa-gun-combat-move", "error",
           "AA guns move only in noncombat move", ["N7"], phase="combat",
           example=("an AA gun moves in the combat move",
                    "it moves in the noncombat move"))
def aa_gun_combat_move(move: Move, phase: Phase) -> Iterator[Violation]:
    """AA guns move only in the noncombat move (N7).

    Governed by the option ``aa_guns_move_in_combat`` (off in aa1942).
    """
    if phase.options["aa_guns_move_in_combat"]:
        return
    guns = [u for u in move.units if u.type.is_aa_gun]
    if guns:
        yield Violation(
            _("{units} cannot move in combat move: AA guns move only in noncombat move").format(units=describe(guns)),
            move.units_node(guns[0]),
        )


@aa_clause(
    "AA109",
    "canal-closed",
    "error",
    "a canal is used only if its land territories were friendly since the turn began "
    "(the only code for a closed canal)",
    [],
    phase="both",
    example=(
        "a ship passes a canal whose land territory the enemy held when the turn began",
        "it passes once its side has held them since the turn began",
    ),
)
def canal_closed(move: Move, phase: Phase) -> Iterator[Violation]:
    """Ships pass a canal only when its land territories were friendly since the turn began.

    A territory captured this turn does not open its canal.  A closed canal
    gives this finding alone, never AA101.
    """
    board = phase.board
    if not move.of_domain("sea"):
        return
    for k in range(1, len(move.path)):
        a, b = move.path[k - 1], move.path[k]
        canal = board.map.canal_between(a, b)
        if canal is not None and board.map.adjacent(a, b) and not board.canal_open(a, b):
            held = [t for t in canal.land if not board.friendly_at_start(t)]
            yield Violation(
                ngettext(
                    "{canal} is closed to {units}: {spaces} was not friendly at the start of the turn",
                    "{canal} is closed to {units}: {spaces} were not friendly at the start of the turn",
                    len(held),
                ).format(canal=canal.name, units=move.label(move.of_domain("sea")), spaces=", ".join(held)),
                move.step(k),
            )
