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


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
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
