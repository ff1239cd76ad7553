"""``movecheck render``: SVG pictures of maneuver states and orders.

The pictures are well-formed, byte-identical from run to run and snapshotted for
the examples; the rectangles read back out of them are the engine's; hostile
names are escaped; bad input is a finding or one stderr line and exit 2.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from movecheck.core import check
from movecheck.maneuver.geometry import base_corners
from movecheck.maneuver.svg import nice_length
from movecheck.pictures import picture
from movecheck.render.svgkit import num
from movecheck.settings import Settings
from tests.maneuver.helpers import base, corps, corps_order, dump, free, orders, rect_terrain, state

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.relative_to(ROOT) for p in (ROOT / "examples" / "maneuver").glob("*.yaml"))
NS = {"svg": "http://www.w3.org/2000/svg"}
ROUNDING = 0.0005 + 1e-9
"""Three decimals: a corner read back from the SVG is within this of the engine's."""


def render_at_root(path: str | Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The picture of a file named relative to the repository root (titles name that path)."""
    monkeypatch.chdir(ROOT)
    return picture(str(path), Settings(root=str(ROOT)))


def parse(svg: str) -> ET.Element:
    """The SVG's root element (the test fails when it is not well-formed XML)."""
    return ET.fromstring(svg.encode("utf-8"))


def corners_of(element: ET.Element) -> list[tuple[float, float]]:
    """A polygon's points as battlefield points (the SVG negates y)."""
    found = []
    for pair in element.get("points", "").split():
        x, y = pair.split(",")
        found.append((float(x), -float(y)))
    return found


def rects(root: ET.Element, role: str) -> dict[tuple[str | None, str], list[tuple[float, float]]]:
    """The polygons of one role, by (order, base)."""
    return {(p.get("data-order"), p.get("data-base")): corners_of(p)
            for p in root.iterfind(".//svg:polygon", NS) if p.get("data-role") == role}


def close(a: list[tuple[float, float]], b: list[tuple[float, float]], within: float = ROUNDING) -> bool:
    """Two lists of corners that agree point by point."""
    return len(a) == len(b) and all(math.dist(p, q) <= within for p, q in zip(a, b, strict=True))


def renderable(path: Path) -> bool:
    """The examples the rules can run on (the MC006 example names a side the state lacks)."""
    return "mc006" not in path.name


@pytest.mark.parametrize("path", [p for p in EXAMPLES if renderable(p)], ids=lambda p: p.name)
def test_example_pictures_are_well_formed_and_snapshotted(path, monkeypatch, snapshot):
    svg = render_at_root(path, monkeypatch)
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg == snapshot


def test_a_picture_is_byte_identical_twice(monkeypatch):
    first = render_at_root("examples/maneuver/corps-orders.yaml", monkeypatch)
    assert render_at_root("examples/maneuver/corps-orders.yaml", monkeypatch) == first


def test_the_state_picture_draws_every_base_where_the_battlefield_has_it(monkeypatch):
    from movecheck.core import prepare
    from movecheck.files import read

    monkeypatch.chdir(ROOT)
    loaded = read("examples/maneuver/battlefield.yaml")
    bf = prepare(loaded, Settings()).model
    drawn = rects(parse(render_at_root("examples/maneuver/battlefield.yaml", monkeypatch)), "base")
    assert sorted(b for _, b in drawn) == sorted(bf.bases)
    for (_, bid), corners in drawn.items():
        b = bf.bases[bid]
        assert close(corners, base_corners(b.x, b.y, b.facing, b.width, b.depth)), bid


def engine_ends(path: str) -> tuple[dict[tuple[str, str], list], dict[tuple[str, str], list]]:
    """The engine's own ends of an orders file: (order, base) -> corners where it leaves the base,
    and -> corners of the end the rules require (corps orders)."""
    ends, required = {}, {}

    def observe(order, a):
        if a is None:
            return
        if a.kind == "free":
            b = a.base
            ends[(str(order.index + 1), b.id)] = base_corners(*a.motion.end, a.motion.end_facing, b.width, b.depth)
            return
        for b in a.corps.bases:
            x, y, facing = a.placement[b.id]
            ends[(str(order.index + 1), b.id)] = base_corners(x, y, facing, b.width, b.depth)
            if a.required_ends is not None:
                rx, ry = a.required_ends[b.id]
                required[(str(order.index + 1), b.id)] = base_corners(rx, ry, b.facing, b.width, b.depth)

    check([path], Settings(extra={"observe": observe}))
    return ends, required


@pytest.mark.parametrize("name", ["free-orders.yaml", "corps-orders.yaml", "corps-orders-mv202.yaml",
                                  "free-orders-mv101.yaml"])
def test_the_ends_in_the_picture_are_the_engines(name, monkeypatch):
    path = f"examples/maneuver/{name}"
    root = parse(render_at_root(path, monkeypatch))
    ends, required = engine_ends(path)
    drawn, ghosts = rects(root, "end"), rects(root, "required")
    assert sorted(drawn) == sorted(ends)
    tolerance = 0.1  # the examples' tolerance: a declared end within it is the required one
    for key, corners in drawn.items():
        if key in ghosts:
            assert close(ghosts[key], required[key]), key  # the ghost is exactly the rules' end
        else:
            assert close(corners, ends[key], tolerance + ROUNDING), key
            if key in required:
                assert close(corners, required[key], tolerance + ROUNDING), key


def test_a_short_base_gets_a_ghost_at_its_required_end_and_its_code(monkeypatch):
    root = parse(render_at_root("examples/maneuver/corps-orders-mv202.yaml", monkeypatch))
    ghosts = rects(root, "required")
    assert list(ghosts) == [("1", "r2")]
    codes = [(t.get("data-code"), t.get("data-base")) for t in root.iterfind(".//svg:g[@id='findings']/svg:text", NS)]
    assert codes == [("MV202", "r2")]


def test_a_blocked_move_shows_its_swept_area(monkeypatch):
    root = parse(render_at_root("examples/maneuver/free-orders.yaml", monkeypatch))
    swept = rects(root, "swept")
    assert ("2", "r13") in swept  # round the barn
    assert ("3", "r14") in swept  # into the wood


def write(tmp_path: Path, state_doc, orders_doc=None) -> tuple[Path, Path]:
    """A state (and orders) in tmp_path."""
    (tmp_path / "state.yaml").write_text(state_doc if isinstance(state_doc, str) else dump(state_doc), encoding="utf-8")
    if orders_doc is not None:
        (tmp_path / "orders.yaml").write_text(dump(orders_doc), encoding="utf-8")
    return tmp_path / "state.yaml", tmp_path / "orders.yaml"


HOSTILE = 'a<b&c"d\x1b]e'


def test_hostile_names_are_escaped(tmp_path, run_main):
    doc = state([corps(HOSTILE, base(HOSTILE, 50, 50), base("r2", 54, 50))],
                terrain=[rect_terrain(f"<{HOSTILE}>", "forest", 10, 10, 20, 20)],
                landmarks=[{"id": "&amp;", "point": [5, 5]}])
    state_file, orders_file = write(tmp_path, doc, orders(free(HOSTILE, (50, 80))))
    for target in (state_file, orders_file):
        code, out, err = run_main(["render", str(target)])
        assert code == 0, err
        root = parse(out)
        names = {p.get("data-base") for p in root.iter() if p.get("data-base")}
        assert 'a<b&c"d\\x1b]e' in names  # the control character made visible, the rest as written
        assert "\x1b" not in out and '<b&c"' not in out
    assert {t.get("data-terrain") for t in root.iter() if t.get("data-terrain")} == {'<a<b&c"d\\x1b]e>'}


def test_huge_coordinates_stay_well_formed_and_to_scale(tmp_path, run_main):
    far = 99990.5
    doc = state([corps("red-1", base("r1", far, far, 45))], [corps("blue-1", base("b1", 10, 10, 180))],
                field=(100000, 100000))
    state_file, _ = write(tmp_path, doc)
    code, out, err = run_main(["render", str(state_file)])
    assert code == 0, err
    root = parse(out)
    assert root.get("width") == "1060"
    drawn = rects(root, "base")
    assert close(drawn[(None, "r1")], base_corners(far, far, 45, 4, 2))


def test_output_goes_to_a_file(tmp_path, run_main):
    state_file, _ = write(tmp_path, state([corps("red-1", base("r1", 50, 50))]))
    target = tmp_path / "out.svg"
    code, out, err = run_main(["render", str(state_file), "-o", str(target)])
    assert (code, out, err) == (0, "", "")
    parse(target.read_text(encoding="utf-8"))


def test_an_orders_picture_shows_the_findings(tmp_path, run_main):
    doc = state([corps("red-1", base("r1", 50, 50), base("r2", 54, 50))])
    _, orders_file = write(tmp_path, doc, orders(corps_order("all_ahead", "red-1", {"r1": (50, 55), "r2": (54, 60)})))
    code, out, err = run_main(["render", str(orders_file)])
    assert code == 0, err
    root = parse(out)
    placed = {t.get("data-code") for t in root.iterfind(".//svg:g[@id='findings']/svg:text", NS)}
    listed = {t.get("data-code") for t in root.iterfind(".//svg:g[@id='notes']/svg:text", NS)}
    assert "MV202" in placed and "MV202" in listed
    assert rects(root, "required")  # the ghost of the end All ahead requires


def test_an_aa_file_is_drawn_by_the_aa_picture(run_main):
    code, out, err = run_main(["render", str(ROOT / "examples" / "aa" / "states" / "g1-combat.yaml")])
    assert (code, err) == (0, "")
    assert 'data-space="Germany"' in out  # the aa board (tests/aa/test_aa_picture.py), not a battlefield


def test_a_missing_file_is_one_stderr_line(tmp_path, run_main):
    code, out, err = run_main(["render", str(tmp_path / "nowhere.yaml")])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("movecheck: error:")


def test_standard_input_is_refused(run_main):
    code, out, err = run_main(["render", "-"], stdin="movecheck: 1\n")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1


def test_a_broken_state_prints_its_findings_and_exits_2(tmp_path, run_main):
    state_file, _ = write(tmp_path, "movecheck: 1\nsystem: maneuver\nfield: {width: -3, depth: 10}\nsides: {}\n")
    code, out, err = run_main(["render", str(state_file)])
    assert (code, out) == (2, "")
    assert "MC003" in err and err.rstrip().splitlines()[-1].startswith("movecheck: error: cannot render")
    assert "Traceback" not in err


def test_orders_for_a_side_the_state_lacks_exit_2(monkeypatch, run_main):
    code, out, err = run_main(["render", "examples/maneuver/free-orders-mc006.yaml"], cwd=ROOT)
    assert (code, out) == (2, "")
    assert "MC006" in err and "cannot render" in err


def test_nice_lengths_and_numbers():
    assert [nice_length(t) for t in (48, 0.7, 1000, 0)] == [20, 0.5, 1000, 0]
    assert [num(v) for v in (-0.0001, 2.5, 3.0, 1e5 + 0.25, float("nan"))] == ["0", "2.5", "3", "100000.25", "0"]


@pytest.fixture(scope="module")
def gen_pictures():
    """scripts/gen_pictures.py, its pictures rendered once for the module (``outputs()`` as the script renders
    them): its ``--check`` runs below compare that rendering with the pictures in the folder they are given."""
    from tests.test_editions import load_script

    script = load_script("gen_pictures")
    rendered = {path.name: svg for path, svg in script.outputs().items()}
    script.outputs = lambda: {script.PICTURES / name: svg for name, svg in rendered.items()}
    return script


def test_the_committed_pictures_are_up_to_date(gen_pictures):
    assert gen_pictures.main(["--check"]) == 0


def test_gen_pictures_check_finds_a_stale_picture(gen_pictures, tmp_path, monkeypatch, capsys):
    script = gen_pictures
    stale = tmp_path / "pictures"
    stale.mkdir()
    for name in script.SOURCES:
        (stale / name).write_text("<svg/>", encoding="utf-8")
    monkeypatch.setattr(script, "PICTURES", stale)
    assert script.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err


def test_rendering_an_aa_file_imports_no_shapely():
    import subprocess
    import sys

    script = (
        "import sys; from movecheck.cli import main; code = main(['render', 'examples/aa/states/g1-combat.yaml']); "
        "print(code, 'shapely' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.split()[-2:] == ["0", "False"], done.stderr
