"""Property tests in two runs: a share of the examples in the default run, all of them under ``slow``.

A property test is written as a body and made into two tests::

    def _odd_orders_never_crash(items, options): ...

    test_odd_orders_never_crash, test_odd_orders_never_crash_in_full = in_two_runs(
        settings(max_examples=150, deadline=None), items=..., options=...
    )(_odd_orders_never_crash)

The first runs :data:`QUICK_SHARE` of the examples (at least :data:`QUICK_LEAST`) in the
default run; the second, marked ``slow``, runs them all (``python -m pytest -m slow``,
which ``.ci/run`` does after the default run).  ``marks`` (``pytest.mark.parametrize``, ...)
go on both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import pytest
from hypothesis import given, settings

QUICK_SHARE = 0.1
"""The share of a property's examples the default run tries."""

QUICK_LEAST = 3
"""The fewest examples the default run tries of any property."""


def quick_count(full: int) -> int:
    """The number of examples of the default run for a property that tries ``full`` in full."""
    return min(full, max(QUICK_LEAST, round(full * QUICK_SHARE)))


def in_two_runs(
    full: settings, *strategies: Any, marks: Iterable[Any] = (), **named: Any
) -> Callable[[Callable[..., None]], tuple[Callable[..., None], Callable[..., None]]]:
    """The quick test and the full one (marked ``slow``) of a property body, under ``full``'s settings."""

    def build(body: Callable[..., None]) -> tuple[Callable[..., None], Callable[..., None]]:
        def wrap() -> Callable[..., None]:
            decorate = cast(Callable[[Callable[..., None]], Callable[..., None]], given(*strategies, **named))
            return decorate(body)

        quick = settings(full, max_examples=quick_count(full.max_examples))(wrap())
        whole = pytest.mark.slow(settings(full)(wrap()))
        for mark in marks:
            quick, whole = mark(quick), mark(whole)
        return quick, whole

    return build
