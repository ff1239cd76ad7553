"""National Objectives (aa-anniversary.md; option ``national_objectives``).

At the end of its turn, after mobilization, a power that holds its capital collects, on top of its
income, the bonus of each of its objectives (the map's ``national_objectives``) whose conditions all
hold on the board as the turn ends.  The conditions are data:

- ``controls``: the power's side controls at least ``at_least`` of the listed territories;
- ``no_allied_units``: no unit of another power of its side stands in a territory the power controls;
- ``no_enemy_surface_warships``: at least ``at_least`` of the listed zones hold no enemy sea unit other
  than submarines and transports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from movecheck.aa.model import Board


@dataclass(frozen=True)
class Objective:
    """One objective of the power whose turn ends, judged: met or not, and its bonus."""

    power: str
    name: str
    ipcs: int
    met: bool
    text: str

    def as_json(self) -> dict[str, Any]:
        return {"power": self.power, "name": self.name, "ipcs": self.ipcs, "met": self.met, "text": self.text}


def _side_controls(board: Board, power: str, condition: dict[str, Any]) -> bool:
    side = board.map.side_of.get(power)
    held = sum(1 for space in condition.get("territories") or []
               if board.control.get(space) is not None and board.map.side_of.get(board.control[space]) == side)
    return held >= int(condition.get("at_least", len(condition.get("territories") or [])))


def _no_allied_units(board: Board, power: str, condition: dict[str, Any]) -> bool:
    side = board.map.side_of.get(power)
    return not any(u.power != power and board.map.side_of.get(u.power or "") == side
                   for u in board.units if not board.is_sea(u.at) and board.control.get(u.at) == power)


def _no_enemy_warships(board: Board, power: str, condition: dict[str, Any]) -> bool:
    side = board.map.side_of.get(power)
    zones = condition.get("territories") or []

    def clear(zone: str) -> bool:
        return not any(u.type.is_surface_warship and u.power is not None
                       and board.map.side_of.get(u.power) not in (None, side) for u in board.units_at(zone))

    return sum(1 for zone in zones if clear(zone)) >= int(condition.get("at_least", len(zones)))


CONDITIONS: dict[str, Callable[[Board, str, dict[str, Any]], bool]] = {
    "controls": _side_controls,
    "no_allied_units": _no_allied_units,
    "no_enemy_surface_warships": _no_enemy_warships,
}
"""Each kind of condition and what decides it."""


def _line(text: Any, limit: int = 300) -> str:
    """A map's words as one line of printable text (they go into the state's header comments and the post)."""
    line = " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def condition_holds(board: Board, power: str, condition: dict[str, Any]) -> bool:
    """One condition of an objective of ``power``, on the board as it stands (an unknown kind never holds)."""
    decide = CONDITIONS.get(str(condition.get("kind")))
    return decide is not None and decide(board, power, condition)


def judged(board: Board, power: str) -> list[Objective]:
    """Each objective of ``power``, met or not, in the map's order (none when ``national_objectives`` is off)."""
    if not board.options["national_objectives"]:
        return []
    found = []
    for entry in board.map.objectives:
        if entry.get("power") != power:
            continue
        conditions = [c for c in entry.get("conditions") or [] if isinstance(c, dict)]
        met = bool(conditions) and all(condition_holds(board, power, c) for c in conditions)
        found.append(Objective(power, _line(entry.get("name", "")), int(entry.get("ipcs", 0)), met,
                               _line(entry.get("text", ""))))
    return found


__all__ = ["CONDITIONS", "Objective", "condition_holds", "judged"]
