"""A shape moving in a straight line: what it sweeps and when it meets another shape.

Built on :mod:`movecheck.maneuver.geometry` (the shapes).  Every question is answered
exactly for a translation: the distance ``t`` along a direction at which a moving convex
shape first touches, enters, leaves or stops overlapping another, and the largest overlap
on the way.  Turning motions are cut into short translations by
:mod:`movecheck.maneuver.motion`; :func:`swept_path` draws the area a turning base sweeps.

Directions passed as ``direction_xy`` need not be unit vectors; they are normalised, so
distances ``t`` are always lengths in steps.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import cast

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import unary_union

from movecheck.maneuver.geometry import base_rect, convex_pieces, kept, overlap_area
from movecheck.maneuver.plane import EPS, Vec, angle_diff, unit

PARALLEL_TOL = 1e-9
ENTRY_TOL = 1e-6
"""Travel (steps) a chord must still have ahead to count as entering: a shape sliding off a
flush neighbour along an edge tilted by a hair gets a chord ending a rounding error after 0
(the division by the edge's tiny slant magnifies it), which is leaving, not entering."""
"""|sin(angle)| below which a direction is taken as parallel to an edge."""

TURN_SAMPLE_DEG = 2.0
"""Largest rotation (degrees) between two consecutive samples of a turning sweep."""

GOLDEN_ITERATIONS = 80
"""Iterations of the golden-section search in max_overlap_along."""

OVERLAP_SAMPLES = 16
"""Coarse samples taken before the golden-section search in max_overlap_along."""

# --- translation and sweeps -------------------------------------------------------------


def translate(poly: BaseGeometry, direction_xy: Sequence[float], dist: float) -> BaseGeometry:
    """The shape moved dist steps along the direction."""
    dx, dy = unit(direction_xy)
    return affinity.translate(poly, dx * dist, dy * dist)


def swept_straight(poly: Polygon, direction_xy: Sequence[float], dist: float) -> Polygon:
    """Area swept by a convex shape moved dist steps in a straight line (hull of both ends: of their coordinates
    in one array, the coordinates :func:`translate` gives)."""
    dx, dy = unit(direction_xy)
    coords = shapely.get_coordinates(poly)
    both = np.concatenate([coords, coords + np.array([dx * dist, dy * dist])])
    return cast(Polygon, shapely.convex_hull(shapely.multipoints(both)))


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
    for (p, q), length in zip(itertools.pairwise(points), lengths, strict=True):
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
    return unary_union([_hull(a, b) for a, b in itertools.pairwise(rects)])


def _sweep_segment(p: Vec, q: Vec, f0: float, f1: float, width: float, depth: float,
                   samples_per_step: float) -> list[Polygon]:
    """Hulls of consecutive sampled rectangles along one straight segment of a path."""
    n = _sample_count(math.dist(p, q), f1 - f0, samples_per_step)
    rects = []
    for i in range(n + 1):
        k = i / n
        cx, cy = p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k
        rects.append(base_rect(cx, cy, f0 + (f1 - f0) * k, width, depth))
    return [_hull(a, b) for a, b in itertools.pairwise(rects)]


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
    if isinstance(geom, Polygon):  # its rings' coordinates in order, as _linework lists them
        return cast(np.ndarray, shapely.get_coordinates(geom))
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
    cross: np.ndarray = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    return cross


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


Hull = tuple[list[tuple[float, float]], bool, bool]
"""A shape's convex hull vertices, whether each coordinate is a multiple of 1/256 under 2^15 in size, and whether
each is under :data:`HUGE`."""

HUGE = 2.0**500
"""Coordinates at least this large (a field that wide) take the chord through GEOS and numpy as before
(:func:`_geos_chord`): below it no difference, edge or product of the float computation overflows."""

GRID = 256.0
GRID_LIMIT = 2.0**15
"""Hull vertices that are multiples of ``1/GRID`` smaller than ``GRID_LIMIT``: their differences (multiples of 1/256
under 2^16) are the points whose turns are tested, whose own differences (2^17, 25 bits) multiply to 50 bits and
subtract to 51: every step of a float orientation test on them is exact."""


def _hull_vertices(geom: BaseGeometry) -> Hull:
    """The vertices of a shape's convex hull, as GEOS lists them (no closing point), and whether they lie on the
    grid on which float orientation tests are exact (:data:`GRID`)."""
    coords = np.asarray(geom.convex_hull.exterior.coords)[:-1, :2]
    vertices = [(float(x), float(y)) for x, y in coords]
    on_grid = all((v * GRID).is_integer() and abs(v) < GRID_LIMIT for p in vertices for v in p)
    return vertices, on_grid, all(abs(v) < HUGE for p in vertices for v in p)


ORIENT_BOUND = 1e-15
"""Relative error bound of the floating-point orientation test (Shewchuk's ccwerrboundA is about 3.3e-16): a
smaller determinant is decided exactly."""


def _orientation(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float], exact: bool) -> int:
    """The sign of the turn o → a → b (1 left, -1 right, 0 straight), exact as GEOS's: in floats when ``exact``
    (points on :data:`GRID`) or when a float filter decides, else in whole numbers."""
    left = (a[0] - o[0]) * (b[1] - o[1])
    right = (a[1] - o[1]) * (b[0] - o[0])
    det = left - right
    if exact or abs(det) > ORIENT_BOUND * (abs(left) + abs(right)):
        return (det > 0) - (det < 0)
    ratios = [v.as_integer_ratio() for v in (*o, *a, *b)]  # whole numbers over one power of two: exact
    scale = max(q for _, q in ratios)
    ox, oy, ax, ay, bx, by = (n * (scale // q) for n, q in ratios)
    whole = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    return (whole > 0) - (whole < 0)


def _convex_hull(points: list[tuple[float, float]], exact: bool) -> list[tuple[float, float]]:
    """The vertices of the points' convex hull, counter-clockwise, no three on a line (the vertices of GEOS's
    hull of the same points; Andrew's monotone chain with an exact orientation test, :func:`_orientation`)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts
    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and _orientation(lower[-2], lower[-1], p, exact) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _orientation(upper[-2], upper[-1], p, exact) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def translation_chord(moving: BaseGeometry, fixed: BaseGeometry,
                       d: np.ndarray) -> tuple[float, float] | None:
    """Interval of t where hull(moving) shifted t*d overlaps the interior of hull(fixed).

    The Minkowski difference hull(fixed) - hull(moving) is built from the two hulls' vertices (each shape's kept,
    :func:`geometry.kept`) in plain floats; the ray t*d crosses its interior on the chord."""
    pm, m_grid, m_sized = cast(Hull, kept(moving, "hull", _hull_vertices))
    pf, f_grid, f_sized = cast(Hull, kept(fixed, "hull", _hull_vertices))
    if not (m_sized and f_sized):
        return _geos_chord(moving, fixed, d)
    ring = _convex_hull([(fx - mx, fy - my) for fx, fy in pf for mx, my in pm], m_grid and f_grid)
    if len(ring) < 3:
        return None
    n_ring = len(ring)
    twice_area = sum(ring[k][0] * ring[(k + 1) % n_ring][1] - ring[(k + 1) % n_ring][0] * ring[k][1]
                     for k in range(n_ring))
    if twice_area / 2.0 <= EPS:
        return None
    dx, dy = float(d[0]), float(d[1])

    def planes() -> Iterator[tuple[float, float]]:
        for k in range(n_ring):
            ax, ay = ring[k]
            bx, by = ring[(k + 1) % n_ring]
            ex, ey = bx - ax, by - ay
            length = math.hypot(ex, ey)
            nx, ny = ey / length, -ex / length  # outward normal
            yield nx * dx + ny * dy, nx * ax + ny * ay

    return _ray_chord(planes())


def _ray_chord(planes: Iterable[tuple[float, float]]) -> tuple[float, float] | None:
    """The interval of t where the ray t*d is strictly inside a convex region, from each edge's (n.d, n.a): n the
    edge's outward unit normal, a a point of it; None when the ray misses the interior or only grazes it."""
    t_lo, t_hi = -math.inf, math.inf
    for nd, c in planes:
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


def _geos_chord(moving: BaseGeometry, fixed: BaseGeometry, d: np.ndarray) -> tuple[float, float] | None:
    """:func:`translation_chord` through GEOS's hull of the differences and numpy (coordinates beyond :data:`HUGE`).

    Differences of such coordinates overflow to infinities; numpy is told to expect them (no warning reaches a
    player's terminal), and an edge they spoil gives no bound."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _geos_chord_of(moving, fixed, d)


def _geos_chord_of(moving: BaseGeometry, fixed: BaseGeometry, d: np.ndarray) -> tuple[float, float] | None:
    pm = np.asarray(moving.convex_hull.exterior.coords)[:-1, :2]
    pf = np.asarray(fixed.convex_hull.exterior.coords)[:-1, :2]
    hull = shapely.convex_hull(shapely.multipoints((pf[:, None, :] - pm[None, :, :]).reshape(-1, 2)))
    if not isinstance(hull, Polygon) or hull.area <= EPS:
        return None

    def planes() -> Iterator[tuple[float, float]]:
        for a, b in itertools.pairwise(_ccw_ring(hull)):
            e = b - a
            n = np.array([e[1], -e[0]]) / math.hypot(e[0], e[1])  # outward normal
            yield float(n @ d), float(n @ a)

    return _ray_chord(planes())


def entry_distance(moving: Polygon, obstacle: BaseGeometry, direction_xy: Sequence[float],
                   max_dist: float, pieces: list[Polygon] | None = None) -> float | None:
    """Smallest t in [0, max_dist] at which convex moving starts to overlap the obstacle's interior.

    Touching or sliding along the obstacle does not count; 0.0 when already overlapping or
    touching and moving in.  Pass ``pieces=convex_pieces(obstacle)`` to reuse a split.
    """
    d = np.asarray(unit(direction_xy))
    best = math.inf
    for piece in pieces if pieces is not None else convex_pieces(obstacle):
        chord = translation_chord(moving, piece, d)
        if chord is not None and chord[1] > ENTRY_TOL:
            best = min(best, chord[0])
    if best > max_dist + EPS:
        return None
    return 0.0 if best <= EPS else min(best, float(max_dist))


def exit_distance(moving: Polygon, region: Polygon, direction_xy: Sequence[float],
                  max_dist: float) -> float | None:
    """Smallest t >= 0 from which convex moving no longer overlaps the convex region's interior.

    0.0 when it does not overlap the region now; None when it still overlaps at max_dist.
    """
    chord = translation_chord(moving, region, np.asarray(unit(direction_xy)))
    if chord is None or chord[0] > EPS or chord[1] <= EPS:
        return 0.0
    return None if chord[1] > max_dist + EPS else min(chord[1], float(max_dist))


def leave_distance(moving: BaseGeometry, region: Polygon, direction_xy: Sequence[float],
                   max_dist: float) -> float | None:
    """Smallest t in [0, max_dist] at which moving starts to cross out of the convex region.

    None when moving stays inside up to max_dist; 0.0 when it is already (partly) outside.
    """
    dx, dy = unit(direction_xy)
    pts = [(float(x), float(y)) for x, y in _vertices(moving)]
    ring = cast(list[tuple[float, float]], kept(region, "ccw ring", _ccw_ring_floats))
    best = math.inf
    for (ax, ay), (bx, by) in itertools.pairwise(ring):
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey)
        nx, ny = ey / length, -ex / length
        slack = nx * ax + ny * ay - max(x * nx + y * ny for x, y in pts)
        if slack < -EPS:
            return 0.0
        nd = nx * dx + ny * dy
        if nd > PARALLEL_TOL:
            best = min(best, max(slack, 0.0) / nd)
    if best > max_dist + EPS:
        return None
    return 0.0 if best <= EPS else min(best, float(max_dist))


def _ccw_ring_floats(region: BaseGeometry) -> list[tuple[float, float]]:
    """The counter-clockwise ring of a shape's convex hull (closing point included), in plain floats."""
    return [(float(x), float(y)) for x, y in _ccw_ring(region.convex_hull)]


def max_overlap_along(moving: Polygon, fixed: Polygon, direction_xy: Sequence[float],
                      dist: float) -> float:
    """Largest intersection area with fixed of moving shifted t in [0, dist] along d.

    The support of t is found exactly (convex hulls); OVERLAP_SAMPLES samples then locate
    the peak and a golden-section search refines it (exact for convex shapes, whose
    sqrt(area) is concave in t).
    """
    d = np.asarray(unit(direction_xy))
    chord = translation_chord(moving, fixed, d)
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
