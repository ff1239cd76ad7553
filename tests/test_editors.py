"""Editors and shells: schema ids, the yaml-language-server modeline, map-aware schemas, completion."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from movecheck.core import read
from movecheck.schema import SCHEMA_NAMES, load_schema

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in (".yaml", ".yml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<target>\S+)$")


# -- schema ids ------------------------------------------------------------------------------

STABLE_IDS = {
    "aa-map": "https://movecheck.dev/schemas/aa-map/v1.json",
    "aa-state": "https://movecheck.dev/schemas/aa-state/v1.json",
    "aa-orders": "https://movecheck.dev/schemas/aa-orders/v1.json",
    "maneuver-state": "https://movecheck.dev/schemas/maneuver-state/v1.json",
    "maneuver-orders": "https://movecheck.dev/schemas/maneuver-orders/v1.json",
    "report": "https://movecheck.dev/schemas/report/v1.json",
}


def test_schema_ids_are_stable() -> None:
    """Editors and users' settings name the schemas by these ids: they never change within format 1."""
    assert {name: load_schema(name)["$id"] for name in SCHEMA_NAMES} == STABLE_IDS


def test_no_schema_names_the_placeholder_domain() -> None:
    for path in sorted((ROOT / "schemas").glob("*.json")):
        assert "movecheck.invalid" not in path.read_text(encoding="utf-8"), path.name


# -- the modeline of the examples -----------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_example_names_its_schema_in_a_modeline(path: Path) -> None:
    """The first line points the YAML extension at the schema of the file's kind (a path relative to the file)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    kind = read(str(path)).kind
    expected = os.path.relpath(ROOT / "schemas" / f"{kind}.schema.json", path.parent).replace(os.sep, "/")
    found = MODELINE.match(first)
    assert found, f"{path.name}: add '# yaml-language-server: $schema={expected}' as its first line"
    assert found["target"] == expected
    assert (path.parent / found["target"]).resolve() == (ROOT / "schemas" / f"{kind}.schema.json").resolve()
