"""Which findings a run reports: ``select``/``ignore`` code prefixes and per-file ignores.

Selection works like ruff's: a *selector* is a code or a code prefix (``AA2``,
``MC005``, ``AA``; ``ALL`` is every code).  Rules are chosen in layers, the
configuration file first, then the command line:

* a layer that has ``select`` starts afresh: only codes matching one of its
  selectors are on; within the layer, the most specific selector wins, so
  ``select = [AA]`` with ``ignore = [AA2]`` and ``select = [AA201]`` keeps AA201;
* a layer without ``select`` only removes what its ``ignore`` matches.

Per-file ignores are applied last, whatever the layers selected.  Their
patterns are globs matched against the file's path relative to the folder of
the configuration file that declares them (a pattern without ``/`` also
matches the file's name alone; ``**/`` may match no folder at all).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from dataclasses import field

from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.records import dataclass_on_first_use

ALL = "ALL"


def split_selectors(values: Iterable[str] | str | None) -> list[str]:
    """Selectors from repeated and comma-separated values, upper-cased, in order, no blanks."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    result: list[str] = []
    for value in values:
        for part in str(value).split(","):
            part = part.strip().upper()
            if part and part not in result:
                result.append(part)
    return result


def known_codes() -> list[str]:
    """Every clause code of the catalogue; a system with a clause index lists its codes from it, importing none
    of its clause families (:func:`~movecheck.catalogue.register_all`)."""
    from movecheck.catalogue import register_all
    from movecheck.clauses import CATALOGUE

    register_all()
    return CATALOGUE.codes()


def is_known(selector: str, codes: Sequence[str]) -> bool:
    """True when ``selector`` is ``ALL`` or a prefix of at least one code."""
    return selector == ALL or any(code.startswith(selector) for code in codes)


def suggest(selector: str, codes: Sequence[str]) -> list[str]:
    """Close codes or prefixes for an unknown selector."""
    from movecheck.suggest import close_names

    prefixes = sorted({c[:n] for c in codes for n in (2, 3, 4, 5)})
    close = close_names(selector, prefixes, n=6, cutoff=0.6)
    # difflib scores AA521 and AA201 alike for AA2O1: the fewest edits first (a stable sort keeps difflib's order)
    return sorted(close, key=lambda code: _edits(selector.upper(), code))[:3]


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance between two short codes."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _specificity(code: str, selectors: Sequence[str]) -> int:
    """Length of the longest selector matching ``code`` (``ALL`` counts as 0), -1 if none."""
    best = -1
    for selector in selectors:
        if selector == ALL:
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


@dataclass_on_first_use(frozen=True)
class Layer:
    """One source of selection: the configuration file or the command line."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()

    def apply(self, code: str, enabled: bool) -> bool:
        """Whether ``code`` is on after this layer, given whether it was on before."""
        ignored = _specificity(code, self.ignore)
        if self.select is not None:
            selected = _specificity(code, self.select)
            return selected >= 0 and selected > ignored
        return enabled and ignored < 0


@dataclass_on_first_use(frozen=True)
class PerFileIgnore:
    """``pattern`` → codes, relative to ``base`` (the configuration file's folder)."""

    pattern: str
    codes: tuple[str, ...]


@dataclass_on_first_use
class Selection:
    """Layers of select/ignore plus per-file ignores: decides whether a finding is reported."""

    layers: list[Layer] = field(default_factory=list)
    per_file: list[PerFileIgnore] = field(default_factory=list)
    base: str = ""

    def enabled(self, code: str) -> bool:
        """Whether the layers leave ``code`` on."""
        on = True
        for layer in self.layers:
            on = layer.apply(code, on)
        return on

    def reported(self, code: str, file: str) -> bool:
        """Whether a finding of ``code`` in ``file`` is reported."""
        if not self.enabled(code):
            return False
        return not (self.per_file and _per_file_ignored(self, code, file))


def relative_to(file: str, base: str) -> str | None:
    """``file`` relative to folder ``base`` with forward slashes; None when outside it."""
    if not base:
        return file.replace(os.sep, "/")
    try:
        rel = os.path.relpath(os.path.abspath(file), base)
    except ValueError:  # another drive (Windows)
        return None
    rel = rel.replace(os.sep, "/")
    if rel == ".." or rel.startswith("../"):
        return None
    return rel


def glob_matches(pattern: str, rel: str) -> bool:
    """Does the glob ``pattern`` match the relative path ``rel``?"""
    pattern = pattern.replace(os.sep, "/").removeprefix("./")
    if fnmatch.fnmatchcase(rel, pattern):
        return True
    if pattern.startswith("**/") and fnmatch.fnmatchcase(rel, pattern[3:]):
        return True
    if "/" not in pattern and fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern):
        return True
    return pattern.endswith("/") and rel.startswith(pattern)  # a folder: everything below it


def _per_file_ignored(selection: Selection, code: str, file: str) -> bool:
    rel = relative_to(file, selection.base)
    if rel is None:
        return False
    for entry in selection.per_file:
        if glob_matches(entry.pattern, rel) and _specificity(code, entry.codes) >= 0:
            return True
    return False


def command_line_layer(select: list[str] | None, ignore: list[str] | None) -> Layer | None:
    """The command line's ``--select``/``--ignore``; InputError for an unknown code."""
    chosen = split_selectors(select) if select else None
    ignored = split_selectors(ignore) if ignore else []
    if chosen is None and not ignored:
        return None
    codes = known_codes()
    for flag, selectors in (("--select", chosen or []), ("--ignore", ignored)):
        for selector in selectors:
            if not is_known(selector, codes):
                close = suggest(selector, codes)
                hint = _("; did you mean {names}?").format(names=_(" or ").join(close)) if close else ""
                unknown = _("unknown rule code or prefix {selector}").format(selector=repr(selector))
                raise InputError(f"{flag}: {unknown}{hint}")
    return Layer(tuple(chosen) if chosen is not None else None, tuple(ignored))
