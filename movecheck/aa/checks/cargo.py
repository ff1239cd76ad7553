"""Transports and their cargo, for both phases: capacity, loading, unloading, allied holds, hostile zones."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause
from movecheck.aa.moves import land_route
from movecheck.aa.units import describe
from movecheck.aa.wording import type_noun
from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext

if TYPE_CHECKING:
    from movecheck.aa.moves import LandRoute, Move
    from movecheck.aa.phase import Phase
    from movecheck.aa.units import Unit


def _route(move: Move, phase: Phase) -> LandRoute | None:
    """The land route of a move with land units, or None."""
    return land_route(phase.board, move.path) if move.land_movers() else None


@aa_clause("AA401", "transport-capacity", "error",
           "a transport carries 2 infantry, or 1 infantry + 1 other land unit (artillery, tank, AA gun); never "
           "factories or aircraft", [], phase="both",
           example=("two tanks board one transport",
                    "one infantry and one tank board it"))
def transport_capacity(move: Move, phase: Phase) -> Iterator[Violation]:
    """A transport carries 2 infantry, or 1 infantry and 1 other land unit.

    Capacity is counted in the map's transport costs (aa1942: capacity 5,
    infantry 2, artillery/tank/AA gun 3).  Factories and aircraft never board.
    """
    route = _route(move, phase)
    if route is None or route.load_at is None or (route.bad_step is not None and route.bad_step <= route.load_at):
        return
    zone = move.path[route.load_at]
    if not phase.transport_in(zone) or phase.named_transport_problem(move, zone):
        return  # AA105: nothing to board at all, or the named transport is not there to board
    plan = phase.loading_plan(move)
    for unit in move.land_movers():
        if not unit.type.transport_cost:
            yield Violation(
                _("{units} cannot board a transport: a {kind} is never carried").format(
                    units=describe([unit]), kind=type_noun(unit.type.name)
                ),
                move.step(route.load_at),
            )
            return
    stranded = [u for u in move.land_movers() if plan.get(u.uid) is None]
    if stranded:
        target = (_("transport {id}").format(id=move.transport.id) if move.transport
                  else _("the transports in {zone}").format(zone=zone))
        yield Violation(
            _(
                "no room for {units} on {target}: a transport carries 2 infantry, or 1 infantry and 1 other land unit"
            ).format(units=describe(stranded), target=target),
            (*move.where, "transport") if move.transport else move.step(route.load_at),
        )


@aa_clause("AA402", "load-after-move", "error",
           "a land unit that already moved this phase may not load", [], phase="both",
           example=("an infantry moves to a coastal territory, then loads in the same phase",
                    "it loads from where it began the phase"))
def load_after_move(move: Move, phase: Phase) -> Iterator[Violation]:
    """A land unit boards a transport only if it has not moved this phase.

    Loading ends the unit's own movement: it may walk no step before it in the
    same order, nor have moved in an earlier order.  A unit that unloaded
    this phase is AA403's alone (its move is over).
    """
    route = _route(move, phase)
    if route is None or route.load_at is None:
        return
    moved = [u for u in move.land_movers() if u.spent or u.move_count or route.walk]
    if moved:
        yield Violation(
            ngettext("{units} cannot load in {space}: it already moved this phase",
                     "{units} cannot load in {space}: they already moved this phase", len(moved)).format(
                units=describe(moved), space=move.path[route.load_at]
            ),
            move.step(route.load_at),
        )


@aa_clause("AA403", "unload-ends-move", "error",
           "after unloading a transport neither moves nor loads again this turn; unloaded units do not move on",
           [], phase="both",
           example=("infantry unloaded into a territory move on to the next one",
                    "they stop where they land"))
def unload_ends_move(move: Move, phase: Phase) -> Iterator[Violation]:
    """Unloading ends the move: of the cargo, and of the transport for the turn.

    Units put ashore do not move on (not in the same order, not in a later
    one); a transport that unloaded neither moves nor loads again this turn.
    """
    route = _route(move, phase)
    if route is not None and route.problem == "after_unload":
        yield Violation(
            _("{units} cannot move on after unloading into {space}").format(
                units=move.label(move.of_domain("land")), space=move.path[(route.bad_step or 2) - 1]
            ),
            move.step(route.bad_step or 2),
        )
    landed = [u for u in move.of_domain("land") if u.unloaded_now]
    if landed:
        yield Violation(
            _("{units} unloaded earlier this phase and may not move again").format(units=describe(landed)),
            move.units_node(landed[0]),
        )
    # A transport that unloaded in combat move is AA307's business in noncombat, unless the
    # preset lets transports act again after combat: then this clause still holds for it.
    earlier = not phase.combat and phase.options["transport_ncm_after_combat"]

    def unloaded(vessel: Unit) -> bool:
        return vessel.unloaded_now or (earlier and vessel.unloaded_before)

    ships = [u for u in move.units if u.type.is_transport and unloaded(u)]
    if ships:
        yield Violation(
            _("{units} unloaded this turn and may not move again").format(units=describe(ships)),
            move.units_node(ships[0]),
        )
    if route is not None and route.load_at is not None:
        plan = phase.loading_plan(move)
        done = sorted({v.uid: v for v in plan.values() if v is not None and unloaded(v)}.values(), key=lambda v: v.uid)
        if done:
            yield Violation(
                _("{units} unloaded this turn and may not load again").format(units=describe(done)),
                move.step(route.load_at),
            )


@aa_clause("AA404", "unload-one-territory", "error",
           "a transport unloads into one territory per turn", [], phase="both",
           example=("a transport unloads into two different territories in one turn",
                    "it unloads all its cargo into one territory"))
def unload_one_territory(move: Move, phase: Phase) -> Iterator[Violation]:
    """A transport unloads all the cargo it puts ashore this turn into one territory."""
    route = _route(move, phase)
    if route is None or route.unload_at is None or route.load_at is not None:
        return
    target = move.path[route.unload_at]
    vessels = {u.aboard.uid: u.aboard for u in move.of_domain("land") if u.aboard is not None}
    for vessel in vessels.values():
        if vessel.unloaded_to and vessel.unloaded_to != target:
            yield Violation(
                _("{units} already unloaded into {space} this turn and cannot unload into {target} too").format(
                    units=describe([vessel]), space=vessel.unloaded_to, target=target
                ),
                move.step(route.unload_at),
            )


@aa_clause("AA405", "allied-transport", "error",
           "allied cargo boards on its owner's turn; no loading and unloading of an allied transport in the same turn",
           ["C7"], phase="both",
           example=("a German infantry boards a Japanese transport and unloads from it in the same turn",
                    "it boards now and unloads on a later German turn"))
def allied_transport(move: Move, phase: Phase) -> Iterator[Violation]:
    """Units may ride an allied transport, but do not board and leave it in the same turn (C7).

    The allied transport moves on its owner's turn: cargo boarded now is
    unloaded on a later turn of the cargo's owner.
    """
    route = _route(move, phase)
    if route is None or route.unload_at is None:
        return
    power = phase.board.power
    if route.load_at is not None:
        plan = phase.loading_plan(move)
        allied = sorted(
            {v.uid: v for v in plan.values() if v is not None and v.power != power}.values(), key=lambda v: v.uid
        )
    else:
        # loaded in this phase, or (noncombat) aboard an allied transport the state marks as
        # loaded this turn: on the mover's turn only the mover's side boards it
        allied = sorted(
            {
                u.aboard.uid: u.aboard
                for u in move.of_domain("land")
                if u.aboard is not None and u.aboard.power != power and (u.loaded_now or u.aboard.loaded)
            }.values(),
            key=lambda v: v.uid,
        )
    if allied:
        yield Violation(
            _("cargo loaded onto {units} this turn cannot also unload this turn").format(
                units=describe(allied, powers=True)
            ),
            move.step(route.unload_at),
        )


@aa_clause(
    "AA406",
    "load-in-hostile-zone",
    "error",
    "no loading in a zone holding enemy surface warships; no unloading there in noncombat move; in combat move a "
    "transport in such a zone unloads only into a hostile territory; enemy subs/transports prevent nothing",
    ["C1", "C12"],
    phase="both",
    example=("infantry load in a zone holding an enemy destroyer", "they load in a zone with no enemy surface warship"),
)
def load_in_hostile_zone(move: Move, phase: Phase) -> Iterator[Violation]:
    """Enemy surface warships stop loading in their zone, and most unloading.

    No loading in a zone holding enemy surface warships; no unloading there in
    noncombat move; in combat move a transport in such a zone unloads only
    into a hostile territory (an amphibious assault: the sea battle comes
    first).  Enemy submarines and transports prevent nothing (C12) unless the
    option ``sub_transport_zones_hostile`` is on.
    """
    route = _route(move, phase)
    if route is None:
        return
    board = phase.board
    if route.load_at is not None:
        zone = move.path[route.load_at]
        enemies = board.blocking_enemies(zone)
        if enemies:
            yield Violation(
                _("cannot load in {zone}: {enemies} there").format(zone=zone, enemies=describe(enemies, powers=True)),
                move.step(route.load_at),
            )
            return
    if route.unload_at is not None and (route.load_at is not None or any(u.aboard for u in move.land_movers())):
        # (cargo left at sea aboard nothing, a load refused or a voyage on its own, unloads from no transport:
        # AA105 or AA401 said why)
        zone = move.path[route.unload_at - 1]
        target = move.path[route.unload_at]
        enemies = board.blocking_enemies(zone)
        if not enemies:
            return
        if not phase.combat:
            yield Violation(
                _("cannot unload from {zone} in noncombat move: {enemies} there").format(
                    zone=zone, enemies=describe(enemies, powers=True)
                ),
                move.step(route.unload_at),
            )
        elif not board.hostile_territory(target):
            yield Violation(
                _("cannot unload from {zone} into {target}: with {enemies} in the zone, a transport "
                  "unloads only into a hostile territory (amphibious assault)").format(
                    zone=zone, target=target, enemies=describe(enemies, powers=True)
                ),
                move.step(route.unload_at),
            )
