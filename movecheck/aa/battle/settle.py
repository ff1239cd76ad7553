"""Pasted dice (``dice: |``) settled against a battle (aa-battle.md, "Pasted dice", "Details settled").

The lines read by :mod:`movecheck.aa.battle.pasted` become rounds of the ``rounds:`` form, played by the same
replay (:class:`PastedReplayer`).  What a line leaves open is searched:

- a TripleA line whose units hit at several values, or a summary line (hits only), is a :class:`Pool`: the
  number of hits it gives is chosen (for a summary line, its own); each count is turned into dice at the values
  its step owes, a die per unit, when the replay reaches the step (every count between the fewest and the most
  hits some assignment gives is reached, as swapping two dice changes the hits by at most one);
- an AA line in Revised and Anniversary leaves open which plane each hit was rolled for: the split of its hits
  over the plane types is chosen;
- a result with totals only (no ``rounds:`` beside the text) leaves open each round's losses, damage and
  submerge: the split of the totals into the rounds is chosen, round by round, the most casualties first.

The search goes round by round, replaying each prefix, and keeps the first choice that makes the round legal.
It is bounded by :data:`MAX_TRIALS` replays; a battle it cannot settle within them is reported (AA520), never
taken for legal.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from movecheck.aa.battle.pasted import Roll, Unread, read
from movecheck.aa.battle.replay import (
    SIDES,
    Mismatch,
    Replay,
    Replayer,
    dice_of,
    mapping,
    raid_replay,
)
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.turn.battles import Resolution, Result
    from movecheck.document import Document

MAX_TRIALS = 1500
"""The most replays one result's search may make (a battle of a few rounds needs tens; a replay takes a few
milliseconds, so a result the search gives up on costs a few seconds at most)."""
SUB, AIR_OR_FIRE = "sub", "air_or_fire"
"""The steps of a TripleA line of submarines or of aircraft, settled when the round is played."""
EARLY_STEPS = ("aa", "bombard", "sub_strike", SUB)
"""The steps whose casualties go before the main fire (and change the dice it owes)."""
LOSS_CODES = ("AA515", "AA516", "AA517", "AA519")
ROUND_KEYS = ("attacker_losses", "defender_losses", "submerged", "retreat", "damaged", "removed")
AUTO = "auto_removed"
"""A round the search wrote: what the rules remove without dice is taken, not compared."""


class Unachievable(Exception):
    """A pool's chosen hits cannot come from its dice at the values owed: the choice is dropped (``args[0]``: the
    pool, where known)."""


@dataclass(frozen=True)
class Pool:
    """A roll whose dice are not yet given to values: a TripleA line (``dice``) or a summary line (``count``,
    ``hits``).  ``chosen``: the hits of this candidate; ``named``: an AA pool's hits by plane type."""

    line: int
    dice: tuple[int, ...] = ()
    count: int = 0
    hits: int | None = None
    chosen: int = 0
    named: tuple[tuple[str, int], ...] = ()

    @property
    def size(self) -> int:
        return self.count if self.hits is not None else len(self.dice)

    def choices(self) -> range:
        """The hits this pool may give, fewest first."""
        if self.hits is not None:
            return range(min(self.hits, self.count), min(self.hits, self.count) + 1)
        return range(self.dice.count(1), len(self.dice) - self.dice.count(6) + 1)

    def merged(self, other: Pool) -> Pool:
        if self.hits is not None or other.hits is not None:
            return Pool(self.line, count=self.size + other.size, hits=(self.hits or 0) + (other.hits or 0))
        return Pool(self.line, dice=self.dice + other.dice)


def assignment(dice: list[int], slots: list[int], hits: int) -> list[int]:
    """The dice in the order of ``slots`` (values, one per die) such that ``hits`` of them hit."""
    if len(dice) != len(slots):
        raise Unachievable
    most = most_hits(dice, slots)
    fewest = most_hits([7 - d for d in dice], [6 - s for s in slots])
    fewest = [7 - d for d in fewest]
    current = list(most)
    for i in range(len(current) + 1):
        if count_hits(current, slots) == hits:
            return current
        if i == len(current):
            break
        if current[i] != fewest[i]:
            j = next(k for k in range(i + 1, len(current)) if current[k] == fewest[i])
            current[i], current[j] = current[j], current[i]
    raise Unachievable


def most_hits(dice: list[int], slots: list[int]) -> list[int]:
    """The dice placed on the slots so that the most hit (each die, smallest first, on the lowest slot it hits)."""
    order = sorted(range(len(slots)), key=lambda i: slots[i])
    placed: list[int | None] = [None] * len(slots)
    rest = []
    for die in sorted(dice):
        free = next((i for i in order if placed[i] is None and slots[i] >= die), None)
        if free is None:
            rest.append(die)
        else:
            placed[free] = die
    empty = iter(i for i in order if placed[i] is None)
    for die in rest:
        placed[next(empty)] = die
    return [d for d in placed if d is not None]


def count_hits(dice: list[int], slots: list[int]) -> int:
    return sum(1 for d, s in zip(dice, slots, strict=True) if d <= s)


def summary_dice(slots: list[int], hits: int) -> list[int]:
    """Dice for a summary line: ``hits`` of them hit (a 1) and the rest miss (a 6)."""
    order = sorted(range(len(slots)), key=lambda i: -slots[i])
    dice = [6] * len(slots)
    for i in order[:hits]:
        dice[i] = 1
    if count_hits(dice, slots) != hits:
        raise Unachievable
    return dice


def concrete(pool: Pool, owed: dict[str, int]) -> dict[str, list[int]]:
    """A pool's dice at the values a step owes, giving its chosen hits (the step's dice, keyed by value)."""
    try:
        return placed_dice(pool, owed)
    except Unachievable:
        raise Unachievable(pool) from None


def placed_dice(pool: Pool, owed: dict[str, int]) -> dict[str, list[int]]:
    slots = sorted(int(v) for v, n in owed.items() for _n in range(n))
    if len(slots) != pool.size:
        if pool.chosen != min(pool.choices()):
            raise Unachievable
        return {"?": list(pool.dice) or [6] * pool.size}
    dice = summary_dice(slots, pool.chosen) if pool.hits is not None else assignment(list(pool.dice), slots,
                                                                                       pool.chosen)
    found: dict[str, list[int]] = {}
    for d, s in zip(dice, slots, strict=True):
        found.setdefault(str(s), []).append(d)
    return found


class PastedReplayer(Replayer):
    """The replay of rounds whose steps may be pools and whose steps of TripleA lines are settled as played."""

    def fire(self, number: int, written: dict[str, Any], losses: dict[str, Counter[str]],
             damaged: dict[str, Counter[str]], a: Any, d: Any, first: bool) -> Any:
        start = {"attacker": a, "defender": d}
        settled = {which: self.settle_steps(which, dict(written[which]), start) for which in SIDES}
        if isinstance(settled["defender"].get("aa"), Pool):
            settled["defender"]["aa"] = self.aa_dice(settled["defender"]["aa"], start)
        return super().fire(number, settled, losses, damaged, a, d, first)

    def settle_steps(self, which: str, steps: dict[str, Any], start: dict[str, Any]) -> dict[str, Any]:
        """The steps of TripleA lines named by the battle: submarines' (surprise strike or not), aircraft's."""
        if SUB in steps:
            strike = "sub_strike" in self.owed_groups(which, start, "sub")
            steps["sub_strike" if strike else "subs"] = steps.pop(SUB)
        if AIR_OR_FIRE in steps:
            pool = steps.pop(AIR_OR_FIRE)
            if "air" in self.owed_groups(which, start, "main"):
                steps["air"] = pool
            else:
                steps["fire"] = pool.merged(steps["fire"]) if isinstance(steps.get("fire"), Pool) else pool
        return steps

    def aa_dice(self, pool: Pool, start: dict[str, Any]) -> dict[str, list[int]]:
        """An AA pool's dice: keyed by value in 1942 second edition (the values of the guns that fire: the
        edition's AA gun at 1, a map's AA type at its own), by plane type (its chosen split) otherwise."""
        if self.model.aa_attacker_chooses:
            owed, _hits, _named = self.aa_groups_fire(start, {}, False)
            return concrete(pool, owed or {"1": pool.size})
        planes = self.side("attacker")
        types: Counter[str] = Counter()
        for c, k in zip(start["attacker"], planes.kinds, strict=True):
            if c and k.air and not k.out:
                types[k.base] += c
        dice = sorted(pool.dice) if pool.hits is None else [1] * min(pool.hits, pool.count) + [6] * max(
            0, pool.count - (pool.hits or 0))
        hitting, missing = [x for x in dice if x <= 1], [x for x in dice if x > 1]
        if sum(types.values()) != len(dice):
            return {"?": dice}
        found: dict[str, list[int]] = {}
        named = dict(pool.named)
        for plane, n in sorted(types.items()):
            take = named.get(plane, 0)
            if take > n:
                raise Unachievable(pool)
            found[plane] = hitting[:take] + missing[:n - take]
            hitting, missing = hitting[take:], missing[n - take:]
        if hitting or missing:
            raise Unachievable(pool)
        return found

    def step_dice(self, number: int, which: str, written: dict[str, Any], owed: dict[str, dict[str, int]],
                  steps: tuple[str, ...], hits: dict[str, list[tuple[str, int, int]]],
                  state: dict[str, Any]) -> int:
        settled = {step: concrete(v, owed.get(step, {})) if isinstance(v, Pool) and step in steps else v
                   for step, v in written.items()}
        return super().step_dice(number, which, settled, owed, steps, hits, state)

    def first_fitting(self, which: str, written: dict[str, Any], early: list[Counter[str]],
                      state: dict[str, Any]) -> Any:
        if not any(isinstance(v, Pool) for v in written.values()):
            return super().first_fitting(which, written, early, state)
        other = SIDES[1 - SIDES.index(which)]
        fallback = None
        for gone in early:
            left = list(state[which])
            for name, n in gone.items():
                for _n in range(n):
                    self.kill(left, which, name)
            owed = self.owed_groups(which, {which: tuple(left), other: state[other]}, "main")
            if all(self.fits(written.get(step), owed.get(step, {})) for step in ("subs", "air", "fire")):
                return tuple(left)
            fallback = fallback or tuple(left)
        return fallback or state[which]

    @staticmethod
    def fits(step: Any, owed: dict[str, int]) -> bool:
        if isinstance(step, Pool):
            return step.size == sum(owed.values())
        return {v: len(ds) for v, ds in dice_of(step).items() if ds} == owed

    def no_dice(self, number: int, entry: dict[str, Any]) -> None:
        for which in SIDES:
            steps = mapping(entry.get(which))
            if any(isinstance(v, Pool) and v.size for v in steps.values()):
                self.report("AA518", _("round {round}: the battle was over before its fire ({why}), yet dice were "
                                       "rolled").format(round=number + 1, why=self.out.outcome), number, which)
                return
        super().no_dice(number, entry)

    def removed(self, number: int, entry: dict[str, Any], gone: dict[str, Counter[str]]) -> None:
        if entry.get(AUTO):
            entry["removed"] = {s: dict(gone[s]) for s in SIDES if gone[s]}
        super().removed(number, entry, gone)


# -- reading the text against the battle -------------------------------------------------------------------


@dataclass
class Reading:
    """A result's pasted text read against its battle: the rounds' dice, and the lines not read."""

    rounds: list[dict[str, dict[str, Any]]] = field(default_factory=list)
    lines: dict[tuple[int, str], int] = field(default_factory=dict)
    """(round index, side) -> the first line of that side's dice in that round (for the findings' place)."""
    first: dict[int, int] = field(default_factory=dict)
    unread: list[Unread] = field(default_factory=list)
    summary_over: list[Roll] = field(default_factory=list)
    """Summary lines with more hits than dice (AA514)."""


def side_of(roll: Roll, result: Result, resolution: Resolution) -> str | None:
    """The side whose roll a line is (its power names one of the battle's sides' powers)."""
    battle = result.battle
    assert battle is not None
    power = resolution.board.map.resolve_power(roll.power)
    if power is None:
        return None
    if power == resolution.board.power or any(u.power == power for u in battle.side("attacker")):
        return "attacker"
    return "defender" if any(u.power == power for u in battle.side("defender")) else None


def type_of(resolution: Resolution, name: str) -> str | None:
    """A unit type as TripleA writes it (``armour``, ``fighters``, ``factories``), resolved on the map."""
    resolve = resolution.board.map.resolve_type
    for form in (name, name[:-1] if name.endswith("s") else None, name[:-3] + "y" if name.endswith("ies") else None):
        if form and resolve(form):
            return resolve(form)
    return None


def step_of(roll: Roll, which: str, resolution: Resolution, raid: bool) -> str | None:
    """A line's step: the one named, else the one its units fire in (None: a unit the map does not have)."""
    if roll.step is not None:
        return "damage" if raid and roll.step == "fire" else roll.step
    if raid:
        return "damage" if which == "attacker" else "aa"
    types = resolution.board.map.unit_types
    names = [type_of(resolution, n) for n in roll.units]
    if any(n is None for n in names):
        return None
    kinds = [types[n] for n in names if n is not None]
    if kinds and all(k.submarine for k in kinds):
        return SUB
    if kinds and all(k.is_air for k in kinds):
        return AIR_OR_FIRE
    return "fire"


def reading(text: str, result: Result, resolution: Resolution) -> Reading:
    """The rolls of the text in rounds; lines that name another territory, another side or a unit the map does
    not have are not read."""
    rolls, unread = read(text)
    out = Reading(unread=unread)
    raid = bool(result.battle and result.battle.raid)
    at = resolution.board.map.resolve(result.at) or result.at
    for roll in sorted(rolls, key=lambda r: (r.round, r.line)):
        which = side_of(roll, result, resolution)
        step = step_of(roll, which or "attacker", resolution, raid)
        if roll.at is not None and (resolution.board.map.resolve(roll.at) or roll.at) != at:
            out.unread.append(Unread(roll.line, "", _("it names {space}, not {at}").format(space=roll.at, at=at)))
        elif which is None:
            out.unread.append(Unread(roll.line, "", _("{power} is no side of this battle").format(power=roll.power)))
        elif step is None:
            out.unread.append(Unread(roll.line, "", _("it names a unit type the map does not have")))
        elif not fights_there(roll, which, result, resolution):
            out.unread.append(Unread(roll.line, "", _("its units are not all of the {side}'s units in this "
                                                      "battle").format(side=which)))
        elif raid and roll.count is not None:
            out.unread.append(Unread(roll.line, "", _("a summary line gives no dice, and a raid's damage is its "
                                                      "dice: paste the history line")))
        else:
            add_roll(out, roll, which, step)
    out.unread.sort(key=lambda u: u.line)
    return out


def fights_there(roll: Roll, which: str, result: Result, resolution: Resolution) -> bool:
    """A TripleA line's units are of the side's unit types in the battle, no more of a type than it has."""
    battle = result.battle
    assert battle is not None
    has = Counter(u.type.name for u in battle.side(which))
    named: Counter[str] = Counter()
    for name, n in roll.units.items():
        named[type_of(resolution, name) or name] += n
    return not named - has


def add_roll(out: Reading, roll: Roll, which: str, step: str) -> None:
    while len(out.rounds) < roll.round:
        out.rounds.append({})
    index = roll.round - 1
    steps = out.rounds[index].setdefault(which, {})
    out.lines.setdefault((index, which), roll.line)
    out.first.setdefault(index, roll.line)
    if roll.hits is not None and roll.count is not None and roll.hits > roll.count:
        out.summary_over.append(roll)
    if roll.groups and step == "aa":  # the forum's AA dice do not say whose plane each die was for
        roll = replace_dice(roll)
    if roll.groups:
        merged = dice_of(steps.get(step)) if not isinstance(steps.get(step), Pool) else {}
        for value, dice in roll.groups.items():
            merged.setdefault(value, []).extend(dice)
        steps[step] = merged
        return
    pool = Pool(roll.line, dice=tuple(roll.dice), count=roll.count or 0, hits=roll.hits)
    steps[step] = steps[step].merged(pool) if isinstance(steps.get(step), Pool) else pool


def replace_dice(roll: Roll) -> Roll:
    """A forum line's dice as a pool (its values dropped): AA dice all hit on 1."""
    return Roll(roll.line, roll.power, roll.round, roll.step, dice=[d for ds in roll.groups.values() for d in ds])


# -- the search ---------------------------------------------------------------------------------------------


class OutOfTrials(Exception):
    """The search made :data:`MAX_TRIALS` replays without settling the battle."""


@dataclass
class Search:
    """The choices of one result's pasted dice tried round by round."""

    result: Result
    resolution: Resolution
    model: type[BattleModel]
    ool: dict[str, Any] | None
    skeleton: list[dict[str, Any]]
    written: list[dict[str, Any]]
    totals_only: bool
    trials: int = 0
    prefix: list[dict[str, Any]] = field(default_factory=list)
    unachievable: Pool | None = None
    """The pool whose chosen hits the last replay could not give."""
    failed: set[Any] = field(default_factory=set)
    """The ends of prefixes no further rounds were found for (the same end fails again)."""
    """The rounds settled so far (the round being chosen follows them)."""

    def play(self, rounds: list[dict[str, Any]]) -> Replay | None:
        self.trials += 1
        if self.trials > MAX_TRIALS:
            raise OutOfTrials
        try:
            return PastedReplayer(self.result, self.resolution, self.model, self.ool).run(
                [dict(r) for r in rounds])
        except Unachievable as gone:
            self.unachievable = gone.args[0] if gone.args else None
            return None

    def first(self, count: int) -> list[dict[str, Any]] | None:
        """The first choice of every round, ``count`` rounds, that makes the battle legal."""
        return self.extend([], Replay(), count)

    def extend(self, prefix: list[dict[str, Any]], before: Replay, count: int) -> list[dict[str, Any]] | None:
        number = len(prefix)
        final = number + 1 == count
        self.prefix = prefix
        dead: set[Pool] = set()  # pool choices the dice cannot give after this prefix: no candidate with one is tried
        for chosen, entry in self.candidates(number, before, final, dead):
            if dead.intersection(chosen):
                continue
            found = self.play([*prefix, entry])
            if found is None:
                self.bury(number, dead)
                continue
            bad = [m for m in found.mismatches if final or m.code != "AA519"]
            if final and self.totals_only:
                bad += self.totals_left(found)
            if bad:
                continue
            if final:
                return [*prefix, entry]
            key = (count, number, found.end, tuple(sorted(found.losses["attacker"].items())),
                   tuple(sorted(found.losses["defender"].items())), tuple(sorted(found.submerged.items())))
            if key in self.failed or not self.may_follow(number + 1, found):
                continue
            rounds = self.extend([*prefix, entry], found, count)
            if rounds is not None:
                return rounds
            self.failed.add(key)
            self.prefix = prefix
        return None

    def closest(self, count: int) -> Replay:
        """The rounds that fit best when none fit: round by round, the choice with the fewest findings (what is
        reported then)."""
        prefix: list[dict[str, Any]] = []
        found = Replay()
        for number in range(count):
            self.prefix = prefix
            final = number + 1 == count
            best: tuple[int, dict[str, Any], Replay] | None = None
            for _chosen, entry in self.candidates(number, found, final, set()):
                trial = self.play([*prefix, entry])
                if trial is None:
                    continue
                score = sum(1 for m in trial.mismatches if final or m.code != "AA519")
                if best is None or score < best[0]:
                    best = (score, entry, trial)
                if not score:
                    break
            if best is None:
                return found
            prefix = [*prefix, best[1]]
            found = best[2]
        return found

    def may_follow(self, number: int, found: Replay) -> bool:
        """Whether round ``number``'s dice may follow the rounds replayed: no side rolls more than it owes, nor
        fewer unless a casualty ahead of the main fire (a surprise strike) or a submerge may come first."""
        if number >= len(self.skeleton):
            return True  # a round without dice: the replay says whether the battle ends before its fire
        entry = self.skeleton[number]
        for which in SIDES:
            other = SIDES[1 - SIDES.index(which)]
            rolled = sum(v.size if isinstance(v, Pool) else sum(map(len, dice_of(v).values()))
                         for step, v in mapping(entry.get(which)).items() if step not in ("aa", "bombard"))
            owed = found.next_dice.get(which, rolled)
            early = any(step in (SUB, "sub_strike") for step in mapping(entry.get(other))) or (
                which in self.result.submerged)
            if rolled > owed or (rolled < owed and not early):
                return False
        return True

    def totals_left(self, found: Replay) -> list[Mismatch]:
        result = self.result
        left = [side for side in SIDES if +found.losses[side] != +Counter(result.losses[side])]
        if +found.submerged != +Counter({s: n for s, n in result.submerged.items() if isinstance(n, int)}):
            left.append("submerged")
        written_damaged = Counter[str]()
        for by_type in result.extras.damaged.values():
            written_damaged.update(by_type)
        if +found.damaged != +written_damaged:
            left.append("damaged")
        return [Mismatch("AA520", what, ()) for what in left]

    def bury(self, number: int, dead: set[Pool]) -> None:
        """The pool the last replay could not give is dead for this prefix, where its dice's values do not hang on
        the round's losses: an early step's pool (AA, bombardment, surprise strike), or any pool of a round without
        early steps (the casualties taken before the main fire change which values it owes)."""
        pool = self.unachievable
        if pool is None:
            return
        base = self.skeleton[number] if number < len(self.skeleton) else {}
        early = [v for which in SIDES for step, v in mapping(base.get(which)).items() if step in EARLY_STEPS]
        if not early or any(isinstance(v, Pool) and v.line == pool.line for v in early):
            dead.add(pool)

    def candidates(self, number: int, before: Replay, final: bool,
                   dead: set[Pool]) -> Iterator[tuple[tuple[Pool, ...], dict[str, Any]]]:
        """The ways round ``number`` may be written: its pools' hits, then (totals only) its losses."""
        base = self.skeleton[number] if number < len(self.skeleton) else {}
        pools = [(which, step, v) for which in SIDES for step, v in mapping(base.get(which)).items()
                 if isinstance(v, Pool)]
        for chosen in itertools.product(*(self.pool_choices(step, v, number) for _w, step, v in pools)):
            if dead.intersection(chosen):
                continue
            entry: dict[str, Any] = {which: dict(mapping(base.get(which))) for which in SIDES if base.get(which)}
            for (which, step, _v), pool in zip(pools, chosen, strict=True):
                entry[which][step] = pool
            if not self.totals_only:
                written = self.written[number] if number < len(self.written) else {}
                yield chosen, {**entry, **{k: v for k, v in mapping(written).items() if k in ROUND_KEYS}}
                continue
            probe = self.play([*self.prefix, {**entry, AUTO: True}])
            if probe is None:
                self.bury(number, dead)
            if dead.intersection(chosen):
                continue
            for split in self.splits(entry, before, final, probe.points if probe else {}):
                yield chosen, split

    def pool_choices(self, step: str, pool: Pool, number: int) -> list[Pool]:
        if step == "aa" and not self.model.aa_attacker_chooses and number == 0:
            hits = pool.dice.count(1) if pool.hits is None else min(pool.hits, pool.count)
            return [replace(pool, named=named) for named in plane_splits(self.planes(), hits)] or [pool]
        return [replace(pool, chosen=h) for h in pool.choices()]

    def planes(self) -> Counter[str]:
        battle = self.result.battle
        assert battle is not None
        return Counter(u.type.name for u in battle.side("attacker") if u.type.is_air)

    def splits(self, entry: dict[str, Any], before: Replay, final: bool,
               points: dict[tuple[int, str], int]) -> Iterator[dict[str, Any]]:
        """A round's losses, damage and submerges taken from what the totals leave, the most casualties first:
        those that take the hit points the round's hits take (``points``, found by a replay without losses)."""
        result = self.result
        number = len(self.prefix)
        left = {s: +(Counter(result.losses[s]) - before.losses[s]) for s in SIDES}
        hits = {s: points.get((number, s), self.hits_on(entry, s)) for s in SIDES}
        submerge = [s for s in SIDES if isinstance(result.submerged.get(s), int) and not before.submerged[s]]
        for att, dfn in itertools.product(self.side_losses("attacker", left["attacker"], hits["attacker"], before),
                                          self.side_losses("defender", left["defender"], hits["defender"], before)):
            for under in subsets(submerge):
                found = dict(entry)
                found[AUTO] = True
                (lost_a, dmg_a), (lost_d, dmg_d) = att, dfn
                if lost_a:
                    found["attacker_losses"] = dict(lost_a)
                if lost_d:
                    found["defender_losses"] = dict(lost_d)
                if dmg_a or dmg_d:
                    found["damaged"] = {s: dict(c) for s, c in (("attacker", dmg_a), ("defender", dmg_d)) if c}
                if under:
                    found["submerged"] = {s: result.submerged[s] for s in under}
                if final and result.retreat:
                    found["retreat"] = result.retreat
                yield found

    def hits_on(self, entry: dict[str, Any], which: str) -> int:
        """At most how many hits the other side's dice give this round."""
        other = SIDES[1 - SIDES.index(which)]
        total = 0
        for value in mapping(entry.get(other)).values():
            if isinstance(value, Pool):
                total += value.chosen if not value.named else sum(n for _t, n in value.named)
            else:
                total += sum(1 for v, ds in dice_of(value).items() for d in ds
                             if d <= (int(v) if v.isdigit() else 1))
        return total

    def side_losses(self, which: str, left: Counter[str], hits: int,
                    before: Replay) -> list[tuple[Counter[str], Counter[str]]]:
        """A side's round casualties (and two-hit units damaged) that take ``hits`` hit points (what the rules
        remove without dice is the replay's)."""
        two_hit = sorted(set(self.two_hit_kinds(which)))
        found = []
        for counts in itertools.product(*(range(n + 1) for n in left.values())):
            lost = +Counter(dict(zip(left, counts, strict=True)))
            taken = sum(n if name not in two_hit else n + max(0, n - before.damaged[name]) for name, n in lost.items())
            if taken > hits:
                continue
            for damaged in itertools.product(*(range(hits - taken + 1) for _t in two_hit)):
                if taken + sum(damaged) == hits:
                    found.append((lost, +Counter(dict(zip(two_hit, damaged, strict=True)))))
        found.sort(key=lambda c: (sorted(c[0].items()), sorted(c[1].items())))
        return found

    def two_hit_kinds(self, which: str) -> list[str]:
        battle = self.result.battle
        assert battle is not None
        return [u.type.name for u in battle.side(which) if u.type.hit_points >= 2]


def subsets(items: list[str]) -> Iterator[tuple[str, ...]]:
    for size in range(len(items) + 1):
        yield from itertools.combinations(items, size)


def plane_splits(planes: Counter[str], hits: int) -> list[tuple[tuple[str, int], ...]]:
    """The ways ``hits`` AA hits fall on the plane types (at most as many as a type has planes)."""
    names = sorted(planes)
    return [tuple((n, k) for n, k in zip(names, split, strict=True) if k)
            for split in itertools.product(*(range(planes[n] + 1) for n in names)) if sum(split) == hits]


# -- the result's replay ------------------------------------------------------------------------------------


def register_lines(doc: Document, result: Result, text: str) -> None:
    """Each line of the text gets its place in the file (the path ``(..., "dice", i)``), found below the key."""
    base = (*result.where, "dice")
    start, _col = doc.pos(base)
    lines = doc.lines()
    cursor = start - 1
    for number, raw in enumerate(text.splitlines()):
        wanted = raw.strip()
        if not wanted:
            continue
        for at in range(cursor, len(lines)):
            if lines[at].strip().endswith(wanted) and wanted:
                column = lines[at].find(wanted) + 1
                doc.positions.setdefault((*base, number), (at + 1, column))
                cursor = at + 1
                break


def pasted_replay(result: Result, resolution: Resolution, model: type[BattleModel], ool: dict[str, Any] | None,
                  text: str) -> Replay | None:
    """The result's pasted dice read and settled (None: no line could be read)."""
    register_lines(resolution.doc, result, text)
    found = reading(text, result, resolution)
    where = (*result.where, "dice")
    unread = [Mismatch("AA522", _("this line of dice was not read: {why}").format(why=u.why), (*where, u.line))
              for u in found.unread]
    if not found.rounds:
        return Replay(mismatches=unread) if unread else None
    written = resolution.doc.get("results", result.index, "rounds", default=None)
    written = written if isinstance(written, list) else []
    if result.battle is not None and result.battle.raid:
        aa_by_type = not model.aa_attacker_chooses
        out = raid_replay(result, [plain(r, aa_by_type) for r in found.rounds], model, aa_by_type)
    else:
        out = settle(result, resolution, model, ool, found, written)
    out.mismatches = [*unread, *[over_hits(r, where) for r in found.summary_over],
                      *[placed(m, found, result, written) for m in out.mismatches]]
    out.rounds = max(len(found.rounds), len(written))
    return out


def plain(entry: dict[str, Any], aa_by_type: bool) -> dict[str, Any]:
    """A raid's round with its dice under one key a step (a raid's AA dice hit on 1, keyed ``bomber`` where AA
    dice are keyed by plane type; its damage dice under any key)."""
    return {which: {step: {"bomber" if step == "aa" and aa_by_type else "1": flat(v)} for step, v in steps.items()}
            for which, steps in entry.items()}


def flat(step: Any) -> list[int]:
    return list(step.dice) if isinstance(step, Pool) else [d for ds in dice_of(step).values() for d in ds]


def over_hits(roll: Roll, where: tuple[Any, ...]) -> Mismatch:
    return Mismatch("AA514", _("this summary line gives {hits} hits from {count} dice").format(
        hits=roll.hits, count=roll.count), (*where, roll.line))


def settle(result: Result, resolution: Resolution, model: type[BattleModel], ool: dict[str, Any] | None,
           found: Reading, written: list[Any]) -> Replay:
    """The first rounds (choices of the pools, and with totals only the split of the losses) the dice fit."""
    totals_only = not written
    merge_written_dice(found, written)
    battle = result.battle
    assert battle is not None
    search = Search(result, resolution, model, ool, found.rounds, [mapping(w) for w in written], totals_only)
    counts = [max(len(found.rounds), len(written))]
    if totals_only and (result.submerged or any(u.type.transport_capacity for which in SIDES
                                                for u in battle.side(which))):
        counts.append(counts[0] + 1)  # a last round without dice: a submerge, a lone transport removed
    try:
        for count in counts:
            rounds = search.first(count)
            if rounds is not None:
                out = search.play(rounds)
                assert out is not None
                return out
    except OutOfTrials:
        return unsettled(result, _("the dice could not be settled within {count} trials: write the rounds' "
                                   "losses under rounds:").format(count=MAX_TRIALS))
    try:
        best = search.closest(counts[0])
    except OutOfTrials:
        best = Replay()
    if not totals_only:
        return best
    kept = [m for m in best.mismatches if m.code not in LOSS_CODES]
    out = unsettled(result, _("no split of the result's losses into its {count} rounds fits the dice").format(
        count=counts[0]))
    out.mismatches = kept + out.mismatches
    return out


def merge_written_dice(found: Reading, written: list[Any]) -> None:
    """Dice a round of ``rounds:`` gives beside the text join the text's (a step the text gives is the text's)."""
    for number, entry in enumerate(written):
        for which in SIDES:
            steps = mapping(mapping(entry).get(which))
            if not steps:
                continue
            while len(found.rounds) <= number:
                found.rounds.append({})
            found.rounds[number][which] = {**steps, **found.rounds[number].get(which, {})}


def unsettled(result: Result, message: str) -> Replay:
    """A replay that reports the battle unsettled (AA520) and adds up to the result's own totals."""
    out = Replay(mismatches=[Mismatch("AA520", message, (*result.where, "dice"))])
    out.losses = {s: Counter(result.losses[s]) for s in SIDES}
    out.submerged = +Counter({s: n for s, n in result.submerged.items() if isinstance(n, int)})
    out.retreat = result.retreat
    for by_type in result.extras.damaged.values():
        out.damaged.update(by_type)
    return out


def placed(mismatch: Mismatch, found: Reading, result: Result, written: list[Any]) -> Mismatch:
    """A replay's finding moved to the dice line of its round and side (a written round's keys stay put)."""
    where = mismatch.where
    base = (*result.where, "rounds")
    if where[:len(base)] != base or len(where) <= len(base):
        return mismatch
    number, rest = where[len(base)], where[len(base) + 1:]
    if isinstance(number, int) and number < len(written) and rest and rest[0] not in SIDES:
        return mismatch
    line = found.lines.get((number, rest[0])) if rest and rest[0] in SIDES else None
    line = line if line is not None else found.first.get(number)
    at = (*result.where, "dice") if line is None else (*result.where, "dice", line)
    return Mismatch(mismatch.code, mismatch.message, at)
