"""Property-based robustness (issue #9): hostile and broken input never crashes, never hangs.

Every input here is run through ``movecheck.cli.main`` in this process (fast), and for
every one:

* the exit code is 0 or 1 -- the input is a readable file, so whatever is in it is a
  finding; exit 2 would mean "internal error" (a crash the catch-all in ``main`` hid);
* nothing escapes ``main`` and nothing says ``Traceback``;
* ``--format json`` output is a report valid against ``movecheck schema report``;
* the input files are not written to (their bytes are the same after the run).

Inputs: arbitrary bytes, byte soups of YAML syntax, arbitrary YAML documents shaped like
movecheck files, and the bundled examples mutated (keys dropped, renamed and retyped,
values swapped for huge, negative, float, NaN, unicode or empty ones, list items
duplicated, lists shuffled, names pointing nowhere, lines duplicated or cut).

Profiles (registered here, not in the shared conftest): ``movecheck-ci`` is the default,
derandomized with a bounded number of examples so CI runs the same inputs every time;
``MOVECHECK_HYPOTHESIS=long`` selects ``movecheck-long`` (thousands of random examples)
for a local hunt::

    MOVECHECK_HYPOTHESIS=long .venv/bin/python -m pytest -m '' tests/test_hypothesis.py

Each property runs twice (:mod:`tests.properties`): a share of the profile's examples in
the default run, all of them under the ``slow`` marker.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.properties import in_two_runs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

# -- profiles --------------------------------------------------------------------

_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile("movecheck-ci", max_examples=50, derandomize=True, **_COMMON)
settings.register_profile("movecheck-long", max_examples=3000, derandomize=False, **_COMMON)
PROFILE = "movecheck-long" if os.environ.get("MOVECHECK_HYPOTHESIS", "").strip() == "long" else "movecheck-ci"


def profile(scale: float = 1.0) -> settings:
    """The selected profile, with ``scale`` times its number of examples (cheap tests run more)."""
    parent = settings.get_profile(PROFILE)
    return settings(parent, max_examples=max(1, int(parent.max_examples * scale)))


# -- running movecheck in this process -------------------------------------------


def _traceback_of(args: Sequence[str], stdin: bytes | None) -> str:
    """Run the command without ``main``'s catch-all, to show where an internal error came from."""
    import typer

    from movecheck.cli import app

    command = typer.main.get_command(app)
    with _io(stdin) as (_out, _err):
        try:
            command.main(args=list(args), prog_name="movecheck", standalone_mode=False)
        except Exception:
            return traceback.format_exc()
    return "(not reproduced without main's catch-all)"


@contextlib.contextmanager
def _io(stdin: bytes | None):
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = saved


HANG_GUARD = 60.0
"""Seconds one in-process run may take before it counts as a hang (a guard, not a timing test)."""


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so ``main``'s catch-all lets it through."""


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_GUARD):
    """Turn a run that never ends into a test failure instead of a stuck (or OOM-killed) suite."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(_signum: int, _frame: Any) -> None:
        raise Hang(f"still running after {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def invoke(
    args: Sequence[str],
    validate: Callable[[Any], Any],
    *,
    stdin: bytes | None = None,
    inputs: Sequence[Path] = (),
    content_only: bool = True,
    usage: str | None = None,
) -> tuple[int, str, str]:
    """Run ``movecheck ARGS`` in this process and check the robustness contract; (code, out, err).

    ``content_only``: every named file exists and is readable, so exit 2 is a crash, unless
    its line starts with ``usage`` (a usage error the content may cause: ``--suggest`` on a
    file mutated into aa orders).
    """
    from movecheck.cli import main

    args = [str(a) for a in args]
    if inputs and args[0] in ("check", "lint") and not any(REPO in p.parents for p in inputs):
        # a scratch folder outside the repository: it is the root its files' state: lies in
        args += ["--root", os.path.commonpath([str(p.parent) for p in inputs])]
    before = {p: p.read_bytes() for p in inputs}
    with _io(stdin) as (out_buffer, err_buffer):
        try:
            with hang_guard():
                code = main(args)
        except BaseException as exc:
            pytest.fail(f"movecheck {args} raised {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    out, err = out_buffer.getvalue(), err_buffer.getvalue()
    shown = f"movecheck {' '.join(args)}"
    assert code in (0, 1, 2), f"{shown}: exit {code}"
    assert "Traceback" not in err and "Traceback" not in out, f"{shown}: traceback\n{err}"
    if code == 2:
        assert err.endswith("\n") and err.count("\n") == 1, f"{shown}: exit 2 must print exactly one line:\n{err!r}"
        if (content_only and not (usage and err.startswith(usage))) or "internal error" in err:
            pytest.fail(f"{shown}: exit 2 on a readable input: {err.strip()}\n{_traceback_of(args, stdin)}")
    if _format_of(args) == "json" and code in (0, 1):
        try:
            validate(json.loads(out))
        except json.JSONDecodeError as exc:
            pytest.fail(f"{shown}: --format json output is not JSON ({exc}):\n{out[:2000]}")
    for path, data in before.items():
        assert path.read_bytes() == data, f"{shown} changed its input {path}"
    return code, out, err


def _format_of(args: Sequence[str]) -> str:
    for i, arg in enumerate(args):
        if arg in ("--format", "-f") and i + 1 < len(args):
            return args[i + 1]
    return "text"


FORMATS = st.sampled_from(["json", "json", "json", "text", "full", "json-lines", "github", "sarif"])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the examples' working copies (each example gets a fresh sub-folder)."""
    return tmp_path_factory.mktemp("hypothesis")


@contextlib.contextmanager
def workdir(scratch: Path):
    """A fresh folder per example: no file (or map cache entry) is shared between examples."""
    path = Path(tempfile.mkdtemp(dir=scratch))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- values ----------------------------------------------------------------------

NASTY_SCALARS = [
    0, -1, 1, -(10**9), 10**9, 2**31, 2**63, -(2**63), 10**18, 10**40,
    0.5, -0.0, 1e-300, 1e308, -1e308, math.inf, -math.inf, math.nan,
    True, False, None,
    "", " ", "\t", "\n", "~", "null", "no", "yes", "0101", "1e3", "2024-01-01", ".nan",
    "é", "Ünïcödé", "日本語", "💥", "\u202egnp.txt", "\u200b", "a\x00b", "\x7f", "../../etc/passwd", "/",
    "x" * 5000,
]
SCALARS = st.one_of(
    st.sampled_from(NASTY_SCALARS),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.booleans(),
)


def json_like(leaves: st.SearchStrategy[Any] = SCALARS, max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Nested lists and mappings (text keys) of ``leaves``."""
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), children, max_size=4),
        ),
        max_leaves=max_leaves,
    )


# every key movecheck files use, so that mutations and generated documents hit real code paths
VOCABULARY = sorted(
    {
        "movecheck", "system", "kind", "state", "power", "phase", "moves", "units", "path", "id",
        "transport", "attack", "note", "map", "turn", "round", "control", "captured_this_turn",
        "purchased", "rules", "options", "at", "type", "count", "moved", "fought", "aboard", "loaded",
        "unloaded", "name", "powers", "sides", "territories", "connections", "canals", "sea_zones",
        "land", "sea", "neutral", "aliases", "unit_types", "movement", "domain", "transport_cost",
        "transport_capacity", "carrier_capacity", "carrier_cost", "side", "orders", "corps", "order",
        "landmark", "rolls", "end", "base", "x", "y", "facing", "field", "width", "depth", "terrain",
        "polygon", "landmarks", "point", "bases", "mobility", "dice", "tolerance", "penalties",
        "contact_gap", "prebattle_distance", "prebattle_bonus", "prebattle_measure", "corps_penalty",
        "back_distance", "pass_through_limit", "land_on_new_carrier", "neutrals_impassable",
    }
)
KEYS = st.sampled_from(VOCABULARY)


def dump(data: Any, unicode: bool = True) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=unicode, width=10_000)


# -- mutations -------------------------------------------------------------------


def node_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path in a plain-data tree (the root is ``()``)."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(node_paths(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(node_paths(value, (*path, index)))
    return found


def get_at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def typo(text: str, draw: Callable[..., Any]) -> str:
    if not text:
        return "x"
    k = draw(st.integers(0, len(text) - 1))
    how = draw(st.sampled_from(["drop", "double", "swapcase", "space"]))
    if how == "drop":
        return text[:k] + text[k + 1 :] or "x"
    if how == "double":
        return text[:k] + text[k] + text[k:]
    if how == "swapcase":
        return text.swapcase()
    return text + " "


def mutate_data(data: Any, draw: Callable[..., Any]) -> tuple[Any, list[str]]:
    """Apply 1-4 random mutations to a copy of ``data``; returns it and what was done."""
    data = copy.deepcopy(data)
    done: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        paths = node_paths(data)
        # pick a depth first, then a node at that depth: the few top-level keys (where a
        # wrong shape hurts most) are hit as often as the many leaves
        depths = sorted({len(p) for p in paths})
        depth = draw(st.sampled_from(depths))
        path = draw(st.sampled_from([p for p in paths if len(p) == depth]))
        op = draw(
            st.sampled_from(
                [
                    "drop",
                    "rename",
                    "retype",
                    "retype",
                    "scalar",
                    "duplicate",
                    "shuffle",
                    "swap",
                    "dangling",
                    "wrap",
                    "grow",
                ]
            )
        )
        if not path:
            if op == "retype":
                data = draw(json_like())
                done.append("root retyped")
            continue
        parent, last = get_at(data, path[:-1]), path[-1]
        node = parent[last]
        if op == "drop":
            del parent[last]
        elif op == "rename" and isinstance(parent, dict):
            new = draw(
                st.one_of(
                    KEYS, st.just(typo(str(last), draw)), st.text(max_size=8), st.sampled_from(["", "<<", "~", "0101"])
                )
            )
            value = parent.pop(last)
            parent[new] = value
            last = new
        elif op == "retype":
            parent[last] = draw(json_like(max_leaves=4))
        elif op == "scalar":
            parent[last] = draw(st.sampled_from(NASTY_SCALARS))
        elif op == "duplicate":
            if isinstance(node, list) and node:
                k = draw(st.integers(0, len(node) - 1))
                node.insert(k, copy.deepcopy(node[k]))
            elif isinstance(parent, list):
                parent.insert(last, copy.deepcopy(node))
        elif op == "shuffle" and isinstance(node, list):
            parent[last] = draw(st.permutations(node))
        elif op == "swap":
            other = draw(st.sampled_from(paths))
            parent[last] = copy.deepcopy(get_at(data, other)) if other else copy.deepcopy(data)
        elif op == "dangling":
            if isinstance(node, str):
                parent[last] = draw(
                    st.sampled_from(["nowhere", "Atlantis", "SZ 999", "sz0", "r99", "red-99", typo(node, draw)])
                )
            elif isinstance(node, dict) and node:
                key = draw(st.sampled_from(list(node)))
                node["nowhere-" + str(key)] = node.pop(key)
        elif op == "wrap":
            parent[last] = draw(st.sampled_from([[node], {"x": node}, [node, node]]))
        elif op == "grow" and isinstance(node, list):
            parent[last] = node * draw(st.integers(2, 20))
        else:
            continue
        done.append(f"{op} at {list(path)}")
    return data, done


def mutate_text(text: str, draw: Callable[..., Any]) -> str:
    """Line-level damage: duplicate (duplicate keys), drop, tab-indent, cut, or splice lines."""
    lines = text.splitlines(keepends=True) or ["\n"]
    k = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["dup", "drop", "tab", "cut", "splice", "crlf", "bom", "indent"]))
    if how == "dup":
        lines.insert(k, lines[k])
    elif how == "drop":
        del lines[k]
    elif how == "tab":
        lines[k] = "\t" + lines[k].lstrip(" ")
    elif how == "cut":
        line = lines[k]
        lines = [*lines[:k], line[:draw(st.integers(0, len(line)))]]
    elif how == "splice":
        lines.insert(
            k,
            draw(
                st.sampled_from(
                    [
                        "- [\n",
                        "{\n",
                        "&a x\n",
                        "*b\n",
                        "? [a]\n: b\n",
                        "!!python/name:os.system\n",
                        "key: 'unterminated\n",
                        "---\n",
                        "...\n",
                        "%TAG ! tag:x,2000:\n",
                    ]
                )
            ),
        )
    elif how == "crlf":
        lines = [line.replace("\n", "\r\n") for line in lines]
    elif how == "bom":
        lines[0] = "\ufeff" + lines[0]
    elif how == "indent":
        lines[k] = "   " + lines[k]
    return "".join(lines)


# -- the seeds -------------------------------------------------------------------


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


AA_PAIRS = [
    ("examples/aa/orders/g1-combat.yaml", "examples/aa/states/g1-combat.yaml"),
    ("examples/aa/orders/g1-noncombat.yaml", "examples/aa/states/g1-noncombat.yaml"),
]
MANEUVER_STATE = "examples/maneuver/battlefield.yaml"
MANEUVER_ORDERS = [
    "examples/maneuver/corps-orders.yaml",
    "examples/maneuver/free-orders.yaml",
]


def _have(*paths: str) -> bool:
    return all((REPO / p).is_file() for p in paths)


def _pair_in(folder: Path, orders_data: Any, state_text: str, orders_text: str | None = None) -> tuple[Path, Path]:
    """Write a state and orders pointing at it (``state: state.yaml``) into ``folder``."""
    state = folder / "state.yaml"
    state.write_text(state_text, encoding="utf-8")
    orders = folder / "orders.yaml"
    if orders_text is None:
        if isinstance(orders_data, dict) and "state" in orders_data:
            orders_data["state"] = "state.yaml"
        orders_text = dump(orders_data, unicode=True)
    orders.write_bytes(orders_text.encode("utf-8"))
    return orders, state


def _retarget(text: str) -> str:
    """An example's text with its ``state:`` line pointing at ``state.yaml`` next to it."""
    return "".join(
        "state: state.yaml\n" if line.startswith("state:") else line for line in text.splitlines(keepends=True)
    )


# -- properties ------------------------------------------------------------------

YAML_TOKENS = st.sampled_from(
    [
        b"{", b"}", b"[", b"]", b"- ", b": ", b", ", b"\n", b"  ", b"\t", b"&a ", b"*a", b"*b",
        b"!!python/object/apply:os.system ", b"!!str ", b"!!int ", b"!!binary ", b"!custom ", b"'", b'"',
        b"# c", b"---\n", b"...\n", b"%YAML 1.1\n", b"\xef\xbb\xbf", b"\r\n", b"\r", b"\x00", b"\xff\xfe",
        b"\xc3", b"system", b"aa", b"maneuver", b"moves", b"orders", b"state", b"kind", b"map", b"? ",
        b"|\n", b">-\n", b"<<: ", b"1e400", b".nan", b"-.inf", b"0x1F", b"0o17", b"1_000", b"0101",
        b"2001-12-14", b"~", b"\\u0000", b"\xe2\x80\xae", b"\xf0\x9f\x92\xa5", b"@", b"`", b"%",
    ]
)
BYTES = st.one_of(st.binary(max_size=400), st.lists(YAML_TOKENS, max_size=60).map(b"".join))


def _arbitrary_bytes(raw: bytes, fmt: str, scratch: Path, report_validator) -> None:
    """Any bytes at all, as a file for ``lint`` and ``check``: a finding, never a crash."""
    with workdir(scratch) as folder:
        path = folder / "input.yaml"
        path.write_bytes(raw)
        for command in ("lint", "check"):
            invoke([command, path, "--format", fmt], report_validator, inputs=[path])


test_arbitrary_bytes, test_arbitrary_bytes_in_full = in_two_runs(
    profile(scale=2),
    raw=BYTES,
    fmt=FORMATS,
)(_arbitrary_bytes)


def _arbitrary_bytes_on_stdin(raw: bytes, report_validator) -> None:
    """The same through standard input (``-``)."""
    invoke(["lint", "-", "--format", "json"], report_validator, stdin=raw)
    invoke(["check", "-", "--stdin-filename", "orders.yaml", "--format", "json"], report_validator, stdin=raw)


test_arbitrary_bytes_on_stdin, test_arbitrary_bytes_on_stdin_in_full = in_two_runs(
    profile(),
    raw=BYTES,
)(_arbitrary_bytes_on_stdin)


@st.composite
def movecheck_documents(draw: Callable[..., Any]) -> Any:
    """A mapping shaped like a movecheck file: a system, maybe a kind, known keys, junk values."""
    doc: dict[str, Any] = {}
    if draw(st.booleans()):
        doc["movecheck"] = draw(st.one_of(st.just(1), SCALARS))
    doc["system"] = draw(st.one_of(st.sampled_from(["aa", "maneuver"]), SCALARS))
    if draw(st.booleans()):
        doc["kind"] = draw(st.one_of(st.sampled_from(["state", "orders", "map"]), SCALARS))
    extra = draw(st.dictionaries(KEYS, json_like(max_leaves=10), max_size=8))
    doc.update(extra)
    return draw(st.one_of(st.just(doc), st.just(doc), json_like(max_leaves=6)))


def _arbitrary_yaml_documents(document: Any, fmt: str, state_kind: str, scratch: Path, report_validator) -> None:
    """Arbitrary YAML documents (with a real state next to them): ``lint`` and ``check`` cope."""
    with workdir(scratch) as folder:
        inputs = []
        if state_kind != "none":
            source = AA_PAIRS[0][1] if state_kind == "aa" else MANEUVER_STATE
            if _have(source):
                shutil.copy(REPO / source, folder / "state.yaml")
                inputs.append(folder / "state.yaml")
        if isinstance(document, dict) and draw_state_key(document):
            document["state"] = "state.yaml"
        path = folder / "doc.yaml"
        path.write_text(dump(document), encoding="utf-8")
        inputs.append(path)
        invoke(["lint", path, "--format", fmt], report_validator, inputs=inputs)
        invoke(["check", path, "--format", fmt], report_validator, inputs=inputs)


test_arbitrary_yaml_documents, test_arbitrary_yaml_documents_in_full = in_two_runs(
    profile(),
    document=movecheck_documents(),
    fmt=FORMATS,
    state_kind=st.sampled_from(["aa", "maneuver", "none"]),
)(_arbitrary_yaml_documents)


def draw_state_key(document: dict[str, Any]) -> bool:
    """Orders-looking documents get a ``state:`` that points at the real state (deterministic)."""
    return any(k in document for k in ("moves", "orders", "power", "phase", "side"))


def _mutated_aa_orders(
    orders_file: str, state_file: str, data: st.DataObject, fmt: str, scratch: Path, report_validator
) -> None:
    """The aa example turns with their orders mutated (the state intact next to them)."""
    orders = _load(REPO / orders_file)
    state_text = (REPO / state_file).read_text(encoding="utf-8")
    with workdir(scratch) as folder:
        if data.draw(st.integers(0, 4), label="text-level") == 0:
            text = mutate_text(_retarget((REPO / orders_file).read_text(encoding="utf-8")), data.draw)
            orders_path, state_path = _pair_in(folder, None, state_text, text)
        else:
            mutated, done = mutate_data(orders, data.draw)
            data.draw(st.just(done), label="mutations")
            orders_path, state_path = _pair_in(folder, mutated, state_text)
        invoke(["check", orders_path, "--format", fmt], report_validator, inputs=[orders_path, state_path])


test_mutated_aa_orders, test_mutated_aa_orders_in_full = in_two_runs(
    profile(),
    data=st.data(),
    fmt=FORMATS,
    marks=[pytest.mark.parametrize("orders_file,state_file", AA_PAIRS, ids=["combat", "noncombat"])],
)(_mutated_aa_orders)


def _mutated_aa_states(
    orders_file: str, state_file: str, data: st.DataObject, fmt: str, scratch: Path, report_validator
) -> None:
    """The aa example states mutated, checked against their (intact) orders and linted."""
    state = _load(REPO / state_file)
    orders_text = _retarget((REPO / orders_file).read_text(encoding="utf-8"))
    with workdir(scratch) as folder:
        if data.draw(st.integers(0, 4), label="text-level") == 0:
            state_text = mutate_text((REPO / state_file).read_text(encoding="utf-8"), data.draw)
        else:
            mutated, done = mutate_data(state, data.draw)
            data.draw(st.just(done), label="mutations")
            state_text = dump(mutated)
        orders_path, state_path = _pair_in(folder, None, state_text, orders_text)
        invoke(["check", orders_path, "--format", fmt], report_validator, inputs=[orders_path, state_path])
        invoke(["lint", state_path, "--format", "json"], report_validator, inputs=[state_path])


test_mutated_aa_states, test_mutated_aa_states_in_full = in_two_runs(
    profile(scale=0.7),
    data=st.data(),
    fmt=FORMATS,
    marks=[pytest.mark.parametrize("orders_file,state_file", AA_PAIRS, ids=["combat", "noncombat"])],
)(_mutated_aa_states)


@st.composite
def inline_maps(draw: Callable[..., Any]) -> dict[str, Any]:
    """A small random aa map (territories, connections, unit types) inline in a state."""
    names = draw(
        st.lists(
            st.sampled_from(["A", "B", "C", "1 Sea Zone", "2 Sea Zone", "sz3", "", "A "]),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    territories = [{"name": n, "sea": "Sea" in n or n.startswith("sz")} for n in names if n]
    pool = [t["name"] for t in territories] + ["Nowhere"]
    connections = draw(st.lists(st.lists(st.sampled_from(pool), min_size=2, max_size=2), max_size=10))
    game_map: dict[str, Any] = {
        "name": "tiny",
        "powers": ["P", "Q"],
        "sides": draw(st.sampled_from([{"x": ["P"], "y": ["Q"]}, {"x": ["P", "Q"]}, {"x": ["P"], "y": ["P", "Q"]}])),
        "territories": territories or [{"name": "A"}],
        "connections": connections,
    }
    if draw(st.booleans()):
        game_map["unit_types"] = {
            "infantry": {
                "movement": draw(st.sampled_from([0, 1, 3, 10**6, 10**12])),
                "domain": "land",
                "transport_cost": 2,
            },
            "fighter": {"movement": draw(st.sampled_from([0, 4, 10**9])), "domain": "air", "carrier_cost": 1},
            "carrier": {"movement": draw(st.sampled_from([0, 2, 10**9])), "domain": "sea", "carrier_capacity": 2},
            "transport": {"movement": 2, "domain": "sea", "transport_capacity": 5},
        }
    if draw(st.booleans()):
        game_map["canals"] = [
            {
                "name": "K",
                "sea_zones": draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2)),
                "land": [draw(st.sampled_from(pool))],
            }
        ]
    return game_map


def _small_inline_maps(
    data: st.DataObject, game_map: dict[str, Any], fmt: str, scratch: Path, report_validator
) -> None:
    """Random small maps (dangling connections, canals between nowhere, huge movement) with random moves."""
    spaces = [t["name"] for t in game_map["territories"]] + ["Nowhere"]
    types = ["infantry", "fighter", "carrier", "transport", "tank"]
    units = data.draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "at": st.sampled_from(spaces),
                    "power": st.sampled_from(["P", "Q", "R"]),
                    "type": st.sampled_from(types),
                },
                optional={
                    "count": st.sampled_from([1, 2, 5]),
                    "id": st.sampled_from(["u1", "u2", "c1"]),
                    "aboard": st.sampled_from(["u1", "c1"]),
                },
            ),
            max_size=8,
        ),
        label="units",
    )
    phase = data.draw(st.sampled_from(["combat_move", "noncombat_move"]), label="phase")
    state = {"system": "aa", "map": game_map, "turn": {"power": "P", "phase": phase}, "units": units}
    if data.draw(st.booleans(), label="purchased"):
        state["purchased"] = {"carrier": data.draw(st.sampled_from([1, 3, 10**6, 10**12]), label="bought")}
    moves = data.draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "units": st.one_of(
                        st.dictionaries(st.sampled_from(types), st.integers(1, 3), min_size=1, max_size=2),
                        st.lists(st.sampled_from(["u1", "u2", "c1"]), min_size=1, max_size=2),
                    ),
                    "path": st.lists(st.sampled_from(spaces), min_size=2, max_size=5),
                },
                optional={
                    "attack": st.one_of(st.booleans(), st.sampled_from(spaces)),
                    "transport": st.sampled_from(["u1", "c1", "t9"]),
                },
            ),
            max_size=5,
        ),
        label="moves",
    )
    orders = {"system": "aa", "state": "state.yaml", "power": "P", "phase": phase, "moves": moves}
    with workdir(scratch) as folder:
        orders_path, state_path = _pair_in(folder, orders, dump(state))
        invoke(["check", orders_path, "--format", fmt], report_validator, inputs=[orders_path, state_path])
        invoke(["lint", state_path, "--format", "json"], report_validator, inputs=[state_path])


test_small_inline_maps, test_small_inline_maps_in_full = in_two_runs(
    profile(),
    data=st.data(),
    game_map=inline_maps(),
    fmt=FORMATS,
)(_small_inline_maps)


needs_maneuver = pytest.mark.skipif(
    not _have(MANEUVER_STATE, *MANEUVER_ORDERS), reason="the maneuver examples are not there (yet)"
)


def _mutated_maneuver_orders(orders_file: str, data: st.DataObject, fmt: str, scratch: Path, report_validator) -> None:
    """The maneuver example orders mutated (the battlefield intact next to them)."""
    orders = _load(REPO / orders_file)
    state_text = (REPO / MANEUVER_STATE).read_text(encoding="utf-8")
    with workdir(scratch) as folder:
        if data.draw(st.integers(0, 4), label="text-level") == 0:
            text = mutate_text(_retarget((REPO / orders_file).read_text(encoding="utf-8")), data.draw)
            orders_path, state_path = _pair_in(folder, None, state_text, text)
        else:
            mutated, done = mutate_data(orders, data.draw)
            data.draw(st.just(done), label="mutations")
            orders_path, state_path = _pair_in(folder, mutated, state_text)
        invoke(["check", orders_path, "--format", fmt, "--suggest"], report_validator, inputs=[orders_path, state_path],
               usage="movecheck: error: --suggest has nothing to write for an aa-orders file")


test_mutated_maneuver_orders, test_mutated_maneuver_orders_in_full = in_two_runs(
    profile(),
    data=st.data(),
    fmt=FORMATS,
    marks=[needs_maneuver, pytest.mark.parametrize("orders_file", MANEUVER_ORDERS, ids=["corps", "free"])],
)(_mutated_maneuver_orders)


def _mutated_maneuver_battlefield(data: st.DataObject, fmt: str, scratch: Path, report_validator) -> None:
    """The maneuver battlefield mutated, linted and checked against the (intact) corps orders."""
    state = _load(REPO / MANEUVER_STATE)
    orders_text = _retarget((REPO / MANEUVER_ORDERS[0]).read_text(encoding="utf-8"))
    with workdir(scratch) as folder:
        if data.draw(st.integers(0, 4), label="text-level") == 0:
            state_text = mutate_text((REPO / MANEUVER_STATE).read_text(encoding="utf-8"), data.draw)
        else:
            mutated, done = mutate_data(state, data.draw)
            data.draw(st.just(done), label="mutations")
            state_text = dump(mutated)
        orders_path, state_path = _pair_in(folder, None, state_text, orders_text)
        invoke(["lint", state_path, "--format", fmt], report_validator, inputs=[state_path])
        invoke(["check", orders_path, "--format", "json"], report_validator, inputs=[orders_path, state_path])


test_mutated_maneuver_battlefield, test_mutated_maneuver_battlefield_in_full = in_two_runs(
    profile(),
    data=st.data(),
    fmt=FORMATS,
    marks=[needs_maneuver],
)(_mutated_maneuver_battlefield)


@pytest.mark.slow  # a fresh interpreter per example; the in-process tests above run the same mutations
@profile(scale=0.06)
@given(data=st.data())
def test_mutated_orders_in_a_real_process(data: st.DataObject, scratch: Path, report_validator) -> None:
    """A few batches of mutated aa orders through ``python -m movecheck check``: a real interpreter,
    real stdout/stderr -- no traceback, exit 0 or 1, one valid JSON report for the batch."""
    with workdir(scratch) as folder:
        files = []
        for k in range(6):
            orders_file, state_file = AA_PAIRS[k % len(AA_PAIRS)]
            sub = folder / f"t{k}"
            sub.mkdir()
            mutated, _done = mutate_data(_load(REPO / orders_file), data.draw)
            orders_path, _state = _pair_in(sub, mutated, (REPO / state_file).read_text(encoding="utf-8"))
            files.append(orders_path.relative_to(folder).as_posix())
        env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
        env["PYTHONIOENCODING"] = "utf-8"
        proc = subprocess.run(
            [sys.executable, "-m", "movecheck", "check", *files, "--format", "json"],
            capture_output=True, cwd=folder, env=env, timeout=120,
        )
        err = proc.stderr.decode("utf-8")
        assert proc.returncode in (0, 1), err
        assert err == "", err
        report_validator(proc.stdout.decode("utf-8"))


@pytest.mark.parametrize(
    "seed",
    [p for p, _ in AA_PAIRS]
    + [s for _, s in AA_PAIRS]
    + ([MANEUVER_STATE, *MANEUVER_ORDERS] if _have(MANEUVER_STATE, *MANEUVER_ORDERS) else []),
)
def test_seeds_are_clean(seed: str, report_validator) -> None:
    """The mutation seeds themselves pass (so mutations, not the seeds, make the findings)."""
    path = REPO / seed
    command = "check" if "orders" in path.name else "lint"
    with contextlib.chdir(REPO):
        code, _out, _err = invoke([command, seed, "--format", "json"], report_validator, inputs=[path])
    assert code == 0
