"""Every file a run reads, as the kernel sees it before any rule system does: its kind,
format version and schema findings (:func:`read`, :func:`examine`), and whether a file
another names is a movecheck file at all (:func:`recognised`).

The bytes are read by :mod:`movecheck.reading` (through :mod:`movecheck.loading`); this
module asks the systems (:mod:`movecheck.systems`) which kind a file is.  Rule systems
call it too: a file named inside a state (an aa ``map:``) is read with :func:`read_reference`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import cache

from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.i18n import _
from movecheck.loading import load_bytes, load_file
from movecheck.reading import read_regular
from movecheck.systems import ORDERS, choices, known, names, orders_keys, system, system_of

FORMAT_VERSION = 1


def identify(doc: Document) -> str | None:
    """The file kind (``aa-orders``, ``maneuver-state``, ...) a document says it is."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    name = data.get("system")
    if not known(name):
        return None
    return f"{name}-{system(name).identify(data)}"


def is_kind(kind: str | None, which: str) -> bool:
    """Is ``kind`` (``aa-orders``) a file of kind ``which`` (:data:`ORDERS`, :data:`STATE`)?

    :data:`ORDERS` covers every kind its system checks against a state (aa battle results too).
    """
    if kind is None:
        return False
    name, _, own = kind.partition("-")
    if which == ORDERS and known(name):
        return own in system(name).orders_kinds
    return own == which


def _kind_problem(doc: Document) -> Finding:
    data = doc.data
    if not isinstance(data, dict):
        if data is None:
            return doc.finding("MC010", _("the file is empty, not a movecheck mapping with a 'system:' key"))
        shape = type(data).__name__.replace("dict", "mapping")
        return doc.finding(
            "MC010", _("the file is a {shape}, not a movecheck mapping with a 'system:' key").format(shape=shape)
        )
    if "system" not in data:
        return doc.finding("MC010", _("the file has no 'system:' key ({names})").format(names=choices(list(names()))))
    return doc.finding(
        "MC010",
        _("the file's system: is not one of: {names}; its value is not shown").format(names=", ".join(names())),
        ("system",),
    )


def _unquoted(findings: list[Finding]) -> list[Finding]:
    """The reading findings of a file that does not parse and does not say it is a movecheck file, quoting nothing.

    A YAML error keeps its code and position, not its words (the parser's words may quote
    the text: a tag, a character, a value); a repeated key is not reported at all; the
    limits (MC008) and a second document (MC009) quote nothing already.
    """

    message = _(
        "YAML syntax: the file does not parse, and it does not say it is a movecheck file "
        "(no {systems}), so nothing of it is shown"
    ).format(systems=_system_keys())
    return [replace(f, message=message) if f.code == "MC001" else f for f in findings if f.code != "MC002"]


def version_problem(doc: Document) -> Finding | None:
    """MC007 when the file names a format version this release cannot read."""
    if not isinstance(doc.data, dict) or "movecheck" not in doc.data:
        return None
    version = doc.data["movecheck"]
    if version == FORMAT_VERSION and not isinstance(version, bool):
        return None
    return doc.finding(
        "MC007",
        _("format version {version} is not supported; this release reads movecheck: {supported}").format(
            version=repr(version), supported=FORMAT_VERSION
        ),
        ("movecheck",),
    )


@dataclass
class Loaded:
    """A document, the kind it claims, and the findings its reading produced."""

    doc: Document
    kind: str | None
    findings: list[Finding]
    quotable: bool = True
    """False for a file not known to be a movecheck file: its findings quote nothing of it,
    and its text is not kept for the ``full`` report (see :func:`examine`)."""

    @property
    def known_kind(self) -> str:
        """Its kind, for a file whose kind is known (``usable``, or a kind checked for); '' otherwise."""
        return self.kind or ""

    @property
    def usable(self) -> bool:
        """The rules can run on it: it parsed, its kind is known, its version readable."""
        return (
            self.kind is not None
            and not self.doc.broken
            and not any(f.code in ("MC007", "MC010") for f in self.findings)
        )


def read(path: str, display: str | None = None, suggest: bool = False) -> Loaded:
    """Load a file and run the checks every file gets: YAML, kind, version, schema."""
    doc = load_file(path, display)
    return examine(doc, suggest)


def examine(doc: Document, suggest: bool = False) -> Loaded:
    """The findings every file gets, before any rule system looks at it.

    A file that is not known to be a movecheck file (see :func:`recognised`: a mapping
    whose ``system:`` is one movecheck knows, or broken text holding such a key) may be
    anything a tree holds (a token, a key file linked in): it gets findings that say what
    is wrong without quoting any of it, and its text is kept out of the ``full`` report.
    ``suggest`` (``check --suggest``): an order may leave out what the suggestion writes.
    """
    orders_keys()  # every system loaded: each has declared its lists of orders to the document
    findings = list(doc.findings)
    if doc.broken:
        loaded = Loaded(doc, None, findings)
        return loaded if recognised(loaded) else Loaded(doc, None, _unquoted(findings), quotable=False)
    kind = identify(doc)
    if kind is None:  # not (yet) a movecheck file: one finding, quoting nothing of it (its repeated keys neither)
        return Loaded(doc, None, [_kind_problem(doc)], quotable=False)
    problem = version_problem(doc)
    if problem is not None:
        findings.append(problem)
        return Loaded(doc, kind, findings)
    from movecheck.schema import validate

    optional = system_of(kind).suggest_fills if suggest and is_kind(kind, ORDERS) else ()
    findings.extend(validate(doc, kind, optional))
    return Loaded(doc, kind, findings)


def looks_like_movecheck(text: str) -> bool:
    """A top-level ``movecheck:`` or ``system:`` key: the file means to be a movecheck file."""
    return re.search(r"^(?:\{\s*)?[\"']?(?:movecheck|system)[\"']?\s*:", text, re.M) is not None


def read_reference(path: str, display: str | None = None) -> Loaded:
    """Load a file named inside another (``state:``, ``map:``): a regular file, size-bounded.

    InputError when it is not a regular file (a FIFO, a device, ``/dev/stdin``, a
    symlink to one) or cannot be read; it is never waited on.
    """
    return examine(load_bytes(read_regular(path), display or path))


@cache
def _system_key() -> re.Pattern[str]:
    """A ``system: NAME`` key of some system, in text that may not parse."""
    alternatives = "|".join(map(re.escape, names()))
    return re.compile(r"""(?:^|[{,])[ \t]*["']?system["']?[ \t]*:[ \t]*["']?(?:""" + alternatives + r""")\b""", re.M)


def _system_keys() -> str:
    """``system: aa or system: maneuver``."""
    return choices([f"system: {name}" for name in names()])


def recognised(loaded: Loaded) -> bool:
    """Is this a movecheck file: a mapping with ``system: aa`` or ``system: maneuver``?

    A file that does not parse counts when it holds a ``system: aa`` (or maneuver) key
    (at the start of a line, or after ``{`` or ``,`` as in one-line JSON), or when it was
    over the size limit (that finding quotes nothing).  The
    findings and lines of a file reached through ``state:`` or ``map:`` are reported only
    when it is recognised: an orders file must not make movecheck print another file.
    """
    doc = loaded.doc
    if doc.broken:
        return not doc.text or _system_key().search(doc.text) is not None
    return isinstance(doc.data, dict) and known(doc.data.get("system"))


def unrecognised_message(key: str, path: str) -> str:
    """The finding for a file ``key:`` names that is not a movecheck file; it quotes none of it."""
    return _("{key}: {path} is not a movecheck {key} file (no {systems}); its content is not shown").format(
        key=key, path=path, systems=_system_keys()
    )


def outside_root(path: str, root: str) -> bool:
    """Does ``path``, symlinks resolved, lie outside the folder ``root`` (itself resolved)?"""
    real = os.path.realpath(path)
    try:
        return os.path.commonpath([real, root]) != root
    except ValueError:  # another drive (Windows)
        return True


def outside_message(key: str, ref: str, root: str) -> str:
    """The finding for a ``key:`` path that resolves outside the root (symlinks followed).

    The real path is not shown: ``/proc/self`` would make the output depend on the process id.
    """
    return _("{key}: {ref} resolves outside the root {root} (see --root)").format(key=key, ref=ref, root=root)
