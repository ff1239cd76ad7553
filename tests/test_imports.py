"""Heavy imports (networkx, jsonschema, shapely) are loaded only by the commands that need them.

Each test runs a fresh interpreter: in this one the test suite has imported everything.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

HEAVY = ("networkx", "jsonschema", "shapely")

REPORT = f"print('MODS', sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"


def heavy_modules_after(code: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """Run ``code`` in a fresh interpreter, then list the heavy modules it imported."""
    script = f"import sys\n{code}\n{REPORT}\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("MODS ")]
    assert lines, f"no module report; stderr:\n{proc.stderr}"
    return ast.literal_eval(lines[-1][len("MODS ") :]), proc


def test_importing_the_cli_is_light() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import movecheck.cli, sys; print(sorted(m for m in ('networkx','jsonschema','shapely') if m in "
            "sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "args",
    # a fresh interpreter each (a third of a second): the default run keeps one of each kind of command
    [
        pytest.param(["--help"], id="help"),
        pytest.param(["--version"], id="version", marks=pytest.mark.slow),
        pytest.param(["check", "--help"], id="check-help", marks=pytest.mark.slow),
        pytest.param(["rules"], id="rules"),
        pytest.param(["rules", "--format", "json"], id="rules-json", marks=pytest.mark.slow),
        pytest.param(["explain", "MC001"], id="explain"),
        pytest.param(["schema", "report"], id="schema", marks=pytest.mark.slow),
        pytest.param(["maps"], id="maps"),
        pytest.param(["map", "--help"], id="map-help", marks=pytest.mark.slow),
    ],
)
def test_light_commands_do_not_import_heavy_modules(args: list[str]) -> None:
    code = (
        "from movecheck.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    rc = main({args!r})\n"
        "assert rc == 0, rc\n"
    )
    modules, proc = heavy_modules_after(code)
    assert proc.returncode == 0, proc.stderr
    assert modules == [], f"movecheck {' '.join(args)} imported {modules}"


def test_lint_of_a_state_needs_no_shapely(tmp_path) -> None:
    # The aa system has no geometry: linting an aa state must not pull in shapely.
    (tmp_path / "s.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\n",
        encoding="utf-8",
    )
    code = (
        "from movecheck.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    rc = main(['lint', {str(tmp_path / 's.yaml')!r}])\n"
        "assert rc == 0, rc\n"
    )
    modules, proc = heavy_modules_after(code)
    assert proc.returncode == 0, proc.stderr
    assert "shapely" not in modules
    assert "jsonschema" not in modules  # a valid state needs only the validator generated from its schema
