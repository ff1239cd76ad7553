"""Which open aa orders files an edit of a state can change (issue 37): the language server's ``System.state_edit``
and ``System.edit_can_change`` for aa.

The language server re-checks every open orders file whose check an edit of its state *can* change; the others are
left stale and re-checked when they are next asked for (a pull of their diagnostics, a hover, completion,
definition, their own edit or save).  "Can change" errs on the side of a check: :func:`can_change` says no only for
an aa moves file
(combat or noncombat move) checked against that very state, when the edit changed nothing but ``units:`` entries
and ``control:`` entries, all of them in spaces out of reach of the file's orders:

- farther from every space its orders name (paths, ``attack:``) than any unit type moves, plus :data:`MARGIN`
  steps (a canal's territories beside the zones it joins, an aircraft's landing within its movement left, a bonus
  to movement), over the map's connections;
- no entry of the moving power's own units changed anywhere (the counting bounds read the most movement any of its
  land units has left, and the split of the search into parts reads its aircraft at sea, wherever they stand), and
  no changed entry has an id the orders file names.

Anything else (another key of the state, a name that cannot be read, a state with findings, another kind of
orders) can change the file: it is re-checked at once.
"""

from __future__ import annotations

import json
import os
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from movecheck.aa.model import Board
from movecheck.systems import Prepared

MARGIN = 4
"""Steps beyond the longest move of any unit type that an order may still read (see the module's note)."""
LOCAL_KEYS = frozenset({"units", "control"})
"""The keys of a state whose edit may leave an orders file's check as it was."""
MOVE_PHASES = frozenset({"combat_move", "noncombat_move"})


@dataclass(frozen=True)
class Edit:
    """What an edit of a state changed, read once for all its readers: the ``control:`` keys and the ``units:``
    entries it changed, when nothing else changed."""

    control: frozenset[str]
    entries: tuple[Any, ...]


def edit_of(before: Any, after: Any) -> Edit | None:
    """The edit from the state's data ``before`` to ``after`` (None for either: not read cleanly); None when it
    changed more than ``units:`` and ``control:`` entries (or these are not a list and a mapping)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return None
    if any(before.get(key) != after.get(key) for key in set(before) | set(after) if key not in LOCAL_KEYS):
        return None
    control_before, control_after = before.get("control", {}), after.get("control", {})
    units_before, units_after = before.get("units", []), after.get("units", [])
    if not (isinstance(control_before, dict) and isinstance(control_after, dict)):
        return None
    if not (isinstance(units_before, list) and isinstance(units_after, list)):
        return None
    names = {k for k in set(control_before) | set(control_after) if control_before.get(k) != control_after.get(k)}
    return Edit(frozenset(names), tuple(_changed_entries(units_before, units_after)))


def can_change(edit: Edit, state_path: str, prepared: Prepared[Board], orders: Any) -> bool:
    """Whether ``edit`` (:func:`edit_of`) of the state ``state_path`` can change the check of ``orders`` (an orders
    file's data, last checked with ``prepared``, against the state before the edit)."""
    board = prepared.model
    if not isinstance(board, Board) or os.path.abspath(prepared.doc.path) != os.path.abspath(state_path):
        return True  # checked against another state (or none): what it read is not this edit's
    if not isinstance(orders, dict):
        return True
    if orders.get("phase") not in MOVE_PHASES or not isinstance(orders.get("moves"), list):
        return True
    changed = _changed_spaces(edit, board, _named(orders))
    if changed is None:
        return True
    if not changed:
        return False
    near = _read_spaces(orders, board)
    return near is None or not changed.isdisjoint(_within(board, near, _reach(board)))


def _changed_spaces(edit: Edit, board: Any, named: set[str]) -> set[str] | None:
    """The spaces whose units or control the edit changed; None when some change is not one of a space's alone."""
    names = set(edit.control)
    for entry in edit.entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("at"), str) or _movers(entry, board):
            return None
        if any(isinstance(entry.get(key), str) and entry[key] in named for key in ("id", "aboard")):
            return None
        names.add(entry["at"])
    spaces = {board.map.resolve(name) if isinstance(name, str) else None for name in names}
    return None if None in spaces else {s for s in spaces if s is not None}


def _changed_entries(before: list[Any], after: list[Any]) -> Iterator[Any]:
    """The ``units:`` entries one side has more often than the other (their order does not count)."""
    old, new = Counter(map(_canonical, before)), Counter(map(_canonical, after))
    for text in (old - new) + (new - old):
        yield json.loads(text)


def _canonical(entry: Any) -> str:
    return json.dumps(entry, sort_keys=True, default=str)


def _movers(entry: dict[str, Any], board: Any) -> bool:
    """An entry of the moving power's units (or one whose power or type cannot be read)."""
    power = board.map.resolve_power(entry.get("power")) if isinstance(entry.get("power"), str) else None
    kind = board.map.resolve_type(entry.get("type")) if isinstance(entry.get("type"), str) else None
    return power is None or kind is None or kind not in board.map.unit_types or power == board.power


def _named(data: Any) -> set[str]:
    """Every string the orders file holds (the ids it names among them)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _read_spaces(orders: dict[str, Any], board: Any) -> set[str] | None:
    """The spaces the orders name (their paths and ``attack:``); None when one of them cannot be read."""
    found: set[str] = set()
    for order in orders["moves"]:
        if not isinstance(order, dict) or not isinstance(order.get("path"), list):
            return None
        attack = order.get("attack")
        names: Iterable[Any] = [*order["path"], *([attack] if isinstance(attack, str) else [])]
        for name in names:
            space = board.map.resolve(name) if isinstance(name, str) else None
            if space is None:
                return None
            found.add(space)
    return found


def _reach(board: Any) -> int:
    """Steps an order may read beyond the spaces it names: the longest move of any unit type, plus the margin."""
    return max((t.movement for t in board.map.unit_types.values()), default=0) + MARGIN


def _within(board: Any, spaces: set[str], steps: int) -> set[str]:
    """The spaces at most ``steps`` connections from one of ``spaces``."""
    seen = set(spaces)
    queue = deque((space, 0) for space in spaces)
    while queue:
        space, distance = queue.popleft()
        if distance == steps:
            continue
        for other in board.map.neighbours(space):
            if other not in seen:
                seen.add(other)
                queue.append((other, distance + 1))
    return seen
