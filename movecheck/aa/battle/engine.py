"""The exact odds of one battle: a dynamic programme over the survivors along the order of loss.

A battle's state is, per side, how many units of each *kind* are left (a kind is a unit type,
or its damaged two-hit form, or its submerged form), the kinds in the side's order of loss.
A round takes a state to a distribution of states: each firing step's hits have an exact
distribution (a convolution of binomials, one per value), and the casualties of a number of
hits are fixed by the order of loss (:meth:`Side.take`).  Every round either changes the state
or leaves it as it was; a state changed has fewer hit points in the battle, so the states are
visited from the most hit points down, each once, and a round that changes nothing is summed
as a geometric series (probability of leaving ``1 - p_stay``).  Round 1 (AA fire, bombardment)
is its own transition.

Floating point by default; with ``exact=True`` the same code runs on :class:`fractions.Fraction`.
In floating point a state whose probability is below :data:`DROP` is dropped, and what is
dropped is added up: the odds are refused (:class:`Inexact`) rather than given when it reaches
:data:`TOLERANCE`.  Work is counted in steps against a budget (:class:`movecheck.budget.SearchLimit`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from movecheck.aa.battle import solve as solving
from movecheck.aa.battle.model import AIR, ANY, NON_AIR, NON_SUB, BattleModel
from movecheck.aa.battle.side import (
    ATTACKER_WINS,
    BOTH_DESTROYED,
    BUDGET_VARIABLE,
    DEFAULT_BUDGET,
    DEFENDER_HOLDS,
    DROP,
    OUTCOMES,
    RETREAT,
    STALEMATE,
    TOLERANCE,
    Block,
    Counts,
    Inexact,
    Kind,
    Num,
    Side,
    State,
    add,
    add_live,
    binomial,
    merged,
    plus,
    retreated,
    submerged,
)
from movecheck.aa.battle.solve import Solution
from movecheck.budget import SearchLimit

__all__ = [
    "ATTACKER_WINS", "BOTH_DESTROYED", "BUDGET_VARIABLE", "DEFAULT_BUDGET", "DEFENDER_HOLDS", "DROP", "OUTCOMES",
    "RETREAT", "STALEMATE", "TOLERANCE", "Battle", "Block", "Counts", "Inexact", "Kind", "Num", "Side", "Solution",
    "State", "add", "add_live", "binomial", "merged", "plus", "submerged",
]


@dataclass(frozen=True)
class AAGroup:
    """AA guns that fire alike: the edition's (type ``aa_gun`` without ``aa`` stats) or a map's AA type."""

    value: int
    sides: int
    shots: int | None
    """Shots per gun where the attacker chooses the planes hit (None: one per aircraft)."""
    cls: str
    """What it may hit: aircraft (``air``), less the types it may not (``air!bomber``)."""
    types: frozenset[str]
    """The unit types of the battle that are these guns."""
    fixed: int = 0
    """Guns that are not units of the battle (infrastructure)."""


Pool = list[Any]
"""A support that may still be given: [bonus type, bonus, which kinds it raises, how many units it raises]."""


def support_pools(fire: list[tuple[int, Kind]], attacking: bool) -> list[Pool]:
    """The supports of a firing group: its artillery's (attacking, +1 to one supportable unit each),
    then each kind's map ``support`` in order of loss."""
    pools: list[Pool] = []
    artillery = sum(c for c, k in fire if k.artillery) if attacking else 0
    if artillery:
        pools.append(["artillery", 1, lambda k: k.infantry, artillery])
    for c, k in fire:
        for bonus, number, units, kind in k.supports:
            pools.append([kind, bonus, lambda k2, u=units: k2.base in u, c * number])
    return pools


def supported(kind: Kind, values: list[int], pools: list[Pool], used: dict[str, int]) -> None:
    """Raise the values of a kind's units by the pools that support it, in order: each pool raises the next
    units not yet raised by a bonus of its type (bonuses of different types add up on the first units)."""
    for pool in pools:
        bonus_type, bonus, raises, left = pool
        if not left or not raises(kind):
            continue
        start = used.get(bonus_type, 0)
        count = min(left, len(values) - start)
        for index in range(start, start + count):
            values[index] += bonus
        used[bonus_type] = start + count
        pool[3] = left - count


class Battle:
    """One battle made ready for the odds: its two sides, its model, its first round's extras."""

    def __init__(
        self,
        model: type[BattleModel],
        attacker: Side,
        defender: Side,
        start: State,
        *,
        land: bool,
        aa_guns: int = 0,
        aa_groups: tuple[AAGroup, ...] | None = None,
        bombard: tuple[int, ...] = (),
        may_retreat: bool = False,
        submerge: frozenset[str] = frozenset(),
        exact: bool = False,
        budget: int = DEFAULT_BUDGET,
        low_luck: bool = False,
        low_luck_aa: bool = False,
    ) -> None:
        self.model = model
        self.att, self.dfn = attacker, defender
        self.start = start
        self.land = land
        self.aa_guns = aa_guns
        """AA guns that fire but are not units of the battle (infrastructure)."""
        self.aa_groups = aa_groups if aa_groups is not None else (
            AAGroup(1, 6, model.aa_shots_per_gun, AIR, frozenset({"aa_gun"}), aa_guns),)
        """The AA guns that fire in round 1, by how they fire (default: the edition's ``aa_gun``)."""
        self.bombard = bombard
        """The values of the ships that bombard in round 1."""
        self.may_retreat = may_retreat
        self.submerge = submerge
        self.exact = exact
        self.one: Num = Fraction(1) if exact else 1.0
        self.low_luck = low_luck
        """Low Luck: a firing group's dice are its total power (:meth:`low_luck_hits`), AA fire's too."""
        self.low_luck_aa = low_luck or low_luck_aa
        """Low Luck for AA fire."""
        self.budget = budget
        self.arrays = True
        """Use numpy for the later rounds where it is installed (tests turn it off to compare)..."""
        self.arrays_from = 64
        """... for a battle whose sides' units multiply to this or more (smaller ones are faster without:
        importing numpy alone costs more than they do)."""
        self.spent = 0
        self.dropped: Num = 0
        self._hits: dict[tuple[tuple[int, int], ...], list[Num]] = {}
        self._rounds: dict[State, tuple[Num, list[tuple[Any, Num]]]] = {}
        self._ends: dict[State, tuple[State, str]] = {}
        self._groups: dict[tuple[Any, ...], list[tuple[str, str, tuple[tuple[int, int], ...]]]] = {}
        self._sides: dict[tuple[Any, ...], list[tuple[Counts, Counts, Num]]] = {}
        self._left: dict[tuple[Any, ...], list[tuple[Counts, Num]]] = {}
        self._main: dict[tuple[bool, Counts, int], list[tuple[Counts, Num]]] = {}
        self._asked: dict[tuple[bool, Counts, Counts, str], list[tuple[str, str, tuple[tuple[int, int], ...]]]] = {}
        """:meth:`groups` by the two sides' units that fire (the same list as by what decides it)."""
        self._dice: dict[tuple[tuple[int, int], ...], list[Num]] = {}

    # -- work and dice --------------------------------------------------------------------------

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.budget:
            raise SearchLimit("odds computation", BUDGET_VARIABLE, self.budget)

    def hit_chance(self, value: int) -> Num:
        value = max(0, min(value, 6))
        return Fraction(value, 6) if self.exact else value / 6

    def hits(self, dice: tuple[tuple[int, int], ...], cap: int) -> list[Num]:
        """The distribution of hits of ``dice`` ((value, count) pairs), hits beyond ``cap`` summed at it."""
        dist = self._dice.get(dice)
        if dist is None:
            dist = self._dice[dice] = self.convolution(dice)
        if len(dist) > cap + 1:
            key = (*dice, (-1, cap))
            capped = self._hits.get(key)
            if capped is None:
                capped = self._hits[key] = [*dist[:cap], sum(dist[cap:])]
            return capped
        return dist

    def convolution(self, dice: tuple[tuple[int, int], ...]) -> list[Num]:
        if self.low_luck:
            return self.low_luck_hits(sum(max(0, value) * count for value, count in dice if count > 0))
        dist: list[Num] = [self.one]
        for value, count in dice:
            if count <= 0 or value <= 0:
                continue
            group = binomial(count, self.hit_chance(value))
            merged: list[Num] = [0] * (len(dist) + len(group) - 1)
            for i, a in enumerate(dist):
                if a:
                    for j, b in enumerate(group):
                        merged[i + j] += a * b
            self.spend(len(dist) * len(group))
            dist = merged
        return dist

    def low_luck_hits(self, power: int) -> list[Num]:
        """Low Luck (aa-battle-rules.md 5): a group of total power P scores P // 6 sure hits and one more when a
        die rolls at or under P mod 6."""
        sure, rest = divmod(power, 6)
        chance = self.hit_chance(rest)
        self.spend(1)
        return [0 * self.one] * sure + ([self.one - chance, chance] if rest else [self.one])

    # -- who fires at what --------------------------------------------------------------------

    def firing(self, side: Side, counts: Counts, attacking: bool, pick: Callable[[Kind], bool]) -> tuple[
            tuple[int, int], ...]:
        """The dice (value, count) of a side's units ``pick`` chooses, support (artillery, the map's) included."""
        fire = [(c, k) for c, k in zip(counts, side.kinds, strict=True) if c and not k.out and pick(k)]
        by_value: dict[int, int] = {}
        if any(k.supports for _c, k in fire):
            pools = support_pools(fire, attacking)
            used: dict[str, int] = {}
            for c, k in fire:
                if k.value > 0:
                    values = [k.value] * c
                    used.clear()
                    supported(k, values, pools, used)
                    for value in values:
                        by_value[value] = by_value.get(value, 0) + 1
            return tuple(sorted(by_value.items()))
        support = sum(c for c, k in fire if k.artillery) if attacking else 0  # artillery alone: by kind
        for c, k in fire:
            if k.value <= 0:
                continue
            if support and k.infantry:
                raised = min(c, support)
                support -= raised
                by_value[k.value + 1] = by_value.get(k.value + 1, 0) + raised
                c -= raised
            if c:
                by_value[k.value] = by_value.get(k.value, 0) + c
        return tuple(sorted(by_value.items()))

    def has(self, side: Side, counts: Counts, test: Callable[[Kind], bool]) -> bool:
        return any(c and not k.out and test(k) for c, k in zip(counts, side.kinds, strict=True))

    def groups(self, side: Side, fire: Counts, enemy: Side, enemy_fire: Counts, attacking: bool,
               step: str) -> list[tuple[str, str, tuple[tuple[int, int], ...]]]:
        """The firing groups of a side in a step (``sub`` or ``main``): (name, target class, dice)."""
        asked = (attacking, fire, enemy_fire, step)
        found = self._asked.get(asked)
        if found is not None:
            return found
        enemy_destroyer = enemy.any_of(enemy_fire, "destroyer")
        key = (attacking, fire, enemy_destroyer, enemy.any_of(enemy_fire, "sub"), step)
        found = self._groups.get(key)
        if found is None:
            found = self._groups[key] = self._groups_of(side, fire, enemy, enemy_fire, attacking, step)
        self._asked[asked] = found
        return found

    def _groups_of(self, side: Side, fire: Counts, enemy: Side, enemy_fire: Counts, attacking: bool,
                   step: str) -> list[tuple[str, str, tuple[tuple[int, int], ...]]]:
        model = self.model
        enemy_destroyer = enemy.any_of(enemy_fire, "destroyer")
        subs_first = model.sub_fires_in_sub_step(enemy_destroyer)
        if step == "sub":
            return self.first_strike(side, fire, attacking) if subs_first else []
        found = []
        if not subs_first:
            found += self.group(side, fire, attacking, "subs", NON_AIR, lambda k: k.sub)
        air_apart = enemy.any_of(enemy_fire, "sub") and not model.air_hits_subs(
            side.any_of(fire, "destroyer"))
        if air_apart:
            found += self.group(side, fire, attacking, "air", NON_SUB, lambda k: k.air)
        found += self.group(side, fire, attacking, "fire", ANY,
                            lambda k: not k.sub and not (air_apart and k.air) and not (subs_first and k.first))
        return found

    def group(self, side: Side, fire: Counts, attacking: bool, name: str, cls: str,
              pick: Callable[[Kind], bool]) -> list[tuple[str, str, tuple[tuple[int, int], ...]]]:
        """The firing group of the units ``pick`` chooses, one per set of enemy types they cannot hit (an
        imported map's ``can_not_target``): the class ``cls!type,type`` spares those types."""
        spared = {k.cannot for c, k in zip(fire, side.kinds, strict=True) if c and not k.out and pick(k)}
        if len(spared) <= 1:
            cannot = next(iter(spared), frozenset())
            dice = self.firing(side, fire, attacking, pick)
            return [(name, f"{cls}!{','.join(sorted(cannot))}" if cannot else cls, dice)] if dice else []
        found = []
        for cannot in sorted(spared, key=sorted):
            dice = self.firing(side, fire, attacking, lambda k, c=cannot: pick(k) and k.cannot == c)  # type: ignore[misc]
            if dice:
                found.append((name, f"{cls}!{','.join(sorted(cannot))}" if cannot else cls, dice))
        return found

    def first_strike(self, side: Side, fire: Counts, attacking: bool) -> list[tuple[str, str, tuple[tuple[int, int],
                                                                                           ...]]]:
        """The surprise step's groups: submarines at units that are not aircraft, other first-strike units
        (an imported map's) at any unit."""
        return (self.group(side, fire, attacking, "sub_strike", NON_AIR, lambda k: k.sub)
                + self.group(side, fire, attacking, "sub_strike", ANY, lambda k: k.first and not k.sub))

    # -- one side hit --------------------------------------------------------------------------

    def hit_side(self, side: Side, counts: Counts, groups: list[tuple[str, str, tuple[tuple[int, int], ...]]]
                 ) -> list[tuple[Counts, Counts, Num]]:
        """The distribution of (units left, units killed) of a side that ``groups`` fire at."""
        key = (side is self.att, counts, tuple(groups))
        found = self._sides.get(key)
        if found is None:
            found = self._sides[key] = self._hit_side(side, counts, groups)
        return found

    def outcomes(self, side: Side, counts: Counts, groups: list[tuple[str, str, tuple[tuple[int, int], ...]]]
                 ) -> list[tuple[Counts, Num]]:
        """The distribution of a side's units left after ``groups`` fire at it (one list per question, kept)."""
        key = (side is self.att, counts, tuple(groups), "left")
        found = self._left.get(key)
        if found is None:
            found = self._left[key] = self._left_after(side, counts, groups)
        return found

    def _left_after(self, side: Side, counts: Counts, groups: list[tuple[str, str, tuple[tuple[int, int], ...]]]
                    ) -> list[tuple[Counts, Num]]:
        """:meth:`_hit_side` without the units killed: the units left and their chance (the same sums in the
        same order, without the keys of who was killed)."""
        groups = [g for g in groups if side.targets(counts, g[1])]
        if not groups:
            return [(counts, self.one)]
        order = {"subs": 0, "air": 1, "fire": 2}
        groups.sort(key=lambda g: (side.targets(counts, g[1]), order.get(g[0], 0)))
        lost = side.lost_numbers  # compositions by number: small keys, quick to hash
        results: dict[int, Num] = {side.number(counts): self.one}
        for _name, cls, dice in groups:
            full = self.hits(dice, side.target_points(counts, cls))
            dist = [(n, q) for n, q in enumerate(full) if q]
            nxt: dict[int, Num] = {}
            for left, p in results.items():
                chain = lost(left, cls, len(full))
                for n, q in dist:
                    after = chain[n]
                    nxt[after] = nxt.get(after, 0) + p * q
            self.spend(len(results) * len(full))
            results = nxt
        numbered = side.numbered
        return [(numbered[i], p) for i, p in results.items()]

    def _hit_side(self, side: Side, counts: Counts, groups: list[tuple[str, str, tuple[tuple[int, int], ...]]],
                  track: bool = True) -> list[tuple[Counts, Counts, Num]]:
        """The side's outcomes; ``track``: also which units each one killed (else all zero)."""
        groups = [g for g in groups if side.targets(counts, g[1])]
        if not groups:
            return [(counts, side.zero, self.one)]
        order = {"subs": 0, "air": 1, "fire": 2}
        groups.sort(key=lambda g: (side.targets(counts, g[1]), order.get(g[0], 0)))
        results: dict[tuple[Counts, Counts], Num] = {(counts, side.zero): self.one}
        for _name, cls, dice in groups:
            dist = self.hits(dice, side.target_points(counts, cls))
            nxt: dict[tuple[Counts, Counts], Num] = {}
            for (left, killed), p in results.items():
                for n, q in enumerate(dist):
                    if not q:
                        continue
                    after, dead = side.take(left, n, cls)
                    dead = tuple(a + b for a, b in zip(killed, dead, strict=True)) if track and any(dead) else killed
                    key = (after, dead)
                    nxt[key] = nxt.get(key, 0) + p * q
            self.spend(len(results) * len(dist))
            results = nxt
        return [(left, killed, p) for (left, killed), p in results.items()]

    # -- a round ------------------------------------------------------------------------------------

    def exchange(self, a: Counts, a_fire: Counts, d: Counts, d_fire: Counts, step: str
                 ) -> list[tuple[Counts, Counts, Counts, Counts, Num]]:
        """Both sides fire a step at once: (attacker left, its dead, defender left, its dead, p)."""
        at_d = self.groups(self.att, a_fire, self.dfn, d_fire, True, step)
        at_a = self.groups(self.dfn, d_fire, self.att, a_fire, False, step)
        hit_a = self.hit_side(self.att, a, at_a)
        hit_d = self.hit_side(self.dfn, d, at_d)
        self.spend(len(hit_a) * len(hit_d))
        return [(a2, ka, d2, kd, pa * pd) for a2, ka, pa in hit_a for d2, kd, pd in hit_d]

    def round(self, state: State, first: bool) -> dict[tuple[State, str], Num]:
        """The distribution of (state, outcome) after one round (outcome "" when it goes on)."""
        settled, blocks = self.blocks(state, first)
        out: dict[tuple[State, str], Num] = {}
        for key, p in settled:
            add(out, key, p)
        round_end = self.round_end
        for weight, hit_a, hit_d in blocks:
            self.spend(len(hit_a) * len(hit_d))
            for a2, pa in hit_a:
                wa = weight * pa
                for d2, pd in hit_d:
                    key = round_end((a2, d2))
                    out[key] = out.get(key, 0) + wa * pd
        return out

    def blocks(self, state: State, first: bool) -> tuple[list[tuple[tuple[State, str], Num]], list[Block]]:
        """A round as (ends settled before any fire, blocks): a block is a weight and the independent
        distributions of each side's units after the exchange of fire (before the round's end steps)."""
        settled: list[tuple[tuple[State, str], Num]] = []
        found: list[Block] = []
        for (a, d), d_back, p in self.opening(state, first):
            start = self.round_start((a, d), first)
            if start[1] and not (start[1] == ATTACKER_WINS and any(d_back)):  # bombardment's casualties fire back
                settled.append((start, p))
                continue
            a, d = start[0]
            for a1, ka, d1, kd, q in self.sub_step(a, d, plus(d, d_back)):
                a_fire = plus(a1, ka)
                d_fire = plus(plus(d1, kd), d_back)
                at_d = self.groups(self.att, a_fire, self.dfn, d_fire, True, "main")
                at_a = self.groups(self.dfn, d_fire, self.att, a_fire, False, "main")
                found.append((p * q, self.main_outcomes(self.att, a1, at_a), self.main_outcomes(self.dfn, d1, at_d)))
        return settled, found

    def main_outcomes(self, side: Side, counts: Counts, groups: list[tuple[str, str, tuple[tuple[int, int], ...]]]
                      ) -> list[tuple[Counts, Num]]:
        """:meth:`outcomes` of groups :meth:`groups` gave (a list this battle keeps, so its id names it while the
        battle lives): asked once per block of every state, found without hashing the groups."""
        key = (side is self.att, counts, id(groups))
        found = self._main.get(key)
        if found is None:
            found = self._main[key] = self.outcomes(side, counts, groups)
        return found

    def opening(self, state: State, first: bool) -> list[tuple[State, Counts, Num]]:
        """Round 1's AA fire and bombardment: the states, and the bombardment casualties that fire back."""
        zero = self.dfn.zero
        if not first:
            return [(state, zero, self.one)]
        dist = self.aa_fire(state)
        if not self.bombard or not self.dfn.in_battle(state[1]):
            return [(s, zero, p) for s, p in dist]
        dice = tuple(sorted((v, self.bombard.count(v)) for v in set(self.bombard)))
        found: list[tuple[State, Counts, Num]] = []
        for (a, d), p in dist:
            for d2, killed, q in self.hit_side(self.dfn, d, [("bombard", ANY, dice)]):
                back = killed if self.model.bombard_casualties_fire else zero
                found.append(((a, d2), back, p * q))
        return found

    def aa_fire(self, state: State) -> list[tuple[State, Num]]:
        """Round 1's AA fire at the attacking aircraft: the edition's AA guns, then each group of the map's AA
        types (``aa`` stats), one after the other at the aircraft left."""
        a, d = state
        dist: list[tuple[Counts, Num]] = [(a, self.one)]
        for group in self.aa_groups:
            guns = group.fixed + sum(c for c, k in zip(d, self.dfn.kinds, strict=True) if k.base in group.types
                                     and not k.out)
            if guns:
                found: dict[Counts, Num] = {}
                for counts, p in dist:
                    for left, q in self.aa_group_fire(group, guns, counts):
                        found[left] = found.get(left, 0) + p * q
                dist = list(found.items())
        return [((counts, d), p) for counts, p in dist]

    def aa_group_fire(self, group: AAGroup, guns: int, a: Counts) -> list[tuple[Counts, Num]]:
        """One group's AA fire: the attacker chooses the aircraft hit (``aa_attacker_chooses``), each gun
        firing at most its shots; else one die per aircraft it may hit, the dice naming the planes."""
        side = self.att
        planes = side.targets(a, group.cls)
        if not planes:
            return [(a, self.one)]
        chance = Fraction(group.value, group.sides) if self.exact else group.value / group.sides
        low_luck = self.low_luck_aa and group.sides == 6  # Low Luck counts power on six-sided dice
        if self.model.aa_attacker_chooses:
            shots = planes if group.shots is None else min(planes, group.shots * guns)
            hits = self.low_luck_hits(shots * group.value) if low_luck else binomial(shots, chance)
            return [(side.take(a, n, group.cls)[0], q) for n, q in enumerate(hits) if q]
        if low_luck:
            return self.low_luck_planes(a, side.mask(group.cls), planes, group.value)
        dist: list[tuple[Counts, Num]] = [(a, self.one)]
        mask = side.mask(group.cls)
        for i in range(side.n):
            if mask[i] and a[i]:
                nxt = []
                for counts, p in dist:
                    for n, q in enumerate(binomial(a[i], chance)):
                        left = list(counts)
                        left[i] -= n
                        nxt.append((tuple(left), p * q))
                dist = nxt
        return dist

    def low_luck_planes(self, a: Counts, mask: list[bool], planes: int, value: int) -> list[tuple[Counts, Num]]:
        """Low Luck AA fire where the dice pick the planes (Revised, Anniversary): one shot per plane ``mask``
        allows, the hits of Low Luck, the planes hit drawn at random among them (every set of planes as likely)."""
        kinds = [i for i in range(self.att.n) if mask[i] and a[i]]
        found: list[tuple[Counts, Num]] = []
        for hits, p in enumerate(self.low_luck_hits(planes * value)):
            if not p:
                continue
            for taken, ways in spreads([a[i] for i in kinds], hits):
                left = list(a)
                for i, n in zip(kinds, taken, strict=True):
                    left[i] -= n
                found.append((tuple(left), p * (Fraction(ways, comb(planes, hits)) if self.exact
                                                else ways / comb(planes, hits))))
        return found

    def round_start(self, state: State, first: bool) -> tuple[State, str]:
        """The automatic steps at a round's start: chosen and forced submerges, lone units removed."""
        a, d = state
        model = self.model
        if model.submerge_before_round and not first:
            a = self.chosen_submerge("attacker", self.att, a, self.dfn, d)
            d = self.chosen_submerge("defender", self.dfn, d, self.att, a)
        if model.auto_submerge_vs_air:
            a, d = self.submerge_vs_air(self.att, a, self.dfn, d), self.submerge_vs_air(self.dfn, d, self.att, a)
        a, d = self.remove_unprotected(a, d)
        return self.settled((a, d), stalemate=False)

    def sub_step(self, a: Counts, d: Counts, d_fire: Counts) -> list[tuple[Counts, Counts, Counts, Counts, Num]]:
        """The surprise step: uncountered subs' casualties are gone; countered ones' (Revised) fire back."""
        a_countered = not self.model.sub_surprise(self.att.any_of(a, "destroyer"))
        d_countered = not self.model.sub_surprise(self.dfn.any_of(d_fire, "destroyer"))
        found = []
        for a1, ka, d1, kd, p in self.exchange(a, a, d, d_fire, "sub"):
            # ka: attackers the defender's subs sank; they fire back when those subs were countered
            found.append((a1, ka if a_countered else self.att.zero, d1, kd if d_countered else self.dfn.zero, p))
        return found

    def round_end(self, state: State) -> tuple[State, str]:
        """The automatic steps after a round's casualties and the end check (the same for every round)."""
        found = self._ends.get(state)
        if found is None:
            found = self._ends[state] = self._round_end(state)
        return found

    def _round_end(self, state: State) -> tuple[State, str]:
        a, d = self.remove_unprotected(*state)
        settled = self.settled((a, d), stalemate=True)
        if settled[1] or self.model.submerge_before_round:
            return settled
        a = self.chosen_submerge("attacker", self.att, a, self.dfn, d)
        d = self.chosen_submerge("defender", self.dfn, d, self.att, a)
        return self.settled((a, d), stalemate=True)

    def chosen_submerge(self, who: str, side: Side, counts: Counts, enemy: Side, enemy_counts: Counts) -> Counts:
        if who not in self.submerge and "both" not in self.submerge:
            return counts
        if enemy.any_of(enemy_counts, "destroyer"):
            return counts
        return submerged(side, counts)

    def submerge_vs_air(self, side: Side, counts: Counts, enemy: Side, enemy_counts: Counts) -> Counts:
        """Subs facing only aircraft that cannot hit them submerge (1942 second edition, Anniversary)."""
        if not side.any_of(counts, "sub") or not enemy.in_battle(enemy_counts):
            return counts
        if not all(k.air for c, k in zip(enemy_counts, enemy.kinds, strict=True) if c and not k.out):
            return counts
        return submerged(side, counts)

    def remove_unprotected(self, a: Counts, d: Counts) -> State:
        """Units that cannot fight against a side that can are removed without dice (restricted editions)."""
        if not self.model.transports_restricted:
            return a, d
        a_fires = self.att.any_of(a, "fires")
        d_fires = self.dfn.any_of(d, "fires")
        if a_fires and not d_fires and self.dfn.in_battle(d):
            d = tuple(0 if i in self.dfn.inside else c for i, c in enumerate(d))
        if d_fires and not a_fires and self.att.in_battle(a) and not self.may_retreat:
            a = tuple(0 if i in self.att.inside else c for i, c in enumerate(a))
        return a, d

    def can_hit(self, side: Side, counts: Counts, enemy: Side, enemy_counts: Counts, attacking: bool) -> bool:
        for step in ("sub", "main"):
            for _name, cls, _dice in self.groups(side, counts, enemy, enemy_counts, attacking, step):
                if enemy.targets(enemy_counts, cls):
                    return True
        return False

    def settled(self, state: State, stalemate: bool) -> tuple[State, str]:
        """The state with its outcome when the battle is over ("" when it goes on)."""
        a, d = state
        a_in, d_in = self.att.in_battle(a), self.dfn.in_battle(d)
        if not a_in and not d_in:
            return state, BOTH_DESTROYED
        if not d_in:
            return state, ATTACKER_WINS
        if not a_in:
            return state, DEFENDER_HOLDS
        if stalemate and not self.can_hit(self.att, a, self.dfn, d, True) and not self.can_hit(
                self.dfn, d, self.att, a, False):
            return state, STALEMATE
        return state, ""

    def retreat_allowed(self, state: State) -> bool:
        """The attacker may retreat after a round ending in ``state`` (a retreat space; not against
        defenceless transports alone)."""
        if not self.may_retreat:
            return False
        if self.att.landing and not self.att.any_of(state[0], "retreats"):
            return False  # a landing: only its amphibious units (or, in Revised, its land units) are left
        d = state[1]
        return not (self.model.transports_restricted
                    and all(k.transport for c, k in zip(d, self.dfn.kinds, strict=True) if c and not k.out))

    def retreat_end(self, state: State) -> tuple[State, str]:
        """The attacker retreats after a round ending in ``state``: the battle ends (``retreat``), or, in a
        battle with amphibious units, those that may leave do and the others fight on (partial amphibious
        retreat: the state they fight on from, outcome "")."""
        if not self.att.landing:
            return state, RETREAT
        after = (retreated(self.att, state[0]), state[1])
        if not self.att.in_battle(after[0]):
            return after, RETREAT
        return self.settled(after, stalemate=True)

    def taken(self, state: State) -> bool:
        """The attacker holds a land unit in a land battle."""
        return self.land and self.att.any_of(state[0], "land")


    # -- the whole battle (movecheck.aa.battle.solve) -------------------------------------------------

    def transitions(self, state: State) -> tuple[Num, list[tuple[tuple[State, str], Num]]]:
        return solving.transitions(self, state)

    def solve(self, retreat: Callable[[State, int], bool] | None = None, rounds_explicit: int = 0) -> Solution:
        return solving.solve(self, retreat, rounds_explicit)

    def plain_first_round(self) -> bool:
        return solving.plain_first_round(self)

    def drain_any(self, live: dict[State, Num], ends: dict[tuple[State, str], Num],
                  retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
        return solving.drain_any(self, live, ends, retreat, round_number)

    def drain(self, live: dict[State, Num], ends: dict[tuple[State, str], Num],
              retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
        return solving.drain(self, live, ends, retreat, round_number)

    def potential(self, state: State) -> int:
        return solving.potential(self, state)

    def place(self, state: State, outcome: str, p: Num, round_number: int,
              retreat: Callable[[State, int], bool] | None, live: dict[State, Num],
              ends: dict[tuple[State, str], Num]) -> None:
        solving.place(self, state, outcome, p, round_number, retreat, live, ends)

    def reachable(self) -> list[State]:
        return solving.reachable(self)

    def values(self, terminal: Callable[[State, str], Num], retreat_value: Callable[[State], Num] | None = None
               ) -> tuple[dict[State, Num], set[State]]:
        return solving.values(self, terminal, retreat_value)


def spreads(counts: list[int], total: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each way to take ``total`` units from groups of ``counts``: how many of each group, and in how many
    ways (the product of the binomials)."""
    if not counts:
        if total == 0:
            yield (), 1
        return
    first, rest = counts[0], counts[1:]
    for n in range(min(first, total) + 1):
        for tail, ways in spreads(rest, total - n):
            yield (n, *tail), comb(first, n) * ways
