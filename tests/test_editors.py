"""Editors and shells: schema ids, the yaml-language-server modeline, map-aware schemas, completion."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import AA_TINY_MAP

from movecheck.files import read
from movecheck.schema import SCHEMA_NAMES, load_schema
from tests.sampling import sampled

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in (".yaml", ".yml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<target>\S+)$")


@functools.cache
def _read(path: str) -> Any:
    """:func:`movecheck.core.read` of an example, read once per module (the tests below only look at it)."""
    return read(path)


# -- schema ids ------------------------------------------------------------------------------

STABLE_IDS = {
    name: f"https://movecheck.dev/schemas/{name}/v1.json"
    for name in ("aa-map", "aa-state", "aa-orders", "aa-battles", "aa-purchase", "aa-mobilize", "aa-odds",
                 "maneuver-state", "maneuver-orders", "reach", "report", "apply-report", "summary")
}


def test_schema_ids_are_stable() -> None:
    """Editors and users' settings name the schemas by these ids: they never change within format 1."""
    assert {name: load_schema(name)["$id"] for name in SCHEMA_NAMES} == STABLE_IDS


def test_no_schema_names_the_placeholder_domain() -> None:
    for path in sorted((ROOT / "schemas").glob("*.json")):
        assert "movecheck.invalid" not in path.read_text(encoding="utf-8"), path.name


# -- the modeline of the examples -----------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    sampled(
        "tests/test_editors.py::test_every_example_names_its_schema_in_a_modeline",
        EXAMPLES,
        lambda p: str(p.relative_to(ROOT / "examples")),
    ),
)
def test_every_example_names_its_schema_in_a_modeline(path: Path) -> None:
    """The first line points the YAML extension at the schema of the file's kind (a path relative to the file).

    A sampled sweep (tests/sampling.py): every third example in the default run, the others under ``slow``.
    """
    first = path.read_text(encoding="utf-8").splitlines()[0]
    kind = _read(str(path)).kind
    expected = os.path.relpath(ROOT / "schemas" / f"{kind}.schema.json", path.parent).replace(os.sep, "/")
    found = MODELINE.match(first)
    assert found, f"{path.name}: add '# yaml-language-server: $schema={expected}' as its first line"
    assert found["target"] == expected
    assert (path.parent / found["target"]).resolve() == (ROOT / "schemas" / f"{kind}.schema.json").resolve()


# -- shell completion ------------------------------------------------------------------------

NO_SHELL_DETECTION = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}


@pytest.fixture
def completing(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """``completing(args, env)``: ``movecheck ARGS`` in this process with the completion variables ``env`` set, as
    the installed script runs it: (exit code, stdout, stderr).  Completion ends the program (``SystemExit``) with
    the output a fresh ``movecheck`` process prints: the bash script's run below starts one to show it."""
    from movecheck.cli import main

    def run(args: list[str], env: dict[str, str]) -> tuple[Any, str, str]:
        capsys.readouterr()
        with monkeypatch.context() as patch:
            for name, value in env.items():
                patch.setenv(name, value)
            with pytest.raises(SystemExit) as ended:
                main(args)
        out, err = capsys.readouterr()
        return ended.value.code, out, err

    return run


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o default -F _movecheck_completion movecheck"),
                                           ("zsh", "#compdef movecheck"), ("fish", "complete --command movecheck")])
def test_show_completion_prints_a_script(run_cli, completing, shell: str, marker: str) -> None:
    if shell == "bash":  # one shell's script from a fresh process, as a shell's startup file asks for it
        code, out, err = run_cli(["--show-completion", shell], env=NO_SHELL_DETECTION)
    else:
        code, out, err = completing(["--show-completion", shell], NO_SHELL_DETECTION)
    assert (code, err) == (0, "")
    assert marker in out
    assert "_MOVECHECK_COMPLETE" in out


def test_completion_completes_commands_and_choices(completing) -> None:
    """What the installed script asks movecheck: the words that may follow (no real shell needed)."""
    asked = {"_MOVECHECK_COMPLETE": "complete_bash"}
    code, out, _ = completing([], {**asked, "COMP_WORDS": "movecheck ch", "COMP_CWORD": "1"})
    assert (code, out.split()) == (0, ["check"])
    code, out, _ = completing([], {**asked, "COMP_WORDS": "movecheck check --format ", "COMP_CWORD": "3"})
    assert (code, out.split()) == (0, ["text", "full", "json", "json-lines", "github", "sarif"])


def test_help_lists_the_completion_options(run_main) -> None:
    code, out, _ = run_main(["--help"])
    assert code == 0
    assert "--install-completion" in out and "--show-completion" in out


# -- schemas that know a map's names ---------------------------------------------------------

AA_EXAMPLES = ROOT / "examples" / "aa"


def _map_schema(run_main, name: str, game_map: str) -> dict:
    import json

    code, out, err = run_main(["schema", name, "--map", game_map])
    assert (code, err) == (0, ""), err
    return json.loads(out)


def _map_of(path: Path) -> str:
    """The map an aa example is on: a state's map:, or that of the state its orders name."""
    data = _read(str(path)).doc.data
    if "state" in data:
        data = _read(str(path.parent / data["state"])).doc.data
    return data["map"]


def _errors(schema: dict, data: object) -> list[tuple[list, str]]:
    from movecheck.schema import validator_class

    return sorted((list(e.absolute_path), e.message) for e in validator_class()(schema).iter_errors(data))


BUILTIN_WITH_EXAMPLES = ("aa1942-2e", "aa-revised", "aa-anniversary-1941")
"""The built-in maps the examples are on (examples/aa/anniversary/: the Anniversary 1941 round)."""


@pytest.fixture(scope="module")
def map_schemas(tmp_path_factory) -> dict:
    """The map schemas of both built-in maps, written once (name, map) -> schema (``movecheck schema NAME --map
    MAP`` run in this process: the command line's output, without a fresh interpreter for each)."""
    import contextlib
    import io
    import json

    from movecheck.cli import main

    schemas = {}
    for game_map in BUILTIN_WITH_EXAMPLES:
        for name in ("aa-orders", "aa-state", "aa-battles", "aa-purchase", "aa-mobilize"):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["schema", name, "--map", game_map])
            assert (code, err.getvalue()) == (0, ""), err.getvalue()
            schemas[name, game_map] = json.loads(out.getvalue())
    return schemas


VALID_AA = sorted(p for p in AA_EXAMPLES.rglob("*.yaml") if not p.name.startswith(("mc003", "mc004")))

SAMPLE_EVERY = 3
"""The map schema's sweep over the aa examples: every third in the default run, the others under ``slow``."""

SAMPLED_AA = [
    path if index % SAMPLE_EVERY == 0 else pytest.param(path, marks=pytest.mark.slow)
    for index, path in enumerate(VALID_AA)
]


@pytest.mark.parametrize("path", SAMPLED_AA, ids=lambda p: str(p.relative_to(AA_EXAMPLES)))
def test_map_schema_accepts_the_examples(map_schemas, path: Path) -> None:
    """Each aa example validates against the schema of its map (the schema an editor is given).

    A sampled sweep: the default run validates every third example (:data:`SAMPLE_EVERY`), the slow run
    (``pytest -m slow``, which CI runs too) the others, so the two runs together validate every one.
    """
    kind = _read(str(path)).kind
    if kind == "aa-map" or _map_of(path) not in BUILTIN_WITH_EXAMPLES:
        pytest.skip("an example on a map file of its own (examples/aa/maps/): the fixture has the built-in maps")
    assert _errors(map_schemas[kind, _map_of(path)], _read(str(path)).doc.data) == []


def test_map_schema_flags_a_misspelt_territory_power_and_type(map_schemas) -> None:
    path = AA_EXAMPLES / "orders" / "g1-combat.yaml"
    data = read(str(path)).doc.data
    schema = map_schemas["aa-orders", "aa1942-2e"]
    assert "Karelia S.S.R." in schema["$defs"]["move"]["properties"]["path"]["items"]["enum"]
    data["moves"][0]["path"][-1] = "Karella"
    data["moves"][0]["units"] = {"tnak": 1}
    data["power"] = "Germnas"
    errors = _errors(schema, data)
    last = len(data["moves"][0]["path"]) - 1
    assert [where for where, _ in errors] == [["moves", 0, "path", last], ["moves", 0, "units"], ["power"]]
    assert errors[0][1].startswith("'Karella' is not one of ['Afghanistan',")
    assert errors[2][1].startswith("'Germnas' is not one of ['Americans',")


def test_map_schema_of_a_map_file(run_main, tmp_path: Path) -> None:
    """Any map file: its own territories, aliases and powers (read as lint reads it)."""
    (tmp_path / "tiny.yaml").write_text(AA_TINY_MAP, encoding="utf-8")
    schema = _map_schema(run_main, "aa-state", str(tmp_path / "tiny.yaml"))
    unit = schema["$defs"]["unit"]["properties"]
    assert unit["at"]["enum"] == ["Alpha", "Beta", "Bravo", "1 Sea Zone", "SZ 1"]
    assert unit["power"]["enum"] == ["Reds", "Blues"][::-1]
    assert schema["properties"]["control"]["propertyNames"] == {"enum": ["Alpha", "Beta", "Bravo"]}
    assert schema["title"] == "movecheck A&A state on the map tiny" and "$id" not in schema




@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["schema", "report", "--map", "aa1942-2e"],
            "--map applies to the schemas aa-orders, aa-state, aa-battles, aa-purchase, aa-mobilize, not report",
        ),
        (["schema", "aa-orders", "--map", "aa1924-2e"], "is neither a built-in map"),
        (["schema", "aa-orders", "--map", "/dev/null"], "/dev/null"),
    ],
)
def test_map_schema_usage_errors_are_one_line(run_main, args: list[str], message: str) -> None:
    code, out, err = run_main(args)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_map_schema_is_deterministic(run_cli) -> None:
    outputs = {
        run_cli(["schema", "aa-state", "--map", "aa-revised"], env={"PYTHONHASHSEED": seed})[1] for seed in ("1", "2")
    }
    assert len(outputs) == 1
