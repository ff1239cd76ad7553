"""The editor's re-check of orders whose data did not change gives the kept run again (issue 37, movecheck.aa.kept).

Every test compares the server keeping runs with the server carrying every re-check out (``KEEP_RUNS`` off): the
same findings, positions and ranges, byte for byte, and never a kept run where the orders, the state or the
language changed."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("pygls", reason="the language server needs the extra movecheck[server]")

from movecheck.aa import kept
from movecheck.i18n import set_language
from movecheck.server.app import MovecheckServer
from movecheck.server.files import Roots

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
STATE = ROOT / "examples" / "aa" / "states" / "g1-combat.yaml"
TEXT = ORDERS.read_text(encoding="utf-8")
LONGER = TEXT.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland, Karelia S.S.R., Archangel]", 1)
"""An order's path one step too long: errors at that order (AA rules)."""


@pytest.fixture(autouse=True)
def _nothing_kept() -> Any:
    kept.forget()
    yield
    kept.forget()


def _server(buffers: dict[str, str] | None = None, root: Path = ROOT) -> MovecheckServer:
    server = MovecheckServer()
    server.roots = Roots([str(root)])
    server.buffer_text = lambda absolute: (buffers or {}).get(absolute)  # type: ignore[method-assign]
    return server


def _seen(server: MovecheckServer, text: str, version: int = 1, path: Path = ORDERS) -> tuple[list[Any], list[Any]]:
    """The findings of the check (as the JSON report writes them) and the published diagnostics."""
    checked = server.run_check(str(path), text, version)
    assert checked.result is not None and checked.result.entry is not None
    findings = [f.to_json() for f in checked.result.report.findings]
    published = [(str(d.code), d.message, str(d.range), str(d.severity)) for d in checked.published]
    return findings, published


class _Fresh:
    """A server that keeps no run (``KEEP_RUNS`` off while it checks): the reference.  One per test, so its state is
    prepared once; ``buffers``: the open buffers it reads (shared with the server under test)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, buffers: dict[str, str] | None = None, root: Path = ROOT
                 ) -> None:
        self.monkeypatch, self.server, self.version = monkeypatch, _server(buffers, root), 0

    def __call__(self, text: str, path: Path = ORDERS) -> tuple[list[Any], list[Any]]:
        self.version += 1
        with self.monkeypatch.context() as patched:
            patched.setattr(kept, "KEEP_RUNS", False)
            return _seen(self.server, text, self.version, path)


def test_an_edit_that_changes_no_order_gives_the_kept_run_at_the_new_positions(monkeypatch: pytest.MonkeyPatch
                                                                               ) -> None:
    """A comment line above every order, spaces in a flow list, the orders as they were: the kept run is given
    (``kept.given``), its findings placed where the new text has their nodes, as a fresh run places them."""
    server = _server()
    fresh = _Fresh(monkeypatch)
    first = _seen(server, LONGER)
    assert first[0] and any(f["code"].startswith("AA") for f in first[0])
    edits = ["# a note above every order\n" + LONGER,
             LONGER.replace("Karelia S.S.R., Archangel]", "Karelia S.S.R.,   Archangel ]", 1),
             LONGER + "\n# a note below\n"]
    for k, edited in enumerate(edits):
        assert edited != LONGER
        before = kept.given
        again = _seen(server, edited, k + 2)
        assert kept.given == before + 1
        assert again == fresh(edited)
        assert (again != first) == (k < 2)  # the findings moved with their nodes (not for a note below them)
    assert first[0][0]["line"] + 1 == _seen(server, edits[0], 9)[0][0]["line"]


def test_an_edited_order_never_gets_the_kept_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stale case: a kept run given for orders whose data changed would keep the legal verdict for the path
    made too long, and the errors for the path put back."""
    server = _server()
    fresh = _Fresh(monkeypatch)
    for k, text in enumerate([TEXT, LONGER, TEXT, LONGER]):
        before = kept.given
        seen = _seen(server, text, k + 1)
        assert kept.given == before
        assert seen == fresh(text)
        assert bool(seen[1]) == (text == LONGER)


def test_an_edited_state_never_gets_the_kept_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same orders against a state edited in its buffer: a new prepared board, so the orders are carried out
    again (a unit taken from the territory an order moves out of)."""
    buffers: dict[str, str] = {}
    server = _server(buffers)
    fresh = _Fresh(monkeypatch, buffers)
    assert _seen(server, TEXT)[1] == []
    state = STATE.read_text(encoding="utf-8")
    emptied = _state_without_units_at(state, "Finland")
    buffers[str(STATE)] = emptied
    seen = _seen(server, TEXT, 2)
    assert seen[1] and seen == fresh(TEXT)
    buffers.clear()
    assert _seen(server, TEXT, 3)[1] == []


def _state_without_units_at(state: str, space: str) -> str:
    """The state's text with the German units in ``space`` gone (the lines that list them)."""
    kept_lines = [line for line in state.splitlines(keepends=True)
                  if not (f"at: {space}," in line and "Germans" in line)]
    assert len(kept_lines) < len(state.splitlines())
    return "".join(kept_lines)


def test_a_kept_run_is_not_given_in_another_language(monkeypatch: pytest.MonkeyPatch) -> None:
    server = _server()
    fresh = _Fresh(monkeypatch)
    english = _seen(server, LONGER)
    try:
        set_language("ru")
        before = kept.given
        russian = _seen(server, LONGER + " ", 2)
        assert kept.given == before
        assert russian == fresh(LONGER + " ")
    finally:
        set_language("en")
    assert russian[1] != english[1]


def test_a_finding_with_a_fix_is_never_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fix's edit holds its scalar's place in the text it was made from: such a run is carried out each time."""
    typo = TEXT.replace("path: [Finland, Karelia S.S.R.]", "path: [Finlnd, Karelia S.S.R.]", 1)
    server = _server()
    fresh = _Fresh(monkeypatch)
    first = _seen(server, typo)
    assert first[0] and any(f.get("fixes") for f in first[0])
    moved = "# moved down a line\n" + typo
    before = kept.given
    assert _seen(server, moved, 2) == fresh(moved)
    assert kept.given == before


def test_the_orders_data_is_compared_with_its_types_and_key_order() -> None:
    """``1``, ``1.0`` and ``true`` are equal in Python, and so are mappings with their keys in another order."""
    assert kept.data_key({"units": {"infantry": 1}}) != kept.data_key({"units": {"infantry": True}})
    assert kept.data_key([1]) != kept.data_key([1.0])
    assert kept.data_key([0.0]) != kept.data_key([-0.0])
    assert kept.data_key({"a": 1, "b": 2}) != kept.data_key({"b": 2, "a": 1})
    assert kept.data_key({1: "a"}) != kept.data_key({"1": "a"})
    assert kept.data_key({"a": [1, "x"]}) == kept.data_key(json.loads('{"a": [1, "x"]}'))
    assert kept.data_key({"a": lambda: 0}) is None


def test_the_command_line_keeps_nothing() -> None:
    from movecheck import core
    from movecheck.settings import Settings

    report, _ends = core.check([str(ORDERS)], Settings())
    assert report.files and report.files[0].checked
    assert not kept._KEPT  # nothing stored, so nothing can be given again


MOVES = sorted(p for folder in ("orders", "orders/variants") for p in (ROOT / "examples" / "aa" / folder).glob("*.yaml")
               if "\nmoves:" in p.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_every_example_move_gets_the_findings_of_a_fresh_run_when_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example's orders (the variants: one finding of each kind), a note put above them: the kept run's
    findings placed in the new text are a fresh run's, byte for byte."""
    assert len(MOVES) >= 15
    server, given = _server(), kept.given
    fresh = _Fresh(monkeypatch)
    for path in MOVES:
        text = path.read_text(encoding="utf-8")
        _seen(server, text, 1, path)
        moved = "# a note\n" + text.replace("\n  - ", "\n  #\n  - ", 1)
        assert _seen(server, moved, 2, path) == fresh(moved, path), path
    assert kept.given - given >= len(MOVES) // 2


def _report(server: MovecheckServer, path: Path, text: str, version: int) -> dict[str, Any]:
    """Everything the check of ``text`` reports of the file: findings, published diagnostics, the orders checked and
    the units each order moved (``assignment``)."""
    checked = server.run_check(str(path), text, version)
    assert checked.result is not None and checked.result.entry is not None
    entry = checked.result.entry
    return {"findings": [f.to_json() for f in checked.result.report.findings],
            "published": [(str(d.code), d.message, str(d.range)) for d in checked.published],
            "checked": sorted(entry.checked), "assignment": entry.assignment}


def _edited(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``data`` with one of its orders edited the way a player does: a count changed, an order gone, one copied
    next to itself, two swapped, an id given, the last one gone (a player's next keystrokes)."""
    moves = copy.deepcopy(data["moves"])
    k = rng.randrange(len(moves))
    how = rng.choice(["count", "gone", "copied", "swapped", "id", "last"])
    if how == "count" and isinstance(moves[k].get("units"), dict) and moves[k]["units"]:
        kind = next(iter(moves[k]["units"]))
        moves[k]["units"][kind] = moves[k]["units"][kind] % 3 + 1
    elif how == "gone" and len(moves) > 1:
        del moves[k]
    elif how == "copied":
        moves.insert(k, copy.deepcopy(moves[k]))
    elif how == "swapped" and k + 1 < len(moves):
        moves[k], moves[k + 1] = moves[k + 1], moves[k]
    elif how == "last" and len(moves) > 1:
        moves.pop()
    else:
        moves[k] = {"id": f"edited-{k}", **{key: v for key, v in moves[k].items() if key != "id"}}
    return {**data, "moves": moves}


def _edits_agree(path: Path, steps: int, seed: int, monkeypatch: pytest.MonkeyPatch, root: Path = ROOT) -> int:
    """``steps`` edits of the orders of ``path`` (each edit of the last text, now and then the file as it was): the
    server keeping runs reports what one carrying every check out reports.  The kept runs taken back."""
    monkeypatch.setattr(kept, "BACK_SHARE", 0.0)  # taken back to any order, the first included
    rng = random.Random(seed)
    original = yaml.safe_load(path.read_text(encoding="utf-8"))
    server, fresh = _server(root=root), _Fresh(monkeypatch, root=root)
    data, before = original, kept.taken_back
    for version in range(1, steps + 1):
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        seen = _report(server, path, text, version)
        with monkeypatch.context() as patched:
            patched.setattr(kept, "KEEP_RUNS", False)
            fresh.version += 1
            assert seen == _report(fresh.server, path, text, fresh.version), (path, version, data["moves"])
        data = original if rng.random() < 0.15 else _edited(data, rng)
    return kept.taken_back - before


def test_an_edited_order_gets_a_fresh_runs_report_when_the_kept_run_is_taken_back(monkeypatch: pytest.MonkeyPatch
                                                                                  ) -> None:
    """The kept greedy run taken back to the first edited order and carried on from there (the undo log) reports
    what a fresh run reports: noncombat with transports and fighters (the landing plan at the end) and a combat
    move, each edited eight times."""
    for name in ("uk1-revised-noncombat.yaml", "g1-combat.yaml"):
        assert _edits_agree(ROOT / "examples" / "aa" / "orders" / name, 8, 37, monkeypatch) >= 3


def _loads(folder: Path) -> Path:
    """British loads from the United Kingdom where each zone has an empty transport and one with an infantry aboard:
    the greedy run boards the lone infantry on the half-full one, and the second tank finds no room (AA401); the
    search's first try spreads the infantry and every load fits, so it is the run kept (the two diverge at the first
    order, and again at the last, in 7 Sea Zone)."""
    uk, british = "United Kingdom", "British"
    units: list[dict[str, Any]] = [{"at": uk, "power": british, "type": "infantry", "count": 3},
                                   {"at": uk, "power": british, "type": "tank", "count": 2}]
    for zone, tag in (("6 Sea Zone", "A"), ("7 Sea Zone", "B")):
        units += [{"at": zone, "power": british, "type": "transport", "id": f"{tag}0"},
                  {"at": zone, "power": british, "type": "transport", "id": f"{tag}1"},
                  {"at": zone, "power": british, "type": "infantry", "aboard": f"{tag}1"}]
    state = {"movecheck": 1, "system": "aa", "rules": "aa1942", "map": "aa1942-2e",
             "turn": {"round": 2, "power": british, "phase": "noncombat_move"}, "units": units}
    (folder / "state.yaml").write_text(yaml.safe_dump(state), encoding="utf-8")
    moves = [{"units": {kind: 1}, "path": [uk, zone]}
             for kind, zone in (("infantry", "6 Sea Zone"), ("tank", "6 Sea Zone"), ("tank", "6 Sea Zone"),
                                ("infantry", "7 Sea Zone"))]
    orders = {"movecheck": 1, "system": "aa", "state": "state.yaml", "power": british, "phase": "noncombat_move",
              "moves": moves}
    path = folder / "orders.yaml"
    path.write_text(yaml.safe_dump(orders, sort_keys=False), encoding="utf-8")
    return path


def test_loads_edited_after_the_first_try_diverged_get_a_fresh_runs_report(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Transports the greedy run and the search's first try pack otherwise, the orders edited before and after the
    order where they diverge: the kept run taken back reports what a fresh run reports (assignment included; the
    first try kept and not put back before the greedy run is carried on fails here)."""
    path = _loads(tmp_path)
    for seed in (2, 5):  # each meets a kept first try taken back past the order where it diverged
        assert _edits_agree(path, 14, seed, monkeypatch, tmp_path) >= 4


def test_only_an_edit_late_in_the_orders_takes_the_kept_run_back() -> None:
    """Near the top, undoing the orders and carrying them out again logged costs more than carrying them out anew
    (``kept.BACK_SHARE``): an edit of the first order is carried out anew, one of the last is taken back."""
    data = yaml.safe_load(TEXT)
    server, before = _server(), kept.taken_back
    for version, k in enumerate([None, -1, -1, 0, -1, -1], start=1):
        if k is not None:
            data["moves"][k] = {**data["moves"][k], "id": f"edit-{version}"}
        _seen(server, yaml.safe_dump(data, sort_keys=False, allow_unicode=True), version)
    assert kept.taken_back - before == 2  # the second and the last edit of the last order (the first logs it)


def test_an_edit_naming_another_id_carries_the_orders_out_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """The ids the orders name tell units apart in every order, the earlier ones too: an edit of the last order
    that names a transport is never taken back to (the earlier orders would have been carried out naming none)."""
    monkeypatch.setattr(kept, "BACK_SHARE", 0.0)
    path = _loads(tmp_path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    server, fresh = _server(root=tmp_path), _Fresh(monkeypatch, root=tmp_path)
    texts = [yaml.safe_dump(data, sort_keys=False)]
    data["moves"][-1] = {**data["moves"][-1], "id": "last"}
    texts.append(yaml.safe_dump(data, sort_keys=False))
    data["moves"][-1] = {**data["moves"][-1], "transport": "B1"}
    texts.append(yaml.safe_dump(data, sort_keys=False))
    for version, text in enumerate(texts, start=1):
        before = kept.taken_back
        seen = _seen(server, text, version, path)
        with monkeypatch.context() as patched:
            patched.setattr(kept, "KEEP_RUNS", False)
            fresh.version += 1
            assert seen == _seen(fresh.server, text, fresh.version, path)
    assert kept.taken_back == before  # the last edit (naming B1) was carried out anew


@pytest.mark.slow
@pytest.mark.parametrize("path", MOVES, ids=lambda p: p.name)
def test_every_example_move_edited_gets_a_fresh_runs_report(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        _edits_agree(path, 10, seed, monkeypatch)
