"""The parts of a picture that make it readable printed: labels clear of paths, rolls at the bases, landmarks
marked, the findings in full under the side they are about.

Called by :func:`movecheck.maneuver.svg.render`; labels are placed by :class:`movecheck.maneuver.svg_layout.Placer`.
"""

from __future__ import annotations

import math
import textwrap
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

from movecheck.i18n import N_, _
from movecheck.maneuver.svg_layout import Placer, around
from movecheck.render.svgkit import num, text_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.scene import Move, Outline
    from movecheck.maneuver.svg_canvas import Canvas, Swatch

KIND_NAMES = {
    "open": N_("open"), "stream": N_("stream"), "ploughed_field": N_("ploughed field"), "rice_paddy": N_("rice paddy"),
    "hill": N_("hill"), "forest": N_("forest"), "impassable": N_("impassable"),
}
"""The legend's name of each terrain kind (translated when drawn)."""

NOTE_WIDTH = 120
"""Characters per line of a finding under the field (a longer one goes on over several lines, whole)."""


def kind_name(kind: str) -> str:
    """A terrain kind as the legend names it, in the run's language."""
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else kind.replace("_", " ")


def _centre(corners: Any) -> tuple[float, float]:
    return (sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners) / len(corners))


def _frame(outline: Outline) -> tuple[tuple[float, float], tuple[float, float]]:
    """A base's heading (unit vector) and half extents along and across it, from its corners."""
    fl, _rl, _rr, fr = outline.corners[:4]
    front = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    centre = _centre(outline.corners)
    along = math.dist(front, centre) or 1e-9
    heading = ((front[0] - centre[0]) / along, (front[1] - centre[1]) / along)
    return heading, (along, math.dist(fl, fr) / 2)


def placer(c: Canvas) -> Placer:
    """A placer that keeps labels off every base, end, required end and path of the scene."""
    p = Placer()
    for outline in c.scene.bases:
        p.block(outline.corners)
    for move in c.scene.moves:
        p.block(move.end.corners)
        if move.required is not None:
            p.block(move.required.corners)
        p.line(move.path)
    for _order, _mark, start, end in c.scene.targets:
        p.line([start, end])
    return p


def base_labels(c: Canvas, layer: ET.Element) -> None:
    """Each base's name beside it, away from its path (behind it when it moves ahead), never on a line."""
    moved = {m.base: m for m in reversed(c.scene.moves)}
    for outline in c.scene.bases:
        heading, half = _frame(outline)
        move = moved.get(outline.base)
        if move is not None and len(move.path) > 1 and math.dist(move.path[0], move.path[1]) > 1e-9:
            (x0, y0), (x1, y1) = move.path[0], move.path[1]
            d = math.dist((x0, y0), (x1, y1))
            toward = ((x1 - x0) / d, (y1 - y0) / d)
            sideways = abs(toward[0] * heading[0] + toward[1] * heading[1]) < 0.5
            heading, half = toward, (half[1], half[0]) if sideways else half
        at = c.placer.place(around(_centre(outline.corners), half, heading, 3 * c.u, outline.base, 8 * c.u),
                            outline.base, 8 * c.u)
        c.label(layer, at, outline.base, 8, **{"data-base": text_of(outline.base), "data-role": "base-label"})


def order_label(c: Canvas, group: ET.Element, move: Move, stroke: str, mid: tuple[float, float]) -> None:
    """An order's name beside the middle of its path, off the bases and their names."""
    size = 9 * c.u
    candidates = [(mid[0] + 6 * c.u, mid[1]), (mid[0] - 6 * c.u, mid[1])]
    candidates += [(mid[0] + k * 8 * c.u, mid[1] + j * 10 * c.u) for j in (1, -1, 2, -2) for k in (1, -1)]
    at = c.placer.place(candidates, move.label, size, anchor="start")
    c.label(group, at, move.label, 9, fill=stroke, **{"text-anchor": "start", "font-weight": "bold",
                                                      "data-role": "order-label"})


def rolls_label(c: Canvas, group: ET.Element, move: Move, stroke: str) -> None:
    """The declared rolls a base's walk used and the allowance they left, at its end."""
    if not move.rolls:
        return
    heading, half = _frame(move.end)
    at = c.placer.place(around(_centre(move.end.corners), half, (-heading[1], heading[0]), 3 * c.u, move.rolls,
                               8 * c.u), move.rolls, 8 * c.u)
    c.label(group, at, move.rolls, 8, fill=stroke, **{"data-role": "rolls", "data-base": text_of(move.base)})


def marks(c: Canvas, layer: ET.Element) -> None:
    """Landmarks that are a terrain element or a corps: a diamond and ``landmark NAME``."""
    r = 5 * c.u
    for name, (x, y), kind in c.scene.marks:
        c.polygon(layer, [(x, y + r), (x + r, y), (x, y - r), (x - r, y)],
                  **{"data-landmark": text_of(name), "data-kind": kind, "fill": "#ffffff", "stroke": "#333333",
                     "stroke-width": c.size(1.5)})
        text = _("landmark {name}").format(name=name)
        at = c.placer.place([(x, y + r + 3 * c.u), (x, y - r - 9 * c.u), (x + r + 2 * c.u, y - 3 * c.u)], text, 9 * c.u)
        c.label(layer, at, text, 9, **{"data-landmark": text_of(name), "data-role": "landmark-label"})


def targets(c: Canvas, layer: ET.Element) -> None:
    """Each Move to landmark order: a dashed line from the corps' reference point to where it heads for."""

    for order, mark, (x0, y0), (x1, y1) in c.scene.targets:
        group = c.add(layer, "g", {"data-order": str(order), "data-role": "target", "data-landmark": text_of(mark)})
        c.add(group, "line", {"x1": num(x0), "y1": num(-y0), "x2": num(x1), "y2": num(-y1), "stroke": "#333333",
                              "stroke-width": c.size(0.8), "stroke-dasharray": f"{c.size(2)} {c.size(2)}"})
        c.add(group, "circle", {"cx": num(x1), "cy": num(-y1), "r": c.size(3), "fill": "none", "stroke": "#333333",
                                "stroke-width": c.size(1)})


def notes(c: Canvas, y: float) -> float:
    """Every finding of the run in full (wrapped), those about one side under its name; returns the last line."""
    from movecheck.maneuver.svg_canvas import INK, SEVERITY_COLOURS

    if not c.scene.notes:
        return y
    layer = c.group("notes")
    sides = [None, *sorted({n.side for n in c.scene.notes if n.side is not None})]
    for side in sides:
        mine = [n for n in c.scene.notes if n.side == side]
        if not mine:
            continue
        if side is not None:
            y += 17 * c.u
            c.add(layer, "text", {"x": "0", "y": num(y), "font-size": c.size(10), "font-weight": "bold", "fill": INK,
                                  "data-side": text_of(side)}, _("side {side}").format(side=side))
        for note in mine:
            lines = textwrap.wrap(note.text, NOTE_WIDTH, break_long_words=True, break_on_hyphens=False) or [""]
            y += 15 * c.u
            attrs = {"x": "0", "y": num(y), "font-size": c.size(10), "fill": SEVERITY_COLOURS.get(note.severity, INK),
                     "data-code": note.code}
            if note.side is not None:
                attrs["data-side"] = text_of(note.side)
            text = c.add(layer, "text", attrs)
            for k, line in enumerate(lines):
                c.add(text, "tspan", {"x": num(0 if k == 0 else 14 * c.u), "dy": "0" if k == 0 else c.size(13)}, line)
            y += 13 * c.u * (len(lines) - 1)
    return y


def legend_items(c: Canvas) -> list[tuple[Swatch, str]]:
    """The legend's entries for landmarks that are terrain or a corps, and for the targets of Move to landmark."""

    items: list[tuple[Swatch, str]] = []
    u = c.u
    if c.scene.marks:
        def diamond(layer: ET.Element, x: float, y: float) -> None:
            cx, cy, r = x + 8 * u, y - 4 * u, 5 * u
            c.polygon(layer, [(cx, -cy + r), (cx + r, -cy), (cx, -cy - r), (cx - r, -cy)], fill="#ffffff",
                      stroke="#333333", **{"stroke-width": c.size(1.5)})
        items.append((diamond, _("landmark: a terrain element or a corps")))
    if c.scene.targets:
        def heading(layer: ET.Element, x: float, y: float) -> None:
            c.add(layer, "line", {"x1": num(x), "y1": num(y - 4 * u), "x2": num(x + 16 * u), "y2": num(y - 4 * u),
                                  "stroke": "#333333", "stroke-width": c.size(0.8),
                                  "stroke-dasharray": f"{c.size(2)} {c.size(2)}"})
        items.append((heading, _("Move to landmark: where the corps heads for")))
    return items
