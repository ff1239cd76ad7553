"""The pieces the aa summary's kinds share: units as players write them, and what ``apply`` reports.

:mod:`movecheck.aa.post.sections` and :mod:`movecheck.aa.post.mobilize` word their sections
with these: unit counts (``3 inf, 1 art``), the report of a legal file's apply, and the
captures, IPCs moved, aircraft lost and treasuries that report tells.
"""

from __future__ import annotations

from typing import Any

from movecheck.aa.names import UNIT_ABBREVIATIONS
from movecheck.i18n import _
from movecheck.summary import Checked, Section

UNIT_ORDER = ("infantry", "artillery", "tank", "aa_gun", "fighter", "bomber", "transport", "submarine", "destroyer",
              "cruiser", "carrier", "battleship")
"""The order unit types are listed in: land, air, sea (other types after them, by name)."""


def short(kind: str) -> str:
    """The abbreviation players write for a unit type (``inf``, ``art``), else its name."""
    shorts = UNIT_ABBREVIATIONS.get(kind)
    return shorts[0] if shorts else kind.replace("_", " ")


def in_order(counts: dict[str, int]) -> dict[str, int]:
    """Counts by unit type, the types in :data:`UNIT_ORDER`."""
    rank = {kind: k for k, kind in enumerate(UNIT_ORDER)}
    return dict(sorted(counts.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


def counts_text(counts: dict[str, int]) -> str:
    """``3 inf, 1 art`` (types in :data:`UNIT_ORDER`); nothing: ``-``."""
    return ", ".join(f"{n} {short(kind)}" for kind, n in in_order(counts).items() if n) or "-"


def applied_report(item: Checked) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """What ``apply`` would write and report for a legal file (None when it holds the state back)."""
    from movecheck.aa.turn.apply import applied_state

    if item.outcome.hold is not None or item.outcome.final is None:
        return None
    state, report = applied_state(item.outcome.final, item.prepared.doc.data, item.prepared.doc.path, item.path)
    return state, report.as_json()


def report_sections(report: dict[str, Any]) -> list[Section]:
    """Captures and liberations, IPCs moved, aircraft lost, the treasuries after it."""
    sections = []
    changes = Section(_("Territories taken"), "captures")
    lines = []
    for capture in report.get("captured") or []:
        if capture["liberated"]:
            lines.append(_("{at} liberated by the {by}: back to the {holder}").format(**capture))
        else:
            lines.append(_("{at} captured by the {by} from the {was}").format(**capture))
    for transfer in report.get("transfers") or []:
        lines.append(_("{amount} IPCs from the {source} to the {to} ({reason})").format(
            amount=transfer["amount"], source=transfer["from"], to=transfer["to"], reason=transfer["reason"]))
    for lost in report.get("destroyed") or []:
        lines.append(_("lost: 1 {type} of the {power} in {at} (no place to land)").format(
            type=short(lost["type"]), power=lost["power"], at=lost["at"]))
    if lines:
        changes.items(lines)
        changes.facts = {key: report.get(key) or [] for key in ("captured", "transfers", "destroyed")}
        sections.append(changes)
    money = treasury_section(report)
    if money is not None:
        sections.append(money)
    return sections


def treasury_section(report: dict[str, Any]) -> Section | None:
    ipcs = report.get("ipcs")
    if not isinstance(ipcs, dict):
        return None
    section = Section(_("Treasuries"), "treasury")
    income = report.get("income")
    if isinstance(income, dict):
        section.paragraph(_("Income of the {power}: {amount} IPCs").format(power=income.get("power"),
                                                                            amount=income.get("amount")))
    section.table([_("power"), _("IPCs")], [[power, str(n)] for power, n in ipcs.items()])
    section.facts = {"ipcs": dict(ipcs), "purchased": report.get("purchased") or {}, "income": income}
    return section
