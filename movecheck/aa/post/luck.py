"""The luck of a battle results file in its post (``movecheck summary --luck``; aa-battle.md, "IPC swing and
luck"): each result's IPC swing and luck, and each power's luck, as ``movecheck odds RESULTS`` gives them."""

from __future__ import annotations

from typing import Any

from movecheck.aa.battle.luck import judge, read_results
from movecheck.aa.battle.odds import Ask
from movecheck.aa.battle.report import shown_percent
from movecheck.aa.battle.turn import price_all
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.summary import Section


def luck_section(path: str, legal: bool) -> Section:
    """The luck section of the battle results ``path``; only for a legal file (an illegal result is never
    told as done)."""
    section = Section(_("Luck: {path}").format(path=path), "luck")
    section.facts = {"battles": [], "powers": {}}
    if not legal:
        section.paragraph(_("The luck is not given: the results are not done (see the findings above)."))
        return section
    try:
        rows, facts, powers = luck_of(path)
    except InputError as problem:
        section.paragraph(_("The luck is not given: {reason}").format(reason=str(problem)))
        return section
    section.table([_("space"), _("IPC swing"), _("luck")], rows)
    section.items([_("luck of the {power}: {value:+.2f} IPCs (expected minus actual swing; positive: did worse "
                     "than expected)").format(power=power, value=value) for power, value in powers.items()])
    section.facts = {"battles": facts, "powers": powers}
    return section


def luck_of(path: str) -> tuple[list[list[str]], list[dict[str, Any]], dict[str, float]]:
    """Each result's row and facts, and each power's luck."""
    game, specs, results = read_results(path)
    ask = Ask()
    priced, _turn = price_all(game, specs, ask)
    powers = judge(game, specs, priced, results, ask)
    rows: list[list[str]] = []
    facts: list[dict[str, Any]] = []
    for p in priced:
        if p.result is None:
            continue
        luck = p.result["luck"]
        at = p.spec.at + (" " + _("(raid)") if p.spec.kind == "raid" else "")
        rows.append([at, str(p.result["ipc_swing"]),
                     shown_percent(luck, 1) if luck is not None else _("unknown (round not given)")])
        facts.append({"at": p.spec.at, **({"kind": "raid"} if p.spec.kind == "raid" else {}),
                      "ipc_swing": p.result["ipc_swing"], "luck": None if luck is None else float(luck)})
    return rows, facts, powers
