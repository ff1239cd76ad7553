"""The options of the ``movecheck`` commands, each declared once.

``check`` and ``lint`` share most of theirs (:data:`REPORT_OPTIONS`): :func:`report_command`
gives a command all of them, and the command receives them as one :class:`ReportArgs`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import fields
from enum import Enum, StrEnum
from typing import Annotated, Any

import typer

from movecheck.completion import map_names, rule_codes, schema_names, selectors
from movecheck.i18n import LanguageError, resolve, set_language
from movecheck.render import FORMATS, env_format
from movecheck.report_commands import Color, ReportArgs

# Output formats of ``check`` and ``lint``: those of the renderers' registry.
Format = Enum("Format", {name.replace("-", "_"): name for name in FORMATS}, type=str)  # type: ignore[misc]


class RulesFormat(StrEnum):
    """Output formats of ``rules``."""

    text = "text"
    json = "json"
    markdown = "markdown"


class ListFormat(StrEnum):
    """Output formats of ``maps``."""

    text = "text"
    json = "json"


def format_flag(help_text: str) -> Any:
    """A command's ``-f/--format`` option, also named ``--output-format`` (ruff's name)."""
    return typer.Option("--format", "--output-format", "-f", help=help_text, show_default=False)


_ENV_OR_TEXT = "Output format (default: text, or $MOVECHECK_FORMAT)."
FormatOption = Annotated[
    Format | None,
    format_flag("Output format (default: $MOVECHECK_FORMAT, else the configuration's format, else text)."),
]
RulesFormatOption = Annotated[RulesFormat | None, format_flag(_ENV_OR_TEXT)]


class SummaryFormat(StrEnum):
    """Output formats of ``summary``: a post for a forum dialect, e-mail, or machines."""

    markdown = "markdown"
    bbcode = "bbcode"
    text = "text"
    json = "json"


SummaryFormatOption = Annotated[
    SummaryFormat, format_flag("markdown (Discourse, NodeBB, GitHub), bbcode (phpBB), text (e-mail) or json.")
]
ListFormatOption = Annotated[ListFormat | None, format_flag(_ENV_OR_TEXT)]
SelectOption = Annotated[
    list[str] | None,
    typer.Option(
        "--select",
        help="Report only these codes or code prefixes (AA2, MC005; repeat or comma-separate).",
        show_default=False,
        autocompletion=selectors,
    ),
]
IgnoreOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        help="Do not report these codes or code prefixes (repeat or comma-separate).",
        show_default=False,
        autocompletion=selectors,
    ),
]
ConfigOption = Annotated[
    str | None,
    typer.Option(
        "--config",
        help="Configuration file to use (.movecheck.yaml or pyproject.toml) instead of discovering one.",
        show_default=False,
    ),
]
StatisticsOption = Annotated[bool, typer.Option("--statistics", help="Count the findings per code.")]
ExitZeroOption = Annotated[
    bool, typer.Option("--exit-zero", help="Exit 0 even with error findings (2 still means movecheck failed).")
]
RuleOptionOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        help="A rule option, SYSTEM.KEY=VALUE (aa.land_on_new_carrier=false); beats the configuration, "
        "not the state's own options.",
        show_default=False,
    ),
]
ColorOption = Annotated[
    Color,
    typer.Option(
        "--color",
        help="Colour text output: auto (a terminal, or FORCE_COLOR; not with NO_COLOR or TERM=dumb), always, never.",
    ),
]
RootOption = Annotated[
    str | None,
    typer.Option(
        "--root",
        help="Refuse state: and map: paths inside files that lead outside this folder "
        "(default: the current folder's repository root, else the current folder).",
        show_default=False,
    ),
]
OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        help="Write the report to this file instead of standard output (any format).",
        show_default=False,
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        help="Check the files on this many processes (the output is that of one process).",
        show_default=False,
    ),
]
IsolatedOption = Annotated[
    bool, typer.Option("--isolated", help="Use no configuration file at all (none discovered, no --config).")
]
ExcludeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        help="Below a folder given, leave out the files and folders matching this glob (repeat for several; "
        "adds to the configuration's exclude:).",
        show_default=False,
    ),
]
RespectGitignoreOption = Annotated[
    bool,
    typer.Option(
        "--respect-gitignore/--no-respect-gitignore",
        help="Below a folder given, leave out the files git ignores (.gitignore, .git/info/exclude).  "
        "[default: respect]",
        show_default=False,
    ),
]
ShowFilesOption = Annotated[
    bool, typer.Option("--show-files", help="Print the files the run would read, one a line, and read none.")
]
ShowSettingsOption = Annotated[
    bool,
    typer.Option(
        "--show-settings",
        help="Print, for each file the run would read, the configuration and settings that apply and where each "
        "comes from, and read none.",
    ),
]
QuietOption = Annotated[
    int,
    typer.Option(
        "--quiet",
        "-q",
        count=True,
        help="Findings and the summary only (no 'checked against' lines); twice (-qq): print nothing, "
        "the exit code tells.",
        show_default=False,
    ),
]
CodeArgument = Annotated[str, typer.Argument(help="A clause code such as AA207 or MV101.", autocompletion=rule_codes)]
SchemaArgument = Annotated[
    str,
    typer.Argument(
        help="A file kind (aa-map, aa-state, aa-orders, maneuver-state, maneuver-orders ...) or report.",
        autocompletion=schema_names,
    ),
]
SchemaMapOption = Annotated[
    str | None,
    typer.Option(
        "--map",
        help="The schema with the names of this map (built-in or a map file) as enums, for editors "
        "(aa-orders, aa-state, aa-battles, aa-purchase, aa-mobilize).",
        show_default=False,
        autocompletion=map_names,
    ),
]
OrdersStateOption = Annotated[
    str | None, typer.Option("--state", "-s", help="State file the orders apply to (overrides the orders' state:).")
]


def command_group(app: typer.Typer, name: str, help_text: str) -> typer.Typer:
    """A group of subcommands (``movecheck NAME ...``) added to the command line ``app`` (a system's own, say)."""
    group = typer.Typer(name=name, help=help_text, no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(group, name=name)
    return group


def output_flag(what: str) -> Any:
    """The ``-o/--output`` flag of a command that writes ``what`` (default: standard output)."""
    return typer.Option("--output", "-o", help=f"Write {what} here (default: standard output).", show_default=False)


def written_to(what: str) -> Any:
    """The ``-o/--output`` option of a command that writes ``what``, as an annotation."""
    return Annotated[str | None, output_flag(what)]


NewStateOutput = written_to("the new state")
MapOutput = written_to("the map")
PictureOutput = written_to("the SVG")
PostOutput = written_to("the post")


def _language(value: str | None) -> str | None:
    """Speak the language of ``--lang``, else ``$MOVECHECK_LANG``, else the locale's, else English."""

    try:
        set_language(resolve(value))
    except LanguageError as exc:
        raise typer.BadParameter(str(exc).split(": ", 1)[1] if value else str(exc)) from None
    return value


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of messages, summaries and explanations: en or ru "
        "(default: $MOVECHECK_LANG, else the locale: $LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG; else en).",
        callback=_language,
        is_eager=True,
        show_default=False,
    ),
]
StdinNameOption = Annotated[
    str | None,
    typer.Option(
        "--stdin-filename",
        help="Name to report for a file read from standard input (-); its state: resolves from that name's folder.",
    ),
]


def chosen_format(fmt: Enum | None, choices: type[Enum] = ListFormat) -> str:
    """``--format``, else ``$MOVECHECK_FORMAT`` when it is one of ``choices``, else text.

    A ``MOVECHECK_FORMAT`` that names no format at all is a usage error (exit 2).
    """

    if fmt is not None:
        return str(fmt.value)
    return env_format(tuple(c.value for c in choices)) or "text"


REPORT_OPTIONS: dict[str, Any] = {
    "fmt": FormatOption,
    "color": ColorOption,
    "stdin_filename": StdinNameOption,
    "select": SelectOption,
    "ignore": IgnoreOption,
    "config": ConfigOption,
    "statistics": StatisticsOption,
    "exit_zero": ExitZeroOption,
    "option": RuleOptionOption,
    "root": RootOption,
    "isolated": IsolatedOption,
    "output": OutputOption,
    "jobs": JobsOption,
    "lang": LangOption,
    "quiet": QuietOption,
    "exclude": ExcludeOption,
    "respect_gitignore": RespectGitignoreOption,
    "show_files": ShowFilesOption,
    "show_settings": ShowSettingsOption,
}
"""The options ``check`` and ``lint`` share, by parameter name, each with its declaration.

Their defaults are those of :class:`ReportArgs`."""


def report_command(command: Callable[..., None]) -> Callable[..., None]:
    """A command with every option of :data:`REPORT_OPTIONS` after its own, handed to it as ``common``.

    ``command`` declares its own arguments and options and a parameter ``common``
    (a :class:`ReportArgs`); Typer sees one signature with them all.
    """
    defaults = {f.name: f.default for f in fields(ReportArgs)}
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "common"]
    shared = [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=defaults[name], annotation=annotation)
        for name, annotation in REPORT_OPTIONS.items()
    ]

    @functools.wraps(command)
    def run(**values: Any) -> None:
        common = ReportArgs(**{name: values.pop(name) for name in REPORT_OPTIONS})
        command(common=common, **values)

    del run.__wrapped__
    parameters = [*own, *shared]
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run


def click_exceptions() -> Any:
    """The click exceptions module Typer uses (typer >= 0.24 vendors click)."""
    try:
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions  # type: ignore[no-redef,import-not-found,unused-ignore]
    return exceptions
