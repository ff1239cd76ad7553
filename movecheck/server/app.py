"""The language server: buffers checked on open, change (debounced) and save, and the features.

Each open movecheck buffer keeps its last check (:class:`Checked`): the diagnostics published,
the prepared state it was checked against (completion and hover read its board), the files
the check read.  A change to a buffer re-checks it after a short pause
(``MOVECHECK_SERVER_DELAY`` seconds, default 0.15), then re-checks the open buffers whose
last check read it (the orders that name a state being edited).  Nothing a buffer holds can
stop the server: a check that fails is one diagnostic on the buffer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import traceback
from collections.abc import Callable
from typing import TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from movecheck import __version__
from movecheck.budget import lightened, lighter
from movecheck.files import is_kind
from movecheck.i18n import _
from movecheck.server import actions, names
from movecheck.server.buffers import Checked
from movecheck.server.diagnostics import SOURCE, diagnostics, lsp_range
from movecheck.server.files import MAX_CHARS, Roots, is_movecheck_text, path_of
from movecheck.server.kernel import Kernel
from movecheck.server.spans import Spans
from movecheck.systems import ORDERS

LOG = logging.getLogger("movecheck.server")
_T = TypeVar("_T")


def _delay() -> float:
    raw = os.environ.get("MOVECHECK_SERVER_DELAY", "")
    try:
        value = float(raw)
    except ValueError:
        return 0.15
    return value if 0 <= value <= 10 else 0.15


class MovecheckServer(LanguageServer):
    """pygls's server with movecheck's buffers, kernel and roots."""

    def __init__(self) -> None:
        super().__init__("movecheck", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.kernel = Kernel()
        self.roots = Roots()
        self.checked: dict[str, Checked] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.delay = _delay()

    # -- buffers -----------------------------------------------------------------------------

    def buffer_text(self, absolute: str) -> str | None:
        """The text of the open buffer of a file (absolute path), or None."""
        try:
            documents = list(self.workspace.text_documents.items())
        except RuntimeError:  # not initialised (a benchmark calling run_check): no buffers
            return None
        for uri, document in documents:
            if path_of(uri) == absolute:
                return str(document.source)
        return None

    def schedule(self, uri: str, delay: float | None = None, typing: bool = False, follow: bool = True) -> None:
        """Check the buffer after ``delay`` seconds (the last call wins); ``typing``: on a share of the budgets;
        ``follow``: then the open buffers that read it."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        loop = asyncio.get_running_loop()
        check = functools.partial(self.check_now, uri, follow=follow, typing=typing)
        self.pending[uri] = loop.call_later(self.delay if delay is None else delay, check)

    def check_now(self, uri: str, follow: bool = True, typing: bool = False) -> None:
        """Check the buffer now and publish its diagnostics; then the open buffers that read it.

        ``typing``: a check as you type, on a share of every search budget (:func:`movecheck.budget.lighter`),
        so that a search holds the server a tenth as long; a search that runs out says so, and saving the
        file checks it with the whole budget, as the command line does (issue 37)."""
        if typing:

            with lighter():
                self.check_now(uri, follow)
            return
        self.pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return
        document = self.workspace.get_text_document(uri)
        path = path_of(uri)
        if path is None:
            return
        try:
            checked = self.run_check(path, document.source, document.version)
        except Exception as exc:
            LOG.error("check of %s failed: %s", path, "".join(traceback.format_exception(exc)))
            checked = Checked(document.version, document.source, path)
            error = f"{type(exc).__name__}: {exc}"
            checked.published = [_problem(_("movecheck could not check this file: {error}").format(error=error))]
        previous = self.checked.get(uri)
        if checked.kind is None and previous is not None:
            checked.kind = previous.kind  # a half-typed line breaks the YAML: completion keeps the file's kind
        self.checked[uri] = checked
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=checked.published, version=document.version)
        )
        if follow:  # the open buffers that read it, each after the pause (a newer edit puts them off again)
            absolute = os.path.abspath(path)
            typing = lightened()
            for other, last in list(self.checked.items()):
                if other != uri and last.result is not None and absolute in last.result.read:
                    self.schedule(other, typing=typing, follow=False)

    def run_check(self, path: str, text: str, version: int | None) -> Checked:
        """The check of one buffer's text (no LSP in it but the diagnostics)."""
        checked = Checked(version, text, path)
        if not is_movecheck_text(text):
            return checked
        if len(text) > MAX_CHARS:
            message = _("the buffer is larger than {limit} characters: the server does not check it as you type; "
                        "run movecheck check on the file").format(limit=MAX_CHARS)
            checked.published = [_problem(message, "MC008")]
            return checked

        settings = self.roots.settings(path)
        loaded = self.kernel.loaded(path, text)
        checked.kind = loaded.kind
        orders = loaded.usable and is_kind(loaded.kind, ORDERS)
        result = (self.kernel.check if orders else self.kernel.lint)(path, text, settings, self.buffer_text)
        checked.result = result
        checked.spans = Spans(text)
        entry = result.entry if orders else None
        checked.published = diagnostics(result.report, entry, path, checked.spans, settings.config)
        return checked

    def spans_of(self, uri: str) -> tuple[Checked | None, Spans | None]:
        """The buffer's last check and the spans of its current text."""
        checked = self.checked.get(uri)
        if uri not in self.workspace.text_documents:
            return checked, None
        text = self.workspace.get_text_document(uri).source
        if checked is not None and checked.spans is not None and checked.text == text:
            return checked, checked.spans
        if len(text) > MAX_CHARS:
            return checked, None
        return checked, Spans(text)


def _problem(message: str, code: str | None = None) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=lsp_range((0, 0), (0, 0)), message=message, severity=lsp.DiagnosticSeverity.Error,
                          code=code, source=SOURCE)


def build() -> MovecheckServer:
    """The server with its features registered."""
    server = MovecheckServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: MovecheckServer, params: lsp.InitializeParams) -> None:
        folders = [path_of(f.uri) for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [path_of(params.root_uri)]
        ls.roots = Roots([f for f in folders if f])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: MovecheckServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        folders = set(ls.roots.folders)
        folders -= {os.path.realpath(p) for p in (path_of(f.uri) for f in params.event.removed) if p}
        folders |= {p for p in (path_of(f.uri) for f in params.event.added) if p}
        ls.roots = Roots(sorted(folders))
        for uri in list(ls.checked):
            ls.schedule(uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MovecheckServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MovecheckServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, typing=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MovecheckServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MovecheckServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        closed = ls.checked.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        path = path_of(uri)
        if closed is not None and path is not None:  # the orders that read it read the disk again
            absolute = os.path.abspath(path)
            for other, last in list(ls.checked.items()):
                if last.result is not None and absolute in last.result.read:
                    ls.schedule(other, 0)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["[", " ", ","]))
    def completion(ls: MovecheckServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        return _guarded(lambda: names.complete(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: MovecheckServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return _guarded(lambda: names.hover(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: MovecheckServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        return _guarded(lambda: names.definition(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: MovecheckServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        return _guarded(lambda: actions.code_actions(ls, params))

    return server


def _guarded(answer: Callable[[], _T]) -> _T | None:
    """A request's answer, or nothing when working it out failed (logged): a request never kills the server."""
    try:
        return answer()
    except Exception as exc:
        LOG.error("request failed: %s", "".join(traceback.format_exception(exc)))
        return None


def serve() -> None:
    """Speak LSP over stdin and stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="movecheck server: %(message)s")
    build().start_io()
