"""Mobilization orders (aa-turn.md, "Mobilization"): read a mobilization file, check it, carry it out.

A mobilization file (``phase: mobilize``; ``place: [{at, units, from?, fighters_from?}]``) is read
against a state at its mobilize phase into a :class:`Mobilization`: each placement's space and
unit types resolved as players write them (``SZ 5``, ``inf``), the factory it names (``from:``)
and the fighters it moves onto a new carrier (``fighters_from:``).  The clauses of
:mod:`movecheck.aa.checks.mobilize` judge each placement (occasion ``mobilize/place``), then the
file as a whole (``mobilize/end``); each placement is an order.  The capacity of the factories
with sea placements that may draw on several of them is an exact assignment (:func:`assign`,
a small max-flow), never a greedy guess.

A name the map does not know, a count that is not a whole number or a file for another power or
phase is an input problem (MC003, MC004, MC006) that leaves the whole mobilization unchecked:
the clauses on the file (capacity, units waiting) need every placement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa import clause_index as _clause_index  # noqa: F401  (each clause family imported when needed)
from movecheck.aa.model import Board
from movecheck.aa.units import Unit
from movecheck.clauses import CATALOGUE, Severity
from movecheck.findings import make_finding
from movecheck.i18n import N_, _
from movecheck.systems import Outcome

if TYPE_CHECKING:
    from movecheck.aa.model import Board
    from movecheck.document import Document
    from movecheck.findings import Finding
    from movecheck.systems import Outcome, Prepared

PLACE, END = "mobilize/place", "mobilize/end"
"""The occasions of the mobilization clauses: each placement, then the file as a whole."""


@dataclass
class Placement:
    """One entry of ``place:``, its names resolved."""

    index: int
    at: str
    units: dict[str, int]
    keys: dict[str, str] = field(default_factory=dict)
    """Unit type -> the key the file wrote it under (``inf``)."""
    source: str | None = None
    """The factory territory ``from:`` names (None: any eligible one)."""
    fighters_from: dict[str, int] = field(default_factory=dict)
    """Territory -> existing fighters moved onto the new carrier (AA709)."""

    @property
    def where(self) -> tuple[Any, ...]:
        return ("place", self.index)

    def unit_where(self, kind: str) -> tuple[Any, ...]:
        return (*self.where, "units", self.keys.get(kind, kind))


@dataclass
class ZoneSlots:
    """A sea zone's carrier slots and the fighters that want them (:meth:`Mobilization.slots`).

    A fighter that waited there for a bought carrier (AA708) takes a slot on a carrier placed in the zone
    first (it was there first); the new fighters (AA705) and those moved by ``fighters_from:`` (AA709)
    share the slots left on the new carriers and, where ``new_fighters_on_old_carriers``, the free slots of
    the power's carriers already there (``old_free`` is 0 otherwise).
    """

    new_slots: int = 0
    old_free: int = 0
    waiting: int = 0
    new_fighters: int = 0
    moved: int = 0

    @property
    def waiting_seated(self) -> int:
        """The waiting fighters that find a slot on a new carrier."""
        return min(self.waiting, self.new_slots)

    @property
    def left(self) -> int:
        """The slots left for the new and the moved fighters."""
        return self.new_slots - self.waiting_seated + self.old_free


@dataclass
class Mobilization:
    """A mobilization file read against its state: the placements and what they draw on."""

    board: Board
    doc: Document
    placements: list[Placement] = field(default_factory=list)
    waiting: dict[str, int] = field(default_factory=dict)
    """The units of the power waiting to be placed (``purchased:`` and its ``to_place:``), by type."""
    from_purchased: dict[str, int] = field(default_factory=dict)
    """Of those, the ones bought this turn (``purchased:``)."""

    @property
    def power(self) -> str:
        return self.board.power

    def ipc_value(self, space: str) -> int:
        return self.board.map.production.get(space, 0)

    def factory(self, space: str) -> Unit | None:
        """The power's factory in ``space``, if it has one there."""
        return next((u for u in self.board.units_at(space) if u.type.is_factory and u.power == self.power), None)

    def eligible(self, space: str) -> bool:
        """A territory whose factory mobilizes this turn: the power's factory, held since the start of the turn."""
        return (not self.board.is_sea(space) and self.factory(space) is not None
                and self.board.control.get(space) == self.power and space not in self.board.captured)

    def capacity(self, space: str) -> int:
        """How many units the factory in ``space`` mobilizes: the IPC value less its damage, never below 0."""
        factory = self.factory(space)
        return max(self.ipc_value(space) - (factory.damage if factory else 0), 0)

    def sources(self, zone: str) -> list[str]:
        """The eligible factory territories next to a sea zone, in map order."""
        return [s for s in self.board.map.neighbours(zone) if self.eligible(s)]

    def placed(self) -> dict[str, int]:
        """Every unit placed, by type."""
        total: dict[str, int] = {}
        for placement in self.placements:
            for kind, count in placement.units.items():
                total[kind] = total.get(kind, 0) + count
        return total

    def counted(self, placement: Placement) -> int:
        """The units of a placement that count against a factory's capacity (all but new factories)."""
        types = self.board.map.unit_types
        return sum(n for kind, n in placement.units.items() if not types[kind].is_factory)

    def slots(self, zone: str) -> ZoneSlots:
        """The carrier slots of a sea zone and the fighters that want them, over the whole file (AA705, AA708,
        AA709): the order of the entries never changes them."""
        types, units = self.board.map.unit_types, self.board.units_at(zone)
        found = ZoneSlots()
        for placement in (p for p in self.placements if p.at == zone):
            found.new_fighters += sum(n for k, n in placement.units.items() if types[k].is_fighter)
            found.new_slots += sum(types[k].carrier_capacity * n for k, n in placement.units.items()
                                   if types[k].is_carrier)
            found.moved += sum(placement.fighters_from.values())
        if self.board.options["new_fighters_on_old_carriers"]:
            found.old_free = sum(max(u.type.carrier_capacity - sum(c.type.carrier_cost for c in u.cargo
                                                                   if c.type.is_air), 0)
                                 for u in units if u.type.is_carrier and u.power == self.power)
        found.waiting = sum(1 for u in units if u.type.is_fighter and u.power == self.power and u.aboard is None)
        return found

    def standing_fighters(self, space: str) -> list[Unit]:
        """The power's fighters in a territory at the start of the mobilization: those AA709 may move."""
        return [u for u in self.board.units_at(space) if u.type.is_fighter and u.power == self.power]

    def left_unplaced(self) -> dict[str, int]:
        """The units waiting that the file does not place, by type."""
        placed = self.placed()
        return {k: n - placed.get(k, 0) for k, n in sorted(self.waiting.items()) if n > placed.get(k, 0)}


def allowed_sources(mob: Mobilization, placement: Placement) -> list[str]:
    """The factories a placement may draw on: its own territory on land; at sea the eligible factories next to
    the zone, narrowed to ``from:`` (or to the territory the fighters of ``fighters_from:`` come from)."""
    board = mob.board
    if not board.is_sea(placement.at):
        return [placement.at] if mob.eligible(placement.at) else []
    found = mob.sources(placement.at)
    named = placement.source or (next(iter(placement.fighters_from)) if len(placement.fighters_from) == 1 else None)
    return [s for s in found if s == named] if named else found


def assign(mob: Mobilization) -> tuple[dict[int, dict[str, int]], list[str]]:
    """An assignment of every placement's units to factories within their capacities, when one exists.

    Returns the assignment (placement index -> factory -> units) and the factories over capacity in the
    best one found (none: every factory is within its limit).  A max-flow over placements and
    factories (augmenting paths; a few dozen units at most), so a sea zone bordering several
    factories draws on whichever keeps all within limits.
    """
    options = {p.index: allowed_sources(mob, p) for p in mob.placements}
    factories = sorted({s for found in options.values() for s in found})
    room = {s: mob.capacity(s) for s in factories}
    counted = {p.index: mob.counted(p) for p in mob.placements}
    # beyond the capacity of every factory it may use, a placement overflows whatever the others do
    demand = {i: min(n, sum(room[s] for s in options[i]) + 1) for i, n in counted.items()}
    flow: dict[int, dict[str, int]] = {i: {} for i in demand}

    def augment(index: int) -> bool:
        """Find room for one more unit of placement ``index``, moving others if needed (DFS over factories)."""
        seen: set[str] = set()

        def visit(i: int) -> bool:
            for source in options[i]:
                if source in seen:
                    continue
                seen.add(source)
                if room[source] > 0:
                    room[source] -= 1
                    flow[i][source] = flow[i].get(source, 0) + 1
                    return True
                for other, used in flow.items():  # a unit of another placement there might move elsewhere
                    if used.get(source) and other != i and visit(other):
                        used[source] -= 1
                        flow[i][source] = flow[i].get(source, 0) + 1
                        return True
            return False

        return visit(index)

    short: dict[str, int] = {}
    for index in sorted(demand):
        if options[index] and counted[index] > demand[index]:  # the units not searched for overflow at once
            first = options[index][0]
            flow[index][first] = flow[index].get(first, 0) + counted[index] - demand[index]
        for _unit in range(demand[index]):
            if not options[index]:
                break
            if not augment(index):
                first = options[index][0]
                flow[index][first] = flow[index].get(first, 0) + 1
                short[first] = short.get(first, 0) + 1
    return flow, sorted(short)


def load(doc: Document, prepared: Prepared[Board]) -> tuple[Mobilization, list[Finding]]:
    """The mobilization file read against its state; the input problems found on the way."""
    from movecheck.aa.turn.purchase import _waiting as waiting_units  # purchased: and the power's to_place:
    board = prepared.ready().copy()
    mob = Mobilization(board, doc)
    problems = _mismatch(doc, prepared) + _read(doc, mob)
    mob.from_purchased = dict(board.purchased)
    mob.waiting = {k: n for k, n in waiting_units(prepared.doc, board).items() if n > 0}
    return mob, problems


def check_mobilize(doc: Document, prepared: Prepared[Board], valid: set[int] | None = None) -> Outcome[object]:
    """Check a mobilization file against its mobilize state; ``final`` is the :class:`Mobilization` once checked.

    ``valid``: the placements (1-based) the schema found nothing wrong with; a file with any other (or a
    ``place:`` that is not a list) is not checked: the clauses on the file need every placement.
    """

    raw = doc.get("place", default=[])
    outcome: Outcome[object] = Outcome(orders=len(raw) if isinstance(raw, list) else 0)
    mob, problems = load(doc, prepared)
    outcome.findings.extend(problems)
    malformed = not isinstance(raw, list) or (valid is not None and set(range(1, len(raw) + 1)) - valid)
    if malformed or any(f.severity is Severity.ERROR for f in problems):
        outcome.reason = _("the mobilization could not be read against the state")
        return outcome
    for placement in mob.placements:
        for clause in CATALOGUE.running("aa", PLACE):
            for violation in clause.run(placement, mob):
                outcome.findings.append(_finding(doc, violation.where, violation, placement.index + 1))
        outcome.checked.add(placement.index + 1)
    for clause in CATALOGUE.running("aa", END):
        for violation in clause.run(mob):
            outcome.findings.append(_finding(doc, violation.where, violation, violation.order))
    outcome.final = mob
    return outcome


def _finding(doc: Document, where: tuple[Any, ...], violation: Any, order: int | None) -> Finding:
    line, column = doc.key_pos(where) if len(where) <= 1 else doc.pos(where)
    severity = Severity(violation.severity) if violation.severity else None
    return make_finding(violation.code or "", violation.message, file=doc.path, line=line, column=column,
                        order=order, severity=severity)


def _mismatch(doc: Document, prepared: Prepared[Board]) -> list[Finding]:
    """MC006 when the file is for another power or the state is not at its mobilize phase; MC004 for a power unknown."""
    from movecheck.aa.setup import wrong_power

    board = prepared.ready()
    found = wrong_power(doc, board.map, board.power, _("the mobilization is for the {power}, but the state is at the "
                                                       "turn of the {turn}"))
    phase = (prepared.doc.get("turn", default={}) or {}).get("phase")
    if phase != "mobilize":
        found.append(doc.finding("MC006", _("a mobilization needs a state at its mobilize phase (turn.phase: mobilize, "
                                            "written by apply of a noncombat move); the state is at {phase}").format(
            phase=phase), ("phase",)))
    return found


def _read(doc: Document, mob: Mobilization) -> list[Finding]:
    """The placements, names resolved: MC004 for a name the map does not know, MC003 for a count that is not a
    whole number of at least 1 (the schema says so too: the file is then unchecked)."""
    from movecheck.aa.setup import MAX_UNITS, unknown_space, unknown_type

    board = mob.board
    problems: list[Finding] = []
    raw = doc.get("place", default=[])
    for index, entry in enumerate(raw if isinstance(raw, list) else []):
        where: tuple[Any, ...] = ("place", index)
        if not isinstance(entry, dict) or not isinstance(entry.get("at"), str):
            problems.append(doc.finding("MC003", _("a placement needs at: (a space) and units:"), where))
            continue
        space = board.map.resolve(entry["at"])
        if space is None:
            problems.append(unknown_space(doc, board.map, entry["at"], (*where, "at")))
        source = None
        if isinstance(entry.get("from"), str):
            source = board.map.resolve(entry["from"])
            if source is None:
                problems.append(unknown_space(doc, board.map, entry["from"], (*where, "from")))
        units, keys = _counts(doc, entry, (*where, "units"), board.map.resolve_type,
                              lambda name, at: unknown_type(doc, board.map, name, at, key=True), problems)
        fighters, _keys = _counts(doc, entry, (*where, "fighters_from"), board.map.resolve,
                                  lambda name, at: unknown_space(doc, board.map, name, at), problems)
        if space is not None:
            mob.placements.append(Placement(index, space, units, keys, source, fighters))
    if sum(sum(p.units.values()) + sum(p.fighters_from.values()) for p in mob.placements) > MAX_UNITS:
        problems.append(doc.finding("MC008", _("the mobilization places more than {limit} units; raise "
                                               "MOVECHECK_MAX_UNITS to read it").format(limit=MAX_UNITS), ("place",)))
    return problems


def _counts(doc: Document, entry: dict[str, Any], where: tuple[Any, ...], resolve: Callable[[Any], str | None],
            unknown: Callable[[Any, tuple[Any, ...]], Finding],
            problems: list[Finding]) -> tuple[dict[str, int], dict[str, str]]:
    """A mapping of names to counts (``units:``, ``fighters_from:``), names resolved, and the key each was written
    under; MC003 for a count that is not a whole number of at least 1, ``unknown`` for a name not resolved, MC002
    for a key naming what an earlier key named."""
    from movecheck.aa.setup import repeated_key, whole

    found: dict[str, int] = {}
    keys: dict[str, str] = {}
    written = entry.get(where[-1])
    for name, count in (written if isinstance(written, dict) else {}).items():
        meant = resolve(name)
        if whole(count) is None or count < 1:
            problems.append(doc.finding("MC003", _(NOT_A_COUNT).format(name=name, count=count), (*where, name)))
        elif meant is None:
            problems.append(unknown(name, (*where, name)))
        elif meant in keys:  # two keys naming one thing: never both read (MC002)
            problems.append(repeated_key(doc, (*where, name), meant, keys[meant]))
        else:
            found[meant] = count
            keys[meant] = name
    return found, keys


NOT_A_COUNT = N_("{name}: the count must be a whole number of at least 1, not {count}")


__all__ = ["END", "PLACE", "Mobilization", "Placement", "ZoneSlots", "allowed_sources", "assign", "check_mobilize",
           "load"]
