"""The aa system's own commands: ``maps``, ``map show``/``map path``, ``import triplea``, ``odds`` and ``dice``.

The kernel's command line adds them (``AA.commands``) when a command it does not hold
itself is asked for; each loads what it needs when it runs.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated, Any

import typer

from movecheck.aa.maps import BUILTIN_MAPS, builtin_summary
from movecheck.cli_options import LangOption, ListFormatOption, MapOutput, NewStateOutput, chosen_format, command_group
from movecheck.completion import map_names
from movecheck.output import deliver, emit, say


class MovePhase(StrEnum):
    """The aa movement phases."""

    combat_move = "combat_move"
    noncombat_move = "noncombat_move"


MapArgument = Annotated[
    str,
    typer.Argument(
        help="A built-in map (see 'movecheck maps') or an aa map file.", show_default=False, autocompletion=map_names
    ),
]


def render_maps(fmt: str) -> str:
    """The built-in maps with their size."""

    rows = [builtin_summary(name) for name in BUILTIN_MAPS]
    if fmt == "json":
        return json.dumps({"maps": rows}, indent=2, ensure_ascii=False) + "\n"
    width = max(12, *(len(row["name"]) for row in rows))
    lines = [
        f"{row['name']:<{width}} {row['title']}: {row['land']} land territories ({row['neutral']} neutral), "
        f"{row['sea']} sea zones, {row['connections']} connections, {row['canals']} canals, {row['units']} units"
        for row in rows
    ]
    return "\n".join(lines) + "\n"


def register(app: typer.Typer, kernel: Any) -> None:
    """Add the aa commands to the command line ``app`` (``kernel``: the run's services, unused by aa)."""
    register_odds(app, kernel)
    register_dice(app)

    @app.command()
    def maps(fmt: ListFormatOption = None, lang: LangOption = None) -> None:
        """List the built-in maps."""
        emit(sys.stdout, render_maps(chosen_format(fmt)))
        raise typer.Exit(0)

    @app.command()
    def init(
        game_map: Annotated[
            str,
            typer.Argument(
                metavar="MAP", help="A built-in map (see 'movecheck maps') or an aa map file.", show_default=False,
                autocompletion=map_names,
            ),
        ],
        output: NewStateOutput = None,
        power: Annotated[
            str | None,
            typer.Option(
                "--power", help="The power to move first (default: the first in turn order).", show_default=False
            ),
        ] = None,
        lang: LangOption = None,
    ) -> None:
        """Write the first state of an aa game: round 1, purchase phase, the map's setup and starting IPCs."""
        from movecheck.aa.init import init_text

        deliver(output, init_text(game_map, power, output))
        raise typer.Exit(0)

    import_app = command_group(app, "import", "Convert another program's files into movecheck files.")

    @import_app.command("triplea")
    def import_triplea(
        game: Annotated[
            str, typer.Argument(help="A TripleA game file (XML; - reads standard input).", show_default=False)
        ],
        output: MapOutput = None,
        map_folder: Annotated[
            str | None,
            typer.Option("--map-folder", help="The game's TripleA map folder: its centers.txt gives the map a layout "
                         "for pictures.", show_default=False),
        ] = None,
        lang: LangOption = None,
    ) -> None:
        """Convert a TripleA game file into a movecheck aa map (YAML).

        The game's settings become the map's rule options. The edition (named only for a game
        known to be played under it), each option and the settings it came from, and each rule
        of the game that movecheck does not model are said at the top of the map and on stderr.
        """
        from movecheck.aa.triplea.convert import convert
        from movecheck.aa.triplea.report import messages, render
        from movecheck.aa.triplea.xmlread import read_game

        conversion = convert(read_game(game), game)
        if map_folder is not None:
            from movecheck.aa.triplea.convert import add_layout

            add_layout(conversion, map_folder)
        text = render(conversion, game)
        deliver(output, text)
        for line in messages(conversion, game):
            say(line)
        raise typer.Exit(0)

    map_app = command_group(app, "map", "Questions about an aa map: its spaces, and the paths a unit may take.")

    @map_app.command("show")
    def map_show(
        game_map: MapArgument,
        space: Annotated[
            str | None, typer.Argument(help="One space (name or alias, e.g. 'SZ 5').", show_default=False)
        ] = None,
        units: Annotated[
            bool, typer.Option("--units", help="Also the units in each space (the map's setup, or --state's).")
        ] = False,
        state: Annotated[
            str | None,
            typer.Option("--state", "-s", help="An aa state on this map: show its units.", show_default=False),
        ] = None,
        fmt: ListFormatOption = None,
        lang: LangOption = None,
    ) -> None:
        """List a map's spaces (kind, owner at start, IPC, factory, neighbours), canals and turn order, or one space."""
        from movecheck.aa.maps.query import render_show

        emit(sys.stdout, render_show(game_map, space, chosen_format(fmt), units=units, state=state))
        raise typer.Exit(0)

    @map_app.command("path")
    def map_path(
        game_map: MapArgument,
        start: Annotated[str, typer.Argument(metavar="FROM", help="The space the unit starts in.", show_default=False)],
        end: Annotated[str, typer.Argument(metavar="TO", help="The space it goes to.", show_default=False)],
        unit: Annotated[
            str | None,
            typer.Option(
                "--unit",
                "-u",
                help="Unit type (default: infantry from land, transport from a sea zone).",
                show_default=False,
            ),
        ] = None,
        state: Annotated[
            str | None,
            typer.Option(
                "--state",
                "-s",
                help="An aa state on this map: its control, units and moving power.",
                show_default=False,
            ),
        ] = None,
        phase: Annotated[
            MovePhase | None,
            typer.Option(
                "--phase", help="Movement phase (default: the state's, else combat_move).", show_default=False
            ),
        ] = None,
        power: Annotated[
            str | None,
            typer.Option(
                "--power",
                help="Moving power without --state (default: the start's owner, else the only power with units "
                "there, else the first in turn order).",
                show_default=False,
            ),
        ] = None,
        fmt: ListFormatOption = None,
        lang: LangOption = None,
    ) -> None:
        """The shortest paths a unit of a type may take between two spaces, with their cost (the checks' rules)."""
        from movecheck.aa.maps.query import render_path

        text = render_path(game_map, start, end, unit, state, phase.value if phase else None, power, chosen_format(fmt))
        emit(sys.stdout, text)
        raise typer.Exit(0)


def register_odds(app: typer.Typer, kernel: Any) -> None:
    """Add ``movecheck odds`` (spec aa-battle.md, "Odds")."""

    @app.command()
    def odds(
        files: Annotated[list[str], typer.Argument(
            metavar="FILE...", help="A battles state (every battle it lists), combat-move orders (the battles "
            "they start) or battle results (each result's luck).", show_default=False)],
        battle: Annotated[str | None, typer.Option("--battle", help="Only the battles of this space (a raid and "
                                                   "the land battle there).", show_default=False)] = None,
        ool: Annotated[list[str] | None, typer.Option("--ool", metavar="SIDE=ORDER", help="A side's order of loss, "
                       "e.g. attacker=inf,art,arm,ftr,bmr (once per side).", show_default=False)] = None,
        keep_land: Annotated[int | None, typer.Option("--keep-land", min=0, help="The attacker's last N land units "
                             "are taken last (default: 1 in a land battle, else 0).", show_default=False)] = None,
        retreat_after: Annotated[int | None, typer.Option("--retreat-after", min=1, help="The attacker retreats "
                                 "after round R if the battle is not over.", show_default=False)] = None,
        retreat_below: Annotated[float | None, typer.Option("--retreat-below", min=0.0, max=1.0, help="The attacker "
                                 "retreats when its chance of winning falls below P.", show_default=False)] = None,
        best_retreat: Annotated[bool, typer.Option("--best-retreat", help="The retreat that maximises the "
                                "attacker's expected IPC swing (backward induction).")] = False,
        submerge: Annotated[str | None, typer.Option("--submerge", metavar="SIDE", help="attacker, defender or "
                            "both: that side's submarines submerge at the first moment they may.",
                            show_default=False)] = None,
        no_bombard: Annotated[bool, typer.Option("--no-bombard", help="No ship bombards.")] = False,
        exact_fraction: Annotated[bool, typer.Option("--exact-fraction", help="Compute in rationals, dropping "
                                  "nothing (slower).")] = False,
        fmt: ListFormatOption = None,
        lang: LangOption = None,
    ) -> None:
        """The exact odds of each battle of a battles state (or of legal combat-move orders), and the whole turn's.

        Exit 1 when a battle is too large for its budget (MC012: raise MOVECHECK_ODDS_BUDGET).
        """
        from movecheck.aa.battle.cli import run_odds

        text, code = run_odds(files, battle=battle, ool=ool or [], keep_land=keep_land,
                              retreat_after=retreat_after, retreat_below=retreat_below, best_retreat=best_retreat,
                              submerge=submerge, bombard=not no_bombard, exact=exact_fraction,
                              fmt=chosen_format(fmt), kernel=kernel)
        emit(sys.stdout, text)
        raise typer.Exit(code)


def register_dice(app: typer.Typer) -> None:
    """Add ``movecheck dice new`` and ``movecheck dice roll`` (spec aa-battle.md, "Dice anyone can verify")."""
    dice_app = command_group(app, "dice", "Dice anyone can verify, with no dice server: hash chains and their dice.")

    @dice_app.command("new")
    def dice_new(
        output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the chain (one "
                          "link a line, x_0 first; readable by its owner only).", show_default=False)],
        length: Annotated[int, typer.Option("--length", min=1, help="The number of reveals the chain holds.")] = 100,
        force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
        lang: LangOption = None,
    ) -> None:
        """Make a side's hash chain from 32 secure random bytes and print its head x_0 (to post)."""
        from movecheck.aa.battle.roll import write_chain

        emit(sys.stdout, write_chain(output, length, force) + "\n")
        raise typer.Exit(0)

    @dice_app.command("roll")
    def dice_roll(
        state: Annotated[str, typer.Argument(metavar="STATE", help="The battles state both sides took.",
                                             show_default=False)],
        results: Annotated[str | None, typer.Argument(metavar="[RESULTS]", help="The results written so far (the "
                           "rounds fought, dice_chain:).", show_default=False)] = None,
        reveal: Annotated[int, typer.Option("--round", min=1, metavar="K", help="The reveal (1, 2, ...).",
                                            show_default=False)] = 1,
        attacker: Annotated[str, typer.Option("--attacker", metavar="X", help="The attacker's x_K (64 hex digits).",
                                              show_default=False)] = "",
        defender: Annotated[str, typer.Option("--defender", metavar="Y", help="The defending side's x_K.",
                                              show_default=False)] = "",
        lang: LangOption = None,
    ) -> None:
        """The dice of every battle that fights in reveal K, and the state's digest (exit 1: a link refused, AA521)."""
        from movecheck.aa.battle.roll import run_roll

        text, notes, code = run_roll(state, results, reveal, attacker, defender)
        emit(sys.stdout, text)
        for line in notes:
            say(line)
        raise typer.Exit(code)
