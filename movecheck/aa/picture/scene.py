"""What an aa picture shows (:mod:`.collect` collects it, :mod:`.svg` draws it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.aa.picture.layout import BoardShapes

Point = tuple[float, float]


@dataclass
class Place:
    """One space as the picture shows it."""

    name: str
    at: Point
    sea: bool
    neutral: bool
    holder: str | None
    factory: bool = False
    units: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    """Per power (in the map's order of powers), the count of each unit type."""
    battle: bool = False
    production: int | None = None
    impassable: bool = False
    damage: int = 0
    """The damage on its factory."""
    taken: str | None = None
    """``captured`` or ``liberated`` by the turn drawn, else None."""


@dataclass
class Arrow:
    """One order: the centres of its path, who moves, how, and whether it is legal."""

    order: int
    label: str
    power: str
    how: str
    """``move``, ``attack``, ``amphibious``, ``blitz``, ``raid`` or ``illegal``."""
    path: list[str]
    what: str = ""
    """What moved: ``2 inf, 1 arm``."""


@dataclass
class Marker:
    """A finding's code at its space (None: in the margin)."""

    code: str
    severity: str
    space: str | None
    order: int | None


@dataclass
class Note:
    code: str
    severity: str
    text: str


@dataclass
class Board:
    """Everything one aa picture shows."""

    title: str
    width: float
    height: float
    wrap_x: bool
    powers: list[str]
    places: dict[str, Place] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    computed: bool = False
    shapes: BoardShapes | None = None
    """The board's shapes (a map with a board): drawn as the board, else as a diagram."""
    placements: list[tuple[str, str, dict[str, int]]] = field(default_factory=list)
    """A mobilization's placements: space, power, counts by type."""
    banner: list[str] = field(default_factory=list)
    """Lines said in the picture over the board (a purchase: what was bought)."""
    turn: bool = False
    """The picture is of a file of the turn (orders, results, purchase, mobilization), not of a state."""
    around: str | None = None
    """The part of the board shown: ``all``, or a margin in pixels around what the turn touches (None: by the file)."""
