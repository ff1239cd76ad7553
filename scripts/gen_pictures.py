#!/usr/bin/env python3
"""Regenerate the pictures under docs/pictures/ from the maneuver and aa examples (``movecheck render``).

    python scripts/gen_pictures.py            # rewrite the pictures that changed
    python scripts/gen_pictures.py --check    # exit 1 if a committed picture is stale

The examples are rendered from the repository's root with their relative paths, so
the titles inside the pictures do not depend on where the script runs from.  Some are
also kept as PNG, 1,200 pixels wide, as a forum shows them (:data:`PNGS`, written with
the extra ``movecheck[png]``): a PNG's bytes depend on the rasteriser's version and the
fonts of the machine, so ``--check`` checks that each is there, decodes and is as wide
as asked, and rewrites none.
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
    "aa-g1-mobilize.svg": "examples/aa/orders/g1-mobilize.yaml",
    "aa-g1-purchase.svg": "examples/aa/orders/g1-purchase.yaml",
    "aa-r1-germans-combat.svg": "examples/aa/game/orders/r1-germans-combat.yaml",
    "aa-r1-germans-noncombat.svg": "examples/aa/game/orders/r1-germans-noncombat.yaml",
    "aa-r1-germans-mobilize.svg": "examples/aa/game/orders/r1-germans-mobilize.yaml",
    "aa-board-round-2.svg": "examples/aa/game/states/r2-russians-purchase.yaml",
}
"""Picture file -> the example it shows."""
PNGS = ("aa-r1-germans-combat.svg", "aa-r1-germans-noncombat.svg", "aa-r1-germans-mobilize.svg",
        "aa-board-round-2.svg", "aa-us1-noncombat.svg", "corps-orders.svg")
"""The pictures also kept as PNG (``NAME.png``), at :data:`PNG_WIDTH`."""
PNG_WIDTH = 1200


def outputs() -> dict[Path, str]:
    """Picture file -> its SVG text, rendered now."""
    from movecheck.pictures import picture
    from movecheck.settings import Settings

    here = os.getcwd()
    os.chdir(REPO)
    try:
        return {PICTURES / name: picture(source, Settings(root=str(REPO))) for name, source in SOURCES.items()}
    finally:
        os.chdir(here)


def png_width(data: bytes) -> int | None:
    """The width of a PNG whose header and chunks read back (CRCs right, pixels decompress), else None."""
    import struct
    import zlib

    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    at, pixels, width = 8, b"", None
    while at + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]:
            return None
        if kind == b"IHDR":
            width = struct.unpack(">I", body[:4])[0]
        elif kind == b"IDAT":
            pixels += body
        at += 12 + length
    try:
        zlib.decompress(pixels)
    except zlib.error:
        return None
    return width


def pngs(texts: dict[Path, str], check: bool) -> int:
    """Write (or, with ``check``, check) the PNG of each picture of :data:`PNGS`."""
    bad = 0
    for name in PNGS:
        target = PICTURES / name.replace(".svg", ".png")
        if check:
            if not target.is_file() or png_width(target.read_bytes()) != PNG_WIDTH:
                print(f"gen_pictures: {target.name} is missing or not a {PNG_WIDTH}-pixel PNG; "
                      "run python scripts/gen_pictures.py", file=sys.stderr)
                bad = 1
            continue
        from movecheck.pictures import png_of

        data = png_of(texts[PICTURES / name], PNG_WIDTH)
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
            print(f"wrote docs/pictures/{target.name}")
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed picture differs")
    args = parser.parse_args(argv)
    texts = outputs()
    stale = sync("gen_pictures", texts, args.check)
    return max(stale, pngs(texts, args.check))


if __name__ == "__main__":
    sys.exit(main())
