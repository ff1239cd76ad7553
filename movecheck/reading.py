"""Open input files safely: regular-file checks, bounded reads, standard input.

Every read is bounded by :data:`MAX_BYTES` (one byte more, so that the loader can
tell a file over the limit); every file is read only when it is a regular file
(:func:`read_regular`), whoever named it: standard input is read only as ``-``.  A
file that cannot be read at all is an :class:`InputError` (exit 2).
"""

from __future__ import annotations

import os
import stat
import sys

from movecheck.i18n import N_, _


def _limit(name: str, default: int) -> int:
    """A loader limit, raised by the environment variable ``name`` (a positive whole number
    of ASCII digits, at most 18 of them; anything else -- ``1e6``, ``²``, ``0`` -- keeps the default)."""
    raw = os.environ.get(name, "").strip()
    ok = raw.isascii() and raw.isdigit() and len(raw) <= 18
    return int(raw) if ok and int(raw) > 0 else default


MAX_BYTES = _limit("MOVECHECK_MAX_BYTES", 64 * 1024 * 1024)


class InputError(Exception):
    """The tool cannot read an input at all (exit 2, one line on stderr)."""


def read_bytes(path: str, stdin: bool = False) -> bytes:
    """Bytes of a file named on the command line, or of stdin; InputError for anything that is not a readable file.

    A FIFO, a device or a socket (``/dev/stdin``, ``<(...)``, a symlink to one) is refused
    before it is opened, as :func:`read_regular` refuses it: it could block forever or read
    someone else's input.  ``-`` (``stdin``) is the one stream movecheck reads.
    """
    if stdin:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # file descriptor 0 was not open when movecheck started (<&-)
            raise InputError("-: " + _("standard input is closed"))
        try:
            data: bytes = stream.read(MAX_BYTES + 1)
            return data
        except (OSError, ValueError) as exc:  # a folder as stdin, a descriptor closed under us
            why = getattr(exc, "strerror", None) or exc
            raise InputError("-: " + _("cannot read standard input ({why})").format(why=why)) from None
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        mode = None  # read_regular says why
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError(f"{path}: " + _("is a directory, not a file"))
    if mode is not None and not stat.S_ISREG(mode):
        raise InputError(f"{_not_regular(path, mode)}; " + _("give - to read standard input"))
    return read_regular(path)


_NOT_REGULAR = (
    (stat.S_ISDIR, N_("is a directory, not a regular file")),
    (stat.S_ISFIFO, N_("is a FIFO (named pipe), not a regular file")),
    (stat.S_ISCHR, N_("is a character device, not a regular file")),
    (stat.S_ISBLK, N_("is a block device, not a regular file")),
    (stat.S_ISSOCK, N_("is a socket, not a regular file")),
)


def _what(mode: int) -> str:
    """What a file that is not a regular one is (untranslated)."""
    return next((name for test, name in _NOT_REGULAR if test(mode)), N_("not a regular file"))


def _not_regular(path: str, mode: int) -> InputError:
    return InputError(f"{path}: {_(_what(mode))}")


def read_regular(path: str) -> bytes:
    """Bytes of a regular file, at most ``MAX_BYTES + 1`` of them; InputError for anything else.

    A FIFO, a terminal, ``/dev/stdin`` or a socket (or a symlink to one) could block
    forever or read someone else's input, so it is refused before it is opened; the file
    is opened without blocking and without becoming a controlling terminal, and checked
    again once open (it may have been swapped).
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{path}: " + _("no such file")) from None
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise InputError(f"{path}: " + _("cannot read ({why})").format(why=why)) from None
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(path, info.st_mode)
    flags = os.O_RDONLY
    for name in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"{path}: " + _("cannot read ({why})").format(why=exc.strerror or exc)) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
        try:
            return handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(f"{path}: " + _("cannot read ({why})").format(why=exc.strerror or exc)) from None



def refused_output(path: str) -> str | None:
    """Why ``-o path`` cannot be written: a folder, a FIFO, a device or a socket there, or a
    link to one; None when it can (a regular file, a link to one, a dangling link, nothing).

    Decided with ``stat`` calls only: nothing at ``path`` is opened.
    """
    try:
        mode = os.stat(path).st_mode  # through a link: what it leads to
    except (OSError, ValueError):
        return None  # nothing there, or a dangling link: the rename puts the file there
    if stat.S_ISDIR(mode):
        return _("is a directory")
    return None if stat.S_ISREG(mode) else _(_what(mode))
