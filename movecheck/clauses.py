"""The clause kernel: one registry of rule clauses, one problem type, one runner.

Both rule systems and their lint declare their clauses here, and so do the
input problems (the ``MC`` codes, clauses without a check function).  A clause
is declared once, with

- its code, name, severity, summary and seed paragraphs (what ``rules`` lists);
- its system and the *occasions* it runs on: strings its system defines, such as
  ``combat_move/move`` or ``noncombat_move/end`` (aa), ``order/free`` (maneuver),
  ``lint/state`` (lint of either system);
- the codes it may emit: its own, plus the *consequence* codes it words on
  behalf of another clause;
- an example (one illegal case, one legal one) that ``explain`` prints;
- its check function, whose docstring is the clause's documentation.

The options a clause reads are declared on the option (``movecheck/aa/options.py``,
``movecheck/maneuver/options.py``: each option names the clauses it governs);
:attr:`Clause.options` reads them from there, so the link is written once: an option set
tells :func:`govern` which clauses its options govern when it is declared (a system's
clause modules import its options module).

A check yields :class:`Violation` values.  :meth:`Clause.run` is the runner:
it calls the check, gives each violation its code, and refuses a code the
clause did not declare.  Turning a violation into a :class:`~movecheck.findings.Finding`
(a file, a line, a column) is the engine's business: only it knows the document.

This module imports nothing of movecheck at load time: every other module may
import it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NamedTuple

DocPath = tuple[Any, ...]


class Severity(StrEnum):
    """How bad a finding is; only errors make an order illegal."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass
class Violation:
    """A clause biting at one node of a document.

    ``where`` is the path of the node in the document the check looks at.  End-of-phase checks
    name the order to report (``order``, 1-based, and ``order_id``); move checks leave them to
    the engine.  ``code`` is None for the clause's own code, or one of its consequence codes;
    ``severity`` is None for the clause's severity.
    """

    message: str
    where: DocPath
    order: int | None = None
    order_id: str | None = None
    severity: str | None = None
    code: str | None = None
    replace_with: tuple[str, ...] = ()
    """Names that may replace the scalar at ``where`` (a "did you mean"): the finding's fixes (issue 42)."""


class Example(NamedTuple):
    """A clause's example for ``explain``: one illegal case and its legal counterpart, a line each."""

    illegal: str
    legal: str


class ClauseError(RuntimeError):
    """A clause broke its declaration (it emitted a code it did not declare)."""


@dataclass(eq=False)
class Clause:
    """One rule of the catalogue, as declared: what it is, when it runs, what it may emit, its check."""

    code: str
    name: str
    severity: Severity
    summary: str
    seeds: tuple[str, ...] = ()
    system: str = "mc"
    phase: str = ""
    """Where ``rules`` says the clause applies (aa: combat, noncombat, both or lint); display only."""
    doc: str = ""
    runs: tuple[str, ...] = ()
    emits: tuple[str, ...] = ()
    example: Example | None = None
    check: Callable[..., Iterable[Violation]] | None = field(default=None, repr=False)

    @property
    def slug(self) -> str:
        """``CODE name`` as ruff prints it."""
        return f"{self.code} {self.name}"

    def documentation(self) -> str:
        """The clause's long text: the docstring of its check, else its summary."""
        return self.doc or self.summary

    @property
    def options(self) -> tuple[str, ...]:
        """The rule options that change what this clause decides (from the options' declarations, :func:`govern`)."""
        return _GOVERNED.get(self.system, {}).get(self.code, ())

    def run(self, *subject: Any) -> Iterator[Violation]:
        """The check's violations on ``subject``, each with its code; a code not declared is a ClauseError."""
        if self.check is None:
            raise ClauseError(f"{self.code} has no check function: it is reported by the loader")
        for violation in self.check(*subject):
            code = violation.code or self.code
            if code not in self.emits:
                may = ", ".join(self.emits)
                raise ClauseError(f"{self.code} emitted {code}, which it does not declare (it may emit {may})")
            yield violation if violation.code == code else replace(violation, code=code)


class Catalogue:
    """The registry of clauses; rule modules add to it at import time."""

    def __init__(self) -> None:
        self._clauses: dict[str, Clause] = {}

    def add(self, clause: Clause) -> Clause:
        """Register a clause; a code may be registered once."""
        if clause.code in self._clauses:
            raise ValueError(f"clause {clause.code} registered twice")
        self._clauses[clause.code] = clause
        return clause

    def __getitem__(self, code: str) -> Clause:
        return self._clauses[code]

    def __contains__(self, code: object) -> bool:
        return code in self._clauses

    def get(self, code: str) -> Clause | None:
        return self._clauses.get(code)

    def all(self, system: str | None = None) -> list[Clause]:
        """Every clause, sorted by code, optionally of one system."""
        found = sorted(self._clauses.values(), key=lambda c: c.code)
        if system is None:
            return found
        return [c for c in found if c.system == system]

    def running(self, system: str, occasion: str) -> list[Clause]:
        """The clauses of a system that run on an occasion, by code."""
        return [c for c in self.all(system) if occasion in c.runs]


CATALOGUE = Catalogue()

_GOVERNED: dict[str, dict[str, tuple[str, ...]]] = {}
"""System -> clause code -> the options that govern the clause, in their declaration order (:func:`govern`)."""


def govern(system: str, options: dict[str, tuple[str, ...]]) -> None:
    """Record which clauses each option of ``system`` governs (option name -> clause codes), replacing what
    was recorded for the system: an option set does so when it is declared."""
    governed: dict[str, list[str]] = {}
    for name, codes in options.items():
        for code in codes:
            governed.setdefault(code, []).append(name)
    _GOVERNED[system] = {code: tuple(names) for code, names in governed.items()}


def declare(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    system: str,
    phase: str = "",
    doc: str = "",
    runs: Iterable[str] = (),
    consequences: Iterable[str] = (),
    example: tuple[str, str] | None = None,
    check: Callable[..., Iterable[Violation]] | None = None,
) -> Clause:
    """Register a clause; ``doc`` is its documentation.  Input problems are declared so, with no check."""
    entry = Clause(
        code=code,
        name=name,
        severity=Severity(severity),
        summary=summary,
        seeds=tuple(seeds),
        system=system,
        phase=phase,
        doc=inspect.cleandoc(doc),
        runs=tuple(runs),
        emits=(code, *consequences),
        example=Example(*example) if example is not None else None,
        check=check,
    )
    return CATALOGUE.add(entry)


def clause(
    code: str, name: str, severity: str, summary: str, seeds: Iterable[str] = (), **declaration: Any,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare a check function as the clause ``code``; returns the function.

    ``declaration`` holds :func:`declare`'s keywords (``system`` and ``runs`` at least;
    ``phase``, ``consequences``, ``example``); the check's docstring is the clause's text.
    """

    def register(check: Callable[..., Iterable[Violation]]) -> Callable[..., Iterable[Violation]]:
        declare(code, name, severity, summary, seeds, doc=check.__doc__ or "", check=check, **declaration)
        return check

    return register
