"""``movecheck map show --units`` / ``--state FILE``: the units in each space of a map.

The board is the state's (``--state``: its control, units and treasury) or the map's own
setup at round 1.  Units are grouped by power (in turn order) and type (in the map's order
of unit types), with their count; the text names them as messages do
(``3 German infantry``).
"""

from __future__ import annotations

from typing import Any


def units_by_space(board: Any) -> dict[str, list[dict[str, Any]]]:
    """Every space's units on a board: ``[{power, type, count}]``, in turn order then type order (spaces with
    none left out)."""
    powers = {p: i for i, p in enumerate(board.map.powers)}
    types = {t: i for i, t in enumerate(board.map.unit_types)}
    counts: dict[str, dict[tuple[str, str], int]] = {}
    for unit in board.units:
        here = counts.setdefault(unit.at, {})
        here[(unit.power, unit.type.name)] = here.get((unit.power, unit.type.name), 0) + 1
    found = {}
    for space, here in counts.items():
        ordered = sorted(here.items(), key=lambda item: (powers.get(item[0][0], len(powers)), item[0][0],
                                                         types.get(item[0][1], len(types)), item[0][1]))
        found[space] = [{"power": p, "type": t, "count": n} for (p, t), n in ordered]
    return found


def units_text(stacks: list[dict[str, Any]]) -> str:
    """``3 German infantry, 1 German factory`` (empty: no units)."""
    from movecheck.aa.wording import unit_phrase

    return ", ".join(unit_phrase(s["count"], s["type"], s["power"]) for s in stacks)


__all__ = ["units_by_space", "units_text"]
