"""Draw a maneuver picture (:class:`~movecheck.maneuver.picture.Scene`) as an SVG document.

Built with the standard library's :mod:`xml.etree.ElementTree`, as python-chess's
``chess/svg.py`` is: one module, no dependency, escaping done by the serialiser,
and attributes written in the order they are set, so the same scene always gives
the same bytes.  Numbers go through :func:`num` (at most three decimals, never
``-0``); nothing reads the clock.

User units are steps: a point (x, y) of the battlefield is drawn at (x, -y), so
north is up and the numbers in the file are the battlefield's.  Strokes, text and
margins are measured in :func:`display_unit` (a thousandth of the field's longer
side), so every field, however large, is drawn about 1000 pixels across.
Elements a program may want back carry ``data-*`` attributes: ``data-base`` and
``data-role`` (``base``, ``end``, ``required``, ``swept``), ``data-order``,
``data-terrain``, ``data-corps``, ``data-code``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Iterable, Sequence

from movecheck.i18n import _, ngettext
from movecheck.render.svgkit import num, text_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.picture import Move, Outline, Scene

Vec = tuple[float, float]

SVG_NS = "http://www.w3.org/2000/svg"
PIXELS = 1000.0
"""How many pixels the field's longer side is drawn across."""

TERRAIN_STYLE = {
    "open": ("#eef4dc", "#a9b98a", None),
    "stream": ("#a8d8f0", "#3f88bf", None),
    "ploughed_field": ("#e3cf9c", "#a5874a", "url(#ploughed)"),
    "rice_paddy": ("#c4e3b0", "#5f9e4a", None),
    "hill": ("#dcc9a0", "#8d6e3f", None),
    "forest": ("#86bb84", "#3d7a3b", None),
    "impassable": ("#9a9a9a", "#505050", "url(#impassable)"),
}
"""Fill, outline and overlay pattern of each terrain kind."""

SIDE_COLOURS = {
    "red": ("#d9534f", "#8e1f1b"), "blue": ("#4a78c2", "#1d3f7a"), "green": ("#4caf64", "#1f6b31"),
    "yellow": ("#e8c547", "#8a6d0b"), "black": ("#555555", "#111111"), "white": ("#f4f4f4", "#777777"),
}
"""Sides named after a colour are drawn in it."""

PALETTE = (("#d9534f", "#8e1f1b"), ("#4a78c2", "#1d3f7a"), ("#4caf64", "#1f6b31"), ("#9b59b6", "#5b2c6f"),
           ("#e69138", "#8a4f0b"), ("#1fa2a0", "#0b5c5b"), ("#8d8d8d", "#3c3c3c"))
"""Colours (fill, outline) of the other sides, in the order of their names."""

SEVERITY_COLOURS = {"error": "#c0392b", "warning": "#b9770e", "note": "#1d5fa8"}
SWEPT, REQUIRED, INK = "#f5c242", "#222222", "#333333"
NOTE_LENGTH = 140
"""Characters of a finding's message shown in the list below the field (all of it in the tooltip)."""

def display_unit(width: float, depth: float) -> float:
    """The length (steps) drawn as one pixel: a thousandth of the field's longer side."""
    return max(width, depth, 1e-9) / PIXELS


def points(ring: Iterable[Vec]) -> str:
    """A ring as an SVG ``points`` value (y negated)."""
    return " ".join(f"{num(x)},{num(-y)}" for x, y in ring)


def side_colours(sides: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Fill and outline of each side: its own colour when it is named after one, else the palette."""
    free = [c for c in PALETTE if c not in {SIDE_COLOURS.get(s) for s in sides}]
    colours = {}
    for k, side in enumerate(sorted(sides)):
        colours[side] = SIDE_COLOURS.get(side.lower()) or (free or list(PALETTE))[k % len(free or PALETTE)]
    return colours


class Canvas:
    """An SVG document being drawn, with the sizes of one field."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.u = display_unit(scene.width, scene.depth)
        self.colours = side_colours(scene.sides)
        self.root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1"})

    def add(self, parent: ET.Element, tag: str, attrs: dict[str, str], text: str | None = None) -> ET.Element:
        """A child element with attributes (in this order) and text."""
        element = ET.SubElement(parent, tag, attrs)
        if text is not None:
            element.text = text_of(text)
        return element

    def group(self, name: str) -> ET.Element:
        """A top-level group for one layer of the picture."""
        return self.add(self.root, "g", {"id": name})

    def size(self, pixels: float) -> str:
        """A length given in pixels, in steps."""
        return num(pixels * self.u)

    def label(self, parent: ET.Element, at: Vec, text: str, pixels: float = 9, **attrs: str) -> ET.Element:
        """Text centred on a battlefield point, with a white halo so it reads over anything."""
        style = {"x": num(at[0]), "y": num(-at[1]), "font-size": self.size(pixels), "text-anchor": "middle",
                 "fill": INK, "stroke": "#ffffff", "stroke-width": self.size(pixels / 4), "paint-order": "stroke"}
        style.update(attrs)
        return self.add(parent, "text", style, text)

    def polygon(self, parent: ET.Element, ring: Iterable[Vec], **attrs: str) -> ET.Element:
        """A closed polygon."""
        return self.add(parent, "polygon", {"points": points(ring), **attrs})


def render(scene: Scene) -> str:
    """The scene as an SVG document (UTF-8 text, one element per line)."""
    canvas = Canvas(scene)
    top = _frame(canvas)
    _defs(canvas)
    _field(canvas)
    _terrain(canvas)
    _landmarks(canvas)
    _corps(canvas)
    _swept(canvas)
    _bases(canvas)
    _moves(canvas)
    _codes(canvas)
    bottom = _footer(canvas)
    u = canvas.u
    margin = 30 * u
    x0, y0 = -margin, top
    width, height = scene.width + 2 * margin, bottom - top
    canvas.root.set("width", num(width / u))
    canvas.root.set("height", num(height / u))
    canvas.root.set("viewBox", f"{num(x0)} {num(y0)} {num(width)} {num(height)}")
    tree = ET.ElementTree(canvas.root)
    ET.indent(tree, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(canvas.root, encoding="unicode") + "\n"


def _frame(c: Canvas) -> float:
    """The title above the field and the document's size attributes; returns the top of the picture."""
    for key in ("width", "height", "viewBox"):
        c.root.set(key, "0")  # set now so they come first; filled in once the picture is laid out
    c.root.set("font-family", "Helvetica, Arial, sans-serif")
    c.add(c.root, "title", {}, c.scene.title)
    top = -c.scene.depth - 46 * c.u
    c.add(c.root, "text", {"x": "0", "y": num(-c.scene.depth - 16 * c.u), "font-size": c.size(16),
                           "font-weight": "bold", "fill": INK}, c.scene.title)
    return top


def _defs(c: Canvas) -> None:
    """Hatching for ploughed fields and impassable terrain, and the arrow head of paths."""
    defs = c.add(c.root, "defs", {})
    step = c.size(6)
    for name, colour, lines in (("ploughed", "#8d6e3f", ("M3,0 L3,6",)),
                                ("impassable", "#3c3c3c", ("M0,0 L6,6", "M6,0 L0,6"))):
        pattern = c.add(defs, "pattern", {"id": name, "patternUnits": "userSpaceOnUse", "width": step, "height": step})
        scale = f"scale({c.size(1)})"
        for line in lines:
            c.add(pattern, "path", {"d": line, "transform": scale, "stroke": colour, "stroke-width": "0.8", "fill": "none"})
    marker = c.add(defs, "marker", {"id": "arrow", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
                                    "markerWidth": "6", "markerHeight": "6", "orient": "auto-start-reverse"})
    c.add(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": INK})


def _field(c: Canvas) -> None:
    """The field itself."""
    w, d = c.scene.width, c.scene.depth
    c.add(c.group("field"), "rect", {"x": "0", "y": num(-d), "width": num(w), "height": num(d),
                                     "fill": "#f7f4ea", "stroke": "#555555", "stroke-width": c.size(1.5)})


def _terrain(c: Canvas) -> None:
    """Each terrain polygon styled by its kind, with its name."""
    layer = c.group("terrain")
    for area in c.scene.terrain:
        fill, stroke, overlay = TERRAIN_STYLE.get(area.kind, TERRAIN_STYLE["open"])
        attrs = {"data-terrain": text_of(area.id), "data-kind": area.kind, "fill": fill, "stroke": stroke,
                 "stroke-width": c.size(1)}
        if area.kind == "open":
            attrs["stroke-dasharray"] = f"{c.size(4)} {c.size(3)}"
        shape = c.polygon(layer, area.points, **attrs)
        c.add(shape, "title", {}, area.title)
        if overlay is not None:
            c.polygon(layer, area.points, fill=overlay, stroke="none")
    for area in c.scene.terrain:
        c.label(layer, _centroid(area.points), area.id, 9, fill="#4d4d4d", **{"font-style": "italic"})


def _landmarks(c: Canvas) -> None:
    """Point landmarks: a ring and their name."""
    layer = c.group("landmarks")
    for name, (x, y) in c.scene.landmarks:
        c.add(layer, "circle", {"data-landmark": text_of(name), "cx": num(x), "cy": num(-y), "r": c.size(4),
                                "fill": "#ffffff", "stroke": INK, "stroke-width": c.size(1.5)})
        c.label(layer, (x, y + 7 * c.u), name, 9)


def _corps(c: Canvas) -> None:
    """The outline of each corps of several bases, and its name below it."""
    layer = c.group("corps")
    for corps in c.scene.corps:
        stroke = c.colours[corps.side][1]
        c.polygon(layer, corps.ring, **{"data-corps": text_of(corps.id), "fill": "none", "stroke": stroke,
                                        "stroke-width": c.size(1), "stroke-dasharray": f"{c.size(3)} {c.size(2)}"})
        low = min(corps.ring, key=lambda p: (p[1], p[0]))
        c.label(layer, (sum(p[0] for p in corps.ring) / len(corps.ring), low[1] - 9 * c.u), corps.id, 8,
                fill=stroke)


def _swept(c: Canvas) -> None:
    """The area a base sweeps where a friend or terrain on its way matters."""
    layer = c.group("swept")
    for move in c.scene.moves:
        for ring in move.swept:
            c.polygon(layer, ring, **{"data-order": str(move.order), "data-base": text_of(move.base),
                                      "data-role": "swept", "fill": SWEPT, "fill-opacity": "0.35",
                                      "stroke": "#c99a16", "stroke-width": c.size(0.5)})


def _bases(c: Canvas) -> None:
    """Every base where it stands before the orders: its rectangle, its front edge, its name."""
    layer = c.group("bases")
    for outline in c.scene.bases:
        _base(c, layer, outline, "base")
    for outline in c.scene.bases:
        centre = _centroid(outline.corners)
        c.label(layer, (centre[0], centre[1] - 3 * c.u), outline.base, 8)


def _base(c: Canvas, parent: ET.Element, outline: Outline, role: str, order: int | None = None) -> None:
    """One base's rectangle and its front edge, styled for its role."""
    fill, stroke = c.colours[outline.side]
    attrs = {"data-base": text_of(outline.base), "data-role": role}
    if order is not None:
        attrs["data-order"] = str(order)
    if role == "base":
        attrs.update({"fill": fill, "stroke": stroke, "stroke-width": c.size(1)})
    elif role == "end":
        attrs.update({"fill": fill, "fill-opacity": "0.45", "stroke": stroke, "stroke-width": c.size(1),
                      "stroke-dasharray": f"{c.size(2)} {c.size(1.5)}"})
    else:
        attrs.update({"fill": "#ffffff", "fill-opacity": "0.3", "stroke": REQUIRED, "stroke-width": c.size(1.2),
                      "stroke-dasharray": f"{c.size(4)} {c.size(2)}"})
    c.polygon(parent, outline.corners, **attrs)
    front_left, front_right = outline.corners[0], outline.corners[3]
    c.add(parent, "line", {"x1": num(front_left[0]), "y1": num(-front_left[1]), "x2": num(front_right[0]),
                           "y2": num(-front_right[1]), "stroke": REQUIRED if role == "required" else stroke,
                           "stroke-width": c.size(2.5), "stroke-linecap": "round"})


def _moves(c: Canvas) -> None:
    """Per order: each base's path, its declared end and, where it differs, the end the rules require."""
    layer = c.group("orders")
    labelled: set[int] = set()
    for move in c.scene.moves:
        group = c.add(layer, "g", {"data-order": str(move.order), "data-base": text_of(move.base)})
        stroke = c.colours[move.side][1]
        c.add(group, "polyline", {"points": points(move.path), "fill": "none", "stroke": stroke,
                                  "stroke-width": c.size(1.2), "marker-end": "url(#arrow)"})
        _base(c, group, move.end, "end", move.order)
        if move.required is not None:
            _base(c, group, move.required, "required", move.order)
        if move.order not in labelled:
            labelled.add(move.order)
            mid = _midpoint(move.path)
            c.label(group, (mid[0] + 6 * c.u, mid[1]), move.label, 9, fill=stroke,
                    **{"text-anchor": "start", "font-weight": "bold"})


def _codes(c: Canvas) -> None:
    """Each finding's code above the bases of its order it concerns (once per order), coloured by severity."""
    layer = c.group("findings")
    at: dict[tuple[int, str, str], list[Move]] = {}
    for move in c.scene.moves:
        for code, severity in move.codes:
            at.setdefault((move.order, code, severity), []).append(move)
    stacked: dict[int, int] = {}
    for (order, code, severity), moves in at.items():
        corners = [p for move in moves for p in move.end.corners]
        top = max(p[1] for p in corners)
        x = (min(p[0] for p in corners) + max(p[0] for p in corners)) / 2
        k = stacked[order] = stacked.get(order, -1) + 1
        c.label(layer, (x, top + (5 + 11 * k) * c.u), code, 10, fill=SEVERITY_COLOURS.get(severity, INK),
                **{"font-weight": "bold", "data-code": code, "data-order": str(order),
                   "data-base": " ".join(text_of(m.base) for m in moves)})


def _footer(c: Canvas) -> float:
    """The scale bar, the legend and the list of findings below the field; returns the bottom of the picture."""
    u = c.u
    y = _scale_bar(c, 24 * u)
    y = _legend(c, y + 22 * u)
    return _notes(c, y + 8 * u) + 12 * u


def _scale_bar(c: Canvas, y: float) -> float:
    """A bar of a round number of steps, about a fifth of the field wide; returns the line below it."""
    layer = c.group("scale")
    length = nice_length(c.scene.width / 5)
    ticks = 5 if length > 0 else 1
    for k in range(ticks):
        fill = INK if k % 2 == 0 else "#ffffff"
        c.add(layer, "rect", {"x": num(length * k / ticks), "y": num(y), "width": num(length / ticks),
                              "height": c.size(5), "fill": fill, "stroke": INK, "stroke-width": c.size(0.8)})
    for at, text in ((0.0, "0"), (length, ngettext("{length} step", "{length} steps", count_of(length)).format(length=num(length)))):
        c.add(layer, "text", {"x": num(at), "y": num(y + 17 * c.u), "font-size": c.size(10),
                              "text-anchor": "middle", "fill": INK}, text)
    return y + 17 * c.u


def count_of(value: float) -> int:
    """The count a plural agrees with for a length: the number when whole, else 2 (a fraction reads as "2.5 steps")."""
    return int(value) if math.isfinite(value) and float(value).is_integer() else 2


def nice_length(target: float) -> float:
    """The round length (1, 2 or 5 times a power of ten) at most ``target`` (at least its tenth)."""
    if not math.isfinite(target) or target <= 0:
        return 0.0
    power = 10.0 ** math.floor(math.log10(target))
    return max(k * power for k in (1, 2, 5) if k * power <= target * (1 + 1e-12))


def _legend(c: Canvas, y: float) -> float:
    """What the colours and strokes mean, in rows across the field's width; returns the last row's line."""
    layer = c.group("legend")
    u = c.u
    slot, x = 150 * u, 0.0
    for draw, text in _legend_items(c):
        if x > 0 and x + slot > c.scene.width:
            x, y = 0.0, y + 18 * u
        draw(layer, x, y)
        c.add(layer, "text", {"x": num(x + 22 * u), "y": num(y), "font-size": c.size(10), "fill": INK}, text)
        x += slot
    return y


def _legend_items(c: Canvas) -> list[tuple[object, str]]:
    """The legend's swatches: sides, terrain kinds present, corps, and what the orders add."""
    u = c.u

    def swatch(**attrs: str):  # type: ignore[no-untyped-def]
        def draw(layer: ET.Element, x: float, y: float) -> None:
            c.add(layer, "rect", {"x": num(x), "y": num(y - 9 * u), "width": c.size(16), "height": c.size(10), **attrs})
        return draw

    items: list[tuple[object, str]] = []
    for side in sorted(c.scene.sides):
        fill, stroke = c.colours[side]
        items.append((swatch(fill=fill, stroke=stroke, **{"stroke-width": c.size(1)}), _("side {side}").format(side=side)))
    from movecheck.maneuver.model import TERRAIN_KINDS

    kinds = {area.kind for area in c.scene.terrain}
    for kind in (k for k in TERRAIN_KINDS if k in kinds):
        fill, stroke, overlay = TERRAIN_STYLE[kind]
        items.append((swatch(fill=overlay or fill, stroke=stroke, **{"stroke-width": c.size(1)}), kind.replace("_", " ")))
    if c.scene.corps:
        items.append((swatch(fill="none", stroke=INK, **{"stroke-width": c.size(1), "stroke-dasharray": f"{c.size(3)} {c.size(2)}"}),
                      _("corps")))
    if c.scene.moves:
        dash = {"stroke-width": c.size(1), "stroke-dasharray": f"{c.size(2)} {c.size(1.5)}"}
        items.append((swatch(fill="#bbbbbb", stroke=INK, **dash), _("declared end")))
        items.append((swatch(fill="#ffffff", stroke=REQUIRED, **{"stroke-width": c.size(1.2),
                                                                 "stroke-dasharray": f"{c.size(4)} {c.size(2)}"}),
                      _("end the rules require")))
        items.append((swatch(fill=SWEPT, **{"fill-opacity": "0.35"}), _("swept area")))
    return items


def _notes(c: Canvas, y: float) -> float:
    """Every finding of the run, one line each; returns the last line."""
    if not c.scene.notes:
        return y
    layer = c.group("notes")
    for note in c.scene.notes:
        y += 15 * c.u
        shown = note.text if len(note.text) <= NOTE_LENGTH else note.text[: NOTE_LENGTH - 1] + "…"
        line = c.add(layer, "text", {"x": "0", "y": num(y), "font-size": c.size(10),
                                     "fill": SEVERITY_COLOURS.get(note.severity, INK), "data-code": note.code}, shown)
        if shown != note.text:
            c.add(line, "title", {}, note.text)
    return y


def _centroid(ring: Sequence[Vec]) -> Vec:
    """The mean of a ring's points (where its label goes)."""
    return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))


def _midpoint(path: Sequence[Vec]) -> Vec:
    """The point halfway along a polyline."""
    lengths = [math.dist(p, q) for p, q in zip(path, path[1:])]
    half = sum(lengths) / 2
    for (p, q), length in zip(zip(path, path[1:]), lengths):
        if half <= length and length > 0:
            k = half / length
            return (p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k)
        half -= length
    return path[-1]
