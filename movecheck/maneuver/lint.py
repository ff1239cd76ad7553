"""Scenario lint for maneuver battlefields: consistency the schema cannot see (MV6xx).

Each clause is a small check over a :class:`LintContext`; ``movecheck lint``
runs them after the schema, and ``movecheck check`` runs them on the state it
checks against.  Geometry is imported inside the checks (``movecheck rules``
imports this module and must stay light).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from movecheck.clauses import CATALOGUE, Violation, clause
from movecheck.document import Document
from movecheck.i18n import N_, _, ngettext
from movecheck.maneuver.model import fmt, fmt_deg
from movecheck.maneuver.plane import EPS, same_facing

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.maneuver.model import Battlefield, Vec

OUTSIDE_SLACK = 1e-6
"""How far (steps) a base or terrain may reach over the field edge before MV604 (rounding only)."""



@dataclass
class LintContext:
    """A battlefield under lint: its document and what was built from it."""

    doc: Document
    battlefield: Battlefield | None


def lint_clause(
    code: str, name: str, severity: str, summary: str, seeds: tuple[str, ...] = (), *, geometry: bool = True,
    example: tuple[str, str] | None = None,
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare a lint check: on the occasion ``lint/geometry`` (a battlefield built from a file without errors), or
    ``lint/state`` (every battlefield file) when ``geometry`` is False."""
    runs = ["lint/geometry" if geometry else "lint/state"]
    return clause(code, name, severity, summary, seeds, system="maneuver", phase="lint", runs=runs, example=example)



def _built(ctx: LintContext) -> Battlefield:
    """The battlefield of a geometric clause: those run only on a battlefield built without errors."""
    assert ctx.battlefield is not None, "a geometric lint clause ran without a battlefield"
    return ctx.battlefield


@lint_clause("MV601", "bases-overlap", "error", "two bases overlap in the state",
             example=("two bases overlap",
                      "they touch edge to edge"))
def bases_overlap(ctx: LintContext) -> Iterator[Violation]:
    """No two bases overlap (bases in contact touch edge to edge).

    Touching rectangles computed with trigonometry may overlap by ~1e-14; only
    a common area above 1e-9 of a base's area counts.
    """
    from movecheck.maneuver import geometry as g

    bases = _built(ctx).all_bases()
    order = {b.id: i for i, b in enumerate(bases)}
    index = g.SpatialIndex((b.id, b.rect) for b in bases)
    for base, near in zip(bases, index.near_each([b.rect for b in bases]), strict=True):
        for key in near:
            other_id = cast(str, key)  # the index holds base ids
            other = _built(ctx).bases[other_id]
            if order[other_id] <= order[base.id]:
                continue
            if g.overlaps(base.rect, other.rect):
                area = g.overlap_area(base.rect, other.rect)
                yield Violation(_("base {base} overlaps base {other} ({area} square steps in common)").format(
                    base=other.id, other=base.id, area=fmt(area)), other.source)


@lint_clause(
    "MV602",
    "corps-not-in-contact",
    "warning",
    "a corps' bases do not form one group in contact",
    ("M5",),
    example=("a corps' bases stand in two groups apart", "each base touches another of its corps"),
)
def corps_not_in_contact(ctx: LintContext) -> Iterator[Violation]:
    """The bases of a corps form one group, each in contact (edge to edge
    within ``contact_gap``) with another (M5: the corps keeps its formation).

    A formation the last legal order left (files slowed apart by terrain, M8)
    is the corps' formation from then on: ``movecheck apply`` records it under
    the corps' ``formation:``, and while the bases stand exactly there this
    warning is not given.  A recorded formation the bases no longer match
    explains nothing.
    """
    gap = _built(ctx).options.contact_gap
    for corps in _built(ctx).corps.values():
        parts = contact_groups(corps.bases, gap)
        if len(parts) > 1 and not corps.keeps_recorded_formation():
            shown = " | ".join(", ".join(p) for p in parts)
            yield Violation(
                _("corps {corps} is not one group of bases in contact: {count} groups ({groups})").format(
                    corps=corps.id, count=len(parts), groups=shown),
                (*corps.source, "id"),
            )


def contact_groups(bases: list[Any], gap: float) -> list[list[str]]:
    """The ids of ``bases`` in groups in contact (edge to edge within ``gap``), in file order."""
    from movecheck.maneuver import geometry as g

    parent = list(range(len(bases)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(bases)):
        for j in range(i + 1, len(bases)):
            if g.edge_distance(bases[i].rect, bases[j].rect) <= gap + EPS:
                parent[root(i)] = root(j)
    groups: dict[int, list[str]] = {}
    for i, b in enumerate(bases):
        groups.setdefault(root(i), []).append(b.id)
    order = [b.id for b in bases]
    return sorted(groups.values(), key=lambda ids: order.index(ids[0]))


@lint_clause("MV603", "corps-mixed-facing", "warning", "bases of one corps face different ways", ("M5",),
             example=("one base of a corps faces 90°, the others 0°",
                      "they all face 0°"))
def corps_mixed_facing(ctx: LintContext) -> Iterator[Violation]:
    """All bases of a corps share one facing (the corps orders move them along it)."""

    for corps in _built(ctx).corps.values():
        first = corps.bases[0]
        for base in corps.bases[1:]:
            if not same_facing(base.facing, first.facing):
                yield Violation(
                    _(
                        "base {base} faces {facing}° but {first}, "
                        "the first base of corps {corps}, faces {first_facing}°"
                    ).format(
                        base=base.id,
                        facing=fmt_deg(base.facing),
                        first=first.id,
                        corps=corps.id,
                        first_facing=fmt_deg(first.facing),
                    ),
                    (*base.source, "facing"),
                )


@lint_clause(
    "MV604", "bad-polygon", "error",
    "a terrain polygon is invalid (self-intersecting, < 3 points) or a base/terrain lies outside the field",
    example=("a terrain polygon has 2 corners",
             "it has at least 3 corners, does not cross itself and lies inside the field"),
)
def bad_polygon(ctx: LintContext) -> Iterator[Violation]:
    """Terrain polygons are simple (no self-intersection) with at least three
    distinct corners and an area; terrain and bases lie inside the field.
    """
    from shapely.geometry import Polygon
    from shapely.validation import explain_validity

    from movecheck.maneuver import geometry as g

    bf = _built(ctx)
    field = bf.field_polygon
    size = f"0..{fmt(bf.width, whole=True)} × 0..{fmt(bf.depth, whole=True)}"
    for terrain in bf.terrain.values():
        where = (*terrain.source, "polygon")
        distinct: list[Vec] = []
        for p in terrain.points:
            if not distinct or abs(p[0] - distinct[-1][0]) > EPS or abs(p[1] - distinct[-1][1]) > EPS:
                distinct.append(p)
        if (
            len(distinct) > 1
            and abs(distinct[0][0] - distinct[-1][0]) <= EPS
            and abs(distinct[0][1] - distinct[-1][1]) <= EPS
        ):
            distinct.pop()
        if len(distinct) < 3:
            yield Violation(ngettext("terrain {terrain} has {count} distinct corner; a polygon needs at least 3",
                                     "terrain {terrain} has {count} distinct corners; a polygon needs at least 3",
                                     len(distinct)).format(terrain=terrain.id, count=len(distinct)), where)
            continue
        raw = Polygon(distinct)
        if not raw.is_valid:
            yield Violation(_("terrain {terrain} is not a simple polygon: {why}").format(
                terrain=terrain.id, why=explain_validity(raw).lower()), where)
            continue
        if raw.area <= EPS:
            yield Violation(
                _("terrain {terrain} has no area (its corners lie on one line)").format(terrain=terrain.id), where
            )
            continue
        if not g.inside_field(raw, field, OUTSIDE_SLACK):
            yield Violation(
                _("terrain {terrain} reaches outside the field ({size})").format(terrain=terrain.id, size=size), where
            )
    bases = bf.all_bases()
    for base, inside in zip(bases, g.inside_field_each([b.rect for b in bases], field, OUTSIDE_SLACK), strict=True):
        if not inside:
            yield Violation(_("base {base} lies (partly) outside the field ({size})").format(base=base.id, size=size),
                            base.source)


@lint_clause(
    "MV605",
    "duplicate-id",
    "error",
    "two bases, corps, terrain elements or landmarks share an id",
    geometry=False,
    example=("two bases have the id ``r1``", "each id is used once"),
)
def duplicate_id(ctx: LintContext) -> Iterator[Violation]:
    """Ids are unique: base ids among all bases, corps ids among all corps (of
    every side), terrain ids among terrain elements, landmark ids among
    landmarks.  Orders name them by id.  The first entry of an id is used.
    """
    doc = ctx.doc
    data = doc.data if isinstance(doc.data, dict) else {}
    seen: dict[tuple[str, str], tuple[Any, ...]] = {}

    def check(kind: str, entry: Any, where: tuple[Any, ...]) -> Iterator[Violation]:
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            return
        key = (kind, ident)
        if key in seen:
            line = doc.pos(seen[key] + ("id",))[0]
            yield Violation(_(ALREADY_USED[kind]).format(id=repr(ident), line=line), (*where, "id"))
        else:
            seen[key] = where

    for section, kind in (("terrain", "terrain"), ("landmarks", "landmark")):
        items = data.get(section)
        for i, entry in enumerate(items if isinstance(items, list) else []):
            yield from check(kind, entry, (section, i))
    sides = data.get("sides")
    for side, corps_list in (sides.items() if isinstance(sides, dict) else []):
        for ci, corps in enumerate(corps_list if isinstance(corps_list, list) else []):
            yield from check("corps", corps, ("sides", side, ci))
            bases = corps.get("bases") if isinstance(corps, dict) else None
            for bi, base in enumerate(bases if isinstance(bases, list) else []):
                yield from check("base", base, ("sides", side, ci, "bases", bi))


ALREADY_USED = {
    "terrain": N_("terrain id {id} is already used by the terrain on line {line}"),
    "landmark": N_("landmark id {id} is already used by the landmark on line {line}"),
    "corps": N_("corps id {id} is already used by the corps on line {line}"),
    "base": N_("base id {id} is already used by the base on line {line}"),
}
"""MV605's message for each kind of id."""


def run_lint(ctx: LintContext, geometry: bool) -> list[tuple[str, Violation]]:
    """The violations of the lint clauses, with their codes (the geometric ones only when ``geometry``)."""
    occasions = ["lint/state"] + (["lint/geometry"] if geometry and ctx.battlefield is not None else [])
    clauses = sorted((c for o in occasions for c in CATALOGUE.running("maneuver", o)), key=lambda c: c.code)
    return [(v.code or c.code, v) for c in clauses for v in c.run(ctx)]
