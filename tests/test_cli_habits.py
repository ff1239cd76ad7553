"""The command-line habits of ruff and yamllint (issue 30): -h, -V, --output-format, -q, folders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import movecheck

REPO = Path(__file__).resolve().parents[1]
ORDERS = REPO / "examples" / "aa" / "orders" / "g1-combat.yaml"
STATE = REPO / "examples" / "aa" / "states" / "g1-combat.yaml"
ILLEGAL = REPO / "examples" / "aa" / "orders" / "variants" / "aa101-not-adjacent.yaml"
SUBCOMMANDS = ["check", "apply", "lint", "rules", "explain", "schema", "maps", "init", "reach", "import", "map",
               "render", "server"]


# -- -h, -V, --output-format -----------------------------------------------------------------


def test_short_version_is_the_long_one(run_main) -> None:
    assert run_main(["-V"]) == run_main(["--version"]) == (0, f"movecheck {movecheck.__version__}\n", "")


def test_short_help_at_the_top_is_the_long_one(run_main) -> None:
    code, out, err = run_main(["-h"])
    assert (code, err) == (0, "")
    assert (code, out, err) == run_main(["--help"])
    assert "-h, --help" in out and "-V, --version" in out


def test_the_entry_point_answers_short_flags_without_the_command_line() -> None:
    from movecheck.__main__ import quick
    from movecheck.help_text import MAIN_HELP

    assert quick(["-V"]) == quick(["--version"]) == f"movecheck {movecheck.__version__}\n"
    proc = subprocess.run([sys.executable, "-m", "movecheck", "-h"], capture_output=True, text=True, timeout=120,
                          env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert (proc.returncode, proc.stdout) == (0, MAIN_HELP)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_command_takes_short_help(run_main, command: str) -> None:
    code, out, err = run_main([command, "-h"])
    assert (code, err) == (0, "")
    assert out.startswith(f"Usage: movecheck {command} ")
    assert (code, out, err) == run_main([command, "--help"])
    assert "-h, --help" in out


def test_subgroup_commands_take_short_help(run_main) -> None:
    code, out, err = run_main(["map", "path", "-h"])
    assert (code, err) == (0, "")
    assert out.startswith("Usage: movecheck map path ")


@pytest.mark.parametrize(
    "args",
    [
        ["check", str(ILLEGAL)],
        ["lint", str(STATE)],
        ["rules", "--system", "mc"],
        ["maps"],
    ],
)
def test_output_format_is_format(run_main, args: list[str]) -> None:
    long = run_main([*args, "--output-format", "json"])
    assert long == run_main([*args, "--format", "json"])
    assert long == run_main([*args, "--output-format=json"])
    json.loads(long[1])  # really the JSON output


def test_every_command_with_format_takes_output_format(run_main) -> None:
    for command in SUBCOMMANDS:
        out = run_main([command, "--help"])[1]
        if "--format" in out:
            assert "--output-format" in out, command
