"""The catalogue of hostile input (issue #9): each nasty input and its documented behaviour.

The "Hostile input" section of docs/referee.md lists these entries; each has a test here.  Some
live elsewhere already and are not repeated:

* YAML alias bombs ("billion laughs") -> MC008: ``tests/test_loading.py``
  (``test_alias_bomb_is_mc008_in_process``, ``test_alias_bomb_cli``);
* nesting deeper than the limit -> MC008, never a RecursionError: ``tests/test_loading.py``
  (``test_deep_nesting_*``, ``test_nesting_through_aliases_is_bounded``);
* bytes that are not UTF-8 -> MC001 at the first bad byte: ``tests/test_loading.py``
  (``test_non_utf8_*``).

Bounded time is asserted with a generous subprocess timeout, never a timing assertion.
The two biggest inputs (50 MB of small moves, a map of a million connections) are marked
``slow``: the default run leaves them out; ``python -m pytest -m slow`` runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
AA_ORDERS = REPO / "examples/aa/orders/g1-combat.yaml"
AA_STATE = REPO / "examples/aa/states/g1-combat.yaml"
AA_NCM_ORDERS = REPO / "examples/aa/orders/g1-noncombat.yaml"
AA_NCM_STATE = REPO / "examples/aa/states/g1-noncombat.yaml"
AA201 = REPO / "examples/aa/orders/variants/aa201-stop-in-hostile.yaml"
BATTLEFIELD = REPO / "examples/maneuver/battlefield.yaml"
CORPS_ORDERS = REPO / "examples/maneuver/corps-orders.yaml"
FREE_ORDERS = REPO / "examples/maneuver/free-orders.yaml"
LONG_TIMEOUT = 600  # seconds: a hang guard for the biggest inputs, not a timing assertion

needs_maneuver = pytest.mark.skipif(
    not all(p.is_file() for p in (BATTLEFIELD, CORPS_ORDERS, FREE_ORDERS)), reason="maneuver examples not there"
)


# -- helpers ---------------------------------------------------------------------


def retarget(text: str, state: str = "state.yaml") -> str:
    """An orders text whose ``state:`` line names ``state``."""
    return "".join(
        f"state: {state}\n" if line.startswith("state:") else line for line in text.splitlines(keepends=True)
    )


def aa_pair(folder: Path, orders_text: str | bytes | None = None, state_text: str | bytes | None = None) -> Path:
    """The German combat move (or the given texts) as ``orders.yaml`` + ``state.yaml`` in ``folder``."""
    orders = orders_text if orders_text is not None else retarget(AA_ORDERS.read_text(encoding="utf-8"))
    state = state_text if state_text is not None else AA_STATE.read_text(encoding="utf-8")
    for name, text in (("orders.yaml", orders), ("state.yaml", state)):
        (folder / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return folder / "orders.yaml"


def findings(out: str) -> list[dict[str, Any]]:
    return json.loads(out)["findings"]


def codes(out: str) -> list[str]:
    return [f["code"] for f in findings(out)]


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, f"expected one line on stderr, got {err!r}"
    return err.strip()


def run_long(
    args: Sequence[str],
    cwd: Path,
    validate: Callable[[Any], Any],
    env: Mapping[str, str] | None = None,
    timeout: float = LONG_TIMEOUT,
) -> tuple[int, str, str, float]:
    """``python -m movecheck ARGS`` with a long timeout; (code, stdout, stderr, seconds taken)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
    full_env["PYTHONIOENCODING"] = "utf-8"
    full_env.update(env or {})
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "movecheck", *map(str, args)],
        capture_output=True,
        cwd=cwd,
        env=full_env,
        timeout=timeout,
    )
    took = time.monotonic() - start
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    assert proc.returncode in (0, 1, 2), err
    assert "Traceback" not in err, err
    if "json" in args and proc.returncode in (0, 1):
        validate(json.loads(out))
    return proc.returncode, out, err, took


# -- size ------------------------------------------------------------------------

FIFTY_MB = 50 * 1000 * 1000


@pytest.mark.slow  # writes and reads a 50 MB file in a fresh process, as the two 50 MB tests below
def test_50mb_comment_loads(tmp_path: Path, report_validator) -> None:
    """A 50 MB file (under the 64 MiB limit) that is mostly a comment reads normally."""
    head = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    pad = "# " + "x" * 998 + "\n"
    aa_pair(tmp_path, head + pad * ((FIFTY_MB - len(head)) // len(pad) + 1))
    assert (tmp_path / "orders.yaml").stat().st_size >= FIFTY_MB
    code, out, err, _ = run_long(["check", "orders.yaml", "--format", "json"], tmp_path, report_validator)
    assert (code, err) == (0, "")
    assert json.loads(out)["summary"]["orders"] == 17


@pytest.mark.slow
def test_50mb_of_orders_with_long_notes(tmp_path: Path, report_validator) -> None:
    """50 MB of orders (10,000 moves with 5 kB notes) are all checked: one result per order."""
    head = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    move = "  - units: {tank: 1}\n    path: [Germany, Poland]\n    note: " + "n" * 4900 + "\n"
    count = (FIFTY_MB - len(head)) // len(move) + 1
    aa_pair(tmp_path, head + move * count)
    code, out, err, _ = run_long(["check", "orders.yaml", "--format", "json"], tmp_path, report_validator)
    assert code == 1, err
    report = json.loads(out)
    assert report["summary"]["orders"] == 17 + count
    assert report["summary"]["illegal_orders"] == count  # Germany -> Poland is no combat move (AA203)


@pytest.mark.slow
def test_50mb_of_small_orders_is_mc008(tmp_path: Path, report_validator) -> None:
    """50 MB of tiny moves expand past the 2,000,000-node limit: MC008, in bounded time."""
    head = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    move = "  - {units: {tank: 1}, path: [Germany, Poland]}\n"
    aa_pair(tmp_path, head + move * ((FIFTY_MB - len(head)) // len(move) + 1))
    code, out, err, took = run_long(["check", "orders.yaml", "--format", "json"], tmp_path, report_validator)
    print(f"50 MB of small moves: MC008 after {took:.1f} s")
    assert code == 1, err
    assert codes(out) == ["MC008"]
    assert "MOVECHECK_MAX_NODES" in findings(out)[0]["message"]


def test_max_bytes_from_the_environment(tmp_path: Path, report_validator) -> None:
    """MOVECHECK_MAX_BYTES set small: a bigger file is MC008 -- the orders, or the state they name."""
    aa_pair(tmp_path)
    orders_size = (tmp_path / "orders.yaml").stat().st_size
    state_size = (tmp_path / "state.yaml").stat().st_size
    assert orders_size < state_size
    env = {"MOVECHECK_MAX_BYTES": str(orders_size + 10)}
    code, out, err, _ = run_long(["check", "orders.yaml", "--format", "json"], tmp_path, report_validator, env=env)
    assert code == 1, err
    [finding] = findings(out)
    assert (finding["code"], finding["file"]) == ("MC008", "state.yaml")
    assert "MOVECHECK_MAX_BYTES" in finding["message"]
    env = {"MOVECHECK_MAX_BYTES": "100"}
    code, out, err, _ = run_long(["lint", "orders.yaml", "--format", "json"], tmp_path, report_validator, env=env)
    assert code == 1, err
    assert [(f["code"], f["file"], f["line"]) for f in findings(out)] == [("MC008", "orders.yaml", 1)]


# -- bytes and text --------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
        b"\x00\x01\x02\x03" * 64,
        bytes(range(256)),
        b"\x7fELF\x02\x01\x01",
    ],
    ids=["png", "nul-bytes", "all-bytes", "elf"],
)
@pytest.mark.parametrize("command", ["check", "lint"])
def test_binary_file_is_mc001(run_main, tmp_path: Path, raw: bytes, command: str) -> None:
    """A binary file is MC001 (not UTF-8 text / a control character) at its first bad byte.

    It does not say it is a movecheck file, so the finding quotes none of it (not even
    the byte); behind a ``system: aa`` line the reader's own words say which byte it is.
    """
    (tmp_path / "orders.yaml").write_bytes(raw)
    code, out, err = run_main([command, tmp_path / "orders.yaml", "--format", "json"])
    assert (code, err) == (1, "")
    [finding] = findings(out)
    assert finding["code"] == "MC001"
    assert finding["message"].startswith(
        "YAML syntax: the file does not parse, and it does not say it is a movecheck file"
    )
    assert finding["line"] >= 1 and finding["column"] >= 1
    (tmp_path / "orders.yaml").write_bytes(b"system: aa\n" + raw)
    code, out, err = run_main([command, tmp_path / "orders.yaml", "--format", "json"])
    [finding] = findings(out)
    assert finding["code"] == "MC001" and "unacceptable character" in finding["message"]
    assert finding["line"] >= 2 and finding["column"] >= 1


def test_bom_reads_as_if_absent(run_main, tmp_path: Path) -> None:
    """A UTF-8 byte-order mark on the orders and on the state changes nothing, positions included."""
    plain = tmp_path / "plain"
    bom = tmp_path / "bom"
    for folder in (plain, bom):
        folder.mkdir()
    orders = retarget(AA201.read_text(encoding="utf-8"))
    state = AA_STATE.read_text(encoding="utf-8")
    aa_pair(plain, orders, state)
    aa_pair(bom, b"\xef\xbb\xbf" + orders.encode(), b"\xef\xbb\xbf" + state.encode())
    results = [run_main(["check", "orders.yaml", "--format", "json"], cwd=folder) for folder in (plain, bom)]
    assert results[0] == results[1]
    assert results[0][0] == 1 and codes(results[0][1]) == ["AA201"]


def test_crlf_gives_the_same_findings_and_positions(run_main, tmp_path: Path) -> None:
    """CRLF line ends (orders and state): the same findings at the same lines and columns."""
    unix, dos = tmp_path / "unix", tmp_path / "dos"
    for folder in (unix, dos):
        folder.mkdir()
    orders = retarget(AA201.read_text(encoding="utf-8"))
    state = AA_STATE.read_text(encoding="utf-8")
    aa_pair(unix, orders, state)
    aa_pair(dos, orders.replace("\n", "\r\n"), state.replace("\n", "\r\n"))
    results = [run_main(["check", "orders.yaml", "--format", "json"], cwd=folder) for folder in (unix, dos)]
    assert results[0] == results[1]
    [finding] = findings(results[0][1])
    assert (finding["code"], finding["line"], finding["column"]) == ("AA201", 40, 28)


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_tab_indentation_is_mc001_at_the_tab(run_main, tmp_path: Path, line_end: str) -> None:
    """YAML forbids tabs for indentation: MC001 at the tab's line and column, saying it is a tab."""
    text = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    lines = text.splitlines()
    target = lines.index("  - id: karelia-baltic")
    lines[target] = "\t- id: karelia-baltic"
    aa_pair(tmp_path, line_end.join(lines) + line_end)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    [finding] = findings(out)
    assert (finding["code"], finding["line"], finding["column"]) == ("MC001", target + 1, 1)
    assert "tab" in finding["message"]


def test_tab_inside_a_line_is_fine(run_main, tmp_path: Path) -> None:
    """A tab as separation inside a line (not indentation) is plain YAML whitespace."""
    text = retarget(AA_ORDERS.read_text(encoding="utf-8")).replace(
        "path: [Finland, Karelia S.S.R.]", "path:\t[Finland, Karelia S.S.R.]"
    )
    aa_pair(tmp_path, text)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err, codes(out)) == (0, "", [])


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "   \n", "# only a comment\n", "---\n", "---\n...\n", "\ufeff"],
    ids=["empty", "blank-lines", "spaces", "comment", "marker", "markers", "bom-only"],
)
@pytest.mark.parametrize("command", ["check", "lint"])
def test_empty_file_is_mc010(run_main, tmp_path: Path, text: str, command: str) -> None:
    """An empty document (nothing, whitespace, comments, bare markers) is MC010 for both commands."""
    (tmp_path / "empty.yaml").write_text(text, encoding="utf-8")
    code, out, err = run_main([command, "empty.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert codes(out) == ["MC010"]
    assert "empty" in findings(out)[0]["message"]


@pytest.mark.parametrize(
    "text",
    [
        "just text\n",
        "42\n",
        "3.5\n",
        "true\n",
        "~\n",
        ".nan\n",
        "- system: aa\n- moves: []\n",
        "[aa, maneuver]\n",
        "'system: aa'\n",
    ],
)
@pytest.mark.parametrize("command", ["check", "lint"])
def test_scalar_or_list_document_is_mc010(run_main, tmp_path: Path, text: str, command: str) -> None:
    """A document that is a scalar or a list is not a movecheck file: MC010 at 1:1."""
    (tmp_path / "doc.yaml").write_text(text, encoding="utf-8")
    code, out, err = run_main([command, "doc.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(f["code"], f["line"], f["column"]) for f in findings(out)] in ([("MC010", 1, 1)], [("MC010", 1, 2)])


def test_multiple_documents_is_mc009_for_check(run_main, tmp_path: Path) -> None:
    """Two documents in an orders file: MC009 at the second ``---``; nothing of it is checked."""
    orders = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    aa_pair(tmp_path, orders + "---\n" + orders)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(f["code"], f["line"]) for f in findings(out)] == [("MC009", orders.count("\n") + 1)]


def test_multiple_documents_in_the_state(run_main, tmp_path: Path) -> None:
    """Two documents in the state an orders file names: MC009 in the state, the rules do not run."""
    state = AA_STATE.read_text(encoding="utf-8")
    aa_pair(tmp_path, state_text=state + "---\n" + state)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(f["code"], f["file"]) for f in findings(out)] == [("MC009", "state.yaml")]


# -- tags ------------------------------------------------------------------------

PYTHON_TAGS = [
    "!!python/object/apply:os.system [{cmd}]",
    "!!python/object/apply:subprocess.check_call [[sh, -c, {cmd}]]",
    "!!python/object/new:subprocess.Popen [[sh, -c, {cmd}]]",
    "!!python/object:__main__.Boom {{x: 1}}",
    "!!python/name:os.system",
    "!<tag:yaml.org,2002:python/object/apply:os.system> [{cmd}]",
]


def _tagged_pair(tmp_path: Path, tag: str, where: str) -> Path:
    marker = tmp_path / "pwned"
    value = tag.format(cmd=f"'touch {marker}'")
    orders = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    state = AA_STATE.read_text(encoding="utf-8")
    if where == "orders":
        orders = orders.replace("power: Germans", f"power: Germans\nnote: {value}", 1)
    else:
        state = state.replace("rules: aa1942", f"rules: {value}", 1)
    aa_pair(tmp_path, orders, state)
    return marker


@pytest.mark.parametrize("tag", PYTHON_TAGS)
@pytest.mark.parametrize("where", ["orders", "state"])
def test_python_tags_are_refused_never_constructed(run_main, tmp_path: Path, tag: str, where: str) -> None:
    """``!!python/...`` tags in the orders or in the state they name: MC001, and nothing runs
    (in this process: a constructed object would run its command right here)."""
    marker = _tagged_pair(tmp_path, tag, where)
    for command in ("check", "lint"):
        target = "orders.yaml" if command == "check" else f"{where}.yaml"
        code, out, err = run_main([command, target, "--format", "json"], cwd=tmp_path)
        assert (code, err) == (1, "")
        [finding] = findings(out)
        assert (finding["code"], finding["file"]) == ("MC001", f"{where}.yaml")
        assert "not allowed" in finding["message"]
    assert not marker.exists()


def test_python_tag_through_the_real_command(run_cli, tmp_path: Path) -> None:
    """The same through ``python -m movecheck`` (a fresh interpreter, the installed entry point's code)."""
    marker = _tagged_pair(tmp_path, PYTHON_TAGS[0], "state")
    code, out, err = run_cli(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(f["code"], f["file"], f["line"]) for f in findings(out)] == [("MC001", "state.yaml", 7)]
    assert not marker.exists()


# -- numbers: NaN, infinity, zero and negative sizes, self-intersecting polygons ------


def _battlefield_with(tmp_path: Path, old: str, new: str) -> Path:
    text = BATTLEFIELD.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "battlefield.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    for orders in (CORPS_ORDERS, FREE_ORDERS):
        shutil.copy(orders, tmp_path / orders.name)
    return tmp_path / "battlefield.yaml"


R1 = "{id: r1, x: 50, y: 30, facing: 0}"
PLOUGH = "polygon: [[146, 18], [152, 18], [152, 24], [146, 24]]"


@needs_maneuver
@pytest.mark.parametrize(
    "old,new",
    [
        (R1, "{id: r1, x: .nan, y: 30, facing: 0}"),
        (R1, "{id: r1, x: 50, y: .inf, facing: 0}"),
        (R1, "{id: r1, x: -.inf, y: 30, facing: 0}"),
        (R1, "{id: r1, x: 50, y: 30, facing: .nan}"),
        (PLOUGH, "polygon: [[.nan, 18], [152, 18], [152, 24], [146, 24]]"),
        (PLOUGH, "polygon: [[146, 18], [.inf, 18], [152, -.inf], [146, 24]]"),
        ("field: {width: 240, depth: 160}", "field: {width: .inf, depth: 160}"),
        ("tolerance: 0.1", "tolerance: .nan"),
    ],
    ids=[
        "base-x-nan",
        "base-y-inf",
        "base-x-minus-inf",
        "facing-nan",
        "polygon-nan",
        "polygon-inf",
        "field-inf",
        "tolerance-nan",
    ],
)
def test_nan_and_infinite_numbers_are_mc003(run_main, tmp_path: Path, old: str, new: str) -> None:
    """NaN and infinite coordinates, sizes or options: MC003 on that line -- lint and check alike."""
    battlefield = _battlefield_with(tmp_path, old, new)
    line = next(i for i, text in enumerate(battlefield.read_text().splitlines(), 1) if new in text)
    code, out, err = run_main(["lint", "battlefield.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert ("MC003", line) in [(f["code"], f["line"]) for f in findings(out)]
    code, out, err = run_main(["check", "corps-orders.yaml", "free-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert ("MC003", "battlefield.yaml", line) in [(f["code"], f["file"], f["line"]) for f in findings(out)]


@needs_maneuver
@pytest.mark.parametrize(
    "old,new",
    [
        ("r1: {x: 50, y: 36}", "r1: {x: .nan, y: 36}"),
        ("r1: {x: 50, y: 36}", "r1: {x: .inf, y: -.inf}"),
        ("r2: {x: 54, y: 38}", "r2: {x: 54, y: 38, facing: .nan}"),
    ],
    ids=["end-x-nan", "end-inf", "end-facing-nan"],
)
def test_nan_and_infinite_end_points_in_orders(run_main, tmp_path: Path, old: str, new: str) -> None:
    """NaN or infinite end points in corps orders: MC003 on that line, the order is illegal."""
    _battlefield_with(tmp_path, "tolerance: 0.1", "tolerance: 0.1")
    text = CORPS_ORDERS.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "corps-orders.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(i for i, t in enumerate((tmp_path / "corps-orders.yaml").read_text().splitlines(), 1) if new in t)
    code, out, err = run_main(["check", "corps-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert ("MC003", line) in [(f["code"], f["line"]) for f in findings(out)]


@needs_maneuver
def test_nan_and_infinite_points_in_a_free_move_path(run_main, tmp_path: Path) -> None:
    """NaN or infinite points in a free move's path: MC003 on that line."""
    _battlefield_with(tmp_path, "tolerance: 0.1", "tolerance: 0.1")
    text = FREE_ORDERS.read_text(encoding="utf-8")
    old = "path: [[90, 30]]"
    assert old in text
    (tmp_path / "free-orders.yaml").write_text(
        text.replace(old, "path: [[.nan, 30], [.inf, -.inf]]", 1), encoding="utf-8"
    )
    line = next(i for i, t in enumerate((tmp_path / "free-orders.yaml").read_text().splitlines(), 1) if ".nan" in t)
    code, out, err = run_main(["check", "free-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert ("MC003", line) in [(f["code"], f["line"]) for f in findings(out)]


@needs_maneuver
@pytest.mark.parametrize(
    "old,new",
    [
        ("base: [4, 2]\n      bases:\n        - {id: r1", "base: [0, 2]\n      bases:\n        - {id: r1"),
        ("base: [4, 2]\n      bases:\n        - {id: r1", "base: [4, -2]\n      bases:\n        - {id: r1"),
        ("width: 4, depth: 2}", "width: 0, depth: 2}"),
        ("width: 4, depth: 2}", "width: -4, depth: -0.5}"),
        (
            "mobility: 8\n      base: [4, 2]\n      bases:\n        - {id: r1",
            "mobility: 0\n      base: [4, 2]\n      bases:\n        - {id: r1",
        ),
        ("field: {width: 240, depth: 160}", "field: {width: 0, depth: -160}"),
    ],
    ids=["base-width-0", "base-depth-negative", "own-width-0", "own-sizes-negative", "mobility-0", "field-0-negative"],
)
def test_zero_or_negative_sizes_are_mc003(run_main, tmp_path: Path, old: str, new: str) -> None:
    """Zero or negative base sizes (corps default or a base's own), mobility or field: MC003."""
    _battlefield_with(tmp_path, old, new)
    code, out, err = run_main(["lint", "battlefield.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "MC003" in codes(out)
    code, out, err = run_main(["check", "corps-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "MC003" in codes(out)


@needs_maneuver
@pytest.mark.parametrize(
    "polygon",
    [
        "[[146, 18], [152, 24], [152, 18], [146, 24]]",  # a bow tie
        "[[146, 18], [152, 18], [146, 18], [152, 24]]",  # a repeated vertex, crossing
        "[[146, 18], [152, 18], [158, 18]]",  # no area: all on one line
    ],
    ids=["bow-tie", "repeated-vertex", "collinear"],
)
def test_self_intersecting_polygon_is_mv604(run_main, tmp_path: Path, polygon: str) -> None:
    """A terrain polygon that crosses itself or has no area: MV604 (lint) at that terrain."""
    battlefield = _battlefield_with(tmp_path, PLOUGH, f"polygon: {polygon}")
    line = next(i for i, t in enumerate(battlefield.read_text().splitlines(), 1) if polygon in t)
    code, out, err = run_main(["lint", "battlefield.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert ("MV604", line) in [(f["code"], f["line"]) for f in findings(out)]
    code, out, err = run_main(["check", "corps-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert "MV604" in codes(out)


# -- huge numbers in aa -------------------------------------------------------------


def test_huge_unit_count_is_mc008(run_main, tmp_path: Path) -> None:
    """``count: 1000000000000`` in a state is MC008 at the count, not a trillion units built."""
    state = AA_STATE.read_text(encoding="utf-8").replace(
        "units:\n", "units:\n  - {at: Germany, power: Germans, type: infantry, count: 1000000000000}\n", 1
    )
    aa_pair(tmp_path, state_text=state)
    for args in (["lint", "state.yaml"], ["check", "orders.yaml"]):
        code, out, err = run_main([*args, "--format", "json"], cwd=tmp_path)
        assert (code, err) == (1, "")
        assert [(f["code"], f["file"], f["line"]) for f in findings(out)] == [("MC008", "state.yaml", 12)]
        assert "MOVECHECK_MAX_UNITS" in findings(out)[0]["message"]


def test_max_units_from_the_environment(run_cli, tmp_path: Path) -> None:
    """MOVECHECK_MAX_UNITS bounds the units of a state; at the limit the state is read."""
    state = (
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {power: Germans, phase: combat_move}\nunits:\n  - {at: "
        "Germany, power: Germans, type: infantry, count: 10}\n"
    )
    (tmp_path / "state.yaml").write_text(state, encoding="utf-8")
    code, out, err = run_cli(
        ["lint", "state.yaml", "--format", "json"], cwd=tmp_path, env={"MOVECHECK_MAX_UNITS": "10"}
    )
    assert (code, err, codes(out)) == (0, "", [])
    code, out, err = run_cli(["lint", "state.yaml", "--format", "json"], cwd=tmp_path, env={"MOVECHECK_MAX_UNITS": "9"})
    assert (code, err, codes(out)) == (1, "", ["MC008"])


def test_huge_numbers_in_a_noncombat_turn_finish(run_main, tmp_path: Path, report_validator) -> None:
    """A trillion carriers bought, a fighter with a trillion moves left: the landing check finishes."""
    inline = """map:
  name: wide
  powers: [P, Q]
  sides: {x: [P], y: [Q]}
  territories: [{name: A}, {name: B}, {name: 1 Sea Zone, sea: true}, {name: 2 Sea Zone, sea: true}]
  connections: [[A, 1 Sea Zone], [1 Sea Zone, 2 Sea Zone], [2 Sea Zone, B]]
  control: {A: P, B: Q}
  unit_types:
    fighter: {movement: 1000000000000, domain: air, carrier_cost: 1}
    carrier: {movement: 1000000000000, domain: sea, carrier_capacity: 2}
    factory: {movement: 0, domain: land}
"""
    small = (
        "movecheck: 1\nsystem: aa\n" + inline
        + "turn: {power: P, phase: noncombat_move}\npurchased: {carrier: 1000000000000}\n"
        + "units:\n  - {at: A, power: P, type: factory}\n  - {at: A, power: P, type: fighter, count: 3}\n"
        + "  - {at: 1 Sea Zone, power: P, type: carrier}\n"
    )
    orders = (
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: P\nphase: noncombat_move\nmoves:\n"
        "  - {units: {fighter: 3}, path: [A, 1 Sea Zone, 2 Sea Zone]}\n"
        "  - {units: {carrier: 1}, path: [1 Sea Zone, 2 Sea Zone, 1 Sea Zone, 2 Sea Zone]}\n"
    )
    aa_pair(tmp_path, orders, small)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code in (0, 1) and err == "", err
    assert json.loads(out)["summary"]["orders"] == 2


# -- a map with a million connections ------------------------------------------------


def _mega_map(folder: Path, territories: int = 2000, degree: int = 500) -> int:
    """An aa map file (JSON) whose graph has territories * degree distinct edges, a state and orders on it."""
    names = [f"T{i:04d}" for i in range(territories)]
    connections = [[names[i], names[(i + k) % territories]] for i in range(territories) for k in range(1, degree + 1)]
    game_map = {
        "movecheck": 1, "system": "aa", "kind": "map", "name": "mega", "powers": ["Reds", "Blues"],
        "sides": {"red": ["Reds"], "blue": ["Blues"]},
        "territories": [{"name": n} for n in names] + [{"name": "1 Sea Zone", "sea": True}],
        "connections": [*connections, ["T0000", "1 Sea Zone"]],
        "control": {n: ("Reds" if i % 2 == 0 else "Blues") for i, n in enumerate(names)},
    }
    (folder / "mega-map.json").write_text(json.dumps(game_map, separators=(",", ":")), encoding="utf-8")
    (folder / "state.yaml").write_text(
        "movecheck: 1\nsystem: aa\nmap: mega-map.json\nturn: {round: 1, power: Reds, phase: combat_move}\n"
        "units:\n  - {at: T0000, power: Reds, type: infantry, count: 2}\n  - {at: T0000, power: Reds, type: fighter}\n"
        "  - {at: T0001, power: Blues, type: infantry}\n  - {at: T0002, power: Reds, type: tank}\n",
        encoding="utf-8",
    )
    (folder / "orders.yaml").write_text(
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Reds\nphase: combat_move\nmoves:\n"
        "  - {units: {infantry: 1}, path: [T0000, T0001]}\n"          # attack: legal
        "  - {units: {fighter: 1}, path: [T0000, T1999, T0001]}\n"    # attack, lands back within reach
        "  - {units: {infantry: 1}, path: [T0000, T0999]}\n"          # not adjacent: AA101
        "  - {units: {tank: 1}, path: [T0002, T0003, T0005]}\n",      # through a hostile empty one: blitz
        encoding="utf-8",
    )
    return len(connections) + 1


@pytest.mark.slow
def test_million_edge_map_is_mc008_by_default(tmp_path: Path, report_validator) -> None:
    """A map of a million connections is over the 2,000,000-node limit: MC008 in bounded time."""
    edges = _mega_map(tmp_path)
    assert edges > 1_000_000
    code, out, err, took = run_long(["check", "orders.yaml", "--format", "json"], tmp_path, report_validator)
    print(f"million-edge map, default limits: check -> MC008 in {took:.1f} s")
    assert code == 1, err
    assert [(f["code"], f["file"]) for f in findings(out)] == [("MC008", "mega-map.json")]


@pytest.mark.slow
def test_million_edge_map_with_raised_limit_is_checked(tmp_path: Path, report_validator) -> None:
    """With MOVECHECK_MAX_NODES raised the same map is read, linted and the orders checked."""
    _mega_map(tmp_path)
    env = {"MOVECHECK_MAX_NODES": "10000000"}
    code, out, err, took_lint = run_long(
        ["lint", "mega-map.json", "--format", "json"], tmp_path, report_validator, env=env
    )
    assert (code, err, codes(out)) == (0, "", [])
    code, out, err, took_check = run_long(
        ["check", "orders.yaml", "--format", "json"], tmp_path, report_validator, env=env
    )
    print(f"million-edge map, MOVECHECK_MAX_NODES=10000000: lint {took_lint:.1f} s, check {took_check:.1f} s")
    assert code == 1, err
    report = json.loads(out)
    assert report["summary"]["orders"] == 4
    assert [(f["code"], f["order"]) for f in report["findings"] if f["severity"] == "error"] == [("AA101", 3)]


# -- state references --------------------------------------------------------------


@pytest.mark.parametrize(
    "reference,expected",
    [
        ("orders.yaml", "is this orders file itself"),
        ("./sub/../orders.yaml", "is this orders file itself"),
        ("sub", "is a directory"),
        (".", "is a directory"),
        ("nowhere.yaml", "does not exist"),
        ('"sta\\0te.yaml"', "does not exist"),
        ("x" * 5000, "does not exist"),
    ],
    ids=["itself", "itself-roundabout", "directory", "dot", "missing", "nul-byte", "too-long"],
)
def test_state_reference_problems_are_mc011(run_main, tmp_path: Path, reference: str, expected: str) -> None:
    """``state:`` looping back to the orders, naming a folder, nothing, or no possible file: MC011 at it."""
    (tmp_path / "sub").mkdir()
    orders = retarget(AA_ORDERS.read_text(encoding="utf-8"), reference)
    aa_pair(tmp_path, orders)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    [finding] = findings(out)
    assert (finding["code"], finding["line"], finding["column"]) == ("MC011", 6, 8)
    assert expected in finding["message"]


def test_state_reference_loop_through_the_state(run_main, tmp_path: Path) -> None:
    """A state file that is an orders file naming the first one: MC011 (it is not a state), no loop."""
    first = retarget(AA_ORDERS.read_text(encoding="utf-8"), "second.yaml")
    second = retarget(AA_ORDERS.read_text(encoding="utf-8"), "orders.yaml")
    aa_pair(tmp_path, first)
    (tmp_path / "second.yaml").write_text(second, encoding="utf-8")
    code, out, err = run_main(["check", "orders.yaml", "second.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [f["code"] for f in findings(out)] == ["MC011", "MC011"]


@pytest.mark.parametrize("option", ["nowhere.yaml", "sub"], ids=["missing", "directory"])
def test_state_option_missing_or_directory_is_exit_2(run_main, tmp_path: Path, option: str) -> None:
    """``--state`` naming a missing file or a folder: the tool cannot do its job, exit 2, one line."""
    (tmp_path / "sub").mkdir()
    aa_pair(tmp_path)
    for fmt in ("text", "json"):
        code, out, err = run_main(["check", "orders.yaml", "--state", option, "--format", fmt], cwd=tmp_path)
        assert (code, out) == (2, "")
        assert one_line(err).startswith(f"movecheck: error: {option}:")


# -- explicit tags on values that do not fit them -----------------------------------


@pytest.mark.parametrize(
    "value,shown",
    [
        ("!!int", "''"),
        ("!!int ''", "''"),
        ("!!int +", "'+'"),
        ("!!int 0x", "'0x'"),
        ("!!float", "''"),
        ("!!float x", "'x'"),
        ("!!bool", "''"),
        ("!!bool maybe", "'maybe'"),
        ("!!map", "''"),
        ("!!seq", "''"),
    ],
)
def test_explicit_tag_on_a_bad_value_is_mc001(run_main, tmp_path: Path, value: str, shown: str) -> None:
    """``!!int`` with no value, ``!!bool maybe``...: MC001 at the value (PyYAML's constructors raise
    IndexError/KeyError on some of these; found by the hypothesis byte soup)."""
    (tmp_path / "doc.yaml").write_text(f"movecheck: 1\nsystem: aa\nnote: {value}\n", encoding="utf-8")
    for command in ("lint", "check"):
        code, out, err = run_main([command, "doc.yaml", "--format", "json"], cwd=tmp_path)
        assert (code, err) == (1, "")
        [finding] = findings(out)
        assert (finding["code"], finding["line"], finding["column"]) == ("MC001", 3, 7)
        assert f"{shown} is not a valid" in finding["message"]


# -- the orders list is not a list ----------------------------------------------------


@pytest.mark.parametrize("value", ["-1", "5", "'three moves'", "{units: {tank: 1}}", "~", "true", ".nan"])
def test_moves_that_are_not_a_list_is_mc003(run_main, tmp_path: Path, value: str) -> None:
    """``moves: -1`` (or text, a mapping, null): MC003 at it, no order counted (was a TypeError,
    found by the long hypothesis run)."""
    text = retarget(AA_ORDERS.read_text(encoding="utf-8"))
    text = text[: text.index("moves:")] + f"moves: {value}\n"
    aa_pair(tmp_path, text)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert report["summary"]["orders"] == 0
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("MC003", 9)]


@needs_maneuver
@pytest.mark.parametrize("value", ["-1", "'three'", "{o1: x}", "~"])
def test_maneuver_orders_that_are_not_a_list_is_mc003(run_main, tmp_path: Path, value: str) -> None:
    """``orders: -1`` in a maneuver orders file: MC003 at it, no order counted."""
    _battlefield_with(tmp_path, "tolerance: 0.1", "tolerance: 0.1")
    text = CORPS_ORDERS.read_text(encoding="utf-8")
    line = text[: text.index("\norders:")].count("\n") + 2
    (tmp_path / "corps-orders.yaml").write_text(
        text[: text.index("\norders:")] + f"\norders: {value}\n", encoding="utf-8"
    )
    code, out, err = run_main(["check", "corps-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert report["summary"]["orders"] == 0
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("MC003", line)]
