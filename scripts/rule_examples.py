"""The examples of the rule pages: for a clause, an example file that fires it and the closest file that passes.

The files are the bundled examples the tests run (``tests/test_examples.py``): each file named after a
code (``examples/aa/orders/variants/aa101-not-adjacent.yaml``, ``examples/maneuver/free-orders-mv101.yaml``)
breaks that clause, and its closest legal input is the file it varies:

- an aa variant names it on its second line (``# Variant of g1-combat.yaml ...``, a file of
  ``examples/aa/orders/``) or in ``BASES`` below;
- a manoeuvre variant ``NAME-mvXXX.yaml`` varies ``NAME.yaml`` beside it.

A page shows an excerpt of both files: the top-level keys, and only the list items (orders, placements,
results) where the two differ, matched by ``id``; ``# …`` marks the items left out.  Below the file that
fires, the page prints the finding as ``movecheck check`` prints it; below the file that passes, its
summary line.  The generator runs both checks and refuses a pair where the legal file draws a finding
of the code or the variant draws none, so a page cannot show an example that is not true.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
CODE_IN_NAME = re.compile(r"(?:^|-)([a-z]{2}\d{3})(?:-|$)")
VARIANT_OF = re.compile(r"^# Variant of ([\w.-]+\.yaml)\b")
ITEM = re.compile(r"^( *)- ")
ELIDED = "# …"
SHORT_LIST = 3  # a list of so many items is shown whole when none of them changed

# The variants whose closest legal input their second line does not name.
BASES: dict[str, str] = {
    "examples/aa/orders/variants/aa602-no-cost.yaml": "examples/aa/orders/islands-purchase.yaml",
    "examples/aa/orders/variants/aa603-unplaceable.yaml": "examples/aa/orders/j1-purchase.yaml",
    "examples/aa/orders/variants/aa605-without-capital.yaml": "examples/aa/orders/r2-purchase-moscow-lost.yaml",
    "examples/maneuver/repeated-orders-mv204.yaml": "examples/maneuver/repeated-orders.yaml",
}


@dataclass(frozen=True)
class Pair:
    """A file that fires ``code`` and the closest file that passes it (paths relative to the repository)."""

    code: str
    fires: str
    passes: str


def rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def variant_files() -> list[Path]:
    """Every example orders file named after the code it breaks."""
    files = sorted((EXAMPLES / "aa" / "orders" / "variants").glob("*.yaml"))
    files += sorted(path for path in (EXAMPLES / "maneuver").glob("*.yaml") if CODE_IN_NAME.search(path.stem))
    return files


def code_of(path: Path) -> str:
    match = CODE_IN_NAME.search(path.stem)
    if match is None:
        raise SystemExit(f"gen_rule_pages: {rel(path)} names no code")
    return match.group(1).upper()


def base_of(path: Path) -> Path:
    """The closest legal input of a variant file."""
    shown = rel(path)
    if shown in BASES:
        return REPO / BASES[shown]
    if path.parent.name == "variants":
        lines = path.read_text(encoding="utf-8").splitlines()
        match = VARIANT_OF.match(lines[1]) if len(lines) > 1 else None
        if match is None:
            raise SystemExit(f"gen_rule_pages: {shown} says of no file that it is its variant; add it to BASES")
        return path.parent.parent / match.group(1)
    return path.with_name(CODE_IN_NAME.sub("", path.stem) + ".yaml")


def pairs() -> dict[str, list[Pair]]:
    """Code -> its example pairs, the first one shown on the page."""
    found: dict[str, list[Pair]] = {}
    for path in variant_files():
        base = base_of(path)
        if not base.is_file():
            raise SystemExit(f"gen_rule_pages: {rel(path)} varies {rel(base)}, which does not exist")
        found.setdefault(code_of(path), []).append(Pair(code_of(path), rel(path), rel(base)))
    return found


# --- excerpts ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """Lines of a file: a top-level key with its value, or one item of a top-level list."""

    key: str
    lines: tuple[str, ...]
    item: bool


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _top_level(line: str) -> bool:
    return bool(line) and not line.startswith((" ", "#"))


def _trailing(line: str, indent: int) -> bool:
    """A blank line, or a comment at the items' indentation (it introduces the next items)."""
    return not line.strip() or (line.lstrip().startswith("#") and _indent(line) <= indent)


def _items(body: list[str], key: str) -> Iterator[Block]:
    """The items of a top-level list's body, keyed ``key[id]`` (or ``key[position]`` without an id)."""
    starts = [i for i, line in enumerate(body) if ITEM.match(line)]
    indent = min(_indent(body[i]) for i in starts)
    starts = [i for i in starts if _indent(body[i]) == indent]
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(body)
        lines = body[start:end]
        while lines and _trailing(lines[-1], indent):
            lines.pop()
        value = yaml.safe_load("\n".join(line[indent:] for line in lines))
        name = value[0].get("id") if isinstance(value, list) and value and isinstance(value[0], dict) else None
        yield Block(f"{key}[{name if name is not None else number}]", tuple(lines), True)


def blocks(text: str) -> list[Block]:
    """A file's top-level keys and the items of its top-level lists, comments before the first key left out."""
    lines = text.splitlines()
    tops = [i for i, line in enumerate(lines) if _top_level(line)]
    found: list[Block] = []
    for number, start in enumerate(tops):
        end = tops[number + 1] if number + 1 < len(tops) else len(lines)
        key = lines[start].split(":", 1)[0]
        body = lines[start + 1 : end]
        if any(ITEM.match(line) for line in body):
            found.append(Block(key, (lines[start],), False))
            found.extend(_items(body, key))
        else:
            while body and (not body[-1].strip() or body[-1].startswith("#")):
                body.pop()
            found.append(Block(key, (lines[start], *body), False))
    return found


def _value(block: Block) -> object:
    indent = _indent(block.lines[0])
    return yaml.safe_load("\n".join(line[indent:] for line in block.lines))


def _comments(text: str) -> list[str]:
    """The comment lines that open a file, but the editor's schema line."""
    lines: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if not line.startswith("# yaml-language-server:"):
            lines.append(line)
    return lines


def _excerpt(shown: list[Block], every: list[Block]) -> str:
    """The blocks shown, in file order, with ``# …`` where items of a list are left out."""
    lines: list[str] = []
    pending: str | None = None  # the elision mark owed for items left out
    for block in every:
        if block in shown:
            if pending is not None:
                lines.append(pending)
            pending = None
            lines.extend(block.lines)
        elif block.item:
            pending = " " * _indent(block.lines[0]) + ELIDED
    if pending is not None:
        lines.append(pending)
    return "\n".join(lines)


def _shown(every: list[Block], changed: set[str]) -> list[Block]:
    """The top-level keys and the changed items; a short list none of whose items changed is shown whole."""
    shown = [block for block in every if not block.item or block.key in changed]
    for block in every:
        if not block.item and block.key not in {b.key.split("[", 1)[0] for b in shown if b.item}:
            items = [b for b in every if b.item and b.key.startswith(f"{block.key}[")]
            if len(items) <= SHORT_LIST:
                shown.extend(items)
    return shown


def excerpts(fires: str, passes: str) -> tuple[str, str]:
    """Excerpts of the two files: their top-level keys, and the list items where they differ."""
    fires_text = (REPO / fires).read_text(encoding="utf-8")
    fires_blocks, passes_blocks = blocks(fires_text), blocks((REPO / passes).read_text(encoding="utf-8"))
    fires_items = {block.key: _value(block) for block in fires_blocks if block.item}
    passes_items = {block.key: _value(block) for block in passes_blocks if block.item}
    changed = {key for key, value in fires_items.items() if key not in passes_items or passes_items[key] != value}
    if not changed:  # the variant only leaves items out: those are the point
        changed = passes_items.keys() - fires_items.keys()
    shown_fires = _shown(fires_blocks, changed)
    shown_passes = _shown(passes_blocks, changed)
    header = "\n".join(_comments(fires_text))
    fires_excerpt = _excerpt(shown_fires, fires_blocks)
    return (f"{header}\n{fires_excerpt}" if header else fires_excerpt), _excerpt(shown_passes, passes_blocks)


# --- what movecheck prints ---------------------------------------------------------------------------


def report(path: str) -> str:
    """``movecheck check PATH --color never --isolated`` run from the repository, in English."""
    from movecheck.cli import main

    out, err = io.StringIO(), io.StringIO()
    names = ("MOVECHECK_FORMAT", "NO_COLOR", "FORCE_COLOR")
    saved = {name: os.environ.pop(name) for name in names if name in os.environ}
    try:
        with contextlib.chdir(REPO), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", path, "--color", "never", "--isolated", "--lang", "en"])
    finally:
        os.environ.update(saved)
    if code not in (0, 1):
        raise SystemExit(f"gen_rule_pages: movecheck check {path} exited {code}: {err.getvalue().strip()}")
    return out.getvalue()


def findings_of(text: str, path: str, code: str) -> list[str]:
    """The report's findings of ``code`` (each with the lines that follow it), as printed."""
    kept: list[str] = []
    keeping = False
    for line in text.splitlines():
        if line.startswith(f"{path}:"):
            keeping = bool(re.match(rf"{re.escape(path)}:\d+:\d+: {code} ", line))
        elif not line.startswith(" "):
            keeping = False
        if keeping:
            kept.append(line)
    return kept


def summary_of(text: str) -> str:
    """The report's last line: the counts."""
    return text.rstrip("\n").rsplit("\n", 1)[-1]


def checked(pair: Pair) -> tuple[list[str], str]:
    """The findings of the pair's code in the file that fires it, and the summary of the file that passes;
    refused (SystemExit) when the files do not do what the page would say."""
    fired = findings_of(report(pair.fires), pair.fires, pair.code)
    if not fired:
        raise SystemExit(f"gen_rule_pages: {pair.fires} draws no {pair.code} finding")
    passed = report(pair.passes)
    if findings_of(passed, pair.passes, pair.code):
        raise SystemExit(f"gen_rule_pages: {pair.passes}, the legal input of {pair.fires}, draws {pair.code}")
    return fired, summary_of(passed)
