"""Configuration files: reading and validating ``.movecheck.yaml`` and ``[tool.movecheck]``.

What the keys mean, and how a configuration is found and applied, is in
:mod:`movecheck.config`.  Here a file becomes a :class:`Config`: YAML problems are
MC001/MC002, a wrong key or value MC003, an unknown rule code or preset MC004, each
at its position in the file (for a ``pyproject.toml``, the positions are found in its
text: :func:`_toml_document`).  The parts that are wrong are ignored; the rest applies.
"""

from __future__ import annotations

import os
import re
from dataclasses import field
from functools import lru_cache
from typing import Any

from movecheck.document import Document
from movecheck.findings import Finding, make_finding
from movecheck.i18n import _
from movecheck.loading import load_bytes
from movecheck.reading import MAX_BYTES, read_bytes, read_regular
from movecheck.records import dataclass_on_first_use
from movecheck.render import FORMATS as REPORT_FORMATS
from movecheck.selection import ALL, Layer, PerFileIgnore, Selection, is_known, known_codes, split_selectors, suggest
from movecheck.systems import names, system

CONFIG_FILE = ".movecheck.yaml"
PYPROJECT = "pyproject.toml"


def _one_or_more_strings() -> dict[str, Any]:
    return {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}


def config_schema() -> dict[str, Any]:
    """The JSON Schema of a configuration (the system options come from the state schemas)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "select": _one_or_more_strings(),
            "ignore": _one_or_more_strings(),
            "per-file-ignores": {"type": "object", "additionalProperties": _one_or_more_strings()},
            "format": {"enum": list(REPORT_FORMATS)},
            "exclude": _one_or_more_strings(),
            **{name: system(name).config_section() for name in names()},
        },
    }


def _validator(schema: dict[str, Any]) -> Any:
    from movecheck.schema import _registry, validator_class

    return validator_class()(schema, registry=_registry())


def option_names(system: str) -> list[str]:
    """The option keys a system's states accept."""
    from movecheck.schema import load_schema

    return sorted(load_schema(f"{system}-state")["$defs"]["options"].get("properties", {}))



@dataclass_on_first_use
class Config:
    """One configuration file, validated: what it asks for and what is wrong with it."""

    path: str
    folder: str
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: list[PerFileIgnore] = field(default_factory=list)
    format: str | None = None
    exclude: tuple[str, ...] = ()
    """Globs of files and folders a folder given on the command line leaves out (:mod:`movecheck.folders`)."""
    rules: dict[str, str] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    text: str = ""
    recognised: bool = True  # False: a discovered file that is not a configuration (not used)

    def selection(self, command_line: Layer | None = None) -> Selection:
        """The file's selection with the command line's layer on top.

        Under ``--select ALL`` on the command line the file has no say at all (neither
        ``select``, ``ignore`` nor the per-file ignores): a referee or a CI job always sees
        every finding, whatever the checked tree configures.
        """
        if command_line is not None and command_line.select is not None and ALL in command_line.select:
            return Selection([command_line])
        layers = [Layer(self.select, self.ignore)]
        if command_line is not None:
            layers.append(command_line)
        return Selection(layers, list(self.per_file_ignores), self.folder)


def display_path(path: str) -> str:
    """How a configuration file is named in findings: relative to the current folder."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:  # pragma: no cover - another drive (Windows)
        return absolute
    return rel


# -- reading ---------------------------------------------------------------------------------


def load_config(path: str, *, explicit: bool = False, discovered: bool = False, raw: bytes | None = None
                ) -> Config | None:
    """Read and validate a configuration file; None for a pyproject.toml without our table.

    A ``discovered`` file (found next to a checked file, not named by the user) is read
    only if it is a regular file, and is used only if it is recognisably a configuration
    (see :func:`_recognised`); otherwise the result holds one finding that quotes nothing
    of it, so a ``.movecheck.yaml`` linked to some other file never shows that file.
    Raises :class:`InputError` when the file cannot be read.  ``raw``: the file's bytes as an editor holds them
    (the language server), in place of the disk's.
    """
    if raw is None:
        raw = read_regular(path) if discovered else read_bytes(path)
    shown = display_path(path)
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) == PYPROJECT or path.endswith(".toml"):
        # over the limit: the loader's MC008, which quotes nothing
        toml = load_bytes(raw, shown) if len(raw) > MAX_BYTES else _toml_document(raw, shown, explicit)
        if toml is None:
            return None
        doc = toml
    else:
        doc = load_bytes(raw, shown)
        if not _recognised(doc):
            unused = _("{path} is not a movecheck configuration (it has none of the keys {keys}); it is not used and not quoted")  # noqa: E501
            message = unused.format(path=shown, keys=", ".join(config_keys()))
            findings = [make_finding("MC010", message, file=shown)]
            return Config(path=shown, folder=folder, recognised=False, findings=findings)
    config = Config(path=shown, folder=folder, text=doc.text)
    config.findings.extend(doc.findings)
    if not doc.broken:
        _read(doc, config)
    return config


KERNEL_KEYS = ("select", "ignore", "per-file-ignores", "format", "exclude")


def config_keys() -> tuple[str, ...]:
    """The top-level keys of a configuration: the kernel's, then a section per system."""
    return (*KERNEL_KEYS, *names())


@lru_cache(maxsize=1)
def _config_key_line() -> re.Pattern[str]:
    return re.compile(r"^[\"']?(?:" + "|".join(map(re.escape, config_keys())) + r")[\"']?[ \t]*:", re.M)


def _recognised(doc: Document) -> bool:
    """Does a ``.movecheck.yaml`` say it is a configuration?

    Yes when it is empty, or a mapping with at least one configuration key; when it
    does not parse, when a line starts with such a key (or it is over the size limit,
    whose finding quotes nothing).
    """
    if doc.broken:
        return not doc.text or _config_key_line().search(doc.text) is not None
    if doc.data is None:
        return True
    return isinstance(doc.data, dict) and any(key in doc.data for key in config_keys())


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

    codes = _selectable_codes(data)
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
    if "exclude" in data and ok("exclude"):
        globs = data["exclude"]
        config.exclude = tuple(g for g in ([globs] if isinstance(globs, str) else globs) if g)
    for name in names():
        section = data.get(name)
        if not isinstance(section, dict):
            continue
        declared = system(name)
        rules = section.get("rules")
        if declared.default_edition is not None and isinstance(rules, str) and ok(name, "rules"):
            if declared.find_edition(rules) is not None:
                config.rules[name] = rules
            else:
                hint = _hint(rules, declared.close_editions(rules), exact=True)
                unknown = _("unknown rules preset {name}").format(name=repr(rules))
                config.findings.append(doc.finding("MC004", unknown + hint, (name, "rules")))
        options = section.get("options")
        if isinstance(options, dict):
            allowed = set(option_names(name))
            kept = {k: v for k, v in options.items() if k in allowed and ok(name, "options", k)}
            if kept:
                config.options[name] = kept


SELECTING = ("select", "ignore", "per-file-ignores")
"""The keys of a configuration that name clause codes."""


def _selectable_codes(data: dict[str, Any]) -> list[str]:
    """Every clause code, when the configuration names some (listing them reads each system's clause index or
    imports its clause modules: a configuration without codes costs a check nothing of it); else none."""
    return known_codes() if any(key in data for key in SELECTING) else []


def _codes(doc: Document, config: Config, value: Any, path: tuple[Any, ...], codes: list[str]) -> list[str]:
    """The known selectors of a string or list; MC004 for each unknown one."""
    items = [(value, path)] if isinstance(value, str) else [(v, (*path, i)) for i, v in enumerate(value)]
    chosen: list[str] = []
    for item, where in items:
        for selector in split_selectors(item):
            if is_known(selector, codes):
                if selector not in chosen:
                    chosen.append(selector)
            else:
                close = suggest(selector, codes)
                config.findings.append(
                    doc.finding(
                        "MC004",
                        _("unknown rule code or prefix {selector}").format(selector=repr(selector))
                        + _hint(selector, close, exact=True),
                        where,
                    )
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
_MAY_CONFIGURE = re.compile(
    r"""^\s*(?:\[\[?\s*["']?tool["']?\s*(?:\]|\.\s*["']?movecheck(?![\w-]))"""
    r"""|["']?tool["']?\s*(?:=|\.\s*["']?movecheck(?![\w-])))""",
    re.M,
)
"""A line that may open or fill the ``[tool.movecheck]`` table: a ``[tool.movecheck...]`` or
``[tool]`` header, a ``tool.movecheck...`` key or a ``tool = {...}`` inline table (quoted or
not). A discovered pyproject.toml without one is not parsed (keys spelt with escapes, such as
``"\\u006dovecheck"``, are not looked for)."""


def _toml_document(raw: bytes, shown: str, explicit: bool) -> Document | None:
    """The ``[tool.movecheck]`` table as a :class:`Document` with positions; None if absent."""
    text = raw.decode("utf-8", errors="replace")
    if not explicit and not _MAY_CONFIGURE.search(text):
        return None  # a discovered pyproject.toml with no way to name the table: not parsed at all
    import tomllib

    ours = r"^\s*\[\s*tool\s*\.\s*movecheck\b|^\s*tool\s*\.\s*movecheck\b|^\s*movecheck\s*[.=]"
    mentions = re.search(ours, text, re.M)
    doc = Document(path=shown, text=text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if not explicit and not mentions:
            return None  # someone else's broken pyproject.toml: not our business
        match = _TOML_ERROR_AT.search(str(exc))
        line, column = (int(match.group(1)), int(match.group(2))) if match else (1, 1)
        problem = _TOML_ERROR_AT.sub("", str(exc)).strip()
        syntax = _("TOML syntax: {problem}").format(problem=problem)
        doc.findings.append(make_finding("MC001", syntax, file=shown, line=line, column=column))
        doc.broken = True
        return doc
    tool = data.get("tool")
    if not isinstance(tool, dict) or "movecheck" not in tool:
        if not explicit:
            return None
        doc.findings.append(
            make_finding(
                "MC003", _("{path} has no [tool.movecheck] table: nothing is configured").format(path=shown), file=shown
            )
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
                    doc.positions[(*path, item)] = (index + 1, column + 1)
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
