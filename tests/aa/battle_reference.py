"""A second, independent implementation of an A&A battle, unit by unit, for tests of the odds engine.

It keeps each unit as a small record, throws each die (all outcomes, or at random), chooses
casualties by walking the side's list, and follows the spec's round (aa-battle.md and
aa-battle-rules.md) without any of the engine's structure (no counts, no kinds, no caches).
``exact_odds`` enumerates every die of every round (a die is a hit or a miss; faces that give
the same result are summed) and solves the chain of states; ``simulate`` plays battles with
random dice.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any


@dataclass(frozen=True)
class U:
    name: str
    value: int
    hp: int
    air: bool
    sub: bool
    destroyer: bool
    transport: bool
    land: bool
    infantry: bool
    artillery: bool
    aa: bool
    submerged: bool = False
    first: bool = False
    """First strike without being a submarine (a map's ``first_strike``)."""
    cannot: frozenset[str] = frozenset()
    """Enemy types it cannot hit."""


def units_of(model: Any, types: Any, counts: dict[str, int], order: list[str], attacking: bool,
             enemy: tuple[str, ...] = ()) -> tuple[U, ...]:
    """The units of a side; ``enemy``: the enemy's types (for the types a unit cannot hit)."""
    found = []
    for name in order:
        t = types[name]
        if t.is_factory or (t.is_aa_gun and not model.aa_gun_is_combat_unit):
            continue
        for _ in range(counts.get(name, 0)):
            found.append(U(name, t.attack if attacking else t.defense, t.hit_points, t.is_air, t.submarine,
                           t.destroyer, t.is_transport, t.is_land,
                           name == "infantry" or bool({"infantry", "artillery_supportable"} & t.abilities),
                           attacking and (name == "artillery" or "artillery" in t.abilities), t.is_aa_gun,
                           first="first_strike" in t.abilities and not t.submarine,
                           cannot=frozenset(e for e in enemy if e in t.can_not_target
                                            or name in types[e].can_not_be_targeted_by)))
    return tuple(found)


class Ref:
    """One battle under a model (:mod:`movecheck.aa.battle.model`)."""

    def __init__(self, model: Any, attackers: tuple[U, ...], defenders: tuple[U, ...], *, land: bool,
                 keep_land: int, aa_guns: int = 0, may_retreat: bool = False, low_luck: bool = False,
                 low_luck_aa: bool = False) -> None:
        self.m = model
        self.low_luck = low_luck
        """Low Luck: a group's dice are its total power: P // 6 sure hits, one die hitting on P mod 6."""
        self.low_luck_aa = low_luck or low_luck_aa
        self.start = (attackers, defenders)
        self.land = land
        self.keep_land = keep_land
        self.aa_guns = aa_guns
        self.may_retreat = may_retreat

    # ---- rules ----
    @staticmethod
    def inside(side: tuple[U, ...]) -> list[U]:
        return [u for u in side if not u.submerged]

    def can_target(self, cls: str, u: U) -> bool:
        if u.submerged:
            return False
        base, _, spared = cls.partition("!")
        if u.name in spared.split(","):
            return False
        return {"any": True, "non_air": not u.air, "non_sub": not u.sub, "air": u.air}[base]

    def choose(self, side: tuple[U, ...], hits: int, cls: str, attacking: bool) -> tuple[U, ...]:
        units = list(side)
        for i, u in enumerate(units):
            if hits and u.hp == 2 and self.can_target(cls, u):
                units[i] = replace(u, hp=1)
                hits -= 1
        alive = [True] * len(units)
        keep = self.keep_land if attacking else 0
        land_idx = [i for i, u in enumerate(units) if u.land and self.can_target(cls, u)]
        kept = set(land_idx[len(land_idx) - keep:]) if keep and land_idx else set()
        passes = [lambda i, u: i not in kept and not (self.m.transports_restricted and u.transport),
                  lambda i, u: i in kept, lambda i, u: self.m.transports_restricted and u.transport]
        for ok in passes:
            for i, u in enumerate(units):
                if hits and alive[i] and self.can_target(cls, u) and ok(i, u):
                    alive[i] = False
                    hits -= 1
        return tuple(u for i, u in enumerate(units) if alive[i])

    def dice(self, side: tuple[U, ...], pick: Any, attacking: bool) -> list[int]:
        firing = [u for u in side if not u.submerged and pick(u) and u.value > 0]
        support = sum(1 for u in firing if u.artillery) if attacking else 0
        values = []
        for u in firing:
            v = u.value
            if support and u.infantry:
                support -= 1
                v += 1
            values.append(v)
        return values

    def groups(self, side: tuple[U, ...], enemy: tuple[U, ...], attacking: bool, step: str) -> list[tuple[str, str,
                                                                                                          list[int]]]:
        e_dd = any(u.destroyer for u in enemy if not u.submerged)
        subs_first = self.m.subs_always_sub_step or not e_dd
        if step == "sub":
            if not subs_first:
                return []
            return (self.split(side, lambda u: u.sub, attacking, "sub_strike", "non_air")
                    + self.split(side, lambda u: u.first and not u.sub, attacking, "sub_strike", "any"))
        out = []
        if not subs_first:
            out += self.split(side, lambda u: u.sub, attacking, "subs", "non_air")
        own_dd = any(u.destroyer for u in side if not u.submerged)
        apart = any(u.sub for u in enemy if not u.submerged) and self.m.air_attack_sub_restricted and not own_dd
        if apart:
            out += self.split(side, lambda u: u.air, attacking, "air", "non_sub")
        out += self.split(side, lambda u: not u.sub and not (apart and u.air) and not (subs_first and u.first),
                          attacking, "fire", "any")
        return out

    def split(self, side: tuple[U, ...], pick: Any, attacking: bool, name: str, cls: str) -> list[
            tuple[str, str, list[int]]]:
        """One group per set of enemy types its units cannot hit (artillery support inside each)."""
        out = []
        for cannot in sorted({u.cannot for u in side if not u.submerged and pick(u)}, key=sorted):
            d = self.dice(side, lambda u, c=cannot: pick(u) and u.cannot == c, attacking)
            if d:
                out.append((name, cls + ("!" + ",".join(sorted(cannot)) if cannot else ""), d))
        return out

    def outcome(self, a: tuple[U, ...], d: tuple[U, ...], stalemate: bool) -> str:
        ai, di = self.inside(a), self.inside(d)
        if not ai and not di:
            return "both"
        if not di:
            return "attacker"
        if not ai:
            return "defender"
        if stalemate:
            hits_any = False
            for side, enemy, att in ((a, d, True), (d, a, False)):
                for step in ("sub", "main"):
                    for _n, cls, _d in self.groups(side, enemy, att, step):
                        if any(self.can_target(cls, u) for u in enemy):
                            hits_any = True
            if not hits_any:
                return "stalemate"
        return ""

    def unprotected(self, a: tuple[U, ...], d: tuple[U, ...]) -> tuple[tuple[U, ...], tuple[U, ...]]:
        if not self.m.transports_restricted:
            return a, d
        a_f = any(u.value > 0 for u in self.inside(a))
        d_f = any(u.value > 0 for u in self.inside(d))
        if a_f and not d_f:
            d = tuple(u for u in d if u.submerged)
        if d_f and not a_f and not self.may_retreat:
            a = tuple(u for u in a if u.submerged)
        return a, d

    def vs_air(self, side: tuple[U, ...], enemy: tuple[U, ...]) -> tuple[U, ...]:
        e = self.inside(enemy)
        if self.m.auto_submerge_vs_air and e and all(u.air for u in e) and any(u.sub for u in self.inside(side)):
            return tuple(replace(u, submerged=True) if u.sub else u for u in side)
        return side

    # ---- dice: every outcome, or random ----
    def throws(self, values: list[int], rng: random.Random | None, low_luck: bool | None = None
               ) -> list[tuple[int, Fraction]]:
        """(hits, probability) of one group's dice: every hit/miss pattern, or one random throw."""
        if self.low_luck if low_luck is None else low_luck:
            sure, rest = divmod(sum(values), 6)
            if rng is not None:
                return [(sure + (rng.randint(1, 6) <= rest), 1)]  # type: ignore[list-item]
            return [(h, p) for h, p in ((sure, Fraction(6 - rest, 6)), (sure + 1, Fraction(rest, 6))) if p]
        if rng is not None:
            return [(sum(1 for v in values if rng.randint(1, 6) <= v), 1)]  # type: ignore[list-item]
        found: dict[int, Fraction] = {}
        for pattern in itertools.product((True, False), repeat=len(values)):
            p = Fraction(1)
            for hit, v in zip(pattern, values, strict=True):
                p *= Fraction(v, 6) if hit else Fraction(6 - v, 6)
            if p:
                found[sum(pattern)] = found.get(sum(pattern), Fraction(0)) + p
        return list(found.items())

    def fire_at(self, target: tuple[U, ...], groups: list[tuple[str, str, list[int]]], attacking_target: bool,
                rng: random.Random | None) -> list[tuple[tuple[U, ...], Fraction]]:
        groups = [g for g in groups if any(self.can_target(g[1], u) for u in target)]
        order = {"subs": 0, "air": 1, "fire": 2}
        groups.sort(key=lambda g: (sum(1 for u in target if self.can_target(g[1], u)), order.get(g[0], 0)))
        dist = [(target, Fraction(1) if rng is None else 1)]
        for _n, cls, values in groups:
            dist = [(self.choose(t, h, cls, attacking_target), p * q) for t, p in dist
                    for h, q in self.throws(values, rng)]
        return dist

    def aa(self, a: tuple[U, ...], d: tuple[U, ...], rng: random.Random | None) -> list[tuple[tuple[U, ...],
                                                                                              Fraction]]:
        planes = [u for u in a if u.air]
        guns = self.aa_guns + sum(1 for u in d if u.aa)
        if not planes or not guns:
            return [(a, Fraction(1) if rng is None else 1)]
        if self.m.aa_attacker_chooses:
            shots = min(len(planes), 3 * guns) if self.m.aa_shots_per_gun else len(planes)
            return [(self.choose(a, h, "air", True), p) for h, p in self.throws([1] * shots, rng, self.low_luck_aa)]
        if self.low_luck_aa and rng is None:  # the hits of every plane's shot, the planes hit drawn at random
            found = []
            where = [i for i, u in enumerate(a) if u.air]
            for h, p in self.throws([1] * len(where), None, True):
                picks = list(itertools.combinations(where, h))
                for pick in picks:
                    found.append((tuple(u for i, u in enumerate(a) if i not in pick), p / len(picks)))
            return found
        dist = [(a, Fraction(1) if rng is None else 1)]
        for index, u in enumerate(a):  # one die per plane: a hit kills that plane
            if not u.air:
                continue
            nxt = []
            for side, p in dist:
                for h, q in self.throws([1], rng):
                    nxt.append((side if not h else (*side[:index], replace(u, name="_shot"), *side[index + 1:]),
                                p * q))
            dist = nxt
        return [(tuple(u for u in side if u.name != "_shot"), p) for side, p in dist]

    def round(self, state: tuple[tuple[U, ...], tuple[U, ...]], first: bool, rng: random.Random | None
              ) -> list[tuple[tuple[Any, str], Fraction]]:
        a0, d0 = state
        out: list[tuple[tuple[Any, str], Fraction]] = []
        starts = [(a0, Fraction(1) if rng is None else 1)]
        if first:
            starts = self.aa(a0, d0, rng)
        for a, p in starts:
            d = d0
            a, d = self.vs_air(a, d), self.vs_air(d, a)
            a, d = self.unprotected(a, d)
            done = self.outcome(a, d, stalemate=False)
            if done:
                out.append((((a, d), done), p))
                continue
            a_dd, d_dd = any(u.destroyer for u in self.inside(a)), any(u.destroyer for u in self.inside(d))
            for a1, q in self.fire_at(a, self.groups(d, a, False, "sub"), True, rng):
                for d1, r in self.fire_at(d, self.groups(a, d, True, "sub"), False, rng):
                    # casualties of countered subs (Revised) still fire
                    a_fire = a if a_dd else a1
                    d_fire = d if d_dd else d1
                    for a2, s in self.fire_at(a1, self.groups(d_fire, a_fire, False, "main"), True, rng):
                        for d2, t in self.fire_at(d1, self.groups(a_fire, d_fire, True, "main"), False, rng):
                            a3, d3 = self.unprotected(a2, d2)
                            out.append((((a3, d3), self.outcome(a3, d3, stalemate=True)), p * q * r * s * t))
        return out


def exact_odds(ref: Ref) -> tuple[dict[str, Fraction], Fraction]:
    """Every dice outcome of every round: the outcome probabilities and the expected rounds."""

    @cache
    def solve(state: Any, first: bool) -> tuple[tuple[tuple[str, Fraction], ...], Fraction]:
        moves: dict[tuple[Any, str], Fraction] = {}
        for key, p in ref.round(state, first, None):
            moves[key] = moves.get(key, Fraction(0)) + p
        stay = Fraction(0) if first else moves.pop((state, ""), Fraction(0))
        leave = 1 - stay
        result: dict[str, Fraction] = {}
        rounds = Fraction(1) / leave
        for (s2, outcome), p in moves.items():
            share = p / leave
            if outcome:
                result[outcome] = result.get(outcome, Fraction(0)) + share
            else:
                sub, r = solve(s2, False)
                rounds += share * r
                for o, q in sub:
                    result[o] = result.get(o, Fraction(0)) + share * q
        return tuple(sorted(result.items())), rounds

    if not ref.inside(ref.start[1]):
        return {"attacker": Fraction(1)}, Fraction(1)
    found, rounds = solve(ref.start, True)
    return dict(found), rounds


def simulate(ref: Ref, runs: int, seed: int) -> dict[str, int]:
    """How many of ``runs`` battles with random dice end in each outcome."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for _run in range(runs):
        state, first = ref.start, True
        while True:
            ((state, outcome), _p), = ref.round(state, first, rng)
            first = False
            if outcome:
                counts[outcome] = counts.get(outcome, 0) + 1
                break
    return counts


def end_states(ref: Ref, retreat_after: int | None = None) -> dict[tuple[Any, str], Fraction]:
    """Every end of the battle (its units left on each side, its outcome) with its probability, by every
    dice outcome of every round; with ``retreat_after`` R the attacker retreats after round R (``retreat``)."""

    @cache
    def solve(state: Any, number: int) -> tuple[tuple[tuple[Any, str], Fraction], ...]:
        moves: dict[tuple[Any, str], Fraction] = {}
        for key, p in ref.round(state, number == 1, None):
            moves[key] = moves.get(key, Fraction(0)) + p
        # a round that changes nothing is summed as a series, unless the round number matters
        series = number > 1 and (retreat_after is None or number > retreat_after)
        stay = moves.pop((state, ""), Fraction(0)) if series else Fraction(0)
        found: dict[tuple[Any, str], Fraction] = {}
        for (s2, outcome), p in moves.items():
            share = p / (1 - stay)
            if outcome:
                found[(s2, outcome)] = found.get((s2, outcome), Fraction(0)) + share
            elif retreat_after is not None and number == retreat_after:
                found[(s2, "retreat")] = found.get((s2, "retreat"), Fraction(0)) + share
            else:
                for key, q in solve(s2, number + 1):
                    found[key] = found.get(key, Fraction(0)) + share * q
        return tuple(found.items())

    return dict(solve(ref.start, 1))
