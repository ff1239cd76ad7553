"""Reading one order into a move: names resolved, units chosen, the path's shape understood."""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from movecheck.aa.choice import Chooser, classes, selection_key, selections
from movecheck.aa.model import Board
from movecheck.aa.setup import unknown_space, unknown_type
from movecheck.aa.units import Unit, describe, readiness
from movecheck.document import Document
from movecheck.findings import Finding
from movecheck.fixes import replacements
from movecheck.i18n import _
from movecheck.records import dataclass_on_first_use
from movecheck.suggest import close_names
from movecheck.suggest import did_you_mean as suggestion

DocPath = tuple[Any, ...]


@dataclass_on_first_use
class Short:
    """Units an order names by type and count: ``count`` asked for, of which ``found`` of the
    mover's could start the move (fewer than asked: AA102 or AA103 says why)."""

    kind: str
    count: int
    found: int
    where: DocPath


@dataclass
class Move:
    """One order of the file, resolved against the board as earlier orders left it."""

    index: int
    where: DocPath
    order_id: str | None
    path: list[str]
    units: list[Unit] = field(default_factory=list)
    riders: list[Unit] = field(default_factory=list)
    transport: Unit | None = None
    attack: str | None = None
    raid: bool = False
    """``raid: true``: bombers that raid the factory where the order ends (aa-battle.md, "Strategic bombing raids")."""
    untaken: list[tuple[Unit, DocPath]] = field(default_factory=list)
    """The units it names by id that it did not take: not at its start (AA102) or not the mover's (AA103)."""
    short: list[Short] = field(default_factory=list)
    """The unit types it names by count of which fewer than asked could start the move (AA102, AA103)."""
    unit_keys: dict[int, DocPath] = field(default_factory=dict)
    counted: set[int] = field(default_factory=set)
    """The units chosen by type and count (uids), not named by id."""
    short_by_choice: bool = False
    """Some of its units lack movement (AA104) that another choice of units might spare (set by the engine)."""
    at_sea: bool = False
    """It starts in a sea zone."""

    @property
    def start(self) -> str:
        return self.path[0]

    @property
    def end(self) -> str:
        return self.path[-1]

    def step(self, k: int) -> DocPath:
        """Document path of the k-th space of the path."""
        return (*self.where, "path", min(max(k, 0), len(self.path) - 1))

    def units_node(self, unit: Unit | None = None) -> DocPath:
        """Document path of the ``units:`` entry that named a unit."""
        if unit is not None and unit.uid in self.unit_keys:
            return self.unit_keys[unit.uid]
        return (*self.where, "units")

    def of_domain(self, domain: str) -> list[Unit]:
        return [u for u in self.units if u.type.domain == domain]

    def land_movers(self) -> list[Unit]:
        """Its land units whose move is not over: a unit unloaded earlier this phase is AA403's alone."""
        return [u for u in self.units if u.type.is_land and not u.unloaded_now]

    def groups(self) -> list[list[Unit]]:
        """The moving units grouped by type, in a stable order."""
        by_type: dict[str, list[Unit]] = {}
        for unit in self.units:
            by_type.setdefault(unit.type.name, []).append(unit)
        return list(by_type.values())

    def label(self, units: list[Unit] | None = None) -> str:
        return describe(self.units if units is None else units)


@dataclass(frozen=True)
class LandRoute:
    """How a land unit's path reads: a walk, a load, an unload, or both."""

    walk: int = 0
    load_at: int | None = None
    unload_at: int | None = None
    bad_step: int | None = None
    problem: str = ""

    @property
    def cost(self) -> int:
        return self.walk + (1 if self.load_at is not None else 0)


ROUTES_KEPT = 4096
"""Paths whose land route a map keeps (:func:`land_route`); past this many, the memo starts again."""


def land_route(board: Board, path: list[str]) -> LandRoute:
    """Read a land unit's path: land steps, then at most one sea zone to load at, then one unload.

    It depends on the map alone (which spaces are sea), so each map keeps the routes it has read (issue 37: the
    clauses ask for an order's route a dozen times a run)."""
    memo = board.map.land_routes
    key = tuple(path)
    found = memo.get(key)
    if found is None:
        if len(memo) >= ROUTES_KEPT:
            memo.clear()
        found = memo[key] = _read_route(board, path)
    return found


def _read_route(board: Board, path: list[str]) -> LandRoute:
    sea = [board.is_sea(s) for s in path]
    if sea[0]:
        if len(path) > 1 and not sea[1]:
            if len(path) > 2:
                return LandRoute(unload_at=1, bad_step=2, problem="after_unload")
            return LandRoute(unload_at=1)
        return LandRoute(bad_step=1, problem="at_sea")
    k = 1
    while k < len(path) and not sea[k]:
        k += 1
    walk = k - 1
    if k == len(path):
        return LandRoute(walk)
    if k + 1 < len(path):
        if sea[k + 1]:
            return LandRoute(walk, k, bad_step=k + 1, problem="at_sea")
        if k + 2 < len(path):
            return LandRoute(walk, k, k + 1, bad_step=k + 2, problem="after_unload")
        return LandRoute(walk, k, k + 1)
    return LandRoute(walk, k)


def carried(vessel: Unit) -> list[Unit]:
    """What a transport or carrier takes along when it moves: its land cargo, and the fighters aboard
    it that have not moved by themselves (aboard since the phase began, or landed on it this phase).

    A fighter that flew this phase has left its carrier; one at sea with ``moved:`` in a noncombat
    state is in flight after its battle (seated on the carrier only for the count of slots).
    """
    return [u for u in vessel.cargo if not u.type.is_fighter or u.landed or not u.moved]


def resolve_move(
    doc: Document, board: Board, raw: Any, index: int, chooser: Chooser | None = None
) -> tuple[Move | None, list[Finding]]:
    """A move for the order at ``index`` (0-based), or None with MC004 findings when names fail.

    ``chooser`` decides which units a type-and-count order moves (default: the greedy choice).
    """
    where: DocPath = ("moves", index)
    findings: list[Finding] = []
    if not isinstance(raw, dict):
        return None, findings
    order_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    path_raw = raw.get("path")
    path: list[str] = []
    if isinstance(path_raw, list):
        for k, name in enumerate(path_raw):
            space = board.map.resolve(name)
            if space is None:
                findings.append(unknown_space(doc, board.map, name, (*where, "path", k)))
            path.append(space or "")
    move = Move(index=index + 1, where=where, order_id=order_id, path=path)
    units_raw = raw.get("units")
    wanted_types: list[tuple[str, int, DocPath]] = []
    wanted_ids: list[tuple[Unit, DocPath]] = []
    if isinstance(units_raw, dict):
        for name, count in units_raw.items():
            kind = board.map.resolve_type(name)
            if kind is None:
                findings.append(unknown_type(doc, board.map, name, (*where, "units", name), key=True))
            elif isinstance(count, int) and not isinstance(count, bool) and count > 0:
                wanted_types.append((kind, count, (*where, "units", name)))
    elif isinstance(units_raw, list):
        for k, unit_id in enumerate(units_raw):
            unit = board.by_id.get(unit_id) if isinstance(unit_id, str) else None
            if unit is None:
                close = close_names(unit_id, board.by_id, n=3, charge=doc) if isinstance(unit_id, str) else []
                hint = suggestion(close)
                message = _("no unit has the id {id}").format(id=repr(unit_id)) + hint
                findings.append(doc.finding("MC004", message, (*where, "units", k),
                                            fixes=replacements(doc, (*where, "units", k), close)))
            else:
                wanted_ids.append((unit, (*where, "units", k)))
    transport_raw = raw.get("transport")
    if isinstance(transport_raw, str):
        move.transport = board.by_id.get(transport_raw)
        if move.transport is None or not move.transport.type.is_transport:
            what = _("no unit has the id {id}") if move.transport is None else _("no transport has the id {id}")
            findings.append(
                doc.finding("MC004", "transport: " + what.format(id=repr(transport_raw)), (*where, "transport"))
            )
            move.transport = None
    move.raid = raw.get("raid") is True
    attack_raw = raw.get("attack")
    if attack_raw is True and path and path[-1]:
        move.attack = path[-1]
    elif isinstance(attack_raw, str):
        move.attack = board.map.resolve(attack_raw)
        if move.attack is None:
            findings.append(unknown_space(doc, board.map, attack_raw, (*where, "attack")))
    if len(path) < 2 or not all(path) or (not wanted_types and not wanted_ids):
        return None, findings
    move.at_sea = board.is_sea(path[0])
    _select(board, move, wanted_types, wanted_ids, chooser or Chooser())
    return move, findings


def others_at(board: Board, space: str, kind: str) -> list[Unit]:
    """The units of a type at a space that other powers than the mover's could start a move with."""
    return [u for u in _candidates(board, space, kind, None) if u.power != board.power]


def _candidates(board: Board, space: str, kind: str, power: str | None) -> list[Unit]:
    """Units of a type at a space able to start a move there (cargo at sea, fighters aboard included)."""
    found = []
    for unit in board.units_at(space):
        if unit.type.name != kind or (power is not None and unit.power != power):
            continue
        if unit.aboard is not None and not board.is_sea(space):
            continue
        found.append(unit)
    return found


WATCHED_STACK = 64
"""The most units a space may hold for a greedy run to compare its choice there with the spread try's
(:attr:`~movecheck.aa.choice.Chooser.watch`): the comparison scans the space's units, so on a bigger stack the run
just says the try chooses otherwise from that order on (the try goes back there: the same verdict, a longer try),
and a file of many moves out of one big stack costs each move its own size (tests/test_cost.py)."""


def _spread_choice(board: Board, move: Move, kind: str, chosen: list[Unit], taken: set[int]) -> list[Unit]:
    """The spread try's units for a land move that the greedy run gives ``chosen``: walkers from a territory, cargo
    from a sea zone."""
    if board.is_sea(move.start):
        return _same_shore(board, move, kind, chosen, taken)
    return _least_sufficient(board, move, kind, chosen, taken)


def _least_sufficient(board: Board, move: Move, kind: str, chosen: list[Unit], taken: set[int]) -> list[Unit]:
    """The spread try's walkers (issue 37): as ready as the greedy ones, but of those with the movement the walk
    needs, the ones with the least left first, so that a later, longer walk from the same space finds the
    freshest units still there (a step on for the tanks that drove in, two steps for the fresh ones)."""
    if any(board.is_sea(space) for space in move.path):
        return chosen
    need = len(move.path) - 1
    worst = max(readiness(u)[:4] for u in chosen)
    power = board.power
    keyed: list[tuple[tuple[Any, ...], Unit]] = []  # each unit's key read once (the greedy run asks every order)
    for unit in board.units_at(move.start):
        if unit.type.name != kind or unit.power != power or unit.aboard is not None or unit.uid in taken:
            continue
        ready = readiness(unit)[:4]
        if ready <= worst:
            left = unit.left
            keyed.append(((ready, left < need, left if left >= need else -left, unit.uid), unit))
    if len(keyed) < len(chosen):
        return chosen
    keyed.sort(key=_first)  # the keys end with the unit's uid: no two alike
    return [unit for _key, unit in keyed[:len(chosen)]]


def _first(entry: tuple[tuple[Any, ...], Unit]) -> tuple[Any, ...]:
    return entry[0]


def _same_shore(board: Board, move: Move, kind: str, chosen: list[Unit], taken: set[int]) -> list[Unit]:
    """The spread try's cargo to unload (issue 37): as ready as the greedy ones, but off transports that unloaded
    into this territory already first, then off ones that unloaded nowhere yet (a transport unloads into one
    territory a turn: cargo taken off one that unloaded elsewhere is AA404 where another choice may avoid it)."""
    if len(move.path) < 2 or board.is_sea(move.path[1]):
        return chosen
    target = move.path[1]
    worst = max(readiness(u)[:4] for u in chosen)
    pool = [u for u in board.units_at(move.start) if u.type.name == kind and u.power == board.power
            and u.aboard is not None and u.uid not in taken and readiness(u)[:4] <= worst]

    def shore(unit: Unit) -> int:
        done = unit.aboard.unloaded_to if unit.aboard is not None else None
        return 0 if done == target else 1 if done is None else 2

    pool.sort(key=lambda u: (readiness(u)[:4], shore(u), u.uid))
    return pool[:len(chosen)] if len(pool) >= len(chosen) else chosen


def _most_ready(board: Board, space: str, kind: str, count: int, taken: set[int]) -> list[Unit]:
    """The ``count`` units the moving power can start a move with, most ready first: the first
    ``count`` of its :func:`_candidates` not in ``taken``, sorted by :func:`readiness`.

    Taken from the board's readiness heap, so a move costs its own size (times a log), not
    the size of the stack it starts from.
    """
    heap = board.ready(space, kind, board.power)
    sea = board.is_sea(space)
    chosen: list[Unit] = []
    kept: list[tuple[tuple[Any, ...], Unit]] = []
    seen: set[int] = set()
    while heap and len(chosen) < count:
        key, unit = heapq.heappop(heap)
        if unit.at != space or unit.uid in seen:
            continue  # it left (an arrival pushes it again), or its entry was a spare copy
        current = readiness(unit)
        if current != key:  # it moved and came back, or is done or in battle now: a later key
            heapq.heappush(heap, (current, unit))
            continue
        seen.add(unit.uid)
        kept.append((key, unit))  # choosing a unit does not take it off the board
        if unit.uid not in taken and not (unit.aboard is not None and not sea):
            chosen.append(unit)
    for entry in kept:
        heapq.heappush(heap, entry)
    return chosen


def _aboard_the_carriers(board: Board, move: Move, kind: str, count: int, taken: set[int]) -> list[Unit]:
    """Up to ``count`` of the mover's fighters of this type that the carriers chosen for the move carry."""
    vessels = [u for u in move.units if u.type.is_carrier]
    found = [
        u for v in vessels for u in carried(v) if u.type.name == kind and u.power == board.power and u.uid not in taken
    ]
    return sorted(found, key=readiness)[:count]


def _alternatives(
    board: Board, space: str, kind: str, count: int, taken: set[int], chooser: Chooser
) -> Iterator[list[Unit]]:
    """Every choice of ``count`` units of a type the moving power can start a move with (search only)."""
    found = [u for u in _candidates(board, space, kind, board.power) if u.uid not in taken]
    chooser.charge(len(found))
    if len(found) <= count:
        return iter(())
    found.sort(key=readiness)
    return selections(classes(found), count)


def _select(
    board: Board, move: Move, wanted_types: list[tuple[str, int, DocPath]], wanted_ids: list[tuple[Unit, DocPath]],
    chooser: Chooser,
) -> None:
    taken: set[int] = set()
    for unit, node in wanted_ids:
        if unit.at != move.start or unit.power != board.power:
            move.untaken.append((unit, node))
        elif unit.uid not in taken:
            taken.add(unit.uid)
            move.units.append(unit)
            move.unit_keys[unit.uid] = node
    # carriers first, so that fighters named by count with them are their cargo where it can be
    wanted_types = sorted(wanted_types, key=lambda w: not board.map.unit_types[w[0]].is_carrier)
    for kind, count, node in wanted_types:
        chosen = _aboard_the_carriers(board, move, kind, count, taken)
        if len(chosen) < count:
            chosen += _most_ready(board, move.start, kind, count - len(chosen), taken | {u.uid for u in chosen})
        if (chooser.spread or chooser.watching) and len(chosen) == count and board.map.unit_types[kind].is_land:
            if chooser.spread:
                chosen = _spread_choice(board, move, kind, chosen, taken)
            elif len(board.units_at(move.start)) > WATCHED_STACK:
                chooser.differs(move.index)  # the try goes back to here rather than scan a big stack every order
            elif [id(u) for u in _spread_choice(board, move, kind, chosen, taken)] != [id(u) for u in chosen]:
                chooser.differs(move.index)
        if chooser.searching and len(chosen) == count:
            chosen = chooser.pick(
                move.index,
                chosen,
                functools.partial(_alternatives, board, move.start, kind, count, taken, chooser),
                selection_key,
            )
        for unit in chosen:
            taken.add(unit.uid)
            move.units.append(unit)
            move.unit_keys[unit.uid] = node
            move.counted.add(unit.uid)
        if len(chosen) < count:
            move.short.append(Short(kind, count, len(chosen), node))
