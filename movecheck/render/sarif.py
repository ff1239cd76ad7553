"""``--format sarif``: a SARIF 2.1.0 log for code-scanning tools (GitHub code scanning and others).

* ``tool.driver.rules`` is the whole clause catalogue: ``id`` is the code,
  ``name`` the slug, ``shortDescription`` the summary, ``fullDescription`` the
  clause's documentation and ``help`` the documentation plus the rulebook
  paragraphs it cites; ``defaultConfiguration.level`` is its severity.
* each result names its rule (``ruleId``, ``ruleIndex``), its level, the
  message, and where: a URI relative to the current folder (``uriBaseId``
  ``%SRCROOT%``, forward slashes, percent-encoded) with start line and column.
* a finding that suggests replacements (issue 42) gives ``fixes``: one SARIF ``fix`` per
  replacement, its title the ``description`` and its edits ``replacements`` of the file
  (``deletedRegion`` with start and end, the end column just past, and ``insertedContent``).
* ``partialFingerprints`` are stable across edits that only move lines: a hash
  of code, file, message and order id (plus an occurrence number when the same
  finding appears more than once in a file), never of line numbers.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from movecheck import __version__
from movecheck.clauses import CATALOGUE, Clause
from movecheck.findings import Finding, Report
from movecheck.i18n import _
from movecheck.overrides import override_lines
from movecheck.render import portable_path
from movecheck.render.escape import escape_json

if TYPE_CHECKING:  # pragma: no cover
    from movecheck.fixes import Fix

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
FINGERPRINT = "movecheck/v1"


def artifact_uri(path: str) -> tuple[str, bool]:
    """The URI of a finding's file and whether it is relative to ``%SRCROOT%``."""
    shown = portable_path(path)
    try:  # the file name's own bytes: a name that is not UTF-8 came in surrogate-escaped
        raw = shown.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate of another kind
        raw = shown.encode("utf-8", "surrogatepass")
    if shown.startswith("/"):
        return "file://" + quote(raw, safe="/"), False
    return quote(raw, safe="/"), True


def _help(entry: Clause) -> tuple[str, str]:
    """Help of a clause as text and markdown: its documentation and the seed paragraphs it cites."""
    from movecheck.catalogue import cited_sources, expand_seeds, paragraph_text, seed_paragraphs

    text = markdown = _(entry.documentation())  # the catalogue's translation of the description (issue 42)
    paragraphs = seed_paragraphs()
    cited = [label for label in expand_seeds(entry.seeds) if label in paragraphs]
    if cited:
        sources = _("(source: {sources})").format(sources=cited_sources(cited))
        heading = _("Rule text:")
        text += f"\n\n{heading}\n" + "\n".join(f"{label}: {paragraph_text(paragraphs[label])}" for label in cited)
        text += f"\n{sources}"
        markdown += f"\n\n**{heading}**\n\n" + "\n".join(
            f"- **{label}**: {paragraph_text(paragraphs[label])}" for label in cited
        )
        markdown += f"\n\n_{sources}_"
    return text, markdown


def rule_descriptor(entry: Clause) -> dict[str, Any]:
    """A catalogue clause as a SARIF ``reportingDescriptor``."""
    from movecheck.catalogue import rule_url

    help_text, help_markdown = _help(entry)
    properties: dict[str, Any] = {"system": entry.system, "seeds": list(entry.seeds)}
    if entry.phase:
        properties["phase"] = entry.phase
    properties["tags"] = [entry.system] + ([entry.phase] if entry.phase else [])
    return {
        "id": entry.code,
        "name": entry.name,
        "shortDescription": {"text": _(entry.summary)},
        "fullDescription": {"text": _(entry.documentation())},
        "helpUri": rule_url(entry.code),
        "help": {"text": help_text, "markdown": help_markdown},
        "defaultConfiguration": {"level": entry.severity.value},
        "properties": properties,
    }


def fingerprint(finding: Finding, occurrence: int) -> str:
    """A hash of what the finding is, not where it is."""
    parts = [finding.code, portable_path(finding.file), finding.message, finding.order_id or "", str(occurrence)]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _artifact(path: str) -> dict[str, Any]:
    """The ``artifactLocation`` of a file."""
    uri, relative = artifact_uri(path)
    artifact: dict[str, Any] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = "%SRCROOT%"
    return artifact


def _result(finding: Finding, index: dict[str, int], occurrence: int) -> dict[str, Any]:
    artifact = _artifact(finding.file)
    clauses = f" ({', '.join(finding.clauses)})" if finding.clauses else ""
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": finding.severity.value,
        "message": {"text": f"{finding.message}{clauses}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact,
                    "region": {"startLine": finding.line, "startColumn": finding.column},
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT: fingerprint(finding, occurrence)},
    }
    if finding.code in index:
        result["ruleIndex"] = index[finding.code]
    if finding.fixes:
        result["fixes"] = [_fix(fix, artifact) for fix in finding.fixes]
    properties = {k: v for k, v in (("order", finding.order), ("order_id", finding.order_id)) if v is not None}
    if properties:
        result["properties"] = properties
    return result


def _fix(fix: Fix, artifact: dict[str, Any]) -> dict[str, Any]:
    """A finding's fix as a SARIF ``fix``: its title, and each edit a replacement of a region of the finding's file."""
    replacements = [
        {
            "deletedRegion": {"startLine": edit.line, "startColumn": edit.column,
                              "endLine": edit.end_line, "endColumn": edit.end_column},
            "insertedContent": {"text": edit.text},
        }
        for edit in fix.edits
    ]
    return {"description": {"text": fix.title},
            "artifactChanges": [{"artifactLocation": dict(artifact), "replacements": replacements}]}


def _notification(path: str, line: str) -> dict[str, Any]:
    """What changed a file's rules or selection (:mod:`movecheck.overrides`), as a configuration notification."""
    location = {"physicalLocation": {"artifactLocation": _artifact(path)}}
    return {"level": "note", "message": {"text": line}, "locations": [location]}


def sarif_log(report: Report, statistics: bool = False) -> dict[str, Any]:
    """The report as a SARIF log (a dict)."""
    from movecheck.catalogue import load_all

    load_all()
    clauses = CATALOGUE.all()
    index = {entry.code: i for i, entry in enumerate(clauses)}
    seen: dict[tuple[str, str, str, str], int] = {}
    results = []
    for finding in report.sorted_findings():
        key = (finding.code, portable_path(finding.file), finding.message, finding.order_id or "")
        seen[key] = seen.get(key, 0) + 1
        results.append(_result(finding, index, seen[key]))
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "movecheck",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [rule_descriptor(entry) for entry in clauses],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    notifications = [_notification(path, line) for path, line in override_lines(report)]
    if notifications:
        run["invocations"] = [{"executionSuccessful": True, "toolConfigurationNotifications": notifications}]
    if statistics:
        run["properties"] = {"statistics": report.statistics(), "summary": report.summary()}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def render(report: Report, *, color: bool = False, statistics: bool = False) -> str:
    """The SARIF log, indented, keys in a fixed order, ending with a newline."""
    return escape_json(json.dumps(sarif_log(report, statistics), indent=2, ensure_ascii=False)) + "\n"
