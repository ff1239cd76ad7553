"""``movecheck apply --format json``: the new state, and on standard output the apply report.

The report (schema ``apply-report``, ``movecheck schema apply-report``) says what apply read
and wrote and what the rules did on the way (each system fills its own fields).  With
``-o FILE`` the state is written there; without it, the report carries the state's text
under ``text`` (standard output holds one JSON document either way).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from movecheck.output import deliver, emit


def write_applied(system: Any, outcome: Any, prepared: Any, orders_path: str, output: str | None, forced: bool,
                  overrides: Any = None) -> None:
    """Write the state that follows the orders (to ``output``, else into the report) and print the report;
    ``overrides``: the rules the state was judged under, those it does not carry said in its header."""
    from movecheck.overrides import with_state_header

    text, report = system.applied(outcome, prepared, orders_path, output, forced)
    text = with_state_header(text, overrides)
    if output is not None and output != "-":
        deliver(output, text)
    else:
        report["written"] = None
        report["text"] = text
    emit(sys.stdout, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


__all__ = ["write_applied"]
