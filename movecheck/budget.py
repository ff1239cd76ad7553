"""Search budgets: a search that runs out stops the check of the orders it serves.

A rule that needs a search (the aircraft-landing assignment, the manoeuvre
path search) is given a budget.  When the budget runs out the search raises
:class:`SearchLimit`; the engine catches it and records the orders the search
was for as *unchecked* (finding MC012 at the order, verdict ``unchecked``).  A
budget that runs out never weakens a verdict: it never turns an error into a
pass or a warning, and never reports a violation the search did not prove.
"""

from __future__ import annotations

import os
from movecheck.i18n import _, ngettext


class SearchLimit(Exception):
    """A search ran out of its budget before it could decide."""

    def __init__(self, what: str, variable: str, value: int) -> None:
        super().__init__(f"{what} ran out of its budget ({variable}={value})")
        self.what = what
        self.variable = variable
        self.value = value

    def reason(self) -> str:
        """The sentence the report gives: which search, which limit, how to raise it."""
        text = ngettext(
            "the {what} hit its limit of {count} step; raise {variable} to search further",
            "the {what} hit its limit of {count} steps; raise {variable} to search further",
            self.value,
        )
        return text.format(what=_(self.what), count=f"{self.value:,}", variable=self.variable)


def budget(variable: str, default: int) -> int:
    """A search budget: the environment variable ``variable`` when it is a positive integer, else ``default``."""
    raw = os.environ.get(variable, "").strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):  # '²' is a digit to isdigit(), not to int()
        return default
    return int(raw) or default
