"""Findings, the verdicts of orders, and report summaries.

A *finding* is one place of one file where a clause (:mod:`movecheck.clauses`)
bites: its code, severity, message and position.  ``Severity``, ``Clause`` and
``CATALOGUE`` are the kernel's, named here too for the modules that report.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

# named here too for the modules that report: explicit re-exports (``X``, for mypy --strict)
from movecheck.clauses import CATALOGUE, Severity
from movecheck.i18n import N_, _
from movecheck.records import dataclass_on_first_use

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.fixes import Fix


@dataclass_on_first_use(frozen=True)
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
    fixes: tuple[Fix, ...] = ()
    """The replacements the clause suggests (issue 42, :mod:`movecheck.fixes`), best first; none: it suggests none."""

    def sort_key(self) -> tuple[Any, ...]:
        """Findings sort by file, position, code, then message."""
        return (self.file, self.line, self.column, self.code, self.message, self.order or 0)

    def to_json(self) -> dict[str, Any]:
        """The finding as the JSON report writes it."""
        found: dict[str, Any] = {
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
        if self.fixes:  # only where the clause suggests a replacement: reports without one are as they were
            found["fixes"] = [fix.to_json() for fix in self.fixes]
        return found


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
    fixes: tuple[Fix, ...] = (),
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
        fixes=fixes,
    )


class Verdict(StrEnum):
    """What the rules say of one order."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNCHECKED = "unchecked"


UNCHECKED_CODE = "MC012"
"""The finding an engine gives an order whose checks it could not finish (never selected away)."""

NOT_JUDGED = N_("lint does not judge orders: use 'movecheck check'")
"""Why ``lint`` leaves orders unchecked (in English: ``_(NOT_JUDGED)`` where it is said)."""


def _input_reason(codes: set[str]) -> str:
    """Why an order with these input-problem errors on it was not checked."""
    if UNCHECKED_CODE in codes:
        return _("a search limit was hit")
    if "MC004" in codes:
        return _("unknown names in the order")
    if "MC003" in codes:
        return _("schema errors in the order")
    return _("the order could not be read")


@dataclass
class FileReport:
    """What one input file contributed to a report.

    ``checked`` holds the (1-based) orders on which every clause that applies
    ran; an order outside it is unchecked, for ``reason`` when the rules did not
    run on the file at all.  ``judged`` is False for files whose orders the
    command does not judge (``lint``): their orders are unchecked by design and
    do not change the exit code.
    """

    path: str
    kind: str
    state: str | None = None
    orders: int = 0
    checked: set[int] = field(default_factory=set)
    reason: str | None = None
    judged: bool = True
    config: str | None = None
    assignment: list[dict[str, Any]] | None = None
    """The choice of units the rules used, per order carried out (aa orders), for the JSON report."""
    error: str | None = None
    """Why the file could not be read at all (missing, a directory ...); None when it was read."""
    overrides: Any = None
    """What changed the file's rules or selection and where from (:class:`movecheck.overrides.Overrides`;
    None: nothing)."""

    def verdicts(self, findings: Iterable[Finding]) -> dict[int, tuple[Verdict, str | None]]:
        """Each order's verdict (and, when unchecked, why), given the reported findings."""
        rule_errors: set[int] = set()
        input_errors: dict[int, set[str]] = {}
        file_errors = False
        for finding in findings:
            if finding.file != self.path or finding.severity is not Severity.ERROR:
                continue
            if finding.order is None:
                file_errors = file_errors or finding.code.startswith("MC")
            elif finding.code.startswith("MC"):
                input_errors.setdefault(finding.order, set()).add(finding.code)
            else:
                rule_errors.add(finding.order)
        found: dict[int, tuple[Verdict, str | None]] = {}
        for order in range(1, self.orders + 1):
            if order in rule_errors:
                found[order] = (Verdict.ILLEGAL, None)
            elif not self.judged:
                found[order] = (Verdict.UNCHECKED, _(NOT_JUDGED))
            elif order in input_errors:
                found[order] = (Verdict.UNCHECKED, _input_reason(input_errors[order]))
            elif order not in self.checked:
                found[order] = (Verdict.UNCHECKED, self.reason or _("the rules did not run on it"))
            elif file_errors:
                found[order] = (Verdict.UNCHECKED, _("the orders file has errors"))
            else:
                found[order] = (Verdict.LEGAL, None)
        return found

    def counts(self, findings: list[Finding]) -> dict[str, Any]:
        """The file's own counts: its orders by verdict and its findings by severity."""
        verdicts = [v for v, _reason in self.verdicts(findings).values()]
        own = [f for f in findings if f.file == self.path]
        return {
            "orders": self.orders,
            "legal": verdicts.count(Verdict.LEGAL),
            "illegal": verdicts.count(Verdict.ILLEGAL),
            "unchecked": verdicts.count(Verdict.UNCHECKED),
            "errors": sum(1 for f in own if f.severity is Severity.ERROR),
            "warnings": sum(1 for f in own if f.severity is Severity.WARNING),
            "notes": sum(1 for f in own if f.severity is Severity.NOTE),
        }


@dataclass
class Report:
    """All findings of one run and the files they came from."""

    files: list[FileReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    readings: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def unjudged(cls, findings: list[Finding], path: str, kind: str | None) -> Report:
        """A report of one file's findings that was not judged (what ``render`` or ``reach`` print when they
        cannot go on)."""
        report = cls()
        report.files.append(FileReport(path=path, kind=kind or "unknown", judged=False))
        report.findings.extend(findings)
        return report
    sources: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """The text of each file read, by the path findings name (for excerpts)."""

    def sorted_findings(self) -> list[Finding]:
        """Findings in their deterministic order (file, position, code, message, severity, order id).

        Nothing is dropped: each finding is added once at its source (a state's once per
        run, however many orders files name it; a configuration both linted and applied
        once, as the run's configuration).
        """
        return sorted(self.findings, key=lambda f: (f.sort_key(), f.severity.value, f.order_id or ""))

    def count(self, severity: Severity) -> int:
        """Number of findings of one severity."""
        return sum(1 for f in self.sorted_findings() if f.severity is severity)

    def verdicts(self) -> list[tuple[FileReport, int, Verdict, str | None]]:
        """Every order of every file with its verdict, in file and order order."""
        findings = self.sorted_findings()
        return [
            (entry, order, verdict, reason)
            for entry in self.files
            for order, (verdict, reason) in entry.verdicts(findings).items()
        ]

    def unchecked_reasons(self) -> list[str]:
        """Why orders were not checked, each reason once, most frequent first."""
        counts: dict[str, int] = {}
        for _entry, _order, verdict, reason in self.verdicts():
            if verdict is Verdict.UNCHECKED and reason:
                counts[reason] = counts.get(reason, 0) + 1
        return sorted(counts, key=lambda r: (-counts[r], r))

    def illegal_orders(self) -> int:
        """Orders with at least one error from a rule clause, over every orders file."""
        return sum(1 for _entry, _order, v, _reason in self.verdicts() if v is Verdict.ILLEGAL)

    def order_count(self) -> int:
        """Orders read, over every orders file."""
        return sum(f.orders for f in self.files)

    def summary(self) -> dict[str, int]:
        """The report's summary block."""
        verdicts = [v for _entry, _order, v, _reason in self.verdicts()]
        return {
            "files": len(self.files),
            "orders": self.order_count(),
            "legal_orders": verdicts.count(Verdict.LEGAL),
            "illegal_orders": verdicts.count(Verdict.ILLEGAL),
            "unchecked_orders": verdicts.count(Verdict.UNCHECKED),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "notes": self.count(Severity.NOTE),
        }

    def judged_unchecked(self) -> int:
        """Unchecked orders of files the command judges (these make the run exit 1)."""
        return sum(1 for entry, _order, v, _reason in self.verdicts() if v is Verdict.UNCHECKED and entry.judged)

    def statistics(self) -> dict[str, int]:
        """Number of findings per code, by code."""
        counts: dict[str, int] = {}
        for finding in self.sorted_findings():
            counts[finding.code] = counts.get(finding.code, 0) + 1
        return dict(sorted(counts.items()))

    def unreadable(self) -> list[FileReport]:
        """The input files that could not be read at all (the run exits 2)."""
        return [entry for entry in self.files if entry.error is not None]

    def exit_code(self) -> int:
        """2 when an input could not be read; else 0 when no finding is an error and every
        judged order was checked, else 1."""
        if self.unreadable():
            return 2
        return 1 if self.count(Severity.ERROR) or self.judged_unchecked() else 0
