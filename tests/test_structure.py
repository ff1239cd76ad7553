"""The shape of the package, held by tests rather than reviewers: the kernel names no rule
system, systems reach the kernel through its interface only, no module is over 500 lines,
and no import goes round in a circle (deferred imports included).

Read from the source with ast (nothing is imported).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_import_graph import MODULES, cycles, every_import, graph

PACKAGE = Path(__file__).resolve().parents[1] / "movecheck"
SYSTEM_PACKAGES = ("movecheck.aa", "movecheck.maneuver")
MAX_LINES = 500
GENERATED = {"movecheck/validators/generated.py", "movecheck/help_text.py"}
"""Written by scripts/gen_*.py: their size is the data's."""
KNOWN_LONG = {"movecheck/aa/model.py", "movecheck/maneuver/corps.py"}
"""Split by the systems half of issue 24 (another branch); the coordinator empties this set at merge."""


def _in_system(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in SYSTEM_PACKAGES)


KERNEL = sorted(m for m in MODULES if not _in_system(m))
SYSTEMS = sorted(m for m in MODULES if _in_system(m))


@pytest.mark.parametrize("module", KERNEL)
def test_the_kernel_imports_no_system(module: str) -> None:
    # not at module level, not in a function, not for a type checker: the registry finds them
    assert not {t for t in every_import(module) if _in_system(t)}, module


@pytest.mark.parametrize("module", KERNEL)
def test_the_kernel_names_no_system_package(module: str) -> None:
    text = MODULES[module].read_text(encoding="utf-8")
    assert "movecheck.aa" not in text and "movecheck.maneuver" not in text, module


@pytest.mark.parametrize("module", SYSTEMS)
def test_systems_never_import_the_core(module: str) -> None:
    # the interface types are in movecheck.systems, the file services in movecheck.files
    assert "movecheck.core" not in every_import(module), module


def test_no_import_circles_deferred_imports_included() -> None:
    assert cycles(graph(deferred=True)) == []


def test_deferred_imports_are_read() -> None:
    # a function-level import is an edge of the deferred graph only
    assert "movecheck.core" in graph(deferred=True)["movecheck.pictures"]
    assert "movecheck.core" not in graph()["movecheck.pictures"]


def _long_modules() -> dict[str, int]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE.parent).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and name not in GENERATED:
            found[name] = lines
    return found


def test_no_hand_written_module_is_over_500_lines() -> None:
    long = _long_modules()
    assert set(long) <= KNOWN_LONG, {k: v for k, v in long.items() if k not in KNOWN_LONG}


def test_the_generated_files_excepted_are_generated() -> None:
    for name in GENERATED:
        head = (PACKAGE.parent / name).read_text(encoding="utf-8")[:300]
        assert "do not edit" in head, name


@pytest.mark.parametrize("module", ["files.py", "settings.py", "yaml_builder.py", "pictures.py", "cli_options.py"])
def test_the_new_kernel_modules_name_no_system_file_keys(module: str) -> None:
    from test_interface import _string_uses

    from movecheck import systems

    declared = set()
    for name in systems.NAMES:
        system = systems.system(name)
        declared |= {system.orders_key, *system.orders_markers, *system.state_markers}
    constants, keys = _string_uses(PACKAGE / module)
    assert constants & (declared - {"orders", "state"}) == set()
    assert keys & declared == set()


def test_a_check_imports_no_system_commands_and_no_package_metadata() -> None:
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\n"
        "from movecheck.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['check', 'examples/aa/orders/variants/aa101-not-adjacent.yaml'])\n"
        "print(sorted(m for m in ('movecheck.aa.commands', 'importlib.metadata') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=PACKAGE.parent)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_registry_reads_the_group_of_an_entry_points_file() -> None:
    from movecheck.systems import _group

    text = (
        "[console_scripts]\nx = a:b\n\n"
        "[movecheck.systems]\nhex = movecheck_hex:SYSTEM\n# note\nwar = w.sys:SYSTEM [extra]\n"
    )
    assert _group(text) == {"hex": "movecheck_hex:SYSTEM", "war": "w.sys:SYSTEM"}
