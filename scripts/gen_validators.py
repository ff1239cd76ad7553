#!/usr/bin/env python3
"""Write movecheck/validators/generated.py, plain-Python validators, from schemas/*.schema.json.

The generated module's ``VALIDATORS`` gives each schema a function ``(data) -> bool``, true
exactly when jsonschema (draft 2020-12 with movecheck's ``integer`` and ``number``,
see ``movecheck.schema.validator_class``) finds no error.  ``movecheck check`` and
``lint`` ask it first, so a valid file never imports jsonschema; an invalid one goes
on to jsonschema for its findings.

    python scripts/gen_validators.py            # rewrite the modules
    python scripts/gen_validators.py --check    # exit 1 if a committed module is stale

A keyword this script does not know stops it: a schema must not become looser in the
generated code than in jsonschema.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
TARGET = REPO / "movecheck" / "validators"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
from generated import sync  # noqa: E402

from movecheck.schema import SCHEMA_NAMES as NAMES  # noqa: E402  (the one list of schemas)

IGNORED = {"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"}
"""Keywords that say nothing about validity (``$defs`` is reached through ``$ref``)."""

TYPES = {
    "object": "isinstance(x, dict)",
    "array": "isinstance(x, list)",
    "string": "isinstance(x, str)",
    "integer": "integer(x)",
    "number": "number(x)",
    "boolean": "isinstance(x, bool)",
    "null": "x is None",
}


class Writer:
    """Turns schemas into functions ``_v0``, ``_v1``, ... (one per distinct subschema); ``root``: the schema being
    written."""

    def __init__(self) -> None:
        self.root: dict[str, Any] = {}
        self.names: dict[tuple[int, str], str] = {}
        self.functions: list[str] = []
        self.tables: list[str] = []
        self.patterns: dict[str, str] = {}

    def function(self, schema: Any) -> str:
        """The name of the function that validates ``schema`` (written once per distinct schema)."""
        if isinstance(schema, dict) and set(schema) - IGNORED == {"$ref"}:
            return self.function(self.resolve(schema["$ref"]))  # nothing but a reference: its target's function
        key = (id(self.root), json.dumps(schema, sort_keys=True))  # a $ref means something in its own schema
        if key in self.names:
            return self.names[key]
        name = self.names[key] = f"_v{len(self.names)}"
        slot = len(self.functions)
        self.functions.append("")  # keeps the order of first use; filled below
        self.functions[slot] = self.body(name, schema)
        return name

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            raise SystemExit(f"gen_validators: only local references are supported, not {ref!r}")
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def pattern(self, text: str) -> str:
        if text not in self.patterns:
            self.patterns[text] = f"_P{len(self.patterns)}"
        return self.patterns[text]

    def body(self, name: str, schema: Any) -> str:
        lines = [f"def {name}(x: Any) -> bool:"]
        if schema is True or schema == {}:
            return "\n".join([*lines, "    return True", ""])
        if schema is False:
            return "\n".join([*lines, "    return False", ""])
        unknown = set(schema) - IGNORED - KNOWN
        if unknown:
            raise SystemExit(f"gen_validators: keyword(s) {sorted(unknown)} are not supported")
        add = lines.append
        kind = schema.get("type")
        if kind is not None:
            kinds = kind if isinstance(kind, list) else [kind]
            add(f"    if not ({' or '.join(TYPES[k] for k in kinds)}):")
            add("        return False")
        if "const" in schema:
            const = schema["const"]
            # jsonschema compares a text with == (equal() would say the same, slower)
            add(f"    if not x == {const!r}:" if isinstance(const, str) else f"    if not equal(x, {const!r}):")
            add("        return False")
        if "enum" in schema:
            values = schema["enum"]
            if all(isinstance(v, str) for v in values):
                table = f"_E{len(self.tables)}"
                self.tables.append(f"{table} = frozenset({sorted(values)!r})")
                add(f"    if not (isinstance(x, str) and x in {table}):")
            else:
                add(f"    if not any(equal(x, v) for v in {values!r}):")
            add("        return False")
        self.numbers(schema, add)
        self.strings(schema, add)
        sure = kind if isinstance(kind, str) else None  # the type is already checked
        self.arrays(schema, add, sure == "array")
        self.objects(schema, add, sure == "object")
        if "$ref" in schema:
            add(f"    if not {self.function(self.resolve(schema['$ref']))}(x):")
            add("        return False")
        for word, join in (("allOf", " and "), ("anyOf", " or ")):
            if word in schema:
                calls = join.join(f"{self.function(s)}(x)" for s in schema[word])
                add(f"    if not ({calls}):")
                add("        return False")
        if "oneOf" in schema:
            calls = ", ".join(f"{self.function(s)}(x)" for s in schema["oneOf"])
            add(f"    if sum(({calls},)) != 1:")
            add("        return False")
        if "not" in schema:
            add(f"    if {self.function(schema['not'])}(x):")
            add("        return False")
        if "if" in schema:
            then = f"{self.function(schema['then'])}(x)" if "then" in schema else "True"
            otherwise = f"{self.function(schema['else'])}(x)" if "else" in schema else "True"
            add(f"    if not ({then} if {self.function(schema['if'])}(x) else {otherwise}):")
            add("        return False")
        add("    return True")
        return "\n".join(lines) + "\n"

    def numbers(self, schema: dict[str, Any], add: Any) -> None:
        tests = [
            f"x {op} {schema[word]!r}"
            for word, op in (("minimum", "<"), ("maximum", ">"), ("exclusiveMinimum", "<="), ("exclusiveMaximum", ">="))
            if word in schema
        ]
        if tests:
            add(f"    if number(x) and ({' or '.join(tests)}):")
            add("        return False")

    def strings(self, schema: dict[str, Any], add: Any) -> None:
        tests = []
        if "minLength" in schema:
            tests.append(f"len(x) < {schema['minLength']!r}")
        if "maxLength" in schema:
            tests.append(f"len(x) > {schema['maxLength']!r}")
        if "pattern" in schema:
            tests.append(f"{self.pattern(schema['pattern'])}.search(x) is None")
        if tests:
            add(f"    if isinstance(x, str) and ({' or '.join(tests)}):")
            add("        return False")

    def arrays(self, schema: dict[str, Any], add: Any, sure: bool) -> None:
        words = ("minItems", "maxItems", "prefixItems", "items", "uniqueItems")
        if not any(w in schema for w in words):
            return
        block: list[str] = []
        add, outer = block.append, add
        sizes(schema, add, "minItems", "maxItems")
        prefix = schema.get("prefixItems", [])
        for index, item in enumerate(prefix):
            add(f"        if len(x) > {index} and not {self.function(item)}(x[{index}]):")
            add("            return False")
        if "items" in schema:
            rest = f"x[{len(prefix)}:]" if prefix else "x"
            if schema["items"] is False:
                add(f"        if len(x) > {len(prefix)}:")
                add("            return False")
            elif schema["items"] is not True and schema["items"] != {}:
                check = self.function(schema["items"])
                add(f"        for item in {rest}:")
                add(f"            if not {check}(item):")
                add("                return False")
        if schema.get("uniqueItems") is True:
            add("        if not unique(x):")
            add("            return False")
        guarded(outer, "isinstance(x, list)", block, sure)

    def objects(self, schema: dict[str, Any], add: Any, sure: bool) -> None:
        words = ("required", "properties", "additionalProperties", "minProperties", "maxProperties", "propertyNames")
        if not any(w in schema for w in words):
            return
        block: list[str] = []
        add, outer = block.append, add
        self.object_block(schema, add)
        guarded(outer, "isinstance(x, dict)", block, sure)

    def object_block(self, schema: dict[str, Any], add: Any) -> None:
        for key in schema.get("required", []):
            add(f"        if {key!r} not in x:")
            add("            return False")
        sizes(schema, add, "minProperties", "maxProperties")
        if "propertyNames" in schema:
            add("        for key in x:")
            add(f"            if not {self.function(schema['propertyNames'])}(key):")
            add("                return False")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        if properties:
            entries = ", ".join(f"{key!r}: {self.function(sub)}" for key, sub in properties.items())
            table = f"_T{len(self.tables)}"  # named after the subschemas' own tables are written
            self.tables.append(f"{table}: dict[str, Callable[[Any], bool]] = {{{entries}}}")
        if not properties and extra in (True, {}):
            return
        add("        for key, value in x.items():")
        if properties:
            add(f"            check = {table}.get(key)")
            if extra is False:
                add("            if check is None or not check(value):")
                add("                return False")
                return
            if extra in (True, {}):
                add("            if check is not None and not check(value):")
                add("                return False")
                return
            add(f"            if not (check or {self.function(extra)})(value):")
            add("                return False")
            return
        if extra is False:
            add("            return False")
        else:
            add(f"            if not {self.function(extra)}(value):")
            add("                return False")


def sizes(schema: dict[str, Any], add: Any, least: str, most: str) -> None:
    """The bounds on a list's or a mapping's length (``minItems``/``maxItems``, ``minProperties``/``maxProperties``)."""
    for word, op in ((least, "<"), (most, ">")):
        if word in schema:
            add(f"        if len(x) {op} {schema[word]!r}:")
            add("            return False")


def guarded(add: Any, test: str, block: list[str], sure: bool) -> None:
    """Add ``block`` (indented for a guard) under ``if test:``, or without the guard when the type is already
    checked."""
    if not block:
        return
    if not sure:
        add(f"    if {test}:")
    for line in block:
        add(line if not sure else line[4:])


KNOWN = {
    "type", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "prefixItems", "items", "uniqueItems",
    "required", "properties", "additionalProperties", "minProperties", "maxProperties", "propertyNames",
    "$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
}


def merged(
    functions: list[str], tables: list[str], tops: dict[str, str]
) -> tuple[list[str], list[str], dict[str, str]]:
    """The functions with those of the same body (the same subschema in two schemas, or subschemas
    differing only in their descriptions) written once, then numbered in order."""
    import re

    call = re.compile(r"\b_v\d+\b")

    def renamed(alias: dict[str, str], drop: bool) -> tuple[list[str], list[str], dict[str, str]]:
        """Calls to a name of ``alias`` made to its other name; with ``drop``, its function left out."""
        rename = lambda text: call.sub(lambda m: alias.get(m.group(0), m.group(0)), text)  # noqa: E731
        kept = [rename(f) for f in functions if not (drop and name_of(f) in alias)]
        return kept, [rename(t) for t in tables], {k: alias.get(v, v) for k, v in tops.items()}

    while True:
        first: dict[str, str] = {}
        alias: dict[str, str] = {}
        for text in functions:
            name, body = name_of(text), text.partition("(")[2]
            if body in first:
                alias[name] = first[body]
            else:
                first[body] = name
        if not alias:
            break
        functions, tables, tops = renamed(alias, drop=True)
    return renamed({name_of(f): f"_v{n}" for n, f in enumerate(functions)}, drop=False)


def name_of(function: str) -> str:
    return function[len("def ") :].partition("(")[0]


def module_text(schemas: dict[str, dict[str, Any]]) -> str:
    """The Python source validating each of ``schemas`` (by name)."""
    writer = Writer()
    tops = {}
    for name, schema in schemas.items():
        writer.root = schema
        tops[name] = writer.function(schema)
    functions, tables, tops = merged(writer.functions, writer.tables, tops)
    helpers = ", ".join(h for h in ("equal", "integer", "number", "unique") if any(f"{h}(" in f for f in functions))
    head = [
        (
            '"""Whether data is valid against each of schemas/*.schema.json: '
            'generated by scripts/gen_validators.py, do not edit."""'
        ),
        "",
        "from __future__ import annotations",
        "",
    ]
    if writer.patterns:
        head.append("import re")
    head.append("from typing import Any, Callable")
    head.append("")
    if helpers:
        head.append(f"from movecheck.validators.keywords import {helpers}")
        head.append("")
    patterns = [f"{var} = re.compile({text!r})" for text, var in writer.patterns.items()]
    parts = ["\n".join(head)]
    if patterns:
        parts.append("\n".join(patterns) + "\n")
    parts.append("\n\n".join(functions))
    parts.append("\n".join(tables) + "\n" if tables else "")
    entries = "".join(f"    {name!r}: {top},\n" for name, top in tops.items())
    parts.append(f"VALIDATORS: dict[str, Callable[[Any], bool]] = {{\n{entries}}}\n")
    return "\n\n".join(p for p in parts if p)


def outputs() -> dict[Path, str]:
    schemas = {name: json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8")) for name in NAMES}
    return {TARGET / "generated.py": module_text(schemas)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed module differs")
    args = parser.parse_args(argv)
    return sync("gen_validators", outputs(), args.check)


if __name__ == "__main__":
    sys.exit(main())
