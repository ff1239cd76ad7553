"""Random whole turns of both editions hold (issue 35, "Done when").

From ``movecheck init`` of the built-in maps ``aa1942-2e`` and ``aa-revised``, hypothesis plays whole
turns of one or more powers -- purchase, combat move, battle results, noncombat move, mobilization --
drawn from each state as it comes (:mod:`tests.aa.turn_play`), and runs ``movecheck apply`` on every
file in this process.  For every file:

* **soundness**: an apply that refuses writes nothing; one that writes exits 0;
* **conservation**: units, IPCs and control change only as the rules change them, by an audit
  computed from the map facts and the files alone (:mod:`tests.aa.turn_audit`);
* **spelling**: the same file re-spelled (``UK``, ``inf``, ``SZ 5``, keys and entries reordered,
  placements and moves split) gets the same verdict and a byte-identical state;
* **determinism**: the same file applied again gives the same bytes, state and report;
* the state written lints without an error.

The re-spelled file is run in a twin folder under the same names, so the header lines that name the
files are the same.  The parts that wait for other fixes of issue 35 are behind the switches below.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from tests.aa import turn_play
from tests.aa.turn_audit import AUDITS, MAP_OF_EDITION, Audit, facts_folder, facts_of, turn
from tests.harness import yaml_data

ALIASED_POWER_KEYS = True  # on since issue 35's power-key fix landed (`ipcs: {Ger: 40}` read as the Germans')
"""Re-spell the powers in the state's own keys (``ipcs:``, ``control:``) too, not only in the files."""

CANONICAL_ORDER = True  # on since issue 35's canonical-order fix landed (`purchased:` in the map's unit order)
"""Re-spelled files may also list the purchase in another order of unit types (the state written must not
follow the file's order)."""

RESEARCH_REFUSED = True  # on since issue 35's AA606 fix landed (research refused on 1942 second edition)
"""Draw ``research:`` in 1942 second edition purchases too, and expect AA606 there (Revised keeps research)."""

HAS_RESEARCH = {"aa1942-2e": False, "aa-revised": True}
"""Whether the edition has a research step (aa-turn.md: Revised has; 1942 second edition has not)."""

EDITIONS = ("aa1942-2e", "aa-revised")
PHASES = ("purchase", "combat_move", "battles", "noncombat_move", "mobilize")

pytestmark = pytest.mark.skipif(facts_folder() is None, reason="the shared map facts are missing")

HUNT = os.environ.get("MOVECHECK_HYPOTHESIS", "").strip() == "long"
"""``MOVECHECK_HYPOTHESIS=long``: a local hunt, random (not derandomized), of ``MOVECHECK_TURN_EXAMPLES`` games
(400 unless set)."""

FULL = settings(
    max_examples=int(os.environ.get("MOVECHECK_TURN_EXAMPLES", "400")) if HUNT else 40,
    deadline=None,
    database=None,
    derandomize=not HUNT,
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: a whole game shrinks for many minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- running movecheck in this process -----------------------------------------------------


@contextlib.contextmanager
def inside(folder: Path) -> Iterator[None]:
    """Run with ``folder`` as the current directory (relative names in headers are then the same)."""
    saved = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(saved)


def run(folder: Path, args: list[str]) -> tuple[int, str, str]:
    from movecheck.cli import main

    out, err = io.StringIO(), io.StringIO()
    with inside(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*args, "--root", str(folder), "--isolated"] if args[0] != "init" else args)
    return code, out.getvalue(), err.getvalue()


@dataclass
class Applied:
    code: int
    report: dict[str, Any]
    state: bytes | None
    stderr: str


def apply(folder: Path, orders: str, output: str) -> Applied:
    (folder / output).unlink(missing_ok=True)
    code, out, err = run(folder, ["apply", orders, "-o", output, "--format", "json"])
    assert "Traceback" not in err and code in (0, 1), (code, err)
    written = folder / output
    state = written.read_bytes() if written.exists() else None
    return Applied(code, json.loads(out) if out.strip().startswith("{") else {}, state, err)


def verdict(applied: Applied) -> tuple[int, list[str]]:
    """The exit code and the codes of the findings, in report order."""
    findings = [f for file in applied.report.get("files") or [] for f in file.get("findings") or []]
    return applied.code, sorted(f["code"] for f in findings + (applied.report.get("findings") or []))


def as_written(data: dict[str, Any]) -> str:
    """YAML in the order of the mapping's keys (the order is part of how a file is spelled)."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=200)


def _unnamed(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the name of the state it wrote."""
    return {k: v for k, v in report.items() if k != "written"}


# -- the game ------------------------------------------------------------------------------


@dataclass
class Game:
    """Two folders, ``plain`` (the files as drawn) and ``twin`` (the same files re-spelled), carried on
    together; ``step`` numbers the files."""

    edition: str
    root: Path
    step: int = 0
    states: list[str] = field(default_factory=list)

    @property
    def plain(self) -> Path:
        return self.root / "plain"

    @property
    def twin(self) -> Path:
        return self.root / "twin"

    def state_name(self) -> str:
        return f"s{self.step}.yaml"

    def state(self) -> dict[str, Any]:
        return yaml_data((self.plain / self.state_name()).read_text(encoding="utf-8"))


def start(edition: str, root: Path, data: st.DataObject) -> Game:
    game = Game(edition, root)
    for folder in (game.plain, game.twin):
        folder.mkdir()
    code, _, err = run(game.plain, ["init", MAP_OF_EDITION[edition], "-o", game.state_name()])
    assert code == 0, err
    _copy_state(game, data)
    return game


def _copy_state(game: Game, data: st.DataObject) -> None:
    """The state for the twin folder: the same state, re-spelled (its units listed otherwise)."""
    state = turn_play.respell_units(game.state(), data)
    if ALIASED_POWER_KEYS:
        state = turn_play.respell_state(state)
    (game.twin / game.state_name()).write_text(as_written(state), encoding="utf-8")


DRAW: dict[str, Callable[..., dict[str, Any]]] = {
    "combat_move": turn_play.combat_move,
    "battles": turn_play.battle_results,
    "noncombat_move": turn_play.noncombat_move,
}


def research(data: st.DataObject) -> dict[str, int]:
    """Now and then some IPCs spent on research (written as ``research: N``, counted against the budget)."""
    spent = data.draw(st.sampled_from([0, 0, 0, 5, 10]), label="research")
    return {"research": spent} if spent else {}


def play_file(data: st.DataObject, game: Game, turn_start: dict[str, Any]) -> bool:
    """Draw the file of the state's phase, apply it (plain, twice, and re-spelled) and audit what it wrote.
    False when the file was refused (the turn ends there)."""
    before = game.state()
    phase = turn(before)[2]
    facts = facts_of(MAP_OF_EDITION[game.edition])
    spent = research(data) if phase == "purchase" and (HAS_RESEARCH[game.edition] or RESEARCH_REFUSED) else {}
    if phase == "mobilize":
        drawn = turn_play.mobilization(data, before, facts, turn_start)
    elif phase == "purchase":
        drawn = {**turn_play.purchase(data, before, facts, reserve=spent.get("research", 0)), **spent}
    else:
        drawn = DRAW[phase](data, before, facts)
    orders = {**turn_play.header(game.state_name(), before), **drawn}
    twin = turn_play.respell(orders, data)
    if not CANONICAL_ORDER and "purchase" in twin:
        twin["purchase"] = {turn_play.TYPE_SPELLINGS.get(k, k): n for k, n in orders["purchase"].items()}
    name, output = f"o{game.step}.yaml", f"s{game.step + 1}.yaml"
    (game.plain / name).write_text(as_written(orders), encoding="utf-8")
    (game.twin / name).write_text(as_written(twin), encoding="utf-8")

    first = apply(game.plain, name, output)
    again = apply(game.plain, name, "again.yaml")
    spelled = apply(game.twin, name, output)
    context = f"{game.edition} step {game.step} ({phase})\n{as_written(orders)}\n{first.stderr}"

    assert (first.state is not None) == (first.code == 0), context  # refused: nothing written
    assert again.state == first.state and _unnamed(again.report) == _unnamed(first.report), context
    assert verdict(spelled) == verdict(first), context + "\n" + spelled.stderr + as_written(twin)
    assert spelled.state == first.state, context + as_written(twin)
    if orders.get("research") and not HAS_RESEARCH[game.edition]:
        assert "AA606" in verdict(first)[1] and first.state is None, context
    event(f"{phase}: {'applied' if first.state is not None else 'refused ' + ' '.join(verdict(first)[1])}")
    if first.state is None:
        return False
    for what in ("captured", "destroyed", "transfers"):
        if first.report.get(what):
            event(f"{phase}: {what}")
    if first.report.get("refunded"):
        event("mobilize: refunded")

    game.step += 1
    after = game.state()
    audit = Audit(facts, game.edition, before, after, first.report)
    AUDITS[phase](audit, orders)
    assert not audit.problems, context + "\n".join(audit.problems)
    code, out, err = run(game.plain, ["lint", output, "--format", "json"])
    assert code == 0 and "Traceback" not in err, context + out + err  # the state written lints clean
    _copy_state(game, data)
    return True


def play_turns(data: st.DataObject, edition: str, powers: int) -> int:
    """Play ``powers`` whole turns from ``init``; the number of files applied."""
    with tempfile.TemporaryDirectory(prefix="movecheck-turns-") as folder:
        game = start(edition, Path(folder), data)
        for _ in range(powers):
            turn_start = game.state()
            for _phase in PHASES:
                if not play_file(data, game, turn_start):
                    return game.step
        return game.step


QUICK_EXAMPLES = 1
"""Examples of the default run, per edition: one power's whole turn (about a second each)."""


@pytest.mark.parametrize("edition", EDITIONS)
@settings(FULL, max_examples=QUICK_EXAMPLES)
@given(data=st.data())
def test_a_whole_turn_holds(data: st.DataObject, edition: str) -> None:
    play_turns(data, edition, powers=1)


@pytest.mark.slow
@settings(FULL)
@given(data=st.data(), edition=st.sampled_from(EDITIONS))
def test_whole_turns_hold(data: st.DataObject, edition: str) -> None:
    """Up to three powers' turns in a row (the next power's purchase reads the income of the last)."""
    play_turns(data, edition, powers=data.draw(st.integers(1, 3), label="powers"))


# -- what the property found --------------------------------------------------------------

CARRIER_BATTLE = {"units": {"destroyer": 1}, "path": ["35 Sea Zone", "37 Sea Zone"]}
"""Revised, the British turn: their destroyer attacks the Japanese battleship, carrier and two fighters."""


def _carrier_battle(folder: Path, result: dict[str, Any]) -> Applied:
    """The British destroyer's attack on 37 Sea Zone played from ``init``; the battles apply of ``result``."""
    assert run(folder, ["init", "aa-revised", "--power", "British", "-o", "s0.yaml"])[0] == 0
    files = [
        {"phase": "purchase", "purchase": {}},
        {"phase": "combat_move", "moves": [CARRIER_BATTLE]},
        {"phase": "battles", "results": [{"at": "37 Sea Zone", **result}]},
    ]
    for step, body in enumerate(files):
        orders = {"movecheck": 1, "system": "aa", "state": f"s{step}.yaml", "power": "British", **body}
        (folder / f"o{step}.yaml").write_text(as_written(orders), encoding="utf-8")
        applied = apply(folder, f"o{step}.yaml", f"s{step + 1}.yaml")
        assert applied.code == 0, applied.stderr
    return applied


SUNK = {"attacker_losses": {"destroyer": 1}, "defender_losses": {"carrier": 1, "fighter": 1}}
"""The destroyer sinks the carrier and one fighter and goes down: the other fighter has no deck."""


def test_a_fighter_lost_with_its_carrier_is_in_the_apply_report(tmp_path: Path) -> None:
    applied = _carrier_battle(tmp_path, SUNK)
    assert applied.report["destroyed"] == [{"type": "fighter", "power": "Japanese", "at": "37 Sea Zone"}]
    state = (applied.state or b"").decode()
    assert state.count("its carrier sunk and no landing given") == 1 and "(N17)" not in state
    after = yaml_data(state)
    assert [u["type"] for u in after["units"] if u["at"] == "37 Sea Zone"] == ["battleship"]


def test_a_fighter_landed_after_its_carrier_sank_is_not_destroyed(tmp_path: Path) -> None:
    landed = {**SUNK, "defender_landing": [{"to": "East Indies", "units": {"fighter": 1}}]}
    applied = _carrier_battle(tmp_path, landed)
    assert applied.report["destroyed"] == []
    after = yaml_data((applied.state or b"").decode())
    assert {"at": "East Indies", "power": "Japanese", "type": "fighter"} in after["units"]
