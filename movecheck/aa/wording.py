"""The words for units in messages: ``2 fighters``, ``1 American fighter``, ``the German transport Maru``."""

from __future__ import annotations

from movecheck.i18n import _, language

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


RUSSIAN_TYPES = {
    "infantry": ("пехота", "пехоты", "пехот", "f"),
    "artillery": ("артиллерия", "артиллерии", "артиллерий", "f"),
    "tank": ("танк", "танка", "танков", "m"),
    "aa_gun": ("орудие ПВО", "орудия ПВО", "орудий ПВО", "n"),
    "factory": ("завод", "завода", "заводов", "m"),
    "fighter": ("истребитель", "истребителя", "истребителей", "m"),
    "bomber": ("бомбардировщик", "бомбардировщика", "бомбардировщиков", "m"),
    "transport": ("транспорт", "транспорта", "транспортов", "m"),
    "submarine": ("подводная лодка", "подводные лодки", "подводных лодок", "f"),
    "destroyer": ("эсминец", "эсминца", "эсминцев", "m"),
    "cruiser": ("крейсер", "крейсера", "крейсеров", "m"),
    "carrier": ("авианосец", "авианосца", "авианосцев", "m"),
    "battleship": ("линкор", "линкора", "линкоров", "m"),
}
"""Each unit type of the built-in maps in Russian: with 1, with 2–4 and with 5 or more (also: none), and its gender."""

RUSSIAN_POWER_STEMS = {
    "Germans": "немецк", "Japanese": "японск", "Russians": "советск", "Soviets": "советск", "British": "британск",
    "Americans": "американск", "Italians": "итальянск", "Chinese": "китайск", "French": "французск",
    "Australians": "австралийск",
}
"""The stem of each power's adjective in Russian (``немецк-ий``, ``-ая``, ``-ое``, ``-их``)."""

_RUSSIAN_ENDINGS = {"m": "ий", "f": "ая", "n": "ое"}


def _russian_form(count: int) -> int:
    """Which form a Russian noun takes after ``count``: 0 (1, 21 ...), 1 (2–4, 22 ...) or 2 (5–20, 0 ...)."""
    if count % 10 == 1 and count % 100 != 11:
        return 0
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return 1
    return 2


def russian_unit_phrase(count: int, kind: str, power: str | None = None) -> str | None:
    """``2 немецкие пехоты``, ``1 американский истребитель``, ``нет немецких истребителей``; None: a type
    the table does not know (a custom map's)."""
    if kind not in RUSSIAN_TYPES:
        return None
    *forms, gender = RUSSIAN_TYPES[kind]
    form = _russian_form(count)
    noun = forms[form]
    if power in RUSSIAN_POWER_STEMS:
        ending = _RUSSIAN_ENDINGS[gender] if form == 0 else "ие" if form == 1 and gender == "f" else "их"
        noun = f"{RUSSIAN_POWER_STEMS[power]}{ending} {noun}"
    elif power:
        noun = f"{noun} ({power})"
    return f"{count} {noun}" if count else f"нет {noun}"


def unit_phrase(count: int, kind: str, power: str | None = None) -> str:
    """One phrase for units in messages: ``2 fighters``, ``1 American fighter``, ``2 German infantry``.

    ``count`` 0 reads ``no German fighters``.  In Russian the noun agrees with the number and the
    power is an adjective that agrees with the noun (:func:`russian_unit_phrase`): the phrase reads in
    a Russian sentence, where the templates put it in the nominative (or after a colon).
    """

    if language() == "ru" and (russian := russian_unit_phrase(count, kind, power)) is not None:
        return russian
    owner = f"{power_adjective(power)} " if power else ""
    units = f"{owner}{type_noun(kind, count)}"
    return f"{count} {units}" if count else _("no {units}").format(units=units)
