"""The command-line habits of ruff and yamllint (issue 30): -h, -V, --output-format, -q, folders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import movecheck

REPO = Path(__file__).resolve().parents[1]
ORDERS = REPO / "examples" / "aa" / "orders" / "g1-combat.yaml"
STATE = REPO / "examples" / "aa" / "states" / "g1-combat.yaml"
ILLEGAL = REPO / "examples" / "aa" / "orders" / "variants" / "aa101-not-adjacent.yaml"
SUBCOMMANDS = ["check", "apply", "lint", "rules", "explain", "schema", "maps", "init", "reach", "import", "map",
               "render", "server"]


# -- -h, -V, --output-format -----------------------------------------------------------------


def test_short_version_is_the_long_one(run_main: Any) -> None:
    assert run_main(["-V"]) == run_main(["--version"]) == (0, f"movecheck {movecheck.__version__}\n", "")


def test_short_help_at_the_top_is_the_long_one(run_main: Any) -> None:
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
def test_every_command_takes_short_help(run_main: Any, command: str) -> None:
    code, out, err = run_main([command, "-h"])
    assert (code, err) == (0, "")
    assert out.startswith(f"Usage: movecheck {command} ")
    assert (code, out, err) == run_main([command, "--help"])
    assert "-h, --help" in out


def test_subgroup_commands_take_short_help(run_main: Any) -> None:
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
def test_output_format_is_format(run_main: Any, args: list[str]) -> None:
    long = run_main([*args, "--output-format", "json"])
    assert long == run_main([*args, "--format", "json"])
    assert long == run_main([*args, "--output-format=json"])
    json.loads(long[1])  # really the JSON output


def test_every_command_with_format_takes_output_format(run_main: Any) -> None:
    for command in SUBCOMMANDS:
        out = run_main([command, "--help"])[1]
        if "--format" in out:
            assert "--output-format" in out, command


# -- -q and -qq ------------------------------------------------------------------------------


def test_quiet_drops_the_checked_against_lines_only(run_main: Any) -> None:
    loud = run_main(["check", str(ORDERS), str(ILLEGAL)])
    quiet = run_main(["check", "-q", str(ORDERS), str(ILLEGAL)])
    assert loud[0] == quiet[0] == 1
    assert "checked against" in loud[1] and "checked against" not in quiet[1]
    assert quiet[1].splitlines() == [line for line in loud[1].splitlines() if "checked against" not in line]
    assert quiet[1].splitlines()[-1].startswith("1 error, 0 warnings, 0 notes in 2 files")
    assert "AA101" in quiet[1]
    assert run_main(["check", "--quiet", str(ORDERS), str(ILLEGAL)]) == quiet


def test_quiet_full_format_keeps_the_excerpts(run_main: Any) -> None:
    code, out, _ = run_main(["check", "-q", "-f", "full", str(ILLEGAL)])
    assert code == 1 and "^^^" in out and "checked against" not in out


def test_quiet_keeps_what_changed_the_rules(run_main: Any, tmp_path: Path, write: Any) -> None:
    from tests.conftest import AA_ORDERS_LEGAL, AA_STATE

    write(tmp_path, "state.yaml", AA_STATE)
    orders = write(tmp_path, "orders.yaml", AA_ORDERS_LEGAL)
    code, out, _ = run_main(["check", "-q", "--option", "aa.neutrals_impassable=false", str(orders)])
    assert code == 0
    assert "checked against" not in out
    assert "neutrals_impassable=false" in out


def test_quiet_twice_prints_nothing_and_keeps_the_exit_code(run_main: Any) -> None:
    assert run_main(["check", "-qq", str(ORDERS)]) == (0, "", "")
    assert run_main(["check", "-q", "-q", str(ILLEGAL)]) == (1, "", "")
    assert run_main(["lint", "-qq", str(STATE)]) == (0, "", "")
    corps = REPO / "examples" / "maneuver" / "corps-orders.yaml"
    assert "end:" in run_main(["check", "-q", "--suggest", str(corps), "--root", str(REPO)])[1]
    assert run_main(["check", "-qq", "--suggest", str(corps), "--root", str(REPO)]) == (0, "", "")


def test_quiet_twice_still_says_why_the_tool_failed(run_main: Any, tmp_path: Path) -> None:
    code, out, err = run_main(["check", "-qq", str(tmp_path / "missing.yaml")])
    assert (code, out) == (2, "")
    assert err.startswith("movecheck: error: ") and err.count("\n") == 1


def test_quiet_twice_still_writes_the_asked_for_file(run_main: Any, tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    assert run_main(["check", "-qq", "-o", str(target), str(ILLEGAL)]) == (1, "", "")
    assert "AA101" in target.read_text(encoding="utf-8")


def test_quiet_leaves_machine_reports_whole(run_main: Any) -> None:
    assert run_main(["check", "-q", "-f", "json", str(ORDERS)]) == run_main(["check", "-f", "json", str(ORDERS)])


def test_quiet_with_jobs_is_quiet_with_one_process(run_main: Any) -> None:
    args = ["check", "-q", str(ORDERS), str(ILLEGAL)]
    assert run_main([*args, "-j", "2"]) == run_main(args)
