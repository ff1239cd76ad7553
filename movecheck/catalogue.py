"""The clause catalogue as the ``rules``, ``explain`` and ``maps`` commands show it."""

from __future__ import annotations

import importlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from movecheck.clauses import CATALOGUE, Clause, Severity
from movecheck.i18n import ENGLISH, N_, _, language

CLAUSE_MODULES = (
    "movecheck.problems",
    "movecheck.aa.rules",
    "movecheck.maneuver.rules",
)
SYSTEM_TITLES = {
    "mc": N_("Input problems (both systems)"),
    "aa": N_("aa: Axis & Allies area movement"),
    "maneuver": N_("maneuver: miniatures manoeuvre"),
}


def load_all() -> None:
    """Import every module that declares clauses."""
    for name in CLAUSE_MODULES:
        importlib.import_module(name)


@lru_cache(maxsize=1)
def seed_paragraphs() -> dict[str, dict[str, str]]:
    """Seed label -> {text, source}, shipped with the package."""
    path = Path(__file__).with_name("seeds.json")
    return json.loads(path.read_text(encoding="utf-8"))


SOURCE_TITLES = {
    "A&A, Phase 2: Combat move (fragment)": N_("A&A 1942 rulebook, combat move"),
    "A&A, Phase 4: Noncombat move": N_("A&A 1942 rulebook, noncombat move"),
    "Manoeuvre (corps and bases)": N_("manoeuvre rules, corps and bases"),
}
"""The seeds' sources as a reader names them (seeds.json names the project's internal files)."""


def source_title(source: str) -> str:
    """A seed source without its internal file name: ``A&A 1942 rulebook, combat move``."""
    title = source.split(" (", 1)[1][:-1] if source.endswith(")") and " (" in source else source
    return _(SOURCE_TITLES[title]) if title in SOURCE_TITLES else title


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
    if system is not None and system not in SYSTEM_TITLES:
        return "movecheck: error: " + _("unknown system {name}; choose aa, maneuver or mc").format(name=repr(system)) + "\n", 2
    from movecheck.aa.editions import DEFAULT_EDITION, EDITIONS, find_edition

    edition = find_edition(preset or DEFAULT_EDITION.name)
    if edition is None:
        return "movecheck: error: " + _("unknown rules preset {name}; choose one of: {names}").format(
            name=repr(preset), names=", ".join(EDITIONS)
        ) + "\n", 2
    clauses = CATALOGUE.all(system)
    tables = option_tables(system, edition.option_values())
    options = {row["name"]: row["value"] for row in tables.get("aa", [])}
    base = DEFAULT_EDITION.option_values() if edition is not DEFAULT_EDITION else None
    differs = {name: base[name] for name, value in options.items() if base is not None and base[name] != value}
    if fmt == "json":
        document = {
            "rules": edition.name,
            "options": options,
            "option_details": [row for rows in tables.values() for row in rows],
            "clauses": [clause_json(c) for c in clauses],
        }
        if base is not None:
            document["extends"] = DEFAULT_EDITION.name
            document["differences"] = {
                name: {DEFAULT_EDITION.name: old, edition.name: options[name]} for name, old in differs.items()
            }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n", 0
    if fmt == "markdown":
        return rules_markdown(clauses, edition.name, tables, differs if base is not None else None), 0
    lines: list[str] = []
    current = None
    for entry in clauses:
        if entry.system != current:
            current = entry.system
            if lines:
                lines.append("")
            lines.append(_(SYSTEM_TITLES[current]) if current in SYSTEM_TITLES else current)
        seeds = f" ({', '.join(entry.seeds)})" if entry.seeds else ""
        phase = f" [{entry.phase}]" if entry.phase else ""
        lines.append(f"  {entry.code} {entry.name:<24} {entry.severity.value:<8} {_(entry.summary)}{seeds}{phase}")
    for name, rows in tables.items():
        values = [json.dumps(row["value"]) for row in rows]
        width = min(13, max(map(len, values)))
        title = _(OPTION_TITLES[name]).format(edition=edition.name)
        if name == "aa" and base is not None:
            # an edition other than the base one: mark each value that differs, with the base value
            title += " " + _("(* differs from {edition})").format(edition=DEFAULT_EDITION.name)
            marks = [f"* {DEFAULT_EDITION.name}: {json.dumps(differs[row['name']])}" if row["name"] in differs else ""
                     for row in rows]
            mark_width = max(map(len, marks))
            values = [f"{value:<{width}}  {mark:<{mark_width}}" for value, mark in zip(values, marks)]
            width = max(map(len, values))
        lines.extend(["", title + ":"])
        lines.extend(f"  {row['name']:<30} {value:<{width}}  {row['meaning']}" for row, value in zip(rows, values))
    return "\n".join(lines) + "\n", 0


OPTION_TITLES = {
    "aa": N_("Options of the aa preset {edition}"),
    "maneuver": N_("Options of maneuver (defaults)"),
}


def option_tables(system: str | None, aa_values: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each system's options as rows (system, name, value, meaning, clauses); aa at ``aa_values``."""
    from movecheck.options import option_sets

    tables: dict[str, list[dict[str, Any]]] = {}
    for name, declared in option_sets().items():
        if system not in (None, name):
            continue
        tables[name] = [
            {
                "system": name,
                "name": option.name,
                "value": aa_values[option.name] if name == "aa" else option.default,
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
    clauses: list[Clause], preset: str, tables: dict[str, list[dict[str, Any]]], differs: dict[str, Any] | None = None,
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
                    f"## {_(SYSTEM_TITLES[current]) if current in SYSTEM_TITLES else current}",
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
    headings = {"aa": "## " + _(OPTION_TITLES["aa"]).format(edition=f"`{preset}`"), "maneuver": "## " + _(OPTION_TITLES["maneuver"])}
    for name, rows in tables.items():
        value = _("Value") if name == "aa" else _("Default")
        if name == "aa" and differs is not None:
            from movecheck.aa.editions import DEFAULT_EDITION

            base = DEFAULT_EDITION.name
            lines.extend(["", headings[name], "", _("| Option | {value} | {base} | Meaning |").format(value=value, base=base),
                          "| --- | --- | --- | --- |"])
            lines.extend(
                f"| `{row['name']}` | `{_cell(json.dumps(row['value']))}` | "
                + (f"**`{_cell(json.dumps(differs[row['name']]))}`** " + _("(differs)") if row["name"] in differs else _("same"))
                + f" | {_cell(row['meaning'])} |"
                for row in rows
            )
            continue
        lines.extend(["", headings[name], "", _("| Option | {value} | Meaning |").format(value=value), "| --- | --- | --- |"])
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
        return "movecheck: error: " + _("unknown clause or rule paragraph {code}").format(code=repr(code)) + hint + "\n", 2
    lines = [f"{entry.code} {entry.name} ({entry.severity.value})", "", _(entry.summary), ""]
    if entry.phase:
        lines[2] += f" [{entry.phase}]"
    doc = entry.documentation()
    if language() != ENGLISH and _(entry.summary) != entry.summary:
        # the documentation is the check's docstring, in English: the summary above and the
        # rule's original paragraphs below say it in the reader's language; point to the rest
        # (a clause not translated yet keeps its English documentation)
        if doc and doc != entry.summary:
            lines.extend([_("The full description, in English: movecheck explain {code} --lang en").format(code=entry.code), ""])
    elif doc and doc != entry.summary:
        lines.extend([doc, ""])
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
    lines.append(_("Documentation: {url}").format(url=rule_url(entry.code)))
    return "\n".join(lines).rstrip() + "\n", 0


def rule_url(code: str) -> str:
    """The clause's page on the documentation site (``docs/rules/CODE.md``, by ``scripts/gen_rule_pages.py``)."""
    from movecheck import DOCS_URL

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
    if entry.system != "aa":
        from movecheck.options import option_sets

        declared = {o.name: o for o in option_sets()[entry.system]}
        listed = ", ".join(_("{name} (default {value})").format(name=name, value=json.dumps(declared[name].default))
                           for name in entry.options)
        return [_("Governed by options: {options}").format(options=listed), ""]
    from movecheck.aa.editions import EDITIONS

    values = {edition.name: edition.option_values() for edition in EDITIONS.values()}

    def each(name: str) -> str:
        return f"{name} ({', '.join(f'{edition}: {json.dumps(v[name])}' for edition, v in values.items())})"

    differing = [name for name in entry.options if len({json.dumps(v[name]) for v in values.values()}) > 1]
    same = [name for name in entry.options if name not in differing]
    lines = []
    if differing:
        lines.append(_("Depends on the edition through options: {options}").format(options=", ".join(each(name) for name in differing)))
    if same:
        lines.append(_("Governed by options (the same in every edition): {options}").format(options=", ".join(each(name) for name in same)))
    return [*lines, ""]


def example_lines(entry: Clause) -> list[str]:
    """A clause's example as ``explain`` prints it: Illegal/Legal for an error, Flagged/Not flagged otherwise."""
    bad, good = (_("Illegal"), _("Legal")) if entry.severity is Severity.ERROR else (_("Flagged"), _("Not flagged"))
    width = max(len(bad), len(good)) + 1
    return [_("Example:"), f"  {bad + ':':<{width}} {entry.example.illegal}", f"  {good + ':':<{width}} {entry.example.legal}"]


def render_maps(fmt: str) -> str:
    """The built-in maps with their size."""
    from movecheck.aa.maps import BUILTIN_MAPS, builtin_summary

    rows = [builtin_summary(name) for name in BUILTIN_MAPS]
    if fmt == "json":
        return json.dumps({"maps": rows}, indent=2, ensure_ascii=False) + "\n"
    lines = [
        f"{row['name']:<12} {row['title']}: {row['land']} land territories ({row['neutral']} neutral), "
        f"{row['sea']} sea zones, {row['connections']} connections, {row['canals']} canals, {row['units']} units"
        for row in rows
    ]
    return "\n".join(lines) + "\n"
