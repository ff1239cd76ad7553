"""Bearings and vectors in the plane of the battlefield (spec: maneuver.md, "Geometry").

Lengths are in steps; the origin is the field's bottom-left corner, x east, y north.
A facing is a compass bearing in degrees (0 = north = +y, 90 = east = +x, clockwise).

Plain arithmetic, no shapely: the clause modules use these to word and decide their
findings and stay importable without the shape library (``movecheck rules``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPS = 1e-9
"""Numeric epsilon for lengths (steps)."""

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


def point_segment_distance(p: Vec, a: Vec, b: Vec) -> float:
    """Shortest distance from point ``p`` to the segment from ``a`` to ``b``."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    t = 0.0 if length2 <= EPS * EPS else min(max(((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / length2, 0.0), 1.0)
    return math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


def ray_distance(v: Vec, u: Vec) -> float:
    """Distance from the point ``v`` to the ray from the origin along the unit vector ``u``."""
    t = max(v[0] * u[0] + v[1] * u[1], 0.0)
    return math.hypot(v[0] - t * u[0], v[1] - t * u[1])


def cone_distance(v: Vec, u: Vec, w: Vec) -> float:
    """Distance from the point ``v`` to the cone ``a·u + b·w`` (a, b ≥ 0) of two unit vectors."""
    det = u[0] * w[1] - u[1] * w[0]
    if abs(det) > EPS:
        a = (v[0] * w[1] - v[1] * w[0]) / det
        b = (u[0] * v[1] - u[1] * v[0]) / det
        if a >= 0.0 and b >= 0.0:
            return 0.0
    return min(ray_distance(v, u), ray_distance(v, w))
