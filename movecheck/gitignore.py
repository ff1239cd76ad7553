"""``.gitignore`` files, read as git reads them: which files below a folder git ignores.

``movecheck check`` and ``lint`` leave out, below a folder given, the files git ignores
(as ruff does; ``--no-respect-gitignore`` reads them all).  The patterns are those of
gitignore(5):

* a blank line or one starting with ``#`` is no pattern; ``\\#`` and ``\\!`` start one with a
  literal ``#`` or ``!``; trailing spaces are dropped unless escaped (``\\ ``);
* ``!`` negates: a file an earlier pattern ignored is read again, unless a folder it lies in
  is ignored (git does not look inside an ignored folder);
* a trailing ``/`` matches folders only;
* a ``/`` at the start or in the middle anchors the pattern to the folder of its
  ``.gitignore``; without one it matches a name at any depth;
* ``*`` and ``?`` match within a path component, ``[...]`` a character class (``[!...]``
  negated); ``**/`` at the start matches in every folder, ``/**`` at the end everything
  inside, ``/**/`` zero or more folders; ``\\`` escapes the next character.

The files read are ``.git/info/exclude`` and every ``.gitignore`` from the repository root
down to the file's folder, each deeper file overriding the ones above it (the last pattern
that matches decides).  A file outside any git repository is never ignored, as git
ignores nothing there; a nested repository has its own files.  The global excludes file
(``core.excludesFile``) is not read: a check is the same on every machine.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

GITIGNORE = ".gitignore"


@dataclass(frozen=True)
class Rule:
    """One pattern of a ``.gitignore``: its regular expression over paths relative to ``base``."""

    regex: re.Pattern[str]
    negated: bool
    directory_only: bool
    base: str
    """The folder of the ``.gitignore`` (the repository root for ``.git/info/exclude``)."""


def _strip_trailing_spaces(line: str) -> str:
    """The line without its trailing spaces, an escaped one (``\\ ``) kept."""
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    return stripped


def _class(pattern: str, start: int) -> tuple[str, int] | None:
    """The character class ``[...]`` at ``start`` as a regular expression, and the index after it."""
    i = start + 1
    negate = i < len(pattern) and pattern[i] in "!^"
    if negate:
        i += 1
    body = ""
    first = True
    while i < len(pattern) and (pattern[i] != "]" or first):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            i += 1
            char = pattern[i]
        body += "\\" + char if char in "\\^[]" else char
        first = False
        i += 1
    if i >= len(pattern):
        return None  # no closing bracket: a literal "["
    return f"[{'^' if negate else ''}{body}]", i + 1


def translate(pattern: str) -> str:
    """A gitignore pattern (without ``!`` and the trailing ``/``) as a regular expression over relative paths."""
    anchored = "/" in pattern
    pattern = pattern.removeprefix("/")
    out = [] if anchored else ["(?:.*/)?"]
    i = 0
    while i < len(pattern):
        at_start = i == 0 or pattern[i - 1] == "/"
        if at_start and pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif at_start and pattern.startswith("**", i) and i + 2 == len(pattern):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            while i < len(pattern) and pattern[i] == "*":
                i += 1
            out.append("[^/]*")
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (found := _class(pattern, i)) is not None:
            out.append(found[0])
            i = found[1]
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def parse_line(line: str, base: str) -> Rule | None:
    """The rule of one line of a ``.gitignore`` in folder ``base``; None for a blank line or a comment."""
    line = _strip_trailing_spaces(line.rstrip("\r\n"))
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated or line.startswith(("\\!", "\\#")):
        line = line[1:]
    directory_only = line.endswith("/") and not line.endswith("\\/")
    line = line.rstrip("/") if directory_only else line
    if not line:
        return None
    try:
        regex = re.compile(translate(line), flags=re.S)
    except re.error:  # a pattern git would read some other way: ignored rather than misread
        return None
    return Rule(regex, negated, directory_only, base)


def read_rules(path: str, base: str) -> list[Rule]:
    """The rules of a ``.gitignore`` (or ``info/exclude``) file; none when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    return [rule for rule in (parse_line(line, base) for line in lines) if rule is not None]


class GitIgnored:
    """Which paths git ignores; the rules of each folder read once."""

    def __init__(self) -> None:
        self._roots: dict[str, str | None] = {}
        self._rules: dict[str, list[Rule]] = {}
        self._verdicts: dict[tuple[str, bool], bool] = {}

    def _root(self, folder: str) -> str | None:
        """The repository root of ``folder``: the nearest folder at or above it holding ``.git``."""
        if folder not in self._roots:
            if os.path.lexists(os.path.join(folder, ".git")):
                self._roots[folder] = folder
            else:
                parent = os.path.dirname(folder)
                self._roots[folder] = None if parent == folder else self._root(parent)
        return self._roots[folder]

    def _rules_of(self, folder: str, root: str) -> list[Rule]:
        """The rules that apply in ``folder``, the deciding ones last."""
        if folder not in self._rules:
            if folder == root:
                above = read_rules(os.path.join(root, ".git", "info", "exclude"), root)
            else:
                above = self._rules_of(os.path.dirname(folder), root)
            self._rules[folder] = above + read_rules(os.path.join(folder, GITIGNORE), folder)
        return self._rules[folder]

    def ignored(self, path: str, is_dir: bool = False) -> bool:
        """Does git ignore ``path`` (a file, or a folder with ``is_dir``), or a folder it lies in?"""
        path = os.path.abspath(path)
        folder = os.path.dirname(path)
        root = self._root(folder)
        if root is None:
            return False
        if folder != root and folder.startswith(root + os.sep) and self.ignored(folder, is_dir=True):
            return True
        return self.matched(path, is_dir)

    def ignored_below(self, path: str, given: str) -> bool:
        """Does git ignore the file ``path``, or a folder it lies in below the folder ``given``?

        The folder given and those above it are not asked: a folder named on the command
        line is read even when git ignores it.
        """
        path, given = os.path.abspath(path), os.path.abspath(given)
        folders = []
        folder = os.path.dirname(path)
        while folder != given and folder.startswith(given + os.sep):
            folders.append(folder)
            folder = os.path.dirname(folder)
        return any(self.matched(f, is_dir=True) for f in reversed(folders)) or self.matched(path, is_dir=False)

    def matched(self, path: str, is_dir: bool) -> bool:
        """Does the last pattern that matches ``path`` itself ignore it (the folders it lies in not asked)?"""
        key = (path, is_dir)
        if key not in self._verdicts:
            folder = os.path.dirname(path)
            root = self._root(folder)
            if root is None or path == root or os.path.basename(path) == ".git":
                self._verdicts[key] = False
            else:
                self._verdicts[key] = self._last_match(path, is_dir, self._rules_of(folder, root))
        return self._verdicts[key]

    @staticmethod
    def _last_match(path: str, is_dir: bool, rules: list[Rule]) -> bool:
        verdict = False
        for rule in rules:
            if rule.directory_only and not is_dir:
                continue
            if rule.regex.fullmatch(os.path.relpath(path, rule.base).replace(os.sep, "/")):
                verdict = not rule.negated
        return verdict
