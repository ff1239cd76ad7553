"""The facts of a free move (M3, M4, M6, M7, M9 to M11): a single base along its declared path.

:func:`analyse_free` follows the base from where it stands, turning evenly to its
declared facing, and records what the clauses judge: its allowance for every
combination of undeclared rolls that matters (:func:`free_branches`), what the
motion runs into (:class:`Events`), whether the straight line would have been
possible, which enemies it touches before and after, and the rolls it declares.
No verdicts and no words: those are the clauses' (:mod:`movecheck.maneuver.checks`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal

from movecheck.maneuver import geometry as g
from movecheck.maneuver.model import Base, Terrain, Vec
from movecheck.maneuver.motion import Motion, full_contact
from movecheck.maneuver.orders import Order
from movecheck.maneuver.plane import EPS, angle_diff, cone_distance, heading_vector, local_offset, ray_distance
from movecheck.maneuver.rolls import Branch, Branches, Feature, Steps, Walk, enumerate_rolls, extreme, odds, walk
from movecheck.maneuver.world import DeclaredRoll, Obstacle, Repeat, World, declared_rolls

DocPath = tuple[Any, ...]


@dataclass
class Events:
    """What a base's motion runs into, with the path segment where it happens."""

    friend_passes: list[tuple[Base, float, int]] = field(default_factory=list)
    friend_ends: list[Base] = field(default_factory=list)
    enemy_hits: list[tuple[Base, int]] = field(default_factory=list)
    impassable: list[tuple[Terrain, int]] = field(default_factory=list)
    leaves_field: int | None = None

    def first_obstacle(self) -> Obstacle | None:
        """The first reason this motion is impossible (enemy, impassable, field edge, friend), or None."""
        if self.enemy_hits:
            return Obstacle("enemy", (self.enemy_hits[0][0].id,))
        if self.impassable:
            return Obstacle("impassable", (self.impassable[0][0].id,))
        if self.leaves_field is not None:
            return Obstacle("field_edge")
        if self.friend_passes:
            return Obstacle("friend", (self.friend_passes[0][0].id,))
        if self.friend_ends:
            return Obstacle("friend_end", (self.friend_ends[0].id,))
        return None


def motion_events(world: World, motion: Motion, moving: set[str], wheel: AbstractSet[str] = frozenset()) -> Events:
    """Friends passed or ended on, enemies crossed, impassable terrain entered, the field left.

    ``wheel``: enemies the base touches at the start and ends flush with (M10: it wheels into full
    contact); how it turns on the way is folded into the manoeuvre (M2), so only its end counts.
    """
    opts = world.options
    tol = world.tol
    events = Events()
    region = motion.region(world.gap)
    limit = opts.pass_through_limit * motion.base.area
    for other in world.bases_near(region):
        if other.id in moving:
            continue
        if other.side == world.side:
            area, seg = motion.max_overlap(other.rect)
            if area > limit + EPS:
                events.friend_passes.append((other, area, seg))
            if g.overlaps(motion.final_rect(tol), other.rect):
                events.friend_ends.append(other)
        elif other.id in wheel:
            if g.overlaps(motion.final_rect(tol), other.rect):
                events.enemy_hits.append((other, motion.last_segment))
        else:
            hit = motion.entry(other.rect, shrink=tol)
            if hit is not None:
                events.enemy_hits.append((other, hit[1]))
    for terrain in world.terrain_near(region):
        if terrain.kind == "impassable":
            hit = motion.entry(terrain.polygon, terrain.pieces, shrink=tol)
            if hit is not None:
                events.impassable.append((terrain, hit[1]))
    events.leaves_field = motion.leaves(world.bf.field_polygon, shrink=tol)
    return events


@dataclass
class FreeAnalysis:
    """A single base's free move and everything it meets.

    ``mobility`` is the base's mobility plus the pre-battle bonus when it gets it
    (``bonus``; ``nearest``: the nearest enemy when it does not).  ``entered``
    holds the difficult terrain the base enters, ``features`` those of them
    that count for its allowance (entered more than ``tolerance`` deep), and
    ``branches`` its allowance for each combination of undeclared rolls that
    decides the verdict.  ``straight`` says whether the path stays within
    ``tolerance`` of the straight line; when it does not, ``straight_obstacle``
    is what makes the straight line impossible (None: it was possible).
    ``engaged`` are the enemies in contact at the start; then ``offset`` is the
    move's (forward, right) displacement relative to the base's facing,
    ``flush`` the enemies its front edge ends in full contact with, and
    ``advance_miss`` how far its end lies from every end a straight advance
    and/or a wheel about a front corner reaches (M10).  ``engaged`` is judged where
    the base stood at the start of the turn (an earlier order of the file may have
    moved it: ``repeat``).  ``end`` is where the base stands after the move: the
    path's end, lifted clear (by at most twice the tolerance) of the bases,
    impassable terrain and field edge it overlaps there within the tolerance (None:
    no place so near is clear; what it overlaps is then in ``events``).
    """

    order: Order
    base: Base
    motion: Motion
    mobility: float
    bonus: bool
    nearest: float | None
    entered: list[Feature]
    features: list[Feature]
    branches: Branches
    events: Events
    straight: bool
    straight_obstacle: Obstacle | None
    engaged: list[Base]
    offset: Vec
    flush: list[Base]
    new_contacts: list[Base]
    rolls: list[DeclaredRoll]
    tolerance: float
    options: Any
    field_size: tuple[float, float] = (0.0, 0.0)
    advance_miss: float = 0.0
    end: Vec | None = None
    repeat: Repeat | None = None

    kind: ClassVar[Literal["free"]] = "free"

    @property
    def moving(self) -> set[str]:
        """The bases this order moves."""
        return {self.base.id}

    @property
    def followers(self) -> dict[str, str]:
        """Bases that follow a front base (none: a free move's base is its own front)."""
        return {}

    @property
    def entered_by(self) -> dict[str, list[Feature]]:
        """The difficult terrain each front base enters."""
        return {self.base.id: self.entered}

    @property
    def short_of(self) -> dict[str, list[tuple[Feature, float]]]:
        """Terrain kept out of reach by earlier penalties (none: a free move's path says what it enters)."""
        return {}

    def path_at(self, segment: int) -> DocPath:
        """The doc path of the waypoint that ends a segment."""
        last = len(self.order.path) - 1
        return (*self.order.where, "path", max(0, min(segment, last)))

    @property
    def end_where(self) -> DocPath:
        return self.path_at(len(self.order.path) - 1)

    def legal_length(self, branch: Branch) -> bool:
        """Whether the path fits the allowance of this roll combination (within ``tolerance``)."""
        return bool(self.motion.length <= branch.result.allowance + self.tolerance + EPS)


def analyse_free(world: World, order: Order) -> FreeAnalysis:
    """The facts of a free move."""
    base = order.base
    assert base is not None
    opts = world.options
    tol = world.tol
    end_facing = order.facing if order.facing is not None else base.facing
    motion = Motion(base, order.path, end_facing)
    bonus, nearest = world.prebattle([base])
    mobility = base.mobility + (opts.prebattle_bonus if bonus else 0.0)
    region = motion.region()

    def entry(terrain: Terrain) -> float | None:
        hit = motion.entry(terrain.polygon, terrain.pieces)
        return hit[0] if hit is not None else None

    entered = [f for f in world.features(base, entry, region) if f.e < motion.length - EPS]
    stop = motion.length - tol  # entering less than the tolerance deep owes no roll
    features = [f for f in entered if f.e < stop - EPS]
    steps = Steps.for_order()

    def legal_odds() -> Fraction:
        return odds(order.rolls, features, mobility, stop, base.id,
                    lambda allowance: motion.length <= allowance + tol + EPS, steps)

    branches = free_branches(order, motion.length, tol, steps,
                             lambda lookup: walk(mobility, features, stop, base.id, lookup), legal_odds)
    moving = {base.id}
    engaged = world.engaged_at_start(base)
    final = motion.final_rect()
    wheel = {e.id for e in engaged if full_contact(final, e.rect, world.gap, tol)}
    events = motion_events(world, motion, moving, wheel)
    end = world.clear_spot(base, motion.end, end_facing, moving, 2 * tol)
    if end is None:
        _crowded(world, motion, events)
    else:
        final = base.rect_at(end[0], end[1], end_facing)
    straight = motion.length - motion.chord <= tol + EPS
    obstacle = None if straight else _straight_obstacle(world, order, motion, mobility, steps)
    dx, dy = motion.end[0] - motion.start[0], motion.end[1] - motion.start[1]
    offset = local_offset(base.facing, dx, dy)
    flush = [e for e in world.enemies_near(final, world.gap + tol)
             if full_contact(final, e.rect, world.gap, tol)] if engaged else []
    before = world.contacts(base.rect, exact=False)
    new_contacts = [e for e in world.contacts(final, exact=False) if e not in before]
    return FreeAnalysis(
        order, base, motion, mobility, bonus, nearest, entered, features, branches, events, straight, obstacle,
        engaged, offset, flush, new_contacts, declared_rolls(order, world), tol, opts, (world.bf.width, world.bf.depth),
        advance_miss(base, motion.end, end_facing, tol) if engaged else 0.0, end, world.repeat(order),
    )


def _crowded(world: World, motion: Motion, events: Events) -> None:
    """No place near the declared end is clear: what the base ends overlapping there is what it cannot end on."""
    last = motion.last_segment
    for thing in world.overlapped(motion.final_rect(), {motion.base.id}):
        if isinstance(thing, Terrain):
            if all(t is not thing for t, _ in events.impassable):
                events.impassable.append((thing, last))
        elif thing.side == world.side:
            if thing not in events.friend_ends:
                events.friend_ends.append(thing)
        elif all(e is not thing for e, _ in events.enemy_hits):
            events.enemy_hits.append((thing, last))
    if events.leaves_field is None and not g.inside_field(motion.final_rect(), world.bf.field_polygon):
        events.leaves_field = last


def advance_miss(base: Base, end: Vec, end_facing: float, tol: float) -> float:
    """How far an end lies from every end a straight advance and/or a wheel about a front corner reaches (M10).

    Without a turn (a corner moves by at most ``tol``) the centre must move along the
    facing; with one, the front corner on the side it turns to is the pivot, and it
    may move only forward along the facing before the wheel and along the new one after.
    """
    turn = angle_diff(base.facing, end_facing)
    ahead = heading_vector(base.facing)
    if abs(math.radians(turn)) * base.half_diagonal <= tol + EPS:
        return ray_distance((end[0] - base.x, end[1] - base.y), ahead)
    left, _, _, right = g.base_corners(base.x, base.y, base.facing, base.width, base.depth)
    left1, _, _, right1 = g.base_corners(end[0], end[1], end_facing, base.width, base.depth)
    start, finish = (right, right1) if turn > 0 else (left, left1)
    return cone_distance((finish[0] - start[0], finish[1] - start[1]), ahead, heading_vector(end_facing))


def free_branches(order: Order, length: float, tol: float, steps: Steps, run: Callable[[Any], Walk],
                  legal_odds: Callable[[], Fraction]) -> Branches:
    """The roll combinations that decide whether a free move's length fits its allowance.

    The extremes come first: when even the lowest rolls leave too little
    allowance the move is too long whatever the rolls, and when even the
    highest leave enough it fits whatever they are.  A move that fits for some
    rolls only needs the condition and its probability: with one undeclared
    roll, every value of it; with several, the distribution of the allowance
    (:func:`rolls.odds`), not every combination.  Either may run
    out of the budget (SearchLimit).
    """
    low, dice = extreme(order.rolls, run, steps, high=False)
    if not low.assigned:
        return Branches([low], dice)  # every roll it meets is declared: one combination
    high, _ = extreme(order.rolls, run, steps, high=True)

    def fits(branch: Branch) -> bool:
        return bool(length <= branch.result.allowance + tol + EPS)

    if not fits(low) or fits(high):
        return Branches([low, high], dice, complete=False)
    if len(low.assigned) > 1:  # the lowest rolls meet every roll any combination meets
        return Branches([low, high], dice, complete=False, odds=legal_odds())
    return enumerate_rolls(order.rolls, run, steps)


def _straight_obstacle(world: World, order: Order, motion: Motion, mobility: float, steps: Steps) -> Obstacle | None:
    """What makes the straight line from start to end impossible (None: it is clear)."""
    base = motion.base
    straight = Motion(base, [motion.end], motion.end_facing)
    obstacle = motion_events(world, straight, {base.id}).first_obstacle()
    if obstacle is not None:
        return obstacle

    def entry(terrain: Terrain) -> float | None:
        hit = straight.entry(terrain.polygon, terrain.pieces)
        return hit[0] if hit is not None else None

    stop = straight.length - world.tol
    features = [f for f in world.features(base, entry, straight.region()) if f.e < stop - EPS]
    if not features:
        return None
    # the highest rolls leave the least allowance (see rolls.extreme): one walk decides
    worst, _ = extreme(order.rolls, lambda lookup: walk(mobility, features, stop, base.id, lookup), steps, high=True)
    if straight.length > worst.result.allowance + world.tol + EPS:
        return Obstacle("terrain", tuple(f.terrain.id for f in features))
    return None

