"""``movecheck apply`` for maneuver: the battlefield after a side's orders, and the side to move next.

The engine (:func:`movecheck.maneuver.engine.run`) has carried the orders out on a copy of
the battlefield: each base of a corps order stands at the end the rules require (a
declared end within ``tolerance`` of it counts as it), each base of a free move at the
end of its declared path with its declared facing (lifted clear of what it overlaps
there within the tolerance).  This module writes the state again with those positions:
the state's own data kept key for key, the ``x``, ``y`` and ``facing`` of each base that
moved replaced (a base that did not move keeps its entry as it was), and ``to_move``
naming the side whose orders come next (the sides in the state's order, round and
round).  Coordinates are rounded to 3 decimals, whole numbers written as integers, so
the output is the same bytes every time; of the 3-decimal places around a base's end
the nearest one that keeps it where the rules put it is written (:func:`_written`).

A turn legal only for some results of rolls nobody declared (MV304) is written only
with ``--force``, and the header names the rolls it assumes.
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Sequence
from typing import Any, cast

from movecheck.i18n import ENGLISH, language, set_language

DECIMALS = 3
PRECISE = 9
"""More decimals, when no 3-decimal place keeps a base's relations (then 4, 5, ... up to this)."""


def next_state(battlefield: Any, prepared: Any, orders_path: str, side: str, forced: bool,
               assumed: Sequence[Any] = ()) -> str:
    """The YAML text of the state after ``side``'s orders were carried out on ``battlefield``.

    ``prepared``: the state as it was (its document and battlefield); ``assumed``: the
    orders right only for some undeclared rolls (:class:`movecheck.maneuver.engine.Assumed`).
    """
    data = copy.deepcopy(prepared.doc.data)
    poses = _written(battlefield, prepared.model)
    for members in (data.get("sides") or {}).values():
        for corps in members or []:
            for entry in corps.get("bases") or []:
                pose = poses.get(cast(str, entry.get("id"))) if isinstance(entry, dict) else None
                if pose is not None:
                    entry.update(x=pose[0], y=pose[1], facing=pose[2])
            _record_formation(corps, battlefield, poses, orders_path, forced)
    data["to_move"] = next_side(list(battlefield.sides), side)
    lines = [f"# Written by movecheck apply: the orders {orders_path} carried out on the state {prepared.doc.path}."]
    if forced:
        lines.append("# --force: the orders are NOT legal (see movecheck check); they were applied as checked.")
    if assumed:
        lines.append("# --force: legal only for some results of rolls nobody declared (MV304); this state assumes:")
        lines.extend(f"#   {line}" for line in assumption_lines(assumed))
    return "\n".join(lines) + "\n" + _dump(_ordered(data))


def _record_formation(entry: dict[str, Any], battlefield: Any, poses: dict[str, Any], orders_path: str,
                      forced: bool) -> None:
    """Write (or drop) the ``formation:`` of a corps whose bases the orders moved.

    A corps a corps order left as more than one group in contact (files slowed apart
    by terrain, M8) keeps that formation from then on (M5): its offsets, from the
    written centres, go under ``formation:`` so that the next check does not warn
    (MV602).  A corps in contact needs no record; one moved by ``--force``, or last by
    a free move of one of its bases, gets none (no legal corps order explains it).  A
    corps nothing moved keeps its entry as it was.
    """
    from movecheck.maneuver.lint import contact_groups

    corps = battlefield.corps.get(entry.get("id"))
    if corps is None or not any(b.id in poses for b in corps.bases):
        return
    entry.pop("formation", None)
    if forced or corps.ordered_by is None or len(contact_groups(corps.bases, battlefield.options.contact_gap)) < 2:
        return
    at = {b.id: poses.get(b.id, (b.x, b.y)) for b in corps.bases}
    x0, y0 = at[corps.bases[0].id][:2]
    entry["formation"] = {
        "order": f"{orders_path} {corps.ordered_by}",
        "offsets": {bid: [_number(round(p[0] - x0, 6)), _number(round(p[1] - y0, 6))] for bid, p in at.items()},
    }


def assumption_lines(assumed: Sequence[Any]) -> list[str]:
    """One line per assumption, in English (files movecheck writes stay English): order, base, terrain, roll values."""
    from movecheck.maneuver.checks.words import condition, describe_values
    from movecheck.maneuver.dice import describe_probability
    from movecheck.maneuver.model import fmt

    spoken = language()
    set_language(ENGLISH)
    try:
        lines = []
        for item in assumed:
            text, p = condition(item.branches, item.legal)
            text = f"{item.order.label()}: {text} ({describe_probability(p)})"
            branches = item.branches
            keys = sorted({k for b in branches.items for k in b.assigned})
            if branches.odds is not None and item.allowance is not None:
                text += f": they leave {item.order.base.id} an allowance of at least {fmt(item.allowance)} steps"
            elif len(keys) > 1:
                good = [b for b in branches.items if item.legal(b)]
                values = {
                    key: describe_values([b.assigned[key] for b in good if key in b.assigned], branches.dice[key][1])
                    for key in keys
                }
                text += ": " + "; ".join(f"{key[0]} entering {key[1]} {values[key]}" for key in keys)
            lines.append(text)
        return lines
    finally:
        set_language(spoken)


def next_side(sides: list[str], side: str) -> str:
    """The side after ``side`` in the state's order (the first after the last)."""
    if side not in sides:
        return sides[0] if sides else side
    return sides[(sides.index(side) + 1) % len(sides)]


def _written(battlefield: Any, before: Any) -> dict[str, tuple[float | int, float | int, float | int]]:
    """The pose written for each base that moved, rounded without changing what it touches.

    Rounded to 3 decimals, a base in contact could come to overlap its neighbour by
    up to 0.0007 steps, or step out of the field.  Each base that moved is written
    rounded to 3 decimals when that keeps its relations (what it overlaps, the bases
    it touches, the terrain it overlaps, being in the field) with the others as they
    are written; else at the nearest place of the 3-decimal grid around it that
    keeps them (then 4 decimals, ... 9), else exactly.
    """
    moved = [b for b in battlefield.all_bases() if (b.x, b.y, b.facing) != _pose_before(before, b)]
    if not moved:
        return {}
    ties = _Ties(battlefield, moved)
    pose = {b.id: _grid(b, DECIMALS)[0] for b in moved}
    for _pass in range(len(moved) + 1):
        for base in moved:
            if not ties.kept(base, pose):
                pose[base.id] = next((c for d in range(DECIMALS, PRECISE + 1) for c in _grid(base, d)
                                      if ties.kept(base, {**pose, base.id: c})), _exact(base))
        broken = [b for b in moved if not ties.kept(b, pose)]
        if not broken:
            break
        for base in broken:  # exact poses keep every relation among themselves
            pose[base.id] = _exact(base)
    return {bid: (_number(x), _number(y), _bearing(f)) for bid, (x, y, f) in pose.items()}


def _pose_before(before: Any, base: Any) -> tuple[float, float, float] | None:
    old = before.bases.get(base.id)
    return (old.x, old.y, old.facing) if old is not None else None


class _Ties:
    """What each moved base overlaps and touches where the engine left it: rounding must keep it."""

    def __init__(self, battlefield: Any, moved: list[Any]) -> None:
        from movecheck.maneuver import geometry as g

        self.g = g
        self.bf = battlefield
        self.gap = battlefield.options.contact_gap
        reach = 2 * self.gap + 0.01
        bases = list(battlefield.all_bases())
        self.near = {
            b.id: [o for o in bases if o is not b
                   and math.dist(o.centre, b.centre) <= o.half_diagonal + b.half_diagonal + reach
                   and g.edge_distance(b.rect, o.rect) <= reach]
            for b in moved
        }
        self.terrain = {b.id: [t for t in battlefield.terrain.values() if g.edge_distance(b.rect, t.polygon) <= 0.01]
                        for b in moved}
        self.wanted = {b.id: self._relations(b, b.rect, {}) for b in moved}

    def kept(self, base: Any, pose: dict[str, tuple[float, float, float]]) -> bool:
        return self._relations(base, base.rect_at(*pose[base.id]), pose) == self.wanted[base.id]

    def _relations(self, base: Any, rect: Any, pose: dict[str, tuple[float, float, float]]) -> tuple[Any, ...]:
        g = self.g
        others = [o.rect_at(*pose[o.id]) if o.id in pose else o.rect for o in self.near[base.id]]
        return (
            tuple(g.overlaps(rect, other) for other in others),
            tuple(g.in_contact(rect, other, self.gap) for other in others),
            tuple(g.overlaps(rect, t.polygon) for t in self.terrain[base.id]),
            g.inside_field(rect, self.bf.field_polygon),
        )


def _grid(base: Any, decimals: int) -> list[tuple[float, float, float]]:
    """The places with ``decimals`` decimals around the base's end: rounded first, then the nearest first."""
    step = 10.0 ** -decimals
    xs = {round(math.floor(base.x / step) * step, decimals), round(math.ceil(base.x / step) * step, decimals)}
    ys = {round(math.floor(base.y / step) * step, decimals), round(math.ceil(base.y / step) * step, decimals)}
    facing = round(float(base.facing) % 360.0, decimals)
    rounded = (round(base.x, decimals), round(base.y, decimals), facing)
    places = sorted(((x, y, facing) for x, y in itertools.product(xs, ys)),
                    key=lambda p: (p != rounded, math.hypot(p[0] - base.x, p[1] - base.y), p))
    return places


def _exact(base: Any) -> tuple[float, float, float]:
    return (base.x, base.y, float(base.facing) % 360.0)


def _number(value: float) -> float | int:
    """A coordinate as written: whole numbers as integers, never a negative zero."""
    value = float(value)
    if value == 0:
        return 0
    return int(value) if value.is_integer() else value


def _bearing(value: float) -> float | int:
    """A facing in [0, 360)."""
    bearing = _number(float(value) % 360.0)
    return 0 if bearing == 360 else bearing


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    """``to_move`` after the file's header keys, before the battlefield."""
    head = ("movecheck", "system", "kind", "options", "to_move")
    return {**{k: data[k] for k in head if k in data}, **{k: v for k, v in data.items() if k not in head}}


def _dump(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


__all__ = ["assumption_lines", "next_side", "next_state"]
