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

from collections.abc import Callable, Iterable, Iterator
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

    @property
    def outcomes(self) -> list[Branch]:
        """Branches enough to see every distinct result: here every combination (:class:`Pooled`: one a result)."""
        return self.items

    @property
    def assigned_keys(self) -> list[tuple[str, str]]:
        """The undeclared rolls some combination assigns, sorted."""
        return sorted({k for b in self.items for k in b.assigned})

    @property
    def common_keys(self) -> set[tuple[str, str]]:
        """The undeclared rolls every combination assigns."""
        return set.intersection(*(set(b.assigned) for b in self.items)) if self.items else set()


class Pooled(Branches):
    """One file's combinations pooled by the walk they give (issue 37): what a check reads is the same for
    every combination of a pool (where the file ends, what it reached), so it reads one branch per pool
    (:attr:`outcomes`: a real combination of the pool, whose ``probability`` is the whole pool's).

    ``items`` (every combination, as :func:`enumerate_walk` lists them) are listed only when something asks
    for them (a single roll's values, the nearest combination, the state written by ``apply``), by the same
    walk again, its steps charged already.
    """

    def __init__(self, pools: list[Branch], dice: dict[tuple[str, str], tuple[str, Dice]],
                 common: set[tuple[str, str]], every: set[tuple[str, str]],
                 listed: Callable[[], list[tuple[Branch, int]]]) -> None:
        self.dice = dice
        self.complete = True
        self.odds = None
        self.pools = pools
        self._common = common
        self._every = every
        self._listed = listed
        self._items: list[Branch] | None = None
        self._pool_of: dict[int, int] = {}

    @property
    def items(self) -> list[Branch]:
        if self._items is None:
            listed = self._listed()
            self._items = [branch for branch, _ in listed]
            self._pool_of = {id(branch): k for branch, k in listed}
        return self._items

    @items.setter
    def items(self, value: list[Branch]) -> None:
        self._items = value

    def pool_of(self, branch: Branch) -> int:
        """The pool (its index in :attr:`pools`) of one of the pools or of one of the :attr:`items`."""
        for k, pool in enumerate(self.pools):
            if pool is branch:
                return k
        self.items  # noqa: B018 (listed, with their pools)
        return self._pool_of[id(branch)]

    @property
    def outcomes(self) -> list[Branch]:
        return self.pools

    @property
    def assigned_keys(self) -> list[tuple[str, str]]:
        return sorted(self._every)

    @property
    def common_keys(self) -> set[tuple[str, str]]:
        return set(self._common)


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


Reached = tuple[tuple[Feature, int | None], ...]


def _leaves(book: RollBook, start: float, features: Iterable[Feature], stop: float, base_id: str, steps: Steps,
            cost: int, dice: dict[tuple[str, str], tuple[str, Dice]]) -> Iterator[
                tuple[float, Reached, dict[tuple[str, str], int], int, int]]:
    """The finished walks of :func:`enumerate_rolls` over one file's allowance walk, without running the walk
    again from its start for every combination (issue 37: 400 one-base corps orders across three streams):
    (allowance, what it reached, the rolls assigned, the probability as numerator and denominator).

    The runs :func:`enumerate_rolls` makes form a tree: a run that needs an undeclared roll queues one run per
    value of it, and each of those walks the same way up to that roll.  Here the walk goes down that tree
    once, carrying the allowance, what it reached and the probability: each node is charged what its run
    would be (``cost`` plus one step per roll the run looks up from the start, then one per value queued),
    so the budget runs out on the same orders as before.  The dice met go into ``dice`` in the same order.
    """
    ordered = sorted(features, key=lambda f: (f.e, f.terrain.id))
    outcomes: dict[int, list[tuple[int, int, int]]] = {}
    Node = tuple[int, float, Reached, bool, dict[tuple[str, str], int], int, int, int]
    stack: list[Node] = [(0, start, (), True, {}, 1, 1, 0)]
    while stack:
        i, allowance, reached, first, assigned, num, den, looked = stack.pop()
        while i < len(ordered):
            feature = ordered[i]
            i += 1
            if not (feature.e < allowance - EPS and feature.e < stop - EPS):
                continue
            if allowance - feature.dice.low <= feature.e + EPS:
                first = False
                allowance = feature.e
                reached += ((feature, None),)
                continue
            looked += 1
            roll = book.value(base_id, feature, first)
            key = (base_id, feature.terrain.id)
            if roll is None:
                roll = assigned.get(key)
            if roll is None:  # the run stops here: one walk on per value, each from this feature
                steps.spend(cost + looked)
                dice[key] = (feature.die_name, feature.dice)
                each = outcomes.get(id(feature.dice))
                if each is None:
                    each = outcomes[id(feature.dice)] = [
                        (value, q.numerator, q.denominator) for value, q in sorted(feature.dice.distribution().items())]
                steps.spend(len(each))
                for value, n, d in reversed(each):
                    stack.append((i, max(feature.e, allowance - value), (*reached, (feature, value)), False,
                                  {**assigned, key: value}, num * n, den * d, looked))
                break
            first = False
            allowance = max(feature.e, allowance - roll)
            reached += ((feature, roll),)
        else:
            steps.spend(cost + looked)
            yield allowance, reached, assigned, num, den


def enumerate_walk(book: RollBook, start: float, features: Iterable[Feature], stop: float, base_id: str,
                   finish: Callable[[Walk], Any], steps: Steps, cost: int = 1) -> Branches:
    """:func:`enumerate_rolls` of one file's allowance walk, ``run = finish(walk(start, features, stop, ...))``:
    the same branches in the same order, the same dice, the same steps spent (:func:`_leaves`)."""
    dice: dict[tuple[str, str], tuple[str, Dice]] = {}
    items = [Branch(assigned, Fraction(num, den), finish(Walk(allowance, list(reached))))
             for allowance, reached, assigned, num, den in _leaves(book, start, features, stop, base_id, steps, cost,
                                                                   dice)]
    items.sort(key=lambda b: sorted(b.assigned.items()))
    return Branches(items, dice)


Pool = tuple[float, Reached, dict[tuple[str, str], int], Fraction, frozenset[tuple[str, str]],
             frozenset[tuple[str, str]], tuple[str, ...]]
"""What ends alike: allowance, what one of its combinations reached and assigned, the probability of them all,
the rolls each of them assigns, the rolls one of them assigns, the terrain reached (ids, in order)."""


def _merged(book: RollBook, start: float, features: list[Feature], stop: float, base_id: str, steps: Steps,
            dice: dict[tuple[str, str], tuple[str, Dice]]) -> Iterator[Pool]:
    """:func:`_leaves` merged feature by feature: combinations that leave the same allowance, having reached the
    same features, walk on alike, so they are one state (as :func:`odds` weighs them).  A state counts the runs
    it stands for and the rolls those runs looked up, and is charged what :func:`_leaves` charges them, so the
    same steps are spent and the budget runs out on the same orders.  Only for features of distinct terrain
    (a roll assigned is never looked up again); the dice met go into ``dice`` in the same order."""
    ordered = sorted(features, key=lambda f: (f.e, f.terrain.id))
    # (allowance, terrain reached, first) -> [runs, rolls looked up by them, probability (numerator, denominator:
    # whole numbers, reduced at the end), every, some, one's reached, one's assigned]
    State = list[Any]
    states: dict[tuple[float, tuple[str, ...], bool], State] = {
        (start, (), True): [1, 0, 1, 1, frozenset(), frozenset(), (), {}]}
    outcomes: dict[int, list[tuple[int, int, int]]] = {}
    for feature in ordered:
        after: dict[tuple[float, tuple[str, ...], bool], State] = {}
        tid = feature.terrain.id
        key = (base_id, tid)
        e, low = feature.e, feature.dice.low
        declared: dict[bool, int | None] = {}  # the book's roll for this feature, by whether it is the first reached
        charge = 0  # the steps the runs of this feature are charged (spent once the feature is done)
        for (allowance, tids, first), state in states.items():
            runs, looked, num, den, every, some, reached, assigned = state
            if not (e < allowance - EPS and e < stop - EPS):
                _merge(after, (allowance, tids, first), state)
                continue
            if allowance - low <= e + EPS:
                _merge(after, (e, (*tids, tid), False),
                       [runs, looked, num, den, every, some, (*reached, (feature, None)), assigned])
                continue
            looked += runs
            if first not in declared:
                declared[first] = book.value(base_id, feature, first)
            roll = declared[first]
            if roll is not None:
                _merge(after, (max(e, allowance - roll), (*tids, tid), False),
                       [runs, looked, num, den, every, some, (*reached, (feature, roll)), assigned])
                continue
            each = outcomes.get(id(feature.dice))
            if each is None:
                each = outcomes[id(feature.dice)] = [
                    (value, q.numerator, q.denominator) for value, q in sorted(feature.dice.distribution().items())]
            charge += runs + looked + runs * len(each)  # each run stops here and queues one per value
            dice[key] = (feature.die_name, feature.dice)
            on = (*tids, tid)
            every, some = every | {key}, some | {key}
            for value, n, d in each:
                left = allowance - value
                at = (left if left > e else e, on, False)  # max(e, left), without the call
                found = after.get(at)
                if found is None:  # a new state: this combination is its example
                    after[at] = [runs, looked, num * n, den * d, every, some, (*reached, (feature, value)),
                                 {**assigned, key: value}]
                    continue
                # _merge, written out (the loop every state of every feature goes through)
                found[0] += runs
                found[1] += looked
                pn, pd = num * n, den * d
                if found[3] == pd:
                    found[2] += pn
                else:
                    found[2], found[3] = found[2] * pd + pn * found[3], found[3] * pd
                if found[4] is not every:
                    found[4] &= every
                if found[5] is not some:
                    found[5] |= some
        if charge:
            steps.spend(charge)  # the budget runs out on this feature exactly when it did run by run
        states = after
    steps.spend(sum(runs + looked for runs, looked, *_rest in states.values()))
    for (allowance, tids, _first), (_runs, _looked, num, den, every, some, reached, assigned) in states.items():
        yield allowance, reached, assigned, Fraction(num, den), every, some, tids


def _merge(states: dict[tuple[float, tuple[str, ...], bool], list[Any]], at: tuple[float, tuple[str, ...], bool],
           state: list[Any]) -> None:
    """Add ``state`` to the one at ``at`` (the first keeps its example combination)."""
    found = states.get(at)
    if found is None:
        states[at] = state
        return
    found[0] += state[0]
    found[1] += state[1]
    if found[3] == state[3]:
        found[2] += state[2]
    else:
        found[2], found[3] = found[2] * state[3] + state[2] * found[3], found[3] * state[3]
    if found[4] is not state[4]:  # a set met with itself is itself
        found[4] &= state[4]
    if found[5] is not state[5]:
        found[5] |= state[5]


def _each_leaf(book: RollBook, start: float, features: list[Feature], stop: float, base_id: str, steps: Steps,
               dice: dict[tuple[str, str], tuple[str, Dice]]) -> Iterator[Pool]:
    """:func:`_leaves` one combination a pool (features of one terrain met twice: a roll assigned is kept)."""
    for allowance, reached, assigned, num, den in _leaves(book, start, features, stop, base_id, steps, 1, dice):
        keys = frozenset(assigned)
        yield allowance, reached, assigned, Fraction(num, den), keys, keys, tuple(f.terrain.id for f, _ in reached)


def pool_walk(book: RollBook, start: float, features: list[Feature], stop: float, base_id: str,
              finish: Callable[[Walk], Any], steps: Steps) -> Pooled:
    """:func:`enumerate_walk`'s combinations pooled by where the walk ends and what it reached (:class:`Pooled`):
    the same steps spent, ``finish`` run once a pool (on one of its combinations)."""
    dice: dict[tuple[str, str], tuple[str, Dice]] = {}
    distinct = len({f.terrain.id for f in features}) == len(features)
    pools: dict[tuple[float, tuple[str, ...]], Branch] = {}
    common: set[tuple[str, str]] | None = None
    every: set[tuple[str, str]] = set()
    for allowance, reached, assigned, p, each, some, tids in (_merged if distinct else _each_leaf)(
            book, start, features, stop, base_id, steps, dice):
        common = set(each) if common is None else common & each
        every |= some
        pool = (allowance, tids)
        found = pools.get(pool)
        if found is None:
            pools[pool] = Branch(assigned, p, finish(Walk(allowance, list(reached))))
        else:
            found.probability += p
    index = {pool: k for k, pool in enumerate(pools)}

    def listed() -> list[tuple[Branch, int]]:
        """Every combination, as :func:`enumerate_walk` lists them, each with its pool."""
        again: dict[tuple[str, str], tuple[str, Dice]] = {}
        items = [(Branch(assigned, Fraction(num, den), finish(Walk(allowance, list(reached)))),
                  index[(allowance, tuple(f.terrain.id for f, _ in reached))])
                 for allowance, reached, assigned, num, den in _leaves(book, start, features, stop, base_id,
                                                                       Steps(limit=2**62), 1, again)]
        items.sort(key=lambda item: sorted(item[0].assigned.items()))
        return items

    return Pooled(list(pools.values()), dice, common or set(), every, listed)


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
