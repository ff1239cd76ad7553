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
run's settings, which are pickled, and the language messages are written in), so it
works the same on every platform.  N is capped at the CPUs this process may run on
(:func:`cpu_limit`).  A worker that dies (killed, crashed) ends the run: one line on
stderr, exit 2 (:class:`WorkerDied`), never a hang.  Standard input cannot be shared:
a run that reads it stays on one process.
"""

from __future__ import annotations

import os
from typing import Any

from movecheck.findings import Report
from movecheck.i18n import _, language, set_language
from movecheck.reading import InputError

PARTS_PER_JOB = 4
"""Parts per process: small enough to even the load out, large enough that the states a
run of consecutive games shares are prepared once per part."""


class WorkerDied(InputError):
    """A ``--jobs`` worker process ended before it sent its part back: the run cannot be
    completed (like an input that cannot be read, exit 2 with one stderr line)."""


def cpu_limit() -> int:
    """The CPUs this process may run on: ``os.process_cpu_count``, else its affinity, else ``os.cpu_count``."""

    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        return max(1, counter() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run(command: str, paths: list[str], settings: Any, jobs: int) -> tuple[Report, list[str]]:
    """The report (and ``--suggest`` text, for check) of ``command`` on ``paths`` over ``jobs`` processes."""
    from movecheck import core

    inputs = core.unique_paths(paths)
    jobs = min(jobs, cpu_limit())
    if jobs <= 1 or len(inputs) < 2 or "-" in inputs:
        return _sequential(command, inputs, settings)
    size = max(1, -(-len(inputs) // (jobs * PARTS_PER_JOB)))
    parts = [inputs[i:i + size] for i in range(0, len(inputs), size)]
    return merge(_run_parts(command, parts, settings, min(jobs, len(parts))))


def _run_parts(command: str, parts: list[list[str]], settings: Any, workers: int) -> list[Any]:
    """Each part's result from ``workers`` spawned processes, in the order of the parts."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool


    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(language(),))
    try:
        return list(pool.map(_part, [(command, part, settings) for part in parts]))
    except BrokenProcessPool:
        raise WorkerDied(_("a --jobs worker process ended before it finished its files (was it killed?)")) from None
    except BaseException:  # Ctrl-C, or an error a worker sent back: the other workers stop now
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _start_worker(lang: str) -> None:
    """In each worker, before any part: the run's language; Ctrl-C is the main process's to answer."""
    import signal


    set_language(lang)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _sequential(command: str, inputs: list[str], settings: Any) -> tuple[Report, list[str]]:
    from movecheck import core

    if command == "check":
        return core.check(inputs, settings)
    return core.lint(inputs, settings), []


def _part(job: tuple[str, list[str], Any]) -> tuple[Report, list[str], list[tuple[Any, int, int]]]:
    """One part, in a worker: its report, its ``--suggest`` text and the spans added once per key."""
    from movecheck import core

    command, inputs, settings = job
    shown = core._Shown(Report())
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
        report.findings.extend(f for f, skip in zip(part.findings, skipped, strict=True) if not skip)
        report.readings.update(part.readings)
        for path, text in part.sources.items():
            report.sources[path] = text
        ends.extend(part_ends)
    return report, ends
