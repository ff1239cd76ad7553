"""A release anyone can install: the licence, the metadata, the changelog and the built files.

The built files are made with hatchling (the build backend, in the ``test`` extra) into a
temporary folder, exactly as ``python -m build`` makes them in ``.ci/run``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import movecheck

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def test_licence_is_the_mit_text_of_the_movecheck_authors() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "movecheck authors" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]


def test_metadata_names_authors_keywords_classifiers_and_urls() -> None:
    assert PROJECT["authors"] == [{"name": "movecheck authors"}]
    assert {"wargame", "axis-and-allies", "linter"} <= set(PROJECT["keywords"])
    classifiers = set(PROJECT["classifiers"])
    assert {
        "Environment :: Console",
        "Operating System :: OS Independent",
        "Topic :: Games/Entertainment",
        "License :: OSI Approved :: MIT License",
    } <= classifiers
    assert set(PROJECT["urls"]) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert PROJECT["urls"]["Documentation"] == movecheck.DOCS_URL


def test_python_classifiers_start_at_requires_python() -> None:
    versions = sorted(
        tuple(int(part) for part in c.rsplit(" ", 1)[1].split("."))
        for c in PROJECT["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert versions and versions[0] == (3, 11)
    assert PROJECT["requires-python"] == ">=3.11"
    assert versions == [(3, minor) for minor in range(11, versions[-1][1] + 1)]


def test_version_is_written_in_one_place() -> None:
    assert PROJECT["dynamic"] == ["version"] and "version" not in PROJECT
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "movecheck/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", movecheck.__version__)


def test_changelog_has_the_version_and_the_next_one() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "[Keep a Changelog]" in text
    headings = re.findall(r"^## \[([^\]]+)\] - (.+)$", text, flags=re.M)
    assert headings[0][0] == "Unreleased", "the next version comes first"
    released = [(name, date) for name, date in headings[1:]]
    assert released[0][0] == movecheck.__version__, "the current version has its section"
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", date) for _, date in released)
    for name, _ in headings:
        assert f"\n[{name}]: " in text, f"the heading [{name}] has its link"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.slow  # builds the sdist and the wheel (seconds); CI builds and checks them too
def test_wheel_carries_the_licence_and_the_metadata(built: Path) -> None:
    (wheel,) = built.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        dist_info = f"movecheck-{movecheck.__version__}.dist-info"
        assert f"{dist_info}/licenses/LICENSE" in names
        metadata = Parser().parsestr(archive.read(f"{dist_info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    assert metadata["License-File"] == "LICENSE"
    assert metadata["Version"] == movecheck.__version__
    assert "Documentation, " + movecheck.DOCS_URL in (metadata.get_all("Project-URL") or [])
    assert "Topic :: Games/Entertainment" in (metadata.get_all("Classifier") or [])


@pytest.mark.slow  # builds the sdist and the wheel (seconds); CI builds and checks them too
def test_wheel_ships_the_compiled_catalogue_and_not_the_po(built: Path) -> None:
    (wheel,) = built.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "movecheck/locale/ru/LC_MESSAGES/movecheck.mo" in names
    assert not [name for name in names if name.endswith(".po")]


@pytest.mark.slow  # builds the sdist and the wheel (seconds); CI builds and checks them too
def test_sdist_carries_the_licence_and_the_changelog(built: Path) -> None:
    (sdist,) = built.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "pyproject.toml", "README.md", "mkdocs.yml"} <= names
    assert "movecheck/locale/ru/LC_MESSAGES/movecheck.po" in names  # the translators' source


def test_ci_builds_checks_and_runs_the_wheel_after_the_tests() -> None:
    """``.ci/run``: install and test as the README says, ruff and mypy first, then the release block (run there,
    not here)."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    test_line = lines.index(
        "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/ruff check . && .venv/bin/mypy && "
        ".venv/bin/python -m pytest || exit 1"
    )  # ruff and mypy before the tests, in the README's own command (a failure of any of them ends CI)
    release = "\n".join(lines[test_line + 1 :])
    steps = [
        ".venv/bin/python -m build --outdir dist",
        ".venv/bin/twine check --strict dist/*",
        'python3 -m venv "$wheel_home/venv" && "$wheel_home/venv/bin/pip" install dist/*.whl || exit 1',
        "venv/bin/movecheck --version && venv/bin/movecheck check aa/orders/g1-combat.yaml",
        ".venv/bin/pip install '.[docs]'",
        '.venv/bin/mkdocs build --strict --site-dir "$wheel_home/site"',
    ]
    positions = [release.find(step) for step in steps]
    assert -1 not in positions and positions == sorted(positions), positions


def test_every_list_of_commands_in_ci_stops_it_when_one_fails(tmp_path: Path) -> None:
    """``set -e`` ignores a failure inside an ``&&`` list but its last command (a failing ``ruff check`` once let CI
    go on to the slow tests and pass): every such list of ``.ci/run`` outside a subshell ends in ``|| exit 1`` (or
    says ``|| true`` on purpose), and bash does stop there."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace("\\\n", " ")  # continued lines joined
    lists = [line for line in text.splitlines() if " && " in line and not line.startswith(("#", "(", " "))]
    assert lists and all(line.endswith(("|| exit 1", "|| true")) for line in lists), lists
    script = tmp_path / "run"
    script.write_text("set -euo pipefail\ntrue && false && true || exit 1\necho went-on\n", encoding="utf-8")
    ran = subprocess.run(["bash", str(script)], capture_output=True, text=True, check=False)
    assert ran.returncode == 1 and "went-on" not in ran.stdout
    script.write_text("set -euo pipefail\ntrue && false && true\necho went-on\n", encoding="utf-8")
    assert "went-on" in subprocess.run(["bash", str(script)], capture_output=True, text=True, check=False).stdout
