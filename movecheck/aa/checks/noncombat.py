"""Noncombat-move clauses: who may still move, where, and where every aircraft ends up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from movecheck.aa.checks import Problem, aa_clause
from movecheck.aa.model import Unit, describe
from movecheck.aa.moves import land_route

if TYPE_CHECKING:
    from movecheck.aa.engine import Phase
    from movecheck.aa.moves import Move


@aa_clause("AA107", "moved-in-combat", "error",
           "a unit that moved in combat move or fought this turn may not move (aircraft may, to land, with the "
           "movement they have left)", ["N2"], phase="noncombat")
def moved_in_combat(move: Move, phase: Phase) -> Iterator[Problem]:
    """Units that moved in the combat move or fought this turn stay put (N2).

    Aircraft are the exception: they fly on to land with the movement they
    have left.  Transports that acted in combat are AA307's business.
    """
    stuck = [
        u for u in move.units
        if not u.type.is_air and not u.type.is_transport and (u.moved or u.fought) and u not in move.riders
    ]
    if stuck:
        what = "fought" if all(u.fought and not u.moved for u in stuck) else "moved in combat move or fought"
        yield Problem(f"{describe(stuck)} {what} this turn and may not move now", move.units_node(stuck[0]))


def _moving_surface(move: Move) -> list[Unit]:
    return [u for u in move.units if (u.type.is_land and u.aboard is None) or (u.type.is_sea and not u.type.submarine)]


@aa_clause("AA301", "ncm-into-hostile", "error",
           "land units enter only friendly territories, never a hostile one even if empty; ships (not subs) never enter "
           "a hostile zone", ["N6", "N19"], phase="noncombat")
def ncm_into_hostile(move: Move, phase: Phase) -> Iterator[Problem]:
    """In noncombat move, land units end only in friendly territory and ships only in non-hostile zones.

    A hostile territory may not be entered even when empty (N6); territories
    captured this turn are friendly now.  Ships may not enter a hostile zone
    (N19); submarines may end there when ``subs_may_end_ncm_in_hostile`` is on.
    """
    board = phase.board
    land = [u for u in move.of_domain("land")]
    if land and not board.is_sea(move.end) and board.hostile_territory(move.end):
        yield Problem(f"{describe(land)} cannot move into {move.end}: it is hostile, and noncombat moves go to friendly territory only",
                      move.step(len(move.path) - 1))
    ships = [u for u in move.of_domain("sea") if not u.type.submarine or not phase.options["subs_may_end_ncm_in_hostile"]]
    if ships and board.hostile_zone(move.end):
        yield Problem(f"{describe(ships)} cannot end in {move.end}: hostile zone (enemy {describe(board.blocking_enemies(move.end))})",
                      move.step(len(move.path) - 1))


@aa_clause("AA302", "ncm-through-hostile", "error",
           "only aircraft and submarines pass through hostile spaces", ["N3", "N19", "N20"], phase="noncombat")
def ncm_through_hostile(move: Move, phase: Phase) -> Iterator[Problem]:
    """In noncombat move only aircraft and submarines pass through hostile spaces (N3)."""
    board = phase.board
    movers = _moving_surface(move)
    if not movers:
        return
    ships = any(u.type.is_sea for u in movers)
    for k in range(1, len(move.path) - 1):
        space = move.path[k]
        if board.is_sea(space) and not ships:
            continue  # a land unit's sea step is a load/unload: AA406 judges the zone
        if board.hostile(space):
            yield Problem(f"{describe(movers)} cannot pass through {space}: hostile, and only aircraft and submarines pass hostile spaces now",
                          move.step(k))
            return


@aa_clause("AA306", "landed-move-over", "error",
           "once a fighter lands on a carrier, neither moves again in the phase", ["N14", "N22"], phase="noncombat")
def landed_move_over(move: Move, phase: Phase) -> Iterator[Problem]:
    """When a fighter lands on a carrier, the moves of both are over (N14, N22)."""
    fighters = [u for u in move.units if u.landed and u.type.is_fighter]
    carriers = [u for u in move.units if u.landed and u.type.is_carrier]
    if fighters:
        yield Problem(f"{describe(fighters)} landed on a carrier this phase: {'their' if len(fighters) > 1 else 'its'} move is over",
                      move.units_node(fighters[0]))
    if carriers:
        yield Problem(f"{describe(carriers)} took a fighter aboard this phase: {'their' if len(carriers) > 1 else 'its'} move is over",
                      move.units_node(carriers[0]))


@aa_clause("AA307", "transport-after-combat", "error",
           "a transport that loaded, moved, unloaded or fought in combat may not move, load or unload",
           ["N21"], phase="noncombat")
def transport_after_combat(move: Move, phase: Phase) -> Iterator[Problem]:
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
        yield Problem(f"{describe(ships)} acted in combat this turn (moved, fought, loaded or unloaded) and may not move now",
                      move.units_node(ships[0]))
    route = land_route(phase.board, move.path) if move.of_domain("land") else None
    if route is None:
        return
    if route.load_at is not None:
        plan = phase.loading_plan(move)
        used = sorted({v.uid: v for v in plan.values() if v is not None and acted(v)}.values(), key=lambda v: v.uid)
        if used:
            yield Problem(f"{describe(used)} acted in combat this turn and may not load now", move.step(route.load_at))
    elif route.unload_at is not None:
        used = sorted({u.aboard.uid: u.aboard for u in move.of_domain("land") if u.aboard is not None and acted(u.aboard)}.values(),
                      key=lambda v: v.uid)
        if used:
            yield Problem(f"{describe(used)} acted in combat this turn and may not unload now", move.step(route.unload_at))


@aa_clause("AA303", "air-landing", "error",
           "an aircraft ends in a territory friendly at the start of the turn (not one captured this turn), or — fighters "
           "only — a sea zone with a friendly carrier slot or a bought carrier to be placed there",
           ["N9", "N10", "N18"], phase="noncombat", scope="end")
def air_landing(phase: Phase) -> Iterator[Problem]:
    """Every aircraft that moved this turn ends the phase in a valid landing space (N9, N10, N18).

    A territory friendly at the start of the turn (never one captured this
    turn), or for fighters a sea zone with a friendly carrier (AA304 counts the
    slots) or one where a carrier bought this turn will be placed (AA305).
    The message gives the aircraft's place, the movement it has left and the
    nearest legal landing spaces.
    """
    from movecheck.aa.landing import noncombat_landing_problems

    yield from noncombat_landing_problems(phase, "AA303")


@aa_clause("AA304", "carrier-full", "error",
           "the fighters in a sea zone at the end of the phase exceed the free slots of the friendly carriers there (2 each)",
           ["N11"], phase="noncombat", scope="end")
def carrier_full(phase: Phase) -> Iterator[Problem]:
    """The fighters in a sea zone fit the slots of the friendly carriers there (N11).

    Own and allied carriers, 2 slots each; own and allied fighters counted.
    Reported once for the zone, naming the last order that moved a fighter
    there.
    """
    from movecheck.aa.landing import noncombat_landing_problems

    yield from noncombat_landing_problems(phase, "AA304")


@aa_clause("AA305", "new-carrier-zone", "error",
           "a fighter waiting for a bought carrier is in a sea zone adjacent to a factory of the moving power held since "
           "the turn began, and the bought carriers cover every such fighter (2 each, one zone each)",
           ["N13", "N15"], phase="noncombat", scope="end")
def new_carrier_zone(phase: Phase) -> Iterator[Problem]:
    """A fighter may wait at sea for a carrier bought this turn only next to the mover's factory (N13, N15).

    The factory must have been held since the turn began; each bought carrier
    is placed in one zone and takes 2 fighters.  Governed by the option
    ``land_on_new_carrier``.
    """
    from movecheck.aa.landing import noncombat_landing_problems

    yield from noncombat_landing_problems(phase, "AA305")


@aa_clause("AA308", "air-destroyed", "warning",
           "warning: an aircraft of the moving power ends the phase with no landing space and will be destroyed (it did "
           "not move, e.g. its carrier was sunk)", ["N17"], phase="noncombat", scope="end")
def air_destroyed(phase: Phase) -> Iterator[Problem]:
    """Aircraft with no landing space at the end of the noncombat move are destroyed (N17).

    This warning is for aircraft that did not move this turn (their carrier
    was sunk, say); an aircraft that moved and cannot land is AA303.
    """
    from movecheck.aa.landing import noncombat_landing_problems

    yield from noncombat_landing_problems(phase, "AA308")


@aa_clause("AA309", "carrier-must-move", "note",
           "note: the landing found for a fighter needs a carrier that has not moved to move there in noncombat",
           ["N22"], phase="both", scope="end")
def carrier_must_move(phase: Phase) -> Iterator[Problem]:
    """The landing plan for a fighter needs a carrier to move to it, or a bought carrier placed for it (N22).

    A carrier that did not move in combat must move to the only landing space
    a fighter has.  Given with AA207 in combat move; nothing to add after the
    noncombat move, where carriers are where they ended.
    """
    return iter(())
