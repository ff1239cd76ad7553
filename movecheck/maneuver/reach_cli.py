"""The body of ``movecheck reach`` (the command line registers it through :mod:`movecheck.maneuver.commands`)."""

from __future__ import annotations

import sys
from typing import Any

from movecheck.i18n import _
from movecheck.systems import Unrenderable


def run_reach(state: str, ids: list[str], fmt: str, options: list[str] | None, isolated: bool,
              config: str | None, kernel: Any) -> tuple[int, str]:
    """``(0, the report)``, or ``(2, a one-line reason)`` after the state's findings went to stderr."""
    from movecheck.maneuver.reach_report import (
        ReachError,
        load_battlefield,
        reach_data,
        reach_json,
        reach_text,
        reaches,
    )
    from movecheck.output import emit
    from movecheck.reading import InputError
    from movecheck.render import render
    from movecheck.session import Session

    if state == "-":
        return 2, _("reach reads a file, not standard input")
    session = Session.start([state], fmt="text", color="never", config=config, options=options, isolated=isolated)
    try:
        battlefield, path = load_battlefield(state, session.settings(), session.select, kernel)
        data = reach_data(path, reaches(battlefield, ids))
    except Unrenderable as exc:
        if exc.report is not None:
            emit(sys.stderr, render(exc.report, "text"))
        return 2, _("cannot work out the reach in {file}: {reason}").format(file=state, reason=exc.reason)
    except (ReachError, InputError) as exc:
        return 2, str(exc)
    return 0, reach_json(data) if fmt == "json" else reach_text(data)
