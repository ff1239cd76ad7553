"""``--jobs N``: the same report, byte for byte and in every format, as the run on one process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from movecheck import parallel
from movecheck.core import Settings, check, lint
from movecheck.render import FORMATS, render

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Games and oddities in an order that spreads them over the parts of a 2-job run.

    Several orders files name one state across parts (its findings and its map's must be
    reported once), a state has findings of its own, a file is broken, one is missing,
    one is a state given to ``check``; the maneuver examples come along.
    """
    root = tmp_path_factory.mktemp("batch")
    shutil.copytree(EXAMPLES, root / "examples")
    aa = root / "examples" / "aa"
    state = (aa / "states" / "g1-combat.yaml").read_text(encoding="utf-8")
    (aa / "states" / "g1-combat-odd.yaml").write_text(state.replace("turn:", "surplus: 1\nturn:"), encoding="utf-8")
    orders = (aa / "orders" / "g1-combat.yaml").read_text(encoding="utf-8")
    for name in ("odd.yaml", "odd-again.yaml"):
        (aa / "orders" / name).write_text(orders.replace("g1-combat.yaml", "g1-combat-odd.yaml"), encoding="utf-8")
    (aa / "orders" / "broken.yaml").write_text("movecheck: 1\nsystem: aa\nmoves: [\n", encoding="utf-8")
    files = sorted(str(p) for p in (aa / "orders").glob("*.yaml") if p.name != "odd-again.yaml")
    files += sorted(str(p) for p in (root / "examples" / "maneuver").glob("*orders*.yaml"))
    files += [str(aa / "orders" / "odd-again.yaml"), str(aa / "states" / "g1-combat.yaml"), str(root / "missing.yaml")]
    return files + [files[0]]  # the same file twice is read once


@pytest.fixture(scope="module")
def runs(batch: list[str]) -> dict[str, tuple]:
    settings = Settings()
    return {
        "check": (check(batch, settings), parallel.run("check", batch, settings, 2)),
        "lint": ((lint(batch, settings), []), parallel.run("lint", batch, settings, 3)),
    }


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["check", "lint"])
def test_every_format_byte_for_byte(runs: dict[str, tuple], command: str, fmt: str) -> None:
    (one, one_ends), (many, many_ends) = runs[command]
    assert many_ends == one_ends
    for statistics in (False, True):
        assert render(many, fmt, statistics=statistics) == render(one, fmt, statistics=statistics)
    assert many.exit_code() == one.exit_code()


def test_the_state_named_across_parts_is_reported_once(runs: dict[str, tuple]) -> None:
    (one, _), (many, _) = runs["check"]
    odd = [f for f in many.findings if f.file.endswith("g1-combat-odd.yaml")]
    assert odd and len(odd) == len([f for f in one.findings if f.file.endswith("g1-combat-odd.yaml")])


def test_command_line(run_main, batch: list[str]) -> None:
    for command in ("check", "lint"):
        for fmt in ("text", "json"):
            one = run_main([command, "--format", fmt, *batch])
            assert run_main([command, "--jobs", "2", "--format", fmt, *batch]) == one
    code, _, err = run_main(["check", "--jobs", "0", batch[0]])
    assert code == 2 and "--jobs" in err


def test_standard_input_stays_on_one_process(run_main, batch: list[str]) -> None:
    text = Path(batch[0]).read_text(encoding="utf-8")
    args = ["check", "--stdin-filename", batch[0], "-", batch[1]]
    assert run_main([*args[:1], "--jobs", "2", *args[1:]], stdin=text) == run_main(args, stdin=text)
