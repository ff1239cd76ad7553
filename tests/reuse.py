"""Work several tests repeat on the same inputs, done once per worker (issue 24: the test run's time).

:func:`check_once` makes :func:`movecheck.core.check` (what ``movecheck check`` runs) remember
the report of each set of files, by the files' sizes and times, the language, the folder, what the
command line asked and the ``MOVECHECK_*`` variables (the budgets); a later run on the same files
gets a copy of that report, and selects, renders and prints it itself, so the command line, the
writer and the output of every run are still its own.
:func:`summarize_once` does the same for the post of ``movecheck summary``.  Only runs that hand
the check nothing to fill in (``apply``'s outcomes, ``lint``'s shown files) are remembered.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest

_REPORTS: dict[tuple[Any, ...], Any] = {}
_POSTS: dict[tuple[Any, ...], Any] = {}


def _key(paths: Any, settings: Any, *more: Any) -> tuple[Any, ...]:
    from movecheck import i18n

    asked = (settings.state, settings.stdin_filename, settings.suggest, settings.options, settings.root,
             settings.root_explicit, settings.skip_foreign, settings.extra, *more)
    limits = sorted((name, value) for name, value in os.environ.items() if name.startswith("MOVECHECK_"))
    return (*paths, *map(_stamp, paths), i18n.language(), os.getcwd(), repr(asked), repr(limits))


def _stamp(path: Any) -> tuple[int, int] | None:
    """A file's size and time of change: a file written again is checked again."""
    try:
        found = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return found.st_size, found.st_mtime_ns


def check_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on in this test, ``movecheck.core.check`` of files already checked is a copy of that report."""
    import movecheck.core as core

    real = core.check

    def check(paths: Any, settings: Any, outcomes: Any = None, shown: Any = None, several: bool = False) -> Any:
        if outcomes is not None or shown is not None or "-" in paths:
            return real(paths, settings, outcomes, shown, several)
        key = _key(paths, settings, several)
        if key not in _REPORTS:
            _REPORTS[key] = real(paths, settings, outcomes, shown, several)
        return copy.deepcopy(_REPORTS[key])

    monkeypatch.setattr(core, "check", check)


def summarize_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on in this test, the post of files ``movecheck summary`` already told is a copy of that post
    (the post does not depend on ``--format``: only the writer does)."""
    import movecheck.summary.run as run

    real = run.summarize

    def summarize(paths: Any, settings: Any, select: Any = None) -> Any:
        if "-" in paths:
            return real(paths, settings, select)
        key = _key(paths, settings)
        if key not in _POSTS:
            _POSTS[key] = real(paths, settings, select)
        post, code = _POSTS[key]
        return copy.deepcopy(post), code

    monkeypatch.setattr(run, "summarize", summarize)
