"""Issue 37: a state edited in the editor re-checks at once only the open orders files its edit can change; the
others are checked again when next asked for, and their diagnostics are then right.

Over a real LSP client (pytest-lsp) on the real server: a chain of thirty territories, one orders file moving an
infantry at each end of it.  A change of control at one end is out of reach of the other end's orders.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_lsp", reason="the language server tests need the test extra (pytest-lsp, pygls)")

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from movecheck.aa.edits import edit_of
from movecheck.server.app import can_change
from movecheck.server.buffers import Checked
from tests.server.lsp_helpers import change, open_file, start

G, B = "Germans", "British"
CHAIN = [f"R{k}" for k in range(30)]


def chain_state() -> dict[str, Any]:
    """Thirty territories in a row, all German, a German infantry in each."""
    game_map = {"name": "chain", "powers": ["Americans", B, G, "Japanese"],
                "sides": {"Allies": ["Americans", B], "Axis": [G, "Japanese"]},
                "territories": [{"name": n} for n in CHAIN], "connections": list(map(list, itertools.pairwise(CHAIN))),
                "control": dict.fromkeys(CHAIN, G)}
    turn = {"round": 3, "power": G, "phase": "noncombat_move"}
    units = [{"at": n, "power": G, "type": "infantry"} for n in CHAIN]
    return {"movecheck": 1, "system": "aa", "map": game_map, "turn": turn, "control": {}, "units": units}


def orders(*path: str) -> dict[str, Any]:
    return {"movecheck": 1, "system": "aa", "state": "state.json", "power": G, "phase": "noncombat_move",
            "moves": [{"units": {"infantry": 1}, "path": list(path)}]}


def taken(state: dict[str, Any], *spaces: str) -> str:
    """The state with ``spaces`` British (``control:``), as JSON."""
    edited = copy.deepcopy(state)
    edited["control"] = dict.fromkeys(spaces, B)
    return json.dumps(edited, indent=1)


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "movecheck", "server"],
    server_env={**os.environ, "MOVECHECK_SERVER_DELAY": "0.05", "MOVECHECK_LANG": "en"}))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    lsp_client.diagnostics = Counted()
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


class Counted(dict):  # type: ignore[type-arg]
    """The client's diagnostics, counting how many times each document's were published."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}

    def __setitem__(self, uri: str, value: Any) -> None:
        self.counts[uri] = self.counts.get(uri, 0) + 1
        super().__setitem__(uri, value)


async def republished(client: LanguageClient, target: str, before: int) -> list[str]:
    """The codes of the diagnostics published for ``target`` once it has been published more than ``before`` times
    (read off the client's record: publications that come together are not lost)."""
    counted: Counted = client.diagnostics  # type: ignore[assignment]
    for _ in range(1000):
        if counted.counts.get(target, 0) > before:
            return [str(d.code) for d in counted[target]]
        await asyncio.sleep(0.02)
    raise AssertionError(f"{target} was not published again")


async def pulled(client: LanguageClient, target: str) -> list[str]:
    report = await asyncio.wait_for(client.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(
        text_document=lsp.TextDocumentIdentifier(uri=target))), 20)
    assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
    return [str(d.code) for d in report.items]


@pytest.mark.asyncio(loop_scope="function")
async def test_a_state_edit_rechecks_the_orders_it_can_change_and_the_others_when_asked(
        client: LanguageClient, tmp_path: Path) -> None:
    counts: dict[str, int] = client.diagnostics.counts  # type: ignore[attr-defined]
    state = chain_state()
    (tmp_path / "state.json").write_text(json.dumps(state, indent=1))
    for name, path in (("near", ("R0", "R1")), ("far", ("R28", "R29"))):
        (tmp_path / f"{name}.json").write_text(json.dumps(orders(*path), indent=1))
    state_uri = open_file(client, tmp_path / "state.json")
    assert await republished(client, state_uri, 0) == []
    near = open_file(client, tmp_path / "near.json")
    assert await republished(client, near, 0) == []
    far = open_file(client, tmp_path / "far.json")
    assert await republished(client, far, 0) == []
    await asyncio.sleep(0.3)
    near_before, far_before = counts[near], counts[far]
    # R29 taken by the British: the far orders now move into hostile land; the near orders, 28 steps away, cannot
    change(client, state_uri, 2, taken(state, "R29"))
    assert await republished(client, far, far_before) == ["AA301"]
    await asyncio.sleep(0.3)
    assert counts[near] == near_before  # not re-checked at once
    assert await pulled(client, near) == []  # asked for: checked again, against the state as it is now
    assert counts[near] == near_before + 1
    # R1 taken too: the near orders change; the far orders read nothing that changed since they were checked
    near_before, far_before = counts[near], counts[far]
    change(client, state_uri, 3, taken(state, "R29", "R1"))
    assert await republished(client, near, near_before) == ["AA301"]
    await asyncio.sleep(0.3)
    assert counts[far] == far_before
    assert await pulled(client, far) == ["AA301"]
    assert counts[far] == far_before + 1
    # a hover asks for stale orders too: they are checked again (the board hover reads is then the state's now)
    near_before, far_before = counts[near], counts[far]
    change(client, state_uri, 4, taken(state, "R29", "R1", "R2"))  # R2: one step from the near orders
    assert await republished(client, near, near_before) == ["AA301"]
    await asyncio.sleep(0.3)
    assert counts[far] == far_before
    text = (tmp_path / "far.json").read_text()
    line = next(k for k, row in enumerate(text.splitlines()) if '"R28"' in row)
    where = lsp.Position(line, text.splitlines()[line].index("R28") + 1)
    await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(far), where))
    assert await republished(client, far, far_before) == ["AA301"]


# -- what an edit can change, in process --------------------------------------------------------------------


def _reader(tmp_path: Path, moves: dict[str, Any]) -> tuple[str, Checked, dict[str, Any]]:
    """The orders ``moves`` checked in process against the chain state: (state path, its check, the state's data)."""
    from movecheck.server.app import MovecheckServer
    from movecheck.server.files import Roots

    state = chain_state()
    (tmp_path / "state.json").write_text(json.dumps(state))
    path = tmp_path / "orders.json"
    text = json.dumps(moves)
    server = MovecheckServer()
    server.roots = Roots([str(tmp_path)])
    checked = server.run_check(str(path), text, 1)
    assert checked.result is not None and checked.result.prepared is not None
    return str(tmp_path / "state.json"), checked, state


def test_what_a_state_edit_can_change(tmp_path: Path) -> None:
    """Out of reach: control and units of other powers far from every order.  In reach or unsure: near spaces,
    the mover's own units anywhere (the counting bounds and the split into parts read them), an id the orders name,
    another key of the state, a state read with a finding, a name that cannot be read, other kinds of orders."""
    state_path, reader, state = _reader(tmp_path, orders("R0", "R1"))
    with_id = copy.deepcopy(reader)
    with_id.data = {**reader.data, "moves": [{"units": ["u-far"], "path": ["R0", "R1"]}]}

    def edited(**changes: Any) -> dict[str, Any]:
        return {**copy.deepcopy(state), **changes}

    def changes(after: dict[str, Any], orders: Checked = reader, before: Any = state) -> bool:
        return can_change(state_path, edit_of(before, after), orders)

    british = {"at": "R29", "power": B, "type": "infantry"}
    assert not changes(edited(control={"R29": B}))
    assert not changes(edited(units=[*state["units"], british]))
    assert not changes(edited(units=[*reversed(state["units"])]))  # their order only
    assert changes(edited(control={"R9": B}))  # 8 steps away: within a bomber's reach and the margin
    assert changes(edited(units=[*state["units"], {**british, "at": "R3"}]))
    assert changes(edited(units=state["units"][:-1]))  # the mover's infantry at R29
    assert changes(edited(units=[*state["units"], {"at": "R29", "power": G, "type": "fighter"}]))  # the mover's
    assert changes(edited(turn={**state["turn"], "round": 4}))
    assert changes(edited(control={"R29": B}), before=None)
    assert changes(edited(units=[*state["units"], {**british, "id": "u-far"}]), with_id)
    assert not changes(edited(units=[*state["units"], {**british, "id": "u-other"}]), with_id)
    typo = copy.deepcopy(reader)
    typo.data = {**reader.data, "moves": [{"units": {"infantry": 1}, "path": ["R0", "Rx"]}]}
    assert changes(edited(control={"R29": B}), typo)
    purchase = copy.deepcopy(reader)
    purchase.data = {**reader.data, "phase": "purchase"}
    assert changes(edited(control={"R29": B}), purchase)
    assert can_change(str(tmp_path / "other.json"), edit_of(state, edited(control={"R29": B})), reader)
