"""Battle results (aa.md, "Battle results"): a results file checked against a battles state, then resolved.

A battles state (``turn.phase: battles``, written by ``movecheck apply`` after a combat
move) lists each battle under ``battles:``.  The referee writes the dice's outcome in a
results file (``phase: battles``, one entry per battle under ``results:``).  This module
reads both into a :class:`Resolution` that the clauses of
:mod:`movecheck.aa.checks.battles` read (:mod:`movecheck.aa.results` runs them), and carries the legal
results out on the board: losses removed (with the cargo of a lost vessel), retreats
moved, survivors marked ``fought``, territories captured.  :mod:`movecheck.aa.apply`
writes the noncombat-move state from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board, Unit
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.findings import Finding
    from movecheck.loading import Document

RESULT, END = "battles/result", "battles/end"
"""The occasions of the battle clauses: each result, then the results file as a whole."""

SIDES = ("attacker", "defender")


@dataclass
class Battle:
    """One battle of the battles state: the space, who fights there, where the attackers came from."""

    at: str
    attackers: list[Unit]
    defenders: list[Unit]
    came_from: tuple[str, ...] = ()
    amphibious: dict[str, int] = field(default_factory=dict)
    """Land units that attacked from the sea (an amphibious assault), by type."""

    def side(self, which: str) -> list[Unit]:
        return self.attackers if which == "attacker" else self.defenders


@dataclass
class Result:
    """One entry of ``results:``, its names resolved."""

    index: int
    at: str
    battle: Battle | None
    losses: dict[str, dict[str, int]]
    """``attacker`` / ``defender`` -> unit type -> count."""
    retreat: str | None = None
    submerged: dict[str, int] = field(default_factory=dict)
    repeated: bool = False
    named_losses: dict[str, dict[str, str]] = field(default_factory=dict)
    """``attacker`` / ``defender`` -> unit id -> its type: the casualties the referee names by id
    (counted in ``losses`` with their type too)."""
    """Another result before this one names the same battle."""

    @property
    def where(self) -> tuple[Any, ...]:
        return ("results", self.index)

    def survivors(self, which: str) -> list[Unit]:
        """The units of a side left after its losses (:func:`pick_losses` decides which)."""
        assert self.battle is not None
        lost = {u.uid for u in pick_losses(self.battle.side(which), self.losses[which], self.named_losses.get(which, {}))}
        return [u for u in self.battle.side(which) if u.uid not in lost]

    def surviving_amphibious(self) -> dict[str, int]:
        """Land units of an amphibious assault still there: the losses are taken from them first."""
        assert self.battle is not None
        left = {t: n - self.losses["attacker"].get(t, 0) for t, n in self.battle.amphibious.items()}
        return {t: n for t, n in left.items() if n > 0}


@dataclass
class Resolution:
    """What the battle clauses read: the board of the battles state, its battles and the results."""

    board: Board
    doc: Document
    battles: dict[str, Battle]
    results: list[Result]
    submerge_allowed: bool
    named: set[str] = field(default_factory=set)
    """Every battle space a result names, the results not judged (unknown names) included."""


def fights(unit: Unit) -> bool:
    """A unit that keeps a battle going: not an AA gun or a factory, not a submerged submarine."""
    return not (unit.type.is_aa_gun or unit.type.is_factory or unit.submerged)


def pick_losses(units: list[Unit], losses: dict[str, int], named: dict[str, str] | None = None) -> list[Unit]:
    """The units a side loses: those named by id, then of each type those with no id and nothing
    aboard first, then the last listed."""
    pinned = [u for u in units if u.id is not None and u.id in (named or {})]
    taken = {u.uid for u in pinned}
    chosen: list[Unit] = list(pinned)
    for kind, count in sorted(losses.items()):
        of_kind = [u for u in units if u.type.name == kind and u.uid not in taken]
        of_kind.sort(key=lambda u: (u.id is not None, bool(u.cargo), -u.uid))
        chosen.extend(of_kind[:max(0, count - sum(1 for u in pinned if u.type.name == kind))])
    return chosen


# -- reading ---------------------------------------------------------------------------


def read_battles(state: Document, board: Board) -> dict[str, Battle]:
    """The battles the state lists, each with its units as the board has them."""
    found: dict[str, Battle] = {}
    for entry in state.get("battles", default=[]) or []:
        space = board.map.resolve(entry.get("at")) if isinstance(entry, dict) else None
        if space is None or space in found:
            continue  # the state's lint speaks of it
        came_from = tuple(s for s in (board.map.resolve(n) for n in entry.get("from", []) or []) if s)
        amphibious = {board.map.resolve_type(t) or t: n for t, n in (entry.get("amphibious") or {}).items()}
        found[space] = Battle(space, _attackers(board, space), _defenders(board, space), came_from, amphibious)
    return found


def _attackers(board: Board, space: str) -> list[Unit]:
    """The moving power's units in the battle space, cargo aboard a vessel at sea aside."""
    return [u for u in board.units_at(space) if u.power == board.power and not (u.type.is_land and u.aboard is not None)
            and not u.type.is_factory]


def _defenders(board: Board, space: str) -> list[Unit]:
    """The enemy units in play there, cargo aboard a vessel aside (it goes down with the vessel)."""
    return [u for u in board.enemy_units(space) if not u.type.is_factory and not (u.type.is_land and u.aboard is not None)]


def read_results(doc: Document, board: Board, battles: dict[str, Battle], named: set[str]) -> tuple[list[Result], list[Finding], set[int]]:
    """The results, with MC004 for the names the map does not know (such a result is not judged).

    ``named`` receives every battle space a result names, judged or not.
    """
    from movecheck.aa.setup import unknown_space, unknown_type

    results: list[Result] = []
    problems: list[Finding] = []
    broken: set[int] = set()
    seen: set[str] = set()
    raw = doc.get("results", default=[])
    for index, entry in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(entry, dict):
            broken.add(index)
            continue
        where = ("results", index)
        found: list[Finding] = []
        space = board.map.resolve(entry.get("at")) if isinstance(entry.get("at"), str) else None
        if space is not None:
            named.add(space)
        if space is None and isinstance(entry.get("at"), str):
            found.append(unknown_space(doc, board.map, entry.get("at"), where + ("at",)))
        retreat = entry.get("retreat")
        if retreat is not None and not isinstance(retreat, str):
            broken.add(index)  # the schema has said so (MC003)
        elif retreat is not None:
            retreat = board.map.resolve(retreat)
            if retreat is None:
                found.append(unknown_space(doc, board.map, entry.get("retreat"), where + ("retreat",)))
        losses: dict[str, dict[str, int]] = {}
        named_losses: dict[str, dict[str, str]] = {}
        for side in SIDES:
            losses[side], named_losses[side] = {}, {}
            if entry.get(f"{side}_losses") is not None and not isinstance(entry.get(f"{side}_losses"), dict):
                broken.add(index)  # the schema has said so (MC003)
            for name, count in _mapping(entry.get(f"{side}_losses")).items():
                kind = board.map.resolve_type(name)
                unit = board.by_id.get(name) if kind is None and isinstance(name, str) else None
                if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                    broken.add(index)  # the schema has said so (MC003)
                elif unit is not None and count != 1:
                    found.append(doc.finding("MC003", _("{id} names one unit: write {id}: 1").format(id=name),
                                             where + (f"{side}_losses", name)))
                elif unit is not None:
                    named_losses[side][name] = unit.type.name
                    losses[side][unit.type.name] = losses[side].get(unit.type.name, 0) + 1
                elif kind is None:
                    found.append(unknown_type(doc, board.map, name, where + (f"{side}_losses", name), key=True))
                else:
                    losses[side][kind] = losses[side].get(kind, 0) + count
        submerged = _mapping(entry.get("submerged"))
        if entry.get("submerged") is not None and not isinstance(entry.get("submerged"), dict):
            broken.add(index)  # the schema has said so (MC003)
        if any(side not in SIDES or not isinstance(n, int) or isinstance(n, bool) for side, n in submerged.items()):
            broken.add(index)  # the schema has said so (MC003)
        if found or index in broken or space is None:
            problems.extend(found)
            broken.add(index)
            continue
        assert space is not None
        results.append(Result(index, space, battles.get(space), losses, retreat, submerged,
                              repeated=space in seen, named_losses=named_losses))
        seen.add(space)
    return results, problems, broken


def _mapping(value: Any) -> dict[Any, Any]:
    """A mapping the file gives, or none (the schema reports any other shape)."""
    return value if isinstance(value, dict) else {}


# -- resolving -------------------------------------------------------------------------


def resolve(resolution: Resolution) -> set[int]:
    """Carry the results out on the board; returns the uids of the units lost (they leave the state)."""
    board = resolution.board
    lost: set[int] = set()
    for result in resolution.results:
        battle = result.battle
        if battle is None or result.repeated:
            continue
        for side in SIDES:
            for unit in pick_losses(battle.side(side), result.losses[side], result.named_losses.get(side, {})):
                lost.add(unit.uid)
                lost.update(c.uid for c in unit.cargo if c.type.is_land)
        _submerge(battle, result, lost)
        survivors = [u for u in battle.attackers if u.uid not in lost]
        for unit in survivors:
            unit.fought = True
        if result.retreat is not None:
            for unit in survivors:
                board.move_unit(unit, result.retreat)
        elif not any(fights(u) for u in battle.defenders if u.uid not in lost):
            _capture(board, battle, survivors)
    return lost


def _submerge(battle: Battle, result: Result, lost: set[int]) -> None:
    for side in SIDES:
        subs = [u for u in battle.side(side) if u.type.submarine and u.uid not in lost]
        for unit in subs[: int(result.submerged.get(side, 0) or 0)]:
            unit.submerged = True


def _capture(board: Board, battle: Battle, survivors: list[Unit]) -> None:
    """A territory whose defenders are gone is taken when an attacking land unit survives there."""
    space = battle.at
    if board.is_sea(space) or not any(u.type.is_land for u in survivors):
        return
    board.control[space] = board.power
    board.captured.add(space)
    for unit in board.units_at(space):
        if (unit.type.is_aa_gun or unit.type.is_factory) and board.enemy_power(unit.power):
            unit.power = board.power


__all__ = ["Battle", "Resolution", "Result", "fights", "pick_losses", "read_battles", "read_results", "resolve"]
