"""Small boards and the apply/check calls the tests of the states ``apply`` writes share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from movecheck.cli import main
from tests.harness import yaml_data

CAPITALS = {
    "Germans": "Germany", "British": "United Kingdom", "Russians": "Russia", "Japanese": "Japan",
    "Americans": "Eastern United States",
}


def state_text(
    power: str, phase: str, units: list[str], *, head: str = "", garrison: tuple[str, ...] = tuple(CAPITALS)
) -> str:
    """An aa1942-2e state with the given unit lines and one infantry in the capital of each power of ``garrison``."""
    lines = [
        f"movecheck: 1\nsystem: aa\nmap: aa1942-2e\n{head}turn: {{round: 1, power: {power}, phase: {phase}}}\nunits:\n"
    ]
    lines += [f"  - {u}\n" for u in units]
    lines += [f"  - {{at: {CAPITALS[p]}, power: {p}, type: infantry}}\n" for p in garrison]
    return "".join(lines)


def orders_text(state: str, power: str, phase: str, items: list[str]) -> str:
    key = "results" if phase == "battles" else "moves"
    body = "".join(f"  - {item}\n" for item in items) if items else " []\n"
    return (
        f"movecheck: 1\nsystem: aa\nstate: {state}\npower: {power}\nphase: {phase}\n{key}:"
        + ("\n" if items else "")
        + body
    )


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def apply(capsys, path: Path, *extra: str) -> tuple[int, str]:
    code = main(["apply", str(path), "--root", "/", "--isolated", *extra])
    return code, capsys.readouterr().out


def applied(capsys, path: Path, *extra: str) -> dict[str, Any]:
    """The state apply writes (the orders must be legal)."""
    code, out = apply(capsys, path, *extra)
    assert code == 0, out
    return yaml_data(out)


def check(capsys, path: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", str(path), "--format", "json", "--root", "/", "--isolated", *extra])
    return code, json.loads(capsys.readouterr().out)


def codes(report: dict[str, Any]) -> list[str]:
    return [f["code"] for f in report["findings"]]


def stacks(state: dict[str, Any], at: str, power: str | None = None) -> dict[str, int]:
    """Unit type -> count of the units in ``at`` (of ``power``, or all)."""
    found: dict[str, int] = {}
    for u in state["units"]:
        if u["at"] == at and power in (None, u["power"]):
            found[u["type"]] = found.get(u["type"], 0) + u.get("count", 1)
    return found


def owners(state: dict[str, Any], at: str, kind: str) -> list[str]:
    return sorted(u["power"] for u in state["units"] if u["at"] == at and u["type"] == kind)


def lints_clean(capsys, path: Path) -> None:
    code = main(["lint", str(path), "--root", "/", "--isolated"])
    out = capsys.readouterr().out
    assert code == 0 and "0 errors, 0 warnings" in out, out
