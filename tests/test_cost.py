"""Cost stays linear on hostile input: work is counted, never timed.

The loader's work is the number of lines it executes (``sys.settrace`` line events in
movecheck/loading.py, loops included); doubling the anchors and aliases of a file must
no more than about double it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import movecheck.loading as loading
from movecheck.loading import load_bytes


def lines_run(module: Any, action: Callable[[], Any]) -> int:
    """Lines of ``module`` executed while ``action`` runs."""
    count = 0
    target = module.__file__

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == target else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        action()
    finally:
        sys.settrace(previous)
    return count


# -- many anchors and aliases ----------------------------------------------------------


def anchored_orders(n: int) -> str:
    """An aa orders file: n anchored moves (nested anchors inside), each used again by an alias."""
    lines = ["movecheck: 1", "system: aa", "state: state.yaml", "power: Germans", "phase: combat_move", "moves:"]
    for i in range(n):
        lines.append(f"  - &m{i} {{units: &u{i} {{infantry: 1, tank: 2}}, path: &p{i} [Germany, Poland]}}")
    for i in range(n):
        lines.append(f"  - {{units: *u{i}, path: *p{i}}}")
        lines.append(f"  - *m{i}")
    return "\n".join(lines) + "\n"


def anchored_state(n: int) -> str:
    """An aa state: n anchored stacks of units with numbers, each repeated through an alias."""
    lines = ["movecheck: 1", "system: aa", "map: aa1942-2e", "turn: {round: 1, power: Germans, phase: combat_move}"]
    lines.append("units:")
    for i in range(n):
        lines.append(f"  - &s{i} {{at: Germany, power: Germans, type: infantry, count: {i % 7 + 1}, hits: [0, 1]}}")
    for i in range(n):
        lines.append(f"  - *s{i}")
    return "\n".join(lines) + "\n"


def anchored_config(n: int) -> str:
    """A .movecheck.yaml whose per-file ignores share anchored lists (numbers included)."""
    lines = ["select: [ALL]", "per-file-ignores:"]
    for i in range(n):
        lines.append(f"  a{i}.yaml: &i{i} [AA1, 201, {{deep: [1, 2]}}]")
    for i in range(n):
        lines.append(f"  b{i}.yaml: *i{i}")
    return "\n".join(lines) + "\n"


SHAPES = {"orders": anchored_orders, "state": anchored_state, "config": anchored_config}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_loader_work_grows_linearly_with_anchors(shape: str) -> None:
    make = SHAPES[shape]
    work = {}
    for n in (100, 200, 400):
        text = make(n).encode()
        work[n] = lines_run(loading, lambda: load_bytes(text, "t.yaml"))  # noqa: B023 - run at once, in this iteration
    # every anchor used to rescan every number recorded before it: ×4 per doubling
    assert work[200] <= 2.2 * work[100], work
    assert work[400] <= 2.2 * work[200], work


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_anchored_files_load_to_the_expanded_data(shape: str) -> None:
    doc = load_bytes(SHAPES[shape](3).encode(), "t.yaml")
    assert not doc.findings
    if shape == "orders":
        moves = doc.data["moves"]
        assert len(moves) == 9
        assert moves[3] == moves[4] == moves[0] == {"units": {"infantry": 1, "tank": 2}, "path": ["Germany", "Poland"]}
        # the numbers inside an alias keep their source text, under the alias's own path
        assert doc.implicit[("moves", 4, "units", "tank")].text == "2"
        assert doc.implicit[("moves", 3, "units", "infantry")].text == "1"
        # a node inside an alias is placed at the alias
        assert doc.pos(("moves", 3, "units", "tank")) == (10, 13)
        assert doc.pos(("moves", 4, "units", "tank")) == (11, 5)
    elif shape == "state":
        assert doc.data["units"][4] == doc.data["units"][1]
        assert doc.implicit[("units", 4, "count")].text == "2"
        assert doc.implicit[("units", 5, "hits", 1)].text == "1"
    else:
        assert doc.data["per-file-ignores"]["b2.yaml"] == ["AA1", 201, {"deep": [1, 2]}]
        assert doc.implicit[("per-file-ignores", "b2.yaml", 1)].text == "201"
        assert doc.implicit[("per-file-ignores", "b2.yaml", 2, "deep", 0)].text == "1"


def test_nested_anchor_keeps_the_implicit_scalars_of_its_own_subtree_only() -> None:
    text = "a: 7\nb: &outer [x, &inner [1, no], 2]\nc: 3\nd: *outer\ne: *inner\n"
    doc = load_bytes(text.encode(), "t.yaml")
    assert not doc.findings
    assert sorted((p, s.text) for p, s in doc.implicit.items() if p[0] in "de") == [
        (("d", 1, 0), "1"),
        (("d", 1, 1), "no"),
        (("d", 2), "2"),
        (("e", 0), "1"),
        (("e", 1), "no"),
    ]


def test_many_anchors_over_a_big_alias_cost_little_work() -> None:
    # The shape that cost 80 s: one block aliased many times (a million numbers in the
    # data), then many small anchors, each of which used to rescan all those numbers.
    def text(anchors: int) -> bytes:
        lines = ["big: &big [" + ",".join(["1"] * 100) + "]", "copies:"]
        lines += ["  - *big"] * 100
        lines += ["small:"] + [f"  - &s{i} [1]" for i in range(anchors)]
        return ("\n".join(lines) + "\n").encode()

    few = lines_run(loading, lambda: load_bytes(text(10), "t.yaml"))
    many = lines_run(loading, lambda: load_bytes(text(1000), "t.yaml"))
    # 990 more anchors of one number each: about a hundred lines apiece, not 10,000 numbers apiece
    assert many - few < 150 * 990, (few, many)


def test_node_limit_still_counts_alias_expansion(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "MAX_NODES", 1000)
    text = "big: &big [" + ",".join(["1"] * 100) + "]\ncopies:\n" + "  - *big\n" * 10
    doc = load_bytes(text.encode(), "t.yaml")
    assert [(f.code, f.line) for f in doc.findings] == [("MC008", 11)]


# -- lint --skip-foreign ---------------------------------------------------------------


def test_skip_foreign_builds_no_positions_for_a_foreign_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write
) -> None:
    from movecheck import core
    from movecheck.settings import Settings

    built: list[str] = []
    build = loading._Builder.build

    def spy(self: Any, events: Any) -> None:
        built.append(self.doc.path)
        build(self, events)

    monkeypatch.setattr(loading._Builder, "build", spy)
    # a workflow full of anchors: the kind of file the pre-commit hook meets
    foreign = write(tmp_path, "ci.yml", anchored_config(200).replace("select: [ALL]", "on: push"))
    state = write(tmp_path, "state.yaml", anchored_state(2))
    report = core.lint([str(foreign), str(state)], Settings(skip_foreign=True))
    assert built == [str(state)]
    assert [f.path for f in report.files] == [str(state)]
    built.clear()
    report = core.lint([str(foreign)], Settings())
    assert built == [str(foreign)]
    assert [f.code for f in report.findings] == ["MC010"]


def test_skip_foreign_reads_stdin_once(run_main, tmp_path: Path, aa) -> None:
    code, out, err = run_main(["lint", "-", "--skip-foreign"], stdin=aa.state, cwd=tmp_path)
    assert (code, err) == (0, ""), out
    assert out.endswith("in 1 file.\n")
    code, out, err = run_main(["lint", "-", "--skip-foreign"], stdin="on: push\n", cwd=tmp_path)
    assert (code, out, err) == (0, "0 errors, 0 warnings, 0 notes in 0 files.\n", "")


# -- did you mean ------------------------------------------------------------------------

import difflib  # noqa: E402

from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from movecheck import suggest  # noqa: E402
from movecheck.aa.editions import DEFAULT_EDITION, UNIT_ALIASES  # noqa: E402
from movecheck.aa.maps import builtin_map  # noqa: E402
from tests.properties import in_two_runs  # noqa: E402

UNIT_TYPES = DEFAULT_EDITION.unit_type_values()

SPACES = [t["name"] for t in builtin_map("aa1942-2e")["territories"]]
TYPES = list(UNIT_TYPES) + list(UNIT_ALIASES)


@pytest.mark.parametrize(
    ("word", "choices", "n", "cutoff"),
    [
        ("Untied Kingdom", SPACES, 3, 0.6),
        ("Germny", SPACES, 3, 0.6),
        ("Western Europe", SPACES, 3, 0.6),
        ("Sea Zone 123", SPACES, 3, 0.6),
        ("sz 99", SPACES, 3, 0.6),
        ("", SPACES, 3, 0.6),
        ("", ["", "a"], 3, 0.6),
        ("fightr", TYPES, 3, 0.5),
        ("tanks", TYPES, 3, 0.5),
        ("Germns", ["Germans", "Russians", "Japanese"], 2, 0.6),
        ("formt", ["format", "select", "ignore", "per-file-ignores"], 3, 0.6),
        ("aaa", ["aa", "aa", "a", "aaaa"], 3, 0.6),  # duplicates and ties
        ("AA2O1", ["AA", "AA1", "AA10", "AA2", "AA20", "AA201"], 3, 0.6),
    ],
)
def test_close_names_are_difflibs(word: str, choices: list[str], n: int, cutoff: float) -> None:
    assert suggest.close_names(word, choices, n, cutoff) == difflib.get_close_matches(word, choices, n, cutoff)


def _close_names_agree_with_difflib_on_misspelt_names(word: str, edits: list[tuple[int, str]], cutoff: float) -> None:
    for at, char in edits:
        word = word[:at] + char + word[at + 1 :]
    assert suggest.close_names(word, SPACES, 3, cutoff) == difflib.get_close_matches(word, SPACES, 3, cutoff)


test_close_names_agree_with_difflib_on_misspelt_names, test_close_names_agree_with_difflib_on_misspelt_names_in_full = (
    in_two_runs(
        settings(max_examples=300, deadline=None),
        word=st.one_of(st.sampled_from(SPACES), st.text(alphabet="aeinorstuSZGK .-12", max_size=16)),
        edits=st.lists(st.tuples(st.integers(0, 30), st.sampled_from("aeiou nrst-1")), max_size=4),
        cutoff=st.sampled_from([0.5, 0.6, 0.75]),
    )(_close_names_agree_with_difflib_on_misspelt_names)
)


def test_unknown_names_keep_their_messages(run_main, tmp_path: Path, aa, write) -> None:
    write(tmp_path, "state.yaml", aa.state)
    write(
        tmp_path,
        "orders.yaml",
        aa.legal.replace("path: [Ukraine S.S.R., Caucasus]\n  - units", "path: [Ukraine S.S.R., Caucasas]\n  - units")
        .replace("{tank: 1}", "{tnak: 1}"),
    )
    code, out, _ = run_main(["check", "orders.yaml"], cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[:2] == [
        "orders.yaml:9:28: MC004 [error] unknown territory or sea zone 'Caucasas'; did you mean 'Caucasus'?",
        "orders.yaml:10:13: MC004 [error] unknown unit type 'tnak'; did you mean 'tank'?",
    ]


def many_unknowns(tmp_path: Path, write, names: list[str], file: str = "orders.yaml") -> Path:
    path = "[" + ", ".join(["Germany", *names]) + "]"
    text = (
        "movecheck: 1\nsystem: aa\nstate: state.yaml\npower: Germans\nphase: combat_move\n"
        f"moves:\n  - units: {{infantry: 1}}\n    path: {path}\n"
    )
    return write(tmp_path, file, text)


def test_many_unknown_names_compare_few_names(
    run_main, tmp_path: Path, aa, write, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = 0
    set_seq1 = difflib.SequenceMatcher.set_seq1

    def spy(self: Any, a: Any) -> None:
        nonlocal compared
        compared += 1
        set_seq1(self, a)

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seq1", spy)
    write(tmp_path, "state.yaml", aa.state)
    distinct = [f"Terra {i}" for i in range(2000)]
    many_unknowns(tmp_path, write, distinct + ["Untied Kingdom"] * 2000)
    code, out, _ = run_main(["check", "orders.yaml"], cwd=tmp_path)
    assert code == 1
    lines = [line for line in out.splitlines() if ": checked against " not in line]
    assert len(lines) == 4001
    assert lines[-2].endswith("unknown territory or sea zone 'Untied Kingdom'; did you mean 'United Kingdom'?")
    # difflib met every one of the map's 161 spaces for every unknown name: 644,000 times;
    # now a name is compared only when it shares enough characters, once per distinct word
    assert compared < 3 * len(distinct), compared


def test_hint_work_is_bounded_per_file(run_main, tmp_path: Path, aa, write, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suggest, "MAX_WORK", 20_000)
    write(tmp_path, "state.yaml", aa.state)
    many_unknowns(tmp_path, write, [f"Germany {i}" for i in range(500)], "a.yaml")
    many_unknowns(tmp_path, write, ["Germny"] * 500, "b.yaml")
    _code, out, _ = run_main(["check", "a.yaml", "b.yaml"], cwd=tmp_path)
    lines = out.splitlines()
    a_lines = [line for line in lines if line.startswith("a.yaml:") and " MC004 " in line]
    b_lines = [line for line in lines if line.startswith("b.yaml:") and " MC004 " in line]
    assert len(a_lines) == len(b_lines) == 500
    hinted = [line.endswith("; did you mean 'Germany'?") for line in a_lines]
    # hints while the budget lasts, then the bare finding: still MC004, still an error
    assert hinted[0] and not hinted[-1] and hinted == sorted(hinted, reverse=True)
    assert all(" MC004 [error] unknown territory or sea zone 'Germany " in line for line in a_lines)
    # a cached answer costs its work again, so a file's hints do not depend on the others
    alone = run_main(["check", "b.yaml"], cwd=tmp_path)[1].splitlines()
    assert alone[:-2] == b_lines  # then 'checked against' and the summary
    first = run_main(["check", "a.yaml"], cwd=tmp_path)[1].splitlines()
    assert first[:-2] == a_lines


# -- manoeuvre motions ---------------------------------------------------------------------

from movecheck.maneuver import geometry as mg  # noqa: E402
from movecheck.maneuver import motion as mm  # noqa: E402
from movecheck.maneuver import sweep as ms  # noqa: E402
from movecheck.maneuver.model import Base  # noqa: E402


def red_base(x: float = 100.0, y: float = 100.0, facing: float = 0.0) -> Base:
    return Base("r1", "red", "c1", x, y, facing, 4.0, 2.0, 8.0)


def zigzag(n: int, x0: float = 60.0, wide: float = 80.0, y0: float = 30.0) -> list[tuple[float, float]]:
    return [(x0 + (i % 2) * wide, y0 + 0.01 * i) for i in range(1, n + 1)]


def test_a_long_turning_motion_is_cut_into_pieces_per_waypoint_not_per_step() -> None:
    # 2,000 segments of 80 steps with a turn: 320 pieces each (4 a step) made 640,000
    motion = mm.Motion(red_base(60.0, 30.0), zigzag(2000), 90.0)
    assert len(motion.pieces) <= mm.MAX_MOTION_PIECES + 2 * 2000 + 90
    # a short turning move is cut as before: 4 pieces a step
    short = mm.Motion(red_base(), [(100.0, 110.0)], 45.0)
    assert len(short.pieces) == 40
    assert [round(p.facing, 6) for p in short.pieces[:3]] == [0.0, 1.125, 2.25]


def brute_leaves(motion: mm.Motion, region: Any, shrink: float) -> int | None:
    for piece in motion.pieces:
        if ms.leave_distance(motion.rect(piece, shrink), region, piece.direction, piece.length) is not None:
            return piece.segment
    if not mg.inside_field(motion.final_rect(shrink), region):
        return motion.last_segment
    return None


@pytest.mark.parametrize(
    "path",
    [
        [(100.0, 150.0)],
        [(100.0, 197.5)],  # the front edge ends within a step of the field's edge
        [(100.0, 199.5)],  # past it
        [(150.0, 100.0), (199.0, 100.0), (150.0, 150.0)],
        [(1.2, 100.0)],
        pytest.param(zigzag(300, x0=3.0, wide=194.0), marks=pytest.mark.slow, id="zigzag300"),
    ],
)
@pytest.mark.parametrize("facing", [0.0, 90.0, 33.0])
def test_leaves_answers_as_every_piece_checked_would(
    path: list[tuple[float, float]], facing: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    field = mg.box(0.0, 0.0, 200.0, 200.0)
    motion = mm.Motion(red_base(), path, facing)
    expected = brute_leaves(motion, field, 0.1)
    calls = 0
    leave_distance = ms.leave_distance

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return leave_distance(*args)

    monkeypatch.setattr(ms, "leave_distance", counted)
    assert motion.leaves(field, shrink=0.1) == expected
    if path == [(100.0, 150.0)]:
        assert calls == 0  # well inside: no piece needs the exact test


def test_long_motion_among_many_shapes_tests_only_nearby_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    motion = mm.Motion(red_base(20.0, 20.0), zigzag(400, x0=20.0, wide=160.0, y0=20.0), 0.0)
    shapes = [mg.box(x, y, x + 2.0, y + 2.0) for x in range(10, 190, 12) for y in range(60, 190, 12)]
    brute = []
    for shape in shapes:
        hit = None
        for piece in motion.pieces:
            if not motion._near(piece, shape.bounds):
                continue
            t = ms.entry_distance(motion.rect(piece), shape, piece.direction, piece.length)
            if t is not None:
                hit = (piece.s + t, piece.segment)
                break
        if hit is None and mg.overlaps(motion.final_rect(), shape):
            hit = (motion.length, motion.last_segment)
        brute.append(hit)
    tested = 0
    near = mm.Motion._near

    def counted(self: Any, piece: Any, bounds: Any) -> bool:
        nonlocal tested
        tested += 1
        return near(self, piece, bounds)

    monkeypatch.setattr(mm.Motion, "_near", counted)
    assert [motion.entry(shape) for shape in shapes] == brute
    # every piece against every shape would be 400 x 165
    assert tested < len(motion.pieces) * len(shapes) // 20, tested


# -- aa: moves out of a big stack ------------------------------------------------------------


def stack_orders(tmp_path: Path, write, n: int) -> str:
    """n infantry in Poland and n tanks in Germany, each moved one by one against n Russians."""
    state = (
        "movecheck: 1\nsystem: aa\nmap: aa1942-2e\nturn: {round: 1, power: Germans, phase: combat_move}\ncontrol: "
        "{Belorussia: Russians}\nunits:\n"
        f"  - {{at: Poland, power: Germans, type: infantry, count: {n}}}\n"
        f"  - {{at: Germany, power: Germans, type: tank, count: {n}}}\n"
        f"  - {{at: Belorussia, power: Russians, type: infantry, count: {n}}}\n"
    )
    moves = "".join(
        "  - {units: {infantry: 1}, path: [Poland, Belorussia]}\n"
        if i % 2
        else "  - {units: {tank: 1}, path: [Germany, Poland, Belorussia]}\n"
        for i in range(n)
    )
    write(tmp_path, f"state-{n}.yaml", state)
    orders = write(
        tmp_path, f"orders-{n}.yaml",
        f"movecheck: 1\nsystem: aa\nstate: state-{n}.yaml\npower: Germans\nphase: combat_move\nmoves:\n{moves}",
    )
    return str(orders)


def test_moves_out_of_a_big_stack_cost_each_move_its_own_size(tmp_path: Path, write) -> None:
    import movecheck.aa.model as model
    import movecheck.aa.moves as moves
    from movecheck import core
    from movecheck.settings import Settings

    work = {}
    for n in (100, 200, 400):
        path = stack_orders(tmp_path, write, n)
        report = None

        def run() -> None:
            nonlocal report
            report, _ = core.check([path], Settings())  # noqa: B023 - run at once, in this iteration

        work[n] = lines_run(moves, run) + lines_run(model, run)
        assert [f.code for f in report.findings] == []  # every move legal
    # choosing each move's unit sorted the whole stack; the enemies of a space were
    # picked out of every unit there: ×4 per doubling
    assert work[200] <= 2.3 * work[100], work
    assert work[400] <= 2.3 * work[200], work


def test_manoeuvre_hints_for_many_unknown_bases_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.maneuver.helpers import base, corps, free, orders, run_check, state

    monkeypatch.setattr(suggest, "MAX_WORK", 100_000)
    ratios = 0
    ratio = difflib.SequenceMatcher.ratio

    def counted(self: Any) -> float:
        nonlocal ratios
        ratios += 1
        return ratio(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    red = [corps(f"c{k}", *(base(f"b{k}-{i}", 10 + 5 * i, 10 + 5 * k) for i in range(10))) for k in range(20)]
    doc = orders(*(free(f"b{i % 20}-x{i}", (30, 30)) for i in range(1000)))
    findings, _, _ = run_check(tmp_path, state(red), doc)
    messages = [f.message for f in findings if f.code == "MC004"]
    assert len(messages) == 1000
    assert messages[0].startswith("base 'b0-x0' does not exist; did you mean 'b0-0'")
    assert messages[-1] == "base 'b19-x999' does not exist"
    # each unknown name met every base whose name passed difflib's quick test: ~90,000 ratios
    assert ratios < 20_000, ratios
