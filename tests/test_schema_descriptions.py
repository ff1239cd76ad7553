"""Every property of every JSON Schema has a description: editors show it on hover.

A property is each entry of a ``properties`` object anywhere in a schema (the ``$defs`` and a
``then`` included).  The ``properties`` of an ``if`` are a condition, not a declaration of
keys (``if: {properties: {order: {const: free}}}``), so they are left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.maps.schema import map_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((ROOT / "schemas").glob("*.schema.json"))


def properties(node: Any, pointer: str = "#") -> Iterator[tuple[str, Any]]:
    """``(JSON pointer, subschema)`` of every declared property below ``node``."""
    if isinstance(node, dict):
        declared = node.get("properties")
        if isinstance(declared, dict):
            for key, value in declared.items():
                yield f"{pointer}/properties/{key}", value
        for key, value in node.items():
            if key != "if":
                yield from properties(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from properties(value, f"{pointer}/{index}")


def undescribed(schema: dict[str, Any]) -> list[str]:
    return [
        pointer
        for pointer, sub in properties(schema)
        if not (isinstance(sub, dict) and isinstance(sub.get("description"), str) and sub["description"].strip())
    ]


def test_every_schema_is_found() -> None:
    assert {path.name.removesuffix(".schema.json") for path in SCHEMAS} >= {
        "aa-map", "aa-state", "aa-orders", "aa-battles", "aa-purchase", "maneuver-state", "maneuver-orders", "report",
        "apply-report",
    }


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert len(list(properties(schema))) >= 3
    assert undescribed(schema) == []


@pytest.mark.parametrize("name", ["aa-orders", "aa-state"])
def test_a_map_s_schema_keeps_the_descriptions(name: str) -> None:
    """``movecheck schema aa-orders --map MAP`` adds the map's names and keeps every description."""
    assert undescribed(map_schema(name, "aa1942-2e")) == []


def test_the_walk_finds_a_missing_description_and_skips_conditions() -> None:
    schema = {
        "properties": {"a": {"type": "string", "description": "an a"}, "b": {"type": "integer"}},
        "$defs": {"x": {"properties": {"c": {"description": " "}}, "then": {"properties": {"d": {"const": 1}}}}},
        "allOf": [{"if": {"properties": {"kind": {"const": "free"}}}, "then": {"required": ["a"]}}],
    }
    assert undescribed(schema) == ["#/properties/b", "#/$defs/x/properties/c", "#/$defs/x/then/properties/d"]
