"""The language-server tests run with pytest-lsp's hooks although ``addopts`` blocks its autoload."""

from __future__ import annotations

import pytest

plugin = pytest.importorskip("pytest_lsp.plugin", reason="the language server tests need the test extra (pytest-lsp)")


def test_pytest_lsp_s_hooks_are_registered_once(request: pytest.FixtureRequest) -> None:
    """Its report hook (the server's log in a failed test's report) and its call hook run for these tests, once."""
    for name in ("pytest_runtest_makereport", "pytest_runtest_call"):
        hook = getattr(request.config.hook, name)
        mine = [impl for impl in hook.get_hookimpls() if impl.function is getattr(plugin, name)]
        assert len(mine) == 1, name


def test_the_devtools_option_the_client_fixtures_read_is_there(request: pytest.FixtureRequest) -> None:
    assert request.config.getoption("devtools") is None
