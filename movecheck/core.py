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
from dataclasses import dataclass, field
from typing import Any

from movecheck.findings import FileReport, Finding, Report, Severity
from movecheck.i18n import _
from movecheck.budget import check_environment
from movecheck.loading import Document, InputError, load_bytes, load_file, read_bytes
from movecheck.overrides import rule_overrides
from movecheck.systems import NAMES as SYSTEMS
from movecheck.systems import Prepared, RuleSettings, resolve_rules, system, system_of

FORMAT_VERSION = 1
STATE, ORDERS = "state", "orders"
"""The two kinds of file every system has (``aa-state``, ``maneuver-orders`` ...)."""


@dataclass
class Settings:
    """What the command line and the configuration files ask of a run.

    ``options`` holds the command line's rule options per system (``--option``);
    ``config`` is a :class:`movecheck.config.ConfigFinder` that finds each file's
    configuration (None: no configuration at all).  Rule systems read neither:
    :meth:`rules_for` resolves them, with the state's own, into the
    :class:`~movecheck.systems.RuleSettings` a system is handed.
    """

    state: str | None = None
    stdin_filename: str | None = None
    suggest: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    config: Any = None
    skip_foreign: bool = False
    root: str | None = None
    """``--root``: ``state:``/``map:`` paths that resolve outside it are refused.  None (a
    library caller's default) restricts nothing; the command line always sets one."""
    root_explicit: bool = False
    """``--root`` was given: it is the only root.  Otherwise (the default root, the current
    folder's repository or the current folder) a file named on the command line may also
    reach into its own repository, or its own folder when it is in none."""

    def reference_root(self) -> str | None:
        """The folder ``state:`` and ``map:`` paths must lie in, symlinks resolved (None: anywhere)."""
        return os.path.realpath(self.root) if self.root is not None else None

    def root_for(self, named: str) -> str | None:
        """The root for the paths that the file ``named`` (or a file it reached) names.

        The run's root; with the default root, a file that lies outside it brings its own:
        its repository's root, or its folder when it is in no repository (so that orders
        checked from elsewhere still reach the state beside them, and never beyond).
        """
        root = self.reference_root()
        if root is None or self.root_explicit or named in ("", "<stdin>") or not outside_root(named, root):
            return root
        from movecheck.config import repository_root

        folder = os.path.dirname(os.path.realpath(named))
        return os.path.realpath(repository_root(folder) or folder)

    def rules_for(self, state: "Loaded") -> RuleSettings:
        """The edition and options a state's rules run under (see :func:`~movecheck.systems.resolve_rules`)."""
        declared = system_of(str(state.kind))
        edition, configured = None, {}
        if self.config is not None:
            edition, configured = self.config.defaults_for(declared.name, state.doc.path)
        return resolve_rules(
            declared,
            state.doc.data,
            configured_edition=edition,
            configured=configured,
            command_line=self.options.get(declared.name, {}),
        )


class NothingToSuggest(InputError):
    """``check --suggest`` of orders whose system writes no suggestion: a usage error (exit 2, one line)."""


@dataclass
class Outcome:
    """What a rule system returns for one orders file."""

    findings: list[Finding] = field(default_factory=list)
    orders: int = 0
    checked: set[int] = field(default_factory=set)
    """The (1-based) orders on which every clause that applies ran."""
    reason: str | None = None
    """Why the rules did not run on the orders, when they did not."""
    readings: dict[str, Any] = field(default_factory=dict)
    required_ends: str = ""
    """``--suggest``: the end positions the rules require of the compulsory orders (YAML)."""
    assignment: list[dict[str, Any]] | None = None
    """The choice of units the rules used, per order (a system that leaves no choice open: None)."""
    final: Any = None
    """The model as the orders left it (``apply`` writes the next state from it; None: not carried out)."""
    hold: str | None = None
    """Why ``apply`` writes the next state only with ``--force`` although the orders are legal (one line)."""


def identify(doc: Document) -> str | None:
    """The file kind (``aa-orders``, ``maneuver-state``, ...) a document says it is."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    name = data.get("system")
    if name not in SYSTEMS:
        return None
    return f"{name}-{system(name).identify(data)}"


def is_kind(kind: str | None, which: str) -> bool:
    """Is ``kind`` (``aa-orders``) a file of kind ``which`` (:data:`ORDERS`, :data:`STATE`)?

    :data:`ORDERS` covers every kind its system checks against a state (aa battle results too).
    """
    if kind is None:
        return False
    name, _, own = kind.partition("-")
    if which == ORDERS and name in SYSTEMS:
        return own in system(name).orders_kinds
    return own == which


def _kind_problem(doc: Document) -> Finding:
    data = doc.data
    if not isinstance(data, dict):
        if data is None:
            return doc.finding("MC010", _("the file is empty, not a movecheck mapping with a 'system:' key"))
        shape = type(data).__name__.replace("dict", "mapping")
        return doc.finding("MC010", _("the file is a {shape}, not a movecheck mapping with a 'system:' key").format(shape=shape))
    if "system" not in data:
        return doc.finding("MC010", _("the file has no 'system:' key (aa or maneuver)"))
    return doc.finding(
        "MC010", _("the file's system: is not one of: {names}; its value is not shown").format(names=", ".join(SYSTEMS)), ("system",)
    )


def _unquoted(findings: list[Finding]) -> list[Finding]:
    """The reading findings of a file that does not parse and does not say it is a movecheck file, quoting nothing.

    A YAML error keeps its code and position, not its words (the parser's words may quote
    the text: a tag, a character, a value); a repeated key is not reported at all; the
    limits (MC008) and a second document (MC009) quote nothing already.
    """
    from dataclasses import replace

    message = _("YAML syntax: the file does not parse, and it does not say it is a movecheck file "
                "(no system: aa or system: maneuver), so nothing of it is shown")
    return [replace(f, message=message) if f.code == "MC001" else f for f in findings if f.code != "MC002"]


def version_problem(doc: Document) -> Finding | None:
    """MC007 when the file names a format version this release cannot read."""
    if not isinstance(doc.data, dict) or "movecheck" not in doc.data:
        return None
    version = doc.data["movecheck"]
    if version == FORMAT_VERSION and not isinstance(version, bool):
        return None
    return doc.finding(
        "MC007",
        _("format version {version} is not supported; this release reads movecheck: {supported}").format(
            version=repr(version), supported=FORMAT_VERSION
        ),
        ("movecheck",),
    )


def has_errors(findings: list[Finding]) -> bool:
    """True when any finding is an error."""
    return any(f.severity is Severity.ERROR for f in findings)


@dataclass
class Loaded:
    """A document, the kind it claims, and the findings its reading produced."""

    doc: Document
    kind: str | None
    findings: list[Finding]
    quotable: bool = True
    """False for a file not known to be a movecheck file: its findings quote nothing of it,
    and its text is not kept for the ``full`` report (see :func:`examine`)."""

    @property
    def usable(self) -> bool:
        """The rules can run on it: it parsed, its kind is known, its version readable."""
        return self.kind is not None and not self.doc.broken and not any(
            f.code in ("MC007", "MC010") for f in self.findings
        )


def read(path: str, display: str | None = None, suggest: bool = False) -> Loaded:
    """Load a file and run the checks every file gets: YAML, kind, version, schema."""
    doc = load_file(path, display)
    return examine(doc, suggest)


def examine(doc: Document, suggest: bool = False) -> Loaded:
    """The findings every file gets, before any rule system looks at it.

    A file that is not known to be a movecheck file (see :func:`recognised`: a mapping
    whose ``system:`` is one movecheck knows, or broken text holding such a key) may be
    anything a tree holds (a token, a key file linked in): it gets findings that say what
    is wrong without quoting any of it, and its text is kept out of the ``full`` report.
    ``suggest`` (``check --suggest``): an order may leave out what the suggestion writes.
    """
    findings = list(doc.findings)
    if doc.broken:
        loaded = Loaded(doc, None, findings)
        return loaded if recognised(loaded) else Loaded(doc, None, _unquoted(findings), quotable=False)
    kind = identify(doc)
    if kind is None:  # not (yet) a movecheck file: one finding, quoting nothing of it (its repeated keys neither)
        return Loaded(doc, None, [_kind_problem(doc)], quotable=False)
    problem = version_problem(doc)
    if problem is not None:
        findings.append(problem)
        return Loaded(doc, kind, findings)
    from movecheck.schema import validate

    optional = system_of(kind).suggest_fills if suggest and is_kind(kind, ORDERS) else ()
    findings.extend(validate(doc, kind, optional))
    return Loaded(doc, kind, findings)


def prepare(state: Loaded, settings: Settings) -> Prepared:
    """A state made ready for its system's rules (the caller caches it for the run).

    The document carries the run's root (``Document.root``), outside which the files
    it names are refused; its data is the file's, untouched.
    """
    from dataclasses import replace

    doc = replace(state.doc, root=settings.root_for(state.doc.path))
    rules = settings.rules_for(state)
    return system_of(state.kind).prepare_state(doc, rules, not has_errors(state.findings))


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

    def file(self, loaded: Loaded) -> None:
        """Add a file's reading findings (YAML, kind, version, schema) and its text, once."""
        key = (loaded.doc.path, loaded.doc.text)
        if loaded.quotable:
            self.report.sources[loaded.doc.path] = loaded.doc.text
        if key not in self.seen:
            self.seen.add(key)
            self._add(("file", *key), loaded.findings)

    def prepared(self, prepared: Prepared, path: str) -> None:
        """Add a prepared state's own findings and those of the files it read (its map)."""
        for referenced in prepared.referenced:
            self.file(referenced)
        self._add(("prepared", path), prepared.findings)


def looks_like_movecheck(text: str) -> bool:
    """A top-level ``movecheck:`` or ``system:`` key: the file means to be a movecheck file."""
    import re

    return re.search(r"^(?:\{\s*)?[\"']?(?:movecheck|system)[\"']?\s*:", text, re.M) is not None


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
            report.findings.extend(system_of(loaded.kind).lint_file(loaded.doc, loaded.kind, clean))
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
    from movecheck.config import load_config

    config = load_config(path)
    if config is None:  # pragma: no cover - only a pyproject.toml can be absent
        return
    report.files.append(FileReport(path=config.path, kind="config"))
    report.sources[config.path] = config.text
    if finder is not None:
        finder.for_file(config.path)  # discovery reads the configurations of its folder, whose findings the session reports
    if finder is None or all(read.path != config.path for read in finder.configs()):
        report.findings.extend(config.findings)


def check(
    paths: list[str], settings: Settings, outcomes: dict[str, tuple[Outcome, Prepared]] | None = None,
    shown: _Shown | None = None, several: bool = False,
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
    ready: dict[str, Prepared] = {}
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
        if settings.suggest and is_kind(loaded.kind, ORDERS) and not system_of(loaded.kind).suggest_fills:
            nothing = (_("--suggest has nothing to write for an {kind} file: {path}") if _a(loaded.kind).startswith("an ")
                       else _("--suggest has nothing to write for a {kind} file: {path}"))
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
                        a_kind=_a(loaded.kind), kind=loaded.kind
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
        outcome: Outcome = system_of(loaded.kind).check_orders(loaded.doc, prepared, valid_orders(loaded), settings)
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

    _YAML = re.compile(r"^state[ \t]*:[ \t]*(?:\"([^\"\\\n]*)\"|'([^'\n]*)'|([^\s#'\"{\[&*!|>][^#\n]*?))[ \t]*(?:#.*)?$", re.M)
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
        import stat

        try:
            if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
                return None  # a stream is read once, by the run itself
            text = read_bytes(path).decode("utf-8")
        except (InputError, UnicodeDecodeError, OSError):
            return None  # reported when the input itself is read
        found = {m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
                 for m in cls._YAML.finditer(text)}
        found |= {m.group(1) for m in cls._JSON.finditer(text)}
        if len(found) != 1:
            return None
        ref = found.pop()
        shown = _display(path, settings) or path
        return os.path.normpath(os.path.join(os.path.dirname(shown), ref)) if ref else None

    def forget(self, states: dict[str, Loaded], ready: dict[str, Prepared]) -> None:
        """Before the next input: drop the states that neither it nor any later input names."""
        at, self.at = self.at, self.at + 1
        if self.keep_all or at <= self.unsure:
            return
        for cache in (states, ready):
            for key in [k for k in cache if self.last.get(k, -1) < at]:
                del cache[key]


def _unreadable(report: Report, path: str, exc: InputError, several: bool, settings: Settings, judged: bool = True) -> None:
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
    items = loaded.doc.data.get(system_of(loaded.kind).orders_key_of(loaded.kind))
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
    expected = f"{system_of(orders.kind).name}-{STATE}"
    if state.usable and state.kind != expected:
        report.findings.append(
            doc.finding(
                "MC011",
                _("the state {path} is {a_kind} file, not {a_expected}").format(
                    path=state.doc.path, a_kind=_a(state.kind), a_expected=_a(expected), kind=state.kind, expected=expected
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
            "MC011", _("state: {path} does not exist (a file name cannot hold a NUL character)").format(path=repr(path)), ("state",)
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


# -- files named inside files -----------------------------------------------------------------


def read_reference(path: str, display: str | None = None) -> Loaded:
    """Load a file named inside another (``state:``, ``map:``): a regular file, size-bounded.

    InputError when it is not a regular file (a FIFO, a device, ``/dev/stdin``, a
    symlink to one) or cannot be read; it is never waited on.
    """
    from movecheck.loading import load_bytes, read_regular

    return examine(load_bytes(read_regular(path), display or path))


_SYSTEM_KEY = re.compile(
    r"""(?:^|[{,])[ \t]*["']?system["']?[ \t]*:[ \t]*["']?(?:%s)\b""" % "|".join(map(re.escape, SYSTEMS)), re.M
)


def recognised(loaded: Loaded) -> bool:
    """Is this a movecheck file: a mapping with ``system: aa`` or ``system: maneuver``?

    A file that does not parse counts when it holds a ``system: aa`` (or maneuver) key
    (at the start of a line, or after ``{`` or ``,`` as in one-line JSON), or when it was
    over the size limit (that finding quotes nothing).  The
    findings and lines of a file reached through ``state:`` or ``map:`` are reported only
    when it is recognised: an orders file must not make movecheck print another file.
    """
    doc = loaded.doc
    if doc.broken:
        return not doc.text or _SYSTEM_KEY.search(doc.text) is not None
    return isinstance(doc.data, dict) and doc.data.get("system") in SYSTEMS


def unrecognised_message(key: str, path: str) -> str:
    """The finding for a file ``key:`` names that is not a movecheck file; it quotes none of it."""
    return _("{key}: {path} is not a movecheck {key} file (no system: aa or system: maneuver); its content is not shown").format(
        key=key, path=path
    )


def outside_root(path: str, root: str) -> bool:
    """Does ``path``, symlinks resolved, lie outside the folder ``root`` (itself resolved)?"""
    real = os.path.realpath(path)
    try:
        return os.path.commonpath([real, root]) != root
    except ValueError:  # another drive (Windows)
        return True


def outside_message(key: str, ref: str, root: str) -> str:
    """The finding for a ``key:`` path that resolves outside the root (symlinks followed).

    The real path is not shown: ``/proc/self`` would make the output depend on the process id.
    """
    return _("{key}: {ref} resolves outside the root {root} (see --root)").format(key=key, ref=ref, root=root)
