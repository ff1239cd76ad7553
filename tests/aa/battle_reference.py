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
    amphibious: bool = False
    """Came from the sea (it cannot leave in a partial amphibious retreat)."""
    leaves: bool = False
    """May leave in a retreat of a battle with amphibious units (it is then ``submerged``: out, a survivor)."""
    supports: tuple[tuple[int, int, frozenset[str], str], ...] = ()
    """Support it gives in its role: (bonus, units it raises, the types it raises, bonus type)."""
    aa_fire: tuple[int, int, int | None, frozenset[str] | None] | None = None
    """A map's AA fire: (value, die sides, shots per unit or None, the types it may hit or None)."""


def units_of(model: Any, types: Any, counts: dict[str, int], order: list[str], attacking: bool,
             enemy: tuple[str, ...] = (), amphibious: dict[str, int] | None = None,
             overland_leave: bool = False) -> tuple[U, ...]:
    """The units of a side; ``enemy``: the enemy's types (for the types a unit cannot hit).  With
    ``amphibious`` (a landing where a retreat is asked), a type's amphibious units come first in its order
    of loss, and the others may leave: aircraft always, land units when ``overland_leave``."""
    found = []
    for name in order:
        t = types[name]
        if t.is_factory or (t.is_aa_gun and not model.aa_gun_is_combat_unit) or map_aa_infrastructure(model, t):
            continue
        from_sea = (amphibious or {}).get(name, 0)
        for index in range(counts.get(name, 0)):
            leaves = amphibious is not None and index >= from_sea and (t.is_air or (t.is_land and overland_leave))
            found.append(U(name, t.attack if attacking else t.defense, t.hit_points, t.is_air, t.submarine,
                           t.destroyer, t.is_transport, t.is_land,
                           name == "infantry" or bool({"infantry", "artillery_supportable"} & t.abilities),
                           attacking and (name == "artillery" or "artillery" in t.abilities), t.is_aa_gun,
                           first="first_strike" in t.abilities and not t.submarine,
                           cannot=frozenset(e for e in enemy if e in t.can_not_target
                                            or name in types[e].can_not_be_targeted_by),
                           amphibious=index < from_sea, leaves=leaves,
                           supports=tuple((r.bonus, r.number, r.units, r.bonus_type) for r in t.support
                                          if (r.attack if attacking else r.defence)),
                           aa_fire=aa_fire_of(t) if not attacking else None))
    return tuple(found)


def aa_fire_of(t: Any) -> tuple[int, int, int | None, frozenset[str] | None] | None:
    """A map's AA fire of a type (not the edition's ``aa_gun``)."""
    if t.aa is None or not t.aa.battle:
        return None
    return (t.aa.value, t.aa.die_sides, t.aa.shots, t.aa.targets)


def map_aa_infrastructure(model: Any, t: Any) -> bool:
    """A map's AA type with no attack and no defence, where the edition's AA gun is infrastructure."""
    return (aa_fire_of(t) is not None and t.name != "aa_gun" and not t.attack and not t.defense
            and not model.aa_gun_is_combat_unit)


def aa_infrastructure(model: Any, types: Any, defenders: dict[str, int]) -> list[tuple[Any, int]]:
    """The AA fire of a side's AA units that are not units of the battle: (fire, count) per type."""
    return [(aa_fire_of(types[n]), c) for n, c in sorted(defenders.items()) if map_aa_infrastructure(model, types[n])]


class Ref:
    """One battle under a model (:mod:`movecheck.aa.battle.model`)."""

    def __init__(self, model: Any, attackers: tuple[U, ...], defenders: tuple[U, ...], *, land: bool,
                 keep_land: int, aa_guns: int = 0, may_retreat: bool = False,
                 retreat_after: int | None = None, aa_extra: list[tuple[Any, int]] | None = None,
                 low_luck: bool = False, low_luck_aa: bool = False) -> None:
        self.m = model
        self.low_luck = low_luck
        """Low Luck: a group's dice are its total power: P // 6 sure hits, one die hitting on P mod 6."""
        self.low_luck_aa = low_luck or low_luck_aa
        self.start = (attackers, defenders)
        self.land = land
        self.keep_land = keep_land
        self.aa_guns = aa_guns
        self.may_retreat = may_retreat
        self.retreat_after = retreat_after
        self.aa_extra = aa_extra or []
        """A map's AA units that are not units of the battle: (fire, count)."""
        """The attacker retreats after this round and every later one, where it may."""

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
        group = [u for u in side if not u.submerged and pick(u)]
        # supports, unit by unit: [bonus type, bonus, raises(u), units left to raise]
        pools: list[list[Any]] = [["artillery", 1, lambda u: u.infantry, 1] for u in group
                                  if attacking and u.artillery]
        for u in group:
            for bonus, number, names, kind in u.supports:
                pools.append([kind, bonus, lambda t, names=names: t.name in names, number])
        values = []
        for u in group:
            if u.value <= 0:
                continue
            v, types_taken = u.value, set()
            for pool in pools:
                if pool[3] and pool[2](u) and pool[0] not in types_taken:
                    types_taken.add(pool[0])
                    pool[3] -= 1
                    v += pool[1]
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

    def landing(self) -> bool:
        """Amphibious units attack (whether or not they are still alive)."""
        return any(u.amphibious for u in self.start[0])

    def may_leave(self, a: tuple[U, ...], d: tuple[U, ...]) -> bool:
        """A retreat is possible: a retreat space, something that may leave (in a landing), not against
        defenceless transports alone."""
        if not self.may_retreat:
            return False
        if self.landing() and not any(u.leaves for u in self.inside(a)):
            return False
        return not (self.m.transports_restricted and all(u.transport for u in self.inside(d)))

    def retreat(self, a: tuple[U, ...], d: tuple[U, ...]) -> tuple[tuple[Any, Any], str]:
        """The attacker retreats: every unit (an ordinary battle), or those that may leave (a landing, the
        amphibious ones fighting on)."""
        if not self.landing():
            return (a, d), "retreat"
        a = tuple(replace(u, submerged=True) if u.leaves else u for u in a)
        if not self.inside(a):
            return (a, d), "retreat"
        return (a, d), self.outcome(a, d, stalemate=True)

    # ---- dice: every outcome, or random ----
    def throws(self, values: list[int], rng: random.Random | None, sides: int = 6, low_luck: bool | None = None
               ) -> list[tuple[int, Fraction]]:
        """(hits, probability) of one group's dice: every hit/miss pattern, or one random throw."""
        values = [max(0, min(v, sides)) for v in values]
        if (self.low_luck if low_luck is None else low_luck) and sides == 6:
            sure, rest = divmod(sum(values), 6)
            if rng is not None:
                return [(sure + (rng.randint(1, 6) <= rest), 1)]  # type: ignore[list-item]
            return [(h, p) for h, p in ((sure, Fraction(6 - rest, 6)), (sure + 1, Fraction(rest, 6))) if p]
        if rng is not None:
            return [(sum(1 for v in values if rng.randint(1, sides) <= v), 1)]  # type: ignore[list-item]
        found: dict[int, Fraction] = {}
        for pattern in itertools.product((True, False), repeat=len(values)):
            p = Fraction(1)
            for hit, v in zip(pattern, values, strict=True):
                p *= Fraction(v, sides) if hit else Fraction(sides - v, sides)
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
        """The edition's AA guns (at 1, 3 shots a gun where the attacker chooses), then each map AA type's."""
        fires: list[tuple[Any, int]] = [((1, 6, 3 if self.m.aa_shots_per_gun else None, None),
                                         self.aa_guns + sum(1 for u in d if u.aa and u.aa_fire is None))]
        by_type: dict[str, list[U]] = {}
        for u in d:
            if u.aa_fire is not None:
                by_type.setdefault(u.name, []).append(u)
        fires += [(units[0].aa_fire, len(units)) for _n, units in sorted(by_type.items())]
        fires += [(fire, n) for fire, n in self.aa_extra]
        dist = [(a, Fraction(1) if rng is None else 1)]
        for fire, guns in fires:
            if guns:
                dist = [(a2, p * q) for a1, p in dist for a2, q in self.aa_one(a1, fire, guns, rng)]
        return dist

    def aa_one(self, a: tuple[U, ...], fire: Any, guns: int, rng: random.Random | None) -> list[tuple[tuple[U, ...],
                                                                                                     Fraction]]:
        value, sides, per_gun, targets = fire
        spared = sorted({u.name for u in a if u.air and targets is not None and u.name not in targets})
        cls = "air!" + ",".join(spared) if spared else "air"
        planes = [u for u in a if self.can_target(cls, u)]
        if not planes:
            return [(a, Fraction(1) if rng is None else 1)]
        if self.m.aa_attacker_chooses:
            shots = len(planes) if per_gun is None else min(len(planes), per_gun * guns)
            return [(self.choose(a, h, cls, True), p) for h, p in self.throws([value] * shots, rng, sides,
                                                                               self.low_luck_aa)]
        if self.low_luck_aa and sides == 6 and rng is None:  # the hits of every plane's shot, the planes hit at random
            found = []
            where = [i for i, u in enumerate(a) if self.can_target(cls, u)]
            for h, p in self.throws([value] * len(where), None, sides, True):
                picks = list(itertools.combinations(where, h))
                for pick in picks:
                    found.append((tuple(u for i, u in enumerate(a) if i not in pick), p / len(picks)))
            return found
        dist = [(a, Fraction(1) if rng is None else 1)]
        for index, u in enumerate(a):  # one die per plane: a hit kills that plane
            if not self.can_target(cls, u):
                continue
            nxt = []
            for side, p in dist:
                for h, q in self.throws([value], rng, sides):
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
    ends, rounds = exact_ends(ref, detail=False)
    return {outcome: p for (outcome, _survivors), p in ends.items()}, rounds


Survivors = tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]]


def survivors(state: Any) -> Survivors:
    """Each side's units left, as sorted (name, out of the battle) pairs (damage not told)."""
    a, d = state
    return (tuple(sorted((u.name, u.submerged) for u in a)), tuple(sorted((u.name, u.submerged) for u in d)))


def exact_ends(ref: Ref, detail: bool = True) -> tuple[dict[tuple[str, Survivors | None], Fraction], Fraction]:
    """Every dice outcome of every round, the retreat rule applied after each round from
    ``ref.retreat_after``: each (outcome, survivors) with its probability (survivors None without
    ``detail``), and the expected rounds."""
    last = (ref.retreat_after or 1) + 1  # the rounds told apart: 1..retreat_after, then "any later"

    @cache
    def solve(state: Any, number: int) -> tuple[tuple[tuple[Any, Fraction], ...], Fraction]:
        moves: dict[tuple[Any, str], Fraction] = {}
        for (s2, outcome), p in ref.round(state, number == 1, None):
            if not outcome and ref.retreat_after is not None and number >= ref.retreat_after and ref.may_leave(*s2):
                s2, outcome = ref.retreat(*s2)
            moves[(s2, outcome)] = moves.get((s2, outcome), Fraction(0)) + p
        following = min(number + 1, last)
        stay = moves.pop((state, ""), Fraction(0)) if following == number else Fraction(0)
        leave = 1 - stay
        result: dict[Any, Fraction] = {}
        rounds = Fraction(1) / leave
        for (s2, outcome), p in moves.items():
            share = p / leave
            if outcome:
                key = (outcome, survivors(s2) if detail else None)
                result[key] = result.get(key, Fraction(0)) + share
            else:
                sub, r = solve(s2, following)
                rounds += share * r
                for o, q in sub:
                    result[o] = result.get(o, Fraction(0)) + share * q
        return tuple(sorted(result.items(), key=repr)), rounds

    if not ref.inside(ref.start[1]):
        return {("attacker", survivors(ref.start) if detail else None): Fraction(1)}, Fraction(1)
    found, rounds = solve(ref.start, 1)
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
