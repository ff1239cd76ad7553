"""Plane geometry of bases on the battlefield (spec: maneuver.md, "Geometry"): the shapes.

A base is a rectangle given by its centre, facing, width (frontage, across the facing)
and depth (along the facing); its front edge is the one in the facing direction.  This
module builds the shapes (bases, convex pieces of terrain, the field) and answers the
questions about shapes at rest: distance, overlap, contact, nearest point, which shapes
lie near one another.  How a shape moving in a straight line meets another is
:mod:`movecheck.maneuver.sweep`; bearings and vectors are :mod:`movecheck.maneuver.plane`.

Floats are never compared exactly: every comparison uses one of the named tolerances
below or ``plane.EPS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import cast

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from movecheck.maneuver.plane import EPS, Vec, heading_vector, right_vector

# --- tolerances ---------------------------------------------------------------------------

DEFAULT_CONTACT_GAP = 0.05
"""Largest edge-to-edge distance (steps) that still counts as contact."""

OVERLAP_REL = 1e-9
"""Two shapes overlap when their common area exceeds this fraction of the smaller area."""



# --- bases ------------------------------------------------------------------------------


def base_corners(x: float, y: float, facing: float, width: float, depth: float) -> list[Vec]:
    """Corners front-left, rear-left, rear-right, front-right (counter-clockwise)."""
    hx, hy = heading_vector(facing)
    rx, ry = right_vector(facing)
    fw, fd = width / 2.0, depth / 2.0

    def corner(along: float, across: float) -> Vec:
        """The point along/across steps from the centre."""
        return (x + along * hx + across * rx, y + along * hy + across * ry)

    return [corner(fd, -fw), corner(-fd, -fw), corner(-fd, fw), corner(fd, fw)]


def base_rect(x: float, y: float, facing: float, width: float, depth: float) -> Polygon:
    """The base's rectangle as a counter-clockwise polygon."""
    return Polygon(base_corners(x, y, facing, width, depth))


def front_edge(x: float, y: float, facing: float, width: float, depth: float) -> LineString:
    """The base's front edge, from its front-left to its front-right corner."""
    fl, _, _, fr = base_corners(x, y, facing, width, depth)
    return LineString([fl, fr])


def rear_edge(x: float, y: float, facing: float, width: float, depth: float) -> LineString:
    """The base's rear edge, from its rear-left to its rear-right corner."""
    _, rl, rr, _ = base_corners(x, y, facing, width, depth)
    return LineString([rl, rr])


def polygon_edges(poly: Polygon) -> list[LineString]:
    """The edges of a polygon's exterior ring, as two-point lines."""
    c = list(poly.exterior.coords)
    return [LineString([c[i], c[i + 1]]) for i in range(len(c) - 1)]


# --- distance, overlap, contact ---------------------------------------------------------


def edge_distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """Shortest distance between two shapes (0 when they touch or overlap)."""
    return float(a.distance(b))


def overlap_area(a: BaseGeometry, b: BaseGeometry) -> float:
    """Area of the intersection of two shapes."""
    return float(a.intersection(b).area)


def overlaps(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether the common area exceeds OVERLAP_REL times the smaller area."""
    if not a.intersects(b):
        return False
    return bool(overlap_area(a, b) > OVERLAP_REL * min(a.area, b.area))


def in_contact(a: BaseGeometry, b: BaseGeometry, gap: float = DEFAULT_CONTACT_GAP) -> bool:
    """Whether two shapes are within gap of each other without overlapping."""
    return edge_distance(a, b) <= gap + EPS and not overlaps(a, b)


# --- convex pieces ---------------------------------------------------------------------------


def _is_convex(poly: Polygon) -> bool:
    """Whether a polygon is convex and has no holes (within a relative area tolerance)."""
    if len(poly.interiors):
        return False
    return bool(poly.convex_hull.area - poly.area <= 1e-12 * max(1.0, poly.area))


def convex_pieces(geom: BaseGeometry) -> list[Polygon]:
    """The polygonal shape split into convex polygons (non-convex ones are triangulated)."""
    out: list[Polygon] = []
    for part in shapely.get_parts(geom):
        if isinstance(part, Polygon):
            if part.is_empty:
                continue
            if _is_convex(part):
                out.append(part)
            else:
                tris = shapely.constrained_delaunay_triangles(part)
                out.extend(t for t in shapely.get_parts(tris) if t.area > 0)
        elif not part.is_empty and part.geom_type in ("MultiPolygon", "GeometryCollection"):
            out.extend(convex_pieces(part))
    return out


# --- lifting a shape off another ----------------------------------------------------------


def separations(moving: Polygon, obstacle: Polygon) -> list[Vec]:
    """The shortest translations that lift ``moving`` off the convex ``obstacle``, along each separating axis.

    One each way along every edge normal of the two (separating axis theorem): the
    shortest of them is the smallest translation that leaves the two touching.  None
    when they do not overlap along some axis (they are apart already).
    """
    a = list(moving.exterior.coords)[:-1]
    b = list(obstacle.exterior.coords)[:-1]
    found: list[Vec] = []
    for ring in (a, b):
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
            length = math.hypot(x1 - x0, y1 - y0)
            if length <= EPS:
                continue
            nx, ny = (y0 - y1) / length, (x1 - x0) / length
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= 0.0:
                return []
            up, down = max(pb) - min(pa), max(pa) - min(pb)
            found.extend([(nx * up, ny * up), (-nx * down, -ny * down)])
    return found


def into_box(moving: BaseGeometry, area: Polygon) -> Vec:
    """The smallest translation that brings ``moving`` inside the axis-aligned rectangle ``area``."""
    x0, y0, x1, y1 = moving.bounds
    fx0, fy0, fx1, fy1 = area.bounds
    return (max(0.0, fx0 - x0) - max(0.0, x1 - fx1), max(0.0, fy0 - y0) - max(0.0, y1 - fy1))


# --- field, points, indexing --------------------------------------------------------------


def field_polygon(width: float, depth: float) -> Polygon:
    """The battlefield rectangle from (0, 0) to (width, depth)."""
    return box(0.0, 0.0, width, depth)


def inside_field(poly: BaseGeometry, field: Polygon, eps: float = EPS) -> bool:
    """Whether the shape lies inside the field, allowing eps of overshoot (the grown field built and prepared once
    per field and slack, :func:`kept`)."""
    return bool(_grown_field(field, eps).covers(poly))


def inside_field_each(polys: Sequence[BaseGeometry], field: Polygon, eps: float = EPS) -> list[bool]:
    """:func:`inside_field` of each shape, in one call."""
    return [bool(x) for x in shapely.covers(_grown_field(field, eps), np.array(list(polys), dtype=object))]


def _grown_field(field: Polygon, eps: float) -> BaseGeometry:
    """The field grown by ``eps`` with mitred corners, prepared for repeated tests, built once per field and slack
    (:func:`kept`)."""
    return cast(BaseGeometry, kept(field, f"grown {eps!r}", lambda f: _grown(f, eps)))


def _grown(field: BaseGeometry, eps: float) -> BaseGeometry:
    grown = field.buffer(eps, join_style="mitre")
    shapely.prepare(grown)
    return grown


KEPT_SHAPES = 4096
"""Shapes whose derived shapes and coordinates :func:`kept` remembers before it starts again (the map's terrain
pieces and the field are asked about by every order that meets them, a base's rectangle by each question of its
order)."""

_KEPT: dict[tuple[int, str], tuple[BaseGeometry, object]] = {}


def kept(geom: BaseGeometry, kind: str, make: Callable[[BaseGeometry], object]) -> object:
    """``make(geom)``, computed once per shape (shapely shapes never change; the shape is held, so its id is not
    reused while remembered)."""
    key = (id(geom), kind)
    found = _KEPT.get(key)
    if found is not None and found[0] is geom:
        return found[1]
    if len(_KEPT) >= KEPT_SHAPES:
        _KEPT.clear()
    value = make(geom)
    _KEPT[key] = (geom, value)
    return value


def nearest_point(geom: BaseGeometry, point: Sequence[float] | Point) -> Vec:
    """The point of geom nearest to the given point."""
    target = point if isinstance(point, Point) else Point(point[0], point[1])
    p = nearest_points(geom, target)[0]
    return (p.x, p.y)


def prepare_all(geoms: Iterable[BaseGeometry]) -> list[BaseGeometry]:
    """Prepare shapes in place for fast repeated predicates; returns them as a list."""
    out = list(geoms)
    if out:
        shapely.prepare(np.asarray(out, dtype=object))
    return out


class SpatialIndex:
    """An STRtree over keyed shapes answering "which keys lie near this shape"."""

    def __init__(self, items: Iterable[tuple[Hashable, BaseGeometry]]) -> None:
        """Index the (key, geometry) pairs, remembering their order."""
        pairs = list(items)
        self.keys: list[Hashable] = [k for k, _ in pairs]
        self.geoms: list[BaseGeometry] = [g for _, g in pairs]
        self._tree = shapely.STRtree(self.geoms)

    def __len__(self) -> int:
        """Number of indexed shapes."""
        return len(self.keys)

    def near(self, geom: BaseGeometry, distance: float = 0.0) -> list[Hashable]:
        """Keys whose shapes lie within distance (+EPS) of geom, in insertion order."""
        if not self.keys:
            return []
        hits = self._tree.query(geom, predicate="dwithin", distance=distance + EPS)
        return [self.keys[i] for i in sorted(int(h) for h in hits)]

    def near_each(self, geoms: Sequence[BaseGeometry], distance: float = 0.0) -> list[list[Hashable]]:
        """:meth:`near` of each shape, in one query of the tree (the same keys in the same order)."""
        found: list[list[Hashable]] = [[] for _ in geoms]
        if not self.keys or not geoms:
            return found
        shapes = np.array(list(geoms), dtype=object)
        which, hits = self._tree.query(shapes, predicate="dwithin", distance=distance + EPS)
        for i, h in sorted(zip(which.tolist(), hits.tolist(), strict=True)):
            found[i].append(self.keys[h])
        return found


class MovableIndex:
    """Keyed shapes that move, answering the questions of :class:`SpatialIndex` with the same answers.

    A uniform grid of square cells (side: twice the median extent of the shapes), each
    cell holding the shapes whose bounding boxes meet it; :meth:`move` takes a shape
    out of its old cells and puts it into its new ones, so an order that moves a few
    bases costs a few cells, not a new tree over every base.  A shape that would span
    more than :attr:`SPAN` cells (or has no finite bounds) is kept aside and looked at
    by every query.  The exact test is shapely's ``dwithin``, the STRtree's predicate.
    """

    SPAN = 64

    def __init__(self, items: Iterable[tuple[Hashable, BaseGeometry]]) -> None:
        """Index the (key, geometry) pairs, remembering their order."""
        pairs = list(items)
        self.keys: list[Hashable] = [k for k, _ in pairs]
        self.geoms: list[BaseGeometry] = [g for _, g in pairs]
        self._slot = {k: i for i, k in enumerate(self.keys)}
        bounds = shapely.bounds(np.asarray(self.geoms, dtype=object)) if pairs else np.zeros((0, 4))
        extents = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1]) if pairs else np.zeros(0)
        extents = extents[np.isfinite(extents) & (extents > 0)]
        self.cell = float(2.0 * np.median(extents)) if extents.size else 1.0
        self._bounds: list[tuple[float, float, float, float]] = [tuple(map(float, b)) for b in bounds]  # type: ignore[misc]
        self._cells: dict[tuple[int, int], set[int]] = {}
        self._aside: set[int] = set()
        self._where: list[tuple[int, int, int, int] | None] = [None] * len(pairs)
        for i in range(len(pairs)):
            self._put(i)

    def __len__(self) -> int:
        """Number of indexed shapes."""
        return len(self.keys)

    def _range(self, b: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
        """The cells a box covers (first and last column and row), or None when a bound is not finite."""
        if not all(math.isfinite(v) for v in b):
            return None
        c = self.cell
        return math.floor(b[0] / c), math.floor(b[1] / c), math.floor(b[2] / c), math.floor(b[3] / c)

    def _span(self, b: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
        """The cells a shape's box covers, or None when it is too large (or not finite) for cells."""
        span = self._range(b)
        if span is None or (span[2] - span[0] + 1) * (span[3] - span[1] + 1) > self.SPAN:
            return None
        return span

    def _put(self, i: int) -> None:
        span = self._span(self._bounds[i])
        self._where[i] = span
        if span is None:
            self._aside.add(i)
            return
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                self._cells.setdefault((cx, cy), set()).add(i)

    def _take(self, i: int) -> None:
        span = self._where[i]
        if span is None:
            self._aside.discard(i)
            return
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                members = self._cells[(cx, cy)]
                members.discard(i)
                if not members:
                    del self._cells[(cx, cy)]

    def move(self, key: Hashable, geom: BaseGeometry) -> None:
        """The shape of ``key`` is now ``geom``."""
        i = self._slot[key]
        self._take(i)
        self.geoms[i] = geom
        self._bounds[i] = tuple(map(float, geom.bounds))  # type: ignore[assignment]
        self._put(i)

    def near(self, geom: BaseGeometry, distance: float = 0.0) -> list[Hashable]:
        """Keys whose shapes lie within distance (+EPS) of geom, in insertion order."""
        if not self.keys:
            return []
        d = distance + EPS
        qx0, qy0, qx1, qy1 = geom.bounds
        slack = d + 1e-9 * (1.0 + d + max(abs(qx0), abs(qy0), abs(qx1), abs(qy1)))
        box_ = (qx0 - slack, qy0 - slack, qx1 + slack, qy1 + slack)
        found = set(self._aside)
        span = self._range(box_)
        if span is None or (span[2] - span[0] + 1) * (span[3] - span[1] + 1) > len(self._cells):
            for members in self._cells.values():
                found.update(members)
        else:
            for cx in range(span[0], span[2] + 1):
                for cy in range(span[1], span[3] + 1):
                    cell = self._cells.get((cx, cy))
                    if cell:
                        found.update(cell)
        if not found:
            return []
        candidates = [i for i in found if _boxes_meet(self._bounds[i], box_)]
        if not candidates:
            return []
        hits = shapely.dwithin(np.asarray([self.geoms[i] for i in candidates], dtype=object), geom, d)
        return [self.keys[i] for i in sorted(i for i, hit in zip(candidates, hits, strict=True) if hit)]


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes meet (a box with a NaN bound meets everything: the exact test decides)."""
    return not (a[0] > b[2] or b[0] > a[2] or a[1] > b[3] or b[1] > a[3])
