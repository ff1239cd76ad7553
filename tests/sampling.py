"""Sampled sweeps: a share of a sweep's cases in the default run, the others under ``slow`` (issue 24).

A sweep over every example (or every seed, every picture) repeats one behaviour on many inputs.  Written with
:func:`sampled`, the default run tries every :data:`EVERY`-th case (the first, the fourth, ...) and the slow run
(``python -m pytest -m slow``, which ``.ci/run`` runs after the default run) the others: each case runs exactly
once across the two runs, and which run a case is in depends on its place in the sorted list only, never on the
clock or a random seed.  A sweep whose cases share work (the reports ``tests/reuse.py`` remembers) takes the same
places in each of its tests, so the cases of the default run are the same inputs in all of them.

Not for a test whose snapshots share one file with its other cases (an ``.ambr`` file): in a run given no paths
(the README's command) syrupy matches the cases that ran to that file's snapshots by the test's name without its
parameters, and calls the left-out cases' snapshots unused, which fails the run.  A snapshot file of its own per case
(syrupy's ``SingleFileSnapshotExtension``, as ``tests/test_summary.py`` does) is matched by its case, and samples.

Every sampled sweep is recorded in :data:`SWEEPS` (its test, its size, its share); ``tests/test_suite_guards.py``
checks that the default run selects exactly the sampled share of each, and that the cases of the two runs add up
to the whole sweep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

if __name__ != "tests.sampling":  # one registry: imported under another name it would be a second, unguarded one
    raise ImportError(f"import the sampled sweeps as tests.sampling, not as {__name__}")

EVERY = 3
"""The default run's share of a sampled sweep: every third case."""

SWEEPS: dict[str, tuple[int, int]] = {}
"""Each sampled sweep: ``"tests/file.py::test_name"`` -> (its number of cases, its share ``every``)."""


def sampled(
    test: str,
    cases: Sequence[Any],
    ids: Callable[[Any], str] | Iterable[str] | None = None,
    every: int = EVERY,
) -> list[Any]:
    """The cases of the sweep ``test`` (its node id without parameters) for ``pytest.mark.parametrize``: every
    ``every``-th case as it is, the others marked ``slow``; ``ids`` names each case (a function, or one id each)."""
    if test in SWEEPS:
        raise ValueError(f"the sweep {test} is sampled twice")
    SWEEPS[test] = (len(cases), every)
    if ids is None:
        names: list[str | None] = [None] * len(cases)
    elif callable(ids):
        names = [ids(case) for case in cases]
    else:
        names = list(ids)
    if len(names) != len(cases):
        raise ValueError(f"the sweep {test} has {len(cases)} cases and {len(names)} ids")
    params = []
    for index, (case, name) in enumerate(zip(cases, names, strict=True)):
        if isinstance(case, type(pytest.param(None))):
            raise TypeError(f"the sweep {test} gives a pytest.param: sampled() makes the params itself")
        marks = [] if index % every == 0 else [pytest.mark.slow]
        params.append(pytest.param(case, id=name, marks=marks))
    return params


def default_share(size: int, every: int) -> int:
    """How many of a sweep's ``size`` cases the default run tries."""
    return len(range(0, size, every))
