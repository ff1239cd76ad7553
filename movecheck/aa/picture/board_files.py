"""TripleA's board files of a map: the shapes, unit places, label points and colours of its spaces.

Read for the built-in maps by ``scripts/gen_layouts.py`` (from ``data/layouts/``) and for
an imported map by ``import triplea --map-folder`` (from the map's folder).  The files come
from strangers: each is read as bounded text, line by line; a line that is not of its
form, that names no space of the map, or whose coordinates are out of range is skipped,
never trusted further.  The formats are TripleA's (``data/layouts/README.md``):

- ``polygons.txt``: ``Name  <  (x,y) (x,y) ... >  <  ... >`` (one or more polygons);
- ``place.txt``: ``Name  (x,y)  (x,y) ...`` (the top-left corners of the unit stacks);
- ``name_place.txt``, ``capitols.txt``, ``vc.txt``: ``Name  (x,y)``;
- ``map.properties``: ``color.<Power>=RRGGBB``.

Shapes are simplified (Douglas-Peucker, :data:`TOLERANCE` pixels) and rounded to whole
pixels: a picture at a forum's width cannot show finer detail.
"""

from __future__ import annotations

import re

MAX_TEXT = 4 * 1024 * 1024
"""The most characters of a board file read."""
MAX_LINES = 20_000
MAX_COORDINATE = 100_000
MAX_POINTS = 200_000
"""The most points of one polygons file kept (the built-in boards have about 50,000)."""
TOLERANCE = 2.0
"""How far (board pixels) a simplified outline may stray from TripleA's."""
_POINT = re.compile(r"\(\s*(-?\d{1,7})\s*,\s*(-?\d{1,7})\s*\)")
_POLYGON = re.compile(r"<([^<>]*)>")
_COLOUR = re.compile(r"^color\.(?P<power>[^=]{1,200})=\s*#?(?P<rgb>[0-9A-Fa-f]{6})\s*$")

Point = tuple[int, int]


def _lines(text: str) -> list[str]:
    return text[:MAX_TEXT].splitlines()[:MAX_LINES]


def _points(text: str) -> list[Point] | None:
    """The ``(x,y)`` points of a piece of a line, None when one is out of range."""
    found = [(int(x), int(y)) for x, y in _POINT.findall(text)]
    if any(not (0 <= v <= MAX_COORDINATE) for point in found for v in point):
        return None
    return found


def read_polygons(text: str, known: set[str]) -> dict[str, list[list[Point]]]:
    """Each known space's outlines (the first line of a name wins), simplified."""
    shapes: dict[str, list[list[Point]]] = {}
    total = 0
    angled = sorted((n for n in known if "<" in n), key=len, reverse=True)  # a name TripleA's format cannot cut
    for line in _lines(text):
        name, bracket, rest = line.partition("<")
        name = name.strip()
        for whole in angled:
            if line.startswith(whole) and line[len(whole):].lstrip().startswith("<"):
                name, bracket, rest = whole, "<", line[len(whole):].lstrip()[1:]
                break
        if not bracket or name not in known or name in shapes:
            continue
        pieces = []
        for group in _POLYGON.findall(bracket + rest):
            points = _points(group)
            if points is None or len(points) < 3:
                continue
            total += len(points)
            if total > MAX_POINTS:
                return shapes
            pieces.append(simplified(points))
        if pieces:
            shapes[name] = pieces
    return shapes


def read_places(text: str, known: set[str]) -> dict[str, list[Point]]:
    """Each known space's unit places (``place.txt``) or single point (the other point files: a list of one)."""
    found: dict[str, list[Point]] = {}
    for line in _lines(text):
        name, bracket, rest = line.partition("(")
        name = name.strip()
        if not bracket or name not in known or name in found:
            continue
        points = _points(bracket + rest.split("|")[0])
        if points:
            found[name] = points
    return found


def read_point(text: str, known: set[str]) -> dict[str, Point]:
    """The first point of each known space of a ``Name  (x,y)`` file."""
    return {name: points[0] for name, points in read_places(text, known).items()}


def read_colours(text: str) -> dict[str, str]:
    """``color.<Power>=RRGGBB`` of a ``map.properties``: power (or ``Neutral``, ``Impassable``) -> ``#rrggbb``."""
    colours = {}
    for line in _lines(text):
        found = _COLOUR.match(line.strip())
        if found:
            colours[found["power"].strip()] = "#" + found["rgb"].lower()
    return colours


def simplified(points: list[Point], tolerance: float = TOLERANCE) -> list[Point]:
    """A closed outline with the points that stray less than ``tolerance`` from it left out (Douglas-Peucker)."""
    if len(points) <= 4:
        return points
    far = max(range(len(points)), key=lambda k: (points[k][0] - points[0][0]) ** 2 + (points[k][1] - points[0][1]) ** 2)
    first = _kept(points[: far + 1], tolerance)
    second = _kept([*points[far:], points[0]], tolerance)
    out = first[:-1] + second[:-1]
    return out if len(out) >= 3 else points[:3]


def _kept(points: list[Point], tolerance: float) -> list[Point]:
    """Douglas-Peucker on an open polyline (its ends kept), without recursion."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        start, end = stack.pop()
        if end - start < 2:
            continue
        worst, at = _farthest(points, start, end)
        if worst > tolerance:
            keep[at] = True
            stack.append((start, at))
            stack.append((at, end))
    return [p for p, kept in zip(points, keep, strict=True) if kept]


def _farthest(points: list[Point], start: int, end: int) -> tuple[float, int]:
    (x0, y0), (x1, y1) = points[start], points[end]
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    worst, at = -1.0, start + 1
    for k in range(start + 1, end):
        x, y = points[k]
        if length == 0:
            distance = ((x - x0) ** 2 + (y - y0) ** 2) ** 0.5
        else:
            distance = abs(dy * (x - x0) - dx * (y - y0)) / length
        if distance > worst:
            worst, at = distance, k
    return worst, at
