"""The formation of a corps (M5, M8)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.clauses import Violation
from movecheck.i18n import _
from movecheck.maneuver.checks import CORPS, mv_clause
from movecheck.maneuver.checks.ends import ends_judged, miss_account, misses, turned_alone
from movecheck.maneuver.model import fmt, fmt_deg, fmt_xy

if TYPE_CHECKING:
    from movecheck.maneuver.corps import CorpsAnalysis


@mv_clause(
    "MV301", "formation-broken", "error",
    "relative positions, contact or orientation inside the corps changed beyond what terrain or blocking explains",
    ("M5", "M8"), orders=CORPS,
    example=("All ahead, and one base of a file ends 2 steps beside the base ahead of it",
             "the file moves as one, each base behind the one ahead as it started"),
)
def formation_broken(a: CorpsAnalysis) -> Iterator[Violation]:
    """A corps manoeuvres as one whole, keeping its formation: the bases keep
    their relative positions, contact and orientation (M5).  Only the
    along-the-motion differences between files that terrain penalties or
    blocking cause are allowed (each file keeps its own pace, M8); a file
    itself moves as one.  A base that leaves its place in its file, moves
    sideways, or turns alone is this error (a file that moved as one but the
    wrong distance is MV202).  Silent, like MV202, when the order cannot be
    carried out as declared at all (MV201, MV203, or MV502 for an engaged
    corps).
    """
    if not ends_judged(a):
        return
    declared = a.order.end
    for base in turned_alone(a):
        facing = declared[base.id].facing
        if facing is None:  # turned lists only bases declared with a facing
            continue
        yield Violation(
            _("{base} is declared facing {declared}° while its corps keeps facing {facing}°: the bases of a corps "
              "keep their orientation").format(base=base.id, declared=fmt_deg(facing),
                                              facing=fmt_deg(base.facing)),
            (*declared[base.id].where, "facing"),
        )
    for miss in misses(a):
        if miss.declared is None or miss.as_one:
            continue  # no end declared, or the file moved as one: MV202
        dec = miss.declared
        yield Violation(
            _("{base} is declared at {declared}, out of its place in the formation: it keeps its position in the "
              "file of {front} and must end at {end}, {distance} steps away; {account}").format(
                base=miss.base.id, declared=fmt_xy((dec.x, dec.y)), front=miss.file.front.id,
                end=fmt_xy(miss.expected), distance=fmt(math.dist((dec.x, dec.y), miss.expected)),
                account=miss_account(a, miss)),
            dec.where,
        )
