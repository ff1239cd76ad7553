"""The ``movecheck`` command line: arguments in, report out, exit code back.

This module stays thin and light: it imports neither networkx, jsonschema nor
shapely; the commands load what they need when they run.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from movecheck import __version__

app = typer.Typer(
    name="movecheck",
    help="Check wargame orders against the board and the rules (Axis & Allies, miniatures manoeuvre).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(str, Enum):
    """Output formats of ``check`` and ``lint``."""

    text = "text"
    json = "json"


class Color(str, Enum):
    """When to colour text output."""

    auto = "auto"
    always = "always"
    never = "never"


FormatOption = Annotated[
    Optional[Format],
    typer.Option("--format", "-f", help="Output format (default: text, or $MOVECHECK_FORMAT).", show_default=False),
]
ColorOption = Annotated[Color, typer.Option("--color", help="Colour text output: auto (a terminal, no NO_COLOR), always, never.")]
StdinNameOption = Annotated[
    Optional[str], typer.Option("--stdin-filename", help="Name to report for a file read from standard input (-).")
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


def _format(fmt: Optional[Format]) -> str:
    if fmt is not None:
        return fmt.value
    env = os.environ.get("MOVECHECK_FORMAT", "").strip()
    return env if env in Format.__members__ else "text"


def _use_color(color: Color) -> bool:
    if color is Color.always:
        return True
    if color is Color.never or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _emit(report: object, fmt: str, color: Color) -> int:
    from movecheck.render import render

    sys.stdout.write(render(report, fmt, color=_use_color(color) and fmt == "text"))  # type: ignore[arg-type]
    return report.exit_code()  # type: ignore[attr-defined]


@app.command()
def check(
    orders: Annotated[list[str], typer.Argument(help="Orders files (- reads standard input).", show_default=False)],
    state: Annotated[
        Optional[str], typer.Option("--state", "-s", help="State file to check against (overrides the orders' state:).")
    ] = None,
    fmt: FormatOption = None,
    color: ColorOption = Color.auto,
    stdin_filename: StdinNameOption = None,
) -> None:
    """Check orders files against the state they apply to."""
    from movecheck.core import Settings, check as run_check

    report, _ = run_check(orders, Settings(state=state, stdin_filename=stdin_filename))
    raise typer.Exit(_emit(report, _format(fmt), color))


@app.command()
def lint(
    files: Annotated[list[str], typer.Argument(help="Any movecheck files: maps, states, orders (- reads stdin).")],
    fmt: FormatOption = None,
    color: ColorOption = Color.auto,
    stdin_filename: StdinNameOption = None,
) -> None:
    """Check files against their schema and for consistency (scenario lint)."""
    from movecheck.core import Settings, lint as run_lint

    report = run_lint(files, Settings(stdin_filename=stdin_filename))
    raise typer.Exit(_emit(report, _format(fmt), color))


@app.command()
def rules(
    system: Annotated[Optional[str], typer.Option("--system", help="Only the clauses of one system: aa, maneuver, mc.")] = None,
    preset: Annotated[Optional[str], typer.Option("--rules", help="aa rules preset whose options to list (default aa1942).")] = None,
    fmt: FormatOption = None,
) -> None:
    """List the clause catalogue: codes, names, severities, seed paragraphs."""
    from movecheck.catalogue import render_rules

    text, code = render_rules(system, preset, _format(fmt))
    (sys.stdout if code == 0 else sys.stderr).write(text)
    raise typer.Exit(code)


@app.command()
def explain(code: Annotated[str, typer.Argument(help="A clause code such as AA207 or MV101.")]) -> None:
    """Print one clause: its rule, the seed paragraphs it comes from, examples."""
    from movecheck.catalogue import explain_clause

    text, status = explain_clause(code)
    (sys.stdout if status == 0 else sys.stderr).write(text)
    raise typer.Exit(status)


@app.command()
def schema(
    name: Annotated[
        str,
        typer.Argument(help="aa-map, aa-state, aa-orders, maneuver-state, maneuver-orders or report."),
    ],
) -> None:
    """Print one of movecheck's JSON Schemas."""
    from movecheck.schema import SCHEMA_NAMES, schema_text

    if name not in SCHEMA_NAMES:
        _fail(f"unknown schema {name!r}; choose one of: {', '.join(SCHEMA_NAMES)}")
    sys.stdout.write(schema_text(name))
    raise typer.Exit(0)


@app.command()
def maps(fmt: FormatOption = None) -> None:
    """List the built-in maps."""
    from movecheck.catalogue import render_maps

    sys.stdout.write(render_maps(_format(fmt)))
    raise typer.Exit(0)


def _fail(message: str) -> None:
    sys.stderr.write(f"movecheck: error: {message}\n")
    raise typer.Exit(2)


def _click_exceptions():  # type: ignore[no-untyped-def]
    try:
        from typer._click import exceptions  # typer >= 0.24 vendors click
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


# typer >= 0.24 defines Abort itself (typer.exceptions), not in its vendored click
# exceptions module; older typer re-exports click's Abort.  Either way it is typer.Abort.
_Abort = typer.Abort


def main(argv: list[str] | None = None) -> int:
    """Run the command line; every failure of the tool itself is one stderr line and exit 2."""
    from movecheck.loading import InputError

    exceptions = _click_exceptions()
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else argv
    try:
        result = command.main(args=args, prog_name="movecheck", standalone_mode=False)
    except getattr(exceptions, "NoArgsIsHelpError", ()) as exc:
        names = ", ".join(exc.ctx.command.list_commands(exc.ctx)) if exc.ctx else ""
        sys.stderr.write(f"movecheck: error: missing command; choose one of: {names} (see 'movecheck --help')\n")
        return 2
    except exceptions.UsageError as exc:
        hint = f" (see 'movecheck {exc.ctx.info_name} --help')" if exc.ctx and exc.ctx.parent else " (see 'movecheck --help')"
        sys.stderr.write(f"movecheck: error: {exc.format_message()}{hint}\n")
        return 2
    except exceptions.ClickException as exc:
        sys.stderr.write(f"movecheck: error: {exc.format_message()}\n")
        return 2
    except _Abort:
        sys.stderr.write("movecheck: error: aborted\n")
        return 2
    except InputError as exc:
        sys.stderr.write(f"movecheck: error: {exc}\n")
        return 2
    except BrokenPipeError:
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("movecheck: error: interrupted\n")
        return 2
    except RecursionError:
        sys.stderr.write("movecheck: internal error: input nested too deeply\n")
        return 2
    except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
        sys.stderr.write(f"movecheck: internal error: {type(exc).__name__}: {' '.join(str(exc).split())}\n")
        return 2
    return result if isinstance(result, int) else 0
