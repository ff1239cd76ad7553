"""The world an order is checked in, and the facts every kind of order shares.

:class:`World` is the battlefield as the earlier orders left it, seen from the
side giving the orders: which bases and terrain lie near a shape, who is in
contact, whether a group of bases gets the pre-battle bonus, which difficult
terrain a base would enter.  :func:`declared_rolls` reads the rolls an order
declares.  The order's own facts are :mod:`movecheck.maneuver.free` and
:mod:`movecheck.maneuver.corps`.

Facts only: numbers, shapes, bases and terrain.  Whether they break a rule, and
how the finding reads, is decided by the clauses (:mod:`movecheck.maneuver.checks`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from movecheck.maneuver import geometry as g
from movecheck.maneuver.model import Base, Battlefield, Terrain, Vec
from movecheck.maneuver.motion import touching
from movecheck.maneuver.orders import Order
from movecheck.maneuver.plane import EPS
from movecheck.maneuver.rolls import Feature

DocPath = tuple[Any, ...]
CLEAR_TRIES = 200
"""How many places :meth:`World.clear_spot` tries before it gives up (each is a few shape tests)."""


class World:
    """The battlefield as the earlier orders left it, seen from the side giving the orders."""

    def __init__(self, battlefield: Battlefield, side: str) -> None:
        self.bf = battlefield
        self.side = side
        self.options = battlefield.options
        self._index: g.MovableIndex | None = None
        self._enemies: g.MovableIndex | None = None  # the other sides' bases only (contacts, the pre-battle bonus)
        self._enemy_reach: float | None = None
        terrain = list(battlefield.terrain.values())
        self._terrain_index = g.SpatialIndex((t.id, t.polygon) for t in terrain) if terrain else None
        self._terrain_last: tuple[Any, list[Terrain]] | None = None  # the terrain never moves: the last answer holds
        self._start = {b.id: (b.x, b.y, b.facing) for b in battlefield.all_bases()}
        self._ordered: dict[str, Order] = {}

    @property
    def tol(self) -> float:
        return self.options.tolerance

    @property
    def gap(self) -> float:
        return self.options.contact_gap

    def moved(self, bases: Iterable[Base] | None = None) -> None:
        """Bases were placed anew: the index follows them (``None``: any base may have moved)."""
        if bases is None:
            self._index = self._enemies = None
            return
        for base in bases:
            if self._index is not None:
                self._index.move(base.id, base.rect)
            if self._enemies is not None and base.side != self.side:
                self._enemies.move(base.id, base.rect)

    def index(self) -> g.MovableIndex:
        if self._index is None:
            self._index = g.MovableIndex((b.id, b.rect) for b in self.bf.all_bases())
        return self._index

    def enemy_half_diagonal(self) -> float:
        """The largest half diagonal of an enemy base (bases never change size or side)."""
        if self._enemy_reach is None:
            self._enemy_reach = max((e.half_diagonal for e in self.bf.enemies_of(self.side)), default=0.0)
        return self._enemy_reach

    def bases_near(self, geom: Any, distance: float = 0.0) -> list[Base]:
        """Bases whose rectangles lie within ``distance`` of ``geom`` (STRtree query)."""
        return [self.bf.bases[cast(str, k)] for k in self.index().near(geom, distance)]

    def enemies_near(self, geom: Any, distance: float = 0.0) -> list[Base]:
        """The other sides' bases among :meth:`bases_near`, in the same order, from an index of theirs alone (a
        question about enemies does not look at the friends near a base)."""
        if self._enemies is None:
            self._enemies = g.MovableIndex((b.id, b.rect) for b in self.bf.all_bases() if b.side != self.side)
        return [self.bf.bases[cast(str, k)] for k in self._enemies.near(geom, distance)]

    def terrain_near(self, geom: Any) -> list[Terrain]:
        if self._terrain_index is None:
            return []
        last = self._terrain_last
        if last is not None and last[0] is geom:  # a file's sweep: its obstacles, then its difficult terrain
            return list(last[1])
        found = [self.bf.terrain[cast(str, k)] for k in self._terrain_index.near(geom, 0.0)]
        self._terrain_last = (geom, found)
        return list(found)

    def prebattle(self, bases: list[Base]) -> tuple[bool, float | None]:
        """Whether every base is more than ``prebattle_distance`` from every enemy (M11), and the nearest such
        distance."""
        opts = self.options
        limit = opts.prebattle_distance
        nearest: float | None = None
        for base in bases:
            if opts.prebattle_measure == "centre":
                reach = limit + base.half_diagonal + self.enemy_half_diagonal()
                for other in self.enemies_near(base.rect, reach):
                    d = math.dist(base.centre, other.centre)
                    if d <= limit + EPS:
                        nearest = d if nearest is None else min(nearest, d)
            else:
                for other in self.enemies_near(base.rect, limit):
                    d = g.edge_distance(base.rect, other.rect)
                    nearest = d if nearest is None else min(nearest, d)
        return nearest is None, nearest

    def contacts(self, rect: Any, exact: bool = True) -> list[Base]:
        """Enemy bases touching ``rect`` (within the contact gap; ``exact=False`` allows the tolerance too)."""
        slack = self.gap + (0.0 if exact else self.tol)
        found = []
        for other in self.enemies_near(rect, slack):
            if (exact and g.in_contact(rect, other.rect, self.gap)) or (
                not exact and touching(rect, other.rect, self.gap, self.tol)
            ):
                found.append(other)
        return found

    def claim(self, order: Order) -> None:
        """The order moves its bases: a later order for one of them repeats it (the first order keeps them)."""
        for base in order.moving:
            self._ordered.setdefault(base.id, order)

    def repeat(self, order: Order) -> Repeat | None:
        """The earlier order of the file that already moves some of this order's bases, and which (M1, M3)."""
        earlier = [(self._ordered[b.id], b.id) for b in order.moving if self._ordered.get(b.id, order) is not order]
        if not earlier:
            return None
        # the corps' own earlier order first, else the first earlier order
        first = min(earlier, key=lambda item: (item[0].kind == "free", item[0].index))[0]
        return Repeat(first, tuple(bid for _, bid in earlier))

    def engaged_at_start(self, base: Base) -> list[Base]:
        """Enemy bases in contact with ``base`` where it stood at the start of the turn (M10 is judged from there)."""
        x, y, facing = self._start.get(base.id, (base.x, base.y, base.facing))
        if (x, y, facing) == (base.x, base.y, base.facing):
            return self.contacts(base.rect)
        return self.contacts(base.rect_at(x, y, facing))

    def clear_spot(self, base: Base, end: Vec, facing: float, moving: set[str], reach: float) -> Vec | None:
        """The nearest place to ``end`` (at most ``reach`` from it) where the base overlaps nothing.

        Nothing: no other base (outside ``moving``), no impassable terrain, not the
        field's outside.  A hand-measured end that overlaps them by no more than the
        tolerance is taken as touching them; this is where the base then stands.  The
        search lifts the base off what it overlaps along the separating axes
        (:func:`geometry.separations`), again from each place tried; None when no place
        within ``reach`` is clear.
        """

        tried: set[tuple[float, float]] = set()
        queue: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)]
        while queue and len(tried) < CLEAR_TRIES:
            distance, dx, dy = heapq.heappop(queue)
            if distance > reach + EPS:
                return None
            key = (round(dx, 12), round(dy, 12))
            if key in tried:
                continue
            tried.add(key)
            rect = base.rect_at(end[0] + dx, end[1] + dy, facing)
            pushes = [v for shape in self._overlapped(rect, moving) for v in g.separations(rect, shape)]
            if not g.inside_field(rect, self.bf.field_polygon):
                pushes.append(g.into_box(rect, self.bf.field_polygon))
            if not pushes:
                return (end[0] + dx, end[1] + dy)
            for px, py in pushes:
                heapq.heappush(queue, (math.hypot(dx + px, dy + py), dx + px, dy + py))
        return None

    def overlapped(self, rect: Any, moving: set[str]) -> list[Base | Terrain]:
        """The bases (outside ``moving``) and impassable terrain that ``rect`` overlaps."""
        found: list[Base | Terrain] = [
            b for b in self.bases_near(rect) if b.id not in moving and g.overlaps(rect, b.rect)
        ]
        found.extend(t for t in self.terrain_near(rect) if t.kind == "impassable" and g.overlaps(rect, t.polygon))
        return found

    def _overlapped(self, rect: Any, moving: set[str]) -> list[Any]:
        """The convex shapes ``rect`` overlaps: bases and the convex pieces of impassable terrain."""
        shapes = []
        for thing in self.overlapped(rect, moving):
            if isinstance(thing, Base):
                shapes.append(thing.rect)
            else:
                shapes.extend(piece for piece in thing.pieces if g.overlaps(rect, piece))
        return shapes

    def features(self, base: Base, entry: Callable[[Terrain], float | None], region: Any) -> list[Feature]:
        """Difficult terrain the base would enter, with the distance of first entry."""
        found = []
        for terrain in self.terrain_near(region):
            die = self.options.die_of_kind(terrain.kind)
            if die is None:
                continue
            if terrain.kind == "hill" and g.overlaps(base.rect, terrain.polygon):
                continue  # already on the hill: only climbing onto it from outside counts
            e = entry(terrain)
            if e is not None:
                found.append(Feature(terrain, e, die[0], die[1]))
        return sorted(found, key=lambda f: (f.e, f.terrain.id))


@dataclass(frozen=True)
class Obstacle:
    """What a motion runs into: a kind, the bases or terrain it names, the base that meets it.

    Kinds: ``enemy``, ``landmark_corps`` (a base of the corps moved towards),
    ``friend`` (one the base cannot pass), ``friend_end`` (one it would end
    on), ``impassable``, ``field_edge``, ``at_landmark`` (the corps is there
    already) and ``terrain`` (difficult terrain that may cost more than the
    allowance), and ``engaged`` (enemies the base ``member`` touches at the
    start, which keep it in place, M10).  ``member`` is the moving base that meets a base obstacle,
    ``behind`` whether that is not the front base of its file.
    """

    kind: str
    ids: tuple[str, ...] = ()
    member: str | None = None
    behind: bool = False


@dataclass(frozen=True)
class Repeat:
    """An order for bases that an earlier order of the same file already moves (one order each a turn, M1, M3).

    ``earlier`` is the corps' own earlier order if there is one, else the first such
    order; ``bases`` are this order's bases that earlier orders move.
    """

    earlier: Order
    bases: tuple[str, ...]


@dataclass(frozen=True)
class DeclaredRoll:
    """One declared penalty roll: for which base, which terrain (None: its first), which value, where.

    ``terrain`` is the element named (None when unnamed or unknown), ``penalty``
    whether its kind costs a die.
    """

    base_id: str
    terrain_id: str | None
    value: int
    where: DocPath
    terrain: Terrain | None = None
    penalty: bool = False


def declared_rolls(order: Order, world: World) -> list[DeclaredRoll]:
    """Every integer roll the order declares, in the order of its bases (values of other types are schema errors)."""
    found: list[DeclaredRoll] = []
    for base_id, value in sorted(order.raw_rolls.items()):
        where = (*order.where, "rolls", base_id)
        items = sorted(value.items()) if isinstance(value, dict) else [(None, value)]
        for tid, roll in items:
            if not isinstance(roll, int) or isinstance(roll, bool):
                continue
            terrain = world.bf.terrain.get(tid) if tid is not None else None
            penalty = terrain is not None and world.options.die_of_kind(terrain.kind) is not None
            spot = where + ((tid,) if tid is not None else ())
            found.append(DeclaredRoll(base_id, tid, roll, spot, terrain, penalty))
    return found
