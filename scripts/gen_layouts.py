#!/usr/bin/env python3
"""Regenerate the layouts of the built-in aa maps from the shared facts.

``movecheck/aa/maps/NAME.layout.json`` (the board's size, its east-west wrap and the
centre of every space, for ``movecheck render``) is generated from
``data/layouts/NAME.centers.txt`` and ``NAME.properties`` of the shared facts folder,
read by the same code that reads a TripleA map folder (:mod:`movecheck.aa.picture.layout`).
Every space of the built-in map must have a centre, and every centre must name a space.
The board itself comes from the same folder (:mod:`movecheck.aa.picture.board_files`): every
space's polygons (simplified to 2 px and whole pixels: about a sixth of TripleA's
points), its unit places (``place.txt``), its label point (``name_place.txt``, where the
map has one), the capital and victory-city markers and the powers' colours; the
impassable territories from the map's facts (``data/NAME.map.json``).

    python scripts/gen_layouts.py            # write the layouts
    python scripts/gen_layouts.py --check    # exit 1 if a committed layout is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
from shared_facts import shared_folder, without_facts  # noqa: E402

from movecheck.aa.maps import BUILTIN_MAPS, builtin_map  # noqa: E402
from movecheck.aa.picture import board_files  # noqa: E402
from movecheck.aa.picture.layout import BoardShapes, Layout, read_centers, read_properties  # noqa: E402

SOURCE = shared_folder() / "data" / "layouts"
MAPS_DIR = REPO / "movecheck" / "aa" / "maps"


def layout_text(name: str, source: Path) -> str:
    """The generated layout file of a built-in map."""
    names = [t["name"] for t in builtin_map(name)["territories"]]
    centers, notes = read_centers((source / f"{name}.centers.txt").read_text(encoding="utf-8"), set(names))
    if notes:
        raise SystemExit(f"gen_layouts: {name}.centers.txt: " + "; ".join(notes))
    missing = [n for n in names if n not in centers]
    if missing:
        raise SystemExit(f"gen_layouts: {name}: no centre for {', '.join(missing)}")
    properties = (source / f"{name}.properties").read_text(encoding="utf-8")
    width, height, wrap = read_properties(properties)
    layout = Layout(width, height, wrap, {n: centers[n] for n in names}, board=board_of(name, source, names))
    data = {"map": name, "source": f"data/layouts/{name}.centers.txt", **layout.as_data()}
    return compact_json(data)


def compact_json(data: dict[str, object]) -> str:
    """The layout as JSON: one key a line at the top, each space's value on one line (small, and diffs well)."""
    lines = []
    for key, value in data.items():
        if isinstance(value, dict) and key != "colours":
            inner = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, separators=(',', ':'))}"
                     for k, v in value.items()]
            lines.append(f" {json.dumps(key)}: {{\n" + ",\n".join(inner) + "\n }")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def board_of(name: str, source: Path, names: list[str]) -> BoardShapes:
    """The board of a built-in map: every space must have its polygons and unit places."""
    known = set(names)

    def text(suffix: str) -> str:
        path = source / f"{name}.{suffix}"
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    shapes = board_files.read_polygons(text("polygons.txt"), known)
    places = board_files.read_places(text("place.txt"), known)
    missing = [n for n in names if n not in shapes or n not in places]
    if missing:
        raise SystemExit(f"gen_layouts: {name}: no polygon or unit place for {', '.join(missing)}")
    facts = json.loads((source.parent / f"{name}.map.json").read_text(encoding="utf-8"))
    impassable = [t["name"] for t in facts.get("territories", []) if t.get("impassable") and t["name"] in known]
    return BoardShapes(
        {n: shapes[n] for n in names}, {n: places[n] for n in names},
        board_files.read_point(text("name_place.txt"), known), board_files.read_point(text("capitols.txt"), known),
        board_files.read_point(text("vc.txt"), known), board_files.read_colours(text("properties")), impassable)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed layout is stale")
    parser.add_argument("--source", type=Path, default=SOURCE, help="the folder of the centres (default: %(default)s)")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        return without_facts("gen_layouts", args.source, args.check)
    stale = []
    for name in BUILTIN_MAPS:
        target = MAPS_DIR / f"{name}.layout.json"
        text = layout_text(name, args.source)
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(str(target.relative_to(REPO)))
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(REPO)}")
    if stale:
        print("gen_layouts: stale (run python scripts/gen_layouts.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
