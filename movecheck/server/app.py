"""The language server: buffers checked on open, change (debounced) and save, and the features.

Each open movecheck buffer keeps its last check (:class:`Checked`): the diagnostics published,
the prepared state it was checked against (completion and hover read its board), the files
the check read.  A change to a buffer re-checks it after a short pause (adaptive: :func:`pause`;
fixed by ``MOVECHECK_SERVER_DELAY`` or the ``delay`` setting), then re-checks the open buffers
whose last check read it (the orders that name a state being edited).  Checks run in a worker
thread, one at a time; a newer edit calls the older check off (issue 37).  Nothing a buffer holds can
stop the server: a check that fails is one diagnostic on the buffer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import functools
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from movecheck import __version__
from movecheck.budget import Cancelled, cancellable, lighter
from movecheck.clauses import Severity
from movecheck.config_files import load_config
from movecheck.files import is_kind
from movecheck.i18n import ENGLISH, LanguageError, _, resolve, set_language
from movecheck.loading import read_by_json
from movecheck.selection import Layer
from movecheck.server import actions, names, odds
from movecheck.server import settings as editor_settings
from movecheck.server.buffers import Checked
from movecheck.server.diagnostics import SOURCE, diagnostic, diagnostics, lsp_range
from movecheck.server.files import MAX_CHARS, Roots, is_movecheck_text, path_of
from movecheck.server.kernel import Buffers, Kernel
from movecheck.server.spans import Spans
from movecheck.systems import ORDERS, system_of

LOG = logging.getLogger("movecheck.server")

SWITCH_INTERVAL = 0.001
"""Seconds the worker's check holds the interpreter before the server's thread may answer (Python's default, 5 ms,
is paid again at each read and write of a request: a hover would wait tens of milliseconds behind a check)."""
_T = TypeVar("_T")


def _delay() -> float | None:
    """``MOVECHECK_SERVER_DELAY``: a fixed pause (seconds, 0 to 10); None: the adaptive pause (:func:`pause`)."""
    raw = os.environ.get("MOVECHECK_SERVER_DELAY", "")
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if 0 <= value <= 10 else None


LONGEST_PAUSE = 0.15
"""The adaptive pause's longest (seconds): a large file's, and the most a fast typist waits."""
SHORTEST_PAUSE = 0.02
"""The adaptive pause after a lone edit of a small file."""
SMALL_FILE = 20_000
"""Characters: a file this long or shorter is checked in milliseconds (the examples are 1 to 5 KB)."""


def pause(size: int, since_last_edit: float | None) -> float:
    """The adaptive pause before an edited buffer is checked (issue 42): short for a small file, so that the examples
    show their findings within 50 ms of the last keystroke, the longest for a large one; and while the player types
    fast (the edit before came less than the longest pause ago), half again the time between their keystrokes, so
    that the file is checked when typing stops rather than at every key."""
    if size > SMALL_FILE:
        return LONGEST_PAUSE
    if since_last_edit is not None and since_last_edit < LONGEST_PAUSE:
        return min(LONGEST_PAUSE, max(SHORTEST_PAUSE, 1.5 * since_last_edit))
    return SHORTEST_PAUSE


class MovecheckServer(LanguageServer):
    """pygls's server with movecheck's buffers, kernel and roots."""

    def __init__(self) -> None:
        super().__init__("movecheck", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.kernel = Kernel()
        self.roots = Roots()
        self.checked: dict[str, Checked] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.delay = _delay()
        """A fixed pause after an edit (``MOVECHECK_SERVER_DELAY``, the ``delay`` setting); None: :func:`pause`."""
        self.edited: dict[str, float] = {}
        """When each buffer was last edited (``time.monotonic``), for the adaptive pause."""
        self.worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="movecheck-check")
        """The one thread checks run in (one at a time: the kernel's readers are replaced while a check runs)."""
        self.running: dict[str, threading.Event] = {}
        """The flag that calls off each buffer's latest check, while it waits or runs."""
        self.published = 0
        """How many checks were published (the benchmark reads it)."""
        self.settings = editor_settings.Settings()
        """The editor's settings (:mod:`movecheck.server.settings`)."""
        self.waiters: dict[str, list[asyncio.Future[list[lsp.Diagnostic]]]] = {}
        """Pull requests (``textDocument/diagnostic``) waiting for the buffer's next publication."""
        self.stale: set[str] = set()
        """Open orders whose state was edited in a way that cannot change their check
        (``System.edit_can_change``): checked again when next asked for (:meth:`refresh`, a pull), not at once
        (issue 37)."""

    async def pull(self, uri: str) -> list[lsp.Diagnostic]:
        """The diagnostics of the buffer as it is now (``textDocument/diagnostic``): its last check's when that
        checked the text the buffer holds, else those of the check waiting or running (one is started if none is)."""
        checked = self.checked.get(uri)
        if uri not in self.workspace.text_documents or path_of(uri) is None:
            return checked.published if checked is not None else []
        if checked is not None and checked.text == self.workspace.get_text_document(uri).source \
                and uri not in self.stale:
            return checked.published
        waiter: asyncio.Future[list[lsp.Diagnostic]] = asyncio.get_running_loop().create_future()
        self.waiters.setdefault(uri, []).append(waiter)
        if uri not in self.pending and uri not in self.running:
            self.check_now(uri)
        return await waiter

    def answer_pulls(self, uri: str, found: list[lsp.Diagnostic]) -> None:
        """Answer the pull requests waiting for the buffer's diagnostics."""
        for waiter in self.waiters.pop(uri, []):
            if not waiter.done():
                waiter.set_result(found)

    def refresh(self, uri: str) -> None:
        """A request read the buffer (hover, completion, definition): check it again now if it is stale."""
        if uri in self.stale and uri not in self.pending and uri not in self.running:
            self.check_now(uri, follow=False)

    def configure(self, options: Any) -> bool:
        """Take the editor's settings (``initializationOptions``, ``didChangeConfiguration``); whether any changed.
        What cannot be used is said in one message to the editor."""

        before = self.settings
        self.settings, problems = editor_settings.updated(before, options)
        for problem in problems:
            LOG.warning("%s", problem)
            self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning,
                                                           message="movecheck: " + problem))
        if self.settings == before:
            return False
        try:
            set_language(self.settings.lang or resolve())
        except LanguageError:
            set_language(ENGLISH)
        chosen = self.settings
        layer = Layer(chosen.select, chosen.ignore) if chosen.select is not None or chosen.ignore else None
        self.roots = Roots(self.roots.folders, layer)
        self.delay = _delay() if chosen.delay is None else chosen.delay
        return True

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

    def after_edit(self, uri: str) -> float:
        """The pause before the check of a buffer just edited: the fixed one, else the adaptive one."""
        now = time.monotonic()
        last = self.edited.get(uri)
        self.edited[uri] = now
        if self.delay is not None:
            return self.delay
        size = len(self.workspace.get_text_document(uri).source) if uri in self.workspace.text_documents else 0
        return pause(size, None if last is None else now - last)

    def schedule(self, uri: str, delay: float | None = None, typing: bool = False, follow: bool = True) -> None:
        """Check the buffer after ``delay`` seconds (the last call wins); ``typing``: on a share of the budgets;
        ``follow``: then the open buffers that read it."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        loop = asyncio.get_running_loop()
        check = functools.partial(self.check_now, uri, follow=follow, typing=typing)
        if delay is None:
            delay = LONGEST_PAUSE if self.delay is None else self.delay
        self.pending[uri] = loop.call_later(delay, check)

    def check_now(self, uri: str, follow: bool = True, typing: bool = False) -> None:
        """Start the check of the buffer in the worker and publish its diagnostics when it ends; then the open buffers
        that read it.

        The check runs in the server's one worker thread (:meth:`run_in_worker`), so hover, completion and
        definition answer while it runs (issue 37).  A newer edit of the buffer calls it off (:meth:`call_off`):
        the check stops at the next step a search spends, and what it found is never published.  ``typing``: a
        check as you type, on a share of every search budget (:func:`movecheck.budget.lighter`), so that a search
        ends a tenth as soon; a search that runs out says so, and saving the file checks it with the whole budget,
        as the command line does."""
        self.pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return
        document = self.workspace.get_text_document(uri)
        path = path_of(uri)
        if path is None:
            return
        self.call_off(uri)
        stop = self.running[uri] = threading.Event()
        text, version = document.source, document.version
        buffers = self.buffers_now()
        share = self.settings.divisor if typing else None
        work = functools.partial(self.checked_in_worker, path, text, version, share, stop, buffers)
        future = self.worker.submit(work)
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda done: loop.call_soon_threadsafe(self.finish, uri, stop, follow, typing, done))

    def call_off(self, uri: str) -> None:
        """Call off the running (or waiting) check of the buffer: its answer is stale."""
        stop = self.running.pop(uri, None)
        if stop is not None:
            stop.set()

    def stop_checks(self) -> None:
        """Call off every check, waiting or running (the session ends: the worker thread must end too)."""
        for waiting in self.pending.values():
            waiting.cancel()
        self.pending.clear()
        for uri in list(self.running):
            self.call_off(uri)
        self.worker.shutdown(wait=False, cancel_futures=True)

    def readers(self, uri: str) -> list[str]:
        """The open buffers whose last check read the buffer ``uri``."""
        path = path_of(uri)
        if path is None:
            return []
        absolute = os.path.abspath(path)
        return [other for other, last in self.checked.items()
                if other != uri and last.result is not None and absolute in last.result.read]

    def call_off_readers(self, uri: str) -> None:
        """Call off the running checks of the buffers that read ``uri`` (they read a text that is no longer the
        buffer's) and check them again after the pause."""
        for other in self.readers(uri):
            if other in self.running:
                self.call_off(other)
                self.schedule(other, typing=True, follow=False)

    def buffers_now(self) -> Buffers:
        """The open buffers' texts as they are now (a check in the worker reads these, never the live workspace)."""
        texts = {}
        for uri, document in list(self.workspace.text_documents.items()):
            path = path_of(uri)
            if path is not None:
                texts[path] = str(document.source)
        return texts.get

    def checked_in_worker(self, path: str, text: str, version: int | None, share: int | None, stop: threading.Event,
                          buffers: Buffers) -> Checked | None:
        """The check of one buffer in the worker thread (``share``: as you type, on ``1 / share`` of each budget);
        None when it was called off before or while it ran."""
        if stop.is_set():
            return None

        try:
            with cancellable(stop), lighter(share) if share is not None else contextlib.nullcontext():
                return self.run_check(path, text, version, buffers)
        except Cancelled:
            return None
        except Exception as exc:
            LOG.error("check of %s failed: %s", path, "".join(traceback.format_exception(exc)))
            checked = Checked(version, text, path)
            error = f"{type(exc).__name__}: {exc}"
            checked.published = [_problem(_("movecheck could not check this file: {error}").format(error=error))]
            return checked

    def finish(self, uri: str, stop: threading.Event, follow: bool, typing: bool,
               done: concurrent.futures.Future[Checked | None]) -> None:
        """Publish a check that ended (in the server's thread), unless a newer edit called it off."""
        checked = None if done.cancelled() else done.result()
        if stop.is_set() or checked is None or uri not in self.workspace.text_documents:
            return
        if self.running.get(uri) is stop:
            del self.running[uri]
        self.stale.discard(uri)
        previous = self.checked.get(uri)
        _keep_board(checked, previous)
        self.checked[uri] = checked
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=checked.published, version=checked.version)
        )
        self.published += 1
        self.answer_pulls(uri, checked.published)
        if follow:
            self.follow(uri, checked, previous, typing)

    def follow(self, uri: str, checked: Checked, previous: Checked | None, typing: bool) -> None:
        """Re-check the open buffers that read the buffer just checked, each after the pause (a newer edit puts them
        off again) -- unless what they read of it is the same (an edit of a comment or of the layout), or the edit
        cannot change their check (``System.edit_can_change``): those are stale, checked again
        when next asked for (issue 37: a state edited with twenty orders files open)."""
        if previous is not None and previous.data is not None and checked.data == previous.data:
            return
        edit = state_edit(previous, checked)
        for other in self.readers(uri):
            waiting = other in self.running or other in self.pending  # a check that may have read the older text
            if not waiting and edit is not None and not can_change(checked.path, edit, self.checked[other]):
                self.stale.add(other)
                continue
            self.schedule(other, typing=typing, follow=False)

    def run_check(self, path: str, text: str, version: int | None, buffers: Buffers | None = None) -> Checked:
        """The check of one buffer's text (no LSP in it but the diagnostics); ``buffers``: the open buffers' texts
        (by default the workspace's)."""
        checked = Checked(version, text, path)
        if os.path.basename(path) == CONFIG_FILE and len(text) <= MAX_CHARS:
            return _lint_config(checked)
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
        checked.data = _plain(loaded)
        orders = loaded.usable and is_kind(loaded.kind, ORDERS)
        result = (self.kernel.check if orders else self.kernel.lint)(path, text, settings, buffers or self.buffer_text)
        checked.result = result
        checked.spans = Spans(text, self.kernel.events(path, text),  # read only when a diagnostic or a request asks
                              json=read_by_json(loaded.doc))
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


CONFIG_FILE = ".movecheck.yaml"


def _lint_config(checked: Checked) -> Checked:
    """The findings ``movecheck lint .movecheck.yaml`` gives the configuration in the buffer (issue 42)."""

    config = load_config(checked.path, raw=checked.text.encode("utf-8", errors="replace"))
    checked.kind = "config"
    checked.spans = Spans(checked.text)
    findings = config.findings if config is not None else []
    checked.published = [diagnostic(f, checked.spans) for f in findings]
    return checked


def _keep_board(checked: Checked, previous: Checked | None) -> None:
    """A half-typed line breaks the YAML (``path: [Ukraine S.S.R., Cau``): completion and hover keep the file's
    kind and the board of its last check that had one (issue 42: completion mid-line)."""
    if previous is None:
        return
    if checked.kind is None:
        checked.kind = previous.kind
    kept = previous.result.prepared if previous.result is not None else None
    if kept is not None and checked.result is not None and checked.result.prepared is None \
            and checked.kind == previous.kind:
        checked.result = dataclasses.replace(checked.result, prepared=kept)


def state_edit(previous: Checked | None, checked: Checked) -> object | None:
    """What the edit of a buffer from its check ``previous`` to ``checked`` changed, for its readers
    (``System.state_edit``); None: anything."""
    if previous is None or not _clean(previous) or not _clean(checked) or checked.kind is None:
        return None  # a state with an error leaves its orders unchecked, quoting it: any edit of it may change them
    return system_of(checked.kind).state_edit(previous.data, checked.data)


def can_change(state_path: str, edit: object, reader: Checked) -> bool:
    """Whether ``edit`` (:func:`state_edit`) of the state ``state_path`` can change the check of ``reader`` (its
    last check): its system says (``System.edit_can_change``); a reader with no prepared check can always."""
    prepared = reader.result.prepared if reader.result is not None else None
    if prepared is None or reader.kind is None:
        return True
    return system_of(reader.kind).edit_can_change(edit, state_path, prepared, reader.data)


def _clean(checked: Checked) -> bool:
    """The check found no error in the buffer nor in any file it read (a state's map)."""
    report = checked.result.report if checked.result is not None else None
    return report is not None and not any(f.severity is Severity.ERROR for f in report.sorted_findings())


def _plain(loaded: Any) -> Any:
    """What the rules read of a buffer (its YAML's data), to tell an edit of a comment or the layout from one of
    the content; None when it cannot be read."""
    return loaded.doc.data if loaded.usable and not loaded.findings else None


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
        ls.roots = Roots([f for f in folders if f], ls.roots.layer)
        ls.configure(params.initialization_options)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration_changed(ls: MovecheckServer, params: lsp.DidChangeConfigurationParams) -> None:
        if ls.configure(params.settings):  # every open buffer again, in the language and selection now in force
            for uri in list(ls.checked):
                ls.schedule(uri, 0)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: MovecheckServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        folders = set(ls.roots.folders)
        folders -= {os.path.realpath(p) for p in (path_of(f.uri) for f in params.event.removed) if p}
        folders |= {p for p in (path_of(f.uri) for f in params.event.added) if p}
        ls.roots = Roots(sorted(folders), ls.roots.layer)
        for uri in list(ls.checked):
            ls.schedule(uri, 0)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: MovecheckServer, params: None) -> None:
        ls.stop_checks()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MovecheckServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MovecheckServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.call_off(params.text_document.uri)
        ls.call_off_readers(params.text_document.uri)
        ls.schedule(params.text_document.uri, ls.after_edit(params.text_document.uri), typing=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MovecheckServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check_now(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MovecheckServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.call_off(uri)
        ls.answer_pulls(uri, [])
        ls.edited.pop(uri, None)
        ls.stale.discard(uri)
        closed = ls.checked.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        path = path_of(uri)
        if closed is not None and path is not None:  # the orders that read it read the disk again
            absolute = os.path.abspath(path)
            for other, last in list(ls.checked.items()):
                if last.result is not None and absolute in last.result.read:
                    ls.schedule(other, 0)

    @server.command(actions.APPLY_ALL_FIXES)
    def apply_all_fixes(ls: MovecheckServer, *args: Any) -> lsp.WorkspaceEdit | None:
        """Every preferred fix of the buffer (the first argument, its URI), asked of the editor at once
        (``workspace/applyEdit``) and returned (a client may apply it itself)."""
        target = next((a for a in args if isinstance(a, str)), None)
        edit = _guarded(lambda: actions.all_fixes(ls, target)) if target is not None else None
        workspace = ls.client_capabilities.workspace
        if edit is not None and workspace is not None and workspace.apply_edit:
            sent = ls.workspace_apply_edit(lsp.ApplyWorkspaceEditParams(edit=edit, label=_("Apply all fixes")))
            sent.add_done_callback(lambda done: done.cancelled() or done.exception())  # a client may refuse
        return edit

    @server.command(odds.SHOW_ODDS)
    async def show_odds(ls: MovecheckServer, *args: Any) -> dict[str, Any] | None:
        """The odds of the battle under the cursor (arguments: the buffer's URI and an LSP position), shown to the
        user (``window/showMessage``) and returned as data; worked out in the worker thread, as a check."""
        target = next((a for a in args if isinstance(a, str)), None)
        point = _point(next((a for a in args if not isinstance(a, str)), None))
        if target is None or point is None:
            return None
        buffers = ls.buffers_now()
        found = await asyncio.wrap_future(ls.worker.submit(
            _guarded, lambda: odds.show_odds(ls, target, point, buffers)))
        if found is not None:
            kind = lsp.MessageType.Info if found["battle"] is not None else lsp.MessageType.Warning
            ls.window_show_message(lsp.ShowMessageParams(type=kind, message=found["text"]))
        return found

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                    lsp.DiagnosticOptions(inter_file_dependencies=True, workspace_diagnostics=False))
    async def diagnostic(ls: MovecheckServer, params: lsp.DocumentDiagnosticParams
                         ) -> lsp.RelatedFullDocumentDiagnosticReport:
        return lsp.RelatedFullDocumentDiagnosticReport(items=await ls.pull(params.text_document.uri))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["[", " ", ","]))
    def completion(ls: MovecheckServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        ls.refresh(params.text_document.uri)
        return _guarded(lambda: names.complete(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: MovecheckServer, params: lsp.HoverParams) -> lsp.Hover | None:
        ls.refresh(params.text_document.uri)
        return _guarded(lambda: names.hover(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: MovecheckServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        ls.refresh(params.text_document.uri)
        return _guarded(lambda: names.definition(ls, params.text_document.uri, params.position))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_action(ls: MovecheckServer, params: lsp.CodeActionParams
                          ) -> list[lsp.CodeAction | lsp.Command] | None:
        fixes = _guarded(lambda: actions.code_actions(ls, params))
        if fixes is None:
            return None
        uri = params.text_document.uri
        checked, spans = ls.spans_of(uri)
        if checked is None or spans is None:
            return list(fixes)
        start = (params.range.start.line, params.range.start.character)
        shown = _guarded(lambda: odds.odds_action(uri, checked, spans, start))
        buffers = ls.buffers_now()  # the ends --suggest writes come of a check: in the worker, as every check
        ends = await asyncio.wrap_future(ls.worker.submit(
            _guarded, lambda: actions.suggested_ends(ls, uri, checked, spans, buffers)))
        return [*fixes, *(ends or []), *([shown] if shown is not None else [])]

    return server


def _point(position: Any) -> tuple[int, int] | None:
    """An LSP position given as a command's argument (a mapping with line and character), as a point."""
    if not isinstance(position, dict):
        return None
    line, character = position.get("line"), position.get("character")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (line, character)):
        return None
    return line, character  # type: ignore[return-value]


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
    sys.setswitchinterval(SWITCH_INTERVAL)
    build().start_io()
