"""Renderers turn a :class:`~movecheck.findings.Report` into text for people or machines.

One module per output format; each has ``render(report, *, color=False,
statistics=False) -> str``.  Every format is deterministic: the same report
gives byte-identical output.
"""

from __future__ import annotations

import importlib
import os
from typing import Callable

from movecheck.findings import Report

FORMATS = ("text", "full", "json", "json-lines", "github", "sarif")
_MODULES = {
    "text": "text",
    "full": "full",
    "json": "json",
    "json-lines": "json_lines",
    "github": "github",
    "sarif": "sarif",
}


def renderer(name: str) -> Callable[..., str]:
    """The render function of output format ``name`` (text for an unknown name)."""
    module = importlib.import_module(f"movecheck.render.{_MODULES.get(name, 'text')}")
    return module.render  # type: ignore[no-any-return]


def render(report: Report, fmt: str, *, color: bool = False, statistics: bool = False) -> str:
    """The report in format ``fmt``; ``statistics`` adds (or, in text, shows) counts per code."""
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
