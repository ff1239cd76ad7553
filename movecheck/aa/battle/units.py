"""Unit types as a battle sees them, the order of loss, and a battle made from counts of units.

The map's unit stats give each type's attack, defence, hit points and cost; the edition's
battle model (:mod:`movecheck.aa.battle.model`) says which of them are infrastructure.  The
order of loss of aa-battle.md ("Order of loss"): the types a player lists, then the others
cheapest first (ties: the lower value in the side's role, then the map's unit order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from movecheck.aa.battle.engine import AAGroup, Battle
from movecheck.aa.battle.model import AIR, BattleModel
from movecheck.aa.battle.side import DEFAULT_BUDGET, Kind, Side
from movecheck.aa.units import UnitType

DAMAGED = " (damaged)"
SUBMERGED = " (submerged)"
AMPHIBIOUS = " (amphibious)"
RETREATED = " (retreated)"


def is_artillery(unit: UnitType) -> bool:
    return unit.name == "artillery" or "artillery" in unit.abilities


def is_infantry(unit: UnitType) -> bool:
    """A unit artillery supports: the map's ``artillery_supportable`` (TripleA's isArtillerySupportable), else
    infantry."""
    return unit.name == "infantry" or "infantry" in unit.abilities or "artillery_supportable" in unit.abilities


def fights(model: type[BattleModel], unit: UnitType) -> bool:
    """A unit of the battle (not infrastructure).  A map's AA type (``aa`` stats) other than ``aa_gun`` is
    infrastructure where the edition's AA gun is, when it has neither attack nor defence."""
    if unit.aa is not None and unit.aa.battle and unit.name != "aa_gun" and not unit.attack and not unit.defense:
        return model.aa_gun_is_combat_unit
    return not model.is_infrastructure(unit.name, unit.is_factory)


def aa_groups(model: type[BattleModel], types: Mapping[str, UnitType], defenders: Mapping[str, int],
              attackers: Iterable[str]) -> tuple[AAGroup, ...]:
    """The defender's AA fire: the edition's AA gun (``aa_gun`` without ``aa`` stats: a hit on 1 in 6, the
    edition's shots per gun), then each type with ``aa`` stats that fires in battle, as they say."""
    air = [t for t in attackers if types[t].is_air]
    edition_guns = sum(n for t, n in defenders.items() if types[t].is_aa_gun and types[t].aa is None)
    plain = "aa_gun" not in types or types["aa_gun"].aa is None
    groups = [AAGroup(1, 6, model.aa_shots_per_gun, AIR, frozenset({"aa_gun"} if plain else ()),
                      0 if model.aa_gun_is_combat_unit else edition_guns)]
    for name in sorted(defenders):
        fire = types[name].aa
        if fire is None or not fire.battle or defenders[name] <= 0:
            continue
        spared = sorted(t for t in air if fire.targets is not None and t not in fire.targets)
        cls = f"{AIR}!{','.join(spared)}" if spared else AIR
        fixed = 0 if fights(model, types[name]) else defenders[name]
        groups.append(AAGroup(fire.value, fire.die_sides, fire.shots, cls, frozenset({name}), fixed))
    return tuple(groups)


def default_ool(types: Mapping[str, UnitType], names: Iterable[str], attacking: bool) -> list[str]:
    """Cheapest first; ties: the lower value in the side's role, then the map's unit order."""
    order = list(types)
    return sorted(names, key=lambda n: (types[n].cost or 0, types[n].attack if attacking else types[n].defense,
                                        order.index(n)))


def full_ool(types: Mapping[str, UnitType], present: Iterable[str], chosen: list[str] | None,
             attacking: bool) -> list[str]:
    """The order of loss of the types present: those ``chosen`` lists, then the others by default."""
    present = list(dict.fromkeys(present))
    first = [n for n in (chosen or []) if n in present]
    rest = default_ool(types, [n for n in present if n not in first], attacking)
    return first + rest


def supports(unit: UnitType, attacking: bool) -> tuple[tuple[int, int, frozenset[str], str], ...]:
    """The bonuses a type gives in its role (the map's ``support``, on attack or defence)."""
    return tuple((rule.bonus, rule.number, rule.units, rule.bonus_type) for rule in unit.support
                 if (rule.attack if attacking else rule.defence))


def cannot_hit(types: Mapping[str, UnitType], name: str, enemy: Iterable[str]) -> frozenset[str]:
    """The enemy types a unit cannot hit: those it names, and those that name it as unable to hit them."""
    unit = types[name]
    return frozenset(e for e in enemy if e in unit.can_not_target or name in types[e].can_not_be_targeted_by)


@dataclass(frozen=True)
class Landing:
    """A battle with amphibious units where a retreat is asked: the units that came from the sea (by type),
    and whether the land units that came overland may leave (the edition's ``partial_amphibious_retreat``
    and a land space they came from); aircraft may always leave (spec aa-turn.md, "Partial amphibious
    retreat")."""

    amphibious: Mapping[str, int]
    overland_leave: bool
    overland: Mapping[str, int] = field(default_factory=dict)
    """The attackers that did not come from the sea, by type (aircraft and land units that came overland)."""

    def leaves(self, kind: Kind) -> bool:
        return not kind.amphibious and (kind.air or (kind.land and self.overland_leave))

    def leaves_type(self, unit: UnitType) -> bool:
        """Units of this type that did not come from the sea may leave."""
        return unit.is_air or (unit.is_land and self.overland_leave)


def make_side(model: type[BattleModel], types: Mapping[str, UnitType], counts: Mapping[str, int],
              ool: list[str], attacking: bool, keep_land: int,
              enemy: Iterable[str] = (), landing: Landing | None = None) -> tuple[Side, tuple[int, ...]]:
    """A side's kinds in order of loss, and its starting counts.  With ``landing`` (the attacker of a
    battle with amphibious units, a retreat asked), a type's amphibious units are a kind of their own taken
    before the others of the type (they cannot leave), and each kind that may leave has a retreated kind."""
    enemy = list(enemy)
    kinds: list[Kind] = []
    start: list[int] = []
    two_hit: list[tuple[int, int]] = []
    submerge_to: dict[int, int] = {}
    for name in ool:
        unit = types[name]
        if not fights(model, unit) or counts.get(name, 0) <= 0:
            continue
        value = unit.attack if attacking else unit.defense
        base = Kind(name=name, base=name, value=value, cost=unit.cost or 0, air=unit.is_air, sub=unit.submarine,
                    destroyer=unit.destroyer, transport=unit.is_transport, land=unit.is_land,
                    infantry=is_infantry(unit), artillery=attacking and is_artillery(unit),
                    first="first_strike" in unit.abilities and not unit.submarine,
                    cannot=cannot_hit(types, name, enemy), supports=supports(unit, attacking))
        from_sea = min(landing.amphibious.get(name, 0), counts[name]) if landing is not None else 0
        if from_sea:
            kinds.append(Kind(**{**base.__dict__, "name": name + AMPHIBIOUS, "amphibious": True}))
            start.append(from_sea)
            if from_sea == counts[name]:
                continue
        kinds.append(base)
        start.append(counts[name] - from_sea)
        if unit.hit_points >= 2:
            two_hit.append((len(kinds) - 1, len(kinds)))
            kinds.append(Kind(**{**base.__dict__, "name": name + DAMAGED}))
            start.append(0)
        if unit.submarine:
            submerge_to[len(kinds) - 1] = len(kinds)
            kinds.append(Kind(**{**base.__dict__, "name": name + SUBMERGED, "out": True}))
            start.append(0)
    retreat_to: dict[int, int] = {}
    for index, kind in enumerate(list(kinds)):
        if landing is not None and not kind.out and landing.leaves(kind):
            retreat_to[index] = len(kinds)
            kinds.append(Kind(**{**kind.__dict__, "name": kind.name + RETREATED, "out": True}))
            start.append(0)
    side = Side(kinds, keep_land=keep_land, transports_last=model.transports_restricted, two_hit=two_hit,
                submerge_to=submerge_to, landing=landing is not None, retreat_to=retreat_to)
    return side, tuple(start)


def make_battle(model: type[BattleModel], types: Mapping[str, UnitType], attackers: Mapping[str, int],
                defenders: Mapping[str, int], *, land: bool, ool: Mapping[str, list[str]] | None = None,
                keep_land: int | None = None, bombard: tuple[int, ...] = (), may_retreat: bool = False,
                submerge: frozenset[str] = frozenset(), exact: bool = False,
                budget: int = DEFAULT_BUDGET, landing: Landing | None = None, low_luck: bool = False,
                low_luck_aa: bool = False, aa_guns: int = 0) -> tuple[Battle, dict[str, list[str]]]:
    """A battle ready for the odds, and the full order of loss of each side (``landing``: its amphibious
    units, when a retreat is asked, for the partial amphibious retreat; ``low_luck``, ``low_luck_aa``: the
    options of that name; ``aa_guns``: the territory's AA guns that are not among the ``defenders`` because they
    are infrastructure, yet fire in round 1)."""
    ool = ool or {}
    att_ool = full_ool(types, [n for n in attackers if fights(model, types[n])], ool.get("attacker"), True)
    def_ool = full_ool(types, [n for n in defenders if fights(model, types[n])], ool.get("defender"), False)
    keep = (1 if land else 0) if keep_land is None else keep_land
    att, a0 = make_side(model, types, attackers, att_ool, True, keep, def_ool, landing)
    dfn, d0 = make_side(model, types, defenders, def_ool, False, 0, att_ool)
    firing = {**defenders, "aa_gun": defenders.get("aa_gun", 0) + aa_guns} if aa_guns else defenders
    groups = aa_groups(model, types, firing, att_ool)
    battle = Battle(model, att, dfn, (a0, d0), land=land, aa_guns=groups[0].fixed, aa_groups=groups,
                    bombard=bombard, may_retreat=may_retreat, submerge=submerge, exact=exact, budget=budget,
                    low_luck=low_luck, low_luck_aa=low_luck_aa)
    return battle, {"attacker": att_ool, "defender": def_ool}
