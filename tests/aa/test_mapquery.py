"""``movecheck map show`` and ``movecheck map path`` (issue 16, map queries)."""

from __future__ import annotations

import json

import pytest

from movecheck.aa.maps import builtin_map

MAP = "aa1942-2e"


def empty_state(power: str, phase: str = "combat_move", control: str = "{}") -> str:
    """A state on the built-in map with no units at all (``units: []`` replaces the setup)."""
    return (
        f"movecheck: 1\nsystem: aa\nmap: {MAP}\nturn: {{round: 1, power: {power}, phase: {phase}}}\n"
        f"control: {control}\nunits: []\n"
    )


# --- map show --------------------------------------------------------------------------------


def test_show_all_lists_every_space_sorted_and_the_canals(run_main):
    code, out, err = run_main(["map", "show", MAP])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"{MAP}: ") and "161 spaces, 2 canals" in lines[0]
    assert lines[1] == "turn order: Russians, Germans, British, Japanese, Americans"
    assert lines[2].startswith("1 Sea Zone (sea): ")
    assert lines[3].startswith("2 Sea Zone (sea): ")  # natural order: 2 before 10
    assert "Karelia S.S.R. (land, Russians, IPC 2, factory): 4 Sea Zone, 5 Sea Zone, Archangel," in out
    assert any(line.startswith("Sweden (neutral, no owner, IPC 0)") for line in lines)
    assert "  Suez Canal: 17 Sea Zone <-> 34 Sea Zone, open to a side that holds Egypt and Trans-Jordan" in out
    assert run_main(["map", "show", MAP]) == (code, out, err)  # deterministic


def test_show_one_space(run_main, snapshot):
    code, out, err = run_main(["map", "show", MAP, "Karelia S.S.R."])
    assert (code, err) == (0, "")
    assert out == snapshot


@pytest.mark.parametrize("alias", ["SZ 5", "sz5", "5 sea zone"])
def test_show_accepts_aliases(run_main, alias):
    code, out, _ = run_main(["map", "show", MAP, alias])
    assert code == 0
    assert out.splitlines()[:2] == ["5 Sea Zone", "  kind: sea"]


def test_show_unknown_space_is_one_line_with_a_hint(run_main):
    code, out, err = run_main(["map", "show", MAP, "Karelja"])
    assert (code, out) == (2, "")
    assert (
        err
        == "movecheck: error: unknown territory or sea zone 'Karelja' on map aa1942-2e; did you mean 'Karelia "
           "S.S.R.'?\n"
    )


def test_show_unknown_map(run_main):
    code, out, err = run_main(["map", "show", "aa1942-2"])
    assert (code, out) == (2, "")
    assert "neither a built-in map" in err and "did you mean 'aa1942-2e'" in err and err.count("\n") == 1


def test_show_json_shape(run_main):
    code, out, _ = run_main(["map", "show", MAP, "--format", "json"])
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"map", "title", "powers", "turn_order", "spaces", "canals"}
    assert data["powers"] == data["turn_order"] == ["Russians", "Germans", "British", "Japanese", "Americans"]
    assert len(data["spaces"]) == 161
    karelia = next(s for s in data["spaces"] if s["name"] == "Karelia S.S.R.")
    assert karelia == {
        "name": "Karelia S.S.R.",
        "kind": "land",
        "owner": "Russians",
        "ipc": 2,
        "factory": True,
        "aliases": ["Karelia"],
        "neighbours": [
            "4 Sea Zone",
            "5 Sea Zone",
            "Archangel",
            "Baltic States",
            "Belorussia",
            "Finland",
            "West Russia",
        ],
        "canals": [],
    }
    assert data["canals"][1] == {
        "name": "Suez Canal",
        "sea_zones": ["17 Sea Zone", "34 Sea Zone"],
        "land": ["Egypt", "Trans-Jordan"],
    }
    egypt = next(s for s in data["spaces"] if s["name"] == "Egypt")
    assert egypt["canals"] == ["Suez Canal"]
    code, out, _ = run_main(["map", "show", MAP, "SZ 17", "-f", "json"])
    one = json.loads(out)
    assert set(one) == {"map", "space"} and one["space"]["kind"] == "sea" and one["space"]["ipc"] is None
    assert one["space"]["canals"] == ["Suez Canal"]


def test_show_a_map_file_with_its_aliases(run_main, tmp_path, write):
    data = json.loads(json.dumps(builtin_map(MAP)))
    data["name"] = "my-map"
    karelia = next(t for t in data["territories"] if t["name"] == "Karelia S.S.R.")
    karelia["aliases"] = ["Karelia"]
    path = write(tmp_path, "map.yaml", json.dumps(data))
    code, out, err = run_main(["map", "show", str(path), "karelia"])
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == ["Karelia S.S.R.", "  kind: land"] and "  aliases: Karelia" in out


def test_a_bad_map_file_is_one_line_and_exit_2(run_main, tmp_path, write):
    data = json.loads(json.dumps(builtin_map(MAP)))
    data["connections"].append(["Germany", "Atlantis"])
    path = write(tmp_path, "map.yaml", json.dumps(data))
    code, out, err = run_main(["map", "show", str(path)])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Atlantis" in err and f"see 'movecheck lint {path}'" in err


# --- map path --------------------------------------------------------------------------------


def test_path_tank_text(run_main, snapshot):
    code, out, err = run_main(["map", "path", MAP, "Germany", "Ukraine S.S.R.", "--unit", "tank"])
    assert (code, err) == (0, "")
    assert out == snapshot


def test_path_json_shape(run_main):
    code, out, _ = run_main(["map", "path", MAP, "Germany", "Ukraine S.S.R.", "-u", "tank", "-f", "json"])
    assert code == 0
    assert json.loads(out) == {
        "map": MAP, "from": "Germany", "to": "Ukraine S.S.R.", "unit": "tank", "movement": 2,
        "power": "Germans", "phase": "combat_move", "state": None,
        "reachable": True, "cost": 2, "count": 2,
        "paths": [["Germany", "Bulgaria Romania", "Ukraine S.S.R."], ["Germany", "Poland", "Ukraine S.S.R."]],
        "ignoring_movement": None,
    }


def test_path_infantry_beyond_its_movement_shows_the_shortest_path_anyway(run_main):
    code, out, _ = run_main(["map", "path", MAP, "Germany", "Poland"])  # infantry by default
    assert code == 0 and "1 shortest path, cost 1:\n  Germany → Poland\n" in out
    code, out, err = run_main(["map", "path", MAP, "Germany", "Ukraine S.S.R.", "-u", "infantry", "-f", "json"])
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["reachable"], data["paths"], data["cost"]) == (False, [], None)
    assert data["ignoring_movement"] == {
        "cost": 2, "count": 2,
        "paths": [["Germany", "Bulgaria Romania", "Ukraine S.S.R."], ["Germany", "Poland", "Ukraine S.S.R."]],
    }
    code, out, _ = run_main(["map", "path", MAP, "Germany", "Ukraine S.S.R.", "-u", "infantry"])
    assert "no path within movement 1; ignoring movement, 2 shortest paths, cost 2:" in out


def test_path_fighter_flies_over_sea(run_main):
    code, out, _ = run_main(["map", "path", MAP, "Germany", "Karelia S.S.R.", "-u", "fighter", "-f", "json"])
    data = json.loads(out)
    assert code == 0 and data["cost"] == 2
    assert ["Germany", "5 Sea Zone", "Karelia S.S.R."] in data["paths"]


def test_path_transport_by_sea_and_not_onto_land(run_main):
    code, out, _ = run_main(["map", "path", MAP, "SZ 5", "SZ 7", "-f", "json"])  # transport by default at sea
    data = json.loads(out)
    assert (code, data["unit"], data["paths"]) == (0, "transport", [["5 Sea Zone", "6 Sea Zone", "7 Sea Zone"]])
    code, out, _ = run_main(["map", "path", MAP, "SZ 5", "Germany", "-u", "transport", "-f", "json"])
    data = json.loads(out)
    assert (data["reachable"], data["ignoring_movement"]) == (False, None)
    code, out, _ = run_main(["map", "path", MAP, "SZ 5", "Germany", "-u", "tank"])
    assert code == 0 and "no path: a tank does not move from 5 Sea Zone" in out


def test_path_through_a_canal_and_a_state_that_closes_it(run_main, tmp_path, write):
    code, out, _ = run_main(
        ["map", "path", MAP, "SZ 17", "SZ 34", "-u", "destroyer", "--power", "British", "-f", "json"]
    )
    assert code == 0 and json.loads(out)["paths"] == [["17 Sea Zone", "34 Sea Zone"]]
    open_state = write(tmp_path, "open.yaml", empty_state("British"))
    code, out, _ = run_main(
        ["map", "path", MAP, "SZ 17", "SZ 34", "-u", "destroyer", "--state", str(open_state), "-f", "json"]
    )
    assert json.loads(out)["cost"] == 1
    closed = write(tmp_path, "closed.yaml", empty_state("British", control="{Egypt: Germans}"))
    code, out, err = run_main(
        ["map", "path", MAP, "SZ 17", "SZ 34", "-u", "destroyer", "--state", str(closed), "-f", "json"]
    )
    data = json.loads(out)
    assert (code, err) == (0, "")
    assert data["reachable"] is False and data["ignoring_movement"]["cost"] > 1
    assert all(p != ["17 Sea Zone", "34 Sea Zone"] for p in data["ignoring_movement"]["paths"])


def test_a_state_that_changes_control_changes_the_paths(run_main, tmp_path, write):
    # Poland and Bulgaria Romania Russian and empty: a tank blitzes through in combat move,
    # an infantry may not pass, and in noncombat move the tank may not either.
    control = "{Poland: Russians, Bulgaria Romania: Russians}"
    combat = write(tmp_path, "combat.yaml", empty_state("Germans", control=control))
    code, out, _ = run_main(
        ["map", "path", MAP, "Germany", "Ukraine S.S.R.", "-u", "tank", "-s", str(combat), "-f", "json"]
    )
    data = json.loads(out)
    assert (code, data["cost"], data["count"], data["state"]) == (0, 2, 2, str(combat))
    code, out, _ = run_main(["map", "path", MAP, "Germany", "Ukraine S.S.R.", "-u", "tank", "-s", str(combat),
                             "--phase", "noncombat_move", "-f", "json"])
    data = json.loads(out)
    assert data["phase"] == "noncombat_move" and data["reachable"] is False
    assert data["ignoring_movement"]["cost"] > 2
    assert all("Poland" not in p and "Bulgaria Romania" not in p for p in data["ignoring_movement"]["paths"])


def test_path_state_on_another_map_or_with_errors(run_main, tmp_path, write):
    bad = write(tmp_path, "bad.yaml", empty_state("Germans", control="{Atlantis: Germans}"))
    code, out, err = run_main(["map", "path", MAP, "Germany", "Poland", "-s", str(bad)])
    assert (code, out) == (2, "") and "Atlantis" in err and err.count("\n") == 1
    code, out, err = run_main(
        [
            "map",
            "path",
            "aa-revised",
            "Germany",
            "Germany",
            "-s",
            str(write(tmp_path, "ok.yaml", empty_state("Germans"))),
        ]
    )
    assert (code, out) == (2, "") and "the state is on map aa1942-2e, not aa-revised" in err


@pytest.mark.parametrize(("args", "message"), [
    (["Germany", "Caucasus", "-u", "tonk"], "unknown unit type 'tonk'"),
    (["Germany", "Caucasus", "-u", "tonk"], "did you mean 'tank'?"),
    (["Germny", "Caucasus"], "unknown territory or sea zone 'Germny' on map aa1942-2e; did you mean 'Germany'?"),
    (["Germany", "Caucasus", "--power", "Germns"], "did you mean 'Germans'?"),
])
def test_path_unknown_names_are_one_line_and_exit_2(run_main, args, message):
    code, out, err = run_main(["map", "path", MAP, *args])
    assert (code, out) == (2, "")
    assert message in err and err.startswith("movecheck: error: ") and err.count("\n") == 1


def test_path_with_more_shortest_paths_than_it_lists(run_main):
    _code, out, _ = run_main(["map", "path", MAP, "Germany", "Kazakh S.S.R.", "-u", "bomber", "-f", "json"])
    data = json.loads(out)
    if data["count"] > 10:
        assert len(data["paths"]) == 10 and data["paths"] == sorted(data["paths"])
    assert all(len(p) - 1 == data["cost"] for p in data["paths"])


def test_routes_counts_every_shortest_path():
    from movecheck.aa.maps.gamemap import GameMap
    from movecheck.aa.model import Board

    board = Board(GameMap(builtin_map(MAP)), {}, "Germans", "combat_move")
    paths, count = board.routes("Germany", "Caucasus", 10, lambda _a, _b: True, first=1000)
    assert count == len(paths) and paths == sorted(paths) and len({tuple(p) for p in paths}) == count
    assert all(len(p) == len(paths[0]) for p in paths)
    assert board.routes("Germany", "Germany", 3, lambda _a, _b: True) == ([["Germany"]], 1)
    assert board.routes("Germany", "Caucasus", 1, lambda _a, _b: True) == ([], 0)


# -- the units in each space (--units, --state) -------------------------------------------------


def test_show_one_space_with_the_units_of_the_setup(run_main):
    code, out, err = run_main(["map", "show", MAP, "Germany", "--units"])
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("  units: 3 German infantry, 2 German tanks, 1 German AA gun, 1 German factory, "
                                    "1 German fighter, 1 German bomber")
    code, out, _ = run_main(["map", "show", MAP, "Germany"])
    assert "units:" not in out


def test_show_the_units_of_a_state(run_main):
    state = "examples/aa/states/g1-mobilize.yaml"
    code, out, err = run_main(["map", "show", MAP, "--state", state])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    karelia = lines.index(next(line for line in lines if line.startswith("Karelia S.S.R. (")))
    assert lines[karelia + 1] == "  units: 4 German infantry, 2 German tanks, 1 German factory"
    code, out, _ = run_main(["map", "show", MAP, "Poland", "--state", state, "-f", "json"])
    assert json.loads(out)["space"]["units"] == [{"power": "Germans", "type": "infantry", "count": 1},
                                                 {"power": "Germans", "type": "tank", "count": 2},
                                                 {"power": "Germans", "type": "aa_gun", "count": 1},
                                                 {"power": "Germans", "type": "fighter", "count": 1},
                                                 {"power": "Germans", "type": "bomber", "count": 1}]
    code, out, err = run_main(["map", "show", "aa-revised", "--state", state])
    assert code == 2 and "not aa-revised" in err
