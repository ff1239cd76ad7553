"""``movecheck server``: a language server (LSP over stdio) for editors.

The modules: :mod:`~movecheck.server.app` (the pygls server, its buffers and features),
:mod:`~movecheck.server.kernel` (the one adapter to the kernel's check and lint),
:mod:`~movecheck.server.files` (roots, URIs, which buffers are checked),
:mod:`~movecheck.server.spans` (where each YAML node starts and ends),
:mod:`~movecheck.server.diagnostics`, :mod:`~movecheck.server.names` (completion, hover,
definition) and :mod:`~movecheck.server.actions` (quick fixes).  pygls and lsprotocol are
the optional extra ``movecheck[server]``; nothing here is imported by another command.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Run the server until the client ends it; without pygls, one line on stderr and exit 2."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        from movecheck.i18n import _

        hint = _("the language server needs pygls; install it with: pip install 'movecheck[server]'")
        sys.stderr.write(f"movecheck: error: {hint}\n")
        return 2
    from movecheck.server.app import serve

    serve()
    return 0
