"""The server's settings, as an editor gives them (issue 42): ``initializationOptions`` when the session starts and
``workspace/didChangeConfiguration`` whenever they change, as ``ruff server`` takes its own.

Either message carries a mapping of settings, bare or under ``settings`` or ``movecheck``:

- ``lang``: the language of the findings (``en``, ``ru``), as ``--lang``;
- ``select`` and ``ignore``: lists of rule codes or prefixes, as ``--select`` and ``--ignore`` (on top of the
  configuration file's selection; an unchecked order's MC012 is always shown);
- ``delay``: the pause in seconds after an edit before the file is checked (0 to 10), in place of
  ``MOVECHECK_SERVER_DELAY``;
- ``asYouTypeBudget``: the share of each search budget a check as you type gets (above 0, at most 1; default 0.1).

A setting left out keeps its value; ``null`` puts it back to its default.  A value the server cannot use is
named in one message to the editor and leaves the setting as it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from movecheck.budget import AS_YOU_TYPE
from movecheck.i18n import _, normalize

KEYS = ("lang", "select", "ignore", "delay", "asYouTypeBudget")
"""The settings the server takes (docs/editors.md lists them)."""


@dataclass(frozen=True)
class Settings:
    """The settings in force."""

    lang: str | None = None
    """None: the environment's (``MOVECHECK_LANG``, the locale), as when the server started."""
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    delay: float | None = None
    """None: ``MOVECHECK_SERVER_DELAY`` or its default."""
    divisor: int = AS_YOU_TYPE
    """A check as you type gets ``1 / divisor`` of each budget."""


def section(options: Any) -> dict[str, Any] | None:
    """The mapping of settings in an ``initializationOptions`` or a ``didChangeConfiguration``'s ``settings``."""
    if not isinstance(options, dict):
        return None
    for key in ("settings", "movecheck"):
        inner = options.get(key)
        if isinstance(inner, dict):
            return section(inner) if key == "settings" and "movecheck" in inner else inner
    return options


def updated(current: Settings, options: Any) -> tuple[Settings, list[str]]:
    """The settings after the editor's ``options``, and what the server could not use (one sentence each)."""
    given = section(options)
    if given is None:
        return current, []
    problems: list[str] = []
    for key in KEYS:
        if key not in given:
            continue
        try:
            current = _one(current, key, given[key])
        except ValueError as exc:
            problems.append(_("setting {key}: {problem}").format(key=key, problem=str(exc)))
    return current, problems


def _one(current: Settings, key: str, value: Any) -> Settings:
    if key == "lang":
        return replace(current, lang=_language(value))
    if key in ("select", "ignore"):
        codes = _codes(value)
        if key == "select":
            return replace(current, select=codes)
        return replace(current, ignore=codes or ())
    if key == "delay":
        return replace(current, delay=_delay(value))
    return replace(current, divisor=_divisor(value))


def _language(value: Any) -> str | None:

    if value is None:
        return None
    found = normalize(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(_("unknown language {value}").format(value=repr(value)))
    return found


def _codes(value: Any) -> tuple[str, ...] | None:
    from movecheck.selection import command_line_layer

    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(_("a list of rule codes or prefixes is wanted"))
    try:
        command_line_layer(list(value), None)
    except Exception as exc:  # InputError: an unknown code, worded with its "did you mean"
        raise ValueError(str(exc).removeprefix("--select: ")) from None
    return tuple(value)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(_("a number is wanted"))
    return float(value)


def _delay(value: Any) -> float | None:
    if value is None:
        return None
    seconds = _number(value)
    if not 0 <= seconds <= 10:
        raise ValueError(_("seconds from 0 to 10 are wanted"))
    return seconds


def _divisor(value: Any) -> int:
    if value is None:
        return AS_YOU_TYPE
    share = _number(value)
    if not 0 < share <= 1:
        raise ValueError(_("a share above 0 and at most 1 is wanted"))
    return max(1, min(1_000_000, round(1 / share)))
