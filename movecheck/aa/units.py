"""The units of the A&A board: a unit type's movement facts, one unit with this turn's status, units in words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from movecheck.aa.wording import power_adjective, type_noun, unit_phrase
from movecheck.i18n import _
from movecheck.records import dataclass_on_first_use


@dataclass_on_first_use(frozen=True)
class AAFire:
    """A unit type's AA fire in battle, as the map's ``aa`` stat gives it (TripleA's AA options)."""

    value: int = 1
    die_sides: int = 6
    shots: int | None = None
    """Shots per unit (None: one per aircraft it may hit)."""
    targets: frozenset[str] | None = None
    """The types it may hit (None: every aircraft)."""
    battle: bool = True
    """It fires in battle (TripleA's isAA or isAAforCombatOnly)."""

    @classmethod
    def from_data(cls, data: Any) -> AAFire | None:
        if not isinstance(data, dict):
            return None
        shots = data.get("shots")
        targets = data.get("targets")
        return cls(value=ipc_amount(data.get("value", 1)), die_sides=max(1, ipc_amount(data.get("die_sides", 6))),
                   shots=ipc_amount(shots) if shots is not None else None,
                   targets=frozenset(str(t) for t in targets) if isinstance(targets, list) else None,
                   battle=bool(data.get("battle", True)))


@dataclass_on_first_use(frozen=True)
class Support:
    """A bonus a unit type gives other units in battle (the map's ``support``, TripleA's supportAttachments)."""

    units: frozenset[str]
    bonus: int
    number: int = 1
    attack: bool = True
    defence: bool = False
    bonus_type: str = ""

    @classmethod
    def all_from(cls, supporter: str, data: Any) -> tuple[Support, ...]:
        found = []
        for rule in data if isinstance(data, list) else []:
            if isinstance(rule, dict) and isinstance(rule.get("units"), list):
                found.append(cls(units=frozenset(str(u) for u in rule["units"]),
                                 bonus=int(rule.get("bonus", 0)) if isinstance(rule.get("bonus"), int) else 0,
                                 number=max(1, ipc_amount(rule.get("number", 1))),
                                 attack=bool(rule.get("attack", False)), defence=bool(rule.get("defence", False)),
                                 bonus_type=str(rule.get("bonus_type") or supporter)))
        return tuple(found)


@dataclass(frozen=True)
class UnitType:
    """Movement facts of one unit type."""

    name: str
    movement: int
    domain: str
    transport_cost: int = 0
    transport_capacity: int = 0
    carrier_capacity: int = 0
    carrier_cost: int = 0
    blitz: bool = False
    submarine: bool = False
    destroyer: bool = False
    hit_points: int = 1
    """Hits that sink it: 2 for a two-hit battleship (``Two hit battleship``; TripleA's ``hitPoints``)."""
    cost: int | None = None
    """What one unit costs in IPCs (None: the map gives no cost, so it cannot be bought)."""
    attack: int = 0
    defense: int = 0
    """The values it hits at in battle, attacking and defending (the map's unit stats)."""
    abilities: frozenset[str] = frozenset()
    """Battle abilities the map's unit stats name with ``true`` (``infantry``, ``artillery``, ...)."""
    bombard: int = 0
    can_not_target: frozenset[str] = frozenset()
    """Enemy unit types it cannot hit in battle (the map's ``can_not_target``, TripleA's canNotTarget)."""
    can_not_be_targeted_by: frozenset[str] = frozenset()
    """Enemy unit types that cannot hit it (``can_not_be_targeted_by``, TripleA's canNotBeTargetedBy)."""
    """The value it bombards a landing at, as the map's unit stats give it (0: the edition decides)."""
    aa: AAFire | None = None
    """Its AA fire as the map's ``aa`` stat gives it (None: the edition's AA gun rules, for ``aa_gun`` only)."""
    support: tuple[Support, ...] = ()
    """The bonuses it gives other units in battle (the map's ``support``)."""

    @classmethod
    def from_data(cls, name: str, data: dict[str, Any]) -> UnitType:
        return cls(
            name=name,
            movement=int(data.get("movement", 0)),
            domain=str(data.get("domain", "land")),
            transport_cost=int(data.get("transport_cost", 0)),
            transport_capacity=int(data.get("transport_capacity", 0)),
            carrier_capacity=int(data.get("carrier_capacity", 0)),
            carrier_cost=int(data.get("carrier_cost", 0)),
            blitz=bool(data.get("blitz", False)),
            submarine=bool(data.get("submarine", False)),
            destroyer=bool(data.get("destroyer", False)),
            hit_points=int(data.get("hit_points", 1)),
            cost=ipc_amount(data["cost"]) if "cost" in data else None,
            attack=ipc_amount(data.get("attack", 0)),
            defense=ipc_amount(data.get("defense", 0)),
            abilities=frozenset(str(k) for k, v in data.items() if v is True),
            bombard=ipc_amount(data.get("bombard", 0)),
            can_not_target=frozenset(str(n) for n in data.get("can_not_target", ())),
            can_not_be_targeted_by=frozenset(str(n) for n in data.get("can_not_be_targeted_by", ())),
            aa=AAFire.from_data(data.get("aa")),
            support=Support.all_from(name, data.get("support")),
        )

    # the domain's facts, read once a type (issue 37: a run asks them some seventy times an order; a frozen type's
    # fields never change, and a cached property is kept in the instance's own dict, outside its fields)
    @cached_property
    def is_land(self) -> bool:
        return self.domain == "land"

    @cached_property
    def is_sea(self) -> bool:
        return self.domain == "sea"

    @cached_property
    def is_air(self) -> bool:
        return self.domain == "air"

    @cached_property
    def is_fighter(self) -> bool:
        """Aircraft that can land on carriers."""
        return self.is_air and self.carrier_cost > 0

    @cached_property
    def is_bomber(self) -> bool:
        """Aircraft that cannot land on carriers: the bombers, which may raid a factory."""
        return self.is_air and self.carrier_cost == 0

    @cached_property
    def is_transport(self) -> bool:
        return self.is_sea and self.transport_capacity > 0

    @cached_property
    def is_carrier(self) -> bool:
        return self.is_sea and self.carrier_capacity > 0

    @property
    def is_surface_warship(self) -> bool:
        """Battleships, cruisers, destroyers, carriers: what makes a sea zone hostile."""
        return self.is_sea and not self.submarine and not self.is_transport

    @property
    def is_aa_gun(self) -> bool:
        return self.name == "aa_gun"

    @property
    def is_factory(self) -> bool:
        return self.is_land and self.movement == 0



def ipc_amount(value: Any) -> int:
    """An IPC amount as a map writes it: a whole number, else 0 (the schema has said so)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(eq=False)
class Unit:
    """One unit on the board, with this turn's status."""

    uid: int
    type: UnitType
    power: str
    at: str
    id: str | None = None
    moved: int = 0
    fought: bool = False
    submerged: bool = False
    """A submarine that submerged in a battle this turn (Revised): out of play, it makes no zone hostile."""
    aboard: Unit | None = None
    loaded: bool = False
    unloaded_to: str | None = None
    unloaded_before: bool = False
    damaged: bool = False
    """A two-hit unit hit once this turn (``damaged: true``), repaired at the end of the turn."""
    landed_from: str | None = None
    """Land unit in a battles state: the id of the transport it was unloaded from this turn (``unloaded_from:``)."""
    damage: int = 0
    """A factory's damage from strategic bombing (``damage:``): its capacity is the IPC value less this."""
    # this phase
    spent: int = 0
    move_count: int = 0
    last_order: int | None = None
    done: bool = False
    in_battle: bool = False
    raiding: bool = False
    """A bomber whose last order of the combat move says ``raid: true`` (a strategic bombing raid)."""
    loaded_now: bool = False
    unloaded_now: bool = False
    landed: bool = False
    cargo: list[Unit] = field(default_factory=list)
    source: tuple[Any, ...] = ()
    ref: str = ""
    """A generated id for a unit the state gives none (its place in ``units:``), for the report's ``assignment``."""

    @property
    def left(self) -> int:
        """Movement points left this turn."""
        return self.type.movement - self.moved - self.spent

    def label(self) -> str:
        """Its id, or ``1 German fighter``."""
        return self.id if self.id else unit_phrase(1, self.type.name, self.power)


def readiness(unit: Unit) -> tuple[Any, ...]:
    """Sort key: the units best able to move first: not done, not in battle, no fighter landed on
    it (or it on a carrier), not a transport that unloaded, most movement left.

    A unit's key only ever grows during a phase (``done``/``in_battle`` become true,
    ``spent`` grows), which :meth:`Board.ready` relies on.
    """
    return (unit.done, unit.in_battle, unit.landed, unit.unloaded_to is not None, -unit.left, unit.uid)


def describe(units: Iterable[Unit], powers: bool = False) -> str:
    """``2 tanks``, ``1 infantry and 1 tank`` or an id list, for messages.

    With ``powers``: ``2 German tanks``, ``the Japanese transport Maru``.
    """
    units = list(units)
    the = _("the {adjective} {kind} {id}")
    named = [
        the.format(adjective=power_adjective(u.power), kind=type_noun(u.type.name), id=u.id, power=u.power)
        if powers else u.id
        for u in units if u.id
    ]
    counts: dict[tuple[str, str | None], int] = {}
    for unit in units:
        if not unit.id:
            key = (unit.type.name, unit.power if powers else None)
            counts[key] = counts.get(key, 0) + 1
    parts = [unit_phrase(n, t, p) for (t, p), n in counts.items()] + named
    if not parts:
        return _("no units")
    return parts[0] if len(parts) == 1 else _("{first} and {last}").format(first=", ".join(parts[:-1]), last=parts[-1])
