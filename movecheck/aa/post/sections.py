"""The aa sections of a turn's post (``movecheck summary``): moves, battles, captures, treasuries.

One function per kind of file (:data:`KINDS`): a combat or noncombat move, the battle
results, a purchase, a mobilization (:mod:`movecheck.aa.post.mobilize`), a state alone.
What the orders did is told as done only when the whole file is legal (``item.legal``:
``apply`` would write it); a file with an illegal or unchecked order gets its legal
moves listed and the rest is left to the findings at the top of the post.  The facts of
a legal file come from the same record ``apply`` fills (:func:`movecheck.aa.turn.apply.applied`),
so the post and the next state agree.  Names are the map's; units are written as
players write them (``3 inf, 1 art``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from movecheck.aa.post.mobilize import mobilize_sections
from movecheck.aa.post.report import (
    applied_report,
    counts_text,
    in_order,
    report_sections,
    short,
)
from movecheck.findings import Verdict
from movecheck.i18n import _, ngettext
from movecheck.summary import Checked, Section

ARROW = " → "


def title(item: Checked) -> str:
    """``Germans, round 1``: the power and round of the state the file is checked against."""
    turn = item.prepared.doc.get("turn", default={})
    if not isinstance(turn, dict):
        return ""
    board = item.prepared.model
    power = board.map.resolve_power(turn.get("power")) or turn.get("power") if board is not None else turn.get("power")
    if turn.get("round") is None:
        return str(power or "")
    return _("{power}, round {round}").format(power=power, round=turn.get("round"))


TURN_PHASES = ("purchase", "combat_move", "battles", "noncombat_move", "mobilize")
"""The phases of a power's turn, in order (aa-turn.md)."""


def turn_order(item: Checked) -> tuple[int, ...]:
    """Where a file goes in the post: by round, by the power's place in the map's turn order, then by phase
    (purchase, combat move, battles, noncombat move, mobilization): the place of the power's phase in the map's
    sequence, where it has one.  What the state does not say sorts last."""
    turn = item.prepared.doc.get("turn", default={})
    turn = turn if isinstance(turn, dict) else {}
    board = item.prepared.model
    last = 10**9
    number = turn.get("round")
    round_ = number if isinstance(number, int) and not isinstance(number, bool) else last
    power = board.map.resolve_power(turn.get("power")) if board is not None and isinstance(turn.get("power"), str) \
        else None
    phase = turn.get("phase")
    steps = board.map.sequence if board is not None else []
    if (power, phase) in steps:  # the map's order of the round's phases (China's inside the Americans' turn)
        return round_, steps.index((power, phase)), 0
    own = [k for k, (who, _phase) in enumerate(steps) if who == power]
    return (round_, own[-1], 1) if own else (round_, last, last)  # a phase the turn does not have: after the power's


def sections(item: Checked) -> list[Section]:
    """The sections of one aa file."""
    kind = item.kind.partition("-")[2]
    writer = KINDS.get(kind)
    return writer(item) if writer is not None else []


def units_text(units: list[Any]) -> str:
    """The units of a move as players write them, ids in brackets: ``2 ftr (JG-Nord, JG-Reich)``."""
    counts: dict[str, list[Any]] = {}
    for unit in units:
        counts.setdefault(unit.type.name, []).append(unit)
    parts = []
    for kind in in_order({kind: len(group) for kind, group in counts.items()}):
        group = counts[kind]
        ids = [u.id for u in group if u.id]
        parts.append(f"{len(group)} {short(kind)}" + (f" ({', '.join(ids)})" if ids else ""))
    return ", ".join(parts) or "-"


def phase_word(phase: Any) -> str:
    words = {"purchase": _("purchase"), "combat_move": _("combat move"), "noncombat_move": _("noncombat move"),
             "battles": _("battles"), "mobilize": _("mobilization")}
    return words.get(str(phase), str(phase))


# -- a combat or noncombat move ------------------------------------------


def orders_sections(item: Checked) -> list[Section]:
    """Each legal move in the players' words; for a legal file also the battles and captures that follow."""
    phase = item.outcome.final if item.outcome is not None else None
    turn = item.prepared.doc.get("turn", default={})
    heading = _("{phase}: {path}").format(phase=phase_word(turn.get("phase")).capitalize(), path=item.path)
    section = Section(heading, "moves")
    if phase is None:
        section.paragraph(_("The orders were not carried out (see the findings above)."))
        return [section]
    start = item.prepared.model
    moves, facts = [], []
    for record in phase.records:
        move = record.move
        if item.verdicts.get(move.index) is not Verdict.LEGAL:
            continue
        line, fact = move_line(record, phase, start)
        moves.append(line)
        facts.append(fact)
    section.items(moves)
    refused = item.not_done(section, len(moves), _("No moves."))
    section.facts = {"phase": str(turn.get("phase")), "moves": facts, "not_done": refused}
    found = [section]
    if item.legal:
        found += _applied_sections(item)
    else:
        section.paragraph(_("Battles and captures are not told: the file is not legal as a whole."))
    return found


def blitzed_through(start: Any, phase: Any, record: Any) -> list[str]:
    """The empty enemy territories a blitzing unit of a combat move passes (``start``: the board before the phase)."""
    if not phase.combat or not any(u.type.blitz for u in record.units):
        return []
    return [space for space in record.move.path[1:-1]
            if not start.is_sea(space) and start.hostile_territory(space) and not start.enemy_units(space)]


def move_line(record: Any, phase: Any, start: Any) -> tuple[str, dict[str, Any]]:
    """``1 arm: West Russia → Archangel → Karelia S.S.R. (blitz through Archangel)`` and its facts.

    ``start``: the board when the phase began (a tank that passes an enemy territory
    without defenders blitzes through it).
    """
    move = record.move
    units = list(record.units)
    words = []
    how = []
    if record.cargo:
        words.append(_("carrying {units}").format(units=units_text(record.cargo)))
    if record.unloaded and record.loaded:
        words.append(_("by transport through {zone}").format(zone=record.unload_zone))
        how.append("transport")
    elif record.unloaded:
        if phase.combat:
            words.append(_("amphibious assault from {zone}").format(zone=record.unload_zone))
            how.append("amphibious")
        else:
            words.append(_("unloaded from {zone}").format(zone=record.unload_zone))
            how.append("unload")
    elif record.loaded:
        words.append(_("boarding a transport"))
        how.append("load")
    through = blitzed_through(start, phase, record)
    if through:
        words.append(_("blitz through {spaces}").format(spaces=", ".join(through)))
        how.append("blitz")
    if phase.combat and move.raid:
        words.append(_("strategic bombing raid on {space}").format(space=move.end))
        how.append("raid")
    if not phase.combat and phase.board.is_sea(move.end) and any(u.type.is_air for u in units):
        if any(u.type.is_carrier for u in phase.board.units_at(move.end)):
            words.append(_("landing on a carrier in {zone}").format(zone=move.end))
            how.append("carrier_landing")
        else:
            words.append(_("to land on a carrier to be placed in {zone}").format(zone=move.end))
            how.append("new_carrier_landing")
    text = f"{units_text(units)}: {ARROW.join(move.path)}"
    if words:
        text += " (" + "; ".join(words) + ")"
    fact: dict[str, Any] = {"order": move.index, "id": move.order_id, "units": _type_counts(units),
                            "path": list(move.path), "how": how}
    if record.cargo:
        fact["cargo"] = _type_counts(record.cargo)
    return text, fact


def _type_counts(units: list[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for unit in units:
        found[unit.type.name] = found.get(unit.type.name, 0) + 1
    return found


def battle_odds(item: Checked, battles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each battle's odds for the post (movecheck odds, issue 38): its text and its facts."""
    from movecheck.aa.battle.odds import post_odds
    from movecheck.aa.battle.report import shown_percent

    found: list[dict[str, Any]] = []
    for priced in post_odds(item.outcome.final.board, item.prepared.doc, battles):
        if priced.unchecked or priced.raid is not None:
            found.append({"text": "-", "facts": None})
            continue
        win, taken = float(priced.outcomes["attacker_wins"]), float(priced.outcomes["territory_taken"])
        found.append({"text": shown_percent(priced.outcomes["attacker_wins"], 1),
                      "facts": {"at": priced.spec.at, "attacker_wins": win, "territory_taken": taken}})
    return found


def _applied_sections(item: Checked) -> list[Section]:
    found = applied_report(item)
    if found is None:
        return []
    state, report = found
    sections = []
    battles = [b for b in state.get("battles") or [] if isinstance(b, dict)]
    if battles:
        section = Section(_("Battles to fight"), "battles")
        rows = []
        odds = battle_odds(item, battles)
        for battle, chance in zip(battles, odds, strict=True):
            came = ", ".join(battle.get("from") or [])
            if battle.get("amphibious"):
                came += " " + _("(amphibious: {units})").format(units=counts_text(battle["amphibious"]))
            at = str(battle.get("at")) + (" " + _("(raid)") if battle.get("kind") == "raid" else "")
            rows.append([at, counts_text(battle.get("attackers") or {}),
                         counts_text(battle.get("defenders") or {}), came, chance["text"]])
        section.table([_("space"), _("attackers"), _("defenders"), _("from"), _("attacker wins")], rows)
        section.facts = {"battles": battles, "odds": [c["facts"] for c in odds]}
        sections.append(section)
    sections += report_sections(report)
    return sections


# -- battle results ---------------------------------------------------------


def battles_sections(item: Checked) -> list[Section]:
    """Each battle's sides and losses, retreats; for a legal file the captures and treasuries that follow."""
    resolution = item.outcome.final if item.outcome is not None else None
    section = Section(_("Battles: {path}").format(path=item.path), "battle_results")
    if resolution is None:
        section.paragraph(_("The results were not read (see the findings above)."))
        return [section]
    rows, facts, notes = [], [], []
    for result in resolution.results:
        if item.verdicts.get(result.index + 1) is not Verdict.LEGAL:  # results count from 0, verdicts from 1
            continue
        battle = result.battle
        attackers = _type_counts(battle.side("attacker")) if battle is not None else {}
        defenders = _type_counts(battle.defenders) if battle is not None else {}
        lost = result.losses
        outcome = _("retreat to {space}").format(space=result.retreat) if result.retreat else ""
        raid = battle is not None and battle.raid
        at = result.at + (" " + _("(raid)") if raid else "")
        rows.append([at, counts_text(attackers), counts_text(defenders), counts_text(lost.get("attacker", {})),
                     counts_text(lost.get("defender", {})), outcome])
        facts.append({"at": result.at, **({"kind": "raid"} if raid else {}), "attackers": attackers,
                      "defenders": defenders,
                      "attacker_losses": dict(lost.get("attacker", {})),
                      "defender_losses": dict(lost.get("defender", {})),
                      "retreat": result.retreat, **_extras_facts(result.extras), **_submerged_facts(result),
                      **_dice_facts(result, resolution)})
        notes += [f"{result.at}: {line}" for line in (*_submerged_lines(result), *_extras_lines(result.extras),
                                                      *_dice_lines(result, resolution))]
    headers = [_("space"), _("attackers"), _("defenders"), _("attacker lost"), _("defender lost"), _("retreat")]
    section.table(headers, rows)
    section.items(notes)
    refused = sum(1 for v in item.verdicts.values() if v is not Verdict.LEGAL)
    if refused:
        section.paragraph(ngettext("{n} result is not done (see the findings above).",
                                   "{n} results are not done (see the findings above).", refused).format(n=refused))
    section.facts = {"battles": facts, "not_done": refused}
    found = [section]
    if item.legal:
        applied = applied_report(item)
        if applied is not None:
            found += report_sections(applied[1])
    if "luck" in item.extras:
        from movecheck.aa.post.luck import luck_section

        found.append(luck_section(item.path, legal=item.legal))
    return found


def _dice_rounds(result: Any, resolution: Any) -> int:
    """How many rounds of a result were checked against their dice (0: it gives none)."""
    found = resolution.replays.get(result.index)
    return int(getattr(found, "rounds", 0) or 0)


def _dice_facts(result: Any, resolution: Any) -> dict[str, Any]:
    """``dice_checked: N`` where the result's N rounds were checked against their dice (left out elsewhere)."""
    rounds = _dice_rounds(result, resolution)
    return {"dice_checked": rounds} if rounds else {}


def _dice_lines(result: Any, resolution: Any) -> list[str]:
    """``dice checked (3 rounds)`` for a legal result whose rounds give its dice; ``dice checked against the dice
    chain (3 rounds)`` where the file's ``dice_chain:`` gives them (aa-battle.md, "Dice anyone can verify")."""
    rounds = _dice_rounds(result, resolution)
    if not rounds:
        return []
    if resolution.doc.get("dice_chain", default=None) is not None:
        return [ngettext("dice checked against the dice chain ({n} round)",
                         "dice checked against the dice chain ({n} rounds)", rounds).format(n=rounds)]
    return [ngettext("dice checked ({n} round)", "dice checked ({n} rounds)", rounds).format(n=rounds)]


def _submerged_facts(result: Any) -> dict[str, Any]:
    """``submerged: {defender: 1}`` where submarines submerged (left out where none did)."""
    submerged = {side: int(n) for side, n in sorted(result.submerged.items()) if n}
    return {"submerged": submerged} if submerged else {}


def _submerged_lines(result: Any) -> list[str]:
    """``submerged: 1 sub (defender)``: the submarines that left the battle under water."""
    sides = {"attacker": _("attacker"), "defender": _("defender")}
    return [_("submerged: {units} ({side})").format(units=counts_text({"submarine": int(n)}), side=sides[side])
            for side, n in sorted(result.submerged.items()) if n]


def _extras_facts(extras: Any) -> dict[str, Any]:
    """A result's ``damaged:``, ``bombing:`` and ``defender_landing:`` as data."""
    return {"damaged": {side or "unsaid": in_order(dict(counts)) for side, counts in extras.damaged.items()},
            "bombing": None if extras.bombing is None else {"at": extras.bombing_at, "damage": extras.bombing},
            "defender_landing": [{"from": landing.origin, "to": landing.to, "units": in_order(dict(landing.units))}
                                 for landing in extras.landings]}


def _extras_lines(extras: Any) -> list[str]:
    """``damaged: 1 bb (defender)``, ``strategic bombing of UK: 6 damage``, ``defender landing: 1 ftr → Egypt``."""
    sides = {"attacker": _("attacker"), "defender": _("defender")}
    lines = []
    for side, counts in extras.damaged.items():
        text = _("damaged: {units}").format(units=counts_text(counts))
        lines.append(text + (f" ({sides.get(side, side)})" if side else ""))
    if extras.bombing is not None:
        lines.append(_("strategic bombing of the factory in {at}: {damage} damage").format(
            at=extras.bombing_at or "-", damage=extras.bombing))
    for landing in extras.landings:
        path = ARROW.join(p for p in (landing.origin, landing.to) if p)
        lines.append(_("defending aircraft land: {units}: {path}").format(units=counts_text(landing.units), path=path))
    return lines


# -- a state alone ------------------------------------------------------------


def state_sections(item: Checked) -> list[Section]:
    """The board: control and IPC value per power (and the treasury the state gives), units per space."""
    board = item.prepared.model
    turn = item.prepared.doc.get("turn", default={})
    powers = Section(_("The board: {path}").format(path=item.path), "board")
    if isinstance(turn, dict) and turn.get("phase"):
        powers.paragraph(_("At the {phase} of the {power}.").format(phase=phase_word(turn.get("phase")),
                                                                    power=board.power))
    held: dict[str, list[str]] = {}
    for space, power in board.control.items():
        if space in board.map.spaces and not board.is_sea(space):
            held.setdefault(power, []).append(space)
    rows, facts = [], []
    for power in board.map.powers:
        spaces = held.get(power, [])
        value = sum(board.map.production.get(s, 0) for s in spaces)
        treasury = board.ipcs.get(power) if board.ipcs is not None else None
        rows.append([power, str(len(spaces)), str(value), "-" if treasury is None else str(treasury)])
        facts.append({"power": power, "territories": len(spaces), "production": value, "ipcs": treasury})
    powers.table([_("power"), _("territories"), _("IPC value"), _("treasury")], rows)
    if board.purchased:
        powers.paragraph(_("Bought this turn, to be placed: {units}").format(units=counts_text(board.purchased)))
    powers.facts = {"powers": facts, "purchased": in_order(dict(board.purchased))}
    cities = victory_section(board)
    units = Section(_("Units"), "units")
    stacks: dict[str, dict[str, dict[str, int]]] = {}
    for unit in board.units:
        stacks.setdefault(unit.at, {}).setdefault(unit.power, {}).setdefault(unit.type.name, 0)
        stacks[unit.at][unit.power][unit.type.name] += 1
    rows = []
    for space in board.map.spaces:
        if space not in stacks:
            continue
        here = "; ".join(f"{power}: {counts_text(kinds)}"
                         for power, kinds in sorted(stacks[space].items()))
        holder = _("sea") if board.is_sea(space) else board.controller(space) or "-"
        rows.append([space, holder, here])
    units.table([_("space"), _("held by"), _("units")], rows)
    units.facts = {"spaces": {space: {p: in_order(k) for p, k in sorted(stacks[space].items())}
                              for space in board.map.spaces if space in stacks}}
    return [powers, *([cities] if cities is not None else []), units]


def victory_section(board: Any) -> Section | None:
    """Each side's victory cities, and the side that holds enough to have won (None: the map lists none)."""
    from movecheck.aa.turn.victory import cities_held, needed, winners

    if not board.map.victory_cities:
        return None
    held = cities_held(board.map, board.control)
    section = Section(_("Victory cities"), "victory_cities")
    section.table([_("side"), _("victory cities"), _("held")],
                  [[side, str(len(cities)), ", ".join(cities)] for side, cities in held.items()])
    number = needed(board.map, board.options)
    if number is not None:
        section.paragraph(_("A side that holds {needed} of the {total} victory cities has won.").format(
            needed=number, total=len(board.map.victory_cities)))
    for side in winners(board.map, board.options, board.control):
        section.paragraph(_("The {side} hold {count} victory cities: they have won.").format(
            side=side, count=len(held[side])))
    section.facts = {"held": held, "needed": number}
    return section


# -- a purchase ----------------------------------------------------------------


def purchase_sections(item: Checked) -> list[Section]:
    """What was bought and what it cost, and the treasuries after it (a legal file only)."""
    section = Section(_("Purchase: {path}").format(path=item.path), "purchase")
    found = applied_report(item) if item.legal else None
    if found is None:
        section.paragraph(_("The purchase is not done (see the findings above)."))
        return [section]
    report = found[1]
    spent = {str(k): int(n) for k, n in (report.get("spent") or {}).items()}
    repairs = dict(getattr(item.outcome.final, "repair", {}) or {})
    for line in purchase_lines(dict(report.get("purchased") or {}), repairs, spent):
        section.paragraph(line)
    section.facts = {"purchased": in_order(dict(report.get("purchased") or {})), "spent": report.get("spent") or {}}
    if repairs:
        section.facts["repaired"] = repairs
    _free_units(section, item.outcome.final)
    return [section, *report_sections(report)]


def _free_units(section: Section, bought: Any) -> None:
    """China's free infantry of this purchase step (aa-anniversary.md), told and in the facts."""
    from movecheck.aa.turn.china import free_count, own_rules

    found = free_count(bought.board, bought.power)
    if found is None:
        return
    kind, count, held = found
    per = (own_rules(bought.board, bought.power) or {})["free_units"]["per_territories"]
    section.paragraph(_("Free units to place at the mobilization: {units} (one per {per} of the {held} territories "
                        "the {power} control)").format(units=counts_text({kind: count}) if count else "0",
                                                       per=per, held=held, power=bought.power))
    section.facts["free_units"] = {kind: count}


def purchase_lines(units: dict[str, int], repairs: dict[str, int], spent: dict[str, int]) -> list[str]:
    """The post's lines on a purchase: the units and their price, then each repair and the research on lines of
    their own (never folded into the units' price), and the total when there is more than one part."""
    lines = [_("Bought: {units} ({ipcs} IPCs)").format(units=counts_text(units), ipcs=spent.get("purchase", 0))
             if units else _("Bought: no units")]
    if repairs:
        mended = ", ".join(_("{space}, {points} damage").format(space=space, points=points)
                           for space, points in repairs.items())
        lines.append(_("Repaired: {repairs} ({ipcs} IPCs)").format(repairs=mended, ipcs=spent.get("repair", 0)))
    if spent.get("research"):
        lines.append(_("Research: {ipcs} IPCs").format(ipcs=spent["research"]))
    if sum(1 for part in spent.values() if part) > 1:
        lines.append(_("Spent in all: {ipcs} IPCs").format(ipcs=sum(spent.values())))
    return lines


KINDS: dict[str, Callable[[Checked], list[Section]]] = {
    "orders": orders_sections,
    "battles": battles_sections,
    "purchase": purchase_sections,
    "mobilize": mobilize_sections,
    "state": state_sections,
}
"""Each aa file kind (the part after ``aa-``) -> the function that words its sections."""
