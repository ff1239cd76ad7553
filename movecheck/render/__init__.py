"""Renderers turn a :class:`~movecheck.findings.Report` into text for people or machines.

One module per output format, each listed once in :data:`REGISTRY` (the command
line, the configuration schema and the session derive their lists from it); each
module has ``render(report, *, color=False, statistics=False) -> str`` (those for people,
text and full, also take ``quiet``).  Every
format is deterministic: the same report gives byte-identical output.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass

from movecheck.findings import Report
from movecheck.i18n import _


@dataclass(frozen=True)
class OutputFormat:
    """One output format of ``check`` and ``lint``: its name and the module that writes it."""

    name: str
    module: str
    machine: bool
    """Written for a program (CI, editors): no colour, and extra text (``--suggest``) goes to stderr."""


REGISTRY: dict[str, OutputFormat] = {
    entry.name: entry
    for entry in (
        OutputFormat("text", "text", machine=False),
        OutputFormat("full", "full", machine=False),
        OutputFormat("json", "json", machine=True),
        OutputFormat("json-lines", "json_lines", machine=True),
        OutputFormat("github", "github", machine=True),
        OutputFormat("sarif", "sarif", machine=True),
    )
}
"""Every output format, in the order ``--help`` lists them: the one list the others derive from."""

FORMATS = tuple(REGISTRY)
MACHINE_FORMATS = tuple(name for name, entry in REGISTRY.items() if entry.machine)


EXTRA_FORMATS = ("markdown",)
"""Formats only ``rules`` writes; ``MOVECHECK_FORMAT`` may name them too."""


def env_format(choices: tuple[str, ...]) -> str | None:
    """``$MOVECHECK_FORMAT`` when it is one of ``choices``; None when unset, empty or another
    command's format (``markdown`` for ``check``, ``sarif`` for ``rules``).

    A value that names no format of any command is a usage error (InputError, exit 2), as an
    unknown ``--format`` is: a typo must not silently give text.
    """
    from movecheck.reading import InputError

    env = os.environ.get("MOVECHECK_FORMAT", "").strip()
    if not env:
        return None
    if env in choices:
        return env
    known = FORMATS + EXTRA_FORMATS
    if env not in known:
        message = _("MOVECHECK_FORMAT={value} is not a format; choose one of: {names}")
        raise InputError(message.format(value=repr(env), names=", ".join(choices)))
    return None


def renderer(name: str) -> Callable[..., str]:
    """The render function of output format ``name`` (text for an unknown name)."""
    entry = REGISTRY.get(name, REGISTRY["text"])
    module = importlib.import_module(f"movecheck.render.{entry.module}")
    return module.render  # type: ignore[no-any-return]


def render(report: Report, fmt: str, *, color: bool = False, statistics: bool = False, quiet: bool = False) -> str:
    """The report in format ``fmt``; ``statistics`` adds (or, in text, shows) counts per code.

    ``quiet`` (``-q``) leaves the ``checked against`` lines out of the formats for people
    (text, full); a report for a program is whole whatever ``-q`` says.
    """
    entry = REGISTRY.get(fmt, REGISTRY["text"])
    if quiet and not entry.machine:
        return renderer(fmt)(report, color=color, statistics=statistics, quiet=True)
    return renderer(fmt)(report, color=color, statistics=statistics)


def portable_path(path: str) -> str:
    """A finding's path for CI tools: relative to the current folder when under it, ``/``-separated."""
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # pragma: no cover - another drive (Windows)
            rel = path
        if not rel.startswith(".."):
            path = rel
    path = path.replace(os.sep, "/") if os.sep != "/" else path
    while path.startswith("./"):
        path = path[2:]
    return path
