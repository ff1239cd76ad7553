"""The aa rule clauses, one module per family.

Each clause is declared with :func:`aa_clause` on a small check function: a
*move* check looks at one move before it is applied (the board as earlier
moves left it) and yields :class:`~movecheck.clauses.Violation`; an *end*
check looks at the :class:`~movecheck.aa.phase.Phase` after the last move.
The docstring of the function is the clause's documentation (``movecheck
explain``).  Checks read the phase (:mod:`movecheck.aa.phase`) and the facts
about it (:mod:`movecheck.aa.landing.aircraft`), never the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from movecheck.aa.phase import PHASES, SCOPES, occasion
from movecheck.clauses import CATALOGUE, Clause, Violation, clause


def aa_clause(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    phase: str,
    scope: str = "move",
    consequences: Iterable[str] = (),
    example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare an aa check as a clause that runs in ``phase`` (combat, noncombat or both) at ``scope`` (move or end)."""
    if scope not in SCOPES:
        raise ValueError(f"{code}: scope {scope!r} is not one of {SCOPES}")
    return clause(
        code, name, severity, summary, seeds, system="aa", phase=phase,
        runs=[occasion(name_, scope) for name_ in PHASES[phase]], consequences=consequences, example=example,
    )


def mobilize_clause(
    code: str, name: str, severity: str, summary: str, *, scope: str = "place",
    example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare an aa clause of the mobilization, run on each placement (``place``) or on the file (``end``).

    Beside :func:`aa_clause` (not in the mobilization family) so that a family declaring a placement clause
    (China's) loads without the mobilization model."""
    return clause(code, name, severity, summary, (), system="aa", phase="mobilize",
                  runs=[occasion("mobilize", "place" if scope == "place" else "end")], example=example)


def rules_for(phase: str, scope: str) -> list[Clause]:
    """The clauses that run in a phase at a scope (move or end), by code."""
    return CATALOGUE.running("aa", occasion(phase, scope))
