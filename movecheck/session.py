"""One ``check`` or ``lint`` run as the command line sees it: configuration, selection, output.

:meth:`Session.start` reads ``--config`` (or finds the configuration of the
current folder and of each input), checks ``--select``/``--ignore``/``--option``
and settles the output format; :meth:`Session.settings` is what the core
needs; :meth:`Session.finish` drops the findings the selection turns off, adds
the configuration files' own findings, prints the report and returns the exit
code.  Problems with the flags raise :class:`~movecheck.loading.InputError`
(exit 2).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

from movecheck.config import ConfigFinder, default_root, parse_option_flags
from movecheck.findings import UNCHECKED_CODE, Report
from movecheck.i18n import _
from movecheck.output import deliver, emit, say
from movecheck.overrides import override_lines, selection_overrides, with_selection
from movecheck.reading import InputError
from movecheck.render import FORMATS, MACHINE_FORMATS, env_format, render
from movecheck.selection import command_line_layer


def choose_format(flag: str | None, config_format: str | None) -> str:
    """``--format`` > ``$MOVECHECK_FORMAT`` > the configuration > text.

    An unknown ``MOVECHECK_FORMAT`` is an InputError (exit 2) when it is read (no ``--format``).
    """
    if flag:
        return flag
    return env_format(FORMATS) or config_format or "text"


def use_color(color: str, fmt: str) -> bool:
    """Colour only text and full output: ``always``, or ``auto`` as Python's own colour does.

    Under ``auto``: ``NO_COLOR`` (not empty) never, else ``FORCE_COLOR`` (not empty) always (a CI
    log that shows colours), else ``TERM=dumb`` never, else on a terminal.
    """
    if fmt in MACHINE_FORMATS or color == "never":
        return False
    if color == "always":
        return True
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def _root_folder(root: str) -> str:
    """``--root``: an existing folder, symlinks resolved; InputError otherwise."""
    if "\0" in root or not os.path.isdir(root):
        raise InputError(f"--root {root}: " + _("no such folder"))
    return os.path.realpath(root)


def write_report(path: str, text: str) -> None:
    """``--output``: the report in a file (UTF-8, ``\n`` line ends); InputError when it cannot be written."""

    deliver(path, text)


def _expand(
    paths: list[str],
    finder: ConfigFinder,
    exclude: list[str] | None,
    folders: str | None,
    quiet: int,
    respect_gitignore: bool = True,
) -> list[str]:
    """The files to read (see :mod:`movecheck.folders`); a folder with none is said on stderr (not under ``-qq``).

    ``folders``: what a folder gives (``orders`` or ``any``); None: folders are not read (``apply``, ``render``).
    """
    if folders is None or not any(os.path.isdir(p) for p in paths if p != "-" and "\0" not in p):
        return list(paths)
    from movecheck.folders import expand

    expanded = expand(paths, finder, exclude or (), folders, respect_gitignore)
    for folder in expanded.empty if quiet < 2 else ():
        say("movecheck: note: " + _("no movecheck file below {folder}").format(folder=folder))
    return expanded.paths


@dataclass
class Session:
    """A run's configuration and output choices."""

    finder: ConfigFinder
    format: str
    color: str = "auto"
    statistics: bool = False
    exit_zero: bool = False
    stdin_filename: str | None = None
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    skip_foreign: bool = False
    root: str | None = None
    output: str | None = None
    root_explicit: bool = False
    """``-o/--output``: write the report to this file instead of standard output."""
    quiet: int = 0
    """``-q``: no ``checked against`` lines; ``-qq``: no report at all (the exit code says it)."""
    inputs: list[str] = field(default_factory=list)
    """The files to read: those given, each folder among them replaced by its files (:mod:`movecheck.folders`)."""

    @classmethod
    def start(
        cls,
        paths: list[str],
        *,
        fmt: str | None = None,
        color: str = "auto",
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        config: str | None = None,
        statistics: bool = False,
        exit_zero: bool = False,
        stdin_filename: str | None = None,
        options: list[str] | None = None,
        skip_foreign: bool = False,
        root: str | None = None,
        isolated: bool = False,
        output: str | None = None,
        quiet: int = 0,
        exclude: list[str] | None = None,
        folders: str | None = None,
        respect_gitignore: bool = True,
    ) -> Session:
        """Read the flags and the configuration; InputError when a flag is wrong."""
        layer = command_line_layer(select, ignore)
        parsed = parse_option_flags(options)
        root_explicit = root is not None
        root = _root_folder(root) if root is not None else default_root()
        finder = ConfigFinder.start(config, layer, isolated=isolated)
        run_config = finder.for_folder(os.getcwd())
        inputs = _expand(paths, finder, exclude, folders, quiet, respect_gitignore)
        for path in inputs:  # read each input's configuration now: its problems are reported
            if path == "-":
                finder.for_file(stdin_filename or "<stdin>")
            else:
                finder.for_file(path)
        chosen = choose_format(fmt, run_config.format if run_config is not None else None)
        if output == "-":
            output = None
        if output is not None and ("\0" in output or os.path.isdir(output)):
            raise InputError(f"--output {output}: " + (_("not a file name") if "\0" in output else _("is a directory")))
        return cls(finder, chosen, color, statistics, exit_zero, stdin_filename, parsed, skip_foreign, root, output,
                   root_explicit, quiet, inputs)

    @property
    def silent(self) -> bool:
        """``-qq``: print no report, only the exit code tells."""
        return self.quiet >= 2

    @property
    def machine(self) -> bool:
        """Extra text (--suggest) must go to stderr: the output is for a program, or goes to a file."""
        return self.format in MACHINE_FORMATS or self.output is not None

    def settings(self, **extra: Any) -> Any:
        """The core's :class:`~movecheck.settings.Settings` for this run (``extra``: state, suggest ...)."""
        from movecheck.settings import Settings

        return Settings(
            stdin_filename=self.stdin_filename,
            options=self.options,
            config=self.finder,
            skip_foreign=self.skip_foreign,
            root=self.root,
            root_explicit=self.root_explicit,
            **extra,
        )

    def select(self, report: Report) -> Report:
        """The report without the findings selection turns off, with the configurations' findings."""
        selections: dict[str, Any] = {}
        kept = []
        for finding in report.findings:
            if finding.file not in selections:
                selections[finding.file] = self.finder.selection_for(finding.file)
            if finding.code == UNCHECKED_CODE or selections[finding.file].reported(finding.code, finding.file):
                kept.append(finding)  # an order that could not be checked is never hidden
        report.findings = kept
        for entry in report.files:
            applied = self.finder.for_file(entry.path)
            entry.config = applied.path if applied is not None else None
            if entry.kind != "config" and entry.error is None:
                selected = selection_overrides(applied, self.finder.command_line, entry.path)
                entry.overrides = with_selection(entry.overrides, selected)
        for config in self.finder.configs():
            if config.findings:
                report.findings.extend(config.findings)
                report.sources.setdefault(config.path, config.text)
        return report

    def tell_overrides(self, report: Report) -> None:
        """``apply`` of legal orders prints no report: what changed their rules goes to stderr.

        (Their selection is not said: ``apply`` judges the orders on every finding.)
        """
        for _path, line in override_lines(report):
            say(line)

    def finish(self, report: Report) -> int:
        """Select, print the report, return the exit code (0 with ``--exit-zero``).

        Under ``-qq`` nothing is printed but the tool's own failures (exit 2, on stderr);
        a report asked for with ``--output`` is still written.
        """

        self.select(report)
        color = use_color(self.color, self.format) if self.output is None or self.color == "always" else False
        text = render(report, self.format, color=color, statistics=self.statistics, quiet=self.quiet > 0)
        if self.output is not None:
            write_report(self.output, text)
        elif not self.silent:
            emit(sys.stdout, text)
        for entry in report.unreadable():  # the tool could not do its job on these: exit 2
            say(f"movecheck: error: {entry.error}")
        code = report.exit_code()
        return code if code == 2 or not self.exit_zero else 0


__all__ = ["Session", "choose_format", "use_color"]
