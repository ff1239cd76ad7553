"""The rule-system interface: states prepared once per run, rules resolved in one place,
systems declaring their own file keys, one registry of output formats."""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path

import pytest

from movecheck import core, files, systems
from movecheck.core import check, lint
from movecheck.loading import load_bytes
from movecheck.settings import Settings
from movecheck.systems import RuleSettings, resolve_rules

REPO = Path(__file__).resolve().parents[1]
VARIANTS = sorted((REPO / "examples" / "aa" / "orders" / "variants").glob("*.yaml"))
MANEUVER_ORDERS = sorted((REPO / "examples" / "maneuver").glob("*orders*.yaml"))

# Germans, combat move (moves need not attack), a few units on the built-in map; three
# fighters at sea with room for two on the carrier: AA905 (a warning), so the state has
# a finding to report.
STATE = """\
movecheck: 1
system: aa
map: aa1942-2e
turn: {round: 2, power: Germans, phase: combat_move}
options: {combat_move_must_attack: false}
units:
  - {at: Germany, power: Germans, type: tank, count: 2}
  - {at: Poland, power: Germans, type: infantry}
  - {at: 5 Sea Zone, power: Germans, type: carrier}
  - {at: 5 Sea Zone, power: Germans, type: fighter, count: 3}
"""
ORDERS = """\
movecheck: 1
system: aa
state: state.yaml
power: Germans
phase: combat_move
moves:
  - {units: {tank: 2}, path: [Germany, Poland]}
"""


def _files(tmp_path: Path, count: int) -> list[str]:
    (tmp_path / "state.yaml").write_text(STATE, encoding="utf-8")
    paths = []
    for index in range(count):
        path = tmp_path / f"orders{index}.yaml"
        path.write_text(ORDERS, encoding="utf-8")
        paths.append(str(path))
    return paths


# -- each state prepared once --------------------------------------------------------------


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> Counter[str]:
    calls: Counter[str] = Counter()
    original = getattr(module, name)

    def counting(doc, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls[doc.path] += 1
        return original(doc, *args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_each_aa_state_is_built_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from movecheck.aa import setup

    builds = _count_calls(monkeypatch, setup, "build_board")
    report, _ = check([str(p) for p in VARIANTS], Settings())
    states = {entry.state for entry in report.files}
    assert len(VARIANTS) > len(states) > 1  # several orders files per state
    assert set(builds) == states
    assert set(builds.values()) == {1}


def test_each_battlefield_is_built_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from movecheck.maneuver import setup

    builds = _count_calls(monkeypatch, setup, "build_battlefield")
    check([str(p) for p in MANEUVER_ORDERS], Settings())
    assert len(MANEUVER_ORDERS) > len(builds) > 1  # several orders files name each battlefield
    assert set(builds.values()) == {1}


def test_state_findings_are_reported_once_without_deduplication(tmp_path: Path) -> None:
    paths = _files(tmp_path, 3)
    report, _ = check(paths, Settings())
    state = str(tmp_path / "state.yaml")
    own = [(f.code, f.line, f.column, f.message) for f in report.findings if f.file == state]
    assert [code for code, *_ in own] == ["AA905"]  # the raw list, not sorted_findings()
    assert [entry.checked for entry in report.files] == [{1}, {1}, {1}]


def test_a_state_given_as_input_too_is_reported_once(tmp_path: Path) -> None:
    paths = _files(tmp_path, 2)
    (tmp_path / "state.yaml").write_text(STATE + "bogus: 1\n", encoding="utf-8")  # MC003 from the schema
    report, _ = check([str(tmp_path / "state.yaml"), *paths], Settings())
    state = str(tmp_path / "state.yaml")
    assert sorted(f.code for f in report.findings if f.file == state) == ["MC003", "MC010"]


def test_a_map_file_named_by_two_states_is_reported_once(tmp_path: Path) -> None:
    (tmp_path / "board.yaml").write_text("movecheck: 1\nsystem: aa\nkind: map\nspaces: 5\n", encoding="utf-8")
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(STATE.replace("map: aa1942-2e", "map: board.yaml"), encoding="utf-8")
    names = [str(tmp_path / n) for n in ("a.yaml", "b.yaml", "board.yaml")]
    report = lint(names, Settings())
    on_map = [f for f in report.findings if f.file == str(tmp_path / "board.yaml")]
    assert on_map and len(on_map) == len(set(on_map))


def test_each_orders_file_gets_a_fresh_board(tmp_path: Path) -> None:
    """The first file moves the tanks; the second, the same orders, must find them where the state has them."""
    report, _ = check(_files(tmp_path, 2), Settings())
    assert [f.code for f in report.findings if f.file.endswith(("orders0.yaml", "orders1.yaml"))] == []
    assert [entry.checked for entry in report.files] == [{1}, {1}]


def test_copies_are_independent_of_the_prepared_model(tmp_path: Path) -> None:
    from movecheck.aa.setup import build_board
    from movecheck.maneuver.setup import build_battlefield

    board = build_board(load_bytes(STATE.encode(), "state.yaml")).board
    twin = board.copy()
    tank = next(u for u in twin.units_at("Germany") if u.type.name == "tank")
    twin.move_unit(tank, "Poland")
    tank.spent = 1
    assert [u.type.name for u in board.units_at("Germany")] == ["tank", "tank"]
    assert all(u.spent == 0 for u in board.units)
    fighters = [u for u in twin.units_at("5 Sea Zone") if u.aboard is not None]
    assert fighters and all(u.aboard in twin.units for u in fighters)  # aboard the copy's carrier

    battlefield_yaml = (REPO / "examples" / "maneuver" / "battlefield.yaml").read_bytes()
    field = build_battlefield(load_bytes(battlefield_yaml, "battlefield.yaml")).battlefield
    copy = field.copy()
    base = next(iter(copy.bases.values()))
    before = field.bases[base.id].centre
    base.place(base.x + 10, base.y + 10)
    assert field.bases[base.id].centre == before
    assert copy.corps[base.corps].bases[0] is copy.bases[copy.corps[base.corps].bases[0].id]
    assert copy.terrain is field.terrain  # shared: orders never change terrain


# -- precedence, in one place --------------------------------------------------------------


def _aa() -> systems.System:
    return systems.system("aa")


def test_edition_precedence() -> None:
    aa = _aa()
    assert resolve_rules(aa, {}).edition == aa.default_edition == "aa1942"
    configured = resolve_rules(aa, {}, configured_edition="house")
    assert (configured.edition, configured.edition_source) == ("house", "configuration")
    own = resolve_rules(aa, {"rules": "mine"}, configured_edition="house")
    assert (own.edition, own.edition_source) == ("mine", "state")
    assert resolve_rules(aa, {"rules": None}, configured_edition="house").edition is None  # the state's, wrong or not


def test_option_precedence_state_over_command_line_over_configuration() -> None:
    rules = resolve_rules(
        _aa(),
        {"options": {"a": "state"}},
        configured={"a": "config", "b": "config", "c": "config"},
        command_line={"a": "cli", "b": "cli"},
    )
    assert rules.options == {"a": "state", "b": "cli", "c": "config"}
    assert rules.sources == {"a": "state", "b": "command line", "c": "configuration"}


def test_mapping_options_merge_entry_by_entry() -> None:
    rules = resolve_rules(
        systems.system("maneuver"),
        {"options": {"dice": {"D1": "2d6"}}},
        configured={"dice": {"D1": "1d6", "D4": "4d6"}},
        command_line={"dice": {"D5": "5d6"}},
    )
    assert rules.options == {"dice": {"D1": "2d6", "D4": "4d6", "D5": "5d6"}}


def test_options_that_are_not_a_mapping_take_nothing_from_elsewhere() -> None:
    rules = resolve_rules(_aa(), {"options": [1]}, configured={"a": 1}, command_line={"b": 2})
    assert rules.options == {}


def test_the_state_data_is_never_written(tmp_path: Path) -> None:
    paths = _files(tmp_path, 1)
    settings = Settings(options={"aa": {"land_on_new_carrier": False, "combat_move_must_attack": True}})
    state = core.read(str(tmp_path / "state.yaml"))
    before = json.dumps(state.doc.data, sort_keys=True)
    prepared = core.prepare(state, settings)
    assert json.dumps(state.doc.data, sort_keys=True) == before
    assert prepared.doc.data is state.doc.data and "rules" not in state.doc.data
    assert prepared.rules == settings.rules_for(state) == RuleSettings(
        "aa1942",
        {"land_on_new_carrier": False, "combat_move_must_attack": False},
        {"land_on_new_carrier": "command line", "combat_move_must_attack": "state"},
    )
    assert prepared.model.options["land_on_new_carrier"] is False
    assert prepared.model.options["combat_move_must_attack"] is False
    assert check(paths, settings)[0].files[0].checked == {1}


def test_the_board_plays_under_the_resolved_options() -> None:
    from movecheck.aa.setup import build_board

    doc = load_bytes((STATE + "options: {neutrals_impassable: false}\n").encode(), "state.yaml")
    assert build_board(doc).board.options["neutrals_impassable"] is False  # the state's own, by default
    rules = RuleSettings("aa1942", {"neutrals_impassable": True, "no_such_option": 1})
    board = build_board(doc, rules).board
    assert board.options["neutrals_impassable"] is True
    assert "no_such_option" not in board.options


# -- engines get facts, not findings -------------------------------------------------------


def test_valid_orders_come_from_the_schema_result(tmp_path: Path) -> None:
    text = ORDERS + "  - {units: {tank: 1}, path: Germany}\n  - {units: {tank: 1}, path: [Germany, Poland]}\n"
    (tmp_path / "orders.yaml").write_text(text, encoding="utf-8")
    assert core.valid_orders(core.read(str(tmp_path / "orders.yaml"))) == {1, 3}


def test_the_manoeuvre_engine_takes_no_findings() -> None:
    import inspect

    from movecheck.maneuver.engine import run

    assert "valid_orders" in inspect.signature(run).parameters
    assert "prior" not in inspect.signature(run).parameters
    for name in ("aa", "maneuver"):
        system = systems.system(name)
        for method in (system.prepare_state, system.check_orders, system.lint_file):
            assert "prior" not in inspect.signature(method).parameters


# -- the kernel names no system's keys -----------------------------------------------------


def _string_uses(path: Path) -> tuple[set[str], set[str]]:
    """Every string constant of a module, and those used as a mapping key (``d["k"]``, ``.get("k")``, ``"k" in d``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            keys.add(node.slice.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "get" and node.args:
            if isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
        ):
            keys.add(node.left.value)
    return constants, keys


@pytest.mark.parametrize("module", ["core.py", "loading.py", "document.py", "reading.py"])
def test_the_kernel_names_no_system_file_keys(module: str) -> None:
    declared = set()
    for name in systems.NAMES:
        system = systems.system(name)
        declared |= {system.orders_key, *system.orders_markers, *system.state_markers}
    assert {"moves", "orders", "power", "phase", "side", "turn", "field"} <= declared
    constants, keys = _string_uses(REPO / "movecheck" / module)
    # "orders" and "state" are also the kernel's two kinds of file (aa-orders, maneuver-state)
    assert constants & (declared - {"orders", "state"}) == set()
    assert keys & declared == set()


def test_file_kinds_come_from_the_systems() -> None:
    def kind(text: str) -> str | None:
        return files.identify(load_bytes(text.encode(), "f.yaml"))

    assert kind("system: aa\nmoves: []\n") == "aa-orders"
    assert kind("system: aa\nmoves: []\nturn: {}\n") == "aa-state"
    assert kind("system: aa\nmoves: []\nfield: {}\n") == "aa-state"  # a state key of any system
    assert kind("system: maneuver\nside: red\n") == "maneuver-orders"
    assert kind("system: aa\nkind: map\n") == "aa-map"
    assert kind("system: maneuver\nkind: map\n") == "maneuver-state"  # maneuver has no map files
    doc = load_bytes(b"system: maneuver\norders:\n  - {id: o1}\n", "f.yaml")
    assert doc.order_of(("orders", 0, "id")) == {"order": 1, "order_id": "o1"}


# -- one registry of output formats ------------------------------------------------------------


def test_output_formats_are_listed_once() -> None:
    from movecheck import cli_options, config_files, session
    from movecheck.render import FORMATS, MACHINE_FORMATS, REGISTRY

    assert FORMATS == tuple(REGISTRY) == ("text", "full", "json", "json-lines", "github", "sarif")
    assert [member.value for member in cli_options.Format] == list(FORMATS)
    assert config_files.config_schema()["properties"]["format"]["enum"] == list(FORMATS)
    assert session.MACHINE_FORMATS == MACHINE_FORMATS == ("json", "json-lines", "github", "sarif")
    listed = [p for p in (REPO / "movecheck").rglob("*.py") if '"json-lines"' in p.read_text(encoding="utf-8")]
    assert [p.relative_to(REPO).as_posix() for p in listed] == ["movecheck/render/__init__.py"]


def test_every_registered_format_renders() -> None:
    from movecheck.findings import Report
    from movecheck.render import REGISTRY, renderer

    for name in REGISTRY:
        assert isinstance(renderer(name)(Report()), str)


# -- the door: what a system is handed of the run (issue 36) --------------------------------


def _annotations(member: object) -> list[str]:
    import inspect

    if isinstance(member, property):
        member = member.fget
    if not callable(member):
        return []
    signature = inspect.signature(member)
    found = [str(p.annotation) for p in signature.parameters.values() if p.annotation is not inspect.Parameter.empty]
    return [*found, str(signature.return_annotation)]


def test_no_any_in_the_signatures_of_the_door() -> None:
    # every call the kernel makes to a system and every declaration it reads is typed, so mypy checks the door
    untyped = {}
    for name, member in vars(systems.System).items():
        annotations = _annotations(member)
        if any("Any" in annotation for annotation in annotations):
            untyped[name] = annotations
    declared = {name: str(kind) for name, kind in systems.System.__annotations__.items() if "Any" in str(kind)}
    assert untyped == {} and declared == {}


def test_the_door_names_no_settings_of_the_run() -> None:
    # a system reads of the run only what RunContext and Drawing give it, never the run's Settings
    source = (REPO / "movecheck" / "systems.py").read_text(encoding="utf-8")
    assert "Settings" not in source.replace("RuleSettings", "")


def test_a_system_is_handed_the_run_context_not_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    aa = systems.system("aa")
    handed: list[object] = []
    original = type(aa).check_orders

    def recording(self: object, orders: object, prepared: object, valid: set[int], context: object) -> object:
        handed.append(context)
        return original(aa, orders, prepared, valid, context)  # type: ignore[arg-type]

    monkeypatch.setattr(type(aa), "check_orders", recording)
    paths = _files(tmp_path, 1)
    report, _ends = check(paths, Settings(suggest=False, extra={"unrelated": 1}, options={"aa": {}}))
    assert report.exit_code() == 0
    assert [type(context) for context in handed] == [systems.RunContext]
    assert handed[0] == systems.RunContext(suggest=False, observe=None)
