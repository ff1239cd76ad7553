"""Battle-result clauses (aa.md, "Battle results").

Each battle is resolved once, with losses that fought and a legal retreat.

A *result* clause looks at one entry of ``results:`` (a :class:`~movecheck.aa.turn.battles.Result`)
with the :class:`~movecheck.aa.turn.battles.Resolution` it belongs to; an *end* clause at the
results file as a whole.  The seed rule texts have no paragraph on resolving battles:
these clauses follow the A&A rulebook's battle sequence (aa.md gives each rule).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from movecheck.aa.turn.battle_extras import fights
from movecheck.aa.turn.battles import END, RESULT, SIDES, STAYED_ABOARD, SUNK, Resolution, Result
from movecheck.aa.units import describe
from movecheck.aa.wording import unit_phrase
from movecheck.clauses import Violation, clause
from movecheck.i18n import N_, _

if TYPE_CHECKING:
    from movecheck.aa.units import Unit


def battle_clause(
    code: str, name: str, severity: str, summary: str, seeds: Iterable[str] = (), *, scope: str = "result",
    consequences: Iterable[str] = (), example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare an aa clause of the battle results, run on each result (``result``) or on the file (``end``)."""
    runs = [RESULT if scope == "result" else END]
    return clause(code, name, severity, summary, seeds, system="aa", phase="battles", runs=runs,
                  consequences=consequences, example=example)


@battle_clause("AA501", "battle-unknown", "error",
               "a result names a space that is not a battle of the state, or a battle gets two results (a space with a "
               "raid and a land battle has two results, one of them kind: raid)",
               example=("``- {at: Poland, defender_losses: {infantry: 1}}`` where the state has no battle in Poland",
                        "``- {at: Belorussia, defender_losses: {infantry: 1}}``, a battle of the state"))
def battle_unknown(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Each result is for one of the battles the state lists under ``battles:``, and each battle gets one result.

    A second result for the same battle is reported; the first one counts.  A territory both raided and
    attacked has two battles, so two results: the raid's says ``kind: raid`` (aa-battle.md, "Strategic
    bombing raids"); ``kind: raid`` where no raid is fought names no battle.
    """
    if result.battle is None and result.kind == "raid":
        yield Violation(_("there is no raid on {space} (the state's raids: {raids})").format(
            space=result.at, raids=", ".join(sorted(resolution.raids)) or _("none")), (*result.where, "kind"))
    elif result.battle is not None and result.battle.raid and result.repeated:
        yield Violation(_("the raid on {space} already has a result earlier in the file").format(space=result.at),
                        (*result.where, "at"))
    elif result.battle is None:
        if resolution.battles:
            message = _("there is no battle in {space} (the state's battles: {battles})")
        else:
            message = _("there is no battle in {space} (the state's battles: none)")
        yield Violation(
            message.format(space=result.at, battles=", ".join(sorted(resolution.battles))), (*result.where, "at")
        )
    elif result.repeated:
        yield Violation(
            _("the battle in {space} already has a result earlier in the file").format(space=result.at),
            (*result.where, "at"),
        )


@battle_clause(
    "AA502",
    "losses-not-present",
    "error",
    "losses name more units of a type than fought there for that side (or more submarines submerge than survive)",
    example=("``attacker_losses: {tank: 2}`` where one attacking tank fought", "``attacker_losses: {tank: 1}``"),
)
def losses_not_present(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A side loses only units that fought in the battle for it: never more of a type than it had there.

    The attacker's units are the moving power's units in the space (cargo aboard a vessel
    at sea goes down with its vessel and is not a casualty of its own); the defender's are
    the enemy units in play there.  Submarines that submerge must be among the survivors.
    """
    battle = result.battle
    if battle is None or result.repeated:
        return
    for side in SIDES:
        if side == "defender" and is_raid(result, resolution):
            continue  # a raid kills no defender: AA511 says so
        fought = {u.id for u in battle.listed(side) if u.id is not None}
        for unit_id in sorted(result.named_losses.get(side, {})):
            if unit_id not in fought:
                yield Violation(
                    _(NOT_THERE[side]).format(id=unit_id, space=battle.at), (*result.where, f"{side}_losses", unit_id)
                )
        had = _by_type(battle.listed(side))
        for kind, count in sorted(result.losses[side].items()):
            if count > had.get(kind, 0):
                there = unit_phrase(had.get(kind, 0), kind)
                yield Violation(_(LOSES[side]).format(units=unit_phrase(count, kind), space=battle.at, had=there),
                                (*result.where, f"{side}_losses", kind))
        subs = sum(1 for u in result.survivors(side) if u.type.submarine)
        wanted = int(result.submerged.get(side, 0))
        if wanted > subs:
            yield Violation(
                _(SUBMERGE[side]).format(units=unit_phrase(wanted, "submarine"), space=battle.at, count=subs),
                (*result.where, "submerged", side),
            )


@battle_clause(
    "AA503",
    "retreat-illegal",
    "error",
    "the attacker retreats only to an adjacent friendly space from which at least one attacking unit came; "
    "land units of an amphibious assault never retreat; sea units retreat to a sea zone, land units to a "
    "territory",
    example=("``retreat: Ukraine S.S.R.`` after attacking Caucasus from West Russia only", "``retreat: West Russia``"),
)
def retreat_illegal(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """The attacker's survivors retreat together, to a space next to the battle that an attacking unit came from.

    That space must be friendly (a territory the moving side controls, a sea zone with no
    enemy warship); a battle at sea retreats to a sea zone, one on land to a territory.
    Aircraft never move in a retreat: they leave the battle and stay in its space, to land in
    the noncombat move.  Land units that attacked from the sea (an amphibious assault) stay
    and fight on.  With ``partial_amphibious_retreat`` (1942 second edition) the land units
    that came overland retreat all the same; without it (Revised) no land unit of a battle
    with amphibious land units retreats, and only its aircraft may leave the battle.  Nothing
    retreats from a battle the attacker lost whole; a battle whose attackers never landed is
    AA507's.  A strategic bombing raid has one round and no retreat.
    """
    battle, space = result.battle, result.retreat
    if battle is None or space is None or result.repeated:
        return
    board = resolution.board
    where = (*result.where, "retreat")
    if battle.raid:
        yield Violation(_("bombers that raid {space} do not retreat: a raid has one round, and they leave after "
                          "it").format(space=battle.at), where)
        return
    if not battle.side("attacker") and battle.at_sea:
        return  # no attacker reached the shore: AA507
    if not result.survivors("attacker"):
        yield Violation(_("no attacking unit survives in {space}: nothing retreats").format(space=battle.at), where)
        return
    problem = _retreat_problem(resolution, battle.at, space, battle.came_from)
    if problem:
        yield Violation(_("the attackers in {space} may not retreat to {retreat}: {problem}").format(
            space=battle.at, retreat=space, problem=problem), where)
    amphibious = {u.uid for u in battle.amphibious_units()}
    held = [u for u in result.staying(board.options) if u.uid not in amphibious]
    if held:
        yield Violation(
            _(
                "{units} may not retreat from {space}: no land unit retreats from a battle with amphibious land "
                "units under these rules (option partial_amphibious_retreat is off); only aircraft leave it"
            ).format(units=describe(held), space=battle.at),
            where,
        )


def is_raid(result: Result, resolution: Resolution) -> bool:
    """A strategic bombing raid: the result of a battle the state lists with ``kind: raid``; in a state that
    writes no ``kind:`` (before raids were battles), a result that gives ``bombing:`` where only bombers attack."""
    if result.battle is None:
        return False
    if result.battle.raid or resolution.kinds:
        return result.battle.raid
    attackers = result.battle.side("attacker")
    return result.extras.bombing is not None and bool(attackers) and all(u.type.is_bomber for u in attackers)


def _retreat_problem(resolution: Resolution, at: str, space: str, came_from: tuple[str, ...]) -> str | None:
    """Why a retreat from ``at`` to ``space`` is not allowed (None: it is)."""
    board = resolution.board
    if board.is_sea(at) != board.is_sea(space):
        return (
            _("a battle at sea retreats to a sea zone")
            if board.is_sea(at)
            else _("a land battle retreats to a territory")
        )
    if not board.map.adjacent(at, space):
        return _("it does not border the battle")
    if not came_from:
        return _("the battles state does not say where the attackers came from (its battle has no from:)")
    if space not in came_from:
        came = ", ".join(s for s in came_from if board.is_sea(s) == board.is_sea(at))
        if not came:
            return _("no attacking unit came from there (they came from nowhere it may retreat to)")
        return _("no attacking unit came from there (they came from {spaces})").format(spaces=came)
    if board.hostile(space) or (not board.is_sea(space) and not board.friendly_territory(space)):
        return _("it is not friendly")
    return None


@battle_clause("AA504", "battle-unresolved", "error", "a battle of the state has no result", scope="end",
               example=("the state lists battles in Karelia S.S.R. and Egypt; the results name only Karelia S.S.R.",
                        "a result for each of them"))
def battle_unresolved(resolution: Resolution) -> Iterator[Violation]:
    """Every battle the state lists gets a result: the noncombat move starts when all battles are over.

    Reported once per battle, at the file's ``results:`` key.  A land battle none of whose attackers
    reached the shore (their transports sunk in, or retreating from, the sea battle: AA507) is not
    fought and needs none.
    """
    unfought = {space for space, battle in resolution.battles.items() if battle.at_sea and not battle.side("attacker")}
    for space in sorted(set(resolution.raids) - resolution.named_raids):
        yield Violation(_("the raid on {space} has no result (kind: raid)").format(space=space), ("results",))
    for space in sorted(set(resolution.battles) - resolution.named - unfought):
        yield Violation(_("the battle in {space} has no result").format(space=space), ("results",))


@battle_clause("AA505", "battle-not-over", "error",
               "after the losses both sides still have combat units there and the attacker does not retreat (or only "
               "some attackers retreat and those that stay fight on)",
               example=("``- {at: Egypt, attacker_losses: {infantry: 1}}`` with British units left in Egypt",
                        "``defender_losses`` naming every British unit in Egypt, or a ``retreat:``"))
def battle_not_over(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """A battle goes on until one side has no units left that fight, or the attacker retreats.

    Factories do not keep a battle going (they change hands), nor AA guns where they are
    captured with the territory (``aa_guns_captured``, Revised; in the 1942 second edition an
    AA gun defends until it is destroyed), nor submarines that submerged.  A result that leaves
    both sides with such units and no ``retreat:`` describes a battle that is not over.  A
    retreat leaves the amphibious land units (every land unit, without
    ``partial_amphibious_retreat``) fighting on: the result must end the battle for them.  A strategic
    bombing raid (only bombers attack, and the result gives ``bombing:``) is no battle: the bombers
    drop their bombs and leave, whatever defends the territory.
    """
    battle = result.battle
    if battle is None or result.repeated or is_raid(result, resolution) or has_rounds(result, resolution):
        return  # with rounds: AA519 says whether the battle is over
    board = resolution.board
    if result.retreat is not None:
        left = {"attacker": [u for u in result.staying(board.options) if fights(u, board)],
                "defender": [u for u in result.survivors("defender") if fights(u, board)]}
    else:
        left = {side: [u for u in result.survivors(side) if fights(u, board)] for side in SIDES}
    submerging = {side: int(result.submerged.get(side, 0)) for side in SIDES}
    for side in SIDES:  # the submarines that submerge leave the battle
        subs = [u for u in left[side] if u.type.submarine][: submerging[side]]
        left[side] = [u for u in left[side] if u not in subs]
    if left["attacker"] and left["defender"] and result.retreat is not None:
        yield Violation(_("the battle in {space} is not over: the attackers keep {attackers} there after the "
                          "retreat, fighting on against {defenders} (add losses)").format(
                            space=battle.at, attackers=describe(left["attacker"]),
                            defenders=describe(left["defender"], powers=True)),
                        (*result.where, "retreat"))
    elif left["attacker"] and left["defender"]:
        yield Violation(
            _(
                "the battle in {space} is not over: after the losses the attackers still have {attackers} and "
                "the defenders {defenders} (add losses or a retreat)"
            ).format(
                space=battle.at, attackers=describe(left["attacker"]), defenders=describe(left["defender"], powers=True)
            ),
            (*result.where, "at"),
        )


@battle_clause(
    "AA506",
    "submerge-not-allowed",
    "error",
    "a submarine submerges only when no enemy destroyer is left in the battle, and only where the rules "
    "let submarines submerge (option subs_may_submerge)",
    example=(
        "``submerged: {defender: 1}`` where the attacker's destroyer survives the battle",
        "the same where the attacker's destroyer is among the losses (the sub submerges in a later round)",
    ),
)
def submerge_not_allowed(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Submarines submerge instead of fighting on, unless an enemy destroyer is present.

    A destroyer that is sunk in the battle may have been sunk before the submarine
    submerged (a later round), so only an enemy destroyer that survives the
    battle forbids it.  With ``subs_may_submerge: false`` no submarine submerges.  A result with ``rounds:``
    submerges at the moment the edition gives, a side's submarines together (:mod:`movecheck.aa.battle.replay`).
    """
    if has_rounds(result, resolution):
        from movecheck.aa.battle.judged import mismatches

        yield from mismatches("AA506", result, resolution)
    if not result.submerged:
        return
    if not resolution.submerge_allowed:
        yield Violation(_("submarines do not submerge under these rules (option subs_may_submerge is off)"),
                        (*result.where, "submerged"))
        return
    if result.battle is None:
        return  # AA501 speaks of it
    for side, count in sorted(result.submerged.items()):
        other = "defender" if side == "attacker" else "attacker"
        if count and any(u.type.destroyer for u in result.survivors(other)):
            yield Violation(
                _(SUBMERGE_UNDER_DESTROYER[side]).format(space=result.at), (*result.where, "submerged", side)
            )


@battle_clause(
    "AA507",
    "cargo-lost-at-sea",
    "error",
    "the sea battle comes first: cargo whose transport is sunk in its zone's sea battle (or retreats from it) "
    "never lands, so a land result may not count it among its losses, nor give losses or a retreat in a battle "
    "none of whose attackers landed",
    ("C1", "C12"),
    example=(
        "``- {at: United Kingdom, defender_losses: {infantry: 2}}`` where the only attackers were the "
        "cargo of a transport sunk in 6 Sea Zone",
        "no result for United Kingdom: the infantry went down with their transport",
    ),
)
def cargo_lost_at_sea(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Amphibious cargo reaches the shore only if its transport comes through its zone's sea battle (C1, C12).

    The cargo of a transport among that battle's ``attacker_losses`` is lost with it; the cargo of
    a transport that retreats from it stays aboard and goes with it.  Either way it is no attacker
    of the land battle it was to join: it neither dies there, nor survives, captures or retreats.
    A land battle whose attackers all stayed at sea is not fought: its result (it needs none,
    AA504) may give no losses and no retreat.  One whose amphibious cargo was all lost is an
    ordinary land battle of the units that came overland.
    """
    battle = result.battle
    if battle is None or result.repeated or not battle.at_sea:
        return
    board = resolution.board
    lost = [u for u in battle.attackers if u.uid in battle.at_sea]
    zones = ", ".join(sorted({board.by_id[u.landed_from or ""].at for u in lost}))
    fates = {battle.at_sea[u.uid] for u in lost}
    why = fates.pop() if len(fates) == 1 else None
    cargo = describe(lost)
    if not battle.side("attacker"):
        if any(result.losses[side] for side in SIDES) or result.retreat is not None:
            template = NEVER_LANDED_ALL[why]
            yield Violation(_(template).format(space=battle.at, units=cargo, zones=zones), (*result.where, "at"))
        return
    at_sea = {u.id for u in lost if u.id}
    said = set()
    for unit_id, kind in sorted(result.named_losses.get("attacker", {}).items()):
        if unit_id in at_sea:
            said.add(kind)
            yield Violation(_(NEVER_LANDED_ID[why]).format(id=unit_id, space=battle.at, zones=zones),
                            (*result.where, "attacker_losses", unit_id))
    left, listed = _by_type(battle.side("attacker")), _by_type(battle.attackers)
    for kind, count in sorted(result.losses["attacker"].items()):
        if kind not in said and left.get(kind, 0) < count <= listed.get(kind, 0):
            yield Violation(_(NEVER_LANDED_LOSSES[why]).format(
                units=unit_phrase(count, kind), space=battle.at, cargo=cargo, zones=zones,
                had=unit_phrase(left.get(kind, 0), kind)), (*result.where, "attacker_losses", kind))


NEVER_LANDED_ALL = {
    SUNK: N_("no attacker reaches {space}: {units} went down in {zones} with their transport; the battle is not fought "
             "(no losses, no retreat)"),
    STAYED_ABOARD: N_("no attacker reaches {space}: {units} stayed aboard in {zones}, their transport retreating; the "
                      "battle is not fought (no losses, no retreat)"),
    None: N_("no attacker reaches {space}: {units} never landed, their transports sunk in or retreating from {zones}; "
             "the battle is not fought (no losses, no retreat)"),
}
NEVER_LANDED_ID = {
    SUNK: N_("{id} never landed in {space}: it went down in {zones} with its transport"),
    STAYED_ABOARD: N_("{id} never landed in {space}: it stayed aboard in {zones}, its transport retreating"),
    None: N_("{id} never landed in {space}: its transport was sunk in or retreated from {zones}"),
}
NEVER_LANDED_LOSSES = {
    SUNK: N_("the attacker loses {units} in {space}, but {cargo} went down in {zones} with their transport: it has "
             "{had} there"),
    STAYED_ABOARD: N_("the attacker loses {units} in {space}, but {cargo} stayed aboard in {zones}, their transport "
                      "retreating: it has {had} there"),
    None: N_("the attacker loses {units} in {space}, but {cargo} never landed, their transports sunk in or retreating "
             "from {zones}: it has {had} there"),
}
"""AA507's messages, by why the cargo never landed (None: some transports sunk, others retreating)."""


SUBMERGE_UNDER_DESTROYER = {
    "attacker": N_("the attacker's submarines cannot submerge in {space}: a defending destroyer is there to the end"),
    "defender": N_("the defender's submarines cannot submerge in {space}: an attacking destroyer is there to the end"),
}


LOSES = {
    "attacker": N_("the attacker loses {units} in {space}, but had {had} in the battle"),
    "defender": N_("the defender loses {units} in {space}, but had {had} in the battle"),
}
NOT_THERE = {
    "attacker": N_("{id} did not fight for the attacker in {space}: it cannot be among the attacker's losses"),
    "defender": N_("{id} did not fight for the defender in {space}: it cannot be among the defender's losses"),
}
SUBMERGE = {
    "attacker": N_("the attacker submerges {units} in {space}, but the losses leave it {count}"),
    "defender": N_("the defender submerges {units} in {space}, but the losses leave it {count}"),
}
"""AA502's messages for each side."""


def _by_type(units: list[Unit]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.type.name] = counts.get(unit.type.name, 0) + 1
    return counts


def has_rounds(result: Result, resolution: Resolution) -> bool:
    """The result gives its battle round by round (``rounds:``, or pasted ``dice:``): AA519 replaces AA505 for it
    (not under Low Luck, where a result is judged as one without dice)."""
    if dice_unchecked(resolution):
        return False
    if resolution.doc.get("results", result.index, "rounds", default=None):
        return True
    text = resolution.doc.get("results", result.index, "dice", default=None)
    if not isinstance(text, str):
        return False
    from movecheck.aa.battle.pasted import has_rolls

    return has_rolls(text)


def dice_unchecked(resolution: Resolution) -> bool:
    """Dice are not checked under Low Luck (aa-battle.md, "Low Luck"): any of its three options is on."""
    options = resolution.board.options
    return bool(options["low_luck"] or options["low_luck_aa"] or options["low_luck_bombing"])
