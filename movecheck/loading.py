"""Read YAML input safely, keeping the line and column of every node.

The document is built from PyYAML's event stream (C parser when available),
without recursion and without PyYAML's constructors, so that:

* every value, and every mapping key, keeps its 1-based position;
* a repeated key is a finding (MC002) rather than a silent overwrite;
* plain scalars that YAML 1.1 reads as numbers, booleans or dates keep their
  source text, so a name written ``0101`` or ``no`` can be reported (MC005);
* timestamps stay strings;
* a whole number of more than :data:`MAX_DIGITS` digits keeps its text (the schema
  says it is too long) instead of reaching Python's int conversion;
* a ``.json`` file's numbers follow JSON's grammar (``5e1`` is the number 50.0,
  where YAML 1.1 reads the text ``5e1``);
* tags other than the standard scalar/collection tags are refused, never
  constructed (no ``!!python/object``);
* nesting depth, alias expansion and file size are bounded (MC008).

A ``.json`` file is read by the standard ``json`` module when that gives what the YAML
reading would give with nothing to report (no duplicate key, no number too long, nothing
YAML reads otherwise: see :func:`_read_json`); its positions are then found only when
something asks for one (a finding), by reading the file the YAML way.  Any other file,
and a JSON file that does not pass, is read the YAML way at once.

The document model is :mod:`movecheck.document`; opening files safely (regular-file
checks, bounded reads, stdin) is :mod:`movecheck.reading`; the event-stream builder and
the limits are :mod:`movecheck.yaml_builder`.  What other modules use of them is
re-exported here.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import yaml

from movecheck import problems  # noqa: F401  (registers the MC clauses)
from movecheck.document import Document
from movecheck.findings import make_finding
from movecheck.i18n import _
from movecheck.json_positions import Tables, scan
from movecheck.reading import MAX_BYTES, read_bytes
from movecheck.yaml_builder import MAX_DEPTH, MAX_DIGITS, MAX_NODES, _Builder, _Loader, _Stop

QUOTABLE: dict[str, str] = {}
"""Texts of files read through a reference (an aa state's ``map:``) and recognised as
movecheck files, by the path their findings name: the ``full`` report quotes their lines
from here, never reading a file a second time."""


def load_file(path: str, display: str | None = None) -> Document:
    """Load a YAML file (``-`` is stdin) into a :class:`Document`."""
    is_stdin = path == "-"
    raw = read_bytes(path, stdin=is_stdin)
    return load_bytes(raw, display or ("<stdin>" if is_stdin else path))


class EventTape:
    """The YAML events of one text, read once and kept for whoever asks again (the language server: the document's
    positions and the editor's ranges of the same buffer, issue 37).  Kept only once read to the end."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.kept: list[yaml.Event] | None = None

    def events(self) -> Iterator[yaml.Event]:
        """The events, from those kept, else read (and kept if read to the end)."""
        return iter(self.kept) if self.kept is not None else self._reading()

    def _reading(self) -> Iterator[yaml.Event]:
        found = []
        for event in yaml.parse(self.raw, Loader=_Loader):
            found.append(event)
            yield event
        self.kept = found


def load_bytes(raw: bytes, path: str, tape: EventTape | None = None) -> Document:
    """Parse bytes into a :class:`Document`; problems become findings, never exceptions.  ``tape``: the events of
    ``raw``, shared with another reader of the same text."""
    doc = Document(path=path)
    if len(raw) > MAX_BYTES:
        doc.broken = True
        doc.findings.append(
            make_finding(
                "MC008",
                _("file is larger than {limit} bytes; raise MOVECHECK_MAX_BYTES to read it").format(limit=MAX_BYTES),
                file=path,
            )
        )
        return doc
    doc.text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    if path.lower().endswith(".json") and _read_json(doc, raw, tape):
        return doc
    try:
        events = tape.events() if tape is not None else yaml.parse(raw, Loader=_Loader)
        _Builder(doc, MAX_DEPTH, MAX_NODES).build(events)
    except _Stop:
        doc.broken = True
    except yaml.MarkedYAMLError as exc:
        doc.broken = True
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or _("invalid YAML")
        if _char_at(doc.text, line, column) == "\t" and "tab" not in problem:
            problem += " " + _("(a tab: YAML indents with spaces, never tabs)")
        doc.findings.append(
            make_finding(
                "MC001", _("YAML syntax: {problem}").format(problem=problem), file=path, line=line, column=column
            )
        )
    except yaml.reader.ReaderError as exc:  # bytes that are not UTF-8 text, control characters
        doc.broken = True
        line, column = _byte_position(raw, exc.position)
        character = exc.character
        shown = f"#x{character:02x}" if isinstance(character, int) else repr(character)
        doc.findings.append(
            make_finding(
                "MC001",
                _("YAML syntax: unacceptable character {shown}: {reason} (a YAML file must be UTF-8 text)").format(
                    shown=shown, reason=exc.reason
                ),
                file=path,
                line=line,
                column=column,
            )
        )
    except yaml.YAMLError as exc:
        doc.broken = True
        doc.findings.append(
            make_finding("MC001", _("YAML syntax: {problem}").format(problem=_one_line(exc)), file=path)
        )
    return doc


_JSON_DECLINED = (
    # tabs, controls, NEL, LS/PS, BOM
    r"[^\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\U00010000-\U0010FFFF]"
    r"|\\u[dD][89abAB]"  # a surrogate escape: json joins a pair, YAML refuses it
    r'|"\s*[\r\n]\s*:|"\s{40,}:'  # a key whose colon is on another line or far away (YAML: not a key)
)
"""What makes the json module's reading of a text differ from the YAML reading (compiled when a
JSON file is first read: its character class costs more to compile than a small file to read)."""
SCAN_JSON = True
"""A JSON file's positions read from its text (:mod:`movecheck.json_positions`, issue 37); False: the YAML way (the
tests' reference)."""
_STRING_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NEST = {"[": 1, "{": 1, "]": -1, "}": -1}


@lru_cache(maxsize=1)
def _json_declined() -> re.Pattern[str]:
    return re.compile(_JSON_DECLINED)


class _Declined(Exception):
    """The json module's reading might differ from the YAML reading: read the file the YAML way."""


def _whole_number(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_DIGITS:
        raise _Declined  # the YAML reading keeps its text (the schema says it is too long)
    return int(text)


def _no_constant(text: str) -> Any:
    raise _Declined  # NaN, Infinity: text to YAML


def _distinct(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs) or any(len(key) > 128 for key in mapping):
        raise _Declined  # a repeated key (MC002), or a key too long for a YAML key
    return mapping


def _read_json(doc: Document, raw: bytes, tape: EventTape | None = None) -> bool:
    """Read a JSON file with the json module when that gives the data the YAML reading gives
    with no finding; its positions are read the YAML way when first asked for.  False: read
    it the YAML way now."""

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if _json_declined().search(text) or text.count(",") + text.count("[") + text.count("{") >= MAX_NODES:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING_TOKEN.sub("", text))
    if brackets and max(itertools.accumulate(map(_NEST.__getitem__, brackets))) > MAX_DEPTH:
        return False
    try:
        data = json.loads(text, parse_int=_whole_number, parse_constant=_no_constant, object_pairs_hook=_distinct)
    except (_Declined, ValueError, RecursionError):
        return False
    doc.data = data
    _Deferred.attach(doc, raw, tape)
    return True


class _Deferred(dict):  # type: ignore[type-arg]
    """A position table of a JSON file read by the json module, filled by the YAML reading when first read."""

    def __init__(self, fill: Callable[[], None]) -> None:
        super().__init__()
        self.fill: Callable[[], None] | None = fill

    @staticmethod
    def attach(doc: Document, raw: bytes, tape: EventTape | None = None) -> None:
        """Give ``doc`` position tables that read ``raw`` the YAML way when first needed (``tape``: its events)."""

        def fill() -> None:
            scanned: Tables | None = scan(doc.text) if SCAN_JSON else None
            if scanned is None:
                again = Document(path=doc.path)
                events = tape.events() if tape is not None else yaml.parse(raw, Loader=_Loader)
                with contextlib.suppress(_Stop, yaml.YAMLError):  # cannot happen for what _read_json lets through
                    _Builder(again, MAX_DEPTH, MAX_NODES).build(events)
                scanned = (again.positions, again.key_positions, again.implicit)
            found: tuple[dict[Any, Any], ...] = scanned
            for table, entries in zip((positions, keys, implicit), found, strict=True):
                table.fill = None
                dict.update(table, entries)

        positions, keys, implicit = _Deferred(fill), _Deferred(fill), _Deferred(fill)
        doc.positions, doc.key_positions, doc.implicit = positions, keys, implicit

    def ready(self) -> None:
        if self.fill is not None:
            self.fill()

    def __getitem__(self, key: Any) -> Any:
        self.ready()
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.ready()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self.ready()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[Any]:
        self.ready()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.ready()
        return dict.__len__(self)

    def __eq__(self, other: object) -> bool:
        self.ready()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self.ready()
        return dict.__repr__(self)

    def keys(self) -> Any:
        self.ready()
        return dict.keys(self)

    def values(self) -> Any:
        self.ready()
        return dict.values(self)

    def items(self) -> Any:
        self.ready()
        return dict.items(self)

    def copy(self) -> dict[Any, Any]:
        self.ready()
        return dict(dict.items(self))

    def __reduce__(self) -> Any:  # copied or pickled (to another process): a plain dict, filled
        self.ready()
        return (dict, (dict(dict.items(self)),))

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self.ready()
        return dict.setdefault(self, key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.ready()
        dict.__setitem__(self, key, value)


def read_by_json(doc: Document) -> bool:
    """Was ``doc`` a JSON file the json module read (its positions read from its text when first asked for)?"""
    return isinstance(doc.positions, _Deferred)


def _char_at(text: str, line: int, column: int) -> str:
    """The character at a 1-based line and column of the text ('' when there is none)."""
    lines = re.split(r"\r\n|\r|\n", text, maxsplit=line) if line > 0 else []
    if len(lines) < line or column < 1:
        return ""
    row = lines[line - 1]
    return row[column - 1] if column <= len(row) else ""


def _byte_position(raw: bytes, offset: Any) -> tuple[int, int]:
    """1-based line and column of a byte offset (a reader error's position)."""
    if not isinstance(offset, int) or offset < 0:
        return 1, 1
    before = raw[: min(offset, len(raw))]
    start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    prefix = before[start:]
    if line == 1 and prefix.startswith(b"\xef\xbb\xbf"):
        prefix = prefix[3:]
    return line, len(prefix.decode("utf-8", errors="replace")) + 1


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


__all__ = ["QUOTABLE", "load_bytes", "load_file", "read_by_json"]
