"""The luck of battle results (aa-battle.md, "IPC swing and luck"): ``movecheck odds RESULTS...``.

A results file names its battles state (``state:``); each battle of the state is priced as for a
state, and each result written beside it gets its IPC swing and its luck, P(swing >= the result's
swing).  A battle with a result is priced as the result was fought: under its order of loss (its
``ool:``, else the file's, else ``--ool``, else the default), with its retreat after the round its
``rounds:`` give (``--retreat-after R``) and its chosen submerges from the round they give, else
fighting to the end.  A result without ``rounds:`` that retreats, or whose submarines submerged when
the automatic step did not make them, has luck ``null`` (the round is not known).  The luck of a
power sums, over the battles it fought in, the expected minus the actual swing seen from its side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from movecheck.aa.battle.odds import Ask, Game, Priced, Spec, check_ool, price, read_state, taken_value
from movecheck.aa.battle.units import fights
from movecheck.i18n import _
from movecheck.reading import InputError


def is_results(path: str) -> bool:
    """The file is battle results (``aa-battles``)."""
    from movecheck.files import read

    loaded = read(path)
    return bool(loaded.usable and loaded.kind == "aa-battles")


def read_results(path: str) -> tuple[Game, list[Spec], list[dict[str, Any]]]:
    """The battles state a results file names, its battles, and the file's results (each with the file's
    ``ool:`` under ``file_ool`` when it has none of its own)."""
    from movecheck.files import read

    loaded = read(path)
    data = loaded.doc.data if loaded.usable else {}
    state = data.get("state") if isinstance(data, dict) else None
    if not isinstance(state, str):
        raise InputError(f"{path}: " + _("the results name no battles state (state:)"))
    state_path = str(Path(path).parent / state)
    game, specs = read_state(state_path)
    file_ool = data.get("ool") if isinstance(data.get("ool"), dict) else None
    results = [r for r in data.get("results") or [] if isinstance(r, dict)]
    if file_ool is not None:
        results = [r if isinstance(r.get("ool"), dict) else {**r, "ool": file_ool} for r in results]
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


def judge(game: Game, specs: list[Spec], priced: list[Priced], results: list[dict[str, Any]], ask: Ask
          ) -> dict[str, float]:
    """Set each priced battle's result (its swing and luck), pricing again as the result was fought where
    that differs from the odds asked (the entry of ``priced`` is replaced); the luck of each power."""
    luck: dict[str, float] = {}
    mover = str(game.board.power)
    for index, p in enumerate(priced):
        result = result_for(game, p.spec, results)
        if result is None or p.unchecked:
            continue
        fought: Ask | None = ask
        if p.raid is not None:
            raid = raid_swing(game, p.spec, result)
            if raid is None:
                continue
            swing = raid
        else:
            fought = as_fought(game, p.spec, result, ask)
            if fought is not None and fought != ask:
                again = price(game, p.spec, specs, fought, resolved_ool(game, result, ask))
                if not again.unchecked:
                    priced[index] = p = again
            swing = result_swing(game, p.spec, result)
        p.result = {"ipc_swing": swing,
                    "luck": None if fought is None else sum(float(q) for v, q in p.swing.items() if v >= swing)}
        expected = sum(v * float(q) for v, q in p.swing.items())
        luck[mover] = luck.get(mover, 0.0) + expected - swing
        for power in defenders_of(game, p.spec.at):
            luck[power] = luck.get(power, 0.0) + swing - expected
    return dict(sorted(luck.items()))


def raid_swing(game: Game, spec: Spec, result: dict[str, Any]) -> int | None:
    """A raid's IPC swing: its damage after the caps (as :func:`movecheck.aa.battle.odds.price_raid` caps it)
    less the bombers lost; None when the result gives no damage (neither ``bombing:`` nor damage dice)."""
    bombing = result.get("bombing")
    damage = bombing.get("damage") if isinstance(bombing, dict) else None
    if isinstance(damage, list):
        damage = sum(d for d in damage if isinstance(d, int))
    if not isinstance(damage, int):
        dice = [die for entry in result.get("rounds") or [] if isinstance(entry, dict)
                for step in [(entry.get("attacker") or {}).get("damage")] if isinstance(step, dict)
                for values in step.values() if isinstance(values, list) for die in values if isinstance(die, int)]
        if not dice:
            return None
        damage = sum(dice)
    value = game.production.get(spec.at, 0)
    if game.model.raid_cap == "factory":
        damage = min(damage, 2 * value)
    else:
        owner = game.board.controller(spec.at)
        damage = min(damage, (game.board.ipcs or {}).get(owner, 0) if owner else 0)
    cost = max((game.types[t].cost or 0 for t in spec.attackers), default=0)
    lost = result.get("attacker_losses") or {}
    down = sum(n for n in lost.values() if isinstance(n, int)) if isinstance(lost, dict) else 0
    return damage - down * cost


def resolved_ool(game: Game, result: dict[str, Any], ask: Ask) -> dict[str, list[str]]:
    """The result's order of loss by the map's type names (names of no type are left out: ``check`` reports
    them), else ``--ool``'s."""
    ool = result.get("ool")
    if not isinstance(ool, dict):
        return check_ool(game, ask)
    names = game.board.map
    return {side: [t for t in (names.resolve_type(n) for n in ool.get(side) or [] if isinstance(n, str)) if t]
            for side in ("attacker", "defender") if isinstance(ool.get(side), list)}


def as_fought(game: Game, spec: Spec, result: dict[str, Any], ask: Ask) -> Ask | None:
    """The odds asked, as the result was fought: its order of loss, its retreat after the round its
    ``rounds:`` give, its chosen submerges from the round they give; None when a retreat or a chosen
    submerge is at a round not given."""
    ool = result.get("ool")
    keep = ool.get("keep_land") if isinstance(ool, dict) else None
    rounds = [r for r in result.get("rounds") or [] if isinstance(r, dict)]
    retreat_after = None
    if result.get("retreat"):
        retreat_after = next((i for i, r in enumerate(rounds, 1) if r.get("retreat")), None)
        if retreat_after is None:
            return None
    chosen = chosen_submerges(game, spec, result, rounds)
    if chosen is None:
        return None
    own = {side: [str(n) for n in ool[side]] for side in ("attacker", "defender")
           if isinstance(ool.get(side), list)} if isinstance(ool, dict) else ask.ool
    return Ask(ool=own,
               keep_land=keep if isinstance(keep, int) else ask.keep_land, retreat_after=retreat_after,
               submerge=frozenset(chosen), submerge_from=min(chosen.values(), default=0), exact=ask.exact,
               battle=ask.battle, bombard=ask.bombard)


def chosen_submerges(game: Game, spec: Spec, result: dict[str, Any], rounds: list[dict[str, Any]]
                     ) -> dict[str, int] | None:
    """The sides whose submarines submerged by choice, with the round (the automatic submerge, against
    aircraft alone, is left out); None when a side submerged by choice at a round not given."""
    left = {"attacker": dict(spec.attackers), "defender": dict(spec.defenders)}
    found: dict[str, int] = {}
    for number, entry in enumerate(rounds, 1):
        for side, n in sides_of(entry.get("submerged")).items():
            if n and side not in found and not faces_air_only(game, left, side):
                found[side] = number
        for side in left:
            take(game, left[side], entry.get(f"{side}_losses"))
            removed = entry.get("removed")
            take(game, left[side], removed.get(side) if isinstance(removed, dict) else None)
    if rounds:
        return found
    for side in left:
        take(game, left[side], result.get(f"{side}_losses"))
    if any(n and not faces_air_only(game, left, side) for side, n in sides_of(result.get("submerged")).items()):
        return None
    return found


def sides_of(table: Any) -> dict[str, int]:
    if not isinstance(table, dict):
        return {}
    return {side: n for side, n in table.items() if side in ("attacker", "defender") and isinstance(n, int)}


def take(game: Game, units: dict[str, int], losses: Any) -> None:
    """Take ``losses`` (a results table of type -> count) from ``units``."""
    for name, n in (losses or {}).items() if isinstance(losses, dict) else ():
        kind = game.board.map.resolve_type(name) or str(name)
        if isinstance(n, int) and kind in units:
            units[kind] = max(0, units[kind] - n)


def faces_air_only(game: Game, left: dict[str, dict[str, int]], side: str) -> bool:
    """The side's submarines face only aircraft (they submerge by the automatic step, where the edition has
    it): the enemy's units left in the battle are all aircraft."""
    if not game.model.auto_submerge_vs_air:
        return False
    enemy = left["defender" if side == "attacker" else "attacker"]
    fighting = [t for t, n in enemy.items() if n and not game.model.is_infrastructure(t, game.types[t].is_factory)]
    return bool(fighting) and all(game.types[t].is_air for t in fighting)


def defenders_of(game: Game, space: str) -> list[str]:
    """The powers of the defending side with units at a space."""
    board = game.board
    return sorted({str(u.power) for u in board.units_at(space) if board.enemy_power(u.power)})
