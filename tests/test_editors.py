"""Editors and shells: schema ids, the yaml-language-server modeline, map-aware schemas, completion."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from movecheck.core import read
from movecheck.schema import SCHEMA_NAMES, load_schema

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in (".yaml", ".yml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<target>\S+)$")


# -- schema ids ------------------------------------------------------------------------------

STABLE_IDS = {
    "aa-map": "https://movecheck.dev/schemas/aa-map/v1.json",
    "aa-state": "https://movecheck.dev/schemas/aa-state/v1.json",
    "aa-orders": "https://movecheck.dev/schemas/aa-orders/v1.json",
    "maneuver-state": "https://movecheck.dev/schemas/maneuver-state/v1.json",
    "maneuver-orders": "https://movecheck.dev/schemas/maneuver-orders/v1.json",
    "report": "https://movecheck.dev/schemas/report/v1.json",
}


def test_schema_ids_are_stable() -> None:
    """Editors and users' settings name the schemas by these ids: they never change within format 1."""
    assert {name: load_schema(name)["$id"] for name in SCHEMA_NAMES} == STABLE_IDS


def test_no_schema_names_the_placeholder_domain() -> None:
    for path in sorted((ROOT / "schemas").glob("*.json")):
        assert "movecheck.invalid" not in path.read_text(encoding="utf-8"), path.name


# -- the modeline of the examples -----------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_every_example_names_its_schema_in_a_modeline(path: Path) -> None:
    """The first line points the YAML extension at the schema of the file's kind (a path relative to the file)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    kind = read(str(path)).kind
    expected = os.path.relpath(ROOT / "schemas" / f"{kind}.schema.json", path.parent).replace(os.sep, "/")
    found = MODELINE.match(first)
    assert found, f"{path.name}: add '# yaml-language-server: $schema={expected}' as its first line"
    assert found["target"] == expected
    assert (path.parent / found["target"]).resolve() == (ROOT / "schemas" / f"{kind}.schema.json").resolve()


# -- shell completion ------------------------------------------------------------------------

NO_SHELL_DETECTION = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o default -F _movecheck_completion movecheck"),
                                           ("zsh", "#compdef movecheck"), ("fish", "complete --command movecheck")])
def test_show_completion_prints_a_script(run_cli, shell: str, marker: str) -> None:
    code, out, err = run_cli(["--show-completion", shell], env=NO_SHELL_DETECTION)
    assert (code, err) == (0, "")
    assert marker in out
    assert "_MOVECHECK_COMPLETE" in out


def test_completion_completes_commands_and_choices(run_cli) -> None:
    """What the installed script asks movecheck: the words that may follow (no real shell needed)."""
    asked = {"_MOVECHECK_COMPLETE": "complete_bash"}
    code, out, _ = run_cli([], env={**asked, "COMP_WORDS": "movecheck ch", "COMP_CWORD": "1"})
    assert (code, out.split()) == (0, ["check"])
    code, out, _ = run_cli([], env={**asked, "COMP_WORDS": "movecheck check --format ", "COMP_CWORD": "3"})
    assert (code, out.split()) == (0, ["text", "full", "json", "json-lines", "github", "sarif"])


def test_help_lists_the_completion_options(run_cli) -> None:
    code, out, _ = run_cli(["--help"])
    assert code == 0
    assert "--install-completion" in out and "--show-completion" in out
