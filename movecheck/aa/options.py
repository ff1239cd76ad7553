"""The aa rule options: every rule that differs between editions, declared once.

Each default is the value of the base edition (``aa1942``); an edition
(:mod:`movecheck.aa.editions`) names only the values it changes.  The clauses
listed are the ones whose verdict the option changes.  After adding or changing
an option here, run ``python scripts/gen_schemas.py`` (the state schema's
``options`` are generated from this list).
"""

from __future__ import annotations

from movecheck.options import OptionSet, choice, flag

OPTIONS = OptionSet(
    "aa",
    (
        flag(
            "sub_transport_zones_hostile",
            False,
            "enemy subs/transports make a sea zone hostile and block movement/loading",
            ("AA201", "AA301", "AA302", "AA406"),
        ),
        flag("subs_may_end_ncm_in_hostile", True, "subs may end noncombat move in a hostile zone", ("AA301",)),
        flag(
            "destroyer_stops_subs",
            True,
            "a submarine stops on entering a zone with an enemy destroyer (AA204)",
            ("AA204",),
        ),
        flag(
            "land_on_new_carrier",
            True,
            "fighters may wait in a zone next to a factory for a carrier bought this turn (N13)",
            ("AA207", "AA303", "AA304", "AA305", "AA708"),
        ),
        flag("aa_guns_move_in_combat", False, "AA guns may move in combat move (AA108 off)", ("AA108",)),
        flag(
            "transport_ncm_after_combat",
            False,
            "transports that acted in combat may still move in noncombat (AA307 off)",
            ("AA307", "AA403"),
        ),
        flag(
            "neutrals_impassable",
            True,
            "no unit enters, crosses or overflies a neutral territory (AA106)",
            ("AA106", "AA207", "AA303", "AA906"),
        ),
        flag("combat_move_must_attack", True, "every combat move must lead to a battle (AA203)", ("AA203",)),
        flag(
            "subs_may_submerge",
            True,
            "submarines may submerge in a battle when no enemy destroyer is there (AA506)",
            ("AA506",),
        ),
        flag(
            "aa_guns_captured",
            False,
            "AA guns change hands with their territory, as factories do (Revised); off: an AA gun is a defending unit, "
            "a casualty like any other, and a territory holding one is a battle until it is destroyed (1942)",
            ("AA206", "AA502", "AA505", "AA524"),
        ),
        flag(
            "partial_amphibious_retreat",
            True,
            "in a battle with amphibious land units, the land units that came overland may retreat; "
            "the amphibious ones stay",
            ("AA503", "AA505"),
        ),
        # the whole turn (spec aa-turn.md, "Options added by this file")
        flag(
            "place_in_enemy_seas",
            True,
            "sea units may be placed in a zone next to the factory that holds enemy units (AA704)",
            ("AA704",),
        ),
        flag(
            "new_fighters_on_old_carriers",
            True,
            "a fighter bought this turn may be placed on a carrier of its power already in the zone (AA705)",
            ("AA705",),
        ),
        flag(
            "move_existing_fighters_to_new_carriers",
            False,
            "fighters standing in a factory territory may move onto a carrier placed from it (AA709, Revised)",
            ("AA709",),
        ),
        choice(
            "unplaced_units",
            "refunded",
            ("refunded", "lost", "kept"),
            "units bought and not placed: their cost is refunded, they are lost, or they are kept to be placed later "
            "(AA707)",
            ("AA707",),
        ),
        flag(
            "research_step",
            False,
            "the turn has a research step: IPCs written under research: in a purchase count against its budget "
            "(Revised); off: research: is an error (AA606)",
            ("AA606",),
        ),
        flag(
            "factory_damage",
            True,
            "strategic bombing damages the factory (capacity less the damage, repaired for IPCs); off: the owner "
            "loses IPCs instead (Revised)",
            ("AA508", "AA523"),
        ),
        # the Anniversary edition (spec aa-anniversary.md)
        flag(
            "national_objectives",
            False,
            "at the end of its turn a power holding its capital collects the bonus of each of its map's National "
            "Objectives that holds (Anniversary)",
            ("AA601",),  # no clause judges the bonus itself: it is in the treasury the next purchase spends
        ),
        flag(
            "chinese_rules",
            False,
            "the powers the map's player_rules name (China) move only within their listed territories, have no "
            "treasury, get free infantry at their purchase and place them without a factory (Anniversary)",
            ("AA110", "AA710", "AA711"),
        ),
        # Low Luck (spec aa-battle.md, "Low Luck"; aa-battle-rules.md 5): TripleA's tournament dice
        flag(
            "low_luck",
            False,
            "Low Luck: each firing step's total power P gives P // 6 sure hits and one die hitting on P mod 6, AA "
            "fire included (TripleA's Low Luck); the odds follow it and a result's dice are not checked (AA522)",
            ("AA522",),
        ),
        flag(
            "low_luck_aa",
            False,
            "Low Luck for AA fire only: its shots give shots // 6 sure hits and one die hitting on shots mod 6 "
            "(TripleA's Low Luck for AntiAircraft); a result's dice are not checked (AA522)",
            ("AA522",),
        ),
        flag(
            "low_luck_bombing",
            False,
            "Low Luck for bombing: each surviving bomber of a raid does 3 or 4 damage instead of a die (TripleA's "
            "Low Luck for Bombing and Territory Damage); a result's dice are not checked (AA522)",
            ("AA522",),
        ),
        choice(
            "victory",
            "map",
            ("map", "projection_of_power", "honorable_surrender", "total_victory"),
            "the victory cities a side must hold to win: the map's own victory condition, or TripleA's setting "
            "Projection of Power (13), Honorable Surrender (15) or Total Victory (18) on a map that lists victory "
            "cities (Anniversary)",
            ("AA914",),  # no clause judges the win itself: the apply and the summary say it
        ),
    ),
)
