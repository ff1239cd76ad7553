"""Distance and direction: how far and which way a base or a corps moves (M1, M3, M4, M11)."""

from __future__ import annotations

from typing import Any, Iterator

from movecheck.maneuver.checks import CORPS, FREE, Problem, mv_clause, problems_of


@mv_clause(
    "MV101", "mobility-exceeded", "error",
    "a base's centre travels further than its allowance (effective mobility after terrain penalties)",
    ("M3", "M4", "M7", "M11"), orders=FREE,
)
def mobility_exceeded(a: Any) -> Iterator[Problem]:
    """A free move's path, measured along the base's centre, is at most its allowance.

    The allowance starts at the base's mobility, +2 (``prebattle_bonus``) when the
    base is more than 15 steps (``prebattle_distance``, edge to edge unless
    ``prebattle_measure: centre``) from every enemy base at the start of the
    order (M11).  Walking along the path, each difficult terrain feature the
    base enters before its allowance runs out costs its die (M7):
    ``A = max(e, A - roll)`` where ``e`` is where the base enters it, so a
    penalty never pushes a base back behind the edge of the terrain it was
    about to enter.  The path may be up to ``tolerance`` longer (positions are
    measured by hand).

    When the verdict depends on a roll that was not declared, the rolls are
    reasoned over exactly: illegal for every roll is this error (with the roll
    range); legal for some rolls only is the MV304 warning with the condition.
    When there are too many combinations to weigh (``MOVECHECK_ROLL_BUDGET``)
    the order is unchecked (MC012), never legal.
    """
    from movecheck.maneuver.dice import describe_probability
    from movecheck.maneuver.motion import condition, fmt_len, roll_ranges

    branches = a.branches
    base = a.base.id
    length = a.motion.length
    legal = [a.legal_length(b) for b in branches.items]
    if all(legal):
        return
    if any(legal):  # legal for some rolls: every combination listed, or the odds weighed without them
        text, p = branches.odds if branches.odds is not None else condition(branches, a.legal_length)
        yield Problem(
            f"{base}'s move of {fmt_len(length)} steps is legal only if {text} ({describe_probability(p)}); "
            f"declare the roll", a.end_where, code="MV304",
        )
        return
    if len(branches.items) == 1 and branches.complete:
        walk = branches.items[0].result
        account = f"{walk.explain(a.mobility)}; " if walk.reached else ""
        yield Problem(
            f"{base} travels {fmt_len(length)} steps but its allowance is {fmt_len(walk.allowance)} "
            f"({account}{a.mobility_text})",
            a.end_where,
        )
        return
    best = max(b.result.allowance for b in branches.items)
    yield Problem(
        f"{base} travels {fmt_len(length)} steps, more than its allowance whatever "
        f"{roll_ranges(branches)}: at most {fmt_len(best)} ({a.mobility_text})",
        a.end_where,
    )


@mv_clause(
    "MV102", "not-straight", "error",
    "a free move uses several segments although the straight line was clear",
    ("M4",), orders=FREE,
)
def not_straight(a: Any) -> Iterator[Problem]:
    """A free move goes along the straight line from start to end (M4).

    A path of several segments is allowed only when the straight line is not
    possible: it would cross an enemy base, pass through more than half of a
    stationary friend, end on one, enter impassable terrain, leave the field,
    or cross difficult terrain that might cost more than the allowance for
    some roll.  Waypoints that stay within ``tolerance`` of the straight line
    count as straight.
    """
    from movecheck.maneuver.model import fmt_xy
    from movecheck.maneuver.motion import fmt_len

    if a.straight or a.straight_blocked is not None:
        return
    motion = a.motion
    yield Problem(
        f"{a.base.id}'s path has {len(a.order.path)} segments ({fmt_len(motion.length)} steps) although the straight "
        f"line to {fmt_xy(motion.end)} ({fmt_len(motion.chord)} steps) is clear: a move goes straight unless that "
        f"is impossible",
        a.order.where + ("path",),
    )


@mv_clause(
    "MV201", "wrong-direction", "error",
    "a corps order's displacement is not strictly forward / strictly back / towards the landmark",
    ("M1",), orders=CORPS,
)
def wrong_direction(a: Any) -> Iterator[Problem]:
    """All ahead moves the corps strictly forward (along its facing), All back
    strictly backward, Move to landmark straight from the corps' reference
    point (the mean of its base centres) towards the landmark's nearest point
    (M1).  The corps' declared displacement (the mean over its bases) may stray
    sideways by at most ``tolerance``.  When the direction is wrong the
    per-base distances (MV202) are not reported.
    """
    if a.direction_problem is not None:
        message, where = a.direction_problem
        yield Problem(message, where)


@mv_clause(
    "MV202", "not-max-distance", "error",
    "a base ends short of (or beyond) the position the order requires; the message gives the expected position",
    ("M1",), orders=CORPS,
)
def not_max_distance(a: Any) -> Iterator[Problem]:
    """Each file of the corps (a front base and the bases behind it in the
    direction of motion) moves the maximum possible distance (M1): its
    allowance (the smallest mobility in the corps, +2 before battle, less the
    front base's terrain penalties), unless stopped earlier by contact with an
    enemy base (M9: that counts as the maximum), a stationary friend it cannot
    pass (M6), impassable terrain or the field edge.  All back moves half of
    the backwards maximum (``back_distance``); Move to landmark stops when the
    reference point reaches the landmark.  With ``corps_penalty: whole_corps``
    the slowest file's allowance sets the pace of all.

    A declared end within ``tolerance`` of the required one is taken as it.
    The message gives where the base must end and why; when a roll was not
    declared it gives the range of required ends over the die.
    """
    yield from problems_of(a.verdicts, "MV202")


@mv_clause(
    "MV203", "corps-rotated", "error",
    "a corps order changes the corps' facing",
    ("M1", "M5"), orders=CORPS,
)
def corps_rotated(a: Any) -> Iterator[Problem]:
    """The compulsory orders are translations: the corps keeps its facing.  A
    declared ``facing`` that turns the bases (by more than moves a corner
    ``tolerance`` steps) is this error when the whole corps turns, and MV301
    when only some bases do.
    """
    if a.rotation_problem is not None:
        message, where = a.rotation_problem
        yield Problem(message, where)
