"""Purchase files (aa-turn.md, "Purchase"): AA601-AA605, bad input, and what apply writes."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from movecheck.aa.maps import builtin_map
from movecheck.cli import main
from tests.harness import yaml_data

from .next_state_helpers import apply, check, codes, lints_clean, state_text, write

GARRISON = ["{at: Germany, power: Germans, type: factory}", "{at: Southern Europe, power: Germans, type: factory}"]


def state(tmp_path: Path, units: list[str] = GARRISON, head: str = "ipcs: {Germans: 41}\n", power: str = "Germans",
          phase: str = "purchase") -> Path:
    return write(tmp_path, "s.yaml", state_text(power, phase, list(units), head=head))


def purchase(tmp_path: Path, body: str, power: str = "Germans", phase: str = "purchase") -> Path:
    return write(tmp_path, "p.yaml", f"movecheck: 1\nsystem: aa\nstate: s.yaml\npower: {power}\nphase: {phase}\n{body}")


def run(capsys, tmp_path: Path, body: str, *options: str, **state_args) -> tuple[int, dict]:
    state(tmp_path, **state_args)
    return check(capsys, purchase(tmp_path, body), *options)


RESEARCH = ("--option", "aa.research_step=true")
"""Rules with a research step (Revised's, on the 1942 map): ``research:`` counts against the budget."""


def only(report: dict, code: str) -> dict:
    found = [f for f in report["findings"] if f["code"] == code]
    assert len(found) == 1, report["findings"]
    return found[0]


def legal(code: int, report: dict) -> bool:
    return code == 0 and report["summary"]["legal_orders"] == 1 and not [f for f in report["findings"]
                                                                         if f["severity"] == "error"]


# -- AA601 purchase-over-budget ------------------------------------------------------------------


def test_aa601_a_purchase_over_the_treasury_gives_cost_treasury_and_shortfall(capsys, tmp_path):
    code, report = run(capsys, tmp_path, "purchase: {battleship: 2, inf: 1}\n")  # 43 > 41
    assert code == 1 and codes(report) == ["AA601"]
    found = only(report, "AA601")
    assert found["message"] == "the purchase costs 43 IPCs but the Germans have 41: 2 IPCs short"
    assert (found["line"], found["column"]) == (6, 1)


def test_aa601_one_ipc_short_is_singular(capsys, tmp_path):
    code, report = run(capsys, tmp_path, "purchase: {tank: 6, inf: 2}\n")  # 42 > 41
    assert code == 1 and codes(report) == ["AA601"]
    assert only(report, "AA601")["message"] == "the purchase costs 42 IPCs but the Germans have 41: 1 IPC short"


def test_aa601_repairs_and_research_count_against_the_budget(capsys, tmp_path):
    damaged = ["{at: Germany, power: Germans, type: factory, damage: 4}"]
    code, report = run(capsys, tmp_path, "purchase: {battleship: 2}\nrepair: {Germany: 2}\n", units=damaged)
    assert code == 1 and codes(report) == ["AA601"] and "costs 42 IPCs" in only(report, "AA601")["message"]
    code, report = run(capsys, tmp_path, "purchase: {battleship: 2}\nresearch: 2\n", *RESEARCH)
    assert code == 1 and "42 IPCs" in only(report, "AA601")["message"]


def test_aa601_spending_exactly_the_treasury_is_legal(capsys, tmp_path):
    assert legal(*run(capsys, tmp_path, "purchase: {battleship: 2}\nresearch: 1\n", *RESEARCH))


# -- AA602 purchase-not-buildable --------------------------------------------------------------


def costless_map(tmp_path: Path, kind: str) -> None:
    data = copy.deepcopy(builtin_map("aa1942-2e"))
    del data["unit_types"][kind]["cost"]
    (tmp_path / "m.json").write_text(json.dumps(data))


def test_aa602_a_type_without_cost_cannot_be_bought_and_says_why(capsys, tmp_path):
    costless_map(tmp_path, "factory")
    code, report = run(capsys, tmp_path, "purchase: {factory: 1}\n")
    (tmp_path / "s.yaml").write_text((tmp_path / "s.yaml").read_text().replace("map: aa1942-2e", "map: m.json"))
    code, report = check(capsys, tmp_path / "p.yaml")
    assert code == 1 and codes(report) == ["AA602"]
    assert only(report, "AA602")["message"] == "factory cannot be bought on this map: the map gives it no cost"


def test_aa602_a_type_with_a_cost_is_bought(capsys, tmp_path):
    costless_map(tmp_path, "factory")
    state(tmp_path)
    (tmp_path / "s.yaml").write_text((tmp_path / "s.yaml").read_text().replace("map: aa1942-2e", "map: m.json"))
    assert legal(*check(capsys, purchase(tmp_path, "purchase: {infantry: 1}\n")))


# -- AA603 purchase-unplaceable -----------------------------------------------------------------


def test_aa603_more_units_than_the_factories_mobilize_is_a_warning(capsys, tmp_path):
    code, report = run(capsys, tmp_path, "purchase: {inf: 13}\n")  # Germany 10 + Southern Europe 2
    assert code == 0 and codes(report) == ["AA603"] and report["summary"]["legal_orders"] == 1
    message = only(report, "AA603")["message"]
    assert message.startswith("13 units wait to be placed but the factories of the Germans mobilize 12")


def test_aa603_units_waiting_from_earlier_count_and_damage_lowers_capacity(capsys, tmp_path):
    units = ["{at: Germany, power: Germans, type: factory, damage: 3}"]
    code, report = run(capsys, tmp_path, "purchase: {inf: 6}\n", units=units,
                       head="ipcs: {Germans: 41}\nto_place: {Germans: {tank: 2}}\n")
    assert code == 0 and "8 units wait to be placed" in only(report, "AA603")["message"]


def test_aa603_ships_need_a_factory_on_a_coast(capsys, tmp_path):
    inland = ["{at: Germany, power: Germans, type: factory}"]
    code, report = run(capsys, tmp_path, "purchase: {sub: 1}\n",
                       units=["{at: Belorussia, power: Germans, type: factory}"],
                       head="ipcs: {Germans: 41}\ncontrol: {Belorussia: Germans}\n")
    assert code == 0 and "no factory of the Germans is on a coast" in only(report, "AA603")["message"]
    assert legal(*run(capsys, tmp_path, "purchase: {sub: 1, inf: 11}\n", units=inland))  # Germany borders 5 Sea Zone


# -- AA604 repair-exceeds-damage ----------------------------------------------------------------


def test_aa604_a_repair_mends_at_most_the_damage(capsys, tmp_path):
    damaged = ["{at: Germany, power: Germans, type: factory, damage: 3}"]
    code, report = run(capsys, tmp_path, "repair: {Germany: 4}\n", units=damaged)
    assert code == 1 and codes(report) == ["AA604"]
    assert only(report, "AA604")["message"] == "a repair of 4 in Germany is more than the damage of its factory (3)"
    assert legal(*run(capsys, tmp_path, "repair: {Germany: 3}\n", units=damaged))


def test_aa604_a_territory_without_a_factory_of_the_power_has_nothing_to_repair(capsys, tmp_path):
    code, report = run(capsys, tmp_path, "repair: {Poland: 1}\n")
    assert code == 1 and only(report, "AA604")["message"] == "Poland holds no factory of the Germans to repair"


# -- AA605 purchase-without-capital -------------------------------------------------------------


NO_CAPITAL = "ipcs: {Russians: 20}\ncontrol: {Russia: Germans}\n"


def test_aa605_a_power_without_its_capital_buys_nothing(capsys, tmp_path):
    units = ["{at: Caucasus, power: Russians, type: factory}", "{at: Russia, power: Germans, type: infantry}"]
    state(tmp_path, units=units, head=NO_CAPITAL, power="Russians")
    code, report = check(capsys, purchase(tmp_path, "purchase: {inf: 1}\n", power="USSR"))
    assert code == 1 and codes(report) == ["AA605"]
    assert only(report, "AA605")["message"] == ("the Russians do not hold their capital Russia (the Germans do): "
                                                "they buy and repair nothing")
    assert legal(*check(capsys, purchase(tmp_path, "purchase: {}\n", power="USSR")))


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "code", "line"), [
    ("purchase: {tanc: 1}\n", "MC004", 6),
    ("purchase: {infantry: -1}\n", "MC003", 6),
    ("purchase: {infantry: 1.5}\n", "MC003", 6),
    ("repair: {Atlantis: 1}\n", "MC004", 6),
    ("research: 2.0\n", "MC003", 6),
])
def test_bad_input_is_a_finding_with_its_position_and_the_purchase_unchecked(capsys, tmp_path, body, code, line):
    exit_code, report = run(capsys, tmp_path, body)
    assert exit_code == 1 and code in codes(report)
    assert all(f["line"] == line for f in report["findings"] if f["code"] == code)
    assert report["summary"]["unchecked_orders"] == 1 and report["summary"]["legal_orders"] == 0
    assert not [c for c in codes(report) if c.startswith("AA")]


def test_an_unknown_type_suggests_the_close_names(capsys, tmp_path):
    _code, report = run(capsys, tmp_path, "purchase: {tanc: 1}\n")
    assert "tank" in only(report, "MC004")["message"]


def test_a_file_for_another_power_or_phase_is_mc006(capsys, tmp_path):
    state(tmp_path)
    code, report = check(capsys, purchase(tmp_path, "purchase: {inf: 1}\n", power="UK"))
    assert code == 1 and codes(report) == ["MC006"] and report["summary"]["unchecked_orders"] == 1
    state(tmp_path, phase="combat_move")
    code, report = check(capsys, purchase(tmp_path, "purchase: {inf: 1}\n"))
    assert code == 1 and codes(report) == ["MC006"] and "purchase phase" in only(report, "MC006")["message"]


def test_a_treasury_the_state_does_not_give_leaves_the_purchase_unchecked(capsys, tmp_path):
    write(tmp_path, "s.yaml", state_text("Germans", "purchase", GARRISON).replace("round: 1", "round: 3"))
    code, report = check(capsys, purchase(tmp_path, "purchase: {inf: 1}\n"))
    assert code == 1 and report["summary"]["unchecked_orders"] == 1
    assert "ipcs" in report["files"][0]["unchecked_reasons"][0]


def test_bad_input_never_writes_a_state(capsys, tmp_path):
    state(tmp_path)
    code, out = apply(capsys, purchase(tmp_path, "purchase: {tanc: 1}\n"))
    assert code == 1 and "movecheck: 1" not in out


# -- AA606 research-not-in-edition -----------------------------------------------------------------


def test_aa606_research_under_the_1942_second_edition(capsys, tmp_path):
    code, report = run(capsys, tmp_path, "purchase: {inf: 1}\nresearch: 10\n")
    assert code == 1 and codes(report) == ["AA606"]
    found = only(report, "AA606")
    assert found["message"].startswith("research: 10 IPCs, but these rules have no research step")
    assert (found["line"], found["column"]) == (7, 1)
    state(tmp_path)
    code, text = apply(capsys, purchase(tmp_path, "research: 10\n"))
    assert code != 0 and "ipcs:" not in text  # no state written: the Germans do not lose 10 IPCs for nothing


def test_aa606_revised_keeps_research(capsys, tmp_path):
    state(tmp_path, head="rules: aa-revised\nipcs: {Germans: 40}\n")
    code, report = check(capsys, purchase(tmp_path, "purchase: {inf: 1}\nresearch: 10\n"))
    assert legal(code, report), report["findings"]
    written = yaml_data(apply(capsys, purchase(tmp_path, "purchase: {inf: 1}\nresearch: 10\n"))[1])
    assert written["ipcs"]["Germans"] == 40 - 3 - 10


def test_aa606_research_0_spends_nothing_and_is_legal(capsys, tmp_path):
    assert legal(*run(capsys, tmp_path, "purchase: {inf: 1}\nresearch: 0\n"))


# -- apply --------------------------------------------------------------------------------------


def test_apply_writes_the_combat_move_state_with_the_purchase_and_the_treasury_reduced(capsys, tmp_path):
    damaged = ["{at: Germany, power: Germans, type: factory, damage: 3}"]
    state(tmp_path, units=damaged, head="ipcs: {Germans: 41, UK: 30}\n")
    orders = purchase(tmp_path, "purchase: {inf: 3, arm: 1}\nrepair: {Germany: 2}\nresearch: 5\n")
    code, text = apply(capsys, orders, *RESEARCH)
    assert code == 0, text
    written = yaml_data(text)
    assert written["turn"] == {"round": 1, "power": "Germans", "phase": "combat_move"}
    assert written["purchased"] == {"infantry": 3, "tank": 1}
    assert written["ipcs"]["Germans"] == 41 - 9 - 6 - 2 - 5 and written["ipcs"]["British"] == 30
    assert next(u for u in written["units"] if u["type"] == "factory")["damage"] == 1
    assert "# ipcs: 15 spent on purchase." in text.splitlines()
    (tmp_path / "next.yaml").write_text(text)
    lints_clean(capsys, tmp_path / "next.yaml")
    code = main(["apply", str(orders), "--root", "/", "--isolated", "--format", "json", *RESEARCH])
    report = json.loads(capsys.readouterr().out)
    assert report["spent"] == {"purchase": 15, "repair": 2, "research": 5}
    assert report["purchased"] == {"infantry": 3, "tank": 1} and report["ipcs"]["Germans"] == 19


def test_the_purchase_kind_is_among_the_orders_kinds():
    from movecheck.aa import SYSTEM

    assert "purchase" in SYSTEM.orders_kinds
    assert SYSTEM.identify({"phase": "purchase", "power": "Germans"}) == "purchase"


def test_an_empty_purchase_on_the_first_state_is_legal(capsys, tmp_path: Path) -> None:
    """``movecheck init``'s state: ``check`` of a purchase of nothing is legal."""
    assert main(["init", "aa1942-2e", "-o", str(tmp_path / "start.yaml")]) == 0
    (tmp_path / "buy.yaml").write_text("movecheck: 1\nsystem: aa\nstate: start.yaml\npower: Russians\nphase: purchase\n"
                                       "purchase: {}\n")
    code, report = check(capsys, tmp_path / "buy.yaml")
    assert legal(code, report) and report["findings"] == [] and report["files"][0]["verdicts"] == ["legal"]


def test_check_with_dependents_covers_the_purchase_files_of_a_state(capsys, tmp_path):
    state(tmp_path)
    purchase(tmp_path, "purchase: {battleship: 3}\n")
    code = main(["check", "--with-dependents", str(tmp_path / "s.yaml"), "--format", "json", "--root", str(tmp_path),
                 "--isolated"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and [f["kind"] for f in report["files"]] == ["aa-purchase"] and codes(report) == ["AA601"]


def test_names_players_type_work_in_repairs_and_power(capsys, tmp_path):
    damaged = ["{at: United Kingdom, power: British, type: factory, damage: 2}"]
    state(tmp_path, units=damaged, head="ipcs: {British: 31}\n", power="British")
    code, report = check(capsys, purchase(tmp_path, "purchase: {ftr: 1, arm: 1}\nrepair: {UK: 2}\n", power="UK"))
    assert legal(code, report), report["findings"]
    code, text = apply(capsys, tmp_path / "p.yaml")
    written = yaml_data(text)
    assert written["purchased"] == {"tank": 1, "fighter": 1} and written["ipcs"]["British"] == 31 - 16 - 2
    assert "damage" not in next(u for u in written["units"] if u["type"] == "factory")


def test_movement_orders_on_a_purchase_state_are_mc006(capsys, tmp_path):
    from .next_state_helpers import orders_text

    state(tmp_path)
    orders = write(tmp_path, "o.yaml", orders_text("s.yaml", "Germans", "combat_move",
                                                   ["{units: {infantry: 1}, path: [Germany, Poland]}"]))
    code, report = check(capsys, orders)
    assert code == 1 and codes(report) == ["MC006"] and "purchase" in only(report, "MC006")["message"]


# -- the post (summary) -----------------------------------------------------------------------


def post_of(capsys, orders: Path, *extra: str) -> dict:
    code = main(["summary", str(orders), "--root", "/", "--isolated", "-f", "json", *extra])
    out = capsys.readouterr().out
    assert code == 0, out
    return next(s for s in json.loads(out)["sections"] if s["kind"] == "purchase")


def test_the_post_lists_repairs_and_research_on_their_own_lines(capsys, tmp_path):
    """24 IPCs of units and a 5-IPC repair are told as such, never "Bought: 1 ftr, 1 cv (29 IPCs)"."""
    damaged = ["{at: Germany, power: Germans, type: factory, damage: 6}"]
    state(tmp_path, units=damaged, head="ipcs: {Germans: 41}\n")
    orders = purchase(tmp_path, "purchase: {fighter: 1, carrier: 1}\nrepair: {Germany: 5}\nresearch: 2\n")
    lines = [b["text"] for b in post_of(capsys, orders, *RESEARCH)["blocks"]]
    assert lines == ["Bought: 1 ftr, 1 cv (24 IPCs)", "Repaired: Germany, 5 damage (5 IPCs)", "Research: 2 IPCs",
                     "Spent in all: 31 IPCs"]


def test_the_post_of_a_repair_alone(capsys, tmp_path):
    state(tmp_path, units=["{at: Germany, power: Germans, type: factory, damage: 3}"])
    section = post_of(capsys, purchase(tmp_path, "repair: {Germany: 3}\n"))
    assert [b["text"] for b in section["blocks"]] == ["Bought: no units", "Repaired: Germany, 3 damage (3 IPCs)"]
    assert section["facts"]["repaired"] == {"Germany": 3}
