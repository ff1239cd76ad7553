"""The generated validators (movecheck/validators) say "valid" exactly when jsonschema finds no error.

``movecheck.schema.validate`` trusts a generated validator's "valid" without asking
jsonschema, so it must never accept what jsonschema rejects; and it should reject
only what jsonschema rejects, or valid files would pay for jsonschema after all.
Both directions are tested over the examples, the built-in maps, a report, and
documents made from them by hypothesis: values replaced (wrong types, bounds, NaN,
bools for numbers, floats for whole numbers), keys removed and added, items
repeated, and free-form JSON values.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib.util
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from movecheck.files import identify
from movecheck.loading import load_file
from movecheck.schema import SCHEMA_NAMES, sorted_errors, validator
from movecheck.validators import is_valid
from tests.properties import in_two_runs

REPO = Path(__file__).resolve().parents[1]
SETTINGS = settings(max_examples=150, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def jsonschema_valid(name: str, data: Any) -> bool:
    return not sorted_errors(validator(name), data)


def load_script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@functools.cache
def seeds() -> dict[str, list[Any]]:
    """Documents of every schema: the examples, the built-in maps and a report.

    Made on first use, not at import: every xdist worker imports this module to collect it, and
    making them runs five commands over the examples (seconds a worker with none of these tests
    would spend for nothing).  The documents are inputs, the same for every test that reads them.
    """
    found: dict[str, list[Any]] = {name: [] for name in SCHEMA_NAMES}
    files = sorted(REPO.glob("examples/**/*.yaml")) + sorted((REPO / "movecheck" / "aa" / "maps").glob("*.json"))
    for path in files:
        doc = load_file(str(path))
        kind = identify(doc)
        if kind is not None:
            found[kind].append(doc.data)
    from movecheck.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", "-f", "json", str(REPO / "examples" / "aa" / "orders" / "variants" / "aa101-not-adjacent.yaml")])
    found["report"].append(json.loads(out.getvalue()))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["apply", "-f", "json", str(REPO / "examples" / "aa" / "orders" / "g1-noncombat-applied.yaml")])
    found["apply-report"].append(json.loads(out.getvalue()))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "reach",
                str(REPO / "examples" / "maneuver" / "battlefield.yaml"),
                "r1",
                "red-2",
                "-f",
                "json",
                "--isolated",
            ]
        )
    found["reach"].append(json.loads(out.getvalue()))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["odds", str(REPO / "examples" / "aa" / "states" / "g1-battles.yaml"), "-f", "json"])
    found["aa-odds"].append(json.loads(out.getvalue()))
    for orders in ("g1-combat.yaml", "variants/aa101-not-adjacent.yaml"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(["summary", "-f", "json", str(REPO / "examples" / "aa" / "orders" / orders)])
        found["summary"].append(json.loads(out.getvalue()))
    layout = json.loads((REPO / "movecheck" / "aa" / "maps" / "aa-revised.layout.json").read_text(encoding="utf-8"))
    board = json.loads((REPO / "movecheck" / "aa" / "maps" / "aa-revised.json").read_text(encoding="utf-8"))
    found["aa-map"].append({**board, "layout": {k: layout[k] for k in ("width", "height", "wrap_x", "centers")}})
    return found



ODD_VALUES = [
    None, True, False, 0, 1, -1, 2, 100, 10**30, 1.0, 5.0, 0.5, -2.5, math.nan, math.inf, -math.inf,
    "", "x", "aa", "map", "state", "orders", "maneuver", "combat_move", "noncombat_move", "Germans",
    "infantry", "AA101", "error", "free", "to_landmark", "hold", [], [1], ["x"], ["x", "x"], [[]], {}, {"x": 1},
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 1000)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in a document (the root included)."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


@st.composite
def mutated(draw: Any) -> tuple[str, Any]:
    """A seed document with one to three changes."""
    found = seeds()
    name, index = draw(st.sampled_from([(name, n) for name in SCHEMA_NAMES for n in range(len(found[name]))]))
    doc = copy.deepcopy(found[name][index])
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(doc)))
        target = at(doc, where)
        how = draw(st.sampled_from(["replace", "replace", "free", "drop", "add", "repeat", "empty"]))
        if how in ("replace", "free"):
            value = draw(st.sampled_from(ODD_VALUES)) if how == "replace" else draw(json_values)
            if not where:
                doc = value
            else:
                at(doc, where[:-1])[where[-1]] = copy.deepcopy(value)
        elif how == "drop" and where:
            parent = at(doc, where[:-1])
            del parent[where[-1]]
        elif how == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(["extra", "id", "count", "name", "moved", "sea", "x", "aliases"]))] = draw(
                st.sampled_from(ODD_VALUES)
            )
        elif how == "repeat" and isinstance(target, list) and target:
            target.append(copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
        elif how == "empty" and isinstance(target, (list, dict)):
            target.clear()
    return name, doc


def test_the_generated_modules_are_current() -> None:
    assert load_script("gen_validators").main(["--check"]) == 0


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_seed_gets_the_same_answer(name: str) -> None:
    disagree = [n for n, data in enumerate(seeds()[name]) if is_valid(name, data) != jsonschema_valid(name, data)]
    assert disagree == []  # the indexes of the seeds of this schema where the two answers differ


def test_there_are_seeds_of_every_schema() -> None:
    assert all(seeds()[name] for name in SCHEMA_NAMES)


@SETTINGS
@given(mutated())
def test_a_changed_document_gets_jsonschemas_answer(case: tuple[str, Any]) -> None:
    name, data = case
    assert is_valid(name, data) == jsonschema_valid(name, data)


def _any_json_value_gets_jsonschemas_answer(name: str, data: Any) -> None:
    assert is_valid(name, data) == jsonschema_valid(name, data)


# a property in two runs (tests/properties.py): a tenth of the examples in the default run, all under slow
test_any_json_value_gets_jsonschemas_answer, test_any_json_value_gets_jsonschemas_answer_in_full = in_two_runs(
    SETTINGS, st.sampled_from(SCHEMA_NAMES), json_values
)(_any_json_value_gets_jsonschemas_answer)


@pytest.mark.parametrize(
    "name,data,valid",
    [
        ("aa-orders", {"system": "aa", "power": "Germans", "phase": "combat_move", "moves": []}, True),
        (
            "aa-orders",
            {"system": "aa", "power": "Germans", "phase": "combat_move", "moves": [], "movecheck": 1.0},
            False,
        ),
        (
            "aa-orders",
            {"system": "aa", "power": "Germans", "phase": "combat_move", "moves": [], "movecheck": True},
            False,
        ),
        ("aa-orders", {"system": "aa", "power": "Germans", "phase": "combat_move"}, False),
        ("aa-orders", {"system": "aa", "power": "", "phase": "combat_move", "moves": []}, False),
    ],
)
def test_movechecks_number_types(name: str, data: Any, valid: bool) -> None:
    # integer: an int as written, never 1.0 or a bool; the draft's own meaning would accept 1.0
    assert is_valid(name, data) is valid
    assert jsonschema_valid(name, data) is valid


def test_a_keyword_the_generator_does_not_know_stops_it() -> None:
    script = load_script("gen_validators")
    with pytest.raises(SystemExit, match="not supported"):
        script.module_text({"x": {"type": "string", "format": "email", "contentMediaType": "text/plain"}})
