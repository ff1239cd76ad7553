"""The ``movecheck`` command line: arguments in, report out, exit code back.

This module stays thin and light: it imports neither networkx, jsonschema nor
shapely; the commands load what they need when they run.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, Any, Optional

import typer

from movecheck import __version__
from movecheck.output import deliver, emit, ensure_streams, say, silence
from movecheck.render import FORMATS

app = typer.Typer(
    name="movecheck",
    help="Check wargame orders against the board and the rules (Axis & Allies, miniatures manoeuvre).",
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# Output formats of ``check`` and ``lint``: those of the renderers' registry.
Format = Enum("Format", {name.replace("-", "_"): name for name in FORMATS}, type=str)  # type: ignore[misc]


class RulesFormat(str, Enum):
    """Output formats of ``rules``."""

    text = "text"
    json = "json"
    markdown = "markdown"


class ListFormat(str, Enum):
    """Output formats of ``maps``."""

    text = "text"
    json = "json"


class Color(str, Enum):
    """When to colour text output."""

    auto = "auto"
    always = "always"
    never = "never"


FormatOption = Annotated[
    Optional[Format],
    typer.Option(
        "--format",
        "-f",
        help="Output format (default: $MOVECHECK_FORMAT, else the configuration's format, else text).",
        show_default=False,
    ),
]
RulesFormatOption = Annotated[
    Optional[RulesFormat],
    typer.Option("--format", "-f", help="Output format (default: text, or $MOVECHECK_FORMAT).", show_default=False),
]
ListFormatOption = Annotated[
    Optional[ListFormat],
    typer.Option("--format", "-f", help="Output format (default: text, or $MOVECHECK_FORMAT).", show_default=False),
]
SelectOption = Annotated[
    Optional[list[str]],
    typer.Option("--select", help="Report only these codes or code prefixes (AA2, MC005; repeat or comma-separate).", show_default=False),
]
IgnoreOption = Annotated[
    Optional[list[str]],
    typer.Option("--ignore", help="Do not report these codes or code prefixes (repeat or comma-separate).", show_default=False),
]
ConfigOption = Annotated[
    Optional[str],
    typer.Option("--config", help="Configuration file to use (.movecheck.yaml or pyproject.toml) instead of discovering one.", show_default=False),
]
StatisticsOption = Annotated[bool, typer.Option("--statistics", help="Count the findings per code.")]
ExitZeroOption = Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even with error findings (2 still means movecheck failed).")]
RuleOptionOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--option",
        help="A rule option, SYSTEM.KEY=VALUE (aa.land_on_new_carrier=false); beats the configuration, not the state's own options.",
        show_default=False,
    ),
]
ColorOption = Annotated[Color, typer.Option("--color", help="Colour text output: auto (a terminal, no NO_COLOR), always, never.")]
RootOption = Annotated[
    Optional[str],
    typer.Option(
        "--root",
        help="Refuse state: and map: paths inside files that lead outside this folder "
        "(default: the current folder's repository root, else the current folder).",
        show_default=False,
    ),
]
OutputOption = Annotated[
    Optional[str],
    typer.Option("--output", "-o", help="Write the report to this file instead of standard output (any format).", show_default=False),
]
JobsOption = Annotated[
    int,
    typer.Option("--jobs", "-j", min=1, help="Check the files on this many processes (the output is that of one process).",
                 show_default=False),
]
IsolatedOption = Annotated[bool, typer.Option("--isolated", help="Use no configuration file at all (none discovered, no --config).")]
OrdersStateOption = Annotated[
    Optional[str], typer.Option("--state", "-s", help="State file the orders apply to (overrides the orders' state:).")
]


def _written_to(what: str) -> Any:
    """The ``-o/--output`` option of a command that writes ``what`` (default: standard output)."""
    return Annotated[
        Optional[str], typer.Option("--output", "-o", help=f"Write {what} here (default: standard output).", show_default=False)
    ]


NewStateOutput = _written_to("the new state")
MapOutput = _written_to("the map")
PictureOutput = _written_to("the SVG")


def _language(value: Optional[str]) -> Optional[str]:
    """Speak the language of ``--lang``, else ``$MOVECHECK_LANG``, else the locale's, else English."""
    from movecheck.i18n import LanguageError, resolve, set_language

    try:
        set_language(resolve(value))
    except LanguageError as exc:
        raise typer.BadParameter(str(exc).split(": ", 1)[1] if value else str(exc)) from None
    return value


LangOption = Annotated[
    Optional[str],
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
    Optional[str], typer.Option("--stdin-filename", help="Name to report for a file read from standard input (-); its state: resolves from that name's folder.")
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"movecheck {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Check wargame orders against the board and the rules.

    Exit codes: 0 no error finding, 1 at least one error finding, 2 the tool
    could not do its job (usage, unreadable file, internal error).
    """


def _format(fmt: Optional[Enum], choices: type[Enum] = ListFormat) -> str:
    """``--format``, else ``$MOVECHECK_FORMAT`` when it is one of ``choices``, else text.

    A ``MOVECHECK_FORMAT`` that names no format at all is a usage error (exit 2).
    """
    from movecheck.render import env_format

    if fmt is not None:
        return str(fmt.value)
    return env_format(tuple(c.value for c in choices)) or "text"  # type: ignore[attr-defined]


@app.command()
def check(
    orders: Annotated[list[str], typer.Argument(help="Orders files (- reads standard input).", show_default=False)],
    state: Annotated[
        Optional[str], typer.Option("--state", "-s", help="State file to check against (overrides the orders' state:).")
    ] = None,
    fmt: FormatOption = None,
    color: ColorOption = Color.auto,
    stdin_filename: StdinNameOption = None,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    config: ConfigOption = None,
    statistics: StatisticsOption = False,
    exit_zero: ExitZeroOption = False,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    output: OutputOption = None,
    jobs: JobsOption = 1,
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
    lang: LangOption = None,
) -> None:
    """Check orders files against the state they apply to."""
    from movecheck.core import check as run_check
    from movecheck.session import Session

    session = Session.start(
        orders, fmt=fmt.value if fmt else None, color=color.value, select=select, ignore=ignore, config=config,
        statistics=statistics, exit_zero=exit_zero, stdin_filename=stdin_filename, options=option,
        root=root, isolated=isolated, output=output,
    )
    settings = session.settings(state=state, suggest=suggest)
    if with_dependents:
        from movecheck.dependents import with_dependents as add_dependents

        orders = add_dependents(orders, settings)
    if jobs > 1:
        from movecheck.parallel import run as run_parallel

        report, required_ends = run_parallel("check", orders, settings, jobs)
    else:
        report, required_ends = run_check(orders, settings)
    code = session.finish(report)
    if suggest and required_ends:
        emit(sys.stderr if session.machine else sys.stdout, "\n" + "\n".join(required_ends))
    raise typer.Exit(code)


@app.command()
def apply(
    orders: Annotated[str, typer.Argument(help="An orders file (aa orders or battle results, maneuver orders).", show_default=False)],
    state: OrdersStateOption = None,
    output: NewStateOutput = None,
    force: Annotated[bool, typer.Option("--force", help="Write the state even when the orders are not legal (said in its header).")] = False,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    fmt: ListFormatOption = None,
    lang: LangOption = None,
) -> None:
    """Check orders as 'check' does and, when they are legal, write the state that follows them (--format json: and the apply report)."""
    from movecheck.core import check as run_check
    from movecheck.session import Session

    as_json = _format(fmt) == "json"
    session = Session.start(
        [orders], fmt="json" if as_json else "text", color="never", config=config, options=option, root=root, isolated=isolated,
    )
    outcomes: dict = {}
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
        from movecheck.render import render

        say(render(report, "text").rstrip("\n"))  # stdout holds the apply report alone
    elif not legal or hold:
        session.finish(report)  # the findings, before the state
    else:
        session.tell_overrides(report)  # a house rule or a received configuration is never unseen
    from movecheck.systems import system_of

    outcome, prepared = found
    entry = report.files[0]
    if as_json:
        from movecheck.apply_json import write_applied

        write_applied(system_of(entry.kind), outcome, prepared, entry.path, output, forced=not legal)
        raise typer.Exit(0)
    text = system_of(entry.kind).next_state(outcome, prepared, entry.path, output, forced=not legal)
    deliver(output, text)
    raise typer.Exit(0)


@app.command()
def lint(
    files: Annotated[list[str], typer.Argument(help="Any movecheck files: maps, states, orders (- reads stdin).")],
    fmt: FormatOption = None,
    color: ColorOption = Color.auto,
    stdin_filename: StdinNameOption = None,
    select: SelectOption = None,
    ignore: IgnoreOption = None,
    config: ConfigOption = None,
    statistics: StatisticsOption = False,
    exit_zero: ExitZeroOption = False,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    output: OutputOption = None,
    jobs: JobsOption = 1,
    skip_foreign: Annotated[
        bool,
        typer.Option("--skip-foreign", help="Skip YAML files with no top-level movecheck: or system: key (for hooks over every YAML file)."),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Check files against their schema and for consistency (scenario lint)."""
    from movecheck.core import lint as run_lint
    from movecheck.session import Session

    session = Session.start(
        files, fmt=fmt.value if fmt else None, color=color.value, select=select, ignore=ignore, config=config,
        statistics=statistics, exit_zero=exit_zero, stdin_filename=stdin_filename, options=option,
        skip_foreign=skip_foreign, root=root, isolated=isolated, output=output,
    )
    if jobs > 1:
        from movecheck.parallel import run as run_parallel

        report, _ = run_parallel("lint", files, session.settings(), jobs)
    else:
        report = run_lint(files, session.settings())
    raise typer.Exit(session.finish(report))


@app.command()
def rules(
    system: Annotated[Optional[str], typer.Option("--system", help="Only the clauses of one system: aa, maneuver, mc.")] = None,
    preset: Annotated[Optional[str], typer.Option("--rules", help="aa rules preset (edition name or alias) whose option values to list (default aa1942).")] = None,
    fmt: RulesFormatOption = None,
    lang: LangOption = None,
) -> None:
    """List the clause catalogue: codes, names, severities, seed paragraphs (text, json or markdown)."""
    from movecheck.catalogue import render_rules

    text, code = render_rules(system, preset, _format(fmt, RulesFormat))
    emit(sys.stdout if code == 0 else sys.stderr, text)
    raise typer.Exit(code)


@app.command()
def explain(
    code: Annotated[str, typer.Argument(help="A clause code such as AA207 or MV101.")],
    lang: LangOption = None,
) -> None:
    """Print one clause: its rule, the seed paragraphs it comes from, examples."""
    from movecheck.catalogue import explain_clause

    text, status = explain_clause(code)
    emit(sys.stdout if status == 0 else sys.stderr, text)
    raise typer.Exit(status)


@app.command()
def schema(
    name: Annotated[
        str,
        typer.Argument(help="aa-map, aa-state, aa-orders, maneuver-state, maneuver-orders or report."),
    ],
    game_map: Annotated[
        Optional[str],
        typer.Option("--map", help="aa-orders, aa-state, aa-battles: the names of this map (built-in or a map file) as enums, for editors.", show_default=False),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Print one of movecheck's JSON Schemas (with --map: one that knows a map's names)."""
    from movecheck.i18n import _
    from movecheck.schema import SCHEMA_NAMES, schema_text

    if name not in SCHEMA_NAMES:
        _fail(_("unknown schema {name}; choose one of: {names}").format(name=repr(name), names=", ".join(SCHEMA_NAMES)))
    if game_map is None:
        emit(sys.stdout, schema_text(name))
        raise typer.Exit(0)
    from movecheck.aa.map_schema import MAP_SCHEMAS, map_schema_text

    if name not in MAP_SCHEMAS:
        _fail(_("--map applies to the schemas {names}, not {name}").format(names=", ".join(MAP_SCHEMAS), name=name))
    emit(sys.stdout, map_schema_text(name, game_map))
    raise typer.Exit(0)


@app.command()
def maps(fmt: ListFormatOption = None, lang: LangOption = None) -> None:
    """List the built-in maps."""
    from movecheck.catalogue import render_maps

    emit(sys.stdout, render_maps(_format(fmt)))
    raise typer.Exit(0)


@app.command()
def server(stdio: Annotated[bool, typer.Option("--stdio", help="Speak over stdin and stdout (the only way it speaks).")] = True) -> None:
    """Run the language server (LSP over stdio) for editors; needs the extra movecheck[server]."""
    from movecheck.server import main as serve

    raise typer.Exit(serve())


@app.command("render")
def render_picture(
    file: Annotated[str, typer.Argument(help="An aa or maneuver state or orders file (aa: battle results too).", show_default=False)],
    output: PictureOutput = None,
    state: OrdersStateOption = None,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    lang: LangOption = None,
) -> None:
    """Draw an aa board or a maneuver battlefield, or orders on it with what 'check' finds, as an SVG picture."""
    from movecheck.render.pictures import Unrenderable, picture
    from movecheck.render import render
    from movecheck.session import Session

    session = Session.start([file], fmt="text", color="never", config=config, options=option, root=root, isolated=isolated)
    try:
        svg = picture(file, session.settings(state=state), session.select)
    except Unrenderable as exc:
        if exc.report is not None:
            emit(sys.stderr, render(exc.report, "text"))
        from movecheck.i18n import _

        _fail(_("cannot render {file}: {reason}").format(file=file, reason=exc.reason))
    deliver(output, svg)
    raise typer.Exit(0)


class SummaryFormat(str, Enum):
    markdown = "markdown"
    bbcode = "bbcode"
    text = "text"
    json = "json"


@app.command()
def summary(
    files: Annotated[list[str], typer.Argument(help="The files of one turn or phase: orders, battle results, or a state.", show_default=False)],
    fmt: Annotated[SummaryFormat, typer.Option("--format", "-f", help="markdown (Discourse, NodeBB, GitHub), bbcode (phpBB), text (e-mail) or json.")] = SummaryFormat.markdown,
    output: _written_to("the post") = None,
    state: OrdersStateOption = None,
    option: RuleOptionOption = None,
    root: RootOption = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    lang: LangOption = None,
) -> None:
    """Write the post of a turn for the game's thread: what moved, battles, captures, findings."""
    from movecheck.summary.command import run_summary

    raise typer.Exit(run_summary(files, fmt.value, output, state, option, root, isolated, config))


def _command_group(name: str, help_text: str) -> typer.Typer:
    """A group of subcommands (``movecheck NAME ...``) added to the command line."""
    group = typer.Typer(name=name, help=help_text, no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(group, name=name)
    return group


import_app = _command_group("import", "Convert another program's files into movecheck files.")


@import_app.command("triplea")
def import_triplea(
    game: Annotated[str, typer.Argument(help="A TripleA game file (XML; - reads standard input).", show_default=False)],
    output: MapOutput = None,
    map_folder: Annotated[Optional[str], typer.Option("--map-folder", help="The game's TripleA map folder: its centers.txt gives the map a layout for pictures.", show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    """Convert a TripleA game file into a movecheck aa map (YAML).

    The game's settings become the map's rule options. The edition (named only for a game
    known to be played under it), each option and the settings it came from, and each rule
    of the game that movecheck does not model are said at the top of the map and on stderr.
    """
    from movecheck.aa.triplea import convert, messages, read_game, render

    conversion = convert(read_game(game), game)
    if map_folder is not None:
        from movecheck.aa.triplea import add_layout

        add_layout(conversion, map_folder)
    text = render(conversion, game)
    deliver(output, text)
    for line in messages(conversion, game):
        _say(line)
    raise typer.Exit(0)


map_app = _command_group("map", "Questions about an aa map: its spaces, and the paths a unit may take.")


class MovePhase(str, Enum):
    """The aa movement phases."""

    combat_move = "combat_move"
    noncombat_move = "noncombat_move"


MapArgument = Annotated[str, typer.Argument(help="A built-in map (see 'movecheck maps') or an aa map file.", show_default=False)]


@map_app.command("show")
def map_show(
    game_map: MapArgument,
    space: Annotated[Optional[str], typer.Argument(help="One space (name or alias, e.g. 'SZ 5').", show_default=False)] = None,
    fmt: ListFormatOption = None,
    lang: LangOption = None,
) -> None:
    """List a map's spaces (kind, owner at start, IPC, factory, neighbours) and canals, or one space."""
    from movecheck.aa.mapquery import render_show

    emit(sys.stdout, render_show(game_map, space, _format(fmt)))
    raise typer.Exit(0)


@map_app.command("path")
def map_path(
    game_map: MapArgument,
    start: Annotated[str, typer.Argument(metavar="FROM", help="The space the unit starts in.", show_default=False)],
    end: Annotated[str, typer.Argument(metavar="TO", help="The space it goes to.", show_default=False)],
    unit: Annotated[
        Optional[str], typer.Option("--unit", "-u", help="Unit type (default: infantry from land, transport from a sea zone).", show_default=False)
    ] = None,
    state: Annotated[
        Optional[str], typer.Option("--state", "-s", help="An aa state on this map: its control, units and moving power.", show_default=False)
    ] = None,
    phase: Annotated[
        Optional[MovePhase], typer.Option("--phase", help="Movement phase (default: the state's, else combat_move).", show_default=False)
    ] = None,
    power: Annotated[
        Optional[str],
        typer.Option("--power", help="Moving power without --state (default: the start's owner, else the only power with units there, else the first in turn order).", show_default=False),
    ] = None,
    fmt: ListFormatOption = None,
    lang: LangOption = None,
) -> None:
    """The shortest paths a unit of a type may take between two spaces, with their cost (the rules the checks use)."""
    from movecheck.aa.mapquery import render_path

    text = render_path(game_map, start, end, unit, state, phase.value if phase else None, power, _format(fmt))
    emit(sys.stdout, text)
    raise typer.Exit(0)


def _fail(message: str) -> None:
    _say(f"movecheck: error: {message}")
    raise typer.Exit(2)


_say = say


def _click_exceptions():  # type: ignore[no-untyped-def]
    try:
        from typer._click import exceptions  # typer >= 0.24 vendors click
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


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
    import copy

    commands = [c for c in app.registered_commands if (c.name or c.callback.__name__.lower().replace("_", "-")) == first]
    groups = [g for g in app.registered_groups if g.name == first]
    if not commands and not groups:
        return app
    single = copy.copy(app)
    single.registered_commands, single.registered_groups = commands, groups
    return single


def main(argv: list[str] | None = None) -> int:
    """Run the command line; every failure of the tool itself is one stderr line and exit 2.

    A closed standard output is the null device (:func:`~movecheck.output.ensure_streams`);
    one whose reader goes away (``| head``) drops the rest quietly.  Either way the exit
    code is the one the run gives (1 for error findings), as if the report had been read.
    """
    from movecheck.i18n import ENGLISH, LanguageError, resolve, set_language

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
    from movecheck.i18n import _
    from movecheck.loading import InputError

    exceptions = _click_exceptions()
    command = typer.main.get_command(_app_for(args[0] if args else None))
    try:
        result = command.main(args=args, prog_name="movecheck", standalone_mode=False)
    except getattr(exceptions, "NoArgsIsHelpError", ()) as exc:
        names = ", ".join(exc.ctx.command.list_commands(exc.ctx)) if exc.ctx else ""
        sys.stderr.write("movecheck: error: " + _("missing command; choose one of: {names} (see 'movecheck --help')").format(names=names) + "\n")
        return 2
    except exceptions.UsageError as exc:
        hint = " " + (_("(see 'movecheck {command} --help')").format(command=exc.ctx.info_name) if exc.ctx and exc.ctx.parent
                      else _("(see 'movecheck --help')"))
        _say(f"movecheck: error: {exc.format_message()}{hint}")
        return 2
    except exceptions.ClickException as exc:
        _say(f"movecheck: error: {exc.format_message()}")
        return 2
    except _Abort:
        sys.stderr.write("movecheck: error: " + _("aborted") + "\n")
        return 2
    except InputError as exc:
        _say(f"movecheck: error: {exc}")
        return 2
    except BrokenPipeError:
        # The reader of stdout went away (``| head``).  The commands write through
        # emit(), which keeps the exit code they give; whatever else gets here wrote
        # to stdout on success.
        silence(sys.stdout)
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("movecheck: error: " + _("interrupted") + "\n")
        return 2
    except RecursionError:
        sys.stderr.write("movecheck: internal error: " + _("input nested too deeply") + "\n")
        return 2
    except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
        _say(f"movecheck: internal error: {type(exc).__name__}: {' '.join(str(exc).split())}")
        return 2
    try:
        sys.stdout.flush()  # now, not at interpreter exit, where a closed pipe would print "Exception ignored"
    except BrokenPipeError:
        silence(sys.stdout)
    except (AttributeError, OSError, ValueError):
        pass
    return result if isinstance(result, int) else 0
