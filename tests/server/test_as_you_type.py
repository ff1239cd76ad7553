"""Issue 37: a check as you type searches on a tenth of each budget and says so; a save checks with the whole one."""

from __future__ import annotations

from pathlib import Path

import pytest

from movecheck.budget import lighter
from movecheck.server.app import MovecheckServer
from tests.aa.conftest import orders
from tests.aa.test_choice_runs import loads_then_flights


def _case(folder: Path) -> tuple[str, str]:
    """Loads, then two long flights one fighter cannot make: a search of some hundred steps finds AA104."""
    state_text, moves = loads_then_flights(4)
    (folder / "state.yaml").write_text(state_text, encoding="utf-8")
    text = orders("Germans", "noncombat_move", moves).replace("moves:", "state: state.yaml\nmoves:", 1)
    (folder / "orders.yaml").write_text(text, encoding="utf-8")
    return str(folder / "orders.yaml"), text


def test_a_check_as_you_type_has_a_share_of_the_budget_and_says_so(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOVECHECK_CHOICE_BUDGET", "200")
    path, text = _case(tmp_path)
    whole = MovecheckServer().run_check(path, text, 1)
    assert "AA104" in [d.code for d in whole.published] and "MC012" not in [d.code for d in whole.published]
    with lighter():
        typed = MovecheckServer().run_check(path, text, 1)
    unchecked = [d for d in typed.published if d.code == "MC012"]
    assert len(unchecked) == 1 and "AA104" not in [d.code for d in typed.published]
    assert "as-you-type limit of 20 steps" in unchecked[0].message
    assert "save the file to check it with the whole budget" in unchecked[0].message
