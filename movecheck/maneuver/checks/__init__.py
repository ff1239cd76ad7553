"""The maneuver rule clauses, one module per family.

Each clause is declared once, with :func:`mv_clause` on its check function:
code, name, severity, summary, seed paragraphs, the order kinds it runs on,
the codes it words besides its own (``consequences``) and its ``example``.
The engine first computes an order's *facts* (where every base must end, what
the motion touches, which rolls it owes: :mod:`movecheck.maneuver.analysis`),
then runs the clauses of the order's kind on them, in code order; each yields
:class:`~movecheck.clauses.Violation` values.  The docstring of the function
is the clause's documentation (``movecheck explain MV101``).

These modules stay light (no shapely at import): ``movecheck rules`` imports
them to list the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from movecheck.clauses import CATALOGUE, Clause, Violation, clause

if TYPE_CHECKING:
    from typing import TypeAlias

    from movecheck.maneuver.corps import CorpsAnalysis
    from movecheck.maneuver.free import FreeAnalysis

    Analysis: TypeAlias = CorpsAnalysis | FreeAnalysis
    """What a maneuver clause judges: the facts of a corps order or of a free move (``kind`` tells which)."""

DocPath = tuple[Any, ...]
FREE = ("free",)
CORPS = ("all_ahead", "all_back", "to_landmark")
EVERY = FREE + CORPS


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
        consequences=consequences, example=example,
    )


def rules_for(kind: str) -> list[Clause]:
    """The clauses that run on an order kind, by code."""
    return CATALOGUE.running("maneuver", f"order/{kind}")
