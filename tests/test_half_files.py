"""A half-written orders file is told what it lacks; text where a list belongs gets the list syntax."""

from __future__ import annotations

from pathlib import Path

import pytest

from movecheck.schema import list_hint

ROOT = Path(__file__).resolve().parent.parent
AA_STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"
BATTLEFIELD = ROOT / "examples" / "maneuver" / "battlefield.yaml"


def check(run_main, folder: Path, text: str) -> tuple[int, list[str]]:
    """Check one orders file written in ``folder``: the exit code and the report's finding lines."""
    (folder / "orders.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run_main(["check", "orders.yaml", "--root", str(folder)], cwd=folder)
    return code, [line for line in out.splitlines() if line.startswith("orders.yaml:") and " MC" in line]


def test_aa_orders_without_moves_are_told_so(run_main, tmp_path):
    (tmp_path / "state.yaml").write_text(AA_STATE.read_text(encoding="utf-8"), encoding="utf-8")
    code, lines = check(
        run_main, tmp_path, "movecheck: 1\nsystem: aa\npower: Germans\nphase: combat_move\nstate: state.yaml\n"
    )
    assert code == 1
    assert lines == [
        "orders.yaml:1:1: MC003 [error] the file: missing required key 'moves' "
        "(this looks like an orders file: it has power, phase, state)"
    ]


def test_a_file_with_only_a_state_is_orders(run_main, tmp_path):
    (tmp_path / "state.yaml").write_text(AA_STATE.read_text(encoding="utf-8"), encoding="utf-8")
    _, lines = check(run_main, tmp_path, "movecheck: 1\nsystem: aa\nstate: state.yaml\n")
    assert lines[0].endswith("missing required key 'moves' (this looks like an orders file: it has state)")
    assert not any("'map'" in line or "'turn'" in line for line in lines)


def test_maneuver_orders_without_orders_are_told_so(run_main, tmp_path):
    (tmp_path / "battlefield.yaml").write_text(BATTLEFIELD.read_text(encoding="utf-8"), encoding="utf-8")
    code, lines = check(run_main, tmp_path, "movecheck: 1\nsystem: maneuver\nside: red\nstate: battlefield.yaml\n")
    assert code == 1
    assert lines[0] == (
        "orders.yaml:1:1: MC003 [error] the file: missing required key 'orders' "
        "(this looks like an orders file: it has side, state)"
    )


def test_a_state_missing_its_turn_is_still_a_state(run_main, tmp_path):
    (tmp_path / "state.yaml").write_text("movecheck: 1\nsystem: aa\nmap: aa1942-2e\n", encoding="utf-8")
    code, out, _ = run_main(["lint", "state.yaml"], cwd=tmp_path)
    assert code == 1
    assert "missing required key 'turn'" in out and "looks like an orders file" not in out


def test_comma_separated_path_gets_the_list_syntax(run_main, tmp_path):
    (tmp_path / "state.yaml").write_text(AA_STATE.read_text(encoding="utf-8"), encoding="utf-8")
    _, lines = check(run_main, tmp_path, (
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\n"
        "moves:\n  - units: {infantry: 1}\n    path: United Kingdom, 6 Sea Zone\n"))
    assert lines == [
        "orders.yaml:8:11: MC003 [error] moves[1].path: expected a list, got the text 'United Kingdom, 6 Sea Zone'; "
        "write it as a list: path: [United Kingdom, 6 Sea Zone] (or a line '- United Kingdom' per item under 'path:')"
    ]


@pytest.mark.parametrize(
    ("path", "instance", "expected", "hint"),
    [
        (
            ("captured_this_turn",),
            "Poland, Egypt",
            "array",
            "; write it as a list: captured_this_turn: [Poland, Egypt] "
            "(or a line '- Poland' per item under 'captured_this_turn:')",
        ),
        (("connections", 0), "A, B", "array", "; write it as a list: [A, B]"),
        (
            ("path",),
            "a: b, c",
            ["array", "null"],
            "; write it as a list: path: [\"a: b\", c] (or a line '- \"a: b\"' per item under 'path:')",
        ),
        (("path",), "Poland", "array", ""),  # one name: no comma, nothing to split
        (("name",), "a, b", "string", ""),  # not a list where a list belongs
        (("path",), ["a"], "array", ""),
    ],
)
def test_list_hint(path, instance, expected, hint):
    assert list_hint(path, instance, expected) == hint
