"""Penalty dice (spec: maneuver.md, option `dice`; rules M7).

A die expression is ``NdM`` (N dice of M sides, ``dM`` = ``1dM``), optionally followed by
``+K`` or ``-K``, or a plain integer constant (``"1"``, ``"0"``: no randomness).  Exact
probabilities are kept as :class:`fractions.Fraction`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from movecheck.i18n import _

MAX_COUNT = 100
"""Most dice in one expression."""

MAX_SIDES = 1000
"""Most sides of one die."""

MAX_BONUS = 1_000_000
"""Largest constant or ``+K`` / ``-K`` (in size)."""

_DICE_RE = re.compile(r"^(?:(?P<count>\d*)d(?P<sides>\d+)(?P<bonus>[+-]\d+)?|(?P<const>[+-]?\d+))$")


class DiceError(ValueError):
    """A die expression that cannot be parsed or is out of range."""


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides plus ``bonus``; count 0 is the constant ``bonus``."""

    count: int
    sides: int
    bonus: int = 0

    def __post_init__(self) -> None:
        """Check the ranges of count and sides."""
        if not 0 <= self.count <= MAX_COUNT:
            raise DiceError(_("dice count {count} is outside 0..{most}").format(count=self.count, most=MAX_COUNT))
        if not 1 <= self.sides <= MAX_SIDES:
            raise DiceError(_("die sides {sides} is outside 1..{most}").format(sides=self.sides, most=MAX_SIDES))
        if not -MAX_BONUS <= self.bonus <= MAX_BONUS:
            raise DiceError(
                _("constant {value} is outside -{most}..{most}").format(value=_digits(self.bonus), most=MAX_BONUS)
            )

    @classmethod
    def constant(cls, value: int) -> Dice:
        """A die that always shows value."""
        return cls(0, 1, value)

    @classmethod
    def parse(cls, text: str | int) -> Dice:
        """Parse "2d6", "d6", "2d6+1", "1", "0" (or an int) into a Dice."""
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise DiceError(
                _("die expression must be text like '2d6' or an integer, not {value}").format(value=repr(text))
            )
        if isinstance(text, int):
            return cls.constant(text)
        m = _DICE_RE.match(re.sub(r"\s+", "", text).lower())
        if m is None:
            raise DiceError(
                _("bad die expression {text}: expected NdM, NdM+K, dM or an integer").format(text=_short(text))
            )
        if any(len(part.lstrip("+-")) > len(str(MAX_BONUS)) for part in m.groups() if part):
            # no part can be that long and in range; Python would refuse (or slowly convert) thousands of digits
            raise DiceError(_("bad die expression {text}: a number in it is too large").format(text=_short(text)))
        if m["const"] is not None:
            return cls.constant(int(m["const"]))
        count = int(m["count"]) if m["count"] else 1
        sides, bonus = int(m["sides"]), int(m["bonus"] or 0)
        if not 1 <= count <= MAX_COUNT:
            raise DiceError(_("bad die expression {text}: number of dice must be 1..{most}").format(
                text=repr(text), most=MAX_COUNT))
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError(
                _("bad die expression {text}: sides must be 1..{most}").format(text=repr(text), most=MAX_SIDES)
            )
        return cls(count, sides, bonus)

    @property
    def low(self) -> int:
        """Smallest possible result."""
        return self.count + self.bonus

    @property
    def high(self) -> int:
        """Largest possible result."""
        return self.count * self.sides + self.bonus

    @property
    def is_constant(self) -> bool:
        """Whether the result is always the same."""
        return self.low == self.high

    def values(self) -> range:
        """All possible results, smallest first."""
        return range(self.low, self.high + 1)

    def __contains__(self, value: object) -> bool:
        """Whether value is a possible result."""
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return self.low <= value <= self.high

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of every possible result."""
        total = self.sides**self.count
        counts = _sum_counts(self.count, self.sides)
        return {self.low + i: Fraction(c, total) for i, c in enumerate(counts)}

    def probability(self, pred: Callable[[int], bool]) -> Fraction:
        """Exact probability that the result satisfies pred."""
        return sum((p for v, p in self.distribution().items() if pred(v)), Fraction(0))

    def prob_at_most(self, value: int) -> Fraction:
        """Exact probability that the result is value or less."""
        return self.probability(lambda v: v <= value)

    def prob_at_least(self, value: int) -> Fraction:
        """Exact probability that the result is value or more."""
        return self.probability(lambda v: v >= value)

    def __str__(self) -> str:
        """Canonical text: "2d6", "1", "2d6+1", "1d6-1"."""
        if self.count == 0:
            return str(self.bonus)
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{bonus}"


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:20] + "..." + text[-10:])


def _digits(value: int) -> str:
    if value.bit_length() > 1000:  # str() refuses more than 4300 digits; nobody reads 300
        return _("a number of more than 300 digits")
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...{text[-10:]}"


@cache
def _sum_counts(count: int, sides: int) -> tuple[int, ...]:
    """Number of ways to roll each total count..count*sides with count dice of sides sides."""
    ways = [1]
    for _die in range(count):
        ways = _add_die(ways, sides)
    return tuple(ways)


def _add_die(ways: list[int], sides: int) -> list[int]:
    """Convolve a table of ways with one die (sliding-window sums)."""
    out = []
    window = 0
    for i in range(len(ways) + sides - 1):
        if i < len(ways):
            window += ways[i]
        if i >= sides:
            window -= ways[i - sides]
        out.append(window)
    return out


def describe_probability(p: Fraction | int | float) -> str:
    """Whole-percent text ("58%"), with "<1%" / ">99%" for near-impossible / near-certain."""
    q = Fraction(p)
    if not 0 <= q <= 1:
        raise ValueError(f"probability {p!r} is outside 0..1")
    if q == 0:
        return "0%"
    if q == 1:
        return "100%"
    pct = math.floor(q * 100 + Fraction(1, 2))
    if pct < 1:
        return "<1%"
    if pct > 99:
        return ">99%"
    return f"{pct}%"
