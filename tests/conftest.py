"""Shared fixtures of the movecheck test suite.

* ``run_cli(args, stdin=None, cwd=None, env=None)`` runs ``python -m movecheck`` in a
  subprocess and returns ``(code, stdout, stderr)``;
* ``run_main(args, stdin=None, cwd=None, env=None)`` does the same in-process through
  ``movecheck.cli.main`` (faster; for tests that need no fresh interpreter);
* ``run_guarded(args, cwd=None)``: ``run_main`` with an empty stdin under an alarm (inputs that could block);
* ``report_validator(document)`` validates a JSON report against ``movecheck schema report``;
* ``write(tmp_path, name, text)`` writes a file (str or bytes) and returns its path.

Every ``check``/``lint`` output in JSON that goes through ``run_cli`` or ``run_main``
(``--format json``, ``-f json``, ``--format=json`` or ``MOVECHECK_FORMAT=json``) is parsed
and validated against the report schema automatically: the spec requires every
``--format json`` output of the suite to validate.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
REPORT_COMMANDS = ("check", "lint")
SUBPROCESS_TIMEOUT = 120  # generous: a timeout is a hang, never a timing assertion

# movecheck speaks the language of $MOVECHECK_LANG or the locale: the tests (and their
# snapshots) expect English unless a test asks for another language itself.
for _name in ("MOVECHECK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


PYCACHE_VARIABLE = "MOVECHECK_TESTS_PYCACHE"
"""Names the run's bytecode cache to the xdist workers (see :func:`_bytecode_cache`)."""


def _bytecode_cache() -> tuple[str | None, bool]:
    """With ``PYTHONDONTWRITEBYTECODE`` set (and no prefix of one's own), the run's bytecode cache.

    Without one, every ``python -m movecheck`` subprocess and ``--jobs`` worker compiles the
    package from source (about half the CPU of a short subprocess), and each xdist worker
    rewrites the asserts of every test module.  The cache is a temporary folder, removed when
    the run ends (:func:`pytest_unconfigure`), so no ``.pyc`` is ever written into the source
    tree.  The subprocesses of the tests get it as ``PYTHONPYCACHEPREFIX`` (with
    ``PYTHONDONTWRITEBYTECODE`` dropped for them only, :func:`pytest_configure`): the first to
    import a module writes it, the others read it.  The pytest processes keep their own
    settings (with a prefix they would recompile the standard library and every installed
    package, whose ``__pycache__`` they could no longer read); they only read the test modules
    the xdist workers rewrote into it (:func:`pytest_collection`).  Returns (the folder,
    whether this process made it).
    """
    inherited = os.environ.get(PYCACHE_VARIABLE)
    if inherited:
        return inherited, False  # an xdist worker: the controller made it
    if not sys.flags.dont_write_bytecode or sys.pycache_prefix or os.environ.get("PYTHONPYCACHEPREFIX"):
        return None, False  # the developer's own setting (their __pycache__ folders, or their prefix) stands
    import tempfile

    prefix = tempfile.mkdtemp(prefix="movecheck-tests-pyc-")
    os.environ[PYCACHE_VARIABLE] = prefix
    return prefix, True


BYTECODE_CACHE, _OWN_BYTECODE_CACHE = _bytecode_cache()


def _cached_pyc(path: Path) -> Path:
    """Where ``PYTHONPYCACHEPREFIX=BYTECODE_CACHE`` puts the bytecode of ``path`` (as ``importlib`` does)."""
    from importlib.util import cache_from_source

    previous = sys.pycache_prefix
    sys.pycache_prefix = BYTECODE_CACHE
    try:
        return Path(cache_from_source(str(path)))
    finally:
        sys.pycache_prefix = previous


PYTEST_MAJOR = 9
"""The pytest major version whose private API the suite's speed-ups use (pinned in pyproject.toml's test extra)."""
REWRITE_NAMES = ("get_cache_dir", "assertstate_key", "_rewrite_test", "_write_pyc", "try_makedirs", "PYC_TAIL")
"""What of pytest's assertion rewriting (``_pytest.assertion.rewrite``) the speed-ups use."""


def private_pytest() -> Any | None:
    """pytest's assertion-rewriting module, when the suite's speed-ups may use its private API; else None.

    The one guard of every use of pytest's internals in the suite: the pinned major version
    (:data:`PYTEST_MAJOR`) and every name used present.  Without them the suite is the same,
    only slower: pytest rewrites each test module itself, and nothing is shared between workers.
    """
    if pytest.version_tuple[0] != PYTEST_MAJOR:
        return None
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return None
    return rewrite if all(hasattr(rewrite, name) for name in REWRITE_NAMES) else None


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):  # a process running tests
        from tests import built_commands

        built_commands.install()  # in-process runs of the command line build each click command once
    if not BYTECODE_CACHE:
        return
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        return  # the xdist controller: the workers it starts keep this environment
    os.environ["PYTHONPYCACHEPREFIX"] = BYTECODE_CACHE  # for this process's subprocesses only
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    rewrite = private_pytest()
    if rewrite is None:
        return  # pytest writes the rewritten test modules where it always does

    def cache_dir(file_path: Path) -> Path:  # the rewritten test modules (pytest's layout under a prefix)
        return Path(BYTECODE_CACHE) / Path(*file_path.parts[1:-1])

    rewrite.get_cache_dir = cache_dir


AA_STATE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 1, power: Germans, phase: combat_move}
"""

# In the 1942 second-edition setup Poland and Ukraine S.S.R. are German: this is a
# noncombat move made in combat move (AA203, the move's last path step, line 8 col 29).
AA_ORDERS_ILLEGAL = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {tank: 2}
    path: [Germany, Poland, Ukraine S.S.R.]
"""

# Caucasus is Russian and holds Russian units: an attack, legal in combat move.
AA_ORDERS_LEGAL = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - id: m1
    units: {infantry: 1}
    path: [Ukraine S.S.R., Caucasus]
  - units: {tank: 1}
    path: [Ukraine S.S.R., Caucasus]
"""

# A small aa map file: two territories (Beta also answers to Bravo), a sea zone, a Red infantry.
AA_TINY_MAP = """\
movecheck: 1
system: aa
kind: map
name: tiny
powers: [Reds, Blues]
sides: {east: [Reds], west: [Blues]}
territories:
  - {name: Alpha, production: 1}
  - {name: Beta, production: 1, aliases: [Bravo]}
  - {name: 1 Sea Zone, sea: true}
connections: [[Alpha, Beta], [Alpha, 1 Sea Zone]]
control: {Alpha: Reds, Beta: Blues}
units:
  - {at: Alpha, power: Reds, type: infantry}
"""

_validated_reports = 0


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    """Write ``text`` (str as UTF-8 without newline translation, or bytes) to ``tmp_path/name``."""
    path = Path(tmp_path) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


@pytest.fixture(name="write")
def write_fixture() -> Callable[[Path, str, str | bytes], Path]:
    """The :func:`write` helper, as a fixture."""
    return write


@pytest.fixture(scope="session")
def report_schema() -> dict[str, Any]:
    from movecheck.schema import load_schema

    return load_schema("report")


def _report_validator_for(schema: dict[str, Any]) -> Callable[[Any], Any]:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    def validate(document: Any) -> Any:
        if isinstance(document, str):
            document = json.loads(document)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        assert not errors, "JSON report does not match the report schema:\n" + "\n".join(
            f"  at {list(e.absolute_path)}: {e.message}" for e in errors
        )
        return document

    return validate


@pytest.fixture(scope="session")
def report_validator(report_schema: dict[str, Any]) -> Callable[[Any], Any]:
    """Validate a JSON report (dict or text) against the report schema; returns the dict."""
    return _report_validator_for(report_schema)


def _command_of(args: Sequence[str]) -> str | None:
    for arg in args:
        if not arg.startswith("-"):
            return arg
    return None


def _json_requested(args: Sequence[str], env: Mapping[str, str] | None) -> bool:
    args = list(args)
    for i, arg in enumerate(args):
        if arg in ("--format", "--output-format", "-f") and i + 1 < len(args):
            return args[i + 1] == "json"
        if arg in ("--format=json", "--output-format=json", "-fjson"):
            return True
        if arg.startswith("--format="):
            return False
    source = os.environ if env is None else env
    return source.get("MOVECHECK_FORMAT", "").strip() == "json"


def _validate_if_report(
    args: Sequence[str], env: Mapping[str, str] | None, code: int, stdout: str, validate: Callable[[Any], Any]
) -> None:
    """The automatic check: JSON output of check/lint must be a valid report."""
    global _validated_reports
    if _command_of(args) not in REPORT_COMMANDS or not _json_requested(args, env):
        return
    if "--help" in args or any(a in ("-o", "--output") or a.startswith("--output=") for a in args):
        return  # no report on stdout (with --output, the test validates the file itself)
    if code == 2 and not stdout.strip():
        return  # the tool could not do its job: no report, one line on stderr
    try:
        document = json.loads(stdout)
    except json.JSONDecodeError as exc:  # pragma: no cover - a failure message
        pytest.fail(f"--format json output of {list(args)} is not JSON ({exc}):\n{stdout}")
    validate(document)
    _validated_reports += 1


def _subprocess_env(env: Mapping[str, str] | None) -> dict[str, str]:
    base = dict(os.environ)
    for name in ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR", "MOVECHECK_MAX_DEPTH", "MOVECHECK_MAX_NODES"):
        base.pop(name, None)
    base["PYTHONIOENCODING"] = "utf-8"
    if env:
        base.update(env)
    return base


@pytest.fixture
def run_cli(report_validator: Callable[[Any], Any]) -> Callable[..., tuple[int, str, str]]:
    """Run ``python -m movecheck ARGS`` in a subprocess: (exit code, stdout, stderr)."""

    def run(
        args: Sequence[str],
        stdin: str | bytes | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> tuple[int, str, str]:
        args = [str(a) for a in args]
        full_env = _subprocess_env(env)
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        proc = subprocess.run(
            [sys.executable, "-m", "movecheck", *args],
            input=data if data is not None else b"",
            capture_output=True,
            cwd=cwd,
            env=full_env,
            timeout=SUBPROCESS_TIMEOUT,
        )
        out = proc.stdout.decode("utf-8")
        err = proc.stderr.decode("utf-8")
        _validate_if_report(args, full_env, proc.returncode, out, report_validator)
        return proc.returncode, out, err

    return run


@pytest.fixture
def run_main(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    report_validator: Callable[[Any], Any],
) -> Callable[..., tuple[int, str, str]]:
    """Run ``movecheck.cli.main(ARGS)`` in this process: (exit code, stdout, stderr)."""
    from movecheck.cli import main

    def run(
        args: Sequence[str],
        stdin: str | bytes | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> tuple[int, str, str]:
        args = [str(a) for a in args]
        capsys.readouterr()  # drop anything printed before
        with monkeypatch.context() as patch:
            for name in ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR"):
                patch.delenv(name, raising=False)
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            if cwd is not None:
                patch.chdir(cwd)
            if stdin is not None:
                data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
                patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
            code = main(args)
            json_env = dict(os.environ)
        out, err = capsys.readouterr()
        _validate_if_report(args, json_env, code, out, report_validator)
        return code, out, err

    return run


HANG_TIMEOUT = 60  # seconds: a hang guard, never a timing assertion


@pytest.fixture
def run_guarded(run_main: Callable[..., tuple[int, str, str]]) -> Callable[..., tuple[int, str, str]]:
    """``run_main`` with an empty stdin under a hang guard (an alarm): for inputs that could block.

    A FIFO or a device opened by mistake fails the test (``TimeoutError`` in the run, never
    the exit code and one stderr line the test expects) instead of hanging the suite; no
    fresh interpreter is started.
    """
    import signal

    def run(args: Sequence[str], cwd: str | os.PathLike[str] | None = None) -> tuple[int, str, str]:
        def hung(signum: int, frame: object) -> None:
            raise TimeoutError(f"movecheck {list(args)} waits on an input or an output")

        previous = signal.signal(signal.SIGALRM, hung)
        signal.alarm(HANG_TIMEOUT)
        try:
            return run_main(args, stdin="", cwd=cwd)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    return run


@pytest.fixture(scope="session")
def aa() -> SimpleNamespace:
    """The aa texts: ``aa.state``, ``aa.illegal`` (one AA203 at 8:29), ``aa.legal`` (two legal moves)."""
    return SimpleNamespace(state=AA_STATE, illegal=AA_ORDERS_ILLEGAL, legal=AA_ORDERS_LEGAL)


@pytest.fixture
def aa_dir(tmp_path: Path) -> Path:
    """A folder holding the aa state ``state.yaml`` (1942 second edition, Germans, combat move)."""
    write(tmp_path, "state.yaml", AA_STATE)
    return tmp_path


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _validated_reports:
        terminalreporter.write_line(
            f"movecheck: {_validated_reports} --format json report(s) validated against the report schema"
        )


def _files_to_compile(config: pytest.Config) -> list[Path]:
    """The test modules and conftests of the run's arguments, and the package's modules."""
    from fnmatch import fnmatch

    patterns = [*config.getini("python_files"), "conftest.py"]
    files: set[Path] = set()
    for arg in config.args:
        path = config.invocation_params.dir / arg.split("::")[0]
        if path.is_dir():
            files.update(p for p in path.rglob("*.py") if any(fnmatch(p.name, pat) for pat in patterns))
        elif path.suffix == ".py":
            files.add(path)
    files.update((REPO / "movecheck").rglob("*.py"))
    return sorted(p.resolve() for p in files)


def _compile_my_share(config: pytest.Config, rewrite: Any, worker: int, workers: int, finished: Path) -> None:
    """Compile this xdist worker's share of the run's modules into the bytecode cache.

    Every worker imports every test module (and pytest rewrites its asserts: most of the
    collection's CPU) and the package; the workers start together, so with an empty cache
    each would compile everything.  Here each compiles a share first (the files dealt out by
    size), the other workers' collection then finds it cached.  The rewriting is pytest's own
    (``rewrite``, its assertion-rewriting module, private: see :func:`private_pytest`; on any
    error this step is skipped and pytest rewrites as it always does); the package's modules
    are compiled as an import would.  ``finished``: the folder where each worker of the run
    leaves a mark once its share is done, or has failed.
    """
    import py_compile

    state = config.stash[rewrite.assertstate_key]
    loads = [0] * workers
    others: list[Path] = []  # the other workers' rewritten test modules
    for path in sorted(_files_to_compile(config), key=lambda p: (-p.stat().st_size, p)):
        least = loads.index(min(loads))
        loads[least] += path.stat().st_size
        package = REPO / "movecheck" in path.parents
        target = _cached_pyc(path) if package else rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if least != worker:
            if not package:
                others.append(target)
        elif package:
            py_compile.compile(str(path), cfile=str(target), doraise=True)  # for the subprocesses
        else:
            source_hash, code = rewrite._rewrite_test(path, config)
            if rewrite.try_makedirs(target.parent):
                rewrite._write_pyc(state, code, source_hash, target)
    _share_done(finished, worker)
    # the other shares take about as long: wait for them rather than rewrite them again, but not for a share
    # whose worker has finished without writing it (its step failed: pytest rewrites those modules itself)
    wait_for_shares(others, lambda: all((finished / f"gw{other}").exists() for other in range(workers)))


def _share_done(finished: Path, worker: int) -> None:
    """Leave the mark that this worker's share is done (compiled, or failed)."""
    with contextlib.suppress(OSError):
        finished.mkdir(parents=True, exist_ok=True)
        (finished / f"gw{worker}").touch()


def wait_for_shares(others: list[Path], all_finished: Callable[[], bool], longest: float = 60) -> list[Path]:
    """Wait until the other workers' rewritten modules exist, or every worker has finished its share (then the
    missing ones will never come), or ``longest`` seconds (a worker that hangs); the modules still missing."""
    import time

    deadline = time.monotonic() + longest
    while others and time.monotonic() < deadline:
        others = [pyc for pyc in others if not pyc.exists()]
        if others and all_finished():
            break
        if others:
            time.sleep(0.05)
    return others


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is None or not BYTECODE_CACHE:
        return  # one process (nothing to share), or no cache
    if session.config.getoption("assertmode") != "rewrite":
        return
    rewrite = private_pytest()
    if rewrite is None:
        return  # another pytest than the pinned one: no sharing, pytest rewrites each module itself
    worker = int(workerinput["workerid"].lstrip("gw"))
    finished = Path(BYTECODE_CACHE, ".shares", str(workerinput.get("testrunuid", "run")))
    try:
        _compile_my_share(session.config, rewrite, worker, int(workerinput["workercount"]), finished)
    except Exception:  # an optimisation only: pytest compiles whatever is not cached
        _share_done(finished, worker)  # the others need not wait for this share


def pytest_collection_finish(session: pytest.Session) -> None:
    if BYTECODE_CACHE and os.environ.get("PYTHONPYCACHEPREFIX") == BYTECODE_CACHE:
        _mirror_loaded_bytecode()


def _mirror_loaded_bytecode() -> None:
    """Link the installed bytecode of the modules this process loaded into the cache, for the subprocesses.

    Under ``PYTHONPYCACHEPREFIX`` Python looks for every module's bytecode in the prefix only,
    never in the ``__pycache__`` folders of the standard library and the installed packages:
    without these links each run would compile them again.  Linked: each installed module
    this process loaded, and the whole top folder of the standard library (a subprocess loads
    some this process has not); the package's own modules are compiled into the cache as usual.
    A link that turns out stale is replaced by its new bytecode (written beside it and renamed
    over it), never written through.  A few hundred links: a tenth of a second.
    """
    import sysconfig

    package = str(REPO / "movecheck")
    tail = f".{sys.implementation.cache_tag}.pyc"
    cached_files = set()
    stdlib_cache = os.path.join(sysconfig.get_paths()["stdlib"], "__pycache__")
    with contextlib.suppress(OSError):
        cached_files.update(os.path.join(stdlib_cache, n) for n in os.listdir(stdlib_cache) if n.endswith(tail))
    for module in list(sys.modules.values()):
        cached, source = getattr(module, "__cached__", None), getattr(module, "__file__", None)
        if cached and source and not source.startswith(package):
            cached_files.add(cached)
    folders: set[str] = set()
    for cached in cached_files:
        links = BYTECODE_CACHE + os.path.dirname(os.path.dirname(os.path.abspath(cached)))
        with contextlib.suppress(OSError):  # there already (another worker): fine; else the child compiles it
            if links not in folders:
                os.makedirs(links, exist_ok=True)
                folders.add(links)
            os.symlink(cached, os.path.join(links, os.path.basename(cached)))


def pytest_unconfigure(config: pytest.Config) -> None:
    if BYTECODE_CACHE and _OWN_BYTECODE_CACHE:  # the xdist workers (which read it) have ended by now
        import shutil

        shutil.rmtree(BYTECODE_CACHE, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow`` the tests ``tests/slow_tests.py`` lists (by node id, or by node id without parameters)."""
    from tests.slow_tests import SLOW

    for item in items:
        if item.nodeid in SLOW or item.nodeid.partition("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
