"""Output is deterministic and inputs are never written to (issue #9).

* Every example -- orders through ``check``, states and battlefields through ``lint`` --
  gives byte-identical output (text and JSON, exit code and stderr too) under different
  ``PYTHONHASHSEED`` values, in fresh interpreters.
* The same runs repeated in one process give the same bytes (no cache leaks from one run
  into the next).
* No run changes an input file or creates a file next to it.

The examples are copied to a temporary folder first, so that the comparison does not
depend on anyone editing ``examples/`` while the tests run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
HASH_SEEDS = ("0", "12345")
TIMEOUT = 300  # a hang guard for a run over every example, not a timing assertion


SHARES = [pytest.param(10, id="every-tenth"), pytest.param(1, id="all", marks=pytest.mark.slow)]
"""Every tenth example in the default run; all of them under ``slow``."""


def _is_orders(path: Path) -> bool:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and ("moves" in data or "orders" in data or data.get("kind") == "orders")


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    """A copy of ``examples/``: (its folder, orders files, state/battlefield files), relative paths."""
    root = tmp_path_factory.mktemp("determinism")
    shutil.copytree(EXAMPLES, root / "examples")
    files = sorted(p for p in (root / "examples").rglob("*.yaml") if p.is_file())
    orders = [p.relative_to(root).as_posix() for p in files if _is_orders(p)]
    states = [p.relative_to(root).as_posix() for p in files if not _is_orders(p)]
    assert orders and states
    return root, orders, states


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` with the SHA-256 of its bytes."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def run(args: list[str], cwd: Path, hash_seed: str) -> tuple[int, bytes, bytes]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_") and k not in ("NO_COLOR", "FORCE_COLOR")
    }
    env.update(PYTHONHASHSEED=hash_seed, PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", *args], capture_output=True, cwd=cwd, env=env, timeout=TIMEOUT
    )
    return proc.returncode, proc.stdout, proc.stderr


def _commands(orders: list[str], states: list[str]) -> list[list[str]]:
    return [
        [command, *files, "--format", fmt]
        for command, files in (("check", orders), ("lint", states))
        for fmt in ("text", "json")
    ]


@pytest.mark.slow  # every example in both formats under each seed; the default run checks each one alone (JSON)
def test_examples_are_byte_identical_across_hash_seeds(
    examples: tuple[Path, list[str], list[str]], report_validator
) -> None:
    """``check`` of every orders example and ``lint`` of every state: same bytes whatever the hash seed."""
    root, orders, states = examples
    before = snapshot(root)
    for args in _commands(orders, states):
        results = [run(args, root, seed) for seed in HASH_SEEDS]
        first = results[0]
        assert first[0] in (0, 1), first[2].decode()
        assert b"Traceback" not in first[2]
        if "json" in args:
            report_validator(first[1].decode("utf-8"))
        for seed, other in zip(HASH_SEEDS[1:], results[1:], strict=True):
            assert other == first, (
                f"movecheck {args[0]} --format {args[-1]} differs between PYTHONHASHSEED={HASH_SEEDS[0]} and {seed}"
            )
    assert snapshot(root) == before, "a run wrote to (or created) a file among its inputs"


@pytest.mark.parametrize("every", SHARES)
def test_every_example_alone_is_identical_across_hash_seeds(
    examples: tuple[Path, list[str], list[str]], every: int
) -> None:
    """Each example on its own (JSON), under two hash seeds: caught per file, not hidden in a batch."""
    root, orders, states = examples
    orders, states = orders[::every], states[::every]
    before = snapshot(root)
    script = (
        "import sys, io, contextlib\n"
        "from movecheck.cli import main\n"
        "for line in sys.stdin.read().splitlines():\n"
        "    command, path = line.split(' ', 1)\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "        code = main([command, path, '--format', 'json'])\n"
        "    sys.stdout.write(f'=== {command} {path} {code}\\n' + out.getvalue())\n"
    )
    jobs = "\n".join([f"check {p}" for p in orders] + [f"lint {p}" for p in states])
    outputs = []
    for seed in HASH_SEEDS:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
        env.update(PYTHONHASHSEED=seed, PYTHONIOENCODING="utf-8")
        proc = subprocess.run(
            [sys.executable, "-c", script], input=jobs.encode(), capture_output=True, cwd=root, env=env, timeout=TIMEOUT
        )
        assert proc.returncode == 0, proc.stderr.decode()
        outputs.append(proc.stdout)
    first = outputs[0].decode("utf-8")
    assert first.count("=== ") == len(orders) + len(states)
    assert "Traceback" not in first and "internal error" not in first
    for seed, other in zip(HASH_SEEDS[1:], outputs[1:], strict=True):
        if other != outputs[0]:
            diff = _first_difference(first, other.decode("utf-8"))
            pytest.fail(f"output differs between PYTHONHASHSEED={HASH_SEEDS[0]} and {seed}: {diff}")
    assert snapshot(root) == before


def _first_difference(a: str, b: str) -> str:
    section = ""
    for left, right in zip(a.splitlines(), b.splitlines(), strict=False):
        if left.startswith("=== "):
            section = left
        if left != right:
            return f"in [{section}]: {left!r} != {right!r}"
    return "one output is longer"


@pytest.mark.parametrize("every", SHARES)
def test_repeated_runs_in_one_process_are_identical(
    run_main, examples: tuple[Path, list[str], list[str]], every: int
) -> None:
    """The same commands twice in one process: identical (the map cache and others leak nothing)."""
    root, orders, states = examples
    orders, states = orders[::every], states[::every]
    before = snapshot(root)
    # one format a command: what a run could leak into the next (caches) is below the writers
    for args in (["check", *orders, "--format", "json"], ["lint", *states, "--format", "text"]):
        first = run_main(args, cwd=root)
        second = run_main(args, cwd=root)
        assert first == second, f"movecheck {args[0]} --format {args[-1]} changed on a second run in the same process"
        assert first[0] in (0, 1), first[2]
    assert snapshot(root) == before


def test_inputs_untouched_by_every_format(run_main, examples: tuple[Path, list[str], list[str]]) -> None:
    """Every output format and ``--suggest`` leave the inputs alone (no file written or created)."""
    root, orders, states = examples
    before = snapshot(root)
    suggestible = [o for o in orders if "maneuver" in o]  # --suggest on aa orders is a usage error
    assert suggestible
    # every format for check (of one aa and one maneuver orders file: the writers read no input);
    # all the orders with --suggest and lint in full (the format that quotes the inputs), and sarif
    # on one of each kind (what a run reads does not depend on the format it writes)
    one_each = [next(o for o in orders if "/aa/" in o), next(o for o in orders if "maneuver" in o)]
    runs = [(["check", *one_each], fmt) for fmt in ("text", "full", "json", "json-lines", "github", "sarif")]
    runs += [(["check", *suggestible, "--suggest"], "full"), (["lint", *states, *orders, "--statistics"], "full")]
    runs += [(["check", suggestible[0], "--suggest"], "sarif"),
             (["lint", states[0], *one_each, "--statistics"], "sarif")]
    for args, fmt in runs:
        code, _out, err = run_main([*args, "--format", fmt], cwd=root)
        assert code in (0, 1), err
    assert snapshot(root) == before


def test_hostile_inputs_are_not_written_to(run_main, tmp_path: Path) -> None:
    """Broken inputs (syntax errors, duplicate keys, bad references) are read, never fixed in place."""
    files: dict[str, Any] = {
        "syntax.yaml": "system: aa\nmoves: [\n",
        "duplicate.yaml": "system: aa\nsystem: aa\npower: Germans\n",
        "self.yaml": "system: aa\nstate: self.yaml\npower: Germans\nphase: combat_move\nmoves: []\n",
        "crlf-bom.yaml": "\ufeffsystem: aa\r\nstate: nowhere.yaml\r\npower: Germans\r\nphase: combat_move\r\nmoves: "
                         "[]\r\n",
        "binary.yaml": b"\x00\xff\xfe binary",
    }
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    before = snapshot(tmp_path)
    for command in ("check", "lint"):
        for fmt in ("text", "json"):
            code, _out, err = run_main([command, *sorted(files), "--format", fmt], cwd=tmp_path)
            assert (code, err) == (1, "")
    assert snapshot(tmp_path) == before
