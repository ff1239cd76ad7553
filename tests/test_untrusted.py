"""Files named inside files, and configuration found in a tree someone else wrote (issue #12).

* ``state:`` and ``map:`` open regular files only (a FIFO, a terminal, ``/dev/stdin`` is a
  finding at once, never a hang), inside ``--root`` only, and a file there that is not a
  movecheck file is reported without quoting any of it, in every output format;
* configuration discovery stops at the repository root, ``--isolated`` uses none,
  a discovered ``.movecheck.yaml`` that is not a configuration is neither used nor quoted;
* ``--select ALL`` beats per-file ignores; the JSON report names each file's configuration;
* the text report names the state each orders file was checked against.

Tests that could hang on a FIFO or a terminal run the CLI under a hang guard: in a subprocess
with a timeout where the process's own stdin, stdout or environment is the point, else in this
process under an alarm (``run_guarded``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from movecheck.findings import FileReport, Report, make_finding
from movecheck.render import FORMATS, render

MARKER = "S3CR3T-MARKER-5b1e"
HANG_TIMEOUT = 60  # seconds: a hang guard, never a timing assertion

STATE = "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\n"


def orders(state: str) -> str:
    """The illegal aa orders (AA203 at 8:29) naming ``state`` (``state:`` at 3:8)."""
    return (
        f"movecheck: 1\nsystem: aa\nstate: {state}\npower: Germans\nphase: combat_move\n"
        "moves:\n  - units: {tank: 2}\n    path: [Germany, Poland, Ukraine S.S.R.]\n"
    )


TINY_MAP = """\
movecheck: 1
system: aa
kind: map
name: tiny
powers: [Reds, Blues]
sides: {red: [Reds], blue: [Blues]}
territories:
  - {name: A}
  - {name: B}
  - {name: C}
connections:
  - [A, B]
  - [B, C]
control: {A: Reds, B: Blues, C: Blues}
"""


def map_state(ref: str) -> str:
    return (
        f"movecheck: 1\nsystem: aa\nmap: {ref}\nturn: {{round: 1, power: Reds, phase: combat_move}}\nunits:\n  - "
        f"{{at: A, power: Reds, type: infantry}}\n"
    )


def codes_at(out: str) -> list[tuple[str, str, int, int]]:
    return [(f["code"], f["file"], f["line"], f["column"]) for f in json.loads(out)["findings"]]


def cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``python -m movecheck ARGS`` in a subprocess with a hang guard; stdin is an empty pipe."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
    full_env["PYTHONIOENCODING"] = "utf-8"
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", *args],
        input=b"", capture_output=True, cwd=cwd, env=full_env, timeout=HANG_TIMEOUT,
    )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


RUNS_IN_ONE_PROCESS = """\
import contextlib, io, json, sys
from movecheck.cli import main
results = []
for args in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    results.append([code, out.getvalue(), err.getvalue()])
sys.stdout.write(json.dumps(results))
"""


def cli_runs(runs: list[list[str]], cwd: Path, env: dict[str, str]) -> list[tuple[int, str, str]]:
    """Several command lines one after the other in ONE fresh ``python`` (its own environment, stdin an empty pipe)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
    full_env.update(PYTHONIOENCODING="utf-8", **env)
    proc = subprocess.run(
        [sys.executable, "-c", RUNS_IN_ONE_PROCESS, json.dumps(runs)],
        input=b"", capture_output=True, cwd=cwd, env=full_env, timeout=HANG_TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8")
    return [(code, out, err) for code, out, err in json.loads(proc.stdout)]


# -- state: and map: open regular files only ---------------------------------------------------


@pytest.mark.parametrize("link", [False, True], ids=["fifo", "symlink-to-fifo"])
def test_state_fifo_is_mc011_at_once(run_guarded, tmp_path: Path, write, link: bool) -> None:
    os.mkfifo(tmp_path / "pipe")
    if link:
        os.symlink("pipe", tmp_path / "state.yaml")
    name = "state.yaml" if link else "pipe"
    write(tmp_path, "orders.yaml", orders(name))
    code, out, err = run_guarded(["check", "orders.yaml", "--format", "json"], tmp_path)
    assert (code, err) == (1, "")
    assert codes_at(out) == [("MC011", "orders.yaml", 3, 8)]
    assert json.loads(out)["findings"][0]["message"] == f"state file {name}: is a FIFO (named pipe), not a regular file"


@pytest.mark.parametrize(
    "special, what",
    [
        ("/dev/ptmx", "a character device"),
        ("/dev/stdin", "a FIFO (named pipe)"),  # the subprocess's stdin is a pipe
        ("/proc/self/fd/1", "a FIFO (named pipe)"),  # its stdout too
        ("/proc/self/fd/0", "a FIFO (named pipe)"),
    ],
)
def test_state_naming_a_device_or_a_pipe_is_mc011(tmp_path: Path, write, special: str, what: str) -> None:
    if not os.path.exists(special):
        pytest.skip(f"{special} does not exist here")
    write(tmp_path, "orders.yaml", orders(special))
    code, out, err = cli(["check", "orders.yaml", "--root", "/", "--format", "json"], tmp_path)
    assert (code, err) == (1, "")
    (finding,) = json.loads(out)["findings"]
    assert (finding["code"], finding["line"], finding["column"]) == ("MC011", 3, 8)
    assert finding["message"] == f"state file {special}: is {what}, not a regular file"


def test_a_regular_state_still_reads(run_guarded, tmp_path: Path, write) -> None:
    write(tmp_path, "state.yaml", STATE)
    write(tmp_path, "orders.yaml", orders("state.yaml"))
    code, out, err = run_guarded(["check", "orders.yaml", "--format", "json"], tmp_path)
    assert (code, err) == (1, "")
    assert codes_at(out) == [("AA203", "orders.yaml", 8, 29)]


def test_map_fifo_is_mc010_at_once(run_guarded, tmp_path: Path, write) -> None:
    os.mkfifo(tmp_path / "map.yaml")
    write(tmp_path, "state.yaml", map_state("map.yaml"))
    code, out, err = run_guarded(["lint", "state.yaml", "--format", "json"], tmp_path)
    assert (code, err) == (1, "")
    (finding,) = json.loads(out)["findings"]
    assert (finding["code"], finding["file"], finding["line"], finding["column"]) == ("MC010", "state.yaml", 3, 6)
    assert finding["message"] == "map file map.yaml: is a FIFO (named pipe), not a regular file"


def test_a_regular_map_file_still_reads(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "map.yaml", TINY_MAP)
    write(tmp_path, "state.yaml", map_state("map.yaml"))
    write(
        tmp_path,
        "orders.yaml",
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Reds\nphase: combat_move\nmoves:\n  - {units: {infantry: "
        "1}, path: [A, C]}\n",
    )
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert codes_at(out) == [("AA101", "orders.yaml", 7, 38)]  # A and C do not border on the tiny map


def test_read_regular_refuses_a_fifo_and_bounds_a_file(tmp_path: Path) -> None:
    from movecheck.reading import MAX_BYTES, InputError, read_regular

    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(InputError, match="is a FIFO"):
        read_regular(str(tmp_path / "pipe"))
    (tmp_path / "f.yaml").write_bytes(b"a: 1\n")
    assert read_regular(str(tmp_path / "f.yaml")) == b"a: 1\n"
    with pytest.raises(InputError, match="is a directory"):
        read_regular(str(tmp_path))
    assert MAX_BYTES > 0


def test_a_stream_named_on_the_command_line_is_refused_and_stdin_still_reads(tmp_path: Path, write) -> None:
    """A FIFO named on the command line (``<(...)`` too) is refused at once, never opened; ``-`` still reads."""
    write(tmp_path, "state.yaml", STATE)
    proc = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m movecheck lint <(cat state.yaml) --format json"],
        capture_output=True, cwd=tmp_path, timeout=HANG_TIMEOUT,
    )
    assert (proc.returncode, proc.stdout) == (2, b"")
    assert re.fullmatch(
        rb"movecheck: error: /dev/fd/\d+: is a FIFO \(named pipe\), not a regular file; give - to read standard "
        rb"input\n",
        proc.stderr,
    )
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", "lint", "-", "--format", "json"],
        stdin=(tmp_path / "state.yaml").open("rb"), capture_output=True, cwd=tmp_path, timeout=HANG_TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["files"][0]["kind"] == "aa-state"
    code, out, _err = cli(["lint", "-", "--format", "json"], tmp_path)  # an empty stdin: MC010, as before
    assert code == 1 and [f["code"] for f in json.loads(out)["findings"]] == ["MC010"]


# -- --root ---------------------------------------------------------------------------------------


def test_state_outside_the_root_is_refused(run_main, tmp_path: Path, write) -> None:
    project = tmp_path / "project"
    write(tmp_path, "elsewhere/state.yaml", STATE)
    write(project, "orders.yaml", orders("../elsewhere/state.yaml"))
    code, out, _ = run_main(["check", "orders.yaml"], cwd=project)
    assert code == 1
    root = os.path.realpath(project)
    assert out.splitlines()[0] == (
        f"orders.yaml:3:8: MC011 [error] state: ../elsewhere/state.yaml resolves outside the root {root} (see --root)"
    )
    code, out, _ = run_main(["check", "orders.yaml", "--root", "..", "--format", "json"], cwd=project)
    assert code == 1
    assert codes_at(out) == [("AA203", "orders.yaml", 8, 29)]  # checked against it now


def test_a_symlink_out_of_the_root_is_refused(run_main, tmp_path: Path, write) -> None:
    project = tmp_path / "project"
    write(tmp_path, "elsewhere/state.yaml", STATE)
    write(project, "orders.yaml", orders("state.yaml"))
    os.symlink(tmp_path / "elsewhere" / "state.yaml", project / "state.yaml")
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=project)
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert (finding["code"], finding["line"], finding["column"]) == ("MC011", 3, 8)
    assert finding["message"] == f"state: state.yaml resolves outside the root {os.path.realpath(project)} (see --root)"
    os.unlink(project / "state.yaml")
    os.symlink(project / "real.yaml", project / "state.yaml")  # a symlink that stays inside is fine
    write(project, "real.yaml", STATE)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=project)
    assert codes_at(out) == [("AA203", "orders.yaml", 8, 29)]


def test_the_default_root_is_the_repository_root(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "states/g1.yaml", STATE)
    write(tmp_path, "orders/g1.yaml", orders("../states/g1.yaml"))
    _code, out, _ = run_main(["check", "g1.yaml", "--format", "json"], cwd=tmp_path / "orders")
    assert [f["code"] for f in json.loads(out)["findings"]] == ["MC011"]  # no repository: the current folder
    (tmp_path / ".git").mkdir()
    _code, out, _ = run_main(["check", "g1.yaml", "--format", "json"], cwd=tmp_path / "orders")
    assert codes_at(out) == [("AA203", "g1.yaml", 8, 29)]


def test_files_named_on_the_command_line_are_not_restricted(run_main, tmp_path: Path, write) -> None:
    outside = tmp_path / "mail"
    project = tmp_path / "project"
    project.mkdir()
    write(outside, "state.yaml", STATE)
    write(outside, "orders.yaml", orders("state.yaml"))
    code, out, _ = run_main(
        ["check", str(outside / "orders.yaml"), "--state", str(outside / "state.yaml"), "--format", "json"], cwd=project
    )
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["AA203"]
    code, out, _ = run_main(["lint", str(outside / "state.yaml")], cwd=project)
    assert code == 0


def test_map_outside_the_root_is_mc010(run_main, tmp_path: Path, write) -> None:
    project = tmp_path / "project"
    write(tmp_path, "maps/tiny.yaml", TINY_MAP)
    write(project, "state.yaml", map_state("../maps/tiny.yaml"))
    code, out, _ = run_main(["lint", "state.yaml"], cwd=project)
    assert code == 1
    assert out.splitlines()[0] == (
        f"state.yaml:3:6: MC010 [error] map: ../maps/tiny.yaml resolves outside the root {os.path.realpath(project)} "
        "(see --root)"
    )
    os.symlink(tmp_path / "maps" / "tiny.yaml", project / "tiny.yaml")
    write(project, "state.yaml", map_state("tiny.yaml"))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=project)
    assert [f["code"] for f in json.loads(out)["findings"]] == ["MC010"]
    code, out, _ = run_main(["lint", "state.yaml", "--root", ".."], cwd=project)
    assert code == 0, out


def test_root_must_be_a_folder(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "state.yaml", STATE)
    code, out, err = run_main(["lint", "state.yaml", "--root", "no-such-folder"], cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == "movecheck: error: --root no-such-folder: no such folder\n"


# -- nothing of a file that is not a movecheck file is ever shown ---------------------------------

SECRETS = {
    "plain text": f"the password is {MARKER}\n",
    "a mapping": f"api_token: {MARKER}\nother: 1\n",
    "broken YAML": f'api_token: "{MARKER}\nmore: [\n',
    "a bad tag": f"!!int {MARKER}\n",
    "a repeated key": f"{MARKER}: 1\n{MARKER}: 2\n",
    "an unknown system": f"system: {MARKER}\n",
    "control bytes": f"token\x01{MARKER}\n",
}


def assert_no_leak(run_main, args: list[str], cwd: Path) -> dict[str, str]:
    """Run ``args`` in every format; the marker appears in none; the outputs by format."""
    outputs = {}
    for fmt in FORMATS:
        code, out, err = run_main([*args, "--format", fmt], cwd=cwd)
        assert code == 1, (fmt, out, err)
        assert MARKER not in out and MARKER not in err, (fmt, out)
        outputs[fmt] = out
    return outputs


@pytest.mark.parametrize("secret", list(SECRETS), ids=list(SECRETS))
def test_state_naming_a_foreign_file_quotes_nothing(run_main, tmp_path: Path, write, secret: str) -> None:
    write(tmp_path, "notes/secret.txt", SECRETS[secret])
    write(tmp_path, "orders.yaml", orders("notes/secret.txt"))
    outputs = assert_no_leak(run_main, ["check", "orders.yaml"], tmp_path)
    assert codes_at(outputs["json"]) == [("MC011", "orders.yaml", 3, 8)]
    assert json.loads(outputs["json"])["findings"][0]["message"] == (
        "state: notes/secret.txt is not a movecheck state file (no system: aa or system: maneuver); its content is not "
        "shown"
    )
    assert json.loads(outputs["json"])["files"][0]["state"] is None


@pytest.mark.parametrize("secret", list(SECRETS), ids=list(SECRETS))
def test_map_naming_a_foreign_file_quotes_nothing(run_main, tmp_path: Path, write, secret: str) -> None:
    write(tmp_path, "secret.json", SECRETS[secret])
    write(tmp_path, "state.yaml", map_state("secret.json"))
    outputs = assert_no_leak(run_main, ["lint", "state.yaml"], tmp_path)
    assert codes_at(outputs["json"]) == [("MC010", "state.yaml", 3, 6)]
    assert json.loads(outputs["json"])["findings"][0]["message"] == (
        "map: secret.json is not a movecheck map file (no system: aa or system: maneuver); its content is not shown"
    )


def test_a_movecheck_file_named_by_state_is_still_reported_in_full(run_main, tmp_path: Path, write) -> None:
    """The good counterpart: a state that says it is one keeps its findings, its line quoted."""
    write(
        tmp_path,
        "state.yaml",
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nbogus: 1\nturn: {round: 1, power: Germans, phase: combat_move}\n",
    )
    write(tmp_path, "orders.yaml", orders("state.yaml"))
    code, out, _ = run_main(["check", "orders.yaml", "--format", "full"], cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[:4] == [
        "state.yaml:4:1: MC003 [error] unknown key 'bogus' in the file",
        "  |",
        "4 | bogus: 1",
        "  | ^^^^^ MC003 schema",
    ]
    assert "map: aa1942-2e" not in out  # a state's neighbouring lines are not quoted
    write(tmp_path, "state.yaml", "movecheck: 1\nsystem: aa\nmap: [aa1942-2e\n")  # broken, but says what it is
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert [(f["code"], f["file"]) for f in json.loads(out)["findings"]] == [("MC001", "state.yaml")]


def test_a_broken_one_line_json_map_is_still_recognised(run_main, tmp_path: Path, write) -> None:
    """A movecheck file that does not parse keeps its own findings: here a one-line JSON map."""
    write(tmp_path, "map.json", '{"movecheck":1,"system":"aa","kind":"map","name":"tiny","powers":["Reds",}')
    write(tmp_path, "state.yaml", map_state("map.json"))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(f["code"], f["file"], f["line"]) for f in json.loads(out)["findings"]] == [("MC001", "map.json", 1)]


def test_proc_self_environ_never_leaks(tmp_path: Path, write) -> None:
    write(tmp_path, "orders.yaml", orders("/proc/self/environ"))
    # the process's own environment holds the marker: every format, with and without --root, in one process
    runs = [(fmt, extra) for fmt in FORMATS for extra in ([], ["--root", "/"])]
    results = cli_runs([["check", "orders.yaml", "--format", fmt, *extra] for fmt, extra in runs], tmp_path,
                       env={"LEAKY": MARKER})
    assert len(results) == len(runs) == 2 * len(FORMATS)
    for (fmt, extra), (code, out, err) in zip(runs, results, strict=True):
        assert code == 1, (fmt, extra, err)
        assert MARKER not in out and MARKER not in err, (fmt, extra, out)
        assert "MC011" in out or (fmt == "sarif" and "state-reference" in out)


def test_full_never_reads_a_file_again(tmp_path: Path, write) -> None:
    """``full`` quotes the text the run read, never the file on disk (which may be anything now)."""
    path = write(tmp_path, "elsewhere.yaml", f"line one {MARKER}\n")
    report = Report(files=[FileReport(str(path), "aa-orders")])
    report.findings = [make_finding("MC003", "wrong", file=str(path), line=1, column=1)]
    out = render(report, "full")
    assert MARKER not in out
    assert out.splitlines()[0] == f"{path}:1:1: MC003 [error] wrong"
    report.sources[str(path)] = "the text the run read\n"
    assert "1 | the text the run read" in render(report, "full")


def test_full_quotes_a_map_file_from_the_text_read(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "map.yaml", TINY_MAP.replace("  - {name: C}", "  - {name: C, colour: red}"))
    write(tmp_path, "state.yaml", map_state("map.yaml"))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "full"], cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[:4] == [
        "map.yaml:10:15: MC003 [error] unknown key 'colour' in territories[3]",
        "   |",
        "10 |   - {name: C, colour: red}",
        "   |               ^^^^^^ MC003 schema",
    ]


# -- configuration from an untrusted tree ----------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, write) -> Path:
    """``repo/`` (a repository) with a state and the illegal orders (AA203) in ``repo/orders/``."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo, "state.yaml", STATE)
    write(repo, "orders/g1.yaml", orders("../state.yaml"))
    return repo


@pytest.mark.parametrize("git", ["folder", "file"])
def test_discovery_stops_at_the_repository_root(run_main, tmp_path: Path, project: Path, write, git: str) -> None:
    write(tmp_path, ".movecheck.yaml", "ignore: [AA2]\n")  # above the repository: never read
    if git == "file":
        (project / ".git").rmdir()
        write(project, ".git", "gitdir: /somewhere/else\n")  # a worktree or submodule
    code, out, _ = run_main(["check", "orders/g1.yaml", "--format", "json"], cwd=project)
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["AA203"]
    assert json.loads(out)["files"][0]["config"] is None
    os.replace(tmp_path / ".movecheck.yaml", project / ".movecheck.yaml")  # inside it: used
    code, out, _ = run_main(["check", "orders/g1.yaml", "--format", "json"], cwd=project)
    assert code == 0
    assert json.loads(out)["files"][0]["config"] == ".movecheck.yaml"


def test_discovery_outside_a_repository_still_climbs(run_main, tmp_path: Path, project: Path, write) -> None:
    (project / ".git").rmdir()
    write(tmp_path, ".movecheck.yaml", "ignore: [AA2]\n")
    code, out, _ = run_main(["check", "orders/g1.yaml", "--format", "json"], cwd=project)
    assert code == 0
    assert json.loads(out)["files"][0]["config"] == "../.movecheck.yaml"


def test_isolated_uses_no_configuration(run_main, project: Path, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [AA2]\nformat: json\n")
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 0
    code, out, _ = run_main(["check", "orders/g1.yaml", "--isolated"], cwd=project)
    assert code == 1
    assert out.splitlines()[0].startswith("orders/g1.yaml:8:29: AA203 [error]")  # text: the config's format is off too
    write(project, ".movecheck.yaml", "ignore: [AA2\n")  # even a broken one is not read
    code, out, _ = run_main(["check", "orders/g1.yaml", "--isolated", "--format", "json"], cwd=project)
    assert [f["code"] for f in json.loads(out)["findings"]] == ["AA203"]
    assert json.loads(out)["files"][0]["config"] is None


def test_isolated_and_config_together_are_a_usage_error(run_main, project: Path, write) -> None:
    write(project, "other.yaml", "ignore: [AA2]\n")
    code, out, err = run_main(["check", "orders/g1.yaml", "--isolated", "--config", "other.yaml"], cwd=project)
    assert (code, out) == (2, "")
    assert err == "movecheck: error: --isolated and --config cannot be used together\n"


@pytest.mark.parametrize(
    "secret",
    [f"api_token: {MARKER}\n", f"{MARKER}: 1\n{MARKER}: 2\n", f"!!int {MARKER}\n", f'x: "{MARKER}\n', f"- {MARKER}\n"],
    ids=["mapping", "repeated-key", "bad-tag", "broken", "list"],
)
def test_a_symlinked_config_pointing_at_a_secret_quotes_nothing(
    run_main, tmp_path: Path, project: Path, write, secret: str
) -> None:
    write(tmp_path, "home/.secret", secret)
    os.symlink(tmp_path / "home" / ".secret", project / ".movecheck.yaml")
    outputs = assert_no_leak(run_main, ["check", "orders/g1.yaml"], project)
    findings = json.loads(outputs["json"])["findings"]
    assert [(f["code"], f["file"], f["line"]) for f in findings] == [
        ("MC010", ".movecheck.yaml", 1),
        ("AA203", "orders/g1.yaml", 8),
    ]
    assert findings[0]["message"] == (
        ".movecheck.yaml is not a movecheck configuration (it has none of the keys select, ignore, "
        "per-file-ignores, format, exclude, aa, maneuver); it is not used and not quoted"
    )
    assert json.loads(outputs["json"])["files"][0]["config"] is None


def test_a_symlinked_real_config_still_applies(run_main, tmp_path: Path, project: Path, write) -> None:
    write(tmp_path, "shared/movecheck.yaml", "ignore: [AA2]\nformt: x\n")
    os.symlink(tmp_path / "shared" / "movecheck.yaml", project / ".movecheck.yaml")
    _code, out, _ = run_main(["check", "orders/g1.yaml", "--format", "json"], cwd=project)
    findings = json.loads(out)["findings"]
    assert [f["code"] for f in findings] == ["MC003"]  # the config's own finding; AA203 ignored
    assert findings[0]["message"] == "unknown key 'formt' in the file; did you mean 'format'?"


def test_a_discovered_config_is_read_as_a_regular_file_only(tmp_path: Path) -> None:
    from movecheck.config_files import load_config
    from movecheck.reading import InputError

    os.mkfifo(tmp_path / ".movecheck.yaml")
    with pytest.raises(InputError, match="is a FIFO"):
        load_config(str(tmp_path / ".movecheck.yaml"), discovered=True)


def test_a_discovered_pyproject_is_size_bounded(tmp_path: Path, project: Path, write) -> None:
    write(project, "pyproject.toml", "[tool.movecheck]\nignore = ['AA2']\n" + "# padding\n" * 300)
    code, out, err = cli(["check", "orders/g1.yaml", "--format", "json"], project, env={"MOVECHECK_MAX_BYTES": "1000"})
    assert (code, err) == (1, "")
    assert [(f["code"], f["file"]) for f in json.loads(out)["findings"]] == [
        ("AA203", "orders/g1.yaml"), ("MC008", "pyproject.toml"),  # over the limit: not read, not applied
    ]
    code, out, err = cli(
        ["check", "orders/g1.yaml", "--format", "json"], project, env={"MOVECHECK_MAX_BYTES": "100000"}
    )
    assert (code, json.loads(out)["findings"]) == (0, [])


def test_select_all_on_the_command_line_beats_per_file_ignores(run_main, project: Path, write) -> None:
    write(project, ".movecheck.yaml", "per-file-ignores:\n  'orders/*.yaml': [AA2]\nignore: [MC]\n")
    assert run_main(["check", "orders/g1.yaml"], cwd=project)[0] == 0
    assert run_main(["check", "orders/g1.yaml", "--select", "AA"], cwd=project)[0] == 0  # other selections keep them
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL", "--format", "json"], cwd=project)
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["AA203"]
    code, out, _ = run_main(["check", "orders/g1.yaml", "--select", "ALL", "--ignore", "AA203"], cwd=project)
    assert code == 0  # the command line's own --ignore still applies


def test_json_names_the_configuration_of_each_file(run_main, project: Path, write) -> None:
    write(project, ".movecheck.yaml", "ignore: [MC005]\n")
    write(project, "orders/.movecheck.yaml", "ignore: [MC005]\n")
    write(project, "other/g2.yaml", orders("../state.yaml"))
    _code, out, _ = run_main(["check", "orders/g1.yaml", "other/g2.yaml", "--format", "json"], cwd=project)
    assert [(f["path"], f["config"]) for f in json.loads(out)["files"]] == [
        ("orders/g1.yaml", "orders/.movecheck.yaml"),
        ("other/g2.yaml", ".movecheck.yaml"),
    ]
    _code, out, _ = run_main(
        ["check", "orders/g1.yaml", "--config", "orders/.movecheck.yaml", "--format", "json"], cwd=project
    )
    assert json.loads(out)["files"][0]["config"] == "orders/.movecheck.yaml"


# -- the text report names each orders file's state ------------------------------------------------


def test_text_names_the_state_each_orders_file_was_checked_against(run_main, tmp_path: Path, write) -> None:
    write(tmp_path, "states/g1.yaml", STATE)
    write(tmp_path, "states/g2.yaml", STATE)
    write(tmp_path, "orders/g1.yaml", orders("../states/g1.yaml"))
    write(tmp_path, "orders/g2.yaml", orders("../states/g2.yaml"))
    write(tmp_path, "orders/g3.yaml", orders("../states/missing.yaml"))
    code, out, _ = run_main(["check", "orders/g2.yaml", "orders/g1.yaml", "orders/g3.yaml"], cwd=tmp_path)
    assert code == 1
    lines = out.splitlines()
    assert lines[-3:-1] == [
        "orders/g2.yaml: checked against states/g2.yaml",
        "orders/g1.yaml: checked against states/g1.yaml",
    ]
    assert lines[-1].startswith("3 errors")  # g3's MC011 and two AA203: g3 found no state, so no line
    code, out, _ = run_main(["check", "orders/g1.yaml", "--state", "states/g2.yaml"], cwd=tmp_path)
    assert out.splitlines()[-2] == "orders/g1.yaml: checked against states/g2.yaml"
    code, out, _ = run_main(["lint", "orders/g1.yaml", "states/g1.yaml"], cwd=tmp_path)
    assert "checked against" not in out  # lint reads no state for orders


# -- the default root and files named from elsewhere ------------------------------------------


def _game_elsewhere(tmp_path: Path, aa) -> Path:
    game, elsewhere, secret = tmp_path / "game", tmp_path / "elsewhere", tmp_path / "secret"
    for folder in (game, elsewhere, secret):
        folder.mkdir()
    (game / "state.yaml").write_text(aa.state, encoding="utf-8")
    (game / "orders.yaml").write_text(aa.legal, encoding="utf-8")
    (secret / "state.yaml").write_text(aa.state, encoding="utf-8")
    (game / "hostile.yaml").write_text(
        aa.legal.replace("state: state.yaml", "state: ../secret/state.yaml"), encoding="utf-8"
    )
    return elsewhere


def test_orders_named_from_another_folder_reach_the_state_beside_them(run_main, tmp_path: Path, aa) -> None:
    elsewhere = _game_elsewhere(tmp_path, aa)
    code, out, _ = run_main(["check", str(tmp_path / "game" / "orders.yaml")], cwd=elsewhere)
    assert code == 0, out
    assert out.splitlines()[-1].endswith("2 of 2 orders legal.")


def test_orders_named_from_another_folder_reach_no_further_than_their_own(run_main, tmp_path: Path, aa) -> None:
    elsewhere = _game_elsewhere(tmp_path, aa)
    code, out, _ = run_main(["check", str(tmp_path / "game" / "hostile.yaml")], cwd=elsewhere)
    assert code == 1
    assert "MC011" in out and "resolves outside the root" in out


def test_an_explicit_root_is_the_only_root(run_main, tmp_path: Path, aa) -> None:
    elsewhere = _game_elsewhere(tmp_path, aa)
    code, out, _ = run_main(["check", str(tmp_path / "game" / "orders.yaml"), "--root", "."], cwd=elsewhere)
    assert code == 1
    assert "resolves outside the root" in out
