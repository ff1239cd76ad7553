"""``movecheck init MAP``: the first state of a game (aa-turn.md; issue 25).

Round 1, the first power in the map's turn order (or ``--power``), phase ``purchase``,
every unit of the map's setup listed as ``apply`` writes units, and ``ipcs:`` from the
map's starting treasuries.  The map is a built-in one or an aa map file (one ``import
triplea`` wrote, say); a file is named in the state by its path from where the state is
written.  What goes wrong is one stderr line and exit 2.
"""

from __future__ import annotations

import json
import os
from typing import Any

from movecheck.aa.maps import BUILTIN_MAPS
from movecheck.i18n import _
from movecheck.reading import InputError


def init_text(ref: str, power: str | None, output: str | None) -> str:
    """The YAML text of the first state of a game on the map ``ref``."""
    from movecheck.aa.maps.gamemap import GameMap
    from movecheck.aa.maps.query import open_map
    from movecheck.aa.turn.apply import _dump, _units

    source = open_map(ref)
    game_map = GameMap(source.data)
    if not game_map.powers:
        raise InputError(_("map {name} has no powers").format(name=repr(ref)))
    first = game_map.sequence[0][0] if power is None else game_map.resolve_power(power)  # the round's first step
    if first is None:
        powers = ", ".join(game_map.powers)
        raise InputError(_("unknown power {name} (powers: {powers})").format(name=repr(power), powers=powers))
    reference = ref if ref in BUILTIN_MAPS else _relative(ref, output)
    treasuries = game_map.ipcs or {}
    data: dict[str, Any] = {
        "movecheck": 1,
        "system": "aa",
        "map": reference,
        "turn": {"round": 1, "power": first, "phase": "purchase"},
        "ipcs": {p: treasuries.get(p, 0) for p in game_map.powers},
    }
    board = _setup_board(data, ref)
    data["units"] = _units(board, keep_status=False)
    lines = [f"# Written by movecheck init: the first state of a game on the map {source.name}."]
    if game_map.ipcs is None:
        lines.append("# ipcs: the map gives no starting treasuries; every power starts with 0 (write them here).")
    return "\n".join(lines) + "\n" + _dump(data)


def _relative(ref: str, output: str | None) -> str:
    """The map file's path from the folder the state is written to (the current folder for stdout)."""
    base = os.path.dirname(os.path.abspath(output)) if output and output != "-" else os.getcwd()
    return os.path.relpath(os.path.abspath(ref), base).replace(os.sep, "/")


def _setup_board(data: dict[str, Any], ref: str) -> Any:
    """The board of the map's setup, built as a state without ``units:`` is."""

    from movecheck.aa.setup import build_board
    from movecheck.loading import load_bytes

    state = dict(data, map=ref if not os.path.exists(ref) else os.path.abspath(ref))
    doc = load_bytes(json.dumps(state).encode("utf-8"), "<init>.json")
    setup = build_board(doc)
    errors = [f for f in setup.findings if f.severity.value == "error"]
    if setup.board is None or errors:
        first = errors[0].message if errors else _("the map's setup cannot be read")
        raise InputError(_("map {name}: {problem}").format(name=repr(ref), problem=first))
    return setup.board


__all__ = ["init_text"]
