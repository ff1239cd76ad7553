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

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')
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


def scan(text: str) -> Tables | None:
    """The position tables of a JSON ``text`` the json module read cleanly, or None (read it the YAML way)."""
    starts = [0] + [m.end() for m in _LINE_END.finditer(text)]
    positions: dict[tuple[Any, ...], tuple[int, int]] = {}
    keys: dict[tuple[Any, ...], tuple[int, int]] = {}
    implicit: dict[tuple[Any, ...], ImplicitScalar] = {}
    stack: list[_Frame] = []
    plains: dict[str, ImplicitScalar | None] = {}
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in ",:":
            continue
        offset = match.start()
        line = bisect.bisect_right(starts, offset)
        where = (line, offset - starts[line - 1] + 1)
        if first in "]}":
            stack.pop()
            _advance(stack)
            continue
        parent = stack[-1] if stack else None
        if parent is not None and parent.expecting_key:
            if first != '"' or "\\" in token:
                return None
            parent.key = token[1:-1]
            parent.expecting_key = False
            keys[(*parent.path, parent.key)] = where
            continue
        path = () if parent is None else (*parent.path, parent.key if parent.mapping else parent.index)
        positions[path] = where
        if first in "[{":
            stack.append(_Frame(path, first == "{"))
            continue
        if first != '"':
            if token not in plains:
                plains[token] = _plain(token)
            found = plains[token]
            if found is not None:  # one object per node, as the YAML reading makes
                implicit[path] = ImplicitScalar(found.text, found.tag, found.value, found.too_long)
        _advance(stack)
    return None if stack else (positions, keys, implicit)


def _advance(stack: list[_Frame]) -> None:
    """A value was read: its parent expects the next key or item."""
    if stack:
        parent = stack[-1]
        if parent.mapping:
            parent.expecting_key = True
        else:
            parent.index += 1
