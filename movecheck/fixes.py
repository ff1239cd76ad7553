"""Fixes as data (issue 42): the edits a finding suggests, so every client makes the same one.

A clause that suggests a replacement ("did you mean 'Germany'?") gives its finding one
:class:`Fix` per name: a title and the edits that make it, each a range of the file (1-based
lines and columns, as the finding's own; the end column is the column just past the
replaced text) and the text that replaces it.  The JSON report writes them as ``fixes``,
SARIF as its ``fix`` objects, and the server's quick fixes and ``movecheck.applyAllFixes``
make them as they are: none of them reads the names back out of the message.

The replaced node is the scalar (value or key) the finding underlines; the new text keeps its
quoting (a single-quoted name stays single-quoted) and is plain only where YAML reads it back
as the same string.  Where the scalar cannot be found exactly (the document was read as JSON
with no YAML marks, or the path has no node of its own), no fix is given: a fix is never a
guess at a range.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, Protocol

import yaml

from movecheck.i18n import _
from movecheck.records import dataclass_on_first_use


class Document(Protocol):
    """What a fix reads of a loaded file (:class:`movecheck.document.Document`, which imports findings, which name
    :class:`Fix`: a protocol here keeps the imports from going round in a circle)."""

    text: str
    positions: dict[tuple[Any, ...], tuple[int, int]]
    key_positions: dict[tuple[Any, ...], tuple[int, int]]

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALARS = "_fix_scalars"  # the attribute of a document that keeps its scalars' extents once read
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._()/&'-]*")
_PLAIN_TAIL = re.compile(r"[A-Za-z0-9._()'-]")


@dataclass_on_first_use(frozen=True)
class Edit:
    """Replace the text from (line, column) up to (end_line, end_column), 1-based, by ``text``."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def to_json(self) -> dict[str, Any]:
        """The edit as the JSON report writes it."""
        return {"line": self.line, "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "text": self.text}


@dataclass_on_first_use(frozen=True)
class Fix:
    """One way to fix a finding: a short title and its edits (of the finding's file)."""

    title: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, Any]:
        """The fix as the JSON report writes it."""
        return {"title": self.title, "edits": [edit.to_json() for edit in self.edits]}


@dataclass_on_first_use(frozen=True)
class _Scalar:
    end: tuple[int, int]  # 1-based line and column just past the scalar
    value: str
    style: str | None


def _scalars(doc: Document) -> dict[tuple[int, int], _Scalar]:
    """Every scalar of the document by its 1-based start, read from its text once."""
    found: dict[tuple[int, int], _Scalar] | None = getattr(doc, _SCALARS, None)
    if found is not None:
        return found
    found = {}
    try:
        for event in yaml.parse(doc.text, Loader=_Loader):
            if isinstance(event, yaml.ScalarEvent) and event.start_mark is not None and event.end_mark is not None:
                start = (event.start_mark.line + 1, event.start_mark.column + 1)
                end = (event.end_mark.line + 1, event.end_mark.column + 1)
                found[start] = _Scalar(end, event.value, event.style or None)  # libyaml's plain style is ''
    except (yaml.YAMLError, ValueError):
        found = {}
    setattr(doc, _SCALARS, found)
    return found


def yaml_text(name: str, style: str | None = None) -> str:
    """``name`` written as a YAML scalar that reads back as the same string, in the quoting ``style`` replaced."""
    if style == '"':
        return json.dumps(name, ensure_ascii=False)
    plain = (style is None and _PLAIN.fullmatch(name) is not None and _PLAIN_TAIL.match(name[-1]) is not None
             and yaml.load(name, Loader=_Loader) == name)
    return name if plain else "'" + name.replace("'", "''") + "'"


def replacements(doc: Document, path: tuple[Any, ...], names: Iterable[str], key: bool = False) -> tuple[Fix, ...]:
    """One fix per name, each replacing the scalar at ``path`` (its key when ``key``) by the name; none when the
    scalar is not found exactly where the finding is."""
    names = list(dict.fromkeys(str(name) for name in names))
    table = doc.key_positions if key else doc.positions
    start = table.get(tuple(path)) if names else None
    scalar = _scalars(doc).get(start) if start is not None else None
    if start is None or scalar is None:
        return ()
    return tuple(
        Fix(_("Replace with {name}").format(name=name),
            (Edit(start[0], start[1], scalar.end[0], scalar.end[1], yaml_text(name, scalar.style)),))
        for name in names if name != scalar.value
    )
