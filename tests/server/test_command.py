"""``movecheck server`` on the command line: without its extra, one line and exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

WITHOUT_PYGLS = "import sys; sys.modules['pygls'] = None; from movecheck.cli import main; sys.exit(main(['server']))"


def test_without_pygls_the_command_says_how_to_install_it() -> None:
    run = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL,  # a bare environment (and no .pyc into the source tree)
                         env={"MOVECHECK_LANG": "en", "PATH": "", "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == ("movecheck: error: the language server needs pygls; "
                          "install it with: pip install 'movecheck[server]'\n")


def test_the_server_waits_for_a_client_and_ends_with_its_input() -> None:
    """With stdin closed at once (no client), the server ends without a traceback."""
    pytest.importorskip("pygls", reason="the language server needs the extra movecheck[server]")
    run = subprocess.run([sys.executable, "-m", "movecheck", "server"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    assert "Traceback" not in run.stderr
    assert run.returncode == 0
