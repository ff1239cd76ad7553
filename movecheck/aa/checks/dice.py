"""Results checked against their dice (aa-battle.md, "Results checked against the dice"): AA513-AA520.

A result with ``rounds:`` is re-derived on the edition's battle model (:mod:`movecheck.aa.battle.replay`)
once; each clause reports the mismatches of its kind.  A result without ``rounds:`` is judged as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.checks.battles import battle_clause, dice_unchecked
from movecheck.clauses import Violation
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.battle.replay import Replay
    from movecheck.aa.turn.battles import Resolution, Result


def replayed(result: Result, resolution: Resolution) -> Replay | None:
    """The result's rounds re-derived (the battle engine is imported only for a result with ``rounds:`` or pasted
    ``dice:``, and never under Low Luck, whose dice are not checked)."""
    if dice_unchecked(resolution):
        return None
    rounds = resolution.doc.get("results", result.index, "rounds", default=None)
    if not rounds and not isinstance(resolution.doc.get("results", result.index, "dice", default=None), str):
        return None
    from movecheck.aa.battle.judged import replayed as replay_result

    return replay_result(result, resolution)


def mismatches(code: str, result: Result, resolution: Resolution) -> Iterator[Violation]:
    """The replay's findings of one code (the replay is made once per result and kept)."""
    found = replayed(result, resolution)
    for mismatch in found.mismatches if found else []:
        if mismatch.code == code:
            yield Violation(mismatch.message, mismatch.where)


@battle_clause("AA513", "dice-owed", "error",
               "a step's dice are not those its units owe: their number at each value (or per plane type), a step "
               "missing, a step that cannot happen then (AA or bombardment after round 1, a step with no target)",
               example=("``fire: {1: [3, 5]}`` for the attacker's 3 infantry", "``fire: {1: [3, 5, 1]}``"))
def dice_owed(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Each firing step throws one die per unit that fires in it, at its value (artillery support included),
    and AA fire the shots the edition gives, in round 1 only."""
    yield from mismatches("AA513", result, resolution)


@battle_clause("AA514", "hits-miscounted", "error",
               "hits or damage a result states are not those of its dice: a raid's bombing: against its damage dice, "
               "a pasted summary line with more hits than dice",
               example=("``bombing: {damage: 9}`` with damage dice 5 and 3", "``bombing: {damage: 8}``"))
def hits_miscounted(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A raid's written damage is the sum of its damage dice (its dice, when written one by one); a pasted
    summary line gives no more hits than it has dice."""
    yield from mismatches("AA514", result, resolution)
    found = replayed(result, resolution)
    if found is None or found.damage is None or result.extras.bombing is None:
        return
    written = result.extras.bombing_dice
    if (sorted(written) != sorted(found.damage)) if written is not None else result.extras.bombing != sum(found.damage):
        yield Violation(_("the raid's damage dice {dice} make {total}, the result says {damage}").format(
            dice=", ".join(map(str, found.damage)) or _("none"), total=sum(found.damage),
            damage=result.extras.bombing), (*result.where, "bombing", "damage"))


@battle_clause("AA515", "losses-not-hits", "error",
               "a round's losses and damaged: are not what its hits give (per step, the smaller of the hits and the "
               "targets' hit points), or its removed: is not what the rules remove without dice",
               example=("two hits on the defender and ``defender_losses: {infantry: 1}``",
                        "``defender_losses: {infantry: 2}``"))
def losses_not_hits(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A round's casualties take exactly the hit points its hits give."""
    yield from mismatches("AA515", result, resolution)


@battle_clause("AA516", "casualty-outside-class", "error",
               "a casualty no hit of its step could take: an aircraft taken by a submarine's hit, a submarine by "
               "aircraft that cannot hit it, anything but an aircraft by AA fire",
               example=("an AA hit and ``attacker_losses: {infantry: 1}``", "``attacker_losses: {fighter: 1}``"))
def casualty_outside_class(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Each casualty is within the targets of a step whose hit took it."""
    yield from mismatches("AA516", result, resolution)


@battle_clause("AA517", "ool-not-followed", "error",
               "a casualty other than the binding OOL gives (a result's ool:, or the file's; with chain dice, the OOL "
               "posted with x_0 for the choices inside a round)",
               example=("``ool: {attacker: [infantry, artillery]}`` and a round losing the artillery to one hit",
                        "the round losing an infantry"))
def ool_not_followed(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Where an order of loss binds, each round's casualties are the first of its list among each step's
    targets (an undamaged two-hit unit damaged first; transports last where the edition says so).  Under a
    ``dice_chain:`` the casualties chosen inside a round before later fire of it follow the order of loss posted
    with ``x_0``."""
    yield from mismatches("AA517", result, resolution)
    if resolution.doc.get("dice_chain", default=None) is not None:
        from movecheck.aa.battle.chained import inside_choices

        yield from inside_choices(result, resolution)


@battle_clause("AA518", "round-after-end", "error", "a round written after the battle ended",
               example=("a round 2 after round 1 left no defender", "the rounds ending with round 1"))
def round_after_end(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """No round follows the end of the battle (an outcome or a retreat)."""
    yield from mismatches("AA518", result, resolution)


@battle_clause("AA519", "round-missing", "error",
               "the last round written leaves the battle not over and no retreat ends it; or, with dice_chain:, a "
               "result without rounds:",
               example=("rounds ending with both sides left and no retreat:", "a further round, or a ``retreat:``"))
def round_missing(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """The last round leaves the battle over (by the outcome rules or a retreat); AA505 for results without
    rounds.  Under a ``dice_chain:`` every result gives its rounds: its dice are the chain's to check."""
    if (isinstance(resolution.doc.get("dice_chain", default=None), dict) and result.battle is not None
            and not result.repeated and not resolution.doc.get("results", result.index, "rounds", default=None)):
        yield Violation(_("the results roll their dice from a dice chain (dice_chain:), and this result gives no "
                          "rounds: write each round's dice"), (*result.where, "at"))
    yield from mismatches("AA519", result, resolution)


@battle_clause("AA520", "totals-not-rounds", "error",
               "a result's losses, submerged: or retreat: are not those its rounds add up to; with pasted dice and "
               "totals only, no split of the totals into the rounds fits the dice",
               example=("rounds losing 1 infantry and ``attacker_losses: {infantry: 2}``",
                        "``attacker_losses: {infantry: 1}``"))
def totals_not_rounds(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """The result's totals are the sum of its rounds (cargo left out).  With pasted dice and totals only, some
    split of the totals into the rounds fits the dice."""
    yield from mismatches("AA520", result, resolution)
    found = replayed(result, resolution)
    if found is None or not found.rounds:
        return
    for side in ("attacker", "defender"):
        rounds = +found.losses[side]
        total = +Counter(result.losses[side])
        if rounds != total:
            yield Violation(_("the {side}'s losses add up to {rounds} over the rounds, the result says "
                              "{total}").format(side=side, rounds=phrase(rounds), total=phrase(total)),
                            (*result.where, f"{side}_losses"))
    submerged = +Counter({s: n for s, n in result.submerged.items() if isinstance(n, int)})
    if +found.submerged != submerged:
        yield Violation(_("the rounds submerge {rounds}, the result says {total}").format(
            rounds=phrase(+found.submerged), total=phrase(submerged)), (*result.where, "submerged"))
    written_damaged = Counter[str]()
    for by_type in result.extras.damaged.values():
        written_damaged.update(by_type)
    if found.damage is None and +found.damaged != +written_damaged:
        yield Violation(_("the rounds leave {rounds} damaged, the result says {total}").format(
            rounds=phrase(+found.damaged), total=phrase(+written_damaged)), (*result.where, "damaged"))
    rounds_retreat = None if found.retreat is None else resolution.board.map.resolve(found.retreat) or found.retreat
    if found.damage is None and rounds_retreat != result.retreat:
        yield Violation(_("the rounds retreat to {rounds}, the result says {total}").format(
            rounds=found.retreat or _("no retreat"), total=result.retreat or _("no retreat")),
            (*result.where, "retreat" if result.retreat else "at"))


@battle_clause("AA522", "dice-text-unread", "warning",
               "a line under dice: that could not be read, or that names another territory or a power not in the "
               "battle; or dice under Low Luck, which this release does not check",
               example=("``Germans rolled 1,4,6`` under ``dice: |``",
                        "``Germans roll dice for 3 infantry in Belorussia, round 1 : 1,4,6``"))
def dice_text_unread(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Every line pasted under ``dice: |`` is read: a TripleA history or summary line, or a forum ``N@V`` line,
    of this battle (aa-battle.md, "Pasted dice").  A line that is not is reported at its own line, never skipped
    in silence; the dice read from the other lines are still checked, so a missing roll shows as a step missing
    (AA513).  Dice under Low Luck (options ``low_luck``, ``low_luck_aa``, ``low_luck_bombing``) are read but not
    checked: the result is judged as one without dice, and this warning says so."""
    if dice_unchecked(resolution):
        for key in ("rounds", "dice"):
            if resolution.doc.get("results", result.index, key, default=None):
                yield Violation(_("the dice of this result are not checked under Low Luck: it is judged as a "
                                  "result without dice"), (*result.where, key))
                return
        return
    yield from mismatches("AA522", result, resolution)


def phrase(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or _("nothing")


@battle_clause("AA521", "dice-not-from-chain", "error",
               "a posted link x_k does not hash to the link before it, the digest is not the state's, or a die is "
               "not the one the construction gives", scope="end",
               example=("a round's ``fire: {1: [5, 1, 4]}`` where the chain's reveal gives 5, 1, 5",
                        "``fire: {1: [5, 1, 5]}``"))
def dice_not_from_chain(resolution: Resolution) -> Iterator[Violation]:
    """Under ``dice_chain:`` each posted link hashes to the one before it, the posted digest is the battles
    state's, and every die of every round is the one the dice construction gives for its reveal, battle,
    round, side and step (aa-battle.md, "The dice construction")."""
    if resolution.doc.get("dice_chain", default=None) is None:
        return
    from movecheck.aa.battle.chained import chain_problems

    yield from chain_problems(resolution)
