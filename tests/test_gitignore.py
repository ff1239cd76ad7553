"""``.gitignore`` matching (movecheck/gitignore.py) against git itself, and folders that respect it (issue 42).

A generated tree with nested ``.gitignore`` files of every pattern kind (negation, folder-only,
anchored, ``**``, classes, escapes) is asked of ``git check-ignore`` and of movecheck: both must
name the same paths.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from movecheck.gitignore import GitIgnored, parse_line, translate

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")

ROOT_IGNORE = """\
# comments and blank lines are no patterns

*.draft.yaml
!keep.draft.yaml
/top-only.yaml
build/
logs/**
**/cache
docs/**/secret.yaml
a/**/b/deep.yaml
notes?.yaml
[Tt]emp*.yaml
x[!0-9].yaml
\\#hash.yaml
\\!bang.yaml
trailing.yaml\x20\x20\x20
spaced\\ .yaml
orders/drafts/
!orders/drafts/kept.yaml
nested/*
!nested/open/
"""
NESTED_IGNORE = """\
*.yaml
!wanted.yaml
/anchored.yaml
"""
DEEPER_IGNORE = """\
!*.yaml
sub/
"""

NAMES = [
    "plain.yaml", "x.draft.yaml", "keep.draft.yaml", "top-only.yaml", "notes1.yaml", "notes12.yaml", "Temp1.yaml",
    "temp.yaml", "tEmp.yaml", "xa.yaml", "x1.yaml", "#hash.yaml", "!bang.yaml", "trailing.yaml", "spaced .yaml",
    "secret.yaml", "deep.yaml", "wanted.yaml", "anchored.yaml", "kept.yaml",
]
FOLDERS = [
    "", "build", "logs", "logs/x", "src/cache", "cache", "docs", "docs/a/b", "a/b", "a/x/y/b", "orders",
    "orders/drafts", "nested", "nested/open", "nested/closed", "other", "other/deeper", "other/deeper/sub",
    "other/deeper/sub/more", "src/build",
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gitignore") / "repo"
    for folder, name in itertools.product(FOLDERS, NAMES):
        path = root / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("movecheck: 1\n", encoding="utf-8")
    (root / ".gitignore").write_text(ROOT_IGNORE, encoding="utf-8")
    (root / "other" / ".gitignore").write_text(NESTED_IGNORE, encoding="utf-8")
    (root / "other" / "deeper" / ".gitignore").write_text(DEEPER_IGNORE, encoding="utf-8")
    (root / "src" / ".gitignore").write_text("/build\n", encoding="utf-8")
    if GIT is not None:
        subprocess.run([GIT, "init", "-q", str(root)], check=True)
        (root / ".git" / "info").mkdir(parents=True, exist_ok=True)
        (root / ".git" / "info" / "exclude").write_text("plain.yaml\n!/plain.yaml\n", encoding="utf-8")
    return root


def every_path(root: Path) -> list[str]:
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(d for d in folders if d != ".git")
        found += [os.path.relpath(os.path.join(folder, name), root) for name in [*folders, *sorted(files)]]
    return sorted(found)


def git_ignored(root: Path, paths: list[str]) -> set[str]:
    assert GIT is not None
    result = subprocess.run([GIT, "check-ignore", "--stdin", "-z"], cwd=root, input="\0".join(paths),
                            capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return {p for p in result.stdout.split("\0") if p}


@needs_git
def test_the_ignored_paths_are_those_git_check_ignore_names(tree: Path) -> None:
    paths = every_path(tree)
    expected = git_ignored(tree, paths)
    ignored = GitIgnored()
    found = {p for p in paths if ignored.ignored(str(tree / p), is_dir=(tree / p).is_dir())}
    assert len(expected) > 100 and len(paths) - len(expected) > 100  # the tree exercises both sides
    assert found == expected


@needs_git
def test_the_files_a_walk_reads_are_those_git_lists_as_untracked(tree: Path) -> None:
    assert GIT is not None
    listed = subprocess.run([GIT, "ls-files", "--others", "--exclude-standard", "-z"], cwd=tree,
                            capture_output=True, text=True, check=True).stdout
    ignored = GitIgnored()
    kept = {p for p in every_path(tree) if (tree / p).is_file() and not ignored.ignored(str(tree / p))}
    assert kept == {p for p in listed.split("\0") if p}


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.yaml", "a/b/c.yaml", True),
        ("/c.yaml", "a/c.yaml", False),
        ("a/*.yaml", "a/b/c.yaml", False),
        ("**/b", "x/y/b", True),
        ("a/**", "a/b/c", True),
        ("a/**", "a", False),
        ("a/**/c", "a/c", True),
        ("a/**/c", "a/x/y/c", True),
        ("[a-c]x", "bx", True),
        ("[!a-c]x", "bx", False),
        ("\\*x", "*x", True),
        ("\\*x", "ax", False),
        ("[unclosed", "[unclosed", True),
    ],
)
def test_patterns(pattern: str, path: str, matches: bool) -> None:
    import re

    assert bool(re.fullmatch(translate(pattern), path)) is matches


def test_lines_that_are_no_pattern() -> None:
    assert parse_line("", "/r") is None
    assert parse_line("# a comment", "/r") is None
    assert parse_line("   ", "/r") is None
    assert parse_line("!", "/r") is None
    rule = parse_line("!drafts/", "/r")
    assert rule is not None and rule.negated and rule.directory_only


def test_outside_a_repository_nothing_is_ignored(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.yaml\n", encoding="utf-8")
    (tmp_path / "a.yaml").write_text("movecheck: 1\n", encoding="utf-8")
    if any((parent / ".git").exists() for parent in tmp_path.parents):
        pytest.skip("the temporary folder lies in a repository")
    assert GitIgnored().ignored(str(tmp_path / "a.yaml")) is False


# --- check and lint on folders ------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path, write: Any) -> Path:
    """A repository with a legal orders file, a git-ignored illegal draft and a re-included one."""
    from tests.conftest import AA_ORDERS_ILLEGAL, AA_ORDERS_LEGAL, AA_STATE

    root = tmp_path / "game"
    (root / ".git").mkdir(parents=True)
    write(root, ".gitignore", "drafts/\n*.draft.yaml\n")
    write(root, "state.yaml", AA_STATE)
    write(root, "legal.yaml", AA_ORDERS_LEGAL)
    write(root, "drafts/illegal.yaml", AA_ORDERS_ILLEGAL.replace("state: state.yaml", "state: ../state.yaml"))
    write(root, "sub/next.draft.yaml", AA_ORDERS_ILLEGAL.replace("state: state.yaml", "state: ../state.yaml"))
    write(root, "sub/.gitignore", "!keep.draft.yaml\n")
    write(root, "sub/keep.draft.yaml", AA_ORDERS_LEGAL.replace("state: state.yaml", "state: ../state.yaml"))
    return root


def test_check_of_a_folder_leaves_out_what_git_ignores(run_main: Any, game: Path) -> None:
    code, out, err = run_main(["check", "-q", "."], cwd=game)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("0 errors, 0 warnings, 0 notes in 2 files;")  # legal.yaml, keep.draft.yaml
    code, out, _ = run_main(["check", "-q", "--no-respect-gitignore", "."], cwd=game)
    assert code == 1 and "drafts/illegal.yaml:" in out and "sub/next.draft.yaml:" in out and "in 4 files;" in out


def test_show_files_lists_what_check_and_lint_would_read(run_main: Any, game: Path) -> None:
    assert run_main(["check", "--show-files", "."], cwd=game) == (0, "legal.yaml\nsub/keep.draft.yaml\n", "")
    code, out, _ = run_main(["lint", "--show-files", "."], cwd=game)
    assert (code, out) == (0, "legal.yaml\nstate.yaml\nsub/keep.draft.yaml\n")
    code, out, _ = run_main(["lint", "--show-files", "--no-respect-gitignore", "."], cwd=game)
    assert out.splitlines() == ["drafts/illegal.yaml", "legal.yaml", "state.yaml", "sub/keep.draft.yaml",
                                "sub/next.draft.yaml"]


def test_a_folder_or_file_named_is_read_though_git_ignores_it(run_main: Any, game: Path) -> None:
    assert run_main(["check", "--show-files", "drafts"], cwd=game)[1] == "drafts/illegal.yaml\n"
    assert run_main(["check", "--show-files", "sub/next.draft.yaml"], cwd=game)[1] == "sub/next.draft.yaml\n"
    assert run_main(["check", "-q", "drafts"], cwd=game)[0] == 1


def test_show_settings_names_each_setting_and_its_source(run_main: Any, game: Path, write: Any) -> None:
    write(game, ".movecheck.yaml", "select: [AA]\nignore: [AA3]\nexclude: [old]\n"
          "per-file-ignores: {'sub/*.yaml': [AA2]}\naa:\n  options: {land_on_new_carrier: false}\n")
    args = ["check", "--show-settings", "--ignore", "AA1", "--exclude", "tmp", "--option", "aa.unplaced_units=lost"]
    code, out, err = run_main([*args, "sub"], cwd=game, env={"MOVECHECK_FORMAT": "github"})
    assert (code, err) == (0, "")
    assert out == (
        '"sub/keep.draft.yaml":\n'
        '  configuration: ".movecheck.yaml"  # discovered\n'
        '  select: ["AA"]  # .movecheck.yaml\n'
        '  ignore: ["AA3", "AA1"]  # .movecheck.yaml, --ignore\n'
        '  per-file-ignores: {"sub/*.yaml": ["AA2"]}  # .movecheck.yaml (the globs that match this file)\n'
        '  format: "github"  # $MOVECHECK_FORMAT\n'
        '  exclude: ["old", "tmp"]  # .movecheck.yaml, --exclude\n'
        '  respect-gitignore: true  # default\n'
        '  aa.options.land_on_new_carrier: false  # .movecheck.yaml\n'
        '  aa.options.unplaced_units: "lost"  # --option\n'
    )
    code, out, _ = run_main(["lint", "--show-settings", "--select", "ALL", "--no-respect-gitignore", "-f", "sarif",
                             "--option", "aa.land_on_new_carrier=true", "legal.yaml"], cwd=game)
    assert '  select: ["ALL"]  # --select\n  ignore: []  # default\n  format: "sarif"  # --format\n' in out
    assert "per-file-ignores" not in out  # --select ALL sets them aside
    assert "  respect-gitignore: false  # --no-respect-gitignore\n" in out
    assert "  aa.options.land_on_new_carrier: true  # --option\n" in out and "# .movecheck.yaml\n  aa" not in out


def test_show_settings_escapes_a_file_name(run_main: Any, game: Path, write: Any) -> None:
    from tests.conftest import AA_ORDERS_LEGAL

    write(game, "evil\x1b[2J.yaml", AA_ORDERS_LEGAL)
    for flag in ("--show-settings", "--show-files"):
        code, out, _ = run_main(["check", flag, "."], cwd=game)
        assert code == 0 and "\x1b" not in out and "evil" in out


def test_with_dependents_brings_in_no_git_ignored_orders(run_main: Any, game: Path) -> None:
    """A changed state re-checks the orders that name it, not a git-ignored draft among them."""
    code, out, _ = run_main(["check", "-q", "--with-dependents", "state.yaml"], cwd=game)
    assert code == 0 and "drafts/illegal.yaml" not in out and "sub/next.draft.yaml" not in out
    assert "in 2 files;" in out  # legal.yaml and the re-included sub/keep.draft.yaml
    code, out, _ = run_main(["check", "-q", "--with-dependents", "--no-respect-gitignore", "state.yaml"], cwd=game)
    assert code == 1 and "drafts/illegal.yaml:" in out and "in 4 files;" in out
