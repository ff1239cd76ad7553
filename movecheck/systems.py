"""The system interface: the one door between the kernel and a rule system.

A rule system is a package that declares one :class:`System` (``SYSTEM``): its name and
title, its file kinds and where their schemas are, its options and editions, its clause
modules, its configuration section, its own commands, and the calls the kernel makes
(prepare, check, lint, identify, next state, picture).  The kernel finds the systems in
one registry (:func:`names`, :func:`system`): the built-in ones (:data:`NAMES`) and any
package that declares an entry point in the group ``movecheck.systems``
(``hex = "movecheck_hex:SYSTEM"``).  It imports a system only when it asks the registry for
it, never at module level, and systems import this module (and the kernel services of
:mod:`movecheck.files`), never ``movecheck.core``.

A state goes to its system once per run (:meth:`System.prepare_state`), with the
edition and options the rules run under already resolved (:func:`resolve_rules`);
each orders file that names it is then checked against a fresh copy of what was
prepared (:meth:`System.check_orders`).  This module imports only the findings and
messages of the kernel, so that every other module may import it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from movecheck.i18n import _

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.document import Document
    from movecheck.findings import Finding, Report
    from movecheck.options import OptionSet
    from movecheck.summary import Checked, Section

NAMES = ("aa", "maneuver")
"""The built-in systems; ``movecheck.<name>.SYSTEM`` is each one's :class:`System`."""
ENTRY_POINTS = "movecheck.systems"
"""The entry-point group in which another package declares a system (``NAME = "module:SYSTEM"``)."""
STATE, ORDERS = "state", "orders"
"""The two kinds of file every system has (``aa-state``, ``maneuver-orders`` ...)."""
ORDERS_REFERENCE = "state"
"""The kernel's key by which an orders file names its state (any system)."""
SCHEMA_ID = "https://movecheck.dev/schemas/{name}/v1.json"
"""The ``$id`` of each schema: stable for format version 1 (see docs/decisions.md, "Schema ids")."""


def schema_id(name: str) -> str:
    """The stable ``$id`` of the schema ``name`` (``aa-orders`` -> ``https://movecheck.dev/schemas/aa-orders/v1.json``)."""
    return SCHEMA_ID.format(name=name)


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

    edition: object = None
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


ModelT = TypeVar("ModelT")
"""A system's own model of a state: the aa board, the maneuver battlefield (:attr:`Prepared.model`)."""
FinalT = TypeVar("FinalT")
"""What a system's orders leave once carried out (:attr:`Outcome.final`), from which ``apply`` writes."""


@dataclass
class Prepared(Generic[ModelT]):
    """A state made ready for the rules, once per run, shared by every orders file that names it.

    ``model`` is the system's board or battlefield as the state describes it (None when
    no orders can be checked against it, for ``reason``); orders files get a copy of
    it (:meth:`System.fresh`), never the model itself.  ``findings`` are the state's
    own (unknown names, lint); ``referenced`` the files read on the way (an aa map
    file), whose findings the core reports once per run whichever states name them.
    """

    doc: Document
    rules: RuleSettings
    model: ModelT | None = None
    findings: list[Finding] = field(default_factory=list)
    referenced: list[Read] = field(default_factory=list)
    reason: str | None = None

    def ready(self) -> ModelT:
        """The model of a state the rules run on: the kernel hands a system only such a state to check orders
        against (a model that is None here is a broken promise of the kernel, never a finding)."""
        if self.model is None:
            raise RuntimeError(f"{self.doc.path}: no model to check orders against ({self.reason})")
        return self.model


@dataclass
class Outcome(Generic[FinalT]):
    """What a rule system returns for one orders file."""

    findings: list[Finding] = field(default_factory=list)
    orders: int = 0
    checked: set[int] = field(default_factory=set)
    """The (1-based) orders on which every clause that applies ran."""
    reason: str | None = None
    """Why the rules did not run on the orders, when they did not."""
    readings: dict[str, Any] = field(default_factory=dict)
    required_ends: str = ""
    """``--suggest``: the end positions the rules require of the compulsory orders (YAML)."""
    assignment: list[dict[str, Any]] | None = None
    """The choice of units the rules used, per order (a system that leaves no choice open: None)."""
    final: FinalT | None = None
    """The model as the orders left it (``apply`` writes the next state from it; None: not carried out)."""
    hold: str | None = None
    """Why ``apply`` writes the next state only with ``--force`` although the orders are legal (one line)."""


@dataclass(frozen=True)
class RunContext:
    """What a system may read of the run it checks orders in (nothing else of the command line or configuration).

    ``suggest``: ``check --suggest`` writes the end positions the rules require (:attr:`System.suggest_fills`);
    ``observe``: a caller's observer of each order's facts (``render`` draws them), called with the
    system's own order and facts.
    """

    suggest: bool = False
    observe: Callable[..., None] | None = None


REPEATED: ContextVar[bool] = ContextVar("movecheck_repeated", default=False)
"""True while the caller checks the same files again and again as they are edited (the language server, issue 37):
a system may then keep what its last check of an orders file against a prepared state gave and give it again when
nothing it reads has changed (aa keeps its engine's last run).  The command line leaves it False."""


class Read(Protocol):
    """A file the kernel has read (a :class:`movecheck.files.Loaded`), as a system sees it."""

    @property
    def doc(self) -> Document: ...

    @property
    def kind(self) -> str | None: ...

    @property
    def findings(self) -> list[Finding]: ...

    @property
    def quotable(self) -> bool:
        """Its text may be quoted in a report (a file known to be a movecheck file)."""
        ...


class Drawing(Protocol):
    """What ``movecheck render`` hands a system's :meth:`System.picture`: the run's services, bound to the run.

    ``select`` is what the run reports of a report (the configuration's ``select``/``ignore``);
    ``prepare`` makes a state ready as ``check`` does; ``check`` checks orders files as ``check``
    does (``outcomes`` receives each one's outcome and prepared state; ``observe``, as in
    :class:`RunContext`).
    """

    def select(self, report: Report) -> Report: ...

    def prepare(self, loaded: Read) -> Prepared[object]: ...

    def check(self, paths: list[str], outcomes: dict[str, tuple[Outcome[object], Prepared[object]]],
              observe: Callable[..., None] | None = None) -> Report: ...


class Edition(Protocol):
    """What the kernel reads of an edition (an aa edition class such as ``AA1942``)."""

    @property
    def name(self) -> str: ...

    def option_values(self) -> dict[str, Any]: ...


class Unrenderable(Exception):
    """``movecheck render``: the file cannot be drawn; the report of what is wrong with it (or a one-line reason)."""

    def __init__(self, report: Report | None, reason: str) -> None:
        super().__init__(reason)
        self.report = report
        self.reason = reason


def has_errors(findings: list[Finding]) -> bool:
    """True when any finding is an error."""
    return any(f.severity.value == "error" for f in findings)  # Severity.ERROR, without importing the findings


def resolve(reference: str) -> Any:
    """The object a ``module:attribute`` reference names (imported now)."""
    module, _sep, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


class System(Generic[ModelT, FinalT]):
    """What a rule system declares to the kernel, and the calls the kernel makes to it.

    ``ModelT`` is the system's model of a state (:attr:`Prepared.model`), ``FinalT`` what its
    orders leave once carried out (:attr:`Outcome.final`); the kernel holds every system as a
    ``System[object, object]`` (:func:`system`), so a system's own types meet only in its methods.
    """

    name: str = ""
    title: str = ""
    """One line for ``movecheck rules`` (marked with ``N_``; translated where it is shown)."""
    kinds: tuple[str, ...] = ("state", "orders")
    output_schemas: tuple[str, ...] = ()
    """Schemas of what the system's own commands write (maneuver: ``reach``), named as they are."""
    """The ``kind:`` values a file of this system may give; each has a schema ``NAME-KIND``."""
    schema_folder: Path | None = None
    """The folder of the schemas of its kinds (``NAME-KIND.schema.json``); None: movecheck's own ``schemas/``."""
    clause_modules: tuple[str, ...] = ()
    """The modules whose import registers its clauses in the catalogue."""
    clause_index: str = ""
    """A module whose import gives the catalogue the index of its clauses (written by
    ``scripts/gen_clause_index.py``): then each module declaring some is imported when one of them is first
    needed (:meth:`~movecheck.clauses.Catalogue.add_index`), not with every check; none: :attr:`clause_modules`
    are imported."""
    options_module: str = ""
    """The module whose ``OPTIONS`` (a :class:`~movecheck.options.OptionSet`) declares its rule options."""
    commands: str = ""
    """``module:function`` that adds the system's own commands to the command line (``function(app)``)."""
    source_titles: dict[str, str] = {}  # noqa: RUF012 - a declaration, never changed
    """The sources of its rule paragraphs (``seeds.json``) as a reader names them, marked with ``N_``."""
    map_schemas: tuple[str, ...] = ()
    """The schemas ``movecheck schema NAME --map MAP`` writes for one map (:meth:`map_schema`)."""
    builtin_maps: tuple[str, ...] = ()
    """The names of its built-in maps (offered by shell completion)."""
    draws: bool = False
    """``movecheck render`` draws its files (:meth:`picture`)."""
    orders_key: str = ""
    """The list of orders in an orders file (``moves``, ``orders``)."""
    orders_markers: tuple[str, ...] = ()
    """Keys that make a file with no ``kind:`` an orders file (as does ``state:``, see :func:`orders_signs`) ..."""
    state_markers: tuple[str, ...] = ()
    """... unless it has one of these (of any system): then it is a state."""
    reference_keys: tuple[str, ...] = ()
    """Keys of a state whose text value is the path of another file it reads (aa ``map``)."""
    @property
    def default_edition(self) -> str | None:
        """The edition of a state that names none, when no configuration names one (None: no editions)."""
        return None

    suggest_fills: tuple[str, ...] = ()
    """The keys of an order that ``check --suggest`` writes, so that an order may leave them
    out under ``--suggest`` (none: the system has nothing to suggest)."""
    orders_kinds: tuple[str, ...] = ("orders",)
    """The kinds of file checked against a state as orders are (aa: also ``battles``, the battle results)."""
    order_lists: tuple[str, ...] = ()
    """Every key that holds a list of orders in some kind of file (default: ``orders_key`` alone)."""

    # -- declarations read lazily --------------------------------------------------------------

    def load_clauses(self) -> None:
        """Register its clauses (import :attr:`clause_modules`, or only its :attr:`clause_index`) and which options
        govern them (its option set): the kernel does before it checks orders."""
        for module in (self.clause_index,) if self.clause_index else self.clause_modules:
            importlib.import_module(module)
        self.option_set()

    def option_set(self) -> OptionSet | None:
        """Its rule options (None: it has none)."""
        return importlib.import_module(self.options_module).OPTIONS if self.options_module else None

    def editions(self) -> dict[str, Edition]:
        """Its editions by name, each with ``name`` and ``option_values()`` (none: a system without editions)."""
        return {}

    def find_edition(self, name: str) -> Edition | None:
        """The edition ``name`` (or an alias) names, else None."""
        return None

    def close_editions(self, name: str) -> list[str]:
        """Edition names close to a misspelt ``name``."""
        return []

    def config_section(self) -> dict[str, object]:
        """The JSON Schema of its section of a configuration file: ``options`` (and ``rules`` with editions)."""
        properties: dict[str, object] = {}
        if self.default_edition is not None:
            properties["rules"] = {"type": "string", "minLength": 1}
        properties["options"] = {"$ref": schema_id(f"{self.name}-state") + "#/$defs/options"}
        return {"type": "object", "additionalProperties": False, "properties": properties}

    # -- the calls the kernel makes ------------------------------------------------------------

    def identify(self, data: dict[str, object]) -> str:
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

    def next_state(
        self, outcome: Outcome[FinalT], prepared: Prepared[ModelT], orders_path: str, output: str | None, forced: bool
    ) -> str:
        """``movecheck apply``: the text of the state that follows orders carried out (``outcome.final``)."""
        raise NotImplementedError

    def applied(self, outcome: Outcome[FinalT], prepared: Prepared[ModelT], orders_path: str, output: str | None,
                forced: bool) -> tuple[str, dict[str, object]]:
        """``movecheck apply --format json``: the state's text and the apply report (schema ``apply-report``);
        here only what was read and written, a system says more."""
        text = self.next_state(outcome, prepared, orders_path, output, forced)
        return text, {"movecheck": 1, "system": self.name, "orders": orders_path, "state": prepared.doc.path,
                      "written": output or "-", "forced": forced}

    def prepare_state(self, doc: Document, rules: RuleSettings, clean: bool) -> Prepared[ModelT]:
        """Build and lint a state once; ``clean``: its reading and schema found no error."""
        raise NotImplementedError

    def fresh(self, prepared: Prepared[ModelT]) -> ModelT:
        """A copy of the prepared model for one orders file to carry its orders out on."""
        raise NotImplementedError

    def check_orders(
        self, orders: Document, prepared: Prepared[ModelT], valid_orders: set[int], context: RunContext
    ) -> Outcome[FinalT]:
        """Check an orders file against a prepared state (whose ``model`` is not None).

        ``valid_orders``: the (1-based) orders the schema found nothing wrong with; ``context``: what
        the system may read of the run (:class:`RunContext`).
        """
        raise NotImplementedError

    def lint_file(self, doc: Document, kind: str, clean: bool) -> list[Finding]:
        """``lint`` of a file of the system that is not a state (a map, orders)."""
        return []

    def summary(self, item: Checked) -> list[Section]:
        """``movecheck summary``: the sections of the post for one checked file (a
        :class:`movecheck.summary.Checked`; here: nothing to say)."""
        return []

    def summary_title(self, item: Checked) -> str:
        """``movecheck summary``: the post's title for a file (``Germans, round 1``; here: none)."""
        return ""

    def summary_order(self, item: Checked) -> tuple[int, ...]:
        """``movecheck summary``: where a file's sections go in the post, in the game's order (round, power,
        phase); files alike keep the command line's order (here: all alike)."""
        return ()

    def rule_baseline(self, prepared: Prepared[ModelT]) -> Baseline:
        """The option values of the edition a prepared state is checked under (here: the declared defaults)."""
        declared = self.option_set()
        return Baseline(declared.defaults() if declared is not None else {})

    def map_schema(self, name: str, game_map: str) -> str:
        """``schema NAME --map MAP``: the schema ``name`` (one of :attr:`map_schemas`) knowing the names of a map."""
        raise NotImplementedError

    def describe(self, prepared: Prepared[ModelT], name: str) -> str | None:
        """What the prepared model knows of a name (a space, a unit ...), in a line: the language server's hover."""
        return None

    def forget_read_files(self) -> None:
        """Drop what the system keeps of files read once per process (a long-running caller's files change)."""

    def state_edit(self, before: object, after: object) -> object | None:
        """The language server (issue 37): what an edit of a state file changed, from its data ``before`` to
        ``after`` (each read without a finding), read once for every open orders file that reads the state and
        handed to :meth:`edit_can_change`; None: anything may have changed (every reader is checked again)."""
        return None

    def edit_can_change(self, edit: object, state_path: str, prepared: Prepared[ModelT], orders: object) -> bool:
        """Whether ``edit`` (:meth:`state_edit`, not None) of the state ``state_path`` can change the check of the
        orders ``orders`` (their data), last checked with ``prepared``: when it cannot, the server leaves them
        stale and checks them again when they are next asked for.  True unless the system knows better."""
        return True

    def battle_under(self, kind: str, data: object, item_in: Callable[[str], int | None]) -> int | None:
        """The language server's ``movecheck.showOdds`` (issue 42): the entry of a file under the cursor that is, or
        leads to, a battle (``item_in(key)``: the index of the entry of the top-level list ``key`` under the
        cursor); None: none is (a system without battles has none)."""
        return None

    def battle_odds(self, path: str, kind: str, data: object, item: int, kernel: object) -> tuple[object, str]:
        """The odds of the battle of entry ``item`` (:meth:`battle_under`) of the file ``path``, read through the
        kernel's readers (``kernel``: the run's services, ``check``): the battle as the system's odds command
        writes it in JSON and a short text; (None, why) when there is no battle there."""
        raise NotImplementedError

    def picture(self, loaded: Read, run: Drawing, reach: list[str] | None = None, around: str | None = None) -> str:
        """``movecheck render``: the SVG picture of a usable file of the system (when :attr:`draws`).

        ``run`` offers the run's services (``select``, ``prepare``, ``check``: :class:`Drawing`);
        ``reach``: what ``--reach`` names (systems that draw no reach refuse it);
        ``around``: what ``--around`` asks (``all``, or a margin; systems that do not crop ignore it);
        :class:`Unrenderable` when there is none.
        """
        raise NotImplementedError


# -- the registry ------------------------------------------------------------------------------


def _entry_points() -> dict[str, str]:
    """The systems other packages declare (group :data:`ENTRY_POINTS`): name -> ``module:attribute``.

    Read from the ``entry_points.txt`` of each installed distribution (``*.dist-info``,
    ``*.egg-info``) on ``sys.path``, the first one of a name winning, as
    :func:`importlib.metadata.entry_points` would find them; that module is not imported
    (it costs more than a whole run of a small file).
    """

    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            entries = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in entries:
            if not entry.endswith((".dist-info", ".egg-info")):
                continue
            try:
                text = Path(folder or ".", entry, "entry_points.txt").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if f"[{ENTRY_POINTS}]" in text:
                for name, reference in _group(text).items():
                    found.setdefault(name, reference)
    return {name: reference for name, reference in found.items() if name not in NAMES}


def _group(text: str) -> dict[str, str]:
    """The ``name = module:attribute`` lines of the group :data:`ENTRY_POINTS` in an ``entry_points.txt``."""
    found: dict[str, str] = {}
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == ENTRY_POINTS
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _sep, reference = line.partition("=")
            found[name.strip()] = reference.split("[", 1)[0].strip()  # extras are not a system's business
    return found


@cache
def _plugins() -> dict[str, str]:
    return _entry_points()


def names() -> tuple[str, ...]:
    """The ``system:`` values movecheck reads: the built-in systems, then those of entry points."""
    return (*NAMES, *sorted(_plugins()))


def known(name: Any) -> bool:
    """Is ``name`` the name of a system (a built-in one is told without reading entry points)?"""
    return isinstance(name, str) and (name in NAMES or name in _plugins())


AnySystem = System[object, object]
"""A system as the kernel holds it: its own model and outcome types are its business (the door)."""


@cache
def system(name: str) -> AnySystem:
    """The :class:`System` of ``system: name`` (one of :func:`names`); its lists of orders are declared to the
    documents (:func:`movecheck.document.declare_order_lists`) as it is loaded."""
    from movecheck.document import declare_order_lists

    if name in NAMES:
        declared = cast(AnySystem, importlib.import_module(f"movecheck.{name}").SYSTEM)
    else:
        declared = cast(AnySystem, resolve(_plugins()[name]))
    declare_order_lists(declared.order_lists or (declared.orders_key,))
    return declared


def system_of(kind: str) -> AnySystem:
    """The system of a file kind (``aa-orders`` -> aa)."""
    return system(kind.split("-", 1)[0])


def all_systems() -> list[AnySystem]:
    """Every system, in the order of :func:`names`."""
    return [system(name) for name in names()]


def option_sets() -> dict[str, OptionSet]:
    """Every system's options, by system name (light: no rule engine is imported)."""
    found = {declared.name: declared.option_set() for declared in all_systems()}
    return {name: options for name, options in found.items() if options is not None}


def choices(words: list[str]) -> str:
    """``aa, maneuver or mc``: a list of names to choose from, in the language spoken."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + _(" or ") + words[-1]


def orders_signs(declared: System[ModelT, FinalT]) -> tuple[str, ...]:
    """The keys that make a file with no ``kind:`` orders: the system's markers and ``state``."""
    return (*declared.orders_markers, ORDERS_REFERENCE)


def orders_look(data: Any, missing: str) -> str:
    """`` (this looks like an orders file: it has power, phase, state)`` when a file with
    orders keys lacks ``missing``, its system's list of orders; else nothing."""
    if not isinstance(data, dict) or not known(data.get("system")):
        return ""
    declared = system(data["system"])
    has = [str(key) for key in data if key in orders_signs(declared)]
    if missing != declared.orders_key or not has:
        return ""
    return " " + _("(this looks like an orders file: it has {keys})").format(keys=", ".join(has))


@cache
def orders_keys() -> tuple[str, ...]:
    """The key of the orders list of every system: a finding under it names its order."""
    return tuple(key for declared in all_systems() for key in (declared.order_lists or (declared.orders_key,)))


@cache
def state_markers() -> tuple[str, ...]:
    """Keys that make a file a state whatever else it has, over every system."""
    return tuple(key for declared in all_systems() for key in declared.state_markers)


def merge_options(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``; mappings (dice, penalties) are merged key by key."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def resolve_rules(
    system: AnySystem,
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
        sources.update(
            {f"{key}.{entry}": source for key, value in layer.items() if isinstance(value, dict) for entry in value}
        )
    return RuleSettings(edition, options, sources, edition_source)
