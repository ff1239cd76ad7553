"""The documentation site: mkdocs.yml's navigation covers every page, and ``mkdocs build --strict`` passes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def pages(nav: Any) -> Iterator[tuple[str, str]]:
    """``(title, page)`` of every entry of a navigation, sections flattened."""
    for item in nav:
        for title, target in item.items():
            if isinstance(target, list):
                yield from pages(target)
            else:
                yield title, target


def test_the_navigation_has_the_newcomer_s_pages() -> None:
    listed = dict(pages(CONFIG["nav"]))
    assert {
        "Axis & Allies": "aa.md",
        "Manoeuvre": "maneuver.md",
        "File formats": "files.md",
        "Configuration": "configuration.md",
        "Output formats": "output.md",
        "Editors": "editors.md",
        "The referee": "referee.md",
        "Rules": "rules/index.md",
    }.items() <= listed.items()
    assert [section for item in CONFIG["nav"] for section in item][:2] == ["Home", "Guides"]


def test_every_page_is_in_the_navigation_or_a_rule_page() -> None:
    listed = {page for _, page in pages(CONFIG["nav"])}
    docs = ROOT / CONFIG["docs_dir"]
    found = {path.relative_to(docs).as_posix() for path in docs.rglob("*.md")}
    assert listed <= found, "the navigation names a page that does not exist"
    left = {page for page in found - listed if not (page.startswith("rules/") and page != "rules/index.md")}
    assert left == set()


@pytest.mark.slow  # builds the site with mkdocs (seconds); CI builds it strictly too
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "rules" / "AA201" / "index.html").is_file()
    assert (tmp_path / "site" / "referee" / "index.html").is_file()
    assert "WARNING" not in result.stderr


# --- search (issue 42) ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    site_dir = tmp_path_factory.mktemp("site") / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return site_dir


def search(site: Path, *queries: str) -> dict[str, list[dict[str, str]]]:
    """The results of the site's own search (lunr, as its worker builds the index), run in Node."""
    import json
    import shutil

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed")
    result = subprocess.run([node, str(ROOT / "tests" / "data" / "docs_search.js"), str(site), *queries],
                            capture_output=True, text=True, timeout=120, check=True)
    found: dict[str, list[dict[str, str]]] = json.loads(result.stdout)
    return found


def test_search_is_in_english_and_russian() -> None:
    plugins = {name: options for item in CONFIG["plugins"] for name, options in dict(item).items()}
    assert plugins["search"]["lang"] == ["en", "ru"]


@pytest.mark.slow  # builds the site with mkdocs (seconds); CI builds it strictly too
def test_search_finds_russian_words(site: Path) -> None:
    found = search(site, "вражескую", "юнитов", "enemy")
    # C10 is quoted in Russian on AA101's page, "вражескую область" among its words
    assert "rules/AA101/#c10-aa-1942-rulebook-combat-move" in [r["location"] for r in found["вражескую"]]
    assert any(r["location"].startswith("rules/") for r in found["юнитов"])  # a declined form finds the word
    assert found["enemy"]


@pytest.mark.slow  # builds the site with mkdocs (seconds); CI builds it strictly too
def test_search_results_of_a_rule_page_carry_its_code_and_name(site: Path) -> None:
    import json

    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    sections = {doc["location"]: doc["title"] for doc in docs}
    assert sections["rules/AA101/#what-it-checks"] == "AA101 path-not-adjacent"
    assert sections["rules/AA101/#why"] == "AA101 path-not-adjacent: Why"
    assert not [doc for doc in docs if doc["location"].startswith("rules/") and doc["title"] == "What it checks"]
    assert sections["configuration/"] == "Configuration"  # other pages keep their titles
    results = search(site, "adjacent")["adjacent"]
    assert results and all(" " in r["title"] for r in results if "#what-it-checks" in r["location"])
    assert "AA101 path-not-adjacent" in [r["title"] for r in results]


def _heading_anchor(title: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc: lower case, words joined by hyphens)."""
    import re
    import unicodedata

    text = unicodedata.normalize("NFKD", title.replace("`", "")).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def test_the_decisions_topic_index_leads_to_sections_that_exist() -> None:
    # docs/decisions.md is ordered by issue; its topic index (issue 36) must not point at a section renamed away
    import re

    text = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    head, _sep, _rest = text.partition("\n## Files and input\n")
    anchors = {_heading_anchor(line[3:]) for line in text.splitlines() if line.startswith("## ")}
    linked = re.findall(r"\]\(#([^)]+)\)", head)
    assert len(linked) >= 40
    assert sorted(set(linked) - anchors) == []
