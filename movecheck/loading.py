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
checks, bounded reads, stdin) is :mod:`movecheck.reading`.  Both are re-exported here.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NoReturn

import yaml

from movecheck.document import Document, ImplicitScalar, Path, findings_at, implicit_message
from movecheck.findings import make_finding
from movecheck.i18n import _
from movecheck.reading import MAX_BYTES, InputError, _limit, read_bytes, read_regular
from movecheck import problems  # noqa: F401  (registers the MC clauses)

try:  # the C parser is much faster; the pure-Python one reads the same YAML
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_DEPTH = _limit("MOVECHECK_MAX_DEPTH", 64)
MAX_NODES = _limit("MOVECHECK_MAX_NODES", 2_000_000)
MAX_DIGITS = 100
"""Digits a whole number may have: no count, roll or coordinate needs more, and Python
refuses to convert decimal text of more than 4300 digits (quadratic work before that)."""

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
    "!",
}


QUOTABLE: dict[str, str] = {}
"""Texts of files read through a reference (an aa state's ``map:``) and recognised as
movecheck files, by the path their findings name: the ``full`` report quotes their lines
from here, never reading a file a second time."""


def load_file(path: str, display: str | None = None) -> Document:
    """Load a YAML file (``-`` is stdin) into a :class:`Document`."""
    is_stdin = path == "-"
    raw = read_bytes(path, stdin=is_stdin)
    return load_bytes(raw, display or ("<stdin>" if is_stdin else path))


def load_bytes(raw: bytes, path: str) -> Document:
    """Parse bytes into a :class:`Document`; problems become findings, never exceptions."""
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
    if path.lower().endswith(".json") and _read_json(doc, raw):
        return doc
    try:
        _Builder(doc).build(yaml.parse(raw, Loader=_Loader))
    except _Stop:
        doc.broken = True
    except yaml.MarkedYAMLError as exc:
        doc.broken = True
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or _("invalid YAML")
        if _char_at(doc.text, line, column) == "\t" and "tab" not in problem:
            problem += " " + _("(a tab: YAML indents with spaces, never tabs)")
        doc.findings.append(make_finding("MC001", _("YAML syntax: {problem}").format(problem=problem), file=path, line=line, column=column))
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
        doc.findings.append(make_finding("MC001", _("YAML syntax: {problem}").format(problem=_one_line(exc)), file=path))
    return doc


_JSON_DECLINED = (
    r'[^\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\U00010000-\U0010FFFF]'  # tabs, controls, NEL, LS/PS, BOM
    r'|\\u[dD][89abAB]'  # a surrogate escape: json joins a pair, YAML refuses it
    r'|"\s*[\r\n]\s*:|"\s{40,}:'  # a key whose colon is on another line or far away (YAML: not a key)
)
"""What makes the json module's reading of a text differ from the YAML reading (compiled when a
JSON file is first read: its character class costs more to compile than a small file to read)."""
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


def _read_json(doc: Document, raw: bytes) -> bool:
    """Read a JSON file with the json module when that gives the data the YAML reading gives
    with no finding; its positions are read the YAML way when first asked for.  False: read
    it the YAML way now."""
    import json

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
    _Deferred.attach(doc, raw)
    return True


class _Deferred(dict):  # type: ignore[type-arg]
    """A position table of a JSON file read by the json module, filled by the YAML reading when first read."""

    def __init__(self, fill: "Callable[[], None]") -> None:
        super().__init__()
        self.fill: Callable[[], None] | None = fill

    @staticmethod
    def attach(doc: Document, raw: bytes) -> None:
        """Give ``doc`` position tables that read ``raw`` the YAML way when first needed."""

        def fill() -> None:
            again = Document(path=doc.path)
            try:
                _Builder(again).build(yaml.parse(raw, Loader=_Loader))
            except (_Stop, yaml.YAMLError):  # cannot happen for what _read_json lets through
                pass
            for table, found in ((positions, again.positions), (keys, again.key_positions), (implicit, again.implicit)):
                table.fill = None
                dict.update(table, found)

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

    __hash__ = None  # type: ignore[assignment]

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


class _Stop(Exception):
    """Loading stopped after a finding was recorded."""


_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


@dataclass
class _Frame:
    """A collection being built: its value, path, and (mappings) the pending key."""

    value: Any
    path: Path
    size: int = 1
    height: int = 1
    key: str | None = None
    key_mark: tuple[int, int] | None = None
    anchor: str | None = None
    snapshot: "_Anchored | None" = None
    implicit_start: int = 0


@dataclass
class _Anchored:
    """What an alias stands for: the value, how many nodes it expands to, how deep it nests."""

    value: Any
    size: int
    implicit: dict[Path, ImplicitScalar]
    height: int = 0


class _Builder:
    """Turns a YAML event stream into plain data, positions and findings."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Anchored] = {}
        # implicit scalars recorded while an anchored collection is open, in order: what
        # an anchor closes over is the tail of this log, so closing it never scans the document
        self.implicit_log: list[tuple[Path, ImplicitScalar]] = []
        self.open_anchors = 0
        self.nodes = 0
        self.documents = 0
        self.root_set = False
        self.json = doc.path.lower().endswith(".json")

    def _stop(self, code: str, message: str, event: yaml.Event) -> NoReturn:
        """Record a finding at an event's position and stop reading the file."""
        line, column = _mark(event)
        self.doc.findings.append(make_finding(code, message, file=self.doc.path, line=line, column=column))
        raise _Stop

    # -- driving ---------------------------------------------------------

    def build(self, events: Iterator[yaml.Event]) -> None:
        for event in events:
            handler = getattr(self, "_on_" + type(event).__name__, None)
            if handler is not None:
                handler(event)

    def _on_DocumentStartEvent(self, event: yaml.Event) -> None:
        self.documents += 1
        if self.documents > 1:
            self._stop("MC009", _("the file holds more than one YAML document; movecheck reads one document per file"), event)

    def _on_ScalarEvent(self, event: yaml.ScalarEvent) -> None:
        self._check_tag(event)
        path = self._child_path(event)
        if path is None:
            return
        value, implicit = self._scalar(event)
        self._count(1, event)
        self.doc.positions[path] = _mark(event)
        if implicit is not None:
            self._note_implicit(path, implicit)
        if event.anchor:
            self.anchors[event.anchor] = _Anchored(value, 1, {(): implicit} if implicit else {})
        self._attach(value, event)

    def _on_AliasEvent(self, event: yaml.AliasEvent) -> None:
        anchored = self.anchors.get(event.anchor)
        if anchored is None:  # the event parser, unlike PyYAML's composer, lets this pass
            self._stop("MC001", _("YAML syntax: found undefined alias {anchor}").format(anchor=repr(event.anchor)), event)
        path = self._child_path(event)
        if path is None:
            return
        if len(self.stack) + anchored.height > MAX_DEPTH:
            self._too_deep(event)
        self._count(anchored.size, event)
        self.doc.positions[path] = _mark(event)
        for sub, implicit in anchored.implicit.items():  # no more than the nodes just counted
            self._note_implicit(path + sub, implicit)
        self._attach(anchored.value, event, size=anchored.size, height=anchored.height)

    def _on_MappingStartEvent(self, event: yaml.MappingStartEvent) -> None:
        self._open(event, {})

    def _on_SequenceStartEvent(self, event: yaml.SequenceStartEvent) -> None:
        self._open(event, [])

    def _on_MappingEndEvent(self, event: yaml.Event) -> None:
        self._close()

    def _on_SequenceEndEvent(self, event: yaml.Event) -> None:
        self._close()

    # -- collections -----------------------------------------------------

    def _open(self, event: yaml.CollectionStartEvent, value: Any) -> None:
        self._check_tag(event)
        path = self._child_path(event, collection=True)
        if path is None:
            return
        if len(self.stack) >= MAX_DEPTH:
            self._too_deep(event)
        self._count(1, event)
        self.doc.positions[path] = _mark(event)
        frame = _Frame(value=value, path=path, anchor=event.anchor)
        if event.anchor:
            frame.snapshot = _Anchored(value, 0, {})
            frame.implicit_start = len(self.implicit_log)
            self.open_anchors += 1
        self.stack.append(frame)

    def _close(self) -> None:
        frame = self.stack.pop()
        if frame.anchor and frame.snapshot is not None:
            prefix = len(frame.path)
            frame.snapshot.size = frame.size
            frame.snapshot.height = frame.height
            # everything logged since the anchor opened lies inside it (events nest)
            frame.snapshot.implicit = {p[prefix:]: v for p, v in self.implicit_log[frame.implicit_start :]}
            self.anchors[frame.anchor] = frame.snapshot
            self.open_anchors -= 1
            if not self.open_anchors:
                self.implicit_log.clear()
        self._attach(frame.value, None, size=frame.size, height=frame.height)

    def _note_implicit(self, path: Path, implicit: ImplicitScalar) -> None:
        self.doc.implicit[path] = implicit
        if self.open_anchors:
            self.implicit_log.append((path, implicit))

    def _too_deep(self, event: yaml.Event) -> None:
        self._stop(
            "MC008",
            _("nesting deeper than {limit} levels (aliases included); raise MOVECHECK_MAX_DEPTH to read it").format(limit=MAX_DEPTH),
            event,
        )

    def _attach(self, value: Any, event: yaml.Event | None, size: int = 1, height: int = 0) -> None:
        if not self.stack:
            self.doc.data = value
            return
        parent = self.stack[-1]
        parent.size += size
        parent.height = max(parent.height, height + 1)
        if isinstance(parent.value, list):
            parent.value.append(value)
            return
        parent.value[parent.key] = value
        parent.key = None

    def _child_path(self, event: yaml.Event, collection: bool = False) -> Path | None:
        """Path of the node the event starts; None when the event was a mapping key."""
        if not self.stack:
            return ()
        parent = self.stack[-1]
        if isinstance(parent.value, list):
            return parent.path + (len(parent.value),)
        if parent.key is None:
            self._take_key(event, collection)
            return None
        return parent.path + (parent.key,)

    def _take_key(self, event: yaml.Event, collection: bool) -> None:
        parent = self.stack[-1]
        line, column = _mark(event)
        if collection or not isinstance(event, yaml.ScalarEvent):
            self._stop("MC001", _("YAML syntax: a mapping key must be a plain name, not a list, mapping or alias"), event)
        key = event.value
        if key in parent.value:
            first = self.doc.key_positions.get(parent.path + (key,), (line, column))
            self.doc.findings.append(
                make_finding(
                    "MC002",
                    _("duplicate key {key} (first at line {line}); YAML keeps only the last value").format(key=repr(key), line=first[0]),
                    file=self.doc.path,
                    line=line,
                    column=column,
                )
            )
        parent.key = key
        self.doc.key_positions[parent.path + (key,)] = (line, column)

    # -- scalars ---------------------------------------------------------

    def _scalar(self, event: yaml.ScalarEvent) -> tuple[Any, ImplicitScalar | None]:
        text = event.value
        plain = bool(event.implicit and event.implicit[0])
        tag = event.tag
        if tag in (None, "!"):
            tag = _RESOLVER.resolve(yaml.ScalarNode, text, (plain, not plain)) if tag is None else "tag:yaml.org,2002:str"
        if plain and self.json and event.tag is None and _JSON_NUMBER.fullmatch(text):
            tag = "tag:yaml.org,2002:float" if any(c in text for c in ".eE") else "tag:yaml.org,2002:int"
            if tag.endswith("float"):
                value = float(text)
                return value, ImplicitScalar(text, tag, value)
        if tag in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp"):
            return text, None  # timestamps stay strings
        if tag == "tag:yaml.org,2002:int" and sum(c.isalnum() for c in text) > MAX_DIGITS:
            # Python cannot (or only slowly) turn it into an int, and nothing needs it: keep the
            # text, and let the schema say where a number was expected
            return text, ImplicitScalar(text, tag, text, too_long=True)
        try:
            value = _CONSTRUCTOR.construct_object(yaml.ScalarNode(tag, text), deep=True)
        except (yaml.YAMLError, ValueError, ArithmeticError, LookupError, TypeError):
            # PyYAML's constructors fail in several ways on bad text: ``!!int`` with no
            # value is an IndexError, ``!!bool maybe`` a KeyError
            self._stop("MC001", _("YAML syntax: {text} is not a valid {tag}").format(text=repr(text), tag=tag.rsplit(":", 1)[-1]), event)
        return value, (ImplicitScalar(text, tag, value) if plain else None)

    def _check_tag(self, event: yaml.NodeEvent) -> None:
        tag = getattr(event, "tag", None)
        if tag is None or tag in _STANDARD_TAGS:
            return
        self._stop("MC001", _("YAML tag {tag} is not allowed: movecheck reads plain YAML data only").format(tag=tag), event)

    def _count(self, nodes: int, event: yaml.Event) -> None:
        self.nodes += nodes
        if self.nodes > MAX_NODES:
            self._stop(
                "MC008",
                _("the document expands to more than {limit} nodes (aliases included); raise MOVECHECK_MAX_NODES to read it").format(
                    limit=MAX_NODES
                ),
                event,
            )


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _mark(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_NODES",
    "QUOTABLE",
    "Document",
    "ImplicitScalar",
    "InputError",
    "findings_at",
    "implicit_message",
    "load_bytes",
    "load_file",
    "read_bytes",
    "read_regular",
]
