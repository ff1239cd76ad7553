"""The ``movecheck`` command line: arguments in, report out, exit code back.

This module stays thin and light: it imports neither networkx, jsonschema nor
shapely; the commands load what they need when they run.
"""

from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from movecheck import __version__
from movecheck.cli_options import (
    CodeArgument,
    ConfigOption,
    IsolatedOption,
    LangOption,
    ListFormatOption,
    NewStateOutput,
    OrdersStateOption,
    PictureOutput,
    PostOutput,
    RootOption,
    RuleOptionOption,
    RulesFormat,
    RulesFormatOption,
    SchemaArgument,
    SchemaMapOption,
    SummaryFormat,
    SummaryFormatOption,
    chosen_format,
    click_exceptions,
    format_flag,
    report_command,
)
from movecheck.i18n import ENGLISH, LanguageError, _, resolve, set_language
from movecheck.output import deliver, emit, ensure_streams, say
from movecheck.render import render
from movecheck.report_commands import ReportArgs, check_files, flushed, lint_files, tool_failure

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.systems import Outcome, Prepared

__all__ = ["app", "main"]

app = typer.Typer(
    name="movecheck",
    help="Check wargame orders against the board and the rules (Axis & Allies, miniatures manoeuvre).",
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"movecheck {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Check wargame orders against the board and the rules.

    Exit codes: 0 no error finding, 1 at least one error finding, 2 the tool
    could not do its job (usage, unreadable file, internal error).
    """


@app.command()
@report_command
def check(
    orders: Annotated[
        list[str], typer.Argument(help="Orders files or folders of them (- reads standard input).", show_default=False)
    ],
    common: ReportArgs,
    state: Annotated[
        str | None, typer.Option("--state", "-s", help="State file to check against (overrides the orders' state:).")
    ] = None,
    suggest: Annotated[
        bool,
        typer.Option(
            "--suggest",
            help="After the report, print the end positions the rules require for each compulsory order "
            "(YAML to paste into the orders file; on stderr with --format json).",
        ),
    ] = False,
    with_dependents: Annotated[
        bool,
        typer.Option(
            "--with-dependents",
            help="For each state or map file given, check the orders files below the root that name it "
            "(through their state); the states and maps themselves are not checked.",
        ),
    ] = False,
) -> None:
    """Check orders files against the state they apply to."""
    raise typer.Exit(check_files(orders, common, state, suggest, with_dependents))


@app.command()
def apply(
    orders: Annotated[
        str, typer.Argument(help="An orders file (aa orders or battle results, maneuver orders).", show_default=False)
    ],
    state: OrdersStateOption = None,
    output: NewStateOutput = None,
    force: Annotated[
        bool, typer.Option("--force", help="Write the state even when the orders are not legal (said in its header).")
    ] = False,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    fmt: ListFormatOption = None,
    lang: LangOption = None,
) -> None:
    """Check orders as 'check' does and, when they are legal, write the state that follows them.

    With --format json: and the apply report."""
    from movecheck.core import check as run_check
    from movecheck.session import Session

    as_json = chosen_format(fmt) == "json"
    session = Session.start(
        [orders],
        fmt="json" if as_json else "text",
        color="never",
        config=config,
        options=option,
        root=root,
        isolated=isolated,
    )
    outcomes: dict[str, tuple[Outcome[object], Prepared[object]]] = {}
    report, _ = run_check([orders], session.settings(state=state), outcomes)
    legal = report.exit_code() == 0
    found = next(iter(outcomes.values()), None)
    final = found[0].final if found is not None else None
    hold = found[0].hold if found is not None and legal else None
    if final is None or ((not legal or hold) and not force):
        code = session.finish(report) or 1
        if hold and final is not None:
            say("movecheck: " + hold)
        raise typer.Exit(code)
    if (not legal or hold) and as_json:

        say(render(report, "text").rstrip("\n"))  # stdout holds the apply report alone
    elif not legal or hold:
        session.finish(report)  # the findings, before the state
    else:
        session.tell_overrides(report)  # a house rule or a received configuration is never unseen
    from movecheck.systems import system_of

    assert found is not None  # final is not None
    outcome, prepared = found
    entry = report.files[0]
    if as_json:
        from movecheck.apply_json import write_applied

        write_applied(system_of(entry.kind), outcome, prepared, entry.path, output, forced=not legal,
                      overrides=entry.overrides)
        raise typer.Exit(0)
    from movecheck.overrides import with_state_header

    text = system_of(entry.kind).next_state(outcome, prepared, entry.path, output, forced=not legal)
    deliver(output, with_state_header(text, entry.overrides))
    raise typer.Exit(0)


@app.command()
@report_command
def lint(
    files: Annotated[
        list[str], typer.Argument(help="Any movecheck files, or folders of them: maps, states, orders (- reads stdin).")
    ],
    common: ReportArgs,
    skip_foreign: Annotated[
        bool,
        typer.Option(
            "--skip-foreign",
            help="Skip YAML files with no top-level movecheck: or system: key (for hooks over every YAML file).",
        ),
    ] = False,
) -> None:
    """Check files against their schema and for consistency (scenario lint)."""
    raise typer.Exit(lint_files(files, common, skip_foreign))


@app.command()
def rules(
    system: Annotated[
        str | None, typer.Option("--system", help="Only the clauses of one system: aa, maneuver, mc.")
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--rules", help="aa rules preset (edition name or alias) whose option values to list (default aa1942)."
        ),
    ] = None,
    fmt: RulesFormatOption = None,
    lang: LangOption = None,
) -> None:
    """List the clause catalogue: codes, names, severities, seed paragraphs (text, json or markdown)."""
    from movecheck.catalogue import render_rules

    text, code = render_rules(system, preset, chosen_format(fmt, RulesFormat))
    emit(sys.stdout if code == 0 else sys.stderr, text)
    raise typer.Exit(code)


@app.command()
def explain(
    code: CodeArgument,
    lang: LangOption = None,
) -> None:
    """Print one clause: its rule, the seed paragraphs it comes from, examples."""
    from movecheck.catalogue import explain_clause

    text, status = explain_clause(code)
    emit(sys.stdout if status == 0 else sys.stderr, text)
    raise typer.Exit(status)


@app.command()
def schema(
    name: SchemaArgument,
    game_map: SchemaMapOption = None,
    lang: LangOption = None,
) -> None:
    """Print one of movecheck's JSON Schemas (with --map: one that knows a map's names)."""
    from movecheck.schema import schema_names, schema_text
    from movecheck.systems import all_systems, system_of

    names = schema_names()
    if name not in names:
        _fail(_("unknown schema {name}; choose one of: {names}").format(name=repr(name), names=", ".join(names)))
    if game_map is None:
        emit(sys.stdout, schema_text(name))
        raise typer.Exit(0)
    for_maps = [each for declared in all_systems() for each in declared.map_schemas]
    if name not in for_maps:
        _fail(_("--map applies to the schemas {names}, not {name}").format(names=", ".join(for_maps), name=name))
    emit(sys.stdout, system_of(name).map_schema(name, game_map))
    raise typer.Exit(0)


@app.command()
def server(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Speak over stdin and stdout (the only way it speaks).")
    ] = True,
) -> None:
    """Run the language server (LSP over stdio) for editors; needs the extra movecheck[server]."""
    from movecheck.server import main as serve

    raise typer.Exit(serve())


@app.command("render")
def render_picture(
    file: Annotated[
        str, typer.Argument(help="A state or orders file of a system that draws (aa, maneuver).", show_default=False)
    ],
    output: PictureOutput = None,
    reach: Annotated[
        list[str] | None,
        typer.Option(
            "--reach",
            help="Draw where this base or corps can go this turn, with the odds (repeat for several; maneuver).",
            show_default=False,
        ),
    ] = None,
    around: Annotated[
        str | None,
        typer.Option(
            "--around",
            help="The part of an aa board drawn: 'all', or a margin in board pixels about what the turn touches "
            "(default: the turn's part with 150 px, the whole board for a state).",
            show_default=False,
        ),
    ] = None,
    picture_format: Annotated[
        str | None, format_flag("svg or png (default: png for an -o ending in .png, else svg).")
    ] = None,
    width: Annotated[
        int, typer.Option("--width", min=100, max=20000, help="The PNG's width in pixels.")
    ] = 1200,
    state: OrdersStateOption = None,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    lang: LangOption = None,
) -> None:
    """Draw an aa board or a maneuver battlefield, or orders on it with what 'check' finds, as SVG or PNG."""
    from movecheck.pictures import picture
    from movecheck.session import Session
    from movecheck.systems import Unrenderable

    session = Session.start(
        [file], fmt="text", color="never", config=config, options=option, root=root, isolated=isolated
    )

    as_png = picture_format == "png" or (picture_format is None and (output or "").lower().endswith(".png"))
    if picture_format not in (None, "svg", "png"):
        _fail(_("--format of render is svg or png, not {value}").format(value=repr(picture_format)))
    try:
        svg = picture(file, session.settings(state=state), session.select, reach=reach or [], around=around)
    except Unrenderable as exc:
        if exc.report is not None:
            emit(sys.stderr, render(exc.report, "text"))
        _fail(_("cannot render {file}: {reason}").format(file=file, reason=exc.reason))
    if as_png:
        from movecheck.pictures import deliver_png

        deliver_png(output, svg, width)
    else:
        deliver(output, svg)
    raise typer.Exit(0)


@app.command()
def summary(
    files: Annotated[list[str], typer.Argument(
        help="The files of one turn or phase: orders, battle results, purchases, or a state.", show_default=False)],
    fmt: SummaryFormatOption = SummaryFormat.markdown,
    output: PostOutput = None,
    picture: Annotated[
        str | None,
        typer.Option("--picture", help="The picture attached to the post (render -o FILE): named in its last "
                     "section, by its file name.", show_default=False),
    ] = None,
    luck: Annotated[
        bool,
        typer.Option("--luck", help="Add, after a legal battle results file's battles, the luck of each result "
                     "and of each power, as movecheck odds gives them."),
    ] = False,
    state: OrdersStateOption = None,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    lang: LangOption = None,
) -> None:
    """Write the post of a turn for the game's thread: what moved, battles, captures, findings."""
    from movecheck.summary.command import run_summary

    raise typer.Exit(run_summary(files, fmt.value, output, state, option, root, isolated, config, picture, luck))


def _fail(message: str) -> None:
    _say(f"movecheck: error: {message}")
    raise typer.Exit(2)


_say = say


# typer >= 0.24 defines Abort itself (typer.exceptions), not in its vendored click
# exceptions module; older typer re-exports click's Abort.  Either way it is typer.Abort.
_Abort = typer.Abort


def _app_for(first: str | None) -> typer.Typer:
    """The app, or when ``first`` names one of its commands, the app holding that command alone.

    Typer turns every command it holds into a click command before it parses anything
    (reading each function's signature); a run uses one.  The command runs, parses and
    words its errors the same either way: its name, the group's options and callback
    are the app's.
    """

    commands = [c for c in app.registered_commands if _name(c) == first]
    groups = [g for g in app.registered_groups if g.name == first]
    if not commands and not groups:
        if _add_system_commands():
            return _app_for(first)
        return app
    single = copy.copy(app)
    single.registered_commands, single.registered_groups = commands, groups
    return single


def _name(command: typer.models.CommandInfo) -> str:
    return command.name or command.callback.__name__.lower().replace("_", "-")  # type: ignore[union-attr]


_SYSTEM_COMMANDS: list[bool] = []


def _add_system_commands() -> bool:
    """Add every system's own commands (``System.commands``) once; True when they were added now.

    Done only when a run asks for a command the kernel does not hold (or for the list of
    commands), so that ``movecheck check`` imports no system's commands.
    """
    if _SYSTEM_COMMANDS:
        return False
    _SYSTEM_COMMANDS.append(True)
    from movecheck import core
    from movecheck.systems import all_systems, resolve

    for declared in all_systems():
        if declared.commands:
            resolve(declared.commands)(app, core)
    return True


def main(argv: list[str] | None = None) -> int:
    """Run the command line; every failure of the tool itself is one stderr line and exit 2.

    A closed standard output is the null device (:func:`~movecheck.output.ensure_streams`);
    one whose reader goes away (``| head``) drops the rest quietly.  Either way the exit
    code is the one the run gives (1 for error findings), as if the report had been read.
    """

    ensure_streams()
    try:  # the command's --lang says it again (and refuses a language it does not know)
        set_language(resolve())
    except LanguageError:
        set_language(ENGLISH)
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    finally:
        set_language(ENGLISH)  # a caller in the same process (a test) gets English again


def _run(args: list[str]) -> int:
    """:func:`main` in the language already chosen."""
    exceptions = click_exceptions()
    command = typer.main.get_command(_app_for(args[0] if args else None))
    try:
        result = command.main(args=args, prog_name="movecheck", standalone_mode=False)
    except getattr(exceptions, "NoArgsIsHelpError", ()) as exc:
        names = ", ".join(exc.ctx.command.list_commands(exc.ctx)) if exc.ctx else ""
        sys.stderr.write(
            "movecheck: error: "
            + _("missing command; choose one of: {names} (see 'movecheck --help')").format(names=names)
            + "\n"
        )
        return 2
    except exceptions.UsageError as exc:
        hint = " " + (
            _("(see 'movecheck {command} --help')").format(command=exc.ctx.info_name)
            if exc.ctx and exc.ctx.parent
            else _("(see 'movecheck --help')")
        )
        _say(f"movecheck: error: {exc.format_message()}{hint}")
        return 2
    except exceptions.ClickException as exc:
        _say(f"movecheck: error: {exc.format_message()}")
        return 2
    except _Abort:
        sys.stderr.write("movecheck: error: " + _("aborted") + "\n")
        return 2
    except (KeyboardInterrupt, Exception) as exc:
        return tool_failure(exc)
    return flushed(result)
