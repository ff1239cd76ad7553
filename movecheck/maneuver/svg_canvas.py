"""The drawing primitives of the manoeuvre pictures: colours, numbers, safe text and the SVG canvas.

:mod:`movecheck.maneuver.svg` draws a scene on a :class:`Canvas`; the print and reach layers
(:mod:`~movecheck.maneuver.svg_print`, :mod:`~movecheck.maneuver.svg_reach`) use the same primitives.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from movecheck.render.svgkit import SVG_NS, num, text_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.scene import Scene

Vec = tuple[float, float]
Swatch = Callable[[ET.Element, float, float], None]
"""A legend entry's picture: drawn into a layer at (x, y)."""

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
        self.placer: Any = None
        """Where labels may go (:func:`movecheck.maneuver.svg_print.placer`, set by the drawing)."""

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
