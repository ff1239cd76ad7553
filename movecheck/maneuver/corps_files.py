"""A corps split into files along its motion, and what stops each file (M1, M5, M6, M10).

A *file* is a front base and the bases behind it that share its lane; each file
is stopped by the first enemy, friend it cannot pass, impassable terrain or the
field edge, and an engaged base pins its file unless the motion takes it into
full contact.  :mod:`movecheck.maneuver.corps` runs the files through every
combination of undeclared rolls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from movecheck.maneuver import geometry as g
from movecheck.maneuver import sweep
from movecheck.maneuver.model import Base, Vec
from movecheck.maneuver.motion import full_contact
from movecheck.maneuver.plane import EPS, unit
from movecheck.maneuver.rolls import Feature
from movecheck.maneuver.world import Obstacle, World

LANE_SHARE = 1e-6
"""A base follows another (same file) when their extents across the motion share more than this
fraction of its own extent; bases side by side touch along a line and share nothing."""


@dataclass
class File:
    """A front base and the bases behind it in the direction of motion.

    ``stop``: how far the file can go before ``stop_by`` stops it (an enemy,
    a friend it cannot pass, impassable terrain, the field edge, or ``engaged``:
    one of its bases is engaged and the motion cannot take it straight into full
    contact, M10).  ``charge``: one of its bases is engaged and reaching ``stop``
    takes it into full contact; short of that the file keeps its place.
    ``chords``: the stretches ``(lo, hi, member, friend)`` over which one of its
    bases would stand on a stationary friend.
    """

    index: int
    members: list[Base]
    features: list[Feature] = field(default_factory=list)
    stop: float = math.inf
    stop_by: Obstacle | None = None
    charge: Obstacle | None = None
    chords: list[tuple[float, float, str, str]] = field(default_factory=list)
    swept: Any = field(default=None, repr=False, compare=False)
    """The front base's sweep over the horizon, once :func:`file_obstacles` built it (the terrain it meets is
    looked up in the same shape)."""

    @property
    def front(self) -> Base:
        return self.members[0]


@dataclass(frozen=True)
class Settled:
    """A file moved back to ``distance`` because ``member`` would otherwise end on friendly ``friend``."""

    friend: str
    member: str
    distance: float


def build_files(bases: list[Base], direction: Vec) -> list[File]:
    """Split a corps into files along ``direction``: each base follows the base ahead that shares its lane."""
    dx, dy = direction
    px, py = dy, -dx
    info = []
    for b in bases:
        corners = shapely.get_coordinates(b.rect)[:-1].tolist()  # the exterior's corners (a base has no hole)
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


def file_obstacles(world: World, file: File, direction: Vec, horizon: float, moving: set[str],
                    landmark_corps: str | None) -> None:
    """Where the file is stopped by enemies, friends it cannot pass, impassable terrain or the field edge."""
    opts = world.options
    stop, by = horizon, None
    if horizon <= EPS:
        file.stop, file.stop_by = 0.0, None
        return
    for member in file.members:
        rect = member.rect
        swept = sweep.swept_straight(rect, direction, horizon)
        behind = member is not file.front
        if not behind:
            file.swept = swept
        for other in world.bases_near(swept, world.gap):
            if other.id in moving:
                continue
            if other.side != world.side or other.corps == landmark_corps:
                if g.edge_distance(rect, other.rect) <= world.gap + EPS:
                    t = sweep.entry_distance(rect, other.rect, direction, horizon)
                else:
                    t = sweep.contact_distance(rect, other.rect, direction, horizon)
                kind = "enemy" if other.side != world.side else "landmark_corps"
                what = Obstacle(kind, (other.id,), member.id, behind)
            else:
                chord = sweep.translation_chord(rect, other.rect, np.asarray(unit(direction)))
                if chord is None or chord[1] <= EPS or chord[0] >= horizon - EPS:
                    continue
                lo, hi = max(chord[0], 0.0), chord[1]
                file.chords.append((lo, hi, member.id, other.id))
                overlap = sweep.max_overlap_along(rect, other.rect, direction, horizon)
                if overlap <= opts.pass_through_limit * member.area + EPS:
                    continue
                t = lo
                what = Obstacle("friend", (other.id,), member.id, behind)
            if t is not None and t < stop - EPS:
                stop, by = t, what
        for terrain in world.terrain_near(swept):
            if terrain.kind != "impassable":
                continue
            t = sweep.entry_distance(rect, terrain.polygon, direction, horizon, pieces=terrain.pieces)
            if t is not None and t < stop - EPS:
                stop, by = t, Obstacle("impassable", (terrain.id,))
        t = sweep.leave_distance(rect, world.bf.field_polygon, direction, horizon)
        if t is not None and t < stop - EPS:
            stop, by = t, Obstacle("field_edge")
    file.stop, file.stop_by = max(stop, 0.0), by


def pin(world: World, file: File, direction: Vec, engaged: dict[str, list[Base]]) -> None:
    """An engaged base keeps its place, and its file with it, unless the motion takes it straight
    into full contact (M10).

    It can only end in full contact where an enemy stops its file; when every
    engaged base of the file is in full contact there, the file charges
    (reaching that stop, else keeping its place); otherwise it stays.
    """
    held = [m for m in file.members if m.id in engaged]
    if not held:
        return
    first = held[0]
    why = Obstacle("engaged", tuple(e.id for e in engaged[first.id]), first.id, first is not file.front)
    stop = file.stop
    enemy_stop = file.stop_by is not None and file.stop_by.kind == "enemy"
    if enemy_stop and all(_full_at(world, m, direction, stop) for m in held):
        file.charge = why
        return
    file.stop, file.stop_by = 0.0, why


def _full_at(world: World, member: Base, direction: Vec, distance: float) -> bool:
    """Whether the base, moved ``distance`` along ``direction``, ends in full contact with an enemy base."""
    rect = member.rect_at(member.x + direction[0] * distance, member.y + direction[1] * distance, member.facing)
    return any(full_contact(rect, other.rect, world.gap, world.tol)
               for other in world.enemies_near(rect, world.gap + world.tol))


def settle(file: File, distance: float) -> tuple[float, Settled | None]:
    """The distance moved back to the last place where no base of the file ends on a stationary friend."""
    last: tuple[str, str] | None = None
    changed = True
    while changed:
        changed = False
        for lo, hi, member, friend in file.chords:
            if lo + EPS < distance < hi - EPS:
                distance, last = lo, (friend, member)
                changed = True
    return distance, (Settled(last[0], last[1], distance) if last is not None else None)
