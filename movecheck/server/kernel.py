"""The server's one adapter to the kernel: ``check`` and ``lint`` of a buffer, in process.

The server runs the kernel's own :func:`movecheck.core.check` and :func:`movecheck.core.lint`
(so it gives the findings, reasons and verdicts the command line gives), with three of the
kernel's readers replaced for the length of one call:

- ``read`` (an input file) reads the buffer's text rather than the file on disk;
- ``read_reference`` (a file named inside another: ``state:``, an aa ``map:``) reads an open
  buffer first, then the disk, and keeps what it read per version of the text;
- ``prepare`` (a state made ready for its rules) keeps each prepared state per version of
  its text, of the files it read (its map) and of the rules it runs under.

This is the only module that names these kernel functions (``HOOKS``): when the kernel
moves them, this module is the one to change.  The server runs every call in its one worker
thread, one at a time (:mod:`movecheck.server.app`), so the replacement never leaks into another call.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from movecheck import core, files
from movecheck.files import Loaded
from movecheck.findings import FileReport, Report
from movecheck.loading import EventTape, load_bytes
from movecheck.reading import InputError, read_regular
from movecheck.settings import Settings
from movecheck.systems import REPEATED, Prepared, all_systems

HOOKS = ("read", "read_reference", "prepare", "check", "lint", "examine")
"""The kernel functions this adapter calls or replaces (a test makes sure they exist)."""

_T = TypeVar("_T")

Buffers = Callable[[str], "str | None"]
"""The text of the open buffer of a path (absolute, normalised), or None when none is open."""


@dataclass
class Result:
    """What one check of a buffer gave: the run's report and the buffer's own entry."""

    report: Report
    entry: FileReport | None
    prepared: Prepared[object] | None = None
    """The prepared state the orders were checked against (completion and hover read its model)."""
    read: list[str] = field(default_factory=list)
    """The files (absolute) the check read besides the buffer: a change to one re-checks it."""
    required_ends: str = ""
    """``check --suggest`` (settings with ``suggest``): the end positions the rules require (YAML)."""


class Kernel:
    """Runs checks of buffers and keeps what does not change between them."""

    def __init__(self) -> None:
        self._files: dict[str, tuple[str, Loaded]] = {}
        """Files read through ``read_reference``, by absolute path: (text, what it gave)."""
        self._prepared: dict[tuple[str, str, Any], tuple[Prepared[object], tuple[tuple[str, str], ...]]] = {}
        """Prepared states by (path, text, rules): the state and the (path, text) of each file it read."""
        self.preparations = 0
        """How many states were prepared (not taken from the cache): the tests read it."""
        self._buffer: tuple[str, str, Loaded] | None = None
        """The last buffer :meth:`loaded` read: (path, text, what it gave)."""
        self._tape: tuple[str, str, EventTape] | None = None
        """The YAML events of the last buffer :meth:`loaded` read: (path, text, its events)."""

    # -- the calls ---------------------------------------------------------------------------

    def check(self, path: str, text: str, settings: Settings, buffers: Buffers) -> Result:
        """``movecheck check`` of the orders in ``text`` (the buffer of ``path``)."""
        run = _Run(self, path, text, buffers)
        repeated = REPEATED.set(True)  # a system may give its last run of unchanged orders again (issue 37)
        try:
            with run.installed():
                report, ends = core.check([path], settings)
        finally:
            REPEATED.reset(repeated)
        entry = next((e for e in report.files if e.path == path), None)
        prepared = run.last_prepared if entry is not None and entry.state else None
        return Result(report, entry, prepared, sorted(run.read), "\n".join(ends))

    def lint(self, path: str, text: str, settings: Settings, buffers: Buffers) -> Result:
        """``movecheck lint`` of the state, map or orders in ``text`` (the buffer of ``path``)."""
        run = _Run(self, path, text, buffers)
        with run.installed():
            report = core.lint([path], settings)
        entry = next((e for e in report.files if e.path == path), None)
        return Result(report, entry, run.last_prepared, sorted(run.read))

    def odds(self, path: str, text: str, buffers: Buffers, call: Callable[[Any], _T]) -> _T:
        """``call(kernel)`` (a system's ``battle_odds``) with the buffer ``text`` read for ``path`` and the other open
        buffers before the disk; ``kernel`` is the core, whose ``check`` the system may run (orders' battles)."""
        run = _Run(self, path, text, buffers)
        with run.installed():
            return call(core)

    def loaded(self, path: str, text: str) -> Loaded:
        """The buffer read as the kernel reads a file (YAML, kind, version, schema); the next check of the same text
        takes this reading instead of reading the text again (issue 37: the YAML of a buffer read once).  Its YAML
        events are kept (:meth:`events`) for the editor's ranges: a JSON buffer's positions and ranges are read from
        one reading of its events."""
        tape = EventTape(text.encode("utf-8", errors="replace"))
        found = files.examine(load_bytes(tape.raw, path, tape))
        self._buffer = (path, text, found)
        self._tape = (path, text, tape)
        return found

    def events(self, path: str, text: str) -> Callable[[], Iterator[Any]] | None:
        """The YAML events of the buffer :meth:`loaded` read last, when it is of this path and text."""
        kept = self._tape
        return kept[2].events if kept is not None and kept[0] == path and kept[1] == text else None

    def take_buffer(self, path: str, text: str) -> Loaded | None:
        """The reading :meth:`loaded` kept, once, when it is of this path and text."""
        kept, self._buffer = self._buffer, None
        return kept[2] if kept is not None and kept[0] == path and kept[1] == text else None

    def forget(self) -> None:
        """Drop every cached file and prepared state."""
        self._files.clear()
        self._prepared.clear()

    # -- the caches --------------------------------------------------------------------------

    def reference(self, path: str, buffers: Buffers) -> tuple[str, Loaded]:
        """A file named inside another, from its open buffer or the disk, kept per version of its text."""
        absolute = os.path.abspath(path)
        text = buffers(absolute)
        if text is None:
            raw = read_regular(path)  # InputError: the kernel words it
            text = raw.decode("utf-8", errors="replace")
        cached = self._files.get(absolute)
        if cached is not None and cached[0] == text and cached[1].doc.path == path:
            return cached
        loaded = files.examine(load_bytes(text.encode("utf-8", errors="replace"), path))
        self._files[absolute] = (text, loaded)
        return text, loaded

    def current_text(self, path: str, buffers: Buffers) -> str | None:
        """The text a file has now (its buffer, else the disk); None when it cannot be read."""
        absolute = os.path.abspath(path)
        text = buffers(absolute)
        if text is not None:
            return text
        try:
            return read_regular(path).decode("utf-8", errors="replace")
        except InputError:
            return None

    def prepare(self, state: Loaded, settings: Settings, buffers: Buffers,
                original: Callable[..., Prepared[object]]) -> Prepared[object]:
        """The prepared state, from the cache while its text, its map's and its rules are the same."""
        rules = settings.rules_for(state)
        key = (state.doc.path, state.doc.text, (settings.root_for(state.doc.path), repr(rules)))
        cached = self._prepared.get(key)
        if cached is not None and all(self.current_text(p, buffers) == t for p, t in cached[1]):
            return cached[0]
        _forget_map_files()
        prepared = original(state, settings)
        self.preparations += 1
        read = tuple((r.doc.path, r.doc.text) for r in prepared.referenced)
        for old in [k for k in self._prepared if k[0] == state.doc.path]:
            del self._prepared[old]  # one version of each state is kept
        self._prepared[key] = (prepared, read)
        return prepared


def _forget_map_files() -> None:
    """A system may read a file once per process (aa: its map files, ``System.forget_read_files``): the
    server reads them again whenever it prepares a state, since the file (or its buffer) may have changed."""

    for declared in all_systems():
        declared.forget_read_files()


class _Run:
    """One call of the kernel with the server's readers in place."""

    def __init__(self, kernel: Kernel, path: str, text: str, buffers: Buffers) -> None:
        self.kernel, self.path, self.text = kernel, path, text
        self.absolute = os.path.abspath(path)
        self.read: set[str] = set()
        self.last_prepared: Prepared[object] | None = None

        def others(absolute: str) -> str | None:
            return text if absolute == self.absolute else buffers(absolute)

        self.buffers = others

    def _read(self, path: str, display: str | None = None, suggest: bool = False) -> Loaded:
        if os.path.abspath(path) == self.absolute:
            kept = None if suggest else self.kernel.take_buffer(display or path, self.text)
            if kept is not None:
                return kept
            return files.examine(load_bytes(self.text.encode("utf-8", errors="replace"), display or path), suggest)
        return self._reference(path, display)

    def _reference(self, path: str, display: str | None = None) -> Loaded:
        self.read.add(os.path.abspath(path))
        _text, loaded = self.kernel.reference(path, self.buffers)
        if display is not None and display != loaded.doc.path:  # pragma: no cover - the kernel names it by its path

            return replace(loaded, doc=replace(loaded.doc, path=display))
        return loaded

    @contextmanager
    def installed(self) -> Iterator[None]:
        original_prepare = core.prepare

        def prepare(state: Loaded, settings: Settings) -> Prepared[object]:
            prepared = self.kernel.prepare(state, settings, self.buffers, original_prepare)
            self.read.update(os.path.abspath(r.doc.path) for r in prepared.referenced)
            self.last_prepared = prepared
            return prepared

        # the runs read through the core's names, a system (an aa state's map:) through the file services'
        replaced = {(core, "read"): self._read, (core, "read_reference"): self._reference, (core, "prepare"): prepare,
                    (files, "read"): self._read, (files, "read_reference"): self._reference}
        saved = {(module, name): getattr(module, name) for module, name in replaced}
        for (module, name), value in replaced.items():
            setattr(module, name, value)
        try:
            yield
        finally:
            for (module, name), value in saved.items():
                setattr(module, name, value)
