"""Friends and enemies: passing through, overlapping, contact (M6, M9, M10)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.clauses import Violation
from movecheck.i18n import _
from movecheck.maneuver.checks import EVERY, FREE, mv_clause
from movecheck.maneuver.checks.ends import engaged_marching, engaged_off_line
from movecheck.maneuver.checks.words import order_name
from movecheck.maneuver.model import fmt, fmt_deg, fmt_xy
from movecheck.maneuver.plane import EPS, bearing_of

if TYPE_CHECKING:
    from movecheck.maneuver.checks import Analysis
    from movecheck.maneuver.free import FreeAnalysis


@mv_clause(
    "MV401", "through-friend", "error",
    "a moving base overlaps a stationary friendly base by more than half its area, or ends overlapping one",
    ("M6",), orders=FREE,
    example=("a free move's base ends on a stationary friendly base",
             "it passes at most half over it and ends clear"),
)
def through_friend(a: FreeAnalysis) -> Iterator[Violation]:
    """A base may pass through a stationary friendly base only where its path
    is at most partly blocked: at no moment may more than half
    (``pass_through_limit``) of the moving base's area overlap the friend, and
    it may not end overlapping it (M6).  (Corps orders stop before friends they
    cannot pass: see MV202.)
    """
    base = a.base
    limit = a.options.pass_through_limit
    if abs(limit - 0.5) <= EPS:
        message = _("{base} passes through friendly {friend}, overlapping it by {area} of its own {own} square steps "
                    "(more than half of it)")
    else:
        message = _("{base} passes through friendly {friend}, overlapping it by {area} of its own {own} square steps "
                    "(more than {limit} of it, option pass_through_limit)")
    for friend, area, segment in a.events.friend_passes:
        yield Violation(
            message.format(base=base.id, friend=friend.id, area=fmt(area), own=fmt(base.area),
                           limit=fmt(limit, whole=True)),
            a.path_at(segment),
        )
    for friend in a.events.friend_ends:
        yield Violation(
            _("{base} ends overlapping friendly {friend}").format(base=base.id, friend=friend.id), a.end_where
        )


@mv_clause(
    "MV402", "through-enemy", "error", "a moving base overlaps an enemy base", ("M9",), orders=FREE,
    example=("a free move's path crosses an enemy base",
             "it goes round the enemy, or stops in contact"),
)
def through_enemy(a: FreeAnalysis) -> Iterator[Violation]:
    """A moving base never overlaps an enemy base: it may come into contact
    (M9) but not pass through or onto it.  An overlap of up to ``tolerance``
    is taken as contact.
    """
    for enemy, segment in a.events.enemy_hits:
        yield Violation(_("{base} overlaps enemy {enemy} on its way").format(base=a.base.id, enemy=enemy.id),
                        a.path_at(segment))


@mv_clause(
    "MV501", "contact-made", "note",
    "the order brings bases into contact with the enemy; melee only after the order Attack! («В атаку!»)",  # noqa: RUF001
    ("M9",), orders=EVERY,
    example=("a free move ends touching an enemy base",
             "it ends clear of every enemy base"),
)
def contact_made(a: Analysis) -> Iterator[Violation]:
    """Bases may come into contact with enemy bases during manoeuvre (M9);
    the melee starts only with the order Attack! (the seed's «В атаку!»).  This note
    lists the new contacts an order makes.
    """  # noqa: RUF002
    if a.kind == "free":
        if a.new_contacts:
            names = ", ".join(e.id for e in a.new_contacts)
            yield Violation(
                _(
                    "{base} ends in contact with enemy {names}; melee starts only with the order Attack! («В атаку!»)"  # noqa: RUF001
                ).format(base=a.base.id, names=names),
                a.end_where,
            )
        return
    for base in a.corps.bases:
        found = a.new_contacts.get(base.id)
        if found:
            names = ", ".join(e.id for e in found)
            declared = a.order.end.get(base.id)
            where = declared.where if declared is not None else (*a.order.where, "end")
            yield Violation(
                _(
                    "{base} ends in contact with enemy {names}; melee starts only with the order Attack! («В атаку!»)"  # noqa: RUF001
                ).format(base=base.id, names=names),
                where,
            )


@mv_clause(
    "MV502", "engaged-move", "error",
    "a base in contact at the start moves other than forward into full contact or straight back",
    ("M10",), orders=EVERY,
    example=("a base in contact with an enemy moves sideways along it",
             "it goes straight back, or forward into full contact"),
)
def engaged_move(a: Analysis) -> Iterator[Violation]:
    """A base in contact with the enemy at the start of an order (engaged) may
    only go straight back (along its rear, no turn, within ``tolerance``) or
    forward into full contact (M10): straight ahead and/or wheeling about the
    front corner on the side it turns to, ending with its front edge flush
    against one enemy base's edge and aligned with it over the shorter edge's
    length (both ends of the shorter edge within ``contact_gap`` +
    ``tolerance`` of the longer one; a shared sliver is not full contact).  A
    sideways slide, an advance into partial or no contact and a march away
    from an enemy at its flank or rear are this error.  Under a corps order an
    engaged base keeps its place unless the order's motion takes it straight
    into full contact (All back takes it straight back); declared elsewhere,
    it is this error.  Move to landmark is this error when the landmark lies
    neither straight ahead nor straight behind an engaged corps.
    """
    if a.kind == "free":
        what = _engaged_free(a)
        if what is not None:
            names = ", ".join(e.id for e in a.engaged)
            yield Violation(
                _("{base} is in contact with {names} at the start: it may only move forward into full contact or "
                  "straight back; {what}").format(base=a.base.id, names=names, what=what),
                (*a.order.where, "path"),
            )
        return
    if engaged_off_line(a) and a.direction is not None:  # engaged_off_line holds only with a direction
        enemies = sorted({e.id for v in a.engaged.values() for e in v})
        yield Violation(
            _("{corps} is in contact with {names} at the start: it may only move straight forward ({facing}°) or "
              "straight back, but the landmark lies towards {bearing}°").format(
                corps=a.corps.id, names=", ".join(enemies), facing=fmt_deg(a.corps.facing),
                bearing=fmt_deg(bearing_of(a.direction))),
            (*a.order.where, "landmark"),
        )
        return
    for base in engaged_marching(a):
        dec = a.order.end[base.id]
        names = ", ".join(e.id for e in a.engaged[base.id])
        yield Violation(
            _("{base} is in contact with {names} at the start: it may only move straight back or straight into "
              "full contact, so {order} keeps it at {centre}, but it is declared at {declared}").format(
                base=base.id, names=names, order=order_name(a.order), centre=fmt_xy(base.centre),
                declared=fmt_xy((dec.x, dec.y))),
            dec.where,
        )


def _engaged_free(a: FreeAnalysis) -> str | None:
    """What is wrong with an engaged base's free move (None: it stays, goes straight back or forward into full
    contact)."""
    if not a.engaged:
        return None
    tol = a.tolerance
    motion = a.motion
    forward, right = a.offset
    rotated = abs(math.radians(motion.turn)) * a.base.half_diagonal > tol
    if math.hypot(motion.end[0] - motion.start[0], motion.end[1] - motion.start[1]) <= tol and not rotated:
        return None  # it stays where it is
    if a.straight and forward < 0 and abs(right) <= tol and not rotated:
        return None  # straight back
    if forward < -tol:
        return (
            _("it does not go straight back") if (abs(right) > tol or rotated or not a.straight) else _("it goes back")
        )
    if a.advance_miss > tol + EPS:
        return _("it slides sideways: its end is {distance} steps from any end a straight advance or a wheel about "
                 "a front corner reaches").format(distance=fmt(a.advance_miss))
    if not a.flush:
        return _("its front edge does not end in full contact with an enemy base (flush and aligned with one of its "
                 "edges over the shorter edge's length)")
    return None
