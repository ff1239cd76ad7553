"""Where each space of an aa map sits, for pictures (``movecheck render``).

A layout is the board's size, whether it wraps east-west, and the centre of every
space.  The built-in maps carry one generated from the shared facts
(``scripts/gen_layouts.py`` -> ``movecheck/aa/maps/NAME.layout.json``); a map file may
carry its own under ``layout:`` (``import triplea --map-folder`` writes it from the
TripleA map folder's ``centers.txt``); any other map gets a layout computed from its
connections (:func:`computed`: pure Python, no optional package, bounded work).

``centers.txt`` and ``map.properties`` come from strangers: they are read as bounded
text, line by line, and a line that is not ``Name  (x,y)`` with a known name and
coordinates in range is skipped with a note, never trusted further.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from movecheck.reading import InputError, read_regular

MAX_TEXT = 2 * 1024 * 1024
"""The most characters of a ``centers.txt`` or ``map.properties`` read."""
MAX_LINES = 20_000
MAX_NAME = 200
MAX_COORDINATE = 100_000
DEFAULT_SIZE = (3500.0, 2000.0)
_CENTRE = re.compile(r"^(?P<name>\S.{0,200}?)\s+\(\s*(?P<x>-?\d{1,7})\s*,\s*(?P<y>-?\d{1,7})\s*\)\s*$")
"""A line of ``centers.txt``: a name of at most :data:`MAX_NAME` characters, then ``(x,y)``."""


@dataclass
class Layout:
    """A board's size and the centre of each space (pixels of the board, y downwards)."""

    width: float
    height: float
    wrap_x: bool = False
    centers: dict[str, tuple[float, float]] = field(default_factory=dict)
    computed: bool = False
    """The positions were computed from the connections (no layout was given)."""
    board: BoardShapes | None = None
    """The board's shapes, unit places, label points and colours (a map with a board), else None."""

    def as_data(self) -> dict[str, Any]:
        """The layout as a map file's ``layout:`` (and the generated files) write it."""
        data: dict[str, Any] = {
            "width": _int(self.width), "height": _int(self.height), "wrap_x": self.wrap_x,
            "centers": {name: [_int(x), _int(y)] for name, (x, y) in self.centers.items()}}
        if self.board is not None:
            data.update(self.board.as_data())
        return data


@dataclass
class BoardShapes:
    """What draws a map as its board (TripleA's board files, :mod:`movecheck.aa.picture.board_files`)."""

    shapes: dict[str, list[list[tuple[int, int]]]] = field(default_factory=dict)
    """Space -> its polygons (several for islands), closed implicitly."""
    places: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Space -> the top-left corners of its unit stacks, in the order they fill."""
    labels: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Space -> where its name starts (left end, baseline)."""
    capitals: dict[str, tuple[int, int]] = field(default_factory=dict)
    victory: dict[str, tuple[int, int]] = field(default_factory=dict)
    colours: dict[str, str] = field(default_factory=dict)
    """Power (and ``Neutral``, ``Impassable``) -> ``#rrggbb``."""
    impassable: list[str] = field(default_factory=list)

    def as_data(self) -> dict[str, Any]:
        return {
            "colours": dict(sorted(self.colours.items())),
            "impassable": sorted(self.impassable),
            "shapes": {name: [[v for point in piece for v in point] for piece in pieces]
                       for name, pieces in self.shapes.items()},
            "places": {name: [list(p) for p in points] for name, points in self.places.items()},
            "labels": {name: list(p) for name, p in self.labels.items()},
            "capitals": {name: list(p) for name, p in self.capitals.items()},
            "victory": {name: list(p) for name, p in self.victory.items()},
        }


def board_from_data(data: dict[str, Any], known: set[str]) -> BoardShapes | None:
    """The board part of a layout's data (only the map's own names, only well-formed values), None without shapes."""
    shapes = {}
    for name, pieces in _mapping(data.get("shapes")).items():
        if name in known and isinstance(pieces, list):
            kept = [_pairs(piece) for piece in pieces if isinstance(piece, list)]
            kept = [piece for piece in kept if len(piece) >= 3]
            if kept:
                shapes[name] = kept
    if not shapes:
        return None
    places = {name: _pairs([v for p in points if isinstance(p, list) for v in p])
              for name, points in _mapping(data.get("places")).items() if name in known and isinstance(points, list)}

    def points(key: str) -> dict[str, tuple[int, int]]:
        found = {name: _pairs(p) for name, p in _mapping(data.get(key)).items()
                 if name in known and isinstance(p, list)}
        return {name: p[0] for name, p in found.items() if p}

    colours = {str(k): v for k, v in _mapping(data.get("colours")).items()
               if isinstance(v, str) and re.fullmatch("#[0-9a-f]{6}", v)}
    impassable = [n for n in data.get("impassable") or [] if isinstance(n, str) and n in known]
    return BoardShapes(shapes, places, points("labels"), points("capitals"), points("victory"), colours, impassable)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _pairs(flat: list[Any]) -> list[tuple[int, int]]:
    """``[x0, y0, x1, y1, ...]`` as points (numbers in range only; an odd last value dropped)."""
    if not all(type(v) is int and 0 <= v <= MAX_COORDINATE for v in flat):
        if not all(type(v) in (int, float) and 0 <= v <= MAX_COORDINATE for v in flat):
            return []
        flat = [int(v) for v in flat]
    return list(zip(flat[::2], flat[1::2], strict=False))


def _int(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


def read_centers(text: str, known: set[str] | None = None) -> tuple[dict[str, tuple[float, float]], list[str]]:
    """The centres a ``centers.txt`` gives (``Name  (x,y)`` a line), and a note per line skipped.

    ``known``: the map's names; a centre of another name is skipped.  The first centre of a
    name wins.  At most :data:`MAX_TEXT` characters and :data:`MAX_LINES` lines are read.
    """
    notes: list[str] = []
    if len(text) > MAX_TEXT:
        notes.append(f"only the first {MAX_TEXT} characters were read")
        text = text[:MAX_TEXT]
    centers: dict[str, tuple[float, float]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if number > MAX_LINES:
            notes.append(f"only the first {MAX_LINES} lines were read")
            break
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = _CENTRE.match(line.strip())
        if found is None:
            notes.append(f"line {number}: not a 'Name (x,y)' line")
            continue
        name, x, y = found["name"].strip(), int(found["x"]), int(found["y"])
        if not (0 <= x <= MAX_COORDINATE and 0 <= y <= MAX_COORDINATE):
            notes.append(f"line {number}: coordinates out of range")
        elif known is not None and name not in known:
            notes.append(f"line {number}: no space of that name on the map")
        elif name not in centers:
            centers[name] = (float(x), float(y))
    return centers, notes


def read_properties(text: str) -> tuple[float, float, bool]:
    """The board's width, height and east-west wrap from a TripleA ``map.properties``."""
    width, height = DEFAULT_SIZE
    wrap = False
    for line in text[:MAX_TEXT].splitlines()[:MAX_LINES]:
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        number = value.isascii() and value.isdigit() and 0 < int(value) <= MAX_COORDINATE
        if key in ("map.width", "map.height") and number:
            if key == "map.width":
                width = float(value)
            else:
                height = float(value)
        elif key == "map.scrollWrapX":
            wrap = value.lower() == "true"
    return width, height, wrap


def from_data(data: Any, names: list[str]) -> Layout | None:
    """A map file's ``layout:`` (the schema has checked its shape), only for the map's own names."""
    if not isinstance(data, dict) or not isinstance(data.get("centers"), dict):
        return None
    known = set(names)
    width = float(data.get("width") or DEFAULT_SIZE[0])
    height = float(data.get("height") or DEFAULT_SIZE[1])
    centers = {}
    for name, point in data["centers"].items():
        if name in known and isinstance(point, list) and len(point) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in point):
            centers[name] = (float(point[0]), float(point[1]))
    return Layout(width, height, bool(data.get("wrap_x")), centers, board=board_from_data(data, known))


def builtin_layout(name: str) -> Layout | None:
    """The generated layout of a built-in map, None for another map."""

    path = Path(__file__).resolve().parent.parent / "maps" / f"{name}.layout.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return from_data(data, list(data.get("centers", {})))


WORK = 1_000_000
"""The most pairs of spaces the computed layout's refinement compares, all rounds together: the cost
of a map without a layout stays bounded however many spaces it has (past it, fewer rounds)."""
ROUNDS = 50
"""The rounds of the refinement for a small map."""


def computed(names: list[str], connections: dict[str, dict[str, None]]) -> Layout:
    """Positions from the connections alone: rings around a hub, then a few rounds of a spring
    layout (pure Python, no randomness: the same every run, rounded)."""
    width, height = DEFAULT_SIZE
    if not names:
        return Layout(width, height, computed=True)
    links = _links(names, connections)
    positions = _rings(names, links)
    rounds = min(ROUNDS, WORK // (len(names) * len(names)))
    positions = _springs(names, links, positions, rounds)
    return Layout(width, height, False, _fitted(names, positions, width, height), computed=True)


def _links(names: list[str], connections: dict[str, dict[str, None]]) -> dict[str, list[str]]:
    """Each space's neighbours on the map (both ways, each once, in the map's order)."""
    known = set(names)
    links: dict[str, dict[str, None]] = {name: {} for name in names}
    for a in names:
        for b in connections.get(a, {}):
            if b in known and b != a:
                links[a][b] = None
                links[b][a] = None
    return {name: list(others) for name, others in links.items()}


def _rings(names: list[str], links: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    """Each connected part of the map as rings around its best-connected space (breadth first),
    the parts side by side, the largest first."""
    order = {name: k for k, name in enumerate(names)}
    parts: list[list[str]] = []
    placed: set[str] = set()
    for start in sorted(names, key=lambda n: (-len(links[n]), order[n])):
        if start in placed:
            continue
        part = list(_depths([start], links))  # breadth first from the hub
        placed.update(part)
        parts.append(part)
    parts.sort(key=lambda part: (-len(part), order[part[0]]))
    positions: dict[str, tuple[float, float]] = {}
    offset = 0.0
    for part in parts:
        depth = _depths(part, links)
        radius = float(max(depth.values()))
        rings: dict[int, list[str]] = {}
        for name in part:
            rings.setdefault(depth[name], []).append(name)
        for ring, members in rings.items():
            for k, name in enumerate(members):
                angle = 2 * math.pi * (k + 0.5 * (ring % 2)) / len(members)
                positions[name] = (offset + radius + ring * math.cos(angle), radius + ring * math.sin(angle))
        offset += 2 * radius + 1.5
    return positions


def _depths(part: list[str], links: dict[str, list[str]]) -> dict[str, int]:
    """Each space's number of steps from the part's first space."""
    depth = {part[0]: 0}
    frontier = [part[0]]
    while frontier:
        nxt = []
        for a in frontier:
            for b in links[a]:
                if b not in depth:
                    depth[b] = depth[a] + 1
                    nxt.append(b)
        frontier = nxt
    return depth


def _springs(names: list[str], links: dict[str, list[str]], positions: dict[str, tuple[float, float]],
             rounds: int) -> dict[str, tuple[float, float]]:
    """Fruchterman and Reingold's spring layout, ``rounds`` rounds from ``positions``: neighbours
    pull, every pair pushes, each move at most a temperature that cools to nothing."""
    if rounds <= 0 or len(names) < 2:
        return positions
    xs = [positions[name][0] for name in names]
    ys = [positions[name][1] for name in names]
    index = {name: k for k, name in enumerate(names)}
    edges = [(index[a], index[b]) for a in names for b in links[a] if index[a] < index[b]]
    area = (max(xs) - min(xs) + 1.0) * (max(ys) - min(ys) + 1.0)
    ideal = math.sqrt(area / len(names))
    count = len(names)
    for step in range(rounds):
        temperature = ideal * (1.0 - step / rounds)
        dx = [0.0] * count
        dy = [0.0] * count
        for i in range(count):
            xi, yi = xs[i], ys[i]
            for j in range(i + 1, count):
                ex, ey = xi - xs[j], yi - ys[j]
                distance2 = ex * ex + ey * ey or 1e-4
                push = ideal * ideal / distance2
                dx[i] += ex * push
                dy[i] += ey * push
                dx[j] -= ex * push
                dy[j] -= ey * push
        for i, j in edges:
            ex, ey = xs[i] - xs[j], ys[i] - ys[j]
            pull = math.sqrt(ex * ex + ey * ey) / ideal
            dx[i] -= ex * pull
            dy[i] -= ey * pull
            dx[j] += ex * pull
            dy[j] += ey * pull
        for i in range(count):
            length = math.sqrt(dx[i] * dx[i] + dy[i] * dy[i])
            if length > 0:
                scale = min(length, temperature) / length
                xs[i] += dx[i] * scale
                ys[i] += dy[i] * scale
    return {name: (xs[k], ys[k]) for k, name in enumerate(names)}


def _fitted(names: list[str], positions: dict[str, tuple[float, float]], width: float,
            height: float) -> dict[str, tuple[float, float]]:
    """The positions scaled into the board with a margin, rounded to whole pixels."""
    xs = [positions[name][0] for name in names]
    ys = [positions[name][1] for name in names]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    margin = 100.0
    return {name: (float(round(margin + (positions[name][0] - min(xs)) / span_x * (width - 2 * margin))),
                   float(round(margin + (positions[name][1] - min(ys)) / span_y * (height - 2 * margin))))
            for name in names}


def complete(layout: Layout | None, names: list[str], connections: dict[str, dict[str, None]]) -> Layout:
    """A layout with a centre for every name: a given layout where it has one, else the computed one.

    A space the given layout lacks is put at the mean of its placed neighbours (or in a row
    along the bottom when it has none), so the picture still shows it.
    """
    if layout is None or not layout.centers:
        return computed(names, connections)
    missing = [name for name in names if name not in layout.centers]
    row = 0
    for name in missing:
        placed = [layout.centers[n] for n in connections.get(name, {}) if n in layout.centers]
        if placed:
            layout.centers[name] = (round(sum(p[0] for p in placed) / len(placed)) + 20.0,
                                    round(sum(p[1] for p in placed) / len(placed)) + 20.0)
        else:
            row += 1
            layout.centers[name] = (60.0 * row, layout.height - 40.0)
    return layout


MAX_FOLDER_NOTES = 5
"""The notes of a map folder's lines skipped that are said one by one (then how many more)."""


def read_map_folder(folder: str, names: list[str]) -> tuple[Layout | None, list[str]]:
    """The layout a TripleA map folder gives (``centers.txt``, ``map.properties``, at its top or in ``map/``).

    The files are read as bounded text (regular files only, at most :data:`MAX_TEXT`
    characters used); None when the folder has no ``centers.txt``.  The notes say what
    was skipped.
    """


    def text_of(name: str) -> str | None:
        for where in (os.path.join(folder, name), os.path.join(folder, "map", name)):
            if os.path.isfile(where):
                try:
                    return read_regular(where)[: MAX_TEXT * 4].decode("utf-8", errors="replace")
                except InputError:
                    return None
        return None

    centers_text = text_of("centers.txt")
    if centers_text is None:
        return None, [f"{folder}: no centers.txt: the picture's positions will be computed from the connections"]
    centers, notes = read_centers(centers_text, set(names))
    shown = notes[:MAX_FOLDER_NOTES]
    if len(notes) > MAX_FOLDER_NOTES:
        shown.append(f"and {len(notes) - MAX_FOLDER_NOTES} more lines skipped")
    properties = text_of("map.properties") or ""
    width, height, wrap = read_properties(properties)
    ordered = {name: centers[name] for name in names if name in centers}
    missing = len(names) - len(ordered)
    if missing:
        shown.append(f"{missing} spaces have no centre: they are placed beside their neighbours")
    board, board_notes = folder_board(text_of, names, properties)
    return Layout(width, height, wrap, ordered, board=board), [f"centers.txt: {note}" for note in shown] + board_notes


def folder_board(text_of: Any, names: list[str], properties: str) -> tuple[BoardShapes | None, list[str]]:
    """The board of a TripleA map folder (``polygons.txt``, ``place.txt``, ``name_place.txt``, ``capitols.txt``,
    ``vc.txt``, the colours of ``map.properties``); None, with a note, when it has no ``polygons.txt`` or a space
    has no polygon (the map is then drawn as a diagram)."""
    from movecheck.aa.picture import board_files

    known = set(names)
    polygons = text_of("polygons.txt")
    if polygons is None:
        return None, ["no polygons.txt: the picture is a diagram of the connections"]
    shapes = board_files.read_polygons(polygons, known)
    missing = [name for name in names if name not in shapes]
    if missing:
        return None, [f"polygons.txt: {len(missing)} spaces have no polygon (the first: {missing[0]!r}): "
                      "the picture is a diagram of the connections"]
    board = BoardShapes(
        {n: shapes[n] for n in names}, board_files.read_places(text_of("place.txt") or "", known),
        board_files.read_point(text_of("name_place.txt") or "", known),
        board_files.read_point(text_of("capitols.txt") or "", known),
        board_files.read_point(text_of("vc.txt") or "", known), board_files.read_colours(properties))
    return board, []
