"""The maneuver system's own command: ``reach`` (where bases and corps can go this turn).

The kernel's command line adds it (``Maneuver.commands``) when a command it does not hold
itself is asked for; it loads what it needs when it runs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from movecheck.cli_options import ConfigOption, IsolatedOption, LangOption, RuleOptionOption, format_flag, output_flag
from movecheck.output import deliver, say


class ReachFormat(StrEnum):
    """Output formats of ``reach``."""

    text = "text"
    json = "json"




def register(app: typer.Typer, kernel: Any) -> None:
    """Add the maneuver commands to the command line ``app``; ``kernel``: the run's services (``read``, ``prepare``)."""

    @app.command("reach")
    def reach_command(
        state: Annotated[str, typer.Argument(help="A maneuver battlefield state.", show_default=False)],
        ids: Annotated[list[str], typer.Argument(help="Bases and corps to work out.", show_default=False)],
        fmt: Annotated[
            ReachFormat | None,
            format_flag("Output format (default: text)."),
        ] = None,
        output: Annotated[str | None, output_flag("the reach")] = None,
        option: RuleOptionOption = None,
        isolated: IsolatedOption = False,
        config: ConfigOption = None,
        lang: LangOption = None,
    ) -> None:
        """Where bases and corps can go this turn: regions and ends with the odds of the terrain dice."""
        from movecheck.maneuver.reach_cli import run_reach

        code, text = run_reach(state, ids, (fmt or ReachFormat.text).value, option, isolated, config, kernel)
        if code:
            say(f"movecheck: error: {text}")
            raise typer.Exit(2)
        deliver(output, text)
        raise typer.Exit(0)
