"""Which buffers the server checks, the folder each may read in, and the settings of its check.

The root rule is ``check``'s: ``state:`` and ``map:`` paths that resolve outside the root
(symlinks followed) are refused with a finding.  A buffer's root is the workspace folder
that holds it (the innermost, when folders nest); a buffer outside every workspace folder,
or a session without folders, gets the root ``check`` gives a file named outside its
root: its repository, else its own folder.  The configuration (``.movecheck.yaml``,
``pyproject.toml``) is found as ``check`` finds it, but never above the root.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import quote, unquote, urlparse

from movecheck.config import ConfigFinder, repository_root
from movecheck.config_files import Config
from movecheck.files import outside_root
from movecheck.settings import Settings

MAX_CHARS = 2 * 1024 * 1024
"""A buffer longer than this (characters) is not checked as it is typed: one finding says so."""

_MOVECHECK_KEY = re.compile(r"^(?:\{\s*)?[\"']?(?:movecheck|system)[\"']?\s*:", re.M)


def path_of(uri: str) -> str | None:
    """The local path of a ``file:`` URI (None for an unsaved buffer or another scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and re.match(r"^/[A-Za-z]:", path):  # pragma: no cover - Windows
        path = path[1:]
    return os.path.normpath(path)


def uri_of(path: str) -> str:
    """The ``file:`` URI of an absolute path."""
    return "file://" + quote(os.path.abspath(path).replace(os.sep, "/"), safe="/:")


def is_movecheck_text(text: str) -> bool:
    """Does the buffer mean to be a movecheck file (a top-level ``movecheck:`` or ``system:`` key)?

    Only such buffers are checked: an editor opens every YAML file with the server, and a
    workflow or a compose file is none of movecheck's business.
    """
    return _MOVECHECK_KEY.search(text[:MAX_CHARS]) is not None


class _RootedFinder(ConfigFinder):
    """The configuration finder of ``check``, that never looks above the root."""

    def __init__(self, root: str) -> None:
        super().__init__()
        self.root = root

    def _in_folder(self, folder: str) -> Config | None:
        if outside_root(folder, self.root):
            return None
        return super()._in_folder(folder)


class Roots:
    """The workspace folders of a session."""

    def __init__(self, folders: list[str] | None = None) -> None:
        self.folders = sorted({os.path.realpath(f) for f in folders or []}, key=len, reverse=True)

    def root_of(self, path: str) -> str:
        """The folder the buffer ``path`` may read in (see the module's description)."""
        for folder in self.folders:  # the innermost first
            if not outside_root(path, folder):
                return folder
        folder = os.path.dirname(os.path.realpath(path))
        return os.path.realpath(repository_root(folder) or folder)

    def settings(self, path: str, **extra: Any) -> Settings:
        """The core's settings for a check of ``path``: its root (the only root) and its configuration."""
        root = self.root_of(path)
        return Settings(root=root, root_explicit=True, config=_RootedFinder(root), **extra)

    def inside(self, path: str) -> bool:
        """May the server open ``path`` for a buffer of a workspace folder (go to definition)?"""
        return any(not outside_root(path, folder) for folder in self.folders) if self.folders else True
