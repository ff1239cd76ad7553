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
    texts = {copy / path.name: text for path, text in tool["outputs"]().items()}
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
