"""Files movecheck writes (``-o``), files it is named to read, and a standard output nobody reads (issue 23).

* ``-o FILE`` of every command that writes one (check, lint, apply, render, import
  triplea) writes a temporary file beside FILE and renames it over: a symbolic link there
  is replaced, never written through; a FIFO or a device there (or a link to one) is
  refused at once, never opened; a failed write leaves FILE as it was and no temporary file;
* a file named on the command line that is a FIFO or a device is refused at once, one
  line on stderr, exit 2; ``-`` still reads standard input;
* a closed standard output (``>&-``) or one whose reader went away (``| head -0``) ends
  the run quietly with the exit code its findings give.

Tests that could hang on a FIFO run the command line under a hang guard (an alarm in this
process, or a subprocess's timeout where a real process's standard output is the point).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from aa.test_triplea import SMALL
from aa.triplea_writer import game_xml

REPO = Path(__file__).resolve().parents[1]
HANG_TIMEOUT = 60  # seconds: a hang guard, never a timing assertion

WRITERS = {
    "check": ["check", "examples/aa/orders/g1-combat.yaml"],
    "lint": ["lint", "examples/aa/states/g1-combat.yaml"],
    "apply": ["apply", "examples/aa/orders/g1-combat.yaml"],
    "render": ["render", "examples/maneuver/battlefield.yaml"],
    "reach": ["reach", "examples/maneuver/battlefield.yaml", "r1"],
    "import": ["import", "triplea", "game.xml"],
}
"""Each command that writes a file with ``-o``, on an input it writes one for (from the folder of :func:`game`)."""


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of ``examples/`` for the module (no test writes into it)."""
    folder = tmp_path_factory.mktemp("examples") / "examples"
    shutil.copytree(REPO / "examples", folder)
    return folder


@pytest.fixture
def game(tmp_path: Path, examples: Path) -> Path:
    """A folder with the examples (hard links to the module's copy), a TripleA game file; a ``victim`` outside."""
    folder = tmp_path / "game"
    shutil.copytree(examples, folder / "examples", copy_function=os.link)
    (folder / "game.xml").write_text(game_xml(SMALL), encoding="utf-8")
    (tmp_path / "victim.txt").write_text("precious\n", encoding="utf-8")
    return folder


def cli(args: list[str], cwd: Path, close_stdout: bool = False) -> tuple[int, str, str]:
    """``python -m movecheck ARGS`` with a hang guard and an empty stdin (``close_stdout``: as ``>&-``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", *args], input=b"", capture_output=True, cwd=cwd, env=env,
        timeout=HANG_TIMEOUT, preexec_fn=(lambda: os.close(1)) if close_stdout else None,
    )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


# -- -o FILE ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", list(WRITERS))
def test_output_replaces_a_link_and_never_writes_through_it(run_main, game: Path, command: str) -> None:
    code, _, _ = run_main([*WRITERS[command], "-o", "plain.out"], cwd=game)
    os.symlink(game.parent / "victim.txt", game / "link.out")
    assert run_main([*WRITERS[command], "-o", "link.out"], cwd=game)[0] == code
    assert (game.parent / "victim.txt").read_text(encoding="utf-8") == "precious\n"
    assert not (game / "link.out").is_symlink()
    assert (game / "link.out").read_bytes() == (game / "plain.out").read_bytes() != b""


@pytest.mark.parametrize("command", list(WRITERS))
def test_output_to_a_fifo_is_refused_at_once(run_guarded, game: Path, command: str) -> None:
    os.mkfifo(game / "pipe")
    before = sorted(os.listdir(game))
    code, out, err = run_guarded([*WRITERS[command], "-o", "pipe"], game)
    assert (code, out, err) == (2, "", "movecheck: error: --output pipe: is a FIFO (named pipe), not a regular file\n")
    assert (
        stat.S_ISFIFO(os.lstat(game / "pipe").st_mode) and sorted(os.listdir(game)) == before
    )  # no temporary file left


@pytest.mark.parametrize("target, what", [
    ("link", "is a FIFO (named pipe), not a regular file"),  # a link to the FIFO
    ("/dev/null", "is a character device, not a regular file"),
    ("folder", "is a directory"),
    ("folder-link", "is a directory"),
])
def test_output_to_a_device_a_folder_or_a_link_to_one_is_refused(
    run_guarded, game: Path, target: str, what: str
) -> None:
    os.mkfifo(game / "pipe")
    os.symlink("pipe", game / "link")
    (game / "folder").mkdir()
    os.symlink("folder", game / "folder-link")
    code, out, err = run_guarded([*WRITERS["apply"], "-o", target], game)
    assert (code, out, err) == (2, "", f"movecheck: error: --output {target}: {what}\n")
    assert os.listdir(game / "folder") == []


def test_output_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    from movecheck.output import deliver

    old = tmp_path / "old.yaml"
    old.write_text("before\n", encoding="utf-8")
    old.chmod(0o640)
    deliver(str(old), "after\n")
    assert (old.read_text(encoding="utf-8"), stat.S_IMODE(old.stat().st_mode)) == ("after\n", 0o640)
    umask = os.umask(0o027)
    try:
        deliver(str(tmp_path / "new.yaml"), "new\n")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640  # 0o666 under the umask, as open() gives
    assert sorted(os.listdir(tmp_path)) == ["new.yaml", "old.yaml"]


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_write_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch, failing: str) -> None:
    from movecheck.output import deliver
    from movecheck.reading import InputError

    target = tmp_path / "state.yaml"
    target.write_text("the old state\n", encoding="utf-8")

    def no_space(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, no_space)
    with pytest.raises(InputError, match=r"^--output .*state\.yaml: cannot write \(No space left on device\)$"):
        deliver(str(target), "the new state\n")
    assert target.read_text(encoding="utf-8") == "the old state\n"
    assert os.listdir(tmp_path) == ["state.yaml"]


# -- files named on the command line ----------------------------------------------------------


@pytest.mark.parametrize("args, prefix", [
    (["lint", "pipe"], ""),
    (["check", "pipe"], ""),
    (["apply", "pipe"], ""),
    (["render", "pipe"], ""),
    (["import", "triplea", "pipe"], ""),
    (["map", "show", "pipe"], ""),
    (["schema", "aa-orders", "--map", "pipe"], ""),
    (["check", "--state", "pipe", "examples/aa/orders/g1-combat.yaml"], ""),
    (["lint", "--config", "pipe", "examples/aa/states/g1-combat.yaml"], "--config "),
], ids=lambda v: "-".join(v) if isinstance(v, list) else None)
def test_an_input_fifo_is_refused_at_once(run_guarded, game: Path, args: list[str], prefix: str) -> None:
    os.mkfifo(game / "pipe")
    code, out, err = run_guarded(args, game)
    assert (code, out) == (2, "")
    assert (
        err
        == f"movecheck: error: {prefix}pipe: is a FIFO (named pipe), not a regular file; give - to read standard "
           "input\n"
    )


def test_an_input_device_or_a_link_to_a_fifo_is_refused_and_the_other_files_are_read(run_guarded, game: Path) -> None:
    os.mkfifo(game / "pipe")
    os.symlink("pipe", game / "link.yaml")
    code, out, err = run_guarded(["lint", "link.yaml", "/dev/zero", "examples/aa/states/g1-combat.yaml"], game)
    assert code == 2
    assert err.splitlines() == [
        "movecheck: error: link.yaml: is a FIFO (named pipe), not a regular file; give - to read standard input",
        "movecheck: error: /dev/zero: is a character device, not a regular file; give - to read standard input",
    ]
    assert out.endswith("0 errors, 0 warnings, 0 notes in 3 files.\n")


# -- a standard output nobody reads -------------------------------------------------------------


SLOW = pytest.mark.slow  # a fresh interpreter each: the default run keeps a check with findings, a lint, and help


@pytest.mark.parametrize("args, code", [
    (["check", "examples/aa/orders/uk2-combat.yaml", "examples/maneuver/free-orders-mv101.yaml"], 1),
    pytest.param(["check", "examples/aa/orders/g1-combat.yaml", "--format", "json"], 0, marks=SLOW),
    pytest.param(
        ["check", "--jobs", "2", "examples/aa/orders/g1-combat.yaml", "examples/maneuver/free-orders-mv101.yaml"],
        1,
        marks=SLOW,
    ),
    (["lint", "examples/aa/states/g1-combat.yaml"], 0),
    pytest.param(["rules"], 0, marks=SLOW),
    pytest.param(["schema", "aa-state"], 0, marks=SLOW),
    pytest.param(["--version"], 0, marks=SLOW),
    (["check", "--help"], 0),
], ids=lambda v: "-".join(v)[:40] if isinstance(v, list) else None)
def test_a_closed_stdout_ends_quietly_with_the_findings_exit_code(game: Path, args: list[str], code: int) -> None:
    assert cli(args, game, close_stdout=True) == (code, "", "")


def test_a_reader_that_went_away_ends_the_run_quietly(game: Path) -> None:
    args = ["check", "examples/maneuver/free-orders-mv101.yaml", "--format", "full"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "movecheck", *args], cwd=game, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # | head -0: gone before movecheck writes
    try:
        _, err = proc.communicate(timeout=HANG_TIMEOUT)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (1, b"")


# -- -o through a symbolically linked folder (issue 35) ----------------------------------------


@pytest.mark.parametrize("written", ["next/g1.out", "./next/g1.out", "next/deeper/g1.out", "real/../next/g1.out",
                                     "ABSOLUTE/next/g1.out"])
@pytest.mark.parametrize("command", ["apply", "render", "import"])
def test_output_through_a_linked_folder_is_refused(run_guarded, game: Path, command: str, written: str) -> None:
    outside = game.parent / "outside"
    (outside / "deeper").mkdir(parents=True)
    (game / "real").mkdir()
    os.symlink(outside, game / "next")
    written = written.replace("ABSOLUTE", str(game))
    code, out, err = run_guarded([*WRITERS[command], "-o", written], game)
    folder = written.rsplit("/", 2)[0] if "deeper" in written else written.rsplit("/", 1)[0]
    folder = folder.removesuffix("/deeper")
    assert (code, out) == (2, "")
    assert err == (f"movecheck: error: --output {written}: the folder {folder} is a symbolic link: "
                   "only real folders are written into\n")
    assert sorted(p.name for p in outside.rglob("*")) == ["deeper"]  # nothing written outside, no temporary file


def test_output_into_real_folders_and_above_the_current_one_still_works(run_main, game: Path) -> None:
    (game / "next" / "deeper").mkdir(parents=True)
    assert run_main([*WRITERS["apply"], "-o", "next/deeper/g1.out"], cwd=game)[0] == 0
    assert (game / "next" / "deeper" / "g1.out").read_text(encoding="utf-8").startswith("#")
    os.symlink(game, game.parent / "game-link")  # a link above the current folder is the referee's own
    assert run_main([*WRITERS["apply"], "-o", "../game-link/next/g2.out"], cwd=game)[0] == 0
    assert (game / "next" / "g2.out").is_file()


def test_the_refusal_reads_in_russian(run_guarded, game: Path) -> None:
    os.symlink(game.parent, game / "next")
    code, _out, err = run_guarded([*WRITERS["apply"], "-o", "next/g1.out", "--lang", "ru"], game)
    assert code == 2 and "символическая ссылка" in err
