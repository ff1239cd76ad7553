"""The click command of each in-process ``movecheck`` run, built once per test process (issue 24: the run's time).

``movecheck.cli.main`` asks :func:`typer.main.get_command` for the click command of the run,
and typer builds it afresh on every call: it reads the signature of each command function and
evaluates its annotations (about 5 ms for one command, 50 ms for the whole app).  A process
that runs the command line once pays that once; the test run calls ``main`` in-process
thousands of times.  :func:`install` makes ``typer.main.get_command`` remember the command it
built for an app and hand every later call for the same app a deep copy of it, never the
remembered object itself: a run (a test) that changes the command it was given changes its own
copy only, and the next run gets the command as typer built it.

"The same app" is decided on every call (:func:`fingerprint`): the same objects in every field
of the Typer and of each record of a command, a group or a callback it holds (the Typer, its
records, lists, tuples and dicts compared by what they hold, anything else by identity; every object compared is kept
alive with the remembered command, so an identity is never another object's), and the same
value of the one environment variable typer reads while building
(``_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION``).  An app whose commands were added to, or
whose record was changed or replaced, is built again.  A Typer the fingerprint cannot walk (a
field of a kind it does not know) is built every time, as without this module.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

SHELL_DETECTION = "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"
"""The environment variable typer reads while building a command (its completion options)."""

_BUILT: dict[tuple[Any, ...], tuple[list[Any], Any]] = {}
"""A fingerprint -> (the objects it names, kept alive; the command typer built)."""

_REAL: list[Callable[[Any], Any]] = []


class Unknown(Exception):
    """A field of a kind :func:`fingerprint` does not walk: the app is built as usual."""


def fingerprint(typer_instance: Any) -> tuple[tuple[Any, ...], list[Any]]:
    """The fingerprint of a Typer (see the module's docstring) and the objects whose identity it names."""
    kept: list[Any] = []
    return ("typer", _fields(typer_instance, kept, 0), os.environ.get(SHELL_DETECTION)), kept


def _fields(record: Any, kept: list[Any], depth: int) -> tuple[Any, ...]:
    """A Typer's, or a record's, fields: each name and the fingerprint of its value."""
    if depth > 20:
        raise Unknown("nested too deeply")
    return (type(record), tuple((name, _value(value, kept, depth)) for name, value in vars(record).items()))


def _value(value: Any, kept: list[Any], depth: int) -> Any:
    import typer
    from typer.models import CommandInfo, TyperInfo

    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_value(item, kept, depth + 1) for item in value))
    if isinstance(value, dict):
        return (dict, tuple((_value(k, kept, depth + 1), _value(v, kept, depth + 1)) for k, v in value.items()))
    if isinstance(value, (typer.Typer, CommandInfo, TyperInfo)):
        return _fields(value, kept, depth + 1)
    kept.append(value)
    return ("id", id(value))


def get_command(typer_instance: Any) -> Any:
    """:func:`typer.main.get_command`, built once per app: a deep copy of what typer built for it."""
    build = _REAL[0]
    try:
        before, _kept = fingerprint(typer_instance)
    except Unknown:
        return build(typer_instance)
    built = _BUILT.get(before)
    if built is None:
        command = build(typer_instance)
        # typer may complete the records it builds from (a single command takes the app's context settings):
        # the next call for this app finds them so
        after, kept = fingerprint(typer_instance)
        built = _BUILT[after] = (kept, command)
    return copy.deepcopy(built[1])


def install() -> None:
    """Make ``typer.main.get_command`` (what ``movecheck.cli.main`` calls) build each app once in this process."""
    import typer.main

    if _REAL:
        return
    _REAL.append(typer.main.get_command)
    typer.main.get_command = get_command


def forget() -> None:
    """Forget every command built (the guard tests start from nothing)."""
    _BUILT.clear()
