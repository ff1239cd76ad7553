"""A battle result's ``rounds:`` re-derived on the edition's battle model (aa-battle.md, "Results checked
against the dice").

The battle is rebuilt from the state's units (:func:`movecheck.aa.battle.units.make_battle`) and played
round by round with the dice the result gives: the engine says which firing steps owe which dice
(:meth:`~movecheck.aa.battle.engine.Battle.groups`), the dice give the hits, and the round's losses must be
what the hits give.  Each mismatch is a :class:`Mismatch` with the code the spec assigns; the clauses of
:mod:`movecheck.aa.checks.dice` report them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from movecheck.aa.battle.model import AIR, ANY, STEP_TARGETS
from movecheck.aa.battle.side import Counts, Side
from movecheck.aa.battle.units import DAMAGED, make_battle
from movecheck.aa.turn.battles import territory_guns as of_territory
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.battle.engine import Battle
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.turn.battles import Resolution, Result

SIDES = ("attacker", "defender")
MOMENTS = (("aa",), ("bombard",), ("sub_strike",), ("subs", "air", "fire"))
"""The moments of a round: the steps of one moment hit at once."""


@dataclass
class Mismatch:
    """One way the rounds do not agree with the rules: its code, message and where in the result."""

    code: str
    message: str
    where: tuple[Any, ...]


@dataclass
class Replay:
    """What the rounds add up to, and what does not agree."""

    mismatches: list[Mismatch] = field(default_factory=list)
    losses: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in SIDES})
    submerged: Counter[str] = field(default_factory=Counter)
    retreat: str | None = None
    outcome: str = ""
    damaged: Counter[str] = field(default_factory=Counter)
    """The two-hit units still damaged at the end, by type."""
    damage: list[int] | None = None
    """A raid's damage dice."""
    rounds: int = 0
    """How many rounds were checked against their dice."""
    points: dict[tuple[int, str], int] = field(default_factory=dict)
    end: tuple[Any, ...] = ()
    """Both sides' counts after the last round (equal ends play the same from there)."""
    next_dice: dict[str, int] = field(default_factory=dict)
    """By side, the dice a further round would owe (before any casualty taken ahead of its main fire)."""
    """(round index, side) -> the hit points the round's hits take from the side."""


def dice_of(step: Any) -> dict[str, list[int]]:
    """A step's dice by value (or plane type), keys as text; anything else the schema reports."""
    if not isinstance(step, dict):
        return {}
    return {str(k): [d for d in v if isinstance(d, int)] for k, v in step.items() if isinstance(v, list)}


def mapping(value: Any) -> dict[str, Any]:
    """A mapping the file gives, or none (the schema reports any other shape)."""
    return value if isinstance(value, dict) else {}


def owed_text(owed: dict[str, int]) -> str:
    return ", ".join(f"{n} at {v}" for v, n in sorted(owed.items())) or _("none")


def rolled_text(dice: dict[str, list[int]]) -> str:
    return ", ".join(f"{len(d)} at {v}" for v, d in sorted(dice.items()) if d) or _("none")


def hits_of(dice: dict[str, list[int]], plane_types: bool) -> int:
    """Dice at or under their value (AA dice keyed by plane type hit on 1)."""
    return sum(1 for value, rolled in dice.items() for d in rolled
               if d <= (1 if plane_types or not value.isdigit() else int(value)))


class Replayer:
    """Plays one result's rounds on its battle."""

    def __init__(self, result: Result, resolution: Resolution, model: type[BattleModel],
                 ool: dict[str, Any] | None = None) -> None:
        self.result = result
        self.types = resolution.board.map.unit_types
        self.resolve = resolution.board.map.resolve_type
        self.model = model
        battle = result.battle
        assert battle is not None
        att = Counter(u.type.name for u in battle.side("attacker"))
        dfn = Counter(u.type.name for u in battle.side("defender"))
        self.battle: Battle
        self.ool = ool
        chosen = {s: [self.resolve(n) or str(n) for n in ool.get(s, []) if isinstance(n, str)] for s in SIDES
                  } if ool else None
        keep = ool.get("keep_land", 0) if ool and isinstance(ool.get("keep_land"), int) else 0
        self.battle, _ool = make_battle(model, self.types, att, dfn, land=battle.kind == "land", ool=chosen,
                                        keep_land=keep, may_retreat=bool(battle.came_from),
                                        aa_guns=territory_guns(resolution, battle))
        self.log: dict[str, list[tuple[str, str, int]]] = {s: [] for s in SIDES}
        """This round's hits on each side: (step, target class, hits)."""
        self.ships = bombarding_ships(resolution, battle, model)
        """The attack values of the ships that may bombard this battle (aa-battle.md, "Bombardment")."""
        self.aa_named: Counter[str] = Counter()
        """This round's AA hits by plane type (where the dice name the planes)."""
        self.state: list[Counts] = list(self.battle.start)
        self.out = Replay()
        self.state_now: dict[str, Counts] = {}
        """Each side at the start of the round's fire."""

    def side(self, which: str) -> Side:
        return self.battle.att if which == "attacker" else self.battle.dfn

    def index(self, which: str, name: str) -> int | None:
        for i, kind in enumerate(self.side(which).kinds):
            if kind.name == name:
                return i
        return None

    def report(self, code: str, message: str, *where: Any) -> None:
        self.out.mismatches.append(Mismatch(code, message, (*self.result.where, "rounds", *where)))

    # -- the rounds ----------------------------------------------------------------------------

    def run(self, rounds: list[Any]) -> Replay:
        for number, entry in enumerate(rounds):
            if not isinstance(entry, dict):
                continue
            if self.out.outcome or self.out.retreat:
                self.report("AA518", _("round {round}: the battle was already over ({why})").format(
                    round=number + 1, why=self.out.outcome or _("the attacker retreated")), number)
                break
            self.round(number, entry)
        for i, which in enumerate(SIDES):
            side = self.side(which)
            for _u, dmg in side.two_hit:
                self.out.damaged[side.kinds[dmg].base] += self.state[i][dmg]
        self.out.damaged = +self.out.damaged
        self.out.end = tuple(self.state)
        now = dict(zip(SIDES, self.state, strict=True))
        self.out.next_dice = {s: sum(n for moment in ("sub", "main")
                                     for dice in self.owed_groups(s, now, moment).values() for n in dice.values())
                              for s in SIDES}
        if rounds and not self.out.outcome and not self.out.retreat:
            self.report("AA519", _("after round {round} both sides still fight and nobody retreats: the battle is not "
                                 "over (write the next round)").format(round=len(rounds)), len(rounds) - 1)
        return self.out

    def round(self, number: int, entry: dict[str, Any]) -> None:
        first = number == 0
        a, d = self.state[0], self.state[1]
        if self.model.submerge_before_round:
            a, d = self.submerge(number, entry, a, d)
        gone = self.automatic(number, (a, d), start=True)
        (a, d), outcome = self.battle.round_start((a, d), first)
        if outcome:
            self.finish(number, entry, gone, (a, d), outcome)
            self.no_dice(number, entry)
            for which in SIDES:
                if self.counts(entry.get(f"{which}_losses")):
                    self.report("AA515", _("round {round}: the battle ends before any fire ({why}): the {side} loses "
                                         "nothing to hits").format(round=number + 1, why=outcome, side=which),
                              number, f"{which}_losses")
            return
        written = {s: mapping(entry.get(s)) for s in SIDES}
        losses = {s: self.round_losses(number, entry, s) for s in SIDES}
        damaged = self.round_damaged(number, entry)
        self.check_unknown_steps(number, written, first)
        a, d = self.fire(number, written, losses, damaged, a, d, first)
        ended = self.automatic(number, (a, d), start=False)
        gone = {s: gone[s] + ended[s] for s in SIDES}
        (a, d), outcome = self.battle.round_end((a, d))
        if not self.model.submerge_before_round:
            a, d = self.submerge(number, entry, a, d)
            outcome = outcome or self.battle.settled((a, d), stalemate=True)[1]
        self.finish(number, entry, gone, (a, d), outcome)
        retreat = entry.get("retreat")
        if isinstance(retreat, str):
            self.out.retreat = retreat

    def finish(self, number: int, entry: dict[str, Any], gone: dict[str, Counter[str]],
               state: tuple[Counts, Counts], outcome: str) -> None:
        self.removed(number, entry, gone)
        self.state = [state[0], state[1]]
        self.out.outcome = outcome

    def automatic(self, number: int, state: tuple[Counts, Counts], start: bool) -> dict[str, Counter[str]]:
        """The units the rules remove without dice at a round's start or end; submerges the round does not
        write are AA506."""
        after = self.battle.round_start(state, False)[0] if start else self.battle.remove_unprotected(*state)
        if start and not self.model.auto_submerge_vs_air:
            after = self.battle.remove_unprotected(*state)
        found: dict[str, Counter[str]] = {}
        for i, which in enumerate(SIDES):
            side = self.side(which)
            gone: Counter[str] = Counter()
            for k, kind in enumerate(side.kinds):
                change = state[i][k] - after[i][k]
                if kind.out and change < 0:
                    self.report("AA506", _("round {round}: the {side}'s submarines face only aircraft that cannot hit "
                                         "them and submerge (write submerged:)").format(round=number + 1,
                                                                                       side=which),
                              number)
                gone[kind.base] += -change if kind.out else change
            found[which] = +gone
        return found

    def removed(self, number: int, entry: dict[str, Any], gone: dict[str, Counter[str]]) -> None:
        """What the rules removed without dice that round against its ``removed:``."""
        written = mapping(entry.get("removed"))
        for which in SIDES:
            said = self.counts(written.get(which))
            said = said - self.cargo(number, entry, which, said)  # cargo goes with its vessel, left out of totals
            self.out.losses[which].update(said if said else gone[which])
            if said != gone[which]:
                self.report("AA515", _("round {round}: the rules remove {units} of the {side} without dice, the round "
                                     "says {written}").format(round=number + 1, units=self.phrase(gone[which]),
                                                             side=which, written=self.phrase(said)),
                          number, "removed")

    def cargo(self, number: int, entry: dict[str, Any], which: str, said: Counter[str]) -> Counter[str]:
        """The types ``removed:`` lists that do not fight in the battle: cargo, lost with a transport or carrier
        the side lost that round (AA515 when it lost none)."""
        cargo = Counter({name: n for name, n in said.items() if self.index(which, name) is None})
        vessels = [n for n in self.counts(entry.get(f"{which}_losses")) if n in self.types
                   and (self.types[n].is_transport or self.types[n].is_carrier)]
        if cargo and not vessels:
            message = _("round {round}: {units} of the {side} do not fight here, and no transport or carrier "
                        "of theirs was lost that round")
            self.report("AA515", message.format(round=number + 1, units=self.phrase(cargo), side=which), number,
                        "removed")
        return cargo

    def no_dice(self, number: int, entry: dict[str, Any]) -> None:
        for which in SIDES:
            if isinstance(entry.get(which), dict) and any(dice_of(v) for v in entry[which].values()):
                self.report("AA518", _("round {round}: the battle was over before its fire ({why}), yet dice were "
                                     "rolled").format(round=number + 1, why=self.out.outcome), number, which)

    def check_unknown_steps(self, number: int, written: dict[str, Any], first: bool) -> None:
        for which in SIDES:
            for step in written[which]:
                if step in ("aa", "bombard") and not first:
                    self.report("AA513", _("round {round}: the {side} rolls {step} dice, but that step fires in round "
                                         "1 only").format(round=number + 1, side=which, step=step), number, which,
                              step)

    # -- without dice --------------------------------------------------------------------------

    def submerge(self, number: int, entry: dict[str, Any], a: Counts, d: Counts) -> tuple[Counts, Counts]:
        written = mapping(entry.get("submerged"))
        state = {"attacker": a, "defender": d}
        for which in SIDES:
            count = written.get(which)
            if not isinstance(count, int):
                continue
            side = self.side(which)
            other = SIDES[1 - SIDES.index(which)]
            counts = list(state[which])
            subs = sum(counts[k] for k in side.submerge_to)
            why = self.no_submerge(number, self.side(other).any_of(state[other], "destroyer"))
            if why:
                self.report("AA506", _("round {round}: the {side}'s submarines may not submerge then: {why}").format(
                    round=number + 1, side=which, why=why), number, "submerged")
            if count != subs:
                self.report("AA506", _("round {round}: {count} submarines of the {side} submerge, but a side's {subs} "
                                     "submarines submerge together").format(round=number + 1, count=count,
                                                                           side=which, subs=subs),
                          number, "submerged")
            for k, out in side.submerge_to.items():
                counts[out] += counts[k]
                counts[k] = 0
            state[which] = tuple(counts)
            self.out.submerged[which] += count
        return state["attacker"], state["defender"]

    def no_submerge(self, number: int, enemy_destroyer: bool) -> str:
        """Why submarines may not submerge at this moment ("" when they may)."""
        if enemy_destroyer:
            return _("an enemy destroyer is in the battle")
        if self.model.submerge_before_round and number == 0:
            return _("in this edition they submerge at the start of a round after the first")
        return ""

    # -- the fire -------------------------------------------------------------------------------

    def fire(self, number: int, written: dict[str, Any], losses: dict[str, Counter[str]],
             damaged: dict[str, Counter[str]], a: Counts, d: Counts, first: bool) -> tuple[Counts, Counts]:
        """The round's steps: dice owed and rolled, hits, and each side's casualties."""
        hits: dict[str, list[tuple[str, int, int]]] = {s: [] for s in SIDES}  # hit side -> (class, hits, targets)
        start = {"attacker": a, "defender": d}
        self.state_now = start
        self.log = {s: [] for s in SIDES}
        self.aa_named = Counter()
        state = dict(start)
        early: dict[str, list[Counter[str]]] = {s: [Counter()] for s in SIDES}  # casualties gone before the main fire
        if first:
            early["attacker"] = self.aa_step(number, written, hits, state, losses["attacker"])
            shelled = self.bombard_step(number, written["attacker"], hits, state)
            if shelled and not self.model.bombard_casualties_fire:
                early["defender"] = self.choices("defender", losses["defender"], shelled, lambda k: True)
        sub = {w: self.owed_groups(w, state, "sub") for w in SIDES}
        for which in SIDES:
            other = SIDES[1 - SIDES.index(which)]
            struck = self.step_dice(number, which, written[which], sub[which], ("sub_strike",), hits, state)
            if struck and self.model.sub_surprise(self.side(other).any_of(state[other], "destroyer")):
                early[other] = [e + c for e in early[other] for c in self.choices(other, losses[other], struck,
                                                                                     lambda k: not k.air)]
        for which in SIDES:
            state[which] = self.first_fitting(which, written[which], early[which], state)
        main = {w: self.owed_groups(w, state, "main") for w in SIDES}
        for which in SIDES:
            self.step_dice(number, which, written[which], main[which], ("subs", "air", "fire"), hits, state)
        for which in SIDES:
            state[which] = self.take(number, which, hits[which], losses[which], damaged[which], start[which])
        return state["attacker"], state["defender"]

    def choices(self, which: str, losses: Counter[str], count: int, pick: Any) -> list[Counter[str]]:
        """The ways ``count`` of a side's round losses (of kinds ``pick`` takes) may be an early step's."""
        side = self.side(which)
        kinds = {k.base: k for k in reversed(side.kinds)}  # the unit in the battle, not its damaged or submerged form
        two_hit = {side.kinds[u].base for u, _d in side.two_hit}
        count -= sum(self.state_now[which][u] for u, _d in side.two_hit if pick(side.kinds[u]))  # damage first
        pool = sorted(n for name, c in losses.items() if name in kinds and name not in two_hit and pick(kinds[name])
                      for n in [name] * c)
        size = max(0, min(count, len(pool)))
        return [Counter(c) for c in sorted(set(combinations(pool, size)))] or [Counter()]

    def first_fitting(self, which: str, written: dict[str, Any], early: list[Counter[str]],
                      state: dict[str, Counts]) -> Counts:
        """The side without its early casualties: the choice whose main fire owes the dice written (else the first)."""
        other = SIDES[1 - SIDES.index(which)]
        rolled = {step: {v: len(ds) for v, ds in dice_of(written.get(step)).items() if ds}
                  for step in ("subs", "air", "fire")}
        fallback: Counts | None = None
        for gone in early:
            left = list(state[which])
            for name, n in gone.items():
                for _n in range(n):
                    self.kill(left, which, name)
            trial = {which: tuple(left), other: state[other]}
            owed = self.owed_groups(which, trial, "main")
            if all(owed.get(step, {}) == rolled[step] for step in rolled):
                return tuple(left)
            fallback = fallback or tuple(left)
        return fallback or state[which]

    def owed_groups(self, which: str, state: dict[str, Counts], moment: str) -> dict[str, dict[str, int]]:
        other = SIDES[1 - SIDES.index(which)]
        groups = self.battle.groups(self.side(which), state[which], self.side(other), state[other],
                                    which == "attacker", moment)
        return {name: {str(v): n for v, n in dice} for name, _cls, dice in groups
                if self.side(other).targets(state[other], STEP_TARGETS[name])}

    def step_dice(self, number: int, which: str, written: dict[str, Any], owed: dict[str, dict[str, int]],
                  steps: tuple[str, ...], hits: dict[str, list[tuple[str, int, int]]],
                  state: dict[str, Counts]) -> int:
        """Each step's dice against what it owes (AA513); its hits on the other side.  Returns the hits."""
        other = SIDES[1 - SIDES.index(which)]
        total = 0
        for step in steps:
            rolled = dice_of(written.get(step))
            want = owed.get(step, {})
            got = {v: len(ds) for v, ds in rolled.items() if ds}
            if got != want:
                self.report("AA513", _("round {round}: the {side} owes {owed} in its {step} step, {rolled} were "
                                     "rolled").format(round=number + 1, side=which, owed=owed_text(want), step=step,
                                                      rolled=rolled_text(rolled)), number, which)
            cls = STEP_TARGETS[step]
            hits[other].append((cls, hits_of(rolled, False), self.side(other).target_points(state[other], cls)))
            self.log[other].append((step, cls, hits[other][-1][1]))
            total += hits[other][-1][1]
        return total

    def bombard_step(self, number: int, written: dict[str, Any], hits: dict[str, list[tuple[str, int, int]]],
                     state: dict[str, Counts]) -> int:
        """Round 1's bombardment: at most one die per ship that may bombard, at its attack; its hits."""
        rolled = dice_of(written.get("bombard"))
        if not rolled:
            return 0
        got = Counter({v: len(ds) for v, ds in rolled.items() if ds})
        free = Counter(str(v) for v in self.ships)
        if got - free or (not self.ships and got):
            self.report("AA513", _("round {round}: the ships that may bombard owe at most {owed}, {rolled} were "
                                 "rolled").format(round=number + 1, owed=owed_text(dict(free)),
                                                  rolled=rolled_text(rolled)), number, "attacker")
        count = hits_of(rolled, False)
        hits["defender"].append((ANY, count, self.battle.dfn.target_points(state["defender"], ANY)))
        self.log["defender"].append(("bombard", ANY, count))
        return count

    def aa_step(self, number: int, written: dict[str, Any], hits: dict[str, list[tuple[str, int, int]]],
                state: dict[str, Counts], losses: Counter[str]) -> list[Counter[str]]:
        """Round 1's AA fire at the attacking aircraft: the shots the edition's AA gun and each map AA type give
        (the engine's :attr:`~movecheck.aa.battle.engine.Battle.aa_groups`, in its order)."""
        model, att = self.model, self.battle.att
        rolled = dice_of(written["defender"].get("aa"))
        by_plane = not model.aa_attacker_chooses
        if by_plane:
            rolled = self.dice_by_plane(rolled)
        got = {v: len(ds) for v, ds in rolled.items() if ds}
        want, count, named = self.aa_groups_fire(state, rolled, by_plane)
        if got != want:
            self.report("AA513", _("round {round}: the defender owes {owed} in its aa step, {rolled} were "
                                 "rolled").format(round=number + 1, owed=owed_text(want), rolled=rolled_text(rolled)),
                      number, "defender")
        hits["attacker"].append((AIR, count, att.target_points(state["attacker"], AIR)))
        self.log["attacker"].append(("aa", AIR, count))
        if model.aa_attacker_chooses:
            return self.choices("attacker", losses, count, lambda k: k.air)
        for plane, n in sorted((+named).items()):
            if losses[plane] < n:
                self.report("AA516", _("round {round}: AA fire hit {count} {unit}, the attacker loses {lost} of "
                                     "them (the dice rolled for a plane take that plane)").format(
                                         round=number + 1, count=n, unit=plane, lost=losses[plane]),
                          number, "attacker_losses")
        self.aa_named = +named
        return [named]

    def dice_by_plane(self, rolled: dict[str, list[int]]) -> dict[str, list[int]]:
        """AA dice keyed by plane type, the names resolved (two names of one type join)."""
        found: dict[str, list[int]] = {}
        for key, dice in rolled.items():
            found.setdefault(self.resolve(key) or key, []).extend(dice)
        return found

    def aa_groups_fire(self, state: dict[str, Counts], rolled: dict[str, list[int]],
                       by_plane: bool) -> tuple[dict[str, int], int, Counter[str]]:
        """The AA dice owed (by value, or by plane type where the dice name the planes), the hits and the planes
        they name.  Each group of guns fires in turn at the aircraft it may hit that are left, as the engine
        fires them: the edition's AA gun (a hit on 1), then each map AA type (its value, shots and targets); a
        group takes its dice from the front of its key's list.  Dice beyond those owed hit at their key's value
        (a plane's: 1) -- they are AA513 anyway."""
        battle, att = self.battle, self.battle.att
        left = list(state["attacker"])
        want: Counter[str] = Counter()
        used: Counter[str] = Counter()
        named: Counter[str] = Counter()
        count = 0
        for group in battle.aa_groups:
            guns = group.fixed + sum(c for c, k in zip(state["defender"], battle.dfn.kinds, strict=True)
                                     if k.base in group.types and not k.out)
            planes = att.targets(tuple(left), group.cls)
            if not guns or not planes:
                continue
            if by_plane:
                count += self.aa_dice_by_plane(group, left, rolled, used, want, named)
                continue
            key = str(group.value)
            shots = planes if group.shots is None else min(planes, group.shots * guns)
            shot = sum(1 for d in rolled.get(key, [])[used[key]:used[key] + shots] if d <= group.value)
            used[key] += shots
            want[key] += shots
            count += shot
            left = list(att.take(tuple(left), shot, group.cls)[0])
        for key, dice in rolled.items():
            spare = [d for d in dice[used[key]:] if d <= (int(key) if key.isdigit() else 1)]
            count += len(spare)
            if by_plane:
                named[key] += len(spare)
        return dict(+want), count, +named

    def planes_by_type(self, counts: Counts, cls: str) -> Counter[str]:
        """The attacker's aircraft in the battle that a step of class ``cls`` may hit, by type."""
        att = self.battle.att
        mask = att.mask(cls)
        found: Counter[str] = Counter()
        for i, (c, k) in enumerate(zip(counts, att.kinds, strict=True)):
            if mask[i] and c and k.air and not k.out:
                found[k.base] += c
        return found

    def aa_dice_by_plane(self, group: Any, left: list[int], rolled: dict[str, list[int]], used: Counter[str],
                         want: Counter[str], named: Counter[str]) -> int:
        """One group's fire where each plane it may hit gets one die, which takes that plane (Revised and
        Anniversary); ``left`` loses the planes hit.  Its hits."""
        count = 0
        for plane, n in sorted(self.planes_by_type(tuple(left), group.cls).items()):
            shot = sum(1 for d in rolled.get(plane, [])[used[plane]:used[plane] + n] if d <= group.value)
            used[plane] += n
            want[plane] += n
            named[plane] += shot
            count += shot
            for _n in range(shot):
                self.kill(left, "attacker", plane)
        return count

    # -- casualties -----------------------------------------------------------------------------

    def take(self, number: int, which: str, hits: list[tuple[str, int, int]], losses: Counter[str],
             damaged: Counter[str], counts: Counts) -> Counts:
        """The side after its round's casualties, checked against the hits (AA515, AA516)."""
        side = self.side(which)
        left = list(counts)
        taken: list[str] = []  # one entry per hit point taken, by unit type
        for name, n in sorted(damaged.items()):
            u, dmg = self.index(which, name), self.index(which, name + DAMAGED)
            if u is None or dmg is None or left[u] < n:
                self.report("AA515", _("round {round}: the {side} has no {count} undamaged {unit} to damage").format(
                    round=number + 1, side=which, count=n, unit=name), number, "damaged")
                continue
            left[u] -= n
            left[dmg] += n
            taken += [name] * n
        for name, n in sorted(losses.items()):
            for _n in range(n):
                hp = self.kill(left, which, name)
                if hp is None:
                    self.report("AA515", _("round {round}: the {side} loses a {unit} it does not have in the battle "
                                         "then").format(round=number + 1, side=which, unit=name), number,
                              f"{which}_losses")
                    break
                taken += [name] * hp
        owed = min(sum(min(h, t) for _c, h, t in hits), side.points(counts))
        self.out.points[number, which] = owed
        if len(taken) != owed:
            self.report("AA515", _("round {round}: the {side}'s hits take {owed} hit points, its losses and damage "
                                 "give {taken}").format(round=number + 1, side=which, owed=owed, taken=len(taken)),
                      number, f"{which}_losses")
        elif not self.assignable(which, taken, hits):
            self.report("AA516", _("round {round}: no hit of the round could take the {side}'s {units}").format(
                round=number + 1, side=which, units=", ".join(sorted(set(taken)))), number, f"{which}_losses")
        elif self.transport_first(which, taken, left, hits):
            self.report("AA516", _("round {round}: the {side} loses a transport while other units its hits could take "
                                 "are left (transports are taken last)").format(round=number + 1, side=which),
                      number, f"{which}_losses")
        elif self.ool and tuple(left) != self.by_ool(which, counts):
            expected = self.by_ool(which, counts)
            self.report("AA517", _("round {round}: the {side}'s order of loss takes {ool}, the round takes "
                                 "{taken}").format(round=number + 1, side=which,
                                                   ool=self.phrase(self.lost(which, counts, expected)),
                                                   taken=self.phrase(self.lost(which, counts, tuple(left)))),
                      number, f"{which}_losses")
        return tuple(left)

    def transport_first(self, which: str, taken: list[str], left: list[int], hits: list[tuple[str, int, int]]) -> bool:
        """A transport lost while a unit a hit could have taken instead is left (restricted editions)."""
        side = self.side(which)
        if not side.transports_last or not any(side.kinds[i].transport for i, k in enumerate(side.kinds)
                                               if k.base in taken):
            return False
        classes = [cls for cls, h, _t in hits if h]
        return any(c and not k.out and not k.transport and any(side.masks[cls][i] for cls in classes)
                   for i, (c, k) in enumerate(zip(left, side.kinds, strict=True)))

    def by_ool(self, which: str, counts: Counts) -> Counts:
        """The side after this round's hits taken by its order of loss (aa-battle.md, "Order of loss")."""
        side = self.side(which)
        left = list(counts)
        for plane, n in self.aa_named.items() if which == "attacker" else ():
            for _n in range(n):
                self.kill(left, which, plane)
        now: Counts = tuple(left)
        log = self.log[which]
        early = [e for e in log if e[0] in ("aa", "bombard", "sub_strike") and not (e[0] == "aa" and self.aa_named)]
        for _step, cls, n in early:
            now = side.take(now, n, cls)[0]
        order = {"subs": 0, "air": 1, "fire": 2}
        main = sorted((e for e in log if e[0] in order), key=lambda e: (side.targets(now, e[1]), order[e[0]]))
        for _step, cls, n in main:
            now = side.take(now, n, cls)[0]
        return now

    def lost(self, which: str, before: Counts, after: Counts) -> Counter[str]:
        """Hit points lost by type between two counts of a side (a damaged unit counts once)."""
        side = self.side(which)
        found: Counter[str] = Counter()
        for (u, dmg) in side.two_hit:
            found[side.kinds[u].base] += 2 * (before[u] - after[u]) + before[dmg] - after[dmg]
        for i, k in enumerate(side.kinds):
            if not any(i in pair for pair in side.two_hit) and not k.out:
                found[k.base] += before[i] - after[i]
        return +found

    def kill(self, left: list[int], which: str, name: str) -> int | None:
        """Remove one unit of type ``name`` (a damaged one first); the hit points that took, None if none."""
        dmg = self.index(which, name + DAMAGED)
        if dmg is not None and left[dmg]:
            left[dmg] -= 1
            return 1
        u = self.index(which, name)
        if u is None or not left[u]:
            return None
        left[u] -= 1
        return 2 if dmg is not None else 1

    def assignable(self, which: str, taken: list[str], hits: list[tuple[str, int, int]]) -> bool:
        """Some assignment of the hit points taken to the steps' hits keeps each within its class (Hall)."""
        side = self.side(which)
        kinds = {k.base: k for k in reversed(side.kinds)}  # the unit in the battle, not its damaged or submerged form
        steps = [(cls, min(h, t)) for cls, h, t in hits if min(h, t)]
        for size in range(1, len(steps) + 1):
            for chosen in combinations(range(len(steps)), size):
                only = [n for n in taken if all(i in chosen or not side.masks[steps[i][0]][side.kinds.index(
                    kinds[n])] for i in range(len(steps)))]
                if len(only) > sum(steps[i][1] for i in chosen):
                    return False
        return all(any(side.masks[cls][side.kinds.index(kinds[n])] for cls, _n in steps) for n in taken)

    # -- reading ----------------------------------------------------------------------------------

    def counts(self, value: Any) -> Counter[str]:
        found: Counter[str] = Counter()
        if isinstance(value, dict):
            for name, n in value.items():
                kind = self.resolve(name) if isinstance(name, str) else None
                if isinstance(n, int) and not isinstance(n, bool):
                    found[kind or str(name)] += n
        return found

    def round_losses(self, number: int, entry: dict[str, Any], which: str) -> Counter[str]:
        found = self.counts(entry.get(f"{which}_losses"))
        self.out.losses[which].update(found)
        return found

    def round_damaged(self, number: int, entry: dict[str, Any]) -> dict[str, Counter[str]]:
        """``damaged:`` by side; a flat mapping is the side whose two-hit units those are."""
        raw = mapping(entry.get("damaged"))
        if any(k in SIDES for k in raw):
            return {s: self.counts(raw.get(s)) for s in SIDES}
        flat = self.counts(raw)
        found: dict[str, Counter[str]] = {s: Counter() for s in SIDES}
        for name, n in flat.items():
            owner = next((s for s in SIDES if self.index(s, name + DAMAGED) is not None), "attacker")
            found[owner][name] += n
        return found

    def phrase(self, counts: Counter[str]) -> str:
        return ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or _("nothing")


def territory_guns(resolution: Resolution, battle: Any) -> int:
    """The defending AA guns of a land battle's territory that are not units of the battle, yet fire
    (:func:`movecheck.aa.turn.battles.territory_guns`, which the odds use too)."""
    return of_territory(resolution.board, battle.at) if battle.kind == "land" else 0


def bombarding_ships(resolution: Resolution, battle: Any, model: type[BattleModel]) -> list[int]:
    """The attack values of the mover's ships of the edition's bombarding types in the zones the amphibious units
    came from, none from a zone with a sea battle; at most one per amphibious land unit where the edition says so."""
    if not battle.amphibious_units():
        return []
    board = resolution.board
    ships = sorted((u.type.attack for zone in battle.came_from if board.is_sea(zone) and zone not in resolution.battles
                    for u in board.units_at(zone) if u.power == board.power and u.type.name in model.bombard_types),
                   reverse=True)
    return ships[:len(battle.amphibious_units())] if model.bombard_per_land_unit else ships


def raid_replay(result: Result, rounds: list[Any], model: type[BattleModel], aa_by_type: bool) -> Replay:
    """A raid's one round: the AA fire at the raiders the edition gives, then one damage die per surviving
    bomber (aa-battle.md, "Details settled")."""
    out = Replay()
    battle = result.battle
    assert battle is not None
    where = (*result.where, "rounds")
    for number in range(1, len(rounds)):
        out.mismatches.append(Mismatch("AA518", _("round {round}: a raid has one round").format(round=number + 1),
                                       (*where, number)))
    entry = mapping(rounds[0]) if rounds else {}
    bombers = len(battle.attackers)
    fires = model.raid_aa == "factory" or any(u.type.is_aa_gun for u in battle.defenders)
    aa = dice_of(mapping(entry.get("defender")).get("aa"))
    got = {v: len(ds) for v, ds in aa.items() if ds}
    want = ({"bomber" if aa_by_type else "1": bombers} if fires and bombers else {})
    got = {("bomber" if aa_by_type and not v.isdigit() else v): n for v, n in got.items()}
    if got != want:
        out.mismatches.append(Mismatch("AA513", _("round 1: the defender owes {owed} in its aa step, {rolled} were "
                                                  "rolled").format(owed=owed_text(want), rolled=rolled_text(aa)),
                                       (*where, 0, "defender")))
    shot = min(hits_of(aa, aa_by_type), bombers)
    lost = Counter(mapping(entry.get("attacker_losses")))
    out.losses["attacker"].update({k: v for k, v in lost.items() if isinstance(v, int)})
    if sum(out.losses["attacker"].values()) != shot:
        message = _("round 1: AA fire hits {hits} bombers, the round loses {lost}")
        out.mismatches.append(Mismatch("AA515", message.format(hits=shot, lost=sum(out.losses["attacker"].values())),
                                       (*where, 0, "attacker_losses")))
    damage = [d for ds in dice_of(mapping(entry.get("attacker")).get("damage")).values() for d in ds]
    if len(damage) != bombers - shot:
        out.mismatches.append(Mismatch("AA513", _("round 1: {count} bombers come through and owe one damage die each, "
                                                  "{rolled} were rolled").format(count=bombers - shot,
                                                                                 rolled=len(damage)),
                                       (*where, 0, "attacker")))
    out.damage = damage
    out.outcome = "raid"
    return out


def replay(result: Result, resolution: Resolution, rounds: list[Any], model: type[BattleModel],
           ool: dict[str, Any] | None = None) -> Replay:
    """The result's rounds played on its battle (``ool``: the order of loss that binds its casualties)."""
    return Replayer(result, resolution, model, ool).run(rounds)


def rounds_of(result: Result, resolution: Resolution) -> list[Any]:
    rounds = resolution.doc.get("results", result.index, "rounds", default=None)
    return rounds if isinstance(rounds, list) else []


def pasted_text(result: Result, resolution: Resolution) -> str | None:
    """The result's ``dice: |`` text (aa-battle.md, "Pasted dice"), or None."""
    text = resolution.doc.get("results", result.index, "dice", default=None)
    return text if isinstance(text, str) else None


__all__ = ["Mismatch", "Replay", "pasted_text", "replay", "rounds_of"]
