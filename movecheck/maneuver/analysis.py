"""What an order does on the battlefield: the facts the clauses judge.

:func:`analyse_free` follows a single base along its declared path;
:func:`analyse_corps` computes where every base of a corps must end under a
compulsory order (All ahead, All back, Move to landmark) — the maximum possible
distance per file — for every combination of undeclared rolls, and compares the
declared ends with it.  The clause modules (``checks/``) turn these facts into
findings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from shapely.geometry import Point
from shapely.ops import unary_union

from movecheck.maneuver import geometry as g
from movecheck.maneuver import plane
from movecheck.maneuver import sweep
from movecheck.maneuver.model import ORDER_NAMES, Base, Battlefield, Corps, Terrain, Vec, fmt, fmt_deg, fmt_xy
from movecheck.maneuver.motion import (
    EPS,
    Branch,
    Branches,
    Feature,
    Motion,
    Steps,
    Walk,
    enumerate_rolls,
    extreme,
    favourable,
    odds,
    front_flush,
    touching,
    walk,
)
from movecheck.maneuver.orders import Declared, Order


LANE_SHARE = 1e-6
"""A base follows another (same file) when their extents across the motion share more than this
fraction of its own extent; bases side by side touch along a line and share nothing."""


# --- the world an order is checked in ---------------------------------------------------


class World:
    """The battlefield as the earlier orders left it, seen from the side giving the orders."""

    def __init__(self, battlefield: Battlefield, side: str) -> None:
        self.bf = battlefield
        self.side = side
        self.options = battlefield.options
        self._index: g.SpatialIndex | None = None
        terrain = list(battlefield.terrain.values())
        self._terrain_index = g.SpatialIndex((t.id, t.polygon) for t in terrain) if terrain else None

    @property
    def tol(self) -> float:
        return self.options.tolerance

    @property
    def gap(self) -> float:
        return self.options.contact_gap

    def moved(self) -> None:
        """Forget the spatial index after bases moved."""
        self._index = None

    def index(self) -> g.SpatialIndex:
        if self._index is None:
            self._index = g.SpatialIndex((b.id, b.rect) for b in self.bf.all_bases())
        return self._index

    def bases_near(self, geom: Any, distance: float = 0.0) -> list[Base]:
        """Bases whose rectangles lie within ``distance`` of ``geom`` (STRtree query)."""
        return [self.bf.bases[k] for k in self.index().near(geom, distance)]

    def terrain_near(self, geom: Any) -> list[Terrain]:
        if self._terrain_index is None:
            return []
        return [self.bf.terrain[k] for k in self._terrain_index.near(geom, 0.0)]

    def prebattle(self, bases: list[Base]) -> tuple[bool, float | None]:
        """Whether every base is more than ``prebattle_distance`` from every enemy (M11), and the nearest such distance."""
        opts = self.options
        limit = opts.prebattle_distance
        nearest: float | None = None
        for base in bases:
            if opts.prebattle_measure == "centre":
                reach = limit + base.half_diagonal + max((e.half_diagonal for e in self.bf.enemies_of(self.side)), default=0.0)
                for other in self.bases_near(base.rect, reach):
                    if other.side != self.side:
                        d = math.dist(base.centre, other.centre)
                        if d <= limit + EPS:
                            nearest = d if nearest is None else min(nearest, d)
            else:
                for other in self.bases_near(base.rect, limit):
                    if other.side != self.side:
                        d = g.edge_distance(base.rect, other.rect)
                        nearest = d if nearest is None else min(nearest, d)
        return nearest is None, nearest

    def contacts(self, rect: Any, exact: bool = True) -> list[Base]:
        """Enemy bases touching ``rect`` (within the contact gap; ``exact=False`` allows the tolerance too)."""
        slack = self.gap + (0.0 if exact else self.tol)
        found = []
        for other in self.bases_near(rect, slack):
            if other.side == self.side:
                continue
            if exact and g.in_contact(rect, other.rect, self.gap):
                found.append(other)
            elif not exact and touching(rect, other.rect, self.gap, self.tol):
                found.append(other)
        return found

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

    def mobility_text(self, mobility: float, bonus: bool, nearest: float | None) -> str:
        """``mobility 8 + 2 pre-battle`` / ``mobility 8 (enemy 12.30 steps away: no pre-battle bonus)``."""
        base = f"mobility {fmt_num(mobility)}"
        if bonus:
            return f"{base} + {fmt_num(self.options.prebattle_bonus)} pre-battle"
        return f"{base}, no pre-battle bonus: an enemy is {fmt(nearest or 0.0)} steps away"


def fmt_num(value: float) -> str:
    """A number without needless decimals."""
    return str(int(value)) if float(value).is_integer() else fmt(value)


# --- declared rolls -----------------------------------------------------------------------


@dataclass
class RollEntry:
    """One declared roll and what is wrong with it (``code`` None: nothing)."""

    base_id: str
    terrain_id: str | None
    value: Any
    where: tuple[Any, ...]
    code: str | None = None
    message: str = ""


def judge_rolls(order: Order, world: World, front: dict[str, list[Feature]], moving: set[str],
                followers: dict[str, str]) -> list[RollEntry]:
    """MV302/MV303 facts for every declared roll: front bases roll for the features they enter."""
    entries: list[RollEntry] = []
    for base_id, value in sorted(order.raw_rolls.items()):
        where = order.where + ("rolls", base_id)
        items = sorted(value.items()) if isinstance(value, dict) else [(None, value)]
        for tid, roll in items:
            if not isinstance(roll, int) or isinstance(roll, bool):
                continue
            spot = where + ((tid,) if tid is not None else ())
            entry = RollEntry(base_id, tid, roll, spot)
            entries.append(entry)
            if base_id not in moving:
                entry.code = "MV303"
                entry.message = f"a roll for {base_id}, which this order does not move"
                continue
            if base_id in followers:
                entry.code = "MV303"
                entry.message = (
                    f"{base_id} is not a front base: it follows {followers[base_id]} and slows down with it; "
                    f"only front bases roll"
                )
                continue
            entered = front.get(base_id, [])
            if tid is None:
                if not entered:
                    entry.code = "MV303"
                    entry.message = f"{base_id} enters no difficult terrain on this move: no roll is owed"
                    continue
                feature = entered[0]
            else:
                terrain = world.bf.terrain.get(tid)
                if terrain is None:
                    continue
                if world.options.die_of_kind(terrain.kind) is None:
                    entry.code = "MV303"
                    entry.message = f"{terrain.label} costs no penalty roll"
                    continue
                matches = [f for f in entered if f.terrain.id == tid]
                if not matches:
                    entry.code = "MV303"
                    entry.message = f"{base_id} does not enter {terrain.label} on this move: no roll is owed for it"
                    continue
                feature = matches[0]
            if roll not in feature.dice:
                entry.code = "MV302"
                entry.message = (
                    f"{base_id}'s roll {roll} for {feature.terrain.label} is outside the range of "
                    f"{feature.die_name} ({feature.dice}: {feature.dice.low}..{feature.dice.high})"
                )
    return entries


# --- free moves -----------------------------------------------------------------------------


@dataclass
class Events:
    """What a base's motion runs into."""

    friend_passes: list[tuple[Base, float, int]] = field(default_factory=list)
    friend_ends: list[Base] = field(default_factory=list)
    enemy_hits: list[tuple[Base, int]] = field(default_factory=list)
    impassable: list[tuple[Terrain, int]] = field(default_factory=list)
    leaves_field: int | None = None

    def blocking(self) -> str | None:
        """Why this motion is not possible, or None."""
        if self.enemy_hits:
            return f"it would cross enemy {self.enemy_hits[0][0].id}"
        if self.impassable:
            return f"it would enter impassable {self.impassable[0][0].id}"
        if self.leaves_field is not None:
            return "it would leave the field"
        if self.friend_passes:
            return f"it would pass through more than half of friendly {self.friend_passes[0][0].id}"
        if self.friend_ends:
            return f"it would end on friendly {self.friend_ends[0].id}"
        return None


def motion_events(world: World, motion: Motion, moving: set[str], wheel: set[str] = frozenset()) -> Events:
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
    """A single base's free move (M3, M4) and everything it meets."""

    order: Order
    base: Base
    motion: Motion
    mobility: float
    bonus: bool
    nearest: float | None
    features: list[Feature]
    branches: Branches
    events: Events
    straight: bool
    straight_blocked: str | None
    engaged: list[Base]
    engaged_problem: str | None
    new_contacts: list[Base]
    rolls: list[RollEntry]
    tolerance: float
    mobility_text: str = ""
    field_size: tuple[float, float] = (0.0, 0.0)
    limit_text: str = "half of it"

    kind = "free"

    def path_at(self, segment: int) -> tuple[Any, ...]:
        """The doc path of the waypoint that ends a segment."""
        last = len(self.order.path) - 1
        return self.order.where + ("path", max(0, min(segment, last)))

    @property
    def end_where(self) -> tuple[Any, ...]:
        return self.path_at(len(self.order.path) - 1)

    def legal_length(self, branch: Branch) -> bool:
        return self.motion.length <= branch.result.allowance + self.tolerance + EPS


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
    steps = Steps()

    def legal_odds() -> Fraction:
        return odds(order.rolls, features, mobility, stop, base.id,
                    lambda allowance: motion.length <= allowance + tol + EPS, steps)

    branches = _free_branches(order, motion.length, tol, steps,
                              lambda lookup: walk(mobility, features, stop, base.id, lookup), legal_odds)
    moving = {base.id}
    engaged = world.contacts(base.rect)
    final = motion.final_rect()
    wheel = {e.id for e in engaged if front_flush(final, end_facing, e.rect, world.gap, tol)}
    events = motion_events(world, motion, moving, wheel)
    straight = motion.length - motion.chord <= tol + EPS
    straight_blocked = None if straight else _straight_blocked(world, order, motion, mobility, steps)
    engaged_problem = _engaged_free(world, motion, engaged, straight) if engaged else None
    before = world.contacts(base.rect, exact=False)
    new_contacts = [e for e in world.contacts(final, exact=False) if e not in before]
    rolls = judge_rolls(order, world, {base.id: entered}, moving, {})
    return FreeAnalysis(
        order, base, motion, mobility, bonus, nearest, features, branches, events, straight, straight_blocked,
        engaged, engaged_problem, new_contacts, rolls, tol, world.mobility_text(base.mobility, bonus, nearest),
        (world.bf.width, world.bf.depth), _limit_text(opts.pass_through_limit),
    )


def _free_branches(order: Order, length: float, tol: float, steps: Steps, run: Callable[[Any], Walk],
                   legal_odds: Callable[[], Fraction]) -> Branches:
    """The roll combinations MV101 judges a free move's length by.

    The extremes come first: when even the lowest rolls leave too little
    allowance the move is illegal whatever the rolls, and when even the
    highest leave enough it is legal whatever they are.  A move legal for some
    rolls only needs the condition and its probability: with one undeclared
    roll, every value of it; with several, the distribution of the allowance
    (:func:`motion.odds`), not every combination.  Either may run out of the
    budget (SearchLimit).
    """
    low, dice = extreme(order.rolls, run, steps, high=False)
    if not low.assigned:
        return Branches([low], dice)  # every roll it meets is declared: one combination
    high, _ = extreme(order.rolls, run, steps, high=True)

    def fits(branch: Branch) -> bool:
        return length <= branch.result.allowance + tol + EPS

    if not fits(low) or fits(high):
        return Branches([low, high], dice, complete=False)
    if len(low.assigned) > 1:  # the lowest rolls meet every roll any combination meets
        keys = sorted(low.assigned)
        return Branches([low, high], dice, complete=False, odds=(favourable(keys, dice), legal_odds()))
    return enumerate_rolls(order.rolls, run, steps)


def _limit_text(limit: float) -> str:
    if abs(limit - 0.5) <= EPS:
        return "half of it"
    return f"{fmt_num(limit)} of it, option pass_through_limit"


def _straight_blocked(world: World, order: Order, motion: Motion, mobility: float, steps: Steps) -> str | None:
    """Why the straight line from start to end is not possible (None: it is clear)."""
    base = motion.base
    straight = Motion(base, [motion.end], motion.end_facing)
    reason = motion_events(world, straight, {base.id}).blocking()
    if reason is not None:
        return reason

    def entry(terrain: Terrain) -> float | None:
        hit = straight.entry(terrain.polygon, terrain.pieces)
        return hit[0] if hit is not None else None

    stop = straight.length - world.tol
    features = [f for f in world.features(base, entry, straight.region()) if f.e < stop - EPS]
    if not features:
        return None
    # the highest rolls leave the least allowance (see motion.extreme): one walk decides
    worst, _ = extreme(order.rolls, lambda lookup: walk(mobility, features, stop, base.id, lookup), steps, high=True)
    if straight.length > worst.result.allowance + world.tol + EPS:
        names = ", ".join(f.terrain.id for f in features)
        return f"the straight line through {names} may cost more than the allowance"
    return None


def _engaged_free(world: World, motion: Motion, engaged: list[Base], straight: bool) -> str | None:
    """M10: a base in contact may only go forward into full contact or straight back."""
    base = motion.base
    tol = world.tol
    dx, dy = motion.end[0] - motion.start[0], motion.end[1] - motion.start[1]
    forward, right = plane.local_offset(base.facing, dx, dy)
    rotated = abs(math.radians(motion.turn)) * base.half_diagonal > tol
    if math.hypot(dx, dy) <= tol and not rotated:
        return None
    if straight and forward < 0 and abs(right) <= tol and not rotated:
        return None  # straight back
    final = motion.final_rect()
    flush = [e for e in world.bases_near(final, world.gap + tol) if e.side != world.side
             and front_flush(final, motion.end_facing, e.rect, world.gap, tol)]
    if forward >= -tol and flush:
        return None  # forward into full contact
    names = ", ".join(e.id for e in engaged)
    if forward >= -tol:
        what = "its front edge does not end flush with an enemy base"
    else:
        what = "it does not go straight back" if (abs(right) > tol or rotated or not straight) else "it goes back"
    return (
        f"{base.id} is in contact with {names} at the start: it may only move forward into full contact "
        f"or straight back; {what}"
    )


# --- corps orders ----------------------------------------------------------------------------


@dataclass
class File:
    """A front base and the bases behind it in the direction of motion."""

    index: int
    members: list[Base]
    features: list[Feature] = field(default_factory=list)
    stop: float = math.inf
    stop_reason: str = ""
    chords: list[tuple[float, float, str, str]] = field(default_factory=list)

    @property
    def front(self) -> Base:
        return self.members[0]


@dataclass
class FileResult:
    """Where one file ends in one combination of rolls, and why."""

    distance: float
    walk: Walk
    why: str


@dataclass
class Group:
    """Files whose end positions depend on the same rolls (one file, or the whole corps)."""

    files: list[File]
    branches: Branches
    legal: list[bool] = field(default_factory=list)

    @property
    def bases(self) -> list[Base]:
        return [b for f in self.files for b in f.members]


@dataclass
class BaseVerdict:
    """How a base's declared end compares with where it must end."""

    base: Base
    code: str
    message: str
    where: tuple[Any, ...]


@dataclass
class CorpsAnalysis:
    """A compulsory order of a corps: the required ends and how the declared ones compare."""

    order: Order
    corps: Corps
    direction: Vec | None
    mobility: float
    bonus: bool
    nearest: float | None
    start_allowance: float
    horizon: float
    cap: float | None
    files: list[File]
    groups: list[Group]
    rolls: list[RollEntry]
    tolerance: float
    engaged: dict[str, list[Base]] = field(default_factory=dict)
    direction_problem: tuple[str, tuple[Any, ...]] | None = None
    rotation_problem: tuple[str, tuple[Any, ...]] | None = None
    engaged_problem: str | None = None
    verdicts: list[BaseVerdict] = field(default_factory=list)
    undecided: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    placement: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    new_contacts: dict[str, list[Base]] = field(default_factory=dict)
    suggestion: dict[str, Vec] | None = None
    needed_rolls: list[tuple[str, str, str, str]] = field(default_factory=list)

    kind = "corps"

    @property
    def order_name(self) -> str:
        return ORDER_NAMES[self.order.kind]

    def file_of(self, base_id: str) -> File:
        for f in self.files:
            if any(b.id == base_id for b in f.members):
                return f
        raise KeyError(base_id)

    def expected(self, base: Base, distance: float) -> Vec:
        if self.direction is None:
            return base.centre
        return (base.x + self.direction[0] * distance, base.y + self.direction[1] * distance)


def build_files(bases: list[Base], direction: Vec) -> list[File]:
    """Split a corps into files along ``direction``: each base follows the base ahead that shares its lane."""
    dx, dy = direction
    px, py = dy, -dx
    info = []
    for b in bases:
        corners = list(b.rect.exterior.coords)[:-1]
        across = [x * px + y * py for x, y in corners]
        info.append((b, b.x * dx + b.y * dy, min(across), max(across)))
    info.sort(key=lambda item: (-item[1], item[2], item[0].id))
    file_of: dict[str, int] = {}
    files: list[File] = []
    placed: list[tuple[Base, float, float, float]] = []
    for b, along, lo, hi in info:
        best = None
        for other, o_along, o_lo, o_hi in placed:
            if o_along <= along + EPS:
                continue
            shared = min(hi, o_hi) - max(lo, o_lo)
            if shared > LANE_SHARE * (hi - lo):
                key = (-shared, o_along - along)
                if best is None or key < best[0]:
                    best = (key, other)
        if best is None:
            file_of[b.id] = len(files)
            files.append(File(len(files), [b]))
        else:
            file_of[b.id] = file_of[best[1].id]
            files[file_of[b.id]].members.append(b)
        placed.append((b, along, lo, hi))
    return files


def landmark_target(world: World, order: Order) -> tuple[Any, str] | None:
    """The landmark's shape and its description."""
    mark = order.landmark
    if mark is None:
        return None
    if mark.point is not None:
        return Point(mark.point), mark.describe()
    if mark.terrain is not None:
        terrain = world.bf.terrain[mark.terrain]
        return terrain.polygon, f"{terrain.label}"
    corps = world.bf.corps[mark.corps]
    return unary_union([b.rect for b in corps.bases]), f"corps {corps.id}"


def analyse_corps(world: World, order: Order) -> CorpsAnalysis:
    """Where each base of the corps must end, for every combination of undeclared rolls."""
    corps = order.corps
    assert corps is not None
    opts = world.options
    tol = world.tol
    kind = order.kind
    bonus, nearest = world.prebattle(corps.bases)
    mobility = corps.mobility + (opts.prebattle_bonus if bonus else 0.0)
    start = mobility / 2.0 if kind == "all_back" and opts.back_distance == "half_of_mobility" else mobility
    direction: Vec | None = None
    cap: float | None = None
    landmark_corps: str | None = None
    problem: tuple[str, tuple[Any, ...]] | None = None
    if kind == "all_ahead":
        direction = plane.heading_vector(corps.facing)
    elif kind == "all_back":
        hx, hy = plane.heading_vector(corps.facing)
        direction = (-hx, -hy)
    else:
        target = landmark_target(world, order)
        assert target is not None
        shape, _ = target
        if order.landmark is not None and order.landmark.corps is not None:
            landmark_corps = order.landmark.corps
        if landmark_corps == corps.id:
            problem = (f"{corps.id} cannot move towards itself", order.where + ("landmark",))
        else:
            ref = corps.reference
            point = g.nearest_point(shape, ref)
            cap = math.dist(ref, point)
            if cap > EPS:
                direction = ((point[0] - ref[0]) / cap, (point[1] - ref[1]) / cap)
    horizon = start if cap is None else min(start, cap)
    files = build_files(corps.bases, direction) if direction is not None else [File(i, [b]) for i, b in enumerate(corps.bases)]
    moving = {b.id for b in corps.bases}
    if direction is not None:
        for file in files:
            _file_obstacles(world, file, direction, horizon, moving, landmark_corps)
            front = file.front
            region = sweep.swept_straight(front.rect, direction, horizon) if horizon > EPS else front.rect

            def entry(terrain: Terrain, front: Base = front) -> float | None:
                return sweep.entry_distance(front.rect, terrain.polygon, direction, horizon, pieces=terrain.pieces)

            file.features = [f for f in world.features(front, entry, region) if f.e < min(horizon, file.stop) - EPS]
    else:
        for file in files:
            file.stop, file.stop_reason = 0.0, "it is at the landmark"
    halve = kind == "all_back" and opts.back_distance == "half_of_max"
    group_files = [files] if opts.corps_penalty == "whole_corps" else [[f] for f in files]
    groups = []
    steps = Steps()  # one budget for the whole order, however many groups
    for members in group_files:
        run = _group_runner(world, members, start, horizon, halve, mobility, bonus, nearest, cap, kind)
        groups.append(Group(members, enumerate_rolls(order.rolls, run, steps, cost=len(members))))
    followers = {b.id: f.front.id for f in files for b in f.members[1:]}
    entered = {f.front.id: f.features for f in files}
    rolls = judge_rolls(order, world, entered, moving, followers)
    engaged = {b.id: world.contacts(b.rect) for b in corps.bases}
    engaged = {k: v for k, v in engaged.items() if v}
    analysis = CorpsAnalysis(
        order, corps, direction, mobility, bonus, nearest, start, horizon, cap, files, groups, rolls, tol, engaged,
    )
    analysis.direction_problem = problem
    if kind == "to_landmark" and engaged and direction is not None and problem is None:
        analysis.engaged_problem = _engaged_landmark(analysis, horizon)
    _compare(world, analysis)
    return analysis


def _file_obstacles(world: World, file: File, direction: Vec, horizon: float, moving: set[str],
                    landmark_corps: str | None) -> None:
    """Where the file is stopped by enemies, friends it cannot pass, impassable terrain or the field edge."""
    opts = world.options
    stop, reason = horizon, ""
    if horizon <= EPS:
        file.stop, file.stop_reason = 0.0, ""
        return
    for member in file.members:
        rect = member.rect
        swept = sweep.swept_straight(rect, direction, horizon)
        for other in world.bases_near(swept, world.gap):
            if other.id in moving:
                continue
            if other.side != world.side or other.corps == landmark_corps:
                if g.edge_distance(rect, other.rect) <= world.gap + EPS:
                    t = sweep.entry_distance(rect, other.rect, direction, horizon)
                else:
                    t = sweep.contact_distance(rect, other.rect, direction, horizon)
                what = f"contact with enemy {other.id}" if other.side != world.side else f"contact with {other.id} of the landmark corps"
            else:
                chord = sweep.translation_chord(rect, other.rect, np.asarray(plane.unit(direction)))
                if chord is None or chord[1] <= EPS or chord[0] >= horizon - EPS:
                    continue
                lo, hi = max(chord[0], 0.0), chord[1]
                file.chords.append((lo, hi, member.id, other.id))
                if sweep.max_overlap_along(rect, other.rect, direction, horizon) <= opts.pass_through_limit * member.area + EPS:
                    continue
                t = lo
                what = f"friendly {other.id}, which it cannot pass (more than half of {member.id} would overlap it)"
            if t is not None and t < stop - EPS:
                stop, reason = t, f"{what} ({member.id})" if member is not file.front else what
        for terrain in world.terrain_near(swept):
            if terrain.kind != "impassable":
                continue
            t = sweep.entry_distance(rect, terrain.polygon, direction, horizon, pieces=terrain.pieces)
            if t is not None and t < stop - EPS:
                stop, reason = t, f"impassable {terrain.id}"
        t = sweep.leave_distance(rect, world.bf.field_polygon, direction, horizon)
        if t is not None and t < stop - EPS:
            stop, reason = t, "the field edge"
    file.stop, file.stop_reason = max(stop, 0.0), reason


def _settle(file: File, distance: float) -> tuple[float, str]:
    """The distance moved back to the last place where no base of the file ends on a stationary friend."""
    reason = ""
    changed = True
    while changed:
        changed = False
        for lo, hi, member, friend in file.chords:
            if lo + EPS < distance < hi - EPS:
                distance, reason = lo, f"it may not end on friendly {friend} ({member})"
                changed = True
    return distance, reason


def _group_runner(world: World, files: list[File], start: float, horizon: float, halve: bool, mobility: float,
                  bonus: bool, nearest: float | None, cap: float | None, kind: str) -> Callable[[Any], dict[int, FileResult]]:
    opts = world.options
    base_text = world.mobility_text(mobility - (opts.prebattle_bonus if bonus else 0.0), bonus, nearest)
    if abs(start - mobility) > EPS:
        base_text += ", halved"

    def run(lookup: Any) -> dict[int, FileResult]:
        walks = {f.index: walk(start, f.features, f.stop, f.front.id, lookup) for f in files}
        common = min(w.allowance for w in walks.values()) if opts.corps_penalty == "whole_corps" else None
        results = {}
        for f in files:
            w = walks[f.index]
            allowance = common if common is not None else w.allowance
            parts = [f"allowance {w.explain(start)} ({base_text})"]
            if common is not None and common < w.allowance - EPS:
                parts.append(f"the slowest file sets the pace: {fmt(common)}")
            distance = min(allowance, horizon)
            if cap is not None and cap <= allowance + EPS and cap <= f.stop + EPS:
                parts.append(f"the reference point reaches the landmark after {fmt(cap)}")
            if f.stop < distance - EPS:
                distance = f.stop
                parts.append(f"stopped after {fmt(f.stop)} by {f.stop_reason}")
            distance, why = _settle(f, distance)
            if why:
                parts.append(f"{why}: {fmt(distance)}")
            if halve:
                parts.append(f"half of the maximum {fmt(distance)}")
                distance, why = _settle(f, distance / 2.0)
                if why:
                    parts.append(f"{why}: {fmt(distance)}")
            results[f.index] = FileResult(max(distance, 0.0), w, "; ".join(parts))
        return results

    return run


def _engaged_landmark(analysis: CorpsAnalysis, horizon: float) -> str | None:
    """M10: an engaged corps moves to a landmark only when that is straight forward or back."""
    d = analysis.direction
    hx, hy = plane.heading_vector(analysis.corps.facing)
    cross = abs(d[0] * hy - d[1] * hx)
    if cross * horizon <= analysis.tolerance + EPS:
        return None
    names = sorted({e.id for v in analysis.engaged.values() for e in v})
    bearing = plane.bearing_of(d)
    return (
        f"{analysis.corps.id} is in contact with {', '.join(names)} at the start: it may only move straight forward "
        f"({fmt_deg(analysis.corps.facing)}°) or straight back, but the landmark lies towards {fmt_deg(bearing)}°"
    )


def _rotation(base: Base, declared: Declared, tol: float) -> float | None:
    """The declared rotation of a base when it moves a corner by more than the tolerance."""
    if declared.facing is None:
        return None
    turn = plane.angle_diff(base.facing, declared.facing)
    return turn if abs(math.radians(turn)) * base.half_diagonal > tol + EPS else None


def _compare(world: World, a: CorpsAnalysis) -> None:
    """Compare declared ends with the required ones: direction, rotation, per-base verdicts, placement."""
    tol = a.tolerance
    order = a.order
    declared = order.end
    bases = a.corps.bases
    # rotation (MV203 for the whole corps, MV301 for some bases)
    turns = {b.id: _rotation(b, declared[b.id], tol) for b in bases if b.id in declared}
    rotated = {k: v for k, v in turns.items() if v is not None}
    rotation_verdicts = []
    if rotated:
        first = next(b for b in bases if b.id in rotated)
        same = len(rotated) == len(bases) and all(
            abs(math.radians(plane.angle_diff(rotated[first.id], v))) * first.half_diagonal <= tol + EPS for v in rotated.values()
        )
        if same:
            a.rotation_problem = (
                f"{a.order_name} does not turn the corps: {a.corps.id} faces {fmt_deg(a.corps.facing)}° and must keep "
                f"facing it, but its bases are declared facing {fmt_deg(declared[first.id].facing)}°",
                declared[first.id].where + ("facing",),
            )
        else:
            for b in bases:
                if b.id in rotated:
                    rotation_verdicts.append(BaseVerdict(
                        b, "MV301",
                        f"{b.id} is declared facing {fmt_deg(declared[b.id].facing)}° while its corps keeps facing "
                        f"{fmt_deg(b.facing)}°: the bases of a corps keep their orientation",
                        declared[b.id].where + ("facing",),
                    ))
    # direction (MV201)
    listed = [b for b in bases if b.id in declared]
    if a.direction_problem is None and a.direction is not None and listed:
        moves = [(declared[b.id].x - b.x, declared[b.id].y - b.y) for b in listed]
        alongs = [mx * a.direction[0] + my * a.direction[1] for mx, my in moves]
        acrosses = [mx * a.direction[1] - my * a.direction[0] for mx, my in moves]
        dx = sum(m[0] for m in moves) / len(moves)
        dy = sum(m[1] for m in moves) / len(moves)
        sideways = all(c > tol + EPS for c in acrosses) or all(c < -tol - EPS for c in acrosses)
        backwards = all(v < -tol - EPS for v in alongs)
        if sideways or backwards:
            way = {"all_ahead": "strictly forward", "all_back": "strictly back"}.get(order.kind, "straight towards the landmark")
            a.direction_problem = (
                f"{a.corps.id} is declared moving towards {fmt_deg(plane.bearing_of((dx, dy)))}° "
                f"({fmt(math.hypot(dx, dy))} steps), but {a.order_name} moves it {way}, towards "
                f"{fmt_deg(plane.bearing_of(a.direction))}°",
                order.where + ("end",),
            )
    # per group: which roll combinations make the declared ends right
    for group in a.groups:
        group.legal = [
            all(b.id in declared and _close(declared[b.id], a.expected(b, br.result[a.file_of(b.id).index].distance), tol)
                for b in group.bases)
            for br in group.branches.items
        ]
    if a.direction_problem is None and a.rotation_problem is None and a.engaged_problem is None:
        a.verdicts.extend(rotation_verdicts)
        for group in a.groups:
            _group_verdicts(a, group)
    _place(world, a)


def _close(declared: Declared, expected: Vec, tol: float) -> bool:
    return math.dist((declared.x, declared.y), expected) <= tol + EPS


def _group_verdicts(a: CorpsAnalysis, group: Group) -> None:
    tol = a.tolerance
    declared = a.order.end
    items = group.branches.items
    if any(group.legal):
        if not all(group.legal):
            from movecheck.maneuver.motion import condition
            from movecheck.maneuver.dice import describe_probability

            text, p = condition(group.branches, lambda br: group.legal[items.index(br)])
            names = ", ".join(b.id for b in group.bases)
            where = declared[group.files[0].front.id].where if group.files[0].front.id in declared else a.order.where + ("end",)
            whose = f"{names}'s declared end is" if len(group.bases) == 1 else f"the declared ends of {names} are"
            spans = []
            for file in group.files:
                ds = sorted({round(br.result[file.index].distance, 9) for br in items})
                if len(ds) > 1:
                    near, far = a.expected(file.front, ds[0]), a.expected(file.front, ds[-1])
                    spans.append(f"{file.front.id} ends between {fmt_xy(near)} and {fmt_xy(far)}")
            span = f"; depending on the roll {', '.join(spans)}" if spans else ""
            a.undecided.append((f"{whose} right only if {text} ({describe_probability(p)}){span}; declare the roll", where))
        return
    # wrong for every roll: find the branch closest to what was declared
    def distance_off(br: Branch) -> float:
        return sum(
            math.dist((declared[b.id].x, declared[b.id].y), a.expected(b, br.result[a.file_of(b.id).index].distance))
            for b in group.bases if b.id in declared
        )

    best = min(items, key=distance_off)
    for file in group.files:
        res = best.result[file.index]
        devs = {}
        for b in file.members:
            if b.id not in declared:
                continue
            exp = a.expected(b, res.distance)
            ddx, ddy = declared[b.id].x - exp[0], declared[b.id].y - exp[1]
            if a.direction is not None:
                along = ddx * a.direction[0] + ddy * a.direction[1]
                across = ddx * a.direction[1] - ddy * a.direction[0]
            else:
                along, across = math.hypot(ddx, ddy), 0.0
            devs[b.id] = (along, across)
        alongs = [v[0] for v in devs.values()]
        as_one = all(abs(v[1]) <= tol + EPS for v in devs.values()) and (not alongs or max(alongs) - min(alongs) <= tol + EPS)
        for b in file.members:
            if b.id not in declared:
                a.verdicts.append(BaseVerdict(
                    b, "MV202",
                    f"no end is declared for {b.id}: {a.order_name} takes it to {_expected_text(a, b, group, res)}",
                    a.order.where + ("end",),
                ))
                continue
            dec = declared[b.id]
            exp = a.expected(b, res.distance)
            if math.dist((dec.x, dec.y), exp) <= tol + EPS:
                continue
            if as_one:
                along = devs[b.id][0]
                how = f"{fmt(abs(along))} steps {'beyond' if along > 0 else 'short of'} where it must end"
                if a.direction is None:
                    how = f"{fmt(abs(along))} steps from where it must stay"
                a.verdicts.append(BaseVerdict(
                    b, "MV202",
                    f"{b.id} is declared at {fmt_xy((dec.x, dec.y))}, {how}: {a.order_name} takes it to "
                    f"{_expected_text(a, b, group, res)}",
                    dec.where,
                ))
            else:
                a.verdicts.append(BaseVerdict(
                    b, "MV301",
                    f"{b.id} is declared at {fmt_xy((dec.x, dec.y))}, out of its place in the formation: it keeps its "
                    f"position in the file of {file.front.id} and must end at {fmt_xy(exp)}, "
                    f"{fmt(math.dist((dec.x, dec.y), exp))} steps away; {res.why}",
                    dec.where,
                ))


def _expected_text(a: CorpsAnalysis, b: Base, group: Group, res: FileResult) -> str:
    """``(50.00, 36.00) (allowance ...)`` or the range over the undeclared rolls."""
    items = group.branches.items
    file = a.file_of(b.id)
    distances = sorted({round(br.result[file.index].distance, 9) for br in items})
    if len(distances) > 1:
        from movecheck.maneuver.motion import roll_ranges

        near, far = a.expected(b, distances[0]), a.expected(b, distances[-1])
        return f"between {fmt_xy(near)} and {fmt_xy(far)} depending on {roll_ranges(group.branches)}"
    return f"{fmt_xy(a.expected(b, res.distance))}: {res.why}"


def _place(world: World, a: CorpsAnalysis) -> None:
    """Where the bases stand after the order (a declared end within tolerance is the required one)."""
    declared = a.order.end
    tol = a.tolerance
    suggestion: dict[str, Vec] | None = {}
    for group in a.groups:
        items = group.branches.items
        legal = [br for br, ok in zip(items, group.legal) if ok]
        pool = legal or items
        chosen = max(pool, key=lambda br: (br.probability, -len(br.assigned))) if pool else None
        if len(items) != 1:
            suggestion = None
            for key in group.branches.keys:
                die_name, dice = group.branches.dice[key]
                a.needed_rolls.append((key[0], key[1], die_name, str(dice)))
        for b in group.bases:
            exp = a.expected(b, chosen.result[a.file_of(b.id).index].distance) if chosen is not None else b.centre
            if suggestion is not None:
                suggestion[b.id] = exp
            dec = declared.get(b.id)
            if dec is None:
                a.placement[b.id] = (exp[0], exp[1], b.facing)
            elif _close(dec, exp, tol):
                facing = dec.facing if dec.facing is not None and _rotation(b, dec, tol) is not None else b.facing
                a.placement[b.id] = (exp[0], exp[1], facing)
            else:
                a.placement[b.id] = (dec.x, dec.y, dec.facing if dec.facing is not None else b.facing)
    a.suggestion = suggestion
    for b in a.corps.bases:
        x, y, facing = a.placement[b.id]
        rect = b.rect_at(x, y, facing)
        before = set(e.id for e in world.contacts(b.rect, exact=False))
        new = [e for e in world.contacts(rect, exact=False) if e.id not in before]
        if new:
            a.new_contacts[b.id] = new
