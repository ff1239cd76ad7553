"""The facts of a compulsory corps order (M1, M5, M6, M8, M9): All ahead, All back, Move to landmark.

:func:`analyse_corps` computes where every base of the corps must end — the
maximum possible distance per file — for every combination of undeclared rolls,
then compares the declared ends with it: which combinations they match, which
one they lie nearest, which bases they turn.  From that it places the bases for
the next order.  No verdicts and no words: those are the clauses'
(:mod:`movecheck.maneuver.checks`, the shared comparisons in ``checks/ends.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from shapely.geometry import Point
from shapely.ops import unary_union

from movecheck.maneuver import geometry as g
from movecheck.maneuver import sweep
from movecheck.maneuver.corps_files import File, Settled, build_files, file_obstacles, pin, settle
from movecheck.maneuver.model import Base, Corps, Terrain, Vec
from movecheck.maneuver.orders import Declared, Order
from movecheck.maneuver.plane import EPS, angle_diff, heading_vector
from movecheck.maneuver.rolls import (
    Branch,
    Branches,
    Feature,
    Pooled,
    Steps,
    Walk,
    by_slowest,
    enumerate_rolls,
    pool_walk,
    walk,
)
from movecheck.maneuver.world import DeclaredRoll, Obstacle, Repeat, World, declared_rolls


@dataclass
class FileResult:
    """Where one file ends in one combination of rolls, and each step that decided it.

    In order: its allowance walk; the slowest file's allowance when that sets a
    lower pace (``corps_penalty: whole_corps``); the distance after which the
    reference point reaches the landmark; where an obstacle stops it; ``held``:
    an engaged base of the file that the allowance does not take into full
    contact keeps it in place; a move back off a friend; for All back the
    maximum that is halved, and a move back off a friend after halving.
    ``distance`` is the result.
    """

    distance: float
    walk: Walk
    pace: float | None = None
    landmark_after: float | None = None
    stopped_after: float | None = None
    stopped_by: Obstacle | None = None
    held: Obstacle | None = None
    settled: Settled | None = None
    halved_from: float | None = None
    settled_half: Settled | None = None


@dataclass
class Group:
    """Files whose end positions depend on the same rolls (one file, or the whole corps).

    ``matches[i]``: whether the declared ends are the required ones under the
    roll combination ``branches.items[i]``; ``closest``: when none matches, the
    combination whose required ends lie nearest the declared ones.
    """

    files: list[File]
    branches: Branches
    found: list[bool] = field(default_factory=list)
    """Whether the declared ends are the required ones, per branch of ``branches.outcomes``."""
    closest: Branch | None = None
    _place: dict[int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def bases(self) -> list[Base]:
        return [b for f in self.files for b in f.members]

    @property
    def matches(self) -> list[bool]:
        """:attr:`found` per combination (``branches.items``)."""
        branches = self.branches
        if not isinstance(branches, Pooled):
            return self.found
        return [self.found[branches.pool_of(br)] for br in branches.items]

    def match(self, branch: Branch) -> bool:
        """Whether the declared ends are the required ones under ``branch`` (a combination or an outcome)."""
        branches = self.branches
        if isinstance(branches, Pooled):
            return self.found[branches.pool_of(branch)]
        if self._place is None:  # by identity: list.index compared every branch (issue 37)
            self._place = {id(item): k for k, item in enumerate(branches.items)}
        k = self._place.get(id(branch))
        return self.found[k if k is not None else branches.items.index(branch)]


@dataclass
class CorpsAnalysis:
    """A compulsory order of a corps: the required ends and how the declared ones relate to them.

    ``direction`` is the unit vector of the motion (None: a landmark the corps
    already stands on, or the corps itself: ``towards_itself``).  ``mobility``
    is the corps' smallest mobility plus the pre-battle bonus when it gets it
    (``bonus``), ``start_allowance`` the allowance its files start with (halved
    for All back under ``back_distance: half_of_mobility``), ``horizon`` the
    furthest any file could go, ``cap`` the distance from the reference point
    to the landmark.  ``engaged`` maps bases to the enemies they touch at the
    start of the turn (M10; ``repeat``: an earlier order of the file moves some
    of them); ``turned`` maps the bases whose declared facing turns them (a corner
    moves by more than ``tolerance``) to the declared turn in degrees.
    ``placement`` is where each base stands after the order, ``required_ends`` the
    required ends when no undeclared roll decides them (None otherwise; then
    ``needed_rolls`` lists the rolls to declare first: those every combination
    meets; a later one may be owed or not depending on them), ``new_contacts`` the enemies a base
    touches at its end and not before.  ``entered_by`` holds the difficult
    terrain each front base reaches for some combination of rolls (it owes
    their rolls), ``short_of`` the terrain ahead of it that the earlier
    penalties keep it from reaching, with the largest allowance any
    combination leaves.
    """

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
    rolls: list[DeclaredRoll]
    tolerance: float
    options: Any
    towards_itself: bool = False
    followers: dict[str, str] = field(default_factory=dict)
    entered_by: dict[str, list[Feature]] = field(default_factory=dict)
    short_of: dict[str, list[tuple[Feature, float]]] = field(default_factory=dict)
    engaged: dict[str, list[Base]] = field(default_factory=dict)
    turned: dict[str, float] = field(default_factory=dict)
    placement: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    placed_rects: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Each base's rectangle at its :attr:`placement` (built for its new contacts; the base takes it when placed)."""
    new_contacts: dict[str, list[Base]] = field(default_factory=dict)
    required_ends: dict[str, Vec] | None = None
    needed_rolls: list[tuple[str, str, str, str]] = field(default_factory=list)
    repeat: Repeat | None = None
    _file_of: dict[str, File] | None = field(default=None, repr=False, compare=False)

    kind: ClassVar[Literal["corps"]] = "corps"

    @property
    def moving(self) -> set[str]:
        """The bases this order moves."""
        return {b.id for b in self.corps.bases}

    def file_of(self, base_id: str) -> File:
        """The file a base of the corps moves in (KeyError for another base; the files are split once, before)."""
        if self._file_of is None:
            self._file_of = {}
            for f in self.files:
                for b in f.members:
                    self._file_of.setdefault(b.id, f)  # the first file naming it, as the files were searched
        return self._file_of[base_id]

    def expected(self, base: Base, distance: float) -> Vec:
        """Where a base ends when its file moves ``distance``."""
        if self.direction is None:
            return base.centre
        return (base.x + self.direction[0] * distance, base.y + self.direction[1] * distance)


def landmark_shape(world: World, order: Order) -> Any:
    """The landmark's shape (a point, a terrain polygon, or the union of a corps' bases)."""
    mark = order.landmark
    if mark is None:
        return None
    if mark.point is not None:
        return Point(mark.point)
    if mark.terrain is not None:
        return world.bf.terrain[mark.terrain].polygon
    assert mark.corps is not None  # a landmark is a point, a terrain or a corps
    return unary_union([b.rect for b in world.bf.corps[mark.corps].bases])


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
    towards_itself = False
    if kind == "all_ahead":
        direction = heading_vector(corps.facing)
    elif kind == "all_back":
        hx, hy = heading_vector(corps.facing)
        direction = (-hx, -hy)
    else:
        shape = landmark_shape(world, order)
        assert shape is not None
        if order.landmark is not None and order.landmark.corps is not None:
            landmark_corps = order.landmark.corps
        towards_itself = landmark_corps == corps.id
        if not towards_itself:
            ref = corps.reference
            point = g.nearest_point(shape, ref)
            cap = math.dist(ref, point)
            if cap > EPS:
                direction = ((point[0] - ref[0]) / cap, (point[1] - ref[1]) / cap)
    horizon = start if cap is None else min(start, cap)
    if direction is not None:
        files = build_files(corps.bases, direction)
    else:
        files = [File(i, [b]) for i, b in enumerate(corps.bases)]
    moving = {b.id for b in corps.bases}
    engaged = {b.id: found for b in corps.bases if (found := world.engaged_at_start(b))}
    if direction is not None:
        ahead = heading_vector(corps.facing)
        backwards = direction[0] * ahead[0] + direction[1] * ahead[1] < -EPS  # engaged bases go back with it
        for file in files:
            file_obstacles(world, file, direction, horizon, moving, landmark_corps)
            if not backwards:
                pin(world, file, direction, engaged)
            front = file.front
            region = (file.swept if file.swept is not None else sweep.swept_straight(front.rect, direction, horizon)
                      ) if horizon > EPS else front.rect

            def entry(terrain: Terrain, front: Base = front) -> float | None:
                return sweep.entry_distance(front.rect, terrain.polygon, direction, horizon, pieces=terrain.pieces)

            file.features = [f for f in world.features(front, entry, region) if f.e < min(horizon, file.stop) - EPS]
    else:
        for file in files:
            file.stop, file.stop_by = 0.0, Obstacle("at_landmark")
    halve = kind == "all_back" and opts.back_distance == "half_of_max"
    group_files = [files] if opts.corps_penalty == "whole_corps" else [[f] for f in files]
    groups = []
    steps = Steps.for_order()  # one budget for the whole order, however many groups
    for members in group_files:
        run = _group_runner(files=members, start=start, horizon=horizon, halve=halve, cap=cap,
                            whole_corps=opts.corps_penalty == "whole_corps")
        walkers = [_walker(f, start) for f in members]
        slowest = by_slowest(order.rolls, walkers, run, steps) if len(members) > 1 else None
        if slowest is None and len(members) == 1:
            slowest = _one_file(order, members[0], start, steps, horizon=horizon, halve=halve, cap=cap)
        groups.append(Group(members, slowest or enumerate_rolls(order.rolls, run, steps, cost=len(members))))
    analysis = CorpsAnalysis(
        order, corps, direction, mobility, bonus, nearest, start, horizon, cap, files, groups,
        declared_rolls(order, world), tol, opts, towards_itself,
        followers={b.id: f.front.id for f in files for b in f.members[1:]},
        engaged=engaged, repeat=world.repeat(order),
    )
    _entered(analysis)
    _compare(analysis)
    _place(world, analysis)
    return analysis


def _walker(file: File, start: float) -> Callable[[Any], Walk]:
    return lambda lookup: walk(start, file.features, file.stop, file.front.id, lookup)


def _one_file(order: Order, file: File, start: float, steps: Steps, horizon: float, halve: bool,
              cap: float | None) -> Branches:
    """The combinations of one file's rolls (``per_file``, or a corps of one file): its walk enumerated as
    :func:`enumerate_rolls` would run the group, pooled by where the file ends (:func:`rolls.pool_walk`)."""

    def finish(w: Walk) -> dict[int, FileResult]:
        return {file.index: _file_result(file, w, None, horizon=horizon, halve=halve, cap=cap)}

    return pool_walk(order.rolls, start, file.features, file.stop, file.front.id, finish, steps)


def _group_runner(files: list[File], start: float, horizon: float, halve: bool, cap: float | None,
                  whole_corps: bool) -> Callable[[Any], dict[int, FileResult]]:
    """Where each file of a group ends for one combination of rolls (the lookup gives the rolls)."""

    def run(lookup: Any) -> dict[int, FileResult]:
        walks = {f.index: walk(start, f.features, f.stop, f.front.id, lookup) for f in files}
        common = min(w.allowance for w in walks.values()) if whole_corps else None
        return {f.index: _file_result(f, walks[f.index], common, horizon=horizon, halve=halve, cap=cap)
                for f in files}

    return run


def _file_result(f: File, w: Walk, common: float | None, horizon: float, halve: bool,
                 cap: float | None) -> FileResult:
    """Where a file ends after its walk ``w`` (``common``: the least allowance of the corps, ``whole_corps``)."""
    allowance = common if common is not None else w.allowance
    result = FileResult(0.0, w)
    if common is not None and common < w.allowance - EPS:
        result.pace = common
    distance = min(allowance, horizon)
    if cap is not None and cap <= allowance + EPS and cap <= f.stop + EPS:
        result.landmark_after = cap
    if f.stop < distance - EPS:
        distance = f.stop
        result.stopped_after, result.stopped_by = f.stop, f.stop_by
    elif f.charge is not None and distance < f.stop - EPS:
        distance, result.held = 0.0, f.charge
    distance, result.settled = settle(f, distance)
    if halve:
        result.halved_from = distance
        distance, result.settled_half = settle(f, distance / 2.0)
    result.distance = max(distance, 0.0)
    return result


def _turn(base: Base, declared: Declared, tol: float) -> float | None:
    """The declared rotation of a base when it moves a corner by more than the tolerance."""
    if declared.facing is None:
        return None
    turn = angle_diff(base.facing, declared.facing)
    return turn if abs(math.radians(turn)) * base.half_diagonal > tol + EPS else None


def _close(declared: Declared, expected: Vec, tol: float) -> bool:
    return math.dist((declared.x, declared.y), expected) <= tol + EPS


def _end(a: CorpsAnalysis, base: Base, branch: Branch) -> Vec:
    """Where a base ends under one combination of rolls."""
    return a.expected(base, branch.result[a.file_of(base.id).index].distance)


def _compare(a: CorpsAnalysis) -> None:
    """The declared ends against the required ones: turns, matching combinations, the nearest one."""
    tol = a.tolerance
    declared = a.order.end
    for b in a.corps.bases:
        if b.id in declared:
            turn = _turn(b, declared[b.id], tol)
            if turn is not None:
                a.turned[b.id] = turn
    for group in a.groups:
        group.found = [
            all(b.id in declared and _close(declared[b.id], _end(a, b, br), tol) for b in group.bases)
            for br in group.branches.outcomes
        ]
        if any(group.found):
            continue

        def distance_off(br: Branch, group: Group = group) -> float:
            return sum(
                math.dist((declared[b.id].x, declared[b.id].y), _end(a, b, br))
                for b in group.bases if b.id in declared
            )

        group.closest = min(group.branches.items, key=distance_off)


def _settled_by_rolls(group: Group) -> bool:
    """Whether every combination of undeclared rolls leaves each file of the group at the same distance."""
    items = group.branches.outcomes
    return len({tuple(round(br.result[f.index].distance, 9) for f in group.files) for br in items}) <= 1


def _entered(a: CorpsAnalysis) -> None:
    """The difficult terrain each front base reaches for some combination of rolls, and what it stops short of."""
    for group in a.groups:
        for file in group.files:
            walks = [br.result[file.index].walk for br in group.branches.outcomes]
            reached = {f.terrain.id for w in walks for f, _ in w.reached}
            front = file.front.id
            a.entered_by[front] = [f for f in file.features if f.terrain.id in reached]
            most = max((w.allowance for w in walks), default=a.start_allowance)
            a.short_of[front] = [(f, most) for f in file.features if f.terrain.id not in reached]


def _chosen(group: Group) -> Branch | None:
    """The combination the bases are placed by: the likeliest the declared ends match (else the likeliest),
    fewest rolls assigned, the first listed.  Of pools whose matching ones all leave the files at the same
    distances, any matching one places them as that combination would."""
    outcomes = group.branches.outcomes
    if isinstance(group.branches, Pooled):
        matching = [br for br, ok in zip(outcomes, group.found, strict=True) if ok]
        if len({tuple(br.result[f.index].distance for f in group.files) for br in matching}) == 1:
            return matching[0]
    items = group.branches.items
    matching = [br for br, ok in zip(items, group.matches, strict=True) if ok]
    pool = matching or items
    return max(pool, key=lambda br: (br.probability, -len(br.assigned))) if pool else None


def _place(world: World, a: CorpsAnalysis) -> None:
    """Where the bases stand after the order (a declared end within tolerance is the required one)."""
    declared = a.order.end
    tol = a.tolerance
    required: dict[str, Vec] | None = {}
    for group in a.groups:
        chosen = _chosen(group)
        if not _settled_by_rolls(group):
            required = None
            for key in sorted(group.branches.common_keys or group.branches.keys):
                die_name, dice = group.branches.dice[key]
                a.needed_rolls.append((key[0], key[1], die_name, str(dice)))
        for b in group.bases:
            exp = a.expected(b, chosen.result[a.file_of(b.id).index].distance) if chosen is not None else b.centre
            if required is not None:
                required[b.id] = exp
            dec = declared.get(b.id)
            if dec is None:
                a.placement[b.id] = (exp[0], exp[1], b.facing)
            elif _close(dec, exp, tol):
                facing = dec.facing if dec.facing is not None and b.id in a.turned else b.facing
                a.placement[b.id] = (exp[0], exp[1], facing)
            else:
                a.placement[b.id] = (dec.x, dec.y, dec.facing if dec.facing is not None else b.facing)
    a.required_ends = required
    for b in a.corps.bases:
        x, y, facing = a.placement[b.id]
        rect = a.placed_rects[b.id] = b.rect_at(x, y, facing)
        before = set(e.id for e in world.contacts(b.rect, exact=False))
        new = [e for e in world.contacts(rect, exact=False) if e.id not in before]
        if new:
            a.new_contacts[b.id] = new
