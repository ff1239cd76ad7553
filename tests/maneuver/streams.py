"""Generator of the thin-streams battlefield (issue #12): parallel streams across a base's path.

``streams_state()`` is a 200 x 200 field with ``count`` thin streams (0.5 steps deep, 1.5
apart) from y = 12 across the whole width, and red base ``r1`` (mobility 30, 4 x 2) at
(100, 10) facing north, its front edge 1 step short of the first stream.  Every stream costs
a D1 roll (1d6) on entering, so a free move north reasons over up to 6**count combinations.

Run as a script to write ``state.yaml`` and ``orders.yaml`` (a 90-step free move) into a
folder, for timing::

    python -m tests.maneuver.streams OUT_DIR [COUNT] [FILES]

``FILES`` > 0 gives red a corps of that many bases abreast instead, with an All ahead order.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.maneuver.helpers import base, corps, corps_order, dump, free, orders, rect_terrain, state

STREAMS = 8


def streams(count: int = STREAMS) -> list[dict[str, Any]]:
    """``count`` thin streams across the field, 1.5 steps apart from y = 12."""
    return [rect_terrain(f"s{k}", "stream", 0, 12 + 1.5 * k, 200, 12.5 + 1.5 * k) for k in range(count)]


def streams_state(count: int = STREAMS, red: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The battlefield: ``red`` defaults to the single base r1 of mobility 30 at (100, 10)."""
    if red is None:
        red = [corps("red-1", base("r1", 100, 10), mobility=30)]
    return state(red, terrain=streams(count))


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    count = int(argv[1]) if len(argv) > 1 else STREAMS
    files = int(argv[2]) if len(argv) > 2 else 0
    out.mkdir(parents=True, exist_ok=True)
    if files:
        bases = [base(f"r{i}", 4 + 4 * i, 10) for i in range(files)]
        doc = streams_state(count, [corps("red-1", *bases, mobility=30)])
        order = corps_order("all_ahead", "red-1", {f"r{i}": (4 + 4 * i, 40) for i in range(files)})
    else:
        doc = streams_state(count)
        order = free("r1", (100, 100))
    (out / "state.yaml").write_text(dump(doc), encoding="utf-8")
    (out / "orders.yaml").write_text(dump(orders(order)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
