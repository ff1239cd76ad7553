"""``check`` and ``lint`` themselves, and their plainest runs, which need no Typer.

:mod:`movecheck.cli` declares the two commands to Typer (their arguments and options,
:data:`movecheck.cli_options.REPORT_OPTIONS`) and hands what it parsed to
:func:`check_files` and :func:`lint_files`.  Importing Typer is about a third of what a
single ``movecheck check FILE`` costs, so the console entry point first asks
:func:`run_plain` whether the command line is a plain one — ``check`` or ``lint`` followed by
file names and flags that take no value (``-q``, ``--with-dependents``, ``--skip-foreign``,
``--statistics``...: :func:`plain_command`), no name starting with ``-`` otherwise — and runs
that without Typer: the command gets exactly the values Typer would give it
(``tests/test_startup.py`` compares them), and a failure is reported as
:func:`movecheck.cli.main` reports it (:func:`tool_failure`, shared with it).  Anything else
(an option with a value, ``-`` for stdin, ``--help``, shell completion, a language that does
not resolve) goes through Typer as before.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, NoReturn

from movecheck.i18n import ENGLISH, LanguageError, _, resolve, set_language
from movecheck.output import emit, ensure_streams, say, silence


class Color(StrEnum):
    """When to colour text output."""

    auto = "auto"
    always = "always"
    never = "never"


@dataclass(frozen=True)
class ReportArgs:
    """The options ``check`` and ``lint`` share, as given (see :data:`movecheck.cli_options.REPORT_OPTIONS`)."""

    fmt: Enum | None = None
    color: Color = Color.auto
    stdin_filename: str | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    config: str | None = None
    statistics: bool = False
    exit_zero: bool = False
    option: list[str] | None = None
    root: str | None = None
    isolated: bool = False
    output: str | None = None
    jobs: int = 1
    lang: str | None = None
    quiet: int = 0
    exclude: list[str] | None = None
    respect_gitignore: bool = True
    show_files: bool = False
    show_settings: bool = False

    def session(self, files: list[str], **more: Any) -> Any:
        """The :class:`~movecheck.session.Session` of a run with these options (``more``: a command's own).

        Under ``--show-files`` or ``--show-settings`` it prints what they show and exits 0.
        """
        session = self._start(files, **more)
        if self.show_files or self.show_settings:
            self._show(session)
        return session

    def _show(self, session: Any) -> NoReturn:
        """``--show-files`` / ``--show-settings`` (:mod:`movecheck.show`), then exit 0."""
        import typer

        from movecheck.config import parse_option_flags
        from movecheck.show import Flags, files_text, settings_text

        if self.show_settings:
            flags = Flags(self.select, self.ignore, self.fmt.value if self.fmt else None, self.exclude,
                          parse_option_flags(self.option), self.respect_gitignore, self.config, self.isolated)
            emit(sys.stdout, settings_text(session.inputs, session.finder, flags, self.stdin_filename))
        else:
            emit(sys.stdout, files_text(session.inputs, self.stdin_filename))
        raise typer.Exit(0)

    def _start(self, files: list[str], **more: Any) -> Any:
        from movecheck.session import Session

        return Session.start(
            files,
            fmt=self.fmt.value if self.fmt else None,
            color=self.color.value,
            select=self.select,
            ignore=self.ignore,
            config=self.config,
            statistics=self.statistics,
            exit_zero=self.exit_zero,
            stdin_filename=self.stdin_filename,
            options=self.option,
            root=self.root,
            isolated=self.isolated,
            output=self.output,
            quiet=self.quiet,
            exclude=self.exclude,
            respect_gitignore=self.respect_gitignore,
            **more,
        )


def check_files(
    orders: list[str], common: ReportArgs, state: str | None = None, suggest: bool = False,
    with_dependents: bool = False,
) -> int:
    """``movecheck check``: check orders files against the state they apply to; the exit code."""
    from movecheck.core import check as run_check

    session = common.session(orders, folders="any" if with_dependents else "orders")
    orders = session.inputs
    settings = session.settings(state=state, suggest=suggest)
    if with_dependents:
        from movecheck.dependents import with_dependents as add_dependents

        orders = add_dependents(orders, settings, common.respect_gitignore)
    if common.jobs > 1:
        from movecheck.parallel import run as run_parallel

        report, required_ends = run_parallel("check", orders, settings, common.jobs)
    else:
        report, required_ends = run_check(orders, settings)
    code: int = session.finish(report)
    if suggest and required_ends and not session.silent:
        emit(sys.stderr if session.machine else sys.stdout, "\n" + "\n".join(required_ends))
    return code


def lint_files(files: list[str], common: ReportArgs, skip_foreign: bool = False) -> int:
    """``movecheck lint``: check files against their schema and for consistency; the exit code."""
    from movecheck.core import lint as run_lint

    session = common.session(files, skip_foreign=skip_foreign, folders="any")
    files = session.inputs
    if common.jobs > 1:
        from movecheck.parallel import run as run_parallel

        report, _ignored = run_parallel("lint", files, session.settings(), common.jobs)
    else:
        report = run_lint(files, session.settings())
    code: int = session.finish(report)
    return code


PLAIN_COMMANDS: dict[str, Callable[..., int]] = {"check": check_files, "lint": lint_files}
"""The commands :func:`run_plain` runs without Typer when they are given file names and plain flags only."""

PLAIN_FLAGS: dict[str, dict[str, tuple[str, bool]]] = {
    "check": {"--with-dependents": ("with_dependents", True), "--suggest": ("suggest", True)},
    "lint": {"--skip-foreign": ("skip_foreign", True)},
}
"""Each command's own flags a plain run takes: flag -> (parameter, value)."""

PLAIN_SHARED_FLAGS: dict[str, tuple[str, bool]] = {
    "--statistics": ("statistics", True),
    "--exit-zero": ("exit_zero", True),
    "--isolated": ("isolated", True),
    "--respect-gitignore": ("respect_gitignore", True),
    "--no-respect-gitignore": ("respect_gitignore", False),
}
"""The flags of :class:`ReportArgs` a plain run takes (the last of a pair given wins, as with Typer)."""

QUIET_FLAGS = {"-q": 1, "-qq": 2, "--quiet": 1}
"""``--quiet`` as a plain run counts it."""

COMPLETE_VARIABLE = "_MOVECHECK_COMPLETE"
"""Set by a shell asking for completions, which Typer answers (whatever the arguments)."""


def plain_command(args: list[str]) -> Callable[[], int] | None:
    """The run of ``args`` when they are a command of :data:`PLAIN_COMMANDS` with file names and the flags of
    :data:`PLAIN_FLAGS`, :data:`PLAIN_SHARED_FLAGS` and :data:`QUIET_FLAGS` only, else None."""
    if len(args) < 2 or args[0] not in PLAIN_COMMANDS or COMPLETE_VARIABLE in os.environ:
        return None
    if os.name == "nt":  # Typer expands wildcards in the arguments there
        return None
    files: list[str] = []
    shared: dict[str, Any] = {"quiet": 0}
    own: dict[str, Any] = {}
    for arg in args[1:]:
        if not arg.startswith("-"):
            files.append(arg)
        elif arg in QUIET_FLAGS:
            shared["quiet"] += QUIET_FLAGS[arg]
        elif arg in PLAIN_SHARED_FLAGS:
            name, value = PLAIN_SHARED_FLAGS[arg]
            shared[name] = value
        elif arg in PLAIN_FLAGS[args[0]]:
            name, value = PLAIN_FLAGS[args[0]][arg]
            own[name] = value
        else:  # an option with a value, "-" (stdin), "--", --help...: Typer parses them
            return None
    if not files:
        return None
    command, common = PLAIN_COMMANDS[args[0]], ReportArgs(**shared)
    return lambda: command(files, common, **own)


def run_plain(args: list[str]) -> int | None:
    """The exit code of ``args`` run as :func:`movecheck.cli.main` runs them, or None when they are not plain.

    None also when the language does not resolve: Typer's ``--lang`` words that usage error.
    """
    command = plain_command(args)
    if command is None:
        return None
    ensure_streams()
    try:
        set_language(resolve())
    except LanguageError:
        return None
    try:
        try:
            code = _as_typer_runs(command)
        except (KeyboardInterrupt, Exception) as exc:
            return tool_failure(exc)
        return flushed(code)
    finally:
        set_language(ENGLISH)  # as main(): a caller in the same process gets English again


def _as_typer_runs(command: Callable[[], int]) -> int:
    """``command``'s exit code, the failures Typer handles itself (standalone mode off) handled as it does."""
    try:
        return command()
    except EOFError:  # Typer: an empty line on stderr, then Abort, which main() reports
        sys.stderr.write("\n")
        sys.stderr.write("movecheck: error: " + _("aborted") + "\n")
        return 2
    except KeyboardInterrupt:  # Typer: Exit(130)
        return 130
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _pacified_exit()
        raise


def _pacified_exit() -> NoReturn:
    """Typer's answer to a broken pipe: streams that stay quiet when flushed, and exit 1."""
    from typer._click.utils import PacifyFlushWrapper

    sys.stdout = PacifyFlushWrapper(sys.stdout)
    sys.stderr = PacifyFlushWrapper(sys.stderr)
    sys.exit(1)


def tool_failure(exc: BaseException) -> int:
    """The exit code of a run ended by ``exc`` (not one of Typer's own), after its one stderr line if any.

    ``movecheck: error:`` for an input the tool cannot read, ``movecheck: internal error:`` for a
    failure of its own; a reader of stdout who went away (``| head``) is no failure.
    """
    from movecheck.reading import InputError

    if isinstance(exc, InputError):
        say(f"movecheck: error: {exc}")
        return 2
    if isinstance(exc, BrokenPipeError):
        # The reader of stdout went away (``| head``).  The commands write through
        # emit(), which keeps the exit code they give; whatever else gets here wrote
        # to stdout on success.
        silence(sys.stdout)
        return 0
    if isinstance(exc, KeyboardInterrupt):
        sys.stderr.write("movecheck: error: " + _("interrupted") + "\n")
        return 2
    if isinstance(exc, RecursionError):
        sys.stderr.write("movecheck: internal error: " + _("input nested too deeply") + "\n")
        return 2
    if isinstance(exc, Exception):
        say(f"movecheck: internal error: {type(exc).__name__}: {' '.join(str(exc).split())}")
        return 2
    raise exc


def flushed(result: Any) -> int:
    """The exit code of a run that returned ``result``, with stdout flushed now.

    Now, not at interpreter exit, where a closed pipe would print "Exception ignored".
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence(sys.stdout)
    except (AttributeError, OSError, ValueError):
        pass
    return result if isinstance(result, int) else 0
