"""Draw ``render --reach``: shaded nested regions labelled with their odds, a dashed limit, corps ends as dots."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

from movecheck.i18n import _
from movecheck.render.svgkit import num, text_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.svg_canvas import Canvas, Swatch

LABEL_GAP = 11
"""Pixels between two odds labels of one base (closer ones are left out)."""


def _path(rings: Any) -> str:

    return " ".join("M" + " L".join(f"{num(x)},{num(-y)}" for x, y in ring) + " Z" for ring in rings)


def draw(c: Canvas) -> None:
    """The reach layer (under the bases)."""
    scene = c.scene
    if not scene.reach and not scene.reach_ends:
        return
    layer = c.group("reach")
    for shade in scene.reach:
        fill, stroke = c.colours[shade.side]
        for polygon in shade.limit:
            c.add(layer, "path", {"d": _path(polygon), "data-base": text_of(shade.base), "data-role": "reach-limit",
                                  "fill": "none", "stroke": stroke, "stroke-width": c.size(1),
                                  "stroke-dasharray": f"{c.size(5)} {c.size(3)}"})
        for level in shade.levels:
            for polygon in level.polygons:
                c.add(layer, "path", {"d": _path(polygon), "data-base": text_of(shade.base), "data-role": "reach",
                                      "data-probability": level.fraction, "fill": fill, "fill-opacity": "0.12",
                                      "fill-rule": "evenodd", "stroke": stroke, "stroke-width": c.size(0.4)})
        placed: list[tuple[float, float]] = []
        for k, level in enumerate(shade.levels):
            at = level.label_at
            if k == len(shade.levels) - 1 and level.rear_at is not None and (at is None or _crowded(c, at, placed)):
                at = level.rear_at  # the certain region is always labelled: behind the base when ahead is full
            if at is None or _crowded(c, at, placed):
                continue
            placed.append(at)
            c.label(layer, at, level.odds, 8, fill=stroke,
                    **{"data-base": text_of(shade.base), "data-role": "reach-odds", "data-probability": level.fraction})
    for ends in scene.reach_ends:
        fill, stroke = c.colours[ends.side]
        group = c.add(layer, "g", {"data-corps": text_of(ends.corps), "data-order": text_of(ends.order),
                                   "data-role": "reach-ends"})
        for base, (x, y), odds in ends.points:

            dot = c.add(group, "circle", {"cx": num(x), "cy": num(-y), "r": c.size(2), "fill": fill,
                                          "stroke": stroke, "stroke-width": c.size(0.5), "data-base": text_of(base)})
            c.add(dot, "title", {}, f"{base} {ends.order}: {odds}")


def _crowded(c: Canvas, at: tuple[float, float], placed: list[tuple[float, float]]) -> bool:
    return any(abs(at[0] - p[0]) + abs(at[1] - p[1]) < LABEL_GAP * c.u for p in placed)


def legend_items(c: Canvas, swatch: Any) -> list[tuple[Swatch, str]]:
    """The legend's entries for the reach layer."""
    items: list[tuple[Swatch, str]] = []
    if c.scene.reach:
        items.append((swatch(fill="#888888", **{"fill-opacity": "0.35"}),
                      _("reach: darker is likelier; % = chance to get that far")))
        items.append((swatch(fill="none", stroke="#555555", **{"stroke-width": c.size(1),
                                                                "stroke-dasharray": f"{c.size(5)} {c.size(3)}"}),
                      _("limit of reach (beyond: MV101)")))
    if c.scene.reach_ends:
        def dot(layer: ET.Element, x: float, y: float) -> None:

            c.add(layer, "circle", {"cx": num(x + 8 * c.u), "cy": num(y - 4 * c.u), "r": c.size(3), "fill": "#888888"})
        items.append((dot, _("corps order ends, one dot per roll outcome")))
    return items
