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


CONFIG_NAME = "movecheck-config"
"""The published schema of ``.movecheck.yaml`` (issue 42: for SchemaStore), all of it generated from
:func:`movecheck.config_files.config_schema`, the schema the configuration is validated against."""

CONFIG_DESCRIPTIONS = {
    "select": "rule codes or prefixes to report (as --select); default: all",
    "ignore": "rule codes or prefixes not to report (as --ignore)",
    "per-file-ignores": "glob pattern (relative to this file's folder) -> codes or prefixes not reported for the files "
                        "it matches",
    "format": "the report format when --format is not given",
    "exclude": "glob patterns of files and folders that movecheck check and lint skip when given a folder",
    "aa": "settings of Axis & Allies states under this folder",
    "maneuver": "settings of manoeuvre states under this folder",
    "rules": "the rules preset (edition) of a state that names none",
    "options": "rule options of a state that sets none (see movecheck rules)",
}


def config_file_schema() -> dict[str, Any]:
    """The schema of ``.movecheck.yaml``, with its stable ``$id``, a title and a description of every key."""
    from movecheck.config_files import config_schema

    schema = config_schema()

    def describe(node: dict[str, Any]) -> None:
        for key, sub in node.get("properties", {}).items():
            sub.setdefault("description", CONFIG_DESCRIPTIONS.get(key, f"the {key} setting (docs/configuration.md)"))
            describe(sub)

    describe(schema)
    head = {"$schema": schema.pop("$schema"), "$id": schema_id(CONFIG_NAME), "title": "movecheck configuration",
            "description": "`.movecheck.yaml` (or `[tool.movecheck]` in pyproject.toml): which findings are "
                           "reported, the report format, the files skipped and the rules of the states under "
                           "its folder (docs/configuration.md)."}
    return {**head, **schema}


def outputs() -> dict[Path, str]:
    """Schema file -> its text with the generated parts up to date."""
    texts = {}
    for name in SCHEMA_NAMES:
        path = SCHEMAS / f"{name}.schema.json"
        texts[path] = render(generated(name, json.loads(path.read_text(encoding="utf-8"))))
    texts[SCHEMAS / f"{CONFIG_NAME}.schema.json"] = render(config_file_schema())
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed schema differs")
    args = parser.parse_args(argv)
    return sync("gen_schemas", outputs(), args.check)


if __name__ == "__main__":
    sys.exit(main())
