"""The rule systems the kernel knows, and what passes between the kernel and a system.

The kernel (loading, schema, findings, render, core, session, cli) names no system's
file keys and no system's rules: each system package (``movecheck.aa``,
``movecheck.maneuver``) exposes a :class:`System` as ``SYSTEM``, and the kernel asks
:func:`system` for it.  A system package's ``__init__`` stays light: its board model
(networkx, shapely) is imported only when a file of the system is read.

A state goes to its system once per run (:meth:`System.prepare_state`), with the
edition and options the rules run under already resolved (:func:`resolve_rules`);
each orders file that names it is then checked against a fresh copy of what was
prepared (:meth:`System.check_orders`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from movecheck.i18n import _

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.core import Outcome, Settings
    from movecheck.findings import Finding
    from movecheck.loading import Document

NAMES = ("aa", "maneuver")
"""The ``system:`` values movecheck reads; ``movecheck.<name>.SYSTEM`` is each one's :class:`System`."""


@dataclass(frozen=True)
class RuleSettings:
    """The edition and options the rules of one state run under.

    Resolved once per state by :func:`resolve_rules` and handed to the system; the
    state's YAML data is never rewritten.  ``options`` holds only what the state, the
    command line and the configuration set (the system fills in its edition's
    values); ``sources`` says where each of them (and each entry ``KEY.ENTRY`` of a mapping
    option), and the edition, came from: ``state``, ``command line``, ``configuration`` or
    ``default``.
    """

    edition: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    edition_source: str = "default"


@dataclass(frozen=True)
class Baseline:
    """What a state's rules are measured against in the report (:mod:`movecheck.overrides`).

    ``values``: every option's value in the edition the state is checked under (a system
    without editions: the declared defaults); ``edition``: that edition's name, and
    ``unconfigured`` the one the state would have without the configuration's (None: the
    system has no editions).
    """

    values: dict[str, Any]
    edition: str | None = None
    unconfigured: str | None = None
    layers: tuple[tuple[str, str, dict[str, Any]], ...] = ()
    """Options the system applies between the edition and the configuration, each as
    ``(source, file, options)``: an aa map's own ``options:`` (``("map", "maps/x.yaml", {...})``)."""


@dataclass
class Prepared:
    """A state made ready for the rules, once per run, shared by every orders file that names it.

    ``model`` is the system's board or battlefield as the state describes it (None when
    no orders can be checked against it, for ``reason``); orders files get a copy of
    it (:meth:`System.fresh`), never the model itself.  ``findings`` are the state's
    own (unknown names, lint); ``referenced`` the files read on the way (an aa map
    file), whose findings the core reports once per run whichever states name them.
    """

    doc: Document
    rules: RuleSettings
    model: Any = None
    findings: list[Finding] = field(default_factory=list)
    referenced: list[Any] = field(default_factory=list)
    reason: str | None = None


class System:
    """What a rule system declares to the kernel, and the calls the kernel makes to it."""

    name: str = ""
    orders_key: str = ""
    """The list of orders in an orders file (``moves``, ``orders``)."""
    orders_markers: tuple[str, ...] = ()
    """Keys that make a file with no ``kind:`` an orders file (as does ``state:``, see :func:`orders_signs`) ..."""
    state_markers: tuple[str, ...] = ()
    """... unless it has one of these (of any system): then it is a state."""
    kinds: tuple[str, ...] = ("state", "orders")
    """The ``kind:`` values a file of this system may give."""
    reference_keys: tuple[str, ...] = ()
    """Keys of a state whose text value is the path of another file it reads (aa ``map``)."""
    default_edition: Any = None
    """The edition of a state that names none, when no configuration names one."""
    suggest_fills: tuple[str, ...] = ()
    """The keys of an order that ``check --suggest`` writes, so that an order may leave them
    out under ``--suggest`` (none: the system has nothing to suggest)."""
    orders_kinds: tuple[str, ...] = ("orders",)
    """The kinds of file checked against a state as orders are (aa: also ``battles``, the battle results)."""
    order_lists: tuple[str, ...] = ()
    """Every key that holds a list of orders in some kind of file (default: ``orders_key`` alone)."""

    def identify(self, data: dict[str, Any]) -> str:
        """The kind (``state``, ``orders`` ...) of a file of this system, from its keys.

        A declared ``kind:`` wins; else the orders markers make it orders unless it has a
        state marker of any system; else it is a state.
        """
        kind = data.get("kind")
        if kind in self.kinds:
            return str(kind)
        if any(key in data for key in orders_signs(self)) and not any(key in data for key in state_markers()):
            return "orders"
        return "state"

    def orders_key_of(self, kind: str) -> str:
        """The key of the list of orders in a file of ``kind`` (``aa-orders``: ``moves``)."""
        return self.orders_key

    def next_state(self, outcome: Outcome, prepared: Prepared, orders_path: str, output: str | None, forced: bool) -> str:
        """``movecheck apply``: the text of the state that follows orders carried out (``outcome.final``)."""
        raise NotImplementedError

    def applied(self, outcome: Outcome, prepared: Prepared, orders_path: str, output: str | None,
                forced: bool) -> tuple[str, dict[str, Any]]:
        """``movecheck apply --format json``: the state's text and the apply report (schema ``apply-report``);
        here only what was read and written, a system says more."""
        text = self.next_state(outcome, prepared, orders_path, output, forced)
        return text, {"movecheck": 1, "system": self.name, "orders": orders_path, "state": prepared.doc.path,
                      "written": output or "-", "forced": forced}

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared:
        """Build and lint a state once; ``clean``: its reading and schema found no error."""
        raise NotImplementedError

    def fresh(self, prepared: Prepared) -> Any:
        """A copy of the prepared model for one orders file to carry its orders out on."""
        raise NotImplementedError

    def check_orders(self, orders: Document, prepared: Prepared, valid_orders: set[int], settings: Settings) -> Outcome:
        """Check an orders file against a prepared state (whose ``model`` is not None).

        ``valid_orders``: the (1-based) orders the schema found nothing wrong with.
        """
        raise NotImplementedError

    def lint_file(self, doc: Document, kind: str, clean: bool) -> list[Finding]:
        """``lint`` of a file of the system that is not a state (a map, orders)."""
        return []

    def summary(self, item: Any) -> list[Any]:
        """``movecheck summary``: the sections of the post for one checked file (a
        :class:`movecheck.summary.Checked`; here: nothing to say)."""
        return []

    def summary_title(self, item: Any) -> str:
        """``movecheck summary``: the post's title for a file (``Germans, round 1``; here: none)."""
        return ""

    def rule_baseline(self, prepared: Prepared) -> Baseline:
        """The option values of the edition a prepared state is checked under (here: the declared defaults)."""
        from movecheck.options import option_sets

        declared = option_sets().get(self.name)
        return Baseline(declared.defaults() if declared is not None else {})


def system(name: str) -> System:
    """The :class:`System` of ``system: name`` (one of :data:`NAMES`)."""
    return importlib.import_module(f"movecheck.{name}").SYSTEM  # type: ignore[no-any-return]


def system_of(kind: str) -> System:
    """The system of a file kind (``aa-orders`` -> aa)."""
    return system(kind.split("-", 1)[0])


ORDERS_REFERENCE = "state"
"""The kernel's key by which an orders file names its state (any system)."""


def orders_signs(declared: System) -> tuple[str, ...]:
    """The keys that make a file with no ``kind:`` orders: the system's markers and ``state``."""
    return (*declared.orders_markers, ORDERS_REFERENCE)


def orders_look(data: Any, missing: str) -> str:
    """`` (this looks like an orders file: it has power, phase, state)`` when a file with
    orders keys lacks ``missing``, its system's list of orders; else nothing."""
    if not isinstance(data, dict) or data.get("system") not in NAMES:
        return ""
    declared = system(data["system"])
    has = [str(key) for key in data if key in orders_signs(declared)]
    if missing != declared.orders_key or not has:
        return ""
    return " " + _("(this looks like an orders file: it has {keys})").format(keys=", ".join(has))


@cache
def orders_keys() -> tuple[str, ...]:
    """The key of the orders list of every system: a finding under it names its order."""
    return tuple(key for name in NAMES for key in (system(name).order_lists or (system(name).orders_key,)))


@cache
def state_markers() -> tuple[str, ...]:
    """Keys that make a file a state whatever else it has, over every system."""
    return tuple(key for name in NAMES for key in system(name).state_markers)


def resolve_rules(
    system: System,
    state: Any,
    *,
    configured_edition: Any = None,
    configured: dict[str, Any] | None = None,
    command_line: dict[str, Any] | None = None,
) -> RuleSettings:
    """The edition and options of a state: its own > the command line > the configuration > the edition.

    The edition is the state's ``rules:`` (whatever its value: a wrong one is the system's
    to report), else the configuration's, else the system's default.  The options are
    merged key by key (a mapping option such as ``dice`` entry by entry); a state whose
    ``options`` is not a mapping (the schema has said so) takes none from elsewhere.
    """
    from movecheck.config import merge_options

    data = state if isinstance(state, dict) else {}
    if "rules" in data:
        edition, edition_source = data["rules"], "state"
    elif configured_edition:
        edition, edition_source = configured_edition, "configuration"
    else:
        edition, edition_source = system.default_edition, "default"
    own = data.get("options")
    if own is not None and not isinstance(own, dict):
        return RuleSettings(edition, {}, {}, edition_source)
    layers = (("configuration", configured or {}), ("command line", command_line or {}), ("state", own or {}))
    options: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, layer in layers:
        options = merge_options(options, layer)
        sources.update({key: source for key in layer})
        sources.update({f"{key}.{entry}": source for key, value in layer.items() if isinstance(value, dict) for entry in value})
    return RuleSettings(edition, options, sources, edition_source)
