"""Messages in Russian (``--lang ru``, ``$MOVECHECK_LANG``, the locale): the catalogue, its tooling, and what may
not change.

Every message the code wraps in ``_()``/``ngettext()`` (and every clause summary and
option meaning) has a Russian form; codes, slugs, JSON keys and verdicts never change
with the language; English stays the source text, byte for byte (the other tests'
snapshots are all English).
"""

from __future__ import annotations

import ast
import gettext
import io
import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest
from reuse import check_once

from movecheck import i18n

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_catalogues.py"
VARIANTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples" / "aa" / "orders" / "variants").glob("*.yaml"))
PO = ROOT / "movecheck" / "locale" / "ru" / "LC_MESSAGES" / "movecheck.po"

PENDING_PHASE_2: list[str] = []
"""Folders whose messages are not wrapped in ``_()`` yet: the manoeuvre system is being reworded.
Phase 2 wraps them and empties this list (and ``PENDING`` in scripts/gen_catalogues.py with it)."""

TEXT_KEYS = {"message", "title", "description", "unchecked_reasons", "error", "shortDescription", "fullDescription",
             "help", "summary_text",
             "partialFingerprints"}
"""Keys whose values are words for a reader: they follow the language.  (A SARIF fingerprint hashes
the message as printed, so it changes with the language too: upload code scanning results in one language.)"""


@pytest.fixture(scope="module")
def tool() -> Any:
    """scripts/gen_catalogues.py as a module.  ``tool["extracted"]()`` is ``extract()`` of the whole package done
    once per module (``main`` runs it too), each caller given its own copy."""
    import copy

    namespace = runpy.run_path(str(SCRIPT), run_name="gen_catalogues")
    real = namespace["extract"]
    whole: list[Any] = []

    def extract(files: Any = None) -> Any:
        if files is not None:
            return real(files)
        if not whole:
            whole.append(real())
        return copy.deepcopy(whole[0])

    real.__globals__["extract"] = extract  # what main() calls
    namespace["extracted"] = extract
    return namespace


@pytest.fixture
def checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``movecheck check`` checks the same files in the same language once; every later run (another
    ``--format``) is given a copy of that report, and selects, renders and prints it itself (tests/reuse.py)."""
    check_once(monkeypatch)


@pytest.fixture(autouse=True)
def english_after() -> Any:
    yield
    i18n.set_language(i18n.ENGLISH)


# -- the catalogue ----------------------------------------------------------------------------


def test_pending_folders_are_the_listed_ones(tool: Any) -> None:
    assert list(tool["PENDING"]) == PENDING_PHASE_2


def test_every_message_has_a_russian_form(tool: Any) -> None:
    messages, problems = tool["extracted"]()
    assert problems == []
    assert len(messages) > 300
    entries = tool["by_msgid"](tool["read_po"](PO.read_text(encoding="utf-8")))
    missing = [m for m in messages if m not in entries or not entries[m].translated()]
    assert missing == []
    for msgid, message in messages.items():
        if message.plural is not None:
            assert len(tool["translations"](entries[msgid])) == 3, msgid  # one, few, many
        assert tool["field_problems"](entries[msgid]) == []


def test_catalogue_check_passes(tool: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``gen_catalogues.py --check``: no untranslated message, no field a translation invents, .mo not stale."""
    assert tool["main"](["--check"]) == 0, capsys.readouterr().out


def test_mo_writer_is_read_by_gettext(tool: Any) -> None:
    catalogue = tool["read_po"](PO.read_text(encoding="utf-8"))
    compiled = tool["compile_mo"](catalogue)
    assert compiled == tool["compile_mo"](catalogue)  # deterministic
    russian = gettext.GNUTranslations(io.BytesIO(compiled))
    assert russian.gettext("the state has errors") == "в состоянии есть ошибки"
    forms = [russian.ngettext("{count} error", "{count} errors", n).format(count=n) for n in (1, 3, 5, 21, 11)]
    assert forms == ["1 ошибка", "3 ошибки", "5 ошибок", "21 ошибка", "11 ошибок"]


def test_extraction_refuses_an_f_string(tool: Any, tmp_path: Path) -> None:
    source = tmp_path / "movecheck" / "bad.py"
    source.parent.mkdir()
    source.write_text(
        'from movecheck.i18n import _\nx = 3\nm = _(f"{x} units")\nn = _(SOME_CONSTANT)\n', encoding="utf-8"
    )
    saved = tool["extract"].__globals__["REPO"]
    tool["extract"].__globals__["REPO"] = tmp_path
    try:
        messages, problems = tool["extract"]([source])
    finally:
        tool["extract"].__globals__["REPO"] = saved
    assert messages == {}
    assert len(problems) == 1 and "movecheck/bad.py:3" in problems[0]


# -- choosing the language ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "environ", "expected"),
    [
        (None, {}, "en"),
        ("ru", {}, "ru"),
        ("RU", {}, "ru"),
        ("ru_RU.UTF-8", {}, "ru"),
        ("en", {"MOVECHECK_LANG": "ru"}, "en"),
        (None, {"MOVECHECK_LANG": "ru", "LANG": "en_US.UTF-8"}, "ru"),
        (None, {"LANG": "ru_RU.UTF-8"}, "ru"),
        (None, {"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "ru_RU", "LANG": "en_GB.UTF-8"}, "ru"),
        (None, {"LANGUAGE": "de:ru:en", "LANG": "de_DE.UTF-8"}, "ru"),
        (None, {"LANGUAGE": "de", "LANG": "ru_RU.UTF-8"}, "ru"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {"MOVECHECK_LANG": " ", "LANG": "ru_RU.UTF-8"}, "ru"),
    ],
)
def test_resolution_order(option: str | None, environ: dict[str, str], expected: str) -> None:
    assert i18n.resolve(option, environ) == expected


@pytest.mark.parametrize(("option", "environ"), [("xx", {}), (None, {"MOVECHECK_LANG": "klingon"})])
def test_a_language_asked_for_by_name_must_exist(option: str | None, environ: dict[str, str]) -> None:
    with pytest.raises(i18n.LanguageError, match="choose one of: en, ru"):
        i18n.resolve(option, environ)


def test_english_reads_no_catalogue() -> None:
    i18n.set_language("en")
    assert i18n._active is None
    assert i18n._("the state has errors") == "the state has errors"
    assert i18n.ngettext("{count} error", "{count} errors", 2) == "{count} errors"
    i18n.set_language("ru")
    assert i18n._("the state has errors") == "в состоянии есть ошибки"


# -- the command line -------------------------------------------------------------------------


def test_russian_text_report(run_main: Any, snapshot: Any, checked_once: None) -> None:
    code, out, err = run_main(["check", "--lang", "ru", "--color", "never", *VARIANTS], cwd=ROOT)
    assert code == 1 and err == ""
    assert "не граничит с" in out and "законных приказов:" in out
    assert out == snapshot


def _structure(node: Any) -> Any:
    """A report with every text meant for a reader left out: what must not change with the language."""
    if isinstance(node, dict):
        return {k: _structure(v) for k, v in node.items() if k not in TEXT_KEYS}
    if isinstance(node, list):
        return [_structure(v) for v in node]
    return node


@pytest.mark.parametrize("fmt", ["json", "sarif", "json-lines"])
def test_machine_reports_keep_their_structure(run_main: Any, fmt: str, checked_once: None) -> None:
    reports = {}
    for lang in ("en", "ru"):
        code, out, _ = run_main(["check", "--format", fmt, "--lang", lang, *VARIANTS], cwd=ROOT)
        assert code == 1
        reports[lang] = [json.loads(line) for line in out.splitlines()] if fmt == "json-lines" else json.loads(out)
    assert _structure(reports["ru"]) == _structure(reports["en"])
    assert reports["ru"] != reports["en"]  # the messages did change
    if fmt == "json":
        messages = [f["message"] for f in reports["ru"]["findings"]]
        assert any("нужно остановиться" in m for m in messages)
        assert [f["code"] for f in reports["ru"]["findings"]] == [f["code"] for f in reports["en"]["findings"]]


def test_environment_and_locale(run_cli: Any, run_main: Any) -> None:
    # main() reads the environment of its process each run: in-process runs with the variables set tell the
    # same as fresh interpreters; one fresh interpreter shows that a process started in a Russian locale speaks it
    args = ["check", "--color", "never", "examples/aa/orders/variants/aa101-not-adjacent.yaml"]
    english = run_main(args, cwd=ROOT)[1]
    assert "does not border" in english
    code, out, _ = run_cli(args, cwd=ROOT, env={"LC_ALL": "ru_RU.UTF-8"})
    assert code == 1 and "не граничит с" in out
    for env in ({"MOVECHECK_LANG": "ru"}, {"LANG": "ru_RU.UTF-8"}, {"LC_ALL": "ru_RU.UTF-8"}):
        code, out, _ = run_main(args, cwd=ROOT, env=env)
        assert code == 1 and "не граничит с" in out, env
    # --lang beats $MOVECHECK_LANG, which beats the locale; a locale without a catalogue is English
    assert run_main([*args, "--lang", "en"], cwd=ROOT, env={"MOVECHECK_LANG": "ru"})[1] == english
    assert run_main(args, cwd=ROOT, env={"MOVECHECK_LANG": "en", "LANG": "ru_RU.UTF-8"})[1] == english
    assert run_main(args, cwd=ROOT, env={"LANG": "de_DE.UTF-8"})[1] == english


def test_unknown_language_is_a_usage_error(run_main: Any) -> None:
    code, out, err = run_main(["check", "--lang", "xx", "examples/aa/orders/g1-combat.yaml"], cwd=ROOT)
    assert (code, out) == (2, "")
    assert "unknown language 'xx'; choose one of: en, ru" in err and err.count("\n") == 1
    code, out, err = run_main(["rules"], cwd=ROOT, env={"MOVECHECK_LANG": "xx"})
    assert (code, out) == (2, "") and "MOVECHECK_LANG" in err


def test_usage_errors_in_russian(run_main: Any) -> None:
    code, _, err = run_main(
        ["check", "--lang", "ru", "--select", "AA9Z", "examples/aa/orders/g1-combat.yaml"], cwd=ROOT
    )
    assert code == 2 and "неизвестный код правила или префикс 'AA9Z'" in err


@pytest.mark.parametrize(
    "command",
    [
        ["rules"],
        ["explain", "AA201"],
        ["maps"],
        ["lint", "examples/aa/states/g1-combat.yaml"],
        ["schema", "aa-map"],
        ["map", "show", "aa1942-2e", "Karelia S.S.R."],
    ],
)
def test_every_printing_command_takes_lang(run_main: Any, command: list[str]) -> None:
    code, _, err = run_main([*command, "--lang", "ru"], cwd=ROOT)
    assert code == 0, err


def test_explain_prints_the_russian_seed_paragraph(run_main: Any) -> None:
    code, out, _ = run_main(["explain", "C10", "--lang", "ru"])
    assert code == 0
    assert "Наземный или морской юнит может перемещаться на количество областей" in out
    assert "(правила A&A 1942, боевое перемещение)" in out
    assert "Правила, которые на него ссылаются:" in out
    assert "AA201 stop-in-hostile: наземный или морской юнит останавливается" in out
    code, out, _ = run_main(["explain", "AA201", "--lang", "ru"])
    assert code == 0
    assert "Текст правила:" in out and "C10: Наземный или морской юнит" in out
    assert "movecheck explain AA201 --lang en" not in out  # issue 42: the description itself is in Russian
    assert "Сухопутные и морские юниты останавливаются, войдя во вражескую область (C10)." in out
    assert "AA201 stop-in-hostile (error)" in out  # code, slug and severity are data


def test_explain_keeps_the_bullets_of_a_paragraph(run_main: Any) -> None:
    code, out, _ = run_main(["explain", "M7", "--lang", "ru"])
    assert code == 0 and "• Лес -D3." in out


def test_rules_in_russian_keep_codes_and_keys(run_main: Any) -> None:
    code, out, _ = run_main(["rules", "--lang", "ru"])
    assert code == 0
    assert "Ошибки ввода (обе системы)" in out
    assert "AA106 neutral" in out and "ни один юнит не входит на нейтральную" in out
    english = json.loads(run_main(["rules", "--format", "json"])[1])
    russian = json.loads(run_main(["rules", "--format", "json", "--lang", "ru"])[1])
    assert [c["code"] for c in russian["clauses"]] == [c["code"] for c in english["clauses"]]
    assert russian["options"] == english["options"]
    strip = {"summary", "meaning"}
    assert [{k: v for k, v in c.items() if k not in strip} for c in russian["clauses"]] == [
        {k: v for k, v in c.items() if k not in strip} for c in english["clauses"]
    ]


def test_sarif_help_carries_the_russian_seed(run_main: Any) -> None:
    _code, out, _ = run_main(
        ["check", "--format", "sarif", "--lang", "ru", "examples/aa/orders/variants/aa201-stop-in-hostile.yaml"],
        cwd=ROOT,
    )
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    help_text = next(r for r in rules if r["id"] == "AA201")["help"]["text"]
    assert "Текст правила:" in help_text and "C10: Наземный или морской юнит" in help_text


def test_english_is_spoken_again_after_a_russian_run(run_main: Any) -> None:
    run_main(["rules", "--lang", "ru"])
    assert i18n.language() == "en" and i18n._active is None
    assert sys.modules["movecheck.i18n"]._("the state has errors") == "the state has errors"


def _shadowing(tree: Any) -> list[str]:
    """Functions that call ``_()`` and also assign ``_`` (``for _, x in ...``): the call would fail at run time."""
    import ast

    found: list[str] = []
    if not any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in ast.walk(tree)):
        return found  # nothing assigns ``_`` anywhere in the file: no function can
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        stores, calls = [], []
        pending = list(ast.iter_child_nodes(function))
        while pending:
            node = pending.pop()
            if isinstance(node, scopes):
                continue
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                # the comprehension's own targets are its own; what it calls sees the function's names
                calls += [
                    n.lineno
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                ]
                continue
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                stores.append(node.lineno)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
                calls.append(node.lineno)
            pending.extend(ast.iter_child_nodes(node))
        if stores and calls:
            found.append(f"{getattr(function, 'name', 'lambda')} (line {min(stores)})")
    return found


_TREES: dict[Path, ast.Module] = {}


def _parsed(path: Path) -> ast.Module:
    """The syntax tree of a source file, parsed once per module (the package's files are read by two tests)."""
    if path not in _TREES:
        _TREES[path] = ast.parse(path.read_text(encoding="utf-8"))
    return _TREES[path]


BARE_UNDERSCORE = re.compile(r"(?<![\w.])_(?![\w(])")
"""The name ``_`` written other than as a call: every place a file can assign ``_`` matches (a file where nothing
matches assigns it nowhere, and needs no parse; strings and comments may match too, which only costs a parse)."""


def test_no_function_hides_the_translation_function() -> None:
    problems = []
    for path in sorted((ROOT / "movecheck").rglob("*.py")):
        if not BARE_UNDERSCORE.search(path.read_text(encoding="utf-8")):
            continue
        tree = _parsed(path)
        problems += [f"{path.relative_to(ROOT)}: {name}" for name in _shadowing(tree)]
    assert problems == []


def test_explain_of_a_maneuver_clause_prints_the_russian_seed(run_main: Any) -> None:
    code, out, _ = run_main(["explain", "MV502", "--lang", "ru"])
    assert code == 0
    assert "MV502 engaged-move (error)" in out  # code, slug and severity are data
    assert "база, в начале находившаяся в контакте" in out  # the summary
    assert "M10: Базы, находящиеся в боевом взаимодействии с противником" in out  # the seed paragraph as written
    assert "movecheck explain MV502 --lang en" not in out  # issue 42: the description is in Russian
    assert "База, находящаяся в контакте с противником в начале приказа" in out
    english = run_main(["explain", "MV502"])[1]
    assert "A base in contact with the enemy at the start" in english and "Базы" not in english


# -- no message escapes the catalogue ----------------------------------------------------------

MESSAGE_SINKS = {
    "Violation": 0,
    "finding": 1,
    "make_finding": 1,
    "InputError": 0,
    "NothingToSuggest": 0,
    "DiceError": 0,
    "Unrenderable": 1,
    "unknown": 0,
    "_fail": 0,
    "say": 0,
    "_say": 0,
}
"""Calls whose argument at this index (or ``message=``) is a message a user reads (``say``: a line on stderr)."""
OPTION_NAME = re.compile(r"--[a-z][a-z-]*|^movecheck: (?:internal )?(?:error|note|warning): ")
"""What an f-string may say in words around a message made elsewhere: option names, the stderr line's prefix."""
UNTRANSLATED_ON_PURPOSE: dict[tuple[str, str], str] = {}
"""f-string messages with words that stay as they are, each with its reason, keyed by file and the f-string as
written (``("movecheck/x.py", "debug: {state}")``).  None today: every message a user reads is a template."""


def _fstring_text(node: ast.JoinedStr) -> tuple[str, str]:
    """The f-string as written (``{field}`` for each value) and its literal words alone."""
    shown, words = [], []
    for part in node.values:
        if isinstance(part, ast.Constant):
            shown.append(str(part.value))
            words.append(str(part.value))
        else:
            shown.append("{" + ast.unparse(part.value) + "}")  # type: ignore[attr-defined]
    return "".join(shown), "".join(words)


def untranslated_messages(root: Path, excused: set[tuple[str, str]] | None = None) -> list[str]:
    """Each f-string with words given directly as the message of a finding, a violation or an input error under
    ``root``.

    Such a message never reaches the catalogue: it must be a template given to ``_()`` and
    filled with ``.format()``.  An f-string whose literal text is only punctuation and option
    names (``f"{path}: {message}"``, ``f"--config {exc}"``) adds no words to a message made elsewhere.
    ``excused`` collects the exceptions of :data:`UNTRANSLATED_ON_PURPOSE` met on the way.
    """
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        for node in ast.walk(_parsed(path)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in MESSAGE_SINKS:
                continue
            index = MESSAGE_SINKS[name]
            given = node.args[index:index + 1] + [k.value for k in node.keywords if k.arg == "message"]
            for argument in given:
                if not isinstance(argument, ast.JoinedStr):
                    continue
                shown, words = _fstring_text(argument)
                if not re.search(r"[A-Za-z]{2}", OPTION_NAME.sub("", words)):
                    continue
                if (relative, shown) in UNTRANSLATED_ON_PURPOSE:
                    if excused is not None:
                        excused.add((relative, shown))
                    continue
                found.append((relative, node.lineno, f"{name}({shown!r})"))
    return [f"{relative}:{line}: {call}" for relative, line, call in sorted(found)]


def test_no_message_is_an_f_string() -> None:
    excused: set[tuple[str, str]] = set()
    assert untranslated_messages(ROOT / "movecheck", excused) == []
    assert excused == set(UNTRANSLATED_ON_PURPOSE)  # an exception whose f-string is gone is dropped from the list


def test_the_f_string_check_finds_one(tmp_path: Path) -> None:
    package = tmp_path / "movecheck"
    package.mkdir()
    (package / "bad.py").write_text(
        "def check(doc, unit, exc):\n"
        "    yield Violation(f'{unit} cannot move', ())\n"
        "    doc.finding('MC004', f'unknown {unit}', ('x',))\n"
        "    raise InputError(f'--config {exc}')\n",
        encoding="utf-8",
    )
    assert untranslated_messages(package) == [
        "movecheck/bad.py:2: Violation('{unit} cannot move')",
        "movecheck/bad.py:3: finding('unknown {unit}')",
    ]



# -- the manoeuvre system in Russian -----------------------------------------------------------

MANEUVER_ORDERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples" / "maneuver").glob("*orders*.yaml"))


def test_russian_maneuver_report(run_main: Any, snapshot: Any, checked_once: None) -> None:
    code, out, err = run_main(["check", "--lang", "ru", "--color", "never", *MANEUVER_ORDERS], cwd=ROOT)
    assert code == 1 and err == ""
    assert "«Все вперёд!»" in out and "рукопашная схватка начнётся только по приказу «В атаку!»" in out
    assert "законных приказов:" in out
    assert out == snapshot


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_maneuver_machine_reports_keep_their_structure(run_main: Any, fmt: str, checked_once: None) -> None:
    reports = {}
    for lang in ("en", "ru"):
        code, out, _err = run_main(["check", "--format", fmt, "--lang", lang, *MANEUVER_ORDERS], cwd=ROOT)
        assert code == 1
        reports[lang] = json.loads(out)
    assert _structure(reports["ru"]) == _structure(reports["en"])
    assert reports["ru"] != reports["en"]
    if fmt == "json":
        assert [f["code"] for f in reports["ru"]["findings"]] == [f["code"] for f in reports["en"]["findings"]]
        assert all(
            not re.search(r"\b(travels|declared|contact with|steps)\b", f["message"]) for f in reports["ru"]["findings"]
        )


def test_maneuver_picture_in_russian(run_main: Any) -> None:
    code, out, _err = run_main(["render", "--lang", "ru", "examples/maneuver/corps-orders-mv202.yaml"], cwd=ROOT)
    assert code == 0
    assert "приказы стороны red" in out and "заявленное положение" in out and "шагов" in out


def test_the_examples_in_the_architecture_notes_follow_the_message_rule(tmp_path: Path) -> None:
    # the notes show how to write a clause: their examples word messages as the code must (issue 24: MV503)
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    folder = tmp_path / "docs"
    folder.mkdir()
    for number, block in enumerate(blocks):
        (folder / f"example{number}.py").write_text(block.replace("{...}", "{}"), encoding="utf-8")
    assert untranslated_messages(folder) == []
    assert any("Violation(_(" in block for block in blocks)


# -- explain in Russian: every clause's description and example (issue 42) ------------------------

UNTRANSLATED_CLAUSE_TEXTS: frozenset[str] = frozenset()
"""Codes whose description or example has no Russian form yet (none: every clause is translated)."""

_LITERAL = re.compile(r"``.+?``", re.S)


def _clause_texts() -> list[tuple[str, str]]:
    """Each clause's long texts (its description, when it is more than its summary, and both sides of its
    example) that hold words besides code literals, with the clause's code."""
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    found = []
    for entry in CATALOGUE.all():
        texts = [entry.documentation()] if entry.documentation() != entry.summary else []
        texts += [entry.example.illegal, entry.example.legal] if entry.example is not None else []
        found += [(entry.code, text) for text in texts if re.search(r"[A-Za-z]", _LITERAL.sub("", text))]
    return found


def test_every_clause_description_and_example_has_a_russian_form() -> None:
    texts = _clause_texts()
    assert len({code for code, _text in texts}) > 100
    i18n.set_language("ru")
    untranslated = {code for code, text in texts if i18n._(text) == text or not re.search("[а-яё]", i18n._(text))}
    assert untranslated == set(UNTRANSLATED_CLAUSE_TEXTS)  # a translated one gone back to English fails here


def test_russian_descriptions_keep_every_code_literal() -> None:
    i18n.set_language("ru")
    for code, text in _clause_texts():
        def literals(said: str) -> list[str]:
            return sorted(" ".join(found.split()) for found in _LITERAL.findall(said))

        assert literals(i18n._(text)) == literals(text), code


def test_explain_in_russian_prints_the_description_and_the_example_in_russian(run_main: Any) -> None:
    from movecheck.catalogue import load_all
    from movecheck.clauses import CATALOGUE

    load_all()
    entry = CATALOGUE["MV202"]
    assert entry.example is not None
    code, out, _ = run_main(["explain", "MV202", "--lang", "ru"])
    assert code == 0
    assert "Каждая колонна корпуса (головная база и базы за ней по направлению движения)" in out
    assert "Нельзя: «Все вперед!» по открытой местности" in out
    for english in (entry.documentation().splitlines()[0], entry.example.illegal, entry.example.legal):
        assert english not in out
    assert "explain MV202 --lang en" not in out
    code, out, _ = run_main(["explain", "MV202", "--lang", "en"])
    assert entry.documentation().splitlines()[0] in out and entry.example.illegal in out  # English as it was
