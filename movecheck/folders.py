"""Folders on the command line of ``check`` and ``lint``: the movecheck files below them.

``movecheck check orders/`` and ``movecheck lint .`` read every movecheck file below the
folder, in sorted path order.  The walk is that of ``check --with-dependents``
(:func:`movecheck.dependents.candidates`): regular ``*.yaml``, ``*.yml`` and ``*.json``
files, hidden files and folders (``.git``, ``.movecheck.yaml``) and symbolic links
skipped.  A file is a movecheck file when it has a top-level ``movecheck:`` or
``system:`` key (:func:`movecheck.files.looks_like_movecheck`, as ``lint
--skip-foreign`` tells); other YAML and JSON is left alone.  ``check`` takes the orders
among them (every kind a system checks against a state): the states and maps are for
``lint``, or for ``check --with-dependents``, which takes them all.

A file that cannot be read, or is a movecheck file that does not parse, is kept: the
run reports it, so nothing below the folder that means to be a movecheck file is
silently passed over.

``--exclude GLOB`` (repeatable) and the configuration's ``exclude:`` leave out the
files and folders found below a folder that match: a glob without ``/`` matches a file
or folder name anywhere below (``drafts``, ``*.draft.yaml``); one with ``/`` matches the
path relative to the folder given (``--exclude``) or to the configuration file's folder
(``exclude:``), as ``per-file-ignores`` globs do.  A file named on the command line is
read whatever the globs say.

Files and folders git ignores (``.gitignore``, ``.git/info/exclude``: :mod:`movecheck.gitignore`)
are left out too, as ruff does; ``respect_gitignore=False`` (``--no-respect-gitignore``) reads
them.  A folder given is read even when git ignores it: only what lies below it is asked.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from movecheck.reading import InputError, read_regular
from movecheck.selection import glob_matches, relative_to

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.config import ConfigFinder
    from movecheck.gitignore import GitIgnored

ORDERS_ONLY, EVERY_FILE = "orders", "any"
"""What a folder gives: the orders files below it (``check``), or every movecheck file (``lint``)."""


@dataclass
class Expanded:
    """The command line's inputs with each folder replaced by the files found below it."""

    paths: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    """The folders given that hold no file to read (said on stderr; the run goes on)."""


def expand(
    paths: Sequence[str],
    finder: ConfigFinder,
    exclude: Iterable[str] = (),
    keep: str = EVERY_FILE,
    respect_gitignore: bool = True,
) -> Expanded:
    """``paths`` with every folder among them replaced by its movecheck files (see the module).

    ``finder`` is the run's :class:`~movecheck.config.ConfigFinder`: the configuration of a
    folder given supplies its ``exclude:`` globs.
    """
    from movecheck.gitignore import GitIgnored

    result = Expanded()
    flags = tuple(exclude)
    ignored = GitIgnored() if respect_gitignore else None
    for path in paths:
        if path == "-" or "\0" in path or not os.path.isdir(path):
            result.paths.append(path)
            continue
        found = _below(path, flags, _configured(finder, path), keep, ignored)
        if not found:
            result.empty.append(path)
        result.paths.extend(found)
    return result


def _configured(finder: ConfigFinder, folder: str) -> tuple[tuple[str, ...], str]:
    """The ``exclude:`` globs of the configuration that applies to ``folder``, and that file's folder."""
    config = finder.for_folder(folder)
    if config is None:
        return (), ""
    return config.exclude, config.folder


def _below(
    folder: str,
    flags: tuple[str, ...],
    configured: tuple[tuple[str, ...], str],
    keep: str,
    ignored: GitIgnored | None = None,
) -> list[str]:
    """The files to read below ``folder``, sorted by path."""
    from movecheck.dependents import candidates

    globs, base = configured
    found = []
    given = os.path.abspath(folder)
    for path in candidates(folder):
        shown = os.path.normpath(path)
        if ignored is not None and ignored.ignored_below(path, given):
            continue
        if _excluded(relative_to(path, os.path.abspath(folder)), flags):
            continue
        if globs and _excluded(relative_to(path, base) or relative_to(path, os.path.abspath(folder)), globs):
            continue
        if _wanted(shown, keep):
            found.append(shown)
    return sorted(found)


def _excluded(rel: str | None, globs: tuple[str, ...]) -> bool:
    """Does a glob match the file at ``rel`` (``a/b/c.yaml``) or one of the folders it lies in?"""
    if rel is None or not globs:
        return False
    parts = rel.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(glob_matches(glob.rstrip("/") or glob, prefix) for glob in globs for prefix in prefixes)


def _wanted(path: str, keep: str) -> bool:
    """Is ``path`` a movecheck file (of the orders kinds, for ``check``), or one that cannot be told?"""
    from movecheck.files import identify, is_kind, looks_like_movecheck
    from movecheck.loading import load_bytes
    from movecheck.systems import ORDERS

    try:
        raw = read_regular(path)
    except InputError:
        return True  # the run says why it cannot be read
    if not looks_like_movecheck(raw.decode("utf-8", errors="replace").lstrip("\ufeff")):
        return False
    if keep != ORDERS_ONLY:
        return True
    doc = load_bytes(raw, path)
    if doc.broken:
        return True
    kind = identify(doc)
    return kind is None or is_kind(kind, ORDERS)
