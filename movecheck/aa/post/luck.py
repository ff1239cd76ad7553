"""The luck of a turn's battle results in its post (``movecheck summary --luck``; aa-battle.md, "IPC swing and
luck"): each result's IPC swing and luck, and each power's luck, as ``movecheck odds RESULTS...`` gives them."""

from __future__ import annotations

from typing import Any

from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.summary import Section


def luck_section(files: list[str], legal: bool) -> Section | None:
    """The section of the battle results among ``files`` (None when there are none); only for legal files: an
    illegal result is never told as done."""
    from movecheck.aa.battle.luck import is_results

    results = [path for path in files if is_results(path)]
    if not results:
        return None
    section = Section(_("Luck"), "luck")
    if not legal:
        section.paragraph(_("The luck is not given: a file is not done (see the findings above)."))
        section.facts = {"battles": [], "powers": {}}
        return section
    try:
        rows, facts, powers = luck_of(results)
    except InputError as problem:
        section.paragraph(_("The luck is not given: {reason}").format(reason=str(problem)))
        section.facts = {"battles": [], "powers": {}}
        return section
    section.table([_("space"), _("IPC swing"), _("luck")], rows)
    section.items([_("luck of the {power}: {value:+.2f} IPCs (expected minus actual swing; positive: did worse "
                     "than expected)").format(power=power, value=value) for power, value in powers.items()])
    section.facts = {"battles": facts, "powers": powers}
    return section


def luck_of(paths: list[str]) -> tuple[list[list[str]], list[dict[str, Any]], dict[str, float]]:
    """Each result's row and facts, and each power's luck over the files."""
    from movecheck.aa.battle.luck import judge, read_results
    from movecheck.aa.battle.odds import Ask
    from movecheck.aa.battle.report import shown_percent
    from movecheck.aa.battle.turn import price_all

    rows: list[list[str]] = []
    facts: list[dict[str, Any]] = []
    powers: dict[str, float] = {}
    for path in paths:
        game, specs, results = read_results(path)
        ask = Ask()
        priced, _turn = price_all(game, specs, ask)
        for power, value in judge(game, specs, priced, results, ask).items():
            powers[power] = powers.get(power, 0.0) + value
        for p in priced:
            if p.result is None:
                continue
            luck = p.result["luck"]
            rows.append([p.spec.at, str(p.result["ipc_swing"]),
                         shown_percent(luck, 1) if luck is not None else _("unknown (round not given)")])
            facts.append({"at": p.spec.at, "ipc_swing": p.result["ipc_swing"],
                          "luck": None if luck is None else float(luck)})
    return rows, facts, dict(sorted(powers.items()))
