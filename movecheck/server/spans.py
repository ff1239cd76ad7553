"""Where each YAML node of a buffer starts and ends, and which node is under the cursor.

A finding names the start of its node (line and column, 1-based); an editor underlines a
range, so the server reads the buffer's YAML events once per version of its text and
keeps, for every node and key, its start and end.  The same table answers "what is at
the cursor" for completion, hover and go-to-definition: the innermost node there, with
its document path (``("moves", 3, "path", 1)``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import yaml

from movecheck.json_positions import spans

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the pure-Python loader when PyYAML has no libyaml

Point = tuple[int, int]
"""A 0-based (line, character) place in the text."""

_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)
MAX_EVENTS = 500_000
"""Past this many YAML events the table stops growing (findings beyond it get a one-word range)."""


class Node(NamedTuple):
    """One node (or key) of the buffer: its document path, where it starts and ends, its text (a named tuple: made
    for every node of a buffer on each re-check, three times cheaper than a frozen dataclass, issue 37)."""

    path: tuple[Any, ...]
    start: Point
    end: Point
    value: Any = None
    is_key: bool = False


@dataclass
class _Frame:
    path: tuple[Any, ...]
    start: Point
    mapping: bool
    index: int = 0
    key: Any = None
    expecting_key: bool = True


def _point(mark: Any) -> Point:
    """Where a parser event's mark is; PyYAML's parser marks every event, (0, 0) stands in for a missing mark."""
    return (mark.line, mark.column) if mark is not None else (0, 0)


class Spans:
    """The nodes of one version of a buffer's text, read when first asked for (issue 37: a check with nothing to
    show reads none); ``events``: the text's YAML events, from a reading the check shares (else the text is read);
    ``json``: the text is a JSON file the json module read, whose nodes are read from its text where the scanner can
    (:func:`movecheck.json_positions.spans`, the same nodes)."""

    def __init__(self, text: str, events: Callable[[], Iterable[Any]] | None = None, json: bool = False) -> None:
        self.text = text
        self.lines = text.splitlines()
        self._events = events
        self._json = json
        self._table: tuple[list[Node], dict[Point, Node]] | None = None
        self._ends: dict[Point, Point] | None = None

    @property
    def nodes(self) -> list[Node]:
        """Every node and key, in the order the text has them."""
        return self._read_once()[0]

    @property
    def _by_start(self) -> dict[Point, Node]:
        return self._read_once()[1]

    def _read_once(self) -> tuple[list[Node], dict[Point, Node]]:
        table = self._table
        if table is None:  # two threads may read it at once: each reads its own, one is kept
            found: list[Node] = self._scanned()
            with contextlib.suppress(yaml.YAMLError, ValueError):  # a broken file: the nodes before the break
                if not found:
                    self._read(self._events() if self._events is not None else yaml.parse(self.text, Loader=_Loader),
                               found)
            by_start: dict[Point, Node] = {}
            for node in found:
                by_start.setdefault(node.start, node)
            table = self._table = (found, by_start)
        return table

    def _ends_by_start(self) -> dict[Point, Point]:
        """Where the node :attr:`_by_start` has at each start ends: all a finding's range asks (issue 37).  A YAML
        text's read from its events with no node made (no paths): the first scalar, alias or key event to start
        there, else the first collection to end there, as :meth:`_read` appends them; the table's when it is read."""
        ends = self._ends
        if ends is None:
            scanned = spans(self.text) if self._json and self._table is None else None
            if scanned:  # a JSON text's nodes read from its text, no node made
                ends = {}
                for _path, start, end, _value, _key in scanned:
                    ends.setdefault(start, end)
            elif self._json or self._table is not None:
                ends = {start: node.end for start, node in self._by_start.items()}
            else:
                ends = {}
                with contextlib.suppress(yaml.YAMLError, ValueError):  # a broken file: the nodes before the break
                    self._read_ends(self._events() if self._events is not None else yaml.parse(self.text,
                                                                                                 Loader=_Loader), ends)
            self._ends = ends
        return ends

    @staticmethod
    def _read_ends(events: Iterable[Any], ends: dict[Point, Point]) -> None:
        """:meth:`_read`'s walk of the events, noting each node's start and end only."""
        stack: list[list[Any]] = []  # each open collection: its start, is it a mapping, does it expect a key
        for count, event in enumerate(events):
            if count > MAX_EVENTS:
                return
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                ends.setdefault(stack.pop()[0], _point(event.end_mark))
                if stack and stack[-1][1]:
                    stack[-1][2] = True
                continue
            if not isinstance(event, _NODE_EVENTS):
                continue
            start = _point(event.start_mark)
            collection = isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent))
            parent = stack[-1] if stack else None
            if parent is not None and parent[1] and parent[2]:
                ends.setdefault(start, _point(event.end_mark))  # a key
                parent[2] = False
                if collection:
                    stack.append([start, isinstance(event, yaml.MappingStartEvent), True])
                continue
            if collection:
                stack.append([start, isinstance(event, yaml.MappingStartEvent), True])
                continue
            ends.setdefault(start, _point(event.end_mark))
            if parent is not None and parent[1]:
                parent[2] = True

    def _scanned(self) -> list[Node]:
        """The nodes of a JSON text read from the text (none: read its events)."""
        if not self._json:
            return []
        return [Node(*node) for node in spans(self.text) or ()]

    def _read(self, events: Iterable[Any], found: list[Node]) -> None:
        stack: list[_Frame] = []
        add = found.append
        for count, event in enumerate(events):
            if count > MAX_EVENTS:
                return
            start, end = _point(event.start_mark), _point(event.end_mark)
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = stack.pop()
                add(Node(frame.path, frame.start, end))
                self._advance(stack)
                continue
            if not isinstance(event, _NODE_EVENTS):
                continue
            parent = stack[-1] if stack else None
            if parent is not None and parent.mapping and parent.expecting_key:
                key = event.value if isinstance(event, yaml.ScalarEvent) else None
                add(Node((*parent.path, key), start, end, key, is_key=True))
                parent.key, parent.expecting_key = key, False
                if not isinstance(event, yaml.ScalarEvent) and not isinstance(event, yaml.AliasEvent):
                    stack.append(_Frame((*parent.path, None), start, isinstance(event, yaml.MappingStartEvent)))
                continue
            path = self._child(parent)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                stack.append(_Frame(path, start, isinstance(event, yaml.MappingStartEvent)))
                continue
            value = event.value if isinstance(event, yaml.ScalarEvent) else None
            add(Node(path, start, end, value))
            self._advance(stack)

    @staticmethod
    def _child(parent: _Frame | None) -> tuple[Any, ...]:
        if parent is None:
            return ()
        return (*parent.path, parent.key) if parent.mapping else (*parent.path, parent.index)

    @staticmethod
    def _advance(stack: list[_Frame]) -> None:
        """A value was read: the parent expects its next key or item."""
        if not stack:
            return
        parent = stack[-1]
        if parent.mapping:
            parent.expecting_key = True
        else:
            parent.index += 1

    # -- questions ---------------------------------------------------------------------------

    def range_of(self, line: int, column: int) -> tuple[Point, Point]:
        """The range of the node a finding names by its 1-based start (a word when none starts there)."""
        start = (max(line - 1, 0), max(column - 1, 0))
        end = self._ends_by_start().get(start)
        if end is not None and end > start:
            return start, self.clip(Node((), start, end))
        return start, self._word_end(start)

    def clip(self, node: Node) -> Point:
        """A block collection ends at the start of the line after it: end it on its last character."""
        end_line, end_col = node.end
        if end_col == 0 and end_line > node.start[0]:
            end_line -= 1
            while end_line > node.start[0] and not self._line(end_line).strip():
                end_line -= 1
            return end_line, len(self._line(end_line).rstrip())
        return node.end

    def _line(self, number: int) -> str:
        return self.lines[number] if 0 <= number < len(self.lines) else ""

    def _word_end(self, start: Point) -> Point:
        line = self._line(start[0])
        col = start[1]
        if col >= len(line):
            return start[0], max(len(line), col)
        end = col
        while end < len(line) and not line[end].isspace() and line[end] not in ",:]}":
            end += 1
        return start[0], max(end, col + 1)

    def at(self, point: Point) -> Node | None:
        """The innermost scalar node (value or key) under the cursor (its end counts: a word just typed)."""
        best: Node | None = None
        for node in self.nodes:
            one_line = node.start[0] == node.end[0] and isinstance(node.value, str)
            if one_line and node.start <= point <= node.end and (best is None or node.start >= best.start):
                best = node
        return best

    def node(self, path: tuple[Any, ...]) -> Node | None:
        """The value node at a document path."""
        return next((n for n in self.nodes if n.path == path and not n.is_key), None)


def yaml_plain(text: str) -> bool:
    """Does YAML read ``text``, written plain in a flow sequence, back as the same string?"""
    try:
        return bool(yaml.load("[" + text + "]", Loader=_Loader) == [text])
    except yaml.YAMLError:
        return False
