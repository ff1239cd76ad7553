"""``check --with-dependents``: a changed state or map re-checks the orders that depend on it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml
from conftest import AA_ORDERS_LEGAL, AA_STATE, AA_TINY_MAP, write

ROOT = Path(__file__).resolve().parents[1]
STATE = AA_STATE
ORDERS = AA_ORDERS_LEGAL.replace("state: state.yaml", "state: ../states/g1.yaml")
TINY_STATE = """\
movecheck: 1
system: aa
map: ../maps/tiny.yaml
turn: {round: 1, power: Reds, phase: combat_move}
"""
TINY_ORDERS = (
    "movecheck: 1\nsystem: aa\nstate: ../states/tiny.yaml\npower: Reds\nphase: combat_move\n"
    "moves:\n  - {units: {infantry: 1}, path: [Alpha, Beta]}\n"
)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A repository with a state, two orders files naming it, and noise the search must pass over."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, "states/g1.yaml", STATE)
    write(tmp_path, "orders/a.yaml", ORDERS)
    write(tmp_path, "orders/b.yaml", ORDERS.replace("id: m1", "id: b1"))
    write(tmp_path, ".hidden/c.yaml", ORDERS)  # a hidden folder: never searched
    write(tmp_path, ".git/d.yaml", ORDERS)
    write(tmp_path, "orders/notes.txt", ORDERS)  # not YAML or JSON by its name
    write(tmp_path, "ci.yml", "on: push\njobs: {}\n")
    return tmp_path


def _break_state(game: Path) -> None:
    """The state edit of the issue: the turn passes to the Russians, so no German order fits it."""
    write(game, "states/g1.yaml", STATE.replace("power: Germans", "power: Russians"))


def _files(out: str) -> list[str]:
    return [entry["path"] for entry in json.loads(out)["files"]]


def test_a_state_edit_that_breaks_its_orders_fails(run_main, game: Path) -> None:
    code, out, err = run_main(["check", "--with-dependents", "states/g1.yaml"], cwd=game)
    assert (code, err) == (0, "")
    assert out.endswith("0 errors, 0 warnings, 0 notes in 2 files; 4 of 4 orders legal.\n")
    _break_state(game)
    code, out, err = run_main(["check", "--with-dependents", "states/g1.yaml"], cwd=game)
    assert (code, err) == (1, "")
    assert re.findall(r"^(orders/[ab]\.yaml):\d+:\d+: MC006 ", out, re.M) == ["orders/a.yaml", "orders/b.yaml"]


def test_without_the_option_a_state_is_not_orders(run_main, game: Path) -> None:
    code, out, _ = run_main(["check", "states/g1.yaml", "--format", "json"], cwd=game)
    assert code == 1 and _files(out) == ["states/g1.yaml"]


def test_orders_given_come_first_and_once(run_main, game: Path) -> None:
    args = ["check", "--with-dependents", "orders/b.yaml", "states/g1.yaml", "ci.yml", "--format", "json"]
    code, out, _ = run_main(args, cwd=game)
    assert code == 0
    assert _files(out) == ["orders/b.yaml", "orders/a.yaml"]  # ci.yml is foreign: skipped


def test_a_map_brings_in_its_states_orders(run_main, run_cli, game: Path) -> None:
    write(game, "maps/tiny.yaml", AA_TINY_MAP)
    write(game, "states/tiny.yaml", TINY_STATE)
    write(game, "orders/tiny.yaml", TINY_ORDERS)
    code, out, _ = run_main(["check", "--with-dependents", "maps/tiny.yaml", "--format", "json"], cwd=game)
    assert (code, _files(out)) == (0, ["orders/tiny.yaml"])
    write(game, "maps/tiny.yaml", AA_TINY_MAP.replace("[[Alpha, Beta], ", "["))
    code, out, _ = run_cli(
        ["check", "--with-dependents", "maps/tiny.yaml"], cwd=game
    )  # a fresh process: maps are cached
    assert code == 1 and re.search(r"^orders/tiny\.yaml:7:\d+: AA101 ", out, re.M)


def test_links_and_special_files_are_not_followed(run_main, game: Path, tmp_path_factory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    write(elsewhere, "x/orders.yaml", ORDERS.replace("../states/g1.yaml", os.path.join(game, "states/g1.yaml")))
    os.symlink(elsewhere / "x", game / "linked")  # a linked folder
    os.symlink(elsewhere / "x" / "orders.yaml", game / "orders" / "link.yaml")  # a linked file
    os.mkfifo(game / "orders" / "fifo.yaml")  # would block a reader
    code, out, err = run_main(["check", "--with-dependents", "states/g1.yaml", "--format", "json"], cwd=game)
    assert (code, err) == (0, "")
    assert _files(out) == ["orders/a.yaml", "orders/b.yaml"]


def test_a_state_nothing_depends_on_checks_nothing(run_main, game: Path) -> None:
    write(game, "states/lonely.yaml", STATE)
    code, out, err = run_main(["check", "--with-dependents", "states/lonely.yaml", "--format", "json"], cwd=game)
    assert (code, err, _files(out)) == (0, "", [])


def test_unreadable_and_broken_files_are_still_reported(run_main, game: Path) -> None:
    write(game, "orders/broken.yaml", "movecheck: 1\nsystem: aa\nmoves: [\n")
    code, out, err = run_main(
        ["check", "--with-dependents", "orders/broken.yaml", "missing.yaml", "--format", "json"], cwd=game
    )
    assert code == 2 and "missing.yaml: no such file" in err
    assert _files(out) == ["orders/broken.yaml", "missing.yaml"]


def test_the_order_is_deterministic(run_cli, game: Path) -> None:
    for name in ("z", "m", "a0"):
        write(game, f"more/{name}/orders.yaml", ORDERS.replace("../states", "../../states"))
    outputs = {
        run_cli(["check", "--with-dependents", "states/g1.yaml"], cwd=game, env={"PYTHONHASHSEED": s})[1] for s in "12"
    }
    [out] = outputs
    assert re.findall(r"^(\S+): checked against", out, re.M) == [
        "more/a0/orders.yaml", "more/m/orders.yaml", "more/z/orders.yaml", "orders/a.yaml", "orders/b.yaml",
    ]


# -- the pre-commit hook uses it -------------------------------------------------------------


def test_the_check_hook_runs_with_dependents_on_states_and_maps() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    check = hooks["movecheck-check"]
    assert check["entry"] == "movecheck check --with-dependents"
    assert check["types_or"] == ["yaml", "json"]
    pattern = re.compile(check.get("files", ""))  # pre-commit's default: every file of those types
    for path in ("states/g1.yaml", "maps/europe.yaml", "game/g1.json", "orders/g1.yaml", "turn3-orders.yml"):
        assert pattern.search(path), path
    assert not re.search(check.get("exclude", "^$"), "states/g1.yaml")


# -- every kind a system checks against a state (aa battle results) ----------------------------

BATTLES_STATE = (ROOT / "examples" / "aa" / "states" / "g1-battles.yaml").read_text(encoding="utf-8")
NO_RESULTS = "movecheck: 1\nsystem: aa\nstate: ../states/battles.yaml\npower: Germans\nphase: battles\nresults: []\n"
"""Battle results that leave each of the state's six battles without a result: six AA504."""


@pytest.fixture
def battles(game: Path) -> Path:
    write(game, "states/battles.yaml", BATTLES_STATE)
    write(game, "results/g1.yaml", NO_RESULTS)
    return game


def test_battle_results_given_are_checked(run_main, battles: Path) -> None:
    code, out, err = run_main(["check", "--with-dependents", "results/g1.yaml", "--format", "json"], cwd=battles)
    assert (code, err) == (1, "")
    assert _files(out) == ["results/g1.yaml"]
    assert [f["code"] for f in json.loads(out)["findings"]] == ["AA504"] * 6


def test_a_battles_state_brings_in_its_results(run_main, battles: Path) -> None:
    code, out, err = run_main(["check", "--with-dependents", "states/battles.yaml"], cwd=battles)
    assert (code, err) == (1, "")
    assert out.endswith("results/g1.yaml: checked against states/battles.yaml\n"
                        "6 errors, 0 warnings, 0 notes in 1 file; 0 of 0 orders legal.\n")


def test_the_kinds_checked_are_the_systems_own(run_main, battles: Path, monkeypatch) -> None:
    """dependents asks each system which kinds are orders (``orders_kinds``); it names none itself."""
    from movecheck.systems import system

    monkeypatch.setattr(system("aa"), "orders_kinds", ("orders",))  # as if aa checked no battle results
    code, out, _ = run_main(["check", "--with-dependents", "states/battles.yaml", "--format", "json"], cwd=battles)
    assert (code, _files(out)) == (0, [])
