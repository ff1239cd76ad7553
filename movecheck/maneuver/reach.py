"""Where a base can go this turn: the regions of its free move, with the odds of the terrain dice.

``movecheck reach`` and ``render --reach`` (spec: "Where a base can go: reach").  The
regions are sets of end positions of the base's centre at its current facing, worked out
with :mod:`movecheck.maneuver.geodesic` in the plane of the centre:

- the base's allowance ``A`` is its mobility, +2 before battle (M11), as for a free move;
- *clear ground* is what it reaches within ``A`` (+ ``tolerance``) by paths that never
  overlap difficult terrain, impassable terrain, an enemy or a friend (it owes no roll
  there: probability 1);
- the dice it could owe are those of the difficult terrain within its reach, each entered
  at the shortest distance any path enters it (a lower bound of where the checked path
  enters it);  the allowance walk of the rules over those features, in that order, gives
  the exact distribution of the allowance ``a`` (``a = max(e, a - roll)`` at each feature
  reached);
- the same walk over each of those features alone, for paths that keep out of the others
  (when there are several);
- one *level* per probability ``q`` those walks give: clear ground and, for each way (all
  the features, or one alone), every point within the largest allowance ``v`` it reaches
  with probability at least ``q`` (+ ``tolerance``) by its paths around impassable
  terrain, enemies and friends.  A path that enters fewer of the features than its way
  assumes (or enters them later) has an allowance no smaller: the odds are exact where the
  paths enter the features their way walks, and a lower bound elsewhere;
- the *limit*: beyond it no path of length ``A`` (+ ``tolerance``) around impassable
  terrain and enemies gets (friends, which a base may partly pass over, are left out):
  an end there is MV101 whatever the rolls.

An engaged base (M10) may only move straight back (drawn as a strip ``tolerance`` wide
along its rear) or forward into full contact (not drawn: the contact positions are
the enemy's edges).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.ops import unary_union

from movecheck.maneuver.geodesic import Focus, Geodesic, Lanes, ReachSteps, centre_box, minkowskis
from movecheck.maneuver.model import Base, Battlefield, Terrain
from movecheck.maneuver.plane import EPS, heading_vector
from movecheck.maneuver.sight import DIFFICULT, FIXED, FRIEND, Sight
from movecheck.maneuver.world import World

SLIVER_HOLE = 1e-9
"""A hole in a level of at most this area (square steps) is the last digits' noise of joining it (issue 37)."""


@dataclass(frozen=True)
class Owed:
    """A roll the base could owe: the terrain, its die, and the shortest distance at which a path enters it."""

    terrain: Terrain
    die_name: str
    dice: Any
    entry: float


@dataclass
class Level:
    """Points the base gets to when its allowance is at least ``allowance``, which happens with ``probability``."""

    allowance: float
    probability: Fraction
    region: Any


@dataclass
class Scenario:
    """One way of paths: the geodesic they follow (the features they may enter) and the allowance levels it gives."""

    paths: Geodesic
    levels: list[tuple[float, Fraction]]
    focus: Focus | None = None
    """For one feature alone: its feature (the rest of its ball is clear ground, drawn already)."""


@dataclass
class BaseReach:
    """A base's free move this turn: its allowance, the rolls it could owe, the levels and the limit."""

    base: Base
    mobility: float
    bonus: bool
    tolerance: float
    owed: list[Owed]
    clear: Any
    levels: list[Level]
    limit: Any
    engaged: list[str] = field(default_factory=list)
    paths: Geodesic | None = None
    clear_paths: Geodesic | None = None
    scenarios: list[Scenario] = field(default_factory=list)

    @property
    def certain(self) -> Any:
        """The region of probability 1 (the last level)."""
        return self.levels[-1].region

    def path_to(self, point: tuple[float, float]) -> list[tuple[float, float]] | None:
        """A path to a point of the certain region that is legal for every roll (its waypoints after the start).

        On clear ground, the shortest path that keeps out of difficult terrain; else the shortest path of the
        first way (all the features, or one alone) whose certain reach holds the point.
        """

        spot = Point(point)
        if self.clear_paths is not None and self.clear.contains(spot):
            return self.clear_paths.path_to(point)
        for sc in self.scenarios:
            v = min(v for v, _p in sc.levels)
            if sc.paths.ball(v + self.tolerance).contains(spot):
                return sc.paths.path_to(point)
        return self.paths.path_to(point) if self.paths is not None else None


def _near(geom: Any, start: tuple[float, float], reach: float) -> bool:
    minx, miny, maxx, maxy = geom.bounds
    dx = max(minx - start[0], 0.0, start[0] - maxx)
    dy = max(miny - start[1], 0.0, start[1] - maxy)
    return math.hypot(dx, dy) <= reach


@dataclass
class Obstacles:
    """What the base's centre keeps out of (Minkowski sums with its rectangle), by kind, and the field's centre box."""

    hard: list[Any]
    enemies: list[Any]
    friends: list[Any]
    difficult: list[tuple[Terrain, list[Any]]]
    area: Any


def obstacles(bf: Battlefield, base: Base, horizon: float) -> Obstacles:
    """The obstacles within ``horizon`` of the base, in the plane of its centre."""
    start = base.centre
    rect = base.rect
    near = horizon + 2 * base.half_diagonal + 1.0

    def sums(polys: list[Any]) -> list[Any]:
        return minkowskis([p for p in polys if _near(p, start, near)], rect, start)

    difficult: list[tuple[Terrain, list[Any]]] = []
    for t in bf.difficult_terrain():
        if t.kind == "hill" and t.polygon.intersection(rect).area > EPS:
            continue  # already on the hill: only climbing onto it from outside counts
        pieces = sums(list(t.pieces))
        if pieces:
            difficult.append((t, pieces))
    return Obstacles(
        hard=sums([p for t in bf.impassable_terrain() for p in t.pieces]),
        enemies=sums([e.rect for e in bf.enemies_of(base.side)]),
        friends=sums([b.rect for b in bf.bases_of(base.side) if b is not base]),
        difficult=difficult,
        area=centre_box(bf.width, bf.depth, rect, start),
    )


def base_reach(world: World, base: Base) -> BaseReach:
    """The free-move reach of ``base`` on the battlefield as ``world`` holds it."""
    bf: Battlefield = world.bf
    opts: Any = world.options  # one attribute per declared option (movecheck.maneuver.options)
    tol = opts.tolerance
    bonus, _nearest = world.prebattle([base])
    mobility = base.mobility + (opts.prebattle_bonus if bonus else 0.0)
    horizon = mobility + tol
    start = base.centre
    found = obstacles(bf, base, horizon)
    hard, enemies, friends, difficult, area = found.hard, found.enemies, found.friends, found.difficult, found.area
    steps = ReachSteps()
    pieces_all = [p for _t, ps in difficult for p in ps]
    kinds = [FIXED] * len(hard + enemies) + [FRIEND] * len(friends) + [DIFFICULT] * len(pieces_all)
    groups = [-1 - n for n in range(len(hard + enemies + friends))] + [n for n, (_t, ps) in enumerate(difficult)
                                                                        for _p in ps]
    sight = Sight(hard + enemies + friends + pieces_all, kinds, groups)  # every way's rays, once per point (issue 37)
    lanes = Lanes(sight, start, area, horizon, meter=steps)  # every way's visibility graph, built once (issue 37)
    inner = Geodesic(start, area, hard + enemies + friends, horizon, meter=steps, sight=sight, lanes=lanes)
    clear_paths = Geodesic(start, area, hard + enemies + friends + pieces_all, horizon, meter=steps, sight=sight,
                           lanes=lanes)
    clear = clear_paths.ball(horizon)
    owed = []
    for t, pieces in difficult:
        e = inner.distance_to(unary_union(pieces))
        if e < mobility - EPS:
            die = opts.die_of_kind(t.kind)
            assert die is not None
            owed.append(Owed(t, die[0], die[1], max(0.0, e)))
    owed.sort(key=lambda o: (o.entry, o.terrain.id))
    scenarios = [Scenario(inner, _levels(mobility, owed))]
    if len(owed) > 1:  # paths that enter one of the features only, keeping out of the others
        around = {node: d for node, d in zip(clear_paths.nodes, clear_paths.dist, strict=True) if math.isfinite(d)}
        for item in owed:
            others = [p for t, ps in difficult if t is not item.terrain for p in ps]
            alone = Geodesic(start, area, hard + enemies + friends + others, horizon, meter=steps, sight=sight,
                             lanes=lanes)
            pieces = next(ps for t, ps in difficult if t is item.terrain)
            mine = unary_union(pieces)
            entry = Owed(item.terrain, item.die_name, item.dice, max(0.0, alone.distance_to(mine)))
            focus = Focus(mine, entry.entry, horizon, tuple(pieces), around)
            scenarios.append(Scenario(alone, _levels(mobility, [entry]), focus))
    levels = _joined(scenarios, clear, tol)
    limit = Geodesic(start, area, hard + enemies, horizon, meter=steps, sight=sight, lanes=lanes).ball(horizon,
                                                                                                    outside=True)
    engaged = [e.id for e in world.engaged_at_start(base)]
    if engaged:
        hx, hy = heading_vector(base.facing)
        back = LineString([start, (start[0] - hx * horizon, start[1] - hy * horizon)]).buffer(tol / 2, cap_style="flat")
        clear = clear.intersection(back)
        levels = [Level(lv.allowance, lv.probability, lv.region.intersection(back)) for lv in levels]
        # the limit stays whole: beyond it an end is MV101 (inside it, off the strip, MV502)
    return BaseReach(base, mobility, bonus, tol, owed, clear, levels, limit, engaged, inner,
                     clear_paths, scenarios)


def _joined(scenarios: list[Scenario], clear: Any, tol: float) -> list[Level]:
    """One level per probability, likeliest last: each joined from the next likelier one and the balls that grew
    (a way's ball at a larger allowance holds its ball at a smaller one, so the union is the same set: issue 37).
    The likeliest level joins clear ground and every ball, as each level did before; a hole of no area is left out of
    every level (the plain union left some too)."""
    levels: list[Level] = []
    region, drawn = clear, [math.nan] * len(scenarios)
    for q in sorted({p for sc in scenarios for _v, p in sc.levels}, reverse=True):
        far = [max(v for v, p in sc.levels if p >= q) for sc in scenarios]
        grew = [sc.paths.ball(v + tol, focus=sc.focus) for sc, v, was in zip(scenarios, far, drawn, strict=True)
                if v != was]
        region = _unholed(unary_union([region, *grew]))
        drawn = far
        levels.append(Level(max(far), q, region))
    return levels[::-1]


def _unholed(region: Any) -> Any:
    """The region less its holes of no area (at most :data:`SLIVER_HOLE`): a union of balls whose edges meet to the
    last digits can leave a ring of no area (a slit) inside, which is no ground the base cannot reach."""
    if region.geom_type not in ("Polygon", "MultiPolygon"):
        return region  # a union of polygons is one of those; anything else is left as it is
    polys = [region] if region.geom_type == "Polygon" else list(region.geoms)
    if not any(Polygon(h).area <= SLIVER_HOLE for p in polys for h in p.interiors):
        return region
    kept = [Polygon(p.exterior, [h for h in p.interiors if Polygon(h).area > SLIVER_HOLE]) for p in polys]
    return kept[0] if region.geom_type == "Polygon" else MultiPolygon(kept)


def allowance_distribution(mobility: float, owed: list[Owed]) -> dict[float, Fraction]:
    """The exact distribution of the allowance after the features in ``owed`` (in order), as the rules walk them."""
    dist: dict[float, Fraction] = {mobility: Fraction(1)}
    for item in owed:
        faces = item.dice.distribution()
        after: dict[float, Fraction] = {}
        for a, p in dist.items():
            if item.entry < a - EPS:
                for roll, q in faces.items():
                    value = round(max(item.entry, a - roll), 9)
                    after[value] = after.get(value, Fraction(0)) + p * q
            else:
                after[a] = after.get(a, Fraction(0)) + p
        dist = after
    return dist


def _levels(mobility: float, owed: list[Owed]) -> list[tuple[float, Fraction]]:
    """Each value the allowance can take, largest first, with the probability that it is at least that."""
    dist = allowance_distribution(mobility, owed)
    out = []
    total = Fraction(0)
    for value in sorted(dist, reverse=True):
        total += dist[value]
        out.append((value, total))
    return out
