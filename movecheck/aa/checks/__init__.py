"""The aa rule clauses, one module per family.

Each clause is declared with :func:`aa_clause` on a small check function: a
*move* check looks at one move before it is applied (the board as earlier
moves left it) and yields :class:`Problem`; an *end* check looks at the board
after the last move of the phase.  The docstring of the function is the
clause's documentation (``movecheck explain``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from movecheck.findings import Clause, clause

if TYPE_CHECKING:
    from movecheck.aa.engine import Phase
    from movecheck.aa.model import Board
    from movecheck.aa.moves import Move

DocPath = tuple[Any, ...]
COMBAT = "combat_move"
NONCOMBAT = "noncombat_move"
PHASES = {"combat": (COMBAT,), "noncombat": (NONCOMBAT,), "both": (COMBAT, NONCOMBAT)}


@dataclass
class Problem:
    """A clause biting: the message, the node it points at, and (end checks) the order to name."""

    message: str
    where: DocPath
    order: int | None = None
    order_id: str | None = None
    severity: str | None = None
    code: str | None = None


@dataclass
class Rule:
    """A registered aa clause with when and how it runs."""

    entry: Clause
    phases: tuple[str, ...]
    scope: str
    run: Callable[..., Iterable[Problem]] = field(repr=False)


RULES: list[Rule] = []


def aa_clause(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    phase: str,
    scope: str = "move",
) -> Callable[[Callable[..., Iterable[Problem]]], Callable[..., Iterable[Problem]]]:
    """Declare an aa check function as a catalogue clause (``phase``: combat, noncombat or both)."""

    def register(check: Callable[..., Iterable[Problem]]) -> Callable[..., Iterable[Problem]]:
        entry = clause(code, name, severity, summary, seeds, system="aa", phase=phase)(check)
        RULES.append(Rule(entry, PHASES[phase], scope, check))
        return check

    return register


def rules_for(phase: str, scope: str) -> list[Rule]:
    """The clauses that run in a phase at a scope (move or end), by code."""
    return sorted((r for r in RULES if phase in r.phases and r.scope == scope), key=lambda r: r.entry.code)
