"""Numbers are what they say (issue #12): integer fields take YAML integers only, numbers are
finite and bounded, and no number form slips past a check or a limit.

* ``5.0``, ``1.0e+6``, ``!!float 1`` where a count, roll, movement or other whole number is
  expected: MC003 at the value, in every file kind (aa state/orders/map, maneuver
  state/orders, ``.movecheck.yaml``), never a silently skipped move or roll;
* a ``.json`` file's numbers follow JSON (``5e1`` is 50.0); whole numbers of thousands of
  digits are one clear MC003 at the value, never Python's conversion error;
* manoeuvre coordinates, sizes, mobility, facing and options have bounds (MC003 beyond
  them), so no value reaches the geometry that it cannot handle;
* a property: turning integers of the examples into equal floats always gives MC003 at the
  value where a whole number is expected, never a run without errors, never exit 0 -- and
  changes nothing where any number is fine.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.conftest import AA_STATE
from tests.properties import in_two_runs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

needs_maneuver = pytest.mark.skipif(importlib.util.find_spec("shapely") is None, reason="shapely is not installed")


def report(out: str) -> dict[str, Any]:
    return json.loads(out)


def found(out: str, code: str | None = None) -> list[tuple[str, str, int, int, str]]:
    """(code, file name, line, column, message) of every finding (of ``code``)."""
    return [
        (f["code"], Path(f["file"]).name, f["line"], f["column"], f["message"])
        for f in report(out)["findings"]
        if code is None or f["code"] == code
    ]


def place(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based line and column of the ``nth`` occurrence of ``needle`` in ``text``."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


# -- aa: counts in orders --------------------------------------------------------------

# Three moves no tank can make (West Russia has one German tank, Germany's tanks cannot
# reach Karelia in one step): today's code skipped every one of them and said
# "3 of 3 orders legal", exit 0.
IMPOSSIBLE = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - units: {{tank: {a}}}
    path: [West Russia, Archangel, Karelia S.S.R.]
  - units: {{tank: {b}}}
    path: [Germany, Karelia S.S.R.]
  - units: {{infantry: {c}}}
    path: [Finland, Karelia S.S.R.]
"""


@pytest.mark.parametrize(
    "a,b,c",
    [("5.0", "!!float 1", "1.0e+6"), ("5.", "1.0", "3.0e+0")],
    ids=["decimal-tag-exponent", "trailing-dot"],
)
def test_float_counts_in_orders_are_mc003_at_the_value(run_main, tmp_path, write, a, b, c) -> None:
    write(tmp_path, "state.yaml", AA_STATE)
    text = IMPOSSIBLE.format(a=a, b=b, c=c)
    write(tmp_path, "orders.yaml", text)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    schema = found(out, "MC003")
    at = [(line, column) for _, name, line, column, _ in schema if name == "orders.yaml"]
    assert at == [place(text, a), place(text, b), place(text, c)]
    assert all("expected a whole number" in message for *_, message in schema)
    assert report(out)["summary"]["errors"] >= 3


def test_float_count_message_says_how_to_write_it(run_main, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", AA_STATE)
    write(tmp_path, "orders.yaml", IMPOSSIBLE.format(a="5.0", b="2.5", c="1.0e+6"))
    _code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    messages = [m for *_, m in found(out, "MC003")]
    assert messages == [
        "moves[1].units.tank: expected a whole number, got 5.0, which is not written as a whole number; write 5",
        "moves[2].units.tank: expected a whole number, got 2.5",
        "moves[3].units.infantry: expected a whole number, got 1.0e+6, which is not written as a whole number; write "
        "1000000",
    ]


def test_integer_counts_are_checked_by_the_rules(run_main, tmp_path, write) -> None:
    """The same three moves with whole numbers: no MC003, the rules find them illegal."""
    write(tmp_path, "state.yaml", AA_STATE)
    write(tmp_path, "orders.yaml", IMPOSSIBLE.format(a="5", b="1", c="1000000"))
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert found(out, "MC003") == []
    assert {f["order"] for f in report(out)["findings"] if f["code"].startswith("AA")} == {1, 2, 3}


@pytest.mark.parametrize("value", ["true", "yes", "'1'", ".nan", ".inf"])
def test_other_forms_of_a_count_are_mc003(run_main, tmp_path, write, value) -> None:
    write(tmp_path, "state.yaml", AA_STATE)
    text = IMPOSSIBLE.format(a=value, b="1", c="1")
    write(tmp_path, "orders.yaml", text)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert place(text, value) in [(line, column) for _, _, line, column, _ in found(out, "MC003")]


def test_schema_and_engine_agree_on_what_a_count_is() -> None:
    """Whatever the orders schema accepts as a count, the engine moves; whatever it refuses is MC003.

    The aa engine reads a count only when it is an int (not a bool) above 0 and leaves
    anything else to the schema: the two must agree exactly, or a move is skipped silently.
    """
    from movecheck.schema import validate_data

    values = [5, 1, 0, -1, 5.0, 1.0, 1e6, 2.5, True, False, None, "5", math.nan, math.inf, 10**50]
    for value in values:
        data = {"system": "aa", "power": "Germans", "phase": "combat_move",
                "moves": [{"units": {"tank": value}, "path": ["Germany", "Poland"]}]}
        schema_ok = validate_data("aa-orders", data) == []
        engine_ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
        assert schema_ok == engine_ok, value


# -- aa: states and maps ---------------------------------------------------------------

STATE_WITH = AA_STATE + "units:\n  - {at: Germany, power: Germans, type: infantry, count: COUNT}\n"


def state_with(count: Any) -> str:
    """An aa state whose one stack of German infantry has ``count: COUNT`` (raw YAML text)."""
    return STATE_WITH.replace("COUNT", str(count))


def test_float_count_in_a_state_is_mc003_and_builds_no_units(run_main, tmp_path, write) -> None:
    """A 164-byte state with ``count: 1.0e+6`` built a million units and passed; now MC003 at the count."""
    text = state_with("1.0e+6")
    write(tmp_path, "state.yaml", text)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(c, line, column) for c, _, line, column, _ in found(out)] == [("MC003", *place(text, "1.0e+6"))]


def test_whole_count_in_a_state_is_fine(run_main, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", state_with("1000"))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, found(out)) == (0, [])


@pytest.mark.parametrize(
    "old,new",
    [
        ("movecheck: 1\n", "movecheck: 1\npurchased: {carrier: 1.0}\n"),
        ("{round: 1,", "{round: 1.0,"),
        ("type: infantry, count: 3}", "type: infantry, moved: 1.0}"),
    ],
    ids=["purchased", "round", "moved"],
)
def test_other_integers_of_a_state_are_strict(run_main, tmp_path, write, old, new) -> None:
    text = state_with(3).replace(old, new, 1)
    write(tmp_path, "state.yaml", text)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(c, line, column) for c, _, line, column, _ in found(out)] == [("MC003", *place(text, "1.0"))]


def test_format_version_written_as_a_float_is_mc003(run_main, tmp_path, write) -> None:
    text = AA_STATE.replace("movecheck: 1", "movecheck: 1.0")
    write(tmp_path, "state.yaml", text)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(c, line, column) for c, _, line, column, _ in found(out)] == [("MC003", 1, 12)]


def test_unit_limit_counts_every_numeric_form() -> None:
    """Past the schema (which refuses them), the limit still reads floats and infinities as counts."""
    from movecheck.aa import setup
    from movecheck.loading import load_bytes

    for count in ("1.0e+6", ".inf", ".nan", "200001"):
        doc = load_bytes(state_with(count).encode(), "state.yaml")
        built = setup.build_board(doc)
        assert built.board is None, count
        assert [f.code for f in built.findings] == ["MC008"], count
        assert built.findings[0].line == 6


def test_board_builder_never_truncates_a_number() -> None:
    """Past the schema, ``count: 2.5`` or ``moved: 1.5`` are MC003, not 2 units or 1 step."""
    from movecheck.aa.setup import build_board
    from movecheck.loading import load_bytes

    text = AA_STATE + (
        "purchased: {carrier: 1.5}\n"
        "units:\n"
        "  - {at: Germany, power: Germans, type: infantry, count: 2.5}\n"
        "  - {at: Germany, power: Germans, type: tank, moved: 1.5}\n"
        "  - {at: Germany, power: Germans, type: tank, count: 2, moved: 1}\n"
    )
    built = build_board(load_bytes(text.encode(), "state.yaml"))
    assert [(f.code, f.line) for f in built.findings] == [("MC003", 5), ("MC003", 7), ("MC003", 8)]
    assert built.board is not None
    assert [(u.type.name, u.moved) for u in built.board.units_at("Germany") if u.power == "Germans"] == [
        ("tank", 1),
        ("tank", 1),
    ]
    assert built.board.purchased == {}


def _map_json(**changes: str) -> str:
    """The built-in 1942 map as JSON text, with the first value of each key replaced by raw text."""
    text = json.dumps(json.loads((REPO / "movecheck/aa/maps/aa1942-2e.json").read_text()), indent=1)
    for key, raw in changes.items():
        text = re.sub(rf'"{key}": -?\d+', f'"{key}": {raw}', text, count=1)
    return text


@pytest.mark.parametrize(
    "key,raw,words",
    [
        ("production", "5e1", "got 5e1, which is not written as a whole number; write 50"),
        ("production", "1.0", "got 1.0, which is not written as a whole number; write 1"),
        ("count", "2E0", "got 2E0, which is not written as a whole number; write 2"),
        ("production", "1e400", "got 1e400, which is not a finite number"),
        ("count", "9" * 5000, "9999999999...9999999999 is a whole number of 5000 digits; "
                              "movecheck reads whole numbers of at most 100 digits"),
    ],
    ids=["exponent", "decimal", "capital-exponent", "overflow", "5000-digits"],
)
def test_json_map_numbers(run_main, tmp_path, write, key, raw, words) -> None:
    """JSON numbers are numbers (5e1 is 50.0); where a whole number is expected they are MC003, clearly."""
    text = _map_json(**{key: raw})
    write(tmp_path, "map.json", text)
    code, out, err = run_main(["lint", "map.json", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    [(c, _, line, column, message)] = found(out)
    assert (c, line, column) == ("MC003", *place(text, f'"{key}": {raw}'[len(key) + 4 :]))
    assert message.endswith(words)
    assert "Exceeds the limit" not in out and "not a valid int" not in out


def test_json_map_with_whole_numbers_is_clean_and_usable(run_main, tmp_path, write) -> None:
    write(tmp_path, "map.json", _map_json(production="12"))
    write(tmp_path, "state.yaml", AA_STATE.replace("map: aa1942-2e", "map: map.json"))
    code, out, _ = run_main(["lint", "map.json", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, found(out)) == (0, [])


def test_state_naming_a_json_map_with_a_float_count_is_not_checked(run_main, tmp_path, write) -> None:
    from tests.conftest import AA_ORDERS_LEGAL

    # its own name: the board builder caches maps by path for the life of the process
    write(tmp_path, "float-count-map.json", _map_json(count="3.0"))
    write(tmp_path, "state.yaml", AA_STATE.replace("map: aa1942-2e", "map: float-count-map.json"))
    write(tmp_path, "orders.yaml", AA_ORDERS_LEGAL)
    code, out, _ = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(c, name) for c, name, *_ in found(out, "MC003")] == [("MC003", "float-count-map.json")]


@pytest.mark.parametrize("where", ["state", "orders"])
def test_yaml_integers_of_thousands_of_digits_are_one_clear_mc003(run_main, tmp_path, write, where) -> None:
    from tests.conftest import AA_ORDERS_ILLEGAL

    huge = "1" + "0" * 4999
    state = state_with(huge) if where == "state" else AA_STATE
    orders = AA_ORDERS_ILLEGAL.replace("{tank: 2}", "{tank: " + huge + "}") if where == "orders" else AA_ORDERS_ILLEGAL
    write(tmp_path, "state.yaml", state)
    write(tmp_path, "orders.yaml", orders)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    text = state if where == "state" else orders
    [(c, name, line, column, message)] = found(out, "MC003")
    assert (c, name, (line, column)) == ("MC003", f"{where}.yaml", place(text, huge))
    assert "5000 digits" in message and len(message) < 200
    assert len(out) < 5000  # the number is not echoed


def test_a_hundred_digits_are_read_as_a_number(run_main, tmp_path, write) -> None:
    """At the digit bound the number is read (and the unit limit, not the loader, refuses it)."""
    write(tmp_path, "state.yaml", state_with("9" * 100))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [c for c, *_ in found(out)] == ["MC008"]


def test_a_long_digit_name_is_still_a_name(run_main, tmp_path, write) -> None:
    """Past the digit bound YAML's integer stays text: where a name is expected it is one (MC004)."""
    write(tmp_path, "state.yaml", state_with("1").replace("at: Germany", "at: " + "7" * 150))
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [c for c, *_ in found(out)] == ["MC004"]


def test_yaml_exponent_without_a_point_gets_a_hint(run_main, tmp_path, write) -> None:
    """YAML 1.1 reads ``1e6`` as text: the message says so and how to write the number."""
    text = state_with("1e6")
    write(tmp_path, "state.yaml", text)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    [(c, _, line, column, message)] = found(out)
    assert (code, c, (line, column)) == (1, "MC003", place(text, "1e6"))
    assert message == (
        "units[1].count: expected a whole number, got the text '1e6': YAML 1.1 needs a decimal point "
        "and a signed exponent to read it as a number; write 1000000"
    )


def test_loader_keeps_json_and_yaml_number_grammars_apart() -> None:
    from movecheck.loading import load_bytes

    text = b'{"a": 5e1, "b": -0, "c": 1E-2, "d": 12, "e": "5e1", "f": 1.0e+3}'
    assert load_bytes(text, "x.json").data == {"a": 50.0, "b": 0, "c": 0.01, "d": 12, "e": "5e1", "f": 1000.0}
    assert load_bytes(text, "x.yaml").data == {"a": "5e1", "b": 0, "c": "1E-2", "d": 12, "e": "5e1", "f": 1000.0}
    types = load_bytes(text, "x.json").data
    assert type(types["b"]) is int and type(types["a"]) is float


# -- maneuver --------------------------------------------------------------------------


def _maneuver(tmp_path: Path, battlefield: tuple[str, str] | None = None,
              orders: tuple[str, str, str] | None = None) -> Path:
    """Copies of the manoeuvre examples with one replacement in the battlefield or in an orders file."""
    for name in ("battlefield.yaml", "free-orders.yaml", "corps-orders.yaml"):
        shutil.copy(EXAMPLES / "maneuver" / name, tmp_path / name)
    for name, old, new in ([("battlefield.yaml", *battlefield)] if battlefield else []) + ([orders] if orders else []):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert old in text, old
        (tmp_path / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@needs_maneuver
@pytest.mark.parametrize("value", ["99.0", "5.0", "!!float 5", "true"])
def test_float_roll_is_mc003_not_a_vanished_roll(run_main, tmp_path, value) -> None:
    """``rolls: {r14: 5.0}`` was dropped and the move judged without it; now MC003 at the roll."""
    _maneuver(tmp_path, orders=("free-orders.yaml", "rolls: {r14: 5}", f"rolls: {{r14: {value}}}"))
    text = (tmp_path / "free-orders.yaml").read_text()
    code, out, _ = run_main(["check", "free-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(name, line, column) for _, name, line, column, _ in found(out, "MC003")] == [
        ("free-orders.yaml", *place(text, value))
    ]


@needs_maneuver
def test_whole_roll_is_used(run_main, tmp_path) -> None:
    _maneuver(tmp_path)
    code, out, _ = run_main(["check", "free-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 0
    assert [c for c, *_ in found(out) if c != "MV501"] == []


@needs_maneuver
def test_float_terrain_roll_and_die_constant_are_mc003(run_main, tmp_path) -> None:
    _maneuver(
        tmp_path,
        battlefield=("dice: {D1: 1d6, D2: 2d6, D3: 3d6}", "dice: {D1: 6.0, D2: 2d6, D3: 3d6}"),
        orders=("corps-orders.yaml", "rolls: {r1: 4, r2: 2}", "rolls: {r1: {brook: 4.0}, r2: 2}"),
    )
    code, out, _ = run_main(["lint", "battlefield.yaml", "corps-orders.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [(name, line) for _, name, line, *_ in found(out, "MC003")] == [
        ("battlefield.yaml", 7),
        ("corps-orders.yaml", 11),
    ]


@needs_maneuver
@pytest.mark.parametrize(
    "old,new",
    [
        ("{id: r1, x: 50,", "{id: r1, x: 1.0e+19,"),
        ("{id: r1, x: 50,", "{id: r1, x: -1.0e+308,"),
        ("{id: r1, x: 50, y: 30, facing: 0}", "{id: r1, x: 50, y: 30, facing: 1.0e+308}"),
        ("point: [120, 130]", "point: [1.0e+308, 130]"),
        ("point: [120, 130]", "point: [1.0e+19, 130]"),
        ("[[0, 34], [120, 34]", "[[0, 34], [100000.5, 34]"),
        ("field: {width: 240", "field: {width: 1.0e+19"),
        ("base: [4, 2]", "base: [1.0e+7, 2]"),
        ("width: 4, depth: 2}", "width: 1.0e-300, depth: 0.09}"),
        ("mobility: 8", "mobility: 1.0e+308"),
        ("tolerance: 0.1", "tolerance: 1.0e+19"),
    ],
    ids=["x-1e19", "x-minus-1e308", "facing-1e308", "landmark-1e308", "landmark-1e19", "polygon-beyond",
         "field-1e19", "corps-size-1e7", "tiny-base", "mobility-1e308", "tolerance-1e19"],
)
def test_out_of_bounds_numbers_are_mc003_never_an_internal_error(run_main, tmp_path, old, new) -> None:
    """Beyond the documented bounds: MC003 at the value (1e308 and tiny bases crashed the geometry)."""
    _maneuver(tmp_path, battlefield=(old, new))
    line = place((tmp_path / "battlefield.yaml").read_text(), new)[0]
    for args in (["lint", "battlefield.yaml"], ["check", "free-orders.yaml", "corps-orders.yaml"]):
        code, out, err = run_main([*args, "--format", "json"], cwd=tmp_path)
        assert (code, err) == (1, ""), args
        assert ("battlefield.yaml", line) in [(name, at) for _, name, at, *_ in found(out, "MC003")]
        assert all(c.startswith("MC") for c, *_ in found(out)), found(out)


@needs_maneuver
@pytest.mark.parametrize(
    "orders",
    [
        ("free-orders.yaml", "path: [[90, 30]]", "path: [[1.0e+19, 30]]"),
        ("free-orders.yaml", "path: [[90, 30]]", "path: [[90, 30]]\n    facing: 400"),
        ("corps-orders.yaml", "r1: {x: 50, y: 36}", "r1: {x: -1.0e+308, y: 36}"),
    ],
    ids=["path-1e19", "facing-400", "end-minus-1e308"],
)
def test_out_of_bounds_orders_are_mc003(run_main, tmp_path, orders) -> None:
    _maneuver(tmp_path, orders=orders)
    name, _, new = orders
    line = place((tmp_path / name).read_text(), new.splitlines()[-1].strip())[0]
    code, out, err = run_main(["check", name, "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert (name, line) in [(n, at) for _, n, at, *_ in found(out, "MC003")]


@pytest.mark.parametrize(
    "name,data",
    [
        ("maneuver-state", {"field": {"width": 100000, "depth": 0.1}}),
        ("maneuver-state", {"landmarks": [{"id": "l", "point": [-100000, 100000]}]}),
        (
            "maneuver-state",
            {"terrain": [{"id": "t", "kind": "hill", "polygon": [[-100000, 0], [100000, 0], [0, 1e5]]}]},
        ),
        (
            "maneuver-state",
            {
                "options": {
                    "tolerance": 1e5,
                    "contact_gap": 0,
                    "prebattle_distance": 1e5,
                    "prebattle_bonus": -1e5,
                    "dice": {"D1": 1000000},
                }
            },
        ),
        (
            "maneuver-state",
            {
                "sides": {
                    "red": [
                        {
                            "id": "c",
                            "mobility": 1e5,
                            "base": [0.1, 1e5],
                            "bases": [
                                {
                                    "id": "b",
                                    "x": -1e5,
                                    "y": 1e5,
                                    "facing": -360,
                                    "width": 1e5,
                                    "depth": 0.1,
                                    "mobility": 0.001,
                                }
                            ],
                        }
                    ]
                }
            },
        ),
        ("maneuver-orders", {"orders": [{"order": "free", "base": "b", "path": [[1e5, -1e5]], "facing": 360}]}),
        (
            "maneuver-orders",
            {
                "orders": [
                    {
                        "order": "all_ahead",
                        "corps": "c",
                        "end": {"b": {"x": -1e5, "y": 1e5, "facing": -360}},
                        "rolls": {"b": 10**99},
                    }
                ]
            },
        ),
    ],
)
def test_numbers_at_the_bounds_are_valid(name, data) -> None:
    from movecheck.schema import validate_data

    base = (
        {"system": "maneuver", "field": {"width": 10, "depth": 10}, "sides": {"red": []}}
        if name.endswith("state")
        else {"system": "maneuver", "side": "red", "orders": []}
    )
    assert validate_data(name, {**base, **data}) == []


@pytest.mark.parametrize(
    "name,data,path",
    [
        ("maneuver-state", {"field": {"width": 100000.001, "depth": 0.0999}}, ["field"]),
        ("maneuver-state", {"landmarks": [{"id": "l", "point": [-100000.5, 0]}]}, ["landmarks", 0, "point", 0]),
        ("maneuver-state", {"options": {"prebattle_bonus": -100001}}, ["options", "prebattle_bonus"]),
        (
            "maneuver-state",
            {"sides": {"red": [{"id": "c", "mobility": 100001, "bases": [{"id": "b", "x": 0, "y": 0}]}]}},
            ["sides", "red", 0, "mobility"],
        ),
        (
            "maneuver-orders",
            {"orders": [{"order": "free", "base": "b", "path": [[0, 0]], "facing": 360.5}]},
            ["orders", 0, "facing"],
        ),
    ],
)
def test_numbers_beyond_the_bounds_are_invalid(name, data, path) -> None:
    from movecheck.schema import validate_data

    base = (
        {"system": "maneuver", "field": {"width": 10, "depth": 10}, "sides": {"red": []}}
        if name.endswith("state")
        else {"system": "maneuver", "side": "red", "orders": []}
    )
    errors = validate_data(name, {**base, **data})
    assert errors and all(list(e.absolute_path)[: len(path)] == path for e in errors)


@needs_maneuver
def test_a_move_at_the_far_corner_of_the_largest_field_is_checked(run_main, tmp_path) -> None:
    """A 100000-step field, a 0.1-step base 10 steps from its far edge, mobility 100000: a legal free move."""
    state = """\
movecheck: 1
system: maneuver
field: {width: 100000, depth: 100000}
sides:
  red:
    - id: red-1
      mobility: 100000
      bases: [{id: r1, x: 99990, y: 99000, facing: -360, width: 0.1, depth: 0.1}]
    - id: red-2
      mobility: 100000
      bases: [{id: r2, x: 99980, y: 99990, facing: 0, width: 0.1, depth: 0.1}]
  blue:
    - id: blue-1
      bases: [{id: b1, x: 50000, y: 50000, facing: 180, width: 4, depth: 2}]
"""
    orders = """\
movecheck: 1
system: maneuver
state: state.yaml
side: red
orders:
  - {order: free, base: r1, path: [[99990, 99990]], facing: 360}
  - {order: free, base: r2, path: [[99980, 100000]]}
"""
    (tmp_path / "state.yaml").write_text(state)
    (tmp_path / "orders.yaml").write_text(orders)
    code, out, err = run_main(["check", "orders.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(c, f["order"]) for f in report(out)["findings"] for c in [f["code"]]] == [("MV403", 2)]


@needs_maneuver
def test_movecheck_yaml_options_are_strict_too(run_main, tmp_path, write) -> None:
    _maneuver(tmp_path)
    text = "maneuver:\n  options: {tolerance: 2000000, dice: {D1: 6.0}}\n"
    write(tmp_path, ".movecheck.yaml", text)
    code, out, _ = run_main(["lint", ".movecheck.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert sorted((line, column) for _, _, line, column, _ in found(out, "MC003")) == sorted(
        [place(text, "2000000"), place(text, "6.0")]
    )
    write(tmp_path, ".movecheck.yaml", "maneuver:\n  options: {tolerance: 0.5, dice: {D1: 6}}\n")
    code, out, _ = run_main(["lint", ".movecheck.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, found(out)) == (0, [])


def test_die_expression_with_thousands_of_digits_is_a_dice_error() -> None:
    from movecheck.maneuver.dice import Dice, DiceError

    for text in ("9" * 5000, "1d6+" + "9" * 5000, "1d" + "9" * 5000, "-1000001", 10**90):
        with pytest.raises(DiceError):
            Dice.parse(text)
    assert Dice.parse("1d6+1000000").high == 1_000_006
    assert Dice.parse(-1_000_000).low == -1_000_000


@needs_maneuver
def test_die_constant_of_thousands_of_digits_is_mc003(run_main, tmp_path) -> None:
    _maneuver(tmp_path, battlefield=("D1: 1d6", "D1: " + "9" * 5000))
    code, out, err = run_main(["lint", "battlefield.yaml", "--format", "json"], cwd=tmp_path)
    assert (code, err) == (1, "")
    assert [(c, line) for c, _, line, *_ in found(out)] == [("MC003", 7)]


@needs_maneuver
def test_maneuver_json_state_reads_json_numbers(run_main, tmp_path) -> None:
    """A battlefield in JSON: ``5e1`` is the number 50 (was the text '5e1', MC003)."""
    data = yaml.safe_load((EXAMPLES / "maneuver" / "battlefield.yaml").read_text())
    text = json.dumps(data, indent=1).replace('"x": 50,', '"x": 5e1,', 1).replace('"y": 30,', '"y": 3.0E1,', 1)
    assert "5e1" in text and "3.0E1" in text
    (tmp_path / "battlefield.json").write_text(text)
    code, out, _ = run_main(["lint", "battlefield.json", "--format", "json"], cwd=tmp_path)
    assert (code, found(out)) == (0, [])


# -- the property: integers turned into equal floats ------------------------------------


def _int_scalars(text: str) -> list[tuple[int, int, tuple[Any, ...]]]:
    """(start, end, path) of every plain decimal integer value in a YAML text."""
    resolver = yaml.resolver.Resolver()
    found_: list[tuple[int, int, tuple[Any, ...]]] = []
    stack: list[list[Any]] = []  # [container kind, path, next index or pending key, expecting key]
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent, yaml.ScalarEvent)):
            if stack and stack[-1][0] == "map" and stack[-1][3]:
                stack[-1][2], stack[-1][3] = event.value, False  # a key (collections as keys do not occur)
                continue
            if not stack:
                path: tuple[Any, ...] = ()
            elif stack[-1][0] == "seq":
                path = stack[-1][1] + (stack[-1][2],)
                stack[-1][2] += 1
            else:
                path = stack[-1][1] + (stack[-1][2],)
                stack[-1][3] = True
            if isinstance(event, yaml.MappingStartEvent):
                stack.append(["map", path, None, True])
            elif isinstance(event, yaml.SequenceStartEvent):
                stack.append(["seq", path, 0, False])
            elif (
                event.implicit[0]
                and resolver.resolve(yaml.ScalarNode, event.value, (True, False)) == "tag:yaml.org,2002:int"
                and re.fullmatch(r"-?\d+", event.value)
            ):
                found_.append((event.start_mark.index, event.end_mark.index, path))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            stack.pop()
    return found_


def _whole_number_field(system: str, path: tuple[Any, ...]) -> bool:
    """Where the schema wants a YAML integer (everything in aa; rolls, dice and the version in maneuver)."""
    return system == "aa" or path == ("movecheck",) or any(step in ("rolls", "dice") for step in path)


ORDER_FILES = sorted(
    [p.relative_to(EXAMPLES) for p in (EXAMPLES / "aa" / "orders").rglob("*.yaml")]
    + [p.relative_to(EXAMPLES) for p in (EXAMPLES / "maneuver").glob("*orders*.yaml")]
)


def _state_of(orders: Path) -> Path:
    ref = yaml.safe_load((EXAMPLES / orders).read_text())["state"]
    return Path(str((EXAMPLES / orders).parent / ref)).resolve().relative_to(EXAMPLES.resolve())


def _run(args: list[str], cwd: Path) -> tuple[int, dict[str, Any]]:
    import contextlib
    import io
    import os

    from movecheck.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        os.chdir(here)
    assert err.getvalue() == "", err.getvalue()
    return code, json.loads(out.getvalue())


_BEFORE: dict[Path, tuple[int, dict[str, Any]]] = {}


def _checked(root: Path, orders: Path) -> tuple[int, dict[str, Any]]:
    return _run(["check", str(orders), "--format", "json"], root)


@st.composite
def float_mutations(draw: Any) -> tuple[Path, Path, list[tuple[int, int, tuple[Any, ...]]]]:
    orders = draw(st.sampled_from(ORDER_FILES))
    target = draw(st.sampled_from([orders, _state_of(orders)]))
    scalars = _int_scalars((EXAMPLES / target).read_text(encoding="utf-8"))
    chosen = draw(st.lists(st.sampled_from(scalars), min_size=1, max_size=3, unique=True))
    return orders, target, sorted(chosen)


def _integers_turned_into_equal_floats(mutation: tuple[Path, Path, list[tuple[int, int, tuple[Any, ...]]]]) -> None:
    """5 -> 5.0 in an example: MC003 at each whole-number field changed, errors stay, exit never 0;
    where any number is fine (manoeuvre coordinates, sizes) the report does not change at all."""
    orders, target, chosen = mutation
    system = orders.parts[0]
    if system == "maneuver":
        pytest.importorskip("shapely")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "examples"
        shutil.copytree(EXAMPLES, root)
        if orders not in _BEFORE:
            _BEFORE[orders] = _checked(root, orders)
        code_before, before = _BEFORE[orders]
        text = (root / target).read_text(encoding="utf-8")
        for start, end, _ in reversed(chosen):
            text = text[:start] + text[start:end] + ".0" + text[end:]
        (root / target).write_text(text, encoding="utf-8")
        code_after, after = _checked(root, orders)

    whole = [(start, path) for start, _, path in chosen if _whole_number_field(system, path)]
    original = (EXAMPLES / target).read_text(encoding="utf-8")
    if whole:
        assert code_after == 1
        schema = {(Path(f["file"]).name, f["line"], f["column"]) for f in after["findings"] if f["code"] == "MC003"}
        for start, path in whole:
            line = original.count("\n", 0, start) + 1
            column = start - (original.rfind("\n", 0, start) + 1) + 1
            # each ".0" added earlier on the same line moves the value two columns right
            same_line = sum(1 for s, _, _ in chosen if s < start and original.count("\n", 0, s) + 1 == line)
            assert (target.name, line, column + 2 * same_line) in schema, (path, sorted(schema))
    else:
        def key(document: dict[str, Any]) -> list[tuple[Any, ...]]:
            return [(f["code"], f["file"], f["line"], f["order"]) for f in document["findings"]]

        assert (code_after, key(after)) == (code_before, key(before))
    def erroneous(document: dict[str, Any]) -> set[str]:
        return {Path(f["file"]).name for f in document["findings"] if f["severity"] == "error"}

    # the changed file keeps its errors, the run keeps having some; (a state with errors
    # leaves its orders unchecked: their own findings are then not the measure)
    if target.name in erroneous(before):
        assert target.name in erroneous(after)
    if target == orders:
        assert erroneous(before) <= erroneous(after)
    assert bool(erroneous(after)) >= bool(erroneous(before))
    assert code_after >= code_before


# -- limits set in the environment -------------------------------------------------------



test_integers_turned_into_equal_floats, test_integers_turned_into_equal_floats_in_full = in_two_runs(
    settings(max_examples=30, derandomize=True, deadline=None, database=None,
             suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]),
    float_mutations(),
)(_integers_turned_into_equal_floats)


@pytest.mark.parametrize("value", ["²", "١٢", "9" * 5000, "1e6", "-5", "0"])
def test_a_limit_that_is_not_a_plain_whole_number_keeps_its_default(run_cli, tmp_path, write, value) -> None:
    """``MOVECHECK_MAX_BYTES=²`` was a traceback at start-up (str.isdigit() accepts it, int() does not)."""
    write(tmp_path, "state.yaml", AA_STATE)
    env = {"MOVECHECK_MAX_BYTES": value, "MOVECHECK_MAX_UNITS": value}
    code, out, err = run_cli(["lint", "state.yaml"], cwd=tmp_path, env=env)
    assert (code, err) == (0, "")
    assert "0 errors" in out


def test_a_plain_whole_number_sets_the_limit(run_cli, tmp_path, write) -> None:
    write(tmp_path, "state.yaml", AA_STATE)
    code, out, err = run_cli(["lint", "state.yaml"], cwd=tmp_path, env={"MOVECHECK_MAX_UNITS": " 10 "})
    assert (code, err) == (1, "")
    assert "MC008" in out and "more than 10 units" in out


def test_thousands_of_digits_where_no_number_is_expected(run_main, tmp_path, write) -> None:
    text = AA_STATE + "units:\n  - {at: Germany, power: Germans, type: tank, fought: " + "1" * 3000 + "}\n"
    write(tmp_path, "state.yaml", text)
    code, out, _ = run_main(["lint", "state.yaml", "--format", "json"], cwd=tmp_path)
    assert code == 1
    assert [m for *_, m in found(out)] == ["units[1].fought: expected a boolean, got a whole number of 3000 digits"]
