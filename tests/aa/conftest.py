"""Harness for the aa rule tests: build a state and an orders file, run ``check``, look at codes.

``state(...)`` writes a state on the built-in ``aa1942-2e`` map: with ``units`` it
replaces the map's whole initial setup (small, clean scenarios); without it the
full 1942 second-edition setup is used.  ``run(state_text, moves)`` (a fixture)
writes both files under ``tmp_path`` and returns the sorted findings.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Iterable

import pytest
import yaml

from movecheck.core import Settings, check, lint
from movecheck.findings import Finding, Severity

MAP = "aa1942-2e"


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000)


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
    return _dump(data)


def orders(power: str, phase: str, moves: list[dict[str, Any]]) -> str:
    """YAML text of an aa orders file (block style: one key per line)."""
    return _dump({"movecheck": 1, "system": "aa", "power": power, "phase": phase, "moves": moves})


_counter = itertools.count()


def check_files(state_text: str, orders_text: str, tmp_path: Path) -> list[Finding]:
    """Write a state and an orders file and check the orders: the sorted findings."""
    folder = tmp_path / f"case{next(_counter)}"
    folder.mkdir()
    state_path = folder / "state.yaml"
    orders_path = folder / "orders.yaml"
    state_path.write_text(state_text, encoding="utf-8")
    orders_path.write_text(orders_text, encoding="utf-8")
    report, _ = check([str(orders_path)], Settings(state=str(state_path)))
    return report.sorted_findings()


def lint_text(text: str, tmp_path: Path, name: str = "file.yaml") -> list[Finding]:
    """Lint one file written from text: the sorted findings."""
    folder = tmp_path / f"lint{next(_counter)}"
    folder.mkdir()
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return lint_paths([path])


def lint_paths(paths: Iterable[Path | str]) -> list[Finding]:
    report = lint([str(p) for p in paths], Settings())
    return report.sorted_findings()


def codes(findings: Iterable[Finding]) -> list[str]:
    """The codes of findings, in report order."""
    return [f.code for f in findings]


def errors(findings: Iterable[Finding]) -> list[str]:
    """Codes of the error findings only (warnings and notes left out)."""
    return [f.code for f in findings if f.severity is Severity.ERROR]


def only(findings: Iterable[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


@pytest.fixture
def run(tmp_path):
    """``run(state_text, moves_or_orders_text)``: check orders for the state's power and phase."""

    def _run(state_text: str, moves: list[dict[str, Any]] | str) -> list[Finding]:
        if isinstance(moves, str):
            text = moves
        else:
            turn = yaml.safe_load(state_text)["turn"]
            text = orders(turn["power"], turn["phase"], moves)
        return check_files(state_text, text, tmp_path)

    return _run


def mv(units: Any, *path: str, **extra: Any) -> dict[str, Any]:
    """One order: ``mv({'tank': 2}, 'Germany', 'Poland')``."""
    entry: dict[str, Any] = {"units": units, "path": list(path)}
    entry.update(extra)
    return entry
