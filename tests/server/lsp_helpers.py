"""Helpers for the language server tests: a client on the real server over stdio, waiting, edits."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "movecheck", "server"],
    server_env={**os.environ, "MOVECHECK_SERVER_DELAY": "0.05", "MOVECHECK_LANG": "en"},
)


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def start(client: LanguageClient, folder: Path = ROOT) -> None:
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[lsp.WorkspaceFolder(uri=uri(folder), name=folder.name)],
    ))


async def published(client: LanguageClient, target: str, version: int | None,
                    timeout: float = 20) -> list[lsp.Diagnostic]:
    """The diagnostics the server publishes for ``target`` at ``version`` (waits for them)."""
    seen: dict[str, Any] = {}

    async def wait() -> list[lsp.Diagnostic]:
        while True:
            params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            seen[params.uri] = params.version
            if params.uri == target and (version is None or params.version == version):
                return list(params.diagnostics)

    return await asyncio.wait_for(wait(), timeout)


_OPENED: list[list[str]] = []
"""The documents opened while :func:`opened` is in force (innermost last)."""


@contextmanager
def opened() -> Iterator[list[str]]:
    """The documents :func:`open_file` opens inside the ``with`` (to close them after a test on a shared server)."""
    documents: list[str] = []
    _OPENED.append(documents)
    try:
        yield documents
    finally:
        _OPENED.remove(documents)


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    target = uri(path)
    for documents in _OPENED:
        if target not in documents:
            documents.append(target)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=target, language_id="yaml", version=version, text=path.read_text() if text is None else text)))
    return target


async def close(client: LanguageClient, documents: list[str]) -> None:
    """Close the documents one by one, each after the server has cleared the last one's diagnostics.

    The client keeps one waiter for a kind of notification, so publications that come together
    are lost: the next test on a shared server starts when nothing more is on its way.
    """
    for target in documents:
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=target)))
        assert await published(client, target, None) == []


def change(client: LanguageClient, target: str, version: int, text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=target, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def covered(text: str, where: lsp.Range) -> str:
    """The text a range covers."""
    lines = text.split("\n")
    if where.start.line == where.end.line:
        return lines[where.start.line][where.start.character:where.end.character]
    parts = [lines[where.start.line][where.start.character:]]
    parts += lines[where.start.line + 1:where.end.line]
    parts.append(lines[where.end.line][:where.end.character])
    return "\n".join(parts)


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """The text with the edits made (LSP ranges, last edit first)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(p: lsp.Position) -> int:
        return offsets[p.line] + p.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:at(edit.range.start)] + edit.new_text + text[at(edit.range.end):]
    return text


def position_of(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of the first ``needle`` in ``text`` (plus ``offset`` characters)."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return lsp.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))
