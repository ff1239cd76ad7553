"""tests/reuse.py hands a test a remembered report only for the same run on the same inputs (issue 35).

Two probes of the red team got the report of an earlier run: a ``--config`` run, and a run after
the state the orders name was rewritten.  Each probe here compares what a run with
:func:`reuse.check_once` (or :func:`reuse.summarize_once`) prints with what the same run prints
when nothing is remembered.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import reuse
from reuse import check_once, summarize_once

# A move that is legal only when the option combat_move_must_attack is off (AA203 otherwise).
MUST_ATTACK_OFF = "aa:\n  options: {combat_move_must_attack: false}\n"


@pytest.fixture
def project(tmp_path: Path, aa, write) -> Path:
    """``state.yaml`` at the top, the illegal orders (AA203) in ``orders/g1.yaml``, outside any repository."""
    write(tmp_path, "state.yaml", aa.state)
    write(tmp_path, "orders/g1.yaml", aa.illegal.replace("state: state.yaml", "state: ../state.yaml"))
    return tmp_path


def _codes(out: str) -> list[str]:
    return [f["code"] for f in json.loads(out)["findings"]]


CHECK = ["check", "orders/g1.yaml", "--format", "json"]


def test_a_config_run_is_not_handed_the_report_of_a_plain_run(run_main, project: Path, write, monkeypatch) -> None:
    write(project, "club.yaml", MUST_ATTACK_OFF)
    truth = run_main([*CHECK, "--config", "club.yaml"], cwd=project)
    check_once(monkeypatch)
    assert _codes(run_main(CHECK, cwd=project)[1]) == ["AA203"]
    assert run_main([*CHECK, "--config", "club.yaml"], cwd=project) == truth
    assert _codes(truth[1]) == []


def test_a_run_after_the_state_was_rewritten_is_checked_again(run_main, project: Path, write, monkeypatch) -> None:
    import movecheck.core as core

    real = core.check
    check_once(monkeypatch)
    assert _codes(run_main(CHECK, cwd=project)[1]) == ["AA203"]
    state = project / "state.yaml"
    before = os.stat(state)
    # the same size and the same time of change: only the bytes tell the difference
    write(project, "state.yaml", state.read_text(encoding="utf-8").replace("Germans", "British"))
    assert os.stat(state).st_size == before.st_size
    os.utime(state, ns=(before.st_atime_ns, before.st_mtime_ns))
    out = run_main(CHECK, cwd=project)[1]
    assert _codes(out) != ["AA203"]
    with pytest.MonkeyPatch.context() as fresh:  # the truth: the same run, nothing remembered
        fresh.setattr(core, "check", real)
        assert run_main(CHECK, cwd=project)[1] == out


def test_a_configuration_found_later_beside_the_orders_is_read(run_main, project: Path, write, monkeypatch) -> None:
    check_once(monkeypatch)
    assert _codes(run_main(CHECK, cwd=project)[1]) == ["AA203"]
    write(project, ".movecheck.yaml", MUST_ATTACK_OFF)  # a file that was not there: where the run looked
    assert _codes(run_main(CHECK, cwd=project)[1]) == []


def test_a_summary_after_the_orders_state_changed_is_told_again(run_main, project: Path, write, monkeypatch) -> None:
    summarize_once(monkeypatch)
    first = run_main(["summary", "orders/g1.yaml", "-f", "json"], cwd=project)[1]
    assert "AA203" in first
    write(project, "club.yaml", MUST_ATTACK_OFF)
    assert "AA203" not in run_main(["summary", "orders/g1.yaml", "-f", "json", "--config", "club.yaml"],
                                   cwd=project)[1]


def test_the_same_run_on_the_same_files_is_remembered(run_main, project: Path, monkeypatch) -> None:
    import movecheck.core as core

    real = core.check
    calls = []
    monkeypatch.setattr(core, "check", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    check_once(monkeypatch)
    first = run_main(CHECK, cwd=project)
    assert run_main(CHECK, cwd=project) == first
    assert run_main([*CHECK[:2], "--format", "text"], cwd=project)[0] == first[0]
    assert len(calls) == 1  # the work the module is for still saves the checks


def test_what_is_remembered_lives_as_long_as_its_test_module(monkeypatch) -> None:
    reuse._scoped()
    reuse._REPORTS[("probe",)] = []
    reuse._scoped()
    assert ("probe",) in reuse._REPORTS  # the same module: kept
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/test_other.py::test_x (call)")
    reuse._scoped()
    assert reuse._REPORTS == {}
