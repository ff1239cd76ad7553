"""Writing to standard output when the reader may go away (``movecheck check ... | head -1``).

A closed pipe is the reader's choice, not a failure of movecheck: the rest of the
output is dropped without a traceback, and the exit code stays the one the
findings give.  Light on purpose (the command line imports it).
"""

from __future__ import annotations

import os
from typing import Any


def emit(stream: Any, text: str) -> None:
    """Write and flush ``text``; when the reader has gone, drop the rest quietly."""
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        silence(stream)


def silence(stream: Any) -> None:
    """Point ``stream``'s file descriptor at the null device, so that what is still
    buffered (flushed when the interpreter exits) cannot raise BrokenPipeError again."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)



def say(line: str) -> None:
    """One line on stderr, with any control character of the input (a file name) made visible."""
    import sys

    from movecheck.render.escape import escape

    try:
        sys.stderr.write(escape(line) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it: nothing to do
        pass


def deliver(path: str | None, text: str) -> None:
    """Write ``text`` to standard output (``path`` None or ``-``) or to the file ``path``.

    A file that cannot be written is an :class:`~movecheck.reading.InputError` (exit 2).
    """
    import sys

    if path is None or path == "-":
        emit(sys.stdout, text)
        return
    from movecheck.reading import InputError

    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except (OSError, ValueError) as exc:
        from movecheck.i18n import _

        raise InputError(f"--output {path}: " + _("cannot write ({why})").format(why=getattr(exc, "strerror", None) or exc)) from None
