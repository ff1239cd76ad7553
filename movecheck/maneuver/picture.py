"""What ``movecheck render`` draws, collected from the battlefield and the engine.

A state gives the field, its terrain, landmarks, bases and corps.  An orders file
is checked as ``check`` checks it (the same run, the same findings); the engine
shows each order's facts (:func:`movecheck.maneuver.engine.run`'s ``observe``)
before carrying it out, and this module keeps, per base it moves: the path from
its start to its declared end, the end the rules require where that differs, the
area it sweeps where a friend or terrain on its way matters, and the codes of the
findings at it.  :mod:`movecheck.maneuver.svg` draws the result.

Shapely is imported only once a maneuver file is read.
"""

from __future__ import annotations

import math
import os
import re
from typing import TYPE_CHECKING, Any, cast

from movecheck.files import is_kind
from movecheck.findings import Finding, Report
from movecheck.i18n import _, ngettext
from movecheck.loading import load_file
from movecheck.maneuver.scene import Area, Group, Move, Note, Outline, Scene, Vec
from movecheck.reading import InputError
from movecheck.systems import STATE, Unrenderable

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.model import Battlefield
    from movecheck.systems import Drawing, Outcome, Prepared

MATTERS = ("friend", "friend_end", "impassable")
"""What stops a file of a corps that makes its swept area worth drawing (besides terrain it enters)."""


def picture(loaded: Any, run: Drawing, reach: list[str] | None = None) -> str:
    """The SVG picture of a usable maneuver state or orders file (:class:`Unrenderable` when there is none).

    ``run``: the run's services (``select``: what the run reports of a report, ``prepare``, ``check``);
    ``reach``: the bases and corps whose reach this turn is drawn (on a state only).
    """
    from movecheck.maneuver.svg import render

    if is_kind(loaded.kind, STATE):
        return render(state_scene(loaded, run, list(reach or [])))
    if reach:
        message = _("--reach draws on a battlefield state; {path} is an orders file")
        raise InputError(message.format(path=loaded.doc.path))
    return render(orders_scene(loaded.doc.path, run))


def state_scene(loaded: Any, run: Drawing, reach: list[str] | None = None) -> Scene:
    """The picture of a battlefield state."""
    prepared = cast("Prepared[Battlefield]", run.prepare(loaded))  # the kernel prepared a maneuver state
    report = run.select(Report.unjudged(loaded.findings + prepared.findings, loaded.doc.path, loaded.kind))
    if prepared.model is None:
        raise Unrenderable(report, prepared.reason or _("the state has errors"))
    bf = prepared.model
    from movecheck.maneuver.svg import count_of

    title = ngettext("{path}: battlefield {width} × {depth} step", "{path}: battlefield {width} × {depth} steps",
                     count_of(_n_value(bf.depth))).format(path=loaded.doc.path, width=_n(bf.width), depth=_n(bf.depth))
    scene = battlefield_scene(bf, battle_titled(title, prepared.doc.data))
    scene.notes = notes(report.sorted_findings(), bf)
    if reach:
        from movecheck.maneuver.picture_reach import collect
        from movecheck.maneuver.reach_report import reaches

        scene.reach, scene.reach_ends = collect(reaches(bf, list(reach)))
    return scene


def battle_titled(title: str, state: Any) -> str:
    """The picture's title, after the battle's ``name:`` when the battlefield has one."""
    name = state.get("name") if isinstance(state, dict) else None
    if isinstance(name, str) and name.strip():
        return _("{battle} - {title}").format(battle=name.strip(), title=title)
    return title


def battlefield_scene(bf: Any, title: str) -> Scene:
    """The field, terrain, point landmarks, bases and corps of a battlefield as it stands."""
    from movecheck.maneuver.svg_canvas import display_unit

    scene = Scene(title, bf.width, bf.depth, sorted(bf.sides))
    rank = {"open": 0, "impassable": 2}
    for t in sorted(bf.terrain.values(), key=lambda t: (rank.get(t.kind, 1), t.id)):
        scene.terrain.append(Area(t.id, t.kind, t.label + (f": {t.name}" if t.name else ""), tuple(t.points),
                                  t.name or ""))
    scene.landmarks = [(m.id, m.point) for _id, m in sorted(bf.landmarks.items()) if m.point is not None]
    for _id, m in sorted(bf.landmarks.items()):
        if m.terrain is not None and m.terrain in bf.terrain:
            at = bf.terrain[m.terrain].polygon.representative_point()
            scene.marks.append((m.id, (round(at.x, 3), round(at.y, 3)), "terrain"))
        elif m.corps is not None and m.corps in bf.corps:
            scene.marks.append((m.id, bf.corps[m.corps].reference, "corps"))
    scene.bases = [outline(b, b.x, b.y, b.facing) for _id, b in sorted(bf.bases.items())]
    pad = 4 * display_unit(bf.width, bf.depth)
    scene.corps = [Group(c.id, c.side, hull([b.rect for b in c.bases], pad))
                   for _id, c in sorted(bf.corps.items()) if len(c.bases) > 1]
    return scene


def outline(base: Any, x: float, y: float, facing: float) -> Outline:
    """A base's rectangle at a pose, as the engine computes it."""
    from movecheck.maneuver.geometry import base_corners

    return Outline(base.id, base.side, tuple(base_corners(x, y, facing, base.width, base.depth)))


def hull(shapes: list[Any], pad: float) -> tuple[Vec, ...]:
    """The convex hull of shapes, ``pad`` further out (mitred corners)."""
    from shapely.ops import unary_union

    shape = unary_union(shapes).convex_hull.buffer(pad, join_style="mitre")
    return _ring(shape.exterior.coords)


def _ring(coords: Any) -> tuple[Vec, ...]:
    """A closed ring's points without the repeated last one."""
    found = [(float(x), float(y)) for x, y in coords]
    return tuple(found[:-1] if len(found) > 1 and found[0] == found[-1] else found)


def orders_scene(path: str, run: Drawing) -> Scene:
    """The picture of an orders file: the state before the orders, and what each order does."""
    seen = Observer()
    outcomes: dict[str, tuple[Outcome[object], Prepared[object]]] = {}
    report = run.select(run.check([path], outcomes, observe=seen))
    entry = report.files[0] if report.files else None
    if not outcomes:
        reason = entry.reason if entry is not None and entry.reason else _("the orders cannot be checked")
        raise Unrenderable(report, reason)
    (doc_path, (outcome, prepared)), = outcomes.items()
    if prepared.model is None or outcome.reason:
        raise Unrenderable(report, outcome.reason or _("the state has errors"))

    doc = load_file(path)
    title = _("{path}: orders of {side} on {state}").format(
        path=doc_path, side=doc.get("side"), state=prepared.doc.path
    )
    scene = battlefield_scene(prepared.model, battle_titled(title, prepared.doc.data))
    found = report.sorted_findings()
    scene.moves = seen.moves(found, doc)
    scene.targets = seen.targets
    side = doc.get("side")
    scene.notes = notes(found, prepared.model, side if isinstance(side, str) else None, doc_path)
    return scene


def _side_of(f: Finding, bf: Any, side: str | None, orders_path: str | None) -> str | None:
    """The side a finding is about: the orders' side for the orders' findings, else the side of the first
    corps or base its message names."""
    if orders_path is not None and f.file == orders_path:
        return side
    if bf is None:
        return None
    for token in re.findall(r"[^\s,;:()'\"|]+", f.message):
        owner = bf.corps.get(token) or bf.bases.get(token)
        if owner is not None:
            return str(owner.side)
    return None


def notes(
    findings: list[Finding], bf: Any = None, side: str | None = None, orders_path: str | None = None
) -> list[Note]:
    """Each finding as a line: where, code, severity, message, and the side it is about."""
    lines = []
    for f in findings:
        where = f"{os.path.basename(f.file)}:{f.line}:{f.column}"
        if f.order and f.order_id:
            text = _("{where} {code} order {order} ({id}): {message}")
        elif f.order:
            text = _("{where} {code} order {order}: {message}")
        else:
            text = "{where} {code} {message}"
        lines.append(Note(f.code, f.severity.value, text.format(where=where, code=f.code, order=f.order, id=f.order_id,
                                                                message=f.message), _side_of(f, bf, side, orders_path)))
    return lines


class Observer:
    """Sees each order the engine checks, before it is carried out, and keeps what to draw of it."""

    def __init__(self) -> None:
        self.taken: list[tuple[Any, list[Move]]] = []
        self.targets: list[tuple[int, str, Vec, Vec]] = []

    def __call__(self, order: Any, analysis: Any) -> None:
        """Keep the moves of one order (its analysis None: the order went unchecked)."""
        label = order.id or _("order {number}").format(number=order.index + 1)
        if analysis is None:
            moves = _declared_moves(order, label)
        elif analysis.kind == "free":
            moves = [_free_move(analysis, label)]
        else:
            moves = _corps_moves(analysis, label)
            if order.kind == "to_landmark" and order.landmark is not None and analysis.direction is not None \
                    and analysis.cap is not None:
                ref, (dx, dy) = analysis.corps.reference, analysis.direction
                self.targets.append((order.index + 1, order.landmark.id, ref,
                                     (ref[0] + dx * analysis.cap, ref[1] + dy * analysis.cap)))
        self.taken.append((order, moves))

    def moves(self, findings: list[Finding], doc: Any) -> list[Move]:
        """Every move, with the codes of the findings at its base (``doc``: the orders, for positions)."""
        found: list[Move] = []
        for order, moves in self.taken:
            positions = _base_positions(doc, order.where)
            mine = [f for f in findings if f.order == order.index + 1 and f.file == doc.path]
            by_base = {m.base: m for m in moves}
            for f in mine:
                target = _finding_base(f, positions, by_base, moves)
                if target is not None and (f.code, f.severity.value) not in target.codes:
                    target.codes.append((f.code, f.severity.value))
            found.extend(sorted(moves, key=lambda m: m.base))
        return found


def _base_positions(doc: Any, where: tuple[Any, ...]) -> dict[tuple[int, int], str]:
    """The file positions of the nodes of an order that name one base (under ``end`` and ``rolls``)."""
    found: dict[tuple[int, int], str] = {}
    n = len(where)
    for table in (doc.positions, doc.key_positions):
        for path, position in table.items():
            if len(path) > n + 1 and tuple(path[:n]) == tuple(where) and path[n] in ("end", "rolls"):
                found.setdefault(tuple(position), str(path[n + 1]))
    return found


def _finding_base(f: Finding, positions: dict[Any, Any], by_base: dict[str, Move], moves: list[Move]) -> Move | None:
    """The move a finding is about: the base whose node it points at, else the base its message names first."""
    base = positions.get((f.line, f.column))
    if base in by_base:
        return by_base[base]
    named = [(m.start(), by_base[m.group()]) for m in re.finditer(r"[^\s,;:()'\"]+", f.message) if m.group() in by_base]
    if named:
        return min(named, key=lambda item: item[0])[1]
    return min(moves, key=lambda m: m.base) if moves else None


def _free_move(a: Any, label: str) -> Move:
    """A free move: the base along its waypoints, the swept area when it meets friends or terrain."""
    base, motion = a.base, a.motion
    end = outline(base, motion.end[0], motion.end[1], motion.end_facing)
    move = Move(a.order.index + 1, label, base.id, base.side, list(motion.points), end)
    if len(a.branches.items) == 1:
        move.rolls = _rolls_text(a.branches.items[0].result)
    events = a.events
    if events.friend_passes or events.friend_ends or events.impassable or a.entered or a.straight_obstacle is not None:
        from movecheck.maneuver.sweep import swept_path

        shape = swept_path(base.x, base.y, base.facing, base.width, base.depth, motion.points[1:], motion.end_facing)
        move.swept = _rings(shape)
    return move


def _corps_moves(a: Any, label: str) -> list[Move]:
    """A corps order: each base from its start to its declared end, the required end where it differs."""
    declared = a.order.end
    moves = []
    for base in a.corps.bases:
        file = a.file_of(base.id)
        dec = declared.get(base.id)
        x, y, facing = (
            (dec.x, dec.y, dec.facing if dec.facing is not None else base.facing) if dec else a.placement[base.id]
        )
        move = Move(a.order.index + 1, label, base.id, base.side, [base.centre, (x, y)], outline(base, x, y, facing))
        group = next((g for g in a.groups if file in g.files), None)
        if base is file.front and group is not None and len(group.branches.items) == 1:
            move.rolls = _rolls_text(group.branches.items[0].result[file.index].walk)
        required = (a.required_ends or {}).get(base.id)
        if required is not None and math.dist(required, (x, y)) > a.tolerance + 1e-9:
            move.required = outline(base, required[0], required[1], base.facing)
        matters = file.features or file.chords or (file.stop_by is not None and file.stop_by.kind in MATTERS)
        if matters and a.direction is not None:
            from movecheck.maneuver.sweep import swept_straight

            reach = required if required is not None else (x, y)
            distance = math.dist(base.centre, reach)
            if distance > 1e-9:
                move.swept = _rings(swept_straight(base.rect, a.direction, distance))
        moves.append(move)
    return moves


def _rolls_text(walk: Any) -> str | None:
    """``brook D1 4 → 6.00``: the declared rolls a walk used and the allowance it ended with (None: no roll)."""
    from movecheck.maneuver.model import fmt

    used = [f"{feature.terrain.id} {feature.die_name} {roll}" for feature, roll in walk.reached if roll is not None]
    return ", ".join(used) + f" → {fmt(walk.allowance, trim=True)}" if used else None


def _declared_moves(order: Any, label: str) -> list[Move]:
    """An order the engine could not check: its bases where it declares them."""
    moves = []
    if order.kind == "free" and order.base is not None and order.path:
        b = order.base
        end = order.path[-1]
        facing = order.facing if order.facing is not None else b.facing
        moves.append(
            Move(order.index + 1, label, b.id, b.side, [b.centre, *order.path], outline(b, end[0], end[1], facing))
        )
    elif order.corps is not None:
        for b in order.corps.bases:
            dec = order.end.get(b.id)
            if dec is not None:
                facing = dec.facing if dec.facing is not None else b.facing
                moves.append(Move(order.index + 1, label, b.id, b.side, [b.centre, (dec.x, dec.y)],
                                  outline(b, dec.x, dec.y, facing)))
    return moves


def _rings(shape: Any) -> list[tuple[Vec, ...]]:
    """The outer rings of a polygon or of each part of a multipolygon."""
    parts = getattr(shape, "geoms", [shape])
    return [_ring(p.exterior.coords) for p in parts if p.geom_type == "Polygon" and not p.is_empty]


def _n_value(value: float) -> float:
    """The length a title shows, as a number (for the plural that agrees with it)."""
    from movecheck.maneuver.model import fmt_data

    return float(fmt_data(value, whole=True, trim=True))


def _n(value: float) -> str:
    """A length for a title."""
    from movecheck.maneuver.model import fmt

    return fmt(value, whole=True, trim=True)
