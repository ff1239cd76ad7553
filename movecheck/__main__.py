"""The ``movecheck`` command and ``python -m movecheck``: the Typer command line, started cheaply.

What a run costs is mostly start-up and teardown, so this entry point

* answers ``movecheck --version`` (``-V``) and ``movecheck --help`` (``-h``) without importing Typer
  (the help is Typer's own text at the usual width, kept in :mod:`movecheck.help_text`
  by ``scripts/gen_help.py``; a narrower terminal gets Typer itself);
* runs everything else through :func:`movecheck.cli.main`, with the garbage collector's
  youngest generation collected every 50,000 allocations rather than 700 (imports and
  reading a file allocate many objects and free few; a tenth of a run went to
  collections that found next to nothing);
* then flushes standard output and error and leaves with ``os._exit``: the exit code
  is the same, but the interpreter does not spend its time tearing down the modules
  a check loaded.  Only this entry point does so; :func:`movecheck.cli.main`
  returns its code to the caller (the tests, a program importing it).
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def _columns() -> int:
    """The terminal width click would format help for (``shutil.get_terminal_size``, without importing shutil)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def quick(args: list[str]) -> str | None:
    """The output of a command answered without the command line, or None."""
    if args in (["--version"], ["-V"]):
        from movecheck import __version__

        return f"movecheck {__version__}\n"
    if args in (["--help"], ["-h"]) and _columns() >= 80:  # click formats help at min(columns, 80) - 2
        from movecheck.help_text import MAIN_HELP

        return MAIN_HELP
    return None


def _leave(code: int) -> NoReturn:
    """Flush what is written and end the process now, skipping the interpreter's teardown."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            from movecheck.output import silence

            silence(stream)
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(code)


def run() -> NoReturn:
    """The console script ``movecheck``."""
    import gc

    gc.set_threshold(50_000, 20, 100)
    from movecheck.output import ensure_streams

    ensure_streams()  # before anything is written: a closed stdout (>&-) is the null device
    args = sys.argv[1:]
    text = quick(args)
    if text is not None:
        from movecheck.output import emit

        emit(sys.stdout, text)
        _leave(0)
    from movecheck.report_commands import run_plain

    code = run_plain(args)  # check or lint given only files: no Typer
    if code is None:
        from movecheck.cli import main

        code = main(args)
    _leave(code)


if __name__ == "__main__":
    run()
