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
- one *level* per value ``v`` of that allowance: clear ground and every point within
  ``v`` (+ ``tolerance``) by paths around impassable terrain, enemies and friends, with
  the probability that the allowance is at least ``v``.  Where a path enters fewer of
  those features (or later), its allowance is no smaller: the odds are exact for the
  features a path enters and a lower bound elsewhere;
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

from shapely.geometry import LineString
from shapely.ops import unary_union

from movecheck.maneuver.geodesic import Geodesic, centre_box, minkowski
from movecheck.maneuver.model import Base, Battlefield, Terrain
from movecheck.maneuver.plane import EPS, heading_vector
from movecheck.maneuver.world import World


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

    @property
    def certain(self) -> Any:
        """The region of probability 1 (the last level)."""
        return self.levels[-1].region


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
        return [minkowski(p, rect, start) for p in polys if _near(p, start, near)]

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
    opts = world.options
    tol = opts.tolerance
    bonus, _nearest = world.prebattle([base])
    mobility = base.mobility + (opts.prebattle_bonus if bonus else 0.0)
    horizon = mobility + tol
    start = base.centre
    found = obstacles(bf, base, horizon)
    hard, enemies, friends, difficult, area = found.hard, found.enemies, found.friends, found.difficult, found.area
    inner = Geodesic(start, area, hard + enemies + friends, horizon)
    clear_paths = Geodesic(start, area, hard + enemies + friends + [p for _t, ps in difficult for p in ps], horizon)
    clear = clear_paths.ball(horizon)
    owed = []
    for t, pieces in difficult:
        e = inner.distance_to(unary_union(pieces))
        if e < mobility - EPS:
            die = opts.die_of_kind(t.kind)
            assert die is not None
            owed.append(Owed(t, die[0], die[1], max(0.0, e)))
    owed.sort(key=lambda o: (o.entry, o.terrain.id))
    levels = [Level(v, p, unary_union([clear, inner.ball(v + tol)])) for v, p in _levels(mobility, owed)]
    limit = Geodesic(start, area, hard + enemies, horizon).ball(horizon, outside=True)
    engaged = [e.id for e in world.engaged_at_start(base)]
    if engaged:
        hx, hy = heading_vector(base.facing)
        back = LineString([start, (start[0] - hx * horizon, start[1] - hy * horizon)]).buffer(tol / 2, cap_style="flat")
        clear = clear.intersection(back)
        levels = [Level(lv.allowance, lv.probability, lv.region.intersection(back)) for lv in levels]
        limit = limit.intersection(back)
    return BaseReach(base, mobility, bonus, tol, owed, clear, levels, limit, engaged, inner)


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
