"""Shell completion offers rule codes, schema names and map names; FORCE_COLOR and TERM=dumb are honoured (issue 42).

Completion is asked the way the installed shell scripts ask (Typer's): the command run with
``_MOVECHECK_COMPLETE`` and the words typed in the environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from movecheck.catalogue import load_all
from movecheck.clauses import CATALOGUE
from movecheck.schema import schema_names

ROOT = Path(__file__).resolve().parent.parent
load_all()
CODES = [entry.code for entry in CATALOGUE.all()]


def complete(words: str, shell: str = "bash") -> list[str]:
    """What the shell's completion script would offer after ``words`` (the last word being typed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MOVECHECK_", "_MOVECHECK", "COMP_"))}
    env.update({"_MOVECHECK_COMPLETE": f"complete_{shell}", "COMP_WORDS": words, "_TYPER_COMPLETE_ARGS": words,
                "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
                "PYTHONPATH": str(ROOT)})
    result = subprocess.run([sys.executable, "-m", "movecheck"], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_explain_completes_rule_codes() -> None:
    assert complete("movecheck explain AA10") == [code for code in CODES if code.startswith("AA10")]
    assert complete("movecheck explain mv1") == [code.lower() for code in CODES if code.startswith("MV1")]
    assert len(complete("movecheck explain ")) == len(CODES)


def test_select_and_ignore_complete_prefixes_and_the_last_code_of_a_list() -> None:
    offered = complete("movecheck check --select A")
    assert offered[:2] == ["ALL", "AA"] and "AA101" in offered and "MC001" not in offered
    assert complete("movecheck lint --ignore AA1,MC00") == [f"AA1,{c}" for c in CODES if c.startswith("MC00")]


def test_zsh_shows_each_code_s_name() -> None:
    offered = "\n".join(complete("movecheck explain AA101", shell="zsh"))
    assert '"AA101":"path-not-adjacent"' in offered


def test_schema_completes_schema_names_and_its_map_option_map_names() -> None:
    assert complete("movecheck schema aa-") == [name for name in schema_names() if name.startswith("aa-")]
    assert complete("movecheck schema aa-orders --map aa") == [
        "aa1942-2e", "aa-revised", "aa-anniversary-1941", "aa-anniversary-1942"]
    assert complete("movecheck schema aa-orders --map aa-r") == ["aa-revised"]


def test_init_and_map_show_complete_map_names() -> None:
    assert complete("movecheck init aa") == ["aa1942-2e", "aa-revised", "aa-anniversary-1941", "aa-anniversary-1942"]
    assert complete("movecheck map show aa19") == ["aa1942-2e"]


# --- colour -------------------------------------------------------------------------------------------


ANSI = "\x1b["


def test_force_color_colours_output_that_is_no_terminal(run_main: Any, aa_dir: Path, aa: Any, write: Any) -> None:
    write(aa_dir, "orders.yaml", aa.illegal)
    assert ANSI not in run_main(["check", "orders.yaml"], cwd=aa_dir)[1]
    assert "\x1b[31m[error]\x1b[0m" in run_main(["check", "orders.yaml"], cwd=aa_dir, env={"FORCE_COLOR": "1"})[1]
    for env in ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, {"FORCE_COLOR": ""}):
        assert ANSI not in run_main(["check", "orders.yaml"], cwd=aa_dir, env=env)[1]
    never = run_main(["check", "orders.yaml", "--color", "never"], cwd=aa_dir, env={"FORCE_COLOR": "1"})[1]
    assert ANSI not in never
    assert ANSI not in run_main(["check", "orders.yaml", "-f", "json"], cwd=aa_dir, env={"FORCE_COLOR": "1"})[1]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_dumb_terminal_gets_no_colour(aa_dir: Path, aa: Any, write: Any) -> None:
    from test_cli import run_on_tty

    write(aa_dir, "orders.yaml", aa.illegal)
    assert "\x1b[31m[error]\x1b[0m" in run_on_tty(["check", "orders.yaml"], aa_dir, {"TERM": "xterm-256color"})
    dumb = run_on_tty(["check", "orders.yaml"], aa_dir, {"TERM": "dumb"})
    assert dumb.startswith("orders.yaml:8:29: AA203 [error]") and ANSI not in dumb
    forced = run_on_tty(["check", "orders.yaml"], aa_dir, {"TERM": "dumb", "FORCE_COLOR": "1"})
    assert "\x1b[31m[error]\x1b[0m" in forced
    always = run_on_tty(["check", "orders.yaml", "--color", "always"], aa_dir, {"TERM": "dumb"})
    assert "\x1b[31m[error]\x1b[0m" in always
