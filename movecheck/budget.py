"""Search budgets: a search that runs out stops the check of the orders it serves.

A rule that needs a search (the unit choice, the aircraft-landing assignment, the
reasoning over a manoeuvre order's undeclared rolls) spends *steps*, units of work:
an order carried out, an option or unit looked at, an edge of a flow examined, a roll
looked up; a copy of the board counts as its size.  Each search has its own variable
(:data:`SEARCHES`), and one budget per *file* covers every search run while that file
is checked (:func:`per_file`): the choice search's runs, every landing search they
ask for, every order's rolls.  When a search's account runs out it raises
:class:`SearchLimit`; the engine records the orders the search was for as
*unchecked* (finding MC012 at the order, naming the search and its variable).  A
budget that runs out never weakens a verdict: it never turns an error into a pass or
a warning, and never reports a violation the search did not prove.

A budget variable holds a plain positive whole number (ASCII digits, at most
:data:`MAX_DIGITS`); anything else (``1e9``, ``-5``, 13 digits) is a usage error
(:class:`BudgetError`, one line and exit 2), never quietly the default.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar, Protocol

from movecheck.i18n import N_, _, ngettext
from movecheck.reading import InputError

MAX_DIGITS = 12
"""The most digits a budget variable may have (a trillion steps is far beyond any run)."""

SEARCHES: dict[str, tuple[str, int]] = {
    "MOVECHECK_CHOICE_BUDGET": (N_("choice search"), 50_000),
    "MOVECHECK_LANDING_BUDGET": (N_("aircraft-landing search"), 5_000_000),
    "MOVECHECK_ROLL_BUDGET": (N_("search over undeclared rolls"), 200_000),
    "MOVECHECK_REACH_BUDGET": (N_("reach computation"), 2_000_000),
}
"""Each search's variable: what the reports call the search, and its default budget (steps per file)."""


class SearchLimit(Exception):
    """A search ran out of its budget before it could decide."""

    def __init__(self, what: str, variable: str, value: int) -> None:
        super().__init__(f"{what} ran out of its budget ({variable}={value})")
        self.what = what
        self.variable = variable
        self.value = value

    def reason(self) -> str:
        """The sentence the report gives: which search, which limit, how to raise it (or, in a check as you type
        on a share of the budget, :func:`lighter`, that saving the file checks it with the whole budget)."""
        if _DIVISOR.get() > 1:
            text = ngettext(
                "the {what} hit its as-you-type limit of {count} step (a share of {variable}); "
                "save the file to check it with the whole budget",
                "the {what} hit its as-you-type limit of {count} steps (a share of {variable}); "
                "save the file to check it with the whole budget",
                self.value,
            )
            return text.format(what=_(self.what), count=f"{self.value:,}", variable=self.variable)
        text = ngettext(
            "the {what} hit its limit of {count} step; raise {variable} to search further",
            "the {what} hit its limit of {count} steps; raise {variable} to search further",
            self.value,
        )
        return text.format(what=_(self.what), count=f"{self.value:,}", variable=self.variable)


class Cancelled(BaseException):
    """The check was called off (:func:`cancellable`): a newer edit of the buffer made its answer stale.

    Not an :class:`Exception`: nothing in the rules catches it, so the whole check stops at the next step
    a search spends, and the caller that set the flag drops whatever the check had found."""


class Flag(Protocol):
    """What calls a check off (a :class:`threading.Event`)."""

    def is_set(self) -> bool: ...


class BudgetError(InputError):
    """A budget variable that is not a plain positive whole number (a usage error: exit 2)."""


def budget(variable: str, default: int) -> int:
    """A search budget: the environment variable ``variable``, else ``default`` when it is unset or empty.

    Raises :class:`BudgetError` for any other value than a plain positive whole number.
    """
    raw = os.environ.get(variable, "").strip()
    if not raw:
        return default
    # '²' is a digit to isdigit(), not to int(); '1e9' and '1_000' are numbers to Python, not here
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS and int(raw) > 0):
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        message = _("{variable} must be a positive whole number of steps, at most {digits} digits (not {value!r})")
        raise BudgetError(message.format(variable=variable, digits=MAX_DIGITS, value=shown))
    return int(raw)


def check_environment() -> None:
    """Refuse a run whose budget variables are not plain positive whole numbers (before any file is read)."""
    for variable in sorted(SEARCHES):
        budget(variable, SEARCHES[variable][1])


class Budget:
    """The work one file may spend: an account (steps spent) per search variable, and what its searches keep."""

    def __init__(self) -> None:
        self.spent: dict[str, int] = {}
        self.limits: dict[str, int] = {}
        self.memo: dict[Any, Any] = {}
        """Answers a search keeps for the rest of the file (the landing plan of a board seen before)."""
        self.stop: Flag | None = _STOP.get()
        """Set when the check is called off (:func:`cancellable`): the next step spent raises :class:`Cancelled`."""

    def limit(self, variable: str) -> int:
        if variable not in self.limits:
            self.limits[variable] = max(1, budget(variable, SEARCHES[variable][1]) // _DIVISOR.get())
        return self.limits[variable]


_CURRENT: ContextVar[Budget | None] = ContextVar("movecheck_budget", default=None)

_DIVISOR: ContextVar[int] = ContextVar("movecheck_budget_divisor", default=1)

_STOP: ContextVar[Flag | None] = ContextVar("movecheck_budget_stop", default=None)

AS_YOU_TYPE = 10
"""The share of each budget a check as you type gets (the language server, issue 37): a tenth."""


def lightened() -> bool:
    """Whether the checks now run on a share of every budget (:func:`lighter`)."""
    return _DIVISOR.get() > 1


@contextmanager
def lighter(divisor: int = AS_YOU_TYPE) -> Iterator[None]:
    """Checks on ``1 / divisor`` of every budget (a search that runs out says so: :meth:`SearchLimit.reason`)."""
    token = _DIVISOR.set(divisor)
    try:
        yield
    finally:
        _DIVISOR.reset(token)


@contextmanager
def cancellable(stop: Flag) -> Iterator[None]:
    """Checks that stop (:class:`Cancelled`) at the first step a search spends once ``stop`` is set: the language
    server calls a check off when a newer edit makes its answer stale (issue 37)."""
    token = _STOP.set(stop)
    try:
        yield
    finally:
        _STOP.reset(token)


@contextmanager
def per_file() -> Iterator[Budget]:
    """One budget for every search run while a file is checked (nested calls share the outer one)."""
    outer = _CURRENT.get()
    if outer is not None:
        yield outer
        return
    fresh = Budget()
    token = _CURRENT.set(fresh)
    try:
        yield fresh
    finally:
        _CURRENT.reset(token)


def current() -> Budget | None:
    """The budget of the file being checked, if any."""
    return _CURRENT.get()


class Meter:
    """What one search spends, charged to its variable's account in the file's budget.

    With an explicit ``limit`` (a test, a nicety on a small budget of its own) the
    meter has an account of its own.  Subclasses name the search's ``variable``.
    """

    variable: ClassVar[str] = ""

    def __init__(self, limit: int | None = None) -> None:
        found = current() if limit is None else None
        if found is None:  # no file being checked (a unit test), or a limit of its own
            found = Budget()
            if limit is not None:
                found.limits[self.variable] = limit
        self._budget = found
        self.limit = found.limit(self.variable)

    @property
    def used(self) -> int:
        """Steps spent on this variable in the file so far."""
        return self._budget.spent.get(self.variable, 0)

    @property
    def left(self) -> int:
        return max(self.limit - self.used, 0)

    def spend(self, amount: int = 1) -> None:
        """Charge ``amount`` steps; raise :class:`SearchLimit` once the account is overdrawn."""
        spent = self._budget.spent.get(self.variable, 0) + amount
        self._budget.spent[self.variable] = spent
        stop = self._budget.stop
        if stop is not None and stop.is_set():
            raise Cancelled
        if spent > self.limit:
            raise SearchLimit(SEARCHES[self.variable][0], self.variable, self.limit)

    charge = spend
