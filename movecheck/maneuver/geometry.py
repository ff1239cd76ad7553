"""Plane geometry of bases on the battlefield (spec: maneuver.md, "Geometry").

Lengths are in steps; the origin is the field's bottom-left corner, x east, y north.
A facing is a compass bearing in degrees (0 = north = +y, 90 = east = +x, clockwise).
A base is a rectangle given by its centre, facing, width (frontage, across the facing)
and depth (along the facing); its front edge is the one in the facing direction.

Floats are never compared exactly: every comparison uses one of the named tolerances
below.  Directions passed as ``direction_xy`` need not be unit vectors; they are
normalised, so distances ``t`` are always lengths in steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, unary_union

# --- tolerances ---------------------------------------------------------------------------

EPS = 1e-9
"""Numeric epsilon for lengths (steps)."""

DEFAULT_CONTACT_GAP = 0.05
"""Largest edge-to-edge distance (steps) that still counts as contact."""

OVERLAP_REL = 1e-9
"""Two shapes overlap when their common area exceeds this fraction of the smaller area."""

PARALLEL_TOL = 1e-9
"""|sin(angle)| below which a direction is taken as parallel to an edge."""

FLUSH_MIN_LENGTH = 1e-6
"""Shortest common length (steps) for two edges to count as lying along each other."""

TURN_SAMPLE_DEG = 2.0
"""Largest rotation (degrees) between two consecutive samples of a turning sweep."""

GOLDEN_ITERATIONS = 80
"""Iterations of the golden-section search in max_overlap_along."""

OVERLAP_SAMPLES = 16
"""Coarse samples taken before the golden-section search in max_overlap_along."""

Vec = tuple[float, float]

# --- vectors and facings ------------------------------------------------------------------


def heading_vector(facing: float) -> Vec:
    """Unit vector (x, y) of a compass bearing in degrees."""
    r = math.radians(facing)
    return (math.sin(r), math.cos(r))


def right_vector(facing: float) -> Vec:
    """Unit vector pointing to the right of a compass bearing (facing + 90)."""
    hx, hy = heading_vector(facing)
    return (hy, -hx)


def unit(direction_xy: Sequence[float]) -> Vec:
    """The direction scaled to length 1 (ValueError for a zero vector)."""
    dx, dy = float(direction_xy[0]), float(direction_xy[1])
    n = math.hypot(dx, dy)
    if n <= EPS:
        raise ValueError(f"direction {direction_xy!r} has no length")
    return (dx / n, dy / n)


def normalize_facing(facing: float) -> float:
    """The bearing brought into [0, 360)."""
    f = facing % 360.0
    return 0.0 if f >= 360.0 - EPS else f


def angle_diff(start: float, end: float) -> float:
    """Signed shortest rotation in degrees from bearing start to end, in (-180, 180]."""
    d = (end - start) % 360.0
    return d - 360.0 if d > 180.0 else d


def same_facing(a: float, b: float, tol_deg: float = 1e-6) -> bool:
    """Whether two bearings agree within tol_deg degrees."""
    return abs(angle_diff(a, b)) <= tol_deg


def bearing_of(direction_xy: Sequence[float]) -> float:
    """Compass bearing in [0, 360) of a non-zero direction vector."""
    dx, dy = unit(direction_xy)
    return normalize_facing(math.degrees(math.atan2(dx, dy)))


def local_offset(facing: float, dx: float, dy: float) -> Vec:
    """The displacement (dx, dy) as (forward, right) components relative to a facing."""
    hx, hy = heading_vector(facing)
    rx, ry = right_vector(facing)
    return (dx * hx + dy * hy, dx * rx + dy * ry)


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
    return overlap_area(a, b) > OVERLAP_REL * min(a.area, b.area)


def in_contact(a: BaseGeometry, b: BaseGeometry, gap: float = DEFAULT_CONTACT_GAP) -> bool:
    """Whether two shapes are within gap of each other without overlapping."""
    return edge_distance(a, b) <= gap + EPS and not overlaps(a, b)


def _flush_segment(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray,
                   gap: float, min_length: float) -> bool:
    """Whether segment p lies along segment q (within gap) over more than min_length."""
    f = q2 - q1
    flen = float(np.hypot(*f))
    elen = float(np.hypot(*(p2 - p1)))
    if flen <= EPS or elen <= EPS:
        return False
    uf = f / flen
    start = float(np.dot(p1 - q1, uf))
    slope = float(np.dot(p2 - p1, uf))
    if abs(slope) <= EPS:
        return False  # p runs across q: at most a point in common
    s_a, s_b = (0.0 - start) / slope, (flen - start) / slope
    s_lo, s_hi = max(min(s_a, s_b), 0.0), min(max(s_a, s_b), 1.0)
    if (s_hi - s_lo) * elen <= min_length:
        return False
    for s in (s_lo, s_hi):
        point = p1 + s * (p2 - p1)
        offset = point - q1
        if abs(offset[0] * uf[1] - offset[1] * uf[0]) > gap + EPS:
            return False
    return True


def edge_flush(edge: LineString, poly: Polygon, gap: float = DEFAULT_CONTACT_GAP,
               min_length: float = FLUSH_MIN_LENGTH) -> bool:
    """Whether the edge lies along some edge of poly (within gap) over a positive length."""
    p = np.asarray(edge.coords)[:, :2]
    ring = np.asarray(poly.exterior.coords)[:, :2]
    return any(
        _flush_segment(p[0], p[-1], ring[i], ring[i + 1], gap, min_length)
        for i in range(len(ring) - 1)
    )


def full_contact(a: Polygon, b: Polygon, gap: float = DEFAULT_CONTACT_GAP,
                 min_length: float = FLUSH_MIN_LENGTH) -> bool:
    """Whether a and b are in contact with an edge of a flush along an edge of b."""
    if not in_contact(a, b, gap):
        return False
    return any(edge_flush(e, b, gap, min_length) for e in polygon_edges(a))


# --- translation and sweeps -------------------------------------------------------------


def translate(poly: BaseGeometry, direction_xy: Sequence[float], dist: float) -> BaseGeometry:
    """The shape moved dist steps along the direction."""
    dx, dy = unit(direction_xy)
    return affinity.translate(poly, dx * dist, dy * dist)


def swept_straight(poly: Polygon, direction_xy: Sequence[float], dist: float) -> Polygon:
    """Area swept by a convex shape moved dist steps in a straight line (hull of both ends)."""
    return _hull(poly, translate(poly, direction_xy, dist))


def _hull(*geoms: BaseGeometry) -> Polygon:
    """Convex hull of several shapes."""
    return shapely.GeometryCollection(list(geoms)).convex_hull


def _path_lengths(points: list[Vec]) -> list[float]:
    """Lengths of the consecutive segments of a polyline."""
    return [math.dist(points[i], points[i + 1]) for i in range(len(points) - 1)]


def _sample_count(length: float, turn: float, samples_per_step: float) -> int:
    """Number of sub-steps for a segment of the given length and rotation (degrees)."""
    if abs(turn) <= EPS:
        return 1
    by_length = math.ceil(length * samples_per_step - EPS)
    by_turn = math.ceil(abs(turn) / TURN_SAMPLE_DEG - EPS)
    return max(1, by_length, by_turn)


def swept_path(x: float, y: float, facing_start: float, width: float, depth: float,
               waypoints: Sequence[Sequence[float]], facing_end: float,
               samples_per_step: float = 4) -> Polygon:
    """Area swept by a base whose centre follows the polyline and turns evenly on the way.

    Straight runs without rotation are exact hulls; while turning, consecutive samples (at
    most TURN_SAMPLE_DEG and 1/samples_per_step apart) are joined by hulls, which can fall
    short of the true sweep by about half-diagonal * (1 - cos(TURN_SAMPLE_DEG / 2)).
    """
    points: list[Vec] = [(float(x), float(y))] + [(float(p[0]), float(p[1])) for p in waypoints]
    lengths = _path_lengths(points)
    total = sum(lengths)
    turn = angle_diff(facing_start, facing_end)
    if total <= EPS:
        return _turn_in_place(points[0], facing_start, turn, width, depth)
    pieces: list[BaseGeometry] = []
    travelled = 0.0
    for (p, q), length in zip(zip(points, points[1:]), lengths):
        if length <= EPS:
            continue
        f0 = facing_start + turn * travelled / total
        f1 = facing_start + turn * (travelled + length) / total
        pieces.extend(_sweep_segment(p, q, f0, f1, width, depth, samples_per_step))
        travelled += length
    return unary_union(pieces)


def _turn_in_place(centre: Vec, facing: float, turn: float, width: float,
                   depth: float) -> Polygon:
    """Area swept by a base turning about its centre."""
    n = _sample_count(0.0, turn, 0)
    rects = [base_rect(*centre, facing + turn * i / n, width, depth) for i in range(n + 1)]
    return unary_union([_hull(a, b) for a, b in zip(rects, rects[1:])])


def _sweep_segment(p: Vec, q: Vec, f0: float, f1: float, width: float, depth: float,
                   samples_per_step: float) -> list[Polygon]:
    """Hulls of consecutive sampled rectangles along one straight segment of a path."""
    n = _sample_count(math.dist(p, q), f1 - f0, samples_per_step)
    rects = []
    for i in range(n + 1):
        k = i / n
        cx, cy = p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k
        rects.append(base_rect(cx, cy, f0 + (f1 - f0) * k, width, depth))
    return [_hull(a, b) for a, b in zip(rects, rects[1:])]


# --- linework helpers ---------------------------------------------------------------------


def _linework(geom: BaseGeometry) -> list[np.ndarray]:
    """Coordinate arrays of every ring, line and point of a shape."""
    out: list[np.ndarray] = []
    for part in shapely.get_parts(geom):
        if isinstance(part, shapely.GeometryCollection) or part.geom_type.startswith("Multi"):
            out.extend(_linework(part))
        elif isinstance(part, Polygon):
            rings = [part.exterior, *part.interiors]
            out.extend(np.asarray(r.coords)[:, :2] for r in rings if not r.is_empty)
        elif not part.is_empty:
            out.append(np.asarray(part.coords)[:, :2])
    return out


def _vertices(geom: BaseGeometry) -> np.ndarray:
    """All vertices of a shape as an (n, 2) array (closing points included)."""
    parts = _linework(geom)
    return np.concatenate(parts) if parts else np.empty((0, 2))


def _segments(geom: BaseGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Start and end points (two (n, 2) arrays) of every non-degenerate segment of a shape."""
    starts, ends = [], []
    for c in _linework(geom):
        if len(c) >= 2:
            starts.append(c[:-1])
            ends.append(c[1:])
    if not starts:
        return np.empty((0, 2)), np.empty((0, 2))
    a, b = np.concatenate(starts), np.concatenate(ends)
    keep = np.hypot(*(b - a).T) > EPS
    return a[keep], b[keep]


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """2-D cross product of (broadcast) vectors."""
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _ray_hits(points: np.ndarray, d: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Smallest t >= 0 at which a ray point + t*d meets a segment [a, b] (inf if none)."""
    if len(points) == 0 or len(a) == 0:
        return math.inf
    p = points[:, None, :]
    e = (b - a)[None, :, :]
    w = a[None, :, :] - p
    denom = _cross(np.broadcast_to(d, e.shape), e)
    elen = np.hypot(e[..., 0], e[..., 1])
    crossing = np.abs(denom) > PARALLEL_TOL * elen
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = _cross(w, e) / denom
        s = _cross(w, np.broadcast_to(d, w.shape)) / denom
    slack = 1e-9
    ok = crossing & (s >= -slack) & (s <= 1 + slack) & (t >= -EPS)
    best = float(t[ok].min()) if ok.any() else math.inf
    return min(best, _collinear_hits(w, e, d, ~crossing))


def _collinear_hits(w: np.ndarray, e: np.ndarray, d: np.ndarray, parallel: np.ndarray) -> float:
    """Smallest t >= 0 for rays running along a segment's own line (inf if none)."""
    on_line = parallel & (np.abs(_cross(w, np.broadcast_to(d, w.shape))) <= EPS)
    if not on_line.any():
        return math.inf
    t_a = (w @ d)[on_line]
    t_b = ((w + e) @ d)[on_line]
    near = np.where(t_a * t_b <= 0, 0.0, np.minimum(t_a, t_b))
    near = near[near >= -EPS]
    return float(near.min()) if near.size else math.inf


# --- motion against obstacles -------------------------------------------------------------


def contact_distance(moving: BaseGeometry, obstacle: BaseGeometry,
                     direction_xy: Sequence[float], max_dist: float) -> float | None:
    """Smallest t in [0, max_dist] at which moving, shifted t along d, touches obstacle.

    Exact for polygons (with holes), lines and points: every vertex of moving is cast along
    d against obstacle's segments, and every vertex of obstacle along -d against moving's.
    None when they do not touch within max_dist; 0.0 when already touching or overlapping.
    """
    d = np.asarray(unit(direction_xy))
    if moving.distance(obstacle) <= EPS:
        return 0.0
    a_m, b_m = _segments(moving)
    a_o, b_o = _segments(obstacle)
    t = min(_ray_hits(_vertices(moving), d, a_o, b_o),
            _ray_hits(_vertices(obstacle), -d, a_m, b_m))
    if t > max_dist + EPS:
        return None
    return min(max(t, 0.0), float(max_dist))


def _ccw_ring(poly: Polygon) -> np.ndarray:
    """Exterior coordinates of a polygon, counter-clockwise, closing point included."""
    return np.asarray(orient(poly, 1.0).exterior.coords)[:, :2]


def _translation_chord(moving: BaseGeometry, fixed: BaseGeometry,
                       d: np.ndarray) -> tuple[float, float] | None:
    """Interval of t where hull(moving) shifted t*d overlaps the interior of hull(fixed)."""
    pm = np.asarray(moving.convex_hull.exterior.coords)[:-1, :2]
    pf = np.asarray(fixed.convex_hull.exterior.coords)[:-1, :2]
    diffs = (pf[:, None, :] - pm[None, :, :]).reshape(-1, 2)
    hull = MultiPoint(diffs).convex_hull
    if not isinstance(hull, Polygon) or hull.area <= EPS:
        return None
    ring = _ccw_ring(hull)
    t_lo, t_hi = -math.inf, math.inf
    for a, b in zip(ring[:-1], ring[1:]):
        e = b - a
        n = np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])  # outward normal
        nd, c = float(n @ d), float(n @ a)
        if abs(nd) <= PARALLEL_TOL:
            if c <= EPS:  # the ray runs along or outside this edge
                return None
        elif nd > 0:
            t_hi = min(t_hi, c / nd)
        else:
            t_lo = max(t_lo, c / nd)
    if t_hi - t_lo <= EPS:
        return None
    return (t_lo, t_hi)


def _is_convex(poly: Polygon) -> bool:
    """Whether a polygon is convex and has no holes (within a relative area tolerance)."""
    if len(poly.interiors):
        return False
    return poly.convex_hull.area - poly.area <= 1e-12 * max(1.0, poly.area)


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


def entry_distance(moving: Polygon, obstacle: BaseGeometry, direction_xy: Sequence[float],
                   max_dist: float, pieces: list[Polygon] | None = None) -> float | None:
    """Smallest t in [0, max_dist] at which convex moving starts to overlap the obstacle's interior.

    Touching or sliding along the obstacle does not count; 0.0 when already overlapping or
    touching and moving in.  Pass ``pieces=convex_pieces(obstacle)`` to reuse a split.
    """
    d = np.asarray(unit(direction_xy))
    best = math.inf
    for piece in pieces if pieces is not None else convex_pieces(obstacle):
        chord = _translation_chord(moving, piece, d)
        if chord is not None and chord[1] > EPS:
            best = min(best, chord[0])
    if best > max_dist + EPS:
        return None
    return 0.0 if best <= EPS else min(best, float(max_dist))


def exit_distance(moving: Polygon, region: Polygon, direction_xy: Sequence[float],
                  max_dist: float) -> float | None:
    """Smallest t >= 0 from which convex moving no longer overlaps the convex region's interior.

    0.0 when it does not overlap the region now; None when it still overlaps at max_dist.
    """
    chord = _translation_chord(moving, region, np.asarray(unit(direction_xy)))
    if chord is None or chord[0] > EPS or chord[1] <= EPS:
        return 0.0
    return None if chord[1] > max_dist + EPS else min(chord[1], float(max_dist))


def leave_distance(moving: BaseGeometry, region: Polygon, direction_xy: Sequence[float],
                   max_dist: float) -> float | None:
    """Smallest t in [0, max_dist] at which moving starts to cross out of the convex region.

    None when moving stays inside up to max_dist; 0.0 when it is already (partly) outside.
    """
    d = np.asarray(unit(direction_xy))
    pts = _vertices(moving)
    ring = _ccw_ring(region.convex_hull)
    best = math.inf
    for a, b in zip(ring[:-1], ring[1:]):
        e = b - a
        n = np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])
        slack = float(n @ a - (pts @ n).max())
        if slack < -EPS:
            return 0.0
        nd = float(n @ d)
        if nd > PARALLEL_TOL:
            best = min(best, max(slack, 0.0) / nd)
    if best > max_dist + EPS:
        return None
    return 0.0 if best <= EPS else min(best, float(max_dist))


def max_overlap_along(moving: Polygon, fixed: Polygon, direction_xy: Sequence[float],
                      dist: float) -> float:
    """Largest intersection area with fixed of moving shifted t in [0, dist] along d.

    The support of t is found exactly (convex hulls); OVERLAP_SAMPLES samples then locate
    the peak and a golden-section search refines it (exact for convex shapes, whose
    sqrt(area) is concave in t).
    """
    d = np.asarray(unit(direction_xy))
    chord = _translation_chord(moving, fixed, d)
    if chord is None:
        return 0.0
    lo, hi = max(chord[0], 0.0), min(chord[1], float(dist))
    if hi < lo:
        return 0.0

    def area(t: float) -> float:
        """Common area after shifting moving by t."""
        return overlap_area(affinity.translate(moving, d[0] * t, d[1] * t), fixed)

    ts = [lo + (hi - lo) * i / OVERLAP_SAMPLES for i in range(OVERLAP_SAMPLES + 1)]
    values = [area(t) for t in ts]
    i = max(range(len(ts)), key=values.__getitem__)
    left, right = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
    return max(values[i], _golden_max(area, left, right))


def _golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    """Maximum of a unimodal function on [lo, hi] by golden-section search."""
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo, hi
    c, e = b - g * (b - a), a + g * (b - a)
    fc, fe = f(c), f(e)
    for _ in range(GOLDEN_ITERATIONS):
        if b - a <= EPS:
            break
        if fc >= fe:
            b, e, fe = e, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, e, fe
            e = a + g * (b - a)
            fe = f(e)
    return max(fc, fe)


# --- field, points, indexing --------------------------------------------------------------


def field_polygon(width: float, depth: float) -> Polygon:
    """The battlefield rectangle from (0, 0) to (width, depth)."""
    return box(0.0, 0.0, width, depth)


def inside_field(poly: BaseGeometry, field: Polygon, eps: float = EPS) -> bool:
    """Whether the shape lies inside the field, allowing eps of overshoot."""
    return field.buffer(eps, join_style="mitre").covers(poly)


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
