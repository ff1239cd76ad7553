"""Writing to standard output when the reader may go away (``movecheck check ... | head -1``).

A closed pipe is the reader's choice, not a failure of movecheck: the rest of the
output is dropped without a traceback, and the exit code stays the one the
findings give.  Light on purpose (the command line imports it).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
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



def ensure_streams() -> None:
    """Give a standard stream that was closed when movecheck started (``>&-``, ``2>&-``,
    ``<&-``) the null device, as the runtimes of compiled tools such as ruff do.

    What is written to a closed stdout or stderr is dropped, and the run ends with the exit
    code its findings give.  The descriptor itself is taken too, so that no file movecheck
    opens can become descriptor 1 or 2 (and be written to by a worker process, say).  A
    closed stdin stays closed for ``-`` (``sys.stdin`` stays None: "standard input is closed").
    """

    for fd, name, flags in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:  # closed: put the null device there
            try:
                null = os.open(os.devnull, flags)
            except OSError:  # pragma: no cover - no null device
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if fd:
            # the new stream lives as long as the process (it replaces a missing sys.stdout/stderr): no context manager
            stream = open(fd, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
            setattr(sys, name, stream)


def say(line: str) -> None:
    """One line on stderr, with any control character of the input (a file name) made visible."""

    from movecheck.render.escape import escape

    try:
        sys.stderr.write(escape(line) + "\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no stderr, or nobody reads it: nothing to do
        pass


def deliver(path: str | None, text: str) -> None:
    """Write ``text`` to standard output (``path`` None or ``-``) or to the file ``path``.

    The file is written whole or not at all, and never through anything but itself: the
    text goes to a new temporary file in the same folder, which is then renamed over
    ``path`` (:func:`write_atomically`).  A file that cannot be written is an
    :class:`~movecheck.reading.InputError` (exit 2).
    """

    if path is None or path == "-":
        emit(sys.stdout, text)
        return
    from movecheck.reading import InputError

    try:
        write_atomically(path, text.encode("utf-8"))
    except (OSError, ValueError) as exc:
        from movecheck.i18n import _

        why = getattr(exc, "strerror", None) or exc
        raise InputError(f"--output {path}: " + _("cannot write ({why})").format(why=why)) from None


def write_atomically(path: str, data: bytes) -> None:
    """Put ``data`` at ``path`` by renaming a temporary file of the same folder over it.

    Nothing is opened at ``path`` itself: a symbolic link there is replaced, never
    followed (the file it points to is untouched), and a FIFO or a device can neither
    block the write nor receive it -- one (or a link to one) is refused with an
    :class:`~movecheck.reading.InputError`, as a folder is.  A file replaced keeps its
    permission bits; a new one gets those the umask gives.  If anything fails, the
    temporary file is removed and ``path`` is as it was.
    """

    from movecheck.reading import InputError, refused_output

    problem = linked_folder(path) or refused_output(path)
    if problem is not None:
        raise InputError(f"--output {path}: {problem}")
    folder = os.path.dirname(path) or "."
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        before = None
    temporary, fd = _temporary_beside(folder, os.path.basename(path))
    try:
        with os.fdopen(fd, "wb") as handle:
            if before is not None and stat.S_ISREG(before.st_mode):
                os.chmod(handle.fileno(), stat.S_IMODE(before.st_mode))
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def linked_folder(path: str) -> str | None:
    """Why ``-o path`` is refused when a folder on its way is a symbolic link, else None.

    The folders checked are those ``path`` names inside the current folder (``next`` of
    ``next/g1.yaml``, ``a`` and ``a/b`` of ``a/b/c.yaml``, and those of an absolute path
    that lie under the current folder): in a received tree, a link there could lead the
    file anywhere.  Folders above the current one (``../``, ``/tmp``) are the referee's own
    and are not checked.  Decided with ``lstat`` calls only.
    """
    from movecheck.i18n import _

    here = os.path.abspath(os.curdir)
    parts = os.path.dirname(path).split(os.sep)
    for end in range(1, len(parts) + 1):
        folder = os.sep.join(parts[:end])
        if not folder or folder in (os.curdir, os.pardir) or parts[end - 1] in ("", os.curdir, os.pardir):
            continue
        where = os.path.abspath(folder)
        if where == here or os.path.commonpath([here, where]) != here:
            continue
        if os.path.islink(folder):
            return _("the folder {folder} is a symbolic link: only real folders are written into").format(
                folder=folder)
    return None


def _temporary_beside(folder: str, name: str) -> tuple[str, int]:
    """A new file ``.NAME.RANDOM.tmp`` in ``folder``, created exclusively (never through a link), and its descriptor."""
    import secrets

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    for extra in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"):
        flags |= getattr(os, extra, 0)
    for _attempt in range(100):
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            return temporary, os.open(temporary, flags, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(temporary)
