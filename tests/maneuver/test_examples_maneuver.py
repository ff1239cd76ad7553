"""The maneuver examples: legal files are clean, each variant breaks exactly its clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from movecheck.core import check
from movecheck.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "maneuver"
VARIANTS = sorted(p for p in EXAMPLES.glob("*-orders-*.yaml"))
LEGAL = [EXAMPLES / "free-orders.yaml", EXAMPLES / "corps-orders.yaml", EXAMPLES / "engaged-orders.yaml"]


def findings_of(path: Path):
    report, _ = check([str(path)], Settings())
    return report, report.sorted_findings()


@pytest.mark.parametrize("path", LEGAL, ids=[p.name for p in LEGAL])
def test_legal_examples_have_no_errors_or_warnings(path):
    report, found = findings_of(path)
    assert [f for f in found if f.severity.value != "note"] == []
    assert report.illegal_orders() == 0


@pytest.mark.parametrize("path", VARIANTS, ids=[p.name for p in VARIANTS])
def test_each_variant_breaks_its_clause(path):
    expected = path.stem.rsplit("-", 1)[-1].upper()
    _, found = findings_of(path)
    problems = {f.code for f in found if f.severity.value in ("error", "warning")}
    assert problems == {expected}, [f"{f.code} {f.message}" for f in found]


def test_every_maneuver_clause_has_an_example_or_a_test():
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    shown = {p.stem.rsplit("-", 1)[-1].upper() for p in VARIANTS}
    tested = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "maneuver").glob("test_*.py"))
    for clause in CATALOGUE.all("maneuver"):
        assert clause.code in shown or clause.code in tested, clause.code
