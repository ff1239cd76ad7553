"""The work behind ``check`` and ``lint``: load, identify, validate, hand over to a rule system.

Both rule systems plug in through the interface of :mod:`movecheck.systems`: each
state is prepared once per run (its findings reported once), with the edition and
options resolved here from the state, the command line and the configuration;
each orders file is checked against a fresh copy of its prepared state.  A system
is imported only when a file of it is read.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from typing import Any

from movecheck.budget import check_environment
from movecheck.document import Document
from movecheck.files import (
    Loaded,
    examine,
    is_kind,
    looks_like_movecheck,
    outside_message,
    outside_root,
    read,
    read_reference,
    recognised,
    unrecognised_message,
)
from movecheck.findings import FileReport, Finding, Report
from movecheck.i18n import _
from movecheck.loading import load_bytes
from movecheck.overrides import rule_overrides
from movecheck.reading import InputError, read_bytes
from movecheck.settings import Settings
from movecheck.systems import ORDERS, STATE, Outcome, Prepared, Read, RunContext, has_errors, system_of

# what callers of the run (tests, the commands) import from here
__all__ = ["check", "lint", "prepare", "run_context", "valid_orders"]


class NothingToSuggest(InputError):
    """``check --suggest`` of orders whose system writes no suggestion: a usage error (exit 2, one line)."""


def prepare(state: Loaded, settings: Settings) -> Prepared[object]:
    """A state made ready for its system's rules (the caller caches it for the run).

    The document carries the run's root (``Document.root``), outside which the files
    it names are refused; its data is the file's, untouched.
    """

    doc = replace(state.doc, root=settings.root_for(state.doc.path))
    rules = settings.rules_for(state)
    return system_of(state.known_kind).prepare_state(doc, rules, not has_errors(state.findings))


def run_context(settings: Settings) -> RunContext:
    """What a system may read of the run: ``--suggest`` and a caller's observer of each order (``render``)."""
    observe = settings.extra.get("observe")
    return RunContext(suggest=settings.suggest, observe=observe if callable(observe) else None)


def valid_orders(loaded: Loaded) -> set[int]:
    """The (1-based) orders of an orders file the schema found nothing wrong with."""
    broken = {f.order for f in loaded.findings if f.code == "MC003" and f.order is not None}
    return set(range(1, len(_orders_list(loaded)) + 1)) - broken


class _Shown:
    """What a report holds of the files a run read: each file's own findings once.

    A file can reach a run more than once: a state named by several orders files, a
    map file named by several states, a file given as input and named inside another.
    Its findings are added the first time; a file counts as the same when it has the
    same shown path and the same text (so the same findings).
    """

    def __init__(self, report: Report) -> None:
        self.report = report
        self.seen: set[tuple[str, str]] = set()
        self.spans: list[tuple[Any, int, int]] = []
        """(key, start, end): the findings added once per key (``--jobs`` merges the parts of a run by it)."""

    def _add(self, key: Any, findings: list[Finding]) -> None:
        start = len(self.report.findings)
        self.report.findings.extend(findings)
        self.spans.append((key, start, len(self.report.findings)))

    def file(self, loaded: Read) -> None:
        """Add a file's reading findings (YAML, kind, version, schema) and its text, once."""
        key = (loaded.doc.path, loaded.doc.text)
        if loaded.quotable:
            self.report.sources[loaded.doc.path] = loaded.doc.text
        if key not in self.seen:
            self.seen.add(key)
            self._add(("file", *key), loaded.findings)

    def prepared(self, prepared: Prepared[object], path: str) -> None:
        """Add a prepared state's own findings and those of the files it read (its map)."""
        for referenced in prepared.referenced:
            self.file(referenced)
        self._add(("prepared", path), prepared.findings)


def lint(paths: list[str], settings: Settings, shown: _Shown | None = None, several: bool = False) -> Report:
    """``movecheck lint``: every file's schema and consistency checks.

    ``shown`` and ``several`` are for a part of a ``--jobs`` run: what the part added
    once per file, and that the run has more inputs than the part.
    """
    report = shown.report if shown is not None else Report()
    shown = shown or _Shown(report)
    inputs = unique_paths(paths)
    several = several or len(inputs) > 1
    for path in inputs:
        if os.path.basename(path) == ".movecheck.yaml":
            _lint_config(path, report, settings.config)
            continue
        try:
            loaded = _read_unless_foreign(path, _display(path, settings), settings.skip_foreign)
        except InputError as exc:
            _unreadable(report, path, exc, several, settings, judged=False)
            continue
        if loaded is None:
            continue
        entry = FileReport(path=loaded.doc.path, kind=loaded.kind or "unknown", judged=False)
        if loaded.usable and is_kind(loaded.kind, ORDERS):
            entry.orders = len(_orders_list(loaded))  # findings name orders: count them
        report.files.append(entry)
        shown.file(loaded)
        if not loaded.usable:
            continue
        if is_kind(loaded.kind, STATE):
            prepared = prepare(loaded, settings)
            entry.overrides = rule_overrides(str(loaded.kind), prepared, settings.config)
            shown.prepared(prepared, loaded.doc.path)
        else:
            clean = not has_errors(loaded.findings)
            report.findings.extend(system_of(loaded.known_kind).lint_file(loaded.doc, loaded.known_kind, clean))
    return report


def _read_unless_foreign(path: str, display: str | None, skip_foreign: bool) -> Loaded | None:
    """:func:`read`, or None for a foreign file under ``--skip-foreign``, told from the raw text
    before any YAML is built (a foreign file can be big or hostile)."""
    if not skip_foreign:
        return read(path, display)
    is_stdin = path == "-"
    raw = read_bytes(path, stdin=is_stdin)
    if not looks_like_movecheck(raw.decode("utf-8", errors="replace").lstrip("\ufeff")):
        return None
    return examine(load_bytes(raw, display or ("<stdin>" if is_stdin else path)))


def _lint_config(path: str, report: Report, finder: Any) -> None:
    """``movecheck lint .movecheck.yaml``: the configuration file's own findings.

    When the run has read the file as a configuration too (discovery, ``--config``),
    the session reports its findings as the run's configuration (``Session.select``),
    so they are not added here a second time.
    """
    from movecheck.config_files import load_config

    config = load_config(path)
    if config is None:  # pragma: no cover - only a pyproject.toml can be absent
        return
    report.files.append(FileReport(path=config.path, kind="config"))
    report.sources[config.path] = config.text
    if finder is not None:
        finder.for_file(
            config.path
        )  # discovery reads the configurations of its folder, whose findings the session reports
    if finder is None or all(read.path != config.path for read in finder.configs()):
        report.findings.extend(config.findings)


def check(
    paths: list[str],
    settings: Settings,
    outcomes: dict[str, tuple[Outcome[object], Prepared[object]]] | None = None,
    shown: _Shown | None = None,
    several: bool = False,
) -> tuple[Report, list[str]]:
    """``movecheck check``: orders against their state; returns the report and any ``--suggest`` text.

    ``outcomes`` (``apply``) receives each orders file's outcome and its prepared state, by path.
    ``shown`` and ``several``: as for :func:`lint`.

    Each state is read and prepared once, however many orders files name it; each
    orders file is checked against a fresh copy of it.
    """
    check_environment()  # a budget variable that is no plain number: a usage error before any file is read
    report = shown.report if shown is not None else Report()
    shown = shown or _Shown(report)
    required_ends: list[str] = []
    states: dict[str, Loaded] = {}
    ready: dict[str, Prepared[object]] = {}
    shown_prepared: set[str] = set()
    inputs = unique_paths(paths)
    several = several or len(inputs) > 1
    later = _StateUses(inputs, settings)
    for path in inputs:
        later.forget(states, ready)
        try:
            loaded = read(path, _display(path, settings), settings.suggest)
        except InputError as exc:
            _unreadable(report, path, exc, several, settings)
            continue
        if settings.suggest and is_kind(loaded.kind, ORDERS) and not system_of(loaded.known_kind).suggest_fills:
            nothing = (
                _("--suggest has nothing to write for an {kind} file: {path}")
                if _a(loaded.known_kind).startswith("an ")
                else _("--suggest has nothing to write for a {kind} file: {path}")
            )
            raise NothingToSuggest(nothing.format(kind=loaded.kind, path=loaded.doc.path))
        entry = FileReport(path=loaded.doc.path, kind=loaded.kind or "unknown")
        report.files.append(entry)
        shown.file(loaded)
        if not loaded.usable:
            continue
        if not is_kind(loaded.kind, ORDERS):
            report.findings.append(
                loaded.doc.finding(
                    "MC010",
                    _("'check' takes orders files; this is {a_kind} file (use 'movecheck lint' for it)").format(
                        a_kind=_a(loaded.known_kind), kind=loaded.kind
                    ),
                )
            )
            continue
        entry.orders = len(_orders_list(loaded))
        entry.reason = _("the orders name no usable state")
        state = _state_for(loaded, settings, states, shown)
        if state is None:
            continue
        entry.state = state.doc.path
        if not state.usable:
            entry.reason = _("the state could not be read")
            continue
        if has_errors(state.findings):
            entry.reason = _("the state has errors")
            continue
        if state.doc.path not in ready:
            ready[state.doc.path] = prepare(state, settings)
            if state.doc.path not in shown_prepared:  # prepared again after it was forgotten: reported once
                shown_prepared.add(state.doc.path)
                shown.prepared(ready[state.doc.path], state.doc.path)
        prepared = ready[state.doc.path]
        entry.overrides = rule_overrides(str(state.kind), prepared, settings.config)
        if prepared.model is None:
            entry.reason = prepared.reason or _("the state has errors")
            continue
        declared = system_of(loaded.known_kind)
        declared.load_clauses()  # every clause that applies is registered before any order is judged
        outcome = declared.check_orders(loaded.doc, prepared, valid_orders(loaded), run_context(settings))
        report.findings.extend(outcome.findings)
        if outcomes is not None:
            outcomes[loaded.doc.path] = (outcome, prepared)
        entry.orders = outcome.orders
        entry.checked = outcome.checked
        entry.reason = outcome.reason
        entry.assignment = outcome.assignment
        if outcome.readings:
            report.readings.update(outcome.readings)
        if outcome.required_ends:
            required_ends.append(outcome.required_ends)
    return report, required_ends


class _StateUses:
    """Which state files the inputs still to come name, so that a run keeps only those.

    A batch of games names a state per game: keeping every prepared state to the end
    of the run costs memory for nothing.  Before the run each input's raw text is
    looked at for a plain ``state: NAME`` (a YAML line or a JSON member); an input
    whose reference cannot be told that way may name any state, so nothing read
    before it is forgotten until it has been checked.  The look is only a hint: a
    state forgotten and named again is read and prepared again (its findings are
    reported once), so the report is the same either way.
    """

    _YAML = re.compile(
        r"^state[ \t]*:[ \t]*(?:\"([^\"\\\n]*)\"|'([^'\n]*)'|([^\s#'\"{\[&*!|>][^#\n]*?))[ \t]*(?:#.*)?$", re.M
    )
    _JSON = re.compile(r'"state"\s*:\s*"([^"\\]*)"')

    def __init__(self, inputs: list[str], settings: Settings) -> None:
        names = [] if settings.state else [self._named(p, settings) for p in inputs]
        self.last = {name: i for i, name in enumerate(names) if name is not None}  # the last input naming it
        self.unsure = max((i for i, name in enumerate(names) if name is None), default=-1)
        self.keep_all = not names
        self.at = 0

    @classmethod
    def _named(cls, path: str, settings: Settings) -> str | None:
        """The state file an input names, when its raw text tells it plainly; None when unsure."""

        try:
            if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
                return None  # a stream is read once, by the run itself
            text = read_bytes(path).decode("utf-8")
        except (InputError, UnicodeDecodeError, OSError):
            return None  # reported when the input itself is read
        found = {
            m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            for m in cls._YAML.finditer(text)
        }
        found |= {m.group(1) for m in cls._JSON.finditer(text)}
        if len(found) != 1:
            return None
        ref = found.pop()
        shown = _display(path, settings) or path
        return os.path.normpath(os.path.join(os.path.dirname(shown), ref)) if ref else None

    def forget(self, states: dict[str, Loaded], ready: dict[str, Prepared[object]]) -> None:
        """Before the next input: drop the states that neither it nor any later input names."""
        at, self.at = self.at, self.at + 1
        if self.keep_all or at <= self.unsure:
            return
        for cache in (states, ready):
            for key in [k for k in cache if self.last.get(k, -1) < at]:
                del cache[key]


def _unreadable(
    report: Report, path: str, exc: InputError, several: bool, settings: Settings, judged: bool = True
) -> None:
    """An input that cannot be read at all: alone, the run stops (exit 2, one stderr line);
    one of several, it is reported as such (``FileReport.error``) and the others are read."""
    if not several:
        raise exc
    shown = _display(path, settings) or ("<stdin>" if path == "-" else path)
    report.files.append(FileReport(path=shown, kind="unknown", judged=judged, error=str(exc)))


def unique_paths(paths: list[str]) -> list[str]:
    """The paths in command-line order, each file once (the same file named twice is read once)."""
    seen: set[Any] = set()
    kept = []
    for path in paths:
        try:
            info = os.stat(path) if path != "-" else None
        except (OSError, ValueError):
            info = None
        key = (info.st_dev, info.st_ino) if info is not None else ("path", path)
        if key not in seen:
            seen.add(key)
            kept.append(path)
    return kept


def _orders_list(loaded: Loaded) -> list[Any]:
    items = loaded.doc.data.get(system_of(loaded.known_kind).orders_key_of(loaded.known_kind))
    return items if isinstance(items, list) else []


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _display(path: str, settings: Settings) -> str | None:
    if path == "-" and settings.stdin_filename:
        return settings.stdin_filename
    return None


def _state_for(orders: Loaded, settings: Settings, cache: dict[str, Loaded], shown: _Shown) -> Loaded | None:
    """Load (once) the state the orders apply to: ``--state`` or the orders' ``state:`` key."""
    doc = orders.doc
    report = shown.report
    if settings.state:
        path, display = settings.state, settings.state
    else:
        ref = doc.data.get("state")
        if not isinstance(ref, str) or not ref:
            report.findings.append(
                doc.finding("MC011", _("the orders name no state: add 'state: <file>' or pass --state"))
            )
            return None
        # relative to the orders file's folder; for stdin, to that of --stdin-filename (else the current folder)
        base = os.path.dirname(doc.path) if doc.path != "<stdin>" else ""
        path = os.path.normpath(os.path.join(base, ref))
        display = path
        problem = _state_reference_problem(doc, path, ref, settings.root_for(doc.path))
        if problem is not None:
            report.findings.append(problem)
            return None
    if path not in cache:
        try:
            cache[path] = read(path, display) if settings.state else read_reference(path, display)
        except InputError as exc:
            if settings.state:
                raise
            report.findings.append(doc.finding("MC011", _("state file {problem}").format(problem=exc), ("state",)))
            return None
        if settings.state or recognised(cache[path]):
            shown.file(cache[path])
    state = cache[path]
    if not settings.state and not recognised(state):
        report.findings.append(doc.finding("MC011", unrecognised_message("state", path), ("state",)))
        return None
    expected = f"{system_of(orders.known_kind).name}-{STATE}"
    if state.usable and state.kind != expected:
        report.findings.append(
            doc.finding(
                "MC011",
                _("the state {path} is {a_kind} file, not {a_expected}").format(
                    path=state.doc.path,
                    a_kind=_a(state.known_kind),
                    a_expected=_a(expected),
                    kind=state.kind,
                    expected=expected,
                ),
                ("state",),
            )
        )
        return None
    return state


def _state_reference_problem(doc: Document, path: str, ref: str, root: str | None) -> Finding | None:
    """MC011 when ``state:`` points outside the root, at the orders file itself, a folder or nothing."""
    if "\0" in path:  # no file has such a name (and os.path.samefile raises ValueError on it)
        return doc.finding(
            "MC011",
            _("state: {path} does not exist (a file name cannot hold a NUL character)").format(path=repr(path)),
            ("state",),
        )
    if root is not None and outside_root(path, root):
        return doc.finding("MC011", outside_message("state", ref, root), ("state",))
    try:
        if doc.path not in ("<stdin>",) and os.path.exists(doc.path) and os.path.samefile(path, doc.path):
            return doc.finding("MC011", _("state: {path} is this orders file itself").format(path=path), ("state",))
    except (OSError, ValueError):
        pass
    if os.path.isdir(path):
        return doc.finding("MC011", _("state: {path} is a directory, not a state file").format(path=path), ("state",))
    if not os.path.exists(path):
        return doc.finding("MC011", _("state: {path} does not exist").format(path=path), ("state",))
    return None
