"""The four writers of a post: markdown, bbcode, text and json.

Each writes the same sections in the same order.  Every text from a file (names, paths,
messages) first has its control and bidi characters made visible
(:func:`movecheck.render.escape.escape`; json: :func:`~movecheck.render.escape.escape_json`),
so a post cannot rewrite the screen or the thread it is pasted in, and every ``@``, ``//`` and
dot of a host made full-width (:func:`~movecheck.render.escape.unlinked`), so a name cannot
notify a group or become a link (json: in the post's text, not in its ``facts`` and ``files``,
which are data).  Then what each escapes is its own: markdown backslash-escapes the characters
that would start markup (and ``|`` in tables), bbcode turns square brackets of names into full-width ones (phpBB has no
escape, see docs/decisions.md, "The post of a turn"), text and json write the text as it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from movecheck.render.escape import escape, escape_json, unlinked
from movecheck.summary import Block, Items, Paragraph, Post, Table

SUMMARY_VERSION = 1
"""The format version of ``--format json`` (its ``movecheck`` key)."""

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def _md(text: str) -> str:
    """Text that markdown shows as written."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _plain(text))


def _plain(text: str) -> str:
    """Text with no control character, mention or link left in it (every writer's first step)."""
    return unlinked(escape(text))


def markdown(post: Post) -> str:
    """Discourse, NodeBB and GitHub: headings, lists, pipe tables."""
    out = [f"## {_md(post.title)}", ""]
    for section in post.sections:
        out += [f"### {_md(section.title)}", ""]
        for block in section.blocks:
            out += [*_md_block(block), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _md_block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [_md(block.text)]
    if isinstance(block, Items):
        return [f"- {_md(item)}" for item in block.items]
    lines = ["| " + " | ".join(_md(h) for h in block.headers) + " |", "|" + "---|" * len(block.headers)]
    return lines + ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in block.rows]


def _bb(text: str) -> str:
    """Text that a phpBB-style forum shows as written: no square bracket can open a tag."""
    return _plain(text).replace("[", "\uff3b").replace("]", "\uff3d")


def bbcode(post: Post) -> str:
    """phpBB-style forums: ``[b]``, ``[list]``/``[*]``; no ``[table]`` (the default phpBB dialect
    lacks it), so a table is a list of its rows, the first cell bold."""
    out = [f"[size=150][b]{_bb(post.title)}[/b][/size]", ""]
    for section in post.sections:
        out += [f"[b]{_bb(section.title)}[/b]"]
        for block in section.blocks:
            out += _bb_block(block)
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _bb_block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [_bb(block.text)]
    if isinstance(block, Items):
        return ["[list]"] + [f"[*]{_bb(item)}" for item in block.items] + ["[/list]"]
    rows = []
    for row in block.rows:
        rest = "; ".join(f"{_bb(h)}: {_bb(cell)}" for h, cell in zip(block.headers[1:], row[1:], strict=False) if cell)
        rows.append(f"[*][b]{_bb(row[0])}[/b]" + (f" — {rest}" if rest else ""))
    return ["[list]", *rows, "[/list]"]


def text(post: Post) -> str:
    """E-mail: underlined headings, dashes for lists, tables in aligned columns."""
    title = _plain(post.title)
    out = [title, "=" * _columns(title), ""]
    for section in post.sections:
        heading = _plain(section.title)
        out += [heading, "-" * _columns(heading)]
        for block in section.blocks:
            out += [*_text_block(block), ""]
        if not section.blocks:
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _columns(text: str) -> int:
    """The columns ``text`` takes in a monospaced font: a wide character (the full-width at sign of
    :func:`~movecheck.render.escape.unlinked`, CJK) takes two."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(char) in "FW" else 1 for char in text)


def _text_block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        return [_plain(block.text)]
    if isinstance(block, Items):
        return [f"- {_plain(item)}" for item in block.items]
    table = Table(tuple(_plain(h) for h in block.headers), tuple(tuple(_plain(c) for c in row) for row in block.rows))
    widths = [max(_columns(str(row[k])) for row in (table.headers, *table.rows)) for k in range(len(table.headers))]

    def line(cells: tuple[str, ...]) -> str:
        padded = (cell + " " * (width - _columns(cell)) for cell, width in zip(cells, widths, strict=False))
        return "  ".join(padded).rstrip()

    return [line(table.headers), "  ".join("-" * w for w in widths)] + [line(row) for row in table.rows]


def as_json(post: Post) -> dict[str, Any]:
    """The post as data (schema ``summary``)."""
    return {
        "movecheck": SUMMARY_VERSION,
        "title": unlinked(post.title),
        "files": post.files,
        "sections": [
            {"title": unlinked(s.title), "kind": s.kind, "facts": s.facts, "blocks": [_json_block(b) for b in s.blocks]}
            for s in post.sections
        ],
    }


def _json_block(block: Block) -> dict[str, Any]:
    if isinstance(block, Paragraph):
        return {"type": "paragraph", "text": unlinked(block.text)}
    if isinstance(block, Items):
        return {"type": "list", "items": [unlinked(item) for item in block.items]}
    return {"type": "table", "headers": [unlinked(h) for h in block.headers],
            "rows": [[unlinked(cell) for cell in row] for row in block.rows]}


def json_text(post: Post) -> str:
    return escape_json(json.dumps(as_json(post), indent=2, ensure_ascii=False)) + "\n"


WRITERS: dict[str, Callable[[Post], str]] = {"markdown": markdown, "bbcode": bbcode, "text": text, "json": json_text}
"""``--format`` -> the writer of the post."""
