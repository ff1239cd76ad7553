"""``movecheck odds`` from the command line's words to its report (the command is in :mod:`movecheck.aa.commands`)."""

from __future__ import annotations

from typing import Any

from movecheck.aa.battle.odds import Ask, read_state
from movecheck.aa.battle.report import render_json, render_text
from movecheck.aa.battle.turn import price_all
from movecheck.i18n import _
from movecheck.reading import InputError

SIDES = ("attacker", "defender")


def parse_ool(words: list[str]) -> dict[str, list[str]]:
    """``--ool SIDE=a,b,c`` words: each side once; a malformed word is a usage error."""
    found: dict[str, list[str]] = {}
    for word in words:
        side, sep, order = word.partition("=")
        side = side.strip()
        if not sep or side not in SIDES or side in found:
            raise InputError(_("--ool takes SIDE=ORDER once per side, SIDE attacker or defender (not {word})").format(
                word=repr(word)))
        found[side] = [name.strip() for name in order.split(",") if name.strip()]
    return found


def run_odds(files: list[str], *, battle: str | None, ool: list[str], keep_land: int | None,
             retreat_after: int | None, retreat_below: float | None, best_retreat: bool, submerge: str | None,
             bombard: bool, exact: bool, fmt: str, kernel: Any = None) -> tuple[str, int]:
    """The report of ``movecheck odds`` on ``files`` (battles states, combat-move orders), and the exit code: 1 when a
    battle's odds could not be given (MC012), else 0."""
    if sum(x is not None and x is not False for x in (retreat_after, retreat_below, best_retreat)) > 1:
        raise InputError(_("give at most one of --retreat-after, --retreat-below and --best-retreat"))
    if submerge is not None and submerge not in (*SIDES, "both"):
        raise InputError(_("--submerge takes attacker, defender or both (not {side})").format(side=repr(submerge)))
    ask = Ask(ool=parse_ool(ool), keep_land=keep_land, retreat_after=retreat_after, retreat_below=retreat_below,
              best_retreat=best_retreat, submerge=frozenset([submerge]) if submerge else frozenset(),
              exact=exact, battle=battle, bombard=bombard)
    from movecheck.aa.battle.luck import is_results, judge, read_results

    battles, turns = [], []
    luck: dict[str, float] | None = None
    for path in files:
        if is_results(path):
            game, specs, results = read_results(path)
            priced, turn = price_all(game, specs, ask)
            luck = luck or {}
            for power, value in judge(game, specs, priced, results, ask).items():
                luck[power] = luck.get(power, 0.0) + value
        else:
            game, specs = read_state(path, kernel)
            priced, turn = price_all(game, specs, ask)
        battles.extend(priced)
        turns.append(turn)
    joint = None
    if all(t is not None for t in turns):
        joint = {key: _product([t[key] for t in turns if t is not None]) for key in ("every_battle_won",
                                                                                   "every_territory_taken")}
    text = render_json(battles, joint, exact, luck) if fmt == "json" else render_text(battles, joint, luck)
    return text, 1 if any(p.unchecked for p in battles) else 0


def _product(values: list[object]) -> object:
    result: object = 1
    for value in values:
        result = result * value  # type: ignore[operator]
    return result
