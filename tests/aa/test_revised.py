"""The Revised edition (``aa-revised``): each declared difference from aa1942 shown on the same
orders under both editions, submerged submarines, and what ``rules``/``explain`` say about it."""

from __future__ import annotations

import json

import pytest

from movecheck.aa.editions import AA1942, Revised, find_edition
from movecheck.aa.maps import builtin_map

from .conftest import codes, lint_text, mv, state, unit

G, R, B = "Germans", "Russians", "British"
NCM = "noncombat_move"
EDITIONS = ("aa1942", "aa-revised")


def under(edition: str, text: str) -> str:
    """The same state text, checked under ``edition``."""
    assert "rules: aa1942\n" in text
    return text.replace("rules: aa1942\n", f"rules: {edition}\n")


def verdicts(run, text: str, moves) -> dict[str, list[str]]:
    """Each edition's codes for the same state and orders."""
    return {edition: codes(run(under(edition, text), moves)) for edition in EDITIONS}


# --- the edition ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["aa-revised", "revised", "aa2004"])
def test_revised_by_name_or_alias(name: str) -> None:
    assert find_edition(name) is Revised and Revised.extends() is AA1942


def test_revised_declares_only_its_differences() -> None:
    differs = {k: v for k, v in Revised.option_values().items() if AA1942.option_values()[k] != v}
    assert differs == {
        "sub_transport_zones_hostile": True,
        "subs_may_end_ncm_in_hostile": False,
        "land_on_new_carrier": False,
        "combat_move_must_attack": False,
        "aa_guns_captured": True,
        "partial_amphibious_retreat": False,
        "move_existing_fighters_to_new_carriers": True,
        "unplaced_units": "lost",
        "factory_damage": False,
        "research_step": True,
    }
    assert Revised.option_values()["neutrals_impassable"] is True


def test_revised_unit_stats_are_the_map_facts() -> None:
    assert Revised.unit_type_values() == builtin_map("aa-revised")["unit_types"]
    assert builtin_map("aa-revised")["edition"] == "aa-revised"


def test_a_map_without_unit_types_gets_the_revised_stats(run) -> None:
    # an inline map brings no unit types: the edition's are used; Revised has no cruiser
    inline = {
        "name": "tiny", "powers": [G, B], "sides": {"Axis": [G], "Allies": [B]},
        "territories": [{"name": "A", "sea": True}, {"name": "B", "sea": True}], "connections": [["A", "B"]],
    }
    text = state(G, units=[unit("A", G, "cruiser")], map=inline, options={"combat_move_must_attack": False})
    assert verdicts(run, text, [mv({"cruiser": 1}, "A", "B")]) == {"aa1942": [], "aa-revised": ["MC004"]}


def test_the_revised_map_is_checked_under_revised_rules_with_no_option(run) -> None:
    # a non-combat move in combat move: AA203 under 1942, legal under Revised (the map's own edition)
    text = state(G, units=[unit("Germany", G, "infantry")], map="aa-revised")
    moves = [mv({"infantry": 1}, "Germany", "Southern Europe")]
    assert codes(run(text.replace("rules: aa1942\n", ""), moves)) == []
    assert codes(run(text, moves)) == ["AA203"]


# --- each declared difference: the same orders under both editions --------------------------


def test_enemy_subs_and_transports_make_a_zone_hostile(run) -> None:  # sub_transport_zones_hostile
    text = state(G, units=[unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "submarine"),
                           unit("6 Sea Zone", B, "transport")], options={"combat_move_must_attack": False})
    moves = [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")]
    assert verdicts(run, text, moves) == {"aa1942": [], "aa-revised": ["AA201"]}


def test_an_enemy_transport_blocks_loading(run) -> None:  # sub_transport_zones_hostile, AA406
    text = state(G, NCM, units=[unit("Germany", G, "infantry"), unit("5 Sea Zone", G, "transport", id="T1"),
                                unit("5 Sea Zone", B, "transport")])
    moves = [mv({"infantry": 1}, "Germany", "5 Sea Zone", transport="T1")]
    assert verdicts(run, text, moves) == {"aa1942": [], "aa-revised": ["AA406"]}


def test_a_sub_may_not_end_the_noncombat_move_in_a_hostile_zone(run) -> None:  # subs_may_end_ncm_in_hostile
    text = state(G, NCM, units=[unit("5 Sea Zone", G, "submarine"), unit("6 Sea Zone", B, "battleship")])
    moves = [mv({"submarine": 1}, "5 Sea Zone", "6 Sea Zone")]
    assert verdicts(run, text, moves) == {"aa1942": [], "aa-revised": ["AA301"]}


def test_a_fighter_may_not_wait_for_a_carrier_bought_this_turn(run) -> None:  # land_on_new_carrier
    text = state(G, NCM, units=[unit("Germany", G, "fighter"), unit("Germany", G, "factory")],
                 purchased={"carrier": 1})
    moves = [mv({"fighter": 1}, "Germany", "5 Sea Zone")]
    assert verdicts(run, text, moves) == {"aa1942": [], "aa-revised": ["AA303"]}


def test_a_combat_move_need_not_lead_to_a_battle(run) -> None:  # combat_move_must_attack
    text = state(G, units=[unit("Germany", G, "infantry")])
    moves = [mv({"infantry": 1}, "Germany", "Poland")]
    assert verdicts(run, text, moves) == {"aa1942": ["AA203"], "aa-revised": []}


def test_neutrals_are_impassable_in_both(run) -> None:  # neutrals_impassable: no difference
    text = state(G, NCM, units=[unit("Norway", G, "infantry")])
    assert verdicts(run, text, [mv({"infantry": 1}, "Norway", "Sweden")]) == {
        "aa1942": ["AA106"],
        "aa-revised": ["AA106"],
    }


# --- submerged submarines --------------------------------------------------------------------


def test_a_zone_of_submerged_subs_only_is_not_hostile(run) -> None:
    units = [unit("5 Sea Zone", G, "cruiser"), unit("6 Sea Zone", B, "submarine", 2, submerged=True)]
    text = state(G, units=units, options={"combat_move_must_attack": False})
    assert verdicts(run, text, [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")]) == {
        "aa1942": [], "aa-revised": []}
    surfaced = state(
        G, units=[units[0], unit("6 Sea Zone", B, "submarine", 2)], options={"combat_move_must_attack": False}
    )
    assert codes(
        run(under("aa-revised", surfaced), [mv({"cruiser": 1}, "5 Sea Zone", "6 Sea Zone", "7 Sea Zone")])
    ) == ["AA201"]


def test_a_submerged_sub_does_not_block_loading_or_unloading(run) -> None:
    base = [unit("Germany", G, "infantry"), unit("5 Sea Zone", G, "transport", id="T1")]
    moves = [mv({"infantry": 1}, "Germany", "5 Sea Zone", "Finland", transport="T1")]
    submerged = state(G, NCM, units=[*base, unit("5 Sea Zone", B, "submarine", submerged=True)])
    surfaced = state(G, NCM, units=[*base, unit("5 Sea Zone", B, "submarine")])
    assert codes(run(under("aa-revised", submerged), moves)) == []
    assert "AA406" in codes(run(under("aa-revised", surfaced), moves))


def test_a_zone_of_submerged_subs_is_no_battle_space(run) -> None:
    # with AA203 switched back on, moving next to a submerged sub is not a combat move
    units = [unit("5 Sea Zone", G, "destroyer")]
    opts = {"combat_move_must_attack": True}
    moves = [mv({"destroyer": 1}, "5 Sea Zone", "6 Sea Zone", attack=True)]
    submerged = state(G, units=[*units, unit("6 Sea Zone", B, "submarine", submerged=True)], options=opts)
    surfaced = state(G, units=[*units, unit("6 Sea Zone", B, "submarine")], options=opts)
    assert codes(run(under("aa-revised", submerged), moves)) == ["AA203"]
    assert codes(run(under("aa-revised", surfaced), moves)) == []


def test_aa911_only_submarines_submerge(tmp_path) -> None:
    bad = state(G, units=[unit("6 Sea Zone", B, "destroyer", submerged=True)])
    findings = lint_text(under("aa-revised", bad), tmp_path)
    assert codes(findings) == ["AA911"]
    assert (
        findings[0].message
        == "1 British destroyer (destroyer) in 6 Sea Zone is marked submerged; only submarines submerge"
    )
    good = state(G, units=[unit("6 Sea Zone", B, "submarine", submerged=True)])
    assert codes(lint_text(under("aa-revised", good), tmp_path)) == []


# --- rules and explain -----------------------------------------------------------------------


def test_rules_lists_the_revised_options_and_marks_the_differences(run_main) -> None:
    code, out, _ = run_main(["rules", "--rules", "revised", "--system", "aa"])
    assert code == 0
    assert "\nOptions of the aa preset aa-revised (* differs from aa1942):\n" in out
    rows = {line.split()[0]: line for line in out.split("Options of the aa preset")[1].splitlines()[1:] if line.strip()}
    assert rows["sub_transport_zones_hostile"].split()[1:4] == ["true", "*", "aa1942:"]
    assert rows["combat_move_must_attack"].split()[1:5] == ["false", "*", "aa1942:", "true"]
    assert "*" not in rows["destroyer_stops_subs"]
    assert (
        sum("*" in row for row in rows.values()) == 10
    )  # the six movement and battle options, and the four of the whole turn
    _, out, _ = run_main(["rules", "--rules", "aa2004", "--format", "json", "--system", "aa"])
    document = json.loads(out)
    assert document["rules"] == "aa-revised" and document["extends"] == "aa1942"
    assert document["differences"]["land_on_new_carrier"] == {"aa1942": True, "aa-revised": False}
    _, out, _ = run_main(["rules", "--rules", "aa-revised", "--format", "markdown", "--system", "aa"])
    assert "| `subs_may_end_ncm_in_hostile` | `false` | **`true`** (differs) |" in out
    _, out, _ = run_main(["rules"])
    assert "differs" not in out  # the base edition marks nothing


def test_explain_says_which_options_make_a_clause_depend_on_the_edition(run_main) -> None:
    _, out, _ = run_main(["explain", "AA203"])
    assert "Depends on the edition through options: combat_move_must_attack (aa1942: true, aa-revised: false)\n" in out
    _, out, _ = run_main(["explain", "AA204"])
    assert (
        "Governed by options (the same in every edition): destroyer_stops_subs (aa1942: true, aa-revised: true)" in out
    )
    assert "Depends on the edition" not in out
    _, out, _ = run_main(["explain", "AA101"])
    assert "options" not in out
