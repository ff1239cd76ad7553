"""The clause kernel: every clause declared whole, and the runner holding clauses to their declarations.

One test per registered clause of aa, maneuver and lint: it has a check function
that runs on some occasion, documentation, an example that ``explain`` prints,
options that match what its check reads, and tests that make it fire.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

from movecheck.catalogue import explain_clause, load_all, plain_code
from movecheck.clauses import CATALOGUE, Catalogue, Clause, ClauseError, Severity, Violation, clause, declare

load_all()
TESTS = Path(__file__).resolve().parent
RULE_CLAUSES = [c for c in CATALOGUE.all() if c.system != "mc"]
OPTION_READ = {
    "aa": re.compile(r"options\[\s*[\"'](\w+)[\"']\s*\]"),
    "maneuver": re.compile(r"\b(?:opts|options)\.([a-z_]+)\b(?!\s*\()"),
}


def assertions() -> str:
    """The lines of the test suite that assert something, and the recorded snapshots of example runs."""
    lines = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name in ("test_clauses.py", "test_render.py"):  # test_render makes findings up
            continue
        lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if "assert" in line or "==" in line)
    for path in sorted(TESTS.rglob("*.ambr")):
        lines.append(path.read_text(encoding="utf-8"))
    return "\n".join(lines)


ASSERTED = assertions()


def test_every_system_has_clauses() -> None:
    assert {c.system for c in CATALOGUE.all()} == {"mc", "aa", "maneuver"}
    assert len(RULE_CLAUSES) > 50


@pytest.mark.parametrize("entry", RULE_CLAUSES, ids=lambda c: c.code)
def test_clause_is_declared_whole(entry: Clause) -> None:
    assert entry.check is not None and entry.runs, "a rule clause has a check and runs somewhere"
    assert entry.doc.strip() and entry.doc == inspect.cleandoc(entry.check.__doc__), (
        "its docstring is its documentation"
    )
    assert entry.emits[0] == entry.code
    for code in entry.emits[1:]:  # consequence codes are clauses of the same system
        assert CATALOGUE[code].system == entry.system, code


def test_no_summary_repeats_the_severity_or_the_occasion() -> None:
    # the severity is printed beside every summary (rules, explain, the pages), and lint is an occasion (issue 36)
    prefixed = [c.code for c in CATALOGUE.all() if re.match(r"(error|warning|note|info)\s*:|\(lint\)", c.summary)]
    assert prefixed == []


@pytest.mark.parametrize("entry", RULE_CLAUSES, ids=lambda c: c.code)
def test_clause_has_an_example_that_explain_prints(entry: Clause) -> None:
    assert entry.example is not None
    illegal, legal = entry.example
    assert illegal.strip() and legal.strip() and illegal != legal
    assert "\n" not in illegal + legal, "one line each"
    text, code = explain_clause(entry.code)
    assert code == 0
    bad, good = ("Illegal:", "Legal:") if entry.severity is Severity.ERROR else ("Flagged:", "Not flagged:")
    assert f"\n  {bad} " in text and f"\n  {good} " in text
    # reStructuredText literals are shown as plain `code` (issue 24)
    assert plain_code(illegal) in text and plain_code(legal) in text


@pytest.mark.parametrize("entry", RULE_CLAUSES, ids=lambda c: c.code)
def test_clause_declares_the_options_its_check_reads(entry: Clause) -> None:
    source = inspect.getsource(entry.check)
    read = set(OPTION_READ[entry.system].findall(source))
    assert read <= set(entry.options), f"{entry.code} reads {sorted(read - set(entry.options))} undeclared"
    # an option the documentation names governs the clause (``name`` in double backquotes)
    named = set(re.findall(r"``(\w+)``", entry.doc)) & set(_option_names(entry.system))
    assert named <= set(entry.options), f"{entry.code}'s text names {sorted(named - set(entry.options))}"


def _option_names(system: str) -> list[str]:
    from movecheck.systems import option_sets

    return option_sets()[system].names()


@pytest.mark.parametrize("entry", CATALOGUE.all(), ids=lambda c: c.code)
def test_clause_has_tests_that_make_it_fire(entry: Clause) -> None:
    # coarse: the code appears in an assertion of some test, or in a recorded example run
    assert re.search(rf"\b{entry.code}\b", ASSERTED), f"no test asserts {entry.code}"


def test_input_problems_have_no_check_and_are_documented() -> None:
    for entry in CATALOGUE.all("mc"):
        assert entry.check is None and not entry.runs
        assert entry.doc.strip()
        with pytest.raises(ClauseError, match="reported by the loader"):
            list(entry.run())


def test_occasions_select_the_clauses_that_run() -> None:
    assert [c.code for c in CATALOGUE.running("aa", "lint/map")] == ["AA907", "AA908", "AA910", "AA913"]
    assert "AA207" in [c.code for c in CATALOGUE.running("aa", "combat_move/end")]
    assert "AA207" not in [c.code for c in CATALOGUE.running("aa", "noncombat_move/end")]
    assert [c.code for c in CATALOGUE.running("maneuver", "lint/state")] == ["MV605"]
    assert "MV101" in [c.code for c in CATALOGUE.running("maneuver", "order/free")]
    assert "MV101" not in [c.code for c in CATALOGUE.running("maneuver", "order/all_ahead")]
    assert CATALOGUE["AA204"].options == ("destroyer_stops_subs",)


# -- the clause index (issue 36): a family is imported when one of its clauses is needed -------------------


@pytest.mark.parametrize("system", ["aa", "maneuver"])
def test_the_index_names_every_clause_as_its_module_declares_it(system: str) -> None:
    # what scripts/gen_clause_index.py --check compares, in-process: a clause missing from its system's index
    # would not run in a check that did not import its family otherwise
    index = importlib.import_module(f"movecheck.{system}.clause_index").CLAUSES
    assert {c.code: (c.system, c.module, c.name, c.severity.value, c.runs) for c in CATALOGUE.all(system)} == index
    assert CATALOGUE.codes(system) == sorted(index)
    assert CATALOGUE.codes() == [c.code for c in CATALOGUE.all()]


@pytest.mark.parametrize("system", ["aa", "maneuver"])
def test_each_occasion_runs_the_clauses_the_index_lists_for_it(system: str) -> None:
    index = importlib.import_module(f"movecheck.{system}.clause_index").CLAUSES
    for occasion in sorted({occasion for entry in index.values() for occasion in entry[4]}):
        listed = sorted(code for code, entry in index.items() if occasion in entry[4])
        assert [c.code for c in CATALOGUE.running(system, occasion)] == listed


def test_a_clause_family_is_imported_when_a_clause_of_it_is_first_needed(
    catalogue: Catalogue, tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "xx_family.py").write_text(
        "from movecheck.clauses import Violation, clause\n\n"
        "@clause('XX401', 'late', 'error', 'l', system='xx', runs=['now'])\n"
        "def late():\n"
        "    '''Late.'''\n"
        "    yield Violation('late', ())\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    catalogue.add_index({"XX401": ("xx", "xx_family", "late", "error", ("now",))})
    try:
        # listing codes, and whether a code exists, read the index alone
        assert catalogue.codes() == ["XX401"] and "XX401" in catalogue and "XX402" not in catalogue
        assert catalogue.running("xx", "later") == [] and catalogue.all("yy") == []
        assert "xx_family" not in sys.modules
        # a clause of the occasion is needed: its module is imported, and declares it
        assert [c.code for c in catalogue.running("xx", "now")] == ["XX401"]
        assert "xx_family" in sys.modules
        assert catalogue["XX401"].module == "xx_family"
        assert [v.code for v in catalogue["XX401"].run()] == ["XX401"]
        with pytest.raises(KeyError):
            catalogue["XX402"]
    finally:
        sys.modules.pop("xx_family", None)


def test_a_clause_looked_up_by_code_imports_its_family(catalogue: Catalogue, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "xx_lookup.py").write_text(
        "from movecheck.clauses import declare\n\n"
        "declare('XX501', 'looked-up', 'warning', 'w', system='xx')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    catalogue.add_index({"XX501": ("xx", "xx_lookup", "looked-up", "warning", ())})
    try:
        assert "xx_lookup" not in sys.modules
        assert catalogue.get("XX501") is not None and catalogue["XX501"].severity is Severity.WARNING
        assert catalogue["XX501"].module == "xx_lookup"
    finally:
        sys.modules.pop("xx_lookup", None)


# -- the runner ---------------------------------------------------------------------------


@pytest.fixture
def catalogue(monkeypatch) -> Catalogue:
    """A catalogue of its own, so that the clauses declared here do not join the real one."""
    fresh = Catalogue()
    monkeypatch.setattr("movecheck.clauses.CATALOGUE", fresh)
    return fresh


def test_the_runner_gives_each_violation_its_code(catalogue: Catalogue) -> None:
    @clause("XX101", "parent", "error", "p", system="xx", runs=["now"], consequences=["XX102"])
    def parent(subject: str):
        """Parent."""
        yield Violation(f"own {subject}", ("a",))
        yield Violation("consequence", ("b",), code="XX102", severity="warning")

    declare("XX102", "child", "warning", "c", system="xx", doc="Child.")
    found = list(catalogue["XX101"].run("x"))
    assert [(v.code, v.message, v.severity) for v in found] == [
        ("XX101", "own x", None),
        ("XX102", "consequence", "warning"),
    ]
    assert catalogue.running("xx", "now") == [catalogue["XX101"]]
    assert catalogue.running("xx", "later") == []


def test_the_runner_refuses_a_code_the_clause_did_not_declare(catalogue: Catalogue) -> None:
    @clause("XX201", "greedy", "error", "g", system="xx", runs=["now"])
    def greedy():
        """Greedy."""
        yield Violation("fine", ())
        yield Violation("not mine", (), code="XX202")

    run = catalogue["XX201"].run()
    assert next(run).code == "XX201"
    with pytest.raises(ClauseError, match="XX201 emitted XX202, which it does not declare"):
        next(run)


def test_a_code_is_declared_once(catalogue: Catalogue) -> None:
    declare("XX301", "once", "note", "o", system="xx")
    with pytest.raises(ValueError, match="registered twice"):
        declare("XX301", "twice", "note", "t", system="xx")
