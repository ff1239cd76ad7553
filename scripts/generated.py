"""What every ``gen_*.py`` script does with the texts it generates: write the files that differ,
or with ``--check`` name them and fail (the tests run each script with ``--check``)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _shown(path: Path) -> str:
    """The path as the repository names it (as given when it lies elsewhere)."""
    try:
        return path.resolve().relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def sync(script: str, texts: dict[Path, str], check: bool) -> int:
    """Write each text whose file differs from it; with ``check``, write nothing and exit 1 if any differs."""
    stale = [path for path, text in texts.items() if not path.is_file() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        shown = _shown(path)
        if check:
            print(f"{script}: {shown} is out of date; run python scripts/{script}.py", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(texts[path], encoding="utf-8", newline="\n")
        print(f"wrote {shown}")
    return 1 if stale and check else 0
