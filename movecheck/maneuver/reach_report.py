"""``movecheck reach STATE ID...``: what :mod:`reach` and :mod:`reach_corps` find, as text or JSON (schema ``reach``).

Regions are polygons with coordinates rounded to 3 decimals; probabilities are exact
fractions with a 6-decimal value beside them.  The battlefield is read as ``render``
reads it: a state whose lint has errors gives no reach (exit 2).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from movecheck.findings import Report
from movecheck.i18n import _
from movecheck.maneuver.model import ORDER_NAMES, fmt, fmt_deg, fmt_xy
from movecheck.reading import InputError
from movecheck.systems import STATE, Unrenderable, has_errors


class ReachError(InputError):
    """An id that names neither a base nor a corps of the battlefield, or a reach that ran out of its budget
    (one stderr line, exit 2)."""


def load_battlefield(path: str, settings: Any, select: Callable[[Any], Any], kernel: Any) -> tuple[Any, str]:
    """The battlefield of a maneuver state file, as ``render`` reads it (Unrenderable when it has errors);
    ``kernel``: the run's services (``read``, ``prepare``)."""
    from movecheck.files import is_kind

    loaded = kernel.read(path)
    if loaded.kind is not None and not (is_kind(loaded.kind, STATE) and str(loaded.kind).startswith("maneuver")):
        message = _("reach reads a maneuver battlefield state; {path} is not one")
        raise InputError(message.format(path=loaded.doc.path))
    if not loaded.usable or has_errors(loaded.findings):
        raise Unrenderable(select(Report.unjudged(loaded.findings, loaded.doc.path, loaded.kind)),
                           _("{path} has errors").format(path=loaded.doc.path))
    prepared = kernel.prepare(loaded, settings)
    if prepared.model is None:
        report = select(Report.unjudged(loaded.findings + prepared.findings, loaded.doc.path, loaded.kind))
        raise Unrenderable(report, prepared.reason or _("the state has errors"))
    return prepared.model, loaded.doc.path


def reaches(bf: Any, ids: list[str]) -> list[tuple[str, Any]]:
    """For each id: ``("base", BaseReach)`` and/or ``("corps", (corps, [OrderReach]))``."""
    from movecheck.budget import SearchLimit
    from movecheck.maneuver.reach import base_reach
    from movecheck.maneuver.reach_corps import corps_reach
    from movecheck.maneuver.setup import suggestion
    from movecheck.maneuver.world import World

    found: list[tuple[str, Any]] = []
    for ident in ids:
        base, corps = bf.bases.get(ident), bf.corps.get(ident)
        if base is None and corps is None:
            hint = suggestion(ident, sorted(set(bf.bases) | set(bf.corps)))
            raise ReachError(_("{id} is neither a base nor a corps of the battlefield").format(id=repr(ident)) + hint)
        if base is not None:
            try:
                found.append(("base", base_reach(World(bf, base.side), base)))
            except SearchLimit as exc:  # never a smaller region shown as the reach
                raise ReachError(_("cannot work out the reach of {id}: {reason}").format(
                    id=ident, reason=exc.reason())) from None
        if corps is not None:
            found.append(("corps", (corps, corps_reach(World(bf, corps.side), corps))))
    return found


def probability(p: Fraction) -> dict[str, Any]:
    """An exact probability and its value to 6 decimals."""
    return {"fraction": str(p), "decimal": round(float(p), 6)}


def _n(value: float) -> float | int:
    value = round(float(value), 3)
    if value == 0:
        return 0
    return int(value) if value.is_integer() else value


def reach_data(path: str, found: list[tuple[str, Any]]) -> dict[str, Any]:
    """The JSON document (schema ``reach``)."""
    from movecheck.maneuver.geodesic import rounded

    items: list[dict[str, Any]] = []
    for kind, item in found:
        if kind == "base":
            r = item
            b = r.base
            items.append({
                "id": b.id, "kind": "base", "side": b.side, "corps": b.corps, "centre": [_n(b.x), _n(b.y)],
                "facing": _n(b.facing), "mobility": _n(b.mobility), "allowance": _n(r.mobility),
                "tolerance": _n(r.tolerance),
                "engaged": list(r.engaged),
                "owed": [{"terrain": o.terrain.id, "die": o.die_name, "dice": str(o.dice), "entry": _n(o.entry)}
                         for o in r.owed],
                "clear": rounded(r.clear),
                "levels": [{"allowance": _n(lv.allowance), "probability": probability(lv.probability),
                            "region": rounded(lv.region)} for lv in r.levels],
                "limit": rounded(r.limit),
            })
            continue
        corps, orders = item
        order_of = {b.id: i for i, b in enumerate(corps.bases)}
        entries = []
        for o in orders:
            groups = []
            for group in o.groups:
                bases = sorted({bid for out in group for bid in out.ends}, key=order_of.__getitem__)
                groups.append({"bases": bases, "outcomes": [{
                    "probability": probability(out.probability),
                    "rolls": [{"base": base_id, "terrain": terrain, "die": o.dice.get((base_id, terrain), ""),
                               "values": values} for (base_id, terrain), values in sorted(out.rolls.items())],
                    "ends": {bid: [_n(out.ends[bid][0]), _n(out.ends[bid][1])] for bid in bases},
                } for out in group]})
            entries.append({"order": o.kind, "landmark": o.landmark.id if o.landmark is not None else None,
                            "reason": o.reason, "groups": groups})
        items.append({"id": corps.id, "kind": "corps", "side": corps.side, "orders": entries})
    return {"movecheck": 1, "kind": "reach", "state": path, "reach": items}


def reach_json(data: dict[str, Any]) -> str:
    """The JSON text (deterministic)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _odds(p: dict[str, Any]) -> str:
    from movecheck.maneuver.dice import describe_probability

    return f"{p['fraction']} ({describe_probability(Fraction(p['fraction']))})"


def reach_text(data: dict[str, Any]) -> str:
    """The report a player reads."""
    lines = []
    for item in data["reach"]:
        if item["kind"] == "base":
            lines.extend(_base_text(data["state"], item))
        else:
            lines.extend(_corps_text(data["state"], item))
    return "\n".join(lines) + "\n"


def _area(region: list[Any]) -> str:
    from shapely.geometry import Polygon

    total = sum(Polygon(rings[0], rings[1:]).area for rings in region)
    return fmt(total, 1)


def _base_text(path: str, item: dict[str, Any]) -> list[str]:
    lines = [_("{path}: free move of {base} ({corps}) from {centre}, facing {facing}°").format(
        path=path, base=item["id"], corps=item["corps"], centre=fmt_xy(tuple(item["centre"])),
        facing=fmt_deg(item["facing"]))]
    if item["allowance"] != item["mobility"]:
        head = _("allowance {allowance} steps (mobility {mobility} + {bonus} pre-battle)")
    else:
        head = _("allowance {allowance} steps (mobility {mobility})")
    head = head.format(allowance=fmt(item["allowance"], whole=True), mobility=fmt(item["mobility"], whole=True),
                       bonus=fmt(item["allowance"] - item["mobility"], whole=True))
    counted = _("positions within {tolerance} steps count").format(tolerance=fmt(item["tolerance"], trim=True))
    lines.append(f"  {head}; {counted}")
    if item["engaged"]:
        engaged = _("engaged with {enemies}: it may only move straight back or forward into full contact (M10)")
        lines.append("  " + engaged.format(enemies=", ".join(item["engaged"])))
    for o in item["owed"]:
        lines.append("  " + _("could owe the {die} roll ({dice}) for {terrain}, entered after {entry} steps or more")
                     .format(die=o["die"], dice=o["dice"], terrain=o["terrain"], entry=fmt(o["entry"])))
    lines.append("  " + _("clear ground, no roll owed: {area} square steps").format(area=_area(item["clear"])))
    for lv in item["levels"]:
        lines.append("  " + _("allowance at least {allowance} steps: {odds}, {area} square steps").format(
            allowance=fmt(lv["allowance"]), odds=_odds(lv["probability"]), area=_area(lv["region"])))
    lines.append("  " + _("beyond the limit ({area} square steps) an end is MV101 whatever the rolls").format(
        area=_area(item["limit"])))
    return lines


def _corps_text(path: str, item: dict[str, Any]) -> list[str]:
    lines = [_("{path}: compulsory orders of corps {corps}").format(path=path, corps=item["id"])]
    for o in item["orders"]:
        name = _(ORDER_NAMES[o["order"]]) + (f" {o['landmark']}" if o["landmark"] else "")
        if o["reason"] == "at_landmark":
            lines.append("  " + _("{order}: the corps is there already and does not move").format(order=name))
            continue
        if o["reason"]:
            lines.append("  " + _("{order}: not worked out ({reason})").format(order=name, reason=o["reason"]))
            continue
        lines.append(f"  {name}:")
        sure = [g["outcomes"][0] for g in o["groups"] if len(g["outcomes"]) == 1]
        if sure:  # the files no roll decides: one line
            ends = ", ".join(f"{bid} {fmt_xy(tuple(xy))}" for out in sure for bid, xy in out["ends"].items())
            lines.append(f"    {_odds(sure[0]['probability'])}: {ends}")
        for group in o["groups"]:
            if len(group["outcomes"]) == 1:
                continue
            for out in group["outcomes"]:
                ends = ", ".join(f"{bid} {fmt_xy(tuple(xy))}" for bid, xy in out["ends"].items())
                rolls = "; ".join(f"{r['base']} {r['terrain']} {r['die']} {_describe(r['values'])}"
                                  for r in out["rolls"])
                lines.append(f"    {_odds(out['probability'])}: {ends}" + (f" [{rolls}]" if rolls else ""))
    return lines


def _describe(values: list[int]) -> str:
    if len(values) == 1:
        return f"= {values[0]}"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(str(v) for v in values)
