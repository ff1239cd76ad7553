"""Findings, the clause catalogue both rule systems add to, and report summaries.

A *clause* is one rule of the catalogue: a stable code (``AA201``), a slug
(``stop-in-hostile``), a severity, the seed paragraphs it comes from and its
documentation (the docstring of the check that enforces it).  A *finding* is
one place where a clause bites.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Callable, Iterable


class Severity(str, Enum):
    """How bad a finding is; only errors make an order illegal."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Clause:
    """One rule of the catalogue."""

    code: str
    name: str
    severity: Severity
    summary: str
    seeds: tuple[str, ...] = ()
    system: str = "mc"
    phase: str = ""
    doc: str = ""
    check: Callable[..., Any] | None = field(default=None, compare=False, repr=False)

    @property
    def slug(self) -> str:
        """``CODE name`` as ruff prints it."""
        return f"{self.code} {self.name}"

    def documentation(self) -> str:
        """The clause's long text: the docstring of its check, else its summary."""
        return self.doc or self.summary


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


CATALOGUE = Catalogue()


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
    check: Callable[..., Any] | None = None,
) -> Clause:
    """Register a clause; ``doc`` is its documentation (input problems have no check function)."""
    entry = Clause(
        code=code,
        name=name,
        severity=Severity(severity),
        summary=summary,
        seeds=tuple(seeds),
        system=system,
        phase=phase,
        doc=inspect.cleandoc(doc),
        check=check,
    )
    return CATALOGUE.add(entry)


def clause(
    code: str,
    name: str,
    severity: str,
    summary: str,
    seeds: Iterable[str] = (),
    *,
    system: str,
    phase: str = "",
) -> Callable[[Callable[..., Any]], Clause]:
    """Declare a check function as the clause ``code``; its docstring is the clause's text."""

    def register(check: Callable[..., Any]) -> Clause:
        return declare(
            code, name, severity, summary, seeds, system=system, phase=phase, doc=check.__doc__ or "", check=check
        )

    return register


@dataclass(frozen=True)
class Finding:
    """One problem at one place of one file."""

    code: str
    name: str
    severity: Severity
    message: str
    clauses: tuple[str, ...] = ()
    file: str = ""
    line: int = 1
    column: int = 1
    order: int | None = None
    order_id: str | None = None

    def sort_key(self) -> tuple[Any, ...]:
        """Findings sort by file, position, code, then message."""
        return (self.file, self.line, self.column, self.code, self.message, self.order or 0)

    def to_json(self) -> dict[str, Any]:
        """The finding as the JSON report writes it."""
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "clauses": list(self.clauses),
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "order": self.order,
            "order_id": self.order_id,
        }

    def at_file(self, path: str) -> "Finding":
        """The same finding reported against ``path``."""
        return replace(self, file=path)


def make_finding(
    code: str,
    message: str,
    *,
    file: str = "",
    line: int = 1,
    column: int = 1,
    order: int | None = None,
    order_id: str | None = None,
    severity: Severity | str | None = None,
) -> Finding:
    """A finding of the catalogued clause ``code`` (severity and seeds from the catalogue)."""
    entry = CATALOGUE[code]
    return Finding(
        code=code,
        name=entry.name,
        severity=Severity(severity) if severity is not None else entry.severity,
        message=message,
        clauses=entry.seeds,
        file=file,
        line=line,
        column=column,
        order=order,
        order_id=order_id,
    )


@dataclass
class FileReport:
    """What one input file contributed to a report."""

    path: str
    kind: str
    state: str | None = None
    orders: int = 0
    config: str | None = None  # the configuration file that applied to it (None: none)


@dataclass
class Report:
    """All findings of one run and the files they came from."""

    files: list[FileReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    readings: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """The text of each file read, by the path findings name (for excerpts)."""

    def sorted_findings(self) -> list[Finding]:
        """Findings in their deterministic order, duplicates dropped."""
        unique = {(f.sort_key(), f.severity.value, f.order_id): f for f in self.findings}
        return [unique[k] for k in sorted(unique, key=lambda k: (k[0], k[1], k[2] or ""))]

    def count(self, severity: Severity) -> int:
        """Number of findings of one severity."""
        return sum(1 for f in self.sorted_findings() if f.severity is severity)

    def illegal_orders(self) -> int:
        """Orders with at least one error, over every orders file."""
        bad = {
            (f.file, f.order)
            for f in self.findings
            if f.severity is Severity.ERROR and f.order is not None
        }
        return len(bad)

    def order_count(self) -> int:
        """Orders checked, over every orders file."""
        return sum(f.orders for f in self.files)

    def summary(self) -> dict[str, int]:
        """The report's summary block."""
        return {
            "files": len(self.files),
            "orders": self.order_count(),
            "illegal_orders": self.illegal_orders(),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "notes": self.count(Severity.NOTE),
        }

    def statistics(self) -> dict[str, int]:
        """Number of findings per code, by code."""
        counts: dict[str, int] = {}
        for finding in self.sorted_findings():
            counts[finding.code] = counts.get(finding.code, 0) + 1
        return dict(sorted(counts.items()))

    def exit_code(self) -> int:
        """0 when no finding is an error, else 1."""
        return 1 if self.count(Severity.ERROR) else 0
