"""Where the generator scripts find the shared facts folder, and what they do without it.

The built-in maps (``gen_maps.py``) and the rule paragraphs (``gen_seeds.py``) are
generated from the shared facts folder: ``data/*.map.json`` and ``seeds/README.md``.
It is not part of the repository; the generated files are committed, so a fresh clone
works without it.  ``MOVECHECK_SHARED`` names the folder; by default it is the first
folder named ``shared`` beside the repository or beside a folder holding it (a git
worktree at ``<root>/wt/NAME`` finds ``<root>/shared``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENV = "MOVECHECK_SHARED"
REPO = Path(__file__).resolve().parent.parent


def shared_folder() -> Path:
    """``$MOVECHECK_SHARED``, else the nearest ``shared`` folder beside the repository or above it."""
    named = os.environ.get(ENV)
    if named:
        return Path(named)
    return next((folder / "shared" for folder in REPO.parents if (folder / "shared").is_dir()), REPO.parent / "shared")


def without_facts(script: str, source: Path, check: bool) -> int:
    """Say in one line that ``source`` is missing: exit 0 for ``--check`` (nothing to compare), else 2."""
    where = f"{source} does not exist (set {ENV} to the shared facts folder, or see --help)"
    if check:
        print(f"{script}: nothing to compare: {where}; the committed files stay as they are", file=sys.stderr)
        return 0
    print(f"{script}: cannot generate: {where}", file=sys.stderr)
    return 2
