"""Battle-result clauses for what the turn needs (spec aa-turn.md, "Battles: what the results may say").

Strategic bombing (AA508), two-hit units hit once (AA509), defending fighters whose carrier
sank (AA510), a raid that kills defenders (AA511), a raid's impossible damage (AA512), a Revised
raid's total that cannot be capped (AA523) and bombers lost where nothing fires at them (AA524); the
keys are read and carried out by :mod:`movecheck.aa.turn.battle_turn`.
"""

from __future__ import annotations

from collections.abc import Iterator

from movecheck.aa.checks.battles import battle_clause, is_raid
from movecheck.aa.turn.battle_extras import SIDES
from movecheck.aa.turn.battle_turn import bombers, damaged_side, factory_at, free_slots, stranded, taken
from movecheck.aa.turn.battles import Resolution, Result, pasted_damage
from movecheck.aa.units import describe
from movecheck.aa.wording import unit_phrase
from movecheck.clauses import Violation
from movecheck.i18n import N_, _


@battle_clause("AA508", "bombing-illegal", "error",
               "strategic bombing is of a factory in the territory of the battle, by attacking bombers that come "
               "through it, written in the raid's own result (kind: raid) where the battles state gives kinds",
               example=("``- {at: Germany, bombing: {damage: 6}}`` where no bomber attacked Germany",
                        "the same where a British bomber attacked Germany and is not among the losses"))
def bombing_illegal(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A ``bombing:`` result says what the attacking bombers did to the factory of the battle's territory.

    The territory must hold a factory, at least one attacking bomber must come through the battle
    (not among ``attacker_losses``), and ``bombing.at``, when written, names the result's territory.
    The damage is the dice's total: where ``factory_damage`` (1942 second edition) it goes on the
    factory, at most twice the territory's IPC value in all; otherwise (Revised) the owner loses that
    many IPCs, at most the territory's IPC value for each bomber, never below 0.  What goes beyond
    the cap is not applied (the apply report says what was).
    """
    battle = result.battle
    if battle is None or result.repeated or result.extras.bombing is None:
        return
    board = resolution.board
    where = (*result.where, "bombing")
    if resolution.kinds and not battle.raid:
        message = RAID_ELSEWHERE if result.at in resolution.raids else NO_RAID
        yield Violation(_(message).format(space=result.at), where)
        return
    if result.extras.bombing_at is not None and result.extras.bombing_at != result.at:
        yield Violation(_("the bombing names {space}, but the result is for the battle in {battle}").format(
            space=result.extras.bombing_at, battle=result.at), (*where, "at"))
        return
    if board.is_sea(result.at) or factory_at(board, result.at) is None:
        yield Violation(_("there is no factory in {space} to bomb").format(space=result.at), where)
        return
    if result.extras.bombing and not bombers(result):
        yield Violation(_("no attacking bomber comes through the battle in {space}: nothing bombs its factory").format(
            space=result.at), where)


RAID_ELSEWHERE = N_("the bombing of {space} is the raid's: write it in the raid's own result (kind: raid), not in "
                    "the land battle's")
NO_RAID = N_("no bomber raids {space}: a bombing is the result of a raid (kind: raid), and the battles state lists "
             "none there")
"""AA508's messages for a ``bombing:`` on a land or sea battle's result, in a state that writes ``kind:``."""


@battle_clause("AA509", "damage-illegal", "error",
               "``damaged:`` names two-hit units (battleships) of a side that come through the battle, no more than "
               "it has",
               example=("``damaged: {cruiser: 1}``", "``damaged: {battleship: 1}`` where a battleship survives"))
def damage_illegal(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A two-hit unit hit once stays afloat, ``damaged`` until the end-of-turn repair (``Two hit battleship``).

    Only a unit type of two hit points (TripleA's ``hitPoints``) can be damaged; a side has no more damaged
    units of a type than it has of them after the losses.  Written without a side, ``damaged:`` speaks of
    the one side that has units of the type in the battle; when both do it must say which
    (``damaged: {defender: {battleship: 1}}``).
    """
    battle = result.battle
    if battle is None or result.repeated:
        return
    for side, counts in sorted(result.extras.damaged.items()):
        where = result.where + (("damaged", side) if side else ("damaged",))
        for kind, count in sorted(counts.items()):
            unit_type = resolution.board.map.unit_types[kind]
            if unit_type.hit_points < 2:
                message = _("a {type} takes one hit: it is sunk, never damaged").format(type=kind)
                yield Violation(message, (*where, kind))
                continue
            owner = side or damaged_side(result, kind)
            if owner is None:
                yield Violation(_("both sides have a {type} in {space}: write damaged: {{attacker: ...}} or "
                                  "{{defender: ...}}").format(type=kind, space=result.at), (*where, kind))
                continue
            alive = sum(1 for u in result.survivors(owner) if u.type.name == kind)
            if count > alive:
                yield Violation(_(DAMAGED_TOO_MANY[owner]).format(units=unit_phrase(count, kind), space=result.at,
                                                                  had=unit_phrase(alive, kind)), (*where, kind))


DAMAGED_TOO_MANY = {
    "attacker": N_("the attacker has {units} damaged in {space}, but {had} come through the battle"),
    "defender": N_("the defender has {units} damaged in {space}, but {had} come through the battle"),
}


@battle_clause("AA510", "defender-landing-illegal", "error",
               "a defending fighter whose carrier sank moves to one adjacent territory its side held through the turn, "
               "or to an adjacent zone with a free slot on an allied carrier",
               example=("``defender_landing: [{to: Germany, units: {fighter: 1}}]`` for a British fighter at sea",
                        "``defender_landing: [{to: United Kingdom, units: {fighter: 1}}]``"))
def defender_landing_illegal(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """At the end of the battles, each defending fighter left without a carrier may move one space.

    The fighters must be defending fighters of the sea battle whose carrier sank (the surviving
    carriers of their side there have no slot for them); each entry moves some of them to an
    adjacent territory their side holds and did not lose or capture this turn, or to an adjacent sea
    zone with a free slot on a carrier of their side.  ``from:``, when written, names the battle's
    zone.  A fighter not moved is destroyed (the apply header lists it).
    """
    battle = result.battle
    if battle is None or result.repeated or not result.extras.landings:
        return
    board = resolution.board
    strand = stranded(result, board)
    left: dict[str, int] = {}
    for unit in strand:
        left[unit.type.name] = left.get(unit.type.name, 0) + 1
    defending = [u for u in battle.defenders if u.type.is_fighter] or battle.defenders
    side = board.map.side_of.get(defending[0].power) if defending else None
    lost = {u.uid for s in SIDES for u in result.casualties(s)}
    lost_now = taken(resolution)
    slots: dict[str, int] = {}
    for landing in result.extras.landings:
        where = (*result.where, "defender_landing", landing.index)
        if landing.origin is not None and landing.origin != battle.at:
            yield Violation(_("the landing is from {space}, but the result is for the battle in {battle}").format(
                space=landing.origin, battle=battle.at), (*where, "from"))
            continue
        for kind, count in sorted(landing.units.items()):
            if count > left.get(kind, 0):
                yield Violation(_("{units} lose their carrier in {space}, not {wanted}").format(
                    units=unit_phrase(left.get(kind, 0), kind), space=battle.at, wanted=count), (*where, "units", kind))
            left[kind] = max(0, left.get(kind, 0) - count)
        problem = None
        to = landing.to
        if not board.map.adjacent(battle.at, to):
            problem = _("it does not border {space}").format(space=battle.at)
        elif board.is_sea(to):
            slots.setdefault(to, free_slots(board, to, side, lost))
            need = sum(board.map.unit_types[k].carrier_cost * n for k, n in landing.units.items())
            if need > slots[to]:
                problem = _("no carrier of their side has a free slot for them there")
            slots[to] -= need
        elif board.map.side_of.get(board.controller(to) or "") != side or side is None:
            problem = _("their side does not hold it")
        elif to in board.captured or to in lost_now:
            problem = _("it changes hands this turn")
        if problem:
            yield Violation(_("the defending fighters in {space} may not land in {to}: {problem}").format(
                space=battle.at, to=to, problem=problem), (*where, "to"))


@battle_clause("AA511", "raid-kills-no-defender", "error",
               "a strategic bombing raid (only bombers attack, and the result gives a bombing) kills no defender: its "
               "result gives no defender losses",
               example=("``- {at: United Kingdom, bombing: {damage: 5}, defender_losses: {infantry: 2}}`` where a "
                        "lone bomber attacks", "``- {at: United Kingdom, bombing: {damage: 5}}``"))
def raid_kills_no_defender(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Bombers that only raid drop their bombs on the factory and fight no battle (aa-battle.md, "Strategic
    bombing raids"): AA fire may shoot some of them down, but no defending unit is lost to them.
    """
    if result.battle is None or result.repeated or not is_raid(result, resolution):
        return
    lost = result.losses["defender"]
    if lost:
        yield Violation(_("bombers that raid {space} kill no defender, but the result loses {units}").format(
            space=result.at, units=describe(result.casualties("defender"), powers=True)),
            (*result.where, "defender_losses"))


@battle_clause("AA512", "raid-damage-impossible", "error",
               "a raid's damage is the dice's total of its surviving bombers: one die each, so at least 1 and at most "
               "6 per surviving bomber; a raid with a surviving bomber writes its damage, and dice written one by one "
               "are one per surviving bomber",
               example=("``bombing: {damage: 7}`` where one bomber survives",
                        "``bombing: {damage: 6}`` where one bomber survives"))
def raid_damage_impossible(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Each surviving bomber rolls one die of damage (1d6, no bonus in these editions): the total is at least the
    number of surviving bombers and at most six times it.  ``apply``'s caps (twice the territory's IPC value on
    a factory, the IPC value per bomber in Revised) cut what is applied, never what may be rolled.  A raid
    (``kind: raid`` in the battles state) with a surviving bomber writes its damage; written as the dice
    (``damage: [5, 1]``) it gives one die per surviving bomber.  A raid whose bombers all fell writes none (or 0);
    a positive damage with no bomber left is AA508's.
    """
    if result.battle is None or result.repeated:
        return
    count = len(bombers(result))
    damage, dice = result.extras.bombing, result.extras.bombing_dice
    if damage is None:
        if count and result.battle.raid and not damage_dice_given(result, resolution):
            yield Violation(_("the raid on {space} has {units} left: write the damage rolled "
                              "(bombing: {{damage: N}})").format(units=unit_phrase(count, "bomber"), space=result.at),
                            (*result.where, "at"))
        return
    if dice is not None and len(dice) != count:
        yield Violation(_("the raid on {space} has {units} left: write one die for each, not {dice}").format(
            space=result.at, units=unit_phrase(count, "bomber"), dice=len(dice)), (*result.where, "bombing", "damage"))
    elif count and not count <= damage <= 6 * count:
        yield Violation(_("{units} can roll {low} to {high} damage, not {damage}").format(
            units=unit_phrase(count, "bomber"), low=count, high=6 * count, damage=damage),
            (*result.where, "bombing", "damage"))


@battle_clause("AA523", "raid-damage-unsettled", "error",
               "Revised: a raid's damage written as a total above the territory's IPC value with several surviving "
               "bombers cannot be capped per bomber: give the dice",
               example=("``bombing: {damage: 9}`` where two bombers come through a raid on a territory worth 4 IPCs",
                        "``bombing: {damage: [5, 4]}``"))
def raid_damage_unsettled(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """In Revised (``factory_damage`` off) each bomber's die costs the owner at most the territory's IPC value
    (aa-battle.md, "Strategic bombing raids").  With several surviving bombers and a total above that value the
    cap cannot be applied to the total: the result gives the dice, one per bomber (``damage: [5, 1]``).
    """
    if result.battle is None or result.repeated or result.extras.bombing is None:
        return
    board = resolution.board
    if board.options["factory_damage"] or result.extras.bombing_dice is not None:
        return
    count, value = len(bombers(result)), board.map.production.get(result.at, 0)
    if count > 1 and result.extras.bombing > value:
        yield Violation(_("the raid on {space} has {units} left and each die counts at most {value}, the IPC value "
                          "there: a total of {damage} cannot be capped, write the dice (damage: [...])").format(
            units=unit_phrase(count, "bomber"), space=result.at, value=value, damage=result.extras.bombing),
            (*result.where, "bombing", "damage"))


@battle_clause("AA524", "raid-loss-without-aa", "error",
               "a raid's bombers are lost only to AA fire: in Revised and Anniversary the territory's AA gun fires at "
               "raiders, and a raid on a territory with no AA gun loses no bomber",
               example=("``- {at: Karelia S.S.R., kind: raid, attacker_losses: {bomber: 1}}`` in Revised with no AA "
                        "gun there", "the same where an AA gun defends Karelia S.S.R."))
def raid_loss_without_aa(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """AA fire is the only fire at raiders (aa-battle.md, "Strategic bombing raids"): in the 1942 second edition
    the factory's own AA, one die per bomber; in Revised and Anniversary the territory's AA gun, and no gun, no AA
    fire.  The raid's defenders in the battles state list what fires at the raiders: a raid whose defenders hold
    no AA gun where AA guns are infrastructure loses no bomber.
    """
    battle = result.battle
    if battle is None or result.repeated or not battle.raid or not result.losses["attacker"]:
        return
    board = resolution.board
    if not board.options["aa_guns_captured"] or any(u.type.is_aa_gun for u in battle.defenders):
        return  # the factory's own AA fires (1942 second edition), or an AA gun does
    yield Violation(_("no AA gun defends {space}, so nothing fires at the raiders: the raid loses no bomber, not "
                      "{units}").format(space=result.at, units=describe(result.casualties("attacker"))),
                    (*result.where, "attacker_losses"))


def damage_dice_given(result: Result, resolution: Resolution) -> bool:
    """The raid's ``rounds:`` give its damage dice: no ``bombing:`` total is needed (AA513 checks the dice)."""
    rounds = resolution.doc.get("results", result.index, "rounds", default=None)
    return (isinstance(rounds, list) and any(isinstance(r, dict) and isinstance(r.get("attacker"), dict)
                                             and "damage" in r["attacker"] for r in rounds)) or bool(
        pasted_damage(resolution.doc.get("results", result.index, "dice", default=None)))
