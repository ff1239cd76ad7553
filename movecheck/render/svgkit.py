"""Small pieces every SVG picture of movecheck uses: numbers, safe text, wrapped lines.

The pictures are built with :mod:`xml.etree.ElementTree` (escaping done by the
serialiser, attributes in the order they are set); these helpers keep the bytes the
same for the same input: numbers with at most three decimals and never ``-0``, text
from files with control and bidi characters made visible.
"""

from __future__ import annotations

import math
import re
import textwrap
import xml.etree.ElementTree as ET

from movecheck.render.escape import escape

SVG_NS = "http://www.w3.org/2000/svg"
_NOT_XML = re.compile("[\ufffe\uffff]")


def num(value: float) -> str:
    """A number as the SVG writes it: at most three decimals, no trailing zeros, never ``-0``."""
    if not math.isfinite(value):
        return "0"
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_of(value: str) -> str:
    """Text from a file, safe in XML and on a screen (control characters made visible)."""
    return _NOT_XML.sub("?", escape(str(value)))


def wrapped(text: str, width: int) -> list[str]:
    """A line of text broken at spaces into lines of at most ``width`` characters (a longer word is broken too)."""
    return textwrap.wrap(text, width=width, break_long_words=True, break_on_hyphens=False) or [""]


def add(parent: ET.Element, tag: str, attrs: dict[str, str], text: str | None = None) -> ET.Element:
    """A child element with attributes (in this order) and text, both made safe (:func:`text_of`)."""
    element = ET.SubElement(parent, tag, {key: text_of(value) for key, value in attrs.items()})
    if text is not None:
        element.text = text_of(text)
    return element


def document(root: ET.Element) -> str:
    """The SVG text of a drawn tree (UTF-8, one element per line)."""
    ET.indent(ET.ElementTree(root), space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def arrowheads(defs: ET.Element, inks: list[str], size: int, ref_x: int) -> dict[str, str]:
    """One arrowhead marker per ink in ``defs`` (``size`` user units wide, its tip ``ref_x`` of 10 past the
    line's end); the ``marker-end`` value of each ink."""
    for k, ink in enumerate(inks):
        marker = add(defs, "marker", {"id": f"head{k}", "viewBox": "0 0 10 10", "refX": str(ref_x), "refY": "5",
                                      "markerWidth": str(size), "markerHeight": str(size),
                                      "orient": "auto-start-reverse"})
        add(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": ink})
    return {ink: f"url(#head{k})" for k, ink in enumerate(inks)}
