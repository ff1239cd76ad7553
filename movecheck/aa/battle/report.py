"""The odds report: text (one block per battle, then the turn line) and JSON (schema ``aa-odds``)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from movecheck.aa.battle.odds import Priced
from movecheck.aa.wording import unit_phrase
from movecheck.i18n import _, ngettext


def number(value: Any, exact: bool) -> dict[str, Any]:
    """A probability or expected value: ``{"decimal": x}``, with ``"fraction"`` when exact."""
    found: dict[str, Any] = {"decimal": float(value)}
    if exact and isinstance(value, Fraction):
        found["fraction"] = f"{value.numerator}/{value.denominator}"
    return found


def percentile(dist: dict[int, Any], p: float) -> int:
    """The smallest swing s with P(swing <= s) >= p (a hair of rounding allowed)."""
    total = 0.0
    for value, q in sorted(dist.items()):
        total += float(q)
        if total >= p - 1e-12:
            return value
    return max(dist) if dist else 0


def swing_figures(dist: dict[int, Any]) -> dict[str, Any]:
    mean = sum(float(p) * v for v, p in dist.items())
    var = sum(float(p) * (v - mean) ** 2 for v, p in dist.items())
    return {"mean": mean, "sd": math.sqrt(max(var, 0.0)), "p5": percentile(dist, 0.05),
            "p50": percentile(dist, 0.5), "p95": percentile(dist, 0.95)}


def battle_json(priced: Priced, exact: bool) -> dict[str, Any]:
    spec = priced.spec
    entry: dict[str, Any] = {"at": spec.at, "kind": spec.kind, "attackers": dict(sorted(spec.attackers.items())),
                             "defenders": dict(sorted(spec.defenders.items()))}
    if priced.aa_guns:
        entry["aa_guns"] = priced.aa_guns
    if priced.unchecked:
        entry["unchecked"] = {"code": "MC012", "message": priced.unchecked}
        return entry
    if priced.ool is not None:
        entry["ool"] = {**priced.ool, "keep_land": priced.keep_land}
    entry["retreat"] = priced.retreat
    if priced.low_luck:
        entry["low_luck"] = list(priced.low_luck)
    if priced.raid is not None:
        entry["outcomes"] = {"territory_taken": number(0, exact),
                             **{key: {str(k): number(p, exact) for k, p in dist.items() if p}
                                for key, dist in priced.raid.items()}}
    else:
        entry["outcomes"] = {key: number(p, exact) for key, p in priced.outcomes.items()}
    entry["survivors"] = {
        role: {name: {"mean": number(sum((k * p for k, p in dist.items()), 0 * next(iter(dist.values()))), exact),
                      "dist": {str(k): number(p, exact) for k, p in sorted(dist.items()) if p}}
               for name, dist in sorted(table.items())}
        for role, table in priced.survivors.items()}
    entry["ipc_lost"] = {role: number(v, exact) for role, v in priced.ipc_lost.items()}
    figures = swing_figures(priced.swing)
    entry["ipc_swing"] = {"mean": number(figures["mean"], False), "sd": figures["sd"], "p5": figures["p5"],
                          "p50": figures["p50"], "p95": figures["p95"]}
    entry["rounds"] = number(priced.rounds, exact)
    if priced.result is not None:
        luck = priced.result["luck"]
        entry["result"] = {"ipc_swing": priced.result["ipc_swing"],
                           "luck": None if luck is None else number(luck, False)}
    if priced.best is not None:
        entry["best_retreat"] = {"swing": number(priced.best[0], exact), "fight_to_end": number(priced.best[1], exact)}
    return entry


def render_json(priced: list[Priced], turn: dict[str, Any] | None, exact: bool,
                luck: dict[str, float] | None = None) -> str:
    document: dict[str, Any] = {"movecheck": 1, "kind": "odds", "battles": [battle_json(p, exact) for p in priced],
                                "turn": None if turn is None else {k: number(v, exact) for k, v in turn.items()}}
    if luck is not None:
        document["luck"] = {power: number(value, False) for power, value in luck.items()}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def pct(value: Any) -> str:
    return shown_percent(value, 2)


def shown_percent(value: Any, decimals: int) -> str:
    """A probability as a percentage that never rounds to a certainty it is not: ``100 %`` and ``0 %``
    only when exact, ``> 99.9 %`` / ``< 0.1 %`` (at one decimal) for what would round to them."""
    if value == 1:
        return "100 %"
    if value == 0:
        return "0 %"
    step = 10.0**-decimals
    shown = round(100 * float(value), decimals)
    if shown >= 100:
        return f"> {100 - step:.{decimals}f} %"
    if shown <= 0:
        return f"< {step:.{decimals}f} %"
    return f"{shown:.{decimals}f} %"


def forces(table: dict[str, int]) -> str:
    return ", ".join(unit_phrase(n, name) for name, n in sorted(table.items())) or "-"


def render_text(priced: list[Priced], turn: dict[str, Any] | None, luck: dict[str, float] | None = None) -> str:
    lines: list[str] = []
    for p in priced:
        lines.extend(battle_text(p))
        lines.append("")
    if turn is None:
        lines.append(_("turn: no joint odds (a battle's odds could not be given)"))
    else:
        lines.append(_("turn: every battle won {won}, every territory taken {taken}").format(
            won=pct(turn["every_battle_won"]), taken=pct(turn["every_territory_taken"])))
    for power, value in (luck or {}).items():
        lines.append(_("luck of the {power}: {value:+.2f} IPCs (expected minus actual swing; positive: "
                       "did worse than expected)").format(power=power, value=value))
    return "\n".join(lines) + "\n"


def battle_text(p: Priced) -> list[str]:
    spec = p.spec
    lines = [_("{space} ({kind}): {attackers} against {defenders}").format(
        space=spec.at, kind=spec.kind, attackers=forces(spec.attackers), defenders=forces(spec.defenders))]
    if p.aa_guns:
        lines.append("  " + ngettext("and {n} AA gun of the territory, no unit of the battle, firing at the aircraft "
                                     "in round 1", "and {n} AA guns of the territory, no units of the battle, firing "
                                     "at the aircraft in round 1", p.aa_guns).format(n=p.aa_guns))
    if p.unchecked:
        return [*lines, "  MC012 " + _("unchecked: {reason}").format(reason=p.unchecked)]
    if p.low_luck:
        lines.append("  " + _("under Low Luck ({options})").format(options=", ".join(p.low_luck)))
    if p.raid is not None:
        lost = ", ".join(f"{k}: {pct(q)}" for k, q in p.raid["bombers_lost"].items() if q)
        damage = sum(k * float(q) for k, q in p.raid["damage"].items())
        lines.append("  " + _("bombers lost {lost}; expected damage {damage:.2f}").format(lost=lost, damage=damage))
        return lines + result_lines(p)
    if p.ool is not None:
        lines.append("  " + _("order of loss: attacker {attacker} (keeps {keep} land); defender {defender}").format(
            attacker=", ".join(p.ool["attacker"]), keep=p.keep_land, defender=", ".join(p.ool["defender"])))
    o = p.outcomes
    lines.append("  " + _("attacker wins {win} (territory taken {taken}), defender holds {hold}, both destroyed "
                          "{both}, stalemate {stale}").format(
        win=pct(o["attacker_wins"]), taken=pct(o["territory_taken"]), hold=pct(o["defender_holds"]),
        both=pct(o["both_destroyed"]), stale=pct(o["stalemate"])))
    for role in ("attacker", "defender"):
        means = [f"{sum(k * float(q) for k, q in dist.items()):.2f} {name}"
                 for name, dist in sorted(p.survivors.get(role, {}).items())]
        side = _("attacker") if role == "attacker" else _("defender")
        lines.append("  " + _("expected survivors, {side}: {units}").format(side=side, units=", ".join(means) or "-"))
    figures = swing_figures(p.swing)
    lines.append("  " + _("IPC swing: mean {mean:.2f}, sd {sd:.2f}, 5% {p5}, 50% {p50}, 95% {p95}; expected "
                          "rounds {rounds:.2f}").format(rounds=float(p.rounds), **figures))
    lines += result_lines(p)
    if p.best is not None:
        lines.append("  " + _("best retreat: expected swing {best:.2f} (fighting to the end: {fight:.2f})").format(
            best=float(p.best[0]), fight=float(p.best[1])))
    return lines


def result_lines(p: Priced) -> list[str]:
    """For a results file: the result's IPC swing and its luck."""
    if p.result is None:
        return []
    luck = p.result["luck"]
    return ["  " + (_("result: IPC swing {swing}, luck {luck} (a swing at least this good)").format(
        swing=p.result["ipc_swing"], luck=pct(luck)) if luck is not None else _(
        "result: IPC swing {swing}; luck unknown (a retreat or a submerge at a round not given)").format(
        swing=p.result["ipc_swing"]))]
