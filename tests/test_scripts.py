"""The generator scripts on a fresh clone: without the shared facts folder they say so in one line.

The shared facts folder (map facts, rule seeds) is not part of the repository; the files
generated from it are committed.  ``MOVECHECK_SHARED`` names the folder: pointed at a
folder that does not exist, ``--check`` has nothing to compare and exits 0, and
regenerating is a one-line error (exit 2) that writes nothing.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for p in (ROOT / "scripts").glob("gen_*.py") if "--check" in p.read_text(encoding="utf-8"))
NEEDS_FACTS = ("gen_maps", "gen_seeds", "gen_layouts")
GENERATED = ("movecheck/aa/maps", "movecheck/seeds.json", "schemas")


def run(script: Path, *args: str, shared: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MOVECHECK_SHARED": str(shared)}
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )


def fingerprint() -> str:
    """A digest of every generated file, to prove a run wrote nothing."""
    digest = hashlib.sha256()
    for name in GENERATED:
        target = ROOT / name
        for path in sorted(target.rglob("*") if target.is_dir() else [target]):
            if path.is_file():
                digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def test_the_scripts_are_found() -> None:
    assert {p.stem for p in SCRIPTS} >= {"gen_maps", "gen_schemas", "gen_seeds"}


SLOW_CHECKS = {"gen_all", "gen_examples", "gen_rule_pages", "gen_pictures", "gen_catalogues"}
"""Scripts whose ``--check`` takes over a second (each regenerates its files to compare)."""


@pytest.mark.parametrize(
    "script",
    # gen_all runs every other one (each a case of its own here), and the four whose --check regenerates for
    # seconds: slow, as CI runs gen_all --check itself too (the default run keeps the quick ones)
    [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW_CHECKS else p for p in SCRIPTS],
    ids=lambda p: p.stem,
)
def test_check_without_the_shared_folder_exits_0(script: Path, tmp_path: Path) -> None:
    result = run(script, "--check", shared=tmp_path / "missing")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    if script.stem in NEEDS_FACTS:
        assert result.stderr.count("\n") == 1
        assert f"{script.stem}: nothing to compare: {tmp_path / 'missing'}" in result.stderr
        assert "MOVECHECK_SHARED" in result.stderr


@pytest.mark.parametrize("name", NEEDS_FACTS)
def test_generating_without_the_shared_folder_is_one_line_and_writes_nothing(name: str, tmp_path: Path) -> None:
    before = fingerprint()
    result = run(ROOT / "scripts" / f"{name}.py", shared=tmp_path / "missing")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"{name}: cannot generate: ") and result.stderr.count("\n") == 1
    assert fingerprint() == before


@pytest.mark.parametrize("name", NEEDS_FACTS)
def test_the_shared_folder_is_found_through_the_variable(name: str, tmp_path: Path) -> None:
    """``MOVECHECK_SHARED`` is the folder the scripts read (an empty one: its files are missing)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "seeds").mkdir()
    result = run(ROOT / "scripts" / f"{name}.py", "--check", shared=tmp_path)
    assert str(tmp_path) in result.stderr


# -- scripts/gen_all.py: every generator in one command (issue 36) ------------------------------


def _gen_all() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_all", ROOT / "scripts" / "gen_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gen_all_runs_every_generator_once() -> None:
    gen_all = _gen_all()
    assert sorted(gen_all.ORDER) == sorted(p.stem for p in SCRIPTS if p.stem != "gen_all") == gen_all.generators()


@pytest.mark.parametrize(("first", "then"), [
    ("gen_schemas", "gen_validators"),  # the validators are compiled from the schemas
    ("gen_maps", "gen_layouts"),  # a layout must place every space of its map
    ("gen_seeds", "gen_rule_pages"),  # the pages quote the rule paragraphs
    ("gen_catalogues", "gen_rule_pages"),
    ("gen_maps", "gen_examples"),  # init writes a state of the built-in map
    ("gen_examples", "gen_pictures"),  # the pictures draw the example states
    ("gen_layouts", "gen_pictures"),
])
def test_gen_all_runs_each_generator_after_what_it_reads(first: str, then: str) -> None:
    order = _gen_all().ORDER
    assert order.index(first) < order.index(then)


@pytest.mark.slow  # every generator's --check, each also a test of its own; CI runs gen_all --check besides
def test_gen_all_check_finds_nothing_stale() -> None:
    # what CI runs (.ci/run); with the shared facts folder beside the repository (or MOVECHECK_SHARED) the maps,
    # layouts and seeds are compared too, without it they say so in one line each
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_all.py"), "--check"], capture_output=True,
                            text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_gen_all_stops_at_a_failing_generator(tmp_path: Path) -> None:
    # regenerating without the shared facts: gen_maps cannot, and nothing after it runs (nothing is written)
    before = fingerprint()
    result = run(ROOT / "scripts" / "gen_all.py", shared=tmp_path / "missing")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "gen_all: gen_maps failed (exit 2); the generators after it were not run"
    assert fingerprint() == before
