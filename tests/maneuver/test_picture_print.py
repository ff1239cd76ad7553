"""Pictures a club can print (issue #29): read back from the SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

from movecheck.cli import main
from movecheck.core import check
from movecheck.maneuver.svg_layout import text_box
from movecheck.settings import Settings
from tests.harness import yaml_data
from tests.maneuver.helpers import dump

ROOT = Path(__file__).resolve().parents[2]
NS = {"s": "http://www.w3.org/2000/svg"}
S = "{http://www.w3.org/2000/svg}"


def _svg(tmp_path: Path, capsys, monkeypatch, source: str, *extra: str) -> ET.Element:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "p.svg"
    assert main(["render", source, "-o", str(out), "--isolated", *extra]) == 0
    capsys.readouterr()
    return ET.fromstring(out.read_text(encoding="utf-8"))


def _texts(svg: ET.Element, role: str) -> list[ET.Element]:
    return svg.findall(f".//s:text[@data-role='{role}']", NS)


def _box(t: ET.Element) -> tuple[float, float, float, float]:
    at = (float(t.get("x")), -float(t.get("y")))
    size = float(t.get("font-size"))
    return text_box(at, t.text or "", size, t.get("text-anchor", "start"))


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box, p, q) -> bool:
    from movecheck.maneuver.svg_layout import _crosses as crosses

    return crosses(box, p, q)


def test_terrain_is_labelled_by_its_name_else_its_id_and_the_title_is_the_file_names(tmp_path, capsys,
                                                                                      monkeypatch):
    svg = _svg(tmp_path, capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    labels = {t.get("data-terrain"): t.text for t in _texts(svg, "terrain-label")}
    state = yaml_data((ROOT / "examples/maneuver/battlefield.yaml").read_text(encoding="utf-8"))
    assert labels == {t["id"]: t.get("name", t["id"]) for t in state["terrain"]}
    assert labels["brook"] == "Shallow brook" and labels["wood1"] == "Birch wood" and labels["lake"] == "lake"
    assert svg.find("s:title", NS).text == ("examples/maneuver/corps-orders.yaml: orders of red on "
                                           "examples/maneuver/battlefield.yaml")


def test_the_title_names_the_battle_when_the_battlefield_has_a_name(tmp_path, capsys, monkeypatch):
    text = (ROOT / "examples/maneuver/battlefield.yaml").read_text(encoding="utf-8")
    named = tmp_path / "named.yaml"
    named.write_text(text.replace("system: maneuver\n", "system: maneuver\nname: Battle of the Birch Wood\n", 1),
                     encoding="utf-8")
    svg = _svg(tmp_path, capsys, monkeypatch, str(named))
    assert svg.find("s:title", NS).text.startswith("Battle of the Birch Wood - ")
    orders = tmp_path / "orders.yaml"
    orders.write_text((ROOT / "examples/maneuver/corps-orders.yaml").read_text(encoding="utf-8").replace(
        "state: battlefield.yaml", "state: named.yaml"), encoding="utf-8")
    svg = _svg(tmp_path, capsys, monkeypatch, str(orders))
    assert svg.find("s:title", NS).text == f"Battle of the Birch Wood - {orders}: orders of red on {named}"


def test_paths_start_at_base_centres_and_cross_no_base_label(tmp_path, capsys, monkeypatch):
    svg = _svg(tmp_path, capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    starts = {p.get("data-base"): p for p in svg.findall(".//s:polygon[@data-role='base']", NS)}
    paths = []
    for group in svg.findall(".//s:g[@id='orders']/s:g", NS):
        line = group.find("s:polyline", NS)
        pts = [tuple(float(v) for v in pair.split(",")) for pair in line.get("points").split()]
        pts = [(x, -y) for x, y in pts]
        start = starts[group.get("data-base")].get("points")
        corners = [tuple(float(v) for v in pair.split(",")) for pair in start.split()]
        centre = (sum(x for x, _ in corners) / 4, -sum(y for _, y in corners) / 4)
        assert abs(pts[0][0] - centre[0]) < 1e-3 and abs(pts[0][1] - centre[1]) < 1e-3
        paths.append(pts)
    base_labels = _texts(svg, "base-label")
    assert len(base_labels) == len(starts)
    for label in base_labels:
        box = _box(label)
        for pts in paths:
            assert not any(_crosses(box, p, q) for p, q in itertools.pairwise(pts)), label.text
    for order in _texts(svg, "order-label"):
        assert not any(_meet(_box(order), _box(b)) for b in base_labels), order.text


def test_findings_are_printed_whole_and_wrapped(tmp_path, capsys, monkeypatch):
    source = "examples/maneuver/corps-orders-mv202.yaml"
    svg = _svg(tmp_path, capsys, monkeypatch, source)
    monkeypatch.chdir(ROOT)
    report, _ = check([source], Settings())
    lines = ["".join(span.text or "" for span in t.findall("s:tspan", NS))
             for t in svg.findall(".//s:g[@id='notes']/s:text[@data-code]", NS)]
    joined = [" ".join(span.text or "" for span in t.findall("s:tspan", NS))
              for t in svg.findall(".//s:g[@id='notes']/s:text[@data-code]", NS)]
    assert len(lines) == len(report.findings) and all("…" not in line for line in lines)
    assert any(len(t.findall("s:tspan", NS)) > 1 for t in svg.findall(".//s:g[@id='notes']/s:text", NS))
    for finding in report.findings:
        assert any(finding.message in text for text in joined), finding.message


def test_declared_rolls_and_their_allowance_are_shown_at_the_base(tmp_path, capsys, monkeypatch):
    svg = _svg(tmp_path, capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    rolls = {t.get("data-base"): t.text for t in _texts(svg, "rolls")}
    assert rolls["r1"] == "brook D1 4 → 6" and rolls["r2"] == "brook D1 2 → 8"
    assert rolls["r14"] == "wood1 D3 7 → 4"
    assert "r5" not in rolls  # a follower owes no roll


def test_terrain_landmarks_are_marked_and_landmark_orders_show_their_target(tmp_path, capsys, monkeypatch):
    svg = _svg(tmp_path, capsys, monkeypatch, "examples/maneuver/corps-orders.yaml")
    marks = {p.get("data-landmark"): p.get("data-kind") for p in svg.findall(".//s:polygon[@data-landmark]", NS)}
    assert marks == {"birches": "terrain", "blue-line": "corps"}
    assert "landmark birches" in [t.text for t in _texts(svg, "landmark-label")]
    targets = {g.get("data-landmark"): g for g in svg.findall(".//s:g[@data-role='target']", NS)}
    assert set(targets) == {"shrine", "birches", "blue-line"}
    end = targets["shrine"].find("s:circle", NS)
    assert (float(end.get("cx")), -float(end.get("cy"))) == (120, 130)


def test_a_warning_about_one_side_is_printed_under_that_side(tmp_path, capsys, monkeypatch):
    state = yaml_data((ROOT / "examples/maneuver/battlefield.yaml").read_text(encoding="utf-8"))
    state["sides"]["red"][0]["bases"][1]["x"] = 60  # red-1 in two groups: MV602
    (tmp_path / "state.yaml").write_text(dump(state), encoding="utf-8")
    blue = {"movecheck": 1, "system": "maneuver", "state": "state.yaml", "side": "blue",
            "orders": [{"id": "b", "corps": "blue-3", "order": "all_back", "end": {"b7": {"x": 200, "y": 115}}}]}
    (tmp_path / "blue.yaml").write_text(dump(blue), encoding="utf-8")
    svg = _svg(tmp_path, capsys, monkeypatch, str(tmp_path / "blue.yaml"))
    notes = list(svg.find(".//s:g[@id='notes']", NS))
    warning = next(t for t in notes if t.get("data-code") == "MV602")
    assert warning.get("data-side") == "red"
    heading = notes[notes.index(warning) - 1]
    assert heading.get("data-side") == "red" and heading.text == "side red"


def test_the_legend_names_terrain_kinds_in_russian(tmp_path, capsys, monkeypatch):
    svg = _svg(tmp_path, capsys, monkeypatch, "examples/maneuver/battlefield.yaml", "--lang", "ru")
    legend = [t.text for t in svg.findall(".//s:g[@id='legend']/s:text", NS)]
    assert "ручей" in legend and "лес" in legend and "stream" not in legend
