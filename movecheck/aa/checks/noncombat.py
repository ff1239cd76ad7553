"""Noncombat-move clauses: who may still move, and where to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause
from movecheck.aa.moves import land_route
from movecheck.aa.units import Unit, describe
from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext

if TYPE_CHECKING:
    from movecheck.aa.moves import Move
    from movecheck.aa.phase import Phase


@aa_clause("AA107", "moved-in-combat", "error",
           "a unit that moved in combat move or fought this turn may not move (aircraft may, to land, with the "
           "movement they have left)", ["N2"], phase="noncombat",
           example=("in noncombat move, a tank that attacked in the combat move moves again",
                    "it stays (a fighter that fought flies on, to land)"))
def moved_in_combat(move: Move, phase: Phase) -> Iterator[Violation]:
    """Units that moved in the combat move or fought this turn stay put (N2).

    Aircraft are the exception: they fly on to land with the movement they
    have left.  Transports that acted in combat are AA307's business.
    """
    stuck = [
        u for u in move.units
        if not u.type.is_air and not u.type.is_transport and (u.moved or u.fought) and u not in move.riders
    ]
    if stuck:
        if all(u.fought and not u.moved for u in stuck):
            text = _("{units} fought this turn and may not move now")
        else:
            text = _("{units} moved in combat move or fought this turn and may not move now")
        yield Violation(text.format(units=describe(stuck)), move.units_node(stuck[0]))


@aa_clause(
    "AA301",
    "ncm-into-hostile",
    "error",
    "land units enter only friendly territories, never a hostile one even if empty; ships (not subs) never enter "
    "a hostile zone",
    ["N6", "N19"],
    phase="noncombat",
    scope="end",
    example=("in noncombat move, an infantry enters an empty enemy territory", "it moves to a friendly territory"),
)
def ncm_into_hostile(phase: Phase) -> Iterator[Violation]:
    """In noncombat move, land units end only in friendly territory and ships only in non-hostile zones.

    A hostile territory may not be entered even when empty (N6); territories
    captured this turn are friendly now.  Ships may not enter a hostile zone
    (N19); submarines may end there when ``subs_may_end_ncm_in_hostile`` is on.
    Decided where each unit's journey ends, after the last move, at the order
    that took it there: a journey that goes on through the hostile space is
    AA302's.
    """
    board = phase.board
    subs_may_stay = phase.options["subs_may_end_ncm_in_hostile"]
    stranded: dict[tuple[int, str, bool], list[Unit]] = {}
    for unit in board.units:
        if not unit.move_count or unit.power != board.power or unit.uid not in phase.last_order:
            continue
        if unit.type.is_land and not board.is_sea(unit.at) and board.hostile_territory(unit.at):
            stranded.setdefault((phase.last_order[unit.uid].index, unit.at, False), []).append(unit)
        elif unit.type.is_sea and not (unit.type.submarine and subs_may_stay) and board.hostile_zone(unit.at):
            stranded.setdefault((phase.last_order[unit.uid].index, unit.at, True), []).append(unit)
    for (_order, space, at_sea), units in sorted(stranded.items()):
        move = phase.last_order[units[0].uid]
        if at_sea:
            text = _("{units} cannot end in {space}: hostile zone ({enemies})").format(
                units=describe(units), space=space, enemies=describe(board.blocking_enemies(space), powers=True))
        else:
            text = _(
                "{units} cannot move into {space}: it is hostile, and noncombat moves go to friendly territory only"
            ).format(units=describe(units), space=space)
        yield Violation(text, move.step(len(move.path) - 1), move.index, move.order_id)


@aa_clause("AA302", "ncm-through-hostile", "error",
           "only aircraft and submarines pass through hostile spaces", ["N3", "N19", "N20"], phase="noncombat",
           example=("in noncombat move, a tank passes through a hostile territory",
                    "it goes round through friendly territories (a fighter may fly over)"))
def ncm_through_hostile(move: Move, phase: Phase) -> Iterator[Violation]:
    """In noncombat move only aircraft and submarines pass through hostile spaces (N3).

    A unit's orders in one phase are one journey: going on from a hostile
    space an earlier order took it to is passing through it.  Land units are
    judged on land (their sea step is a load or an unload: AA406), ships at
    sea (a ship on land is AA105's).
    """
    board = phase.board
    for group, passes in phase.legs(move):
        kind = group[0].type
        if kind.is_air or kind.submarine:
            continue
        for k in passes:
            space = move.path[k]
            if board.is_sea(space) == kind.is_sea and board.hostile(space):
                yield Violation(
                    _(
                        "{units} cannot pass through {space}: hostile, "
                        "and only aircraft and submarines pass hostile spaces now"
                    ).format(units=describe(group), space=space),
                    move.step(k),
                )
                return


@aa_clause("AA306", "landed-move-over", "error",
           "once a fighter lands on a carrier, neither moves again in the phase", ["N14", "N22"], phase="noncombat",
           example=("a fighter lands on a carrier in one noncombat order and flies on in the next",
                    "it ends its move on the carrier"))
def landed_move_over(move: Move, phase: Phase) -> Iterator[Violation]:
    """When a fighter lands on a carrier, the moves of both are over (N14, N22).

    A fighter lands where its journey ends: one whose order ended on a carrier
    and whose next order flies it on passed the carrier's zone (it did not
    land), unless the carrier has moved with it since.
    """
    fighters = [u for u in move.units if u.landed and u.type.is_fighter and not phase.passed_carrier(move, u)]
    carriers = [u for u in move.units if u.landed and u.type.is_carrier]
    if fighters:
        yield Violation(
            ngettext(
                "{units} landed on a carrier this phase: its move is over",
                "{units} landed on a carrier this phase: their move is over",
                len(fighters),
            ).format(units=describe(fighters)),
            move.units_node(fighters[0]),
        )
    if carriers:
        yield Violation(
            ngettext(
                "{units} took a fighter aboard this phase: its move is over",
                "{units} took a fighter aboard this phase: their move is over",
                len(carriers),
            ).format(units=describe(carriers)),
            move.units_node(carriers[0]),
        )


@aa_clause(
    "AA307",
    "transport-after-combat",
    "error",
    "a transport that loaded, moved, unloaded or fought in combat may not move, load or unload",
    ["N21"],
    phase="noncombat",
    example=(
        "in noncombat move, a transport that fought in the combat move moves",
        "it stays where it is, with its cargo",
    ),
)
def transport_after_combat(move: Move, phase: Phase) -> Iterator[Violation]:
    """Transports that loaded, moved, unloaded or fought in combat stay put and keep their cargo (N21).

    Governed by the option ``transport_ncm_after_combat`` (off in aa1942).
    """
    if phase.options["transport_ncm_after_combat"]:
        return

    def acted(unit: Unit) -> bool:
        # the state's statuses only: loading or unloading in this phase is not "in combat"
        return bool(unit.moved or unit.fought or unit.loaded or unit.unloaded_before)

    ships = [u for u in move.units if u.type.is_transport and acted(u)]
    if ships:
        yield Violation(
            _("{units} acted in combat this turn (moved, fought, loaded or unloaded) and may not move now").format(
                units=describe(ships)
            ),
            move.units_node(ships[0]),
        )
    route = land_route(phase.board, move.path) if move.land_movers() else None
    if route is None:
        return
    if route.load_at is not None:
        plan = phase.loading_plan(move)
        used = sorted({v.uid: v for v in plan.values() if v is not None and acted(v)}.values(), key=lambda v: v.uid)
        if used:
            yield Violation(
                _("{units} acted in combat this turn and may not load now").format(units=describe(used)),
                move.step(route.load_at),
            )
    elif route.unload_at is not None:
        used = sorted(
            {
                u.aboard.uid: u.aboard for u in move.of_domain("land") if u.aboard is not None and acted(u.aboard)
            }.values(),
            key=lambda v: v.uid,
        )
        if used:
            yield Violation(
                _("{units} acted in combat this turn and may not unload now").format(units=describe(used)),
                move.step(route.unload_at),
            )
