"""What the generated validators call for the keywords whose meaning takes more than one
expression (``const``/``enum`` equality and ``uniqueItems``), and movecheck's number types,
written after jsonschema's own (``jsonschema._utils``)."""

from __future__ import annotations

import math
from typing import Any


def number(x: Any) -> bool:
    """movecheck's ``number``: an int or a finite float, never a bool."""
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return isinstance(x, float) and math.isfinite(x)


def integer(x: Any) -> bool:
    """movecheck's ``integer``: an int as written, never a bool or a float."""
    return isinstance(x, int) and not isinstance(x, bool)


class _Unbooled:
    """A bool kept apart from 0 and 1 in comparisons (jsonschema's ``unbool``)."""

    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unbooled) and other.value is self.value

    def __hash__(self) -> int:
        return hash(("bool", self.value))


def _unbool(x: Any) -> Any:
    return _Unbooled(x) if isinstance(x, bool) else x


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema has it: ``1 == 1.0``, ``true != 1``, lists and mappings item by item."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(key in two and equal(value, two[key]) for key, value in one.items())
    return bool(_unbool(one) == _unbool(two))


def unique(items: list[Any]) -> bool:
    """No two items equal (see :func:`equal`)."""
    if all(isinstance(item, str) for item in items):
        return len(set(items)) == len(items)
    seen: list[Any] = []
    for item in items:
        if any(equal(other, item) for other in seen):
            return False
        seen.append(item)
    return True
