"""Facts and verdicts (issue #13): the fact modules word nothing; each clause decides and words its own findings.

The fact modules (world, free, corps, and the motion and allowance machinery
under them) return numbers, positions, bases and terrain met, and roll
combinations.  The clause modules in ``maneuver/checks`` turn them into
findings, each clause only its own code: no clause emits another's (MV304 used
to be emitted by MV101's check).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import movecheck.maneuver
from tests.sampling import sampled

PACKAGE = Path(movecheck.maneuver.__file__).parent
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "maneuver"
FACT_MODULES = ("world", "free", "corps", "motion", "analysis")
CLAUSE_MODULES = ("contact", "formation", "movement", "terrain")
ORDER_CLAUSES = (  # today's; a new clause needs no entry here
    "MV101", "MV102", "MV201", "MV202", "MV203", "MV301", "MV302", "MV303", "MV304",
    "MV401", "MV402", "MV403", "MV501", "MV502",
)
CODE = re.compile(r"\b(?:MV|MC)\d{3}\b")
WORDY_FIELD = re.compile(r"message|problem|verdict|why|reason|text|undecided")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the string constants that are docstrings (of the module, a class or a function) or bare comments."""
    found = set()
    for node in ast.walk(tree):
        for stmt in getattr(node, "body", []) if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) else []:
            if (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                found.add(id(stmt.value))
    return found


# --- the fact modules ------------------------------------------------------------------------


@pytest.mark.parametrize("name", FACT_MODULES)
def test_fact_modules_word_no_findings(name: str) -> None:
    tree = _tree(PACKAGE / f"{name}.py")
    raised = {id(n) for r in ast.walk(tree) if isinstance(r, ast.Raise) for n in ast.walk(r)}
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith(("movecheck.maneuver.checks", "movecheck.findings")), node.module
        assert not (isinstance(node, ast.Name) and node.id == "Problem"), f"{name}.py:{node.lineno}"
        if isinstance(node, ast.JoinedStr):  # an f-string: a message, unless it explains a programming error
            assert id(node) in raised, f"{name}.py:{node.lineno}: words a finding"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            assert not CODE.search(node.value), f"{name}.py:{node.lineno}: names a finding code"


@pytest.mark.parametrize("name", FACT_MODULES)
def test_fact_records_carry_no_words(name: str) -> None:
    module = importlib.import_module(f"movecheck.maneuver.{name}")
    records = [v for v in vars(module).values()
               if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == module.__name__]
    for record in records:
        for f in dataclasses.fields(record):
            assert not WORDY_FIELD.search(f.name), f"{record.__name__}.{f.name}"


def _strings(value: Any, seen: set[int]) -> Iterator[tuple[str, str]]:
    """Every string held by a fact record, with where it sits (model objects and shapes are not facts)."""
    if isinstance(value, str):
        yield value, ""
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for k, v in value.items():
            for text, at in [*_strings(k, seen), *_strings(v, seen)]:
                yield text, f"[{k!r}]{at}"
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item, seen)
    elif dataclasses.is_dataclass(value) and type(value).__module__.removeprefix("movecheck.maneuver.") in FACT_MODULES:
        for f in dataclasses.fields(value):
            for text, at in _strings(getattr(value, f.name), seen):
                yield text, f".{f.name}{at}"


def _analyses(path: Path) -> list[Any]:
    """The facts of every usable order of an example orders file, each on the battlefield as it starts."""
    from movecheck.loading import load_file
    from movecheck.maneuver import rules  # noqa: F401  (registers the clauses)
    from movecheck.maneuver.corps import analyse_corps
    from movecheck.maneuver.free import analyse_free
    from movecheck.maneuver.orders import Resolver
    from movecheck.maneuver.setup import build_battlefield
    from movecheck.maneuver.world import World

    doc = load_file(str(path))
    battlefield = build_battlefield(load_file(str(EXAMPLES / doc.data["state"]))).battlefield
    assert battlefield is not None
    side = doc.data["side"]
    resolver = Resolver(doc, battlefield, side)
    world = World(battlefield, side)
    found = []
    for i, item in enumerate(doc.data["orders"]):
        order = resolver.resolve(i, item, True)
        if order is not None:
            world.claim(order)  # a later order for its bases repeats it (MV204)
        if order is not None and order.usable:
            found.append(analyse_free(world, order) if order.kind == "free" else analyse_corps(world, order))
    return found


ORDER_FILES = sorted(EXAMPLES.glob("*-orders*.yaml"))


@pytest.mark.parametrize(
    "path", sampled("tests/maneuver/test_facts.py::test_facts_of_the_examples_hold_no_sentences", ORDER_FILES,
                    lambda p: p.stem)
)
def test_facts_of_the_examples_hold_no_sentences(path: Path) -> None:
    """A sampled sweep (tests/sampling.py): every third example in the default run, the others under ``slow``."""
    # ids, terrain kinds, die names and dice are single words; a message never is
    for analysis in _analyses(path):
        for text, at in _strings(analysis, set()):
            assert not re.search(r"\s", text), f"{type(analysis).__name__}{at} = {text!r}"


# --- the clauses -------------------------------------------------------------------------------


def _clauses() -> list[tuple[str, str, str, str]]:
    """(code, module, function, order kinds name) of every function declared with ``mv_clause``."""
    found = []
    for module in CLAUSE_MODULES:
        for node in _tree(PACKAGE / "checks" / f"{module}.py").body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", None) == "mv_clause":
                    kinds = next((k.value.id for k in deco.keywords if k.arg == "orders"), "EVERY")
                    found.append((deco.args[0].value, module, node.name, kinds))
    return found


def test_every_order_clause_has_its_own_check_function() -> None:
    from movecheck.clauses import CATALOGUE
    from movecheck.maneuver import rules  # noqa: F401  (registers the clauses)

    catalogue = sorted(c.code for c in CATALOGUE.all("maneuver") if c.phase != "lint")
    codes = [code for code, *_ in _clauses()]
    assert sorted(codes) == sorted(set(codes)) == catalogue
    assert set(ORDER_CLAUSES) <= set(codes)


@pytest.mark.parametrize("module", CLAUSE_MODULES)
def test_no_clause_emits_another_clause_code(module: str) -> None:
    tree = _tree(PACKAGE / "checks" / f"{module}.py")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Violation":
            assert all(k.arg not in ("code", "severity") for k in node.keywords), f"{module}.py:{node.lineno}"
        assert not (isinstance(node, ast.Name) and node.id == "problems_of"), f"{module}.py:{node.lineno}"


def test_each_clause_function_yields_its_own_findings() -> None:
    from movecheck.maneuver import checks

    per_code = sorted(EXAMPLES.glob("*-orders-mv*.yaml"))
    assert per_code
    clauses = [(code, getattr(importlib.import_module(f"movecheck.maneuver.checks.{module}"), name),
                getattr(checks, kinds)) for code, module, name, kinds in _clauses()]
    for path in per_code:
        wanted = path.stem.rsplit("-", 1)[1].upper()
        fired = set()
        for analysis in _analyses(path):
            for code, check, kinds in clauses:
                if analysis.order.kind not in kinds:
                    continue
                for problem in check(analysis):
                    assert getattr(problem, "code", None) in (None, code), (path.name, code, problem)
                    fired.add(code)
        assert wanted in fired, (path.name, sorted(fired))
