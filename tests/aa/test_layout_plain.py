"""Issue 35: ``render`` of an aa map without a layout on a plain install (no numpy, scipy or networkx).

The computed layout (:func:`movecheck.aa.picture.layout.computed`) is pure Python: rings around the
best-connected space, then a bounded number of rounds of a spring layout.  The missing
packages are simulated as tests/test_extras.py does: a ``sitecustomize`` on ``PYTHONPATH``
sets ``sys.modules[name] = None`` in the child process.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from xml.etree import ElementTree

import pytest

from movecheck.aa.picture.layout import computed

ROOT = Path(__file__).resolve().parents[2]
HIDDEN = ("numpy", "scipy", "networkx")


def _grid_map(side: int) -> str:
    """A map of ``side`` x ``side`` land territories in a grid (no layout), Reds and Blues in two corners."""
    names = [f"T{row}-{col}" for row in range(side) for col in range(side)]
    lines = ["movecheck: 1", "system: aa", "kind: map", "name: grid", "powers: [Reds, Blues]",
             "sides: {East: [Reds], West: [Blues]}", "ipcs: {Reds: 12, Blues: 12}", "territories:"]
    lines += [f"  - {{name: {name}, production: 1}}" for name in names]
    lines.append("connections:")
    for row in range(side):
        for col in range(side):
            if col + 1 < side:
                lines.append(f"  - [T{row}-{col}, T{row}-{col + 1}]")
            if row + 1 < side:
                lines.append(f"  - [T{row}-{col}, T{row + 1}-{col}]")
    last = f"T{side - 1}-{side - 1}"
    lines += [f"control: {{T0-0: Reds, {last}: Blues}}", "units:",
              "  - {at: T0-0, power: Reds, type: infantry, count: 2}",
              f"  - {{at: {last}, power: Blues, type: infantry, count: 2}}"]
    return "\n".join(lines) + "\n"


STATE = """movecheck: 1
system: aa
map: map.yaml
turn: {round: 1, power: Reds, phase: combat_move}
ipcs: {Reds: 12, Blues: 12}
units:
- {at: T0-0, power: Reds, type: infantry, count: 2}
- {at: LAST, power: Blues, type: infantry, count: 2}
"""


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a child process in which numpy, scipy and networkx cannot be imported."""
    folder = tmp_path_factory.mktemp("plain-install")
    hide = "".join(f"sys.modules[{name!r}] = None\n" for name in HIDDEN)
    (folder / "sitecustomize.py").write_text("import sys\n" + hide, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)]), "MOVECHECK_LANG": "en"}


def test_the_simulation_hides_the_packages(plain: dict[str, str]) -> None:
    probe = "import importlib.util as u; print([u.find_spec(n) is None for n in ('numpy', 'scipy', 'networkx')])"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=plain, timeout=60)
    assert result.stdout == "[True, True, True]\n", result.stderr


@pytest.mark.parametrize("side", [3, 23], ids=["9-spaces", "529-spaces"])  # 500 spaces and more took scipy
def test_render_without_numpy_scipy_or_networkx(plain: dict[str, str], tmp_path: Path, side: int) -> None:
    (tmp_path / "map.yaml").write_text(_grid_map(side), encoding="utf-8")
    (tmp_path / "state.yaml").write_text(STATE.replace("LAST", f"T{side - 1}-{side - 1}"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "movecheck", "render", "state.yaml"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300, env=plain)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    root = ElementTree.fromstring(result.stdout.encode("utf-8"))
    spaces = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "space"]
    assert len(spaces) == side * side
    assert "computed from the connections" in result.stdout


def _grid(side: int) -> tuple[list[str], dict[str, dict[str, None]]]:
    names = [f"{row},{col}" for row in range(side) for col in range(side)]
    links: dict[str, dict[str, None]] = {name: {} for name in names}
    for row in range(side):
        for col in range(side):
            if col + 1 < side:
                links[f"{row},{col}"][f"{row},{col + 1}"] = None
            if row + 1 < side:
                links[f"{row},{col}"][f"{row + 1},{col}"] = None
    return names, links


def test_the_computed_layout_is_the_same_every_time_and_fills_the_board() -> None:
    names, links = _grid(8)
    first = computed(names, links)
    assert first.centers == computed(list(names), {k: dict(v) for k, v in links.items()}).centers
    assert first.computed and set(first.centers) == set(names)
    assert len(set(first.centers.values())) == len(names)  # no two spaces on one spot
    xs = [x for x, _y in first.centers.values()]
    ys = [y for _x, y in first.centers.values()]
    assert (min(xs), max(xs), min(ys), max(ys)) == (100.0, first.width - 100, 100.0, first.height - 100)


def test_neighbours_are_drawn_closer_than_other_spaces() -> None:
    names, links = _grid(8)
    centers = computed(names, links).centers

    def far(a: str, b: str) -> float:
        return math.dist(centers[a], centers[b])

    edges = [far(a, b) for a in names for b in links[a]]
    pairs = [far(a, b) for k, a in enumerate(names) for b in names[k + 1:]]
    assert sum(edges) / len(edges) < 0.5 * sum(pairs) / len(pairs)


def test_separate_parts_and_lone_spaces_are_all_placed() -> None:
    names = ["A", "B", "C", "Lone", "D", "E"]
    links: dict[str, dict[str, None]] = {"A": {"B": None}, "B": {"C": None}, "D": {"E": None}}
    centers = computed(names, links).centers
    assert set(centers) == set(names) and len(set(centers.values())) == len(names)


def test_a_large_map_costs_bounded_work() -> None:
    import time

    names, links = _grid(45)  # 2,025 spaces: no spring round fits the budget, the rings alone
    started = time.process_time()
    layout = computed(names, links)
    assert len(layout.centers) == len(names)
    assert time.process_time() - started < 30  # a hang guard, not a benchmark


def test_nothing_in_the_package_needs_networkx() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0].lower() for r in project["dependencies"]}
    assert not required & {"networkx", "numpy", "scipy"}
    users = [path.relative_to(ROOT).as_posix() for path in (ROOT / "movecheck").rglob("*.py")
             if re.search(r"^\s*(import|from) networkx", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert users == []
