"""The YAML event stream made into a :class:`~movecheck.document.Document`: data, positions, findings.

:mod:`movecheck.loading` feeds it PyYAML's events (the C parser when available); it builds
the data without recursion and without PyYAML's constructors, and bounds what a file
may hold (nesting depth, alias expansion: MC008).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

import yaml

from movecheck.document import Document, ImplicitScalar, Path
from movecheck.findings import make_finding
from movecheck.i18n import _
from movecheck.reading import _limit
from movecheck.records import dataclass_on_first_use

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
    snapshot: _Anchored | None = None
    implicit_start: int = 0


@dataclass_on_first_use
class _Anchored:
    """What an alias stands for: the value, how many nodes it expands to, how deep it nests."""

    value: Any
    size: int
    implicit: dict[Path, ImplicitScalar]
    height: int = 0


class _Builder:
    """Turns a YAML event stream into plain data, positions and findings."""

    def __init__(self, doc: Document, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> None:
        self.doc = doc
        self.max_depth = max_depth
        self.max_nodes = max_nodes
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
        handlers: dict[type, Any] = {}  # each event class's handler (None: ignored), found once a document
        for event in events:
            kind = type(event)
            if kind not in handlers:
                handlers[kind] = getattr(self, "_on_" + kind.__name__, None)
            handler = handlers[kind]
            if handler is not None:
                handler(event)

    def _on_DocumentStartEvent(self, event: yaml.Event) -> None:
        self.documents += 1
        if self.documents > 1:
            self._stop(
                "MC009", _("the file holds more than one YAML document; movecheck reads one document per file"), event
            )

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
        anchored = self.anchors.get(event.anchor or "")
        if anchored is None:  # the event parser, unlike PyYAML's composer, lets this pass
            self._stop(
                "MC001", _("YAML syntax: found undefined alias {anchor}").format(anchor=repr(event.anchor)), event
            )
        path = self._child_path(event)
        if path is None:
            return
        if len(self.stack) + anchored.height > self.max_depth:
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
        if len(self.stack) >= self.max_depth:
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
            _("nesting deeper than {limit} levels (aliases included); raise MOVECHECK_MAX_DEPTH to read it").format(
                limit=self.max_depth
            ),
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
            return (*parent.path, len(parent.value))
        if parent.key is None:
            self._take_key(event, collection)
            return None
        return (*parent.path, parent.key)

    def _take_key(self, event: yaml.Event, collection: bool) -> None:
        parent = self.stack[-1]
        line, column = _mark(event)
        if collection or not isinstance(event, yaml.ScalarEvent):
            self._stop(
                "MC001", _("YAML syntax: a mapping key must be a plain name, not a list, mapping or alias"), event
            )
        key = event.value
        if key in parent.value:
            first = self.doc.key_positions.get((*parent.path, key), (line, column))
            self.doc.findings.append(
                make_finding(
                    "MC002",
                    _("duplicate key {key} (first at line {line}); YAML keeps only the last value").format(
                        key=repr(key), line=first[0]
                    ),
                    file=self.doc.path,
                    line=line,
                    column=column,
                )
            )
        parent.key = key
        self.doc.key_positions[(*parent.path, key)] = (line, column)

    # -- scalars ---------------------------------------------------------

    def _scalar(self, event: yaml.ScalarEvent) -> tuple[Any, ImplicitScalar | None]:
        text = event.value
        plain = bool(event.implicit and event.implicit[0])
        tag = event.tag
        if tag in (None, "!"):
            tag = (
                _RESOLVER.resolve(yaml.ScalarNode, text, (plain, not plain))  # type: ignore[no-untyped-call]
                if tag is None
                else "tag:yaml.org,2002:str"
            )
        if plain and self.json and event.tag is None and _JSON_NUMBER.fullmatch(text):
            tag = "tag:yaml.org,2002:float" if any(c in text for c in ".eE") else "tag:yaml.org,2002:int"
            if tag.endswith("float"):
                value = float(text)
                return value, ImplicitScalar(text, tag, value)
        if tag in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp"):
            return text, None  # timestamps stay strings
        simple = _simple_number(tag, text)
        if simple is not None:
            return simple, (ImplicitScalar(text, tag, simple) if plain else None)
        if tag == "tag:yaml.org,2002:int" and sum(c.isalnum() for c in text) > MAX_DIGITS:
            # Python cannot (or only slowly) turn it into an int, and nothing needs it: keep the
            # text, and let the schema say where a number was expected
            return text, ImplicitScalar(text, tag, text, too_long=True)
        try:
            value = _CONSTRUCTOR.construct_object(yaml.ScalarNode(tag, text), deep=True)
        except (yaml.YAMLError, ValueError, ArithmeticError, LookupError, TypeError):
            # PyYAML's constructors fail in several ways on bad text: ``!!int`` with no
            # value is an IndexError, ``!!bool maybe`` a KeyError
            self._stop(
                "MC001",
                _("YAML syntax: {text} is not a valid {tag}").format(text=repr(text), tag=tag.rsplit(":", 1)[-1]),
                event,
            )
        return value, (ImplicitScalar(text, tag, value) if plain else None)

    def _check_tag(self, event: yaml.NodeEvent) -> None:
        tag = getattr(event, "tag", None)
        if tag is None or tag in _STANDARD_TAGS:
            return
        self._stop(
            "MC001", _("YAML tag {tag} is not allowed: movecheck reads plain YAML data only").format(tag=tag), event
        )

    def _count(self, nodes: int, event: yaml.Event) -> None:
        self.nodes += nodes
        if self.nodes > self.max_nodes:
            self._stop(
                "MC008",
                _(
                    "the document expands to more than {limit} nodes (aliases included); "
                    "raise MOVECHECK_MAX_NODES to read it"
                ).format(limit=self.max_nodes),
                event,
            )


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_SIMPLE_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]{0,17})")
_SIMPLE_FLOAT = re.compile(r"[-+]?[0-9]{1,17}\.[0-9]{0,17}")


def _simple_number(tag: str, text: str) -> int | float | None:
    """A whole number in decimals, or a decimal fraction without exponent, read as PyYAML's constructor reads it
    (its sign times the digits' value: the same number) without building a node (issue 37: most scalars of a big
    manoeuvre file are coordinates); None for anything else (octal, ``0x``, ``_``, ``:``, ``.inf``...)."""
    if tag == "tag:yaml.org,2002:int" and _SIMPLE_INT.fullmatch(text):
        return int(text)
    if tag == "tag:yaml.org,2002:float" and _SIMPLE_FLOAT.fullmatch(text):
        return float(text)
    return None


def _mark(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "MAX_NODES", "_Builder", "_Loader", "_Stop"]
