"""What changed the rules or the selection of a checked file, and where each change came from.

A referee checks files that players sent, and a received tree may hold a
configuration (a ``.movecheck.yaml`` beside the states or the orders) or a state with
``options:`` of its own.  None of them may change a verdict unseen: for each file the
report names (:class:`Overrides`, the text report's lines after the file's
``checked against`` line, the JSON report's ``files[].overrides``)

* each rule option whose value differs from the value of the edition the state is
  checked under, with the value and where it came from: the state file, ``--option``
  or which configuration file (that of the state: it is the state's rules);
* the edition, when a configuration's ``aa.rules`` chose it and the state would
  otherwise be checked under another one;
* the selection keys of the file's own configuration (``select``, ``ignore``, the
  ``per-file-ignores`` whose glob matches the file), each applied or not: ``--select``
  on the command line sets ``select`` and ``ignore`` aside, ``--select ALL`` also the
  per-file ignores.

A setting equal to the edition's value, or set aside by a stronger one (the state's
own ``options`` over ``--option`` over the configuration), changed nothing and is not
listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from movecheck.i18n import _
from movecheck.records import dataclass_on_first_use

COMMAND_LINE = "--option"
"""How the text report names the command line as the source of an option."""
_SOURCE_ORDER = ("configuration", "map", "state", "command line")
"""The order of the text report's lines: configuration files first (a received tree's), then the
map file the state names, then the state file, then ``--option``."""


@dataclass_on_first_use(frozen=True)
class OptionOverride:
    """A rule option that differs from its edition's value, and its source."""

    system: str
    name: str
    value: Any
    edition_value: Any
    source: str
    """``state``, ``command line`` or ``configuration`` (:class:`~movecheck.systems.RuleSettings`),
    or a layer of the system's own (aa: ``map``, a map file's ``options:``)."""
    file: str | None
    """The state file, map file or configuration file that set it (None: ``--option``)."""

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "name": self.name, "value": self.value, "edition_value": self.edition_value,
                "source": self.source, "file": self.file}


@dataclass_on_first_use(frozen=True)
class EditionOverride:
    """The edition a configuration's ``rules`` chose, instead of the state's map's (or the default)."""

    system: str
    name: str
    instead_of: str | None
    config: str

    def to_json(self) -> dict[str, Any]:
        return {"system": self.system, "name": self.name, "instead_of": self.instead_of, "config": self.config}


@dataclass_on_first_use(frozen=True)
class SelectionOverride:
    """A ``select``, ``ignore`` or per-file ignore of the file's configuration."""

    config: str
    key: str
    """``select``, ``ignore`` or ``per-file-ignores``."""
    codes: tuple[str, ...]
    pattern: str | None = None
    """The glob of a per-file ignore."""
    applied: bool = True
    """False: the command line's ``--select`` set it aside."""
    every: bool = False
    """The command line selects ``ALL`` (the text report says so when it set this aside)."""

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config, "key": self.key, "codes": list(self.codes), "pattern": self.pattern,
                "applied": self.applied}


@dataclass(frozen=True)
class Overrides:
    """Everything that changed a file's rules or selection (empty: the edition's rules, every code)."""

    edition: EditionOverride | None = None
    options: tuple[OptionOverride, ...] = ()
    selection: tuple[SelectionOverride, ...] = field(default=())

    def __bool__(self) -> bool:
        return self.edition is not None or bool(self.options) or bool(self.selection)

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition.to_json() if self.edition is not None else None,
            "options": [o.to_json() for o in self.options],
            "selection": [s.to_json() for s in self.selection],
        }

    def lines(self, path: str) -> list[str]:
        """``orders/g1.yaml: .movecheck.yaml sets aa.neutrals_impassable=false; ignores AA2``, one per source.

        Configuration files come first, then the state file, then ``--option``.
        """
        rank: dict[str, int] = {}
        assigned: dict[str, list[str]] = {}
        selected: dict[str, list[str]] = {}
        if self.edition is not None:
            rank.setdefault(self.edition.config, 0)
            assigned.setdefault(self.edition.config, []).append(f"{self.edition.system}.rules={self.edition.name}")
        for option in self.options:
            source = option.file if option.file is not None else COMMAND_LINE
            rank.setdefault(source, _SOURCE_ORDER.index(option.source))
            assigned.setdefault(source, []).append(f"{option.system}.{option.name}={shown(option.value)}")
        for entry in self.selection:
            rank.setdefault(entry.config, 0)
            selected.setdefault(entry.config, []).append(_selection_words(entry))
        lines = []
        for source in sorted(rank, key=rank.__getitem__):  # stable: in order of appearance within a rank
            changes = [_("sets {settings}").format(settings=", ".join(assigned[source]))] if source in assigned else []
            changes += selected.get(source, [])
            lines.append(_("{file}: {source} {changes}").format(file=path, source=source, changes="; ".join(changes)))
        return lines


def override_lines(report: Any) -> list[tuple[str, str]]:
    """(file, line) for what changed each file's rules or selection, in file order."""
    return [
        (entry.path, line) for entry in report.files if entry.overrides for line in entry.overrides.lines(entry.path)
    ]


UNWRITTEN = ("configuration", "command line")
"""The sources of rules that a state ``apply`` writes does not carry (its own ``options:`` and its map's do)."""


def state_header_lines(overrides: Overrides) -> list[str]:
    """The comment lines a state ``apply`` writes opens with for the rules it was judged under that it does not
    carry: a configuration's edition and options, ``--option``; one line per source.  What a file supplies is
    written with its control characters escaped, so that it stays inside its comment line."""
    found: dict[str, list[str]] = {}
    edition = overrides.edition
    if edition is not None:
        found.setdefault(edition.config, []).append(f"{edition.system}.rules={edition.name}")
    for option in overrides.options:
        if option.source in UNWRITTEN:
            source = option.file if option.file is not None else COMMAND_LINE
            found.setdefault(source, []).append(f"{option.system}.{option.name}={shown(option.value)}")
    ordered = sorted(found, key=lambda source: source == COMMAND_LINE)  # configuration files first, as reported
    return [_comment(f"# judged under rules this state does not carry: {source} sets {', '.join(found[source])}.")
            for source in ordered]


def with_state_header(text: str, overrides: Any) -> str:
    """``text`` (a state ``apply`` wrote) with :func:`state_header_lines` after its first header line."""
    lines = state_header_lines(overrides) if overrides else []
    if not lines:
        return text
    first, newline, rest = text.partition("\n")
    if first.startswith("#") and newline:
        return first + "\n" + "".join(line + "\n" for line in lines) + rest
    return "".join(line + "\n" for line in lines) + text


def _comment(line: str) -> str:
    """A comment line that cannot end early: control and line-breaking characters escaped."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in line)


def _selection_words(entry: SelectionOverride) -> str:
    codes = ", ".join(entry.codes)
    if entry.key == "select":
        words = _("selects {codes}").format(codes=codes) if entry.codes else _("selects nothing")
    elif entry.key == "ignore":
        words = _("ignores {codes}").format(codes=codes)
    else:
        words = _("ignores {codes} in the files matching {pattern}").format(codes=codes, pattern=entry.pattern)
    if entry.applied:
        return words
    if entry.every:
        return _("{change} (not applied: --select ALL)").format(change=words)
    return _("{change} (not applied: --select on the command line)").format(change=words)


def shown(value: Any) -> str:
    """An option value as it would be written in YAML: ``false``, ``0.2``, ``{D4: 4d6}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {shown(item)}" for key, item in value.items()) + "}"
    if isinstance(value, str):
        return value
    return json.dumps(value)


# -- where they come from ----------------------------------------------------------------------


def rule_overrides(kind: str, prepared: Any, finder: Any) -> Overrides:
    """The edition and options that differ from the edition's, for a state of ``kind`` as prepared.

    ``finder``: the run's :class:`~movecheck.config.ConfigFinder` (None: no configuration).
    A state the rules cannot run on (``prepared.model`` None) judged nothing: no overrides.
    """
    from movecheck.systems import merge_options, system_of

    if prepared.model is None:
        return Overrides()
    declared = system_of(kind)
    baseline = declared.rule_baseline(prepared)
    rules = prepared.rules
    config = finder.for_file(prepared.doc.path) if finder is not None else None
    where = {"state": prepared.doc.path, "configuration": config.path if config is not None else None}
    sources = {}
    effective = baseline.values
    for source, file, layer in baseline.layers:  # a map's options: under the configuration's
        effective = merge_options(effective, layer)
        sources.update({key: source for key in layer})
        sources.update(
            {f"{key}.{entry}": source for key, value in layer.items() if isinstance(value, dict) for entry in value}
        )
        where[source] = file
    sources.update(rules.sources)
    effective = merge_options(effective, rules.options)
    changed = []
    for name, value in baseline.values.items():
        if name not in sources:
            continue
        if isinstance(value, dict) and isinstance(effective[name], dict):  # a mapping (dice): entry by entry
            was = value.get
            changed += [(f"{name}.{key}", item, was(key)) for key, item in effective[name].items() if item != was(key)]
        elif effective[name] != value:
            changed.append((name, effective[name], value))
    options = tuple(
        OptionOverride(declared.name, name, item, value, sources[name], where.get(sources[name]))
        for name, item, value in changed
    )
    edition = None
    if rules.edition_source == "configuration" and config is not None and baseline.edition != baseline.unconfigured:
        edition = EditionOverride(declared.name, str(baseline.edition), baseline.unconfigured, config.path)
    return Overrides(edition, options)


def selection_overrides(config: Any, command_line: Any, path: str) -> tuple[SelectionOverride, ...]:
    """The ``select``, ``ignore`` and matching per-file ignores of ``config`` for the file ``path``."""
    from movecheck.selection import ALL, glob_matches, relative_to

    if config is None:
        return ()
    cli_select = command_line.select if command_line is not None else None
    kept = cli_select is None
    every = cli_select is not None and ALL in cli_select
    found: list[SelectionOverride] = []
    if config.select is not None:
        found.append(SelectionOverride(config.path, "select", tuple(config.select), applied=kept, every=every))
    if config.ignore:
        found.append(SelectionOverride(config.path, "ignore", tuple(config.ignore), applied=kept, every=every))
    rel = relative_to(path, config.folder)
    for entry in config.per_file_ignores:
        if rel is not None and glob_matches(entry.pattern, rel):
            override = SelectionOverride(config.path, "per-file-ignores", entry.codes, entry.pattern, not every, every)
            found.append(override)
    return tuple(found)


def with_selection(overrides: Overrides | None, selection: tuple[SelectionOverride, ...]) -> Overrides | None:
    """``overrides`` (None: none) with the file's selection; None when nothing changed at all."""
    combined = replace(overrides or Overrides(), selection=selection)
    return combined if combined else None
