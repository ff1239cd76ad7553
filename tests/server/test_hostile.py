"""Hostile buffers get one diagnostic and never stop the server; it reads nothing outside the workspace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("pytest_lsp", reason="the language server tests need the test extra (pytest-lsp, pygls)")

import pytest_asyncio
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tests.server.conftest import lay_out_workspace
from tests.server.lsp_helpers import ROOT, SERVER, close, open_file, opened, published, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

HEAD = "movecheck: 1\nsystem: aa\n"
STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"
ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"


def _bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]" for k in range(1, 10)]
    return HEAD + "\n".join(lines) + "\n"


HOSTILE = {
    "ten megabytes": (HEAD + "# " + "x" * (10 * 1024 * 1024) + "\n", "MC008"),
    "binary junk": (HEAD + bytes(range(256)).decode("latin-1") * 40, "MC001"),
    "a YAML bomb": (_bomb(), "MC008"),
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the module's server (each test opens documents of its own names, closed after it)."""
    return lay_out_workspace(tmp_path_factory.mktemp("hostile"))


@pytest_lsp.fixture(config=SERVER, scope="module")
async def shared(lsp_client: LanguageClient, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """One server for the module (starting one is most of a test's time)."""
    await start(lsp_client, request.getfixturevalue("workspace"))
    yield
    await lsp_client.shutdown_session()


@pytest_asyncio.fixture(loop_scope="module")
async def client(shared: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    """The module's server; the documents a test opened are closed and the files it wrote removed after it."""
    before = set(workspace.rglob("*"))
    with opened() as documents:
        yield shared
    await close(shared, documents)
    for path in set(workspace.rglob("*")) - before:
        path.unlink()


@pytest.mark.parametrize("case", sorted(HOSTILE))
async def test_a_hostile_buffer_gets_one_diagnostic_and_the_server_goes_on(
        client: LanguageClient, workspace: Path, case: str) -> None:
    text, code = HOSTILE[case]
    target = open_file(client, workspace / "orders" / "hostile.yaml", text)
    found = await published(client, target, 1, timeout=60)
    assert [d.code for d in found] == [code]
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=lsp.Position(line=0, character=0)))
    assert hover is None or isinstance(hover, lsp.Hover)  # it still answers
    shutil.copy(STATE, workspace / "state.yaml")
    good = ORDERS.read_text().replace("../states/g1-combat.yaml", "../state.yaml")
    again = open_file(client, workspace / "orders" / "good.yaml", good)
    assert await published(client, again, 1) == []


async def test_junk_that_is_not_a_movecheck_file_gets_nothing(client: LanguageClient, workspace: Path) -> None:
    target = open_file(client, workspace / "orders" / "junk.yaml", bytes(range(1, 256)).decode("latin-1") * 40)
    assert await published(client, target, 1) == []


@pytest.mark.parametrize("reference", ["../../outside-state.yaml", "../linked-state.yaml", "/etc/hostname"])
async def test_a_state_outside_the_workspace_is_one_diagnostic_and_never_read(
        client: LanguageClient, workspace: Path, reference: str) -> None:
    text = ORDERS.read_text().replace("../states/g1-combat.yaml", reference)
    target = open_file(client, workspace / "orders" / "outside.yaml", text)
    found = await published(client, target, 1)
    assert [(d.code, d.range.start.line) for d in found] == [("MC011", text.split("\n").index(f"state: {reference}"))]
    assert "resolves outside the root" in found[0].message
    where = lsp.Position(line=found[0].range.start.line, character=9)
    assert await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=target), position=where)) is None
