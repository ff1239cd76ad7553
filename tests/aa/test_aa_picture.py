"""``movecheck render`` of aa files: the board, the turn on it, findings at their spaces; layouts."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from reuse import check_once

from tests.harness import yaml_data

from .triplea_writer import game_xml

REPO = Path(__file__).resolve().parents[2]
NS = {"svg": "http://www.w3.org/2000/svg"}


def _svg(run_main, *args: str, cwd: Path = REPO) -> ET.Element:
    code, out, err = run_main(["render", *args], cwd=cwd)
    assert code == 0, err
    return ET.fromstring(out.encode("utf-8"))


def _by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


def _moves(path: str) -> list[dict]:

    return yaml_data((REPO / path).read_text(encoding="utf-8"))["moves"]


@pytest.mark.parametrize("orders", ["examples/aa/orders/g1-combat.yaml", "examples/aa/orders/g1-noncombat.yaml",
                                    "examples/aa/orders/us1-noncombat.yaml", "examples/aa/orders/uk2-combat.yaml"])
def test_one_arrow_per_move(orders: str, run_main) -> None:
    root = _svg(run_main, orders)
    arrows = _by_class(root, "move")
    assert [a.get("data-order") for a in arrows] == [str(k) for k in range(1, len(_moves(orders)) + 1)]
    assert all(a.find("svg:polyline", NS) is not None for a in arrows)


def test_amphibious_blitz_and_battles_are_marked(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/g1-combat.yaml")
    how = {a.get("data-order"): a.get("data-how") for a in _by_class(root, "move")}
    assert how["3"] == "blitz" and how["13"] == "amphibious" and how["1"] == "attack"
    spaces = {g.get("data-space") for g in _by_class(root, "battle")}  # each battle's outline, on the board
    assert spaces == {"7 Sea Zone", "17 Sea Zone", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."}


VARIANTS = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "examples/aa/orders/variants").glob("*.yaml"))


@pytest.mark.parametrize(
    "orders",  # every third variant in the default run (a board picture each), every one under slow
    [pytest.param(v, marks=() if n % 3 == 0 else pytest.mark.slow) for n, v in enumerate(VARIANTS)],
)
def test_one_marker_per_finding_and_every_finding_listed_in_full(orders: str, run_main, monkeypatch) -> None:
    check_once(monkeypatch)  # the report of each variant, checked once per worker (tests/reuse.py: test_examples too)
    _code, report, _err = run_main(["check", orders, "--format", "json"], cwd=REPO)
    findings = json.loads(report)["findings"]
    render_code, out, err = run_main(["render", orders], cwd=REPO)
    if render_code != 0:  # a file with schema errors is not drawn: its findings go to stderr
        assert "MC003" in err or "MC004" in err
        return
    root = ET.fromstring(out.encode("utf-8"))
    markers = _by_class(root, "finding-marker")
    assert sorted(m.get("data-code") for m in markers) == sorted(f["code"] for f in findings)
    listed = ["".join(t.itertext()) for t in _by_class(root, "finding")]
    for finding in findings:  # the whole message, wrapped over lines but never cut
        assert any("".join(finding["message"].split()) in "".join(line.split()) for line in listed)


def test_the_illegal_move_is_drawn_as_illegal_and_its_code_at_its_space(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/variants/aa101-not-adjacent.yaml")
    how = {a.get("data-order"): a.get("data-how") for a in _by_class(root, "move")}
    assert how["1"] == "illegal" and list(how.values()).count("illegal") == 1
    (marker,) = _by_class(root, "finding-marker")
    assert (marker.get("data-code"), marker.get("data-space")) == ("AA101", "Archangel")


def test_the_board_shows_every_space_its_holder_and_units(run_main) -> None:
    root = _svg(run_main, "examples/aa/states/g1-combat.yaml")
    spaces = _by_class(root, "space")
    assert len(spaces) == 161
    germany = next(g for g in spaces if g.get("data-space") == "Germany")
    assert germany.get("fill") == "#5a5a5a"  # held by the Germans, in the board's colour for them
    assert any(f.get("data-space") == "Germany" for f in _by_class(root, "factory"))
    stacks = {(g.get("data-type"), g.get("data-count")) for g in _by_class(root, "units")
              if g.get("data-space") == "5 Sea Zone"}
    assert stacks == {("transport", "1"), ("submarine", "2"), ("cruiser", "1")}


def test_a_move_across_the_pacific_edge_is_drawn_on_both_sides(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/us1-noncombat.yaml", "--around", "all")
    # the bomber: Eastern US -> Central US -> Western US, across the edge
    bomber = next(a for a in _by_class(root, "move") if a.get("data-order") == "3")
    lines = [line for line in bomber.findall("svg:polyline", NS) if line.get("marker-end")]
    assert len(lines) == 2  # leaving by the left edge, coming back by the right
    xs = [[float(p.split(",")[0]) for p in line.get("points").split()] for line in lines]
    assert min(xs[0]) < 0 < max(xs[0]) and max(xs[1]) > 3500 > min(xs[1])


def test_the_same_bytes_every_time(run_main) -> None:
    first = run_main(["render", "examples/aa/orders/g1-combat.yaml"], cwd=REPO)[1]
    assert first == run_main(["render", "examples/aa/orders/g1-combat.yaml"], cwd=REPO)[1]
    assert first == (REPO / "docs/pictures/aa-g1-combat.svg").read_text(encoding="utf-8")


SMALL = {
    "name": "small", "title": "Tiny War", "powers": ["Reds", "Blues"], "sides": {"East": ["Reds"], "West": ["Blues"]},
    "territories": [{"name": "1 Sea Zone", "sea": True}, {"name": "Blue<land> & \"Co\"", "production": 5},
                    {"name": "Isthmus"}, {"name": "Redland", "production": 4}],
    "connections": [["1 Sea Zone", "Isthmus"], ["Blue<land> & \"Co\"", "Isthmus"], ["Isthmus", "Redland"],
                    ["1 Sea Zone", "Redland"]],
    "control": {"Blue<land> & \"Co\"": "Blues", "Isthmus": "Blues", "Redland": "Reds"},
    "units": [{"at": "Redland", "power": "Reds", "type": "tank", "count": 2}],
    "unit_types": {"tank": {"movement": 2, "attack": 3, "defense": 3, "domain": "land", "cost": 5, "blitz": True}},
}


def _imported(run_main, tmp_path: Path, folder: Path | None) -> tuple[Path, str]:
    game = tmp_path / "game.xml"
    game.write_text(game_xml(SMALL), encoding="utf-8")
    args = ["import", "triplea", str(game), "-o", str(tmp_path / "small.yaml")]
    if folder is not None:
        args += ["--map-folder", str(folder)]
    code, _out, err = run_main(args)
    assert code == 0, err
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: small.yaml\nturn: {round: 1, power: Reds, phase: combat_move}\n",
        encoding="utf-8")
    (tmp_path / "orders.yaml").write_text(
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Reds\nphase: combat_move\n"
        "moves:\n  - units: {tank: 1}\n    path: [Redland, Isthmus]\n", encoding="utf-8")
    return tmp_path, err


def test_import_reads_the_map_folders_centres_as_untrusted_text(run_main, tmp_path: Path) -> None:
    folder = tmp_path / "mapfolder" / "map"
    folder.mkdir(parents=True)
    (folder / "centers.txt").write_text(
        "Redland  (100,200)\nIsthmus  (300,250)\n1 Sea Zone (200,400)\nBlue<land> & \"Co\"  (500,260)\n"
        "Nowhere  (10,10)\nIsthmus  (1,1)\nRedland  (99999999,1)\n" + "x" * 500 + "  (1,2)\n\x1b[2J junk\n",
        encoding="utf-8")
    properties = "map.width=600\nmap.height=500\nmap.scrollWrapX=false\n"
    (folder / "map.properties").write_text(properties, encoding="utf-8")
    where, err = _imported(run_main, tmp_path, tmp_path / "mapfolder")
    assert "no space of that name" in err and "not a 'Name (x,y)' line" in err and "\x1b" not in err

    layout = yaml_data((where / "small.yaml").read_text(encoding="utf-8"))["layout"]
    assert layout["width"] == 600 and layout["centers"]["Isthmus"] == [300, 250]  # the first centre of a name wins
    assert set(layout["centers"]) == {"Redland", "Isthmus", "1 Sea Zone", "Blue<land> & \"Co\""}
    root = _svg(run_main, str(where / "orders.yaml"), cwd=where)
    places = {g.get("data-space"): g.find("svg:circle", NS) for g in _by_class(root, "space")}
    assert (places["Isthmus"].get("cx"), places["Isthmus"].get("cy")) == ("300", "250")
    assert "Blue<land> & \"Co\"" in places  # the name escaped by the serialiser, read back intact
    assert len(_by_class(root, "move")) == 1


def test_without_a_map_folder_the_layout_is_computed_and_the_same_each_time(run_main, tmp_path: Path) -> None:
    where, _err = _imported(run_main, tmp_path, None)
    first = run_main(["render", str(where / "state.yaml")], cwd=where)[1]
    assert first == run_main(["render", str(where / "state.yaml")], cwd=where)[1]
    root = ET.fromstring(first.encode("utf-8"))
    assert len(_by_class(root, "space")) == 4
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any("computed from the connections" in text for text in texts)


def test_centres_reader_limits() -> None:
    from movecheck.aa.picture.layout import MAX_LINES, read_centers, read_properties

    centers, notes = read_centers("A  (1,2)\n" * (MAX_LINES + 5), {"A"})
    assert centers == {"A": (1.0, 2.0)} and notes == [f"only the first {MAX_LINES} lines were read"]
    assert read_properties("map.width=-5\nmap.height=1e9\nmap.scrollWrapX=TRUE\n") == (3500.0, 2000.0, True)


def test_the_generated_layouts_are_current() -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "scripts/gen_layouts.py", "--check"], cwd=REPO, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    data = json.loads((REPO / "movecheck/aa/maps/aa1942-2e.layout.json").read_text(encoding="utf-8"))
    assert data["wrap_x"] is True and len(data["centers"]) == 161


def test_hostile_names_stay_inside_their_text(run_main, tmp_path: Path) -> None:
    import copy

    hostile = copy.deepcopy(SMALL)
    evil = "Isth\x1b[2Jmus\u202e</text><script>"
    text = json.dumps(hostile).replace("Isthmus", evil.replace("\x1b", "\\u001b").replace("\u202e", "\\u202e"))
    data = json.loads(text)
    game = tmp_path / "game.xml"
    game.write_text(game_xml(data).replace("\x1b", ""), encoding="utf-8")  # XML 1.0 cannot hold ESC itself
    code, _out, err = run_main(["import", "triplea", str(game), "-o", str(tmp_path / "small.yaml")])
    assert code == 0, err
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: small.yaml\nturn: {round: 1, power: Reds, phase: combat_move}\n",
        encoding="utf-8")
    code, out, err = run_main(["render", str(tmp_path / "state.yaml")], cwd=tmp_path)
    assert code == 0, err
    root = ET.fromstring(out.encode("utf-8"))  # well-formed: the name did not close any element
    assert root.find(".//svg:script", NS) is None and "\u202e" not in out
    assert any("</text><script>" in (g.get("data-space") or "") for g in _by_class(root, "space"))
