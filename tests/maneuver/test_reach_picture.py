"""``movecheck render STATE --reach ID``: the reach drawn, read back from the SVG (issue #29)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from movecheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
NS = {"s": "http://www.w3.org/2000/svg"}


def _render(tmp_path: Path, capsys, *args: str) -> ET.Element:
    out = tmp_path / "r.svg"
    assert main(["render", "examples/maneuver/battlefield.yaml", *args, "-o", str(out), "--isolated"]) == 0
    capsys.readouterr()
    return ET.fromstring(out.read_text(encoding="utf-8"))


def test_a_base_reach_is_shaded_by_its_odds(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    svg = _render(tmp_path, capsys, "--reach", "r1")
    shades = svg.findall(".//s:path[@data-role='reach']", NS)
    assert {p.get("data-base") for p in shades} == {"r1"}
    assert sorted({p.get("data-probability") for p in shades}) == ["1", "1/2", "1/3", "1/6", "2/3", "5/6"]
    assert svg.findall(".//s:path[@data-role='reach-limit']", NS)
    odds = [t.text for t in svg.findall(".//s:text[@data-role='reach-odds']", NS)]
    assert "17%" in odds and "100%" in odds
    legend = " ".join(t.text or "" for t in svg.findall(".//s:g[@id='legend']/s:text", NS))
    assert "chance to get that far" in legend and "limit of reach" in legend


def test_a_corps_reach_puts_a_dot_at_each_end_of_each_outcome(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    svg = _render(tmp_path, capsys, "--reach", "red-2")
    groups = svg.findall(".//s:g[@data-role='reach-ends']", NS)
    assert {g.get("data-corps") for g in groups} == {"red-2"}
    ahead = next(g for g in groups if g.get("data-order") == "All ahead")
    # the left file (r3, r5) has three outcomes over the plough's D1, the right file (r4, r6) one
    assert len(ahead.findall("s:circle", NS)) == 3 * 2 + 2
    assert not svg.findall(".//s:path[@data-role='reach']", NS)


def test_reach_is_drawn_on_states_only(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = main(["render", "examples/maneuver/corps-orders.yaml", "--reach", "r1", "-o", str(tmp_path / "x.svg"),
                 "--isolated"])
    assert code == 2 and "--reach draws on a battlefield state" in capsys.readouterr().err
    code = main(["render", "examples/maneuver/battlefield.yaml", "--reach", "zz", "-o", str(tmp_path / "y.svg"),
                 "--isolated"])
    assert code == 2 and "neither a base nor a corps" in capsys.readouterr().err


def test_the_picture_with_reach_is_deterministic(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    texts = []
    for n in range(2):
        out = tmp_path / f"{n}.svg"
        assert main(["render", "examples/maneuver/battlefield.yaml", "--reach", "r14", "--reach", "red-1",
                     "-o", str(out), "--isolated"]) == 0
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]
