"""What a maneuver picture shows (:class:`Scene`), as :mod:`movecheck.maneuver.picture` collects it from the
battlefield and the run of ``check`` and :mod:`movecheck.maneuver.svg` draws it: the picture's types, in a
module of their own that every drawing module may import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Vec = tuple[float, float]


@dataclass(frozen=True)
class Outline:
    """A base's rectangle at one pose: corners front-left, rear-left, rear-right, front-right."""

    base: str
    side: str
    corners: tuple[Vec, ...]


@dataclass(frozen=True)
class Area:
    """A terrain element: its polygon as the file draws it."""

    id: str
    kind: str
    title: str
    points: tuple[Vec, ...]
    name: str = ""
    """Its ``name:`` for people (none: labelled by its id)."""


@dataclass(frozen=True)
class Group:
    """A corps' outline: the convex hull of its bases."""

    id: str
    side: str
    ring: tuple[Vec, ...]


@dataclass(frozen=True)
class Note:
    """One finding as the list below the field shows it."""

    code: str
    severity: str
    text: str
    side: str | None = None
    """The side whose corps or orders it is about (None: the battlefield as a whole)."""


@dataclass
class Move:
    """One base moved by one order: where it goes, where the rules want it, and what was found."""

    order: int
    label: str
    base: str
    side: str
    path: list[Vec]
    end: Outline
    required: Outline | None = None
    swept: list[tuple[Vec, ...]] = field(default_factory=list)
    codes: list[tuple[str, str]] = field(default_factory=list)
    rolls: str | None = None
    """The declared rolls the base's walk used and the allowance they left (``brook D1 4 → 6``)."""


@dataclass
class Scene:
    """Everything one picture shows."""

    title: str
    width: float
    depth: float
    sides: list[str]
    terrain: list[Area] = field(default_factory=list)
    landmarks: list[tuple[str, Vec]] = field(default_factory=list)
    bases: list[Outline] = field(default_factory=list)
    corps: list[Group] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    reach: list[Any] = field(default_factory=list)
    reach_ends: list[Any] = field(default_factory=list)
    marks: list[tuple[str, Vec, str]] = field(default_factory=list)
    """Landmarks that are a terrain element or a corps: id, where the mark goes, ``terrain`` or ``corps``."""
    targets: list[tuple[int, str, Vec, Vec]] = field(default_factory=list)
    """Move to landmark orders: order number, landmark id, the corps' reference point, the point it heads for."""
