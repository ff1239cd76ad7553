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

import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING

from movecheck.i18n import _, ngettext
from movecheck.maneuver.svg_canvas import (  # noqa: F401  (the primitives, named here as before)
    INK,
    PALETTE,
    PIXELS,
    REQUIRED,
    SEVERITY_COLOURS,
    SIDE_COLOURS,
    SWEPT,
    TERRAIN_STYLE,
    Canvas,
    Swatch,
    Vec,
    display_unit,
    points,
    side_colours,
)
from movecheck.render.svgkit import num, text_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.scene import Move, Outline, Scene



def render(scene: Scene) -> str:
    """The scene as an SVG document (UTF-8 text, one element per line)."""
    from movecheck.maneuver.svg_print import placer

    canvas = Canvas(scene)
    canvas.placer = placer(canvas)
    top = _frame(canvas)
    _defs(canvas)
    _field(canvas)
    _terrain(canvas)
    _reach(canvas)
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
            c.add(
                pattern,
                "path",
                {"d": line, "transform": scale, "stroke": colour, "stroke-width": "0.8", "fill": "none"},
            )
    marker = c.add(
        defs,
        "marker",
        {
            "id": "arrow",
            "viewBox": "0 0 10 10",
            "refX": "9",
            "refY": "5",
            "markerWidth": "6",
            "markerHeight": "6",
            "orient": "auto-start-reverse",
        },
    )
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
    for area in c.scene.terrain:  # by its name for people, else its id
        shown = area.name or area.id
        at = c.placer.place([_centroid(area.points)], shown, 9 * c.u)
        c.label(layer, at, shown, 9, fill="#4d4d4d", **{"font-style": "italic", "data-terrain": text_of(area.id),
                                                         "data-role": "terrain-label"})


def _reach(c: Canvas) -> None:
    """Where ``--reach`` bases and corps can go (:mod:`movecheck.maneuver.svg_reach`)."""
    from movecheck.maneuver.svg_reach import draw

    draw(c)


def _landmarks(c: Canvas) -> None:
    """Point landmarks: a ring and their name."""
    layer = c.group("landmarks")
    for name, (x, y) in c.scene.landmarks:
        c.add(layer, "circle", {"data-landmark": text_of(name), "cx": num(x), "cy": num(-y), "r": c.size(4),
                                "fill": "#ffffff", "stroke": INK, "stroke-width": c.size(1.5)})
        c.label(layer, (x, y + 7 * c.u), name, 9)
    from movecheck.maneuver.svg_print import marks, targets

    marks(c, layer)
    targets(c, layer)


def _corps(c: Canvas) -> None:
    """The outline of each corps of several bases, and its name below it."""
    layer = c.group("corps")
    for corps in c.scene.corps:
        stroke = c.colours[corps.side][1]
        c.polygon(layer, corps.ring, **{"data-corps": text_of(corps.id), "fill": "none", "stroke": stroke,
                                        "stroke-width": c.size(1), "stroke-dasharray": f"{c.size(3)} {c.size(2)}"})
        xs, ys = [p[0] for p in corps.ring], [p[1] for p in corps.ring]
        mid = (min(xs) + max(xs)) / 2
        places = [(mid, min(ys) - 9 * c.u), (mid, max(ys) + 3 * c.u), (min(xs) - 4 * c.u * len(corps.id), min(ys)),
                  (max(xs) + 4 * c.u * len(corps.id), min(ys)), (mid, min(ys) - 20 * c.u)]
        c.label(layer, c.placer.place(places, corps.id, 8 * c.u), corps.id, 8, fill=stroke,
                **{"data-corps": text_of(corps.id), "data-role": "corps-label"})


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
    from movecheck.maneuver.svg_print import base_labels

    base_labels(c, layer)


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
        from movecheck.maneuver.svg_print import order_label, rolls_label

        rolls_label(c, group, move, stroke)
        if move.order not in labelled:
            labelled.add(move.order)
            order_label(c, group, move, stroke, _midpoint(move.path))


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
        low = min(p[1] for p in corners)
        places = [(x, top + (5 + 11 * j) * c.u) for j in range(k, k + 4)] + [(x, low - (14 + 11 * j) * c.u)
                                                                             for j in range(3)]
        c.label(layer, c.placer.place(places, code, 10 * c.u), code, 10, fill=SEVERITY_COLOURS.get(severity, INK),
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
        c.add(
            layer,
            "rect",
            {
                "x": num(length * k / ticks),
                "y": num(y),
                "width": num(length / ticks),
                "height": c.size(5),
                "fill": fill,
                "stroke": INK,
                "stroke-width": c.size(0.8),
            },
        )
    for at, text in (
        (0.0, "0"),
        (length, ngettext("{length} step", "{length} steps", count_of(length)).format(length=num(length))),
    ):
        c.add(
            layer,
            "text",
            {"x": num(at), "y": num(y + 17 * c.u), "font-size": c.size(10), "text-anchor": "middle", "fill": INK},
            text,
        )
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
    x = 0.0
    for draw, text in _legend_items(c):
        slot = 150 * u * math.ceil((30 + 5.8 * len(text)) / 150)  # a long text takes two or more slots
        if x > 0 and x + slot > c.scene.width:
            x, y = 0.0, y + 18 * u
        draw(layer, x, y)
        c.add(layer, "text", {"x": num(x + 22 * u), "y": num(y), "font-size": c.size(10), "fill": INK}, text)
        x += slot
    return y


def _legend_items(c: Canvas) -> list[tuple[Swatch, str]]:
    """The legend's swatches: sides, terrain kinds present, corps, and what the orders add."""
    u = c.u

    def swatch(**attrs: str):  # type: ignore[no-untyped-def]
        def draw(layer: ET.Element, x: float, y: float) -> None:
            c.add(layer, "rect", {"x": num(x), "y": num(y - 9 * u), "width": c.size(16), "height": c.size(10), **attrs})
        return draw

    items: list[tuple[Swatch, str]] = []
    for side in sorted(c.scene.sides):
        fill, stroke = c.colours[side]
        items.append(
            (swatch(fill=fill, stroke=stroke, **{"stroke-width": c.size(1)}), _("side {side}").format(side=side))
        )
    from movecheck.maneuver.svg_print import kind_name
    from movecheck.maneuver.terrain import TERRAIN_KINDS

    kinds = {area.kind for area in c.scene.terrain}
    for kind in (k for k in TERRAIN_KINDS if k in kinds):
        fill, stroke, overlay = TERRAIN_STYLE[kind]
        items.append((swatch(fill=overlay or fill, stroke=stroke, **{"stroke-width": c.size(1)}), kind_name(kind)))
    if c.scene.corps:
        items.append(
            (
                swatch(
                    fill="none",
                    stroke=INK,
                    **{"stroke-width": c.size(1), "stroke-dasharray": f"{c.size(3)} {c.size(2)}"},
                ),
                _("corps"),
            )
        )
    if c.scene.moves:
        dash = {"stroke-width": c.size(1), "stroke-dasharray": f"{c.size(2)} {c.size(1.5)}"}
        items.append((swatch(fill="#bbbbbb", stroke=INK, **dash), _("declared end")))
        items.append((swatch(fill="#ffffff", stroke=REQUIRED, **{"stroke-width": c.size(1.2),
                                                                 "stroke-dasharray": f"{c.size(4)} {c.size(2)}"}),
                      _("end the rules require")))
        items.append((swatch(fill=SWEPT, **{"fill-opacity": "0.35"}), _("swept area")))
    from movecheck.maneuver.svg_print import legend_items as print_items
    from movecheck.maneuver.svg_reach import legend_items

    items.extend(print_items(c))
    items.extend(legend_items(c, swatch))
    return items


def _notes(c: Canvas, y: float) -> float:
    """Every finding of the run, whole (:func:`movecheck.maneuver.svg_print.notes`); returns the last line."""
    from movecheck.maneuver.svg_print import notes

    return notes(c, y)


def _centroid(ring: Sequence[Vec]) -> Vec:
    """The mean of a ring's points (where its label goes)."""
    return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))


def _midpoint(path: Sequence[Vec]) -> Vec:
    """The point halfway along a polyline."""
    lengths = [math.dist(p, q) for p, q in itertools.pairwise(path)]
    half = sum(lengths) / 2
    for (p, q), length in zip(itertools.pairwise(path), lengths, strict=True):
        if half <= length and length > 0:
            k = half / length
            return (p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k)
        half -= length
    return path[-1]
