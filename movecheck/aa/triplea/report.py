"""A TripleA conversion's result and how it is shown: the map's YAML text and the stderr lines."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from movecheck.aa.triplea.rules import Reading
from movecheck.aa.triplea.rules import clean as _clean
from movecheck.i18n import _, ngettext


@dataclass
class Conversion:
    """A converted map, the edition it names (or None) and why, the options its settings gave
    (and those movecheck has no option for yet), what was left out and the choices made."""

    map: dict[str, Any]
    edition: str | None
    edition_reason: str
    unmodelled: list[str] = field(default_factory=list)
    options: list[Reading] = field(default_factory=list)
    pending: list[Reading] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _value(value: Any) -> str:
    """An option's value as the map's YAML writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _listed(readings: list[Reading]) -> str:
    return ", ".join(f"{r.option}={_value(r.value)}" for r in readings)


def render(conversion: Conversion, name: str) -> str:
    """The YAML text of a converted map: a comment block, then the map (deterministic)."""
    import yaml

    lines = [f"# Converted by movecheck import triplea from {_clean(os.path.basename(name))}"]
    title = conversion.map.get("title")
    if title:
        lines[0] += f" ({title})"
    if conversion.edition:
        lines.append(f"# Rules: {conversion.edition} ({conversion.edition_reason}).")
    else:
        lines.append(f"# Rules: none named ({conversion.edition_reason}); states on this map are checked")
        lines.append("# under the default edition and the options below unless they say 'rules:'.")
    sections = (
        (
            "# Rule options from the game's settings (options: below; a setting the file does not set is false,"
            " as in TripleA):",
            [f"{r.option}: {_value(r.value)} ({r.because})" for r in conversion.options],
        ),
        (
            "# Settings read for rule options movecheck does not have yet (not checked):",
            [f"{r.option}: {_value(r.value)} ({r.because})" for r in conversion.pending],
        ),
        ("# Not modelled by movecheck (the checks ignore them):", conversion.unmodelled),
        ("# Conversion notes:", conversion.notes),
    )
    for heading, items in sections:
        if items:
            lines.append(heading)
            lines.extend(f"#   - {_clean(item)}" for item in items)  # one comment line each, whatever the names hold
    parts = ["\n".join(lines) + "\n"]
    for key, value in conversion.map.items():
        flow = None if isinstance(value, (list, dict)) and key not in ("control", "options") else False
        parts.append(
            yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True, width=100, default_flow_style=flow)
        )
    return "".join(parts)


def messages(conversion: Conversion, name: str) -> list[str]:
    """The stderr lines of a conversion: the edition, the options the settings gave, those
    movecheck has no option for yet, then one line per rule not modelled and per conversion note."""
    shown = _clean(name)
    out = []
    if conversion.edition:
        out.append(
            f"movecheck: {shown}: "
            + _("rules {edition} ({why})").format(edition=conversion.edition, why=conversion.edition_reason)
        )
    else:
        out.append(f"movecheck: note: {shown}: " + _("no edition named ({why})").format(why=conversion.edition_reason))
    if conversion.options:
        count = len(conversion.options)
        out.append(
            f"movecheck: {shown}: "
            + ngettext(
                "{count} rule option from the game's settings: {options}",
                "{count} rule options from the game's settings: {options}",
                count,
            ).format(count=count, options=_listed(conversion.options))
        )
    if conversion.pending:
        out.append(
            f"movecheck: note: {shown}: "
            + _("settings read for rule options movecheck does not have yet: {options}").format(
                options=_listed(conversion.pending)
            )
        )
    out.extend(
        f"movecheck: note: {shown}: " + _("not modelled: {item}").format(item=item) for item in conversion.unmodelled
    )
    out.extend(
        f"movecheck: note: {shown}: " + _("conversion note: {note}").format(note=note) for note in conversion.notes
    )
    return [_clean(line) for line in out]
