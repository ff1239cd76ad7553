"""The maneuver rule clauses, one module per family.

Each clause is declared with :func:`mv_clause` on a small check function.  The
engine first *analyses* an order (where every base must end, what the motion
touches, which rolls it owes: :mod:`movecheck.maneuver.analysis`), then runs
the clauses of the order's kind on that analysis, in code order; each yields
:class:`~movecheck.clauses.Violation` values (``Problem`` is the same type,
under the name these modules use).  The docstring of the function is the
clause's documentation (``movecheck explain MV101``).

These modules stay light (no shapely at import): ``movecheck rules`` imports
them to list the catalogue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from movecheck.clauses import CATALOGUE, Clause, Violation, clause

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.analysis import CorpsAnalysis, FreeAnalysis

DocPath = tuple[Any, ...]
FREE = ("free",)
CORPS = ("all_ahead", "all_back", "to_landmark")
EVERY = FREE + CORPS

Problem = Violation
"""The kernel's violation, under the name the maneuver check modules use."""

CONSEQUENCES: dict[str, tuple[str, ...]] = {
    "MV101": ("MV304",),  # a free move legal for some rolls only: MV101's check words the MV304 warning
}
"""Codes a clause words besides its own, until its declaration says so itself (``consequences=``)."""

EXAMPLES: dict[str, tuple[str, str]] = {
    "MV101": ("a base of mobility 8, within 15 steps of an enemy, moves 9 steps over open ground",
              "it moves 8 steps"),
    "MV102": ("a free move goes round by two segments though the straight line to its end is clear",
              "it goes along the straight line"),
    "MV201": ("All ahead, and every base ends 3 steps to the right of where it started",
              "every base ends straight ahead along the corps' facing"),
    "MV202": ("All ahead on open ground, the bases end 5 steps forward when their allowance is 8",
              "they end 8 steps forward, or in contact with an enemy base met on the way"),
    "MV203": ("All ahead with every base declared turned 90°", "the bases keep their facing"),
    "MV301": ("All ahead, and one base of a file ends 2 steps beside the base ahead of it",
              "the file moves as one, each base behind the one ahead as it started"),
    "MV302": ("a roll of 7 declared for a stream, whose die is 1d6", "a roll from 1 to 6"),
    "MV303": ("a roll declared for a base that follows another into the wood",
              "the roll declared for the file's front base"),
    "MV304": ("All ahead into a wood with the front base's roll not declared, legal only for low rolls",
              "the roll declared, or ends that are right whatever the roll"),
    "MV401": ("a free move's base ends on a stationary friendly base", "it passes at most half over it and ends clear"),
    "MV402": ("a free move's path crosses an enemy base", "it goes round the enemy, or stops in contact"),
    "MV403": ("a free move's path crosses a lake (impassable terrain)", "it goes round the lake"),
    "MV501": ("a free move ends touching an enemy base", "it ends clear of every enemy base"),
    "MV502": ("a base in contact with an enemy moves sideways along it", "it goes straight back, or forward into full contact"),
}
"""Each clause's example, until its declaration gives it itself (``example=``)."""


def mv_clause(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    orders: tuple[str, ...] = EVERY,
    consequences: Iterable[str] = (),
    example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare a maneuver check as a clause run on ``orders`` kinds (occasions ``order/KIND``)."""
    return clause(
        code, name, severity, summary, seeds, system="maneuver", runs=[f"order/{kind}" for kind in orders],
        consequences=tuple(consequences) or CONSEQUENCES.get(code, ()), example=example or EXAMPLES.get(code),
    )


def problems_of(entries: Iterable[Any], code: str) -> Iterator[Violation]:
    """The analysis' verdicts of one clause, as violations at their nodes."""
    for entry in entries:
        if entry.code == code:
            yield Violation(entry.message, entry.where)


def rules_for(kind: str) -> list[Clause]:
    """The clauses that run on an order kind, by code."""
    return CATALOGUE.running("maneuver", f"order/{kind}")


Analysis = "FreeAnalysis | CorpsAnalysis"
