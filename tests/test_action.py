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
    name: str, inputs: dict[str, str], cwd: Path, bin_dir: Path | None = None, outputs: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a step; ``outputs``: the file GitHub gives as ``$GITHUB_OUTPUT`` (none: the step has nowhere to write)."""
    step = STEPS[name]
    assert step["shell"] == "bash"
    assert "${{" not in step["run"], "a run: script reads its inputs from the environment only"
    env = {**os.environ, **{key: expand(str(value), inputs) for key, value in step.get("env", {}).items()}}
    env.pop("GITHUB_OUTPUT", None)
    if outputs is not None:
        env["GITHUB_OUTPUT"] = str(outputs)
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
    assert ACTION["inputs"]["files"]["required"] is False and ACTION["inputs"]["files"]["default"] == "."


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


# --- defaults, globs, outputs, shellcheck, the metadata schema (issue 42) --------------------------------


def outputs_of(path: Path) -> dict[str, str]:
    """The ``name=value`` lines a step wrote to ``$GITHUB_OUTPUT``."""
    return dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines())


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository of one game: a state, legal orders, and YAML that is no movecheck file."""
    (tmp_path / "aa" / "states").mkdir(parents=True)
    (tmp_path / "aa" / "orders").mkdir()
    shutil.copy(ROOT / "examples" / "aa" / "states" / "g1-combat.yaml", tmp_path / "aa" / "states")
    shutil.copy(ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml", tmp_path / "aa" / "orders")
    (tmp_path / "docker-compose.yaml").write_text("services: {web: {image: nginx}}\n", encoding="utf-8")
    return tmp_path


def test_files_defaults_to_the_whole_repository(repository: Path, tmp_path: Path) -> None:
    written = tmp_path / "github-output"
    result = run_step("Check the orders", {}, repository, outputs=written)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "17 of 17 orders legal" in result.stdout
    assert outputs_of(written) == {"errors": "0", "warnings": "0", "notes": "0", "files": "1", "orders": "17",
                                   "legal-orders": "17", "illegal-orders": "0", "unchecked-orders": "0"}


@pytest.mark.slow  # the Action's whole step over every YAML of a repository copy (seconds)
def test_a_glob_over_every_yaml_checks_the_orders_and_lints_the_rest(repository: Path) -> None:
    """As the pre-commit hooks do: states, maps and foreign YAML do not fail the check."""
    result = run_step("Check the orders", {"files": "**/*.yaml"}, repository)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "::error" not in result.stdout
    assert "17 of 17 orders legal" in result.stdout  # the check
    assert result.stdout.splitlines()[-1].startswith("0 errors, 0 warnings, 0 notes in 2 files;")  # the lint
    (repository / "aa" / "states" / "broken.yaml").write_text("movecheck: 1\nsystem: aa\nturn: [\n", encoding="utf-8")
    linted = run_step("Check the orders", {"files": "**/*.yaml"}, repository)
    assert linted.returncode == 1 and linted.stdout.count("::error file=aa/states/broken.yaml,") == 2  # check, lint
    unlinted = run_step("Check the orders", {"files": "**/*.yaml", "lint": "false"}, repository)
    assert unlinted.returncode == 1 and unlinted.stdout.count("::error file=aa/states/broken.yaml,") == 1


def test_a_glob_that_matches_nothing_says_so(repository: Path) -> None:
    result = run_step("Check the orders", {"files": "games/**/*.yaml"}, repository)
    assert result.returncode == 2
    assert result.stdout == "::error title=movecheck::no file or folder matches the files input\n"
    assert result.stderr == "movecheck: error: no file or folder matches files: games/\\*\\*/\\*.yaml\n"
    assert "Missing argument" not in result.stdout + result.stderr


def test_the_outputs_count_the_findings_and_name_the_sarif_file(workspace: Path, tmp_path: Path) -> None:
    inputs = {"files": "aa/orders/g1-combat.yaml aa/orders/variants/aa201-*.yaml", "sarif": "true"}
    written = tmp_path / "github-output"
    assert run_step("Check the orders", inputs, workspace, outputs=written).returncode == 1
    counted = outputs_of(written)
    assert (counted["errors"], counted["files"], counted["orders"]) == ("1", "2", "35")  # 17 and 18 orders
    assert (counted["legal-orders"], counted["illegal-orders"], counted["unchecked-orders"]) == ("34", "1", "0")
    sarif_output = tmp_path / "sarif-output"
    assert run_step("Write the SARIF report", inputs, workspace, outputs=sarif_output).returncode == 0
    assert outputs_of(sarif_output) == {"sarif-file": "movecheck.sarif"}
    declared = {name: expand_output(output["value"]) for name, output in ACTION["outputs"].items()}
    assert declared == {**{name: ("check", name) for name in counted}, "sarif-file": ("sarif", "sarif-file")}


def expand_output(value: str) -> tuple[str, str]:
    """``${{ steps.ID.outputs.NAME }}`` as (ID, NAME); the step ID must exist."""
    found = re.fullmatch(r"\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}", value)
    assert found, value
    assert found.group(1) in {step.get("id") for step in ACTION["runs"]["steps"]}
    return found.group(1), found.group(2)


@pytest.mark.parametrize("name", [name for name, step in STEPS.items() if "run" in step])
def test_shellcheck_finds_nothing(name: str, tmp_path: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed")
    script = tmp_path / "step.sh"
    script.write_text("#!/bin/bash\n" + STEPS[name]["run"], encoding="utf-8")
    result = subprocess.run([shellcheck, "--shell=bash", "--severity=style", str(script)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout


def test_action_yml_matches_the_action_metadata_schema() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "tests" / "data" / "github-action.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    assert sorted(e.message for e in validator.iter_errors(ACTION)) == []
    broken = {**ACTION, "outputs": {"errors": {"description": "no value"}}, "inputs": {"1files": {}}}
    assert len(list(validator.iter_errors(broken))) >= 2  # a composite output needs a value; an input id, a description
