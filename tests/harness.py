"""The one harness of the clause tests, for every rule system: documents in memory, checked in-process.

* ``check_texts(state, orders)`` (``check_report``: with the report and the outcome) checks
  an orders document against a state document: each is YAML text or a mapping (dumped in
  block style), read from memory (nothing is written to disk) as ``state.yaml`` and
  ``orders.yaml``; ``lint_text(document, folder)`` lints one (written to disk: a lint
  follows what the file names).  The findings are a run's, in
  report order.
* ``codes(findings)`` are their codes in report order (by file, position, code), and
  ``errors(findings)`` those of the errors only; ``only(findings, code)`` the findings of one
  code.  A test that means "these codes, in any order" sorts them itself.

A file the documents name (an aa map file given by path) is read from disk as a run
would read it.  The run is the kernel's own (``movecheck.core``): reading, the schema,
the state prepared by its system, then the system's check of the orders.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from movecheck.clauses import Severity
from movecheck.core import lint, prepare, run_context, valid_orders
from movecheck.files import examine, is_kind
from movecheck.findings import FileReport, Finding, Report
from movecheck.loading import load_bytes
from movecheck.settings import Settings
from movecheck.systems import ORDERS, Outcome, has_errors, system_of

Text = str | Mapping[str, Any]


try:  # libyaml's parser and emitter when PyYAML was built with them: the same documents, several times faster
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - a PyYAML without libyaml
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


def yaml_data(text: str | bytes) -> Any:
    """``yaml.safe_load(text)`` for a test's own reading of YAML (what a run wrote, an input it builds on)."""
    return yaml.load(text, Loader=_Loader)  # the safe loader (libyaml's)


def yaml_text(data: Any, **options: Any) -> str:
    """``yaml.safe_dump(data, **options)`` for the documents tests write (with ``allow_unicode=True`` the same
    text as PyYAML's own emitter gives; without it non-ASCII text may be escaped differently, the data the same)."""
    return str(yaml.dump(data, Dumper=_Dumper, **options))


def dump(data: Any) -> str:
    """A mapping as block-style YAML (one key per line), in the order given."""
    return yaml_text(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)


def _text(document: Text) -> str:
    return document if isinstance(document, str) else dump(dict(document))


def _read(document: Text, name: str, suggest: bool = False) -> Any:
    """A document read from memory, with the findings every file gets (YAML, kind, version, schema)."""
    return examine(load_bytes(_text(document).encode("utf-8"), name), suggest)


def check_texts(state: Text, orders: Text, settings: Settings | None = None, *,
                folder: Path | str | None = None) -> list[Finding]:
    """Check ``orders`` against ``state`` (the state given, whatever the orders' ``state:`` says): the sorted findings.

    ``folder``: where the documents are taken to stand (files they name are found from there).
    """
    return check_report(state, orders, settings, folder=folder)[0].sorted_findings()


def check_report(state: Text, orders: Text, settings: Settings | None = None, *,
                 folder: Path | str | None = None) -> tuple[Report, Outcome | None]:
    """:func:`check_texts` with the whole report (its one file's verdicts) and the system's
    outcome (None when the orders were not checked)."""
    settings = settings or Settings()
    where = Path(folder) if folder is not None else Path()
    loaded_state = _read(state, str(where / "state.yaml"))
    loaded_orders = _read(orders, str(where / "orders.yaml"), settings.suggest)
    report = Report()
    entry = FileReport(path=loaded_orders.doc.path, kind=loaded_orders.kind or "unknown", state=loaded_state.doc.path)
    report.files.append(entry)
    report.findings.extend(loaded_orders.findings)
    report.findings.extend(loaded_state.findings)
    if not (loaded_orders.usable and is_kind(loaded_orders.kind, ORDERS)):
        return report, None
    entry.reason = "the state could not be read" if not loaded_state.usable else "the state has errors"
    if not loaded_state.usable or has_errors(loaded_state.findings):
        return report, None
    prepared = prepare(loaded_state, settings)
    for referenced in prepared.referenced:
        report.findings.extend(referenced.findings)
    report.findings.extend(prepared.findings)
    if prepared.model is None:
        return report, None
    system = system_of(loaded_orders.kind)
    outcome: Outcome = system.check_orders(loaded_orders.doc, prepared, valid_orders(loaded_orders),
                                           run_context(settings))
    report.findings.extend(outcome.findings)
    entry.orders, entry.checked, entry.reason = outcome.orders, outcome.checked, outcome.reason
    entry.assignment = outcome.assignment
    report.readings.update(outcome.readings or {})
    return report, outcome


def lint_text(document: Text, folder: Path | str, name: str = "file.yaml") -> list[Finding]:
    """Lint one document: the sorted findings.

    Linting follows what a file names (its map, its state), so the document is written as
    ``folder``/``name`` (each call in a folder of its own under ``folder``).
    """
    path = Path(folder) / f"lint{next(_counter)}" / name
    path.parent.mkdir(parents=True)
    path.write_text(_text(document), encoding="utf-8")
    return lint_paths([path])


_counter = itertools.count()


def lint_paths(paths: Iterable[Path | str]) -> list[Finding]:
    """Lint files on disk: the sorted findings."""
    return lint([str(p) for p in paths], Settings()).sorted_findings()


def codes(findings: Iterable[Finding], severity: str | None = None) -> list[str]:
    """The codes of the findings (of one severity: ``error``, ``warning``, ``note``), in report order."""
    return [f.code for f in findings if severity is None or f.severity.value == severity]


def errors(findings: Iterable[Finding]) -> list[str]:
    """The codes of the error findings, in report order."""
    return [f.code for f in findings if f.severity is Severity.ERROR]


def only(findings: Iterable[Finding], code: str) -> list[Finding]:
    """The findings of one code."""
    return [f for f in findings if f.code == code]


__all__ = ["check_report", "check_texts", "codes", "dump", "errors", "lint_paths", "lint_text", "only"]
