"""Issue 37: the server never blocks -- a check runs in the worker, a hover is answered while it runs, and a newer
edit calls the older check off (its diagnostics are never published).

The long check is B1 of ``bench/search.py`` made hard: the server runs with the counting bounds switched off and a
choice budget no search reaches, so the check of the British noncombat move tries every choice before its AA401
(tens of seconds).  Over a real LSP client (pytest-lsp) on the real server.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_lsp", reason="the language server tests need the test extra (pytest-lsp, pygls)")

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.server.lsp_helpers import ROOT, change, open_file, position_of, published, start

pytestmark = pytest.mark.asyncio(loop_scope="function")

COMBAT = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
COMBAT_STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"

HARD = """
from movecheck.aa import engine, overloads
engine.BOUNDS = False
engine.SWAPPABLE = engine.REPLAY = engine.CUT = False  # the search as it was before issue 37: every run in full
overloads.Overloads.lower_bound = lambda self: 0
overloads.Overloads.counts = lambda self, order, code: False
from movecheck.server.app import serve
serve()
"""
"""The server with every choice tried (``bench/search.py``'s unbounded run): no counting bound ends a search."""

SERVER = ClientServerConfig(
    server_command=[sys.executable, "-c", HARD],
    server_env={**os.environ, "MOVECHECK_SERVER_DELAY": "0.05", "MOVECHECK_LANG": "en",
                "MOVECHECK_CHOICE_BUDGET": str(10**10)},
)


def b1(folder: Path, hopeless: bool = True) -> tuple[Path, str]:
    """B1 (issue 37): six transports in each of 6 and 7 Sea Zone, every other one with an infantry aboard, three
    ``{infantry: 1, tank: 1}`` loads into each, a full transport sails 9 -> 8 Sea Zone, then (``hopeless``) one more
    infantry loads into 8 Sea Zone: AA401, found only after every choice before it is tried."""
    uk, british = "United Kingdom", "British"
    units: list[dict[str, Any]] = [{"at": uk, "power": british, "type": "infantry", "count": 7},
                                   {"at": uk, "power": british, "type": "tank", "count": 6}]
    for zone in ("6 Sea Zone", "7 Sea Zone"):
        for k in range(6):
            units.append({"at": zone, "power": british, "type": "transport", "id": f"T{zone[0]}-{k}"})
            if k % 2:
                units.append({"at": zone, "power": british, "type": "infantry", "aboard": f"T{zone[0]}-{k}"})
    units += [{"at": "9 Sea Zone", "power": british, "type": "transport", "id": "TF"},
              {"at": "9 Sea Zone", "power": british, "type": "infantry", "count": 2, "aboard": "TF"}]
    state = {"movecheck": 1, "system": "aa", "rules": "aa1942", "map": "aa1942-2e",
             "turn": {"round": 2, "power": british, "phase": "noncombat_move"}, "units": units}
    (folder / "state.json").write_text(json.dumps(state), encoding="utf-8")
    moves = [{"units": {"infantry": 1, "tank": 1}, "path": [uk, zone]} for zone in ("6 Sea Zone", "7 Sea Zone")
             for _ in range(3)]
    moves.append({"units": {"transport": 1}, "path": ["9 Sea Zone", "8 Sea Zone"]})
    if hopeless:
        moves.append({"units": {"infantry": 1}, "path": [uk, "8 Sea Zone"]})
    orders = {"movecheck": 1, "system": "aa", "state": "state.json", "power": british, "phase": "noncombat_move",
              "moves": moves}
    path = folder / "orders.json"
    text = json.dumps(orders, indent=1)
    path.write_text(text, encoding="utf-8")
    return path, text


class Publications(dict):  # type: ignore[type-arg]
    """The client's diagnostics, with every publication kept in the order it came (uri, codes, when)."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, list[str], float]] = []

    def __setitem__(self, uri: str, found: Sequence[lsp.Diagnostic]) -> None:
        self.log.append((uri, [str(d.code) for d in found], time.monotonic()))
        super().__setitem__(uri, found)

    def of(self, uri: str) -> list[list[str]]:
        return [codes for at, codes, _when in self.log if at == uri]


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    lsp_client.diagnostics = Publications()
    await start(lsp_client)
    yield
    try:
        await asyncio.wait_for(lsp_client.shutdown_session(), 30)
    except TimeoutError:  # a server held by its check (the old server): end it rather than wait minutes
        process = lsp_client._server  # type: ignore[attr-defined]
        if process is not None:
            process.kill()


async def test_a_hover_is_answered_while_a_long_check_runs_and_a_newer_edit_calls_that_check_off(
        client: LanguageClient, tmp_path: Path) -> None:
    log: Publications = client.diagnostics  # type: ignore[assignment]
    combat = open_file(client, COMBAT)
    assert await published(client, combat, 1) == []
    hard, text = b1(tmp_path)
    target = open_file(client, hard, text)
    await asyncio.sleep(1.0)  # the check of B1 is well under way in the worker (it needs tens of seconds)
    combat_text = COMBAT.read_text()
    asked = time.monotonic()
    answer = await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=combat),
        position=position_of(combat_text, "Archangel, Karelia", 2))), 10)
    answered = time.monotonic()
    assert answer is not None and "neighbours" in str(answer.contents.value)  # type: ignore[union-attr]
    assert log.of(target) == []  # answered while B1's check ran: nothing of it published yet
    # a newer edit (the hopeless order taken out) calls the running check off: version 2 is published, version 1
    # never -- before or after it
    _path, legal = b1(tmp_path, hopeless=False)
    change(client, target, 2, legal)
    assert await published(client, target, 2, timeout=20) == []
    await asyncio.sleep(1.0)
    assert log.of(target) == [[]], log.of(target)
    print(f"hover answered in {1000 * (answered - asked):.1f} ms during the check")


async def test_an_edit_during_a_check_of_the_whole_budget_publishes_only_the_newer_version(
        client: LanguageClient, tmp_path: Path) -> None:
    log: Publications = client.diagnostics  # type: ignore[assignment]
    hard, text = b1(tmp_path)
    target = open_file(client, hard, text)
    await asyncio.sleep(0.5)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=target)))
    await asyncio.sleep(0.5)
    _path, legal = b1(tmp_path, hopeless=False)
    change(client, target, 2, legal)
    assert await published(client, target, 2, timeout=20) == []
    await asyncio.sleep(1.0)
    assert log.of(target) == [[]]


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "movecheck", "server"],
    server_env={**os.environ, "MOVECHECK_SERVER_DELAY": "0.05", "MOVECHECK_LANG": "en"}))
async def plain(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    lsp_client.diagnostics = Publications()
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_an_edit_of_a_state_that_leaves_its_data_the_same_rechecks_none_of_its_readers(
        plain: LanguageClient) -> None:
    log: Publications = plain.diagnostics  # type: ignore[assignment]
    orders = open_file(plain, COMBAT)
    assert await published(plain, orders, 1) == []
    state_text = COMBAT_STATE.read_text()
    state = open_file(plain, COMBAT_STATE, state_text)
    await published(plain, state, 1)
    await asyncio.sleep(0.5)  # the orders re-checked once the state opened (its first check)
    before = len(log.of(orders))
    change(plain, state, 2, "# a comment a player added\n" + state_text.replace("\n", "  \n", 3))
    await published(plain, state, 2)
    await asyncio.sleep(0.5)
    assert len(log.of(orders)) == before  # the same units, the same turn: nothing the orders read has changed
    change(plain, state, 3, state_text.replace("power: Germans", "power: Germanz", 1))
    await published(plain, state, 3)
    found = await published(plain, orders, None)
    assert found and "not checked" in found[0].message


async def test_pull_diagnostics_answer_for_the_text_the_buffer_holds(plain: LanguageClient) -> None:
    typo = ROOT / "examples" / "aa" / "orders" / "variants" / "mc004-typo.yaml"
    target = open_file(plain, typo)

    async def pulled() -> list[str]:
        report = await asyncio.wait_for(plain.text_document_diagnostic_async(lsp.DocumentDiagnosticParams(
            text_document=lsp.TextDocumentIdentifier(uri=target))), 20)
        assert isinstance(report, lsp.RelatedFullDocumentDiagnosticReport)
        return [str(d.code) for d in report.items]

    assert await pulled() == ["MC004", "MC004"]  # asked before (or after) the open's check ended: its findings
    text = typo.read_text()
    change(plain, target, 2, text.replace("fihgter", "fighter", 1))
    assert await pulled() == ["MC004"]  # asked during the pause: the check of version 2's text
    assert await pulled() == ["MC004"]  # asked again: the last check's, at once
