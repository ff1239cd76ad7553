"""A small writer of TripleA-format game files (as documented by TripleA's game.dtd), for the tests.

``game_xml(map_data)`` writes the XML of a TripleA game holding the facts of a movecheck map
(a built-in one, say): territories, connections, players in turn order and alliances, unit
types with their stats and costs, production and capitals, canals, owners and units.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import quoteattr

TRIPLEA_NAMES = {"tank": "armour", "aa_gun": "aaGun"}


def _options(pairs: list[tuple[str, Any]]) -> str:
    return "".join(
        f"\n      <option name={quoteattr(k)} value={quoteattr(str(v).lower() if isinstance(v, bool) else str(v))}/>"
        for k, v in pairs
    )


def game_xml(data: dict[str, Any], *, name: str | None = None, version: str = "1.0",
             properties: dict[str, Any] | None = None, extra: str = "", doctype: bool = True,
             impassable: bool = True, players: list[str] | None = None, gameplay: str | None = None,
             property_xml: str = "", aa_gun: tuple[tuple[str, Any], ...] = (
                 ("canNotMoveDuringCombatMove", True), ("isAAforCombatOnly", True)), attachments: str = "") -> str:
    """The XML text (``impassable``: neutral territories get isImpassable, else they are only unowned).

    ``players``: the player list's order (default: the turn order); ``gameplay``: the
    ``<gamePlay>`` element (default: one combat move step per power, in turn order);
    ``property_xml``: more ``<property>`` elements, written as given; ``aa_gun``: the AA gun type's unit options
    (default: as in TripleA's 1942 second edition; Revised's ww2v2.xml gives ``isAA``).  A territory's
    ``original_owner`` is written as its ``originalOwner``, ``victory_city`` as ``victoryCity``; ``attachments``: more
    ``<attachment>`` elements (objectives, a player's rules), written as given."""
    tname = {t: TRIPLEA_NAMES.get(t, t) for t in data.get("unit_types", {})}
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    if doctype:
        out.append('<!DOCTYPE game SYSTEM "game.dtd">')
    out.append("<game>")
    out.append(f"  <info name={quoteattr(name or data.get('title', data['name']))} version={quoteattr(version)}/>")
    out.append("  <map>")
    for t in data["territories"]:
        water = ' water="true"' if t.get("sea") else ""
        out.append(f"    <territory name={quoteattr(t['name'])}{water}/>")
    for a, b in data["connections"]:
        out.append(f"    <connection t1={quoteattr(a)} t2={quoteattr(b)}/>")
    out.append("  </map>")
    out.append('  <resourceList><resource name="PUs"/></resourceList>')
    out.append("  <playerList>")
    for p in players or data["powers"]:
        out.append(f'    <player name={quoteattr(p)} optional="false"/>')
    for side, members in data["sides"].items():
        for p in members:
            out.append(f"    <alliance player={quoteattr(p)} alliance={quoteattr(side)}/>")
    out.append("  </playerList>")
    out.append("  <unitList>")
    for t in data.get("unit_types", {}):
        out.append(f"    <unit name={quoteattr(tname[t])}/>")
    out.append("  </unitList>")
    if gameplay is None:
        out.append(
            '  <gamePlay>\n    <delegate name="move" javaClass="games.strategy.triplea.delegate.MoveDelegate" display="Combat Move"/>'
        )
        out.append("    <sequence>")
        for p in data["powers"]:
            out.append(
                f'      <step name={quoteattr(p.lower() + "CombatMove")} delegate="move" player={quoteattr(p)}/>'
            )
        out.append("    </sequence>\n  </gamePlay>")
    else:
        out.append(gameplay)
    out.append("  <production>")
    for t, stats in data.get("unit_types", {}).items():
        if "cost" in stats:
            out.append(f'    <productionRule name={quoteattr("buy" + tname[t])}>'
                       f'<cost resource="PUs" quantity="{stats["cost"]}"/>'
                       f'<result resourceOrUnit={quoteattr(tname[t])} quantity="1"/></productionRule>')
    out.append("  </production>")
    out.append("  <attachmentList>")
    for t, s in data.get("unit_types", {}).items():
        pairs: list[tuple[str, Any]] = [("movement", s["movement"]), ("attack", s.get("attack", 0)),
                                        ("defense", s.get("defense", 0))]
        if s["domain"] == "air":
            pairs.append(("isAir", True))
        if s["domain"] == "sea":
            pairs.append(("isSea", True))
        for key, option in (
            ("transport_cost", "transportCost"),
            ("transport_capacity", "transportCapacity"),
            ("carrier_capacity", "carrierCapacity"),
            ("carrier_cost", "carrierCost"),
            ("blitz", "canBlitz"),
            ("submarine", "isSub"),
            ("destroyer", "isDestroyer"),
            ("hit_points", "hitPoints"),
            ("infantry", "isInfantry"),
        ):
            if key in s:
                pairs.append((option, s[key]))
        if t == "factory":
            pairs.append(("isFactory", True))
        if t == "aa_gun":
            pairs.extend(aa_gun)
        out.append(f'    <attachment name="unitAttachment" attachTo={quoteattr(tname[t])} '
                   f'javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">'
                   f"{_options(pairs)}\n    </attachment>")
    for t in data["territories"]:
        pairs = []
        if "production" in t:
            pairs.append(("production", t["production"]))
        if "capital" in t:
            pairs.append(("capital", t["capital"]))
        if "original_owner" in t:
            pairs.append(("originalOwner", t["original_owner"]))
        if t.get("neutral") and impassable:
            pairs.append(("isImpassable", True))
        if t.get("victory_city"):
            pairs.append(("victoryCity", True))
        if pairs:
            out.append(f'    <attachment name="territoryAttachment" attachTo={quoteattr(t["name"])} '
                       f'javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">'
                       f"{_options(pairs)}\n    </attachment>")
    for canal in data.get("canals", []):
        for zone in canal["sea_zones"]:
            pairs = [("canalName", canal["name"]), ("landTerritories", ":".join(canal["land"]))]
            out.append(f'    <attachment name="canalAttachment" attachTo={quoteattr(zone)} '
                       f'javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">'
                       f"{_options(pairs)}\n    </attachment>")
    out.append(attachments)
    out.append("  </attachmentList>")
    out.append("  <initialize>\n    <ownerInitialize>")
    for where, owner in data.get("control", {}).items():
        out.append(f"      <territoryOwner territory={quoteattr(where)} owner={quoteattr(owner)}/>")
    out.append("    </ownerInitialize>\n    <unitInitialize>")
    for u in data.get("units", []):
        out.append(f"      <unitPlacement unitType={quoteattr(tname.get(u['type'], u['type']))} "
                   f"territory={quoteattr(u['at'])} quantity=\"{u.get('count', 1)}\" owner={quoteattr(u['power'])}/>")
    out.append("    </unitInitialize>")
    if data.get("ipcs"):
        out.append("    <resourceInitialize>")
        for power, pus in data["ipcs"].items():
            out.append(f'      <resourceGiven player={quoteattr(power)} resource="PUs" quantity="{pus}"/>')
        out.append("    </resourceInitialize>")
    out.append("  </initialize>")
    out.append(extra)
    out.append("  <propertyList>")
    for key, value in (properties or {}).items():
        value = str(value).lower() if isinstance(value, bool) else str(value)
        out.append(
            f'    <property name={quoteattr(key)} value={quoteattr(value)} editable="false"><boolean/></property>'
            if value in ("true", "false")
            else f"    <property name={quoteattr(key)} value={quoteattr(value)}/>"
        )
    out.append(property_xml)
    out.append("  </propertyList>")
    out.append("</game>")
    return "\n".join(out) + "\n"


DELEGATES = {"purchase": "purchase", "combat_move": "move", "battles": "battle", "noncombat_move": "move",
             "mobilize": "place"}
JAVA = {"purchase": "PurchaseDelegate", "move": "MoveDelegate", "battle": "BattleDelegate", "place": "PlaceDelegate",
        "purchaseNoPU": "NoPUPurchaseDelegate", "bid": "BidPurchaseDelegate"}


def sequence_xml(steps: list[dict[str, str]], no_pu: tuple[str, ...] = ()) -> str:
    """A ``<gamePlay>`` whose steps are a map's ``sequence`` (with a bid step for each power first, as the
    Anniversary games have; the purchase of a power in ``no_pu`` by TripleA's NoPUPurchaseDelegate)."""
    out = ["  <gamePlay>"]
    for name, java in JAVA.items():
        out.append(f'    <delegate name="{name}" javaClass="games.strategy.triplea.delegate.{java}" display="{name}"/>')
    out.append("    <sequence>")
    for power in dict.fromkeys(s["power"] for s in steps):
        out.append(f'      <step name={quoteattr(power.lower() + "Bid")} delegate="bid" player={quoteattr(power)} '
                   'maxRunCount="1"/>')
    for step in steps:
        delegate = DELEGATES[step["phase"]]
        if delegate == "purchase" and step["power"] in no_pu:
            delegate = "purchaseNoPU"
        word = "".join(w.title() for w in step["phase"].split("_")).replace("Noncombat", "NonCombat")
        out.append(f'      <step name={quoteattr(step["power"].lower() + word)} delegate="{delegate}" '
                   f'player={quoteattr(step["power"])}/>')
    out.append("    </sequence>\n  </gamePlay>")
    return "\n".join(out)


def objectives_xml(objectives: list[dict[str, Any]], rules: dict[str, dict[str, Any]]) -> str:
    """The ``RulesAttachment`` elements of National Objectives and of a player's own rules, as TripleA writes them."""
    out = []
    for o in objectives:
        pairs: list[tuple[str, Any]] = [("objectiveValue", o["ipcs"])]
        for c in o["conditions"]:
            if c["kind"] == "no_allied_units":
                pairs.append(("alliedExclusionTerritories", "controlled"))
            else:
                option = {"controls": "alliedOwnershipTerritories",
                          "no_enemy_surface_warships": "enemySurfaceExclusionTerritories"}[c["kind"]]
                pairs.append((option, ":".join([str(c["at_least"]), *c["territories"]])))
        out.append(f'    <attachment name={quoteattr(o["name"])} attachTo={quoteattr(o["power"])} '
                   f'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">'
                   f"{_options(pairs)}\n    </attachment>")
    for power, r in rules.items():
        pairs = [("movementRestrictionTerritories", ":".join(r["move_only_in"])), ("movementRestrictionType", "allowed"),
                 ("productionPerXTerritories", r["free_units"]["per_territories"]),
                 ("placementAnyTerritory", r["place_in_any_territory"]),
                 ("placementCapturedTerritory", r["place_in_captured"]),
                 ("placementPerTerritory", r["place_not_where_units_at_least"])]
        out.append(f'    <attachment name="rulesAttachment" attachTo={quoteattr(power)} '
                   f'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">'
                   f"{_options(pairs)}\n    </attachment>")
    return "\n".join(out)
