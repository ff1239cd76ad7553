"""Work several tests repeat on the same inputs, done once per test module (issue 24: the test run's time).

:func:`check_once` makes :func:`movecheck.core.check` (what ``movecheck check`` runs) remember
the report of each run, with everything the run read: the contents of every file it opened (the
orders, the states and maps they name, configuration files, built-in data), what it found or did
not find where it looked (a configuration file that was not there, a repository's ``.git``), and,
as the run's question, the files named, every setting of the command line (``--config``'s file
as read, ``--option``, ``--root`` ...), the language, the folder and the ``MOVECHECK_*``
variables (the budgets).  A later run is handed a copy of a remembered report only when it asks
the same question and every file read then still holds the same bytes and every place looked at
is as it was (issue 35: a ``--config`` run, or a run after a state was rewritten in place, was
handed the report of an earlier run).  It selects, renders and prints the copy itself, so the
command line, the writer and the output of every run are still its own.
:func:`summarize_once` does the same for the post of ``movecheck summary``.  Only runs that hand
the check nothing to fill in (``apply``'s outcomes, ``lint``'s shown files) are remembered.

What is remembered lives as long as the test module that remembered it: the first run of a
module's tests forgets what another module's tests remembered.
"""

from __future__ import annotations

import builtins
import copy
import hashlib
import io
import os
import stat
from collections.abc import Callable
from typing import Any

import pytest

Reads = dict[str, tuple[Any, ...]]
"""What a run read: each path (absolute) and what was there (a file's digest, or the kind of thing)."""

_REPORTS: dict[tuple[Any, ...], list[tuple[Reads, Any]]] = {}
_POSTS: dict[tuple[Any, ...], list[tuple[Reads, Any]]] = {}
_SCOPE: list[str] = [""]

_REAL_OPEN = builtins.open
_REAL_OS_OPEN = os.open
_REAL_STAT = os.stat
_REAL_LSTAT = os.lstat
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _module() -> str:
    """The test module running now (``tests/test_x.py``), from pytest's ``PYTEST_CURRENT_TEST``."""
    return os.environ.get("PYTEST_CURRENT_TEST", "").split("::", 1)[0]


def _scoped() -> None:
    """Forget what another test module remembered."""
    module = _module()
    if _SCOPE[0] != module:
        _REPORTS.clear()
        _POSTS.clear()
        _SCOPE[0] = module


def _key(paths: Any, settings: Any, *more: Any) -> tuple[Any, ...]:
    """The run's question: the files named, every setting, the language, the folder and the budgets."""
    from movecheck import i18n

    finder = settings.config
    # --config's file as read, and each configuration the command line already found for a file (read
    # before the check: a .movecheck.yaml written since is in it)
    config = None if finder is None else (finder.explicit, finder.command_line, finder.isolated,
                                          sorted(getattr(finder, "_files", {}).items()),
                                          sorted(getattr(finder, "_folders", {}).items()))
    asked = (settings.state, settings.stdin_filename, settings.suggest, settings.options, settings.root,
             settings.root_explicit, settings.skip_foreign, settings.extra, config, *more)
    limits = sorted((name, value) for name, value in os.environ.items() if name.startswith("MOVECHECK_"))
    return (*paths, i18n.language(), os.getcwd(), repr(asked), repr(limits))


def _what_is_at(path: str, opened: bool) -> tuple[Any, ...]:
    """What is at ``path`` now: a file read, its digest; else its kind (nothing, a folder, a file)."""
    try:
        found = _REAL_STAT(path)
    except (OSError, ValueError):
        return ("nothing",)
    if stat.S_ISDIR(found.st_mode):
        return ("folder",)
    if not stat.S_ISREG(found.st_mode):
        return ("other", stat.S_IFMT(found.st_mode))
    if not opened:
        return ("file",)
    try:
        with _REAL_OPEN(path, "rb") as handle:
            return ("bytes", hashlib.sha256(handle.read()).hexdigest())
    except OSError:
        return ("unreadable",)


def _path_of(target: Any) -> str | None:
    if isinstance(target, int):
        return None  # a descriptor: what it reads was opened by name first
    try:
        name = os.fspath(target)
    except TypeError:
        return None
    return os.path.abspath(os.fsdecode(name))


def _recorded(run: Callable[[], Any]) -> tuple[Any, Reads]:
    """``run()`` and what it read: every file it opened for reading and every path it looked at."""
    opened: set[str] = set()
    looked: set[str] = set()

    def note(target: Any, into: set[str]) -> None:
        path = _path_of(target)
        if path is not None:
            into.add(path)

    def python_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if not set(mode) & set("wax+"):
            note(file, opened)
        return _REAL_OPEN(file, mode, *args, **kwargs)

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if not flags & _WRITING:
            note(path, opened)
        return _REAL_OS_OPEN(path, flags, *args, **kwargs)

    def os_stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        note(path, looked)
        return _REAL_STAT(path, *args, **kwargs)

    def os_lstat(path: Any, *args: Any, **kwargs: Any) -> Any:
        note(path, looked)
        return _REAL_LSTAT(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(builtins, "open", python_open)
        patch.setattr(io, "open", python_open)
        patch.setattr(os, "open", os_open)
        patch.setattr(os, "stat", os_stat)
        patch.setattr(os, "lstat", os_lstat)
        result = run()
    reads = {path: _what_is_at(path, True) for path in sorted(opened)}
    reads.update({path: _what_is_at(path, False) for path in sorted(looked - opened)})
    return result, reads


def _unchanged(reads: Reads) -> bool:
    """Every file the run read still holds the same bytes, and every place it looked at is as it was."""
    return all(_what_is_at(path, seen[0] in ("bytes", "unreadable")) == seen for path, seen in reads.items())


def _once(memory: dict[tuple[Any, ...], list[tuple[Reads, Any]]], key: tuple[Any, ...],
          run: Callable[[], Any]) -> Any:
    """The remembered result of the run ``key`` asks when nothing it read has changed, else a new run's."""
    _scoped()
    for reads, result in memory.get(key, ()):
        if _unchanged(reads):
            return result
    result, reads = _recorded(run)
    memory.setdefault(key, []).append((reads, result))
    return result


def check_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on in this test, ``movecheck.core.check`` of a run already made, on files as they were
    then, is a copy of that report."""
    import movecheck.core as core

    real = core.check

    def check(paths: Any, settings: Any, outcomes: Any = None, shown: Any = None, several: bool = False) -> Any:
        if outcomes is not None or shown is not None or "-" in paths:
            return real(paths, settings, outcomes, shown, several)
        key = _key(paths, settings, several)
        return copy.deepcopy(_once(_REPORTS, key, lambda: real(paths, settings, outcomes, shown, several)))

    monkeypatch.setattr(core, "check", check)


def summarize_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on in this test, the post of files ``movecheck summary`` already told (as they were then) is
    a copy of that post (the post does not depend on ``--format``: only the writer does)."""
    import movecheck.summary.run as run

    real = run.summarize

    def summarize(paths: Any, settings: Any, select: Any = None, extras: frozenset[str] = frozenset()) -> Any:
        if "-" in paths or extras:  # a post with extras (summary --luck) is told afresh
            return real(paths, settings, select, extras)
        key = _key(paths, settings)  # select is the session's: its --select, --ignore, configuration are in the key
        post, code = _once(_POSTS, key, lambda: real(paths, settings, select))
        return copy.deepcopy(post), code

    monkeypatch.setattr(run, "summarize", summarize)
