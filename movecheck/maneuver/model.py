"""The battlefield of the maneuver system: terrain, landmarks, corps and bases (options: :mod:`options`).

This module imports no shapely at import time (``movecheck rules`` must stay light):
the shapes of bases and terrain are built on first use by :mod:`geometry`, which
is imported inside the properties that need it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from movecheck.i18n import N_, decimal, list_separator

if TYPE_CHECKING:  # pragma: no cover - typing only
    from shapely.geometry import Polygon

    from movecheck.maneuver.options import Options

DocPath = tuple[Any, ...]
Vec = tuple[float, float]

DEFAULT_MOBILITY = 8.0
"""Mobility of a base whose corps and entry name none (an assumption: the seed gives no number)."""

DEFAULT_BASE_SIZE = (4.0, 2.0)
"""Width and depth of a base whose corps and entry name none."""

ORDER_NAMES = {
    "all_ahead": N_("All ahead"),
    "all_back": N_("All back"),
    "to_landmark": N_("Move to landmark"),
    "free": N_("free move"),
}


@dataclass
class Terrain:
    """A terrain element: a polygon of one kind."""

    id: str
    kind: str
    points: list[Vec]
    source: DocPath = ()
    name: str | None = None
    _polygon: Any = field(default=None, repr=False, compare=False)
    _pieces: list[Any] | None = field(default=None, repr=False, compare=False)

    @property
    def polygon(self) -> Polygon:
        """The element's polygon (made valid when the drawn ring crosses itself)."""
        if self._polygon is None:
            from shapely.geometry import Polygon as _Polygon
            from shapely.validation import make_valid

            poly = _Polygon(self.points)
            if not poly.is_valid:
                fixed = make_valid(poly)
                parts = [g for g in getattr(fixed, "geoms", [fixed]) if g.geom_type in ("Polygon", "MultiPolygon")]
                from shapely.ops import unary_union

                poly = unary_union(parts) if parts else poly
            self._polygon = poly
        return self._polygon

    @property
    def pieces(self) -> list[Any]:
        """Convex pieces of the polygon, for exact entry distances."""
        if self._pieces is None:
            from movecheck.maneuver.geometry import convex_pieces

            self._pieces = convex_pieces(self.polygon)
        return self._pieces

    @property
    def label(self) -> str:
        """How messages name the element."""
        return f"{self.id} ({self.kind.replace('_', ' ')})"


@dataclass
class Landmark:
    """A landmark: a point, a terrain element or a corps (M1)."""

    id: str
    point: Vec | None = None
    terrain: str | None = None
    corps: str | None = None
    source: DocPath = ()

    def describe(self) -> str:
        """What the landmark is, for messages."""
        if self.point is not None:
            return f"landmark {self.id} at ({fmt(self.point[0])}, {fmt(self.point[1])})"
        if self.terrain is not None:
            return f"landmark {self.id} (terrain {self.terrain})"
        return f"landmark {self.id} (corps {self.corps})"


@dataclass(eq=False)
class Base:
    """One base: a rectangle with a centre, a facing, a frontage (width) and a depth."""

    id: str
    side: str
    corps: str
    x: float
    y: float
    facing: float
    width: float
    depth: float
    mobility: float
    source: DocPath = ()
    _rect: Any = field(default=None, repr=False)

    @property
    def centre(self) -> Vec:
        """The base's nominal centre."""
        return (self.x, self.y)

    @property
    def area(self) -> float:
        """Area of the rectangle."""
        return self.width * self.depth

    @property
    def half_diagonal(self) -> float:
        """Distance from the centre to a corner."""
        return math.hypot(self.width, self.depth) / 2.0

    @property
    def rect(self) -> Polygon:
        """The base's rectangle where it stands now."""
        if self._rect is None:
            self._rect = self.rect_at(self.x, self.y, self.facing)
        return self._rect

    def rect_at(self, x: float, y: float, facing: float, shrink: float = 0.0) -> Polygon:
        """The base's rectangle at another pose, optionally shrunk by ``shrink`` on every side."""
        from movecheck.maneuver.geometry import base_rect

        s = min(shrink, 0.25 * min(self.width, self.depth))
        return base_rect(x, y, facing, self.width - 2 * s, self.depth - 2 * s)

    def place(self, x: float, y: float, facing: float | None = None, rect: Any = None) -> None:
        """Move the base (after an order was carried out); ``rect``: its rectangle there, already built by
        :meth:`rect_at` at exactly that pose."""
        self.x, self.y = float(x), float(y)
        if facing is not None:
            self.facing = float(facing)
        self._rect = rect


@dataclass(eq=False)
class Corps:
    """A corps: bases of one side that manoeuvre together (M5).

    ``formation``: the offsets of its base centres from its first base that the
    last legal order left it in, as ``apply`` recorded them (None: none recorded);
    ``ordered_by``: the label of the checked corps order that last moved it in this
    run (None: none, or a free move of one of its bases came after).
    """

    id: str
    side: str
    bases: list[Base]
    source: DocPath = ()
    formation: dict[str, Vec] | None = None
    ordered_by: str | None = None

    def offsets(self) -> dict[str, Vec]:
        """Each base's centre as an offset from the first base's centre."""
        x0, y0 = self.bases[0].centre
        return {b.id: (b.x - x0, b.y - y0) for b in self.bases}

    def keeps_recorded_formation(self, slack: float = 1e-5) -> bool:
        """Whether its bases stand exactly in the formation recorded for it."""
        if not self.formation or set(self.formation) != {b.id for b in self.bases}:
            return False
        now = self.offsets()
        return all(abs(now[k][0] - v[0]) <= slack and abs(now[k][1] - v[1]) <= slack for k, v in self.formation.items())

    @property
    def mobility(self) -> float:
        """The smallest mobility among the corps' bases."""
        return min(b.mobility for b in self.bases)

    @property
    def facing(self) -> float:
        """The corps' facing: that of its first base (lint warns when they differ)."""
        return self.bases[0].facing

    @property
    def reference(self) -> Vec:
        """The corps' reference point: the mean of its base centres."""
        n = len(self.bases)
        return (sum(b.x for b in self.bases) / n, sum(b.y for b in self.bases) / n)


@dataclass
class Battlefield:
    """The field, its terrain and landmarks, the sides and their corps, the options."""

    width: float
    depth: float
    options: Options = field(default_factory=lambda: _default_options())
    terrain: dict[str, Terrain] = field(default_factory=dict)
    landmarks: dict[str, Landmark] = field(default_factory=dict)
    sides: dict[str, list[Corps]] = field(default_factory=dict)
    bases: dict[str, Base] = field(default_factory=dict)
    corps: dict[str, Corps] = field(default_factory=dict)
    _field: Any = field(default=None, repr=False)

    @property
    def field_polygon(self) -> Polygon:
        """The field rectangle."""
        if self._field is None:
            from movecheck.maneuver.geometry import field_polygon

            self._field = field_polygon(self.width, self.depth)
        return self._field

    def copy(self) -> Battlefield:
        """A battlefield to carry one orders file out on: its own bases and corps.

        Terrain, landmarks and options (and the shapes already computed) are shared:
        orders move bases, nothing else.
        """
        bases = {id(b): replace(b) for b in self.bases.values()}
        corps = {id(c): replace(c, bases=[bases[id(b)] for b in c.bases]) for c in self.corps.values()}
        return replace(
            self,
            sides={side: [corps[id(c)] for c in members] for side, members in self.sides.items()},
            bases={key: bases[id(b)] for key, b in self.bases.items()},
            corps={key: corps[id(c)] for key, c in self.corps.items()},
        )

    def all_bases(self) -> list[Base]:
        """Every base, in file order."""
        return list(self.bases.values())

    def bases_of(self, side: str) -> list[Base]:
        """The bases of one side."""
        return [b for b in self.bases.values() if b.side == side]

    def enemies_of(self, side: str) -> list[Base]:
        """The bases of every other side."""
        return [b for b in self.bases.values() if b.side != side]

    def difficult_terrain(self) -> list[Terrain]:
        """Terrain elements that cost a penalty die."""
        return [t for t in self.terrain.values() if self.options.die_of_kind(t.kind) is not None]

    def impassable_terrain(self) -> list[Terrain]:
        """Terrain elements no base may enter."""
        return [t for t in self.terrain.values() if t.kind == "impassable"]


def _default_options() -> Options:
    """Every option at its declared default (the declarations import this module)."""
    from movecheck.maneuver.options import Options

    return Options()


def fmt(value: float, decimals: int = 2, *, whole: bool = False, trim: bool = False) -> str:
    """A number as the maneuver system prints it to a reader: its one number formatter.

    ``decimals`` places (a length or coordinate: ``12.50``), never a negative zero;
    ``whole``: a whole number without decimals (``8``, but ``2.50``); ``trim``: no
    trailing zeros (``2.5``, ``8``).  Written as the active language writes decimals
    (Russian: ``12,50``); :func:`fmt_data` writes it for a file.
    """

    return decimal(fmt_data(value, decimals, whole=whole, trim=trim))


def fmt_data(value: float, decimals: int = 2, *, whole: bool = False, trim: bool = False) -> str:
    """:func:`fmt` with a decimal point whatever the language: a number in YAML or SVG."""
    if whole and float(value).is_integer():
        return str(int(value))
    text = f"{value:.{decimals}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.rstrip("0").rstrip(".") if trim else text


def fmt_xy(point: Vec) -> str:
    """A point as messages print it (``(12.50, 3.00)``; Russian ``(12,50; 3,00)``)."""

    return f"({fmt(point[0])}{list_separator()} {fmt(point[1])})"


def fmt_deg(value: float) -> str:
    """A bearing as messages print it."""
    text = fmt(value, 1, trim=True)
    return "0" if text == "360" else text
