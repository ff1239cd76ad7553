"""The pre-commit hooks, run by the real ``pre-commit`` package.

``pre-commit try-repo`` installs the hook's package into an environment of its
own (dependencies from PyPI, so this needs the network and takes a while: it is
marked ``slow``: the default run leaves it out; ``python -m pytest -m slow`` runs it).

try-repo clones a git repository; on a local repository it adds staged and
modified tracked files to the clone, but not untracked ones.  So that the test
exercises this working tree exactly (including files not committed yet), it
commits a snapshot of what ``pip install`` needs (pyproject.toml, README.md,
movecheck/, schemas/, .pre-commit-hooks.yaml) to a temporary repository and
tries that.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
SNAPSHOT = ("pyproject.toml", "README.md", "movecheck", "schemas", ".pre-commit-hooks.yaml")
TIMEOUT = 900  # installing the hook environment downloads its dependencies

STATE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 1, power: Germans, phase: combat_move}
"""
GOOD = """\
movecheck: 1
system: aa
state: ../states/g1.yaml
power: Germans
phase: combat_move
moves:
  - units: {infantry: 1}
    path: [Ukraine S.S.R., Caucasus]
"""
BAD = GOOD.replace("units: {infantry: 1}\n    path: [Ukraine S.S.R., Caucasus]", "units: {tank: 2}\n    path: [Germany, Poland, Ukraine S.S.R.]")


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MOVECHECK_", "PRE_COMMIT", "GIT_"))}
    env.update({"PRE_COMMIT_HOME": str(home), "NO_COLOR": "1", "PRE_COMMIT_COLOR": "never"})
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT,
    )


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=movecheck tests", "-c", "user.email=tests@movecheck.invalid",
         "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=cwd, check=True, capture_output=True, timeout=120,
    )


@pytest.fixture(scope="module")
def tools() -> None:
    pytest.importorskip("pre_commit", reason="pre-commit is in the test extra: pip install '.[test]'")
    if shutil.which("git") is None:
        pytest.skip("pre-commit needs git")


def test_manifest_is_valid(tools, tmp_path) -> None:
    result = pre_commit("validate-manifest", str(MANIFEST), cwd=ROOT, home=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_manifest_hooks() -> None:
    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    assert set(hooks) == {"movecheck-check", "movecheck-lint"}
    assert all(h["language"] == "python" and h["types"] == ["yaml"] for h in hooks.values())
    assert hooks["movecheck-check"]["entry"] == "movecheck check"
    assert hooks["movecheck-lint"]["entry"].startswith("movecheck lint")
    import re

    pattern = re.compile(hooks["movecheck-check"]["files"])
    assert pattern.search("orders/g1.yaml") and pattern.search("game/turn3-orders.yml")
    assert pattern.search("examples/aa/orders/variants/aa201-stop-in-hostile.yaml")
    assert not pattern.search("states/g1.yaml") and not pattern.search("maps/europe.yaml")


@pytest.mark.slow
def test_hooks_with_try_repo(tools, tmp_path) -> None:
    hook_repo = tmp_path / "movecheck-snapshot"
    hook_repo.mkdir()
    for name in SNAPSHOT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, hook_repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, hook_repo / name)
    git("init", "-q", cwd=hook_repo)
    git("add", "-A", cwd=hook_repo)
    git("commit", "-q", "-m", "snapshot of the working tree", cwd=hook_repo)

    game = tmp_path / "game"
    (game / "states").mkdir(parents=True)
    (game / "orders").mkdir()
    (game / "states" / "g1.yaml").write_text(STATE, encoding="utf-8")
    (game / "orders" / "good.yaml").write_text(GOOD, encoding="utf-8")
    (game / "orders" / "bad.yaml").write_text(BAD, encoding="utf-8")
    (game / "ci.yml").write_text("on: push\njobs: {}\n", encoding="utf-8")  # not a movecheck file
    git("init", "-q", cwd=game)
    git("add", "-A", cwd=game)

    # Every hook of the manifest on the good files: check takes the orders, lint all three
    # movecheck files and passes over ci.yml.
    good = pre_commit(
        "try-repo", str(hook_repo), "--files", "orders/good.yaml", "states/g1.yaml", "ci.yml", "--verbose",
        cwd=game, home=tmp_path / "home-1",
    )
    output = good.stdout + good.stderr
    assert good.returncode == 0, output
    assert "movecheck check" in output and "movecheck lint" in output
    assert "0 errors, 0 warnings, 0 notes in 1 file; 1 of 1 order legal." in output
    assert "0 errors, 0 warnings, 0 notes in 2 files; 1 order not judged (lint does not judge orders: use 'movecheck check')." in output

    # The check hook on both orders files in one call: the bad one fails it, alone.
    both = pre_commit(
        "try-repo", str(hook_repo), "movecheck-check", "--files", "orders/good.yaml", "orders/bad.yaml",
        cwd=game, home=tmp_path / "home-2",
    )
    output = both.stdout + both.stderr
    assert both.returncode == 1, output
    assert "orders/bad.yaml:8:29: AA203 [error]" in output
    assert "orders/good.yaml:" not in output.replace("orders/good.yaml: checked against states/g1.yaml", "")
    assert "1 error, 0 warnings, 0 notes in 2 files; 1 of 2 orders legal, 1 illegal." in output
