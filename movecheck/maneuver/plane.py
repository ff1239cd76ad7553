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
