"""Fixtures of the language server tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

LSP_PLUGIN = "pytest-lsp (tests/server)"


def pytest_configure(config: pytest.Config) -> None:
    """pytest-lsp's hooks, for the runs that collect the language-server tests.

    ``addopts`` blocks the plugin's autoload (``-p no:pytest-lsp``): it imports ``lsprotocol.types``,
    1.3 s of CPU, in every pytest process -- the xdist controller and any run of other tests too.
    """
    if config.pluginmanager.is_blocked("pytest-lsp") and not config.pluginmanager.has_plugin(LSP_PLUGIN):
        try:
            import pytest_lsp.plugin
        except ImportError:
            return  # without the test extra the server tests skip themselves
        config.pluginmanager.register(pytest_lsp.plugin, LSP_PLUGIN)


STATE = Path(__file__).resolve().parents[2] / "examples" / "aa" / "states" / "g1-combat.yaml"


def lay_out_workspace(folder: Path) -> Path:
    """A workspace folder in ``folder`` beside a state outside it (and a link in the workspace to that state)."""
    inside = folder / "ws"
    (inside / "orders").mkdir(parents=True)
    shutil.copy(STATE, folder / "outside-state.yaml")
    os.symlink(folder / "outside-state.yaml", inside / "linked-state.yaml")
    return inside


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A workspace folder beside a state outside it (and a link in the workspace to that state)."""
    return lay_out_workspace(tmp_path)
