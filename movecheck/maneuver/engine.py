"""Carry out a maneuver orders file on a battlefield, in file order, checking each order.

Each order is analysed against the battlefield as the earlier orders left it,
judged by the clauses of its kind, then carried out: a free move leaves its
base at the end of its path (lifted clear of what it overlaps there within the
tolerance: ``FreeAnalysis.end``); a corps order leaves each base at its declared
end (a declared end within ``tolerance`` of the required one is the required
one), or at the required end when none is declared.  A corps that is not the
subject of the current order is stationary for it (M6).  A later order for a
base that an earlier order moved is judged like any other and is MV204; it is
carried out too (``apply --force`` writes what the orders do as checked).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from movecheck.budget import SearchLimit, per_file
from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.i18n import _
from movecheck.maneuver import rules as _rules  # noqa: F401  (registers every clause)
from movecheck.maneuver.checks import rules_for
from movecheck.maneuver.checks.terrain import doubts
from movecheck.maneuver.corps import CorpsAnalysis, analyse_corps
from movecheck.maneuver.free import FreeAnalysis, analyse_free
from movecheck.maneuver.model import ORDER_NAMES, Base, Battlefield, fmt_data
from movecheck.maneuver.orders import Order, Resolver
from movecheck.maneuver.rolls import Branch, Branches
from movecheck.maneuver.world import World
from movecheck.render.escape import escape, unsafe, visible


@dataclass(frozen=True)
class Assumed:
    """An order right only for some values of the rolls nobody declared (MV304): ``legal`` tells which combinations.

    ``allowance``: for a free move, the allowance its path needs (the words for several rolls at once).
    """

    order: Order
    branches: Branches
    legal: Callable[[Branch], bool]
    allowance: float | None = None


def run(
    doc: Document,
    battlefield: Battlefield,
    side: str,
    valid_orders: set[int],
    observe: Callable[[Order, Any], None] | None = None,
    drafts: bool = False,
) -> tuple[list[Finding], str, set[int], list[Assumed]]:
    """Findings of every order, the ``--suggest`` text for the compulsory orders, the checked orders, and
    the orders checked legal only for some undeclared rolls (what the battlefield after them assumes).

    ``valid_orders``: the (1-based) orders the schema found nothing wrong with.  An
    order is checked when it is one of them, could be resolved, and every clause of
    its kind ran on it; the others (unknown names, schema errors) are not.  The
    battlefield's bases are moved: give each orders file its own copy.  ``observe``
    (``render``) sees each order and its analysis (None: unchecked) before it is carried out.
    ``drafts`` (``--suggest``): a corps order without ``end:`` is a draft (:attr:`Order.draft`).
    One search budget covers the whole file (:func:`movecheck.budget.per_file`).
    """
    with per_file():
        return _run(doc, battlefield, side, valid_orders, observe, drafts)


def _run(
    doc: Document,
    battlefield: Battlefield,
    side: str,
    valid_orders: set[int],
    observe: Callable[[Order, Any], None] | None,
    drafts: bool,
) -> tuple[list[Finding], str, set[int], list[Assumed]]:
    world = World(battlefield, side)
    resolver = Resolver(doc, battlefield, side, drafts)
    items = doc.get("orders", default=[])
    items = items if isinstance(items, list) else []
    orders = [resolver.resolve(i, item, (i + 1) in valid_orders) for i, item in enumerate(items)]
    findings = list(resolver.findings)
    required_ends: list[str] = []
    checked: set[int] = set()
    assumed: list[Assumed] = []
    clauses: dict[str, Any] = {}  # the clauses of each order kind, looked up once a file
    for index, order in enumerate(orders):
        if order is None:
            continue
        world.claim(order)  # a later order for one of its bases repeats it (MV204), usable or not
        if not order.usable:
            continue
        analysis: FreeAnalysis | CorpsAnalysis
        try:
            analysis = analyse_free(world, order) if order.kind == "free" else analyse_corps(world, order)
        except SearchLimit as exc:
            # unchecked: no finding from the incomplete analysis; the bases go where the order declares
            if observe is not None:
                observe(order, None)
            findings.append(doc.finding("MC012", _("{reason}, or declare the rolls").format(reason=exc.reason()),
                                        order.where))
            if order.kind != "free" and order.corps is not None:
                required_ends.append(f"# {order.label()}: {ORDER_NAMES[order.kind]}, {order.corps.id}: not checked "
                                   f"({exc.reason()}): declare the rolls")
            placed = _carry_out_declared(order)
            _ordered_by(battlefield, placed, None)
            world.moved(placed)
            continue
        if order.kind not in clauses:
            clauses[order.kind] = rules_for(order.kind)
        for rule in clauses[order.kind]:
            for problem in rule.run(analysis):
                assert problem.code is not None  # Clause.run gives each violation its code
                findings.append(doc.finding(problem.code, problem.message, problem.where, severity=problem.severity))
        checked.add(index + 1)
        allowance = analysis.motion.length - analysis.tolerance if isinstance(analysis, FreeAnalysis) else None
        assumed.extend(Assumed(order, branches, legal, allowance) for branches, legal in doubts(analysis))
        if observe is not None:
            observe(order, analysis)
        placed = _carry_out(analysis)
        _ordered_by(battlefield, placed, order.label() if isinstance(analysis, CorpsAnalysis) else None)
        world.moved(placed)
        if isinstance(analysis, CorpsAnalysis):
            required_ends.extend(_required_ends(analysis))
    text = ""
    if required_ends:
        text = f"# {escape(doc.path)}: end positions the rules require\n" + "\n".join(required_ends) + "\n"
    return findings, text, checked, assumed


def _carry_out(analysis: FreeAnalysis | CorpsAnalysis) -> list[Base]:
    """Place the order's bases where it leaves them; returns them (the world's index follows)."""
    if isinstance(analysis, FreeAnalysis):
        end = analysis.end or analysis.motion.end  # clear of what the path's end overlaps within the tolerance
        analysis.base.place(end[0], end[1], analysis.motion.end_facing)
        return [analysis.base]
    for base in analysis.corps.bases:
        x, y, facing = analysis.placement[base.id]
        base.place(x, y, facing, rect=analysis.placed_rects.get(base.id))
    return list(analysis.corps.bases)


def _ordered_by(battlefield: Battlefield, placed: list[Base], label: str | None) -> None:
    """Note on the corps of the ``placed`` bases which checked corps order moved it last (None: none did)."""
    for corps_id in {b.corps for b in placed}:
        battlefield.corps[corps_id].ordered_by = label


def _carry_out_declared(order: Order) -> list[Base]:
    """An unchecked order: a free move's base at the end of its path, a corps' bases at their declared ends."""
    if order.kind == "free" and order.base is not None and order.path:
        end = order.path[-1]
        order.base.place(float(end[0]), float(end[1]), order.facing if order.facing is not None else order.base.facing)
        return [order.base]
    if order.corps is not None:
        placed = []
        for base in order.corps.bases:
            declared = order.end.get(base.id)
            if declared is not None:
                base.place(declared.x, declared.y, declared.facing if declared.facing is not None else base.facing)
                placed.append(base)
        return placed
    return []


def _required_ends(a: CorpsAnalysis) -> list[str]:
    order = a.order
    title = f"# {escape(order.label())}: {ORDER_NAMES[order.kind]}, {escape(str(a.corps.id))}"
    head = [f"- id: {_name(order.id)}" if order.id else f"- corps: {_name(a.corps.id)}"]
    if order.id:
        head.append(f"  corps: {_name(a.corps.id)}")
    head.append(f"  order: {order.kind}")
    if order.kind == "to_landmark" and order.landmark is not None:
        head.append(f"  landmark: {_name(order.landmark.id)}")
    if a.towards_itself:
        return [title + " cannot be carried out", *[f"# {line}" for line in head]]
    if a.required_ends is None:
        needed = sorted(set(a.needed_rolls))
        rolls = escape(", ".join(f"the {die} roll ({dice}) for {b} entering {t}" for b, t, die, dice in needed))
        missing = ", ".join(f"{_name(b)}: {{{_name(t)}: <{die} roll, {dice}>}}" for b, t, die, dice in needed)
        return [f"{title}: declare the rolls first: {rolls}", *head,
                f"  # rolls: {{{missing}}}  (fill in, then run --suggest again)"]
    lines = [title, *head]
    if order.raw_rolls:
        lines.append("  rolls: " + _flow(order.raw_rolls))
    lines.append("  end:")
    for base in a.corps.bases:
        x, y = a.required_ends[base.id]
        lines.append(f"    {_name(base.id)}: {{x: {fmt_data(x, trim=True)}, y: {fmt_data(y, trim=True)}}}")
    return lines


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_name(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return str(value) if isinstance(value, (int, float)) else _name(value)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
"""A name YAML reads with its resolver alone (a letter first: no number, date or indicator), as ``safe_load``
would, without parsing a document for it (issue 37: seven names an order, 400 orders)."""


def _name(text: Any) -> str:
    """A name as a YAML scalar: plain when YAML reads it back as the same text, else quoted.

    Quoted, a control character, a line separator or a bidi override is a YAML escape
    (``\\x1b``, ``\\u2028``), so a name can neither start a YAML line of its own nor
    disturb the terminal, and still reads back as the same name.
    """

    return _yaml_name(str(text))


@functools.lru_cache(maxsize=4096)
def _yaml_name(name: str) -> str:
    """:func:`_name` of a text, worked out once per text (an order's corps and bases are named on every line of
    its ``--suggest`` entry, and many orders share names)."""
    import yaml

    if _WORD.match(name):  # a word reads back as itself unless YAML takes it for true, false or null
        tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, name, (True, False))  # type: ignore[no-untyped-call]
        plain = tag == "tag:yaml.org,2002:str"
    else:
        try:
            plain = (not unsafe().search(name) and yaml.safe_load(name) == name and ":" not in name
                     and "#" not in name)
        except yaml.YAMLError:
            plain = False
    if plain:
        return name
    return unsafe().sub(lambda match: visible(match.group(), undecodable=False), json.dumps(name, ensure_ascii=False))
