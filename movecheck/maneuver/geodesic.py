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

import functools
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

from movecheck.budget import Meter
from movecheck.maneuver.sight import DIFFICULT, EMPTY, FIXED, Sight

Vec = tuple[float, float]

QUAD_SEGS = 16
"""Segments per quarter circle of a disc (a disc's polygon lies inside the true circle)."""

OUTSIDE = 1.0 / math.cos(math.pi / (4 * QUAD_SEGS))
"""A disc's radius times this gives a polygon that contains the true circle."""

SLIVER = 1e-7
"""Obstacles are shrunk by this for visibility: a path may run along an obstacle's edge."""


def minkowski(piece: Polygon, rect: Polygon, centre: Vec) -> Polygon:
    """The centres at which ``rect`` (drawn around ``centre``) overlaps the convex ``piece``."""
    cx, cy = centre
    offsets = [(cx - x, cy - y) for x, y in list(rect.exterior.coords)[:-1]]
    points = [(px + ox, py + oy) for px, py in list(piece.exterior.coords)[:-1] for ox, oy in offsets]
    hull = MultiPoint(points).convex_hull
    return hull if isinstance(hull, Polygon) else Polygon()


def minkowskis(pieces: Sequence[Polygon], rect: Polygon, centre: Vec) -> list[Polygon]:
    """:func:`minkowski` of each of ``pieces``, the hulls in one call (the same points, in the same order: issue
    37)."""
    if not pieces:
        return []
    cx, cy = centre
    offsets = np.array([(cx - x, cy - y) for x, y in list(rect.exterior.coords)[:-1]])
    rings = shapely.get_exterior_ring(np.array(pieces, dtype=object))
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    last = np.append(ring[1:] == ring[:-1], False)[: len(ring)]  # less the corner that closes each ring
    xy, ring = xy[last], ring[last]
    points = (xy[:, None, :] + offsets[None, :, :]).reshape(-1, 2)
    hulls = shapely.convex_hull(shapely.multipoints(points, indices=np.repeat(ring, len(offsets))))
    return [h if h.geom_type == "Polygon" else Polygon() for h in hulls.tolist()]


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

    def near(self, nodes: Sequence[Vec], dist: Sequence[float], radius: float, points: Any = None) -> list[bool]:
        """For each corner, whether its disc can hold such a point (``points``: the corners as shapely points)."""
        return self.near_from(self.measure(nodes, dist, points), dist, radius)

    def measure(self, nodes: Sequence[Vec], dist: Sequence[float], points: Any = None) -> tuple[Any, Any]:
        """What :meth:`near` needs of the corners whatever the radius: their gaps to ``target`` and whether a path
        around it reaches each as soon."""
        points = shapely.points(np.asarray(nodes, dtype=float)) if points is None else points
        gap = shapely.distance(points, self.target)
        return gap, np.array([self._around(node, d) for node, d in zip(nodes, dist, strict=True)], dtype=bool)

    def near_from(self, measured: tuple[Any, Any], dist: Sequence[float], radius: float) -> list[bool]:
        """:meth:`near` from the corners' :meth:`measure` (one array operation per radius)."""
        gap, around = measured
        d = np.asarray(dist, dtype=float)
        with np.errstate(invalid="ignore"):
            bound = np.where(around, radius - d, np.maximum(radius - d, d - self.entry))
        return [bool(x) for x in gap <= bound + 1e-9]

    def _around(self, node: Vec, dist: float) -> bool:
        """Whether a path that keeps out of ``target`` reaches ``node`` as soon (its last leg must cross it)."""
        return bool(self.pieces) and self.around.get(node, math.inf) <= dist + 1e-9

    def behind_only(self, node: Vec, dist: float) -> bool:
        """Whether a corner reached at ``dist`` draws such points only behind ``target`` (in the shadows of its
        pieces), else anywhere in :attr:`window`."""
        return self._around(node, dist)


@dataclass(eq=False)
class Lanes:
    """The visibility graph of every way of one base's reach, built once (issue 37, sixth part): the corners of all
    the obstacles of a :class:`Sight` within ``horizon`` of ``start`` and inside ``area`` (a convex box), the
    obstacles (shrunk by :data:`SLIVER`) each lies inside, and for each segment between two of them (or from the
    start) no longer than the horizon, the obstacles it meets.  A way (a subset of the obstacles) keeps the corners
    of its obstacles inside none of them and the segments none of them meets: a segment meets the union of the
    way's obstacles exactly when it meets one of them, so no way unions its obstacles to find its shortest paths."""

    sight: Sight
    start: Vec
    area: Polygon
    horizon: float
    meter: Any = None
    """What the work is charged to (:class:`ReachSteps`; None: nothing): a pair of nodes whose segment is tested, a
    step each, charged before they are tested."""
    nodes: list[Vec] = field(init=False, default_factory=list)
    """The start, then the corners of the obstacles some way may keep, in order."""
    xy: Any = field(init=False, default=None)
    """:attr:`nodes` as an array, and as shapely points (:attr:`points`)."""
    points: Any = field(init=False, default=None)
    lengths: Any = field(init=False, default=None)
    """The distances between the nodes (row ``i`` as ``np.hypot`` of the nodes' offsets from node ``i``, as
    Dijkstra measured them)."""

    def __post_init__(self) -> None:
        shrunk = self.sight.shrunk(self.sight.obstacles, SLIVER)
        inside = prepared.prep(self.area.buffer(SLIVER, join_style="mitre"))
        self._owners = self._read_corners(inside)
        tree = shapely.STRtree(shrunk)
        self._hidden = tree.query(shapely.points(np.asarray(self.nodes, dtype=float)), predicate="within")
        if self.sight.kinds is not None:
            self._keep(self._kept_by_some_way())
        xy = self.xy = np.asarray(self.nodes, dtype=float)
        self.points = shapely.points(xy)
        self.lengths = np.hypot(xy[None, :, 0] - xy[:, None, 0], xy[None, :, 1] - xy[:, None, 1])
        self._pairs, meets, self._open = self._segments(tree, inside)
        order = np.argsort(meets[1], kind="stable")  # the meetings by obstacle: a way's left-out ones are slices
        self._met_by = meets[0][order]
        self._from = np.searchsorted(meets[1][order], np.arange(len(shrunk) + 1))
        self._met = np.bincount(meets[0], minlength=len(self._pairs[0]))

    def _kept_by_some_way(self) -> Any:
        """Whether each node is a node of some way of a base's reach (:attr:`Sight.kinds`: all the obstacles; all but
        one difficult feature, all its pieces (:attr:`Sight.groups`); none of the difficult ones; the fixed ones
        only): one of the way's obstacles has the corner and none holds it inside.  Each way then keeps, of these,
        the corners of its own obstacles none of them holds (:meth:`way`)."""
        kinds = np.asarray(self.sight.kinds)
        group = np.asarray(self.sight.groups) if self.sight.groups is not None else np.arange(len(kinds))
        count = len(self.nodes)
        owner_node, owner = self._owners
        node, hider = self._hidden

        def per_node(where: Any, weights: Any) -> Any:
            return np.bincount(where, weights=weights.astype(float), minlength=count)

        owned = per_node(owner_node, owner >= 0)
        owned_fixed = per_node(owner_node, kinds[owner] == FIXED) > 0
        owned_plain = per_node(owner_node, kinds[owner] != DIFFICULT) > 0
        hidden = per_node(node, hider >= 0)
        hidden_fixed = per_node(node, kinds[hider] == FIXED) > 0
        hidden_plain = per_node(node, kinds[hider] != DIFFICULT) > 0
        first, last = np.full(count, len(kinds)), np.full(count, -1)
        np.minimum.at(first, node, group[hider])
        np.maximum.at(last, node, group[hider])
        # inside pieces of one difficult feature only: kept where that feature is left out, if another has the corner
        theirs = per_node(owner_node, group[owner] == last[owner_node])
        alone = (hidden > 0) & ~hidden_plain & (first == last) & (owned > theirs)
        kept = ((hidden == 0) & (owned > 0)) | alone | (owned_plain & ~hidden_plain) | (owned_fixed & ~hidden_fixed)
        kept[0] = True
        return kept

    def _keep(self, kept: Any) -> None:
        """Leave out the nodes not ``kept`` (the start stays first)."""
        renumber = np.cumsum(kept) - 1
        self.nodes = [node for node, k in zip(self.nodes, kept.tolist(), strict=True) if k]
        owner_node, owner = self._owners
        mine = kept[owner_node]
        self._owners = renumber[owner_node[mine]], owner[mine]
        node, hider = self._hidden
        mine = kept[node]
        self._hidden = np.vstack([renumber[node[mine]], hider[mine]])

    def _read_corners(self, inside: Any) -> tuple[Any, Any]:
        """:attr:`nodes` (the start, then the corners in order) and which obstacles each corner is one of."""
        rings = shapely.get_exterior_ring(np.array(self.sight.obstacles, dtype=object))
        xy, owner = shapely.get_coordinates(rings, return_index=True)
        last = np.append(owner[1:] == owner[:-1], False)  # each ring's corners, less the one that closes it
        xy, owner = xy[last[: len(owner)]], owner[last[: len(owner)]]
        near = np.hypot(xy[:, 0] - self.start[0], xy[:, 1] - self.start[1]) <= self.horizon + 1e-9
        xy, owner = xy[near], owner[near]
        ok = shapely.contains(inside.context, shapely.points(xy)) if len(xy) else np.zeros(0, dtype=bool)
        xy, owner = xy[ok], owner[ok]
        corners = [(x, y) for x, y in xy.tolist()]
        self.nodes = [self.start, *sorted(set(corners) - {self.start})]
        where = {node: n for n, node in enumerate(self.nodes)}
        return np.array([where.get(c, 0) for c in corners], dtype=int), owner  # the start owns nothing: 0 is kept

    def _segments(self, tree: Any, inside: Any) -> tuple[Any, Any, Any]:
        """The pairs of nodes no further apart than the horizon, the (pair, obstacle) meetings, and whether each
        pair's segment keeps inside the area (a corner kept is inside it: only the start's segments are tested)."""
        xy = np.asarray(self.nodes, dtype=float)
        if self.meter is not None:
            self.meter.spend(len(xy) * (len(xy) - 1) // 2)
        a, b = np.triu_indices(len(xy), 1)
        short = np.hypot(xy[a, 0] - xy[b, 0], xy[a, 1] - xy[b, 1]) <= self.horizon + 1e-6
        a, b = a[short], b[short]
        coords = np.stack([xy[a], xy[b]], axis=1)
        segments = shapely.linestrings(coords) if len(a) else np.zeros(0, dtype=object)
        meets = _meetings(tree, segments, coords) if len(a) else np.zeros((2, 0), dtype=int)
        open_ = np.ones(len(a), dtype=bool)
        first = a == 0
        if first.any():
            open_[first] = shapely.contains(inside.context, segments[first])
        return (a, b), meets, open_

    def way(self, active: Any) -> tuple[Any, Any]:
        """The nodes of the way of obstacles ``active`` (a boolean array over the sight's; indices into
        :attr:`nodes`, the start first) and, between them, which segments are clear (a boolean matrix)."""
        owner_node, owner = self._owners
        count = len(self.nodes)
        owned = np.zeros(count, dtype=bool)
        owned[owner_node[active[owner]]] = True
        hidden = np.zeros(count, dtype=bool)
        hidden[self._hidden[0][active[self._hidden[1]]]] = True
        kept = owned & ~hidden
        kept[0] = True
        a, b = self._pairs
        out = np.flatnonzero(~active)  # the meetings with the obstacles left out, taken from all of them
        slices = [self._met_by[self._from[o] : self._from[o + 1]] for o in out.tolist()]
        left = np.bincount(np.concatenate(slices), minlength=len(a)) if slices else 0
        met = self._met - left > 0
        clear = np.zeros((count, count), dtype=bool)
        clear[a, b] = clear[b, a] = self._open & ~met
        picked = np.flatnonzero(kept)
        return picked, clear[np.ix_(picked, picked)]


SURE = 1e-9
"""How far apart (or into each other) a segment and a convex obstacle must be for the arrays' test to decide
whether they meet; closer, GEOS decides (:func:`_meetings`)."""


def _meetings(tree: Any, segments: Any, coords: Any) -> Any:
    """The (segment, obstacle) pairs that meet (closed sets: touching meets), as ``tree.query(segments,
    predicate="intersects")`` gives them, in the same order, but decided as arrays by separating axes where the
    answer is clear by more than :data:`SURE` (the obstacles are convex), by GEOS elsewhere (issue 37)."""
    seg, obs = tree.query(segments)  # the pairs whose envelopes meet
    normal, offset, corner, plain = _convex(tree.geometries)
    p, q = coords[seg, 0], coords[seg, 1]
    across = np.column_stack([p[:, 1] - q[:, 1], q[:, 0] - p[:, 0]])
    across /= np.hypot(across[:, 0], across[:, 1])[:, None]
    apart, meet = np.zeros(len(seg), dtype=bool), np.ones(len(seg), dtype=bool)
    low, high = np.full(len(seg), np.inf), np.full(len(seg), -np.inf)
    for e in range(normal.shape[1]):  # one edge (and corner) at a time over all the pairs: short axes reduce slowly
        nx, ny, c = normal[obs, e, 0], normal[obs, e, 1], offset[obs, e]
        size = np.hypot(nx, ny)
        with np.errstate(divide="ignore", invalid="ignore"):
            gap = (np.minimum(nx * p[:, 0] + ny * p[:, 1], nx * q[:, 0] + ny * q[:, 1]) - c) / size
        gap = np.where(size > 0, gap, -np.inf)  # a padding (or zero-length) edge separates nothing
        apart |= gap > SURE
        meet &= gap <= -SURE
        side = (corner[obs, e, 0] - p[:, 0]) * across[:, 0] + (corner[obs, e, 1] - p[:, 1]) * across[:, 1]
        np.minimum(low, side, out=low)
        np.maximum(high, side, out=high)
    apart |= (low > SURE) | (high < -SURE)
    meet &= (low < -SURE) & (high > SURE)
    unsure = ~(apart | meet) | ~plain[obs]
    if unsure.any():
        meet[unsure] = shapely.intersects(segments[seg[unsure]], tree.geometries[obs[unsure]])
    return np.vstack([seg[meet], obs[meet]])


def _convex(shapes: Any) -> tuple[Any, Any, Any, Any]:
    """Each polygon's edges as outward normals and offsets (``normal . x <= offset`` inside), its corners (padded
    by repeating its first), and whether it is a plain polygon the arrays can test (else GEOS does)."""
    rings = []
    plain = np.zeros(len(shapes), dtype=bool)
    for j, shape in enumerate(shapes):
        ok = shape.geom_type == "Polygon" and not shape.is_empty and not shape.interiors
        ring = np.asarray(orient(shape).exterior.coords)[:-1] if ok else np.zeros((0, 2))
        plain[j] = ok and len(ring) >= 3
        rings.append(ring if plain[j] else np.zeros((1, 2)))
    size = max(len(r) for r in rings) if rings else 1
    normal = np.zeros((len(rings), size, 2))
    offset = np.zeros((len(rings), size))
    corner = np.zeros((len(rings), size, 2))
    for j, ring in enumerate(rings):
        edge = np.roll(ring, -1, axis=0) - ring
        normal[j, : len(ring)] = np.column_stack([edge[:, 1], -edge[:, 0]])
        offset[j, : len(ring)] = np.einsum("ij,ij->i", normal[j, : len(ring)], ring)
        corner[j] = ring[0]
        corner[j, : len(ring)] = ring
    return normal, offset, corner, plain


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
    """What the work is charged to (:class:`ReachSteps`; None: nothing): a node settled, a segment tested, an
    obstacle a node's rays meet, a disc cut, a step each."""
    sight: Sight | None = None
    """The rays of the points this geodesic draws from, shared with other geodesics of the same start among
    (some of) the same obstacles (None: its own)."""
    lanes: Lanes | None = None
    """The visibility graph shared by every way of one reach (the same start, area and horizon, obstacles of
    ``sight``); None: this geodesic tests its segments against the union of its obstacles."""

    def __post_init__(self) -> None:
        reach = self.horizon * OUTSIDE + 1e-6  # the widest disc: an obstacle beyond it shades nothing in it
        self.obstacles = self._within(reach)
        if self.sight is None:
            self.sight = Sight(self.obstacles)
        self._active = self.sight.mask(self.obstacles)
        self._lane: Any = None
        self._span: Any = None
        if self.lanes is not None:
            picked, self._lane = self.lanes.way(self._active)
            self.nodes = [self.lanes.nodes[n] for n in picked.tolist()]
            self._span = self.lanes.lengths[np.ix_(picked, picked)]
            self._xy, self._points = self.lanes.xy[picked], self.lanes.points[picked]  # the shared graph's, read
        else:
            corners = {self.start} | set(self._corners())
            self.nodes = [self.start, *sorted(corners - {self.start})]
            self._xy = np.asarray(self.nodes, dtype=float)
            self._points = shapely.points(self._xy)
        self._balls: dict[tuple[float, bool, Focus | None], Any] = {}
        self._seen: dict[int, Any] = {}
        self._regions: dict[tuple[int, int | None], Any] = {}
        self._windows: dict[int, Any] = {}
        self._measures: dict[int, tuple[Any, Any]] = {}
        self._dijkstra()

    @functools.cached_property
    def _inside(self) -> Any:
        """The area grown by :data:`SLIVER`, prepared (built when first asked: a way whose shortest paths come from
        :attr:`lanes` needs it only for :meth:`path_to`)."""
        return prepared.prep(self.area.buffer(SLIVER, join_style="mitre"))

    @functools.cached_property
    def _blocked(self) -> Any:
        """The union of the obstacles shrunk by :data:`SLIVER`, prepared (None: no obstacle), built when first
        asked (a way whose shortest paths come from :attr:`lanes` needs it only for :meth:`path_to`)."""
        assert self.sight is not None
        blocked = shapely.union_all(self.sight.shrunk(self.obstacles, SLIVER)) if self.obstacles else Polygon()
        return prepared.prep(blocked) if not blocked.is_empty else None

    def _within(self, reach: float) -> list[Polygon]:
        """The obstacles no further than ``reach`` from the start (the distances as one array: issue 37)."""
        kept = [o for o in self.obstacles if not o.is_empty]
        if not kept:
            return []
        gap = shapely.distance(np.array(kept, dtype=object), Point(self.start))
        return [o for o, g in zip(kept, gap.tolist(), strict=True) if g <= reach]

    def _corners(self) -> list[Vec]:
        """The obstacles' corners within the horizon, inside the area and on no obstacle's inside, as arrays."""
        if not self.obstacles:
            return []
        rings = shapely.get_exterior_ring(np.array(self.obstacles, dtype=object))
        xy, ring = shapely.get_coordinates(rings, return_index=True)
        xy = xy[np.append(ring[1:] == ring[:-1], False)]  # each ring's corners, less the one that closes it
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
        dist = np.full(n, math.inf)
        parent = np.full(n, -1)
        dist[0] = 0.0
        heap = [(0.0, 0)]
        done = np.zeros(n, dtype=bool)
        xs, ys = self._xy[:, 0], self._xy[:, 1]
        while heap:
            d, i = heapq.heappop(heap)
            if done[i]:
                continue
            done[i] = True
            self._charge(n)
            nd = d + (self._span[i] if self._span is not None else np.hypot(xs - xs[i], ys - ys[i]))
            better = np.flatnonzero(~done & (nd < dist - 1e-12) & (nd <= self.horizon + 1e-9))
            if not len(better):
                continue
            better = better[self._lane[i, better] if self._lane is not None else self._clear_from_index(i, better)]
            dist[better], parent[better] = nd[better], i
            for j, dj in zip(better.tolist(), nd[better].tolist(), strict=True):
                heapq.heappush(heap, (dj, j))
        self.dist = dist.tolist()
        self.parent = parent.tolist()

    def _clear_from_index(self, i: int, ends: Any) -> Any:
        """Which segments from node ``i`` to the nodes ``ends`` are clear (:meth:`_segments_clear`)."""
        coords = np.empty((len(ends), 2, 2))
        coords[:, 0] = self._xy[i]
        coords[:, 1] = self._xy[ends]
        return self._segments_clear(coords)

    def _clear_from(self, a: Vec, ends: list[Vec]) -> list[bool]:
        """:meth:`clear` from ``a`` to each of ``ends`` (:meth:`_segments_clear`)."""
        if not ends:
            return []
        return [bool(x) for x in self._segments_clear(np.array([[a, b] for b in ends], dtype=float))]

    def _segments_clear(self, coords: Any) -> Any:
        """Which segments keep out of every obstacle and inside the area, built and tested as arrays (issue 37)."""
        segments = shapely.linestrings(coords)
        same = np.all(coords[:, 0] == coords[:, 1], axis=1)
        if same.any():
            segments[same] = shapely.points(coords[same, 0])
        ok = shapely.contains(self._inside.context, segments)
        if self._blocked is not None:
            ok &= ~shapely.intersects(self._blocked.context, segments)
        return ok

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
        near = focus.near_from(self._measured(focus), self.dist, radius) if focus is not None else None
        spare = radius - np.asarray(self.dist, dtype=float)
        candidate = spare > 1e-9
        if near is not None:
            candidate &= np.asarray(near, dtype=bool)
        ks = np.flatnonzero(candidate).tolist()  # the corners with length to spare (near the focus), as arrays
        self._charge(len(ks))
        drawing, spares, regions = [], [], []
        for k in ks:
            drawn = self._drawn(k, focus)
            if not drawn.is_empty:
                drawing.append(k)
                spares.append(spare[k] * scale)
                regions.append(drawn)
        if not drawing:
            return EMPTY
        discs = shapely.buffer(self._points[drawing], np.asarray(spares), quad_segs=QUAD_SEGS)  # as arrays: issue 37
        parts = shapely.intersection(discs, np.array(regions, dtype=object))
        return shapely.union_all(parts).buffer(0)

    def _measured(self, focus: Focus) -> tuple[Any, Any]:
        """The focus's :meth:`Focus.measure` of this geodesic's nodes, kept per focus (issue 37)."""
        if id(focus) not in self._measures:
            self._measures[id(focus)] = focus.measure(self.nodes, self.dist, self._points)
        return self._measures[id(focus)]

    def _drawn(self, k: int, focus: Focus | None) -> Any:
        """Where node ``k``'s discs draw, whatever their radius: what it sees in the area (with a ``focus``: in its
        window, and only behind its target when the node is reached as soon around it), kept per node and focus."""
        key = (k, None if focus is None else id(focus))
        if key not in self._regions:
            if focus is None:
                self._regions[key] = self.area.intersection(self.seen_from(k))
            else:
                sees = self._behind(k, focus) if focus.behind_only(self.nodes[k], self.dist[k]) else self.seen_from(k)
                self._regions[key] = sees if sees.is_empty else self._framed(focus).intersection(sees)
        return self._regions[key]

    def _framed(self, focus: Focus) -> Any:
        """The area within the focus's window, kept per focus."""
        if id(focus) not in self._windows:
            self._windows[id(focus)] = self.area.intersection(focus.window)
        return self._windows[id(focus)]

    def _behind(self, k: int, focus: Focus) -> Any:
        """What node ``k`` sees in the focus's target or its shadow (among this geodesic's obstacles)."""
        node = self.nodes[k]
        reach = (self.horizon - math.dist(self.start, node)) * OUTSIDE + 1e-6
        assert self.sight is not None
        pieces = list(focus.pieces)
        if len(pieces) == 1 and id(pieces[0]) in self.sight.index:
            self._charge(1)
            return self.sight.view(node, reach).behind(self._active, self.sight.index[id(pieces[0])])
        own = Sight(pieces)  # several pieces, or a target this geodesic's sight does not hold
        return self.seen_from(k).difference(own.view(node, reach).polygon(own.mask(pieces)))

    def seen_from(self, k: int) -> Any:
        """What node ``k`` sees among this geodesic's obstacles, out to beyond the widest disc any radius up to the
        horizon draws there (the sight's rays, cast once per point for every way that shares them: issue 37)."""
        if k not in self._seen:
            node = self.nodes[k]
            reach = (self.horizon - math.dist(self.start, node)) * OUTSIDE + 1e-6  # no path there is shorter
            assert self.sight is not None
            view = self.sight.view(node, reach)
            self._charge(len(view.columns) + 1)
            self._seen[k] = view.polygon(self._active)
        return self._seen[k]

    def _charge(self, steps: int) -> None:
        if self.meter is not None:
            self.meter.spend(steps)

    def distance_to(self, target: Any) -> float:
        """A lower bound of the path length to the nearest point of ``target`` (inf: none within the horizon)."""
        dist = np.asarray(self.dist, dtype=float)
        reached = np.isfinite(dist)
        if not reached.any():
            return math.inf
        total = dist[reached] + shapely.distance(self._points[reached], target)
        total = total[~np.isnan(total)]  # an empty target is at no distance
        return float(np.min(total)) if len(total) else math.inf

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
