"""Reading a TripleA game file safely: the XML parsed with :mod:`defusedxml` and its parts looked up.

A game file comes from a stranger: no entity expansion, no external entities, no DTD
retrieval, at most ``MOVECHECK_MAX_BYTES``; anything wrong with it is an
:class:`~movecheck.reading.InputError` (one line, exit 2), never a traceback.
"""

from __future__ import annotations

import re
from typing import Any

from movecheck.aa.triplea.rules import clean as _clean
from movecheck.i18n import N_, _
from movecheck.reading import MAX_BYTES, InputError, read_bytes


def parse(raw: bytes, name: str) -> Any:
    """The root element of a game file; InputError for anything that is not a safe, well-formed one."""
    import defusedxml
    from defusedxml.ElementTree import ParseError, fromstring

    if len(raw) > MAX_BYTES:
        raise InputError(
            f"{name}: "
            + _("file is larger than {limit} bytes; raise MOVECHECK_MAX_BYTES to read it").format(limit=MAX_BYTES)
        )
    try:
        root = fromstring(raw, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = re.sub(r": line \d+, column \d+$", "", str(exc))
        raise InputError(
            f"{name}:{line}:{column + 1}: " + _("not a well-formed XML file ({reason})").format(reason=_clean(reason))
        ) from None
    except defusedxml.DefusedXmlException as exc:
        what = type(exc).__name__
        detail = {
            "EntitiesForbidden": N_("it declares entities (refused: entity expansion, external entities)"),
            "ExternalReferenceForbidden": N_("it refers to an external resource (refused)"),
            "DTDForbidden": N_("it has a document type definition (refused)"),
        }.get(what, N_("refused by the XML safety checks"))
        raise InputError(f"{name}: " + _("unsafe XML file: {why}").format(why=_(detail))) from None
    except (ValueError, LookupError, UnicodeError) as exc:  # an unknown encoding, a NUL byte ...
        raise InputError(f"{name}: " + _("not a readable XML file ({reason})").format(reason=_clean(exc))) from None
    if root.tag != "game":
        raise InputError(
            f"{name}: "
            + _("not a TripleA game file (the root element is <{tag}>, not <game>)").format(tag=_clean(root.tag))
        )
    return root


def read_game(path: str) -> Any:
    """The root element of the game file at ``path`` (``-``: standard input)."""
    raw = read_bytes(path, stdin=path == "-")
    return parse(raw, "-" if path == "-" else path)


class Game:
    """The game file's parts, looked up once."""

    def __init__(self, root: Any, name: str) -> None:
        self.root = root
        self.name = name

    def fail(self, message: str) -> InputError:
        return InputError(f"{self.name}: {_clean(message)}")

    def attr(self, element: Any, key: str) -> str:
        value: str | None = element.get(key)
        if value is None or not value.strip():
            raise self.fail(_("<{tag}> without {key}=").format(tag=element.tag, key=key))
        return value

    def number(self, value: str, what: str) -> int:
        text = value.strip()
        if not re.fullmatch(r"-?\d{1,18}", text):
            raise self.fail(_("{what}: {value} is not a whole number").format(what=what, value=repr(value)))
        return int(text)

    def flag(self, value: str) -> bool:
        return value.strip().lower() == "true"

    def section(self, tag: str) -> list[Any]:
        return list(self.root.findall(tag))


def options_of(attachment: Any) -> dict[str, str]:
    """The ``<option name= value=>`` children of an attachment, by name."""
    return {o.get("name", ""): o.get("value", "") for o in attachment.findall("option")}
