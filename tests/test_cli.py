"""The command line contract: commands, options, exit codes, stdin, environment, colour."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import movecheck

COMMANDS = ["check", "lint", "rules", "explain", "schema", "maps", "import"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def one_error_line(err: str) -> str:
    """stderr of an exit-2 run: exactly one line, no traceback."""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert err.startswith("movecheck: ")
    return err.rstrip("\n")


# -- version and help ---------------------------------------------------------------


def test_version(run_cli) -> None:
    code, out, err = run_cli(["--version"])
    assert (code, out, err) == (0, f"movecheck {movecheck.__version__}\n", "")
    assert re.fullmatch(r"movecheck \d+\.\d+\.\d+\n", out)


def test_console_script_version() -> None:
    script = Path(sys.executable).with_name("movecheck")
    if not script.exists():
        pytest.skip("no movecheck console script next to this interpreter")
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (0, f"movecheck {movecheck.__version__}\n")


def test_top_level_help_lists_every_command(run_main) -> None:
    code, out, err = run_main(["--help"])
    assert code == 0 and err == ""
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", out, re.M), command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(run_main, command: str) -> None:
    code, out, err = run_main([command, "--help"])
    assert code == 0
    assert err == ""
    assert out.startswith(f"Usage: movecheck {command} ")


def test_no_command_is_a_usage_error(run_cli) -> None:
    code, out, err = run_cli([])
    assert code == 2
    assert out == ""
    line = one_error_line(err)
    assert "check" in line and "lint" in line


# -- the tool cannot do its job: exit 2, one stderr line -------------------------------------


def test_missing_file(run_cli, tmp_path) -> None:
    code, out, err = run_cli(["check", "missing.yaml"], cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert one_error_line(err) == "movecheck: error: missing.yaml: no such file"


def test_missing_file_json(run_main, tmp_path) -> None:
    code, out, err = run_main(["lint", "missing.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 2
    assert out == ""
    one_error_line(err)


def test_directory_without_movecheck_files(run_main, tmp_path) -> None:
    (tmp_path / "folder").mkdir()  # folders are read (tests/test_cli_habits.py); this one holds nothing
    code, out, err = run_main(["lint", "folder"], cwd=tmp_path)
    assert code == 0
    assert out == "0 errors, 0 warnings, 0 notes in 0 files.\n"
    assert err == "movecheck: note: no movecheck file below folder\n"


def test_missing_state_option_file(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, err = run_main(["check", "orders.yaml", "--state", "nowhere.yaml"], cwd=aa_dir)
    assert code == 2
    assert out == ""
    assert one_error_line(err) == "movecheck: error: nowhere.yaml: no such file"


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--no-such-switch", "x.yaml"],
        ["--no-such-switch"],
        ["lint", "x.yaml", "--format", "xml"],
        ["lint", "x.yaml", "--color", "sometimes"],
        ["check"],
        ["frobnicate"],
    ],
)
def test_usage_errors(run_main, tmp_path, args: list[str]) -> None:
    code, out, err = run_main(args, cwd=tmp_path)
    assert code == 2
    assert out == ""
    line = one_error_line(err)
    assert line.startswith("movecheck: error: ")
    assert "--help" in line


def test_unknown_option_names_it(run_main, tmp_path) -> None:
    code, _, err = run_main(["check", "--no-such-switch", "x.yaml"], cwd=tmp_path)
    assert code == 2
    assert one_error_line(err) == "movecheck: error: No such option: --no-such-switch (see 'movecheck check --help')"


def test_unreadable_file(run_main, tmp_path, write) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = write(tmp_path, "locked.yaml", "system: aa\n")
    path.chmod(0)
    try:
        code, out, err = run_main(["lint", "locked.yaml"], cwd=tmp_path)
    finally:
        path.chmod(0o644)
    assert code == 2 and out == ""
    assert one_error_line(err).startswith("movecheck: error: locked.yaml: cannot read")


# -- exit codes 0 and 1 ----------------------------------------------------------------------


def test_clean_orders_exit_0(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.legal)
    code, out, err = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert (code, err) == (0, "")
    assert (
        out
        == "orders.yaml: checked against state.yaml\n0 errors, 0 warnings, 0 notes in 1 file; 2 of 2 orders legal.\n"
    )


def test_illegal_orders_exit_1(run_cli, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, err = run_cli(["check", "orders.yaml"], cwd=aa_dir)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].startswith("orders.yaml:8:29: AA203 [error] moving 2 tanks to Ukraine S.S.R. is not a combat move")
    assert lines[-1] == "1 error, 0 warnings, 0 notes in 1 file; 0 of 1 order legal, 1 illegal."


def test_warnings_only_exit_0(run_main, aa_dir, write) -> None:
    write(
        aa_dir,
        "s.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\n",
    )
    write(
        aa_dir,
        "o.yaml",
        "movecheck: 1\nsystem: aa\nstate: s.yaml\npower: Germans\nphase: combat_move\nmoves:\n  - units: {tank: 1}\n   "
        " path: [Ukraine S.S.R., Caucasus]\n    note: yes\n",
    )
    code, out, _ = run_main(["lint", "o.yaml", "--format", "json"], cwd=aa_dir)
    document = json.loads(out)
    assert code == 0
    assert document["summary"]["errors"] == 0
    assert [f["code"] for f in document["findings"]] == ["MC005"]


def test_check_given_a_state_is_mc010(run_main, aa_dir) -> None:
    code, out, _ = run_main(["check", "state.yaml"], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0] == (
        "state.yaml:1:1: MC010 [error] 'check' takes orders files; this is an aa-state file (use 'movecheck lint' for "
        "it)"
    )


def test_orders_without_state_is_mc011(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal.replace("state: state.yaml\n", ""))
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0].startswith("orders.yaml:1:1: MC011 [error] the orders name no state")
    code, out, _ = run_main(["check", "orders.yaml", "--state", "state.yaml"], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0].startswith("orders.yaml:7:29: AA203 [error]")  # one line up: no state:


def test_state_reference_missing_is_mc011_at_the_key(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal.replace("state: state.yaml", "state: other.yaml"))
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0] == "orders.yaml:3:8: MC011 [error] state: other.yaml does not exist"


def test_state_path_is_relative_to_the_orders_file(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "turn1/orders.yaml", aa.illegal.replace("state: state.yaml", "state: ../state.yaml"))
    code, out, _ = run_main(["check", "turn1/orders.yaml", "--format", "json"], cwd=aa_dir)
    assert code == 1
    document = json.loads(out)
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in document["files"]] == [
        {"path": "turn1/orders.yaml", "kind": "aa-orders", "state": "state.yaml", "config": None}
    ]
    assert [(f["code"], f["file"], f["line"], f["column"]) for f in document["findings"]] == [
        ("AA203", "turn1/orders.yaml", 8, 29)
    ]


# -- stdin -------------------------------------------------------------------------------------


def test_lint_state_from_stdin(run_cli, aa) -> None:
    code, out, err = run_cli(["lint", "-", "--format", "json"], stdin=aa.state)
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in document["files"]] == [
        {"path": "<stdin>", "kind": "aa-state", "state": None, "config": None}
    ]
    assert document["findings"] == []


def test_stdin_filename_names_the_input(run_main, tmp_path) -> None:
    text = "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {power: Germans, phase: combat_mvoe}\n"
    code, out, err = run_main(
        ["lint", "-", "--stdin-filename", "states/g1.yaml", "--format", "json"], stdin=text, cwd=tmp_path
    )
    assert (code, err) == (1, "")
    document = json.loads(out)
    assert [{k: f[k] for k in ("path", "kind", "state", "config")} for f in document["files"]] == [
        {"path": "states/g1.yaml", "kind": "aa-state", "state": None, "config": None}
    ]
    assert [(f["code"], f["file"], f["line"], f["column"]) for f in document["findings"]] == [
        ("MC003", "states/g1.yaml", 4, 31)
    ]


def test_stdin_filename_in_text_output(run_main, aa_dir, aa) -> None:
    code, out, _ = run_main(["check", "-", "--stdin-filename", "g1-cm.yaml"], stdin=aa.illegal, cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0].startswith("g1-cm.yaml:8:29: AA203 [error]")
    code, out, _ = run_main(["check", "-"], stdin=aa.illegal, cwd=aa_dir)
    assert code == 1
    assert out.splitlines()[0].startswith("<stdin>:8:29: AA203 [error]")


def test_stdin_bytes_with_bom_and_crlf(run_main, aa) -> None:
    data = b"\xef\xbb\xbf" + aa.state.replace("\n", "\r\n").encode() + b"bogus: 1\r\n"
    code, out, _ = run_main(["lint", "-"], stdin=data)
    assert code == 1
    assert out.splitlines()[0] == "<stdin>:5:1: MC003 [error] unknown key 'bogus' in the file"


def test_closed_stdin_is_one_line_exit_2(run_main, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python gives when file descriptor 0 is not open
    code, out, err = run_main(["lint", "-"])
    assert (code, out) == (2, "")
    assert one_error_line(err) == "movecheck: error: -: standard input is closed"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX shell")
@pytest.mark.parametrize("command", ["lint", "check"])
def test_closed_stdin_in_a_real_process(tmp_path, command: str) -> None:
    proc = subprocess.run(
        ["sh", "-c", f'exec "$0" -m movecheck {command} - <&-', sys.executable],
        capture_output=True, cwd=tmp_path, timeout=120,
    )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert one_error_line(proc.stderr.decode("utf-8")) == "movecheck: error: -: standard input is closed"


def test_stdin_still_reads_when_open(run_main, aa) -> None:
    code, out, err = run_main(["lint", "-"], stdin=aa.state)
    assert (code, err) == (0, "")
    assert out.startswith("0 errors, 0 warnings, 0 notes in 1 file")


# -- a reader that goes away (| head -1) ----------------------------------------------------


def many_findings(folder: Path, aa) -> Path:
    """Orders whose report is far larger than a pipe's buffer: 1500 unknown spaces in one path."""
    (folder / "state.yaml").write_text(aa.state, encoding="utf-8")
    path = ", ".join(f"Nowhere {i}" for i in range(1500))
    orders = aa.illegal.replace("path: [Germany, Poland, Ukraine S.S.R.]", f"path: [Germany, {path}]")
    (folder / "orders.yaml").write_text(orders, encoding="utf-8")
    return folder


def read_one_line_then_close(args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "movecheck", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env,
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # like head -1
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=120), first, err


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", *(pytest.param(f, marks=pytest.mark.slow) for f in (
    "full", "json-lines", "github"))])  # a process each: the default run takes one writer of each kind
def test_closed_output_pipe_exits_quietly_with_the_findings_code(tmp_path, aa, fmt: str) -> None:
    many_findings(tmp_path, aa)
    code, first, err = read_one_line_then_close(["check", "orders.yaml", "--format", fmt], tmp_path)
    assert first  # the reader got its line
    assert err == b""  # no traceback, no "Exception ignored ... BrokenPipeError"
    assert code == 1  # the findings' code, not 2


def run_into_a_closed_pipe(args: list[str], cwd: Path) -> tuple[int, bytes]:
    """Run movecheck with stdout a pipe nobody reads any more (``| true``): (exit code, stderr)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR")}
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write movecheck makes fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "movecheck", *args],
            stdin=subprocess.DEVNULL, stdout=write_end, stderr=subprocess.PIPE, cwd=cwd, env=env, timeout=120,
        )
    finally:
        os.close(write_end)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check", "legal.yaml"], 0),
        (["check", "legal.yaml", "--format", "sarif"], 0),
        (["check", "orders.yaml", "--exit-zero", "--format", "json"], 0),
        (["check", "orders.yaml", "--format", "github"], 1),
        (["lint", "state.yaml", "--format", "full"], 0),
        (["rules", "--format", "json"], 0),
        (["schema", "report"], 0),
    ],
)
def test_output_pipe_closed_before_the_first_write(tmp_path, aa, args: list[str], expected: int) -> None:
    many_findings(tmp_path, aa)
    (tmp_path / "legal.yaml").write_text(aa.legal, encoding="utf-8")
    code, err = run_into_a_closed_pipe(args, tmp_path)
    assert (code, err) == (expected, b"")


def test_suggestions_into_a_closed_pipe(tmp_path) -> None:
    root = Path(__file__).resolve().parents[1]
    args = ["check", str(root / "examples/maneuver/corps-orders.yaml"), "--suggest", "--root", str(root)]
    code, err = run_into_a_closed_pipe(args, tmp_path)
    assert (code, err) == (0, b"")


class _GoneReader:
    """A stdout whose reader has gone: every write raises BrokenPipeError."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("args", "expected"), [(["check", "orders.yaml"], 1), (["rules"], 0), (["schema", "report"], 0)]
)
def test_broken_pipe_in_process_keeps_the_exit_code(tmp_path, aa, monkeypatch, capsys, args, expected) -> None:
    from movecheck.cli import main

    many_findings(tmp_path, aa)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdout", _GoneReader())
    assert main(args) == expected
    assert capsys.readouterr().err == ""


# -- rules, explain, maps ----------------------------------------------------------------


def test_rules_json(run_main) -> None:
    code, out, err = run_main(["rules", "--format", "json"])
    assert (code, err) == (0, "")
    document = json.loads(out)
    codes = [c["code"] for c in document["clauses"]]
    assert len(codes) == len(set(codes))
    assert codes == sorted(codes)
    assert all(re.fullmatch(r"[A-Z]{2}\d{3}", c) for c in codes)
    for n in range(1, 12):
        assert f"MC{n:03d}" in codes
    expected_aa = [f"AA{n}" for n in (*range(101, 110), *range(201, 208), *range(301, 310), *range(401, 407))]
    for code_ in expected_aa:
        assert code_ in codes, code_
    for clause in document["clauses"]:
        assert set(clause) == {"code", "name", "severity", "system", "phase", "summary", "seeds"}
        assert clause["severity"] in ("error", "warning", "note")
        assert clause["name"] and clause["summary"]
    names = [c["name"] for c in document["clauses"]]
    assert len(names) == len(set(names))
    by_code = {c["code"]: c for c in document["clauses"]}
    assert by_code["MC005"]["severity"] == "warning"
    assert by_code["AA207"]["seeds"] == ["N16"]
    assert document["rules"] == "aa1942"


def test_rules_text(run_main) -> None:
    code, out, err = run_main(["rules"])
    assert (code, err) == (0, "")
    listed = re.findall(r"^  ([A-Z]{2}\d{3}) ", out, re.M)
    assert len(listed) == len(set(listed))
    assert {f"MC{n:03d}" for n in range(1, 12)} <= set(listed)
    assert {"AA101", "AA207", "AA406"} <= set(listed)
    assert re.search(r"^  AA207 no-safe-landing +error +.*\(N16\)", out, re.M)
    _, json_out, _ = run_main(["rules", "--format", "json"])
    assert listed == [c["code"] for c in json.loads(json_out)["clauses"]]


def test_rules_one_system(run_main) -> None:
    code, out, _ = run_main(["rules", "--system", "mc", "--format", "json"])
    assert code == 0
    assert [c["code"] for c in json.loads(out)["clauses"]] == [f"MC{n:03d}" for n in range(1, 13)]
    code, out, err = run_main(["rules", "--system", "chess"])
    assert code == 2
    assert out == ""
    assert one_error_line(err) == "movecheck: error: unknown system 'chess'; choose aa, maneuver or mc"
    code, out, err = run_main(["rules", "--rules", "aa1900"])
    assert code == 2
    assert out == ""
    assert one_error_line(err).startswith("movecheck: error: unknown rules preset 'aa1900'")


def test_explain_aa207_prints_n16(run_main) -> None:
    code, out, err = run_main(["explain", "AA207"])
    assert (code, err) == (0, "")
    assert out.startswith("AA207 no-safe-landing (error)\n")
    assert "N16: You may not deliberately move aircraft out of reach of a possible safe landing space." in out
    code, lower, _ = run_main(["explain", "aa207"])
    assert (code, lower) == (0, out)


def test_explain_mc_code(run_main) -> None:
    code, out, _ = run_main(["explain", "MC002"])
    assert code == 0
    assert out.startswith("MC002 duplicate-key (error)\n")
    assert "second" in out


def test_explain_unknown_code(run_main) -> None:
    code, out, err = run_main(["explain", "XX999"])
    assert code == 2
    assert out == ""
    assert one_error_line(err).startswith("movecheck: error: unknown clause or rule paragraph 'XX999'")


def test_maps(run_main) -> None:
    code, out, err = run_main(["maps"])
    assert (code, err) == (0, "")
    names = [line.split()[0] for line in out.splitlines()]
    assert {"aa1942-2e", "aa-revised"} <= set(names)
    code, out, _ = run_main(["maps", "--format", "json"])
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)["maps"]}
    assert {"aa1942-2e", "aa-revised"} <= set(rows)


# -- environment and colour ------------------------------------------------------------------


def test_movecheck_format_env_makes_json_the_default(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir, env={"MOVECHECK_FORMAT": "json"})
    assert code == 1
    document = json.loads(out)  # validated against the report schema by run_main
    assert [f["code"] for f in document["findings"]] == ["AA203"]
    code, out, _ = run_main(["check", "orders.yaml", "--format", "text"], cwd=aa_dir, env={"MOVECHECK_FORMAT": "json"})
    assert code == 1
    assert out.startswith("orders.yaml:8:29: AA203 [error]")


def test_movecheck_format_env_applies_to_rules(run_main) -> None:
    code, out, _ = run_main(["rules"], env={"MOVECHECK_FORMAT": "json"})
    assert code == 0
    assert "clauses" in json.loads(out)


@pytest.mark.parametrize("command", [["check", "orders.yaml"], ["lint", "orders.yaml"], ["rules"], ["maps"]])
def test_unknown_movecheck_format_env_is_a_usage_error(run_main, aa_dir, aa, write, command) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, err = run_main(command, cwd=aa_dir, env={"MOVECHECK_FORMAT": "yaml"})
    assert (code, out) == (2, "")
    assert err.startswith("movecheck: error: MOVECHECK_FORMAT='yaml' is not a format; choose one of: ")
    assert len(err.splitlines()) == 1


def test_movecheck_format_env_of_another_command_gives_text(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml"], cwd=aa_dir, env={"MOVECHECK_FORMAT": "markdown"})
    assert code == 1
    assert out.startswith("orders.yaml:8:29: AA203 [error]")
    code, out, _ = run_main(["maps"], env={"MOVECHECK_FORMAT": "sarif"})
    assert code == 0 and not out.startswith("{")
    code, out, _ = run_main(["check", "orders.yaml", "-f", "text"], cwd=aa_dir, env={"MOVECHECK_FORMAT": "yaml"})
    assert code == 1  # the flag wins: the variable is not read


def test_no_colour_when_not_a_terminal(run_cli, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    _, out, _ = run_cli(["check", "orders.yaml"], cwd=aa_dir)
    assert not ANSI.search(out)


def test_color_always_adds_ansi(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml", "--color", "always"], cwd=aa_dir)
    assert code == 1
    assert "\x1b[31m[error]\x1b[0m" in out
    assert ANSI.sub("", out) == run_main(["check", "orders.yaml"], cwd=aa_dir)[1]


def test_color_always_never_colours_json(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["check", "orders.yaml", "--color", "always", "--format", "json"], cwd=aa_dir)
    assert code == 1
    assert not ANSI.search(out)


def run_on_tty(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run movecheck with stdout on a pseudo-terminal; return what it wrote there."""
    pty = pytest.importorskip("pty")  # noqa: F841 - POSIX only
    master, slave = os.openpty()
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "MOVECHECK_FORMAT", "FORCE_COLOR")}
    full_env.update(env)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "movecheck", *args],
            stdin=subprocess.DEVNULL,
            stdout=slave,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=full_env,
        )
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=120)
    proc.stderr.close()
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_colour_on_a_terminal_unless_no_color(aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    coloured = run_on_tty(["check", "orders.yaml"], aa_dir, {})
    assert "\x1b[31m[error]\x1b[0m" in coloured
    plain = run_on_tty(["check", "orders.yaml"], aa_dir, {"NO_COLOR": "1"})
    assert plain.startswith("orders.yaml:8:29: AA203 [error]")
    assert not ANSI.search(plain)
    never = run_on_tty(["check", "orders.yaml", "--color", "never"], aa_dir, {})
    assert never == plain


# -- determinism ----------------------------------------------------------------------------


def test_unreadable_file_among_several_is_reported_and_the_rest_checked(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    (aa_dir / "folder").mkdir()
    args = ["check", "missing.yaml", "orders.yaml", "folder", "--format", "json"]
    code, out, err = run_main(args, cwd=aa_dir)
    assert code == 2
    assert err.splitlines() == [
        "movecheck: note: no movecheck file below folder",
        "movecheck: error: missing.yaml: no such file",
    ]
    document = json.loads(out)  # validated against the report schema by run_main
    files = {f["path"]: f for f in document["files"]}
    assert files["missing.yaml"]["error"] == "missing.yaml: no such file"
    assert "folder" not in files  # an empty folder gives no file (said on stderr)
    assert files["orders.yaml"]["error"] is None
    assert [f["code"] for f in document["findings"]] == ["AA203"]  # the readable file was checked
    code, out, err = run_main(["lint", "orders.yaml", "missing.yaml", "--exit-zero"], cwd=aa_dir)
    assert code == 2  # --exit-zero never hides that movecheck could not do its job
    assert err == "movecheck: error: missing.yaml: no such file\n"


def test_stdin_filename_resolves_state_from_its_folder(run_main, tmp_path, aa, write) -> None:
    write(tmp_path, "game/state.yaml", aa.state)
    code, out, _ = run_main(["check", "-", "--stdin-filename", "game/orders.yaml"], stdin=aa.illegal, cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[0].startswith("game/orders.yaml:8:29: AA203 [error]")
    code, out, _ = run_main(
        ["check", "-", "--stdin-filename", "game/orders.yaml", "-f", "json"], stdin=aa.illegal, cwd=tmp_path
    )
    assert json.loads(out)["files"][0]["state"] == "game/state.yaml"
    # without it, state: is relative to the current folder, where there is none
    code, out, _ = run_main(["check", "-"], stdin=aa.illegal, cwd=tmp_path)
    assert code == 1 and "MC011" in out


def test_stdin_filename_leaves_other_files_relative_to_their_folder(run_main, tmp_path, aa, write) -> None:
    write(tmp_path, "game/state.yaml", aa.state)
    write(tmp_path, "game/orders.yaml", aa.illegal)
    code, out, _ = run_main(
        ["check", "game/orders.yaml", "-", "--stdin-filename", "game/g2.yaml"], stdin=aa.legal, cwd=tmp_path
    )
    assert code == 1
    assert "MC011" not in out and "game/orders.yaml:8:29: AA203" in out


@pytest.mark.parametrize("fmt", ["text", "full", "json", "json-lines", "github", "sarif"])
@pytest.mark.parametrize("command", ["check", "lint"])
def test_output_writes_the_report_to_a_file(run_main, aa_dir, aa, write, fmt, command, report_validator) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    _, expected, _ = run_main([command, "orders.yaml", "-f", fmt], cwd=aa_dir)
    code, out, err = run_main([command, "orders.yaml", "-f", fmt, "-o", "report.out"], cwd=aa_dir)
    assert (out, err) == ("", "")
    assert code == (1 if command == "check" else 0)
    assert (aa_dir / "report.out").read_text(encoding="utf-8") == expected
    if fmt == "json":
        report_validator((aa_dir / "report.out").read_text(encoding="utf-8"))
    code, out, _ = run_main(
        [command, "orders.yaml", "-f", fmt, "--output", "report2.out", "--color", "auto"], cwd=aa_dir
    )
    assert out == "" and (aa_dir / "report2.out").read_text(encoding="utf-8") == expected


def test_output_that_cannot_be_written_is_a_usage_error(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, err = run_main(["check", "orders.yaml", "-o", "nowhere/report.txt"], cwd=aa_dir)
    assert (code, out) == (2, "")
    assert err.startswith("movecheck: error: --output nowhere/report.txt: cannot write") and len(err.splitlines()) == 1


def test_rule_sources_are_named_not_internal_files(run_main, aa_dir, aa, write) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    code, out, _ = run_main(["explain", "AA201"])
    assert code == 0 and ".txt" not in out
    assert "(source: A&A 1942 rulebook, combat move, C10)" in out
    _, out, _ = run_main(["check", "orders.yaml", "-f", "sarif"], cwd=aa_dir)
    assert ".txt" not in out and "A&A 1942 rulebook" in out
    for fmt in ("text", "json", "markdown"):
        assert ".txt" not in run_main(["rules", "-f", fmt])[1]


def test_explain_takes_a_rule_paragraph_label(run_main) -> None:
    code, out, err = run_main(["explain", "c10"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "C10 (A&A 1942 rulebook, combat move)"
    assert "Clauses that cite it:" in lines
    assert any(line.startswith("  AA201 stop-in-hostile: ") for line in lines)
    assert ".txt" not in out


def test_explain_takes_a_clause_name(run_main) -> None:
    by_name = run_main(["explain", "stop-in-hostile"])
    by_code = run_main(["explain", "AA201"])
    assert by_name == by_code
    assert by_name[0] == 0


def test_explain_of_an_unknown_name_suggests_names_and_labels(run_main) -> None:
    code, out, err = run_main(["explain", "stop-in-hostle"])
    assert (code, out) == (2, "")
    assert "did you mean stop-in-hostile" in err
    code, _, err = run_main(["explain", "C99"])
    assert code == 2 and "did you mean C9" in err


# -- small bugs of issue 24 -----------------------------------------------------------------------


def test_rules_of_a_system_without_editions_names_no_edition(run_main) -> None:
    code, out, _err = run_main(["rules", "--system", "maneuver", "--format", "json"])
    document = json.loads(out)
    assert code == 0
    assert document["rules"] is None  # maneuver has no editions; it used to say "aa1942"
    assert {c["code"][:2] for c in document["clauses"]} == {"MV"}


def test_rules_preset_for_a_system_without_editions_is_its_own_error(run_main) -> None:
    code, _out, err = run_main(["rules", "--system", "maneuver", "--rules", "bogus"])
    assert code == 2
    assert err == "movecheck: error: --rules names an edition, and the system maneuver has none\n"
    assert "preset" not in err  # not the aa preset error


def test_explain_shows_restructuredtext_literals_as_plain_code(run_main) -> None:
    code, out, _err = run_main(["explain", "AA101"])
    assert code == 0
    assert "``" not in out
    assert "  Legal:   `path: [Germany, Poland, Ukraine S.S.R.]`\n" in out


def test_check_and_lint_share_one_declaration_of_their_options() -> None:
    import typer

    from movecheck.cli import check, lint
    from movecheck.cli_options import REPORT_OPTIONS

    def options(command: object) -> dict[str, tuple[str, ...]]:
        declared = typer.main.get_command_from_info(
            typer.models.CommandInfo(callback=command), pretty_exceptions_short=True, rich_markup_mode=None
        )
        return {p.name: tuple(p.opts) for p in declared.params if p.name}

    shared = set(REPORT_OPTIONS)
    assert shared <= set(options(check)) and shared <= set(options(lint))
    assert {n: o for n, o in options(check).items() if n in shared} == {
        n: o for n, o in options(lint).items() if n in shared
    }
    assert set(options(check)) - shared == {"orders", "state", "suggest", "with_dependents"}
    assert set(options(lint)) - shared == {"files", "skip_foreign"}
