"""``movecheck render``: a file drawn by its system, as an SVG picture.

The kernel reads the file and finds its system; a system that draws (``System.draws``)
makes the picture from the file and the run's services (:mod:`movecheck.core`: it
prepares the state, or checks the orders as ``check`` does).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from movecheck.files import Loaded, is_kind, read
from movecheck.findings import Report
from movecheck.i18n import _
from movecheck.reading import InputError
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
            reach: list[str] | None = None, around: str | None = None) -> str:
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
    if around is not None and around != "all" and not _margin(around):
        raise InputError(_("--around takes 'all' or a margin in board pixels (0 to 5000), not {value}").format(
            value=repr(around)))
    return system_of(loaded.kind).picture(loaded, _Drawing(settings, select), reach or [], around=around)


def _margin(text: str) -> bool:
    return text.isascii() and text.isdigit() and int(text) <= 5000


def png_of(svg: str, width: int) -> bytes:
    """The picture as a PNG ``width`` pixels wide (resvg, the extra ``movecheck[png]``)."""
    try:
        import resvg_py
    except ImportError:
        raise InputError(_("a PNG needs the extra movecheck[png] (pip install 'movecheck[png]'); "
                           "without it, render writes SVG")) from None
    family, files = text_font()
    if not files:
        raise InputError(_("a PNG needs a font for its text and none was found (looked for {fonts}); "
                           "install one, or write SVG").format(fonts=", ".join(name for name, _f in FONTS)))
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff", skip_system_fonts=True,
                                       font_files=files, font_family=family, sans_serif_family=family))


FONTS = (("DejaVu Sans", ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")),
         ("Liberation Sans", ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")),
         ("Arial", ("arial.ttf", "arialbd.ttf", "Arial.ttf", "Arial Bold.ttf")),
         ("Helvetica", ("Helvetica.ttc",)))
"""The fonts a PNG's text is written in, the first found (its regular and bold files)."""
FONT_FOLDERS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts",
                "/Library/Fonts", "/System/Library/Fonts", "/System/Library/Fonts/Supplemental", "C:/Windows/Fonts")


def text_font() -> tuple[str, list[str]]:
    """The first font of :data:`FONTS` on the machine: its family and files (none: ``("", [])``).

    One font, always the same where it is found: the PNG does not depend on the other fonts
    a machine has (the rasteriser loads no system font).
    """

    for family, names in FONTS:
        found = []
        for folder in FONT_FOLDERS:
            root = os.path.expanduser(folder)
            for where, _dirs, files in sorted(os.walk(root)) if os.path.isdir(root) else ():
                found += [os.path.join(where, name) for name in names if name in files]
        if found:
            return family, sorted(set(found), key=lambda f: names.index(os.path.basename(f)))
    return "", []


def deliver_png(path: str | None, svg: str, width: int) -> None:
    """Write the picture as a PNG ``width`` pixels wide to ``path`` (standard output when None or ``-``)."""

    from movecheck.output import write_atomically

    if (path is None or path == "-") and sys.stdout.isatty():  # its bytes could drive the terminal
        raise InputError(_("a PNG is not written to a terminal: give -o FILE.png, or redirect the output"))
    data = png_of(svg, width)
    if path is None or path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        write_atomically(path, data)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise InputError(f"--output {path}: " + _("cannot write ({why})").format(why=why)) from None


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
