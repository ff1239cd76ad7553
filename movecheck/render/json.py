"""The JSON report (``--format json``), as the report schema describes it."""

from __future__ import annotations

import json
from typing import Any

from movecheck import __version__
from movecheck.findings import FileReport, Finding, Report, Verdict
from movecheck.render.escape import escape_json


def report_document(report: Report, statistics: bool = False) -> dict[str, Any]:
    """The report as a JSON-ready dict (with counts per code when ``statistics``)."""
    findings = report.sorted_findings()
    document: dict[str, Any] = {
        "movecheck": __version__,
        "files": [_file_entry(f, findings) for f in report.files],
        "summary": report.summary(),
    }
    if report.readings:
        document["readings"] = report.readings
    if statistics:
        document["statistics"] = report.statistics()
    document["findings"] = [f.to_json() for f in report.sorted_findings()]
    return document


def _file_entry(entry: FileReport, findings: list[Finding]) -> dict[str, Any]:
    """One file of the report: what it is, the state it was checked against, its counts."""
    verdicts = entry.verdicts(findings)
    unchecked = sorted({reason for verdict, reason in verdicts.values() if verdict is Verdict.UNCHECKED and reason})
    document = {
        "path": entry.path,
        "kind": entry.kind,
        "state": entry.state,
        "config": entry.config,
        "error": entry.error,
        **entry.counts(findings),
        "unchecked_reasons": unchecked,
        "verdicts": [verdict.value for verdict, _ in verdicts.values()],
    }
    if entry.assignment is not None:
        document["assignment"] = entry.assignment
    if entry.overrides:
        document["overrides"] = entry.overrides.to_json()
    return document


def render(report: Report, *, color: bool = False, statistics: bool = False) -> str:
    """One JSON document, keys in a fixed order, ending with a newline."""
    return escape_json(json.dumps(report_document(report, statistics), indent=2, ensure_ascii=False)) + "\n"
