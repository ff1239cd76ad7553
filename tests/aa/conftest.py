"""Builders of the aa rule tests (a state, an orders file, an order), on the shared harness.

``state(...)`` gives a state on the built-in ``aa1942-2e`` map: with ``units`` it
replaces the map's whole initial setup (small, clean scenarios); without it the
full 1942 second-edition setup is used.  ``run(state_text, moves)`` (a fixture)
checks the orders in memory and returns the sorted findings.  Checking, linting and
``codes``/``errors``/``only`` are :mod:`tests.harness`'s, the same for every system.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from movecheck.findings import Finding
from tests.harness import check_texts, codes, dump, errors, lint_paths, lint_text, only, yaml_data

__all__ = ["check_files", "codes", "errors", "lint_paths", "lint_text", "mv", "only", "orders", "state", "unit"]

MAP = "aa1942-2e"


def unit(at: str, power: str, type: str, count: int = 1, **status: Any) -> dict[str, Any]:
    """A unit stack entry of a state."""
    entry: dict[str, Any] = {"at": at, "power": power, "type": type}
    if count != 1:
        entry["count"] = count
    entry.update(status)
    return entry


def state(
    power: str,
    phase: str = "combat_move",
    units: list[dict[str, Any]] | None = None,
    control: dict[str, str] | None = None,
    captured: list[str] | None = None,
    purchased: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
    map: Any = MAP,
    round: int = 2,
) -> str:
    """YAML text of an aa state (``units`` replaces the map's whole initial setup)."""
    data: dict[str, Any] = {"movecheck": 1, "system": "aa", "rules": "aa1942"}
    if options:
        data["options"] = options
    data["map"] = map
    data["turn"] = {"round": round, "power": power, "phase": phase}
    if control:
        data["control"] = control
    if captured is not None:
        data["captured_this_turn"] = captured
    if purchased:
        data["purchased"] = purchased
    if units is not None:
        data["units"] = units
    return dump(data)


def orders(power: str, phase: str, moves: list[dict[str, Any]]) -> str:
    """YAML text of an aa orders file (block style: one key per line)."""
    return dump({"movecheck": 1, "system": "aa", "power": power, "phase": phase, "moves": moves})


def check_files(state_text: str, orders_text: str, tmp_path: Path) -> list[Finding]:
    """Check an orders file against a state (in memory, as if both stood in ``tmp_path``): the sorted findings."""
    return check_texts(state_text, orders_text, folder=tmp_path)


@functools.lru_cache(maxsize=64)
def _turn_of(state_text: str) -> dict[str, Any]:
    """The ``turn:`` of a state text (read once per text: most tests of a module share a few states)."""
    return dict(yaml_data(state_text)["turn"])


@pytest.fixture
def run(tmp_path):
    """``run(state_text, moves_or_orders_text)``: check orders for the state's power and phase."""

    def _run(state_text: str, moves: list[dict[str, Any]] | str) -> list[Finding]:
        if isinstance(moves, str):
            text = moves
        else:
            turn = _turn_of(state_text)
            text = orders(turn["power"], turn["phase"], moves)
        return check_files(state_text, text, tmp_path)

    return _run


def mv(units: Any, *path: str, **extra: Any) -> dict[str, Any]:
    """One order: ``mv({'tank': 2}, 'Germany', 'Poland')``."""
    entry: dict[str, Any] = {"units": units, "path": list(path)}
    entry.update(extra)
    return entry
