"""How bases move: paths cut into straight pieces, and contact with measured positions.

Built on :mod:`movecheck.maneuver.sweep` (exact translations).  A free move's
base follows its path with its facing turning evenly along the way (the model
of ``sweep.swept_path``); a turning segment is cut into short pieces (at most
``sweep.TURN_SAMPLE_DEG`` of rotation and ``1/SAMPLES_PER_STEP`` steps each),
each treated as a pure translation, so every question ("when does the base
first enter this wood?", "how much of that friend does it cover?") is answered
with the exact translation functions.

The allowance walk (spec: "Allowance") and the enumeration of undeclared rolls
over the dice's exact distributions are :mod:`movecheck.maneuver.rolls`.  Facts only: how the clauses
word them is :mod:`movecheck.maneuver.checks.words`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import box

from movecheck.maneuver import geometry as g
from movecheck.maneuver import sweep
from movecheck.maneuver.model import Base, Vec
from movecheck.maneuver.plane import EPS, angle_diff, heading_vector, point_segment_distance

SAMPLES_PER_STEP = 4.0
"""Pieces per step of a turning segment."""

MAX_PIECES = 1000
"""Most pieces one turning segment is cut into (a longer segment gets longer pieces)."""

MAX_MOTION_PIECES = 20000
"""Most pieces by length a whole motion is cut into (a longer motion gets longer pieces);
with the pieces a turn needs (one per TURN_SAMPLE_DEG) and one per segment, a motion's
pieces grow with its number of waypoints, never with its length."""

INDEX_PIECES = 64
"""From this many pieces on, a motion indexes its pieces' boxes for its questions."""

INSIDE_MARGIN = 1e-6
"""How far inside a convex region a piece's whole sweep must lie to be known not to leave it."""


TURN_EPS_DEG = 1e-9
"""A rotation (degrees) below which a motion does not turn."""


# --- contact with hand-measured positions ------------------------------------------------


def touching(a: Any, b: Any, gap: float, tolerance: float) -> bool:
    """In contact as declared by hand: within gap + tolerance, overlapping by no more than tolerance."""
    if a.distance(b) > gap + tolerance + EPS:
        return False
    return not g.overlaps(shrunk(a, tolerance), b)


def shrunk(poly: Any, amount: float) -> Any:
    """A convex polygon moved in by ``amount`` on every side (never to nothing)."""
    if amount <= 0:
        return poly
    minx, miny, maxx, maxy = poly.bounds
    amount = min(amount, 0.25 * min(maxx - minx, maxy - miny))
    inner = poly.buffer(-amount, join_style="mitre")
    return inner if not inner.is_empty else poly


def full_contact(rect: Any, other: Any, gap: float, tolerance: float) -> bool:
    """Whether the rectangle's front edge is in full contact with ``other`` (M10).

    Full contact: the two touch (:func:`touching`), and the front edge lies flush
    against one edge of ``other`` and aligned with it over the shorter of the two
    edge lengths: both ends of the shorter edge lie within ``gap + tolerance`` of
    the longer one.  A shared sliver of edge is not enough.
    """
    if not touching(rect, other, gap, tolerance):
        return False
    coords = list(rect.exterior.coords)
    front = (coords[0][:2], coords[3][:2])  # base_corners: front-left, ..., front-right
    ring = [c[:2] for c in other.exterior.coords]
    reach = gap + tolerance + EPS
    return any(_aligned(front, (p, q), reach) for p, q in itertools.pairwise(ring))


def _aligned(a: tuple[Vec, Vec], b: tuple[Vec, Vec], reach: float) -> bool:
    """Whether both ends of the shorter segment lie within ``reach`` of the longer one."""
    short, long = (a, b) if math.dist(*a) <= math.dist(*b) else (b, a)
    return all(point_segment_distance(p, *long) <= reach for p in short)


# --- a free move's motion -----------------------------------------------------------------


@dataclass
class Piece:
    """A straight, non-turning piece of a motion."""

    s: float
    centre: Vec
    facing: float
    direction: Vec
    length: float
    segment: int


class Motion:
    """A base moving along a polyline of waypoints, turning evenly to ``end_facing``."""

    def __init__(self, base: Base, waypoints: Sequence[Sequence[float]], end_facing: float) -> None:
        self.base = base
        self.points: list[Vec] = [base.centre] + [(float(p[0]), float(p[1])) for p in waypoints]
        self.start_facing = base.facing
        self.end_facing = end_facing
        self.lengths = [math.dist(p, q) for p, q in itertools.pairwise(self.points)]
        self.length = sum(self.lengths)
        self.turn = angle_diff(self.start_facing, end_facing)
        self.pieces: list[Piece] = []
        self._build()
        self._rects: dict[tuple[int, Any], Any] = {}
        self._index: Any = None

    @property
    def start(self) -> Vec:
        return self.points[0]

    @property
    def end(self) -> Vec:
        return self.points[-1]

    @property
    def last_segment(self) -> int:
        return max(len(self.points) - 2, 0)

    @property
    def chord(self) -> float:
        """Straight-line distance from start to end."""
        return math.dist(self.start, self.end)

    def facing_at(self, s: float) -> float:
        if self.length <= EPS:
            return self.end_facing
        return self.start_facing + self.turn * min(max(s / self.length, 0.0), 1.0)

    def _build(self) -> None:
        s = 0.0
        # pieces by length if every segment turned; above MAX_MOTION_PIECES each gets its share
        wanted = sum(
            min(math.ceil(length * SAMPLES_PER_STEP - EPS), MAX_PIECES) for length in self.lengths if length > EPS
        )
        share = MAX_MOTION_PIECES / wanted if abs(self.turn) > TURN_EPS_DEG and wanted > MAX_MOTION_PIECES else None
        for k, ((p, q), length) in enumerate(zip(itertools.pairwise(self.points), self.lengths, strict=True)):
            if length <= EPS:
                continue
            direction = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
            f0, f1 = self.facing_at(s), self.facing_at(s + length)
            n = 1
            if abs(f1 - f0) > TURN_EPS_DEG:
                by_length = min(math.ceil(length * SAMPLES_PER_STEP - EPS), MAX_PIECES)
                if share is not None:
                    by_length = math.ceil(by_length * share - EPS)
                n = max(1, by_length, math.ceil(abs(f1 - f0) / sweep.TURN_SAMPLE_DEG - EPS))
            for i in range(n):
                k0 = i / n
                centre = (p[0] + (q[0] - p[0]) * k0, p[1] + (q[1] - p[1]) * k0)
                self.pieces.append(Piece(s + length * k0, centre, f0 + (f1 - f0) * k0, direction, length / n, k))
            s += length
        if self.length <= EPS and abs(self.turn) > TURN_EPS_DEG:  # turning in place
            n = max(1, math.ceil(abs(self.turn) / sweep.TURN_SAMPLE_DEG - EPS))
            heading = heading_vector(self.start_facing)
            for i in range(n):
                facing = self.start_facing + self.turn * i / n
                self.pieces.append(Piece(0.0, self.start, facing, heading, 0.0, 0))

    def _box(self, piece: Piece) -> tuple[float, float, float, float]:
        """The bounding box of the piece's sweep (from the rectangle's corners: no polygon built)."""
        key = (id(piece), "box")
        box = self._rects.get(key)
        if box is None:
            corners = g.base_corners(piece.centre[0], piece.centre[1], piece.facing, self.base.width, self.base.depth)
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)  # the rectangle's bounds
            dx, dy = piece.direction[0] * piece.length, piece.direction[1] * piece.length
            box = (min(x0, x0 + dx), min(y0, y0 + dy), max(x1, x1 + dx), max(y1, y1 + dy))
            self._rects[key] = box
        return box

    def _near(self, piece: Piece, bounds: tuple[float, float, float, float]) -> bool:
        """Whether the piece's sweep can reach a shape with these bounds (a cheap box test)."""
        box = self._box(piece)
        return not (
            box[2] < bounds[0] - EPS or bounds[2] < box[0] - EPS or box[3] < bounds[1] - EPS or bounds[3] < box[1] - EPS
        )

    def _pieces_near(self, bounds: tuple[float, float, float, float]) -> list[Piece]:
        """The pieces whose sweep can reach a shape with these bounds, in order along the motion.

        Many pieces are looked up in an index of their boxes rather than tested one by one,
        so that a long motion among many shapes costs pieces + shapes, not their product.
        """
        if len(self.pieces) < INDEX_PIECES:
            return [piece for piece in self.pieces if self._near(piece, bounds)]
        if self._index is None:

            boxes = [self._box(piece) for piece in self.pieces]
            self._index = shapely.STRtree(shapely.box(*zip(*boxes, strict=True)))
        m = INSIDE_MARGIN  # a wider query: the exact test below decides
        found = sorted(self._index.query(box(bounds[0] - m, bounds[1] - m, bounds[2] + m, bounds[3] + m)).tolist())
        return [self.pieces[i] for i in found if self._near(self.pieces[i], bounds)]

    def rect(self, piece: Piece, shrink: float = 0.0) -> Any:
        """The base's rectangle at the start of a piece."""
        key = (id(piece), shrink)
        if key not in self._rects:
            self._rects[key] = self.base.rect_at(piece.centre[0], piece.centre[1], piece.facing, shrink)
        return self._rects[key]

    def final_rect(self, shrink: float = 0.0) -> Any:
        """The base's rectangle where the motion ends."""
        return self.base.rect_at(self.end[0], self.end[1], self.end_facing, shrink)

    def region(self, margin: float = 0.0) -> Any:
        """A box around everything the motion sweeps (for spatial-index queries)."""
        bounds = [self.final_rect().bounds, self.base.rect.bounds]
        r = self.base.half_diagonal
        for p in self.points:
            bounds.append((p[0] - r, p[1] - r, p[0] + r, p[1] + r))
        minx = min(b[0] for b in bounds) - margin
        miny = min(b[1] for b in bounds) - margin
        maxx = max(b[2] for b in bounds) + margin
        maxy = max(b[3] for b in bounds) + margin
        return box(minx, miny, maxx, maxy)

    @staticmethod
    def _inside_test(region: Any) -> Callable[[tuple[float, float, float, float]], bool]:
        """Whether a box lies INSIDE_MARGIN inside every edge of a convex region (the edges
        and normals of ``geometry.leave_distance``)."""
        ring = sweep._ccw_ring(region.convex_hull)
        edges = []
        for a, b in itertools.pairwise(ring):
            ex, ey = float(b[0] - a[0]), float(b[1] - a[1])
            length = math.hypot(ex, ey)
            if length > 0.0:
                nx, ny = ey / length, -ex / length
                edges.append((nx, ny, nx * float(a[0]) + ny * float(a[1]) - INSIDE_MARGIN))
        if not edges:
            return lambda box: False

        def inside(box: tuple[float, float, float, float]) -> bool:
            x0, y0, x1, y1 = box
            return all(
                max(nx * x0, nx * x1) + max(ny * y0, ny * y1) <= limit for nx, ny, limit in edges
            )

        return inside

    # -- questions -------------------------------------------------------

    def entry(self, geom: Any, pieces: list[Any] | None = None, shrink: float = 0.0) -> tuple[float, int] | None:
        """First arc length (and segment) at which the base overlaps the interior of ``geom``."""
        for piece in self._pieces_near(geom.bounds):
            t = sweep.entry_distance(self.rect(piece, shrink), geom, piece.direction, piece.length, pieces=pieces)
            if t is not None:
                return piece.s + t, piece.segment
        if g.overlaps(self.final_rect(shrink), geom):
            return self.length, self.last_segment
        return None

    def max_overlap(self, geom: Any) -> tuple[float, int]:
        """Largest area of ``geom`` (convex) the base covers on the way, and where."""
        best, where = 0.0, self.last_segment
        for piece in self._pieces_near(geom.bounds):
            area = sweep.max_overlap_along(self.rect(piece), geom, piece.direction, piece.length)
            if area > best:
                best, where = area, piece.segment
        final = g.overlap_area(self.final_rect(), geom)
        if final > best:
            best, where = final, self.last_segment
        return best, where

    def leaves(self, region: Any, shrink: float = 0.0) -> int | None:
        """Segment at which the base starts to cross out of the convex ``region`` (None: never)."""
        inside = self._inside_test(region)
        for piece in self.pieces:
            if inside(self._box(piece)):
                continue  # its whole sweep stays inside: leave_distance would say None
            if sweep.leave_distance(self.rect(piece, shrink), region, piece.direction, piece.length) is not None:
                return piece.segment
        if not g.inside_field(self.final_rect(shrink), region):
            return self.last_segment
        return None
