"""``movecheck render``: a file drawn by its system, as an SVG picture.

The kernel reads the file and finds its system; a system that draws (``System.draws``)
makes the picture from the file and the run's services (:mod:`movecheck.core`: it
prepares the state, or checks the orders as ``check`` does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from movecheck.files import Loaded, is_kind, read
from movecheck.findings import Report
from movecheck.i18n import _
from movecheck.loading import InputError
from movecheck.systems import (
    ORDERS,
    Outcome,
    Prepared,
    Read,
    Unrenderable,
    all_systems,
    choices,
    has_errors,
    system_of,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.settings import Settings


def picture(path: str, settings: Settings, select: Callable[[Report], Report] | None = None,
            reach: list[str] | None = None) -> str:
    """The SVG picture of a file (:class:`~movecheck.systems.Unrenderable`, InputError when there is none).

    ``select``: what the run reports of a report (the configuration's ``select``/``ignore``).
    """
    select = select or (lambda report: report)
    if path == "-":
        raise InputError(_("render reads a file, not standard input (it reads an orders file twice)"))
    loaded = read(path)
    if loaded.kind is not None and not system_of(loaded.kind).draws:
        drawn = choices([declared.name for declared in all_systems() if declared.draws])
        system = system_of(loaded.kind).name
        if is_kind(loaded.kind, ORDERS):
            message = _("render draws {systems} files; {path} is an {system} orders file")
        else:
            message = _("render draws {systems} files; {path} is an {system} state file")
        raise InputError(message.format(systems=drawn, path=loaded.doc.path, system=system))
    if loaded.kind is None or not loaded.usable or has_errors(loaded.findings):
        report = Report.unjudged(loaded.findings, loaded.doc.path, loaded.kind)
        raise Unrenderable(select(report), _("{path} has errors").format(path=loaded.doc.path))
    return system_of(loaded.kind).picture(loaded, _Drawing(settings, select), reach or [])


class _Drawing:
    """The run's services a system's picture uses (:class:`~movecheck.systems.Drawing`), bound to this run."""

    def __init__(self, settings: Settings, select: Callable[[Report], Report]) -> None:
        self._settings = settings
        self._select = select

    def select(self, report: Report) -> Report:
        """What the run reports of a report (the configuration's ``select``/``ignore``)."""
        return self._select(report)

    def prepare(self, loaded: Read) -> Prepared[object]:
        """The state made ready as ``check`` makes it (the kernel's own :class:`~movecheck.files.Loaded`)."""
        from movecheck import core

        return core.prepare(cast(Loaded, loaded), self._settings)

    def check(self, paths: list[str], outcomes: dict[str, tuple[Outcome[object], Prepared[object]]],
              observe: Callable[..., None] | None = None) -> Report:
        """The report of ``check`` on orders files; ``observe`` sees each order's facts."""
        from movecheck import core

        settings = self._settings if observe is None else replace(
            self._settings, extra={**self._settings.extra, "observe": observe})
        return core.check(paths, settings, outcomes)[0]
