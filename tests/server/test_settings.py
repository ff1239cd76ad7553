"""Issue 42: the server takes its settings as ``ruff server`` does -- ``initializationOptions`` and
``workspace/didChangeConfiguration`` (language, select/ignore, the pause, the as-you-type budget), changed live."""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_lsp", reason="the language server tests need the test extra (pytest-lsp, pygls)")

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities

from movecheck.server.settings import Settings, updated
from tests.server.lsp_helpers import ROOT, SERVER, open_file, published, uri

TYPO = ROOT / "examples" / "aa" / "orders" / "variants" / "mc004-typo.yaml"


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[lsp.WorkspaceFolder(uri=uri(ROOT), name=ROOT.name)],
        initialization_options={"settings": {"ignore": ["MC004"], "delay": 0.01}}))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
async def test_settings_from_the_start_and_changed_live(client: LanguageClient) -> None:
    target = open_file(client, TYPO)
    first = await published(client, target, 1)  # both findings are MC004: ignored from initializationOptions
    assert [d.code for d in first if d.code] == [] and first  # (the orders they leave unchecked still say so)
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"movecheck": {"ignore": None, "lang": "ru"}}))
    found = await published(client, target, 1)
    assert [d.code for d in found] == ["MC004", "MC004"]
    assert all(any("\u0400" <= c <= "\u04ff" for c in d.message) for d in found), [d.message for d in found]
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"movecheck": {"lang": "en", "select": ["AA"]}}))
    last = await published(client, target, 1)  # MC004 is not selected
    assert [d.code for d in last if d.code] == [] and all("not checked" in d.message for d in last)


def test_a_setting_the_server_cannot_use_is_said_and_leaves_the_value() -> None:
    start = Settings(delay=0.2)
    found, problems = updated(start, {"delay": 99, "asYouTypeBudget": 0.5, "select": ["ZZ999"], "lang": "xx"})
    assert found == Settings(delay=0.2, divisor=2)
    assert [p.split(":")[0] for p in problems] == ["setting lang", "setting select", "setting delay"]
    assert "did you mean" in problems[1] or "unknown rule code" in problems[1]
    assert updated(found, {"settings": {"delay": None, "asYouTypeBudget": None}})[0] == Settings()
    assert updated(found, "not a mapping") == (found, [])


def test_the_pause_is_short_for_a_small_file_and_longer_while_typing_fast_or_for_a_large_one() -> None:
    from movecheck.server.app import LONGEST_PAUSE, SHORTEST_PAUSE, pause

    example = len((ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml").read_text())
    assert pause(example, None) == SHORTEST_PAUSE == 0.02  # a lone edit: the findings within 50 ms of the key
    assert pause(example, 2.0) == SHORTEST_PAUSE
    assert pause(example, 0.08) == pytest.approx(0.12)  # keys every 80 ms: the check waits for typing to stop
    assert pause(example, 0.005) == SHORTEST_PAUSE
    assert pause(example, 0.14) == LONGEST_PAUSE
    assert pause(300_000, None) == LONGEST_PAUSE
