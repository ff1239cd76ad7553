"""``movecheck apply`` for maneuver: the battlefield after a side's orders, and the side to move next.

The engine (:func:`movecheck.maneuver.engine.run`) has carried the orders out on a copy of
the battlefield: each base of a corps order stands at the end the rules require (a
declared end within ``tolerance`` of it counts as it), each base of a free move at the
end of its declared path with its declared facing.  This module writes the state again
with those positions: the state's own data kept key for key, each base's ``x``, ``y``
and ``facing`` replaced, and ``to_move`` naming the side whose orders come next (the
sides in the state's order, round and round).  Coordinates are rounded to 3 decimals,
whole numbers written as integers, so the output is the same bytes every time.
"""

from __future__ import annotations

import copy
from typing import Any

DECIMALS = 3


def next_state(battlefield: Any, state: dict[str, Any], state_path: str, orders_path: str, side: str, forced: bool) -> str:
    """The YAML text of the state after ``side``'s orders were carried out on ``battlefield``."""
    data = copy.deepcopy(state)
    for members in (data.get("sides") or {}).values():
        for corps in members or []:
            for entry in corps.get("bases") or []:
                base = battlefield.bases.get(entry.get("id")) if isinstance(entry, dict) else None
                if base is not None:
                    entry.update(x=_number(base.x), y=_number(base.y), facing=_bearing(base.facing))
    data["to_move"] = next_side(list(battlefield.sides), side)
    lines = [f"# Written by movecheck apply: the orders {orders_path} carried out on the state {state_path}."]
    if forced:
        lines.append("# --force: the orders are NOT legal (see movecheck check); they were applied as checked.")
    return "\n".join(lines) + "\n" + _dump(_ordered(data))


def next_side(sides: list[str], side: str) -> str:
    """The side after ``side`` in the state's order (the first after the last)."""
    if side not in sides:
        return sides[0] if sides else side
    return sides[(sides.index(side) + 1) % len(sides)]


def _number(value: float) -> float | int:
    rounded = round(float(value), DECIMALS)
    if rounded == 0:
        return 0  # never a negative zero
    return int(rounded) if rounded.is_integer() else rounded


def _bearing(value: float) -> float | int:
    """A facing in [0, 360)."""
    bearing = _number(float(value) % 360.0)
    return 0 if bearing == 360 else bearing


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    """``to_move`` after the file's header keys, before the battlefield."""
    head = ("movecheck", "system", "kind", "options", "to_move")
    return {**{k: data[k] for k in head if k in data}, **{k: v for k, v in data.items() if k not in head}}


def _dump(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


__all__ = ["next_side", "next_state"]
