#!/usr/bin/env python3
"""Keep movecheck's message catalogues (``movecheck/locale/LANG/LC_MESSAGES/movecheck.po``) in step with the code.

The messages are found in the source with ``ast``: the string literals given to ``_()``,
``N_()`` and ``ngettext()``, the summary (fourth argument) of each clause declaration
(``declare``, ``clause``, ``aa_clause``, ``mv_clause``, ``lint_clause``) and the meaning of
each rule option (``flag``, ``choice``, ``number``, ``mapping`` in an ``options.py``).  The ``.po`` files
are the translations (written by hand, committed); the ``.mo`` files beside them are
compiled from them by this script (committed too: the package reads them with the
standard library's ``gettext``, and neither CI nor a user needs gettext tools; only the
``.mo`` is in the wheel).  Reading and writing ``.po`` files and compiling ``.mo`` files is
polib's; the extraction is this script's own.  An entry marked ``#, fuzzy`` keeps its
translation in the ``.po`` but, as with msgfmt, is left out of the ``.mo``; each run lists
the fuzzy entries, and ``--check`` fails while there are any.

    python scripts/gen_catalogues.py            # add new messages to each .po (empty), compile each .mo
    python scripts/gen_catalogues.py --check    # exit 1 if a message has no translation, is fuzzy, or a .mo is stale
    python scripts/gen_catalogues.py --missing  # list the messages without a translation

Folders in PENDING are not read yet (their messages are not wrapped in ``_()`` yet).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path

import polib  # type: ignore[import-untyped]

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "movecheck"
LOCALE = PACKAGE / "locale"
DOMAIN = "movecheck"
PENDING: tuple[str, ...] = ()
"""Folders whose messages are not wrapped yet (phase 2 of the translation empties this list)."""
MARKERS = {"_": 1, "N_": 1, "ngettext": 2}
"""Function name -> how many leading string arguments are message ids (singular, plural)."""
DECLARATIONS = {"declare", "clause", "aa_clause", "mv_clause", "lint_clause"}
SUMMARY_ARGUMENT = 3
"""A clause declaration's summary is its fourth positional argument (code, name, severity, summary)."""
OPTION_HELP = {"flag": 2, "choice": 3, "number": 2, "mapping": 2}
"""In an ``options.py``, an option declaration's meaning (what ``rules`` shows) is its argument at this index."""
PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
LANGUAGE_NAMES = {"ru": "Russian"}


@dataclass
class Message:
    """One message of the source: its id, its plural id (ngettext), where it occurs."""

    msgid: str
    plural: str | None = None
    where: list[str] = field(default_factory=list)


# --- extraction ---------------------------------------------------------------------------------


def source_files(package: Path = PACKAGE) -> list[Path]:
    """The package's modules, less the pending folders, in path order."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).as_posix()
        if relative != "movecheck/i18n.py" and not any(relative == p or relative.startswith(p + "/") for p in PENDING):
            found.append(path)
    return found


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def extract(files: list[Path] | None = None) -> tuple[dict[str, Message], list[str]]:
    """msgid -> Message in the order first met, and the problems (a marker given no literal)."""
    messages: dict[str, Message] = {}
    problems: list[str] = []
    for path in files if files is not None else source_files():
        relative = path.relative_to(REPO).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        nodes = list(ast.walk(tree))  # walked once: the calls here, the checks' docstrings below
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            where = f"{relative}:{node.lineno}"
            if name in MARKERS:
                count = MARKERS[name]
                literals = [
                    a.value for a in node.args[:count] if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if len(literals) != count:
                    if name == "_" and node.args and _looked_up(node.args[0]):
                        continue  # a message marked with N_() where it is written, translated here
                    problems.append(
                        f"{where}: {name}() needs string literals (a template with named fields), not expressions"
                    )
                    continue
                _add(messages, literals[0], literals[1] if count == 2 else None, where)
            elif (
                name in DECLARATIONS
                or (name or "").endswith("_clause")
                or (name in OPTION_HELP and path.name == "options.py")
            ):
                index = OPTION_HELP.get(name or "", SUMMARY_ARGUMENT)
                if len(node.args) <= index:
                    continue
                summary = node.args[index]
                if isinstance(summary, ast.Constant) and isinstance(summary.value, str):
                    _add(messages, summary.value, None, where)
                if name in OPTION_HELP and path.name == "options.py":
                    continue
                for text in _clause_texts(node):  # issue 42: explain --lang ru says all of the clause
                    _add(messages, text, None, where)
        for text, line in _docstrings(nodes):
            _add(messages, text, None, f"{relative}:{line}")
    for message in messages.values():
        message.where.sort(key=lambda w: (w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1])))
    return dict(sorted(messages.items(), key=lambda kv: _order(kv[1].where[0]))), problems


def _clause_texts(call: ast.Call) -> list[str]:
    """A clause declaration's long texts: its ``doc=`` (cleaned as :func:`movecheck.clauses.declare` cleans it) and
    the two sides of its ``example=``."""
    found = []
    for keyword in call.keywords:
        value = keyword.value
        if keyword.arg == "doc" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            found.append(inspect.cleandoc(value.value))
        elif keyword.arg == "example" and isinstance(value, ast.Tuple):
            found += [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return [text for text in found if text]


def _docstrings(nodes: list[ast.AST]) -> list[tuple[str, int]]:
    """The docstring of each check a clause decorator declares among a module's ``nodes``: the clause's documentation
    (issue 42)."""
    found = []
    for node in nodes:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        declared = any(
            isinstance(d, ast.Call) and ((_name(d.func) or "") in DECLARATIONS or (_name(d.func) or "").endswith(
                "_clause")) for d in node.decorator_list)
        text = ast.get_docstring(node, clean=True) if declared else None
        if text:
            found.append((text, node.lineno))
    return found


def _looked_up(node: ast.expr) -> bool:
    """``_(CONSTANT)``, ``_(names[kind])``, ``_(names.get(kind, kind))``: a message marked elsewhere.

    An f-string, a concatenation or a ``.format()`` call is not: its text would never be in the catalogue.
    """
    if isinstance(node, (ast.JoinedStr, ast.BinOp)):
        return False
    if isinstance(node, ast.Call):
        return not (isinstance(node.func, ast.Attribute) and node.func.attr == "format")
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))


def _order(where: str) -> tuple[str, int]:
    path, line = where.rsplit(":", 1)
    return path, int(line)


def _add(messages: dict[str, Message], msgid: str, plural: str | None, where: str) -> None:
    message = messages.setdefault(msgid, Message(msgid, plural))
    message.plural = message.plural or plural
    message.where.append(where)


# --- .po and .mo (polib) -----------------------------------------------------------------------


def read_po(text: str) -> polib.POFile:
    """A ``.po`` file's catalogue (its header in ``metadata``)."""
    return polib.pofile(text, wrapwidth=0)


def by_msgid(catalogue: polib.POFile) -> dict[str, polib.POEntry]:
    """The catalogue's live entries by msgid."""
    return {entry.msgid: entry for entry in catalogue if not entry.obsolete}


def translations(entry: polib.POEntry) -> list[str]:
    """An entry's translations: its ``msgstr``, or each plural form's in order."""
    if entry.msgid_plural:
        return [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def header(lang: str) -> dict[str, str]:
    return {
        "Project-Id-Version": "movecheck",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS[lang],
    }


def write_po(lang: str, messages: dict[str, Message], old: dict[str, polib.POEntry]) -> str:
    """The ``.po`` of ``lang`` for ``messages``: translations, translator comments and flags kept from ``old``."""
    nplurals = int(PLURAL_FORMS[lang].split("nplurals=", 1)[1].split(";", 1)[0])
    catalogue = polib.POFile(wrapwidth=0, check_for_duplicates=True)
    catalogue.header = "\n".join([
        f"{LANGUAGE_NAMES[lang]} messages of movecheck.",
        "Written by hand; scripts/gen_catalogues.py adds new messages and compiles movecheck.mo.",
        "Keep each {field} of a message as it is (the order may change); names of spaces,",
        "units, codes and slugs are data and stay untranslated.",
    ])
    catalogue.metadata = header(lang)
    for message in messages.values():
        before = old.get(message.msgid)
        files = list(dict.fromkeys(where.rsplit(":", 1)[0] for where in message.where))  # no line numbers:
        entry = polib.POEntry(  # a moved line changes no .po, and branches merge
            msgid=message.msgid,
            occurrences=[(name, "") for name in files[:3]],
            tcomment=before.tcomment if before else "",
            flags=list(before.flags) if before else [],
        )
        if message.plural is not None:
            entry.msgid_plural = message.plural
            strings = (translations(before) if before and before.msgid_plural else []) + [""] * nplurals
            entry.msgstr_plural = {k: strings[k] for k in range(nplurals)}
        else:
            entry.msgstr = translations(before)[0] if before and not before.msgid_plural else ""
        catalogue.append(entry)
    return str(catalogue)


def compile_mo(catalogue: polib.POFile) -> bytes:
    """The GNU ``.mo`` file of a catalogue: its translated entries, neither fuzzy nor obsolete ones (as msgfmt)."""
    return bytes(catalogue.to_binary())


def _written(entry: polib.POEntry) -> bool:
    """A translation is written (it may still be fuzzy, which is reported on its own)."""
    return bool(entry.translated() or (entry.fuzzy and all(translations(entry))))


def fuzzy(catalogue: polib.POFile) -> list[polib.POEntry]:
    """The entries marked ``#, fuzzy``: a translation kept for review and left out of the ``.mo``."""
    return [entry for entry in catalogue.fuzzy_entries() if not entry.obsolete]


# --- fields -------------------------------------------------------------------------------------

ALSO = re.compile(r"^fields also given: (?P<names>.*)$")
"""A translator comment naming the fields the code gives a message beyond those its English uses."""


def fields(text: str) -> set[str] | None:
    """The named fields of a template (None when it is not a valid one)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return None


def field_problems(entry: polib.POEntry) -> list[str]:
    """A translation that names a field the code does not give would fail when formatted."""
    given = (fields(entry.msgid) or set()) | (fields(entry.msgid_plural or "") or set())
    for comment in (entry.tcomment or "").splitlines():
        found = ALSO.match(comment)
        if found:
            given |= {name.strip("{} ") for name in found["names"].split(",")}
    problems = []
    for text in translations(entry):
        used = fields(text)
        if used is None or used - given:
            invented = sorted((used or set()) - given)
            problems.append(f"{entry.msgid!r}: translation {text!r} names fields the code does not give: {invented}")
    return problems


# --- the command --------------------------------------------------------------------------------


def languages() -> list[str]:
    if not LOCALE.is_dir():
        return []
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a message lacks a translation, is fuzzy, or a .mo is stale"
    )
    parser.add_argument("--missing", action="store_true", help="list the messages without a translation")
    args = parser.parse_args(argv)
    messages, problems = extract()
    status = 0
    for problem in problems:
        print(problem)
        status = 1
    for lang in languages():
        folder = LOCALE / lang / "LC_MESSAGES"
        po_path, mo_path = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
        catalogue = read_po(po_path.read_text(encoding="utf-8"))
        old = by_msgid(catalogue)
        held = fuzzy(catalogue)
        missing = [m for m in messages.values() if m.msgid not in old or not _written(old[m.msgid])]
        obsolete = [msgid for msgid in old if msgid not in messages]
        for entry in held:  # msgfmt leaves them out of the .mo too
            print(f"{lang}: fuzzy, not compiled until the mark is removed: {entry.msgid!r}")
        if args.check or args.missing:
            for message in missing:
                print(f"{lang}: no translation: {message.msgid!r} ({message.where[0]})")
            if args.check:
                for message in messages.values():
                    for problem in field_problems(old[message.msgid]) if message.msgid in old else []:
                        print(f"{lang}: {problem}")
                        status = 1
                for msgid in obsolete:
                    print(f"{lang}: in the .po but not in the code: {msgid!r}")
                if not mo_path.is_file() or mo_path.read_bytes() != compile_mo(catalogue):
                    print(f"{lang}: {mo_path.relative_to(REPO)} is stale: run scripts/gen_catalogues.py")
                    status = 1
                status = 1 if missing or obsolete or held else status
            continue
        text = write_po(lang, messages, old)
        po_path.write_text(text, encoding="utf-8")
        mo_path.write_bytes(compile_mo(read_po(text)))
        print(f"wrote {po_path.relative_to(REPO)} ({len(messages)} messages, {len(missing)} untranslated, "
              f"{len(held)} fuzzy, {len(obsolete)} dropped) and {mo_path.name}")
    if args.check and status == 0:
        print("catalogues are up to date")
    return status


if __name__ == "__main__":
    sys.exit(main())
