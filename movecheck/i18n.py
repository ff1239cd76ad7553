"""The language movecheck speaks: English (the source text) or a translation from the package's catalogues.

Messages are written in English in the code and passed through :func:`_` (or
:func:`ngettext`) where they are made; a message with values is a template with named
fields, filled after translation (``_("{unit} cannot enter {space}").format(...)``) so a
translation may put the fields in another order.  English is the identity: no catalogue is
read, and the output is the source text byte for byte.  Another language loads its compiled
catalogue, ``movecheck/locale/LANG/LC_MESSAGES/movecheck.mo``, the first time it is asked
for (``scripts/gen_catalogues.py`` writes it from the ``.po`` beside it).

The language is, in order: ``--lang``, ``$MOVECHECK_LANG``, the locale (``$LANGUAGE``,
``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG``: the first one set), English.  An unknown language
named by ``--lang`` or ``$MOVECHECK_LANG`` is a usage error; an unknown locale is English.

Codes, names, slugs, JSON keys and the words of JSON values (severities, verdicts) are
data: they never go through :func:`_`.  This module imports only the standard library.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gettext

DOMAIN = "movecheck"
LOCALE_DIR = Path(__file__).with_name("locale")
ENGLISH = "en"
LANGUAGES = (ENGLISH, "ru")
"""The languages movecheck speaks: English and those with a catalogue in ``movecheck/locale``."""
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_active: gettext.NullTranslations | None = None
_language = ENGLISH


class LanguageError(ValueError):
    """A language was asked for by name (``--lang``, ``$MOVECHECK_LANG``) that movecheck does not speak."""


def _(message: str) -> str:
    """``message`` in the active language (itself in English)."""
    return message if _active is None else _active.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (a constant, translated where it is used)."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` in the active language (English: one, or more)."""
    if _active is None:
        return singular if count == 1 else plural
    return _active.ngettext(singular, plural, count)


DECIMAL_SEPARATORS = {"ru": ","}
"""The decimal separator of each language that does not write a point (Russian writes ``10,5``)."""


def decimal(text: str) -> str:
    """A number written with a point (``10.50``) as the active language writes it (Russian: ``10,50``)."""
    return text.replace(".", DECIMAL_SEPARATORS.get(_language, "."))


def list_separator() -> str:
    """What separates numbers in a list or a pair where the decimal separator is a comma (``;``), else ``,``."""
    return ";" if DECIMAL_SEPARATORS.get(_language, ".") == "," else ","


def language() -> str:
    """The active language's code (``en``, ``ru``)."""
    return _language


def normalize(name: str) -> str | None:
    """``ru_RU.UTF-8``, ``ru-RU``, ``RU`` -> ``ru``; ``C``/``POSIX`` -> ``en``; None when not spoken."""
    code = name.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    if code in ("c", "posix"):
        return ENGLISH
    return code if code in LANGUAGES else None


def resolve(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), ``$MOVECHECK_LANG``, the locale, English.

    Raises :class:`LanguageError` when ``option`` or ``$MOVECHECK_LANG`` names a language
    movecheck does not speak; a locale it does not speak means English.
    """
    env = os.environ if environ is None else environ
    for source, value in (("--lang", option), ("MOVECHECK_LANG", env.get("MOVECHECK_LANG"))):
        if value is not None and value.strip():
            found = normalize(value)
            if found is None:
                raise LanguageError(f"{source}: unknown language {value!r}; choose one of: {', '.join(LANGUAGES)}")
            return found
    for variable in LOCALE_VARIABLES:
        value = env.get(variable, "")
        if not value:
            continue
        # LANGUAGE may list several (``de:ru:en``): the first one spoken wins
        for entry in value.split(":") if variable == "LANGUAGE" else (value,):
            found = normalize(entry) if entry else None
            if found is not None:
                return found
        if variable != "LANGUAGE":
            return ENGLISH  # the locale is set, to a language without a catalogue
    return ENGLISH


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on (a code of :data:`LANGUAGES`); English reads no catalogue."""
    global _active, _language
    if lang not in LANGUAGES:
        raise LanguageError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
    _language = lang
    _active = None if lang == ENGLISH else _catalogue(lang)


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``, read once; a missing one (a broken install) means English."""
    import gettext  # only when a language other than English is spoken

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    except (OSError, ValueError):  # pragma: no cover - the wheel ships the catalogues
        return gettext.NullTranslations()
