"""The manoeuvre sections of a turn's post (``movecheck summary``).

An orders file: each order of the side in a table (the corps or base it moves, the
order, the ends declared, the rolls declared); an order that is not legal is not shown
as done, it is left to the findings at the top of the post.  A state alone: the sides
and their corps.
"""

from __future__ import annotations

from typing import Any

from movecheck.findings import Verdict
from movecheck.i18n import _
from movecheck.summary import Checked, Section


def title(item: Checked) -> str:
    """``red: orders on battlefield.yaml``, or the battlefield of a state."""
    if item.outcome is None:
        return _("Battlefield {path}").format(path=item.path)
    return _("{side}: orders on {state}").format(side=item.doc.get("side"), state=item.prepared.doc.path)


def sections(item: Checked) -> list[Section]:
    return state_sections(item) if item.outcome is None else orders_sections(item)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _point(value: Any) -> str:
    if isinstance(value, dict):
        text = f"({_number(value.get('x'))}, {_number(value.get('y'))})"
        if "facing" in value:
            text += f" {_number(value['facing'])}°"
        return text
    if isinstance(value, list) and len(value) == 2:
        return f"({_number(value[0])}, {_number(value[1])})"
    return str(value)


def order_row(order: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """One order as a row: id, what it moves, the order (and its landmark), the ends, the rolls."""
    who = str(order.get("corps") or order.get("base") or "-")
    kind = str(order.get("order", "-"))
    if order.get("landmark"):
        kind += " " + _("to {landmark}").format(landmark=order["landmark"])
    ends = order.get("end")
    if isinstance(ends, dict):
        end_text = ", ".join(f"{base} {_point(point)}" for base, point in ends.items())
    elif isinstance(order.get("path"), list) and order["path"]:
        end_text = f"{order.get('base')} {_point(order['path'][-1])}"
        if "facing" in order:
            end_text += " " + _("facing {angle}°").format(angle=_number(order["facing"]))
    else:
        end_text = "-"
    rolls = order.get("rolls")
    roll_text = ", ".join(f"{base}: {_number(n)}" for base, n in rolls.items()) if isinstance(rolls, dict) else "-"
    row = [str(order.get("id") or "-"), who, kind, end_text, roll_text]
    fact = {"id": order.get("id"), "moves": who, "order": order.get("order"), "landmark": order.get("landmark"),
            "end": ends if isinstance(ends, dict) else None, "rolls": rolls if isinstance(rolls, dict) else {}}
    return row, fact


def orders_sections(item: Checked) -> list[Section]:
    section = Section(_("Orders of {side}: {path}").format(side=item.doc.get("side"), path=item.path), "orders")
    raw = item.doc.get("orders", default=[])
    rows, facts = [], []
    for index, order in enumerate(raw if isinstance(raw, list) else [], start=1):
        if item.verdicts.get(index) is not Verdict.LEGAL or not isinstance(order, dict):
            continue
        row, fact = order_row(order)
        rows.append(row)
        facts.append(fact)
    section.table([_("order"), _("corps or base"), _("order given"), _("ends"), _("rolls declared")], rows)
    refused = item.not_done(section, len(rows), _("No orders."))
    if item.outcome is not None and item.outcome.hold:
        section.paragraph(item.outcome.hold)
    section.facts = {"side": item.doc.get("side"), "orders": facts, "not_done": refused}
    return [section]


def state_sections(item: Checked) -> list[Section]:
    bf = item.prepared.model
    section = Section(_("The battlefield: {path}").format(path=item.path), "battlefield")
    section.paragraph(_("{width} \u00d7 {depth} steps").format(width=_number(bf.width), depth=_number(bf.depth)))
    rows = []
    for side in sorted(bf.sides):
        for corps in sorted(bf.sides[side], key=lambda c: c.id):
            rows.append([side, corps.id, ", ".join(b.id for b in corps.bases)])
    section.table([_("side"), _("corps"), _("bases")], rows)
    section.facts = {"width": bf.width, "depth": bf.depth,
                     "sides": {side: {c.id: [b.id for b in c.bases] for c in sorted(bf.sides[side], key=lambda c: c.id)}
                               for side in sorted(bf.sides)}}
    return [section]
