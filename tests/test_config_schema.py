"""Issue 42: `.movecheck.yaml` has a JSON Schema of its own, published in schemas/ with a stable `$id` (for
SchemaStore), that accepts what the configuration reader accepts and refuses what it refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from movecheck.config_files import config_schema
from movecheck.schema import _registry, validator_class

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "schemas" / "movecheck-config.schema.json"


def _errors(document: Any) -> list[str]:
    schema = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    return [e.message for e in validator_class()(schema, registry=_registry()).iter_errors(document)]


def test_the_published_schema_has_a_stable_id_and_is_the_readers_own() -> None:
    schema = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    assert schema["$id"] == "https://movecheck.dev/schemas/movecheck-config/v1.json"
    assert set(schema["properties"]) == set(config_schema()["properties"])
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize("text", [
    "select: [AA1, MC]\nignore: AA104\nformat: sarif\nexclude: ['drafts/**']\n",
    "per-file-ignores: {'orders/old-*.yaml': [AA1]}\naa: {rules: aa1942}\n",
])
def test_a_good_configuration_passes(text: str) -> None:
    assert _errors(yaml.safe_load(text)) == []


@pytest.mark.parametrize(("text", "why"), [
    ("selekt: [AA1]\n", "Additional properties"),
    ("format: pdf\n", "is not one of"),
    ("aa: {rulez: aa1942}\n", "Additional properties"),
    ("select: 5\n", "is not valid"),
])
def test_a_bad_configuration_is_refused(text: str, why: str) -> None:
    found = _errors(yaml.safe_load(text))
    assert found and any(why in message for message in found), found
