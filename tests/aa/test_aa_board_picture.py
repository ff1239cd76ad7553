"""``movecheck render`` of aa files on the real board (issue 40): read back from the SVG and from the PNG.

The pictures are checked against what they draw from, read here independently: the
layout's polygons, the state's units, the orders' ``units:``; labels are checked pairwise
for overlaps, the PNG by its header and its pixels (zlib, struct).
"""

from __future__ import annotations

import itertools
import json
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from tests.harness import yaml_data

REPO = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
LAYOUT = json.loads((REPO / "movecheck/aa/maps/aa1942-2e.layout.json").read_text(encoding="utf-8"))
SHORT = {"infantry": "inf", "artillery": "art", "tank": "arm", "fighter": "ftr", "bomber": "bmr",
         "transport": "tp", "submarine": "sub", "destroyer": "dd", "cruiser": "ca", "battleship": "bb",
         "carrier": "cv", "aa_gun": "aa"}
ORDER = list(SHORT)


def _svg(run_main, *args: str) -> ET.Element:
    code, out, err = run_main(["render", *args], cwd=REPO)
    assert code == 0, err
    return ET.fromstring(out.encode("utf-8"))


def _by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]


def _counts_text(units: dict[str, int]) -> str:
    """``3 inf, 1 art``: the orders' own spelling turned into the picture's, independently of movecheck's code."""
    full = {"inf": "infantry", "art": "artillery", "arm": "tank", "ftr": "fighter", "bmr": "bomber",
            "tp": "transport", "sub": "submarine", "dd": "destroyer", "cv": "carrier", "bb": "battleship"}
    named = {full.get(k, k): n for k, n in units.items()}
    return ", ".join(f"{named[k]} {SHORT[k]}" for k in ORDER if named.get(k))


def _boxes(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every label's box: the space names, the move labels (text, as placed) and the unit and finding markers."""
    from movecheck.aa.picture.board import text_box

    found = []
    for text in root.iter(f"{SVG}text"):
        if text.get("class") in ("label", "move-label"):
            box = text_box(float(text.get("x")), float(text.get("y")), float(text.get("font-size")),
                           "".join(text.itertext()), text.get("text-anchor") or "start")
            found.append(("".join(text.itertext()), box))
    for group in root.iter(f"{SVG}g"):
        if group.get("class") in ("units", "placement", "finding-marker"):
            rect = group.find(f"{SVG}rect")
            x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
            found.append((f"{group.get('class')} {group.get('data-space')}", (x, y, x + w, y + h)))
    return found


def _overlapping(root: ET.Element) -> list[tuple[str, str]]:
    from movecheck.aa.picture.board import overlaps

    return [(a, b) for (a, one), (b, two) in itertools.combinations(_boxes(root), 2) if overlaps(one, two)]


def test_every_space_is_drawn_as_its_polygons(run_main) -> None:
    root = _svg(run_main, "examples/aa/states/g1-combat.yaml")
    drawn = {g.get("data-space"): g.findall(f"{SVG}polygon") for g in _by_class(root, "space")}
    assert set(drawn) == set(LAYOUT["shapes"]) and len(drawn) == 161
    for name, pieces in LAYOUT["shapes"].items():
        assert [p.get("points") for p in drawn[name]] == [
            " ".join(f"{piece[k]},{piece[k + 1]}" for k in range(0, len(piece), 2)) for piece in pieces], name
    assert len(drawn["Solomon Islands"]) == 12  # an archipelago: one polygon per island


def test_land_in_its_holders_colour_seas_one_tone_impassable_hatched(run_main) -> None:
    root = _svg(run_main, "examples/aa/states/g1-combat.yaml")
    fills = {g.get("data-space"): g.get("fill") for g in _by_class(root, "space")}
    assert fills["Germany"] == "#5a5a5a" and fills["Russia"] == "#af2828"  # the board's own colours
    assert len({fills[n] for n in fills if n.endswith("Sea Zone")}) == 1
    assert fills["Switzerland"] == "url(#impassable)" and fills["Sahara"] == "url(#impassable)"
    assert {s.get("data-space") for s in _by_class(root, "capital")} == {
        "Russia", "Germany", "Eastern United States", "Japan", "United Kingdom"}
    assert "Hawaiian Islands" in {s.get("data-space") for s in _by_class(root, "victory")}


def test_every_unit_count_is_on_the_board(run_main) -> None:
    state = yaml_data((REPO / "examples/aa/states/g1-combat.yaml").read_text(encoding="utf-8"))
    expected: dict[tuple[str, str, str], int] = {}
    for entry in state["units"]:
        if entry["type"] in ("factory", "industrial_complex"):
            continue
        key = (entry["at"], entry["power"], entry["type"])
        expected[key] = expected.get(key, 0) + int(entry.get("count", 1))
    root = _svg(run_main, "examples/aa/states/g1-combat.yaml")
    drawn = {}
    for group in _by_class(root, "units"):
        texts = ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]
        key = (group.get("data-space"), group.get("data-power"), group.get("data-type"))
        drawn[key] = int(group.get("data-count"))
        assert texts == [group.get("data-count"), SHORT.get(key[2], key[2])]  # the count over the short name
    assert drawn == expected


@pytest.mark.parametrize("orders", ["examples/aa/orders/g1-combat.yaml", "examples/aa/orders/g1-noncombat.yaml",
                                    "examples/aa/orders/us1-noncombat.yaml",
                                    "examples/aa/game/orders/r1-germans-combat.yaml"])
def test_arrow_labels_say_what_moved_and_no_two_labels_overlap(orders: str, run_main) -> None:
    data = yaml_data((REPO / orders).read_text(encoding="utf-8"))
    state = yaml_data((REPO / orders).parent.joinpath(data["state"]).read_text(encoding="utf-8"))
    ids = {u["id"]: u["type"] for u in state.get("units", []) if "id" in u}
    moves = data["moves"]

    def units_of(move: dict) -> dict[str, int]:  # by type and count, or a list of unit ids
        if isinstance(move["units"], dict):
            return move["units"]
        counts: dict[str, int] = {}
        for unit_id in move["units"]:
            counts[ids[unit_id]] = counts.get(ids[unit_id], 0) + 1
        return counts

    root = _svg(run_main, orders)
    labels = {t.get("data-order"): "".join(t.itertext()) for t in _by_class(root, "move-label")}
    assert labels == {str(k): f"{k}: {_counts_text(units_of(m))}" for k, m in enumerate(moves, start=1)}
    assert _overlapping(root) == []


def test_the_whole_board_has_no_overlapping_labels(run_main) -> None:
    root = _svg(run_main, "examples/aa/game/states/r2-russians-purchase.yaml")
    assert len(_by_class(root, "label")) > 100
    assert _overlapping(root) == []


def test_attacks_raids_and_taken_territories_are_told_apart(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/g1-combat.yaml")
    how = {a.get("data-order"): a.get("data-how") for a in _by_class(root, "move")}
    assert how["1"] == "attack" and how["3"] == "blitz" and how["13"] == "amphibious"
    battles = {g.get("data-space") for g in _by_class(root, "battle")}
    assert battles == {"7 Sea Zone", "17 Sea Zone", "Belorussia", "Caucasus", "Egypt", "Karelia S.S.R."}
    taken = {g.get("data-space"): g.get("data-taken") for g in _by_class(root, "taken")}
    assert taken == {"Archangel": "captured"}  # the tank blitzed through it


def test_a_lone_bomber_on_a_factory_is_a_raid_and_with_a_fighter_an_attack(run_main, tmp_path: Path) -> None:
    import shutil

    shutil.copy(REPO / "examples/aa/states/g1-combat.yaml", tmp_path / "state.yaml")
    head = "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\nmoves:\n"
    raid = "  - units: {bomber: 1}\n    path: [Germany, Northwestern Europe, 6 Sea Zone, United Kingdom]\n"
    (tmp_path / "raid.yaml").write_text(head + raid, encoding="utf-8")
    fighter = "  - units: {fighter: 1}\n    path: [Northwestern Europe, 6 Sea Zone, United Kingdom]\n"
    (tmp_path / "attack.yaml").write_text(head + raid + fighter, encoding="utf-8")
    for name, expected in (("raid.yaml", ["raid"]), ("attack.yaml", ["raid", "attack"])):
        code, out, err = run_main(["render", str(tmp_path / name)], cwd=tmp_path)
        assert code == 0, err
        root = ET.fromstring(out.encode("utf-8"))
        assert [a.get("data-how") for a in _by_class(root, "move")] == expected


def test_the_turn_picture_shows_the_part_of_the_board_it_touches(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/g1-combat.yaml")
    board = root.find(f"{SVG}svg")
    _x, _y, w, h = (float(v) for v in board.get("viewBox").split())
    assert 900 <= w < 2500 and h < 2000  # not the whole 3500 x 2000 board
    whole = _svg(run_main, "examples/aa/orders/g1-combat.yaml", "--around", "all").find(f"{SVG}svg")
    assert whole.get("viewBox") == "0 0 3500 2000"
    wider = _svg(run_main, "examples/aa/orders/g1-combat.yaml", "--around", "400").find(f"{SVG}svg")
    assert float(wider.get("viewBox").split()[2]) > w
    results = _svg(run_main, "examples/aa/orders/g1-battles.yaml")  # the battle results: their battles
    assert float(results.find(f"{SVG}svg").get("viewBox").split()[2]) < 2500
    assert len(_by_class(results, "battle")) == 6
    state = _svg(run_main, "examples/aa/states/g1-combat.yaml").find(f"{SVG}svg")  # a state: the whole board
    assert state.get("viewBox") == "0 0 3500 2000"


def test_a_move_across_the_pacific_is_drawn_the_short_way_in_one_piece(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/us1-noncombat.yaml")
    x0, _y0, width, _h = (float(v) for v in root.find(f"{SVG}svg").get("viewBox").split())
    assert x0 < 0 < x0 + width  # the view spans the east-west edge: both sides of the Pacific side by side
    for order in ("1", "3"):  # the fighter over the Pacific; the bomber Eastern -> Central -> Western US
        arrow = next(a for a in _by_class(root, "move") if a.get("data-order") == order)
        (line,) = [ln for ln in arrow.findall(f"{SVG}polyline") if ln.get("marker-end")]  # one piece
        xs = [float(p.split(",")[0]) for p in line.get("points").split()]
        assert max(abs(a - b) for a, b in itertools.pairwise(xs)) < 1000  # not 3,000 pixels back across the board
        assert all(x0 <= x <= x0 + width for x in xs)


def test_a_mobilization_shows_its_placements_and_a_purchase_says_what_was_bought(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/g1-mobilize.yaml")
    placed = {(g.get("data-space"), g.get("data-type")): g.get("data-count") for g in _by_class(root, "placement")}
    assert placed == {("Germany", "infantry"): "3", ("5 Sea Zone", "carrier"): "1"}
    assert ["".join(t.itertext()) for t in _by_class(root, "placement")[0].iter(f"{SVG}text")] == ["+3", "inf"]
    root = _svg(run_main, "examples/aa/orders/g1-purchase.yaml")
    banner = ["".join(t.itertext()) for t in root.find(f".//{SVG}g[@id='banner']").iter(f"{SVG}text")]
    assert banner[0] == "Germans bought: 3 inf, 1 cv (23 IPCs)"
    assert any("nothing on the board" in line for line in banner)


def test_the_legend_names_every_mark(run_main) -> None:
    root = _svg(run_main, "examples/aa/orders/g1-combat.yaml")
    legend = " ".join("".join(t.itertext()) for t in root.find(f"{SVG}g[@id='legend']").iter(f"{SVG}text"))
    for word in ("move", "attack", "amphibious assault", "blitz", "bombing raid", "illegal order", "battle",
                 "taken or liberated", "capital", "victory city", "factory", "impassable", "neutral", "sea zone",
                 "Germans", "+N"):
        assert word in legend


def _png_size(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the decompressed pixel rows of a PNG (its chunks read with struct, the rows with zlib)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height = struct.unpack(">II", header[:8])
    return width, height, zlib.decompress(idat)


def test_render_writes_a_png_of_the_width_asked(run_main, tmp_path: Path) -> None:
    pytest.importorskip("resvg_py")
    out = tmp_path / "turn.png"
    code, _out, err = run_main(["render", "examples/aa/orders/g1-combat.yaml", "-o", str(out), "--width", "900"],
                               cwd=REPO)
    assert code == 0, err
    width, height, rows = _png_size(out.read_bytes())
    assert width == 900 and 600 < height < 1200
    channels = (len(rows) // height - 1) // width
    assert len(rows) == height * (1 + width * channels) and channels in (3, 4)
    assert len(set(rows[::997])) > 10  # a picture, not a blank page


def test_a_png_without_the_extra_is_one_clear_line(run_main, monkeypatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)  # the extra not installed
    code, _out, err = run_main(["render", "examples/aa/orders/g1-combat.yaml", "-o", str(tmp_path / "t.png")],
                               cwd=REPO)
    assert code == 2 and "movecheck[png]" in err and "Traceback" not in err
    assert not (tmp_path / "t.png").exists()


def test_around_takes_all_or_a_margin(run_main) -> None:
    for good in ("all", "0", "400"):
        assert run_main(["render", "examples/aa/orders/g1-combat.yaml", "--around", good], cwd=REPO)[0] == 0
    code, _out, err = run_main(["render", "examples/aa/orders/g1-combat.yaml", "--around", "Germany"], cwd=REPO)
    assert code == 2 and "--around takes 'all' or a margin" in err and len(err.strip().splitlines()) == 1


def test_board_files_are_read_as_untrusted_text() -> None:
    from movecheck.aa.picture.board_files import read_colours, read_places, read_polygons, simplified

    shapes = read_polygons("A  <  (0,0) (10,0) (10,10) (0,10) >  <  (20,20) (30,20) (25,30) > \n"
                           "B  <  (0,0) (99999999,0) (1,1) >\nC  < (1,1) (2,2) >\nNowhere  <  (0,0) (1,0) (1,1) >\n"
                           "A  <  (5,5) (6,5) (6,6) >\n\x1b[2J junk\n", {"A", "B", "C"})
    assert shapes == {"A": [[(0, 0), (10, 0), (10, 10), (0, 10)], [(20, 20), (30, 20), (25, 30)]]}
    assert read_places("A  (1,2)  (3,4) | overflowToLeft=true\nB (x,y)\n", {"A", "B"}) == {"A": [(1, 2), (3, 4)]}
    assert read_colours("color.Germans=5A5A5A\ncolor.Bad=zzzzzz\n# color.X=000000\n") == {"Germans": "#5a5a5a"}
    circle = [(round(100 + 50 * __import__("math").cos(k / 100)), round(100 + 50 * __import__("math").sin(k / 100)))
              for k in range(628)]
    kept = simplified(circle)
    assert 10 < len(kept) < 100 and all(p in circle for p in kept)


def test_the_built_in_layouts_carry_the_board() -> None:
    assert len(LAYOUT["shapes"]) == 161 and len(LAYOUT["places"]) == 161 and len(LAYOUT["impassable"]) == 16
    points = sum(len(piece) // 2 for pieces in LAYOUT["shapes"].values() for piece in pieces)
    assert 5000 < points < 12000  # TripleA's 48,209 points, simplified to 2 pixels
    assert (REPO / "movecheck/aa/maps/aa1942-2e.layout.json").stat().st_size < 160_000


def _import_small(run_main, tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    from .test_aa_picture import SMALL
    from .triplea_writer import game_xml

    folder = tmp_path / "mapfolder" / "map"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    game = tmp_path / "game.xml"
    game.write_text(game_xml(SMALL), encoding="utf-8")
    code, _out, err = run_main(["import", "triplea", str(game), "-o", str(tmp_path / "small.yaml"),
                                "--map-folder", str(tmp_path / "mapfolder")])
    assert code == 0, err
    (tmp_path / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: small.yaml\nturn: {round: 1, power: Reds, phase: combat_move}\n",
        encoding="utf-8")
    return tmp_path, err


SMALL_BOARD = {
    "centers.txt": "Redland  (100,200)\nIsthmus  (300,250)\n1 Sea Zone  (200,400)\nBlue<land> & \"Co\"  (500,260)\n",
    "polygons.txt": "1 Sea Zone  <  (0,300) (600,300) (600,500) (0,500) >  \n"
                    "Redland  <  (50,150) (150,150) (150,290) (50,290) >  <  (20,320) (40,320) (30,340) > \n"
                    "Isthmus  <  (150,150) (350,150) (350,290) (150,290) > \n"
                    "Blue<land> & \"Co\"  <  (350,150) (600,150) (600,290) (350,290) > \n"
                    "Nowhere  <  (0,0) (1,0) (1,1) >\n",
    "place.txt": "Redland  (70,170)  (100,170)\n",
    "map.properties": "map.width=600\nmap.height=500\ncolor.Reds=aa2222\ncolor.Blues=2222aa\n",
}


def test_an_imported_map_with_a_board_folder_is_drawn_as_its_board(run_main, tmp_path: Path) -> None:
    where, _err = _import_small(run_main, tmp_path, SMALL_BOARD)
    layout = yaml_data((where / "small.yaml").read_text(encoding="utf-8"))["layout"]
    assert layout["shapes"]["Redland"] == [[50, 150, 150, 150, 150, 290, 50, 290], [20, 320, 40, 320, 30, 340]]
    assert layout["colours"] == {"Blues": "#2222aa", "Reds": "#aa2222"} and "Nowhere" not in layout["shapes"]
    code, out, err = run_main(["render", str(where / "state.yaml")], cwd=where)
    assert code == 0, err
    root = ET.fromstring(out.encode("utf-8"))
    drawn = {g.get("data-space"): (g.get("fill"), len(g.findall(f"{SVG}polygon"))) for g in _by_class(root, "space")}
    assert drawn["Redland"] == ("#aa2222", 2) and drawn["Isthmus"] == ("#2222aa", 1) and len(drawn) == 4
    tanks = next(g for g in _by_class(root, "units") if g.get("data-space") == "Redland")
    assert tanks.get("data-count") == "2" and tanks.find(f"{SVG}rect").get("x") == "71"  # at its first unit place


def test_a_board_folder_missing_a_shape_keeps_the_diagram(run_main, tmp_path: Path) -> None:
    files = dict(SMALL_BOARD, **{"polygons.txt": SMALL_BOARD["polygons.txt"].replace("Isthmus  <", "Isth  <")})
    where, err = _import_small(run_main, tmp_path, files)
    assert "1 spaces have no polygon" in err and "'Isthmus'" in err
    assert "shapes" not in yaml_data((where / "small.yaml").read_text(encoding="utf-8"))["layout"]
    code, out, _err = run_main(["render", str(where / "state.yaml")], cwd=where)
    root = ET.fromstring(out.encode("utf-8"))
    assert code == 0 and all(g.find(f"{SVG}circle") is not None for g in _by_class(root, "space"))


def test_summary_names_the_picture_to_attach(run_main) -> None:
    from movecheck.schema import validate_data

    code, out, err = run_main(["summary", "examples/aa/orders/g1-combat.yaml", "--picture", "/home/ref/r1/g1.png"],
                              cwd=REPO)
    assert code == 0, err
    assert out.endswith("### Picture\n\nthe picture of this turn is attached: g1.png\n")
    assert "/home/ref" not in out  # the referee's folders stay out of the post
    _code, out, _err = run_main(["summary", "examples/aa/orders/g1-combat.yaml", "--picture", "g1.png",
                                 "--format", "json"], cwd=REPO)
    data = json.loads(out)
    assert data["sections"][-1]["kind"] == "picture" and data["sections"][-1]["facts"] == {"file": "g1.png"}
    assert validate_data("summary", data) == []


def test_a_png_goes_to_a_pipe_but_never_to_a_terminal(run_main, monkeypatch) -> None:
    import subprocess
    import sys

    pytest.importorskip("resvg_py")
    done = subprocess.run([sys.executable, "-m", "movecheck", "render", "examples/aa/orders/g1-mobilize.yaml",
                           "--format", "png", "--width", "300"], cwd=REPO, capture_output=True, timeout=300)
    assert done.returncode == 0 and _png_size(done.stdout)[0] == 300
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, _out, err = run_main(["render", "examples/aa/orders/g1-mobilize.yaml", "--format", "png"], cwd=REPO)
    assert code == 2 and "not written to a terminal" in err


def test_the_png_extra_is_resvg_alone_and_the_tests_have_it() -> None:
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert extras["png"] == ["resvg-py>=0.5,<0.6"] and "resvg-py>=0.5,<0.6" in extras["test"]
