"""The server's adapter to the kernel and its caches, in process (no LSP)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the extra movecheck[server]")

from movecheck import core
from movecheck.server.app import MovecheckServer
from movecheck.server.files import Roots
from movecheck.server.kernel import HOOKS

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"


def _server(buffers: dict[str, str] | None = None) -> MovecheckServer:
    server = MovecheckServer()
    server.roots = Roots([str(ROOT)])
    server.buffer_text = lambda absolute: (buffers or {}).get(absolute)  # type: ignore[method-assign]
    return server


def test_the_kernel_functions_the_adapter_names_exist() -> None:
    """A change of the kernel that moves one of them fails here first (fix movecheck/server/kernel.py)."""
    assert all(callable(getattr(core, name, None)) for name in HOOKS)


def test_the_kernel_readers_are_restored_after_a_check() -> None:
    saved = (core.read, core.read_reference, core.prepare)
    _server().run_check(str(ORDERS), ORDERS.read_text(), 1)
    assert (core.read, core.read_reference, core.prepare) == saved


def test_a_state_is_prepared_once_per_version_of_its_text() -> None:
    buffers: dict[str, str] = {}
    server = _server(buffers)
    text = ORDERS.read_text()
    for k in range(4):  # edits of the orders: the prepared state is the cached one
        assert server.run_check(str(ORDERS), text + " " * k, k).published == []
    assert server.kernel.preparations == 1
    buffers[str(STATE)] = STATE.read_text() + "\n# edited\n"  # a new version of the state's text
    assert server.run_check(str(ORDERS), text, 9).published == []
    assert server.kernel.preparations == 2
    server.run_check(str(ORDERS), text, 10)
    assert server.kernel.preparations == 2


def test_the_buffer_of_the_state_is_read_before_the_disk() -> None:
    broken = STATE.read_text().replace("power: Germans", "power: Germanz", 1)
    checked = _server({str(STATE): broken}).run_check(str(ORDERS), ORDERS.read_text(), 1)
    assert [d.message for d in checked.published] == ["orders not checked (17): the state has errors"]
    assert checked.result is not None and checked.result.read == [str(STATE)]


def test_a_file_that_is_not_a_movecheck_file_gets_nothing() -> None:
    assert _server().run_check(str(ROOT / "x.yaml"), "services:\n  web: {image: nginx}\n", 1).published == []


def test_a_check_opens_no_file_outside_the_workspace(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file a check opens (``os.open``: the kernel's bounded reads, the configuration) is in the workspace."""
    from movecheck.server.app import MovecheckServer
    from movecheck.server.files import Roots

    server = MovecheckServer()
    server.roots = Roots([str(workspace)])
    server.buffer_text = lambda absolute: None  # type: ignore[method-assign]
    path = str(workspace / "orders" / "outside.yaml")
    texts = [ORDERS.read_text().replace("../states/g1-combat.yaml", ref)
             for ref in ("../../outside-state.yaml", "../linked-state.yaml", "/etc/hostname")]
    server.run_check(path, texts[0], 1)  # the modules a check needs are imported before the count
    opened: list[str] = []
    real_open = os.open

    def recording(name: str, *args: object, **kwargs: object) -> int:
        opened.append(os.path.realpath(name))
        return real_open(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", recording)
    for k, text in enumerate(texts):
        assert [d.code for d in server.run_check(path, text, k + 2).published] == ["MC011"]
    shutil.copy(STATE, workspace / "state.yaml")  # and a state inside it is read (the recording sees reads)
    good = ORDERS.read_text().replace("../states/g1-combat.yaml", "../state.yaml")
    assert server.run_check(path, good, 9).published == []
    real = os.path.realpath(workspace)
    assert os.path.join(real, "state.yaml") in opened
    assert all(os.path.commonpath([p, real]) == real for p in opened), opened


TINY_STATE = """\
movecheck: 1
system: aa
map: map.yaml
turn: {power: Reds, phase: combat_move}
"""
TINY_ORDERS = """\
movecheck: 1
system: aa
state: state.yaml
power: Reds
phase: combat_move
moves:
  - units: {infantry: 1}
    path: [Alpha, Bravo]
"""


def test_the_buffer_of_a_map_is_read_before_the_disk(tmp_path: Path) -> None:
    """An aa state's map: comes from its open buffer; editing it prepares the state again."""
    from conftest import AA_TINY_MAP

    for name, text in (("map.yaml", AA_TINY_MAP), ("state.yaml", TINY_STATE), ("orders.yaml", TINY_ORDERS)):
        (tmp_path / name).write_text(text)
    buffers: dict[str, str] = {}
    server = MovecheckServer()
    server.roots = Roots([str(tmp_path)])
    server.buffer_text = lambda absolute: buffers.get(absolute)  # type: ignore[method-assign]
    orders = str(tmp_path / "orders.yaml")
    first = server.run_check(orders, TINY_ORDERS, 1)
    assert first.published == [] and first.result is not None
    assert str(tmp_path / "map.yaml") in first.result.read
    buffers[str(tmp_path / "map.yaml")] = AA_TINY_MAP.replace("aliases: [Bravo]", "aliases: [Bravissimo]")
    again = server.run_check(orders, TINY_ORDERS, 2)
    assert [(d.code, d.range.start.line) for d in again.published] == [("MC004", 7)]
    assert "'Bravo'" in again.published[0].message and server.kernel.preparations == 2


def test_an_orders_buffer_is_read_once_per_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server reads the buffer for its kind and data, and the check takes that reading: the buffer's YAML is
    read once per re-check, not twice (issue 37, the editor's re-check of a 100-order turn).  The findings are the
    same; a check with ``--suggest`` reads it again (the schema leaves out what the suggestion writes)."""
    from movecheck.server import kernel

    reads: list[str] = []
    load = kernel.load_bytes

    def counted(raw: bytes, path: str, *tape: object) -> object:
        reads.append(path)
        return load(raw, path, *tape)  # type: ignore[arg-type]

    server = _server()
    text = ORDERS.read_text()
    server.run_check(str(ORDERS), text, 1)  # the state prepared, the map read
    monkeypatch.setattr(kernel, "load_bytes", counted)
    edited = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland,  Karelia S.S.R.]", 1)
    assert edited != text
    checked = server.run_check(str(ORDERS), edited, 2)
    assert checked.published == [] and reads.count(str(ORDERS)) == 1
    broken = edited.replace("power: Germans", "power: Germanz", 1)
    assert [d.code for d in server.run_check(str(ORDERS), broken, 3).published] == ["MC004"]
    assert reads.count(str(ORDERS)) == 2


def test_a_json_buffers_yaml_events_are_read_once_per_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON buffer is read by the json module; its positions (for a finding) and the editor's ranges are read from
    its JSON text, its YAML events not at all (issue 37, the re-check of a 100-order turn; they were read once).  The
    range is the one a reading of its YAML events gives."""
    import json

    import yaml

    from movecheck.server.spans import Spans

    data = yaml.safe_load(ORDERS.read_text())
    data["moves"][0]["units"] = {"infantry": 30}
    path = ORDERS.with_name("g1-combat-buffer.json")  # a buffer only: never written
    text = json.dumps(data, indent=1)
    server = _server()
    server.run_check(str(path), text, 1)
    parses: list[object] = []
    parse = yaml.parse

    def counted(*args: object, **options: object) -> object:
        parses.append(args[0])
        return parse(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(yaml, "parse", counted)
    edited = text.replace('"moves":', '"moves": ', 1)
    checked = server.run_check(str(path), edited, 2)
    assert len(parses) == 0
    monkeypatch.setattr(yaml, "parse", parse)
    (found,) = [d for d in checked.published if d.code == "AA102"]
    result = checked.result
    assert result is not None
    (finding,) = [f for f in result.report.sorted_findings() if f.code == "AA102"]
    start, end = Spans(edited).range_of(finding.line, finding.column)
    assert (found.range.start.line, found.range.start.character) == start
    assert (found.range.end.line, found.range.end.character) == end


def test_an_edited_order_gets_the_verdict_of_its_new_text() -> None:
    """What the server keeps between re-checks (the prepared state, the map's routes and names, the buffer's
    events) never hands an order the verdict of its older text: a path made one step too long is an error at the
    next re-check, and legal again once put back (issue 37)."""
    server = _server()
    text = ORDERS.read_text()
    assert server.run_check(str(ORDERS), text, 1).published == []
    longer = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland, Karelia S.S.R., Archangel]", 1)
    assert longer != text
    codes = [d.code for d in server.run_check(str(ORDERS), longer, 2).published]
    assert codes and all(str(code).startswith("AA") for code in codes)
    assert server.run_check(str(ORDERS), text, 3).published == []
