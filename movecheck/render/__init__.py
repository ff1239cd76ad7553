"""Renderers turn a :class:`~movecheck.findings.Report` into text for people or machines."""

from __future__ import annotations

from typing import Callable

from movecheck.findings import Report

FORMATS = ("text", "json")


def renderer(name: str) -> Callable[..., str]:
    """The render function of output format ``name``."""
    if name == "json":
        from movecheck.render.json import render
    else:
        from movecheck.render.text import render
    return render


def render(report: Report, fmt: str, *, color: bool = False) -> str:
    """The report in format ``fmt``."""
    return renderer(fmt)(report, color=color)
