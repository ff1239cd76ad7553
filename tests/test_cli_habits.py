"""The command-line habits of ruff and yamllint (issue 30): -h, -V, --output-format, -q, folders."""

from __future__ import annotations

import json
import re
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
                          env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                               "PYTHONDONTWRITEBYTECODE": "1"})  # a bare environment, no .pyc into the tree
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


# -- folders ---------------------------------------------------------------------------------


def _tree(tmp_path: Path, write: Any) -> Path:
    """A scenario folder: a state, legal and illegal orders, foreign YAML, a hidden folder, a link."""
    from tests.conftest import AA_ORDERS_ILLEGAL, AA_ORDERS_LEGAL, AA_STATE

    root = tmp_path / "game"
    write(root, "state.yaml", AA_STATE)
    write(root, "b-legal.yaml", AA_ORDERS_LEGAL)
    write(root, "sub/a-illegal.yaml", AA_ORDERS_ILLEGAL.replace("state: state.yaml", "state: ../state.yaml"))
    write(root, "docker-compose.yaml", "services: {web: {image: nginx}}\n")
    write(root, "data.json", '{"rows": [1, 2, 3]}\n')
    write(root, "notes.txt", "movecheck: 1\nsystem: aa\n")
    write(root, ".hidden/orders.yaml", AA_ORDERS_ILLEGAL)
    (root / "linked").symlink_to(root / "sub", target_is_directory=True)
    (root / "link.yaml").symlink_to(root / "sub" / "a-illegal.yaml")
    return root


def test_check_reads_the_orders_below_a_folder_in_path_order(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    code, out, err = run_main(["check", "-q", "game"], cwd=tmp_path)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("game/sub/a-illegal.yaml:8:29: AA203 [error] ")
    assert lines[1] == "1 error, 0 warnings, 0 notes in 2 files; 2 of 3 orders legal, 1 illegal."
    loud = run_main(["check", "game"], cwd=tmp_path)[1]
    assert "game/b-legal.yaml: checked against game/state.yaml" in loud
    assert ".hidden" not in loud and "linked" not in loud and "link.yaml" not in loud


def test_check_of_a_folder_lists_files_as_if_named(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    by_folder = run_main(["check", "-f", "json", "game"], cwd=tmp_path)
    by_name = run_main(["check", "-f", "json", "game/b-legal.yaml", "game/sub/a-illegal.yaml"], cwd=tmp_path)
    assert by_folder == by_name
    assert [f["path"] for f in json.loads(by_folder[1])["files"]] == ["game/b-legal.yaml", "game/sub/a-illegal.yaml"]


def test_lint_of_a_folder_reads_every_movecheck_file(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    code, out, err = run_main(["lint", "-f", "json", "game"], cwd=tmp_path)
    assert (code, err) == (0, "")
    assert [f["path"] for f in json.loads(out)["files"]] == [
        f"game/{p}" for p in ("b-legal.yaml", "state.yaml", "sub/a-illegal.yaml")
    ]


def test_a_folder_given_as_dot_names_files_without_dot_slash(run_main: Any, tmp_path: Path, write: Any) -> None:
    root = _tree(tmp_path, write)
    code, out, _ = run_main(["lint", "-f", "json", "."], cwd=root)
    assert code == 0
    assert [f["path"] for f in json.loads(out)["files"]] == ["b-legal.yaml", "state.yaml", "sub/a-illegal.yaml"]


def test_check_with_dependents_of_a_folder_takes_its_states(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    code, out, _ = run_main(["check", "-f", "json", "--with-dependents", "game"], cwd=tmp_path)
    assert code == 1
    paths = [f["path"] for f in json.loads(out)["files"]]
    assert paths == ["game/b-legal.yaml", "game/sub/a-illegal.yaml"]


@pytest.mark.parametrize("glob", ["sub", "sub/", "a-*.yaml", "sub/*.yaml", "sub/a-illegal.yaml"])
def test_exclude_leaves_out_files_and_folders(run_main: Any, tmp_path: Path, write: Any, glob: str) -> None:
    _tree(tmp_path, write)
    code, out, _ = run_main(["check", "-q", "--exclude", glob, "game"], cwd=tmp_path)
    assert code == 0 and "in 1 file;" in out and "a-illegal" not in out


def test_exclude_repeats_and_spares_files_named(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    code, out, err = run_main(["check", "-q", "--exclude", "sub", "--exclude", "b-*", "game"], cwd=tmp_path)
    assert (code, err) == (0, "movecheck: note: no movecheck file below game\n")
    assert "in 0 files." in out
    named = ["check", "-q", "--exclude", "sub", "--exclude", "a-*", "game/sub/a-illegal.yaml"]
    assert run_main(named, cwd=tmp_path)[0] == 1


def test_the_configuration_excludes_relative_to_its_folder(run_main: Any, tmp_path: Path, write: Any) -> None:
    root = _tree(tmp_path, write)
    write(root, ".movecheck.yaml", "exclude: [sub/a-*.yaml]\n")
    code, out, _ = run_main(["check", "-q", "game"], cwd=tmp_path)
    assert code == 0 and "in 1 file;" in out
    write(root, ".movecheck.yaml", "exclude: sub\n")
    assert "in 1 file;" in run_main(["check", "-q", "game"], cwd=tmp_path)[1]
    assert run_main(["check", "-q", "--isolated", "game"], cwd=tmp_path)[0] == 1


def test_a_wrong_exclude_key_is_a_configuration_finding(run_main: Any, tmp_path: Path, write: Any) -> None:
    root = _tree(tmp_path, write)
    write(root, ".movecheck.yaml", "exclude: {sub: true}\n")
    code, out, _ = run_main(["check", "game"], cwd=tmp_path)
    assert code == 1
    assert re.search(r"\.movecheck\.yaml:1:\d+: MC003 ", out)
    assert "a-illegal.yaml:8:29: AA203" in out  # the wrong key excludes nothing


def test_a_folder_without_movecheck_files_is_a_note_and_exit_0(run_main: Any, tmp_path: Path, write: Any) -> None:
    write(tmp_path, "empty/compose.yaml", "services: {}\n")
    folder = str(tmp_path / "empty")
    note = f"movecheck: note: no movecheck file below {folder}\n"
    assert run_main(["check", folder]) == (0, "0 errors, 0 warnings, 0 notes in 0 files.\n", note)
    assert run_main(["lint", "-qq", folder]) == (0, "", "")


def test_a_broken_movecheck_file_below_a_folder_is_reported(run_main: Any, tmp_path: Path, write: Any) -> None:
    write(tmp_path, "game/orders.yaml", "movecheck: 1\nsystem: aa\nmoves: [\n")
    code, out, _ = run_main(["check", "-q", "game"], cwd=tmp_path)
    assert code == 1 and "orders.yaml:" in out and "MC001" in out


def test_folder_runs_are_deterministic_with_jobs(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    assert run_main(["check", "game", "-j", "2"], cwd=tmp_path) == run_main(["check", "game"], cwd=tmp_path)


def test_apply_takes_no_folder(run_main: Any, tmp_path: Path, write: Any) -> None:
    _tree(tmp_path, write)
    code, out, err = run_main(["apply", "game"], cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == "movecheck: error: game: is a directory, not a file\n"  # one file in, one state out
