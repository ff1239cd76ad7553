"""A JSON file's positions read from its text equal those the YAML reading gives (issue 37: the editor's re-check)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from movecheck import loading
from movecheck.json_positions import scan
from movecheck.loading import load_bytes

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    '{"a": 1, "b": [true, false, null, 2.5, -0, 1e3, "x"], "c": {}, "d": [], "e": [[], [{}]]}',
    '{\r\n  "moves": [\r\n    {"units": {"infantry": 1},\r\n     "path": ["Ärger", "Karelia S.S.R."]}\r\n  ]\r\n}\r\n',
    '\n\n  {"a":\r"b", "ключ": {"x": [1,\n2]}}  \n',
    '[1, "a\\"b", {"k": "v\\n"}]',
    '"just a string"',
    '  42  ',
    '{"state": "state.json", "moves": [{"units": {"tank": 2}, "path": ["Germany", "Poland", "Ukraine S.S.R."]}]}',
    # separators and brackets inside strings, a backslash before a quote and before a backslash (the tokenizer steps
    # over separators outside strings only: issue 37)
    '{"a": "x, y: [z]", "b": ["{", "}", ":", ","], "c": "q\\\\", "d": "\\"k\\": 1,"}',
]


def _tables(raw: bytes, name: str, scanned: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    monkeypatch.setattr(loading, "SCAN_JSON", scanned)
    doc = load_bytes(raw, name)
    assert type(doc.positions).__name__ == "_Deferred", "the json module read it"
    return dict(doc.positions.items()), dict(doc.key_positions.items()), dict(doc.implicit.items())


def _json_files() -> list[Path]:
    found = sorted(p for p in ROOT.rglob("*.json") if not any(part.startswith(".") or part == "node_modules"
                                                              for part in p.relative_to(ROOT).parts))
    return [p for p in found if p.stat().st_size < 20_000]


@pytest.mark.parametrize("text", CASES)
def test_scanned_positions_are_the_yaml_ones(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = text.encode("utf-8")
    assert _tables(raw, "x.json", True, monkeypatch) == _tables(raw, "x.json", False, monkeypatch)
    assert scan(text) is not None


@pytest.mark.slow
def test_every_json_file_of_the_repository_scans_as_the_yaml_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _json_files()
    compared = 0
    for path in files:
        raw = path.read_bytes()
        monkeypatch.setattr(loading, "SCAN_JSON", True)
        if type(load_bytes(raw, str(path)).positions).__name__ != "_Deferred":
            continue  # read the YAML way at once
        assert _tables(raw, str(path), True, monkeypatch) == _tables(raw, str(path), False, monkeypatch), path
        text = raw.decode("utf-8")
        assert _spans(text, True) == _spans(text, False), path
        compared += 1
    assert compared >= 20, compared


@pytest.mark.parametrize("indent", [None, 1])
def test_a_hundred_order_turn_scans_as_the_yaml_reading(indent: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = [{"units": {"tank" if k % 3 else "infantry": 1 + k % 2}, "path": [f"R{k}", f"R{k + 1}", "Sea Zone 5"]}
             for k in range(100)]
    raw = json.dumps({"movecheck": 1, "system": "aa", "phase": "noncombat_move", "moves": moves},
                     indent=indent).encode("utf-8")
    scanned = _tables(raw, "orders.json", True, monkeypatch)
    assert scanned == _tables(raw, "orders.json", False, monkeypatch)
    assert len(scanned[0]) == 1 + 4 + 100 * 7 and len(scanned[2]) == 101


def test_a_key_with_an_escape_is_left_to_the_yaml_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '{"a\\u00e9": 1, "b": [2]}'
    assert scan(text) is None
    raw = text.encode("utf-8")
    assert _tables(raw, "x.json", True, monkeypatch) == _tables(raw, "x.json", False, monkeypatch)


def test_a_finding_of_a_json_orders_file_is_placed_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"movecheck": 1, "moves": [{"units": {"infantry": 1}, "path": ["A", "B"]}] * 3}
    raw = json.dumps(data, indent=2).encode("utf-8")
    doc = load_bytes(raw, "orders.json")
    assert doc.pos(("moves", 2, "path", 1)) == (28, 9)
    assert doc.key_pos(("moves", 1, "units")) == (14, 7)


def _spans(text: str, json_: bool) -> list[Any]:
    from movecheck.server.spans import Spans

    return Spans(text, json=json_).nodes


@pytest.mark.parametrize("text", [*CASES, json.dumps({"moves": [{"units": {"tank": 1}, "path": ["A", "B"]}] * 50}),
                                  json.dumps({"moves": [{"units": {"tank": 1}, "path": ["A", "B"]}] * 5}, indent=2)])
def test_the_editors_nodes_of_a_json_text_are_its_yaml_events_ones(text: str) -> None:
    scanned = _spans(text, True)
    assert scanned == _spans(text, False)
    if "\\" not in text:
        from movecheck.json_positions import spans

        assert spans(text) is not None


def test_a_json_text_with_an_escape_keeps_its_nodes_from_the_yaml_events() -> None:
    from movecheck.json_positions import spans

    text = '{"a": "b\\u00e9", "c": [1]}'
    assert spans(text) is None
    assert _spans(text, True) == _spans(text, False)
    assert next(n.value for n in _spans(text, True) if not n.is_key) == "bé"
