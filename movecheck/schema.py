"""The JSON Schemas of movecheck's files, and validation into MC003/MC005 findings.

The schemas live in the top-level ``schemas/`` folder of the source tree and
inside the wheel as ``movecheck/schemas``.  A file is first checked by the plain-Python
validator generated from its schema (:mod:`movecheck.validators`): a valid file is done
without importing ``jsonschema``; an invalid one is validated again by jsonschema, whose
errors become the findings.  jsonschema's validators are built once per process.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from movecheck.document import Document, implicit_message
from movecheck.findings import Finding
from movecheck.fixes import replacements
from movecheck.i18n import ENGLISH, N_, _, language
from movecheck.suggest import close_names, did_you_mean
from movecheck.systems import NAMES, all_systems, known, orders_look, schema_id, system
from movecheck.yaml_builder import MAX_DIGITS

__all__ = ["schema_names"]
REPORT = "report"
"""The kernel's own schema: the JSON report."""
KERNEL_SCHEMAS = (REPORT, "apply-report", "summary")
"""The schemas of what movecheck writes (``--format json`` of ``check`` and of ``apply``), after the systems' files."""


def _names(systems: list[Any]) -> tuple[str, ...]:
    own = [(*(f"{declared.name}-{kind}" for kind in declared.kinds), *declared.output_schemas) for declared in systems]
    return (*(name for names in own for name in names), *KERNEL_SCHEMAS)


def schema_names() -> tuple[str, ...]:
    """Every schema movecheck knows: each kind of file of each system (:func:`movecheck.systems.names`), then its
    own."""
    return _names(all_systems())


def __getattr__(name: str) -> Any:
    """``SCHEMA_NAMES``: the schemas shipped in movecheck's ``schemas/`` (of the built-in systems), asked of them
    when first read."""
    if name == "SCHEMA_NAMES":
        return _names([system(each) for each in NAMES])
    raise AttributeError(name)


def schema_dir() -> Path:
    """The folder holding the schemas: inside the installed package, else the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "schemas", here.parent / "schemas"):
        if (candidate / "report.schema.json").is_file():
            return candidate
    raise FileNotFoundError("movecheck's schemas are not installed (no schemas/ folder found)")


def schema_path(name: str) -> Path:
    """The file of the schema ``name``: in its system's :attr:`~movecheck.systems.System.schema_folder`, else
    movecheck's."""
    owner = name.split("-", 1)[0]
    folder = system(owner).schema_folder if name not in KERNEL_SCHEMAS and known(owner) else None
    return (folder or schema_dir()) / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as a dict (one of :func:`schema_names`)."""
    if name not in schema_names():
        raise KeyError(name)
    return json.loads(schema_path(name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def schema_text(name: str) -> str:
    """The schema ``name`` exactly as shipped."""
    return schema_path(name).read_text(encoding="utf-8")


@cache
def _registry() -> Any:
    from referencing import Registry, Resource

    resources = []
    for name in schema_names():
        contents = load_schema(name)
        resources.append((contents.get("$id", schema_id(name)), Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number as written: an int, never a bool and never a float such as 5.0."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(checker: Any, instance: Any) -> bool:
    """A finite number: NaN and infinities are not lengths, coordinates or options."""
    if isinstance(instance, bool) or not isinstance(instance, (int, float)):
        return False
    return isinstance(instance, int) or math.isfinite(instance)


@cache
def validator_class() -> Any:
    """Draft 2020-12 with movecheck's number types.

    The draft's ``integer`` accepts 5.0 and its ``number`` accepts NaN and infinity;
    movecheck's files want what the text says: ``integer`` is a YAML integer only
    (``5.0``, ``1.0e+6`` and ``!!float 1`` are not), ``number`` is finite.  Because
    ``minimum``/``maximum`` only look at numbers, a non-finite value gets one
    finding (its type), not one per bound.
    """
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number})
    return validators.extend(Draft202012Validator, type_checker=checker)


@cache
def validator(name: str) -> Any:
    """A validator for ``name`` (see :func:`validator_class`), built once; references resolve locally."""
    return validator_class()(load_schema(name), registry=_registry())


def sorted_errors(checker: Any, data: Any) -> list[Any]:
    """The raw jsonschema errors of ``data`` under a validator, in a stable order."""
    return sorted(checker.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator, e.message))


def validate_data(name: str, data: Any) -> list[Any]:
    """The raw jsonschema errors of ``data`` against schema ``name``, in a stable order."""
    return sorted_errors(validator(name), data)


def validate(doc: Document, name: str, optional: tuple[str, ...] = ()) -> list[Finding]:
    """Validate a document: MC005 for misread names (then taken as text), MC003 for the rest.

    ``optional``: keys the schema requires that may be missing here (``check --suggest``
    writes them).
    """
    if optional:
        return validate_with(doc, relaxed_validator(name, optional))[0]
    from movecheck.validators import is_valid

    if is_valid(name, doc.data):
        return []  # what jsonschema would find: nothing (tests/test_validators.py holds them together)
    return validate_with(doc, validator(name))[0]


@cache
def relaxed_validator(name: str, optional: tuple[str, ...]) -> Any:
    """A validator for ``name`` whose schema requires none of the keys ``optional``, anywhere."""
    return validator_class()(_without_required(load_schema(name), frozenset(optional)), registry=_registry())


def _without_required(node: Any, optional: frozenset[str]) -> Any:
    if isinstance(node, list):
        return [_without_required(item, optional) for item in node]
    if not isinstance(node, dict):
        return node
    return {key: ([k for k in value if k not in optional] if key == "required" and isinstance(value, list)
                  else _without_required(value, optional)) for key, value in node.items()}


def validate_with(doc: Document, checker: Any) -> tuple[list[Finding], list[Any]]:
    """Findings of a document under a validator, and the schema errors left after MC005 coercion."""
    findings: list[Finding] = []
    errors = sorted_errors(checker, doc.data)
    if _coerce_misread_names(doc, errors, findings):
        errors = sorted_errors(checker, doc.data)
    seen: set[tuple[Any, ...]] = set()
    for error in errors:
        for finding in _schema_findings(doc, error):
            key = (finding.line, finding.column, finding.message)
            if key not in seen:
                seen.add(key)
                findings.append(finding)
    return findings, errors


def _expects_string(error: Any) -> bool:
    expected = error.validator_value
    if error.validator != "type":
        return False
    if isinstance(expected, list) and ("integer" in expected or "number" in expected):
        # text or a number (a die: '2d6' or 6): a number of the wrong form (6.0) was meant as one
        number = isinstance(error.instance, (int, float)) and not isinstance(error.instance, bool)
        return "string" in expected and not number
    return expected == "string" or (isinstance(expected, list) and "string" in expected)


def _coerce_misread_names(doc: Document, errors: Iterable[Any], findings: list[Finding]) -> bool:
    """Where a name was expected but YAML 1.1 read a number/boolean, take the text instead."""
    changed = False
    for error in errors:
        path = tuple(error.absolute_path)
        scalar = doc.implicit.get(path)
        if scalar is None or not _expects_string(error) or not path:
            continue
        parent = doc.get(*path[:-1])
        if isinstance(parent, (dict, list)):
            parent[path[-1]] = scalar.text
            changed = True
            findings.append(doc.finding("MC005", implicit_message(scalar), path))
    return changed


def _unknown_key(doc: Document, path: tuple[Any, ...], where: str, key: Any, allowed: list[str]) -> Finding:
    """MC003 at a key the schema does not allow there, with the closest allowed keys: in the message and as fixes."""
    close = close_names(key, allowed)
    message = _("unknown key {key} in {where}").format(key=repr(key), where=where) + did_you_mean(close)
    return doc.finding("MC003", message, (*path, key), key=True, fixes=replacements(doc, (*path, key), close, key=True))


def _schema_findings(doc: Document, error: Any) -> list[Finding]:
    """One or more MC003 findings for a jsonschema error, placed on the offending node."""
    path = tuple(error.absolute_path)
    where = _describe_path(path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in error.schema.get("properties", {}))
        return [_unknown_key(doc, path, where, key, allowed) for key in extra]
    if error.validator == "enum":
        choices = [str(c) for c in error.validator_value]
        close = close_names(str(error.instance), choices)
        listed = ", ".join(choices[:12]) + (", ..." if len(choices) > 12 else "")
        message = _("{value} is not one of: {choices}").format(value=_show(error.instance), choices=listed)
        words = all(isinstance(c, str) for c in error.validator_value)  # a fix writes a name, never a number
        fixes = replacements(doc, path, close) if words else ()
        return [doc.finding("MC003", f"{where}: {message}{did_you_mean(close)}", path, fixes=fixes)]
    if error.validator == "const":
        message = _("must be {expected}, not {value}").format(
            expected=_show(error.validator_value), value=_show(error.instance)
        )
        return [doc.finding("MC003", f"{where}: {message}", path)]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        look = orders_look(error.instance, missing) if not path else ""
        message = _("missing required key {key}").format(key=repr(missing))
        return [doc.finding("MC003", f"{where}: {message}{look}", path)]
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        hint = list_hint(path, error.instance, error.validator_value)
        return [doc.finding("MC003", _type_message(doc, path, where, expected, error.instance) + hint, path)]
    if error.validator in ("anyOf", "oneOf") and error.context:
        from jsonschema.exceptions import best_match

        # Descend from the anyOf error itself: best_match then prefers the deepest error
        # of the branch whose type fits the instance ({tank: 0} -> the minimum of tank,
        # not "expected a list").  A context error's absolute_path already includes
        # the anyOf's own path (through its parent).
        best = best_match([error])
        if best is not None and best is not error:
            # every error of that branch, not only the best one: {infantry: 2.0, tank: 1.0}
            # has two values to fix (each still descends to its own best error)
            top = best
            while top.parent is not None and top.parent is not error:
                top = top.parent
            siblings = [e for e in error.context if e is not top and _branch(e) == _branch(top)]
            found = _schema_findings(doc, best)
            for sibling in siblings:
                found.extend(_schema_findings(doc, sibling))
            return found
    if error.validator == "not" and isinstance(error.validator_value, dict) and "required" in error.validator_value:
        keys = ", ".join(error.validator_value["required"])
        return [doc.finding("MC003", f"{where}: " + _("{keys} is not allowed here").format(keys=keys), path)]
    message = error.message
    scalar = doc.implicit.get(path)
    if error.validator in _BOUNDS and scalar is not None and message.startswith(repr(error.instance)):
        message = scalar.text + message[len(repr(error.instance)) :]  # 1.0e+19 as written, not 1e+19
    message = message if len(message) <= 200 else message[:197] + "..."
    return [doc.finding("MC003", f"{where}: {message}", path)]


def _branch(error: Any) -> Any:
    """Which branch of an anyOf/oneOf a context error belongs to."""
    return error.relative_schema_path[0] if error.relative_schema_path else None


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_EXPONENT_TEXT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def _type_message(doc: Document, path: tuple[Any, ...], where: str, expected: str, instance: Any) -> str:
    """Why a value is not of the expected type, in the words the file used."""
    scalar = doc.implicit.get(path)
    wanted = expected.split(" or ")
    if scalar is not None and scalar.too_long:
        if "integer" not in wanted and "number" not in wanted:
            return f"{where}: " + _("expected {a_type}, got a whole number of {digits} digits").format(
                a_type=_article(expected), digits=scalar.digits
            )
        message = _(
            "{text} is a whole number of {digits} digits; movecheck reads whole numbers of at most {limit} digits"
        )
        return f"{where}: " + message.format(text=_shorten(scalar.text), digits=scalar.digits, limit=MAX_DIGITS)
    written = scalar.text if scalar is not None else None
    if isinstance(instance, float):
        shown = written or _float_text(instance)
        if not math.isfinite(instance):
            if "number" in wanted:
                return f"{where}: " + _("{value} is not a finite number").format(value=shown)
            message = _("expected {a_type}, got {value}, which is not a finite number")
            return f"{where}: " + message.format(a_type=_article(expected), value=shown)
        if "integer" in wanted and "number" not in wanted:
            if not instance.is_integer():
                return f"{where}: " + _("expected {a_type}, got {value}").format(a_type=_article(expected), value=shown)
            hint = _("; write {value}").format(value=int(instance)) if abs(instance) < 1e15 else ""
            return f"{where}: " + _("expected {a_type}, got {value}, which is not written as a whole number").format(
                a_type=_article(expected), value=shown
            ) + hint
    if isinstance(instance, str) and ("integer" in wanted or "number" in wanted) and _yaml_text_number(instance):
        value = float(instance)
        hint = ""
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
            hint = _("; write {value}").format(value=int(value))
        elif math.isfinite(value) and "number" in wanted:
            hint = _("; write {value}").format(value=_float_text(value))
        text = _(
            "expected {a_type}, got the text {value}: "
            "YAML 1.1 needs a decimal point and a signed exponent to read it as a number"
        )
        return f"{where}: " + text.format(a_type=_article(expected), value=_show(instance)) + hint
    return f"{where}: " + _("expected {a_type}, got {value}").format(a_type=_article(expected), value=_kind(instance))


def list_hint(path: tuple[Any, ...], instance: Any, expected: Any) -> str:
    """``; write it as a list: path: [A, B] ...`` for comma-separated text where the schema wants a list."""
    wanted = expected if isinstance(expected, list) else [expected]
    if "array" not in wanted or not isinstance(instance, str) or "," not in instance:
        return ""
    items = [_flow_item(item.strip()) for item in instance.split(",")]
    key = f"{path[-1]}: " if path and isinstance(path[-1], str) else ""
    listed = f"{key}[{', '.join(items)}]"
    if key:
        return _("; write it as a list: {listed} (or a line '- {item}' per item under '{key}:')").format(
            listed=listed, item=items[0], key=path[-1])
    return _("; write it as a list: {listed}").format(listed=listed)


def _flow_item(text: str) -> str:
    """An item as written in a YAML flow list: quoted when plain text would not read back as itself."""
    plain = text and not any(c in text for c in ":[]{}#&*!|>'\"%@`") and text == text.strip()
    return text if plain else json.dumps(text, ensure_ascii=False)


def _yaml_text_number(text: str) -> bool:
    """A number with an exponent that YAML 1.1 reads as text (``5e1``, ``1.0e6``): it lacks a dot or a sign."""
    return _EXPONENT_TEXT.fullmatch(text) is not None and not ("." in text and re.search(r"[eE][-+]", text))


def _float_text(value: float) -> str:
    """A float as YAML 1.1 reads it back as a float (``1.0e+19``, not ``1e+19``)."""
    if not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + (exponent if exponent[0] in "+-" else "+" + exponent) if exponent else "")


def _shorten(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...{text[-10:]}"


def _describe_path(path: tuple[Any, ...]) -> str:
    if not path:
        return _("the file")
    parts: list[str] = []
    for step in path:
        parts.append(f"[{step + 1}]" if isinstance(step, int) else ("." if parts else "") + str(step))
    return "".join(parts)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return _("nothing (null)")
    if isinstance(value, bool):
        return _("the boolean {value}").format(value=str(value).lower())
    if isinstance(value, (int, float)):
        return _("the number {value}").format(value=value)
    if isinstance(value, str):
        return _("the text {value}").format(value=_show(value))
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("a mapping")
    return type(value).__name__


def _article(word: str) -> str:
    names = {"object": N_("a mapping"), "array": N_("a list"), "string": N_("a text"), "integer": N_("a whole number"),
             "number": N_("a number"), "boolean": N_("a boolean"), "null": N_("null")}
    if language() != ENGLISH:  # the translated names, and no English article
        return _(" or ").join(_(names[w]) if w in names else w for w in word.split(" or "))
    shown = " or ".join(names.get(w, "a " + w)[2:] if w != "null" else "null" for w in word.split(" or "))
    return ("an " if shown[0] in "aeiou" else "a ") + shown
