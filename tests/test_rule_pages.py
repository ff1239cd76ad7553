"""A page per rule (docs/rules/CODE.md), generated from the clause catalogue like ruff's rule pages.

The pages, ``movecheck rules --format markdown``, ``explain`` and the SARIF ``helpUri`` all come
from the one catalogue; ``scripts/gen_rule_pages.py --check`` fails when a page is stale,
missing or left over, so the list and the pages cannot drift.
"""

from __future__ import annotations

import json
import re
import runpy
import shutil
from pathlib import Path
from typing import Any

import pytest

import movecheck
from movecheck.catalogue import expand_seeds, load_all, rule_url, seed_paragraphs
from movecheck.clauses import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "rules"
SCRIPT = ROOT / "scripts" / "gen_rule_pages.py"
load_all()
CLAUSES = CATALOGUE.all()


@pytest.fixture(scope="module")
def tool() -> Any:
    return runpy.run_path(str(SCRIPT), run_name="gen_rule_pages")


@pytest.mark.slow  # regenerates every page from the examples (seconds); CI's gen_all --check runs it as well
def test_the_pages_are_current(tool: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool["main"](["--check"]) == 0, capsys.readouterr().err


def test_one_page_per_clause_and_the_index() -> None:
    assert {path.stem for path in PAGES.glob("*.md")} == {c.code for c in CLAUSES} | {"index"}
    assert len(CLAUSES) > 70


@pytest.mark.parametrize("entry", CLAUSES, ids=lambda c: c.code)
def test_a_page_says_what_why_example_and_options(entry: Any) -> None:
    text = (PAGES / f"{entry.code}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# {entry.code} {entry.name}\n")
    assert f"- Severity: {entry.severity.value}\n" in text
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings == ["What it checks", "Why", "Example", "Options that change it", "See also"]
    assert " ".join(entry.summary.split()[1:]) in " ".join(text.split())
    for name in entry.options:
        assert f"| `{name}` |" in text
    paragraphs = seed_paragraphs()
    for label in expand_seeds(entry.seeds):
        if label in paragraphs:
            assert f"### {label} (" in text
            assert "> " + paragraphs[label]["text"].splitlines()[0] in text
            if paragraphs[label].get("text_ru"):
                assert "> " + paragraphs[label]["text_ru"].splitlines()[0] in text
    if entry.example is not None:
        assert "## Example\n\n- **" in text


def test_the_index_is_the_markdown_catalogue_with_links(run_main: Any) -> None:
    code, out, _err = run_main(["rules", "--format", "markdown"])
    assert code == 0
    index = (PAGES / "index.md").read_text(encoding="utf-8")
    unlinked = re.sub(r"\[(`[A-Z]{2}\d{3}`)\]\([A-Z]{2}\d{3}\.md\)", r"\1", index)
    title, _generated, _intro, rest = unlinked.split("\n\n", 3)
    assert f"{title}\n\n{rest}" == out
    assert len(re.findall(r"\]\(([A-Z]{2}\d{3})\.md\)", index)) == len(CLAUSES)


def test_explain_points_at_the_page(run_main: Any) -> None:
    code, out, _err = run_main(["explain", "AA201"])
    assert code == 0
    assert out.endswith(f"\nDocumentation: {movecheck.DOCS_URL}rules/AA201/\n")
    code, out, _err = run_main(["explain", "C10"])
    assert code == 0 and "Documentation" not in out  # a paragraph is not a clause: no page of its own


def test_sarif_help_uri_is_each_rule_s_page(run_main: Any) -> None:
    code, out, _err = run_main(["check", "--format", "sarif", "examples/aa/orders/variants/aa201-stop-in-hostile.yaml"])
    assert code == 1
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    for rule in rules:
        assert rule["helpUri"] == rule_url(rule["id"]) == f"{movecheck.DOCS_URL}rules/{rule['id']}/"
        assert (PAGES / f"{rule['id']}.md").is_file()


def test_check_finds_a_stale_and_a_left_over_page(
    tool: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "rules"
    shutil.copytree(PAGES, copy)
    main = tool["main"]
    # what the generator writes, taken from the pages as committed (test_the_pages_are_current and CI keep them
    # the generator's own): this test is about --check and the rewrite, not about making the pages again
    texts = {copy / path.name: path.read_text(encoding="utf-8") for path in PAGES.glob("*.md")}
    monkeypatch.setitem(main.__globals__, "PAGES", copy)
    monkeypatch.setitem(main.__globals__, "outputs", lambda: texts)
    monkeypatch.setitem(main.__globals__, "REPO", tmp_path)
    assert main(["--check"]) == 0
    page = copy / "AA201.md"
    page.write_text(page.read_text(encoding="utf-8").replace("stop-in-hostile", "stop-anywhere"), encoding="utf-8")
    (copy / "AA999.md").write_text("# AA999 gone\n", encoding="utf-8")
    assert main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "AA201.md is out of date" in err and "AA999.md is no clause's page" in err
    assert main([]) == 0
    assert not (copy / "AA999.md").exists()
    assert page.read_text(encoding="utf-8") == texts[page]


def test_the_language_server_links_each_code_to_its_page() -> None:
    pytest.importorskip("lsprotocol")
    from movecheck.server.diagnostics import CODE_LINK

    assert CODE_LINK.format(code="AA201") == rule_url("AA201")


# --- the examples of the pages: files the tests run (issue 42) ---------------------------------------


@pytest.fixture(scope="module")
def examples(tool: Any) -> Any:
    """scripts/rule_examples.py, as the generator imported it."""
    return tool["excerpts"].__globals__


def test_every_page_with_an_example_file_shows_the_file_that_fires_it_and_the_one_that_passes(examples: Any) -> None:
    from test_examples import ALL_ORDERS

    run = {path.relative_to(ROOT).as_posix() for path in ALL_ORDERS}
    found = examples["pairs"]()
    assert len(found) >= 49
    for code, pairs in found.items():
        text = (PAGES / f"{code}.md").read_text(encoding="utf-8")
        first = pairs[0]
        assert first.fires in run and first.passes in run  # both are files tests/test_examples.py checks
        fires, passes = text.split("### An input that fires it\n", 1)[1].split("### The closest input that passes\n")
        assert f"`{first.fires}` (an excerpt):" in fires
        assert re.search(rf"^{re.escape(first.fires)}:\d+:\d+: {code} \[(error|warning|note)\] ", fires, flags=re.M)
        assert f"`{first.passes}` (an excerpt):" in passes
        assert f"reports no {code} finding:" in passes and f" {code} [" not in passes
        for other in pairs[1:]:
            assert f"`{other.fires}`" in text


def test_a_page_without_an_example_file_says_so(examples: Any) -> None:
    found = examples["pairs"]()
    without = [c for c in CLAUSES if c.code not in found]
    assert without
    for entry in without:
        text = (PAGES / f"{entry.code}.md").read_text(encoding="utf-8")
        assert f"No example file fires this clause yet: `examples/` has no file named after {entry.code}." in text
        assert "### An input that fires it" not in text


def test_the_excerpts_show_the_order_that_differs(examples: Any) -> None:
    fires, passes = examples["excerpts"]("examples/aa/orders/variants/aa101-not-adjacent.yaml",
                                         "examples/aa/orders/g1-combat.yaml")
    assert "    path: [Finland, Archangel]" in fires and "Karelia S.S.R.]" not in fires.split("karelia-finns")[1]
    assert "    path: [Finland, Karelia S.S.R.]" in passes
    for text in (fires, passes):
        assert "phase: combat_move" in text and "  # …" in text
        assert "karelia-baltic" not in text  # the orders the two files share are left out
    assert fires.startswith("# Variant of g1-combat.yaml that breaks one rule: AA101")
    # a variant that only leaves an order out: the left-out order is shown in the file that passes
    fires, passes = examples["excerpts"]("examples/aa/orders/variants/mob-aa707-left-unplaced.yaml",
                                         "examples/aa/orders/g1-mobilize.yaml")
    assert "id: berlin" in passes and "id: berlin" not in fires


def test_the_generator_refuses_an_example_that_is_not_true(examples: Any) -> None:
    pair = examples["Pair"]
    variant, base = "examples/aa/orders/variants/aa101-not-adjacent.yaml", "examples/aa/orders/g1-combat.yaml"
    fired, summary = examples["checked"](pair("AA101", variant, base))
    assert fired[0].startswith(f"{variant}:12:21: AA101 [error] Finland does not border Archangel")
    assert summary.startswith("0 errors")
    with pytest.raises(SystemExit, match="draws no AA102 finding"):
        examples["checked"](pair("AA102", variant, base))
    with pytest.raises(SystemExit, match=r"the legal input of .* draws AA101"):
        examples["checked"](pair("AA101", variant, variant))


# -- where a clause is written, as ruff's "View source" (issue 36) ----------------------------


@pytest.mark.parametrize("entry", [c for c in CLAUSES if c.check is not None], ids=lambda c: c.code)
def test_each_page_names_the_file_and_function_of_its_check(entry: Any) -> None:
    found = re.search(r"^- Source: `([^`]+)`, function `([^`]+)`$", (PAGES / f"{entry.code}.md").read_text("utf-8"),
                      re.M)
    assert found is not None
    path, function = found.groups()
    source = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(function)}\(", source, re.M), (path, function)
    assert path.replace("/", ".").removesuffix(".py") == entry.check.__module__


def test_explain_names_the_source_before_the_page(run_main: Any) -> None:
    code, out, _err = run_main(["explain", "AA201"])
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Source: movecheck/aa/checks/combat.py, function stop_in_hostile",
        f"Documentation: {movecheck.DOCS_URL}rules/AA201/",
    ]
    code, out, _err = run_main(["explain", "MC003"])
    assert code == 0 and "Source:" not in out  # an input problem: the loader reports it, no check of its own
