"""A loaded YAML file: plain data plus the position of every node.

Built by :mod:`movecheck.loading`; the checks place their findings with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from movecheck.findings import Finding, make_finding
from movecheck.fixes import replacements
from movecheck.i18n import _

Path = tuple[Any, ...]

ORDER_LISTS: set[str] = set()
"""The keys that hold a list of orders in some system's files (aa ``moves``, maneuver ``orders`` ...): a finding
under one names its order.  The system registry adds each system's when it loads it
(:func:`declare_order_lists`), as clause modules add their clauses to the catalogue; this module asks no one."""


def declare_order_lists(keys: Iterable[str]) -> None:
    """Keys that hold a list of orders in a system's files (the registry calls this as it loads a system)."""
    ORDER_LISTS.update(keys)


@dataclass
class ImplicitScalar:
    """A plain scalar that YAML 1.1 turned into something other than a string."""

    text: str
    tag: str
    value: Any
    too_long: bool = False  # a whole number of more than MAX_DIGITS digits: ``value`` is its text

    @property
    def digits(self) -> int:
        """How many digits the text has."""
        return sum(c.isdigit() for c in self.text)


@dataclass
class Document:
    """A loaded YAML file: plain data plus the positions of its nodes."""

    path: str
    data: Any = None
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    implicit: dict[Path, ImplicitScalar] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    text: str = ""
    broken: bool = False
    root: str | None = None  # the folder files this one names (an aa state's map:) must lie in

    def pos(self, path: Path) -> tuple[int, int]:
        """Position of the node at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            found = self.positions.get(path)
            if found is not None:
                return found
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def key_pos(self, path: Path) -> tuple[int, int]:
        """Position of the key whose value is at ``path`` (falls back to :meth:`pos`)."""
        found = self.key_positions.get(tuple(path))
        return found if found is not None else self.pos(path)

    def lines(self) -> list[str]:
        """The source text split into lines (for excerpts)."""
        return self.text.splitlines()

    def finding(self, code: str, message: str, path: Path = (), *, key: bool = False, **extra: Any) -> Finding:
        """A finding of ``code`` located at the node (or key) at ``path``."""
        line, column = self.key_pos(path) if key else self.pos(path)
        if "order" not in extra:
            extra.update(self.order_of(path))
        return make_finding(code, message, file=self.path, line=line, column=column, **extra)

    def order_of(self, path: Path) -> dict[str, Any]:
        """``order`` (1-based) and ``order_id`` for a node inside an orders list, else nothing."""
        path = tuple(path)
        if len(path) < 2 or path[0] not in ORDER_LISTS or not isinstance(path[1], int):
            return {}
        item = self.get(path[0], path[1])
        order_id = item.get("id") if isinstance(item, dict) else None
        return {"order": path[1] + 1, "order_id": order_id if isinstance(order_id, str) else None}

    def get(self, *path: Any, default: Any = None) -> Any:
        """The value at ``path`` in the data, or ``default``."""
        node = self.data
        for step in path:
            in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
            if (isinstance(node, dict) and step in node) or in_list:
                node = node[step]
            else:
                return default
        return node


def findings_at(doc: Document, found: Iterable[tuple[str, Any]]) -> list[Finding]:
    """Findings for ``(code, problem)`` pairs, each placed at its problem's ``where`` node."""
    return [doc.finding(code, problem.message, problem.where,
                        fixes=replacements(doc, problem.where, getattr(problem, "replace_with", ())))
            for code, problem in found]


def implicit_message(scalar: ImplicitScalar) -> str:
    """Explain how YAML 1.1 misread a name, and how to quote it."""
    if scalar.too_long:
        message = _(
            "{text}... is read by YAML 1.1 as a whole number of {digits} digits where a name is expected; quote it"
        )
        return message.format(text=scalar.text[:10], digits=scalar.digits)
    kind = scalar.tag.rsplit(":", 1)[-1]
    names = {"bool": _("boolean"), "int": _("integer"), "float": _("number"), "null": _("null"), "timestamp": _("date")}
    shown = names.get(kind, kind)
    value = scalar.value
    if isinstance(value, bool):
        value = str(value).lower()
    return _("{text} is read by YAML 1.1 as the {kind} {value} where a name is expected; quote it: '{text}'").format(
        text=scalar.text, kind=shown, value=value
    )
