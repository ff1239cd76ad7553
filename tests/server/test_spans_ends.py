"""A finding's range is read off a lean walk of the buffer's YAML events (issue 37: no node and no path made for
every node of a 100-order turn on each re-check): the same start and end the full table of nodes gives, for every
node start of every example and of texts with complex keys, aliases, flow collections and a break."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

pytest.importorskip("pygls", reason="the language server needs the extra movecheck[server]")

from movecheck.server.spans import Spans

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))
ODD = [
    "? [a, b]\n: 1\nc: {? {x: 1} : 2, d: [3, {e: f}]}\n",
    "moves:\n- &one {units: {infantry: 1}, path: [A, B]}\n- *one\n- units:\n    - x\n  path:\n  - A\n\n  - B\n",
    "a:\n  - - 1\n    - 2\n  -\n    - b: c\n      d:\n",
    "moves:\n  - path: [A, B\n  - units: 1\n",  # broken: the nodes before the break
    "? - x\n  - y\n: z\n? k\n",
    "",
]


def _full(text: str, json: bool = False) -> dict[tuple[int, int], tuple[int, int]]:
    spans = Spans(text, json=json)
    return {start: node.end for start, node in spans._by_start.items()}


@pytest.mark.parametrize("text", [p.read_text(encoding="utf-8") for p in EXAMPLES[::4]] + ODD)
def test_the_lean_walk_gives_the_full_tables_ends(text: str) -> None:
    lean = Spans(text)
    assert lean._ends_by_start() == _full(text)
    assert lean._table is None  # no node was made
    full = Spans(text)
    full._read_once()
    for line, column in [(s[0] + 1, s[1] + 1) for s in _full(text)] + [(1, 1), (2, 3), (99, 1)]:
        assert lean.range_of(line, column) == full.range_of(line, column)


JSON = [json.dumps(yaml.safe_load(p.read_text(encoding="utf-8")), indent=indent, default=str)
        for p, indent in zip(EXAMPLES[::20], [None, 2, 4] * 10, strict=False)] + [
    '{"moves": [{"units": {"infantry": 1}, "path": ["A", "B"]},\n  {"units": ["u1"], "path": ["A", "B"]}]}',
    '{"a": "x\\n", "b": [1, {"c": [[]]}]}',  # an escape: its nodes from the YAML events
    '{"a": [1, 2',  # broken
]


@pytest.mark.parametrize("text", JSON)
def test_a_json_texts_ends_are_its_full_tables(text: str) -> None:
    lean = Spans(text, json=True)
    assert lean._ends_by_start() == _full(text, json=True)
