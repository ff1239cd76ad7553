"""The names players type for powers, unit types and spaces, and what each stands for.

Forum players write ``UK``, ``inf``, ``bb``, ``SZ5`` or ``FIC``; wherever an aa file
expects a name, these are understood.  A :class:`Lexicon` holds the names of one kind
(the spaces, the powers or the unit types of a map) and the other spellings that stand
for them: the standard abbreviations below (for the names a map has), the map's own
``aliases`` and, for spaces, the sea-zone forms (``5 SZ``, ``sz 05``).  Spellings are
compared case-insensitively, with dots dropped and spaces collapsed (``karelia ssr``).
A name's own spelling wins; an abbreviation that stands for two names is refused with
both named.  Reports always use the names themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from movecheck.i18n import N_, _

POWER_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "Russians": ("USSR", "SU", "Soviets", "Soviet Union", "Russia", "Rus"),
    "Germans": ("Ger", "Germany", "German"),
    "British": ("UK", "GB", "Britain", "Brit", "Brits"),
    "Japanese": ("Jap", "Jpn", "Japan"),
    "Americans": ("US", "USA", "America", "American", "Amer"),
    "Italians": ("Ita", "Italy", "Italian"),
    "Chinese": ("Chi", "China"),
}
"""Abbreviations of the powers of the A&A games, for a map that has the power."""

UNIT_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "infantry": ("inf",),
    "artillery": ("art", "arty"),
    "tank": ("arm", "armour", "armor", "tnk"),
    "aa_gun": ("aa", "aaGun", "aa gun", "aag"),
    "factory": ("ic", "industrial_complex", "industrial complex"),
    "fighter": ("ftr", "fig"),
    "bomber": ("bmr", "bom"),
    "transport": ("tp", "trn", "tpt", "trans"),
    "submarine": ("sub", "ss"),
    "destroyer": ("dd", "des"),
    "cruiser": ("ca", "cru"),
    "carrier": ("cv", "ac", "aircraft_carrier", "aircraft carrier"),
    "battleship": ("bb",),
}
"""Abbreviations of the unit types (TripleA's ``armour`` and ``aaGun`` among them), for a map that has the type."""

SEA_ZONE_FORMS = re.compile(r"sz ?[-#]? ?0*(\d+)|0*(\d+) ?sz")
"""``SZ 5``, ``sz05``, ``5 SZ`` (after :func:`fold`): the sea zone ``5 Sea Zone`` (a bare ``5`` is not one)."""

SEA_ZONE_EXAMPLES = ("5 SZ", "SZ5", "SZ 5", "sz 05")


def fold(text: str) -> str:
    """The form two spellings are compared in: case-folded, without dots, spaces collapsed."""
    return " ".join(text.casefold().replace(".", "").split())


def sea_zone_name(text: str) -> str | None:
    """``5 Sea Zone`` for a sea-zone form such as ``SZ 05``, else None."""
    match = SEA_ZONE_FORMS.fullmatch(fold(text))
    if match is None:
        return None
    return f"{int(match.group(1) or match.group(2))} Sea Zone"


def unit_aliases() -> dict[str, str]:
    """Every unit type abbreviation and the type it stands for."""
    return {short: name for name, shorts in UNIT_ABBREVIATIONS.items() for short in shorts}


RESOLVED_KEPT = 4096
"""Texts whose meaning a lexicon keeps (:meth:`Lexicon.resolve`); past this many, the memo starts again."""


class Lexicon:
    """The names of one kind on a map and the spellings that stand for them."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(dict.fromkeys(names))
        self._known = set(self.names)
        self._own: dict[str, str] = {}
        for name in self.names:
            self._own.setdefault(fold(name), name)
        self._short: dict[str, list[str]] = {}
        self.spellings: dict[str, str] = {}
        """Each abbreviation as written and the name it stands for (for "did you mean")."""
        self._resolved: dict[str, str | None] = {}
        """What each text :meth:`resolve` was asked for stands for (issue 37: a run reads every order's unit types
        twice, the bounds and the order itself); emptied whenever an abbreviation is added."""

    def add(self, short: Any, name: str) -> None:
        """Let ``short`` stand for ``name`` (a name this lexicon holds; others are ignored)."""
        if name not in self._known or not isinstance(short, str) or not short.strip():
            return
        self._resolved.clear()
        meanings = self._short.setdefault(fold(short), [])
        if name not in meanings:
            meanings.append(name)
        self.spellings.setdefault(short, name)

    def add_table(self, table: Mapping[str, Iterable[str]]) -> None:
        """Add each name's abbreviations from a ``{name: [abbreviations]}`` table."""
        for name, shorts in table.items():
            for short in shorts:
                self.add(short, name)

    def meanings(self, text: Any) -> list[str]:
        """The names ``text`` may stand for: its own name, else every name it abbreviates."""
        if not isinstance(text, str):
            return []
        key = fold(text)
        if key in self._own:
            return [self._own[key]]
        return list(self._short.get(key, ()))

    def resolve(self, text: Any) -> str | None:
        """The one name ``text`` stands for, or None (unknown, or ambiguous)."""
        if not isinstance(text, str):
            return None
        known = self._resolved.get(text, "")
        if known != "":
            return known
        if len(self._resolved) >= RESOLVED_KEPT:
            self._resolved.clear()
        found = self.meanings(text)
        answer = self._resolved[text] = found[0] if len(found) == 1 else None
        return answer


AMBIGUOUS = {
    "power": N_("power {name} is ambiguous: it may mean {meanings}; write the name"),
    "territory or sea zone": N_("territory or sea zone {name} is ambiguous: it may mean {meanings}; write the name"),
    "unit type": N_("unit type {name} is ambiguous: it may mean {meanings}; write the name"),
}
"""The refusal of an ambiguous abbreviation, by what kind of name was expected."""


def ambiguous_message(what: str, text: Any, meanings: list[str]) -> str:
    """Why an abbreviation that stands for several names is refused (``what``: a key of :data:`AMBIGUOUS`)."""
    listed = _(" or ").join(repr(name) for name in meanings)
    return _(AMBIGUOUS[what]).format(name=repr(text), meanings=listed)


def abbreviations_table() -> str:
    """The table of the abbreviations every map understands (Markdown), in docs/aa.md."""
    rows = ["| Kind | Name | Abbreviations |", "|---|---|---|"]
    rows += [
        f"| power | {name} | {', '.join(f'`{s}`' for s in shorts)} |" for name, shorts in POWER_ABBREVIATIONS.items()
    ]
    rows += [
        f"| unit type | {name} | {', '.join(f'`{s}`' for s in shorts)} |" for name, shorts in UNIT_ABBREVIATIONS.items()
    ]
    rows.append(f"| sea zone | 5 Sea Zone | {', '.join(f'`{s}`' for s in SEA_ZONE_EXAMPLES)} (any number) |")
    return "\n".join(rows) + "\n"
