"""The suite's own speed-ups stay honest (issue 36): pytest's internals behind one guard, the pytest major version
pinned, no wait for a share of the bytecode that will never come.

The speed-ups are in ``tests/conftest.py`` (the bytecode cache the xdist workers share).
"""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path

import pytest
from conftest import PYTEST_MAJOR, REWRITE_NAMES, private_pytest, wait_for_shares

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _private_pytest_imports(path: Path) -> list[tuple[str, int]]:
    """Each import of pytest's private package (``_pytest``) in a file: the function it is in, and its line."""
    text = path.read_text(encoding="utf-8")
    if "_pytest" not in text:
        return []  # an import of the package names it: a file that never writes the name imports nothing of it
    tree = ast.parse(text)
    enclosing: dict[ast.AST, str] = {}
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                enclosing[node] = function.name  # the innermost function wins: it is walked last
    found = []
    for node in ast.walk(tree):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if any(name.split(".")[0] == "_pytest" for name in names):
            found.append((enclosing.get(node, "<module>"), node.lineno))
    return found


def test_every_use_of_pytest_internals_is_behind_the_one_guard() -> None:
    uses = {}
    for path in sorted([*TESTS.rglob("*.py"), *(ROOT / "bench").rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]):
        found = {function for function, _line in _private_pytest_imports(path)}
        if found:
            uses[path.relative_to(ROOT).as_posix()] = found
    assert uses == {"tests/conftest.py": {"private_pytest"}}


def test_the_guard_names_every_private_name_the_speed_ups_use() -> None:
    text = (TESTS / "conftest.py").read_text(encoding="utf-8")
    used = set(re.findall(r"\brewrite\.(\w+)", text))
    assert used and used <= set(REWRITE_NAMES)


def test_the_pinned_major_version_is_the_guard_s() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"pytest>={PYTEST_MAJOR},<{PYTEST_MAJOR + 1}"' in text
    assert pytest.version_tuple[0] == PYTEST_MAJOR  # the installed pytest is the pinned one ...
    assert private_pytest() is not None  # ... and has every name the speed-ups use


def test_a_share_that_failed_is_not_waited_for(tmp_path: Path) -> None:
    # every worker has finished and one share was never written: no minute of waiting for it
    start = time.monotonic()
    missing = wait_for_shares([tmp_path / "never.pyc"], lambda: True, longest=30)
    assert missing == [tmp_path / "never.pyc"]
    assert time.monotonic() - start < 5


def test_a_share_still_being_written_is_waited_for(tmp_path: Path) -> None:
    written = tmp_path / "soon.pyc"
    calls = []

    def finished() -> bool:
        calls.append(1)
        if len(calls) == 3:
            written.write_bytes(b"")
        return False

    assert wait_for_shares([written], finished, longest=30) == []
    assert len(calls) >= 3


def test_every_test_listed_slow_exists() -> None:
    """A key of ``tests/slow_tests.py`` names a test function of its file (and its parameters are the file's to say:
    a key with parameters that match no case leaves the test in the default run, which is what the list is for)."""
    from tests.slow_tests import SLOW

    missing = []
    for key in SLOW:
        file, _, name = key.partition("::")
        function = name.partition("[")[0]
        path = ROOT / file
        defined = rf"^(async )?def {re.escape(function)}\("
        if not path.is_file() or not re.search(defined, path.read_text(encoding="utf-8"), re.M):
            missing.append(key)
    assert missing == []


def test_the_listed_tests_are_left_out_of_the_default_run(request: pytest.FixtureRequest) -> None:
    from tests.slow_tests import SLOW

    if request.config.option.markexpr != "not slow":
        pytest.skip("the default run's selection only (-m 'not slow')")
    selected = [item.nodeid for item in request.session.items]
    assert [n for n in selected if n in SLOW or n.partition("[")[0] in SLOW] == []


# --- tests/built_commands.py: the click command of an in-process run, built once per process ---


def _param_names(command) -> list[str]:
    return [param.name or "" for param in command.params]


def test_in_process_runs_get_the_remembered_commands() -> None:
    import typer.main

    from tests import built_commands

    assert typer.main.get_command is built_commands.get_command  # conftest installed it in this process


def test_a_command_one_run_changes_is_not_the_next_run_s() -> None:
    import typer.main

    from movecheck import cli
    from tests import built_commands

    fresh = built_commands._REAL[0](cli._app_for("check"))
    first = typer.main.get_command(cli._app_for("check"))
    assert _param_names(first) == _param_names(fresh)
    first.params.clear()  # what a careless run could do to the command it was handed
    first.help = "changed"
    second = typer.main.get_command(cli._app_for("check"))
    assert second is not first
    assert _param_names(second) == _param_names(fresh) and second.help == fresh.help


def test_an_app_given_another_command_is_built_again() -> None:
    import typer
    import typer.main

    app = typer.Typer(add_completion=False)

    @app.command()
    def one(name: str) -> None:
        """One."""

    single = typer.main.get_command(app)
    assert single.name == "one" and _param_names(single) == ["name"]

    @app.command()
    def two(count: int = 1) -> None:
        """Two."""

    group = typer.main.get_command(app)
    assert sorted(group.commands) == ["one", "two"]  # type: ignore[attr-defined]
    app.registered_commands[1].help = "Now with help."  # a record changed in place
    assert group.commands["two"].help != "Now with help."  # type: ignore[attr-defined]
    assert typer.main.get_command(app).commands["two"].help == "Now with help."  # type: ignore[attr-defined]


def test_the_environment_typer_reads_while_building_is_part_of_the_question(monkeypatch) -> None:
    import typer.main

    from movecheck import cli
    from tests import built_commands

    monkeypatch.delenv(built_commands.SHELL_DETECTION, raising=False)
    before, _kept = built_commands.fingerprint(cli._app_for("check"))
    monkeypatch.setenv(built_commands.SHELL_DETECTION, "1")
    after, _kept = built_commands.fingerprint(cli._app_for("check"))
    assert before != after
    real = built_commands._REAL[0](cli._app_for("check"))
    assert [p.name for p in typer.main.get_command(cli._app_for("check")).params] == _param_names(real)


@pytest.mark.parametrize("args", [["check", "--help"], ["--help"], ["summary", "--help"], ["check", "--nope"]])
def test_a_run_prints_what_it_prints_with_a_command_built_afresh(run_main, monkeypatch, args: list[str]) -> None:
    import typer.main

    from tests import built_commands

    remembered = run_main(args)
    run_main(args)  # the second run of the same command is handed a copy
    again = run_main(args)
    monkeypatch.setattr(typer.main, "get_command", built_commands._REAL[0])
    assert again == remembered == run_main(args)


# --- tests/sampling.py: sampled sweeps, a share in the default run and the rest under slow ---


def test_a_sampled_sweep_runs_every_case_in_exactly_one_of_the_two_runs() -> None:
    from tests import sampling

    before = dict(sampling.SWEEPS)
    try:
        params = sampling.sampled("tests/x.py::test_sweep", ["a", "b", "c", "d", "e", "f", "g"], str.upper, every=3)
        assert [p.values for p in params] == [(case,) for case in "abcdefg"]  # every case, in its place
        assert [p.id for p in params] == list("ABCDEFG")
        default = [p.values[0] for p in params if not any(m.name == "slow" for m in p.marks)]
        slow = [p.values[0] for p in params if [m.name for m in p.marks] == ["slow"]]
        assert default == ["a", "d", "g"] and slow == ["b", "c", "e", "f"]
        assert sampling.SWEEPS["tests/x.py::test_sweep"] == (7, 3)
        assert sampling.default_share(7, 3) == 3
        with pytest.raises(ValueError, match="sampled twice"):
            sampling.sampled("tests/x.py::test_sweep", ["a"])
        with pytest.raises(ValueError, match="2 cases and 1 ids"):
            sampling.sampled("tests/x.py::test_other", ["a", "b"], ["A"])
    finally:
        sampling.SWEEPS.clear()
        sampling.SWEEPS.update(before)


def test_the_default_run_holds_each_sampled_sweep_s_share_and_no_more(request: pytest.FixtureRequest) -> None:
    """Each sampled sweep this run collected in full: the default run selected exactly its share, the others are
    left to ``pytest -m slow`` (the first test shows the two together are the whole sweep)."""
    from tests.sampling import SWEEPS, default_share

    config = request.config
    partial = config.option.keyword or getattr(config.option, "lf", False) or getattr(config.option, "stepwise", False)
    if config.option.markexpr != "not slow" or partial or any("::" in arg for arg in config.args):
        pytest.skip("the default run's selection of whole files only (-m 'not slow', no -k, --lf or node ids)")
    selected: dict[str, int] = {}
    for item in request.session.items:
        function = item.nodeid.partition("[")[0]
        if function in SWEEPS:
            selected[function] = selected.get(function, 0) + 1
    files = {item.nodeid.partition("::")[0] for item in request.session.items}
    expected = {test: default_share(*SWEEPS[test]) for test in SWEEPS if test.partition("::")[0] in files}
    assert selected == expected  # a sweep of a collected file that selected nothing names no test of its file
