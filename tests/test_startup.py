"""What makes a run start and end quickly changes nothing a user sees.

* ``movecheck --version`` and ``--help`` are answered without Typer, with Typer's text;
* the console entry point leaves with ``os._exit`` after flushing: same output, same
  exit codes;
* ``check`` of a valid aa example imports neither networkx nor jsonschema (read from
  ``-X importtime``, which works however the process ends);
* a JSON file read by the json module has the data, positions and findings the YAML
  reading gives it.

How much time these save is measured by ``bench/run.py`` (section ``startup``), not here.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import inspect
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from movecheck.cli import main
from movecheck.document import Document
from movecheck.loading import _Loader, load_bytes
from movecheck.reading import InputError
from movecheck.report_commands import COMPLETE_VARIABLE, PLAIN_COMMANDS, ReportArgs, plain_command, run_plain
from movecheck.yaml_builder import _Builder
from tests.properties import in_two_runs

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "aa" / "orders" / "g1-combat.yaml"
STATE = REPO / "examples" / "aa" / "states" / "g1-combat.yaml"
NOT_ADJACENT = REPO / "examples" / "aa" / "orders" / "variants" / "aa101-not-adjacent.yaml"


def entry(*args: str, env: dict[str, str] | None = None, importtime: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m movecheck ARGS`` (the entry point the console script runs)."""
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run(
        [sys.executable, *flags, "-m", "movecheck", *args], capture_output=True, text=True, timeout=120,
        cwd=REPO, env={**os.environ, **(env or {})},
    )


def imported(stderr: str) -> set[str]:
    """The modules a ``-X importtime`` run imported."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def in_process(args: list[str], columns: str = "80") -> tuple[int, str]:
    out = io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = columns
    try:
        with contextlib.redirect_stdout(out):
            code = main(args)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    return code, out.getvalue()


def test_the_help_text_is_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_help", REPO / "scripts" / "gen_help.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_version_and_help_print_typers_text_without_typer(args: list[str]) -> None:
    proc = entry(*args, env={"COLUMNS": "120"}, importtime=True)
    assert proc.returncode == 0
    assert (0, proc.stdout) == in_process(args)
    assert not {m for m in imported(proc.stderr) if m.split(".")[0] in ("typer", "yaml") or m == "movecheck.cli"}


def test_a_narrow_terminal_gets_typers_help_at_its_width() -> None:
    proc = entry("--help", env={"COLUMNS": "60"})
    assert (proc.returncode, proc.stdout) == in_process(["--help"], columns="60")
    assert proc.stdout != in_process(["--help"])[1]


@pytest.mark.parametrize(
    "args,code",
    [
        (["check", str(EXAMPLE)], 0),
        pytest.param(["check", str(NOT_ADJACENT)], 1, marks=pytest.mark.slow),  # plain: run without Typer
        pytest.param(["lint", str(STATE)], 0, marks=pytest.mark.slow),  # plain too
        (["check", "-f", "json", str(NOT_ADJACENT)], 1),
        (["check"], 2),
        (["chek", "x"], 2),
        (["lint", "-f", "sarif", str(STATE)], 0),
    ],
)
def test_the_entry_point_keeps_output_and_exit_codes(args: list[str], code: int) -> None:
    proc = entry(*args)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        expected = main(args)
    assert (proc.returncode, proc.stdout, proc.stderr) == (expected, out.getvalue(), err.getvalue())
    assert proc.returncode == code


def test_a_report_written_to_a_pipe_is_complete() -> None:
    proc = entry("check", "-f", "json", str(EXAMPLE))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["files"]


def test_checking_a_valid_aa_example_imports_neither_networkx_nor_jsonschema() -> None:
    proc = entry("check", str(EXAMPLE), importtime=True)
    assert proc.returncode == 0, proc.stderr
    modules = imported(proc.stderr)
    assert "movecheck.aa.engine" in modules  # the rules really ran
    assert not {m for m in modules if m.split(".")[0] in ("networkx", "jsonschema", "referencing", "shapely")}
    # a check given only files runs without Typer (movecheck.report_commands.run_plain)
    typer_side = {m for m in modules if m.split(".")[0] in ("typer", "click") or m.startswith("movecheck.cli")}
    assert typer_side == set()


def outputs(run: Callable[[list[str]], int | None], args: list[str]) -> tuple[int | None, str, str]:
    """The exit code, stdout and stderr of ``run(args)`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(args)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "args",
    [
        ["check", str(EXAMPLE)],
        ["check", str(NOT_ADJACENT), str(EXAMPLE)],  # an error finding: exit 1
        ["check", "no-such-orders.yaml"],  # the tool cannot do its job: exit 2, one stderr line
        ["check", str(STATE)],  # a state is no orders file
        ["lint", str(STATE)],
        ["lint", str(STATE), str(REPO / "examples" / "aa" / "maps")],
        ["lint", "no-such-state.yaml"],
        ["check", "-q", str(NOT_ADJACENT), "--statistics"],
        ["lint", "--skip-foreign", str(STATE), "--exit-zero", "-qq"],
    ],
    ids=["check", "check-error", "check-missing", "check-a-state", "lint", "lint-folder",
         "lint-missing", "check-flags", "lint-flags"],
)
def test_a_plain_check_or_lint_without_typer_is_the_typer_run(args: list[str]) -> None:
    plain = outputs(run_plain, args)
    assert plain[0] is not None, "not run as a plain command"
    assert plain == outputs(main, args)


@pytest.mark.parametrize(
    "args",
    [[], ["check"], ["lint"], ["rules"], ["check", "-"], ["check", "--", "x.yaml"], ["check", "-q"],
     ["lint", str(STATE), "--format", "json"], ["check", "--help"], ["apply", str(EXAMPLE)],
     ["check", "-s", str(STATE), str(EXAMPLE)], ["check", "--show-files", str(EXAMPLE)], ["check", "-qqq", "x"],
     ["lint", "--with-dependents", str(STATE)], ["check", "--skip-foreign", str(EXAMPLE)], ["check", "--quiet=1", "x"]],
)
def test_anything_but_files_and_plain_flags_after_check_or_lint_goes_through_typer(args: list[str]) -> None:
    assert plain_command(args) is None


def test_shell_completion_and_an_unknown_language_go_through_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["check", str(EXAMPLE)]
    assert plain_command(args) is not None
    monkeypatch.setenv(COMPLETE_VARIABLE, "bash_complete")
    assert plain_command(args) is None
    monkeypatch.delenv(COMPLETE_VARIABLE)
    with monkeypatch.context() as windows:
        windows.setattr("movecheck.report_commands.os.name", "nt")  # where Typer expands wildcards
        assert plain_command(args) is None
    monkeypatch.setenv("MOVECHECK_LANG", "xx")  # Typer's --lang callback words this usage error
    assert run_plain(args) is None
    code, _, err = outputs(main, args)
    assert code == 2 and "--lang" in err


@pytest.mark.parametrize(
    "line",
    [
        ["check", "a.yaml", "b.yaml"],
        ["lint", "a.yaml"],
        ["check", "-q", "a.yaml", "--with-dependents"],
        ["check", "a.yaml", "-qq", "--statistics", "--exit-zero", "--isolated", "--no-respect-gitignore", "--suggest"],
        ["lint", "--skip-foreign", "a.yaml", "--quiet", "-q", "--no-respect-gitignore", "--respect-gitignore"],
        ["check", "--respect-gitignore", "a.yaml", "--no-respect-gitignore", "-q", "--quiet"],
    ],
)
def test_typer_and_the_plain_run_hand_the_command_the_same_values(
    line: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # what run_plain gives the command (ReportArgs and the command's own parameters) is what Typer parses from
    # the same command line
    command = PLAIN_COMMANDS[line[0]]
    given: dict[str, dict[str, Any]] = {}

    def recorder(run: str) -> Callable[..., int]:
        def record(*args: Any, **kwargs: Any) -> int:
            bound = inspect.signature(command).bind(*args, **kwargs)
            bound.apply_defaults()
            given[run] = dict(bound.arguments)
            return 0

        return record

    monkeypatch.setattr(f"movecheck.cli.{line[0]}_files", recorder("typer"))
    monkeypatch.setitem(PLAIN_COMMANDS, line[0], recorder("plain"))
    assert main(line) == 0
    plain = plain_command(line)
    assert plain is not None and plain() == 0
    assert given["plain"] == given["typer"]
    assert given["plain"]["common"] != ReportArgs() or line[1:] == [a for a in line[1:] if not a.startswith("-")]


def test_an_invalid_file_still_gets_jsonschemas_findings() -> None:
    proc = entry("lint", str(REPO / "examples" / "aa" / "orders" / "variants" / "mc003-schema.yaml"), importtime=True)
    assert proc.returncode == 1
    assert "jsonschema" in imported(proc.stderr)
    assert "MC003" in proc.stdout


# -- JSON files read by the json module -------------------------------------------------------


def yaml_reading(raw: bytes, path: str = "f.json") -> Document:
    doc = Document(path=path)
    try:
        _Builder(doc).build(yaml.parse(raw, Loader=_Loader))
    except Exception:
        doc.broken = True
    return doc


def same_reading(raw: bytes) -> bool:
    """Whether the json reading was used; when it was, it equals the YAML reading."""
    doc = load_bytes(raw, "f.json")
    fast = type(doc.positions).__name__ == "_Deferred"
    if fast:
        slow = yaml_reading(raw)
        assert not slow.broken and not slow.findings and not doc.findings
        assert doc.data == slow.data
        assert dict(doc.positions.items()) == slow.positions
        assert dict(doc.key_positions.items()) == slow.key_positions
        assert dict(doc.implicit.items()) == slow.implicit
    return fast


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6) | st.sampled_from(
    [
        "",
        "a/b",
        "é",
        "\u2028",
        "\x85",
        "\t",
        "\n",
        '"',
        "\\",
        "\ufeff",
        "😀",
        "yes",
        "0101",
        "1e5",
        "~",
        "- x",
        "a: b",
        "#",
    ]
)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**120), 10**120) | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _the_json_reading_equals_the_yaml_reading(
    value: Any, indent: Any, ascii_only: bool, separators: tuple[str, str]
) -> None:
    raw = json.dumps(value, indent=indent, ensure_ascii=ascii_only, separators=separators).encode("utf-8")
    same_reading(raw)


test_the_json_reading_equals_the_yaml_reading, test_the_json_reading_equals_the_yaml_reading_in_full = in_two_runs(
    settings(
        max_examples=200, derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    ),
    VALUES,
    st.sampled_from([None, 0, 1, 2, "\t"]),
    st.booleans(),
    st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : ")]),
)(_the_json_reading_equals_the_yaml_reading)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": 1, "a": 2}',  # MC002 from the YAML reading
        b'{"a"\n: 1}',  # YAML: no key
        b'["\\ud83d\\ude00"]',  # a surrogate pair: YAML refuses it
        b'{"k": "a\xc2\x85b"}',  # NEL: a line break to YAML
        b"[NaN, Infinity]",
        b"[" + b"1" * 101 + b"]",  # a whole number of more than 100 digits keeps its text
        b"[" * 65 + b"]" * 65,  # deeper than MOVECHECK_MAX_DEPTH
        b'{\t"a": 1}',
        b"\xef\xbb\xbf{}",
        b"{} {}",
    ],
)
def test_what_yaml_reads_otherwise_is_read_the_yaml_way(raw: bytes) -> None:
    assert not same_reading(raw)


def test_positions_are_read_only_when_asked_for(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "movecheck": 1,
            "system": "aa",
            "map": "aa1942-2e",
            "turn": {"round": "one", "power": "Germans", "phase": "combat_move"},
        },
        indent=2,
    )
    raw = text.encode()
    doc = load_bytes(raw, "s.json")
    assert dict.__len__(doc.positions) == 0  # nothing read yet
    assert doc.pos(("turn", "round")) == yaml_reading(raw).positions[("turn", "round")]
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    findings = []
    for name in ("s.json", "s.yaml"):
        code, out = in_process(["lint", "-f", "json", str(tmp_path / name)])
        assert code == 1
        findings.append([(f["code"], f["line"], f["column"], f["message"]) for f in json.loads(out)["findings"]])
    assert findings[0] == findings[1] and findings[0]


def test_a_json_document_pickles_with_its_positions() -> None:
    # a document sent to another process (or copied) carries plain, filled position tables
    import pickle

    raw = b'{"a": [1, 2]}'
    doc = pickle.loads(pickle.dumps(load_bytes(raw, "f.json")))
    assert type(doc.positions) is dict and doc.positions == yaml_reading(raw).positions


# -- clause families loaded when first needed (issue 36) ------------------------------------------------

IMPORTED_AFTER = (
    "import json, sys\n"
    "from movecheck.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print(json.dumps({'code': code, 'modules': sorted(sys.modules)}), file=sys.stderr)\n"
)
"""A command run in a fresh interpreter, then the modules it imported (``-X importtime`` loses lines when the
command leaves with ``os._exit``; ``cli.main`` returns instead)."""

NOT_A_COMBAT_MOVE = (
    "movecheck.aa.rules",
    "movecheck.aa.checks.purchase",
    "movecheck.aa.checks.mobilize",
    "movecheck.aa.checks.battles",
    "movecheck.aa.checks.battle_turn",
    "movecheck.aa.checks.dice",
    "movecheck.aa.turn.purchase",
    "movecheck.aa.turn.mobilize",
    "movecheck.aa.turn.battles",
    "movecheck.aa.turn.battle_turn",
    "movecheck.aa.turn.battle_extras",
)


@pytest.mark.slow  # a fresh interpreter (about 1 s); the index itself is checked in-process by test_clauses
@pytest.mark.parametrize("selection", [[], ["--ignore", "AA9"]], ids=["plain", "codes-listed"])
def test_a_combat_move_check_imports_only_the_clause_families_it_runs(selection: list[str]) -> None:
    # the purchase, mobilization, battle and dice families are imported by the catalogue when a clause of
    # theirs is needed (movecheck/aa/clause_index.py), not with every check; listing the codes to validate a
    # selection reads the systems' indexes, and imports no family of either system
    proc = subprocess.run([sys.executable, "-c", IMPORTED_AFTER, "check", *selection, str(EXAMPLE)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    run = json.loads(proc.stderr.strip().splitlines()[-1])
    assert run["code"] == 0, proc.stdout
    assert "17 of 17 orders legal" in proc.stdout
    modules = set(run["modules"])
    # the families of the combat move's clauses ran
    assert {"movecheck.aa.checks.movement", "movecheck.aa.checks.combat", "movecheck.aa.checks.aircraft",
            "movecheck.aa.checks.cargo", "movecheck.aa.checks.china"} <= modules
    assert sorted(modules & set(NOT_A_COMBAT_MOVE)) == []
    assert sorted(m for m in modules if m.startswith(("movecheck.maneuver.checks", "movecheck.maneuver.rules"))) == []


@pytest.mark.parametrize(
    "failure",
    [KeyboardInterrupt(), EOFError(), InputError("x.yaml: no such file"), RuntimeError("a bug\nof ours"),
     RecursionError(), BrokenPipeError(errno.ESHUTDOWN, "shut down")],
    ids=["interrupt", "eof", "input", "bug", "recursion", "shutdown"],
)
def test_a_plain_run_ends_on_a_failure_as_the_typer_run_does(
    failure: BaseException, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Typer's own handling (an interrupt exits 130, end of input is "aborted") and then cli.main's
    def fail(*args: Any, **kwargs: Any) -> int:
        raise failure

    monkeypatch.setattr("movecheck.cli.check_files", fail)
    monkeypatch.setitem(PLAIN_COMMANDS, "check", fail)
    line = ["check", "a.yaml"]
    assert outputs(run_plain, line) == outputs(main, line)
    assert outputs(run_plain, line)[0] in (0, 2, 130)
