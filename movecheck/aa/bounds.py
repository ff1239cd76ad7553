"""Counting bounds read off the orders before any search: errors no choice of units, transports or carriers avoids.

The choice search (:mod:`movecheck.aa.choice`) stops as soon as a choice has as few errors
as a lower bound says every choice has.  :class:`~movecheck.aa.overloads.Overloads` bounds the
loads of each sea zone while the phase is carried out; the bounds here are read off the
written orders and the board as the phase began, so they hold for every run, whatever it chose:

* **movement** (AA104 and the like): the orders walking units of a type out of a land space,
  against the movement those units can have there (the ones standing there, and the ones
  earlier orders walk in, with what their walk leaves them);
* **unloads** (AA404): the territories the orders unload into from a sea zone, against the
  transports that can be there (each unloads into one territory a turn);
* **carrier slots** (AA304): the fighters the noncombat orders fly into a sea zone, against the
  slots of the carriers there (when nothing sails and no carrier is bought).

Each bound proves at least one error among its own orders (a land space's walks, a zone's
unloads, a zone's fighters), orders no other bound counts, so the bounds add up.  An order
that cannot be read (an unknown space, type or id) switches every bound off: it proves nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from movecheck.aa.model import Board
from movecheck.records import dataclass_on_first_use


@dataclass_on_first_use(frozen=True)
class Order:
    """One written order as the bounds read it: the spaces of its path and how many units of each type it moves."""

    path: tuple[str, ...]
    units: dict[str, int]


def read_orders(raw_moves: Any, board: Board) -> list[Order] | None:
    """The orders, or None when one of them cannot be read (no bound then)."""
    if not isinstance(raw_moves, list):
        return None
    found = []
    for raw in raw_moves:
        order = _read(raw, board)
        if order is None:
            return None
        found.append(order)
    return found


def _read(raw: Any, board: Board) -> Order | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("path"), list) or len(raw["path"]) < 2:
        return None
    path = [board.map.resolve(name) if isinstance(name, str) else None for name in raw["path"]]
    if any(space is None for space in path):
        return None
    units: dict[str, int] = {}
    written = raw.get("units")
    if isinstance(written, dict):
        for name, count in written.items():
            kind = board.map.resolve_type(name) if isinstance(name, str) else None
            if kind is None or not isinstance(count, int) or isinstance(count, bool) or count <= 0:
                return None
            units[kind] = units.get(kind, 0) + count
    elif isinstance(written, list) and written:
        for unit_id in written:
            unit = board.by_id.get(unit_id) if isinstance(unit_id, str) else None
            if unit is None:
                return None
            units[unit.type.name] = units.get(unit.type.name, 0) + 1
    else:
        return None
    return Order(tuple(s for s in path if s is not None), units)


def least_errors(raw_moves: Any, board: Board, combat: bool) -> int:
    """Errors every choice gives, by counting (0 when nothing is proved): ``board`` as the phase began."""
    orders = read_orders(raw_moves, board)
    if orders is None:
        return 0
    found = len(short_of_movement(orders, board)) + len(short_of_transports(orders, board))
    if not combat:
        found += len(short_of_slots(orders, board))
    return found


# -- movement ----------------------------------------------------------------------------


def _kinds(board: Board, order: Order) -> list[Any]:
    return [board.map.unit_types[name] for name in order.units if name in board.map.unit_types]


def _walks(board: Board, order: Order) -> bool:
    """The order walks land units over land only (each step costs each of them one point)."""
    kinds = _kinds(board, order)
    return (len(kinds) == len(order.units) and all(k.is_land for k in kinds)
            and not any(board.is_sea(space) for space in order.path))


def short_of_movement(orders: list[Order], board: Board) -> set[str]:
    """Land spaces some walk out of which errs whatever the choice: for some type and threshold m, the units the
    walks needing m or more take out of it outnumber the departures with m left that its units can make.

    A unit with L movement left leaves the space on at most L // m walks costing m or more (each costs what it
    walks); one an earlier order brings in has at most the most any unit of its type has left when the phase
    begins, less the cost of that walk in (an arrival by sea: nothing less).  A walk that errs may take any
    unit; a walk with no error takes units standing there with the movement it needs, and spends it."""
    power = board.power
    best: dict[str, int] = {}
    for unit in board.units:
        if unit.power == power and unit.type.is_land:
            best[unit.type.name] = max(best.get(unit.type.name, 0), unit.left)
    short: set[str] = set()
    walks: dict[tuple[str, str], list[tuple[int, int]]] = {}
    arrivals: dict[tuple[str, str], list[int]] = {}
    """The cost of the walk in of each unit the orders bring into a space, by (space, type)."""
    for order in orders:
        walking = _walks(board, order)
        for kind, count in order.units.items():
            if walking:
                walks.setdefault((order.path[0], kind), []).append((len(order.path) - 1, count))
            arrivals.setdefault((order.path[-1], kind), []).extend([len(order.path) - 1 if walking else 0] * count)
    for (space, kind), needs in walks.items():
        lefts = [u.left for u in board.units_at(space) if u.power == power and u.type.name == kind]
        lefts += [best.get(kind, 0) - cost for cost in arrivals.get((space, kind), [])]
        if any(_outnumbered(needs, lefts, least) for least in {need for need, _ in needs if need > 0}):
            short.add(space)
    return short


def _outnumbered(needs: Iterable[tuple[int, int]], lefts: Iterable[int], least: int) -> bool:
    """The units walks needing ``least`` or more take outnumber the departures units with ``lefts`` can make."""
    return sum(count for need, count in needs if need >= least) > sum(max(left, 0) // least for left in lefts)


# -- unloads -----------------------------------------------------------------------------


def short_of_transports(orders: list[Order], board: Board) -> set[str]:
    """Sea zones some unload from which errs whatever the choice: the orders unload into more territories than
    transports can be there (those there when the phase began and those orders sail in; each unloads into
    one territory a turn, AA404).  Not for a zone an order passes through to load and unload in one go, nor one
    holding a land unit aboard nothing."""
    targets: dict[str, set[str]] = {}
    for order in orders:
        kinds = _kinds(board, order)
        unload = (len(order.path) == 2 and board.is_sea(order.path[0]) and not board.is_sea(order.path[1])
                  and len(kinds) == len(order.units) and all(k.is_land for k in kinds))
        if unload:
            targets.setdefault(order.path[0], set()).add(order.path[1])
    short = set()
    for zone, shores in targets.items():
        if any(_lands_in(board, order, zone) for order in orders):
            continue  # a land unit may come aboard (or ashore) there another way
        here = board.units_at(zone)
        if any(u.type.is_land and u.aboard is None for u in here):
            continue
        vessels = sum(1 for u in here if u.type.is_transport)
        vessels += sum(_count(board, order, "is_transport") for order in orders if order.path[-1] == zone)
        if len(shores) > vessels:
            short.add(zone)
    return short


def _lands_in(board: Board, order: Order, zone: str) -> bool:
    """The order takes land units into ``zone`` (a load, a load and an unload in one go, a walk out to sea)."""
    return zone in order.path[1:] and _count(board, order, "is_land") > 0


def _count(board: Board, order: Order, what: str) -> int:
    return sum(n for name, n in order.units.items()
               if name not in board.map.unit_types or getattr(board.map.unit_types[name], what))


# -- carrier slots -----------------------------------------------------------------------


def short_of_slots(orders: list[Order], board: Board) -> set[str]:
    """Sea zones whose fighters overflow whatever the choice (noncombat): the fighters the orders fly there
    outnumber the slots of every carrier there (AA304).  Only when no order starts at sea or moves a ship,
    no carrier is bought, and every order ending in the zone moves aircraft alone (the carriers stay put,
    and a fighter flown in stays)."""
    unit_types = board.map.unit_types
    if any(unit_types[k].is_carrier for k in board.purchased if k in unit_types):
        return set()
    if any(board.is_sea(order.path[0]) or _count(board, order, "is_sea") for order in orders):
        return set()
    fighters: dict[str, int] = {}
    mixed: set[str] = set()
    for order in orders:
        end = order.path[-1]
        if not board.is_sea(end):
            continue
        kinds = _kinds(board, order)
        if len(kinds) != len(order.units) or not all(k.is_air for k in kinds):
            mixed.add(end)
        fighters[end] = fighters.get(end, 0) + _count(board, order, "is_fighter")
    short = set()
    for zone, flown in fighters.items():
        slots = sum(u.type.carrier_capacity for u in board.units_at(zone) if u.type.is_carrier)
        if zone not in mixed and flown > slots:
            short.add(zone)
    return short
