"""The allowance walk and the undeclared rolls: which rolls an order needs, and their odds.

A front base's allowance shrinks at each difficult terrain feature it reaches
(spec: "Allowance"); rolls an order does not declare are enumerated over the dice's
exact distributions (:func:`enumerate_rolls`), taken at their extremes
(:func:`extreme`), or weighed feature by feature (:func:`odds`), within a budget of
work (:class:`Steps`).  Facts only: how the clauses word them is
:mod:`movecheck.maneuver.checks.words`.  Where the features lie along a base's path
is :mod:`movecheck.maneuver.motion`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from movecheck.budget import SEARCHES, Meter, budget, current
from movecheck.maneuver.dice import Dice
from movecheck.maneuver.model import Terrain
from movecheck.maneuver.plane import EPS

ROLL_BUDGET_VARIABLE = "MOVECHECK_ROLL_BUDGET"

ROLL_BUDGET = SEARCHES[ROLL_BUDGET_VARIABLE][1]
"""Default work allowed to reason over the undeclared rolls of one order (``MOVECHECK_ROLL_BUDGET``).

Counted in steps: each run of an allowance walk costs one step per file it
walks plus one per roll it looks up, so the memory the kept combinations take
grows with the steps spent, whatever the terrain or the number of files."""


@dataclass(frozen=True)
class Feature:
    """A difficult terrain element a front base would enter, at distance ``e`` along its motion."""

    terrain: Terrain
    e: float
    die_name: str
    dice: Dice


@dataclass
class Walk:
    """The result of the allowance walk for one front base."""

    allowance: float
    reached: list[tuple[Feature, int | None]] = field(default_factory=list)


class NeedRoll(Exception):
    """The walk reached a feature whose roll is neither declared nor assigned."""

    def __init__(self, key: tuple[str, str], dice: Dice, die_name: str) -> None:
        super().__init__(key)
        self.key = key
        self.dice = dice
        self.die_name = die_name


Lookup = Callable[[str, Feature, bool], int]


def walk(start: float, features: Iterable[Feature], stop: float, base_id: str, lookup: Lookup) -> Walk:
    """Allowance of a front base: for each feature reached (e < A and e < stop), A = max(e, A - roll).

    When even the die's lowest result leaves no more than ``e`` (every roll stops the
    base at the feature's edge), the roll is not looked up: it cannot change the
    allowance, so it is never asked for; ``reached`` records it as None.
    """
    allowance = start
    result = Walk(start)
    first = True
    for feature in sorted(features, key=lambda f: (f.e, f.terrain.id)):
        if feature.e < allowance - EPS and feature.e < stop - EPS:
            if allowance - feature.dice.low <= feature.e + EPS:
                first = False
                allowance = feature.e
                result.reached.append((feature, None))
                continue
            roll = lookup(base_id, feature, first)
            first = False
            allowance = max(feature.e, allowance - roll)
            result.reached.append((feature, roll))
    result.allowance = allowance
    return result


class RollBook:
    """The rolls an order declares: ``base -> value`` or ``base -> {terrain: value}``."""

    def __init__(self, raw: Any) -> None:
        self.plain: dict[str, int] = {}
        self.named: dict[tuple[str, str], int] = {}
        if isinstance(raw, dict):
            for base_id, value in raw.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    self.plain[str(base_id)] = value
                elif isinstance(value, dict):
                    for tid, roll in value.items():
                        if isinstance(roll, int) and not isinstance(roll, bool):
                            self.named[(str(base_id), str(tid))] = roll

    def value(self, base_id: str, feature: Feature, first: bool) -> int | None:
        """The declared roll of a base for a feature (a plain value is for the first feature reached)."""
        found = self.named.get((base_id, feature.terrain.id))
        if found is None and first:
            found = self.plain.get(base_id)
        if found is None:
            return None
        return min(max(found, feature.dice.low), feature.dice.high)  # out of range: MV302, taken at the bound

    def lookup(self, assigned: dict[tuple[str, str], int]) -> Lookup:
        """A lookup that takes declared rolls first, then ``assigned`` ones, else raises NeedRoll."""

        def find(base_id: str, feature: Feature, first: bool) -> int:
            declared = self.value(base_id, feature, first)
            if declared is not None:
                return declared
            key = (base_id, feature.terrain.id)
            if key in assigned:
                return assigned[key]
            raise NeedRoll(key, feature.dice, feature.die_name)

        return find


@dataclass
class Branch:
    """One combination of undeclared rolls, its exact probability and what it leads to."""

    assigned: dict[tuple[str, str], int]
    probability: Fraction
    result: Any


@dataclass
class Branches:
    """Every combination of undeclared rolls an order's verdict depends on.

    ``complete`` False: ``items`` hold only the two extreme combinations (every
    undeclared roll at its lowest, then at its highest), which alone decided
    the verdict (see :func:`extremes`).
    """

    items: list[Branch]
    dice: dict[tuple[str, str], tuple[str, Dice]]
    complete: bool = True
    odds: Fraction | None = None
    """Set when the verdict depends on several rolls: the exact probability that it holds (see :func:`odds`)."""

    @property
    def keys(self) -> list[tuple[str, str]]:
        return sorted(self.dice)


class Steps(Meter):
    """The work spent reasoning over rolls; running out raises :class:`SearchLimit`.

    :meth:`for_order` gives each order an account of its own: the rolls of one order are an independent
    part of the file (no other order's rolls change its verdict), so a file of 400 corps orders has 400
    times the work to do, and gets it (issue 37; issue 28 had one account for the whole file)."""

    variable = ROLL_BUDGET_VARIABLE

    @classmethod
    def for_order(cls) -> Steps:
        """An account of ``MOVECHECK_ROLL_BUDGET`` steps for one order (the limit read once per file)."""
        found = current()
        return cls(limit=found.limit(cls.variable) if found is not None else budget(cls.variable, ROLL_BUDGET))


def _counting(lookup: Lookup, steps: Steps) -> Lookup:
    def find(base_id: str, feature: Feature, first: bool) -> int:
        steps.spend()
        return lookup(base_id, feature, first)

    return find


def enumerate_rolls(book: RollBook, run: Callable[[Lookup], Any], steps: Steps, cost: int = 1) -> Branches:
    """Run ``run`` for every combination of the rolls it needs and the book does not declare.

    Each combination queued costs a step, each run ``cost`` steps (the files
    it walks) plus one per roll looked up, so what is kept (queued and
    finished combinations, each as long as the rolls it looked up) stays within
    the budget.  When ``steps`` runs out this raises :class:`SearchLimit`:
    never a partial answer.
    """
    items: list[Branch] = []
    dice: dict[tuple[str, str], tuple[str, Dice]] = {}
    stack: list[tuple[dict[tuple[str, str], int], Fraction]] = [({}, Fraction(1))]
    while stack:
        assigned, p = stack.pop()
        steps.spend(cost)
        try:
            result = run(_counting(book.lookup(assigned), steps))
        except NeedRoll as need:
            dice[need.key] = (need.die_name, need.dice)
            outcomes = need.dice.distribution()
            steps.spend(len(outcomes))
            for value, q in sorted(outcomes.items(), reverse=True):
                stack.append(({**assigned, need.key: value}, p * q))
            continue
        items.append(Branch(assigned, p, result))
    items.sort(key=lambda b: sorted(b.assigned.items()))
    return Branches(items, dice)


def enumerate_walk(book: RollBook, start: float, features: Iterable[Feature], stop: float, base_id: str,
                   finish: Callable[[Walk], Any], steps: Steps, cost: int = 1) -> Branches:
    """:func:`enumerate_rolls` of one file's allowance walk, ``run = finish(walk(start, features, stop, ...))``,
    with the same branches in the same order and the same steps spent, without running the walk again from
    its start for every combination (issue 37: 400 one-base corps orders across three streams).

    The runs :func:`enumerate_rolls` makes form a tree: a run that needs an undeclared roll queues one run per
    value of it, and each of those walks the same way up to that roll.  Here the walk goes down that tree
    once, carrying the allowance, what it reached and the probability: each node is charged what its run
    would be (``cost`` plus one step per roll the run looks up from the start, then one per value queued),
    so the budget runs out on the same files as before.  Only the finished walks go through ``finish``.
    """
    ordered = sorted(features, key=lambda f: (f.e, f.terrain.id))
    items: list[Branch] = []
    dice: dict[tuple[str, str], tuple[str, Dice]] = {}
    outcomes: dict[int, list[tuple[int, Fraction]]] = {}

    def values(need: Dice) -> list[tuple[int, Fraction]]:
        found = outcomes.get(id(need))
        if found is None:
            found = outcomes[id(need)] = sorted(need.distribution().items())
        return found

    Node = tuple[int, float, list[tuple[Feature, int | None]], bool, dict[tuple[str, str], int], Fraction, int]
    stack: list[Node] = [(0, start, [], True, {}, Fraction(1), 0)]
    while stack:
        i, allowance, reached, first, assigned, p, looked = stack.pop()
        while i < len(ordered):
            feature = ordered[i]
            i += 1
            if not (feature.e < allowance - EPS and feature.e < stop - EPS):
                continue
            if allowance - feature.dice.low <= feature.e + EPS:
                first = False
                allowance = feature.e
                reached.append((feature, None))
                continue
            looked += 1
            roll = book.value(base_id, feature, first)
            if roll is None:
                key = (base_id, feature.terrain.id)
                roll = assigned.get(key)
            if roll is None:  # the run stops here: one walk on per value, each from this feature
                steps.spend(cost + looked)
                dice[key] = (feature.die_name, feature.dice)
                each = values(feature.dice)
                steps.spend(len(each))
                for value, q in reversed(each):
                    stack.append((i, max(feature.e, allowance - value), [*reached, (feature, value)], False,
                                  {**assigned, key: value}, p * q, looked))
                break
            first = False
            allowance = max(feature.e, allowance - roll)
            reached.append((feature, roll))
        else:
            steps.spend(cost + looked)
            items.append(Branch(assigned, p, finish(Walk(allowance, reached))))
    items.sort(key=lambda b: sorted(b.assigned.items()))
    return Branches(items, dice)


def extreme(
    book: RollBook, run: Callable[[Lookup], Any], steps: Steps, high: bool
) -> tuple[Branch, dict[tuple[str, str], tuple[str, Dice]]]:
    """The one combination with every undeclared roll it meets at its highest (or lowest) value.

    A walk's allowance never grows when a roll grows, and never shrinks when
    the allowance before a feature grows (``A = max(e, A - roll)`` only for
    ``e < A``), so the lowest rolls give the largest allowance and reach every
    feature any combination reaches; the highest rolls give the smallest.
    """
    assigned: dict[tuple[str, str], int] = {}
    dice: dict[tuple[str, str], tuple[str, Dice]] = {}
    p = Fraction(1)
    declared = book.lookup(assigned)

    def find(base_id: str, feature: Feature, first: bool) -> int:
        nonlocal p
        steps.spend()
        try:
            return declared(base_id, feature, first)
        except NeedRoll as need:
            value = need.dice.high if high else need.dice.low
            assigned[need.key] = value
            dice[need.key] = (need.die_name, need.dice)
            p *= need.dice.distribution()[value]
            return value

    result = run(find)  # each roll looked up is a step (a walk that meets none costs nothing)
    return Branch(assigned, p, result), dice


def odds(book: RollBook, features: list[Feature], start: float, stop: float, base_id: str,
         holds: Callable[[float], bool], steps: Steps) -> Fraction:
    """Exact probability that the allowance walk ends with an allowance for which ``holds`` is true.

    The walk's distribution of allowances, feature by feature: combinations that
    leave the same allowance are one state, so the work grows with the distinct
    allowances, not with the combinations.  The first feature reached is the same
    for every combination (the walk starts at ``start`` for all of them), so a
    plain declared roll applies to the same feature as in :func:`walk`.
    """
    states: dict[float, Fraction] = {start: Fraction(1)}
    first = True
    for feature in sorted(features, key=lambda f: (f.e, f.terrain.id)):
        if feature.e >= stop - EPS:
            continue
        reached = False
        after: dict[float, Fraction] = {}
        for allowance, p in states.items():
            if feature.e < allowance - EPS:
                reached = True
                declared = book.value(base_id, feature, first)
                outcomes = {declared: Fraction(1)} if declared is not None else feature.dice.distribution()
                steps.spend(len(outcomes))
                for roll, q in outcomes.items():
                    value = max(feature.e, allowance - roll)
                    after[value] = after.get(value, Fraction(0)) + p * q
            else:
                steps.spend()
                after[allowance] = after.get(allowance, Fraction(0)) + p
        states = after
        first = first and not reached
    return sum((p for allowance, p in states.items() if holds(allowance)), Fraction(0))


SLOWEST_FROM = 1_000
"""Combinations of several files' rolls from which a whole-corps order reasons over the slowest file instead."""


def by_slowest(book: RollBook, walkers: list[Callable[[Lookup], Walk]], run: Callable[[Lookup], Any],
               steps: Steps) -> Branches | None:
    """The combinations that matter when the slowest file sets the pace (``corps_penalty: whole_corps``).

    Each file's walk depends only on its own rolls, and the corps moves by the least
    allowance, so the verdict depends only on that least value: each file's rolls are
    enumerated on their own, and the distribution of the least allowance follows from
    theirs, ``P(min = v) = Π P(A ≥ v) - Π P(A > v)``, a short convolution instead of
    the product of every file's combinations.  One combination stands for each value:
    the first file that can leave it, at a combination that does, the others at their
    lowest rolls (the most allowance; the value with every file so is the walk that
    reaches every feature any combination reaches).  The probabilities are exact.

    None when fewer than two files need rolls, or their combinations together are
    fewer than :data:`SLOWEST_FROM`: then every combination is listed (the words of the
    verdict name each roll's values).
    """
    per_file = [enumerate_rolls(book, walker, steps) for walker in walkers]
    total = 1
    for branches in per_file:
        total *= len(branches.items)
    if sum(len(b.items) > 1 for b in per_file) < 2 or total < SLOWEST_FROM:
        return None
    dist: list[dict[float, tuple[Fraction, Branch]]] = []
    for branches in per_file:
        found: dict[float, tuple[Fraction, Branch]] = {}
        for item in branches.items:
            value = round(item.result.allowance, 9)
            p, first = found.get(value, (Fraction(0), item))
            found[value] = (p + item.probability, first)
        dist.append(found)
        steps.spend(len(found))

    def at_least(j: int, v: float, strict: bool) -> Fraction:
        return sum((p for value, (p, _) in dist[j].items() if value > v or (not strict and value == v)), Fraction(0))

    most = [max(found) for found in dist]
    items: list[Branch] = []
    for v in sorted({value for found in dist for value in found}, reverse=True):
        p = Fraction(1)
        q = Fraction(1)
        for j in range(len(dist)):
            p *= at_least(j, v, strict=False)
            q *= at_least(j, v, strict=True)
        steps.spend(len(dist))
        if p == q:
            continue  # no combination leaves v as the least allowance
        slowest = next(j for j, found in enumerate(dist) if v in found)
        assigned: dict[tuple[str, str], int] = {}
        for j, found in enumerate(dist):
            assigned.update(found[v if j == slowest else most[j]][1].assigned)
        steps.spend(len(walkers))
        items.append(Branch(assigned, p - q, run(book.lookup(assigned))))
    items.sort(key=lambda b: sorted(b.assigned.items()))
    dice = {key: named for branches in per_file for key, named in branches.dice.items()}
    return Branches(items, dice)
