"""A batch keeps only the states later files still name (memory, measured with tracemalloc, not timed)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from movecheck import core
from movecheck.core import check
from movecheck.render import FORMATS
from movecheck.settings import Settings

REPO = Path(__file__).resolve().parents[1]
STATE = (REPO / "examples" / "aa" / "states" / "g1-combat.yaml").read_text(encoding="utf-8")
ORDERS = (REPO / "examples" / "aa" / "orders" / "g1-combat.yaml").read_text(encoding="utf-8")


def games(folder: Path, count: int, start: int = 0) -> list[str]:
    """``count`` games, each a state and the orders naming it, in a folder of its own."""
    paths = []
    for n in range(start, start + count):
        game = folder / f"game-{n:03d}"
        game.mkdir(parents=True, exist_ok=True)
        (game / "state.yaml").write_text(STATE.replace("round: 1", f"round: {n % 9 + 1}"), encoding="utf-8")
        (game / "orders.yaml").write_text(ORDERS.replace("state: ../states/g1-combat.yaml", "state: state.yaml"),
                                          encoding="utf-8")
        paths.append(str(game / "orders.yaml"))
    return paths


def peak(paths: list[str]) -> int:
    """The most bytes allocated at once during the run (its report included)."""
    gc.collect()
    tracemalloc.start()
    try:
        check(paths, Settings())
        _, most = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return most


@pytest.mark.slow  # 48 games measured under tracemalloc in a process of its own
def test_a_batch_keeps_what_later_files_name_only(tmp_path: Path) -> None:
    """Measured in a process of its own: what earlier tests of a worker left behind (caches,
    collector thresholds, loaded modules) changes what a run allocates, not what it keeps."""
    paths = games(tmp_path, 48)
    probe = (
        "import json, sys\n"
        "from tests.test_batch_memory import peak\n"
        "from movecheck.core import Settings, check\n"
        "paths = json.loads(sys.argv[1])\n"
        "check(paths[:1], Settings())  # maps, validators and modules are loaded once per process\n"
        "print((peak(paths) - peak(paths[:8])) / 40)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, json.dumps(paths)], cwd=REPO, capture_output=True,
                         text=True, timeout=300, check=True)
    per_game = float(out.stdout.strip())
    # a prepared aa state with its board is several hundred KB; a game's report entry, its two
    # texts and its findings are a few tens of KB
    assert per_game < 80_000, f"{per_game:.0f} bytes kept per game"


def test_the_state_hint_reads_plain_references(tmp_path: Path) -> None:
    block = tmp_path / "a.yaml"
    block.write_text("movecheck: 1\nstate: 'games/s1.yaml'  # the state\nmoves: []\n", encoding="utf-8")
    flow = tmp_path / "b.json"
    flow.write_text('{"movecheck": 1, "state": "s2.json", "moves": []}', encoding="utf-8")
    unsure = tmp_path / "c.yaml"
    unsure.write_text("movecheck: 1\nstate: &s s3.yaml\n", encoding="utf-8")
    named = core._StateUses._named
    assert named(str(block), Settings()) == str(tmp_path / "games" / "s1.yaml")
    assert named(str(flow), Settings()) == str(tmp_path / "s2.json")
    assert named(str(unsure), Settings()) is None
    assert named(str(tmp_path / "missing.yaml"), Settings()) is None


@pytest.mark.parametrize("fmt", FORMATS)
def test_forgetting_a_state_changes_no_byte(tmp_path: Path, fmt: str, run_main, monkeypatch) -> None:
    """A state forgotten and named again (the hint was wrong) is read again, its findings reported once."""
    paths = games(tmp_path, 3)
    again = Path(paths[0]).with_name("more-orders.yaml")
    again.write_text(Path(paths[0]).read_text(encoding="utf-8"), encoding="utf-8")
    broken = Path(paths[1]).parent / "state.yaml"
    broken.write_text(STATE.replace("turn:", "surplus: 1\nturn:"), encoding="utf-8")  # a finding of the state's own
    args = ["check", "--format", fmt, paths[0], paths[1], str(again), paths[2], paths[1]]
    expected = run_main(args)
    monkeypatch.setattr(core._StateUses, "_named", classmethod(lambda cls, path, settings: "elsewhere"))
    assert run_main(args) == expected
