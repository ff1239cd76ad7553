"""Mobilization clauses (aa-turn.md, "Mobilization"): AA701-AA709.

A *place* clause looks at one entry of ``place:`` (a :class:`~movecheck.aa.turn.mobilize.Placement`) with the
:class:`~movecheck.aa.turn.mobilize.Mobilization` it belongs to; an *end* clause at the file as a whole
(capacity, the units waiting, fighters at sea).  The seed rule texts have no paragraph on
mobilization: these clauses follow the rulebook of the edition and TripleA's placement (the spec
gives each rule).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from movecheck.aa.checks import mobilize_clause
from movecheck.aa.turn.china import places_anywhere
from movecheck.aa.turn.mobilize import Mobilization, Placement, assign
from movecheck.aa.wording import unit_phrase
from movecheck.clauses import Violation
from movecheck.i18n import N_, _


def _first_in(mob: Mobilization, zone: str, wanted: Callable[[Placement], bool]) -> Placement | None:
    return next((p for p in mob.placements if p.at == zone and wanted(p)), None)


@mobilize_clause("AA701", "place-not-purchased", "error",
                 "a placed unit is not among the units waiting to be placed (purchased: of this turn, and to_place:)",
                 scope="end",
                 example=("``units: {tank: 2}`` where one tank was bought", "``units: {tank: 1}``"))
def place_not_purchased(mob: Mobilization) -> Iterator[Violation]:
    """Only units bought and not yet placed are placed: those of ``purchased:`` (bought this turn) and, where
    units wait between turns, the power's ``to_place:``.  Reported at the placement that goes beyond them."""
    placed: dict[str, int] = {}
    for placement in mob.placements:
        for kind, count in placement.units.items():
            before = placed.get(kind, 0)
            placed[kind] = before + count
            have = mob.waiting.get(kind, 0)
            if placed[kind] > have >= before:
                yield Violation(_("{units} placed, but {have} waiting to be placed").format(
                    units=unit_phrase(placed[kind], kind), have=unit_phrase(have, kind)),
                    placement.unit_where(kind), order=placement.index + 1)


@mobilize_clause("AA702", "place-no-factory", "error",
                 "land and air units are placed only in a territory holding a factory of the power, controlled since "
                 "the start of its turn (not one captured or liberated this turn, not one placed this phase)",
                 example=("``- {at: Karelia S.S.R., units: {infantry: 1}}`` the turn Karelia is taken",
                          "``- {at: Germany, units: {infantry: 1}}``"))
def place_no_factory(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """New land and air units appear at a factory the power has held since its turn began.

    A territory captured or liberated this turn (``captured_this_turn``) does not mobilize until the
    power's next turn, nor does a factory placed this phase.  Land units and bombers are never placed
    at sea; fighters at sea are AA705's.  ``from:`` on a land placement names its own territory.
    """
    board, types = mob.board, mob.board.map.unit_types
    if places_anywhere(board, mob.power):
        return  # the Chinese place without a factory: AA710 and AA711 say where
    if board.is_sea(placement.at):
        for kind in sorted(placement.units):
            if types[kind].is_land or (types[kind].is_air and not types[kind].is_fighter):
                yield Violation(_("{units} cannot be placed at sea in {space}").format(
                    units=unit_phrase(placement.units[kind], kind), space=placement.at), placement.unit_where(kind))
        return
    placed = [k for k in sorted(placement.units) if not types[k].is_factory and not types[k].is_sea]
    if not placed:
        return
    if placement.source is not None and placement.source != placement.at:
        yield Violation(_("land and air units are placed where their factory stands: from: {source} on a placement in "
                          "{space}").format(source=placement.source, space=placement.at), (*placement.where, "from"))
    elif mob.factory(placement.at) is None:
        yield Violation(_("there is no factory of the {power} in {space}").format(power=mob.power, space=placement.at),
                        (*placement.where, "at"))
    elif board.control.get(placement.at) != mob.power:
        yield Violation(_("the {power} do not hold {space}").format(power=mob.power, space=placement.at),
                        (*placement.where, "at"))
    elif placement.at in board.captured:
        yield Violation(_("{space} changed hands this turn: its factory mobilizes from the next turn of the "
                          "{power}").format(space=placement.at, power=mob.power), (*placement.where, "at"))


@mobilize_clause("AA703", "place-over-capacity", "error",
                 "a factory mobilizes at most its territory's IPC value less its damage; sea placements count against "
                 "an adjacent factory, and are legal when some assignment keeps every factory within its limit",
                 scope="end",
                 example=("4 infantry and a transport from Karelia S.S.R. (IPC value 2)",
                          "2 infantry in Karelia S.S.R., the transport from Germany"))
def place_over_capacity(mob: Mobilization) -> Iterator[Violation]:
    """Each factory mobilizes at most as many units as its territory's IPC value, less its damage (never below
    0; every factory, capitals included).  Every unit placed from it counts: land and air units, AA guns,
    and the ships and fighters placed in a sea zone next to it.  A zone bordering several eligible
    factories may draw on any of them (``from:`` names one): the placements are legal when some
    assignment keeps every factory within its limit, which is searched exactly (a max-flow).
    Placements with no eligible factory are AA702/AA704/AA705's.
    """
    flow, over = assign(mob)
    for space in over:
        need = sum(used.get(space, 0) for used in flow.values())
        first = next(p for p in mob.placements if flow[p.index].get(space))
        factory = mob.factory(space)
        damage = factory.damage if factory else 0
        template = CAPACITY_DAMAGED if damage else CAPACITY
        yield Violation(_(template).format(space=space, capacity=mob.capacity(space), value=mob.ipc_value(space),
                                           damage=damage, need=need), (*first.where, "at"), order=first.index + 1)


CAPACITY = N_("the factory in {space} mobilizes at most {capacity} units (IPC value {value}); the placements need "
              "{need} from it, and no other factory can take them")
CAPACITY_DAMAGED = N_("the factory in {space} mobilizes at most {capacity} units (IPC value {value} less {damage} "
                      "damage); the placements need {need} from it, and no other factory can take them")


@mobilize_clause("AA704", "place-sea-zone", "error",
                 "sea units are placed in a sea zone adjacent to an eligible factory's territory (with enemy units "
                 "there only where place_in_enemy_seas)",
                 example=("``- {at: 4 Sea Zone, units: {destroyer: 1}}`` far from any German factory",
                          "``- {at: 5 Sea Zone, units: {destroyer: 1}}`` next to Germany"))
def place_sea_zone(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """New ships appear in a sea zone next to a factory the power has held since its turn began.

    A zone holding enemy units is allowed in both editions (``place_in_enemy_seas``; no battle is
    fought this turn); with the option off it is not.  ``from:`` names one of the adjacent eligible
    factories.  A ship is never placed in a territory.
    """
    board, types = mob.board, mob.board.map.unit_types
    ships = [k for k in sorted(placement.units) if types[k].is_sea]
    if not ships:
        return
    if not board.is_sea(placement.at):
        message = _("{units} cannot be placed in {space}: ships are placed in a sea zone next to the factory")
        yield Violation(message.format(units=unit_phrase(placement.units[ships[0]], ships[0]), space=placement.at),
                        placement.unit_where(ships[0]))
        return
    sources = mob.sources(placement.at)
    if not sources:
        yield Violation(_("{space} borders no factory of the {power} held since the start of the turn").format(
            space=placement.at, power=mob.power), (*placement.where, "at"))
    elif placement.source is not None and placement.source not in sources:
        yield Violation(_("from: {source} is not a factory of the {power} next to {space} held since the start of the "
                          "turn (those there: {sources})").format(source=placement.source, power=mob.power,
                                                                  space=placement.at, sources=", ".join(sources)),
                        (*placement.where, "from"))
    if not board.options["place_in_enemy_seas"] and board.enemy_units(placement.at):
        yield Violation(_("{space} holds enemy units: no ships are placed there under these rules (option "
                          "place_in_enemy_seas is off)").format(space=placement.at), (*placement.where, "at"))


@mobilize_clause("AA705", "place-fighter-at-sea", "error",
                 "a fighter placed at sea goes to a zone next to an eligible factory and needs a free slot on a "
                 "carrier of its power: one placed there this phase, or one already there where "
                 "new_fighters_on_old_carriers",
                 example=("``- {at: 5 Sea Zone, units: {fighter: 1}}`` with no carrier there",
                          "``- {at: 5 Sea Zone, units: {carrier: 1, fighter: 1}}``"))
def place_fighter_at_sea(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """A new fighter at sea lands on a carrier of its own power in a zone next to an eligible factory (it
    counts against that factory, AA703).  It takes a slot on a carrier placed in the zone this phase, or,
    where ``new_fighters_on_old_carriers`` (both editions), a free slot on one of the power's carriers
    already there: a carrier has 2 slots less the aircraft aboard, allied ones included.  An allied
    carrier never takes a new fighter.  Judged per zone, at its first placement with fighters.
    """
    board, types = mob.board, mob.board.map.unit_types
    fighters = [k for k in sorted(placement.units) if types[k].is_fighter]
    if not fighters or not board.is_sea(placement.at):
        return
    if _first_in(mob, placement.at, lambda p: any(types[k].is_fighter for k in p.units)) is not placement:
        return
    if not mob.sources(placement.at):
        yield Violation(_("{space} borders no factory of the {power} held since the start of the turn").format(
            space=placement.at, power=mob.power), (*placement.where, "at"))
        return
    slots = mob.slots(placement.at)
    if slots.new_fighters > slots.left:
        template = FIGHTER_SLOTS if board.options["new_fighters_on_old_carriers"] else FIGHTER_SLOTS_NEW
        message = _(template).format(units=unit_phrase(slots.new_fighters, fighters[0]), space=placement.at,
                                     slots=slots.left)
        if slots.waiting_seated:
            message += _(WAITING_FIRST).format(units=unit_phrase(slots.waiting_seated, fighters[0]))
        yield Violation(message, placement.unit_where(fighters[0]))


FIGHTER_SLOTS = N_("{units} placed in {space}, but the carriers of the power there (placed now or already there) have "
                   "{slots} free slots")
WAITING_FIRST = N_(" ({units} waiting there for a bought carrier took theirs first, AA708)")
FIGHTER_SLOTS_NEW = N_("{units} placed in {space}, but the carriers placed there have {slots} free slots (option "
                       "new_fighters_on_old_carriers is off: carriers already there take none)")


@mobilize_clause("AA706", "place-factory", "error",
                 "a new factory goes to a territory the power controls and did not capture this turn, holding no "
                 "factory, one per territory (worth 0 IPCs: a warning)",
                 example=("``- {at: Germany, units: {factory: 1}}`` where Germany has one",
                          "``- {at: Finland, units: {factory: 1}}``"))
def place_factory(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """A factory is built in a territory the power has held since its turn began and that has none
    (``maxFactoriesPerTerritory`` 1), one per territory and turn.  A territory worth 0 IPCs takes one,
    with a warning: it would mobilize nothing.
    """
    board = mob.board
    kinds = [k for k in placement.units if board.map.unit_types[k].is_factory]
    if not kinds:
        return
    where = placement.unit_where(kinds[0])
    count = placement.units[kinds[0]]
    others = [p for p in mob.placements if p.at == placement.at and p.index < placement.index and kinds[0] in p.units]
    if board.is_sea(placement.at):
        yield Violation(_("a factory cannot be placed at sea in {space}").format(space=placement.at), where)
    elif board.control.get(placement.at) != mob.power:
        yield Violation(_("the {power} do not hold {space}").format(power=mob.power, space=placement.at), where)
    elif placement.at in board.captured:
        yield Violation(_("{space} changed hands this turn: no factory is built there before the next turn of the "
                          "{power}").format(space=placement.at, power=mob.power), where)
    elif any(u.type.is_factory for u in board.units_at(placement.at)):
        yield Violation(_("{space} already has a factory").format(space=placement.at), where)
    elif count > 1 or others:
        yield Violation(_("one factory per territory: {space} gets more").format(space=placement.at), where)
    elif mob.ipc_value(placement.at) == 0:
        yield Violation(_("{space} is worth 0 IPCs: a factory there mobilizes nothing").format(space=placement.at),
                        where, severity="warning")


@mobilize_clause("AA707", "units-left-unplaced", "warning",
                 "units waiting to be placed are not placed: refunded, lost or kept for later, as the option "
                 "unplaced_units says",
                 scope="end",
                 example=("2 tanks bought, 1 placed", "both placed"))
def units_left_unplaced(mob: Mobilization) -> Iterator[Violation]:
    """Units bought and not placed are settled at the end of the mobilization by ``unplaced_units``:
    ``refunded`` (their cost goes back to the treasury; 1942 second edition, the printed rule), ``lost``
    (Revised; TripleA on both maps), or ``kept`` under ``to_place:`` for a later mobilization.
    Reported once, at the file's ``place:`` key; the apply report says what was done.
    """
    left = mob.left_unplaced()
    if not left:
        return
    units = ", ".join(unit_phrase(n, k) for k, n in left.items())
    how = mob.board.options["unplaced_units"]
    if how == "refunded":
        cost = sum((mob.board.map.unit_types[k].cost or 0) * n for k, n in left.items())
        message = _("{units} left unplaced: their cost, {cost} IPCs, is refunded (unplaced_units: refunded)").format(
            units=units, cost=cost)
    elif how == "kept":
        message = _("{units} left unplaced: they wait under to_place: for a later mobilization (unplaced_units: "
                    "kept)").format(units=units)
    else:
        message = _("{units} left unplaced: they are lost (unplaced_units: lost)").format(units=units)
    yield Violation(message, ("place",))


@mobilize_clause("AA708", "fighter-left-without-carrier", "warning",
                 "a fighter that waits at sea for a bought carrier is destroyed at the end of the mobilization unless "
                 "a carrier placed in its zone has a free slot for it",
                 scope="end",
                 example=("a German fighter waits in 5 Sea Zone; the carrier bought is placed in 6 Sea Zone",
                          "the carrier is placed in 5 Sea Zone"))
def fighter_left_without_carrier(mob: Mobilization) -> Iterator[Violation]:
    """A fighter that ended the noncombat move at sea to wait for a carrier bought this turn (N13, AA305;
    where ``land_on_new_carrier``) lands on a carrier placed in its zone, before the new fighters placed
    there and those moved on by AA709 (it was there first).  One that finds no free slot is destroyed (no
    rule obliges the player to place the carrier there).
    """
    zones = sorted({u.at for u in mob.board.units if u.type.is_fighter and u.power == mob.power
                    and u.aboard is None and mob.board.is_sea(u.at)})
    for zone in zones:
        slots = mob.slots(zone)
        if slots.waiting > slots.waiting_seated:
            yield Violation(_("{units} waiting in {space}: no free slot on a carrier placed there, destroyed at "
                              "the end of the mobilization").format(
                units=unit_phrase(slots.waiting - slots.waiting_seated, "fighter"), space=zone), ("place",))


@mobilize_clause("AA709", "fighter-to-new-carrier", "error",
                 "where move_existing_fighters_to_new_carriers, fighters standing in the factory territory a new "
                 "carrier is placed from may move onto it, up to its free slots",
                 example=("``fighters_from: {United Kingdom: 3}`` with one new carrier",
                          "``fighters_from: {United Kingdom: 2}``"))
def fighter_to_new_carrier(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """Revised: fighters of the power in the territory whose factory a new carrier is placed from may be moved
    onto it, up to its free slots (``- {at: 8 Sea Zone, units: {carrier: 1}, fighters_from: {United
    Kingdom: 1}}``).  The territory is an eligible factory next to the zone (it is the placement's
    factory, AA703), and the fighters stood there at the start of the mobilization.  The whole file
    counts together: each fighter moves once, whatever entries name it, and the fighters moved into a
    zone share its free slots with the new fighters placed there; the order of the entries never
    changes the verdict.  Without the option no fighter moves at mobilization.
    """
    if not placement.fighters_from:
        return
    board, types = mob.board, mob.board.map.unit_types
    where = (*placement.where, "fighters_from")
    if not board.options["move_existing_fighters_to_new_carriers"]:
        yield Violation(_("fighters do not move onto new carriers under these rules (option "
                          "move_existing_fighters_to_new_carriers is off)"), where)
        return
    yield from _moved_fighters_over_slots(placement, mob)
    carriers = sum(n for k, n in placement.units.items() if types[k].is_carrier)
    if not carriers or not board.is_sea(placement.at):
        yield Violation(_("fighters_from: needs a carrier placed at sea in the same placement"), where)
        return
    if len(placement.fighters_from) > 1:
        yield Violation(_("a placement's carriers come from one factory: fighters_from names {count} "
                          "territories").format(count=len(placement.fighters_from)), where)
        return
    space = next(iter(placement.fighters_from))
    if space not in mob.sources(placement.at) or (placement.source is not None and placement.source != space):
        yield Violation(_("{space} is not the factory the carrier in {zone} is placed from").format(
            space=space, zone=placement.at), (*where, space))
        return
    yield from _fighters_moved_twice(placement, mob, space)


def _fighters_moved_twice(placement: Placement, mob: Mobilization, space: str) -> Iterator[Violation]:
    """Each fighter moves once: the entries of the file move at most the fighters that stood in ``space`` at the
    start of the mobilization (units placed there this phase are not among them).  Reported at the entry whose
    count goes beyond them."""
    there = len(mob.standing_fighters(space))
    before = sum(p.fighters_from.get(space, 0) for p in mob.placements if p.index < placement.index)
    count = before + placement.fighters_from[space]
    if count > there >= before:
        template = MOVED_FROM if not before else MOVED_FROM_IN_ALL
        yield Violation(_(template).format(units=unit_phrase(count, "fighter"), space=space,
                                           there=unit_phrase(there, "fighter")),
                        (*placement.where, "fighters_from", space))


def _moved_fighters_over_slots(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """The fighters moved into a zone by every entry share its free slots with the new fighters placed there
    (AA705) after the fighters that waited there (AA708).  Judged per zone, at its first entry with
    ``fighters_from:``."""
    if not mob.board.is_sea(placement.at) or _first_in(mob, placement.at, lambda p: bool(p.fighters_from)) \
            is not placement:
        return
    slots = mob.slots(placement.at)
    free = max(slots.left - slots.new_fighters, 0)
    if slots.moved > free:
        space = next(iter(placement.fighters_from))
        yield Violation(_(MOVED_OVER_SLOTS).format(units=unit_phrase(slots.moved, "fighter"), zone=placement.at,
                                                   slots=free), (*placement.where, "fighters_from", space))


MOVED_FROM = N_("{units} move from {space}, but {there} stand there")
MOVED_FROM_IN_ALL = N_("{units} move from {space} in all the entries, but {there} stand there at the start of the "
                       "mobilization (each fighter moves once)")
MOVED_OVER_SLOTS = N_("{units} move onto the carriers in {zone}, but they have {slots} free slots (the fighters "
                      "waiting there and the new fighters placed there take theirs first)")
