"""``; did you mean 'A' or 'B'?``: difflib's close matches, found without comparing every name.

``difflib.get_close_matches`` compares an unknown word with every known name, and a
file of many unknown names multiplies that.  Here the known names are indexed once by
their characters (the k-th ``e`` of a name is one token), so a word meets only the
names it shares characters with, and the share is exactly difflib's ``quick_ratio``.
The names that pass it get difflib's own ``ratio()`` and the same ordering, so every
hint is the one ``get_close_matches`` gives.  Answers are kept per distinct word.

Names may come with other spellings that stand for them (an aa map's abbreviations:
``bb`` for battleship): then the word is compared, case-folded, with every spelling, and
each spelling close to it gives the name it stands for, best first and once.  So ``bbb``
suggests battleship (close to ``bb``), not bomber, and ``Karella`` ``Karelia S.S.R.``
(close to its alias ``Karelia``).

Such names are also found by their words, as players shorten them: a word typed that begins a
word of a name (``Wake`` for ``Wake Island``, ``Spain`` for ``Spain Portugal``, ``Baltic`` for
``Baltic States``, ``Trans Jordan`` for ``Trans-Jordan``: every word typed begins a different
word of the name) suggests that name before the names close by letters.  A plural
(``tanks``, ``infs``, ``bbs``) whose singular is a spelling suggests that name alone.

The work spent on the hints of one file is bounded (``MOVECHECK_MAX_SUGGEST_WORK``,
counted in index entries visited and characters compared, not in time): past it,
unknown names are still reported, without a hint.  The work is charged to the file's
document, so a file's hints never depend on the other files of the run.
"""

from __future__ import annotations

import difflib
import heapq
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any

from movecheck.i18n import _


def _limit(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw.isdigit() and 0 < int(raw) < 10**15 else default


MAX_WORK = _limit("MOVECHECK_MAX_SUGGEST_WORK", 20_000_000)
_SPENT = "_suggest_work"  # the attribute of the charged document that holds its work so far


def _tokens(text: str) -> list[tuple[str, int]]:
    """The characters of ``text`` as a set: ("e", 2) is its second "e"."""
    seen: dict[str, int] = {}
    tokens = []
    for char in text:
        k = seen[char] = seen.get(char, 0) + 1
        tokens.append((char, k))
    return tokens


def _meanings(names: list[str], spellings: Mapping[str, str]) -> dict[str, list[str]]:
    """Each case-folded spelling (the names' own first) and the names it stands for."""
    means: dict[str, list[str]] = {}
    for spelling, name in [(name, name) for name in names] + [(str(k), str(v)) for k, v in spellings.items()]:
        meant = means.setdefault(spelling.casefold(), [])
        meant += [name] if name not in meant else []
    return means


class Names:
    """Known names, indexed for close-match questions; answers are cached per word.

    ``spellings``: other spellings and the name each stands for; with them, words are
    compared case-folded and answered with the names (see the module's docstring).
    """

    def __init__(self, names: Iterable[str], spellings: Mapping[str, str] | None = None) -> None:
        own = [str(name) for name in names]
        self.folded = spellings is not None
        self.own = {name.casefold() for name in own}
        self.means = _meanings(own, spellings or {})
        self.names = list(self.means) if self.folded else own
        self.lengths = [len(name) for name in self.names]
        self.index: dict[tuple[str, int], list[int]] = {}
        for i, name in enumerate(self.names):
            for token in _tokens(name):
                self.index.setdefault(token, []).append(i)
        self._answers: dict[tuple[str, int, float], tuple[list[str], int]] = {}
        self._tables: dict[tuple[int, float], dict[int, int]] = {}
        self._starts: dict[str, list[int]] | None = None  # built on the first question about words

    def close(self, word: str, n: int = 3, cutoff: float = 0.6) -> tuple[list[str], int]:
        """``difflib.get_close_matches(word, names, n, cutoff)`` and the work it took."""
        key = (word, n, cutoff)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = self._meant(word, n, cutoff) if self.folded else self._close(word, n, cutoff)
        return answer

    def _meant(self, word: str, n: int, cutoff: float) -> tuple[list[str], int]:
        """The names a plural's singular spells, else the names whose words the word's words begin,
        then those whose spellings are closest to the case-folded word, each once, best first."""
        folded = word.casefold()
        singular = _singular(folded)
        if singular is not None and singular in self.means:
            return self.means[singular][:n], len(folded)
        by_words, work = self._by_words(folded)
        spellings, more = self._close(folded, len(self.names), cutoff)
        meant = [self.means[s] for s in spellings if s in self.own or _ratio(s, folded) >= max(cutoff, SHORT_CUTOFF)]
        return list(dict.fromkeys([*by_words, *(name for names in meant for name in names)]))[:n], work + more

    def _by_words(self, folded: str) -> tuple[list[str], int]:
        """The names of which each word of ``folded`` begins another word, in order, by the spellings' order."""
        typed = _words(folded)
        if not typed or min(map(len, typed)) < MIN_WORD or len(typed) > MAX_WORDS:
            return [], len(folded)
        work = len(folded)
        if self._starts is None:  # indexed on the first question: charged to it
            self._starts = {}
            for i, spelling in enumerate(self.names):
                work += len(spelling)
                for start in {w[:MIN_WORD] for w in _words(spelling) if len(w) >= MIN_WORD}:
                    self._starts.setdefault(start, []).append(i)
        candidates = self._starts.get(typed[0][:MIN_WORD], [])
        work += len(candidates)
        found: list[str] = []
        for i in candidates:
            words = _words(self.names[i])
            work += len(self.names[i])
            if len(words) >= len(typed) and _begins_each(typed, words):
                found += [name for name in self.means[self.names[i]] if name not in found]
        return found, work

    def _close(self, word: str, n: int, cutoff: float) -> tuple[list[str], int]:
        if not word or not 0.0 < cutoff <= 1.0 or n <= 0:
            # an empty word matches only empty names (ratio 1.0 of nothing): difflib decides
            return difflib.get_close_matches(word, self.names, n, cutoff), len(self.names) + 1
        postings = [found for found in map(self.index.get, _tokens(word)) if found is not None]
        shared = Counter(chain.from_iterable(postings))  # how many characters each name shares with the word
        size = len(word)
        need = self._needed(size, cutoff)
        lengths = self.lengths
        # difflib's quick_ratio test (which implies its real_quick_ratio test), by a table per length
        passed = [i for i, common in shared.items() if common >= need[lengths[i]]]
        work = size + sum(map(len, postings)) + len(shared)
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)
        scored = []
        for i in passed:
            matcher.set_seq1(self.names[i])
            work += lengths[i] + size
            score = matcher.ratio()
            if score >= cutoff:
                scored.append((score, self.names[i]))
        return [name for _, name in heapq.nlargest(n, scored)], work

    def _needed(self, size: int, cutoff: float) -> dict[int, int]:
        """For each name length, the fewest shared characters that pass difflib's quick_ratio."""
        key = (size, cutoff)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = {}
            for length in set(self.lengths):
                common = 0  # the same float expression as difflib's _calculate_ratio
                while common <= length and 2.0 * common / (length + size) < cutoff:
                    common += 1
                table[length] = common  # length + 1: no number of shared characters is enough
        return table


MIN_WORD = 3
"""The fewest letters of a word typed that may stand for a word of a name (``Wak`` yes, ``W`` no)."""
MAX_WORDS = 8


def _words(text: str) -> list[str]:
    """The words of a case-folded spelling: split at spaces, hyphens, underscores and dots."""
    return [w for w in text.replace("-", " ").replace("_", " ").replace(".", " ").split() if w]


def _begins_each(typed: list[str], words: list[str]) -> bool:
    """Each word typed begins a different word of ``words``, in their order."""
    at = 0
    for word in typed:
        while at < len(words) and not words[at].startswith(word):
            at += 1
        if at == len(words):
            return False
        at += 1
    return True


def _singular(word: str) -> str | None:
    """The singular of a plural as players write one (``tanks``, ``infs``, ``bbs``), else None."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"  # artilleries, infantries
    if len(word) > 2 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return None


SHORT_CUTOFF = 0.75
"""How close a word must be to another spelling (an abbreviation) for it to suggest the name:
short spellings are close to too much (``tnak`` is not a transport, ``trn``)."""


def _ratio(a: str, b: str) -> float:
    """difflib's similarity of two strings."""
    return difflib.SequenceMatcher(None, a, b).ratio()


_NAMES: dict[tuple[str, ...], Names] = {}


def names_of(choices: Names | Iterable[str]) -> Names:
    """The index of a list of names (kept for the last lists asked about)."""
    if isinstance(choices, Names):
        return choices
    key = tuple(choices)
    found = _NAMES.get(key)
    if found is None:
        if len(_NAMES) >= 64:
            _NAMES.clear()
        found = _NAMES[key] = Names(key)
    return found


def close_names(
    word: Any, choices: Names | Iterable[str], n: int = 3, cutoff: float = 0.6, charge: Any = None
) -> list[str]:
    """The names ``difflib.get_close_matches`` gives, best first.

    ``charge`` (the document the hint is for) pays the work, cached answers included;
    once it has spent ``MAX_WORK`` there are no more hints for it.
    """
    spent = getattr(charge, _SPENT, 0)
    if spent >= MAX_WORK:
        return []
    names = names_of(choices)
    found, work = names.close(str(word), n, cutoff)
    if charge is not None:
        setattr(charge, _SPENT, spent + work + (0 if isinstance(choices, Names) else len(names.names)))
    return found


def did_you_mean(names: Iterable[str]) -> str:
    """``; did you mean 'A' or 'B'?``, or nothing."""
    names = list(names)
    return _("; did you mean {names}?").format(names=_(" or ").join(repr(name) for name in names)) if names else ""


def hint(word: Any, choices: Names | Iterable[str], n: int = 3, cutoff: float = 0.6, charge: Any = None) -> str:
    """:func:`did_you_mean` of the :func:`close_names` of ``word``."""
    return did_you_mean(close_names(word, choices, n, cutoff, charge))
