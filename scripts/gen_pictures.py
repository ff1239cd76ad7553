#!/usr/bin/env python3
"""Regenerate the pictures under docs/pictures/ from the maneuver and aa examples (``movecheck render``).

    python scripts/gen_pictures.py            # rewrite the pictures that changed
    python scripts/gen_pictures.py --check    # exit 1 if a committed picture is stale

The examples are rendered from the repository's root with their relative paths, so
the titles inside the pictures do not depend on where the script runs from.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PICTURES = REPO / "docs" / "pictures"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from generated import sync  # noqa: E402

SOURCES = {
    "battlefield.svg": "examples/maneuver/battlefield.yaml",
    "corps-orders.svg": "examples/maneuver/corps-orders.yaml",
    "free-orders.svg": "examples/maneuver/free-orders.yaml",
    "aa-board.svg": "examples/aa/states/g1-combat.yaml",
    "aa-g1-combat.svg": "examples/aa/orders/g1-combat.yaml",
    "aa-aa101.svg": "examples/aa/orders/variants/aa101-not-adjacent.yaml",
    "aa-us1-noncombat.svg": "examples/aa/orders/us1-noncombat.yaml",
}
"""Picture file -> the example it shows."""


def outputs() -> dict[Path, str]:
    """Picture file -> its SVG text, rendered now."""
    from movecheck.core import Settings
    from movecheck.pictures import picture

    here = os.getcwd()
    os.chdir(REPO)
    try:
        return {PICTURES / name: picture(source, Settings(root=str(REPO))) for name, source in SOURCES.items()}
    finally:
        os.chdir(here)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed picture differs")
    args = parser.parse_args(argv)
    return sync("gen_pictures", outputs(), args.check)


if __name__ == "__main__":
    sys.exit(main())
