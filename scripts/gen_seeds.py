"""Regenerate ``movecheck/seeds.json``: each seed paragraph in English and in the Russian original.

The rule texts and their labels (N1-N22, C1-C12, M1-M11) live in
``../shared/seeds/README.md`` (the English rendering, paragraph by paragraph) beside
the Russian originals it renders (``000_….txt`` ...); ``movecheck explain`` prints the
paragraphs a clause cites (``--lang ru``: the original), so the package ships them.
The Russian paragraphs are matched to the labels in order: one paragraph per line of
the original (its blank lines skipped, its ``•`` bullets joined to the paragraph they
list), except the paragraphs listed in ``UNLABELLED``.  Run::

    python scripts/gen_seeds.py [--seeds ../shared/seeds/README.md] [--check]

Without the shared facts folder (``$MOVECHECK_SHARED``, see ``shared_facts.py``)
``--check`` says so and exits 0: the committed ``seeds.json`` is what the package uses.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from shared_facts import shared_folder, without_facts  # noqa: E402

OUT = REPO / "movecheck" / "seeds.json"
ITEM = re.compile(r"^- (?P<labels>[NCM]\d+(?:/[NCM]?\d+)?) (?P<text>.*)$")
SOURCE = re.compile(r"^## (?P<file>\S+\.txt) — (?P<title>.*?)\s+\(labels")


def parse(text: str) -> dict[str, dict[str, str]]:
    """Label -> {text, source} from the seeds README (continuation lines folded)."""
    paragraphs: dict[str, dict[str, str]] = {}
    current: list[str] = []
    source = ""
    for line in text.splitlines():
        head = SOURCE.match(line)
        if head:
            source = f"{head['file']} ({head['title']})"
            current = []
            continue
        item = ITEM.match(line)
        if item:
            current = _labels(item["labels"])
            for label in current:
                paragraphs[label] = {"text": item["text"].strip(), "source": source}
        elif current and line.startswith("  ") and line.strip():
            for label in current:
                paragraphs[label]["text"] += " " + line.strip()
        elif not line.strip() or line.startswith("#"):
            current = []
    return paragraphs


UNLABELLED = {"003_0055733a8493ca7e.txt": {0}}
"""Paragraphs of an original that the English rendering leaves without a label (the manoeuvre title)."""
BULLET = "•"


def russian(folder: Path, paragraphs: dict[str, dict[str, str]]) -> dict[str, str]:
    """Label -> the Russian original's paragraph, for each source file the labels come from."""
    found: dict[str, str] = {}
    by_file: dict[str, list[str]] = {}
    for label, entry in paragraphs.items():
        by_file.setdefault(entry["source"].split(" ", 1)[0], []).append(label)
    for name, labels in by_file.items():
        labels.sort(key=lambda label: int(label[1:]))
        parts: list[str] = []
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            text = " ".join(line.split())
            if not text:
                continue
            if text.startswith(BULLET) and parts:
                parts[-1] += "\n" + text
            else:
                parts.append(text)
        parts = [p for k, p in enumerate(parts) if k not in UNLABELLED.get(name, set())]
        if len(parts) != len(labels):
            raise SystemExit(f"{name}: {len(parts)} paragraphs for {len(labels)} labels ({labels[0]}-{labels[-1]})")
        found.update(zip(labels, parts, strict=True))
    return found


def _labels(spec: str) -> list[str]:
    first, _, second = spec.partition("/")
    if not second:
        return [first]
    prefix = first[0]
    return [first, second if second[0].isalpha() else prefix + second]


def render(paragraphs: dict[str, dict[str, str]]) -> str:
    ordered = dict(sorted(paragraphs.items(), key=lambda kv: (kv[0][0], int(kv[0][1:]))))
    return json.dumps(ordered, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=str(shared_folder() / "seeds" / "README.md"),
                        help="the seeds README (default: seeds/README.md of $MOVECHECK_SHARED, else of ../shared)")
    parser.add_argument("--check", action="store_true", help="exit 1 if seeds.json is out of date")
    args = parser.parse_args(argv)
    if not Path(args.seeds).is_file():
        return without_facts("gen_seeds", Path(args.seeds), args.check)
    paragraphs = parse(Path(args.seeds).read_text(encoding="utf-8"))
    for label, text_ru in russian(Path(args.seeds).parent, paragraphs).items():
        paragraphs[label]["text_ru"] = text_ru
    text = render(paragraphs)
    if args.check:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print("seeds.json is up to date" if same else "seeds.json is out of date")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
