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
BATTLES_STATE = (ROOT / "examples" / "aa" / "states" / "g1-battles.yaml").read_text(encoding="utf-8")
NO_RESULTS = "movecheck: 1\nsystem: aa\nstate: ../states/battles.yaml\npower: Germans\nphase: battles\nresults: []\n"
"""Battle results that leave each of the state's six battles without one (six AA504)."""
BAD = GOOD.replace(
    "units: {infantry: 1}\n    path: [Ukraine S.S.R., Caucasus]",
    "units: {tank: 2}\n    path: [Germany, Poland, Ukraine S.S.R.]",
)


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
    assert all(h["language"] == "python" for h in hooks.values())
    assert (
        hooks["movecheck-check"]["entry"] == "movecheck check --with-dependents"
    )  # states and maps too: tests/test_dependents.py
    assert hooks["movecheck-lint"]["entry"].startswith("movecheck lint") and hooks["movecheck-lint"]["types"] == [
        "yaml"
    ]


def test_manifest_declares_its_pre_commit_version_and_serial_check() -> None:
    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    # types_or (movecheck-check) came with pre-commit 2.9.0; both hooks say so, as a string
    assert {h["minimum_pre_commit_version"] for h in hooks.values()} == {"2.9.0"}
    assert "types_or" in hooks["movecheck-check"]
    # --with-dependents: two batches holding a state and its orders would check them twice
    assert hooks["movecheck-check"]["require_serial"] is True
    assert hooks["movecheck-lint"].get("require_serial", False) is False  # each file on its own: batches are fine


def readme_config(repo: str, rev: str) -> str:
    """The README's .pre-commit-config.yaml snippet, its two placeholders filled in."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## pre-commit\n"):]
    snippet = section[section.index("```yaml\n") + 8:section.index("```\n", section.index("```yaml\n") + 8)]
    assert "https://github.com/<owner>/movecheck" in snippet and "rev: <commit>" in snippet
    return snippet.replace("https://github.com/<owner>/movecheck", repo).replace("rev: <commit>", f"rev: {rev}")


def test_readme_snippet_is_a_valid_config(tools, tmp_path) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(
        readme_config("https://example.org/movecheck", "0123456789abcdef" * 2 + "01234567"), encoding="utf-8"
    )
    result = pre_commit("validate-config", str(config), cwd=tmp_path, home=tmp_path / "home")
    assert result.returncode == 0, result.stdout + result.stderr


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
    assert (
        "0 errors, 0 warnings, 0 notes in 2 files; 1 order not judged (lint does not judge orders: use 'movecheck "
        "check')."
        in output
    )

    # The check hook on both orders files in one call: the bad one fails it, alone.
    (game / "orders" / "bad.yaml").write_text(BAD, encoding="utf-8")
    git("add", "-A", cwd=game)
    both = pre_commit(
        "try-repo", str(hook_repo), "movecheck-check", "--files", "orders/good.yaml", "orders/bad.yaml",
        cwd=game, home=tmp_path / "home-2",
    )
    output = both.stdout + both.stderr
    assert both.returncode == 1, output
    assert "orders/bad.yaml:8:29: AA203 [error]" in output
    assert "orders/good.yaml:" not in output.replace("orders/good.yaml: checked against states/g1.yaml", "")
    assert "1 error, 0 warnings, 0 notes in 2 files; 1 of 2 orders legal, 1 illegal." in output

    # The README's snippet as written (placeholders filled in), installed with pre-commit run:
    # a state edit that makes every order illegal fails the commit, though no orders changed.
    (game / "orders" / "bad.yaml").unlink()
    (game / "states" / "g1.yaml").write_text(STATE.replace("Germans", "Russians"), encoding="utf-8")
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    (game / ".pre-commit-config.yaml").write_text(readme_config(str(hook_repo), head), encoding="utf-8")
    git("add", "-A", cwd=game)
    edit = pre_commit("run", "movecheck-check", "--files", "states/g1.yaml", cwd=game, home=tmp_path / "home-1")
    output = edit.stdout + edit.stderr
    assert edit.returncode == 1, output
    assert "orders/good.yaml:4:8: MC006 [error]" in output
    assert "0 of 1 order legal, 1 not checked (the orders do not match the state)." in output

    # Battle results are judged by the check hook: given themselves, and brought in by their
    # battles state when only the state changed.
    (game / "states" / "battles.yaml").write_text(BATTLES_STATE, encoding="utf-8")
    (game / "results").mkdir()
    (game / "results" / "g1.yaml").write_text(NO_RESULTS, encoding="utf-8")
    git("add", "-A", cwd=game)
    for changed in ("results/g1.yaml", "states/battles.yaml"):
        results = pre_commit("run", "movecheck-check", "--files", changed, cwd=game, home=tmp_path / "home-1")
        output = results.stdout + results.stderr
        assert results.returncode == 1, (changed, output)
        assert output.count("results/g1.yaml:6:1: AA504 [error]") == 6, (changed, output)
        assert "6 errors, 0 warnings, 0 notes in 1 file; 0 of 0 orders legal." in output, (changed, output)
