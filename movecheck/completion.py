"""Shell completion of the values ``movecheck`` takes: rule codes, schema names, map names.

``movecheck --install-completion`` (Typer's) installs a script that asks the command line
for completions at each TAB; these functions answer for the values Typer cannot know.
They run on every TAB, so each imports only what it needs.  A value is matched whatever
its case and offered in the case typed (``aa1`` offers ``aa101`` ...: codes are read in
any case); ``--select``/``--ignore`` complete the last code of a comma-separated list.
"""

from __future__ import annotations

ALL = "ALL"


def _starting(candidates: list[tuple[str, str]], incomplete: str, prefix: str = "") -> list[tuple[str, str]]:
    """The candidates that begin with ``incomplete`` (any case, the letters typed kept), ``prefix`` before each."""
    typed = incomplete.casefold()
    return [
        (prefix + (value.lower() if incomplete.islower() else incomplete + value[len(incomplete):]), help_text)
        for value, help_text in candidates
        if value.casefold().startswith(typed)
    ]


def rule_codes(incomplete: str) -> list[tuple[str, str]]:
    """Every clause code, with its name (``explain CODE``)."""
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    return _starting([(entry.code, entry.name) for entry in CATALOGUE.all()], incomplete)


def selectors(incomplete: str) -> list[tuple[str, str]]:
    """``--select``/``--ignore``: ``ALL``, each system's prefix and each code, after any codes already typed."""
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    head, comma, last = incomplete.rpartition(",")
    codes = [(entry.code, entry.name) for entry in CATALOGUE.all()]
    prefixes = sorted({code[:2] for code, _name in codes})
    candidates = [(ALL, "every code"), *((p, f"every {p} code") for p in prefixes), *codes]
    return _starting(candidates, last, head + comma)


def schema_names(incomplete: str) -> list[str]:
    """The schemas ``movecheck schema NAME`` prints."""
    from movecheck.schema import schema_names as names

    return [value for value, _help in _starting([(name, "") for name in names()], incomplete)]


def map_names(incomplete: str) -> list[str]:
    """The built-in maps of every system (a map file is a path: the shell's own completion)."""
    from movecheck.systems import all_systems

    maps = [(name, "") for declared in all_systems() for name in declared.builtin_maps]
    return [value for value, _help in _starting(maps, incomplete)]
