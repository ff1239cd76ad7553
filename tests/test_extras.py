"""An aa-only install (no extras) carries no geometry; a manoeuvre file then says which extra it needs.

The missing shapely is simulated in a child process and the ``--jobs`` workers it spawns: a
``sitecustomize`` on ``PYTHONPATH`` sets ``sys.modules["shapely"] = None``, which makes every
import of it fail as if it were not installed and ``find_spec`` find nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("no-shapely")
    (folder / "sitecustomize.py").write_text("import sys\nsys.modules['shapely'] = None\n", encoding="utf-8")
    return folder


@pytest.fixture
def without_shapely(hidden: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PYTHONPATH": str(hidden), "MOVECHECK_LANG": "en"}

    def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "movecheck", *args],
            cwd=ROOT, capture_output=True, text=True, timeout=120, env={**env, "MOVECHECK_LANG": lang},
        )

    return run


@pytest.mark.parametrize("hide", [False, True])
def test_the_simulation_hides_shapely(hidden: Path, hide: bool) -> None:
    """shapely is installed here (the test extra); the simulation alone makes it missing."""
    probe = "import importlib.util\nprint(importlib.util.find_spec('shapely') is None)\nimport shapely"
    env = {**os.environ, "PYTHONPATH": str(hidden)} if hide else dict(os.environ)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert result.stdout == f"{hide}\n"
    assert (result.returncode != 0) is hide
    assert ("ModuleNotFoundError" in result.stderr) is hide


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


def test_the_plain_install_pulls_no_geometry() -> None:
    assert not names(PROJECT["dependencies"]) & {"shapely", "numpy"}
    assert names(PROJECT["optional-dependencies"]["maneuver"]) == {"shapely"}


def test_the_test_extra_pulls_the_manoeuvre_docs_and_odds_extras() -> None:
    assert "movecheck[maneuver,docs,odds]" in PROJECT["optional-dependencies"]["test"]


@pytest.mark.parametrize(
    "args",
    [
        ("check", "examples/maneuver/corps-orders.yaml"),
        ("check", "--jobs", "2", "examples/maneuver/corps-orders.yaml", "examples/maneuver/free-orders.yaml"),
        ("lint", "examples/maneuver/battlefield.yaml"),
        ("apply", "examples/maneuver/corps-orders.yaml"),
    ],
    ids=["check", "check-jobs", "lint", "apply"],
)
def test_a_manoeuvre_file_without_shapely_is_one_line_exit_2(
    without_shapely: Callable[..., subprocess.CompletedProcess[str]], args: tuple[str, ...]
) -> None:
    result = without_shapely(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("movecheck: error: examples/maneuver/")
    assert "needs shapely, which is not installed: install movecheck[maneuver]" in result.stderr


def test_aa_and_manoeuvre_orders_lint_work_without_shapely(
    without_shapely: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    aa = without_shapely("check", "examples/aa/orders/g1-combat.yaml")
    assert aa.returncode == 0, aa.stderr
    assert "17 of 17 orders legal" in aa.stdout
    orders = without_shapely("lint", "examples/maneuver/corps-orders.yaml")
    assert orders.returncode == 0, orders.stderr
    assert "lint does not judge orders" in orders.stdout


def test_the_russian_line(without_shapely: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    result = without_shapely("check", "examples/maneuver/corps-orders.yaml", lang="ru")
    assert result.returncode == 2
    assert "movecheck[maneuver]" in result.stderr and "shapely" in result.stderr
    assert "install movecheck" not in result.stderr


def test_the_pre_commit_hooks_install_the_manoeuvre_extra() -> None:
    """pre-commit installs the repository without extras: each hook adds the extra's requirements."""
    import yaml  # type: ignore[import-untyped]

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    extra = PROJECT["optional-dependencies"]["maneuver"]
    assert hooks and all(hook["additional_dependencies"] == extra for hook in hooks)


def test_the_readme_installs_the_extra_its_manoeuvre_example_needs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        "python3 -m venv .venv && .venv/bin/pip install '.[maneuver]' && "
        ".venv/bin/movecheck check examples/maneuver/corps-orders.yaml"
    ) in readme
