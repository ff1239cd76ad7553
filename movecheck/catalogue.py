"""The clause catalogue as the ``rules``, ``explain`` and ``maps`` commands show it."""

from __future__ import annotations

import importlib
import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from movecheck import DOCS_URL
from movecheck.clauses import CATALOGUE, Clause, Severity
from movecheck.i18n import ENGLISH, N_, _, language
from movecheck.systems import AnySystem, all_systems, choices, known, names, option_sets, system

KERNEL_CLAUSES = "movecheck.problems"
"""The kernel's own clauses: the input problems (``MC``)."""
INPUT_PROBLEMS = "mc"
INPUT_TITLE = N_("Input problems (both systems)")


def clause_modules() -> tuple[str, ...]:
    """Every module that declares clauses: the kernel's, then each system's (``System.clause_modules``)."""
    return (KERNEL_CLAUSES, *(module for declared in all_systems() for module in declared.clause_modules))


def load_all() -> None:
    """Import every module that declares clauses, and every system's options (which of them govern each clause)."""
    for name in clause_modules():
        importlib.import_module(name)
    for declared in all_systems():
        declared.option_set()


def register_all() -> None:
    """Make every clause known to the catalogue without importing more than needed: the kernel's clause module,
    and each system's clauses (:meth:`~movecheck.systems.System.load_clauses`: for a system with a clause index,
    the index alone)."""
    importlib.import_module(KERNEL_CLAUSES)
    for declared in all_systems():
        declared.load_clauses()


def system_title(name: str) -> str:
    """The heading of a system's clauses (``aa: Axis & Allies area movement``), translated."""
    if name == INPUT_PROBLEMS:
        return _(INPUT_TITLE)
    title = system(name).title if known(name) else ""
    return _(title) if title else name


@lru_cache(maxsize=1)
def seed_paragraphs() -> dict[str, dict[str, str]]:
    """Seed label -> {text, source}, shipped with the package."""
    path = Path(__file__).with_name("seeds.json")
    paragraphs: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return paragraphs


def source_title(source: str) -> str:
    """A seed source without its internal file name, as its system names it (``System.source_titles``):
    ``A&A 1942 rulebook, combat move``."""
    title = source.split(" (", 1)[1][:-1] if source.endswith(")") and " (" in source else source
    titles = {key: value for declared in all_systems() for key, value in declared.source_titles.items()}
    return _(titles[title]) if title in titles else title


def paragraph_text(entry: dict[str, str]) -> str:
    """A seed paragraph in the language spoken: the Russian original for ``ru``, else the English rendering."""
    return entry.get("text_ru") or entry["text"] if language() == "ru" else entry["text"]


def cited_sources(labels: list[str]) -> str:
    """Where seed paragraphs come from, each source once with its labels:
    ``A&A 1942 rulebook, combat move, C10, C11``."""
    paragraphs = seed_paragraphs()
    by_source: dict[str, list[str]] = {}
    for label in labels:
        by_source.setdefault(source_title(paragraphs[label]["source"]), []).append(label)
    return "; ".join(f"{title}, {', '.join(cited)}" for title, cited in sorted(by_source.items()))


def expand_seeds(labels: tuple[str, ...]) -> list[str]:
    """Seed labels with ranges such as ``C1–C3`` spelt out."""
    result: list[str] = []
    for label in labels:
        for dash in ("–", "-"):
            if dash in label:
                start, end = label.split(dash, 1)
                prefix = start[0]
                result.extend(f"{prefix}{n}" for n in range(int(start[1:]), int(end.lstrip(prefix)) + 1))
                break
        else:
            result.append(label)
    return result


def clause_json(entry: Clause) -> dict[str, Any]:
    """A clause as ``rules --format json`` prints it."""
    return {
        "code": entry.code,
        "name": entry.name,
        "severity": entry.severity.value,
        "system": entry.system,
        "phase": entry.phase,
        "summary": _(entry.summary),
        "seeds": list(entry.seeds),
    }


def render_rules(system: str | None, preset: str | None, fmt: str) -> tuple[str, int]:
    """The catalogue and the options of both systems (aa: under the edition ``preset``), with an exit code."""
    load_all()
    if system is not None and system != INPUT_PROBLEMS and not known(system):
        return "movecheck: error: " + _("unknown system {name}; choose {names}").format(
            name=repr(system), names=choices([*names(), INPUT_PROBLEMS])
        ) + "\n", 2
    edited = next(
        (d for d in all_systems() if d.default_edition is not None and system in (None, INPUT_PROBLEMS, d.name)), None
    )
    if edited is None:
        if preset is not None:
            return "movecheck: error: " + _("--rules names an edition, and the system {name} has none").format(
                name=system
            ) + "\n", 2
        return _render_rules(system, None, None, None, fmt), 0
    default_name = edited.default_edition or ""
    edition = edited.find_edition(preset or default_name)
    if edition is None:
        return "movecheck: error: " + _("unknown rules preset {name}; choose one of: {names}").format(
            name=repr(preset), names=", ".join(edited.editions())
        ) + "\n", 2
    default = edited.find_edition(default_name)
    return _render_rules(system, edited, edition, default if edition is not default else None, fmt), 0


def _render_rules(system: str | None, edited: AnySystem | None, edition: Any, base_edition: Any, fmt: str) -> str:
    """``rules``: ``edition`` of the system ``edited`` (None: none shown has editions), against ``base_edition``."""
    clauses = CATALOGUE.all(system)
    tables = option_tables(system, edited.name if edited else None, edition.option_values() if edition else {})
    options = {row["name"]: row["value"] for row in tables.get(edited.name, [])} if edited else {}
    base = base_edition.option_values() if base_edition is not None else None
    differs = {name: base[name] for name, value in options.items() if base is not None and base[name] != value}
    if fmt == "json":
        document = {
            "rules": edition.name if edition else None,
            "options": options,
            "option_details": [row for rows in tables.values() for row in rows],
            "clauses": [clause_json(c) for c in clauses],
        }
        if base is not None:
            document["extends"] = base_edition.name
            document["differences"] = {
                name: {base_edition.name: old, edition.name: options[name]} for name, old in differs.items()
            }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return rules_markdown(
            clauses,
            edition.name if edition else None,
            tables,
            differs if base is not None else None,
            edited.name if edited else None,
            base_edition.name if base_edition else None,
        )
    lines: list[str] = []
    current = None
    for entry in clauses:
        if entry.system != current:
            current = entry.system
            if lines:
                lines.append("")
            lines.append(system_title(current))
        seeds = f" ({', '.join(entry.seeds)})" if entry.seeds else ""
        phase = f" [{entry.phase}]" if entry.phase else ""
        lines.append(f"  {entry.code} {entry.name:<24} {entry.severity.value:<8} {_(entry.summary)}{seeds}{phase}")
    for name, rows in tables.items():
        if not rows:
            continue
        values = [json.dumps(row["value"]) for row in rows]
        width = min(13, max(map(len, values)))
        title = option_title(name, edition.name if edited is not None and name == edited.name else None)
        if edited is not None and name == edited.name and base is not None:
            # an edition other than the base one: mark each value that differs, with the base value
            title += " " + _("(* differs from {edition})").format(edition=base_edition.name)
            marks = [
                f"* {base_edition.name}: {json.dumps(differs[row['name']])}" if row["name"] in differs else ""
                for row in rows
            ]
            mark_width = max(map(len, marks))
            values = [f"{value:<{width}}  {mark:<{mark_width}}" for value, mark in zip(values, marks, strict=True)]
            width = max(map(len, values))
        lines.extend(["", title + ":"])
        lines.extend(
            f"  {row['name']:<30} {value:<{width}}  {row['meaning']}" for row, value in zip(rows, values, strict=True)
        )
    return "\n".join(lines) + "\n"


def option_title(name: str, edition: str | None) -> str:
    """The heading of a system's options: under an edition (``Options of the aa preset aa1942``), or the defaults."""
    if edition is not None:
        return _("Options of the {system} preset {edition}").format(system=name, edition=edition)
    return _("Options of {system} (defaults)").format(system=name)


def option_tables(system: str | None, edited: str | None, values: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each system's options as rows (system, name, value, meaning, clauses); the system ``edited`` at ``values``."""

    tables: dict[str, list[dict[str, Any]]] = {}
    for name, declared in option_sets().items():
        if system not in (None, name):
            continue
        tables[name] = [
            {
                "system": name,
                "name": option.name,
                "value": values[option.name] if name == edited else option.default,
                "meaning": _(option.help),
                "clauses": list(option.clauses),
            }
            for option in declared
        ]
    return tables


def _cell(text: str) -> str:
    """Text for a markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def rules_markdown(
    clauses: list[Clause],
    preset: str | None,
    tables: dict[str, list[dict[str, Any]]],
    differs: dict[str, Any] | None = None,
    edited: str | None = None,
    base: str | None = None,
) -> str:
    """The catalogue as markdown tables, one per system, then the options (``rules --format markdown``).

    ``differs``: for an edition other than the base one, the base value of each option it changes
    (the aa table then has a column of the base values, the differing ones marked).
    """
    lines = ["# movecheck rules", ""]
    current = None
    for entry in clauses:
        if entry.system != current:
            current = entry.system
            if len(lines) > 2:
                lines.append("")
            lines.extend(
                [
                    f"## {system_title(current)}",
                    "",
                    _("| Code | Name | Severity | Phase | Summary | Rule paragraphs |"),
                    "| --- | --- | --- | --- | --- | --- |",
                ]
            )
        seeds = ", ".join(entry.seeds)
        lines.append(
            f"| `{entry.code}` | {_cell(entry.name)} | {entry.severity.value} | {_cell(entry.phase)} "
            f"| {_cell(_(entry.summary))} | {_cell(seeds)} |"
        )
    for name, rows in tables.items():
        heading = "## " + option_title(name, f"`{preset}`" if name == edited else None)
        value = _("Value") if name == edited else _("Default")
        if name == edited and differs is not None:
            lines.extend(
                [
                    "",
                    heading,
                    "",
                    _("| Option | {value} | {base} | Meaning |").format(value=value, base=base),
                    "| --- | --- | --- | --- |",
                ]
            )
            lines.extend(
                f"| `{row['name']}` | `{_cell(json.dumps(row['value']))}` | "
                + (
                    f"**`{_cell(json.dumps(differs[row['name']]))}`** " + _("(differs)")
                    if row["name"] in differs
                    else _("same")
                )
                + f" | {_cell(row['meaning'])} |"
                for row in rows
            )
            continue
        lines.extend(["", heading, "", _("| Option | {value} | Meaning |").format(value=value), "| --- | --- | --- |"])
        lines.extend(
            f"| `{row['name']}` | `{_cell(json.dumps(row['value']))}` | {_cell(row['meaning'])} |" for row in rows
        )
    return "\n".join(lines) + "\n"


def explain_clause(code: str) -> tuple[str, int]:
    """One clause in full: summary, documentation, seed paragraphs; exit 2 if unknown."""
    load_all()
    entry = CATALOGUE.get(code.upper()) or next((c for c in CATALOGUE.all() if c.name == code.lower()), None)
    if entry is None:
        paragraph = explain_paragraph(code)
        if paragraph is not None:
            return paragraph, 0
        from movecheck.suggest import close_names

        names = [c.code for c in CATALOGUE.all()] + [c.name for c in CATALOGUE.all()] + list(seed_paragraphs())
        close = close_names(code, names, n=3)
        hint = _("; did you mean {names}?").format(names=_(" or ").join(close)) if close else ""
        return "movecheck: error: " + _("unknown clause or rule paragraph {code}").format(
            code=repr(code)
        ) + hint + "\n", 2
    lines = [f"{entry.code} {entry.name} ({entry.severity.value})", "", _(entry.summary), ""]
    if entry.phase:
        lines[2] += f" [{entry.phase}]"
    doc = entry.documentation()
    if doc and doc != entry.summary:
        # the documentation is the check's docstring, in English, and the catalogue's translation of it (issue 42);
        # a clause whose documentation is not translated yet points to the English one
        said = _(doc)
        if said == doc and language() != ENGLISH and _(entry.summary) != entry.summary:
            said = _("The full description, in English: movecheck explain {code} --lang en").format(code=entry.code)
        lines.extend([plain_code(said), ""])
    if entry.example is not None:
        lines.extend([*example_lines(entry), ""])
    lines.extend(option_lines(entry))
    paragraphs = seed_paragraphs()
    cited = [label for label in expand_seeds(entry.seeds) if label in paragraphs]
    if cited:
        lines.append(_("Rule text:"))
        for label in cited:
            lines.append(f"  {label}: {_indent(paragraph_text(paragraphs[label]))}")
        lines.append("  " + _("(source: {sources})").format(sources=cited_sources(cited)))
        lines.append("")
    source = clause_source(entry)
    if source is not None:
        lines.append(_("Source: {file}, function {function}").format(file=source[0], function=source[1]))
    lines.append(_("Documentation: {url}").format(url=rule_url(entry.code)))
    return "\n".join(lines).rstrip() + "\n", 0


def clause_source(entry: Clause) -> tuple[str, str] | None:
    """Where a clause is written, as ruff's "View source": the file of its check, relative to the folder of its
    top-level package (``movecheck/aa/checks/aircraft.py``), and the check's name; None for an input problem
    (the loader reports it: it has no check of its own)."""
    if entry.check is None:
        return None
    module = sys.modules.get(entry.check.__module__)
    path = getattr(module, "__file__", None)
    top = sys.modules.get(entry.check.__module__.partition(".")[0])
    top_file = getattr(top, "__file__", None)
    if path is None or top_file is None:
        return None
    base = Path(top_file).resolve().parent
    if Path(top_file).name == "__init__.py":
        base = base.parent
    try:
        shown = Path(path).resolve().relative_to(base).as_posix()
    except ValueError:
        shown = Path(path).name
    return shown, entry.check.__qualname__


def rule_url(code: str) -> str:
    """The clause's page on the documentation site (``docs/rules/CODE.md``, by ``scripts/gen_rule_pages.py``)."""

    return f"{DOCS_URL}rules/{code}/"


def explain_paragraph(label: str) -> str | None:
    """A rule paragraph (``C10``): its text, where it comes from, and the clauses that cite it."""
    paragraphs = seed_paragraphs()
    key = next((k for k in paragraphs if k.lower() == label.lower()), None)
    if key is None:
        return None
    citing = [c for c in CATALOGUE.all() if key in expand_seeds(c.seeds)]
    lines = [f"{key} ({source_title(paragraphs[key]['source'])})", "", paragraph_text(paragraphs[key]), ""]
    if citing:
        lines.append(_("Clauses that cite it:"))
        lines.extend(f"  {c.code} {c.name}: {_(c.summary)}" for c in citing)
    else:
        lines.append(_("No clause cites it."))
    return "\n".join(lines).rstrip() + "\n"


def _indent(text: str) -> str:
    """A paragraph's later lines (the bullets of a list) indented under its label."""
    return text.replace("\n", "\n    ")


def option_lines(entry: Clause) -> list[str]:
    """Which options govern a clause and, for aa, their value in each edition (``explain``).

    The options declare the clauses they govern (:attr:`Clause.options`); an aa option whose
    value differs between editions makes the clause's behaviour depend on the edition.
    """
    if not entry.options:
        return []
    editions = system(entry.system).editions() if known(entry.system) else {}
    if not editions:

        declared = {o.name: o for o in option_sets()[entry.system]}
        listed = ", ".join(
            _("{name} (default {value})").format(name=name, value=json.dumps(declared[name].default))
            for name in entry.options
        )
        return [_("Governed by options: {options}").format(options=listed), ""]
    values = {edition.name: edition.option_values() for edition in editions.values()}

    def each(name: str) -> str:
        return f"{name} ({', '.join(f'{edition}: {json.dumps(v[name])}' for edition, v in values.items())})"

    differing = [name for name in entry.options if len({json.dumps(v[name]) for v in values.values()}) > 1]
    same = [name for name in entry.options if name not in differing]
    lines = []
    if differing:
        lines.append(
            _("Depends on the edition through options: {options}").format(
                options=", ".join(each(name) for name in differing)
            )
        )
    if same:
        lines.append(
            _("Governed by options (the same in every edition): {options}").format(
                options=", ".join(each(name) for name in same)
            )
        )
    return [*lines, ""]


def example_lines(entry: Clause) -> list[str]:
    """A clause's example as ``explain`` prints it: Illegal/Legal for an error, Flagged/Not flagged otherwise."""
    if entry.example is None:
        return []
    bad, good = (_("Illegal"), _("Legal")) if entry.severity is Severity.ERROR else (_("Flagged"), _("Not flagged"))
    width = max(len(bad), len(good)) + 1
    illegal, legal = plain_code(_(entry.example.illegal)), plain_code(_(entry.example.legal))
    return [_("Example:"), f"  {bad + ':':<{width}} {illegal}", f"  {good + ':':<{width}} {legal}"]


_LITERAL = re.compile(r"``(.+?)``", re.S)


def plain_code(text: str) -> str:
    """reStructuredText literals (````x````, as docstrings write them) as a terminal shows code: ```x```."""
    return _LITERAL.sub(r"`\1`", text)
