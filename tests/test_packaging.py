"""The installed package carries its schemas, built-in maps and rule texts.

These tests run the ``movecheck`` console script of the current environment
from an empty folder, so the source tree is not on the path: in CI, where the
project is installed with ``pip install .``, they prove the wheel is complete.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ("aa-map", "aa-state", "aa-orders", "maneuver-state", "maneuver-orders", "report")


def script() -> str:
    found = Path(sys.executable).with_name("movecheck")
    if not found.exists():
        found_on_path = shutil.which("movecheck")
        if found_on_path is None:
            pytest.skip("the movecheck console script is not installed in this environment")
        return found_on_path
    return str(found)


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script(), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", SCHEMAS)
def test_installed_schema_is_valid_draft_2020_12(tmp_path: Path, name: str) -> None:
    result = run(tmp_path, "schema", name)
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert result.stdout == (ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")


def test_installed_builtin_maps_and_rule_texts(tmp_path: Path) -> None:
    maps = run(tmp_path, "maps")
    assert maps.returncode == 0
    assert "aa1942-2e" in maps.stdout and "aa-revised" in maps.stdout
    explain = run(tmp_path, "explain", "AA207")
    assert explain.returncode == 0
    assert "N16:" in explain.stdout


def test_installed_check_of_a_copied_example(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "aa", tmp_path / "aa")
    result = run(tmp_path, "check", "aa/orders/g1-combat.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "17 of 17 orders legal" in result.stdout


def test_readme_commands_are_what_ci_runs() -> None:
    """The README's two set-up commands stay true: CI runs the test one verbatim."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = (
        "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/ruff check . && .venv/bin/mypy && "
        ".venv/bin/python -m pytest"
    )
    main_command = (
        "python3 -m venv .venv && .venv/bin/pip install . && "
        ".venv/bin/movecheck check examples/aa/orders/g1-combat.yaml"
    )
    assert test_command in readme and test_command in ci
    assert main_command in readme


def test_installed_russian_catalogue(tmp_path: Path) -> None:
    """The compiled catalogue and the Russian seed paragraphs are in the wheel."""
    explain = run(tmp_path, "explain", "C10", "--lang", "ru")
    assert explain.returncode == 0, explain.stderr
    assert "Наземный или морской юнит" in explain.stdout
    rules = run(tmp_path, "rules", "--lang", "ru", "--system", "mc")
    assert rules.returncode == 0 and "Ошибки ввода (обе системы)" in rules.stdout
