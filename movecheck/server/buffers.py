"""What a feature of the language server reads of the server: a buffer's last check (:class:`Checked`) and the
server's kernel, roots and buffers (:class:`Server`), apart from the server itself (:mod:`movecheck.server.app`),
so that the features (:mod:`movecheck.server.names`, :mod:`movecheck.server.actions`) import no module that imports
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from lsprotocol import types as lsp

from movecheck.server.files import Roots
from movecheck.server.kernel import Kernel, Result
from movecheck.server.spans import Spans


@dataclass
class Checked:
    """A buffer's last check."""

    version: int | None
    text: str
    path: str
    kind: str | None = None
    spans: Spans | None = None
    result: Result | None = None
    published: list[lsp.Diagnostic] = field(default_factory=list)


class Server(Protocol):
    """The language server as its features see it (:class:`movecheck.server.app.MovecheckServer`)."""

    kernel: Kernel
    roots: Roots

    def buffer_text(self, absolute: str) -> str | None: ...

    def spans_of(self, uri: str) -> tuple[Checked | None, Spans | None]: ...
