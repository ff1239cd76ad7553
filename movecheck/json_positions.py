"""Where each node of a JSON file starts, read from the JSON text itself (issue 37).

A ``.json`` file that the json module reads as the YAML reading would (:func:`movecheck.loading._read_json`) has its
positions found when a finding first asks for one.  Reading them the YAML way builds the whole document again event
by event; this scanner reads the same tables (``positions``, ``key_positions``, ``implicit``) from the text's tokens,
line and column as the YAML parser marks them (1-based, in characters; ``\\r\\n``, ``\\r`` and ``\\n`` end a line).
It declines (returns None) whatever it does not read exactly as the YAML way does, a key with an escape among them:
the caller then reads the YAML way.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

import yaml

from movecheck.document import Document, ImplicitScalar
from movecheck.yaml_builder import MAX_DEPTH, MAX_NODES, _Builder

Tables = tuple[dict[tuple[Any, ...], tuple[int, int]], dict[tuple[Any, ...], tuple[int, int]],
               dict[tuple[Any, ...], ImplicitScalar]]

_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]]|[^\s{}\[\],:"]+')
"""A token of a JSON text: a string, a bracket or a plain scalar; the separators (``,`` and ``:``, which the json
module read as separators only) match nothing and are stepped over (issue 37: half the tokens of a turn)."""
_LINE_END = re.compile(r"\r\n|\r|\n")


class _Frame:
    __slots__ = ("expecting_key", "index", "key", "mapping", "path")

    def __init__(self, path: tuple[Any, ...], mapping: bool) -> None:
        self.path = path
        self.mapping = mapping
        self.index = 0
        self.key: Any = None
        self.expecting_key = mapping


def _plain(text: str) -> ImplicitScalar | None:
    """What the YAML reading notes of a plain scalar of a JSON file (a number, ``true``, ``false``, ``null``)."""
    builder = _Builder(Document(path="plain.json"), MAX_DEPTH, MAX_NODES)
    return builder._scalar(yaml.ScalarEvent(None, None, (True, False), text))[1]


Entry = tuple[str, tuple[Any, ...], int, int, str]
"""One node of the text: its kind (``key``, ``open``, ``scalar``, ``close``), document path, start and end offsets
(an ``open`` ends where it starts; a ``close`` starts where its collection opened) and its token."""


_LAST: tuple[str, list[Entry] | None] = ("", [])
"""The last text walked and its nodes (the server's check reads its positions and then its ranges of one text)."""


def _walk(text: str) -> list[Entry] | None:
    """The nodes of a JSON ``text`` in the order the YAML parser's events give them, or None (a key with an escape,
    a text the json module would not read); the last text's are kept (entries are tuples: no reader changes them)."""
    global _LAST
    last = _LAST
    if last[0] == text and text:
        return last[1]
    entries = _walk_anew(text)
    _LAST = (text, entries)
    return entries


def _walk_anew(text: str) -> list[Entry] | None:
    entries: list[Entry] = []
    add = entries.append
    stack: list[_Frame] = []
    opened: list[int] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        offset = match.start()
        if first in "]}":
            if not stack:
                return None
            add(("close", stack.pop().path, opened.pop(), match.end(), token))
            _advance(stack)
            continue
        parent = stack[-1] if stack else None
        if parent is not None and parent.expecting_key:
            if first != '"' or "\\" in token:
                return None
            parent.key = token[1:-1]
            parent.expecting_key = False
            add(("key", (*parent.path, parent.key), offset, match.end(), token))
            continue
        path = () if parent is None else (*parent.path, parent.key if parent.mapping else parent.index)
        if first in "[{":
            add(("open", path, offset, offset, token))
            stack.append(_Frame(path, first == "{"))
            opened.append(offset)
            continue
        add(("scalar", path, offset, match.end(), token))
        _advance(stack)
    return None if stack else entries


class _Lines:
    """Line and column of an offset, as the YAML parser counts them (0-based)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in _LINE_END.finditer(text)]

    def point(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]


_POINTS: tuple[list[Entry] | None, list[tuple[tuple[int, int], tuple[int, int]]]] = (None, [])
"""The last walk's entries and their start and end points (:func:`_points`: its positions and ranges share them)."""


def _points(text: str, entries: list[Entry]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each entry's start and end (line, column), 0-based, in one pass (issue 37): a token never spans a line (the
    json module reads no raw line end in a string), so the line of each token's end is that of its last character,
    and the tokens come in the order of the text (a ``close``'s start, where its collection opened, is looked up)."""
    global _POINTS
    if _POINTS[0] is entries:
        return _POINTS[1]
    lines = _Lines(text)
    starts = lines.starts
    found: list[tuple[tuple[int, int], tuple[int, int]]] = []
    line, after = 0, starts[1] if len(starts) > 1 else len(text) + 1
    for kind, _path, start, end, _token in entries:
        last = max(end - 1, start)
        while last >= after:
            line += 1
            after = starts[line + 1] if line + 1 < len(starts) else len(text) + 1
        begin = lines.point(start) if kind == "close" else (line, start - starts[line])
        found.append((begin, (line, end - starts[line])))
    _POINTS = (entries, found)
    return found


def scan(text: str) -> Tables | None:
    """The position tables of a JSON ``text`` the json module read cleanly, or None (read it the YAML way)."""
    entries = _walk(text)
    if entries is None:
        return None
    positions: dict[tuple[Any, ...], tuple[int, int]] = {}
    keys: dict[tuple[Any, ...], tuple[int, int]] = {}
    implicit: dict[tuple[Any, ...], ImplicitScalar] = {}
    plains: dict[str, ImplicitScalar | None] = {}
    for (kind, path, _start, _end, token), ((line, column), _after) in zip(entries, _points(text, entries),
                                                                          strict=True):
        if kind == "close":
            continue
        if kind == "key":
            keys[path] = (line + 1, column + 1)
            continue
        positions[path] = (line + 1, column + 1)
        if kind == "scalar" and token[0] != '"':
            if token not in plains:
                plains[token] = _plain(token)
            found = plains[token]
            if found is not None:  # one object per node, as the YAML reading makes
                implicit[path] = ImplicitScalar(found.text, found.tag, found.value, found.too_long)
    return positions, keys, implicit


Span = tuple[tuple[Any, ...], tuple[int, int], tuple[int, int], Any, bool]
"""A node as the editor's ranges keep it (:class:`movecheck.server.spans.Node`): path, 0-based start and end, value,
whether it is a key."""


def spans(text: str) -> list[Span] | None:
    """The editor's nodes of a JSON ``text`` the json module read cleanly, in the order the YAML events give them
    (scalars and keys where they stand, a collection where it ends), or None (read its YAML events); a text with any
    escape is left to the YAML reading (a value's text is what the YAML parser decodes)."""
    if "\\" in text:
        return None
    entries = _walk(text)
    if entries is None:
        return None
    found: list[Span] = []
    for (kind, path, _start, _end, token), (begin, end) in zip(entries, _points(text, entries), strict=True):
        if kind == "open":
            continue
        value = None if kind == "close" else token[1:-1] if token[0] == '"' else token
        found.append((path, begin, end, value, kind == "key"))
    return found


def _advance(stack: list[_Frame]) -> None:
    """A value was read: its parent expects the next key or item."""
    if stack:
        parent = stack[-1]
        if parent.mapping:
            parent.expecting_key = True
        else:
            parent.index += 1
