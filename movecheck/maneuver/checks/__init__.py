"""The maneuver rule clauses, one module per family.

Each clause is declared with :func:`mv_clause` on a small check function.  The
engine first *analyses* an order (where every base must end, what the motion
touches, which rolls it owes: :mod:`movecheck.maneuver.analysis`), then runs
the clauses of the order's kind on that analysis, in code order; each yields
:class:`Problem` values.  The docstring of the function is the clause's
documentation (``movecheck explain MV101``).

These modules stay light (no shapely at import): ``movecheck rules`` imports
them to list the catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from movecheck.findings import Clause, clause

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.analysis import CorpsAnalysis, FreeAnalysis

DocPath = tuple[Any, ...]
FREE = ("free",)
CORPS = ("all_ahead", "all_back", "to_landmark")
EVERY = FREE + CORPS


@dataclass
class Problem:
    """A clause biting: the message and the node it points at (``code`` for a consequence clause)."""

    message: str
    where: DocPath
    code: str | None = None
    severity: str | None = None


@dataclass
class Rule:
    """A registered maneuver clause and the order kinds it runs on."""

    entry: Clause
    orders: tuple[str, ...]
    run: Callable[..., Iterable[Problem]] = field(repr=False)


RULES: list[Rule] = []


def mv_clause(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    orders: tuple[str, ...] = EVERY,
) -> Callable[[Callable[..., Iterable[Problem]]], Callable[..., Iterable[Problem]]]:
    """Declare a maneuver check function as a catalogue clause run on ``orders`` kinds."""

    def register(check: Callable[..., Iterable[Problem]]) -> Callable[..., Iterable[Problem]]:
        entry = clause(code, name, severity, summary, seeds, system="maneuver")(check)
        RULES.append(Rule(entry, orders, check))
        return check

    return register


def problems_of(entries: Iterable[Any], code: str) -> Iterator[Problem]:
    """The analysis' verdicts of one clause, as problems at their nodes."""
    for entry in entries:
        if entry.code == code:
            yield Problem(entry.message, entry.where)


def rules_for(kind: str) -> list[Rule]:
    """The clauses that run on an order kind, by code."""
    return sorted((r for r in RULES if kind in r.orders), key=lambda r: r.entry.code)


Analysis = "FreeAnalysis | CorpsAnalysis"
