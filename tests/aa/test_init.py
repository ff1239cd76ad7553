"""``movecheck init MAP``: the first state of a game (issue 25)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from movecheck.aa.maps import builtin_map
from movecheck.cli import main
from tests.harness import yaml_data

from .next_state_helpers import lints_clean


def init(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["init", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("name", ["aa1942-2e", "aa-revised"])
def test_the_first_state_of_a_built_in_map_lints_clean(capsys, tmp_path: Path, name: str) -> None:
    path = tmp_path / "start.yaml"
    code, _out, err = init(capsys, name, "-o", str(path))
    assert code == 0, err
    state = yaml_data(path.read_text())
    facts = builtin_map(name)
    assert state["map"] == name
    assert state["turn"] == {"round": 1, "power": facts["powers"][0], "phase": "purchase"}
    assert state["ipcs"] == facts["ipcs"] and list(state["ipcs"]) == facts["powers"]
    assert sum(u.get("count", 1) for u in state["units"]) == sum(u["count"] for u in facts["units"])
    lints_clean(capsys, path)


def test_every_unit_of_the_setup_is_listed(capsys) -> None:
    code, out, _err = init(capsys, "aa1942-2e")
    assert code == 0
    listed: dict[tuple[str, str, str], int] = {}
    for u in yaml_data(out)["units"]:
        key = (u["at"], u["power"], u["type"])
        listed[key] = listed.get(key, 0) + u.get("count", 1)
    assert listed == {(u["at"], u["power"], u["type"]): u["count"] for u in builtin_map("aa1942-2e")["units"]}


def test_power_names_the_first_mover_as_players_type_it(capsys) -> None:
    code, out, _err = init(capsys, "aa1942-2e", "--power", "UK")
    assert code == 0 and yaml_data(out)["turn"]["power"] == "British"


def test_an_unknown_power_or_map_is_one_error_line(capsys) -> None:
    code, out, err = init(capsys, "aa1942-2e", "--power", "Italians")
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown power 'Italians'" in err
    code, out, err = init(capsys, "aa1943")
    assert code == 2 and out == "" and "neither a built-in map" in err


def test_a_map_file_is_named_from_where_the_state_is_written(capsys, tmp_path: Path) -> None:
    (tmp_path / "maps").mkdir()
    (tmp_path / "game").mkdir()
    built_in = Path(__file__).resolve().parents[2] / "movecheck" / "aa" / "maps" / "aa-revised.json"
    shutil.copy(built_in, tmp_path / "maps" / "rev.json")
    path = tmp_path / "game" / "start.yaml"
    code, _out, err = init(capsys, str(tmp_path / "maps" / "rev.json"), "-o", str(path))
    assert code == 0, err
    assert yaml_data(path.read_text())["map"] == "../maps/rev.json"
    lints_clean(capsys, path)

