#!/usr/bin/env python3
"""Regenerate the parts of movecheck's schemas that come from the code: ids and options.

Every schema's ``$id`` is :func:`movecheck.systems.schema_id` of its name.  The ``$defs/options`` of
``schemas/aa-state.schema.json``, ``schemas/aa-map.schema.json`` and ``schemas/maneuver-state.schema.json``,
and the description of the aa state's ``rules`` key, are written from ``movecheck/aa/options.py``,
``movecheck/maneuver/options.py`` and ``movecheck/aa/editions.py``.  The rest of
each schema is written by hand and left as it is.

    python scripts/gen_schemas.py            # rewrite the generated parts
    python scripts/gen_schemas.py --check    # exit 1 if a committed schema is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from generated import sync  # noqa: E402

from movecheck.aa.editions import DEFAULT_EDITION, EDITIONS  # noqa: E402
from movecheck.schema import SCHEMA_NAMES  # noqa: E402
from movecheck.systems import option_sets, schema_id  # noqa: E402


def rules_description() -> str:
    """The aa state's ``rules`` key, described from the edition declarations."""
    names = "; ".join(
        f"{e.name} (aliases: {', '.join(e.aliases)})" if e.aliases else e.name for e in EDITIONS.values()
    )
    return f"rules preset (edition): {names}; default: the map's edition, else {DEFAULT_EDITION.name}"


def generated(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The schema ``name`` with its generated parts replaced."""
    system, _, kind = name.partition("-")
    result = json.loads(json.dumps(schema))
    result["$id"] = schema_id(name)
    if kind in ("state", "map"):  # a map's options: the game's own settings
        result["$defs"]["options"] = option_sets()[system].schema()
    if name == "aa-state":
        result["properties"]["rules"]["description"] = rules_description()
    return result


def render(schema: dict[str, Any]) -> str:
    """The exact text of a schema file."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    """Schema file -> its text with the generated parts up to date."""
    texts = {}
    for name in SCHEMA_NAMES:
        path = SCHEMAS / f"{name}.schema.json"
        texts[path] = render(generated(name, json.loads(path.read_text(encoding="utf-8"))))
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed schema differs")
    args = parser.parse_args(argv)
    return sync("gen_schemas", outputs(), args.check)


if __name__ == "__main__":
    sys.exit(main())
