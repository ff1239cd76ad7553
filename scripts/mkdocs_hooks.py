"""MkDocs hooks of the documentation site (``hooks:`` in mkdocs.yml).

The search plugin titles each section of a page with its heading alone, so every rule page
gave results called "What it checks", "Why", "Example".  After the plugin has written
``search/search_index.json``, each section of a rule page is titled with the rule's code and
name: "AA101 path-not-adjacent" for what it checks, "AA101 path-not-adjacent: Why" for the others.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

RULE_PAGE = re.compile(r"rules/[A-Z]{2}\d{3}/")
WHAT_IT_CHECKS = "What it checks"


def titled(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search entries, those of a rule page's sections titled with the rule's code and name."""
    pages = {doc["location"]: doc["title"] for doc in docs if "#" not in doc["location"]}
    for doc in docs:
        page, _, anchor = doc["location"].partition("#")
        if not anchor or not RULE_PAGE.fullmatch(page) or page not in pages:
            continue
        rule = pages[page]
        doc["title"] = rule if doc["title"] in (WHAT_IT_CHECKS, rule) else f"{rule}: {doc['title']}"
    return docs


def on_post_build(config: Any, **_kwargs: Any) -> None:
    """Retitle the rule pages' sections in the search index the search plugin wrote."""
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    index["docs"] = titled(index["docs"])
    path.write_text(json.dumps(index, sort_keys=True, separators=(",", ":")), encoding="utf-8")
