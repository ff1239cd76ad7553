"""What a point sees among convex obstacles: its visibility polygon, by one angular sweep shared by every way.

Issue 37: the geodesic balls of :mod:`movecheck.maneuver.geodesic` drew each corner's disc less the union of the
shadows the obstacles cast from it, once per way (all the features, each feature alone, clear ground, the limit)
and corner.  The union of the shadows was most of the work.  A :class:`Sight` holds every obstacle of one base's
reach; :meth:`Sight.view` casts, once per corner, a ray through each angular interval between the directions of
the obstacles' corners and of the points where two obstacles' edges cross, and records how far each obstacle lets
it go; :meth:`View.polygon` gives what the corner sees among any subset of those obstacles (a way's) from that
table, with no union.

Within such an interval no obstacle's corner and no crossing lies, so each obstacle the ray meets is first met
along one edge, and the nearest obstacle stays the nearest: the seen part is bounded by that edge, between the
interval's two rays.  An interval where no obstacle is met is bounded by an arc drawn outside the circle of the
view's reach.  The polygon is the set the corner's disc, less the obstacles' shadows, kept (touching an obstacle
is allowed, so its edges are seen).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.polygon import orient

Vec = tuple[float, float]

STEP = math.pi / 8
"""The widest angle one segment of a free arc spans."""

NEAR = 1e-9
"""How far from the corner a ray stopped at once is drawn (a polygon needs some width there)."""

FIXED, FRIEND, DIFFICULT = 0, 1, 2
"""Kinds of obstacles in a base's reach: in every way (impassable terrain, enemies), in all but the limit
(friends), left out one at a time or all together (difficult terrain)."""

SAME = 1e-9
"""Two consecutive points of a polygon closer than this are one (the last digits of a corner computed twice)."""

GRAZE = 1e-9
"""A ray that runs through an obstacle for less than this is not stopped by it: it runs along the edge (or from a
corner that lies on another obstacle's edge to the last digits)."""

DEEP = 1e-7
"""An event is hidden inside an obstacle only this far inside it (one on its edge, to the last digits, is seen)."""

FLAT = 1e-15
"""A direction closer to an edge's than this is parallel to it."""

EMPTY = Polygon()
"""What a point sees where it sees nothing, made once (``Polygon()`` parses a text each time: issue 37)."""


@dataclass
class View:
    """One point's rays: the interval bounds (radians, increasing), and for each interval and obstacle how far the
    ray goes before entering it (inf: it does not) and where that obstacle's near edge crosses the interval's
    rays."""

    node: Vec
    reach: float
    columns: Any
    """The obstacles (indices into the sight's) within ``reach`` of the point."""
    bounds: Any
    entry: Any
    near: Any
    far: Any
    edge: Any
    """The edge of each obstacle each interval's ray enters it by (-1: at once or never)."""

    def polygon(self, active: Any) -> Any:
        """What the point sees within ``reach`` among the obstacles ``active`` (a boolean array over the sight's)."""
        front, met = self._front(active)
        angle, radius = self._rim(np.arange(len(self.bounds) - 1), front, met)
        return _ring(self.node, angle, radius)

    def behind(self, active: Any, target: int) -> Any:
        """What the point sees among ``active`` in obstacle ``target`` (an index into the sight's) or in its shadow:
        along each ray that meets the target, from where it enters it to where an active obstacle stops it."""
        column = np.flatnonzero(self.columns == target)
        if not len(column):
            return EMPTY  # the target is out of reach: so is its shadow
        meets = np.isfinite(self.entry[:, column[0]])
        rows = np.flatnonzero(meets)
        if not len(rows):
            return EMPTY
        if meets[0] and meets[-1] and not meets.all():  # the target's directions wrap round the first bound
            gap = int(np.flatnonzero(~meets)[0])
            rows = np.concatenate([rows[rows >= gap], rows[rows < gap]])
        front, met = self._front(active, rows)
        inner = np.column_stack([self.near[rows, column[0]], self.far[rows, column[0]]])
        # whether the target is in front at the middle of the interval: at its ends, the target's near edge is
        # only sure to be the one it is entered by where the target is seen (its other corners may be hidden)
        ahead = np.where(met[rows], self.entry[rows, front[rows]], np.inf)
        room = ahead > self.entry[rows, column[0]] + 1e-12
        if not room.any():
            return EMPTY  # the target is hidden from the point
        pieces = []
        for run in np.split(np.arange(len(rows)), np.flatnonzero(np.diff(room.astype(int)) != 0) + 1):
            if not room[run[0]]:
                continue
            angle, radius = self._rim(rows[run], front, met)
            back_angle = np.column_stack([self.bounds[rows[run]], self.bounds[rows[run] + 1]]).ravel()[::-1]
            back_radius = inner[run].ravel()[::-1]
            pieces.append(_ring(self.node, np.concatenate([angle, back_angle]), np.concatenate([radius, back_radius])))
        if not pieces:
            return EMPTY
        return pieces[0] if len(pieces) == 1 else shapely.union_all(pieces)

    @functools.cached_property
    def _edges(self) -> int:
        """More than the edges' indices and -1 take (a front obstacle and its edge as one number, in :meth:`_rim`)."""
        return int(self.edge.max(initial=0)) + 2

    def _front(self, active: Any, rows: Any = None) -> tuple[Any, Any]:
        """For each interval (of ``rows`` only, when given: the others are left 0 and not met), the nearest of
        ``active`` its ray meets (a column) and whether it meets one."""
        count = len(self.bounds) - 1
        front, met = np.zeros(count, dtype=int), np.zeros(count, dtype=bool)
        if not len(self.columns):
            return front, met
        rows = np.arange(count) if rows is None else rows
        entry = np.where(active[self.columns][None, :], self.entry[rows], np.inf)
        nearest = np.argmin(entry, axis=1)
        front[rows] = nearest
        met[rows] = np.isfinite(entry[np.arange(len(rows)), nearest])
        return front, met

    def _rim(self, rows: Any, front: Any, met: Any) -> tuple[Any, Any]:
        """The far side of what the point sees over the intervals ``rows`` (in that order), in polar coordinates:
        along each interval the edge of its front obstacle, or an arc outside the circle of ``reach``."""
        lo, hi = self.bounds[rows], self.bounds[rows + 1]
        meets = met[rows]
        f = front[rows]
        if len(self.columns):
            near, far = self.near[rows, f], self.far[rows, f]
            key = np.where(meets, f * self._edges + self.edge[rows, f] + 1, -1)
        else:
            near = far = np.zeros(len(rows))
            key = np.full(len(rows), -1)
        # one edge seen over several intervals is drawn once: the bounds between are corners and crossings hidden
        # from the point, which would only put points (with the last digits' noise) on the edge
        same_before = meets & np.concatenate([[False], key[1:] == key[:-1]])
        same_after = meets & np.concatenate([key[:-1] == key[1:], [False]])
        pieces = np.where(meets, 1, np.maximum(1, np.ceil((hi - lo) / STEP))).astype(int)
        count = pieces + 1
        which = np.repeat(np.arange(len(rows)), count)
        k = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        step = (hi - lo) / pieces
        angle = lo[which] + k * step[which]
        out = self.reach / np.cos(step / 2) + 1e-6
        first = k == 0
        radius = np.where(meets[which], np.where(first, near[which], far[which]), out[which])
        keep = ~np.where(meets[which], np.where(first, same_before[which], same_after[which]), False)
        return angle[keep], radius[keep]


def _ring(node: Vec, angle: Any, radius: Any) -> Any:
    """The polygon of points given around ``node`` in polar coordinates (a point on the node drawn at :data:`NEAR`
    from it), valid."""
    radius = np.maximum(radius, NEAR)
    xy = np.column_stack([node[0] + radius * np.cos(angle), node[1] + radius * np.sin(angle)])
    step = np.hypot(*np.diff(xy, axis=0, append=xy[:1]).T)
    xy = xy[step > SAME]  # a corner that ends one edge and starts the next, computed twice
    if len(xy) < 3:
        return EMPTY
    seen = shapely.polygons(xy)  # one call (issue 37, sixth part): Polygon(xy) checks its input point by point
    return seen if seen.is_valid else shapely.make_valid(seen)


def _arc(lo: float, hi: float, reach: float) -> Any:
    """Polar points of an arc from ``lo`` to ``hi`` whose chords stay outside the circle of ``reach``."""
    pieces = max(1, math.ceil((hi - lo) / STEP))
    step = (hi - lo) / pieces
    out = reach / math.cos(step / 2) + 1e-6
    angles = lo + step * np.arange(pieces + 1)
    return np.column_stack([angles, np.full(pieces + 1, out)])


@dataclass
class Sight:
    """Convex obstacles as arrays (each edge's outward normal and offset), the points where their edges cross,
    and each point's :class:`View`, kept."""

    obstacles: Sequence[Polygon]
    kinds: Sequence[int] | None = None
    """Each obstacle's kind (:data:`FIXED`, :data:`FRIEND`, :data:`DIFFICULT`) when the sight serves the ways of a
    base's reach only (a corner or crossing no way can see is then left out); None: any subset of the obstacles."""
    groups: Sequence[int] | None = None
    """With :attr:`kinds`: the feature of each difficult obstacle (a way leaves out all the pieces of one feature
    together); None: each obstacle is a feature of its own."""
    index: dict[int, int] = field(init=False)
    _views: dict[Vec, View] = field(init=False, default_factory=dict)
    _shrunk: dict[float, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        shapes = [orient(o) for o in self.obstacles]
        self.index = {id(o): i for i, o in enumerate(self.obstacles)}
        self._shapes = np.array(shapes, dtype=object)
        rings = [np.asarray(o.exterior.coords)[:-1] for o in shapes]
        size = max((len(r) for r in rings), default=1)
        self._normal = np.zeros((len(rings), size, 2))
        self._offset = np.ones((len(rings), size))  # padding: 0 . x <= 1 always holds
        for j, ring in enumerate(rings):
            edge = np.roll(ring, -1, axis=0) - ring
            normal = np.column_stack([edge[:, 1], -edge[:, 0]])  # outward, the ring counter-clockwise
            self._normal[j, : len(ring)] = normal
            self._offset[j, : len(ring)] = np.einsum("ij,ij->i", normal, ring)
        self._ring = np.zeros((len(rings), size, 2))  # each obstacle's corners, padded by its first
        for j, ring in enumerate(rings):
            self._ring[j] = ring[0] if len(ring) else 0.0
            self._ring[j, : len(ring)] = ring
        self._corners = np.concatenate(rings) if rings else np.zeros((0, 2))
        self._owner = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
        self._points, self._pairs = self._events()

    def shrunk(self, obstacles: Sequence[Polygon], by: float) -> Any:
        """``obstacles`` shrunk by ``by`` (mitred), as an array: those this sight holds buffered once for every way
        that asks (issue 37), the others each time."""
        if by not in self._shrunk:
            self._shrunk[by] = shapely.buffer(np.array(self.obstacles, dtype=object), -by, join_style="mitre")
        kept = self._shrunk[by]
        out = np.empty(len(obstacles), dtype=object)
        for n, o in enumerate(obstacles):
            i = self.index.get(id(o))
            out[n] = kept[i] if i is not None else shapely.buffer(o, -by, join_style="mitre")
        return out

    def _events(self) -> tuple[Any, Any]:
        """The corners and the points where two obstacles' boundaries cross, with the two obstacles each lies on (a
        corner's twice), less those no way can see (:meth:`_seen_by_some_way`; a view then holds every obstacle
        that meets one of its obstacles, so that it holds the obstacles that hide the events it leaves out)."""
        corners = self._corners
        pairs = np.column_stack([self._owner, self._owner])
        self._touching = np.zeros((len(self._shapes), len(self._shapes)), dtype=bool)
        if len(self._shapes) > 1:
            first, second = shapely.STRtree(self._shapes).query(self._shapes, predicate="intersects")
            self._touching[first, second] = True
            keep = first < second
            rims = shapely.boundary(self._shapes)
            met = shapely.intersection(rims[first[keep]], rims[second[keep]])
            points, which = shapely.get_coordinates(met, return_index=True)
            corners = np.concatenate([corners, points])
            pairs = np.concatenate([pairs, np.column_stack([first[keep][which], second[keep][which]])])
        if self.kinds is not None and len(corners):
            keep = self._seen_by_some_way(corners, pairs)
            corners, pairs = corners[keep], pairs[keep]
        return corners, pairs

    def _seen_by_some_way(self, points: Any, pairs: Any) -> Any:
        """Whether each point (on the boundaries of its pair of obstacles) lies inside none of the other obstacles
        of some way of a base's reach: all of them; all but one difficult feature; every one but the difficult
        ones; only the fixed ones (:attr:`kinds`; a feature of several pieces, :attr:`groups`, is left out whole).
        A point inside an obstacle of the way is hidden from every point outside it, and so is every edge near it: it
        bounds nothing seen."""
        kinds = np.asarray(self.kinds)
        cores = shapely.buffer(self._shapes, -DEEP, join_style="mitre")  # a point on an edge, give or take the
        where, inside = shapely.STRtree(cores).query(shapely.points(points), predicate="within")  # last digits
        other = (inside != pairs[where, 0]) & (inside != pairs[where, 1])
        where, inside = where[other], inside[other]
        count = np.bincount(where, minlength=len(points))
        fixed = np.bincount(where, weights=kinds[inside] == FIXED, minlength=len(points)) > 0
        hard = np.bincount(where, weights=kinds[inside] != DIFFICULT, minlength=len(points)) > 0
        on = kinds[pairs]
        group = np.asarray(self.groups) if self.groups is not None else np.arange(len(kinds))
        first, last = np.full(len(points), len(kinds)), np.full(len(points), -1)
        np.minimum.at(first, where, group[inside])
        np.maximum.at(last, where, group[inside])
        all_or_one = (count == 0) | ((first == last) & ~hard)  # inside pieces of one difficult feature only
        no_difficult = ~hard & (on != DIFFICULT).all(axis=1)
        only_fixed = (on == FIXED).all(axis=1)
        return ~fixed & (all_or_one | no_difficult | only_fixed)

    def mask(self, chosen: Sequence[Polygon]) -> Any:
        """The boolean array that selects ``chosen`` (obstacles of this sight)."""
        active = np.zeros(len(self._shapes), dtype=bool)
        active[[self.index[id(o)] for o in chosen]] = True
        return active

    def view(self, node: Vec, reach: float) -> View:
        """The rays from ``node`` out to ``reach`` (kept per point; a wider reach asked later casts them again)."""
        kept = self._views.get(node)
        if kept is None or kept.reach < reach:
            kept = self._views[node] = self._cast(node, reach)
        return kept

    def _cast(self, node: Vec, reach: float) -> View:
        here = np.asarray(node, dtype=float)
        gaps = shapely.distance(self._shapes, Point(node)) if len(self._shapes) else np.zeros(0)
        near = gaps <= reach
        if self.kinds is not None and near.any():  # and the obstacles that may hide their events (:meth:`_events`)
            near |= self._touching[near].any(axis=0)
        columns = np.flatnonzero(near)
        bounds = self._bounds(here, columns)
        if not len(columns):
            empty = np.zeros((len(bounds) - 1, 0))
            return View(node, reach, columns, bounds, empty, empty, empty, empty.astype(int))
        normal, offset = self._normal[columns], self._offset[columns]
        slack = offset - np.einsum("jek,k->je", normal, here)  # >= 0 on the inner side of each edge's line
        middle = (bounds[:-1] + bounds[1:]) / 2
        row, col = self._facing(here, columns, gaps[columns], middle)
        shape = (len(middle), len(columns))
        entry, edge = np.full(shape, np.inf), np.full(shape, -1)
        near, far = np.zeros(shape), np.zeros(shape)
        n, gap = normal[col], slack[col]
        rays = np.column_stack([np.cos(bounds), np.sin(bounds)])  # each bound's ray (and each middle's) once
        met, by = _entries(np.column_stack([np.cos(middle), np.sin(middle)])[row], n, gap)
        flat = row * len(columns) + col
        lengths = _along(rays[row], rays[row + 1], n, gap, by, met)
        for table, values in zip((entry, edge, near, far), (met, by, *lengths), strict=True):
            np.put(table, flat, values)
        return View(node, reach, columns, bounds, entry, near, far, edge)

    def _facing(self, here: Any, columns: Any, gaps: Any, middle: Any) -> tuple[Any, Any]:
        """The (interval, column) pairs whose ray may enter the obstacle: the interval's middle direction within the
        angle its corners span from the point (widened by ``1e-9``; every interval for an obstacle the point is
        on or next to).  A ray that enters a convex obstacle runs between the directions of two of its corners: the
        other pairs' rays meet nothing (issue 37, sixth part: the sweep casts only these)."""
        away = self._ring[columns] - here
        angle = np.arctan2(away[..., 1], away[..., 0])
        turn = (angle - angle[:, :1] + math.pi) % (2 * math.pi) - math.pi  # from the first corner's direction
        first = angle[:, 0] + turn.min(axis=1) - 1e-9
        width = turn.max(axis=1) - turn.min(axis=1) + 2e-9
        every = (gaps <= 1e-7) | (width >= math.pi)
        base = middle[0]
        first = base + (first - base) % (2 * math.pi)
        lo = np.where(every, 0, np.searchsorted(middle, first, side="left"))
        hi = np.where(every, len(middle), np.searchsorted(middle, first + width, side="right"))
        wrap = np.where(every, 0, np.searchsorted(middle, first + width - 2 * math.pi, side="right"))
        starts, stops = np.concatenate([lo, np.zeros(len(columns), dtype=int)]), np.concatenate([hi, wrap])
        owner = np.concatenate([np.arange(len(columns))] * 2)
        count = np.maximum(stops - starts, 0)
        col = np.repeat(owner, count)
        row = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + np.repeat(starts, count)
        return row, col

    def _bounds(self, here: Any, columns: Any) -> Any:
        """The directions of the events on obstacles of ``columns`` (the corners, and the crossings of two of them
        however far: the nearer of two edges may change there), sorted, closed by the first plus a full turn."""
        within = np.zeros(len(self._shapes), dtype=bool)
        within[columns] = True
        away = self._points[within[self._pairs].all(axis=1)] - here
        away = away[np.hypot(away[:, 0], away[:, 1]) > 1e-12]
        angles = np.unique(np.arctan2(away[:, 1], away[:, 0])) if len(away) else np.zeros(0)
        if not len(angles):
            return np.array([-math.pi, math.pi])
        angles = angles[np.concatenate([[True], np.diff(angles) > 1e-12])]
        return np.concatenate([angles, [angles[0] + 2 * math.pi]])


def _entries(rays: Any, normal: Any, slack: Any) -> tuple[Any, Any]:
    """For each pair of a ray (a unit vector from the point) and an obstacle (its edges' normals and slacks): how far
    the ray goes before it enters the obstacle (inf: never; 0: at once) and the edge it enters by (its index; -1 at
    once).  One edge at a time over all the pairs (a reduction along a short last axis is slow: issue 37)."""
    count, edges = slack.shape
    start, stop = np.full(count, -np.inf), np.full(count, np.inf)  # the last edge entered, the first left
    edge, never = np.zeros(count, dtype=int), np.zeros(count, dtype=bool)
    for e in range(edges):
        facing = normal[:, e, 0] * rays[:, 0] + normal[:, e, 1] * rays[:, 1]  # < 0: towards the edge's inner side
        gap = slack[:, e]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = gap / facing
        lower = np.where(facing < -FLAT, ratio, -np.inf)
        later = lower > start  # the first edge of the largest, as argmax gives
        edge[later], start[later] = e, lower[later]
        np.minimum(stop, np.where(facing > FLAT, ratio, np.inf), out=stop)
        never |= (np.abs(facing) <= FLAT) & (gap < 0)
    entry = np.maximum(start, 0.0)
    met = ~never & (stop > entry + GRAZE)
    return np.where(met, entry, np.inf), np.where(start > 0, edge, -1)


def _along(lo: Any, hi: Any, normal: Any, slack: Any, edge: Any, entry: Any) -> tuple[Any, Any]:
    """For each pair of an interval (the rays at its bounds, ``lo`` and ``hi``) and an obstacle, how far along those
    rays the obstacle's entry edge lies (0 where the ray enters at once)."""
    pick = np.maximum(edge, 0)
    every = np.arange(len(pick))
    chosen, gap = normal[every, pick], slack[every, pick]
    out = []
    for rays in (lo, hi):
        facing = chosen[:, 0] * rays[:, 0] + chosen[:, 1] * rays[:, 1]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            there = np.where(facing < -FLAT, gap / facing, entry)
        out.append(np.where(edge < 0, 0.0, np.where(np.isfinite(there), np.maximum(there, 0.0), 0.0)))
    return out[0], out[1]
