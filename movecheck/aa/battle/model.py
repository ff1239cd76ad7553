"""One declared battle model per edition: the steps of a round, target classes, automatic steps.

An edition's battle is one class: data (which switches of TripleA's game file it sets, which
ships bombard, how AA guns fire) plus a few named hooks (:meth:`BattleModel.sub_surprise`,
:meth:`BattleModel.air_hits_subs`).  The engine (:mod:`movecheck.aa.battle.engine`) asks only
these; it knows no edition.  Facts and sources: spec aa-battle-rules.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from movecheck.aa.units import UnitType

STEPS = ("aa", "bombard", "sub_strike", "subs", "air", "fire", "damage")
"""The firing steps of a round in their order (aa-battle.md, "Words")."""

ANY, NON_AIR, NON_SUB, AIR = "any", "non_air", "non_sub", "air"
"""Target classes: what a step's hits may take."""

STEP_TARGETS = {"aa": AIR, "bombard": ANY, "sub_strike": NON_AIR, "subs": NON_AIR, "air": NON_SUB, "fire": ANY}
"""Which enemy units each step's hits may take (infrastructure and cargo never)."""


class BattleModel:
    """The battle of the 1942 second edition (TripleA's v3 rules plus its AA guns): the base model."""

    editions: ClassVar[tuple[str, ...]] = ("aa1942",)
    """The editions (by name, :mod:`movecheck.aa.editions`) this model is the battle of."""
    air_attack_sub_restricted: ClassVar[bool] = True
    """Aircraft hit submarines only with a destroyer of their side (``Air Attack Sub Restricted``)."""
    transports_restricted: ClassVar[bool] = True
    """Transports defenceless, taken last, removed when alone (``Transport Casualties Restricted``)."""
    subs_always_sub_step: ClassVar[bool] = False
    """Every submarine fires in the surprise step, countered or not (Revised's WW2V2)."""
    submerge_before_round: ClassVar[bool] = True
    """Submarines submerge at the start of a round (``Sub Retreat Before Battle``); else after its fire."""
    auto_submerge_vs_air: ClassVar[bool] = True
    """Submarines facing only aircraft that cannot hit them submerge by themselves."""
    aa_gun_is_combat_unit: ClassVar[bool] = True
    """The AA gun is a 0-defence unit that can be a casualty (1942 second edition); else infrastructure."""
    aa_shots_per_gun: ClassVar[int | None] = 3
    """Each gun fires at most this many shots (None: one die per attacking aircraft, however many guns)."""
    aa_attacker_chooses: ClassVar[bool] = True
    """The attacker chooses the aircraft AA fire takes (``Choose AA Casualties``); else the dice name them."""
    bombard_types: ClassVar[tuple[str, ...]] = ("battleship", "cruiser")
    """The ships that bombard where the map's unit stats do not say (see :meth:`bombard_value`)."""
    bombard_per_land_unit: ClassVar[bool] = True
    """At most one bombarding ship per amphibious land unit (``Shore Bombard Per Ground Unit Restricted``)."""
    bombard_casualties_fire: ClassVar[bool] = True
    """Bombardment casualties fire back (``Naval Bombard Casualties Return Fire``)."""
    partial_amphibious_retreat: ClassVar[bool] = True
    raid_aa: ClassVar[str] = "factory"
    """Who fires at raiders: the factory's own AA (``factory``) or the territory's AA guns (``gun``)."""
    raid_cap: ClassVar[str] = "factory"
    """A raid's cap: factory damage at most twice the territory's value (``factory``), or each bomber's
    die at most the value and the owner's IPCs never below 0 (``ipcs``)."""

    @classmethod
    def sub_surprise(cls, enemy_has_destroyer: bool) -> bool:
        """A side's submarines fire before the exchange (and their casualties are gone before they fire)."""
        return not enemy_has_destroyer

    @classmethod
    def sub_fires_in_sub_step(cls, enemy_has_destroyer: bool) -> bool:
        """A side's submarines fire in the surprise step (countered or not)."""
        return cls.subs_always_sub_step or cls.sub_surprise(enemy_has_destroyer)

    @classmethod
    def air_hits_subs(cls, own_destroyer: bool) -> bool:
        """A side's aircraft may hit enemy submarines."""
        return own_destroyer or not cls.air_attack_sub_restricted

    @classmethod
    def bombard_value(cls, unit: UnitType) -> int:
        """The value a ship bombards at (0: it does not): the map's ``bombard`` stat where it gives one
        (an imported TripleA map's ``canBombard``), else the attack of the edition's bombarding types."""
        if unit.bombard:
            return unit.bombard
        return unit.attack if unit.is_sea and unit.name in cls.bombard_types else 0

    @classmethod
    def is_infrastructure(cls, name: str, is_factory: bool) -> bool:
        """Units that never fight and are never hit (factories; AA guns where they are not combat units)."""
        return is_factory or (name == "aa_gun" and not cls.aa_gun_is_combat_unit)


class RevisedBattle(BattleModel):
    """Revised (TripleA's WW2V2): aircraft always hit subs, transports defend at 1, every sub fires
    in the surprise step, subs submerge after the round's fire, the AA gun is infrastructure firing
    one die per aircraft, only battleships bombard (no limit, casualties do not fire back), only
    aircraft retreat from an amphibious landing, raiders lose the owner IPCs."""

    editions = ("aa-revised",)
    air_attack_sub_restricted = False
    transports_restricted = False
    subs_always_sub_step = True
    submerge_before_round = False
    auto_submerge_vs_air = False
    aa_gun_is_combat_unit = False
    aa_shots_per_gun = None
    aa_attacker_chooses = False
    bombard_types = ("battleship",)
    bombard_per_land_unit = False
    bombard_casualties_fire = False
    partial_amphibious_retreat = False
    raid_aa = "gun"
    raid_cap = "ipcs"


class AnniversaryBattle(BattleModel):
    """Anniversary: the 1942 second edition's battle, but its AA gun is infrastructure firing one die
    per aircraft (the dice name the planes) and it is the gun that fires at raiders."""

    editions = ("aa-anniversary", "aa-anniversary-1941", "aa-anniversary-1942")
    aa_gun_is_combat_unit = False
    aa_shots_per_gun = None
    aa_attacker_chooses = False
    raid_aa = "gun"


MODELS: tuple[type[BattleModel], ...] = (BattleModel, RevisedBattle, AnniversaryBattle)


def model_for(edition: str, extends: tuple[str, ...] = ()) -> type[BattleModel]:
    """The battle model of an edition (by name; else of the first edition it extends that has one)."""
    for name in (edition, *extends):
        for model in MODELS:
            if name in model.editions:
                return model
    return BattleModel
