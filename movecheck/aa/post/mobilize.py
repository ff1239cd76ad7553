"""The mobilization's sections of a turn's post: the units placed, the end of the turn, the income.

A legal file is told as ``apply`` carries it out (:func:`movecheck.aa.turn.apply.applied`, the same
report ``apply --format json`` gives): each placement in the players' words (``3 inf, 1 arm:
Germany``; fighters aboard a carrier at sea; a new factory), the fighters that waited at sea
for a new carrier and the ones destroyed, the units left unplaced and what became of them
(``unplaced_units``), the income and the territories it was counted from, the treasuries
after it.  A file with an illegal or unchecked placement only lists its legal placements.
"""

from __future__ import annotations

from typing import Any

from movecheck.aa.post.report import applied_report, counts_text, in_order, report_sections, short, treasury_section
from movecheck.findings import Verdict
from movecheck.i18n import _, ngettext
from movecheck.summary import Checked, Section


def mobilize_sections(item: Checked) -> list[Section]:
    """The placements, then (a legal file) the end of the turn and the treasuries."""
    mob = item.outcome.final if item.outcome is not None else None
    section = Section(_("Mobilization: {path}").format(path=item.path), "mobilize")
    if mob is None:
        section.paragraph(_("The mobilization was not read (see the findings above)."))
        return [section]
    waiting = _waiting_fighters(mob)
    lines, facts = [], []
    for placement in mob.placements:
        if item.verdicts.get(placement.index + 1) is not Verdict.LEGAL:  # placements count from 0, verdicts from 1
            continue
        line, fact = placement_line(mob, placement)
        lines.append(line)
        facts.append(fact)
    section.items(lines)
    refused = item.not_done(section, len(lines), _("Nothing placed."))
    section.facts = {"placed": facts, "not_done": refused}
    if not item.legal:
        section.paragraph(_("The end of the turn is not told: the file is not legal as a whole."))
        return [section]
    found = applied_report(item)
    if found is None:
        return [section]
    report = found[1]
    lost = {(d["type"], d["at"]) for d in report.get("destroyed") or []}
    seated = [(kind, at) for kind, at in waiting if (kind, at) not in lost]
    end = _end_lines(report, seated)
    if end:
        section.paragraph(_("At the end of the turn:"))
        section.items(end)
    unplaced = report.get("unplaced") or {}
    section.facts.update({
        "waiting_fighters_aboard": [{"type": kind, "at": at} for kind, at in seated],
        "unplaced": {"units": _ordered(unplaced.get("units") or {}), "settled": unplaced.get("settled")},
        "refunded": report.get("refunded"),
        "destroyed": report.get("destroyed") or [],
        "income": report.get("income"),
    })
    others = [s for s in report_sections(report) if s.kind != "treasury"]
    money = treasury_section(report)
    return [section, *others, *([money] if money is not None else [])]


def _waiting_fighters(mob: Any) -> list[tuple[str, str]]:
    """The power's fighters at sea aboard nothing before the placements: they wait for a carrier placed there."""
    board = mob.board
    return [(u.type.name, u.at) for u in board.units
            if u.type.is_fighter and u.power == mob.power and u.aboard is None and board.is_sea(u.at)]


def _ordered(counts: dict[str, int]) -> dict[str, int]:
    return in_order(dict(counts))


def placement_line(mob: Any, placement: Any) -> tuple[str, dict[str, Any]]:
    """``3 inf, 1 arm: Germany`` (with the factory it came from, fighters aboard, a new factory) and its facts."""
    board = mob.board
    types = board.map.unit_types
    words = []
    if placement.source:
        words.append(_("from the factory in {space}").format(space=placement.source))
    sea = board.is_sea(placement.at)
    fighters = sum(n for kind, n in placement.units.items() if types[kind].is_fighter)
    if sea and fighters:
        words.append(ngettext("the fighter aboard a carrier", "the fighters aboard carriers", fighters))
    for space, count in placement.fighters_from.items():
        words.append(_("{count} ftr from {space} onto the new carrier").format(count=count, space=space))
    if any(types[kind].is_factory for kind in placement.units):
        words.append(_("a new industrial complex"))
    text = f"{counts_text(placement.units)}: {placement.at}"
    if words:
        text += " (" + "; ".join(words) + ")"
    fact: dict[str, Any] = {"order": placement.index + 1, "at": placement.at, "units": _ordered(placement.units),
                            "from": placement.source, "fighters_from": dict(placement.fighters_from),
                            "new_factory": any(types[kind].is_factory for kind in placement.units)}
    return text, fact


def _end_lines(report: dict[str, Any], seated: list[tuple[str, str]]) -> list[str]:
    """The end of the turn: fighters that land on a new carrier or are lost, units left unplaced, the income."""
    lines = []
    for kind, at in seated:
        lines.append(_("1 {type} that waited in {at} lands on the new carrier").format(type=short(kind), at=at))
    unplaced = report.get("unplaced") or {}
    left = unplaced.get("units") or {}
    if left:
        units = counts_text(left)
        how = unplaced.get("settled")
        if how == "refunded":
            lines.append(_("left unplaced: {units}, refunded ({ipcs} IPCs back)").format(
                units=units, ipcs=report.get("refunded") or 0))
        elif how == "kept":
            lines.append(_("left unplaced: {units}, kept to be placed in a later turn").format(units=units))
        else:
            lines.append(_("left unplaced: {units}, lost").format(units=units))
    income = report.get("income")
    if isinstance(income, dict):
        if income.get("reason"):
            lines.append(_("income of the {power}: 0 IPCs ({reason})").format(power=income.get("power"),
                                                                             reason=income["reason"]))
        else:
            territories = income.get("territories") or {}
            counted = ", ".join(f"{space} {value}" for space, value in territories.items())
            lines.append(_("income of the {power}: {amount} IPCs from {n} territories ({counted})").format(
                power=income.get("power"), amount=income.get("amount"), n=len(territories), counted=counted))
    return lines


__all__ = ["mobilize_sections", "placement_line"]
