"""Difficult terrain, its dice, impassable terrain and the field edge (M7, M8)."""

from __future__ import annotations

from typing import Any, Iterator

from movecheck.maneuver.checks import CORPS, EVERY, FREE, Problem, mv_clause, problems_of


@mv_clause("MV302", "roll-out-of-range", "error", "a declared roll is outside its die's range", ("M7",), orders=EVERY)
def roll_out_of_range(a: Any) -> Iterator[Problem]:
    """A declared penalty roll is a possible result of the terrain's die
    (``dice`` and ``penalties`` options: stream and ploughed field D1, rice
    paddy and hill D2, forest D3 = 1d6, 2d6, 3d6 by default).  The rest of the
    order is checked with the roll taken at the nearest bound.
    """
    yield from problems_of(a.rolls, "MV302")


@mv_clause(
    "MV303", "roll-not-allowed", "error",
    "a roll declared for a base that is not a front base entering difficult terrain",
    ("M8",), orders=EVERY,
)
def roll_not_allowed(a: Any) -> Iterator[Problem]:
    """Only front bases roll, once for each difficult feature they enter
    (M8); bases following a front base slow down with it.  A roll declared
    for a base this order does not move, for a following base, for terrain the
    base does not enter, or for terrain without a penalty is this error.  A
    plain ``base: value`` roll is for the first feature the base enters;
    ``base: {terrain: value}`` names the feature.
    """
    yield from problems_of(a.rolls, "MV303")


@mv_clause(
    "MV304", "roll-needed", "warning",
    "the verdict depends on a roll not declared (the condition is stated)",
    ("M7", "M8"), orders=CORPS,
)
def roll_needed(a: Any) -> Iterator[Problem]:
    """When a front base enters difficult terrain and its roll is not declared,
    the checker reasons over the die's exact distribution.  Legal for every
    roll: no finding.  Illegal for every roll: MV101 (free moves) or MV202
    (corps orders) with the roll range.  Otherwise this warning states the
    condition and its probability, e.g. "legal only if the D3 roll (3d6) for
    r9 entering wood1 is 7 or less (16%)".  (For free moves MV101 reports it.)
    """
    for message, where in a.undecided:
        yield Problem(message, where)


@mv_clause(
    "MV403", "impassable", "error", "a base enters impassable terrain or leaves the field", (), orders=FREE,
)
def impassable(a: Any) -> Iterator[Problem]:
    """No base enters impassable terrain (lakes, buildings: an assumption
    beyond the seed) or leaves the field, at any moment of its move.  Sliding
    along the edge is allowed; an overlap of up to ``tolerance`` is taken as
    touching.  (Corps orders stop at impassable terrain and at the field edge:
    see MV202.)
    """
    events = a.events
    for terrain, segment in events.impassable:
        yield Problem(f"{a.base.id} enters impassable terrain {terrain.id} on its way", a.path_at(segment))
    if events.leaves_field is not None:
        field = f"0..{_num(a.field_size[0])} × 0..{_num(a.field_size[1])}"
        yield Problem(f"{a.base.id} leaves the field ({field}) on its way", a.path_at(events.leaves_field))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
