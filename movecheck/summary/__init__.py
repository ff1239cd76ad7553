"""The post of a turn (``movecheck summary``): a game-neutral model and its four writers.

A post is a title and sections; a section holds blocks (a paragraph, a list, a table)
and the facts it was written from (what ``--format json`` gives scripts).  A rule
system words its own sections (``System.summary``, in the system's own ``summary``
module); this package names no game.  The writers are in
:mod:`movecheck.summary.writers`, the command's run in :mod:`movecheck.summary.run`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Paragraph:
    """A line of prose."""

    text: str


@dataclass(frozen=True)
class Items:
    """A bulleted list."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A table: a header row and rows of the same width."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Union[Paragraph, Items, Table]  # noqa: UP007  (a value, not an annotation)


@dataclass
class Section:
    """One part of the post: a phase of a file, the board, the findings."""

    title: str
    kind: str
    """What the section tells: ``findings``, ``orders``, ``battles``, ``board`` ... (the json's ``kind``)."""
    blocks: list[Block] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    """The same facts as data (names as the map writes them), for ``--format json``."""

    def paragraph(self, text: str) -> None:
        self.blocks.append(Paragraph(text))

    def items(self, items: list[str]) -> None:
        if items:
            self.blocks.append(Items(tuple(items)))

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        if rows:
            self.blocks.append(Table(tuple(headers), tuple(tuple(row) for row in rows)))


@dataclass
class Post:
    """The whole post: its title, the files it covers and its sections in order."""

    title: str
    files: list[dict[str, Any]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)


@dataclass
class Checked:
    """One input file as ``check`` saw it, handed to its system's summary hook.

    ``kind`` is the file's kind (``aa-orders``, ``aa-state``, ``maneuver-orders`` ...);
    ``verdicts`` each order's verdict (1-based; empty for a state); ``outcome`` and
    ``prepared`` what the system returned (None for a state's ``outcome``); ``legal``:
    every order is legal and no error was found, so what the orders did may be told as done.
    ``extras``: what the post was asked to add (``summary --luck``: ``luck``), for the system to give.
    """

    path: str
    kind: str
    doc: Any
    prepared: Any
    outcome: Any = None
    verdicts: dict[int, Any] = field(default_factory=dict)
    findings: list[Any] = field(default_factory=list)
    legal: bool = False
    extras: frozenset[str] = frozenset()

    def not_done(self, section: Section, shown: int, nothing: str) -> int:
        """Say in ``section`` how many orders are not done (or ``nothing`` when no order was
        shown); the count of orders not legal."""
        from movecheck.findings import Verdict
        from movecheck.i18n import ngettext

        refused = sum(1 for v in self.verdicts.values() if v is not Verdict.LEGAL)
        if refused:
            section.paragraph(ngettext("{n} order is not done (see the findings above).",
                                       "{n} orders are not done (see the findings above).", refused).format(n=refused))
        elif not shown:
            section.paragraph(nothing)
        return refused
