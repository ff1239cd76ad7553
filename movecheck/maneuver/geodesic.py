"""Geodesic balls: where a point can get by paths of bounded length around polygonal obstacles.

The free move's reach (:mod:`movecheck.maneuver.reach`) works in the plane of the moving
base's centre: each obstacle there is the set of centres at which the base (at its
current facing) would overlap it, the Minkowski sum of the obstacle and the base's
rectangle (convex pieces, so each sum is the convex hull of the corner sums).  A path
of the centre that keeps out of their interiors is a path of the base that never
overlaps them (touching is allowed).

:func:`ball` is the set of points reachable from ``start`` by such a path of length at
most ``radius``: a visibility graph over the obstacles' corners (Dijkstra from the
start), and around each corner reached with ``d`` to spare a disc of radius
``radius - d`` less the shadows the obstacles cast from that corner.  The shortest
path to a point of the ball is :meth:`Geodesic.path_to`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely import prepared
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.geometry.polygon import orient
from shapely.ops import unary_union

from movecheck.budget import Meter

Vec = tuple[float, float]

QUAD_SEGS = 16
"""Segments per quarter circle of a disc (a disc's polygon lies inside the true circle)."""

OUTSIDE = 1.0 / math.cos(math.pi / (4 * QUAD_SEGS))
"""A disc's radius times this gives a polygon that contains the true circle."""

SLIVER = 1e-7
"""Obstacles are shrunk by this for visibility: a path may run along an obstacle's edge."""


ARC = 8
"""Segments of a shadow's far side: an arc of at most half a turn, drawn outside the circle it must cover."""


def _shadows(node: Vec, obstacles: Sequence[Polygon], radius: float) -> list[Any]:
    """Each obstacle and what it hides from ``node`` within ``radius`` of it, built as arrays (issue 37).

    A convex obstacle the node is not inside hides the wedge between the rays through its outermost corners
    (at most half a turn), beyond its near side: the hull of its corners and an arc of ``ARC`` segments across
    that wedge, drawn outside the circle of ``radius`` and beyond every corner (so that the hull's sides are the
    rays and its near side the obstacle's).  (Corners pushed away by a fixed length left a chord
    across the wedge that could pass inside the circle when the node stood close to a wide obstacle's side.)
    An obstacle the node is inside hides everything."""
    if not obstacles:
        return []
    return _shadows_of_corners(node, Corners.of(obstacles), radius)


@dataclass(frozen=True)
class Corners:
    """Obstacles with their corners as one array (``count`` corners each, in order)."""

    obstacles: Any
    xy: Any
    count: Any

    @staticmethod
    def of(obstacles: Sequence[Polygon]) -> Corners:
        rings = [np.asarray(o.exterior.coords)[:-1] for o in obstacles]
        return Corners(np.array(obstacles, dtype=object), np.concatenate(rings), np.array([len(r) for r in rings]))

    def where(self, keep: Any) -> Corners:
        """The obstacles ``keep`` (a boolean array) selects."""
        return Corners(self.obstacles[keep], self.xy[np.repeat(keep, self.count)], self.count[keep])


def _cones(node: Vec, found: Corners) -> tuple[Any, Any]:
    """The directions each obstacle covers seen from ``node``: the first (radians) and the width (at most half a
    turn; NaN when the node is its only corner)."""
    counts = found.count
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    away = found.xy - np.asarray(node)
    owner = np.repeat(np.arange(len(counts)), counts)
    mid = np.add.reduceat(away, first) / counts[:, None]
    towards = np.arctan2(mid[:, 1], mid[:, 0])
    rel = (np.arctan2(away[:, 1], away[:, 0]) - towards[owner] + np.pi) % (2 * np.pi) - np.pi
    at = np.hypot(away[:, 0], away[:, 1]) <= 1e-12  # the node is this corner: it gives no direction
    lo = np.minimum.reduceat(np.where(at, np.inf, rel), first)
    hi = np.maximum.reduceat(np.where(at, -np.inf, rel), first)
    valid = np.isfinite(lo) & np.isfinite(hi)
    return np.where(valid, towards + lo, np.nan), np.where(valid, np.clip(hi - lo, 0.0, np.pi), np.nan)


def _overlapping(cones: tuple[Any, Any], others: tuple[Any, Any]) -> Any:
    """For each of ``cones``, whether it shares a direction with one of ``others`` (NaN: any)."""
    (start, span), (start2, span2) = cones, others
    gap = (start[:, None] + span[:, None] / 2 - start2[None, :] - span2[None, :] / 2 + np.pi) % (2 * np.pi) - np.pi
    near = np.abs(gap) <= (span[:, None] + span2[None, :]) / 2 + 1e-9
    return np.isnan(start) | near.any(axis=1) | np.isnan(start2).any()


def _shadows_of_corners(node: Vec, found: Corners, radius: float) -> list[Any]:
    """:func:`_shadows` of obstacles whose corners are arrays already."""
    if not len(found.count):
        return []
    counts, corners = found.count, found.xy
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    owner = np.repeat(np.arange(len(counts)), counts)
    away = corners - np.asarray(node)
    start, span = _cones(node, found)
    valid = np.isfinite(start)
    span = np.where(valid, span, 0.0)
    angles = np.where(valid, start, 0.0)[:, None] + span[:, None] * (np.arange(ARC + 1) / ARC)[None, :]
    beyond = np.maximum(radius, np.maximum.reduceat(np.hypot(away[:, 0], away[:, 1]), first))  # and its corners
    reach = (beyond / np.cos(span / (2 * ARC)) + 1e-6)[:, None]
    far = np.asarray(node) + np.stack([np.cos(angles) * reach, np.sin(angles) * reach], axis=-1)
    far = far[valid].reshape(-1, 2)
    indices = np.concatenate([owner, np.repeat(np.arange(len(counts))[valid], ARC + 1)])
    order = np.argsort(indices, kind="stable")
    points = shapely.points(np.concatenate([corners, far])[order])
    hulls = shapely.convex_hull(shapely.multipoints(points, indices=indices[order]))
    inside = shapely.contains_xy(found.obstacles, *node)
    everything = box(node[0] - 2 * radius, node[1] - 2 * radius, node[0] + 2 * radius, node[1] + 2 * radius)
    return [everything if i else h if isinstance(h, Polygon) else o
            for h, o, i in zip(hulls, found.obstacles, inside, strict=True)]


def minkowski(piece: Polygon, rect: Polygon, centre: Vec) -> Polygon:
    """The centres at which ``rect`` (drawn around ``centre``) overlaps the convex ``piece``."""
    cx, cy = centre
    offsets = [(cx - x, cy - y) for x, y in list(rect.exterior.coords)[:-1]]
    points = [(px + ox, py + oy) for px, py in list(piece.exterior.coords)[:-1] for ox, oy in offsets]
    hull = MultiPoint(points).convex_hull
    return hull if isinstance(hull, Polygon) else Polygon()


@dataclass(frozen=True, eq=False)
class Focus:
    """A ball's points that only paths through ``target`` reach, the others being drawn already (issue 37).

    Every path to such a point of a ball of radius ``r`` enters ``target``, and no path enters it before ``entry``.
    The point lies in the disc of the last corner ``k`` of its shortest path (``d_k`` from the start): either that
    path entered ``target`` before ``k`` (so ``k`` is within ``d_k - entry`` of it) or its last leg crosses it (so
    ``k`` is within ``r - d_k`` of it; when a path around ``target`` reaches ``k`` as soon, only the latter).  The
    corners further from ``target`` draw only points that some path reaches without entering it, and are left out."""

    target: Any
    entry: float
    reach: float
    """How far from the start the ball goes at most: its points lie within ``reach - entry`` of ``target``."""
    pieces: tuple[Polygon, ...] = ()
    """The convex pieces of ``target``."""
    around: dict[Vec, float] = field(default_factory=dict)
    """The corners that paths keeping out of ``target`` reach, with their length: a corner reached as soon that way
    draws, of such points, only those its last leg reaches across ``target`` (in their shadows)."""
    window: Any = field(init=False)

    def __post_init__(self) -> None:
        minx, miny, maxx, maxy = self.target.bounds
        margin = max(self.reach - self.entry, 0.0) + 1e-6
        object.__setattr__(self, "window", box(minx - margin, miny - margin, maxx + margin, maxy + margin))

    def near(self, nodes: Sequence[Vec], dist: Sequence[float], radius: float) -> list[bool]:
        """For each corner, whether its disc can hold such a point."""
        gap = shapely.distance(shapely.points(np.asarray(nodes, dtype=float)), self.target)
        return [bool(g <= max(radius - d, -math.inf if self._around(node, d) else d - self.entry) + 1e-9)
                for node, g, d in zip(nodes, gap, dist, strict=True)]

    def _around(self, node: Vec, dist: float) -> bool:
        """Whether a path that keeps out of ``target`` reaches ``node`` as soon (its last leg must cross it)."""
        return bool(self.pieces) and self.around.get(node, math.inf) <= dist + 1e-9

    def window_of(self, node: Vec, dist: float, widest: float) -> tuple[Any, tuple[Any, Any] | None]:
        """Where a corner reached at ``dist`` can draw such points, within ``widest`` of it, and the directions
        they lie in (None: any)."""
        if self._around(node, dist):
            pieces = Corners.of(self.pieces)
            behind = shapely.union_all(_shadows_of_corners(node, pieces, widest)).intersection(self.window)
            return behind, _cones(node, pieces)
        return self.window, None


class ReachSteps(Meter):
    """The work of one base's reach (``MOVECHECK_REACH_BUDGET``); running out raises :class:`SearchLimit`, and
    ``reach`` (and ``render --reach``) says so rather than show a smaller region (issue 37)."""

    variable = "MOVECHECK_REACH_BUDGET"


@dataclass
class Geodesic:
    """Shortest paths from ``start`` in ``area`` (a convex box) around convex ``obstacles``, up to ``horizon``."""

    start: Vec
    area: Polygon
    obstacles: list[Polygon]
    horizon: float
    nodes: list[Vec] = field(default_factory=list)
    dist: list[float] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    meter: Any = None
    """What the work is charged to (:class:`ReachSteps`; None: nothing): a node settled, a segment or shadow
    built, a disc cut, a step each."""

    def __post_init__(self) -> None:
        reach = self.horizon * OUTSIDE + 1e-6  # the widest disc: an obstacle beyond it shades nothing in it
        self.obstacles = [o for o in self.obstacles if not o.is_empty and o.distance(Point(self.start)) <= reach]
        shrunk = shapely.buffer(np.array(self.obstacles, dtype=object), -SLIVER, join_style="mitre")
        blocked = shapely.union_all(shrunk) if len(self.obstacles) else Polygon()
        self._blocked = prepared.prep(blocked) if not blocked.is_empty else None
        self._inside = prepared.prep(self.area.buffer(SLIVER, join_style="mitre"))
        corners = {self.start} | set(self._corners())
        self.nodes = [self.start, *sorted(corners - {self.start})]
        self._balls: dict[tuple[float, bool, Focus | None], Any] = {}
        self._shade: dict[tuple[int, int | None], Any] = {}
        self._windows: dict[tuple[int, int], tuple[Any, tuple[Any, Any] | None]] = {}
        self._obstacles: Corners | None = None
        self._dijkstra()

    def _corners(self) -> list[Vec]:
        """The obstacles' corners within the horizon, inside the area and on no obstacle's inside, as arrays."""
        if not self.obstacles:
            return []
        xy = np.concatenate([np.asarray(o.exterior.coords)[:-1] for o in self.obstacles])
        xy = xy[np.hypot(xy[:, 0] - self.start[0], xy[:, 1] - self.start[1]) <= self.horizon + 1e-9]
        points = shapely.points(xy)
        ok = shapely.contains(self._inside.context, points)
        if self._blocked is not None:
            ok &= ~shapely.contains(self._blocked.context, points)
        return [(x, y) for x, y in xy[ok].tolist()]

    def clear(self, a: Vec, b: Vec) -> bool:
        """Whether the segment from ``a`` to ``b`` keeps out of every obstacle and inside the area."""
        seg = LineString([a, b]) if a != b else Point(a)
        if not self._inside.contains(seg):
            return False
        return self._blocked is None or not self._blocked.intersects(seg)

    def _dijkstra(self) -> None:
        n = len(self.nodes)
        self.dist = [math.inf] * n
        self.parent = [-1] * n
        self.dist[0] = 0.0
        heap = [(0.0, 0)]
        done = [False] * n
        while heap:
            d, i = heapq.heappop(heap)
            if done[i]:
                continue
            done[i] = True
            here = self.nodes[i]
            self._charge(n)
            better = [(j, d + math.dist(here, self.nodes[j])) for j in range(n) if not done[j]]
            better = [(j, nd) for j, nd in better if nd < self.dist[j] - 1e-12 and nd <= self.horizon + 1e-9]
            for (j, nd), ok in zip(better, self._clear_from(here, [self.nodes[j] for j, _ in better]), strict=True):
                if ok:
                    self.dist[j], self.parent[j] = nd, i
                    heapq.heappush(heap, (nd, j))

    def _clear_from(self, a: Vec, ends: list[Vec]) -> list[bool]:
        """:meth:`clear` from ``a`` to each of ``ends``, the segments built and tested as arrays (issue 37)."""
        if not ends:
            return []
        coords = np.array([[a, b] for b in ends], dtype=float)
        segments = shapely.linestrings(coords)
        same = np.all(coords[:, 0] == coords[:, 1], axis=1)
        if same.any():
            segments[same] = shapely.points(coords[same, 0])
        ok = shapely.contains(self._inside.context, segments)
        if self._blocked is not None:
            ok &= ~shapely.intersects(self._blocked.context, segments)
        return [bool(x) for x in ok]

    def ball(self, radius: float, outside: bool = False, focus: Focus | None = None) -> Any:
        """The points reachable within ``radius`` (``outside``: a polygon containing them, else one inside them).

        Kept per radius (the levels of a reach ask again for the same ones), and each node's shade (what the
        obstacles hide from it, as far as the horizon) is built once for every radius (issue 37).  With a
        ``focus``, only the points whose every path of that length passes through its target (see :class:`Focus`)
        are sure to be there."""
        key = (radius, outside, focus)
        if key not in self._balls:
            self._balls[key] = self._ball(radius, outside, focus)
        return self._balls[key]

    def _ball(self, radius: float, outside: bool, focus: Focus | None) -> Any:
        scale = OUTSIDE if outside else 1.0
        parts = []
        near = focus.near(self.nodes, self.dist, radius) if focus is not None else None
        for k, (node, d) in enumerate(zip(self.nodes, self.dist, strict=True)):
            spare = radius - d
            if spare <= 1e-9 or (near is not None and not near[k]):
                continue
            self._charge(1)
            window, cones = self._window(k, focus)
            disc = Point(node).buffer(spare * scale, quad_segs=QUAD_SEGS)
            seen = disc.intersection(self.area if window is None else self.area.intersection(window))
            shade = self.shade(k, window, cones)
            if not shade.is_empty and shade.intersects(disc):
                seen = seen.difference(shade)
            parts.append(seen)
        return unary_union(parts).buffer(0) if parts else Polygon()

    def _window(self, k: int, focus: Focus | None) -> tuple[Any, tuple[Any, Any] | None]:
        """Where node ``k`` draws the points ``focus`` asks for (None: everywhere), kept per node."""
        if focus is None:
            return None, None
        key = (k, id(focus))
        if key not in self._windows:
            self._windows[key] = focus.window_of(self.nodes[k], self.dist[k], (self.horizon - self.dist[k]) * OUTSIDE)
        return self._windows[key]

    def shade(self, k: int, window: Any = None, cones: tuple[Any, Any] | None = None) -> Any:
        """What the obstacles hide from node ``k`` (within ``window``, when given, whose points lie in the directions
        ``cones``), out to beyond the widest disc any radius up to the horizon draws there (a shadow lies beyond its
        obstacle, so one that misses that disc hides nothing in any)."""
        key = (k, None if window is None else id(window))
        if key not in self._shade:
            spare = (self.horizon - self.dist[k]) * OUTSIDE + 1e-6
            if self._obstacles is None:
                self._obstacles = Corners.of(self.obstacles) if self.obstacles else None
            near = self._obstacles.where(shapely.distance(self._obstacles.obstacles, Point(self.nodes[k])) <= spare) \
                if self._obstacles is not None else None
            if near is not None and cones is not None:
                near = near.where(_overlapping(_cones(self.nodes[k], near), cones))
            self._charge(len(near.count) if near is not None else 0)
            shadows = np.array(_shadows_of_corners(self.nodes[k], near, spare) if near is not None else [],
                               dtype=object)
            if window is not None and len(shadows):
                x, y = self.nodes[k]
                clip = window.intersection(box(x - spare, y - spare, x + spare, y + spare))
                shadows = shadows[shapely.intersects(shadows, clip)]
            self._shade[key] = shapely.union_all(shadows) if len(shadows) else Polygon()
        return self._shade[key]

    @staticmethod
    def _shadow(node: Vec, obstacle: Polygon, length: float) -> Polygon:
        """The obstacle and what it hides from ``node`` up to ``length`` away."""
        points = list(obstacle.exterior.coords)[:-1]
        far = []
        for x, y in points:
            dx, dy = x - node[0], y - node[1]
            d = math.hypot(dx, dy)
            if d <= 1e-12:
                continue
            k = (length + d) / d
            far.append((node[0] + dx * k, node[1] + dy * k))
        hull = MultiPoint(points + far).convex_hull
        return hull if isinstance(hull, Polygon) else obstacle

    def _charge(self, steps: int) -> None:
        if self.meter is not None:
            self.meter.spend(steps)

    def distance_to(self, target: Any) -> float:
        """A lower bound of the path length to the nearest point of ``target`` (inf: none within the horizon)."""
        best = math.inf
        for node, d in zip(self.nodes, self.dist, strict=True):
            if math.isfinite(d):
                best = min(best, d + Point(node).distance(target))
        return best

    def path_to(self, point: Vec) -> list[Vec] | None:
        """The shortest path to ``point`` (its waypoints after the start), or None when none is clear."""
        best, via = math.inf, -1
        for i, (node, d) in enumerate(zip(self.nodes, self.dist, strict=True)):
            total = d + math.dist(node, point)
            if math.isfinite(d) and total < best and self.clear(node, point):
                best, via = total, i
        if via < 0:
            return None
        chain = [point]
        while via > 0:
            chain.append(self.nodes[via])
            via = self.parent[via]
        return list(reversed(chain))


def centre_box(width: float, depth: float, rect: Polygon, centre: Vec) -> Polygon:
    """The centres at which ``rect`` (drawn around ``centre``) lies inside the field."""
    minx, miny, maxx, maxy = rect.bounds
    cx, cy = centre
    return box(cx - minx, cy - miny, width - (maxx - cx), depth - (maxy - cy))


def polygons(geom: Any) -> list[Polygon]:
    """The polygons of a region, in a fixed order (counter-clockwise exteriors)."""

    polys: Sequence[Any] = [geom] if geom.geom_type == "Polygon" else [g for g in getattr(geom, "geoms", [])
                                                                     if g.geom_type == "Polygon"]
    return sorted((orient(p) for p in polys if not p.is_empty and p.area > 1e-9), key=lambda p: p.bounds)


def rounded(geom: Any, decimals: int = 3) -> list[list[list[list[float]]]]:
    """A region as polygons, each a list of rings (exterior first, then holes) of points rounded to ``decimals``."""
    return [[[[_num(round(x, decimals)), _num(round(y, decimals))] for x, y in ring.coords]
             for ring in [poly.exterior, *poly.interiors]] for poly in polygons(geom)]


def _num(value: float) -> float:
    return 0.0 if value == 0 else value
