"""The README's commands work as written: each fenced ``sh``/``console`` block marked runnable is run.

A block is marked by an HTML comment on the line before its fence, ``<!-- runnable -->``,
with optional words: ``exit=N`` (each command of the block exits N; default 0) and ``slow``
(it installs the package into a fresh virtual environment: run with ``-m slow``).  In a
``console`` block the commands are the lines after ``$ ``, and the lines between one command
and the next are exactly what it prints; in an ``sh`` block every line that is not a comment
is a command.  The commands run with bash from a copy of the repository (the examples only,
for the quick blocks), with this environment's ``movecheck`` first on the path.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MARKER = re.compile(r"^<!-- runnable(?P<words>(?: [a-z]+(?:=\d+)?)*) -->$")
LEFT_OUT = {".git", ".venv", "dist", "build", "site", ".pytest_cache", ".hypothesis", "__pycache__", ".mypy_cache",
            ".ruff_cache", "work"}


@dataclass
class Command:
    line: str
    output: list[str] | None  # None: not shown (an sh block)


@dataclass
class Block:
    number: int  # the line of its fence
    language: str
    exit: int = 0
    slow: bool = False
    commands: list[Command] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """The runnable blocks of a markdown text, in order; a marker not before a sh/console fence is an error."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        marker = MARKER.match(line)
        if marker is None:
            if line.startswith("<!-- runnable"):
                raise AssertionError(f"README.md:{index + 1}: a runnable marker this test does not read: {line}")
            continue
        fence = re.fullmatch(r"```(sh|console)", lines[index + 1] if index + 1 < len(lines) else "")
        assert fence, f"README.md:{index + 1}: a runnable marker must stand right before a ```sh or ```console fence"
        words = marker["words"].split()
        block = Block(index + 2, fence[1], slow="slow" in words)
        for word in words:
            if word.startswith("exit="):
                block.exit = int(word[5:])
        end = lines.index("```", index + 2)
        for body in lines[index + 2 : end]:
            if block.language == "console":
                if body.startswith("$ "):
                    block.commands.append(Command(body[2:], []))
                else:
                    assert block.commands, f"README.md:{index + 2}: a console block starts with a $ command"
                    output = block.commands[-1].output
                    assert output is not None
                    output.append(body)
            elif body.strip() and not body.lstrip().startswith("#"):
                block.commands.append(Command(body, None))
        assert block.commands, f"README.md:{index + 2}: a runnable block without a command"
        found.append(block)
    return found


BLOCKS = blocks(README.read_text(encoding="utf-8"))


def workspace(tmp_path: Path, whole: bool) -> Path:
    """A copy of the repository (its examples only, unless ``whole``)."""
    target = tmp_path / "repo"
    if whole:
        shutil.copytree(ROOT, target, ignore=lambda _folder, names: [n for n in names if n in LEFT_OUT])
    else:
        target.mkdir()
        shutil.copytree(ROOT / "examples", target / "examples")
    return target


def run_block(block: Block, tmp_path: Path) -> None:
    cwd = workspace(tmp_path, whole=block.slow)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MOVECHECK_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for command in block.commands:
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-o", "pipefail", "-c", command.line],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
        )
        shown = f"README.md:{block.number}: {command.line}\n{result.stdout}{result.stderr}"
        assert result.returncode == block.exit, shown
        if command.output is not None:
            assert result.stdout.splitlines() == command.output, shown


def test_the_readme_has_runnable_blocks() -> None:
    assert len(BLOCKS) >= 4
    assert any(block.slow for block in BLOCKS) and any(not block.slow for block in BLOCKS)


def test_the_marker_reader(tmp_path: Path) -> None:
    text = (
        "<!-- runnable exit=1 -->\n```console\n$ false\nout\n$ true\n```\n\n"
        "<!-- runnable slow -->\n```sh\n# c\nls\n```\n"
    )
    first, second = blocks(text)
    assert (first.language, first.exit, first.slow) == ("console", 1, False)
    assert [(c.line, c.output) for c in first.commands] == [("false", ["out"]), ("true", [])]
    assert (second.language, second.slow, [c.line for c in second.commands]) == ("sh", True, ["ls"])
    with pytest.raises(AssertionError, match="right before"):
        blocks("<!-- runnable -->\n```yaml\na: 1\n```\n")
    with pytest.raises(AssertionError, match="does not read"):
        blocks("<!-- runnable sometimes=x -->\n```sh\nls\n```\n")


@pytest.mark.parametrize("block", [b for b in BLOCKS if not b.slow], ids=lambda b: f"line-{b.number}")
def test_a_runnable_block_works_as_written(block: Block, tmp_path: Path) -> None:
    run_block(block, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in BLOCKS if b.slow], ids=lambda b: f"line-{b.number}")
def test_a_runnable_install_block_works_as_written(block: Block, tmp_path: Path) -> None:
    run_block(block, tmp_path)


def test_the_readme_is_short() -> None:
    """Under 20 KB: what it is, install, the first check, the two loops, pre-commit, CI, links."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 20_000
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    wanted = ["Install", "A first check", "The referee's loop", "The club's loop", "pre-commit", "CI", "Links"]
    assert [heading for heading in headings if heading in wanted] == wanted


def test_the_readme_links_lead_to_files() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8")):
        if not target.startswith(("http://", "https://")):
            assert (ROOT / target).exists(), target
