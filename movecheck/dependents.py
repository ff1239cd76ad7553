"""``check --with-dependents``: the orders files that depend on the states or maps given.

A commit that changes a state (or a map) can make orders that name it illegal without
touching them.  Given such files, :func:`with_dependents` looks below the root of each
(the run's root, see :meth:`movecheck.settings.Settings.root_for`) for the orders files
whose ``state:`` resolves to one of them, and for the states whose map (a system's
``reference_keys``, aa ``map:``) does, and so, transitively, for their orders.  "Orders"
are every kind a system checks against a state (its ``orders_kinds``: aa battle results
too), asked of the systems through :func:`movecheck.files.is_kind`.  The orders found are
checked with the orders given; the states and maps given are not themselves checked
(``lint`` is for them).

The search reads only regular ``*.yaml``, ``*.yml`` and ``*.json`` files, skips hidden
folders (``.git`` among them) and symbolic links, reads each file within
``MOVECHECK_MAX_BYTES``, and looks at no more than :data:`MAX_FILES` files per root.
The orders found come in the order of their paths, so the run is deterministic.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from movecheck.i18n import _
from movecheck.loading import load_bytes
from movecheck.output import say
from movecheck.reading import InputError, read_regular

SUFFIXES = (".yaml", ".yml", ".json")
CHECKED, SOURCE, FOREIGN = "checked", "source", "foreign"
"""What becomes of a file given on the command line (see :func:`with_dependents`)."""
MAX_FILES = 100_000
"""Files looked at below one root before the search stops (with a note on stderr)."""


@dataclass
class Tree:
    """What the movecheck files below a root name: file -> the files it depends on (real paths)."""

    needs: dict[str, set[str]] = field(default_factory=dict)
    orders: set[str] = field(default_factory=set)
    shown: dict[str, str] = field(default_factory=dict)
    """Real path -> the path to report it by (relative to the current folder)."""


def with_dependents(paths: list[str], settings: Any, respect_gitignore: bool = True) -> list[str]:
    """The orders among ``paths``, then the orders below the root that depend on the states and maps among them.

    A file that cannot be read, or does not parse but means to be a movecheck file, stays
    in the list (``check`` reports it); a foreign file (no top-level ``movecheck:`` or
    ``system:`` key) is left out, as ``lint --skip-foreign`` leaves it out.  The orders git
    ignores are not brought in (``respect_gitignore``, :mod:`movecheck.gitignore`); those
    named are kept.
    """
    kept: list[str] = []
    changed: dict[str, list[str]] = {}
    for path in paths:
        role = _role(path)
        if role == CHECKED:
            kept.append(path)
        elif role == SOURCE:
            root = settings.root_for(path) or os.path.realpath(os.getcwd())
            changed.setdefault(root, []).append(os.path.realpath(path))
    given = {os.path.realpath(p) for p in kept if p != "-"}
    found: set[str] = set()
    shown: dict[str, str] = {}
    for root, files in changed.items():
        tree = scan(root, respect_gitignore)
        shown.update(tree.shown)
        found |= dependents(tree, set(files))
    return kept + [shown[p] for p in sorted(found - given, key=lambda p: shown[p])]


def dependents(tree: Tree, changed: set[str]) -> set[str]:
    """The orders files that depend, directly or through a state, on a file in ``changed``."""
    reached = set(changed)
    while True:
        more = {f for f, needs in tree.needs.items() if f not in reached and needs & reached}
        if not more:
            return {f for f in reached - changed if f in tree.orders}
        reached |= more


def scan(root: str, respect_gitignore: bool = False) -> Tree:
    """Read what every movecheck file below ``root`` names (``state:``, a map); with ``respect_gitignore``,
    the files git ignores are left out."""
    from movecheck.gitignore import GitIgnored

    tree = Tree()
    ignored = GitIgnored() if respect_gitignore else None
    found = (p for p in candidates(root) if ignored is None or not ignored.ignored_below(p, root))
    for count, path in enumerate(found):
        if count == MAX_FILES:
            say("movecheck: note: " + _("--with-dependents looked at the first {count} files below {root} only").format(
                count=MAX_FILES, root=root))
            break
        _add(tree, path)
    return tree


def candidates(root: str) -> Iterator[str]:
    """The regular YAML and JSON files below ``root``, in path order; hidden folders and links skipped."""
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(d for d in folders if not d.startswith(".") and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(SUFFIXES) and not name.startswith(".") and _is_regular(path):
                yield path


def _is_regular(path: str) -> bool:
    """A regular file itself, not a link to one."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _add(tree: Tree, path: str) -> None:
    """Record the files ``path`` names, if it is a movecheck orders file or state."""
    from movecheck.files import identify, is_kind
    from movecheck.systems import ORDERS, ORDERS_REFERENCE, system

    doc = _document(path)
    kind = identify(doc) if doc is not None else None
    if doc is None or kind is None:
        return
    orders = is_kind(kind, ORDERS)
    keys = (ORDERS_REFERENCE,) if orders else system(doc.data["system"]).reference_keys
    folder = os.path.dirname(path)
    needs = {os.path.realpath(os.path.join(folder, ref)) for ref in (doc.data.get(k) for k in keys) if _is_path(ref)}
    if not needs:
        return
    real = os.path.realpath(path)
    tree.needs[real] = needs
    tree.shown[real] = _shown(path)
    if orders:
        tree.orders.add(real)


def _document(path: str) -> Any:
    """A file read as a Document when it parses and mentions ``system`` (None: unreadable, broken, foreign)."""
    try:
        raw = read_regular(path)
    except InputError:
        return None
    if b"system" not in raw:
        return None
    doc = load_bytes(raw, path)
    return None if doc.broken else doc


def _is_path(ref: Any) -> bool:
    """A value that can name a file (not an inline map, not empty, no NUL)."""
    return isinstance(ref, str) and bool(ref) and "\0" not in ref


def _role(path: str) -> str:
    """What becomes of a file given with ``--with-dependents``: checked, a source of dependents, or foreign."""
    from movecheck.files import identify, is_kind, looks_like_movecheck
    from movecheck.systems import ORDERS

    if path == "-":
        return CHECKED
    try:
        raw = read_regular(path)
    except InputError:
        return CHECKED  # check says why it cannot be read
    if not looks_like_movecheck(raw.decode("utf-8", errors="replace").lstrip("\ufeff")):
        return FOREIGN
    doc = load_bytes(raw, path)
    kind = None if doc.broken else identify(doc)
    return SOURCE if kind is not None and not is_kind(kind, ORDERS) else CHECKED


def _shown(path: str) -> str:
    """The path to report a found file by: relative to the current folder when it is below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
