"""``movecheck summary``: check the files of a turn as ``check`` does and write one post.

Orders files of every kind their system checks against a state (aa orders and battle
results, manoeuvre orders, and any kind a system adds) go through
:func:`movecheck.core.check` in one run; a state given alone is prepared and
summarised as a board.  The findings come first: the files with illegal or
unchecked orders, each finding with its code; then each file's own sections, worded
by its system (:meth:`movecheck.systems.System.summary`), which tells as done only what
was legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from movecheck.clauses import Severity
from movecheck.findings import FileReport, Finding, Report, Verdict
from movecheck.i18n import _, ngettext
from movecheck.summary import Checked, Post, Section


def summarize(paths: list[str], settings: Any, select: Callable[[Report], Report] | None = None,
              extras: frozenset[str] = frozenset()) -> tuple[Post, int]:
    """The post of the files ``paths`` and the exit code (1: an error finding or an unchecked order);
    ``extras``: what the post is asked to add (each file's system gives it)."""
    from movecheck.core import check, prepare, unique_paths
    from movecheck.files import is_kind, read
    from movecheck.systems import ORDERS, STATE, system_of

    select = select or (lambda report: report)
    inputs = unique_paths(paths)
    kinds: dict[str, Any] = {}
    for path in inputs:
        kinds[path] = read(path)
    orders = [path for path in inputs if is_kind(kinds[path].kind, ORDERS)]
    outcomes: dict[str, Any] = {}
    report, _ends = check(orders, settings, outcomes) if orders else (Report(), [])
    by_path = {entry.path: entry for entry in report.files}
    items: list[Checked] = []
    for path in inputs:
        loaded = kinds[path]
        if is_kind(loaded.kind, ORDERS):
            continue
        entry = FileReport(path=loaded.doc.path, kind=loaded.kind or "unknown")
        report.files.append(entry)
        report.findings.extend(loaded.findings)
        clean = not any(f.severity is Severity.ERROR for f in loaded.findings)
        if loaded.usable and is_kind(loaded.kind, STATE) and clean:
            prepared = prepare(loaded, settings)
            report.findings.extend(prepared.findings)
            if prepared.model is not None:
                items.append(Checked(loaded.doc.path, str(loaded.kind), loaded.doc, prepared, legal=True))
        elif loaded.usable and not is_kind(loaded.kind, STATE):
            report.findings.append(loaded.doc.finding(
                "MC010",
                _("'summary' takes orders, battle results and states; this file is of kind {kind}").format(
                    kind=loaded.kind)))
    report = select(report)
    findings = report.sorted_findings()
    for path in orders:
        loaded = kinds[path]
        found = by_path.get(loaded.doc.path)
        if found is None or loaded.doc.path not in outcomes:
            continue
        outcome, prepared = outcomes[loaded.doc.path]
        verdicts = {n: v for n, (v, _reason) in found.verdicts(report.findings).items()}
        own = [f for f in findings if f.file == found.path]
        legal = (outcome.reason is None and all(v is Verdict.LEGAL for v in verdicts.values())
                 and not any(f.severity is Severity.ERROR for f in own))
        items.append(Checked(found.path, str(loaded.kind), loaded.doc, prepared, outcome, verdicts, own, legal,
                             extras))
    order = {path: k for k, path in enumerate(kinds[p].doc.path for p in inputs)}
    items.sort(key=lambda item: (system_of(item.kind).summary_order(item), order.get(item.path, len(order))))
    post = Post(_title(items))
    post.files = [_file_facts(entry, report) for entry in report.files]
    problems = _findings_section(report, findings)
    if problems is not None:
        post.sections.append(problems)
    for item in items:
        post.sections.extend(system_of(item.kind).summary(item))
    return post, report.exit_code()


def _title(items: list[Checked]) -> str:
    from movecheck.systems import system_of

    titles = list(dict.fromkeys(system_of(item.kind).summary_title(item) for item in items))
    return "; ".join(title for title in titles if title) or _("Turn summary")


def _file_facts(entry: Any, report: Report) -> dict[str, Any]:
    counts = entry.counts(report.findings)
    return {"path": entry.path, "kind": entry.kind, "orders": entry.orders, "legal": counts["legal"],
            "illegal": counts["illegal"], "unchecked": counts["unchecked"]}


def finding_line(finding: Finding) -> str:
    """``line 12: AA101 [error] message (order karelia-blitz)``, the finding as the post lists it."""
    where = _("line {line}").format(line=finding.line)
    order = ""
    if finding.order is not None:
        order = " " + (_("(order {n}: {id})").format(n=finding.order, id=finding.order_id) if finding.order_id
                       else _("(order {n})").format(n=finding.order))
    return f"{where}: {finding.code} [{_(finding.severity.value)}] {finding.message}{order}"


def _findings_section(report: Report, findings: list[Finding]) -> Section | None:
    """The files with illegal or unchecked orders or error findings first, then those with warnings only."""
    entries = []
    for entry in report.files:
        counts = entry.counts(report.findings)
        own = [f for f in findings if f.file == entry.path]
        refused = counts["illegal"] + counts["unchecked"]
        if own or refused:
            errors = refused or any(f.severity is Severity.ERROR for f in own)
            entries.append((0 if errors else 1, entry, counts, own))
    others = [f for f in findings if f.file not in {entry.path for entry in report.files}]
    if not entries and not others:
        return None
    section = Section(_("Findings: not done, or to look at"), "findings")
    facts: list[dict[str, Any]] = []
    for rank, entry, counts, own in sorted(entries, key=lambda e: e[0]):
        if rank == 0:
            head = _("{path}: NOT DONE, {illegal} illegal and {unchecked} unchecked of {orders} orders").format(
                path=entry.path, illegal=counts["illegal"], unchecked=counts["unchecked"], orders=entry.orders)
            if entry.reason and counts["unchecked"]:
                head += " (" + entry.reason + ")"
        else:
            head = ngettext("{path}: done, {n} finding to look at", "{path}: done, {n} findings to look at",
                            len(own)).format(path=entry.path, n=len(own))
        section.paragraph(head)
        section.items([finding_line(f) for f in own])
        facts.append({"path": entry.path, "done": rank == 1, "illegal": counts["illegal"],
                      "unchecked": counts["unchecked"],
                      "findings": [f.to_json() for f in own]})
    if others:
        section.items([f"{f.file}: {finding_line(f)}" for f in others])
        facts.append({"path": "", "done": False, "illegal": 0, "unchecked": 0,
                      "findings": [f.to_json() for f in others]})
    section.facts = {"files": facts}
    return section
