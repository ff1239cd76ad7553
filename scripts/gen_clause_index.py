#!/usr/bin/env python3
"""Write each built-in system's clause index (``System.clause_index``, aa: movecheck/aa/clause_index.py).

The index names every clause of the system by code, with the module whose import declares it:
importing the index gives it to the catalogue (:meth:`movecheck.clauses.Catalogue.add_index`),
which then imports a clause family only when one of its clauses is needed.  An aa combat-move
check loads the move clauses, not the purchase, mobilization, battle and dice families; listing
codes (``disable:`` in a configuration, ``--select``) loads none.  Each entry: code -> (system,
declaring module, name, severity, occasions it runs on).

    python scripts/gen_clause_index.py            # rewrite the indexes
    python scripts/gen_clause_index.py --check    # exit 1 if one is stale
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from generated import sync  # noqa: E402

PACKAGE = "movecheck"
Entry = tuple[str, str, str, str, tuple[str, ...]]


def declared(system: str, modules: tuple[str, ...]) -> dict[str, Entry]:
    """Every clause of ``system`` its clause modules declare, by code."""
    from movecheck.clauses import CATALOGUE

    for name in modules:
        importlib.import_module(name)
    entries = {}
    for entry in CATALOGUE.loaded(system):
        if entry.module.partition(".")[0] != PACKAGE or entry.module not in sys.modules:
            raise SystemExit(f"gen_clause_index: {entry.code} is declared outside the package ({entry.module!r})")
        entries[entry.code] = (entry.system, entry.module, entry.name, entry.severity.value, entry.runs)
    return entries


def entry_lines(code: str, entry: Entry) -> str:
    """One clause of the index, its occasions on a line of their own (the file stays within 120 columns)."""
    system, module, name, severity, runs = entry
    return f"    {code!r}: ({system!r}, {module!r}, {name!r}, {severity!r},\n        {runs!r}),"


def module_text(system: str, entries: dict[str, Entry]) -> str:
    lines = [
        f'"""The index of the {system} clauses: written by scripts/gen_clause_index.py, do not edit.',
        "",
        "Code -> (system, the module whose import declares the clause, name, severity, the occasions it runs on).",
        "Importing this module gives the index to the catalogue, which imports a module of it when one of its",
        'clauses is first needed (issue 36: a check loads the clause families its phase runs, no others)."""',
        "",
        "from movecheck.clauses import CATALOGUE",
        "",
        "CLAUSES: dict[str, tuple[str, str, str, str, tuple[str, ...]]] = {",
        *(entry_lines(code, entries[code]) for code in sorted(entries)),
        "}",
        "",
        "CATALOGUE.add_index(CLAUSES)",
    ]
    return "\n".join(lines) + "\n"


def texts() -> dict[Path, str]:
    """The index of each built-in system that names one, by file."""
    from movecheck.systems import all_systems

    found = {}
    for system in all_systems():
        if system.clause_index and system.clause_index.partition(".")[0] == PACKAGE:
            path = REPO / (system.clause_index.replace(".", "/") + ".py")
            found[path] = module_text(system.name, declared(system.name, system.clause_modules))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write each built-in system's clause index from its clause modules.")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if an index is stale")
    args = parser.parse_args(argv)
    return sync("gen_clause_index", texts(), args.check)


if __name__ == "__main__":
    sys.exit(main())
