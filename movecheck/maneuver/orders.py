"""Read the orders of a maneuver orders file and resolve the names they use.

Names are resolved (MC004, with close matches, at the node that holds the name)
for every order, even one with schema errors, so one typo does not hide
another.  An order is *usable* by the rules when it has no schema error and
every name it needs resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.fixes import replacements
from movecheck.i18n import _
from movecheck.maneuver.model import Base, Battlefield, Corps, Landmark
from movecheck.maneuver.rolls import RollBook
from movecheck.maneuver.setup import finite
from movecheck.suggest import close_names, did_you_mean

CORPS_ORDERS = ("all_ahead", "all_back", "to_landmark")


@dataclass
class Declared:
    """A declared end position of one base."""

    x: float
    y: float
    facing: float | None
    where: tuple[Any, ...]


@dataclass
class Order:
    """One order with its names resolved."""

    index: int
    kind: str
    id: str | None
    where: tuple[Any, ...]
    corps: Corps | None = None
    base: Base | None = None
    landmark: Landmark | None = None
    rolls: RollBook = field(default_factory=lambda: RollBook(None))
    raw_rolls: dict[str, Any] = field(default_factory=dict)
    end: dict[str, Declared] = field(default_factory=dict)
    path: list[tuple[float, float]] = field(default_factory=list)
    facing: float | None = None
    usable: bool = True
    draft: bool = False
    """A corps order without ``end:`` under ``--suggest``: a draft, whose ends are the ones the rules give."""

    @property
    def moving(self) -> list[Base]:
        """The bases this order moves."""
        if self.kind == "free":
            return [self.base] if self.base is not None else []
        return list(self.corps.bases) if self.corps is not None else []

    def label(self) -> str:
        """``order 2 (o2)``."""
        return f"order {self.index + 1}" + (f" ({self.id})" if self.id else "")


class Resolver:
    """Resolves the names of one orders file against a battlefield and a side."""

    def __init__(self, doc: Document, battlefield: Battlefield, side: str, drafts: bool = False) -> None:
        self.doc = doc
        self.drafts = drafts
        self.bf = battlefield
        self.side = side
        self.findings: list[Finding] = []
        self._own_bases: list[str] | None = None

    def unknown(self, message: str, path: tuple[Any, ...], key: bool = False) -> None:
        self.findings.append(self.doc.finding("MC004", message, path, key=key))

    def unknown_name(self, message: str, name: Any, known: list[str], path: tuple[Any, ...], key: bool = False) -> None:
        """MC004 for a name none of ``known`` is, with its closest known names: in the message and as fixes."""
        close = close_names(name, known, charge=self.doc)
        self.findings.append(self.doc.finding("MC004", message + did_you_mean(close), path, key=key,
                                              fixes=replacements(self.doc, path, close, key=key)))

    def own_corps(self) -> list[str]:
        return [c.id for c in self.bf.sides.get(self.side, [])]

    def own_bases(self) -> list[str]:
        if self._own_bases is None:  # asked again for every unknown name
            self._own_bases = [b.id for b in self.bf.bases_of(self.side)]
        return self._own_bases

    def resolve(self, index: int, data: Any, schema_ok: bool) -> Order | None:
        if not isinstance(data, dict):
            return None
        where = ("orders", index)
        kind = data.get("order")
        oid = data.get("id") if isinstance(data.get("id"), str) else None
        order = Order(index, kind if isinstance(kind, str) else "", oid, where, usable=schema_ok)
        ok = True
        if "corps" in data:
            order.corps = self.corps(data["corps"], (*where, "corps"))
            ok = ok and order.corps is not None
        if "base" in data:
            order.base = self.base(data["base"], (*where, "base"), order.corps)
            ok = ok and order.base is not None
        if "landmark" in data:
            order.landmark = self.landmark(data["landmark"], (*where, "landmark"))
            ok = ok and order.landmark is not None
        rolls = data.get("rolls")
        if isinstance(rolls, dict):
            ok = self.rolls(rolls, (*where, "rolls")) and ok
            order.rolls = RollBook(rolls)
            order.raw_rolls = rolls
        end = data.get("end")
        order.draft = self.drafts and end is None and order.kind != "free"
        if isinstance(end, dict):
            ok = self.ends(end, (*where, "end"), order) and ok
        path = data.get("path")
        if isinstance(path, list):
            ok = self.waypoints(path, (*where, "path"), order) and ok
        facing = data.get("facing")
        if finite(facing):
            order.facing = float(cast(float, facing)) % 360.0
        elif facing is not None:
            ok = False  # not a finite number: MC003 from the schema
        if order.kind in CORPS_ORDERS and order.corps is None:
            ok = False
        if order.kind == "free" and order.base is None:
            ok = False
        if order.kind == "to_landmark" and order.landmark is None:
            ok = False
        order.usable = order.usable and ok and order.kind in (*CORPS_ORDERS, "free")
        return order

    def corps(self, name: Any, path: tuple[Any, ...]) -> Corps | None:
        if not isinstance(name, str):
            return None
        corps = self.bf.corps.get(name)
        if corps is not None and corps.side == self.side:
            return corps
        if corps is not None:
            self.unknown(_("corps {name} belongs to {owner}, not to {side}, whose orders these are").format(
                name=repr(name), owner=corps.side, side=self.side), path)
            return None
        self.unknown_name(_("corps {name} does not exist on {side}'s side").format(name=repr(name), side=self.side),
                          name, self.own_corps(), path)
        return None

    def base(self, name: Any, path: tuple[Any, ...], corps: Corps | None) -> Base | None:
        if not isinstance(name, str):
            return None
        base = self.bf.bases.get(name)
        if base is None:
            pool = [b.id for b in corps.bases] if corps is not None else self.own_bases()
            self.unknown_name(_("base {name} does not exist").format(name=repr(name)), name, pool or self.own_bases(),
                              path)
            return None
        if base.side != self.side:
            self.unknown(_("base {name} belongs to {owner}, not to {side}, whose orders these are").format(
                name=repr(name), owner=base.side, side=self.side), path)
            return None
        if corps is not None and base.corps != corps.id:
            self.unknown_name(_("base {name} is in corps {corps}, not in {other}").format(
                name=repr(name), corps=base.corps, other=corps.id), name, [b.id for b in corps.bases], path)
            return None
        return base

    def landmark(self, name: Any, path: tuple[Any, ...]) -> Landmark | None:
        """A landmark of the battlefield, or a terrain element or corps named directly."""
        if not isinstance(name, str):
            return None
        if name in self.bf.landmarks:
            return self.bf.landmarks[name]
        if name in self.bf.terrain:
            return Landmark(name, terrain=name)
        if name in self.bf.corps:
            return Landmark(name, corps=name)
        pool = list(self.bf.landmarks) + list(self.bf.terrain) + list(self.bf.corps)
        self.unknown_name(_("landmark {name} is neither a landmark, a terrain element nor a corps").format(
            name=repr(name)), name, pool, path)
        return None

    def rolls(self, rolls: dict[str, Any], path: tuple[Any, ...]) -> bool:
        ok = True
        for base_id, value in rolls.items():
            base = self.bf.bases.get(base_id)
            if base is None or base.side != self.side:
                if base is None:
                    message = _("rolls name base {name}, which does not exist").format(name=repr(base_id))
                else:
                    message = _("rolls name base {name}, which belongs to {owner}").format(
                        name=repr(base_id), owner=base.side
                    )
                self.unknown_name(message, base_id, self.own_bases(), (*path, base_id), key=True)
                ok = False
            if isinstance(value, dict):
                for tid in value:
                    if tid not in self.bf.terrain:
                        self.unknown_name(_("rolls name terrain {name}, which the battlefield does not have").format(
                            name=repr(tid)), tid, list(self.bf.terrain), (*path, base_id, tid), key=True)
                        ok = False
        return ok

    def ends(self, end: dict[str, Any], path: tuple[Any, ...], order: Order) -> bool:
        ok = True
        for base_id, value in end.items():
            where = (*path, base_id)
            base = self.bf.bases.get(base_id)
            if base is None:
                pool = [b.id for b in order.corps.bases] if order.corps is not None else self.own_bases()
                self.unknown_name(_("end names base {name}, which does not exist").format(name=repr(base_id)),
                                  base_id, pool, where, key=True)
                ok = False
                continue
            if order.corps is not None and base.corps != order.corps.id:
                self.unknown(_("end names base {name}, which is in corps {corps}, not in {other}").format(
                    name=repr(base_id), corps=base.corps, other=order.corps.id), where, key=True)
                ok = False
                continue
            # a value that is not a finite number is MC003 from the schema: the order is not usable
            if not isinstance(value, dict) or not all(finite(value.get(k)) for k in ("x", "y")):
                ok = False
                continue
            facing = value.get("facing")
            if facing is not None and not finite(facing):
                ok = False
                continue
            order.end[base_id] = Declared(
                float(value["x"]), float(value["y"]), float(facing) % 360.0 if facing is not None else None, where
            )
        return ok

    def waypoints(self, path: list[Any], where: tuple[Any, ...], order: Order) -> bool:
        points = []
        for item in path:
            if not isinstance(item, list) or len(item) != 2 or not all(finite(v) for v in item):
                return False  # MC003 from the schema
            points.append((float(item[0]), float(item[1])))
        order.path = points
        return bool(points)
