"""Draw an aa picture on the map's real board (:class:`~movecheck.aa.picture.scene.Board` with ``shapes``).

Every territory and sea zone is drawn as its polygons (islands as several; sea zones
first, land over them), land in the colour of who holds it, sea zones in one tone,
neutral and impassable land each in the board's own colour (impassable hatched).
Capitals carry a star, victory cities a ring, factories a square with their damage.  The
units of a space are markers at its placement points, one per power and type: the count
over the type's short name, in the power's colour.  Each order is an arrow along the
centres of its path, labelled with what moved (``2 inf, 1 arm``); arrows that end in the
same space are set apart; an attack, an amphibious assault, a blitz, a raid and an illegal
order are each drawn their own way.  Territories taken or liberated are outlined, battles
ringed in red, a mobilization's placements drawn as ``+N`` markers, a purchase said in a
box over the board, every finding a badge at its space.

Sizes are chosen for a picture :data:`READ_WIDTH` pixels wide: the part of the board shown
(``around``) sets the scale.  Labels are placed so that no two overlap
(:class:`Placer`): a label that finds no free place is left out of the board and said in
the list below it.  On a board that wraps east-west a move across the edge is drawn the
short way, and a view across the edge shows the board on both sides.  Elements a program
may want back carry ``class`` and ``data-*`` attributes (``space``, ``units``, ``label``,
``move``, ``move-label``, ``placement``, ``finding-marker``, ``finding``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from movecheck.aa.picture.svg import (
    DASHES,
    ILLEGAL,
    INK,
    PALETTE,
    SEA,
    SEA_INK,
    SEVERITY_COLOURS,
    _segments,
    _shorten,
    colours,
)
from movecheck.i18n import _
from movecheck.render.svgkit import SVG_NS, add, arrowheads, document, num, wrapped

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.aa.picture.layout import BoardShapes
    from movecheck.aa.picture.scene import Arrow, Board, Place

Box = tuple[float, float, float, float]
READ_WIDTH = 1200.0
"""The width (pixels) a picture is drawn to be read at: a forum's."""
DEFAULT_MARGIN = 150.0
"""Board pixels shown around what a turn touches."""
MIN_VIEW = (900.0, 520.0)
STACK = 46.0
"""A unit marker's side (TripleA's unit places are 48 pixels apart)."""
CHAR_WIDTH = 0.6
"""A character's width, as a share of the font size (sans-serif, for placing labels)."""
TAKEN_INK = "#ffffff"
PLACED_INK = "#22cc22"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
"""Fonts by name first: a rasteriser (the PNG) may not map ``sans-serif`` to a font it has."""
EXTRA_DASHES = {"attack": None, "raid": "2 7 14 7"}


def text_box(x: float, y: float, size: float, text: str, anchor: str = "start") -> Box:
    """The box a line of text takes (``x``, ``y`` its anchor point on the baseline): left, top, right, bottom."""
    width = CHAR_WIDTH * size * len(text)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return (left, y - 0.8 * size, left + width, y + 0.25 * size)


def overlaps(one: Box, two: Box) -> bool:
    return one[0] < two[2] and two[0] < one[2] and one[1] < two[3] and two[1] < one[3]


class Placer:
    """The boxes taken so far; a label takes the first of its candidate places that overlaps none.

    The boxes are kept in a grid of :data:`CELL`-pixel cells, so a test looks only at the boxes near it.
    """

    CELL = 64.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [(i, j) for i in range(int(box[0] // c), int(box[2] // c) + 1)
                for j in range(int(box[1] // c), int(box[3] // c) + 1)]

    def free(self, box: Box) -> bool:
        cells = self.cells
        return not any(overlaps(box, other) for cell in self._cells(box) for other in cells.get(cell, ()))

    def take(self, box: Box) -> None:
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(box)

    def first_free(self, boxes: list[Box]) -> int | None:
        for k, box in enumerate(boxes):
            if self.free(box):
                self.take(box)
                return k
        return None


def render_board(scene: Board) -> str:
    """The scene on its board, as an SVG document."""
    assert scene.shapes is not None
    shapes = scene.shapes
    paint = _paint(scene, shapes)
    vx, vy, vw, vh = view_of(scene, shapes)
    scene, shapes = shifted(scene, shapes, vx + vw / 2)
    unit = vw / READ_WIDTH
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1"})
    _defs(root, paint, unit)
    add(root, "rect", {"width": num(vw), "height": "100%", "fill": "#ffffff"})
    title_size = min(18 * unit, (vw - 16 * unit) / (CHAR_WIDTH * max(len(scene.title), 1)))  # on one line
    add(root, "text", {"x": num(8 * unit), "y": num(24 * unit), "font-size": num(title_size),
                       "font-family": FONT, "fill": INK}, scene.title)
    title_h = 34 * unit + _banner(root, scene, unit, 34 * unit)
    view = add(root, "svg", {"id": "board", "x": "0", "y": num(title_h), "width": num(vw), "height": num(vh),
                             "viewBox": f"{num(vx)} {num(vy)} {num(vw)} {num(vh)}"})
    add(view, "rect", {"x": num(vx), "y": num(vy), "width": num(vw), "height": num(vh), "fill": SEA})
    _spaces(view, scene, shapes, paint)
    _outlines(view, scene, shapes, unit)
    placer = Placer()
    _symbols(view, scene, shapes, unit, placer)
    _units(view, scene, shapes, paint, unit, placer)
    _placements(view, scene, shapes, paint, unit, placer)
    _arrows(view, scene, paint, unit, vw >= scene.width)
    left_out = _arrow_labels(view, scene, unit, placer)
    _markers(view, scene, unit, placer, (vx, vy, vw, vh))
    _names(view, scene, shapes, unit, placer, (vx, vy, vw, vh))
    y = _legend(root, scene, paint, unit, title_h + vh + 30 * unit)
    y = _notes(root, scene, unit, y + 10 * unit, left_out)
    height = y + 16 * unit
    root.set("width", num(vw))
    root.set("height", num(height))
    root.set("viewBox", f"0 0 {num(vw)} {num(height)}")
    return document(root)


def _paint(scene: Board, shapes: BoardShapes) -> dict[str, tuple[str, str]]:
    """Fill and ink per power: the board's colour when it gives one, else movecheck's."""
    paint = colours(scene.powers)
    for power in scene.powers:
        if power in shapes.colours:
            paint[power] = (shapes.colours[power], _darker(shapes.colours[power]))
    return paint


def _darker(colour: str) -> str:
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(int(v * 0.55) for v in (r, g, b)))


def _on(colour: str) -> str:
    """Black or white: the one that reads on ``colour``."""
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _defs(root: ET.Element, paint: dict[str, tuple[str, str]], unit: float) -> None:
    defs = add(root, "defs", {})
    hatch = add(defs, "pattern", {"id": "impassable", "width": "12", "height": "12",
                                  "patternUnits": "userSpaceOnUse", "patternTransform": "rotate(45)"})
    add(hatch, "rect", {"width": "12", "height": "12", "fill": "#d8ba7c"})
    add(hatch, "line", {"x1": "0", "y1": "0", "x2": "0", "y2": "12", "stroke": "#8a6a3a", "stroke-width": "5"})
    inks = sorted({ink for _fill, ink in paint.values()} | {ILLEGAL, INK})
    heads.clear()
    heads.update(arrowheads(defs, inks, 4, 6))


heads: dict[str, str] = {}


def view_of(scene: Board, shapes: BoardShapes) -> Box:
    """The part of the board shown, ``(x, y, width, height)``: all of it, or what the turn touches with a margin."""
    whole = (0.0, 0.0, scene.width, scene.height)
    around = scene.around
    touched = touched_spaces(scene)
    if around == "all" or not touched or (around is None and not scene.turn):
        return whole
    margin = DEFAULT_MARGIN if around is None else float(around)
    boxes = [_bounds(shapes.shapes[s]) for s in touched if s in shapes.shapes]
    if not boxes:
        return whole
    left, right = _span_x([(b[0], b[2]) for b in boxes], scene.width)
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    x0, x1 = left - margin, right + margin
    y0, y1 = max(0.0, top - margin), min(scene.height, bottom + margin)
    if x1 - x0 >= scene.width:
        x0, x1 = 0.0, scene.width
    x0, x1 = _at_least(x0, x1, MIN_VIEW[0], None)
    y0, y1 = _at_least(y0, y1, MIN_VIEW[1], scene.height)
    return (round(x0), round(y0), round(x1 - x0), round(y1 - y0))


def _at_least(low: float, high: float, size: float, limit: float | None) -> tuple[float, float]:
    """The range widened about its middle to ``size`` (kept inside ``0..limit`` when there is one)."""
    if high - low >= size:
        return low, high
    middle = (low + high) / 2
    low, high = middle - size / 2, middle + size / 2
    if limit is not None:
        if low < 0:
            low, high = 0.0, size
        elif high > limit:
            low, high = limit - size, limit
    return low, high


def _span_x(ranges: list[tuple[float, float]], width: float) -> tuple[float, float]:
    """The shortest stretch of the (east-west wrapping) board that covers every range: may start left of 0."""
    ranges = sorted(ranges)
    best_gap, start = width - max(r[1] for r in ranges) + ranges[0][0], ranges[0][0]
    reach = ranges[0][1]
    for low, high in ranges[1:]:
        if low - reach > best_gap:
            best_gap, start = low - reach, low
        reach = max(reach, high)
    end = start + width - best_gap
    if start > width / 2 and end > width:
        start, end = start - width, end - width
    return start, end


def _bounds(pieces: list[list[tuple[int, int]]]) -> Box:
    xs = [x for piece in pieces for x, _y in piece]
    ys = [y for piece in pieces for _x, y in piece]
    return (min(xs), min(ys), max(xs), max(ys))


def touched_spaces(scene: Board) -> list[str]:
    """The spaces the turn drawn concerns: its moves' paths, its placements, its battles and findings."""
    found: dict[str, None] = {}
    for arrow in scene.arrows:
        found.update(dict.fromkeys(arrow.path))
    for space, _power, _counts in scene.placements:
        found[space] = None
    for marker in scene.markers:
        if marker.space is not None:
            found[marker.space] = None
    for name, place in scene.places.items():
        if place.battle or place.taken:
            found[name] = None
    return [s for s in found if s in scene.places]


def shifted(scene: Board, shapes: BoardShapes, middle: float) -> tuple[Board, BoardShapes]:
    """The scene with each space moved a board's width east or west when that brings it nearer ``middle``.

    A view across the east-west edge so shows the spaces on both sides of it (no space is cut
    by the edge).  A view inside the board moves nothing.
    """

    width = scene.width
    moves = {}
    for name, place in scene.places.items():
        best = min((-width, 0.0, width), key=lambda d: (abs(place.at[0] + d - middle), abs(d)))
        if best:
            moves[name] = best
    if not moves:
        return scene, shapes

    def by(name: str, points: list[tuple[int, int]]) -> list[tuple[int, int]]:
        d = int(moves.get(name, 0))
        return [(x + d, y) for x, y in points]

    places = {name: dataclasses.replace(place, at=(place.at[0] + moves.get(name, 0), place.at[1]))
              for name, place in scene.places.items()}
    board = dataclasses.replace(
        shapes,
        shapes={n: [by(n, piece) for piece in pieces] for n, pieces in shapes.shapes.items()},
        places={n: by(n, points) for n, points in shapes.places.items()},
        labels={n: by(n, [p])[0] for n, p in shapes.labels.items()},
        capitals={n: by(n, [p])[0] for n, p in shapes.capitals.items()},
        victory={n: by(n, [p])[0] for n, p in shapes.victory.items()})
    return dataclasses.replace(scene, places=places), board


def _fill_of(place: Place, shapes: BoardShapes, paint: dict[str, tuple[str, str]]) -> tuple[str, str]:
    if place.sea:
        return SEA, SEA_INK
    if place.impassable:
        return "url(#impassable)", "#6a5a3a"
    if place.holder in paint:
        return paint[place.holder]
    return shapes.colours.get("Neutral", "#e8e0c8"), "#6a5a3a"


def _spaces(parent: ET.Element, scene: Board, shapes: BoardShapes, paint: dict[str, tuple[str, str]]) -> None:
    """Sea zones, then land over them: each space's polygons, in its fill."""
    layer = add(parent, "g", {"id": "spaces", "stroke-linejoin": "round"})
    order = sorted(scene.places.values(), key=lambda p: not p.sea)
    for place in order:
        pieces = shapes.shapes.get(place.name)
        if not pieces:
            continue
        fill, _ink = _fill_of(place, shapes, paint)
        held = place.holder or (_("sea zone") if place.sea else _("impassable") if place.impassable else _("neutral"))
        group = add(layer, "g", {"class": "space", "data-space": place.name, "fill": fill,
                                 "stroke": "#ffffff" if place.sea else "#222222",
                                 "stroke-width": num(0.6 if place.sea else 1.2)})
        add(group, "title", {}, f"{place.name} ({held})")
        for piece in pieces:
            add(group, "polygon", {"points": _polygon(piece)})


def _polygon(piece: list[tuple[int, int]]) -> str:
    return " ".join(f"{x},{y}" for x, y in piece)


def _outlines(parent: ET.Element, scene: Board, shapes: BoardShapes, unit: float) -> None:
    """Over every space: the outline of each battle (red, dashed) and of each territory taken (white)."""
    layer = add(parent, "g", {"id": "outlines", "fill": "none", "stroke-linejoin": "round"})
    for place in scene.places.values():
        pieces = shapes.shapes.get(place.name)
        if not pieces or not (place.taken or place.battle):
            continue
        style = {"class": "battle" if place.battle else "taken", "data-space": place.name,
                 "stroke": ILLEGAL if place.battle else TAKEN_INK, "stroke-width": num(4 * unit)}
        if place.battle:
            style["stroke-dasharray"] = f"{num(10 * unit)} {num(5 * unit)}"
        if place.taken:
            style["data-taken"] = place.taken
        outline = add(layer, "g", style)
        for piece in pieces:
            add(outline, "polygon", {"points": _polygon(piece)})


def _symbols(parent: ET.Element, scene: Board, shapes: BoardShapes, unit: float, placer: Placer) -> None:
    """Capitals (a star), victory cities (a ring) and factories (a square with their damage)."""
    layer = add(parent, "g", {"id": "symbols"})
    size = max(18.0, 14 * unit)
    for name, place in scene.places.items():
        at = shapes.capitals.get(name) or shapes.victory.get(name)
        if name in shapes.capitals:
            x, y = shapes.capitals[name]
            star = _star(x + size / 2, y + size / 2, size / 2)
            add(layer, "path", {"class": "capital", "data-space": name, "d": star,
                                "fill": "#ffd700", "stroke": "#111111", "stroke-width": num(1.2)})
            placer.take((x, y, x + size, y + size))
        elif name in shapes.victory:
            x, y = shapes.victory[name]
            add(layer, "circle", {"class": "victory", "data-space": name, "cx": num(x + size / 2),
                                  "cy": num(y + size / 2), "r": num(size / 2 - 2), "fill": "#ffffff",
                                  "stroke": "#111111", "stroke-width": num(3)})
            placer.take((x, y, x + size, y + size))
        if place.factory:
            fx, fy = (at[0] + size + 4, at[1]) if at else _centre_box(place, size)
            group = add(layer, "g", {"class": "factory", "data-space": name, "data-damage": str(place.damage)})
            add(group, "rect", {"x": num(fx), "y": num(fy), "width": num(size), "height": num(size),
                                "fill": "#111111", "stroke": "#ffffff", "stroke-width": "1.5"})
            if place.damage:
                add(group, "text", {"x": num(fx + size / 2), "y": num(fy + size * 0.75), "fill": "#ff5a4a",
                                    "font-size": num(size * 0.8), "font-family": FONT,
                                    "font-weight": "bold", "text-anchor": "middle"}, str(place.damage))
            placer.take((fx, fy, fx + size, fy + size))


def _centre_box(place: Place, size: float) -> tuple[float, float]:
    return place.at[0] - size / 2, place.at[1] - size * 1.6


def _star(x: float, y: float, r: float) -> str:

    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append(f"{num(x + radius * math.cos(angle))},{num(y + radius * math.sin(angle))}")
    return "M" + " L".join(points) + " z"


def _marker(parent: ET.Element, at: tuple[float, float], count: str, kind: str, fill: str, ink: str,
            attrs: dict[str, str]) -> None:
    x, y = at[0] + 1, at[1] + 1
    group = add(parent, "g", attrs)
    add(group, "rect", {"x": num(x), "y": num(y), "width": num(STACK), "height": num(STACK), "rx": "6",
                        "fill": fill, "stroke": ink, "stroke-width": "4" if ink == PLACED_INK else "2"})
    on = _on(fill) if fill.startswith("#") else "#111111"
    add(group, "text", {"x": num(x + STACK / 2), "y": num(y + 21), "font-size": "21", "font-weight": "bold",
                        "fill": on}, count)
    add(group, "text", {"x": num(x + STACK / 2), "y": num(y + 40), "font-size": "15", "fill": on}, kind)


def _units(parent: ET.Element, scene: Board, shapes: BoardShapes, paint: dict[str, tuple[str, str]], unit: float,
           placer: Placer) -> None:
    """Each space's units: a marker per power and type, at the space's unit places."""
    from movecheck.aa.post.report import short

    layer = add(parent, "g", {"id": "units", "font-family": FONT, "text-anchor": "middle"})
    for place in scene.places.values():
        for power, kinds in place.units:
            fill, ink = paint.get(power, PALETTE[0])
            for kind, n in kinds.items():
                _marker(layer, free_stack(shapes, place, placer), str(n), short(kind), fill, ink,
                        {"class": "units", "data-space": place.name, "data-power": power, "data-type": kind,
                         "data-count": str(n)})


def free_stack(shapes: BoardShapes, place: Place, placer: Placer) -> tuple[float, float]:
    """Where the space's next unit marker goes: its first unit place no marker covers, else the first free spot
    beside its places (right, left, below, above, ever further); taken from ``placer``."""
    points = [(float(x), float(y)) for x, y in shapes.places.get(place.name) or []]
    points = points or [(place.at[0] - STACK / 2, place.at[1] - STACK / 2)]
    candidates = list(points)
    for step in range(1, 6):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
            candidates += [(x + dx * 48 * step, y + dy * 48 * step) for x, y in points[-1:] + points[:1]]
    for x, y in candidates:
        box = (x + 1, y + 1, x + 1 + STACK, y + 1 + STACK)
        if placer.free(box):
            placer.take(box)
            return x, y
    x, y = candidates[0]
    placer.take((x + 1, y + 1, x + 1 + STACK, y + 1 + STACK))
    return x, y


def _placements(parent: ET.Element, scene: Board, shapes: BoardShapes, paint: dict[str, tuple[str, str]],
                unit: float, placer: Placer) -> None:
    """A mobilization's new units: ``+N`` markers after the space's units, outlined in green."""
    from movecheck.aa.post.report import in_order, short

    layer = add(parent, "g", {"id": "placements", "font-family": FONT, "text-anchor": "middle"})
    for space, power, counts in scene.placements:
        place = scene.places.get(space)
        if place is None:
            continue
        fill, _ink = paint.get(power, PALETTE[0])
        for kind, n in in_order(counts).items():
            _marker(layer, free_stack(shapes, place, placer), f"+{n}", short(kind), fill, PLACED_INK,
                    {"class": "placement", "data-space": space, "data-power": power, "data-type": kind,
                     "data-count": str(n)})


def _arrow_points(scene: Board, arrow: Arrow, shift: float) -> list[tuple[float, float]]:
    points = [scene.places[s].at for s in arrow.path]
    return [(x + shift, y + shift * 0.5) for x, y in points]


def _shifts(scene: Board, unit: float) -> list[float]:
    """Each arrow's offset: arrows that end in the same space, or share a leg, are set apart."""
    seen: dict[str, int] = {}
    shifts = []
    for arrow in scene.arrows:
        k = seen.get(arrow.path[-1], 0)
        seen[arrow.path[-1]] = k + 1
        shifts.append((k + 1) // 2 * 12.0 * unit * (1 if k % 2 else -1))
    return shifts


def _arrows(parent: ET.Element, scene: Board, paint: dict[str, tuple[str, str]], unit: float, whole: bool) -> None:
    """Each order's arrow; on the whole board, one that crosses the east-west edge leaves it and comes back."""
    layer = add(parent, "g", {"id": "moves", "fill": "none", "stroke-linecap": "round", "stroke-linejoin": "round"})
    for arrow, shift in zip(scene.arrows, _shifts(scene, unit), strict=True):
        ink = ILLEGAL if arrow.how == "illegal" else paint.get(arrow.power, PALETTE[0])[1]
        group = add(layer, "g", {"class": "move", "data-order": str(arrow.order), "data-how": arrow.how})
        add(group, "title", {}, _("order {label}: {path}").format(label=arrow.label, path=" → ".join(arrow.path)))
        width = 6 * unit if arrow.how in ("attack", "blitz", "amphibious") else 4.5 * unit
        lines = _segments(scene, _arrow_points(scene, arrow, shift))
        for line in lines if whole else lines[:1]:  # a cropped view has moved the spaces to the side it shows
            line = _shorten(line, 14 * unit)  # the head stops short of the space's centre, its markers readable
            style = {"points": " ".join(f"{num(x)},{num(y)}" for x, y in line), "stroke": "#ffffff",
                     "stroke-width": num(width + 3 * unit), "stroke-opacity": "0.8"}
            add(group, "polyline", style)
            style = {**style, "stroke": ink, "stroke-width": num(width), "stroke-opacity": "1",
                     "marker-end": heads.get(ink, "")}
            dash = DASHES.get(arrow.how) or EXTRA_DASHES.get(arrow.how)
            if dash:
                style["stroke-dasharray"] = " ".join(num(float(v) * unit) for v in dash.split())
            add(group, "polyline", style)


def _arrow_labels(parent: ET.Element, scene: Board, unit: float, placer: Placer) -> list[str]:
    """What each order moved, on a free spot along its arrow; the labels that found none (said below the board)."""
    layer = add(parent, "g", {"id": "move-labels", "font-family": FONT, "font-weight": "bold"})
    size = 14 * unit
    left_out = []
    for arrow, shift in zip(scene.arrows, _shifts(scene, unit), strict=True):
        text = f"{arrow.order}: {arrow.what}" if arrow.what else str(arrow.order)
        line = _segments(scene, _arrow_points(scene, arrow, shift))[0]
        spots = _spots_along(line, unit)
        boxes = [text_box(x, y, size, text, "middle") for x, y in spots]
        k = placer.first_free(boxes)
        if k is None:
            left_out.append(_("order {label} ({order}): {what}").format(label=arrow.label, order=arrow.order,
                                                                       what=arrow.what))
            continue
        x, y = spots[k]
        ink = ILLEGAL if arrow.how == "illegal" else INK
        add(layer, "text", {"class": "move-label", "data-order": str(arrow.order), "x": num(x), "y": num(y),
                            "font-size": num(size), "text-anchor": "middle", "fill": ink, "stroke": "#ffffff",
                            "stroke-width": num(4 * unit), "paint-order": "stroke"}, text)
    return left_out


def _spots_along(line: list[tuple[float, float]], unit: float) -> list[tuple[float, float]]:
    """Candidate label points along a polyline: on each leg (the middle first), then ever further beside it."""
    spots = []
    for t in (0.5, 0.35, 0.65, 0.2, 0.8):
        for (x0, y0), (x1, y1) in itertools.pairwise(line):
            spots.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
    beside = []
    for step in range(1, 8):
        for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1), (1, -1), (-1, 1)):
            beside += [(x + dx * 60 * step * unit, y + dy * 20 * step * unit) for x, y in spots]
    return spots + beside


def _markers(parent: ET.Element, scene: Board, unit: float, placer: Placer, view: Box) -> None:
    """A badge per finding at its space (the first free spot about its centre), one of no space along the top."""
    layer = add(parent, "g", {"id": "finding-markers", "font-family": FONT, "font-weight": "bold"})
    size = 14 * unit
    vx, vy, vw, _vh = view
    edge = 0
    for marker in scene.markers:
        width, height = (len(marker.code) * CHAR_WIDTH + 0.8) * size, size * 1.4
        if marker.space is None or marker.space not in scene.places:  # along the view's top edge, from the right
            edge += 1
            x0, y0 = vx + vw - edge * (width + 6 * unit), vy + 6 * unit
            candidates = [(x0, y0 + k * (height + 4 * unit)) for k in range(12)]
        else:
            x0, y0 = scene.places[marker.space].at
            candidates = [(x0 + dx * unit, y0 + dy * unit) for dy in (-40, 0, 40, -80, 80) for dx in (0, -90, 90)]
        boxes = [(x, y, x + width, y + height) for x, y in candidates]
        k = placer.first_free(boxes)
        x, y = candidates[0 if k is None else k]
        if k is None:
            placer.take(boxes[0])
        colour = SEVERITY_COLOURS.get(marker.severity, INK)
        group = add(layer, "g", {"class": "finding-marker", "data-code": marker.code,
                                 "data-space": marker.space or ""})
        add(group, "rect", {"x": num(x), "y": num(y), "width": num(width), "height": num(height), "rx": num(4 * unit),
                            "fill": colour, "stroke": "#ffffff", "stroke-width": num(1.5 * unit)})
        add(group, "text", {"x": num(x + 0.4 * size), "y": num(y + 1.05 * size), "font-size": num(size),
                            "fill": "#ffffff"}, marker.code)


def _names(parent: ET.Element, scene: Board, shapes: BoardShapes, unit: float, placer: Placer, view: Box) -> None:
    """Each space's name (and IPC value) at its label point, or the first free spot about its centre.

    A name that finds no free spot is left out (the space's title still names it); a sea zone
    is named by its number only.
    """
    layer = add(parent, "g", {"id": "labels", "font-family": FONT, "stroke": "#ffffff",
                              "paint-order": "stroke"})
    size = max(13.0, 11 * unit)
    vx, vy, vw, vh = view
    for place in scene.places.values():
        text = _name_text(place)
        x, y = place.at
        if not (vx - 200 <= x <= vx + vw + 200 and vy - 200 <= y <= vy + vh + 200):
            continue
        spots: list[tuple[float, float, str]] = []
        if place.name in shapes.labels:
            lx, ly = shapes.labels[place.name]
            spots.append((float(lx), float(ly), "start"))
        pieces = shapes.shapes.get(place.name) or []
        around = [(x + dx * size, y + dy * size) for dy in (0.4, -0.9, 1.7, -2.2, 3.0, -3.5, 4.3, -4.8)
                  for dx in (0, -4, 4, -8, 8)]
        half = CHAR_WIDTH * size * len(text) / 2
        spots += [(sx, sy, "middle") for k, (sx, sy) in enumerate(around)
                  if k == 0 or all(inside(pieces, sx + d, sy - size * 0.3) for d in (-half, 0.0, half))]
        boxes = [text_box(sx, sy, size, text, anchor) for sx, sy, anchor in spots]
        k = placer.first_free(boxes)
        if k is None:
            continue
        sx, sy, anchor = spots[k]
        add(layer, "text", {"class": "label", "data-space": place.name, "x": num(sx), "y": num(sy),
                            "font-size": num(size), "text-anchor": anchor, "stroke-width": num(3 * unit / 1.2),
                            "fill": SEA_INK if place.sea else INK}, text)


def inside(pieces: list[list[tuple[int, int]]], x: float, y: float) -> bool:
    """The point lies in one of the polygons (even-odd rule): a name moved off its centre stays on its space."""
    for piece in pieces:
        hit = False
        for (x0, y0), (x1, y1) in zip(piece, piece[1:] + piece[:1], strict=True):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                hit = not hit
        if hit:
            return True
    return False


def _name_text(place: Place) -> str:
    if place.sea:
        return place.name.split()[0] if place.name.endswith("Sea Zone") else place.name
    if place.production:
        return f"{place.name} {place.production}"
    return place.name


def _banner(root: ET.Element, scene: Board, unit: float, top: float) -> float:
    """Lines said between the title and the board (a purchase: what was bought); returns the height they take."""
    if not scene.banner:
        return 0.0
    size = 16 * unit
    x, y = 8 * unit, top + 4 * unit
    height = len(scene.banner) * size * 1.4 + 12 * unit
    group = add(root, "g", {"id": "banner", "font-family": FONT})
    width = READ_WIDTH * unit - 16 * unit
    add(group, "rect", {"x": num(x), "y": num(y), "width": num(width), "height": num(height), "rx": num(6 * unit),
                        "fill": "#fff8dc", "stroke": INK, "stroke-width": num(1.5 * unit)})
    for k, line in enumerate(scene.banner):
        add(group, "text", {"x": num(x + 10 * unit), "y": num(y + (k + 1) * size * 1.4), "font-size": num(size),
                            "fill": INK, "font-weight": "bold" if k == 0 else "normal"}, line)
    return height + 10 * unit


def _legend(root: ET.Element, scene: Board, paint: dict[str, tuple[str, str]], unit: float, y: float) -> float:
    """Every mark the picture uses, each with a word."""
    size = 14 * unit
    layer = add(root, "g", {"id": "legend", "font-family": FONT, "font-size": num(size), "fill": INK})
    row = _LegendRow(layer, unit, y)
    for power in scene.powers:
        row.swatch(paint[power][0], paint[power][1], power)
    row.swatch(SEA, SEA_INK, _("sea zone"))
    row.swatch(scene.shapes.colours.get("Neutral", "#e8e0c8") if scene.shapes else "#e8e0c8", "#6a5a3a",
               _("neutral"))
    row.swatch("url(#impassable)", "#6a5a3a", _("impassable"))
    row.next_line()
    for how, word in (("move", _("move")), ("attack", _("attack")), ("amphibious", _("amphibious assault")),
                      ("blitz", _("blitz")), ("raid", _("bombing raid")), ("illegal", _("illegal order"))):
        row.line(how, word)
    row.next_line()
    row.outline(ILLEGAL, True, _("battle"))
    row.outline(TAKEN_INK, False, _("taken or liberated"))
    row.symbol("capital", _("capital"))
    row.symbol("victory", _("victory city"))
    row.symbol("factory", _("factory (damage in red)"))
    row.next_line()
    row.words(_("units: a marker per power and type, the count over the type; +N: placed by this mobilization; "
                "N: the order's number, then what moved"))
    return row.y


class _LegendRow:
    """Legend entries laid out left to right, wrapping at the picture's width."""

    def __init__(self, layer: ET.Element, unit: float, y: float) -> None:
        self.layer, self.unit, self.y, self.x = layer, unit, y, 8 * unit

    def _advance(self, width: float) -> None:
        self.x += width + 18 * self.unit

    def _fit(self, width: float) -> None:
        if self.x + width > READ_WIDTH * self.unit:
            self.next_line()

    def next_line(self) -> None:
        self.x = 8 * self.unit
        self.y += 24 * self.unit

    def _label(self, x: float, text: str) -> float:
        add(self.layer, "text", {"x": num(x), "y": num(self.y)}, text)
        return CHAR_WIDTH * 14 * self.unit * len(text)

    def swatch(self, fill: str, ink: str, text: str) -> None:
        u = self.unit
        self._fit(22 * u + CHAR_WIDTH * 14 * u * len(text))
        add(self.layer, "rect", {"x": num(self.x), "y": num(self.y - 13 * u), "width": num(16 * u),
                                 "height": num(16 * u), "fill": fill, "stroke": ink})
        self._advance(22 * u + self._label(self.x + 22 * u, text))

    def line(self, how: str, text: str) -> None:
        u = self.unit
        self._fit(50 * u + CHAR_WIDTH * 14 * u * len(text))
        style = {"points": f"{num(self.x)},{num(self.y - 5 * u)} {num(self.x + 40 * u)},{num(self.y - 5 * u)}",
                 "stroke": ILLEGAL if how == "illegal" else INK, "fill": "none",
                 "stroke-width": num((6 if how in ("attack", "blitz", "amphibious") else 4.5) * u)}
        dash = DASHES.get(how) or EXTRA_DASHES.get(how)
        if dash:
            style["stroke-dasharray"] = " ".join(num(float(v) * u) for v in dash.split())
        add(self.layer, "polyline", style)
        self._advance(48 * u + self._label(self.x + 48 * u, text))

    def outline(self, ink: str, dashed: bool, text: str) -> None:
        u = self.unit
        self._fit(26 * u + CHAR_WIDTH * 14 * u * len(text))
        style = {"x": num(self.x), "y": num(self.y - 14 * u), "width": num(18 * u), "height": num(18 * u),
                 "fill": "#9c9c9c", "stroke": ink, "stroke-width": num(3 * u)}
        if dashed:
            style["stroke-dasharray"] = f"{num(5 * u)} {num(3 * u)}"
        add(self.layer, "rect", style)
        self._advance(26 * u + self._label(self.x + 26 * u, text))

    def symbol(self, kind: str, text: str) -> None:
        u = self.unit
        self._fit(24 * u + CHAR_WIDTH * 14 * u * len(text))
        x, y, r = self.x + 8 * u, self.y - 5 * u, 8 * u
        if kind == "capital":
            add(self.layer, "path", {"d": _star(x, y, r), "fill": "#ffd700", "stroke": "#111111"})
        elif kind == "victory":
            add(self.layer, "circle", {"cx": num(x), "cy": num(y), "r": num(r - 1), "fill": "#ffffff",
                                       "stroke": "#111111", "stroke-width": num(2 * u)})
        else:
            add(self.layer, "rect", {"x": num(x - r), "y": num(y - r), "width": num(2 * r), "height": num(2 * r),
                                     "fill": "#111111"})
        self._advance(24 * u + self._label(self.x + 24 * u, text))

    def words(self, text: str) -> None:
        for line in wrapped(text, 140):
            add(self.layer, "text", {"x": num(8 * self.unit), "y": num(self.y)}, line)
            self.y += 20 * self.unit


def _notes(root: ET.Element, scene: Board, unit: float, y: float, left_out: list[str]) -> float:
    """Every finding in full, wrapped (never cut), and the move labels the board had no room for."""
    size = 14 * unit
    layer = add(root, "g", {"id": "findings", "font-family": FONT, "font-size": num(size)})
    lines = [(note.code, note.severity, note.text) for note in scene.notes]
    lines += [("", "note", text) for text in left_out]
    for code, severity, text in lines:
        y += 20 * unit
        element = add(layer, "text", {"class": "finding" if code else "move-left-out", "data-code": code,
                                      "x": num(8 * unit), "y": num(y), "fill": SEVERITY_COLOURS.get(severity, INK)})
        for k, line in enumerate(wrapped(text, 150)):
            if k:
                y += 20 * unit
            add(element, "tspan", {"x": num((8 if k == 0 else 30) * unit), "y": num(y)}, line)
    return y
