"""``--jobs N``: the same report, byte for byte and in every format, as the run on one process."""

from __future__ import annotations

import os
import re
import shutil
import signal
from pathlib import Path

import pytest

from movecheck import parallel
from movecheck.core import check, lint
from movecheck.render import FORMATS, render
from movecheck.settings import Settings

REPO = Path(__file__).resolve().parents[1]
HANG_TIMEOUT = 60  # seconds: a hang guard, never a timing assertion
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
    return [*files, files[0]]  # the same file twice is read once


SMALL = ("orders/broken.yaml", "orders/g1-combat.yaml", "orders/odd.yaml", "orders/uk2-combat.yaml",
         "maneuver/corps-orders-mv502.yaml", "maneuver/free-orders-mv502.yaml", "maneuver/corps-orders-mv201.yaml",
         "orders/odd-again.yaml", "states/g1-combat.yaml", "missing.yaml")


@pytest.fixture(scope="module")
def small_batch(batch: list[str]) -> list[str]:
    """A quarter of the batch, one or two of each kind in the batch's order: for what is not about its size.

    The command line's ``--jobs`` (it hands the run to :func:`parallel.run`, which the tests
    above compare with the run on one process in every format, on the whole batch), the
    language the workers are given, a dead worker.  Still there: aa and maneuver orders
    (findings made in the workers, an MV502), a broken file, a missing one, the state given
    to ``check``, the odd state named from two parts (10 files: 5 parts of 2 for 2 jobs),
    the first file twice.
    """
    small = [f for f in batch[:-1] if f.endswith(tuple("/" + name for name in SMALL))]
    assert len(small) == len(SMALL)
    return [*small, small[0]]


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


def test_command_line(run_main, small_batch: list[str]) -> None:
    # the command line's --jobs, once per command (every format of both: test_every_format_byte_for_byte)
    for command, fmt in (("check", "json"), ("lint", "text")):
        one = run_main([command, "--format", fmt, *small_batch])
        assert run_main([command, "--jobs", "2", "--format", fmt, *small_batch]) == one
    code, _, err = run_main(["check", "--jobs", "0", small_batch[0]])
    assert code == 2 and "--jobs" in err


def test_standard_input_stays_on_one_process(run_main, small_batch: list[str]) -> None:
    text = Path(small_batch[0]).read_text(encoding="utf-8")
    args = ["check", "--stdin-filename", small_batch[0], "-", small_batch[1]]
    assert run_main([*args[:1], "--jobs", "2", *args[1:]], stdin=text) == run_main(args, stdin=text)


# -- what the workers are given, and what a dead one does (issue 23) ---------------------------


def _run_in_fresh_process(run_cli, args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """A subprocess run: the catalogue and the language start empty there, as for a user."""
    return run_cli(args, cwd=REPO, env=env)


def test_workers_speak_the_language_of_the_run(run_cli, small_batch: list[str]) -> None:
    """Byte for byte in Russian (English: the statistics test below runs in it)."""
    one = _run_in_fresh_process(run_cli, ["check", "--lang", "ru", *small_batch])
    assert _run_in_fresh_process(run_cli, ["check", "--jobs", "2", "--lang", "ru", *small_batch]) == one
    assert "заявлен" in one[1]  # the maneuver findings, made in the workers, are in Russian


def test_workers_speak_the_language_of_the_environment(run_cli, small_batch: list[str]) -> None:
    env = {"MOVECHECK_LANG": "ru"}
    one = _run_in_fresh_process(run_cli, ["lint", *small_batch], env)
    assert _run_in_fresh_process(run_cli, ["lint", "--jobs", "2", *small_batch], env) == one
    assert "ошиб" in one[1]


@pytest.mark.parametrize("fmt", ["text", pytest.param("full", marks=pytest.mark.slow)])
def test_statistics_name_the_clauses_with_jobs(run_cli, small_batch: list[str], fmt: str) -> None:
    args = ["--statistics", "--format", fmt, *small_batch]
    one = _run_in_fresh_process(run_cli, ["check", *args])
    assert _run_in_fresh_process(run_cli, ["check", "--jobs", "2", *args]) == one
    assert re.search(r"^ +\d+  MV502  \S+ +\[error\]$", one[1], re.M)  # a maneuver code, named


def _killed(job: tuple) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _exited(job: tuple) -> None:
    os._exit(3)


def _crashed(job: tuple) -> None:
    raise RuntimeError("a bug in a worker")


@pytest.mark.parametrize("death, line", [
    (_killed, "movecheck: error: a --jobs worker process ended before it finished its files (was it killed?)"),
    (_exited, "movecheck: error: a --jobs worker process ended before it finished its files (was it killed?)"),
    (_crashed, "movecheck: internal error: RuntimeError: a bug in a worker"),
], ids=["killed", "exited", "crashed"])
def test_a_dead_worker_ends_the_run_with_one_line(
    run_main, small_batch: list[str], monkeypatch, death, line: str
) -> None:
    """The workers unpickle ``parallel._part`` by name: patched here, they run ``death`` instead."""
    monkeypatch.setattr(parallel, "_part", death)

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("the run hangs on its dead worker")

    previous = signal.signal(signal.SIGALRM, hung)  # a regression fails the test, never hangs the suite
    signal.alarm(HANG_TIMEOUT)
    try:
        code, out, err = run_main(["check", "--jobs", "2", *small_batch])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert (code, out, err) == (2, "", line + "\n")


def test_jobs_are_capped_at_the_cpus(small_batch: list[str], monkeypatch) -> None:
    started: list[int] = []
    monkeypatch.setattr(parallel, "cpu_limit", lambda: 1)
    monkeypatch.setattr(parallel, "_run_parts", lambda *args: started.append(args[-1]))
    one = parallel.run("check", small_batch, Settings(), 64)  # one CPU: the run stays in this process
    assert started == [] and one[0].files
    monkeypatch.setattr(parallel, "cpu_limit", lambda: 3)
    monkeypatch.setattr(parallel, "merge", lambda parts: parts)
    parallel.run("check", small_batch, Settings(), 64)
    assert started == [3]


def test_the_cpu_limit_is_what_this_process_may_use(monkeypatch) -> None:
    if hasattr(os, "process_cpu_count"):
        assert parallel.cpu_limit() == os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        assert parallel.cpu_limit() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert parallel.cpu_limit() == 1
