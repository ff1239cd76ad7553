"""The JSON report (``--format json``), as the report schema describes it."""

from __future__ import annotations

import json
from typing import Any

from movecheck import __version__
from movecheck.findings import Report


def report_document(report: Report, statistics: bool = False) -> dict[str, Any]:
    """The report as a JSON-ready dict (with counts per code when ``statistics``)."""
    document: dict[str, Any] = {
        "movecheck": __version__,
        "files": [{"path": f.path, "kind": f.kind, "state": f.state, "config": f.config} for f in report.files],
        "summary": report.summary(),
    }
    if report.readings:
        document["readings"] = report.readings
    if statistics:
        document["statistics"] = report.statistics()
    document["findings"] = [f.to_json() for f in report.sorted_findings()]
    return document


def render(report: Report, *, color: bool = False, statistics: bool = False) -> str:
    """One JSON document, keys in a fixed order, ending with a newline."""
    return json.dumps(report_document(report, statistics), indent=2, ensure_ascii=False) + "\n"
