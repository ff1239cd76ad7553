"""How the maneuver clauses word their findings: numbers, allowances, roll conditions.

The fact modules (:mod:`~movecheck.maneuver.world`, :mod:`~movecheck.maneuver.free`,
:mod:`~movecheck.maneuver.corps`, :mod:`~movecheck.maneuver.motion`) return numbers,
positions and roll combinations; the clauses word them with these helpers.  Plain
text from plain values: no shapely.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from movecheck.i18n import _
from movecheck.maneuver.model import ORDER_NAMES, fmt

__all__ = ["account", "condition", "describe_values", "favourable", "mobility_text", "order_name", "order_ref",
           "roll_name", "roll_ranges"]


def order_name(order: Any) -> str:
    """``All ahead``, ``Move to landmark``, ``free move``."""
    return _(ORDER_NAMES[order.kind])


def order_ref(order: Any) -> str:
    """``order 2 (o2)``, or ``order 2`` for an order without an id."""
    if order.id:
        return _("order {number} ({id})").format(number=order.index + 1, id=order.id)
    return _("order {number}").format(number=order.index + 1)


def mobility_text(mobility: float, bonus: bool, nearest: float | None, bonus_steps: float) -> str:
    """``mobility 8 + 2 pre-battle`` / ``mobility 8, no pre-battle bonus: an enemy is 12.30 steps away``."""
    if bonus:
        return _("mobility {mobility} + {bonus} pre-battle").format(
            mobility=fmt(mobility, whole=True), bonus=fmt(bonus_steps, whole=True))
    return _("mobility {mobility}, no pre-battle bonus: an enemy is {distance} steps away").format(
        mobility=fmt(mobility, whole=True), distance=fmt(nearest or 0.0))


def account(walk: Any, start: float, undeclared: frozenset[str] = frozenset()) -> str:
    """How an allowance walk went: ``10.00, brook D1 (1d6) = 4 → 6.00``.

    ``undeclared``: the terrain whose roll nobody declared; the walk's value for it
    is only one of the possible ones, so it is not shown, nor the allowance after it.
    """
    if not walk.reached:
        return fmt(start)
    parts = [fmt(start)]
    known = True
    for feature, roll in walk.reached:
        die = f"{feature.die_name} ({feature.dice})"
        if roll is None:
            parts.append(
                _("{terrain}: any {die} roll stops it at the edge").format(terrain=feature.terrain.id, die=die)
            )
        elif feature.terrain.id in undeclared:
            parts.append(_("{terrain} {die} not declared").format(terrain=feature.terrain.id, die=die))
            known = False
        else:
            parts.append(f"{feature.terrain.id} {die} = {roll}")
    return ", ".join(parts) + (f" → {fmt(walk.allowance)}" if known else "")


def describe_values(values: list[int], dice: Any) -> str:
    """A set of die results in words: ``7 or less``, ``12 or more``, ``exactly 5``, ``3 to 5``."""
    vs = sorted(set(values))
    if not vs:
        return _("impossible")
    if vs == list(range(vs[0], vs[-1] + 1)):
        if len(vs) == 1:
            return _("exactly {value}").format(value=vs[0])
        if vs[0] == dice.low:
            return _("{value} or less").format(value=vs[-1])
        if vs[-1] == dice.high:
            return _("{value} or more").format(value=vs[0])
        return _("{low} to {high}").format(low=vs[0], high=vs[-1])
    return _("one of {values}").format(values=", ".join(str(v) for v in vs))


def roll_name(key: tuple[str, str], die_name: str, dice: Any) -> str:
    """``the D3 roll (3d6) for r9 entering wood1``."""
    return _("the {die} roll ({dice}) for {base} entering {terrain}").format(
        die=die_name, dice=dice, base=key[0], terrain=key[1])


def favourable(keys: list[tuple[str, str]], dice: dict[tuple[str, str], tuple[str, Any]]) -> str:
    """``the rolls (D1 (1d6) for r1 entering s0, D1 (1d6) for r1 entering s1) fall favourably``."""
    named = ", ".join(_("{die} ({dice}) for {base} entering {terrain}").format(
        die=dice[k][0], dice=dice[k][1], base=k[0], terrain=k[1]) for k in keys)
    return _("the rolls ({rolls}) fall favourably").format(rolls=named)


def condition(branches: Any, legal: Callable[[Any], bool]) -> tuple[str, Fraction]:
    """When a verdict holds, in words, and its exact probability.

    With the odds already weighed (``branches.odds``: several rolls, not every
    combination listed) the words name the rolls; otherwise they come from the
    listed combinations for which ``legal`` holds.
    """
    if branches.odds is not None:
        return favourable(branches.keys, branches.dice), branches.odds
    p = sum((b.probability for b in branches.outcomes if legal(b)), Fraction(0))
    keys = branches.assigned_keys
    if len(keys) == 1:
        key = keys[0]
        die_name, dice = branches.dice[key]
        values = [b.assigned[key] for b in branches.items if legal(b) and key in b.assigned]
        return _("{roll} is {values}").format(
            roll=roll_name(key, die_name, dice), values=describe_values(values, dice)
        ), p
    return favourable(keys, branches.dice), p


def roll_ranges(branches: Any) -> str:
    """``the D1 roll (1d6) for r1 entering brook (1..6)`` for every undeclared roll."""
    keys = sorted({k for b in branches.items for k in b.assigned}) or branches.keys
    parts = []
    for key in keys:
        die_name, dice = branches.dice[key]
        parts.append(f"{roll_name(key, die_name, dice)} ({dice.low}..{dice.high})")
    return _(" and ").join(parts)
