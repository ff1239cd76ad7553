"""What ``render --reach`` adds to a picture: a base's reach regions with their odds, a corps' ends per outcome.

Collected from :mod:`movecheck.maneuver.reach` and :mod:`movecheck.maneuver.reach_corps`;
:mod:`movecheck.maneuver.svg_reach` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from movecheck.i18n import _
from movecheck.maneuver.model import ORDER_NAMES

Vec = tuple[float, float]
Rings = tuple[tuple[Vec, ...], ...]
"""A polygon: its exterior ring, then its holes."""


@dataclass(frozen=True)
class Level:
    """One nested region: the odds of getting that far (text and exact), where its label goes, its polygons."""

    odds: str
    fraction: str
    allowance: float
    label_at: Vec | None
    polygons: tuple[Rings, ...]
    rear_at: Vec | None = None


@dataclass
class Shade:
    """A base's free-move reach."""

    base: str
    side: str
    levels: list[Level] = field(default_factory=list)
    limit: tuple[Rings, ...] = ()


@dataclass
class Ends:
    """A corps order's ends: (base, point, odds) for every outcome; the label of its likeliest outcome."""

    corps: str
    side: str
    order: str
    points: list[tuple[str, Vec, str]] = field(default_factory=list)
    label: tuple[Vec, str] | None = None


def _polygons(geom: Any) -> tuple[Rings, ...]:
    from movecheck.maneuver.geodesic import polygons

    return tuple(tuple(tuple((round(x, 3), round(y, 3)) for x, y in ring.coords[:-1])
                       for ring in [p.exterior, *p.interiors]) for p in polygons(geom))


def _label_point(region: Any, centre: Vec, heading: Vec, reach: float) -> Vec | None:
    """Where the region's edge crosses the ray ahead of the base (its label's place), if it does."""
    from shapely.geometry import LineString

    ray = LineString([centre, (centre[0] + heading[0] * reach, centre[1] + heading[1] * reach)])
    cut = region.intersection(ray)
    if cut.is_empty:
        return None
    coords = [c for part in getattr(cut, "geoms", [cut]) for c in part.coords]
    far = max(coords, key=lambda c: (c[0] - centre[0]) * heading[0] + (c[1] - centre[1]) * heading[1])
    return (round(far[0], 3), round(far[1], 3))


def collect(found: list[tuple[str, Any]]) -> tuple[list[Shade], list[Ends]]:
    """The shades and ends of what :func:`movecheck.maneuver.reach_report.reaches` found."""
    from movecheck.maneuver.dice import describe_probability
    from movecheck.maneuver.plane import heading_vector

    shades, ends = [], []
    for kind, item in found:
        if kind == "base":
            base = item.base
            shade = Shade(base.id, base.side, limit=_polygons(item.limit))
            heading = heading_vector(base.facing)
            for level in item.levels:
                at = _label_point(level.region, base.centre, heading, item.mobility + 2)
                rear = _label_point(level.region, base.centre, (-heading[0], -heading[1]), item.mobility + 2)
                shade.levels.append(Level(describe_probability(level.probability), str(level.probability),
                                          level.allowance, at, _polygons(level.region), rear))
            shades.append(shade)
            continue
        corps, orders = item
        for o in orders:
            if o.reason is not None or not o.groups:
                continue
            name = _(ORDER_NAMES[o.kind]) + (f" {o.landmark.id}" if o.landmark is not None else "")
            entry = Ends(corps.id, corps.side, name)
            best = None
            for group in o.groups:
                for out in group:
                    odds = describe_probability(out.probability)
                    for bid, xy in sorted(out.ends.items()):
                        entry.points.append((bid, xy, odds))
                    if best is None or out.probability > best[0]:
                        best = (out.probability, max(out.ends.values(), key=lambda p: (p[1], -p[0])))
            if best is not None:
                entry.label = (best[1], f"{name}: {describe_probability(best[0])}")
            ends.append(entry)
    return shades, ends
