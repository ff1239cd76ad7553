"""Distance and direction: how far and which way a base or a corps moves (M1, M3, M4, M11)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.clauses import Violation
from movecheck.i18n import _, ngettext
from movecheck.maneuver.checks import CORPS, EVERY, FREE, mv_clause
from movecheck.maneuver.checks.ends import Miss, ends_judged, miss_account, misses, off_course, whole_corps_turn
from movecheck.maneuver.checks.words import account, mobility_text, order_name, order_ref, roll_ranges
from movecheck.maneuver.model import fmt, fmt_deg, fmt_xy
from movecheck.maneuver.plane import bearing_of

if TYPE_CHECKING:
    from movecheck.maneuver.checks import Analysis
    from movecheck.maneuver.corps import CorpsAnalysis
    from movecheck.maneuver.free import FreeAnalysis


@mv_clause(
    "MV101", "mobility-exceeded", "error",
    "a base's centre travels further than its allowance (effective mobility after terrain penalties)",
    ("M3", "M4", "M7", "M11"), orders=FREE,
    example=("a base of mobility 8, within 15 steps of an enemy, moves 9 steps over open ground",
             "it moves 8 steps"),
)
def mobility_exceeded(a: FreeAnalysis) -> Iterator[Violation]:
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
    branches = a.branches
    base = a.base.id
    length = a.motion.length
    legal = [a.legal_length(b) for b in branches.items]
    if any(legal):
        return  # it fits for every roll, or for some only: that is MV304
    text = mobility_text(a.base.mobility, a.bonus, a.nearest, a.options.prebattle_bonus)
    if len(branches.items) == 1 and branches.complete:
        walk = branches.items[0].result
        if walk.reached:
            message = _("{base} travels {length} steps but its allowance is {allowance} ({account}; {mobility})")
        else:
            message = _("{base} travels {length} steps but its allowance is {allowance} ({mobility})")
        yield Violation(
            message.format(base=base, length=fmt(length), allowance=fmt(walk.allowance),
                           account=account(walk, a.mobility), mobility=text),
            a.end_where,
        )
        return
    best = max(b.result.allowance for b in branches.items)
    yield Violation(
        _(
            "{base} travels {length} steps, more than its allowance whatever {rolls}: at most {best} ({mobility})"
        ).format(base=base, length=fmt(length), rolls=roll_ranges(branches), best=fmt(best), mobility=text),
        a.end_where,
    )


@mv_clause(
    "MV102", "not-straight", "error",
    "a free move uses several segments although the straight line was clear",
    ("M4",), orders=FREE,
    example=("a free move goes round by two segments though the straight line to its end is clear",
             "it goes along the straight line"),
)
def not_straight(a: FreeAnalysis) -> Iterator[Violation]:
    """A free move goes along the straight line from start to end (M4).

    A path of several segments is allowed only when the straight line is not
    possible: it would cross an enemy base, pass through more than half of a
    stationary friend, end on one, enter impassable terrain, leave the field,
    or cross difficult terrain that might cost more than the allowance for
    some roll.  Waypoints that stay within ``tolerance`` of the straight line
    count as straight.
    """
    if a.straight or a.straight_obstacle is not None:
        return
    motion = a.motion
    yield Violation(
        ngettext("{base}'s path has {segments} segment ({length} steps) although the straight line to {end} "
                 "({chord} steps) is clear: a move goes straight unless that is impossible",
                 "{base}'s path has {segments} segments ({length} steps) although the straight line to {end} "
                 "({chord} steps) is clear: a move goes straight unless that is impossible", len(a.order.path)).format(
            base=a.base.id, segments=len(a.order.path), length=fmt(motion.length), end=fmt_xy(motion.end),
            chord=fmt(motion.chord)),
        (*a.order.where, "path"),
    )


@mv_clause(
    "MV201", "wrong-direction", "error",
    "a corps order's displacement is not strictly forward / strictly back / towards the landmark",
    ("M1",), orders=CORPS,
    example=("All ahead, and every base ends 3 steps to the right of where it started",
             "every base ends straight ahead along the corps' facing"),
)
def wrong_direction(a: CorpsAnalysis) -> Iterator[Violation]:
    """All ahead moves the corps strictly forward (along its facing), All back
    strictly backward, Move to landmark straight from the corps' reference
    point (the mean of its base centres) towards the landmark's nearest point
    (M1).  The corps' declared displacement (the mean over its bases) may stray
    sideways by at most ``tolerance``.  When the direction is wrong the
    per-base distances (MV202) are not reported.
    """
    if a.towards_itself:
        yield Violation(_("{corps} cannot move towards itself").format(corps=a.corps.id), (*a.order.where, "landmark"))
        return
    moved = off_course(a)
    if moved is None or a.direction is None:  # off_course judges only a corps with a direction
        return
    if a.order.kind == "all_ahead":
        message = _("{corps} is declared moving towards {declared}° ({distance} steps), but {order} moves it "
                    "strictly forward, towards {bearing}°")
    elif a.order.kind == "all_back":
        message = _("{corps} is declared moving towards {declared}° ({distance} steps), but {order} moves it "
                    "strictly back, towards {bearing}°")
    else:
        message = _("{corps} is declared moving towards {declared}° ({distance} steps), but {order} moves it "
                    "straight towards the landmark, towards {bearing}°")
    yield Violation(
        message.format(corps=a.corps.id, declared=fmt_deg(bearing_of(moved)), distance=fmt(math.hypot(*moved)),
                       order=order_name(a.order), bearing=fmt_deg(bearing_of(a.direction))),
        (*a.order.where, "end"),
    )


@mv_clause(
    "MV202", "not-max-distance", "error",
    "a base ends short of (or beyond) the position the order requires; the message gives the expected position",
    ("M1",), orders=CORPS,
    example=("All ahead on open ground, the bases end 5 steps forward when their allowance is 8",
             "they end 8 steps forward, or in contact with an enemy base met on the way"),
)
def not_max_distance(a: CorpsAnalysis) -> Iterator[Violation]:
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
    declared it gives the range of required ends over the die.  Silent when
    the order cannot be carried out as declared at all (MV201, MV203, or MV502
    for an engaged corps): see ``checks/ends.py``.  An order without ``end:``
    under ``--suggest`` is a draft: the ends it is given are the required ones,
    and no end is missing.
    """
    if not ends_judged(a):
        return  # the order cannot be carried out as declared: MV201, MV203 or MV502 says why
    for miss in misses(a):
        base = miss.base
        if miss.declared is None and a.order.draft:
            continue  # a draft under --suggest: the ends it prints are the ones the rules give
        if miss.declared is None:
            yield Violation(
                _("no end is declared for {base}: {order} takes it to {required}").format(
                    base=base.id, order=order_name(a.order), required=_required(a, miss)),
                (*a.order.where, "end"),
            )
        elif miss.as_one:
            along = miss.along
            if a.direction is None:
                message = _("{base} is declared at {declared}, {distance} steps from where it must stay: "
                            "{order} takes it to {required}")
            elif along > 0:
                message = _("{base} is declared at {declared}, {distance} steps beyond where it must end: "
                            "{order} takes it to {required}")
            else:
                message = _("{base} is declared at {declared}, {distance} steps short of where it must end: "
                            "{order} takes it to {required}")
            dec = miss.declared
            yield Violation(
                message.format(base=base.id, declared=fmt_xy((dec.x, dec.y)), distance=fmt(abs(along)),
                               order=order_name(a.order), required=_required(a, miss)),
                dec.where,
            )


def _required(a: CorpsAnalysis, miss: Miss) -> str:
    """``(50.00, 36.00): allowance ...`` or the range of required ends over the undeclared rolls."""
    items = miss.group.branches.items
    distances = sorted({round(br.result[miss.file.index].distance, 9) for br in items})
    if len(distances) > 1:
        near, far = a.expected(miss.base, distances[0]), a.expected(miss.base, distances[-1])
        return _("between {near} and {far} depending on {rolls}").format(
            near=fmt_xy(near), far=fmt_xy(far), rolls=roll_ranges(miss.group.branches))
    return _("{end}: {account}").format(end=fmt_xy(miss.expected), account=miss_account(a, miss))


@mv_clause(
    "MV203", "corps-rotated", "error",
    "a corps order changes the corps' facing",
    ("M1", "M5"), orders=CORPS,
    example=("All ahead with every base declared turned 90°",
             "the bases keep their facing"),
)
def corps_rotated(a: CorpsAnalysis) -> Iterator[Violation]:
    """The compulsory orders are translations: the corps keeps its facing.  A
    declared ``facing`` that turns the bases (by more than moves a corner
    ``tolerance`` steps) is this error when the whole corps turns, and MV301
    when only some bases do.
    """
    first = whole_corps_turn(a)
    if first is None:
        return
    declared = a.order.end[first.id]
    if declared.facing is None:  # turned lists only bases declared with a facing
        return
    yield Violation(
        _("{order} does not turn the corps: {corps} faces {facing}° and must keep facing it, but its bases are "
          "declared facing {declared}°").format(order=order_name(a.order), corps=a.corps.id,
                                                facing=fmt_deg(a.corps.facing), declared=fmt_deg(declared.facing)),
        (*declared.where, "facing"),
    )


@mv_clause(
    "MV204", "order-repeated", "error",
    "a second order in the file for a base or corps that already has one (a corps' order and a free move of one "
    "of its bases count for each other)",
    ("M1", "M3"), orders=EVERY,
    example=("two free moves for r9 in one orders file, each within its mobility",
             "one free move along the whole path"),
)
def order_repeated(a: Analysis) -> Iterator[Violation]:
    """A manoeuvre gives each corps one order and each base one move: a corps
    moves by its order (M1), a single base by its free move (M3), within its
    mobility once.  A second order in the file for a base that an earlier order
    already moves is this error, at the second order: a second free move of
    the same base, a second order for the same corps, a free move of a base
    whose corps already has an order, or a corps order after a free move of one
    of its bases (two free moves of two different bases of a corps are two
    single bases: allowed).  The repeated order is still checked, from where
    the earlier order left its bases, with M10 judged from where they stood at
    the start of the turn (a base engaged then stays engaged for the M10 checks
    of every later order).  It is carried out too, so ``apply --force`` writes
    what the orders do as checked; without ``--force`` nothing is written.
    """
    repeat = a.repeat
    if repeat is None:
        return
    earlier = repeat.earlier
    which = order_ref(earlier)
    if a.kind == "free":
        if earlier.kind == "free":
            message = _("{base} already moves in {earlier}: one move per base a turn; give its whole path in one "
                        "order")
        else:
            message = _("{base} already moves with its corps {corps} in {earlier}: one order per base and per corps "
                        "a turn")
        yield Violation(message.format(base=a.base.id, corps=a.base.corps, earlier=which),
                        (*a.order.where, "base"))
        return
    if earlier.kind == "free":
        message = ngettext("{corps}'s base {bases} already moves by a free move in {earlier}: one order per base "
                           "and per corps a turn",
                           "{corps}'s bases {bases} already move by free moves, the first in {earlier}: one order "
                           "per base and per corps a turn", len(repeat.bases))
    else:
        message = _("{corps} already has an order in this file, {earlier}: one order per corps a turn")
    yield Violation(message.format(corps=a.corps.id, bases=", ".join(repeat.bases), earlier=which),
                    (*a.order.where, "corps"))
