"""``--jobs N``: a ``check`` or ``lint`` run's inputs on N processes, with the report of a run on one.

The inputs, each file once and in command-line order, are cut into consecutive parts;
each worker process runs the ordinary sequential ``check`` or ``lint`` of
:mod:`movecheck.core` on one part at a time and sends back its report.  The parts
are put together in input order: the files, each input's own findings and texts as
they came, and the findings a run adds once per file (a state named by orders files
of several parts, the map several states read) only from the first part that added
them, as the run on one process does.  The report, and so every byte of the output,
is the one the sequential run gives.

Processes are started with ``spawn`` (no state of this process is shared but the
run's settings, which are pickled), so it works the same on every platform.
Standard input cannot be shared: a run that reads it stays on one process.
"""

from __future__ import annotations

from typing import Any

from movecheck.findings import Report

PARTS_PER_JOB = 4
"""Parts per process: small enough to even the load out, large enough that the states a
run of consecutive games shares are prepared once per part."""


def run(command: str, paths: list[str], settings: Any, jobs: int) -> tuple[Report, list[str]]:
    """The report (and ``--suggest`` text, for check) of ``command`` on ``paths`` over ``jobs`` processes."""
    from movecheck import core

    inputs = core.unique_paths(paths)
    if jobs <= 1 or len(inputs) < 2 or "-" in inputs:
        return _sequential(command, inputs, settings)
    size = max(1, -(-len(inputs) // (jobs * PARTS_PER_JOB)))
    parts = [inputs[i:i + size] for i in range(0, len(inputs), size)]
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(parts))) as pool:
        done = pool.imap(_part, [(command, part, settings) for part in parts])
        return merge(list(done))


def _sequential(command: str, inputs: list[str], settings: Any) -> tuple[Report, list[str]]:
    from movecheck import core

    if command == "check":
        return core.check(inputs, settings)
    return core.lint(inputs, settings), []


def _part(job: tuple[str, list[str], Any]) -> tuple[Report, list[str], list[tuple[Any, int, int]]]:
    """One part, in a worker: its report, its ``--suggest`` text and the spans added once per key."""
    from movecheck import core

    command, inputs, settings = job
    shown = core._Shown(core.Report())
    if command == "check":
        report, ends = core.check(inputs, settings, shown=shown, several=True)
    else:
        report, ends = core.lint(inputs, settings, shown=shown, several=True), []
    return report, ends, shown.spans


def merge(parts: list[tuple[Report, list[str], list[tuple[Any, int, int]]]]) -> tuple[Report, list[str]]:
    """The parts' reports as one, in order, each once-per-key span kept from its first part only."""
    report = Report()
    ends: list[str] = []
    seen: set[Any] = set()
    for part, part_ends, spans in parts:
        report.files.extend(part.files)
        skipped = [False] * len(part.findings)
        for key, start, end in spans:
            if key in seen:
                skipped[start:end] = [True] * (end - start)
            seen.add(key)
        report.findings.extend(f for f, skip in zip(part.findings, skipped) if not skip)
        report.readings.update(part.readings)
        for path, text in part.sources.items():
            report.sources[path] = text
        ends.extend(part_ends)
    return report, ends
