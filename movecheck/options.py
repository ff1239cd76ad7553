"""Rule options: each declared once with its name, default, meaning and the clauses it governs.

A rule system lists its options in one :class:`OptionSet` (``movecheck/aa/options.py``,
``movecheck/maneuver/options.py``).  Everything else is derived from that list: the
``options`` part of the state schemas (``scripts/gen_schemas.py``), the ``rules``
listing, the values a board starts from, and the names ``--option`` and the
configuration accept.  Checks read an option by name without a fallback default.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from movecheck.clauses import govern

NUMBER_LIMIT = 100_000
"""Largest size of a number option (the schemas' bound on lengths)."""


@dataclass(frozen=True)
class Option:
    """One rule option: name, default value, meaning, JSON Schema of its values, clauses it governs."""

    name: str
    default: Any
    help: str
    schema: dict[str, Any] = field(compare=False)
    clauses: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    minimum: float | None = None

    def fresh_default(self) -> Any:
        """The default value, a copy a caller may change."""
        return copy.deepcopy(self.default)

    def schema_entry(self) -> dict[str, Any]:
        """The option's JSON Schema as the state schema holds it, with its meaning."""
        return {**self.schema, "description": self.help}


def flag(name: str, default: bool, help: str, clauses: Iterable[str] = ()) -> Option:
    """An on/off option."""
    return Option(name, default, help, {"type": "boolean"}, tuple(clauses))


def choice(name: str, default: str, choices: Iterable[str], help: str, clauses: Iterable[str] = ()) -> Option:
    """An option that takes one of a few words, the first of them by default unless said."""
    words = tuple(choices)
    if default not in words:
        raise ValueError(f"option {name}: default {default!r} is not one of {words}")
    return Option(name, default, help, {"enum": list(words)}, tuple(clauses), choices=words)


def number(
    name: str,
    default: float,
    help: str,
    clauses: Iterable[str] = (),
    *,
    minimum: float = 0,
    maximum: float = NUMBER_LIMIT,
) -> Option:
    """A finite number between ``minimum`` and ``maximum``."""
    schema = {"type": "number", "minimum": minimum, "maximum": maximum}
    return Option(name, default, help, schema, tuple(clauses), minimum=minimum)


def mapping(
    name: str, default: dict[str, Any], help: str, schema: dict[str, Any], clauses: Iterable[str] = ()
) -> Option:
    """An option whose value is a mapping, checked by ``schema``."""
    return Option(name, default, help, schema, tuple(clauses))


class OptionSet:
    """The options of one rule system, in the order they are listed and reported."""

    def __init__(self, system: str, options: Iterable[Option]) -> None:
        self.system = system
        self._options: dict[str, Option] = {}
        for option in options:
            if option.name in self._options:
                raise ValueError(f"{system} option {option.name!r} is declared twice")
            self._options[option.name] = option
        govern(system, {option.name: option.clauses for option in self})

    def __iter__(self) -> Iterator[Option]:
        return iter(self._options.values())

    def __contains__(self, name: object) -> bool:
        return name in self._options

    def __getitem__(self, name: str) -> Option:
        return self._options[name]

    def __len__(self) -> int:
        return len(self._options)

    def names(self) -> list[str]:
        """The option names, in declaration order."""
        return list(self._options)

    def defaults(self) -> dict[str, Any]:
        """Every option at its declared default (fresh copies)."""
        return {o.name: o.fresh_default() for o in self}

    def governing(self, code: str) -> list[Option]:
        """The options that change what the clause ``code`` decides."""
        return [o for o in self if code in o.clauses]

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of a state's ``options:`` mapping."""
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {o.name: o.schema_entry() for o in self},
        }
