"""Solving a battle: every end with its probability, summed over the rounds a state stays as it is.

The states are taken up from the most hit points down (every round that changes a state lowers
them), each once; a round that leaves a state as it was is a geometric series.  Retreat rules are
applied to the states a round ends in; :func:`values` is the backward induction of
``--retreat-below`` and ``--best-retreat``.  The functions are :class:`movecheck.aa.battle.engine.Battle`'s
methods of the same names.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from movecheck.aa.battle.side import (
    DROP,
    RETREAT,
    STALEMATE,
    TOLERANCE,
    Inexact,
    Num,
    State,
    add,
    add_live,
)

Battle = Any
"""A :class:`movecheck.aa.battle.engine.Battle` (not imported: the engine imports this module)."""


@dataclass
class Solution:
    ends: dict[tuple[State, str], Num]
    rounds: Num
    dropped: Num


def transitions(battle: Battle, state: State) -> tuple[Num, list[tuple[tuple[State, str], Num]]]:
    """A later round from ``state``: the chance it stays, the other results (not normalised)."""
    found: tuple[Num, list[tuple[tuple[State, str], Num]]] | None = battle._rounds.get(state)
    if found is None:
        dist = battle.round(state, first=False)
        stay = dist.pop((state, ""), 0)
        found = battle._rounds[state] = (stay, list(dist.items()))
    return found

def solve(battle: Battle, retreat: Callable[[State, int], bool] | None = None, rounds_explicit: int = 0) -> Solution:
    """Every end of the battle with its probability, and the expected rounds.

    ``retreat(state, round)``: the attacker retreats after that round ending there.  With
    ``rounds_explicit`` R, rounds 2..R are taken one by one (a retreat rule that looks at the
    round number needs it); after R, rounds are summed.
    """
    ends: dict[tuple[State, str], Num] = {}
    first = battle.settled(battle.start, stalemate=False)
    if first[1] or not battle.att.in_battle(battle.start[0]):
        ends[first] = battle.one
        return Solution(ends, battle.one, battle.dropped)
    if retreat is None and not rounds_explicit and battle.plain_first_round():
        # round 1 is like any later round: fought with them
        rounds = battle.drain_any({battle.start: battle.one}, ends, None, 1)
        if battle.dropped >= TOLERANCE:
            raise Inexact
        return Solution(ends, rounds, battle.dropped)
    expected_rounds: Num = battle.one
    live: dict[State, Num] = {}
    for (state, outcome), p in battle.round(battle.start, first=True).items():
        battle.place(state, outcome, p, 1, retreat, live, ends)
    round_number = 1
    while live and round_number < rounds_explicit:
        round_number += 1
        live, fought = fight_round(battle, live, round_number, retreat, ends)
        expected_rounds += fought
    if live:
        expected_rounds += battle.drain_any(live, ends, retreat, round_number + 1)
    if battle.dropped >= TOLERANCE:
        raise Inexact
    return Solution(ends, expected_rounds, battle.dropped)


def fight_round(battle: Battle, layer: dict[State, Num], round_number: int,
                retreat: Callable[[State, int], bool] | None, ends: dict[tuple[State, str], Num]
                ) -> tuple[dict[State, Num], Num]:
    """Round ``round_number`` fought from each state of ``layer``: the states still fighting after it (the
    battles that ended go to ``ends``), and the probability mass that fought it (for the expected rounds)."""
    live: dict[State, Num] = {}
    fought: Num = 0 * battle.one
    for state, mass in layer.items():
        if battle.exact is False and mass < DROP:
            battle.dropped += mass
            continue
        fought += mass
        stay, moves = battle.transitions(state)
        if stay:  # a round where nothing is hit ends like any other: the retreat rule applies
            battle.place(state, "", mass * stay, round_number, retreat, live, ends)
        for (s2, outcome), p in moves:
            battle.place(s2, outcome, mass * p, round_number, retreat, live, ends)
    return live, fought


def solve_switched(before: Battle, after: Battle, switch: int, retreat: Callable[[State, int], bool] | None = None,
                   rounds_explicit: int = 0) -> Solution:
    """:func:`solve` for a side whose submarines submerge by choice from round ``switch`` on (a result's
    submerge at the round its ``rounds:`` give): rounds before it are fought by ``before`` (no chosen
    submerge), that round and the later ones by ``after``.  Both battles have the same sides and start."""
    ends: dict[tuple[State, str], Num] = {}
    first = after.settled(after.start, stalemate=False)
    if first[1] or not after.att.in_battle(after.start[0]):
        ends[first] = after.one
        return Solution(ends, after.one, 0)
    expected_rounds: Num = after.one
    live: dict[State, Num] = {}
    opening = after if switch <= 1 else before
    for (state, outcome), p in opening.round(opening.start, first=True).items():
        opening.place(state, outcome, p, 1, retreat, live, ends)
    round_number, last = 1, max(switch - 1, rounds_explicit)
    while live and round_number < last:
        round_number += 1
        live, fought = fight_round(after if round_number >= switch else before, live, round_number, retreat, ends)
        expected_rounds += fought
    if live:
        expected_rounds += after.drain_any(live, ends, retreat, round_number + 1)
    dropped = before.dropped + after.dropped
    if dropped >= TOLERANCE:
        raise Inexact
    return Solution(ends, expected_rounds, dropped)


def plain_first_round(battle: Battle) -> bool:
    """Round 1 has no AA fire, no bombardment and no automatic step: it is like any later round (a later round's
    start, where a chosen submerge is made in the editions that submerge then, leaves the start as it is too)."""
    if battle.exact or not battle.arrays or battle.bombard:
        return False
    if battle.aa_fire(battle.start) != [(battle.start, battle.one)]:
        return False
    return bool(battle.round_start(battle.start, first=True) == (battle.start, "")
                == battle.round_start(battle.start, first=False))

def drain_any(battle: Battle, live: dict[State, Num], ends: dict[tuple[State, str], Num],
              retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
    """:meth:`drain` on arrays where numpy is installed and the battle is big enough to gain (floating
    point only), else in pure Python."""
    size = battle.att.in_battle(battle.start[0]) * battle.dfn.in_battle(battle.start[1])
    if not battle.exact and battle.arrays and size >= battle.arrays_from:
        from movecheck.aa.battle import fast

        if fast.available():
            if fast.is_chain(battle):
                spent, dropped = battle.spent, battle.dropped
                found = dict(ends)
                try:
                    rounds = fast.chain_drain(battle, live, found, retreat, round_number)
                except fast.OffChain:
                    battle.spent, battle.dropped = spent, dropped
                else:
                    ends.clear()
                    ends.update(found)
                    return rounds
            return fast.drain(battle, live, ends, retreat, round_number)
    return battle.drain(live, ends, retreat, round_number)

def drain(battle: Battle, live: dict[State, Num], ends: dict[tuple[State, str], Num],
          retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
    """Fight every live state to its end, most hit points first; the expected rounds it adds."""
    rounds: Num = 0
    buckets: dict[int, dict[State, Num]] = {}
    for state, mass in live.items():
        add_live(buckets.setdefault(battle.potential(state), {}), state, mass)
    heap = [-level for level in buckets]
    heapq.heapify(heap)
    while heap:
        level = -heapq.heappop(heap)
        for state, mass in buckets.pop(level).items():
            if battle.exact is False and mass < DROP:
                battle.dropped += mass
                continue
            stay, moves = battle.transitions(state)
            leave = battle.one - stay
            if not moves or leave <= 0 or (not battle.exact and leave < 1e-15):
                add(ends, (state, STALEMATE), mass)
                continue
            rounds += mass / leave
            for (s2, outcome), p in moves:
                share = mass * p / leave
                s2, outcome = after_round(battle, s2, outcome, retreat, round_number)
                if outcome:
                    add(ends, (s2, outcome), share)
                else:
                    lower = battle.potential(s2)
                    if lower not in buckets:
                        buckets[lower] = {}
                        heapq.heappush(heap, -lower)
                    add_live(buckets[lower], s2, share)
    return rounds

def potential(battle: Battle, state: State) -> int:
    """The hit points left in the battle: every round that changes a state lowers it."""
    return int(battle.att.points(state[0]) + battle.dfn.points(state[1]))

def place(battle: Battle, state: State, outcome: str, p: Num, round_number: int,
          retreat: Callable[[State, int], bool] | None, live: dict[State, Num],
          ends: dict[tuple[State, str], Num]) -> None:
    state, outcome = after_round(battle, state, outcome, retreat, round_number)
    if outcome:
        add(ends, (state, outcome), p)
    else:
        add_live(live, state, p)


def after_round(battle: Battle, state: State, outcome: str, retreat: Callable[[State, int], bool] | None,
                round_number: int) -> tuple[State, str]:
    """A round's end and the retreat rule: the battle over, retreated, partly retreated (the amphibious
    units fight on) or going on as it is."""
    if outcome or retreat is None or not battle.retreat_allowed(state) or not retreat(state, round_number):
        return state, outcome
    return battle.retreat_end(state)  # type: ignore[no-any-return]

def reachable(battle: Battle) -> list[State]:
    """Every state a battle fought to its end may pass after round 1, fewest hit points first (and, in a battle
    with amphibious units, those its partial retreats lead to)."""
    seen: set[State] = set()
    todo = [s for (s, outcome) in battle.round(battle.start, first=True) if not outcome]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        _stay, moves = battle.transitions(state)
        todo.extend(s for (s, outcome), _p in moves if not outcome and s not in seen)
        if battle.att.landing and battle.retreat_allowed(state):
            after, outcome = battle.retreat_end(state)
            if not outcome:
                todo.append(after)  # the amphibious units fight on from here
    return sorted(seen, key=lambda s: (battle.att.points(s[0]) + battle.dfn.points(s[1]), s))

def values(battle: Battle, terminal: Callable[[State, str], Num], retreat_value: Callable[[State], Num] | None = None
           ) -> tuple[dict[State, Num], set[State]]:
    """Backward induction: each live state's value fighting on, or the better of fighting on and
    retreating with ``retreat_value`` (a partial amphibious retreat: the value of fighting on with the
    amphibious units), ``terminal`` giving an end's value; and the states where retreating is better."""
    value: dict[State, Num] = {}
    retreats: set[State] = set()
    for state in battle.reachable():
        stay, moves = battle.transitions(state)
        leave = battle.one - stay
        if not moves or leave <= 0:
            go_on = terminal(state, STALEMATE)
        else:
            go_on = sum((p * (terminal(s, o) if o else value[s]) for (s, o), p in moves), 0) / leave
        if retreat_value is not None and battle.retreat_allowed(state):
            after, outcome = battle.retreat_end(state)
            back = retreat_value(after) if outcome == RETREAT else terminal(after, outcome) if outcome else value[after]
            if back > go_on:
                retreats.add(state)
                go_on = back
        value[state] = go_on
    return value, retreats

