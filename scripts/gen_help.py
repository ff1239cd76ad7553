#!/usr/bin/env python3
"""Write movecheck/help_text.py: the text of ``movecheck --help`` as Typer prints it at 80 columns.

``movecheck --help`` prints this text without importing Typer (see movecheck/__main__.py)
when click would format the help at its widest (a terminal of 80 columns or more, or no
terminal).  The text is rendered by the command line itself, so it is Typer's:

    python scripts/gen_help.py            # rewrite movecheck/help_text.py
    python scripts/gen_help.py --check    # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "movecheck" / "help_text.py"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from generated import sync  # noqa: E402


def rendered() -> str:
    """``movecheck --help`` through Typer, at 80 columns."""
    from movecheck.cli import main

    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            code = main(["--help"])
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    if code != 0:
        raise SystemExit(f"gen_help: movecheck --help exited {code}")
    return out.getvalue()


def module_text() -> str:
    return (
        '"""The text of ``movecheck --help`` at 80 columns: written by scripts/gen_help.py, do not edit."""\n\n'
        f"MAIN_HELP = {rendered()!r}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write movecheck/help_text.py from the command line's own help.")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if movecheck/help_text.py is stale")
    args = parser.parse_args(argv)
    return sync("gen_help", {TARGET: module_text()}, args.check)


if __name__ == "__main__":
    sys.exit(main())
