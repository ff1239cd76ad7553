"""action.yml, the composite GitHub Action: its steps' commands run here as GitHub would run them.

Each ``run:`` step is run with ``bash -eo pipefail`` (GitHub's ``shell: bash``) and the
environment its ``env:`` gives, the ``${{ inputs.* }}`` and ``${{ github.action_path }}``
expressions replaced by the inputs of the test (or the action's defaults) and this
repository; ``python`` and ``movecheck`` are the test environment's.  The install step
builds and installs the package into a fresh virtual environment, so it is a slow test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {step["name"]: step for step in ACTION["runs"]["steps"]}
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def expand(text: str, inputs: dict[str, str]) -> str:
    """A value with its expressions replaced: an input (given, else its default) or the action's path."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression == "github.action_path":
            return str(ROOT)
        name = expression.removeprefix("inputs.")
        assert name != expression and name in ACTION["inputs"], f"an expression the test cannot give: {expression}"
        return str(inputs.get(name, ACTION["inputs"][name].get("default", "")))

    return EXPRESSION.sub(value, text)


def run_step(
    name: str, inputs: dict[str, str], cwd: Path, bin_dir: Path | None = None
) -> subprocess.CompletedProcess[str]:
    step = STEPS[name]
    assert step["shell"] == "bash"
    assert "${{" not in step["run"], "a run: script reads its inputs from the environment only"
    env = {**os.environ, **{key: expand(str(value), inputs) for key, value in step.get("env", {}).items()}}
    env["PATH"] = f"{bin_dir or Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.pop("MOVECHECK_FORMAT", None)
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
    )


def runs_when(name: str, inputs: dict[str, str]) -> bool:
    """A step's ``if:``, for the only conditions the action uses: always() and the sarif input."""
    condition = STEPS[name].get("if")
    if condition is None:
        return True
    found = re.fullmatch(r"\$\{\{ always\(\) && inputs\.sarif == 'true' \}\}", condition)
    assert found, condition
    return bool(inputs.get("sarif", ACTION["inputs"]["sarif"]["default"]) == "true")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "aa", tmp_path / "aa")
    return tmp_path


def test_the_action_is_composite_with_its_steps() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert list(STEPS) == [
        "Set up Python", "Install movecheck", "Check the orders", "Write the SARIF report", "Upload the SARIF report",
    ]
    assert STEPS["Set up Python"]["uses"].startswith("actions/setup-python@")
    assert STEPS["Upload the SARIF report"]["uses"].startswith("github/codeql-action/upload-sarif@")
    assert expand(STEPS["Upload the SARIF report"]["with"]["sarif_file"], {}) == "movecheck.sarif"
    assert "--format github" in STEPS["Check the orders"]["run"]
    assert ACTION["inputs"]["files"]["required"] is True


def test_the_check_step_annotates_an_illegal_order(workspace: Path) -> None:
    inputs = {"files": "aa/orders/g1-combat.yaml aa/orders/variants/aa201-*.yaml"}
    result = run_step("Check the orders", inputs, workspace)
    assert result.returncode == 1, result.stderr
    assert "::error file=aa/orders/variants/aa201-stop-in-hostile.yaml,line=40,col=28," in result.stdout
    assert "AA201" in result.stdout
    assert not runs_when("Write the SARIF report", inputs) and not runs_when("Upload the SARIF report", inputs)


def test_the_check_step_passes_legal_orders_and_takes_args(workspace: Path) -> None:
    result = run_step("Check the orders", {"files": "aa/orders/**/g1-combat.yaml", "args": "--select AA2"}, workspace)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "::error" not in result.stdout
    assert "17 of 17 orders legal" in result.stdout


def test_a_file_name_is_not_shell_code(workspace: Path) -> None:
    result = run_step("Check the orders", {"files": "aa/orders/g1-combat.yaml;touch${IFS}owned"}, workspace)
    assert result.returncode == 2
    assert not (workspace / "owned").exists()


def test_the_sarif_steps_write_the_report_to_upload(workspace: Path) -> None:
    inputs = {"files": "aa/orders/variants/aa201-stop-in-hostile.yaml", "sarif": "true"}
    assert runs_when("Write the SARIF report", inputs) and runs_when("Upload the SARIF report", inputs)
    result = run_step("Write the SARIF report", inputs, workspace)
    assert result.returncode == 0, result.stderr  # --exit-zero: the check step already failed the job
    report: dict[str, Any] = json.loads((workspace / "movecheck.sarif").read_text(encoding="utf-8"))
    run = report["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["AA201"]
    (rule,) = [r for r in run["tool"]["driver"]["rules"] if r["id"] == "AA201"]
    assert rule["helpUri"].endswith("/rules/AA201/")


@pytest.mark.slow
def test_the_install_step_installs_the_action_s_movecheck(tmp_path: Path) -> None:
    """In a fresh virtual environment, as setup-python leaves the runner: its python and pip."""
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True, timeout=300)
    bin_dir = tmp_path / "venv" / "bin"
    result = run_step("Install movecheck", {"extras": ""}, tmp_path, bin_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith(f"movecheck {__import__('movecheck').__version__}")
    shutil.copytree(ROOT / "examples" / "aa", tmp_path / "aa")
    checked = run_step("Check the orders", {"files": "aa/orders/g1-combat.yaml"}, tmp_path, bin_dir)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_documented_workflow_installs_movecheck_before_running_it() -> None:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    steps = text.split("Without the action, install movecheck first", 1)[1]
    assert steps.index("python -m pip install") < steps.index("- run: movecheck check")
    assert "uses: movecheck/movecheck@" in text
    for name in ACTION["inputs"]:
        assert f"| `{name}` |" in text, f"the input {name} is documented"
