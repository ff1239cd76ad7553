"""The words for units in messages: ``2 fighters``, ``1 American fighter``, ``the German transport Maru``."""

from __future__ import annotations

from movecheck.i18n import _

POWER_ADJECTIVES = {
    "Germans": "German", "Japanese": "Japanese", "Russians": "Russian", "British": "British",
    "Americans": "American", "Italians": "Italian", "Chinese": "Chinese", "French": "French",
    "Soviets": "Soviet", "ANZAC": "ANZAC", "Australians": "Australian",
}
"""The adjective of each power the built-in maps and the usual editions name (their plural nouns)."""

TYPE_WORDS = {"aa_gun": ("AA gun", "AA guns"), "factory": ("factory", "factories"),
              "infantry": ("infantry", "infantry"), "artillery": ("artillery", "artillery")}
"""Unit types whose words are not the type name (singular, plural)."""


def power_adjective(power: str) -> str:
    """``German`` for ``Germans``: the table, else a name in -ans or -ets loses its ``s``, else the name itself."""
    if power in POWER_ADJECTIVES:
        return POWER_ADJECTIVES[power]
    if power.endswith("ans") or power.endswith("ets"):
        return power[:-1]
    return power


def type_noun(kind: str, count: int = 1) -> str:
    """The word for a unit type: ``fighter``/``fighters``, ``infantry``, ``AA gun``/``AA guns``."""
    if kind in TYPE_WORDS:
        one, many = TYPE_WORDS[kind]
    else:
        one = kind.replace("_", " ")
        many = one if one.endswith("s") else one + "s"
    return one if count == 1 else many


def unit_phrase(count: int, kind: str, power: str | None = None) -> str:
    """One phrase for units in messages: ``2 fighters``, ``1 American fighter``, ``2 German infantry``.

    ``count`` 0 reads ``no German fighters``.
    """
    owner = f"{power_adjective(power)} " if power else ""
    units = f"{owner}{type_noun(kind, count)}"
    return f"{count} {units}" if count else _("no {units}").format(units=units)
