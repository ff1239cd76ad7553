"""The import graph of movecheck: no circles, and the aa engine and its clauses meet only in the phase.

Read from the source with ast (nothing is imported).  Imports under ``if
TYPE_CHECKING:`` are for type checkers and never run, so they are left out.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deferred_imports import DEFERRED

PACKAGE = Path(__file__).resolve().parents[1] / "movecheck"


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = module_files()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)
"""The nodes an import statement can be in: statements, and the ``except`` and ``case`` clauses.

An import is a statement: no expression (a lambda's body included), argument list or
comprehension holds one, so the walks below never descend into them (most of a module's nodes).
"""


def _statements_under(node: ast.AST) -> Iterator[ast.AST]:
    """The children of ``node`` that can hold an import statement (or be one)."""
    return (child for child in ast.iter_child_nodes(node) if isinstance(child, HOLDS_STATEMENTS))


def every_statement(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement (and ``except``/``case`` clause) under ``tree``, in functions and classes too."""
    stack = list(_statements_under(tree))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(_statements_under(node))


def statements_in_functions(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement (and ``except``/``case`` clause) inside a function of ``tree``, at any depth."""
    stack = [(child, False) for child in _statements_under(tree)]
    while stack:
        node, inside = stack.pop()
        if inside:
            yield node
        inner = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        stack.extend((child, inner) for child in _statements_under(node))


def imports(node: ast.AST, deferred: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node`` that run: at module level, or (``deferred``) in functions too."""
    for child in _statements_under(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _type_checking(child):
            for other in child.orelse:
                yield from imports(ast.Module(body=[other], type_ignores=[]), deferred)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not deferred:
            continue
        else:
            yield from imports(child, deferred)


def targets(module: str, statement: ast.Import | ast.ImportFrom) -> set[str]:
    """The movecheck modules an import statement loads (``from P import m`` is module ``P.m`` when there is one)."""
    if isinstance(statement, ast.Import):
        names = {alias.name for alias in statement.names}
    else:
        base = statement.module or ""
        if statement.level:
            package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
            parts = package.split(".")[: len(package.split(".")) - statement.level + 1]
            base = ".".join(parts + ([base] if base else []))
        names = {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in statement.names}
    return {name for name in names if name in MODULES and name != module}


Statements = tuple[ast.Import | ast.ImportFrom, ...]


@functools.cache
def import_statements(module: str) -> tuple[Statements, Statements, Statements, Statements]:
    """A module's import statements: (those that run at load time, those that run at all, every one, those
    inside a function).

    Parsed once per test process; only the statements are kept, not the syntax tree (a whole
    package of trees kept alive would slow every later garbage collection of the process).
    """
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    every = tuple(node for node in every_statement(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))
    in_functions = tuple(n for n in statements_in_functions(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return tuple(imports(tree, deferred=False)), tuple(imports(tree, deferred=True)), every, in_functions


@functools.cache
def _graph(deferred: bool) -> dict[str, frozenset[str]]:
    return {
        module: frozenset(
            t for statement in import_statements(module)[1 if deferred else 0] for t in targets(module, statement)
        )
        for module in MODULES
    }


def graph(deferred: bool = False) -> dict[str, set[str]]:
    """Module -> the movecheck modules it imports."""
    return {module: set(found) for module, found in _graph(deferred).items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "movecheck.clauses" in edges["movecheck.findings"]
    assert "movecheck.aa.phase" in edges["movecheck.aa.engine"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles_at_module_level() -> None:
    assert cycles(graph()) == []


def every_import(module: str) -> set[str]:
    """The movecheck modules ``module`` names in any import, in functions and under TYPE_CHECKING too."""
    return {t for node in import_statements(module)[2] for t in targets(module, node)}


def test_the_aa_modules_have_no_circle_at_all() -> None:
    # the engine, the phase, the facts and the clauses: not even a type checker's import goes round
    inside = [m for m in MODULES if m.startswith("movecheck.aa.")]
    assert cycles({m: {t for t in every_import(m) if t in inside} for m in inside}) == []


def test_the_clause_kernel_imports_nothing_of_movecheck_at_load_time() -> None:
    assert graph()["movecheck.clauses"] == set()


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("movecheck.aa.checks")))
def test_aa_checks_never_import_the_engine(module: str) -> None:
    assert "movecheck.aa.engine" not in every_import(module)


def test_the_aa_engine_reaches_the_checks_only_through_the_registry() -> None:
    direct = graph(deferred=True)["movecheck.aa.engine"]
    assert not {m for m in direct if m.startswith("movecheck.aa.checks")}
    # the catalogue imports the families of the clauses a phase runs, through the clause index (issue 36): the
    # engine no longer imports every family (movecheck.aa.rules) for them
    assert "movecheck.aa.clause_index" in direct and "movecheck.aa.rules" not in direct


@pytest.mark.parametrize("module", ["movecheck.aa.landing.aircraft", "movecheck.aa.landing.carriers"])
def test_landing_solvers_return_facts_not_findings(module: str) -> None:
    text = MODULES[module].read_text(encoding="utf-8")
    for word in ("Violation", "Finding", "make_finding", '"AA2', '"AA3'):
        assert word not in text, f"{module} mentions {word}"


def test_the_entry_point_loads_nothing_before_it_knows_the_command() -> None:
    # `movecheck --version` and `--help` are answered before Typer or the command line is imported
    tree = ast.parse(MODULES["movecheck.__main__"].read_text(encoding="utf-8"))
    loaded = set()
    for statement in imports(tree, deferred=False):
        if isinstance(statement, ast.Import):
            loaded |= {alias.name.split(".")[0] for alias in statement.names}
        else:
            loaded.add((statement.module or "").split(".")[0])
    assert loaded <= {"__future__", "os", "sys", "typing"}, loaded


def test_the_generated_validators_need_no_jsonschema() -> None:
    for module in ("movecheck.validators", "movecheck.validators.generated"):
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {n for n in names if n.split(".")[0] in ("jsonschema", "referencing")}, module


def deferred_names(module: str) -> set[str]:
    """The modules ``module`` imports inside its functions (``from P import m`` is ``P.m`` when m is a module)."""
    found: set[str] = set()
    for statement in import_statements(module)[3]:
        if isinstance(statement, ast.Import):
            found |= {alias.name for alias in statement.names}
        elif isinstance(statement, ast.ImportFrom):
            found |= _from_names(module, statement)
    return found


def _from_names(module: str, statement: ast.ImportFrom) -> set[str]:
    base = statement.module or ""
    if statement.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        parts = package.split(".")[: len(package.split(".")) - statement.level + 1]
        base = ".".join(parts + ([base] if base else []))
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in statement.names}


def loaded_with(module: str) -> set[str]:
    """The movecheck modules loaded whenever ``module`` is: its packages and their load-time imports, transitively."""
    edges = graph()
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        for other in [*parents, *edges.get(name, ())]:
            if other in MODULES and other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def external_loaded_with(module: str, top: bool = True) -> set[str]:
    """The outside modules ``module`` and what loads with it import at load time (``top``: by package name)."""
    found: set[str] = set()
    for name in {module} | loaded_with(module):
        for statement in import_statements(name)[0]:
            if isinstance(statement, ast.Import):
                found |= {alias.name for alias in statement.names}
            elif not statement.level:
                found.add(statement.module or "")
    if top:
        found = {name.split(".")[0] for name in found}
    return {name for name in found if name.split(".")[0] not in {"movecheck", "__future__"}}


def test_every_function_level_import_is_allowed_with_a_reason() -> None:
    # issue 36: an import inside a function says why it is not at the top (tests/deferred_imports.py)
    found = {module: deferred_names(module) for module in MODULES if deferred_names(module)}
    listed = {module: set(names) for module, names in DEFERRED.items()}
    new = {m: sorted(found[m] - listed.get(m, set())) for m in found if found[m] - listed.get(m, set())}
    gone = {m: sorted(listed[m] - found.get(m, set())) for m in listed if listed[m] - found.get(m, set())}
    assert new == {}, "function-level imports not in tests/deferred_imports.py (hoist them, or list them with why)"
    assert gone == {}, "tests/deferred_imports.py lists imports the code no longer has"


@pytest.mark.parametrize("module", sorted(DEFERRED))
def test_a_deferred_import_keeps_its_module_out(module: str) -> None:
    # what loads with the module anyway belongs at its top; a "heavy" reason names what it keeps out
    loaded = loaded_with(module)
    for name, reason in DEFERRED[module].items():
        kind, _, detail = reason.partition(": ")
        assert kind in {"heavy", "command-specific", "rarely used", "entry point", "optional"}, (name, reason)
        if name in MODULES and kind != "entry point":
            assert name not in loaded, f"{module} loads {name} at its top anyway: hoist the import"
        if kind == "heavy":
            if name in MODULES:
                packages = external_loaded_with(name)
                assert set(detail.split(", ")) <= packages, f"{module} -> {name}: {detail} is not loaded by it"
            else:
                assert name.split(".")[0] in detail.split(", "), (module, name, reason)
        if kind == "rarely used" and name not in MODULES:
            assert name not in external_loaded_with(module, top=False), f"{module} loads {name} anyway"


WHERE_IMPORTS_ARE = '''
import a
from b import c
if TYPE_CHECKING:
    import typed
else:
    import untyped
class K:
    import in_class
    def method(self):
        import in_method
try:
    import in_try
except ImportError:
    import in_except
else:
    import in_else
finally:
    import in_finally
with open("x") as handle:
    import in_with
for item in ():
    import in_for
while False:
    import in_while
match item:
    case 1:
        import in_case
async def coroutine():
    async with x:
        import in_async_with
    async for y in x:
        import in_async_for
def outer():
    def inner():
        import nested
'''


def _names(statements) -> set[str]:
    return {alias.name for statement in statements for alias in statement.names}


def test_the_statement_walk_finds_every_import_ast_walk_finds() -> None:
    # the walks descend into statements only (imports are statements): the same imports as a walk of every node
    tree = ast.parse(WHERE_IMPORTS_ARE)
    walked = {node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))}
    assert {node for node in every_statement(tree) if isinstance(node, (ast.Import, ast.ImportFrom))} == walked
    assert len(walked) == 17
    assert _names(imports(tree, deferred=True)) == _names(walked) - {"typed"}
    in_functions = [node for node in statements_in_functions(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert _names(in_functions) == {"in_method", "in_async_with", "in_async_for", "nested"}
    assert _names(imports(tree, deferred=False)) == {
        "a", "c", "untyped", "in_class", "in_try", "in_except", "in_else", "in_finally", "in_with", "in_for",
        "in_while", "in_case",
    }
