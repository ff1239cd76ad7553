"""Where the labels of a picture go so that they stay readable on paper: clear of bases, paths and each other.

A label is a box (its text's width and height estimated from the font size); a
:class:`Placer` keeps the boxes of what is drawn (base rectangles by their bounding boxes,
path segments, labels already placed) and gives each new label the first of its
candidate places that meets none of them (the first candidate when all do).
Pure Python, deterministic.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

Vec = tuple[float, float]
Box = tuple[float, float, float, float]

CHAR_WIDTH = 0.6
"""A character's width, in font sizes (an estimate for Helvetica's digits and lower case)."""

ASCENT = 0.75
"""How far text reaches above its baseline, in font sizes."""


def text_box(at: Vec, text: str, size: float, anchor: str = "middle") -> Box:
    """The box of a text drawn with its baseline at ``at`` (battlefield coordinates, y up)."""
    width = CHAR_WIDTH * size * max(len(text), 1)
    left = at[0] - width / 2 if anchor == "middle" else at[0] if anchor == "start" else at[0] - width
    return (left, at[1] - 0.2 * size, left + width, at[1] + ASCENT * size)


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Box, p: Vec, q: Vec) -> bool:
    """Whether the segment from ``p`` to ``q`` passes through the box (Liang-Barsky)."""
    lo, hi = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for delta, start, low, high in ((dx, p[0], box[0], box[2]), (dy, p[1], box[1], box[3])):
        if abs(delta) < 1e-12:
            if start <= low or start >= high:
                return False
            continue
        t1, t2 = (low - start) / delta, (high - start) / delta
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
        if lo >= hi:
            return False
    return True


class Placer:
    """The boxes and segments labels must keep clear of."""

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.segments: list[tuple[Vec, Vec]] = []

    def block(self, points: Iterable[Vec]) -> None:
        """A shape the labels keep off (by its bounding box)."""
        pts = list(points)
        if pts:
            self.boxes.append((min(p[0] for p in pts), min(p[1] for p in pts),
                               max(p[0] for p in pts), max(p[1] for p in pts)))

    def line(self, path: Sequence[Vec]) -> None:
        """A polyline the labels keep off."""
        self.segments.extend(itertools.pairwise(path))

    def free(self, box: Box) -> bool:
        """Whether a box meets nothing kept so far."""
        return not any(_meet(box, b) for b in self.boxes) and not any(_crosses(box, p, q) for p, q in self.segments)

    def place(self, candidates: Sequence[Vec], text: str, size: float, anchor: str = "middle") -> Vec:
        """The first candidate whose label box is free (else the first), kept from now on."""
        chosen = next((at for at in candidates if self.free(text_box(at, text, size, anchor))), candidates[0])
        self.boxes.append(text_box(chosen, text, size, anchor))
        return chosen


def around(centre: Vec, half: Vec, heading: Vec, gap: float, text: str, size: float) -> list[Vec]:
    """Text baselines around a shape: behind it, to its left and right, ahead of it, then further out.

    ``half``: the shape's half extents along and across ``heading`` (a unit vector).
    """
    hx, hy = heading
    rx, ry = hy, -hx  # to the right of the heading
    along, across = half
    w, h = CHAR_WIDTH * size * max(len(text), 1), (ASCENT + 0.2) * size
    places = []
    for reach in (1.0, 2.5, 4.0):
        for ux, uy, extent in ((-hx, -hy, along), (-rx, -ry, across), (rx, ry, across), (hx, hy, along)):
            push = extent + gap * reach + abs(ux) * w / 2 + abs(uy) * h / 2
            places.append((centre[0] + ux * push, centre[1] + uy * push - (ASCENT - 0.2) / 2 * size))
    return places
