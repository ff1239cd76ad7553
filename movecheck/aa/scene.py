"""What an aa picture shows (:mod:`movecheck.aa.picture` collects it, :mod:`movecheck.aa.svg` draws it)."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass
class Arrow:
    """One order: the centres of its path, who moves, how, and whether it is legal."""

    order: int
    label: str
    power: str
    how: str
    """``move``, ``amphibious``, ``blitz`` or ``illegal``."""
    path: list[str]


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
