"""The dice of one battle round from the two sides' links (aa-battle.md, "The dice construction"), step by step.

Each firing step's dice come from :func:`movecheck.aa.battle.chain.step_dice`, as many as the battle model says
the step owes; the casualties chosen inside the round before later fire of it (AA fire in 1942 second
edition, an uncountered surprise strike, Revised bombardment) are taken by the side's order of loss (the one
posted with ``x_0``), since the later steps' dice depend on them.  ``dice roll`` prints these rounds;
``check`` replays them to judge the choices (AA517).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa.battle import chain
from movecheck.aa.battle.model import ANY, STEP_TARGETS
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.battle.replay import Replayer
    from movecheck.aa.battle.side import Counts
    from movecheck.aa.turn.battles import Battle

SIDES = chain.SIDES


@dataclass
class Rolled:
    """One battle's round in reveal K: its dice by side and step (each step's dice by value or plane type)."""

    at: str
    kind: str
    round: int
    dice: dict[str, dict[str, dict[str, list[int]]]] = field(default_factory=lambda: {s: {} for s in SIDES})
    note: str = ""
    chosen: list[str] = field(default_factory=list)
    """The casualties chosen inside the round by the posted order of loss, said for the players."""


@dataclass
class Roller:
    """The dice of one battle's next round, step by step."""

    replayer: Replayer | None
    """The battle's rounds so far (None for a raid, which has one round)."""
    model: type[BattleModel]
    keys: tuple[bytes, bytes]
    digest: str
    rolled: Rolled

    def draw(self, side: str, step: str, count: int) -> list[int]:
        """The first ``count`` dice of a step, not yet given out (a step's dice of a smaller count are the first of
        these)."""
        return chain.step_dice(*self.keys, self.digest, self.rolled.at, self.rolled.kind, self.rolled.round, side,
                               step, count)

    def roll(self, side: str, step: str, owed: list[tuple[str, int]]) -> dict[str, list[int]]:
        count = sum(n for _k, n in owed)
        if not count:
            return {}
        dice = self.draw(side, step, count)
        dealt = chain.deal(dice, owed)
        self.rolled.dice[side][step] = dealt
        return dealt


def take_by_ool(roller: Roller, which: str, counts: Counts, count: int, cls: str, why: str) -> Counts:
    """A side after ``count`` hits of a step whose casualties go before later fire: its order of loss chooses."""
    assert roller.replayer is not None
    side = roller.replayer.side(which)
    left, killed = side.take(counts, count, cls)
    lost = Counter[str]()
    for n, kind in zip(killed, side.kinds, strict=True):
        lost[kind.name] += n
    if +lost:
        units = ", ".join(f"{n} {name}" for name, n in sorted((+lost).items()))
        roller.rolled.chosen.append(_("{why} takes the {side}'s {units} (the posted order of loss)").format(
            why=why, side=which, units=units))
    return left


def hits(dealt: dict[str, list[int]], by_type: bool = False) -> int:
    return sum(1 for key, dice in dealt.items() for d in dice if d <= (1 if by_type or not key.isdigit() else int(key)))


def by_value(owed: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(owed.items(), key=lambda item: int(item[0]))


def fight_round(roller: Roller, state: tuple[Counts, Counts], first: bool,
                entry: dict[str, Any] | None = None) -> None:
    """The steps of one round of a land or sea battle, in the edition's order (``entry``: the round as written,
    whose ``submerged:`` is the submerge chosen at its start in the editions that submerge then)."""
    rp, model = roller.replayer, roller.model
    assert rp is not None
    battle = rp.battle
    if model.submerge_before_round and entry and entry.get("submerged"):
        state = rp.submerge(roller.rolled.round - 1, entry, *state)
    (a, d), outcome = battle.round_start(state, first)
    if outcome:
        roller.rolled.note = _("the battle ends before any fire ({why})").format(why=outcome)
        return
    now = {"attacker": a, "defender": d}
    if first:
        now["attacker"] = aa_fire(roller, now)
        now["defender"] = bombard(roller, now)
    sub = {w: rp.owed_groups(w, now, "sub") for w in SIDES}
    early = dict(now)
    for which in SIDES:
        other = SIDES[1 - SIDES.index(which)]
        struck = hits(roller.roll(which, "sub_strike", by_value(sub[which].get("sub_strike", {}))))
        if struck and model.sub_surprise(rp.side(other).any_of(now[other], "destroyer")):
            early[other] = take_by_ool(roller, other, early[other], struck, STEP_TARGETS["sub_strike"],
                                       _("the surprise strike"))
    main = {w: rp.owed_groups(w, early, "main") for w in SIDES}
    for which in SIDES:
        for step in ("subs", "air", "fire"):
            roller.roll(which, step, by_value(main[which].get(step, {})))


def aa_fire(roller: Roller, now: dict[str, Counts]) -> Counts:
    """Round 1's AA fire at the attacking aircraft, the edition's AA gun and then each map AA type (the engine's
    AA groups, in its order), each at the aircraft left; the attacker without the planes it shoots down.  The
    step's dice are given out group by group in that order (one group: as before, by value or plane type)."""
    rp = roller.replayer
    assert rp is not None
    battle = rp.battle
    firing = [(group, guns) for group in battle.aa_groups
              if (guns := group.fixed + sum(c for c, k in zip(now["defender"], battle.dfn.kinds, strict=True)
                                            if k.base in group.types and not k.out))]
    planes = now["attacker"]
    bound = sum(aa_owed(roller, group, guns, planes)[1] for group, guns in firing)
    if not bound:
        return planes
    dice = roller.draw("defender", "aa", bound)
    owed: list[tuple[str, int]] = []
    for group, guns in firing:
        planes = aa_group_hits(roller, group, guns, planes, dice[sum(n for _k, n in owed):], owed)
    roller.roll("defender", "aa", owed)
    return planes


def aa_owed(roller: Roller, group: Any, guns: int, planes: Counts) -> tuple[list[tuple[str, int]], int]:
    """One AA group's dice: (value or plane type, count) in the construction's order, and their number."""
    rp = roller.replayer
    assert rp is not None
    att = rp.battle.att
    if roller.model.aa_attacker_chooses:
        targets = att.targets(planes, group.cls)
        shots = targets if group.shots is None else min(targets, group.shots * guns)
        return [(str(group.value), shots)] if shots else [], shots
    per_type = rp.planes_by_type(planes, group.cls)
    order = {name: i for i, name in enumerate(rp.types)}
    owed = sorted(per_type.items(), key=lambda item: order.get(item[0], len(order)))
    return owed, sum(per_type.values())


def aa_group_hits(roller: Roller, group: Any, guns: int, planes: Counts, dice: list[int],
                  owed: list[tuple[str, int]]) -> Counts:
    """One AA group fires its share of the step's ``dice`` (``owed`` gets its dice); the planes left."""
    rp = roller.replayer
    assert rp is not None
    mine, count = aa_owed(roller, group, guns, planes)
    owed.extend(mine)
    if roller.model.aa_attacker_chooses:
        shot = sum(1 for d in dice[:count] if d <= group.value)
        return take_by_ool(roller, "attacker", planes, shot, group.cls, _("AA fire"))
    left = list(planes)
    start = 0
    for plane, n in mine:
        for _n in range(sum(1 for d in dice[start:start + n] if d <= group.value)):
            rp.kill(left, "attacker", plane)
        start += n
    return tuple(left)


def bombard(roller: Roller, now: dict[str, Counts]) -> Counts:
    """Round 1's bombardment by every ship that may bombard; in Revised its casualties are gone before the fire."""
    rp = roller.replayer
    assert rp is not None
    if not rp.ships or not rp.battle.dfn.targets(now["defender"], ANY):
        return now["defender"]
    owed = Counter(str(v) for v in rp.ships)
    shot = hits(roller.roll("attacker", "bombard", by_value(dict(owed))))
    if shot and not roller.model.bombard_casualties_fire:
        return take_by_ool(roller, "defender", now["defender"], shot, ANY, _("bombardment"))
    return now["defender"]


def raid_round(roller: Roller, battle: Battle) -> None:
    """A raid's one round: AA fire at the bombers where the edition fires, then a damage die per survivor."""
    bombers = len(battle.attackers)
    fires = roller.model.raid_aa == "factory" or any(u.type.is_aa_gun for u in battle.defenders)
    shot = 0
    if fires and bombers:
        by_type = not roller.model.aa_attacker_chooses
        shot = hits(roller.roll("defender", "aa", [("bomber" if by_type else "1", bombers)]), by_type)
    roller.roll("attacker", "damage", [("6", bombers - shot)])


__all__ = ["Rolled", "Roller", "fight_round", "raid_round"]
