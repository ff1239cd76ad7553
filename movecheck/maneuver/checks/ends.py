"""Declared ends against required ends: the judgements several corps clauses share.

The facts of a corps order (:mod:`movecheck.maneuver.corps`) say where each
base must end for each combination of undeclared rolls, which combinations the
declared ends match and which one they lie nearest.  The clauses that judge
them share these predicates, so that each of them states in its own check when
it stays silent:

- :func:`off_course` (MV201: the corps is declared moving the wrong way),
  :func:`whole_corps_turn` (MV203: the whole corps is declared turned) and
  :func:`engaged_off_line` (MV502: an engaged corps sent to a landmark off its
  line) each make the per-base comparison meaningless: MV202, MV301 and MV304
  judge the ends only when :func:`ends_judged` holds;
- MV202 and MV301 split the :func:`misses` between them: a file whose declared
  ends moved as one but the wrong distance is MV202, a base out of its place
  in the file is MV301;
- :func:`file_account` (:func:`miss_account`) words how a file's required end came about, for both.

No shapely at import (``movecheck rules`` imports the clause modules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from movecheck.i18n import _
from movecheck.maneuver.checks.words import account, mobility_text
from movecheck.maneuver.model import Base, Vec, fmt
from movecheck.maneuver.plane import EPS, angle_diff, heading_vector

if TYPE_CHECKING:
    from movecheck.maneuver.corps import CorpsAnalysis, FileResult, Group
    from movecheck.maneuver.corps_files import File, Settled
    from movecheck.maneuver.orders import Declared
    from movecheck.maneuver.world import Obstacle

# --- what keeps the per-base verdicts silent -------------------------------------------------


def off_course(a: CorpsAnalysis) -> Vec | None:
    """MV201: the corps' mean declared displacement, when it strays sideways or goes backwards (else None).

    Sideways: every declared base lies more than ``tolerance`` to the same side
    of the line of motion; backwards: every one lies more than ``tolerance``
    behind its start.  Not judged without a direction of motion.
    """
    tol = a.tolerance
    declared = a.order.end
    listed = [b for b in a.corps.bases if b.id in declared]
    if a.towards_itself or a.direction is None or not listed:
        return None
    moves = [(declared[b.id].x - b.x, declared[b.id].y - b.y) for b in listed]
    alongs = [mx * a.direction[0] + my * a.direction[1] for mx, my in moves]
    acrosses = [mx * a.direction[1] - my * a.direction[0] for mx, my in moves]
    dx = sum(m[0] for m in moves) / len(moves)
    dy = sum(m[1] for m in moves) / len(moves)
    sideways = all(c > tol + EPS for c in acrosses) or all(c < -tol - EPS for c in acrosses)
    backwards = all(v < -tol - EPS for v in alongs)
    return (dx, dy) if sideways or backwards else None


def whole_corps_turn(a: CorpsAnalysis) -> Base | None:
    """MV203: the first base of the corps when every base is declared turned by the same angle (else None)."""
    turned = a.turned
    if not turned:
        return None
    bases = a.corps.bases
    first = next(b for b in bases if b.id in turned)
    same = len(turned) == len(bases) and all(
        abs(math.radians(angle_diff(turned[first.id], v))) * first.half_diagonal <= a.tolerance + EPS
        for v in turned.values()
    )
    return first if same else None


def turned_alone(a: CorpsAnalysis) -> list[Base]:
    """MV301: the bases declared turned when the corps does not turn as a whole."""
    if not a.turned or whole_corps_turn(a) is not None:
        return []
    return [b for b in a.corps.bases if b.id in a.turned]


def engaged_off_line(a: CorpsAnalysis) -> bool:
    """MV502 for a corps: engaged at the start, it is sent to a landmark that is not straight ahead or behind.

    The landmark counts as straight ahead or behind when the motion's sideways
    drift over the furthest distance the corps could go stays within
    ``tolerance``.
    """
    if a.order.kind != "to_landmark" or not a.engaged or a.direction is None or a.towards_itself:
        return False
    d = a.direction
    hx, hy = heading_vector(a.corps.facing)
    cross = abs(d[0] * hy - d[1] * hx)
    return bool(cross * a.horizon > a.tolerance + EPS)


def engaged_marching(a: CorpsAnalysis) -> list[Base]:
    """MV502 for a corps: the engaged bases the order keeps in place (for every roll) that are declared elsewhere."""
    declared = a.order.end
    found = []
    for b in a.corps.bases:
        dec = declared.get(b.id)
        if b.id not in a.engaged or dec is None or math.dist((dec.x, dec.y), b.centre) <= a.tolerance + EPS:
            continue
        file = a.file_of(b.id)
        group = next(g for g in a.groups if file in g.files)
        if all(br.result[file.index].distance <= EPS for br in group.branches.items):
            found.append(b)
    return found


def ends_judged(a: CorpsAnalysis) -> bool:
    """Whether MV202, MV301 and MV304 judge the declared ends base by base.

    Not when the order cannot be carried out as declared at all: the corps is
    moved towards itself or declared moving the wrong way (MV201), turned as a
    whole (MV203), or engaged and sent to a landmark off its line (MV502).
    """
    return not (a.towards_itself or off_course(a) is not None or whole_corps_turn(a) is not None
                or engaged_off_line(a))


# --- where the declared ends miss ----------------------------------------------------------------


@dataclass
class Miss:
    """A base not declared where it must end under the combination nearest its group's declared ends.

    ``declared`` None: no end is declared for it.  ``along``: how far beyond
    (positive) or short of its required end it is declared, along the motion.
    ``as_one``: its file's declared ends moved together, the wrong distance
    (MV202), rather than out of their places in the file (MV301).
    """

    base: Base
    group: Group
    file: File
    result: FileResult
    declared: Declared | None
    expected: Vec
    along: float
    as_one: bool


def misses(a: CorpsAnalysis) -> list[Miss]:
    """Every base of a group no combination matches that is not declared at its required end."""
    tol = a.tolerance
    declared = a.order.end
    marching = {b.id for b in engaged_marching(a)}  # MV502 says why they stay
    found: list[Miss] = []
    for group in a.groups:
        if group.closest is None:
            continue  # some combination matches the declared ends (MV304 when not every one does)
        for file in group.files:
            res = group.closest.result[file.index]
            devs = {}
            for b in file.members:
                if b.id not in declared:
                    continue
                exp = a.expected(b, res.distance)
                ddx, ddy = declared[b.id].x - exp[0], declared[b.id].y - exp[1]
                if a.direction is not None:
                    along = ddx * a.direction[0] + ddy * a.direction[1]
                    across = ddx * a.direction[1] - ddy * a.direction[0]
                else:
                    along, across = math.hypot(ddx, ddy), 0.0
                devs[b.id] = (along, across)
            alongs = [v[0] for v in devs.values()]
            as_one = all(abs(v[1]) <= tol + EPS for v in devs.values()) and (
                not alongs or max(alongs) - min(alongs) <= tol + EPS)
            for b in file.members:
                dec = declared.get(b.id)
                exp = a.expected(b, res.distance)
                if b.id in marching or (dec is not None and math.dist((dec.x, dec.y), exp) <= tol + EPS):
                    continue
                along = devs[b.id][0] if dec is not None else 0.0
                found.append(Miss(b, group, file, res, dec, exp, along, as_one))
    return found


def undecided(a: CorpsAnalysis) -> list[Group]:
    """MV304: the groups whose declared ends are right for some combinations of undeclared rolls only."""
    return [g for g in a.groups if any(g.found) and not all(g.found)]


# --- words for a required end ----------------------------------------------------------------


def stop_text(obstacle: Obstacle | None) -> str:
    """What stopped a file: ``contact with enemy b1 (r2)``, ``impassable lake``, ``the field edge``."""
    if obstacle is None:
        return ""
    kind = obstacle.kind
    if kind == "impassable":
        return _("impassable {terrain}").format(terrain=obstacle.ids[0])
    if kind == "field_edge":
        return _("the field edge")
    if kind == "at_landmark":
        return _("it is at the landmark")
    if kind == "engaged":
        return engaged_text(obstacle)
    other = obstacle.ids[0]
    if kind == "enemy":
        what = _("contact with enemy {base}").format(base=other)
    elif kind == "landmark_corps":
        what = _("contact with {base} of the landmark corps").format(base=other)
    else:
        what = _("friendly {base}, which it cannot pass (more than half of {member} would overlap it)").format(
            base=other, member=obstacle.member)
    return f"{what} ({obstacle.member})" if obstacle.behind else what


def miss_account(a: CorpsAnalysis, miss: Miss) -> str:
    """:func:`file_account` of a missed base's file under the combination nearest the declared ends."""
    front = miss.file.front.id
    closest = miss.group.closest  # a miss is found only in a group with a nearest combination
    undeclared = frozenset(t for b, t in (closest.assigned if closest is not None else ()) if b == front)
    return file_account(a, miss.result, undeclared)


def file_account(a: CorpsAnalysis, res: FileResult, undeclared: frozenset[str] = frozenset()) -> str:
    """Why a file ends where it must: its allowance, the pace, the landmark, what stopped it, halving.

    ``undeclared``: the terrain of the file whose roll nobody declared (not shown as a value).
    """
    bonus_steps = a.options.prebattle_bonus
    base_text = mobility_text(a.mobility - (bonus_steps if a.bonus else 0.0), a.bonus, a.nearest, bonus_steps)
    if abs(a.start_allowance - a.mobility) > EPS:
        base_text = _("{mobility}, halved").format(mobility=base_text)
    parts = [_("allowance {account} ({mobility})").format(account=account(res.walk, a.start_allowance, undeclared),
                                                          mobility=base_text)]
    if res.pace is not None:
        parts.append(_("the slowest file sets the pace: {pace}").format(pace=fmt(res.pace)))
    if res.landmark_after is not None:
        parts.append(_("the reference point reaches the landmark after {distance}").format(
            distance=fmt(res.landmark_after)))
    if res.stopped_after is not None:
        parts.append(_("stopped after {distance} by {obstacle}").format(
            distance=fmt(res.stopped_after), obstacle=stop_text(res.stopped_by)))
    if res.held is not None:
        parts.append(_("it keeps its place: its allowance does not take it into full contact, and {engaged}").format(
            engaged=engaged_text(res.held)))
    if res.settled is not None:
        parts.append(_settled_text(res.settled))
    if res.halved_from is not None:
        parts.append(_("half of the maximum {maximum}").format(maximum=fmt(res.halved_from)))
        if res.settled_half is not None:
            parts.append(_settled_text(res.settled_half))
    return "; ".join(parts)


def engaged_text(obstacle: Obstacle) -> str:
    """``the contact of r1 with enemy b9 at the start (M10: ...)``: why an engaged base keeps its place."""
    names = ", ".join(obstacle.ids)
    return _("the contact of {base} with enemy {names} at the start (M10: an engaged base moves only straight back "
             "or straight into full contact)").format(base=obstacle.member, names=names)


def _settled_text(settled: Settled) -> str:
    return _("it may not end on friendly {friend} ({base}): {distance}").format(
        friend=settled.friend, base=settled.member, distance=fmt(settled.distance))
