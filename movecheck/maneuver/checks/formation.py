"""The formation of a corps (M5, M8)."""

from __future__ import annotations

from typing import Any, Iterator

from movecheck.maneuver.checks import CORPS, Problem, mv_clause, problems_of


@mv_clause(
    "MV301", "formation-broken", "error",
    "relative positions, contact or orientation inside the corps changed beyond what terrain or blocking explains",
    ("M5", "M8"), orders=CORPS,
)
def formation_broken(a: Any) -> Iterator[Problem]:
    """A corps manoeuvres as one whole, keeping its formation: the bases keep
    their relative positions, contact and orientation (M5).  Only the
    along-the-motion differences between files that terrain penalties or
    blocking cause are allowed (each file keeps its own pace, M8); a file
    itself moves as one.  A base that leaves its place in its file, moves
    sideways, or turns alone is this error (a file that moved as one but the
    wrong distance is MV202).
    """
    yield from problems_of(a.verdicts, "MV301")
