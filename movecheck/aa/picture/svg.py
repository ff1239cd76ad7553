"""Draw an aa picture (:class:`~movecheck.aa.picture.collect.Board`) as an SVG document.

The board is schematic: each space a disc at its centre (land in the colour of who
holds it, its IPC value inside; sea zones smaller and blue), the connections as thin
lines, a factory as a black square, the units under each disc one line per power.  An
order is an arrow along the centres of its path (solid; an amphibious assault dashed,
a blitz dotted, an illegal order red); a battle is a red ring; a finding is a badge
with its code at its space, and the list below the board gives every finding in full,
wrapped, never cut.  On a board that wraps east-west a connection or a move that
crosses the edge is drawn leaving one side and coming back on the other.

User units are pixels of the board's layout (y downwards).  Elements a program may
want back carry ``class`` and ``data-*`` attributes: ``space`` (``data-space``),
``move`` (``data-order``, ``data-how``), ``battle``, ``factory``, ``finding-marker`` and
``finding`` (``data-code``).  Built with :mod:`xml.etree.ElementTree` through
:mod:`movecheck.render.svgkit`: the same scene always gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from movecheck.i18n import _
from movecheck.render.svgkit import SVG_NS, add, arrowheads, document, num, wrapped

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.aa.picture.scene import Arrow, Board, Place

Point = tuple[float, float]

POWER_COLOURS = {
    "Germans": ("#8c8c8c", "#2f2f2f"), "Russians": ("#c0504d", "#6e1c1a"), "British": ("#d8b76a", "#7a5a12"),
    "Japanese": ("#f0a030", "#8a4a00"), "Americans": ("#6f9a4f", "#2f5217"), "Italians": ("#9a7a5a", "#4a3218"),
    "Chinese": ("#7f9fcf", "#2a4a7a"), "French": ("#5a7fbf", "#1f3f7a"), "ANZAC": ("#8fb0a0", "#2f5a4a"),
}
"""Fill and ink of the powers of the A&A games."""
PALETTE = (("#b07cc6", "#5b2c6f"), ("#4fb0b0", "#0b5c5b"), ("#d88fa0", "#7a2a3a"), ("#a0a040", "#4a4a0a"))
NEUTRAL, SEA, SEA_INK, BACKGROUND, INK = "#e8e0c8", "#a9cce3", "#1f5f8b", "#dbe9f4", "#222222"
ILLEGAL = "#d62728"
SEVERITY_COLOURS = {"error": "#c0392b", "warning": "#b9770e", "note": "#1d5fa8"}
LAND_R, SEA_R = 26.0, 17.0
TITLE_H, NOTE_CHARS, NOTE_LINE = 72.0, 190, 34.0
DASHES = {"move": None, "amphibious": "18 9", "blitz": "3 9", "illegal": "10 6"}


def colours(powers: list[str]) -> dict[str, tuple[str, str]]:
    """Fill and ink of each power: its own, else the palette in the map's order."""
    found, spare = {}, 0
    for power in powers:
        if power in POWER_COLOURS:
            found[power] = POWER_COLOURS[power]
        else:
            found[power] = PALETTE[spare % len(PALETTE)]
            spare += 1
    return found


def render(scene: Board) -> str:
    """The scene as an SVG document."""
    paint = colours(scene.powers)
    root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1"})
    _defs(root, scene, paint)
    add(root, "text", {"x": "10", "y": "50", "font-size": "38", "font-family": "sans-serif", "fill": INK}, scene.title)
    board = add(root, "g", {"id": "board", "transform": f"translate(0 {num(TITLE_H)})"})
    add(board, "rect", {"width": num(scene.width), "height": num(scene.height), "fill": BACKGROUND})
    clipped = add(board, "g", {"clip-path": "url(#board-edge)"})
    _links(clipped, scene)
    _arrows(clipped, scene, paint)
    _places(board, scene, paint)
    _labels(board, scene, paint)
    _arrow_labels(board, scene)
    _markers(board, scene)
    y = _legend(root, scene, paint, TITLE_H + scene.height + 50)
    y = _notes(root, scene, y + 20)
    height = y + 30
    root.set("width", num(scene.width))
    root.set("height", num(height))
    root.set("viewBox", f"0 0 {num(scene.width)} {num(height)}")
    return document(root)


def _defs(root: ET.Element, scene: Board, paint: dict[str, tuple[str, str]]) -> None:
    defs = add(root, "defs", {})
    clip = add(defs, "clipPath", {"id": "board-edge"})
    add(clip, "rect", {"width": num(scene.width), "height": num(scene.height)})
    inks = sorted({paint[p][1] for p in scene.powers if p in paint} | {ILLEGAL})
    scene_heads.clear()
    scene_heads.update(arrowheads(defs, inks, 5, 7))


scene_heads: dict[str, str] = {}
"""The arrowhead marker of each ink, for the picture being drawn."""


def _radius(place: Place) -> float:
    return SEA_R if place.sea else LAND_R


def _segments(scene: Board, points: list[Point]) -> list[list[Point]]:
    """A polyline, and its copy one board-width over where it crosses the east-west edge.

    A step longer than half the board goes round the edge, on a board that says it wraps and
    on one that does not (the Revised board joins the Americas across its edge all the same).
    """
    if len(points) < 2:
        return [points]
    line = [points[0]]
    for x, y in points[1:]:
        last = line[-1][0]
        candidates = (x - scene.width, x, x + scene.width)
        line.append((min(candidates, key=lambda c: abs(c - last)), y))
    lines = [line]
    if min(p[0] for p in line) < 0:
        lines.append([(x + scene.width, y) for x, y in line])
    if max(p[0] for p in line) > scene.width:
        lines.append([(x - scene.width, y) for x, y in line])
    return lines


def _links(parent: ET.Element, scene: Board) -> None:
    layer = add(parent, "g", {"id": "connections", "fill": "none"})
    for a, b in scene.links:
        one, two = scene.places[a], scene.places[b]
        land = not one.sea and not two.sea
        style = {"stroke": "#9c8c6c" if land else "#7fa7c7", "stroke-width": "2.5" if land else "1.5"}
        if not land:
            style["stroke-dasharray"] = "4 4"
        for line in _segments(scene, [one.at, two.at]):
            add(layer, "polyline", {"points": _points(line), **style})


def _points(line: list[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in line)


def _shorten(line: list[Point], by: float) -> list[Point]:
    """The polyline with its last point moved ``by`` back towards the one before (the arrow stops at the disc)."""
    (x0, y0), (x1, y1) = line[-2], line[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length <= by * 1.5:
        return line
    k = (length - by) / length
    return [*line[:-1], (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)]


def _offset_points(scene: Board, arrow: Arrow, shift: float) -> list[Point]:
    points = [scene.places[s].at for s in arrow.path]
    return [(x + shift, y + shift * 0.6) for x, y in points]


def _arrows(parent: ET.Element, scene: Board, paint: dict[str, tuple[str, str]]) -> None:
    layer = add(parent, "g", {"id": "moves", "fill": "none", "stroke-linecap": "round", "stroke-linejoin": "round"})
    seen: dict[tuple[str, str], int] = {}
    for arrow in scene.arrows:
        key = (arrow.path[0], arrow.path[-1])
        k = seen.get(key, 0)
        seen[key] = k + 1
        shift = (k + 1) // 2 * 10.0 * (1 if k % 2 else -1)
        ink = ILLEGAL if arrow.how == "illegal" else paint.get(arrow.power, PALETTE[0])[1]
        group = add(layer, "g", {"class": "move", "data-order": str(arrow.order), "data-how": arrow.how})
        add(group, "title", {}, _("order {label}: {path}").format(label=arrow.label, path=" → ".join(arrow.path)))
        end = _radius(scene.places[arrow.path[-1]]) + 6
        for line in _segments(scene, _offset_points(scene, arrow, shift)):
            style = {"points": _points(_shorten(line, end)), "stroke": ink,
                     "stroke-width": "7" if arrow.how == "blitz" else "5",
                     "stroke-opacity": "0.85", "marker-end": scene_heads.get(ink, "")}
            dash = DASHES.get(arrow.how)
            if dash:
                style["stroke-dasharray"] = dash
            add(group, "polyline", style)


def _arrow_labels(parent: ET.Element, scene: Board) -> None:
    """The order's number where its arrow starts, so the findings below can be found on the board."""
    layer = add(parent, "g", {"id": "order-numbers", "font-family": "sans-serif", "font-size": "14",
                              "text-anchor": "middle", "font-weight": "bold"})
    for arrow in scene.arrows:
        (x0, y0), (x1, y1) = scene.places[arrow.path[0]].at, scene.places[arrow.path[1]].at
        if abs(x1 - x0) > scene.width / 2:
            x1 = x1 - scene.width if x1 > x0 else x1 + scene.width
        x, y = x0 + (x1 - x0) * 0.35, y0 + (y1 - y0) * 0.35
        ink = ILLEGAL if arrow.how == "illegal" else INK
        add(layer, "text", {"x": num(x), "y": num(y + 5), "fill": ink, "stroke": "#ffffff", "stroke-width": "4",
                            "paint-order": "stroke"}, str(arrow.order))


def _places(parent: ET.Element, scene: Board, paint: dict[str, tuple[str, str]]) -> None:
    layer = add(parent, "g", {"id": "spaces"})
    for place in scene.places.values():
        x, y = place.at
        r = _radius(place)
        if place.sea:
            fill, ink = SEA, SEA_INK
        elif place.holder in paint:
            fill, ink = paint[place.holder]
        else:
            fill, ink = NEUTRAL, "#8a7a5a"
        group = add(layer, "g", {"class": "space", "data-space": place.name})
        held = place.holder or (_("sea zone") if place.sea else _("neutral"))
        add(group, "title", {}, f"{place.name} ({held})")
        add(group, "circle", {"cx": num(x), "cy": num(y), "r": num(r), "fill": fill, "stroke": ink,
                              "stroke-width": "2.5"})
        if place.battle:
            add(group, "circle", {"class": "battle", "cx": num(x), "cy": num(y), "r": num(r + 9), "fill": "none",
                                  "stroke": ILLEGAL, "stroke-width": "5", "stroke-dasharray": "9 5"})
        if place.factory:
            add(group, "rect", {"class": "factory", "x": num(x + r * 0.45), "y": num(y - r - 4), "width": "14",
                                "height": "14", "fill": "#111111", "stroke": "#ffffff", "stroke-width": "1.5"})


def _labels(parent: ET.Element, scene: Board, paint: dict[str, tuple[str, str]]) -> None:
    """Each space's name above its disc, and its units below it, one line per power."""
    layer = add(parent, "g", {"id": "labels", "font-family": "sans-serif", "text-anchor": "middle",
                              "stroke": "#ffffff", "paint-order": "stroke"})
    from movecheck.aa.post.report import short

    for place in scene.places.values():
        x, y = place.at
        r = _radius(place)
        name_ink = SEA_INK if place.sea else INK
        edge = _edge(scene, x, r)
        add(layer, "text", {"x": num(edge[0]), "y": num(y - r - 6), "font-size": "13" if place.sea else "15",
                            "fill": name_ink, "stroke-width": "3", **edge[1]}, place.name)
        value = place.holder is not None and not place.sea
        if value:
            add(layer, "text", {"x": num(x), "y": num(y + 6), "font-size": "16", "font-weight": "bold", "fill": INK,
                                "stroke-width": "0"}, _production(place))
        for k, (power, kinds) in enumerate(place.units):
            line = " ".join(f"{n} {short(kind)}" for kind, n in kinds.items())
            add(layer, "text", {"x": num(edge[0]), "y": num(y + r + 15 + 15 * k), "font-size": "13",
                                "fill": paint.get(power, PALETTE[0])[1], "stroke-width": "3", **edge[1]},
                f"{power[:3]} {line}")


def _edge(scene: Board, x: float, r: float) -> tuple[float, dict[str, str]]:
    """Where a label of a disc at ``x`` starts: centred, but inside the board near its edges."""
    if x < 130:
        return max(x - r, 2.0), {"text-anchor": "start"}
    if x > scene.width - 130:
        return min(x + r, scene.width - 2.0), {"text-anchor": "end"}
    return x, {}


def _production(place: Place) -> str:
    return "" if place.production is None else str(place.production)


def _markers(parent: ET.Element, scene: Board) -> None:
    """A badge per finding: at its space (stacked), or along the board's top edge."""
    layer = add(parent, "g", {"id": "finding-markers", "font-family": "sans-serif", "font-size": "14",
                              "font-weight": "bold"})
    stacked: dict[str, int] = {}
    margin = 0
    for marker in scene.markers:
        if marker.space is not None and marker.space in scene.places:
            place = scene.places[marker.space]
            k = stacked.get(marker.space, 0)
            stacked[marker.space] = k + 1
            x, y = place.at[0] + _radius(place) + 4, place.at[1] - 12 + 22 * k
        else:
            x, y = 10 + 90 * margin, 8
            margin += 1
        colour = SEVERITY_COLOURS.get(marker.severity, INK)
        group = add(layer, "g", {"class": "finding-marker", "data-code": marker.code,
                                 "data-space": marker.space or ""})
        width = 10 + 9 * len(marker.code)
        add(group, "rect", {"x": num(x), "y": num(y), "width": num(width), "height": "20", "rx": "4",
                            "fill": colour, "stroke": "#ffffff", "stroke-width": "1.5"})
        add(group, "text", {"x": num(x + 5), "y": num(y + 15), "fill": "#ffffff"}, marker.code)


def _legend(root: ET.Element, scene: Board, paint: dict[str, tuple[str, str]], y: float) -> float:
    layer = add(root, "g", {"id": "legend", "font-family": "sans-serif", "font-size": "26", "fill": INK})
    x = 10.0
    for power in scene.powers:
        fill, ink = paint[power]
        add(layer, "circle", {"cx": num(x + 13), "cy": num(y - 9), "r": "13", "fill": fill, "stroke": ink})
        add(layer, "text", {"x": num(x + 34), "y": num(y)}, power)
        x += 56 + 16 * len(power)
    x += 20
    for how, word in (("move", _("move")), ("amphibious", _("amphibious assault")), ("blitz", _("blitz")),
                      ("illegal", _("illegal order"))):
        style = {"points": f"{num(x)},{num(y - 9)} {num(x + 60)},{num(y - 9)}",
                 "stroke": INK if how != "illegal" else ILLEGAL,
                 "stroke-width": "5", "fill": "none"}
        if DASHES[how]:
            style["stroke-dasharray"] = str(DASHES[how])
        add(layer, "polyline", style)
        add(layer, "text", {"x": num(x + 70), "y": num(y)}, word)
        x += 100 + 15 * len(word)
    add(layer, "circle", {"cx": num(x + 14), "cy": num(y - 9), "r": "14", "fill": "none", "stroke": ILLEGAL,
                          "stroke-width": "4", "stroke-dasharray": "7 4"})
    add(layer, "text", {"x": num(x + 36), "y": num(y)}, _("battle"))
    x += 60 + 15 * len(_("battle"))
    add(layer, "rect", {"x": num(x), "y": num(y - 18), "width": "18", "height": "18", "fill": "#111111"})
    add(layer, "text", {"x": num(x + 28), "y": num(y)}, _("factory"))
    y += 40
    words = _("a land disc: the colour of its holder, its IPC value inside; units under it, a line per power")
    if scene.computed:
        words += "; " + _("positions computed from the connections (the map gives no layout)")
    add(layer, "text", {"x": "10", "y": num(y), "font-size": "22"}, words)
    return y


def _notes(root: ET.Element, scene: Board, y: float) -> float:
    """Every finding in full, wrapped (never cut)."""
    if not scene.notes:
        return y
    layer = add(root, "g", {"id": "findings", "font-family": "sans-serif", "font-size": "26"})
    for note in scene.notes:
        y += NOTE_LINE
        text = add(layer, "text", {"class": "finding", "data-code": note.code, "x": "10", "y": num(y),
                                   "fill": SEVERITY_COLOURS.get(note.severity, INK)})
        for k, line in enumerate(wrapped(note.text, NOTE_CHARS)):
            if k:
                y += NOTE_LINE
            add(text, "tspan", {"x": "10" if k == 0 else "50", "y": num(y)}, line)
    return y
