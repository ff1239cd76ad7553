"""The luck of battle results (aa-battle.md, "IPC swing and luck"): ``movecheck odds RESULTS...``.

A results file names its battles state (``state:``); each battle of the state is priced as for a
state, and each result written beside it gets its IPC swing and its luck, P(swing >= the result's
swing), under the default order of loss and fighting to the end.  A result that retreats or whose
submarines submerged has luck ``null`` (the round is not known without its dice).  The luck of a
power sums, over the battles it fought in, the expected minus the actual swing seen from its side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from movecheck.aa.battle.odds import Game, Priced, Spec, read_state, taken_value
from movecheck.aa.battle.units import fights
from movecheck.i18n import _
from movecheck.reading import InputError


def is_results(path: str) -> bool:
    """The file is battle results (``aa-battles``)."""
    from movecheck.files import read

    loaded = read(path)
    return bool(loaded.usable and loaded.kind == "aa-battles")


def read_results(path: str) -> tuple[Game, list[Spec], list[dict[str, Any]]]:
    """The battles state a results file names, its battles, and the file's results."""
    from movecheck.files import read

    loaded = read(path)
    data = loaded.doc.data if loaded.usable else {}
    state = data.get("state") if isinstance(data, dict) else None
    if not isinstance(state, str):
        raise InputError(f"{path}: " + _("the results name no battles state (state:)"))
    state_path = str(Path(path).parent / state)
    game, specs = read_state(state_path)
    results = [r for r in data.get("results") or [] if isinstance(r, dict)]
    return game, specs, results


def result_for(game: Game, spec: Spec, results: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The result written for a battle: at its space, a raid's with ``kind: raid``."""
    for result in results:
        at = game.board.map.resolve(result.get("at")) or result.get("at")
        if at == spec.at and (result.get("kind") == "raid") == (spec.kind == "raid"):
            return result
    return None


def result_swing(game: Game, spec: Spec, result: dict[str, Any]) -> int:
    """The IPC swing of a result: the defending side's losses minus the attacker's, the territory's value
    when it is taken (every defender lost and an attacking land unit left)."""
    def lost(key: str) -> dict[str, int]:
        table = result.get(key) or {}
        return {game.board.map.resolve_type(t) or str(t): n for t, n in table.items() if isinstance(n, int)}

    lost_a, lost_d = lost("attacker_losses"), lost("defender_losses")
    cost = {name: unit.cost or 0 for name, unit in game.types.items()}
    swing = sum(cost.get(t, 0) * n for t, n in lost_d.items()) - sum(cost.get(t, 0) * n for t, n in lost_a.items())
    model = game.model
    fighting = {t: n for t, n in spec.defenders.items() if fights(model, game.types[t])}
    cleared = all(lost_d.get(t, 0) >= n for t, n in fighting.items())
    land_left = any(game.types[t].is_land and n > lost_a.get(t, 0) for t, n in spec.attackers.items())
    if spec.kind == "land" and cleared and land_left and not result.get("retreat"):
        swing += taken_value(game, spec)
    return swing


def judge(game: Game, priced: list[Priced], results: list[dict[str, Any]]) -> dict[str, float]:
    """Set each priced battle's result (its swing and luck); the luck of each power."""
    luck: dict[str, float] = {}
    mover = str(game.board.power)
    for p in priced:
        result = result_for(game, p.spec, results)
        if result is None or p.unchecked or p.raid is not None:
            continue
        swing = result_swing(game, p.spec, result)
        chosen = bool(result.get("retreat") or result.get("submerged"))
        p.result = {"ipc_swing": swing,
                    "luck": None if chosen else sum(float(q) for v, q in p.swing.items() if v >= swing)}
        expected = sum(v * float(q) for v, q in p.swing.items())
        luck[mover] = luck.get(mover, 0.0) + expected - swing
        for power in defenders_of(game, p.spec.at):
            luck[power] = luck.get(power, 0.0) + swing - expected
    return dict(sorted(luck.items()))


def defenders_of(game: Game, space: str) -> list[str]:
    """The powers of the defending side with units at a space."""
    board = game.board
    return sorted({str(u.power) for u in board.units_at(space) if board.enemy_power(u.power)})
