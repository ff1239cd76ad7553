"""``movecheck import triplea``: the game's rules — whose turn, its settings as map options, its edition.

The game files are written here (tests/aa/triplea_writer.py), shaped like TripleA's own
(``WW2v3-1941.xml``, ``WW2v5_1942_2nd.xml``, ``ww2v2.xml`` of triplea-game/triplea); none
is copied from TripleA.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from movecheck.aa.editions import AA1942, Revised
from movecheck.aa.options import OPTIONS
from movecheck.core import check
from movecheck.schema import validate_data
from movecheck.settings import Settings
from tests.harness import yaml_data, yaml_text

from .test_triplea import SMALL, convert
from .triplea_writer import game_xml

REPO = Path(__file__).resolve().parents[2]
MAPS = REPO / "movecheck" / "aa" / "maps"


def header_of(out: str) -> str:
    return out.split("movecheck: 1")[0]


def section(header: str, title: str) -> list[str]:
    """The items of one part of the map's header comment."""
    lines = header.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(f"# {title}")), len(lines))
    items = []
    for line in lines[start + 1:]:
        if not line.startswith("#   - "):
            break
        items.append(line[len("#   - "):])
    return items


# -- whose turn comes when --------------------------------------------------------------------

ANNIVERSARY = ["Germans", "Russians", "Japanese", "British", "Italians", "Americans", "Chinese"]
PLAYER_LIST = ["Germans", "Russians", "Japanese", "British", "Italians", "Chinese", "Americans", "Bidders", "Neutral"]
ADJECTIVE = {"Germans": "german", "Russians": "russian", "Japanese": "japanese", "British": "british",
             "Italians": "italian", "Chinese": "chinese", "Americans": "american", "Bidders": "bidder"}


def anniversary_gameplay() -> str:
    """A sequence shaped like the Anniversary edition's: bids once each in the player list's order,
    then the turns, the American and Chinese ones woven together; a player who only bids."""
    def step(name: str, delegate: str, player: str, extra: str = "") -> str:
        return f'      <step name="{ADJECTIVE[player]}{name}" delegate="{delegate}" player="{player}"{extra}/>'

    lines = [
        "  <gamePlay>",
        '    <delegate name="initDelegate" javaClass="games.strategy.triplea.delegate.InitializationDelegate" display="Initializing Delegates"/>',
        '    <delegate name="bid" javaClass="games.strategy.triplea.delegate.BidPurchaseDelegate" display="Bid Purchase"/>',
        '    <delegate name="placeBid" javaClass="games.strategy.triplea.delegate.BidPlaceDelegate" display="Bid Placement"/>',
        '    <delegate name="purchase" javaClass="games.strategy.triplea.delegate.PurchaseDelegate" display="Purchase Units"/>',
        '    <delegate name="move" javaClass="games.strategy.triplea.delegate.MoveDelegate" display="Combat Move"/>',
        '    <delegate name="place" javaClass="games.strategy.triplea.delegate.PlaceDelegate" display="Place Units"/>',
        '    <delegate name="endTurn" javaClass="games.strategy.triplea.delegate.EndTurnDelegate" display="Turn Complete"/>',
        "    <sequence>",
        '      <step name="gameInitDelegate" delegate="initDelegate" maxRunCount="1"/>',
    ]
    for player in PLAYER_LIST[:-1]:  # every player but the neutral one bids, once
        lines += [
            step("Bid", "bid", player, ' maxRunCount="1"'),
            step("BidPlace", "placeBid", player, ' maxRunCount="1"'),
        ]
    for player in ANNIVERSARY[:5]:
        lines += [step("Purchase", "purchase", player), step("CombatMove", "move", player),
                  step("NonCombatMove", "move", player, ' display="Non Combat Move"'), step("Place", "place", player),
                  step("EndTurn", "endTurn", player)]
    lines += [
        step("Purchase", "purchase", "Americans"),
        step("Purchase", "purchase", "Chinese"),
        step("CombatMove", "move", "Americans"),
        step("NonCombatMove", "move", "Americans", ' display="Non Combat Move"'),
        step("CombatMove", "move", "Chinese"),
        step("NonCombatMove", "move", "Chinese", ' display="Non Combat Move"'),
        step("Place", "place", "Americans"),
        step("Place", "place", "Chinese"),
        '      <step name="chineseEndTurn" delegate="endTurn" player="Chinese"><stepProperty name="skipPosting" value="true"/></step>',
        step("EndTurn", "endTurn", "Americans"),
        '      <step name="endRoundStep" delegate="endTurn"/>',
        "    </sequence>",
        "  </gamePlay>",
    ]
    return "\n".join(lines)


def anniversary_game() -> dict:
    land = [{"name": f"{p}land"} for p in PLAYER_LIST]
    return {
        **SMALL,
        "powers": PLAYER_LIST,
        "sides": {
            "Axis": ["Germans", "Japanese", "Italians"],
            "Allies": ["Russians", "British", "Chinese", "Americans"],
            "Others": ["Bidders", "Neutral"],
        },
        "territories": [{k: v for k, v in t.items() if k != "capital"} for t in SMALL["territories"]] + land,
        "control": {f"{p}land": p for p in PLAYER_LIST},
        "units": [],
    }


def test_players_take_turns_in_the_order_of_the_games_turn_steps(run_main, tmp_path: Path) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(anniversary_game(), players=PLAYER_LIST,
                                                          gameplay=anniversary_gameplay()))
    assert code == 0, err
    data = yaml_data(out)
    # the bids (maxRunCount 1, bid delegates) run in the player list's order: they are not the turn
    assert data["powers"] == [*ANNIVERSARY, "Bidders", "Neutral"]
    assert data["sides"]["Allies"] == ["Russians", "British", "Americans", "Chinese"]
    notes = section(header_of(out), "Conversion notes")
    assert notes == ["players who take no turn in the game's sequence (Bidders, Neutral: last in the powers)"]
    assert "take no turn" not in "".join(section(header_of(out), "Not modelled"))
    assert re.search(r"^movecheck: note: .*: conversion note: players who take no turn", err, re.M)


@pytest.mark.parametrize("step", [
    '<step name="redsBid" delegate="purchase" player="Reds"/>',            # named as a bid
    '<step name="redsSetUp" delegate="bidding" player="Reds"/>',           # a bid delegate by name
    '<step name="redsPurchase" delegate="purchase" player="Reds" maxRunCount="2"/>',  # run twice in all
    '<step name="redsOnce" delegate="buy" player="Reds"/>',                # a bid purchase delegate by class
], ids=["bid-step", "bid-delegate", "max-run-count", "bid-class"])
def test_a_one_off_step_gives_no_turn(run_main, tmp_path: Path, step: str) -> None:
    gameplay = f"""  <gamePlay>
    <delegate name="purchase" javaClass="games.strategy.triplea.delegate.PurchaseDelegate"/>
    <delegate name="bidding" javaClass="games.strategy.triplea.delegate.PurchaseDelegate"/>
    <delegate name="buy" javaClass="games.strategy.triplea.delegate.BidPurchaseDelegate"/>
    <delegate name="move" javaClass="games.strategy.triplea.delegate.MoveDelegate"/>
    <sequence>
      {step}
      <step name="bluesCombatMove" delegate="move" player="Blues" display="Combat Move"/>
      <step name="redsCombatMove" delegate="move" player="Reds"/>
    </sequence>
  </gamePlay>"""
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, gameplay=gameplay))
    assert code == 0, err
    assert yaml_data(out)["powers"] == ["Blues", "Reds"]


def test_a_game_without_turn_steps_keeps_the_player_list_order(run_main, tmp_path: Path) -> None:
    _code, out, _ = convert(run_main, tmp_path, game_xml(SMALL, gameplay=""))
    assert yaml_data(out)["powers"] == ["Reds", "Blues"]
    assert section(header_of(out), "Conversion notes") == [
        "the game has no turn steps: the powers are in the order of its player list"]


# -- the game's settings become the map's options ---------------------------------------------

# the settings of TripleA's Revised game (ww2v2.xml) and 1942 second edition game
# (WW2v5_1942_2nd.xml) that movecheck reads, with the values those files give them
REVISED_SETTINGS = {"WW2V2": True, "Submersible Subs": True, "Move existing fighters to new carriers": True,
                    "LHTR Carrier production rules": False, "neutralCharge": 9999999, "Neutrals Are Impassable": True,
                    "Neutrals Are Blitzable": False, "Tech Development": True}
SECOND_EDITION_SETTINGS = {
    "WW2V3": True, "Partial Amphibious Retreat": True, "Ignore Transport In Movement": True,
    "Ignore Sub In Movement": True, "Submersible Subs": True, "Subs Can End NonCombat Move With Enemies": True,
    "Produce new fighters on old carriers": True, "Move existing fighters to new carriers": False,
    "Land existing fighters on new carriers": True, "LHTR Carrier production rules": True,
    "Unit Placement In Enemy Seas": True, "neutralCharge": 9999999, "Neutrals Are Impassable": True,
    "Neutrals Are Blitzable": False, "Neutral Flyover Allowed": False, "Tech Development": False,
    "Damage From Bombing Done To Units Instead Of Territories": True}
GAMES = {
    "revised": ("aa-revised.json", "World War II Revised", REVISED_SETTINGS, Revised),
    "1942": ("aa1942-2e.json", "World War II v5 1942 Second Edition", SECOND_EDITION_SETTINGS, AA1942),
}
MODELLED = ("sub_transport_zones_hostile", "subs_may_end_ncm_in_hostile", "land_on_new_carrier",
            "aa_guns_move_in_combat", "neutrals_impassable", "subs_may_submerge", "aa_guns_captured",
            "partial_amphibious_retreat",
            "place_in_enemy_seas", "new_fighters_on_old_carriers", "move_existing_fighters_to_new_carriers",
            "unplaced_units", "factory_damage", "low_luck", "low_luck_aa", "low_luck_bombing")


@pytest.mark.parametrize("game", GAMES)
def test_the_games_settings_are_the_map_options_of_its_edition(run_main, tmp_path: Path, game: str) -> None:
    file, title, settings, edition = GAMES[game]
    data = json.loads((MAPS / file).read_text(encoding="utf-8"))
    code, out, err = convert(run_main, tmp_path, game_xml(data, name=title, properties=settings))
    assert code == 0, err
    converted = yaml_data(out)
    assert validate_data("aa-map", converted) == []
    assert converted["edition"] == edition.name
    # every option movecheck has that the settings give: the edition's value, for both real games
    values = edition.option_values()
    if edition is AA1942:  # the printed rule refunds; TripleA refunds nothing (spec aa-turn.md)
        values = {**values, "unplaced_units": "lost"}
    assert converted["options"] == {name: values[name] for name in MODELLED}
    # each is listed in the header with the settings it came from, in the options' order
    listed = section(header_of(out), "Rule options from the game's settings")
    assert [item.split(":")[0] for item in listed] == list(MODELLED)
    assert any(item.startswith("land_on_new_carrier: ") and "Land existing fighters on new carriers: " in item
               and "LHTR Carrier production rules: " in item for item in listed)
    assert re.search(
        r"^movecheck: .*: 16 rule options from the game's settings: sub_transport_zones_hostile=", err, re.M
    )


def test_settings_are_read_from_value_attributes_and_value_children(run_main, tmp_path: Path) -> None:
    extra = """    <property name="Submersible Subs" editable="true"><boolean/><value>true</value></property>
    <property name="Partial Amphibious Retreat" value="TRUE" editable="false">
      <boolean/>
    </property>
    <property name="notes"><value><![CDATA[ Ignore Sub In Movement ]]></value></property>"""
    text = game_xml(
        SMALL,
        properties={"Subs Can End NonCombat Move With Enemies": True, "Ignore Sub In Movement": True},
        property_xml=extra,
    )
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 0, err
    options = yaml_data(out)["options"]
    assert options["subs_may_submerge"] is True and options["partial_amphibious_retreat"] is True
    assert options["subs_may_end_ncm_in_hostile"] is True
    assert options["sub_transport_zones_hostile"] is True  # transports still block: only subs are ignored


@pytest.mark.parametrize(("transports", "subs", "hostile"), [
    (True, True, False), (True, False, True), (False, True, True), (None, None, True)])
def test_sub_and_transport_zones_open_only_when_both_are_ignored(
    run_main, tmp_path: Path, transports, subs, hostile
) -> None:
    settings = {
        k: v
        for k, v in (("Ignore Transport In Movement", transports), ("Ignore Sub In Movement", subs))
        if v is not None
    }
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, properties=settings))
    assert code == 0, err
    assert yaml_data(out)["options"]["sub_transport_zones_hostile"] is hostile
    mixed = [
        n for n in section(header_of(out), "Not modelled") if n.startswith("enemy transports and submarines ignored")
    ]
    assert len(mixed) == (1 if transports != subs and None not in (transports, subs) else 0)


SUBMARINE = {"movement": 2, "attack": 2, "defense": 1, "domain": "sea", "cost": 6, "submarine": True}


def test_a_game_that_sets_nothing_plays_under_tripleas_defaults(run_main, tmp_path: Path) -> None:
    game = {**SMALL, "unit_types": {**SMALL["unit_types"], "submarine": SUBMARINE}}
    code, out, err = convert(run_main, tmp_path, game_xml(game))
    assert code == 0, err
    # every setting TripleA reads is false when the file does not set it
    assert yaml_data(out)["options"] == {
        "sub_transport_zones_hostile": True, "subs_may_end_ncm_in_hostile": False, "land_on_new_carrier": False,
        "neutrals_impassable": True,  # the game's neutral is impassable (isImpassable): closed all the same
        "subs_may_submerge": False, "partial_amphibious_retreat": False,
        "place_in_enemy_seas": False, "new_fighters_on_old_carriers": True,
        "move_existing_fighters_to_new_carriers": False, "unplaced_units": "lost", "factory_damage": False,
        "low_luck": False, "low_luck_aa": False, "low_luck_bombing": False}
    header = header_of(out)
    assert (
        "neutrals_impassable: true (Neutrals Are Impassable: not set; kept closed: the game's impassable territories are neutral too)"
        in header
    )
    assert "submarines that every enemy ship stops (Submersible Subs is false)" in header


OPEN_NEUTRALS = ["paying to enter neutral territories (neutralCharge 3)",
                 "land units stopping in the first neutral territory they enter (Neutrals Are Blitzable is not true)",
                 "aircraft kept from flying over neutral territories (Neutral Flyover Allowed is not true)"]


@pytest.mark.parametrize(("impassable", "settings", "closed", "notes"), [
    (False, {}, False, OPEN_NEUTRALS),
    (False, {"Neutrals Are Blitzable": True, "Neutral Flyover Allowed": True}, False, OPEN_NEUTRALS[:1]),
    (False, {"Neutrals Are Impassable": True, "Neutral Flyover Allowed": True}, True, []),  # closed: nothing flies over
    (True, {}, True, []),
], ids=["open", "open-blitzable-flyover", "closed", "impassable"])
def test_neutrals_follow_the_setting_unless_the_game_has_impassable_territories(
        run_main, tmp_path: Path, impassable: bool, settings: dict, closed: bool, notes: list) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, properties={"neutralCharge": 3, **settings},
                                                          impassable=impassable))
    assert code == 0, err
    assert yaml_data(out)["options"]["neutrals_impassable"] is closed
    assert [n for n in section(header_of(out), "Not modelled") if "neutral" in n] == sorted(notes)


def test_an_impassable_territory_keeps_every_neutral_closed_and_says_so(run_main, tmp_path: Path) -> None:
    game = {**SMALL, "territories": [*SMALL["territories"], {"name": "Glacier", "neutral": True}]}
    text = game_xml(game).replace('attachTo="Swampland"', 'attachTo="Swamp"')  # Swampland: only unowned
    text = text.replace('<territory name="Swampland"/>', '<territory name="Swampland"/><territory name="Swamp"/>')
    code, out, err = convert(run_main, tmp_path, text)
    assert code == 0, err
    assert yaml_data(out)["options"]["neutrals_impassable"] is True
    assert any(
        n.startswith("entering neutral territories that are not impassable")
        for n in section(header_of(out), "Not modelled")
    )


def test_the_turn_options_are_written_from_the_settings(run_main, tmp_path: Path) -> None:
    code, out, err = convert(run_main, tmp_path, game_xml(SMALL, properties=SECOND_EDITION_SETTINGS))
    assert code == 0, err
    listed = section(header_of(out), "Rule options from the game's settings")
    assert "place_in_enemy_seas: true (Unit Placement In Enemy Seas: true, WW2V2: not set)" in listed
    assert ("move_existing_fighters_to_new_carriers: false (Move existing fighters to new carriers: false, "
            "LHTR Carrier production rules: true)") in listed
    assert "unplaced_units: lost (Unplaced units live when not placed: not set)" in listed
    assert ("factory_damage: true (Damage From Bombing Done To Units Instead Of Territories: true, "
            "SBR Affects Unit Production: not set)") in listed
    assert "new_fighters_on_old_carriers: true (Produce new fighters on old carriers: true)" in listed
    assert not section(header_of(out), "Settings read for rule options movecheck does not have yet")
    assert "rule options movecheck does not have yet" not in err


@pytest.mark.parametrize(("settings", "option", "value"), [
    ({"WW2V2": "true"}, "place_in_enemy_seas", True),
    ({"Unit Placement In Enemy Seas": "true"}, "place_in_enemy_seas", True),
    ({}, "place_in_enemy_seas", False),
    ({"Produce new fighters on old carriers": "false"}, "new_fighters_on_old_carriers", True),  # TripleA ignores it
    ({"Move existing fighters to new carriers": "true"}, "move_existing_fighters_to_new_carriers", True),
    ({"Move existing fighters to new carriers": "true", "LHTR Carrier production rules": "true"},
     "move_existing_fighters_to_new_carriers", False),
    ({"Unplaced units live when not placed": "true"}, "unplaced_units", "kept"),
    ({}, "unplaced_units", "lost"),  # TripleA refunds nothing
    ({"Partial Amphibious Retreat": "true"}, "partial_amphibious_retreat", True),
    ({"Damage From Bombing Done To Units Instead Of Territories": "true"}, "factory_damage", True),
    ({"Damage From Bombing Done To Units Instead Of Territories": "false", "SBR Affects Unit Production": "true"},
     "factory_damage", False),
    ({"SBR Affects Unit Production": "true"}, "factory_damage", True),  # TripleA's fallback on the older name
    ({}, "factory_damage", False),
    ({"Low Luck": "true"}, "low_luck", True),
    ({}, "low_luck", False),
    ({"Low Luck for AntiAircraft": "true"}, "low_luck_aa", True),
    ({"Low Luck for Bombing and Territory Damage": "true"}, "low_luck_bombing", True),
    ({"Low Luck": "true"}, "low_luck_bombing", False),  # Low Luck does not cover bombing damage
])
def test_each_turn_option_from_its_settings(settings: dict, option: str, value: object) -> None:
    from movecheck.aa.triplea.rules import SETTINGS, read_settings

    have, pending = read_settings(settings, OPTIONS)
    assert pending == []
    assert {r.option: r.value for r in have}[option] == value
    assert len({s.option for s in SETTINGS}) == len(SETTINGS)  # one declaration per option


def test_properties_outside_the_property_list_are_not_settings() -> None:
    from defusedxml.ElementTree import fromstring

    from movecheck.aa.triplea.rules import game_properties

    root = fromstring('<game><attachmentList><property name="Submersible Subs" value="true"/></attachmentList>'
                      '<propertyList><property name="WW2V2" value=" true "/><property name="WW2V2" value="false"/>'
                      '<property value="true"/></propertyList></game>')
    assert game_properties(root) == {"WW2V2": "false"}  # the last of a name wins, as in TripleA


# -- the map's options: after the edition, under the state ------------------------------------

def _verdict(tmp_path: Path, map_options: dict | None, state_options: dict | None) -> list[str]:
    game = {**SMALL, "movecheck": 1, "system": "aa", "kind": "map"}
    if map_options is not None:
        game["options"] = map_options
    (tmp_path / "map.yaml").write_text(yaml_text(game, sort_keys=False), encoding="utf-8")
    state = {
        "movecheck": 1,
        "system": "aa",
        "map": "map.yaml",
        "turn": {"round": 1, "power": "Reds", "phase": "noncombat_move"},
    }
    if state_options is not None:
        state["options"] = state_options
    (tmp_path / "state.yaml").write_text(yaml_text(state), encoding="utf-8")
    orders = {"movecheck": 1, "system": "aa", "power": "Reds", "phase": "noncombat_move",
              "moves": [{"units": {"tank": 1}, "path": ["Redland", "Swampland"]}]}
    (tmp_path / "orders.yaml").write_text(yaml_text(orders), encoding="utf-8")
    report, _ = check([str(tmp_path / "orders.yaml")], Settings(state=str(tmp_path / "state.yaml")))
    return sorted({f.code for f in report.sorted_findings() if f.severity.name == "ERROR"})


@pytest.mark.parametrize(("map_options", "state_options", "codes"), [
    (None, None, ["AA106"]),                                             # the edition closes neutrals
    ({"neutrals_impassable": False}, None, []),                           # the map's game opens them
    ({"neutrals_impassable": False}, {"neutrals_impassable": True}, ["AA106"]),  # the state has the last word
], ids=["edition", "map", "state-over-map"])
def test_a_maps_options_apply_after_the_edition_and_before_the_state(
    tmp_path: Path, map_options, state_options, codes
) -> None:
    assert _verdict(tmp_path, map_options, state_options) == codes


def test_a_map_with_an_unknown_option_is_refused(tmp_path: Path) -> None:
    assert "MC003" in {f.code for f in _lint_map(tmp_path, {"neutrals_are_impassable": False})}


def _lint_map(tmp_path: Path, options: dict) -> list:
    from movecheck.core import lint

    game = {**SMALL, "movecheck": 1, "system": "aa", "kind": "map", "options": options}
    (tmp_path / "map.yaml").write_text(yaml_text(game, sort_keys=False), encoding="utf-8")
    report = lint([str(tmp_path / "map.yaml")], Settings())
    return report.sorted_findings()
