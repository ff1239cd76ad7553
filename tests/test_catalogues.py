"""scripts/gen_catalogues.py on polib: the same .mo as msgfmt, fuzzy entries held back, no .po in the wheel."""

from __future__ import annotations

import copy
import gettext
import io
import runpy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_catalogues.py"
FOLDER = ROOT / "movecheck" / "locale" / "ru" / "LC_MESSAGES"


@pytest.fixture(scope="module")
def tool() -> Any:
    return runpy.run_path(str(SCRIPT), run_name="gen_catalogues")


@pytest.fixture(scope="module")
def extracted(tool: Any) -> Any:
    """``extract()`` of the package's messages, done once for the module (each test gets its own copy)."""
    whole = tool["extract"]()
    return lambda: copy.deepcopy(whole)


def test_the_committed_mo_is_what_polib_compiles(tool: Any) -> None:
    catalogue = tool["read_po"]((FOLDER / "movecheck.po").read_text(encoding="utf-8"))
    assert tool["compile_mo"](catalogue) == (FOLDER / "movecheck.mo").read_bytes()


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_the_mo_is_byte_for_byte_msgfmts(tmp_path: Path) -> None:
    target = tmp_path / "movecheck.mo"
    subprocess.run(["msgfmt", "--no-hash", "-o", str(target), str(FOLDER / "movecheck.po")], check=True, timeout=60)
    assert target.read_bytes() == (FOLDER / "movecheck.mo").read_bytes()


def test_writing_the_po_again_changes_nothing(tool: Any, extracted: Any) -> None:
    text = (FOLDER / "movecheck.po").read_text(encoding="utf-8")
    messages, _ = extracted()
    assert tool["write_po"]("ru", messages, tool["by_msgid"](tool["read_po"](text))) == text


FUZZY_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

# fields also given: {power}
#: movecheck/core.py
#, fuzzy, python-brace-format
msgid "the state has errors"
msgstr "в состоянии есть ошибки (черновик)"

#: movecheck/core.py
msgid "aborted"
msgstr "прервано"
"""


def test_a_fuzzy_entry_is_kept_in_the_po_and_left_out_of_the_mo(tool: Any) -> None:
    catalogue = tool["read_po"](FUZZY_PO)
    assert [entry.msgid for entry in tool["fuzzy"](catalogue)] == ["the state has errors"]
    compiled = gettext.GNUTranslations(io.BytesIO(tool["compile_mo"](catalogue)))
    assert compiled.gettext("aborted") == "прервано"
    assert compiled.gettext("the state has errors") == "the state has errors"
    messages = {
        msgid: tool["Message"](msgid, None, ["movecheck/core.py:1"]) for msgid in ("the state has errors", "aborted")
    }
    rewritten = tool["write_po"]("ru", messages, tool["by_msgid"](catalogue))
    assert "# fields also given: {power}\n#: movecheck/core.py\n#, fuzzy, python-brace-format\n" in rewritten
    assert 'msgstr "в состоянии есть ошибки (черновик)"' in rewritten


def test_fuzzy_entries_are_reported_and_fail_the_check(
    tool: Any, extracted: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of the catalogue with one entry marked fuzzy: --check names it and fails, a run leaves it out."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "movecheck" / "locale", locale)
    po = locale / "ru" / "LC_MESSAGES" / "movecheck.po"
    text = po.read_text(encoding="utf-8")
    marked = text.replace('msgid "aborted"\n', '#, fuzzy\nmsgid "aborted"\n', 1)
    assert marked != text
    po.write_text(marked, encoding="utf-8")
    main = tool["main"]
    found = extracted()  # the real tree's messages; the catalogue is the copy's
    monkeypatch.setitem(main.__globals__, "extract", lambda: found)
    monkeypatch.setitem(main.__globals__, "LOCALE", locale)
    monkeypatch.setitem(main.__globals__, "REPO", tmp_path)
    assert main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "ru: fuzzy, not compiled until the mark is removed: 'aborted'" in out
    assert "no translation: 'aborted'" not in out
    assert main([]) == 0
    assert ", 1 fuzzy, " in capsys.readouterr().out
    assert po.read_text(encoding="utf-8") == marked
    russian = gettext.GNUTranslations(io.BytesIO((po.parent / "movecheck.mo").read_bytes()))
    assert russian.gettext("aborted") == "aborted"
    assert russian.gettext("the state has errors") == "в состоянии есть ошибки"
