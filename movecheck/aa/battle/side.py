"""One side of a battle as the odds engine keeps it: its kinds of units in order of loss, and counts.

A *kind* is a unit type, its damaged two-hit form or its submerged form; a side's state is how many
units of each kind it has.  :meth:`Side.take` gives a side's casualties of a number of hits of a
target class, by the order of loss (aa-battle.md, "Order of loss").  The module also holds the
constants and small helpers the engine's modules share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from typing import Any

from movecheck.aa.battle.model import AIR, ANY, NON_AIR, NON_SUB

DROP = 1e-18
"""A state reached with less probability than this is dropped (floating point only)."""
TOLERANCE = 1e-12
"""The most a battle's dropped probability may add up to."""
BUDGET_VARIABLE = "MOVECHECK_ODDS_BUDGET"
DEFAULT_BUDGET = 50_000_000
"""Steps one battle may spend: a pair of outcomes combined, a casualty choice made."""

Counts = tuple[int, ...]
State = tuple[Counts, Counts]
Num = Any  # float or Fraction

ATTACKER_WINS, DEFENDER_HOLDS, BOTH_DESTROYED = "attacker", "defender", "both"
STALEMATE, RETREAT = "stalemate", "retreat"
OUTCOMES = (ATTACKER_WINS, DEFENDER_HOLDS, BOTH_DESTROYED, STALEMATE)


class Inexact(Exception):
    """The probability dropped in floating point reached :data:`TOLERANCE`."""


@dataclass(frozen=True)
class Kind:
    """Units of one type in one condition, as one side of a battle holds them."""

    name: str
    """The unit type's name (``battleship (damaged)`` for a damaged two-hit unit)."""
    base: str
    value: int
    """What it hits at on this side (attack or defence)."""
    cost: int
    air: bool = False
    sub: bool = False
    destroyer: bool = False
    transport: bool = False
    land: bool = False
    infantry: bool = False
    artillery: bool = False
    cannot: frozenset[str] = frozenset()
    """The enemy unit types it cannot hit (the map's ``can_not_target``, and the enemy types'
    ``can_not_be_targeted_by`` naming it)."""
    first: bool = False
    """First strike without being a submarine (the map's ``first_strike``, TripleA's isFirstStrike): it fires
    before the exchange, at any unit, unless the enemy has a destroyer; it is hit like any unit."""
    out: bool = False
    """Submerged or retreated: no longer in the battle (a survivor)."""
    supports: tuple[tuple[int, int, frozenset[str], str], ...] = ()
    """The bonuses it gives in its role (the map's ``support``): (bonus, units per supporter, the types it
    supports, its bonus type)."""
    amphibious: bool = False
    """A land unit that came from the sea (kept apart only when a retreat is asked: it cannot leave)."""


@dataclass
class Side:
    """One side of a battle: its kinds in order of loss and how it takes casualties."""

    kinds: list[Kind]
    keep_land: int = 0
    transports_last: bool = False
    two_hit: list[tuple[int, int]] = field(default_factory=list)
    """(undamaged kind, damaged kind) of each two-hit type."""
    submerge_to: dict[int, int] = field(default_factory=dict)
    """Each submarine kind's submerged kind."""
    landing: bool = False
    """The attacker of a battle with amphibious units, a retreat asked: only :attr:`retreat_to`'s kinds leave."""
    retreat_to: dict[int, int] = field(default_factory=dict)
    """In a battle with amphibious units, each kind that may leave in a partial retreat, and its retreated kind."""

    def __post_init__(self) -> None:
        kinds = self.kinds
        self.n = len(kinds)
        self.zero: Counts = (0,) * self.n
        undamaged = {u for u, _ in self.two_hit}
        inside = [i for i, k in enumerate(kinds) if not k.out]
        self.inside = inside
        killable = [i for i in inside if i not in undamaged]
        last = [i for i in killable if self.transports_last and kinds[i].transport]
        self.order_main = [i for i in killable if i not in last]
        self.order_last = last
        self.masks: dict[str, list[bool]] = {
            ANY: [not k.out for k in kinds],
            NON_AIR: [not k.out and not k.air for k in kinds],
            NON_SUB: [not k.out and not k.sub for k in kinds],
            AIR: [not k.out and k.air for k in kinds],
        }
        self.hp = [0 if k.out else (2 if i in undamaged else 1) for i, k in enumerate(kinds)]
        self._take: dict[tuple[Counts, int, str], tuple[Counts, Counts]] = {}
        self.of: dict[str, list[int]] = {
            ability: [i for i in inside if getattr(kinds[i], ability)]
            for ability in ("destroyer", "sub", "air", "land", "transport", "first", "cannot")
        }
        self.of["fires"] = [i for i in inside if kinds[i].value > 0]
        self.of["retreats"] = [i for i in inside if i in self.retreat_to]
        self._any: dict[tuple[Counts, str], bool] = {}
        self._counted: dict[tuple[Counts, str], int] = {}
        self._lost: dict[tuple[Counts, str], list[Counts]] = {}
        self._numbers: dict[Counts, int] = {}
        self.numbered: list[Counts] = []
        """The compositions asked about, by number (:meth:`number`)."""
        self._lost_numbers: dict[tuple[int, str], list[int]] = {}

    def mask(self, cls: str) -> list[bool]:
        """Which kinds a step of class ``cls`` may hit: a class, or ``class!type,type`` (those types spared)."""
        found = self.masks.get(cls)
        if found is None:
            base, _, spared = cls.partition("!")
            names = set(spared.split(","))
            found = self.masks[cls] = [m and k.base not in names for m, k in zip(self.mask(base), self.kinds,
                                                                                   strict=True)]
        return found

    # The questions below are asked of the same compositions in every round and every branch of a battle
    # (a sea battle asks them thousands of times per state taken up): each answer is kept per composition.

    def any_of(self, counts: Counts, ability: str) -> bool:
        """A unit in the battle with an ability (``destroyer``, ``sub``, ``air``, ``land``, ``fires``...)."""
        key = (counts, ability)
        found = self._any.get(key)
        if found is None:
            found = self._any[key] = any(counts[i] for i in self.of[ability])
        return found

    def in_battle(self, counts: Counts) -> int:
        key = (counts, "")
        found = self._counted.get(key)
        if found is None:
            found = self._counted[key] = sum(counts[i] for i in self.inside)
        return found

    def points(self, counts: Counts) -> int:
        """Hit points in the battle."""
        key = (counts, "+")
        found = self._counted.get(key)
        if found is None:
            found = self._counted[key] = sum(c * h for c, h in zip(counts, self.hp, strict=True))
        return found

    def targets(self, counts: Counts, cls: str) -> int:
        """How many of its units a step of class ``cls`` may hit."""
        key = (counts, cls)
        found = self._counted.get(key)
        if found is None:
            mask = self.mask(cls)
            found = self._counted[key] = sum(c for c, m in zip(counts, mask, strict=True) if m)
        return found

    def target_points(self, counts: Counts, cls: str) -> int:
        key = (counts, "+" + cls)
        found = self._counted.get(key)
        if found is None:
            mask = self.mask(cls)
            found = self._counted[key] = sum(c * h for c, h, m in zip(counts, self.hp, mask, strict=True) if m)
        return found

    def take(self, counts: Counts, hits: int, cls: str) -> tuple[Counts, Counts]:
        """The side after ``hits`` hits of class ``cls``: (its units, the units killed)."""
        key = (counts, hits, cls)
        found = self._take.get(key)
        if found is None:
            found = self._take[key] = self._choose(counts, hits, cls)
        return found

    def lost(self, counts: Counts, cls: str, length: int) -> list[Counts]:
        """The side left after 0, 1, ... hits of class ``cls`` (at least ``length`` of them): :meth:`take`'s units
        for each number of hits, kept per composition (a sea battle asks for the same ones in every branch)."""
        key = (counts, cls)
        found = self._lost.get(key)
        if found is None or len(found) < length:
            found = self._lost[key] = [self.take(counts, n, cls)[0] for n in range(length)]
        return found

    def number(self, counts: Counts) -> int:
        """The composition's number in this side's :attr:`numbered` (given when first asked)."""
        found = self._numbers.get(counts)
        if found is None:
            found = self._numbers[counts] = len(self.numbered)
            self.numbered.append(counts)
        return found

    def lost_numbers(self, number: int, cls: str, length: int) -> list[int]:
        """:meth:`lost` by composition numbers."""
        key = (number, cls)
        found = self._lost_numbers.get(key)
        if found is None or len(found) < length:
            found = self._lost_numbers[key] = [self.number(c) for c in self.lost(self.numbered[number], cls, length)]
        return found

    def _choose(self, counts: Counts, hits: int, cls: str) -> tuple[Counts, Counts]:
        left = list(counts)
        killed = [0] * self.n
        mask = self.mask(cls)
        for undamaged, damaged in self.two_hit:  # an undamaged two-hit unit takes a hit first
            if hits and mask[undamaged] and left[undamaged]:
                k = min(hits, left[undamaged])
                left[undamaged] -= k
                left[damaged] += k
                hits -= k
        kinds = self.kinds
        land_kept = 0
        if self.keep_land and hits:
            land = sum(left[i] for i in self.order_main if mask[i] and kinds[i].land)
            land_kept = min(self.keep_land, land)
            quota = land - land_kept
        for i in self.order_main:
            if not hits:
                break
            if mask[i] and left[i]:
                k = min(hits, left[i], quota) if land_kept and kinds[i].land else min(hits, left[i])
                if land_kept and kinds[i].land:
                    quota -= k
                left[i] -= k
                killed[i] += k
                hits -= k
        for i in [j for j in self.order_main if land_kept and kinds[j].land] + self.order_last:
            if not hits:
                break
            if mask[i] and left[i]:
                k = min(hits, left[i])
                left[i] -= k
                killed[i] += k
                hits -= k
        return tuple(left), tuple(killed)


def retreated(side: Side, counts: Counts) -> Counts:
    """The side after a partial amphibious retreat: every unit that may leave has left (a survivor)."""
    left = list(counts)
    for kind, out in side.retreat_to.items():
        left[out] += left[kind]
        left[kind] = 0
    return tuple(left)


def binomial(n: int, p: Num) -> list[Num]:
    q = 1 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


Block = tuple[Num, list[tuple[Counts, Num]], list[tuple[Counts, Num]]]


def merged(outcomes: list[tuple[Counts, Counts, Num]]) -> list[tuple[Counts, Num]]:
    """A side's outcomes by the units left (whoever was killed)."""
    table: dict[Counts, Num] = {}
    for left, _killed, p in outcomes:
        table[left] = table.get(left, 0) + p
    return list(table.items())


def add(table: dict[Any, Num], key: Any, p: Num) -> None:
    table[key] = table.get(key, 0) + p


def plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True)) if any(b) else a


def add_live(table: dict[State, Num], key: State, p: Num) -> None:
    table[key] = table.get(key, 0) + p


def submerged(side: Side, counts: Counts) -> Counts:
    """The side with every submarine in the battle submerged."""
    if not side.submerge_to:
        return counts
    left = list(counts)
    for sub, out in side.submerge_to.items():
        left[out] += left[sub]
        left[sub] = 0
    return tuple(left)

