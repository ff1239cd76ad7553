#!/usr/bin/env python3
"""Run every ``scripts/gen_*.py`` in the order their outputs feed each other (as ruff's ``generate-all``).

    python scripts/gen_all.py            # regenerate everything that is stale, stopping at the first failure
    python scripts/gen_all.py --check    # run every script with --check: exit 1 if anything is stale

The order (:data:`ORDER`): the shared facts first (the maps, their layouts, the rule paragraphs),
then what the code declares (the schemas' options, then the validators compiled from the
schemas), the messages (catalogues), the pages and the help that show them, and last what
runs the program on the examples (the example states ``init`` and ``apply`` write, then the
pictures ``render`` draws of them).  Without the shared facts folder the first three say
so in one line and the rest run (see ``shared_facts.py``).  CI and the tests run ``--check``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent

ORDER = (
    "gen_maps",  # shared facts -> movecheck/aa/maps/*.json
    "gen_layouts",  # shared facts and the maps -> movecheck/aa/maps/*.layout.json
    "gen_seeds",  # shared rule texts -> movecheck/seeds.json
    "gen_schemas",  # options and editions -> the generated parts of schemas/*.schema.json
    "gen_validators",  # schemas -> movecheck/validators/generated.py
    "gen_clause_index",  # clause modules -> movecheck/{aa,maneuver}/clause_index.py (code -> declaring module...)
    "gen_catalogues",  # messages, clause summaries, option meanings -> movecheck/locale (.po checked, .mo compiled)
    "gen_rule_pages",  # catalogue, seeds, options -> docs/rules/*.md
    "gen_help",  # the command line -> movecheck/help_text.py
    "gen_examples",  # init and apply on the examples -> examples/aa/states/*.yaml
    "gen_pictures",  # render on the examples -> docs/pictures/*.svg
)
"""Every generator, each after those whose output it reads."""


def generators() -> list[str]:
    """The ``gen_*.py`` scripts of this folder (this one aside)."""
    return sorted(p.stem for p in SCRIPTS.glob("gen_*.py") if p.stem != "gen_all")


def run(name: str, check: bool) -> int:
    """Run one generator in a process of its own (each reads the package as it is then); its exit code."""
    command = [sys.executable, str(SCRIPTS / f"{name}.py"), *(["--check"] if check else [])]
    return subprocess.run(command, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if any generated file is stale")
    args = parser.parse_args(argv)
    missing = sorted(set(generators()) - set(ORDER))
    if missing:
        print(f"gen_all: {', '.join(missing)} not in ORDER: say where it runs", file=sys.stderr)
        return 2
    worst = 0
    for name in ORDER:
        code = run(name, args.check)
        if code and not args.check:
            print(f"gen_all: {name} failed (exit {code}); the generators after it were not run", file=sys.stderr)
            return code
        worst = max(worst, code)
    return worst


if __name__ == "__main__":
    sys.exit(main())
