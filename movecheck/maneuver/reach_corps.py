"""Where a corps' compulsory orders take it: every base's end for each outcome of the rolls, with its odds.

For All ahead, All back and Move to each landmark (spec: "Where a base can go: reach"),
the order is analysed as the checker analyses it (:func:`movecheck.maneuver.corps.analyse_corps`,
without rolls or ends): the files whose ends depend on the same rolls form a group, and each
combination of those rolls gives every base of the group one end.  Combinations that give
the same ends are one outcome (their probabilities added).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from movecheck.budget import SearchLimit
from movecheck.maneuver.model import Corps, Landmark
from movecheck.maneuver.orders import Order
from movecheck.maneuver.rolls import RollBook
from movecheck.maneuver.world import World


@dataclass
class Outcome:
    """One outcome of a group's rolls: the roll values that give it ((base, terrain) -> values), its probability,
    each base's end."""

    rolls: dict[tuple[str, str], list[int]]
    probability: Fraction
    ends: dict[str, tuple[float, float]]


@dataclass
class OrderReach:
    """One compulsory order of the corps: its kind, landmark, and the outcomes of each group of files.

    ``reason``: why it cannot be worked out (None: it can).
    """

    kind: str
    landmark: Landmark | None
    groups: list[list[Outcome]] = field(default_factory=list)
    dice: dict[tuple[str, str], str] = field(default_factory=dict)
    reason: str | None = None


def corps_reach(world: World, corps: Corps) -> list[OrderReach]:
    """Every compulsory order of ``corps``: All ahead, All back, then Move to each landmark (by id)."""
    from movecheck.maneuver.corps import analyse_corps

    kinds: list[tuple[str, Landmark | None]] = [("all_ahead", None), ("all_back", None)]
    kinds += [("to_landmark", mark) for _id, mark in sorted(world.bf.landmarks.items()) if mark.corps != corps.id]
    found = []
    for index, (kind, mark) in enumerate(kinds):
        order = Order(index, kind, None, (), corps=corps, landmark=mark, rolls=RollBook(None), draft=True)
        item = OrderReach(kind, mark)
        try:
            analysis = analyse_corps(world, order)
        except SearchLimit as exc:
            item.reason = exc.reason()
            found.append(item)
            continue
        if analysis.direction is None:
            item.reason = "at_landmark"
        for group in analysis.groups:
            item.dice.update({key: f"{name} ({dice})" for key, (name, dice) in group.branches.dice.items()})
            item.groups.append(_outcomes(analysis, group))
        found.append(item)
    return found


def _outcomes(analysis: Any, group: Any) -> list[Outcome]:
    """The distinct ends of a group's bases over its roll combinations, most likely first."""
    merged: dict[tuple[Any, ...], Outcome] = {}
    for branch in group.branches.items:
        ends = {}
        for f in group.files:
            distance = branch.result[f.index].distance
            for base in f.members:
                x, y = analysis.expected(base, distance)
                ends[base.id] = (round(x, 6), round(y, 6))
        key = tuple(sorted(ends.items()))
        if key in merged:
            outcome = merged[key]
            outcome.probability += branch.probability
            for roll, value in branch.assigned.items():
                values = outcome.rolls.setdefault(roll, [])
                if value not in values:
                    values.append(value)
                    values.sort()
            continue
        merged[key] = Outcome({k: [v] for k, v in branch.assigned.items()}, Fraction(branch.probability), ends)
    return sorted(merged.values(), key=lambda o: (-o.probability, sorted(o.ends.items())))
