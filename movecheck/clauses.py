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

A clause family may be imported when it is first needed: a system with a clause index
(``System.clause_index``, code -> system, declaring module, name, severity, occasions; written by
``scripts/gen_clause_index.py``) gives it to the catalogue, which imports a clause's module only when
the clause itself is asked for (:meth:`Catalogue.get`, :meth:`Catalogue.running` for an occasion it
runs on, :meth:`Catalogue.all`).  So an aa combat-move check loads the move clauses, not the purchase,
mobilization, battle and dice families.

This module imports nothing of movecheck at load time: every other module may import it.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
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
    module: str = field(default="", repr=False)
    """The module whose import declared it (what a system's clause index names, ``scripts/gen_clause_index.py``)."""

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
            yield self.vetted(violation)

    def vetted(self, violation: Violation) -> Violation:
        """A violation of the check with its code (the clause's own when it names none); a code not declared is a
        ClauseError (what :meth:`run` does to each; a caller that calls :attr:`check` itself, the engine's run of an
        order's clauses, calls this on each)."""
        code = violation.code or self.code
        if code not in self.emits:
            may = ", ".join(self.emits)
            raise ClauseError(f"{self.code} emitted {code}, which it does not declare (it may emit {may})")
        return violation if violation.code == code else replace(violation, code=code)


class Indexed(NamedTuple):
    """What the clause index says of a clause before its module is imported."""

    system: str
    module: str
    name: str
    severity: str
    runs: tuple[str, ...]


class Catalogue:
    """The registry of clauses; rule modules add to it at import time.

    A system may give it an index of its clauses first (:meth:`add_index`, code -> :class:`Indexed`, a module
    written by ``scripts/gen_clause_index.py``): asked for a clause of the index that is not registered yet,
    the catalogue imports the module that declares it (each module once).
    """

    def __init__(self) -> None:
        self._clauses: dict[str, Clause] = {}
        self._index: dict[str, Indexed] = {}
        self._imported: set[str] = set()
        self._wanted: dict[tuple[str | None, str | None], list[str]] = {}

    def add(self, clause: Clause) -> Clause:
        """Register a clause; a code may be registered once."""
        if clause.code in self._clauses:
            raise ValueError(f"clause {clause.code} registered twice")
        self._clauses[clause.code] = clause
        return clause

    def add_index(self, entries: Mapping[str, tuple[str, str, str, str, tuple[str, ...]]]) -> None:
        """Know the clauses ``entries`` names (code -> system, declaring module, name, severity, occasions) before
        their modules are imported."""
        self._index.update((code, Indexed(*entry)) for code, entry in entries.items())
        self._wanted.clear()

    def _import(self, modules: Iterable[str]) -> None:
        """Import the modules that declare indexed clauses (each once, in order)."""
        for module in modules:
            if module not in self._imported:
                importlib.import_module(module)
                self._imported.add(module)

    def _modules(self, system: str | None = None, occasion: str | None = None) -> list[str]:
        """The declaring modules of the indexed clauses of ``system`` that run on ``occasion`` (None: any), sorted."""
        key = (system, occasion)
        if key not in self._wanted:
            self._wanted[key] = sorted({
                entry.module
                for entry in self._index.values()
                if system in (None, entry.system) and (occasion is None or occasion in entry.runs)
            })
        return self._wanted[key]

    def __getitem__(self, code: str) -> Clause:
        found = self.get(code)
        if found is None:
            raise KeyError(code)
        return found

    def __contains__(self, code: object) -> bool:
        return code in self._clauses or code in self._index

    def get(self, code: str) -> Clause | None:
        """The clause ``code`` (its module imported if it is indexed and not loaded yet), else None."""
        found = self._clauses.get(code)
        if found is None and code in self._index:
            self._import([self._index[code].module])
            found = self._clauses.get(code)
        return found

    def codes(self, system: str | None = None) -> list[str]:
        """Every clause code, sorted, optionally of one system, without importing any clause module."""
        registered = {c.code for c in self._clauses.values() if system in (None, c.system)}
        indexed = {code for code, entry in self._index.items() if system in (None, entry.system)}
        return sorted(registered | indexed)

    def all(self, system: str | None = None) -> list[Clause]:
        """Every clause, sorted by code, optionally of one system."""
        self._import(self._modules(system))
        return self.loaded(system)

    def running(self, system: str, occasion: str) -> list[Clause]:
        """The clauses of a system that run on an occasion, by code."""
        self._import(self._modules(system, occasion))
        return [c for c in self.loaded(system) if occasion in c.runs]

    def loaded(self, system: str | None = None) -> list[Clause]:
        """The clauses registered so far, sorted by code, optionally of one system (no module imported)."""
        found = sorted(self._clauses.values(), key=lambda c: c.code)
        return found if system is None else [c for c in found if c.system == system]


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
        module=_declaring_module(),
    )
    return CATALOGUE.add(entry)


def _declaring_module() -> str:
    """The module whose import declares the clause being declared: the innermost module body running (a clause
    declared by a helper of another module belongs to the module whose import called the helper)."""
    frame: Any = sys._getframe(1)
    while frame is not None and frame.f_code.co_name != "<module>":
        frame = frame.f_back
    return str(frame.f_globals.get("__name__", "")) if frame is not None else ""


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
