"""Dice pasted as text under a result's ``dice: |`` (aa-battle.md, "Pasted dice"), read into rounds.

Three formats are read, one roll per line:

- TripleA's history: ``Germans roll dice for 4 infantry, 1 artillery in Karelia S.S.R., round 1 : 1,4,6,2,5``
  and its AA lines, ``Russians roll AA dice in Caucasus : 2,5`` (round 1);
- TripleA's posted turn summary: the same lines ending ``: 3/6 hits, 1.67 expected hits`` (hits, no values);
- the forum's ``N@V`` lines: ``Germans round 1: 3@1: 1 4 6  2@2: 2 5  1@3: 3``, a step after the round when it
  is not ``fire`` (``Russians round 1 aa: 2@1: 2 5``).

A line is a :class:`Roll`; one that cannot be read is an :class:`Unread` (AA522).  This module only reads: the
rounds are settled against the battle by :mod:`movecheck.aa.battle.settle`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from movecheck.i18n import _

STEP_NAMES = ("aa", "bombard", "sub_strike", "subs", "air", "fire", "damage")
NAME = r"[A-Za-z][\w'.-]*(?: [A-Za-z][\w'.-]*)*?"
DICE = r"[1-6](?:\s*,\s*[1-6])*"
ROLLED = rf"(?:(?P<dice>{DICE})|(?P<hits>\d+)/(?P<count>\d+) hits?, (?P<expected>[\d.]+) expected hits?)"
"""A TripleA line's dice (history) or its hits of its dice (posted summary)."""
TRIPLEA = re.compile(rf"(?P<power>{NAME}) roll dice for (?P<units>.+?) in (?P<at>.+?), round (?P<round>\d+)\s*:\s*"
                     + ROLLED)
TRIPLEA_AA = re.compile(rf"(?P<power>{NAME}) roll AA dice in (?P<at>.+?)(?:, round (?P<round>\d+))?\s*:\s*" + ROLLED)
FORUM = re.compile(rf"(?P<power>{NAME}) round (?P<round>\d+)(?: (?P<step>{'|'.join(STEP_NAMES)}))?\s*:\s*"
                   r"(?P<groups>\d+\s*@\s*\d.*)")
GROUP = re.compile(r"(\d+)\s*@\s*(\d)\s*:\s*([1-6](?:[\s,]+[1-6](?!\s*@))*)\s*")
UNIT = re.compile(r"(\d+) ([A-Za-z][\w -]*)")


@dataclass
class Roll:
    """One line read: whose roll, in which round and step, and its dice.

    ``groups`` maps a value to its dice (forum lines); ``dice`` are a TripleA line's dice, not yet given to its
    units' values; ``hits`` and ``count`` a summary line's.  ``step`` is None for a TripleA line, whose step
    is the one its ``units`` fire in (settled against the battle)."""

    line: int
    power: str
    round: int
    step: str | None
    units: Counter[str] = field(default_factory=Counter)
    groups: dict[str, list[int]] = field(default_factory=dict)
    dice: list[int] = field(default_factory=list)
    hits: int | None = None
    count: int | None = None
    at: str | None = None
    aa: bool = False
    expected: str | None = None
    """A summary line's expected hits, as written."""


@dataclass
class Unread:
    """A line that could not be read, and why."""

    line: int
    text: str
    why: str


def numbers(text: str) -> list[int]:
    return [int(d) for d in re.findall(r"[1-6]", text)]


def read_units(text: str) -> Counter[str] | None:
    """``4 infantry, 1 artillery, 1 armour`` as written (names not yet resolved), or None."""
    found: Counter[str] = Counter()
    for part in text.split(","):
        match = UNIT.fullmatch(part.strip())
        if match is None:
            return None
        found[match.group(2).strip()] += int(match.group(1))
    return found


def read_groups(text: str) -> dict[str, list[int]] | None:
    """``3@1: 1 4 6  2@2: 2 5`` as value -> dice, or None when a group's count is not its dice's."""
    found: dict[str, list[int]] = {}
    at = 0
    for match in GROUP.finditer(text):
        if match.start() != at:
            return None
        at = match.end()
        dice = numbers(match.group(3))
        if len(dice) != int(match.group(1)) or not 0 < int(match.group(2)) <= 6:
            return None
        found.setdefault(match.group(2), []).extend(dice)
    return found if found and at == len(text) else None


def read_line(number: int, text: str) -> Roll | Unread:
    """One line of the pasted text."""
    line = " ".join(text.split())
    match = TRIPLEA.fullmatch(line)
    if match:
        units = read_units(match.group("units"))
        if units is None:
            return Unread(number, text, _("its units are not written as TripleA writes them (3 infantry, 1 tank)"))
        return triplea_roll(number, match, units, aa=False)
    match = TRIPLEA_AA.fullmatch(line)
    if match:
        return triplea_roll(number, match, Counter(), aa=True)
    match = FORUM.fullmatch(line)
    if match:
        groups = read_groups(match.group("groups"))
        if groups is None:
            return Unread(number, text, _("its dice groups are not N@V: followed by N dice"))
        return Roll(number, match.group("power"), int(match.group("round")), match.group("step") or "fire",
                    groups=groups)
    return Unread(number, text, _("it is none of the formats read: a TripleA history or summary line, or a "
                                  "forum N@V line"))


def triplea_roll(number: int, match: re.Match[str], units: Counter[str], aa: bool) -> Roll:
    count = match.group("count")
    return Roll(number, match.group("power"), int(match.group("round") or 1), "aa" if aa else None, units=units,
                dice=numbers(match.group("dice") or ""), hits=int(match.group("hits")) if count else None,
                count=int(count) if count else None, at=match.group("at"), aa=aa, expected=match.group("expected"))


MAX_ROUNDS = 30
"""The last round a line may name (a battle of more rounds is not read: its lines are AA522)."""


def read(text: str) -> tuple[list[Roll], list[Unread]]:
    """The rolls of a pasted text, and the lines that could not be read (blank lines are skipped)."""
    rolls: list[Roll] = []
    unread: list[Unread] = []
    for number, raw in enumerate(text.splitlines()):
        if not raw.strip():
            continue
        found = read_line(number, raw)
        if isinstance(found, Roll) and not 1 <= found.round <= MAX_ROUNDS:
            found = Unread(number, raw, _("its round is not one of 1 to {last}").format(last=MAX_ROUNDS))
        (rolls if isinstance(found, Roll) else unread).append(found)  # type: ignore[arg-type]
    return rolls, unread


def written(roll: Roll) -> str:
    """A roll written back in the format it was read from (the readers' round trip)."""
    if roll.step is not None and not roll.aa:
        named = "" if roll.step == "fire" else f" {roll.step}"
        groups = "  ".join(f"{len(ds)}@{v}: {' '.join(map(str, ds))}" for v, ds in roll.groups.items())
        return f"{roll.power} round {roll.round}{named}: {groups}"
    rolled = (f"{roll.hits}/{roll.count} hits, {roll.expected} expected hits" if roll.count is not None
              else ",".join(map(str, roll.dice)))
    if roll.aa:
        return f"{roll.power} roll AA dice in {roll.at} : {rolled}"
    units = ", ".join(f"{n} {name}" for name, n in roll.units.items())
    return f"{roll.power} roll dice for {units} in {roll.at}, round {roll.round} : {rolled}"


def has_rolls(text: Any) -> bool:
    """Pasted text with a line read: the result gives its battle round by round (AA519 replaces AA505)."""
    return isinstance(text, str) and bool(read(text)[0])


def raid_damage(text: Any) -> list[int] | None:
    """A raid's damage dice as pasted: the forum's ``damage`` (or unnamed) lines and TripleA's lines other than AA
    (in a raid only the bombers roll besides the AA fire); None when the text gives none."""
    if not isinstance(text, str):
        return None
    found = [d for roll in read(text)[0] if not roll.aa and roll.step in (None, "damage", "fire")
             for d in (roll.dice or [x for dice in roll.groups.values() for x in dice])]
    return found or None
