"""The language server's re-check after a one-character edit (issue 27): CPU per re-check.

Run alone (``.venv/bin/python bench/server.py [--rounds 60]``) it prints the figures as JSON;
``bench/run.py --only server`` runs it in a process of its own and adds the row and the goal.
The re-check is the server's own (:meth:`movecheck.server.app.MovecheckServer.run_check`, what a
change of a buffer runs once its pause is over) of the example combat move, edited by one
character each round (a space after a comma of a path, put in and taken out again): the state
and the built-in map come from the server's caches, as they do while a player types.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ORDERS = ROOT / "examples" / "aa" / "orders" / "g1-combat.yaml"
TARGET_MS = 30.0


def measure(rounds: int) -> dict[str, float]:
    """Median and worst CPU milliseconds of a re-check, and the first check's (the state prepared)."""
    from movecheck.server.app import MovecheckServer
    from movecheck.server.files import Roots

    server = MovecheckServer()
    server.roots = Roots([str(ROOT)])
    path = str(ORDERS)
    text = ORDERS.read_text(encoding="utf-8")
    start = time.process_time()
    first = server.run_check(path, text, 1)
    first_ms = (time.process_time() - start) * 1000
    edited = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland,  Karelia S.S.R.]", 1)
    assert edited != text and first.result is not None and first.published == []
    times = []
    for k in range(rounds):
        start = time.process_time()
        checked = server.run_check(path, edited if k % 2 == 0 else text, k + 2)
        times.append((time.process_time() - start) * 1000)
        assert checked.published == [], checked.published
    return {"first_ms": first_ms, "median_ms": statistics.median(times), "max_ms": max(times),
            "rounds": rounds, "preparations": server.kernel.preparations}


def measure_turn(rounds: int, orders: int = 100, legal: bool = False, order_edit: int | None = None
                 ) -> dict[str, float]:
    """Median and worst CPU milliseconds of the server's re-check of B4 (``bench/search.py``) at ``orders`` orders
    after a one-character edit (issue 37's "100-order turn"), and what it finds; ``legal``: without its last order
    (the tank too many), a legal turn of ``orders - 1`` orders.  The edit changes no order (a space after
    ``"moves":``: the editor gives its kept run again, :mod:`movecheck.aa.kept`); ``order_edit``: the edit gives
    that order (-1: the last) an ``id`` (its data change: the kept greedy run is taken back to it, or the orders
    carried out anew)."""
    from search import b4_case

    from movecheck.server.app import MovecheckServer

    server = MovecheckServer()
    path, _exact = b4_case(orders)
    text = path.read_text(encoding="utf-8")
    if legal:
        data = json.loads(text)
        data["moves"].pop()
        path = path.with_name("legal-orders.json")
        text = json.dumps(data)
        path.write_text(text, encoding="utf-8")
    if order_edit is not None:
        data = json.loads(text)
        data["moves"][order_edit] = {"id": "edited", **data["moves"][order_edit]}
        return timed_rechecks(server, path, text, json.dumps(data), rounds)
    return timed_rechecks(server, path, text, text.replace('"moves":', '"moves": ', 1), rounds)


def measure_turn_yaml(rounds: int, orders: int = 100, order_edit: int | None = None) -> dict[str, float]:
    """:func:`measure_turn` with the orders written as YAML (block style, as a player writes them)."""
    import yaml
    from search import b4_case

    from movecheck.server.app import MovecheckServer

    server = MovecheckServer()
    path, _exact = b4_case(orders)
    path = path.with_name("orders.yaml")
    data = json.loads(path.with_name("orders.json").read_text(encoding="utf-8"))
    text = yaml.safe_dump(data, sort_keys=False, default_flow_style=None)
    path.write_text(text, encoding="utf-8")
    if order_edit is not None:
        data["moves"][order_edit] = {"id": "edited", **data["moves"][order_edit]}
        return timed_rechecks(server, path, text, yaml.safe_dump(data, sort_keys=False, default_flow_style=None),
                              rounds)
    return timed_rechecks(server, path, text, text.replace("moves:", "moves: ", 1), rounds)


def timed_rechecks(server: Any, path: Path, text: str, edited: str, rounds: int) -> dict[str, float]:
    """The server's re-checks of ``path``, ``edited`` and ``text`` in turn after a first check: CPU ms (median,
    worst) and the codes, which every re-check must repeat."""
    first = server.run_check(str(path), text, 1)
    times = []
    for k in range(rounds):
        start = time.process_time()
        checked = server.run_check(str(path), edited if k % 2 == 0 else text, k + 2)
        times.append((time.process_time() - start) * 1000)
        assert [d.code for d in checked.published] == [d.code for d in first.published]
    return {"median_ms": statistics.median(times), "max_ms": max(times),
            "codes": ",".join(sorted({str(d.code) for d in first.published}))}  # type: ignore[dict-item]


SEGMENT = 12
"""Territories of the chain per orders file in :func:`measure_state_edit` (more than any unit's reach apart)."""


def measure_state_edit(opened: int, rounds: int, every: bool = False) -> dict[str, float]:
    """CPU milliseconds of a state edit in the server with ``opened`` orders files open on it (issue 37): the state's
    check and the re-checks of the orders files the edit can change (``every``: of all of them, as before).

    A chain of ``12 * opened`` territories, each orders file walking an infantry a step at its own stretch of it;
    the edit gives the first file's second territory to the British and back (AA301 in that file, none elsewhere)."""
    import tempfile

    from movecheck.server.app import MovecheckServer, can_change, state_edit
    from movecheck.server.files import Roots

    names = [f"R{k}" for k in range(SEGMENT * opened)]
    game_map = {"name": "chain", "powers": ["Americans", "British", "Germans", "Japanese"],
                "sides": {"Allies": ["Americans", "British"], "Axis": ["Germans", "Japanese"]},
                "territories": [{"name": n} for n in names], "connections": list(map(list, itertools.pairwise(names))),
                "control": dict.fromkeys(names, "Germans")}
    state = {"movecheck": 1, "system": "aa", "map": game_map, "control": {},
             "turn": {"round": 3, "power": "Germans", "phase": "noncombat_move"},
             "units": [{"at": n, "power": "Germans", "type": "infantry"} for n in names]}
    with tempfile.TemporaryDirectory() as folder:
        server = MovecheckServer()
        server.roots = Roots([folder])
        state_path = os.path.join(folder, "state.json")
        texts = {state_path: json.dumps(state, indent=1)}
        orders = []
        for k in range(opened):
            path = os.path.join(folder, f"orders-{k}.json")
            texts[path] = json.dumps({"movecheck": 1, "system": "aa", "state": "state.json", "power": "Germans",
                                      "phase": "noncombat_move", "moves": [
                                          {"units": {"infantry": 1}, "path": names[SEGMENT * k:SEGMENT * k + 2]}]})
            Path(path).write_text(texts[path], encoding="utf-8")
            orders.append(path)
        Path(state_path).write_text(texts[state_path], encoding="utf-8")
        taken = json.dumps({**state, "control": {names[1]: "British"}}, indent=1)
        plain = texts[state_path]
        last = server.run_check(state_path, plain, 1, texts.get)
        readers = {p: server.run_check(p, texts[p], 1, texts.get) for p in orders}
        times, rechecked = [], []
        for k in range(rounds):
            texts[state_path] = taken if k % 2 == 0 else plain
            start = time.process_time()
            checked = server.run_check(state_path, texts[state_path], k + 2, texts.get)
            edit = state_edit(last, checked)
            again = [p for p in orders if every or can_change(state_path, edit, readers[p])]
            for p in again:
                readers[p] = server.run_check(p, texts[p], 1, texts.get)
            times.append((time.process_time() - start) * 1000)
            last = checked
            rechecked.append(len(again))
            assert [d.code for d in readers[orders[0]].published] == (["AA301"] if k % 2 == 0 else [])
    return {"median_ms": statistics.median(times), "rechecked": statistics.median(rechecked)}


HARD = """
from movecheck.aa import engine, overloads
engine.BOUNDS = False
engine.ERROR_FIRST = engine.SWAPPABLE = engine.REPLAY = engine.CUT = False  # each would end B1's search early
overloads.Overloads.lower_bound = lambda self: 0
overloads.Overloads.counts = lambda self, order, code: False
from movecheck.server.app import serve
serve()
"""
"""The server with every choice tried (``bench/search.py``'s unbounded run): B1's check lasts tens of seconds."""


async def _over_lsp(rounds: int) -> dict[str, float]:
    """Wall milliseconds over stdio with a real client: a hover with nothing running, a hover while B1 made hard is
    checked, and an edit's diagnostics (no pause) on the example combat move and on B4 at 100 orders."""
    import asyncio
    import os

    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient
    from search import b1_case, b4_case

    env = dict(os.environ, MOVECHECK_SERVER_DELAY="0", MOVECHECK_LANG="en", MOVECHECK_CHOICE_BUDGET=str(10**10),
               PYTHONPATH=str(ROOT))
    client = LanguageClient("bench", "1")
    versions: dict[str, asyncio.Queue[tuple[int | None, float]]] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: lsp.PublishDiagnosticsParams) -> None:
        versions.setdefault(params.uri, asyncio.Queue()).put_nowait((params.version, time.perf_counter()))

    async def until(uri: str, version: int) -> float:
        queue = versions.setdefault(uri, asyncio.Queue())
        while True:
            seen, when = await asyncio.wait_for(queue.get(), 120)
            if seen == version:
                return when

    def open_(path: Path, text: str) -> str:
        uri = path.resolve().as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def edit(uri: str, version: int, text: str) -> float:
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        return time.perf_counter()

    async def hovers(uri: str, where: lsp.Position) -> list[float]:
        found = []
        for _ in range(rounds):
            start = time.perf_counter()
            answer = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), where))
            found.append((time.perf_counter() - start) * 1000)
            assert answer is not None
        return found

    async def edits(path: Path, text: str, edited: str, apart: float = 0.0) -> list[float]:
        uri = open_(path, text)
        await until(uri, 1)
        found = []
        for k in range(rounds):
            await asyncio.sleep(apart)
            sent = edit(uri, k + 2, edited if k % 2 == 0 else text)
            found.append((await until(uri, k + 2) - sent) * 1000)
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        return found

    async def session(driver: str, adaptive: bool = False) -> None:
        own = {k: v for k, v in env.items() if not (adaptive and k == "MOVECHECK_SERVER_DELAY")}
        await client.start_io(sys.executable, "-c", driver, env=own, cwd=str(ROOT))
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), workspace_folders=[
            lsp.WorkspaceFolder(uri=ROOT.as_uri(), name="movecheck")]))
        client.initialized(lsp.InitializedParams())

    async def end() -> None:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()

    await session(HARD)
    text = ORDERS.read_text(encoding="utf-8")
    combat = open_(ORDERS, text)
    await until(combat, 1)
    line = next(k for k, row in enumerate(text.splitlines()) if "Archangel, Karelia" in row)
    where = lsp.Position(line, text.splitlines()[line].index("Archangel") + 2)
    idle = await hovers(combat, where)
    hard, _exact = b1_case(6)
    b1 = open_(hard, hard.read_text(encoding="utf-8"))
    await asyncio.sleep(0.5)
    busy = await hovers(combat, where)
    assert versions.get(b1) is None or versions[b1].empty(), "B1's check ended before the hovers: make it harder"
    edit(b1, 2, hard.read_text(encoding="utf-8").replace('"moves":', '"moves": ', 1))  # calls the check off
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(b1)))
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(combat)))
    await end()
    client = LanguageClient("bench", "1")  # the edits on the server as it ships (counting bounds on)
    client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(publish)
    versions.clear()
    await session("from movecheck.server.app import serve; serve()")
    edited = text.replace("path: [Finland, Karelia S.S.R.]", "path: [Finland,  Karelia S.S.R.]", 1)
    example = await edits(ORDERS, text, edited)
    turn, _exact = b4_case(100)
    turn_text = turn.read_text(encoding="utf-8")
    hundred = await edits(turn, turn_text, turn_text.replace('"moves":', '"moves": ', 1))
    await end()
    client = LanguageClient("bench", "1")  # the adaptive pause: edits 0.3 s apart (a lone keystroke each)
    client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(publish)
    versions.clear()
    await session("from movecheck.server.app import serve; serve()", adaptive=True)
    paused = await edits(ORDERS, text, edited, apart=0.3)
    await end()
    return {"hover_idle_ms": statistics.median(idle), "hover_busy_ms": statistics.median(busy),
            "hover_busy_max_ms": max(busy), "edit_example_ms": statistics.median(example),
            "edit_turn_ms": statistics.median(hundred), "edit_example_adaptive_pause_ms": statistics.median(paused),
            "edit_example_adaptive_pause_max_ms": max(paused)}


def bench_server(repeat: int, table: Any, goal: Any) -> list[str]:
    """``run.py --only server``: the row of the re-check and its goal, measured in a process of its own."""
    import subprocess

    rounds = max(20, 12 * repeat)
    run = subprocess.run([sys.executable, str(Path(__file__)), "--rounds", str(rounds)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    found = json.loads(run.stdout)
    median = found["median_ms"]
    table(f"9. Language server (CPU of one re-check, median of {rounds})", [
        ("example combat move, one character edited", f"{median:.1f} ms", f"{found['max_ms']:.1f} ms",
         f"{found['first_ms']:.0f} ms", f"≤ {TARGET_MS:g} ms", "pass" if median <= TARGET_MS else "FAIL"),
    ], ("re-check", "CPU", "worst", "first check (state prepared)", "target", ""))
    goal("server: re-check of the example combat move after a one-character edit (CPU)",
         median / 1000, TARGET_MS / 1000, "s")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--lsp", action="store_true", help="wall times over stdio with a real client (issue 37)")
    args = parser.parse_args(argv)
    if args.lsp:
        import asyncio

        print(json.dumps(asyncio.run(_over_lsp(args.rounds))))
        return 0
    found = measure(args.rounds)
    found.update({f"turn_{k}": v for k, v in measure_turn(args.rounds).items()})  # type: ignore[misc]
    found.update({f"legal_turn_{k}": v for k, v in measure_turn(args.rounds, legal=True).items()})  # type: ignore[misc]
    found.update({f"yaml_turn_{k}": v for k, v in measure_turn_yaml(args.rounds).items()})  # type: ignore[misc]
    # issue 37: an edit that changes an order (its id): the last, the middle one, the first
    found.update({f"turn_order_edit_{k}": v for k, v in measure_turn(args.rounds, order_edit=-1).items()})  # type: ignore[misc]
    found.update({f"legal_turn_order_edit_{k}": v  # type: ignore[misc]
                  for k, v in measure_turn(args.rounds, legal=True, order_edit=-1).items()})
    found.update({f"yaml_turn_order_edit_{k}": v  # type: ignore[misc]
                  for k, v in measure_turn_yaml(args.rounds, order_edit=-1).items()})
    for where, name in ((50, "middle"), (0, "first")):
        found.update({f"turn_{name}_order_edit_{k}": v  # type: ignore[misc]
                      for k, v in measure_turn(args.rounds, order_edit=where).items()})
    for opened in (5, 20):  # issue 37: a state edited with five and twenty orders files open
        for every in (True, False):
            name = f"state_edit_{opened}_{'every' if every else 'affected'}"
            found.update({f"{name}_{k}": v for k, v in measure_state_edit(opened, args.rounds, every).items()})
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
