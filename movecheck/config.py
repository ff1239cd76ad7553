"""Configuration files: discovery, parsing with positions, validation, precedence.

A configuration is ``.movecheck.yaml`` or the ``[tool.movecheck]`` table of a
``pyproject.toml``.  For each checked file movecheck uses the nearest one,
looking in the file's folder and then upwards (in each folder
``.movecheck.yaml`` first), never above the first folder holding ``.git``;
``--config FILE`` names one for every file, ``--isolated`` uses none.
Configurations are not merged with each other.

Keys::

    select: [AA, MC]            # code prefixes to report (default: all)
    ignore: [MC005]             # code prefixes not to report
    per-file-ignores:           # glob (relative to this file's folder) -> codes
      "orders/drafts/*.yaml": [AA3]
    format: github              # default output format
    aa:
      rules: aa1942             # edition (preset) of states that name none
      options: {land_on_new_carrier: false}
    maneuver:
      options: {tolerance: 0.2}

Precedence of rule options: the state file's own ``options`` > ``--option`` on
the command line > the configuration file > the rules preset.  Of selection
and format: the command line > ``MOVECHECK_FORMAT`` (format only) > the file.

A configuration file is checked like any movecheck file: YAML problems are
MC001/MC002, a wrong key or value MC003 (with "did you mean"), an unknown rule
code or preset MC004 — each at its position in the file, reported with the
run's findings (whatever ``select`` says).  The parts that are wrong are
ignored; the rest applies.  A file that cannot be read at all stops the run
(exit 2).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from movecheck.findings import Finding, make_finding
from movecheck.loading import MAX_BYTES, Document, InputError, load_bytes, read_bytes, read_regular
from movecheck.render import FORMATS as REPORT_FORMATS
from movecheck.selection import ALL, Layer, PerFileIgnore, Selection, is_known, known_codes, split_selectors, suggest
from movecheck.systems import NAMES as SYSTEMS

CONFIG_FILE = ".movecheck.yaml"
PYPROJECT = "pyproject.toml"
_BASE_URI = "https://movecheck.invalid/schemas/"


def _codes_schema() -> dict[str, Any]:
    return {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}


def config_schema() -> dict[str, Any]:
    """The JSON Schema of a configuration (the system options come from the state schemas)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "select": _codes_schema(),
            "ignore": _codes_schema(),
            "per-file-ignores": {"type": "object", "additionalProperties": _codes_schema()},
            "format": {"enum": list(REPORT_FORMATS)},
            "aa": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "rules": {"type": "string", "minLength": 1},
                    "options": {"$ref": _BASE_URI + "aa-state.schema.json#/$defs/options"},
                },
            },
            "maneuver": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "options": {"$ref": _BASE_URI + "maneuver-state.schema.json#/$defs/options"},
                },
            },
        },
    }


def _validator(schema: dict[str, Any]) -> Any:
    from movecheck.schema import _registry, validator_class

    return validator_class()(schema, registry=_registry())


def option_names(system: str) -> list[str]:
    """The option keys a system's states accept."""
    from movecheck.schema import load_schema

    return sorted(load_schema(f"{system}-state")["$defs"]["options"].get("properties", {}))


def merge_options(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``; mappings (dice, penalties) are merged key by key."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


@dataclass
class Config:
    """One configuration file, validated: what it asks for and what is wrong with it."""

    path: str
    folder: str
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: list[PerFileIgnore] = field(default_factory=list)
    format: str | None = None
    rules: dict[str, str] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    text: str = ""
    recognised: bool = True  # False: a discovered file that is not a configuration (not used)

    def selection(self, command_line: Layer | None = None) -> Selection:
        """The file's selection with the command line's layer on top.

        ``--select ALL`` on the command line also drops the per-file ignores: a CI job
        can always see every finding, whatever the checked tree configures.
        """
        layers = [Layer(self.select, self.ignore)]
        per_file = list(self.per_file_ignores)
        if command_line is not None:
            layers.append(command_line)
            if command_line.select is not None and ALL in command_line.select:
                per_file = []
        return Selection(layers, per_file, self.folder)


def display_path(path: str) -> str:
    """How a configuration file is named in findings: relative to the current folder."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:  # pragma: no cover - another drive (Windows)
        return absolute
    return rel


# -- reading ---------------------------------------------------------------------------------


def load_config(path: str, *, explicit: bool = False, discovered: bool = False) -> Config | None:
    """Read and validate a configuration file; None for a pyproject.toml without our table.

    A ``discovered`` file (found next to a checked file, not named by the user) is read
    only if it is a regular file, and is used only if it is recognisably a configuration
    (see :func:`_recognised`); otherwise the result holds one finding that quotes nothing
    of it, so a ``.movecheck.yaml`` linked to some other file never shows that file.
    Raises :class:`InputError` when the file cannot be read.
    """
    raw = read_regular(path) if discovered else read_bytes(path)
    shown = display_path(path)
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) == PYPROJECT or path.endswith(".toml"):
        if len(raw) > MAX_BYTES:
            doc = load_bytes(raw, shown)  # the loader's MC008, which quotes nothing
        else:
            doc = _toml_document(raw, shown, explicit)
        if doc is None:
            return None
    else:
        doc = load_bytes(raw, shown)
        if discovered and not _recognised(doc):
            message = (
                f"{shown} is not a movecheck configuration (it has none of the keys "
                f"{', '.join(CONFIG_KEYS)}); it is not used and not quoted"
            )
            return Config(path=shown, folder=folder, recognised=False, findings=[make_finding("MC010", message, file=shown)])
    config = Config(path=shown, folder=folder, text=doc.text)
    config.findings.extend(doc.findings)
    if not doc.broken:
        _read(doc, config)
    return config


CONFIG_KEYS = ("select", "ignore", "per-file-ignores", "format", *SYSTEMS)
_CONFIG_KEY_LINE = re.compile(r"^[\"']?(?:" + "|".join(map(re.escape, CONFIG_KEYS)) + r")[\"']?[ \t]*:", re.M)


def _recognised(doc: Document) -> bool:
    """Does a ``.movecheck.yaml`` say it is a configuration?

    Yes when it is empty, or a mapping with at least one configuration key; when it
    does not parse, when a line starts with such a key (or it is over the size limit,
    whose finding quotes nothing).
    """
    if doc.broken:
        return not doc.text or _CONFIG_KEY_LINE.search(doc.text) is not None
    if doc.data is None:
        return True
    return isinstance(doc.data, dict) and any(key in doc.data for key in CONFIG_KEYS)


def _read(doc: Document, config: Config) -> None:
    """Validate the document and take every part that is right."""
    from movecheck.schema import validate_with

    if doc.data is None:
        return  # an empty file configures nothing
    findings, errors = validate_with(doc, _validator(config_schema()))
    data = doc.data
    config.findings.extend(findings)
    if not isinstance(data, dict):
        return
    bad = [tuple(e.absolute_path) for e in errors]

    def ok(*path: Any) -> bool:
        return not any(b[: len(path)] == path for b in bad)

    codes = known_codes()
    if "select" in data and ok("select"):
        config.select = tuple(_codes(doc, config, data["select"], ("select",), codes))
    if "ignore" in data and ok("ignore"):
        config.ignore = tuple(_codes(doc, config, data["ignore"], ("ignore",), codes))
    pfi = data.get("per-file-ignores")
    if isinstance(pfi, dict):
        for pattern in sorted(pfi, key=str):
            if ok("per-file-ignores", pattern):
                chosen = _codes(doc, config, pfi[pattern], ("per-file-ignores", pattern), codes)
                if chosen:
                    config.per_file_ignores.append(PerFileIgnore(str(pattern), tuple(chosen)))
    if "format" in data and ok("format"):
        config.format = data["format"]
    for system in SYSTEMS:
        section = data.get(system)
        if not isinstance(section, dict):
            continue
        rules = section.get("rules")
        if system == "aa" and isinstance(rules, str) and ok(system, "rules"):
            from movecheck.aa.editions import close_editions, find_edition

            if find_edition(rules) is not None:
                config.rules[system] = rules
            else:
                hint = _hint(rules, close_editions(rules), exact=True)
                config.findings.append(doc.finding("MC004", f"unknown rules preset {rules!r}{hint}", (system, "rules")))
        options = section.get("options")
        if isinstance(options, dict):
            allowed = set(option_names(system))
            kept = {k: v for k, v in options.items() if k in allowed and ok(system, "options", k)}
            if kept:
                config.options[system] = kept


def _codes(doc: Document, config: Config, value: Any, path: tuple[Any, ...], codes: list[str]) -> list[str]:
    """The known selectors of a string or list; MC004 for each unknown one."""
    items = [(value, path)] if isinstance(value, str) else [(v, path + (i,)) for i, v in enumerate(value)]
    chosen: list[str] = []
    for item, where in items:
        for selector in split_selectors(item):
            if is_known(selector, codes):
                if selector not in chosen:
                    chosen.append(selector)
            else:
                close = suggest(selector, codes)
                config.findings.append(
                    doc.finding("MC004", f"unknown rule code or prefix {selector!r}{_hint(selector, close, exact=True)}", where)
                )
    return chosen


def _hint(word: str, choices: list[str], exact: bool = False) -> str:
    from movecheck.suggest import did_you_mean, hint

    return did_you_mean(choices) if exact else hint(word, choices)


# -- pyproject.toml --------------------------------------------------------------------------

_TOML_ERROR_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_BARE = r"[A-Za-z0-9_-]+"
_PART = rf'(?:"(?:[^"\\]|\\.)*"|\'[^\']*\'|{_BARE})'
_HEADER = re.compile(rf"^(\s*)\[\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]\s*(?:#.*)?$")
_KEYLINE = re.compile(rf"^(\s*)({_PART}(?:\s*\.\s*{_PART})*)\s*=\s*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def _toml_document(raw: bytes, shown: str, explicit: bool) -> Document | None:
    """The ``[tool.movecheck]`` table as a :class:`Document` with positions; None if absent."""
    import tomllib

    text = raw.decode("utf-8", errors="replace")
    mentions = re.search(r"^\s*\[\s*tool\s*\.\s*movecheck\b|^\s*tool\s*\.\s*movecheck\b|^\s*movecheck\s*[.=]", text, re.M)
    doc = Document(path=shown, text=text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if not explicit and not mentions:
            return None  # someone else's broken pyproject.toml: not our business
        match = _TOML_ERROR_AT.search(str(exc))
        line, column = (int(match.group(1)), int(match.group(2))) if match else (1, 1)
        problem = _TOML_ERROR_AT.sub("", str(exc)).strip()
        doc.findings.append(make_finding("MC001", f"TOML syntax: {problem}", file=shown, line=line, column=column))
        doc.broken = True
        return doc
    tool = data.get("tool")
    if not isinstance(tool, dict) or "movecheck" not in tool:
        if not explicit:
            return None
        doc.findings.append(
            make_finding("MC003", f"{shown} has no [tool.movecheck] table: nothing is configured", file=shown)
        )
        doc.broken = True
        return doc
    doc.data = tool["movecheck"]
    _toml_positions(doc, text)
    return doc


def _key_parts(text: str) -> tuple[str, ...]:
    parts = []
    for match in re.finditer(_PART, text):
        part = match.group(0)
        if part[0] in "\"'":
            part = part[1:-1]
        parts.append(part)
    return tuple(parts)


def _toml_positions(doc: Document, text: str) -> None:
    """Positions of the keys, values and array items under ``[tool.movecheck]``."""
    prefix = ("tool", "movecheck")
    table: tuple[str, ...] = ()
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        header = _HEADER.match(line)
        if header:
            table = _key_parts(header.group(2))
            if table[:2] == prefix:
                where = (number, len(header.group(1)) + 1)
                doc.positions.setdefault(table[2:], where)
                doc.key_positions.setdefault(table[2:], where)
            continue
        keyline = _KEYLINE.match(line)
        if not keyline:
            continue
        full = table + _key_parts(keyline.group(2))
        if full[:2] != prefix or len(full) < 3:
            continue
        path = full[2:]
        doc.key_positions[path] = (number, len(keyline.group(1)) + 1)
        start = keyline.end()
        doc.positions[path] = (number, start + 1)
        if line[start:].lstrip().startswith("["):
            number = _array_positions(doc, path, lines, number - 1, start)


def _array_positions(doc: Document, path: tuple[Any, ...], lines: list[str], index: int, start: int) -> int:
    """Positions of the string items of an array value; returns the index of the next line."""
    depth, item = 0, 0
    column = start
    while index < len(lines):
        line = lines[index]
        while column < len(line):
            char = line[column]
            if char == "#":
                break
            if char in "\"'":
                match = _STRING.match(line, column)
                if match is None:
                    break
                if depth == 1:
                    doc.positions[path + (item,)] = (index + 1, column + 1)
                column = match.end()
                continue
            if char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
                if depth == 0:
                    return index + 1
            elif char == "," and depth == 1:
                item += 1
            column += 1
        index += 1
        column = 0
    return index


# -- discovery -------------------------------------------------------------------------------


class ConfigFinder:
    """The configuration of each file: ``--config``, or the nearest one up from its folder."""

    def __init__(self, explicit: Config | None = None, command_line: Layer | None = None, isolated: bool = False) -> None:
        self.explicit = explicit
        self.command_line = command_line
        self.isolated = isolated
        self._folders: dict[str, Config | None] = {}
        self._files: dict[str, Config | None] = {}

    @classmethod
    def start(cls, config_path: str | None, command_line: Layer | None = None, isolated: bool = False) -> "ConfigFinder":
        """A finder for a run; reads ``--config`` now (InputError if it cannot be read).

        ``isolated`` (``--isolated``): no configuration at all, neither discovered nor named.
        """
        if isolated:
            if config_path is not None:
                raise InputError("--isolated and --config cannot be used together")
            return cls(None, command_line, isolated=True)
        explicit = None
        if config_path is not None:
            try:
                explicit = load_config(config_path, explicit=True)
            except InputError as exc:
                raise InputError(f"--config {exc}") from None
        return cls(explicit, command_line)

    def for_file(self, file: str) -> Config | None:
        """The configuration that applies to ``file`` (a path as the report names it)."""
        if self.explicit is not None:
            return self.explicit
        return self.for_folder(os.path.dirname(os.path.abspath(file)))

    def for_folder(self, folder: str) -> Config | None:
        """The nearest configuration at or above ``folder``, never above its repository root.

        The climb stops at the first folder holding ``.git``: a checked-out tree cannot be
        configured from outside it.  Outside any repository it goes up to the top.
        """
        if self.explicit is not None or self.isolated:
            return self.explicit
        walked: list[str] = []
        found: Config | None = None
        current = os.path.abspath(folder)
        while True:
            if current in self._folders:
                found = self._folders[current]
                break
            walked.append(current)
            found = self._in_folder(current)
            if found is not None or is_repository_root(current):
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for name in walked:
            self._folders[name] = found
        return found

    def _in_folder(self, folder: str) -> Config | None:
        for name in (CONFIG_FILE, PYPROJECT):
            candidate = os.path.join(folder, name)
            if not os.path.isfile(candidate):
                continue
            if candidate not in self._files:
                self._files[candidate] = load_config(candidate, discovered=True)
            config = self._files[candidate]
            if config is not None and config.recognised:
                return config
        return None

    def configs(self) -> list[Config]:
        """Every configuration this run has read, by path."""
        found = [c for c in self._files.values() if c is not None]
        if self.explicit is not None:
            found.append(self.explicit)
        return sorted(found, key=lambda c: c.path)

    def selection_for(self, file: str) -> Selection:
        """Which findings of ``file`` are reported."""
        config = self.for_file(file)
        if config is None:
            layers = [self.command_line] if self.command_line is not None else []
            return Selection(layers)
        return config.selection(self.command_line)

    def defaults_for(self, system: str, file: str) -> tuple[str | None, dict[str, Any]]:
        """The configuration's rules preset and options for a state file of ``system``."""
        config = self.for_file(file)
        if config is None:
            return None, {}
        return config.rules.get(system), dict(config.options.get(system, {}))


def is_repository_root(folder: str) -> bool:
    """Does ``folder`` hold ``.git`` (a folder, or the file of a worktree or submodule)?"""
    return os.path.lexists(os.path.join(folder, ".git"))


def repository_root(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that holds ``.git``, or None."""
    current = os.path.abspath(folder)
    while True:
        if is_repository_root(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def default_root() -> str:
    """The default ``--root``: the current folder's repository root, else the current folder."""
    cwd = os.getcwd()
    return os.path.realpath(repository_root(cwd) or cwd)


# -- the command line ------------------------------------------------------------------------


def command_line_layer(select: list[str] | None, ignore: list[str] | None) -> Layer | None:
    """The command line's ``--select``/``--ignore``; InputError for an unknown code."""
    chosen = split_selectors(select) if select else None
    ignored = split_selectors(ignore) if ignore else []
    if chosen is None and not ignored:
        return None
    codes = known_codes()
    for flag, selectors in (("--select", chosen or []), ("--ignore", ignored)):
        for selector in selectors:
            if not is_known(selector, codes):
                close = suggest(selector, codes)
                hint = f"; did you mean {' or '.join(close)}?" if close else ""
                raise InputError(f"{flag}: unknown rule code or prefix {selector!r}{hint}")
    return Layer(tuple(chosen) if chosen is not None else None, tuple(ignored))


def parse_option_flags(values: list[str] | None) -> dict[str, dict[str, Any]]:
    """``--option SYSTEM.KEY=VALUE`` flags as options per system; InputError when one is wrong.

    VALUE is read as a YAML scalar (``false``, ``0.2``, ``1d6``); ``SYSTEM.KEY.SUB=VALUE``
    sets one entry of a mapping option (``maneuver.dice.D4=4d6``).
    """
    import yaml

    result: dict[str, dict[str, Any]] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        parts = [p.strip() for p in name.split(".")]
        if not sep or len(parts) < 2 or not all(parts):
            raise InputError(f"--option {item!r}: expected SYSTEM.KEY=VALUE, e.g. aa.land_on_new_carrier=false")
        system, key, *sub = parts
        if system not in SYSTEMS:
            raise InputError(f"--option {item!r}: unknown system {system!r}; choose aa or maneuver")
        allowed = option_names(system)
        if key not in allowed:
            hint = _hint(key, allowed)
            raise InputError(f"--option {item!r}: unknown {system} option {key!r}{hint}")
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        if isinstance(value, (dict, list)) or value is None:
            value = raw
        if sub:
            value = {".".join(sub): value}
        result.setdefault(system, {})
        result[system] = merge_options(result[system], {key: value})
    for system, options in result.items():
        validator = _validator({"$ref": f"{_BASE_URI}{system}-state.schema.json#/$defs/options"})
        errors = sorted(validator.iter_errors(options), key=lambda e: (list(map(str, e.absolute_path)), e.message))
        if errors:
            error = errors[0]
            where = ".".join([system, *map(str, error.absolute_path)])
            raise InputError(f"--option {where}: {error.message}")
    return result


__all__ = [
    "ALL",
    "CONFIG_FILE",
    "Config",
    "ConfigFinder",
    "PYPROJECT",
    "REPORT_FORMATS",
    "command_line_layer",
    "config_schema",
    "default_root",
    "load_config",
    "merge_options",
    "parse_option_flags",
    "repository_root",
]
