"""Battle results (aa.md, "Battle results"): a results file checked against a battles state, then resolved.

A battles state (``turn.phase: battles``, written by ``movecheck apply`` after a combat
move) lists each battle under ``battles:``.  The referee writes the dice's outcome in a
results file (``phase: battles``, one entry per battle under ``results:``).  This module
reads both into a :class:`Resolution` that the clauses of
:mod:`movecheck.aa.checks.battles` read (:mod:`movecheck.aa.turn.results` runs them), and carries the legal
results out on the board: losses removed (with the cargo of a lost vessel), retreats
moved, survivors marked ``fought``, territories captured.  :mod:`movecheck.aa.turn.apply`
writes the noncombat-move state from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from movecheck.aa.model import Board
from movecheck.aa.turn.battle_extras import Extras, read_extras
from movecheck.aa.units import Unit
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.document import Document
    from movecheck.findings import Finding

RESULT, END = "battles/result", "battles/end"
"""The occasions of the battle clauses: each result, then the results file as a whole."""

SIDES = ("attacker", "defender")


@dataclass
class Battle:
    """One battle of the battles state: the space, who fights there, where the attackers came from."""

    at: str
    attackers: list[Unit]
    """The attacking units the state lists there (cargo that never landed included: see :attr:`at_sea`)."""
    defenders: list[Unit]
    came_from: tuple[str, ...] = ()
    amphibious: dict[str, int] = field(default_factory=dict)
    """Land units that attacked from the sea (an amphibious assault), by type, as the state lists them."""
    landed: list[Unit] = field(default_factory=list)
    """Those units themselves: the attackers ``unloaded_from`` a transport, then others of the type."""
    at_sea: dict[int, str] = field(default_factory=dict)
    """By uid, the amphibious units that never landed, and why (:data:`SUNK`, :data:`STAYED_ABOARD`)."""
    kind: str = "land"
    """``land``, ``sea`` or ``raid`` (a strategic bombing raid: bombers against a factory)."""

    @property
    def raid(self) -> bool:
        return self.kind == "raid"

    def side(self, which: str) -> list[Unit]:
        """The units that fight for a side: the attackers less the cargo that never landed."""
        if which == "defender":
            return self.defenders
        return [u for u in self.attackers if u.uid not in self.at_sea]

    def listed(self, which: str) -> list[Unit]:
        """The units the state lists for a side."""
        return self.attackers if which == "attacker" else self.defenders

    def amphibious_units(self) -> list[Unit]:
        """The land units of the amphibious assault that reached the shore."""
        return [u for u in self.landed if u.uid not in self.at_sea]


SUNK, STAYED_ABOARD = "sunk", "stayed aboard"
"""Why amphibious cargo never landed: its transport was sunk in its zone's sea battle, or retreated from it."""


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
    """Another result before this one names the same battle."""
    named_losses: dict[str, dict[str, str]] = field(default_factory=dict)
    """``attacker`` / ``defender`` -> unit id -> its type: the casualties the referee names by id
    (counted in ``losses`` with their type too)."""
    extras: Extras = field(default_factory=Extras)
    """``damaged:``, ``bombing:``, ``defender_landing:`` (:mod:`movecheck.aa.turn.battle_turn`)."""
    kind: str | None = None
    """The result's ``kind:`` (``raid``: the raid's result), None when it writes none."""

    @property
    def where(self) -> tuple[Any, ...]:
        return ("results", self.index)

    def casualties(self, which: str) -> list[Unit]:
        """The units a side loses (:func:`pick_losses` decides which; amphibious attackers first)."""
        assert self.battle is not None
        first = {u.uid for u in self.battle.landed} if which == "attacker" else set()
        return pick_losses(self.battle.side(which), self.losses[which], self.named_losses.get(which, {}), first)

    def survivors(self, which: str) -> list[Unit]:
        """The units of a side left after its losses."""
        assert self.battle is not None
        lost = {u.uid for u in self.casualties(which)}
        return [u for u in self.battle.side(which) if u.uid not in lost]

    def surviving_amphibious(self) -> list[Unit]:
        """Land units of an amphibious assault still there after the losses (taken from them first)."""
        assert self.battle is not None
        landed = {u.uid for u in self.battle.amphibious_units()}
        return [u for u in self.survivors("attacker") if u.uid in landed]

    def staying(self, options: dict[str, Any]) -> list[Unit]:
        """The attackers a retreat leaves in a land battle, fighting on: the amphibious land units, and
        every land unit where ``partial_amphibious_retreat`` is off and amphibious ones fought there."""
        assert self.battle is not None
        if not self.battle.amphibious_units():
            return []
        if not options["partial_amphibious_retreat"]:
            return [u for u in self.survivors("attacker") if u.type.is_land]
        return self.surviving_amphibious()


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
    raids: dict[str, Battle] = field(default_factory=dict)
    """The strategic bombing raids the state lists (``kind: raid``), by territory: battles of their own."""
    named_raids: set[str] = field(default_factory=set)
    """Every raided territory a result names (as the raid's result), judged or not."""
    kinds: bool = True
    """The state writes ``kind:`` on its battles; without it (a state written before raids were battles)
    ``bombing:`` on a land battle's result keeps its old meaning."""
    state: Document | None = None
    """The battles state itself (its edition gives the battle model that re-derives ``rounds:``)."""
    replays: dict[int, Any] = field(default_factory=dict)
    """By result index, its ``rounds:`` re-derived (:mod:`movecheck.aa.battle.replay`), once."""
    bombings: list[dict[str, Any]] = field(default_factory=list)
    """What the battles ``apply`` did with each bombing: rolled, applied, the cap that cut it (the apply report)."""

    def __post_init__(self) -> None:
        settle_sea_battles(self)


def pick_losses(units: list[Unit], losses: dict[str, int], named: dict[str, str] | None = None,
                first: set[int] | frozenset[int] = frozenset()) -> list[Unit]:
    """The units a side loses: those named by id, then of each type the ``first`` (amphibious attackers),
    then those with no id and nothing aboard, then the last listed."""
    pinned = [u for u in units if u.id is not None and u.id in (named or {})]
    taken = {u.uid for u in pinned}
    chosen: list[Unit] = list(pinned)
    for kind, count in sorted(losses.items()):
        of_kind = [u for u in units if u.type.name == kind and u.uid not in taken]
        of_kind.sort(key=lambda u: (u.uid not in first, u.id is not None, bool(u.cargo), -u.uid))
        chosen.extend(of_kind[:max(0, count - sum(1 for u in pinned if u.type.name == kind))])
    return chosen


# -- reading ---------------------------------------------------------------------------


def read_battles(state: Document, board: Board) -> dict[str, Battle]:
    """The land and sea battles the state lists, each with its units as the board has them (the raids aside:
    :func:`read_raids`; a raid's bombers are not attackers of the land battle of their territory)."""
    found: dict[str, Battle] = {}
    raids = read_raids(state, board)
    raiding = {u.uid for raid in raids.values() for u in raid.attackers}
    for entry in state.get("battles", default=[]) or []:
        space = board.map.resolve(entry.get("at")) if isinstance(entry, dict) else None
        if space is None or space in found or entry.get("kind") == "raid":
            continue  # the state's lint speaks of it
        came_from = tuple(s for s in (board.map.resolve(n) for n in entry.get("from", []) or []) if s)
        amphibious = {board.map.resolve_type(t) or t: n for t, n in (entry.get("amphibious") or {}).items()}
        attackers = [u for u in _attackers(board, space) if u.uid not in raiding]
        found[space] = Battle(space, attackers, _defenders(board, space), came_from, amphibious,
                              _landed(attackers, amphibious), kind="sea" if board.is_sea(space) else "land")
    return found


def read_raids(state: Document, board: Board) -> dict[str, Battle]:
    """The strategic bombing raids the state lists (``kind: raid``): of the mover's bombers in the territory, as
    many as the entry's ``attackers`` count, against the factory and what fires at them there."""
    from movecheck.aa.turn.raids import raid_defenders

    found: dict[str, Battle] = {}
    for entry in state.get("battles", default=[]) or []:
        space = board.map.resolve(entry.get("at")) if isinstance(entry, dict) else None
        if space is None or space in found or entry.get("kind") != "raid":
            continue
        counts = entry.get("attackers") if isinstance(entry.get("attackers"), dict) else {}
        wanted = sum(n for n in counts.values() if isinstance(n, int))
        bombers = [u for u in _attackers(board, space) if u.type.is_bomber][:wanted]
        came_from = tuple(s for s in (board.map.resolve(n) for n in entry.get("from", []) or []) if s)
        found[space] = Battle(space, bombers, raid_defenders(board, space), came_from, kind="raid")
    return found


def writes_kinds(state: Document) -> bool:
    """Some battle of the state says its ``kind:`` (a state written since raids are battles)."""
    return any(isinstance(e, dict) and "kind" in e for e in state.get("battles", default=[]) or [])


def _attackers(board: Board, space: str) -> list[Unit]:
    """The moving power's units in the battle space, cargo aboard a vessel at sea aside."""
    return [u for u in board.units_at(space) if u.power == board.power and not (u.type.is_land and u.aboard is not None)
            and not u.type.is_factory]


def _defenders(board: Board, space: str) -> list[Unit]:
    """The enemy units in play there, cargo aboard a vessel aside (it goes down with the vessel), and the
    units that change hands with the territory aside."""
    return [
        u
        for u in board.enemy_units(space)
        if not board.changes_hands(u) and not (u.type.is_land and u.aboard is not None)
    ]


def territory_guns(board: Board, space: str) -> int:
    """The enemy AA guns of a land battle's territory that are no units of the battle (Revised and Anniversary:
    infrastructure, which changes hands with the territory and is left out of the battle's defenders), yet fire
    at the attacking aircraft in round 1 (aa-battle-rules.md, "The battle of each edition").  The odds and the
    dice replay both take them from here."""
    if board.is_sea(space):
        return 0
    return sum(1 for u in board.enemy_units(space) if u.type.is_aa_gun and board.changes_hands(u))


def _landed(attackers: list[Unit], amphibious: dict[str, int]) -> list[Unit]:
    """The amphibious attackers: of each type the state counts, those ``unloaded_from`` a transport first."""
    found: list[Unit] = []
    for kind, count in sorted(amphibious.items()):
        of_kind = sorted((u for u in attackers if u.type.name == kind and u.type.is_land),
                         key=lambda u: (u.landed_from is None, -u.uid))
        found.extend(of_kind[:count] if isinstance(count, int) else [])
    return found


def settle_sea_battles(resolution: Resolution) -> None:
    """The sea battles come first: amphibious cargo whose transport is sunk in its zone's battle (among
    that battle's attacker losses), or retreats from it, never lands (``Battle.at_sea``)."""
    fates = _transport_fates(resolution)
    for battle in resolution.battles.values():
        if not resolution.board.is_sea(battle.at) and not battle.raid:
            battle.at_sea = {u.uid: why for u, why in cargo_ashore(resolution, battle.landed, fates).values()}


def cargo_ashore(resolution: Resolution, units: list[Unit] | None = None,
                 fates: dict[int, str] | None = None) -> dict[int, tuple[Unit, str]]:
    """The land units of the mover (of ``units``, default all) ``unloaded_from`` a transport that is sunk in,
    or retreats from, its zone's sea battle, in a battle where they landed or not: by uid, the unit and why
    it never landed."""
    board = resolution.board
    fates = _transport_fates(resolution) if fates is None else fates
    found: dict[int, tuple[Unit, str]] = {}
    for unit in board.units if units is None else units:
        vessel = board.by_id.get(unit.landed_from) if unit.landed_from else None
        if vessel is not None and vessel.uid in fates and unit.type.is_land and not board.is_sea(unit.at):
            found[unit.uid] = (unit, fates[vessel.uid])
    return found


def _transport_fates(resolution: Resolution) -> dict[int, str]:
    """By uid, the mover's transports sunk in a sea battle (:data:`SUNK`) or retreating from one
    (:data:`STAYED_ABOARD`)."""
    fates: dict[int, str] = {}
    for result in resolution.results:
        battle = result.battle
        if battle is None or result.repeated or not resolution.board.is_sea(battle.at):
            continue
        if result.retreat is not None:
            fates.update((u.uid, STAYED_ABOARD) for u in result.survivors("attacker") if u.type.is_transport)
        fates.update((u.uid, SUNK) for u in result.casualties("attacker") if u.type.is_transport)
    return fates


def read_results(
    doc: Document, board: Board, battles: dict[str, Battle], named: set[str],
    raids: dict[str, Battle] | None = None, named_raids: set[str] | None = None,
) -> tuple[list[Result], list[Finding], set[int]]:
    """The results, with MC004 for the names the map does not know (such a result is not judged).

    ``named`` receives every battle space a result names, judged or not; ``named_raids`` every raided
    territory a result names as its raid's (``kind: raid``, or no ``kind:`` where the raid is its only battle).
    """
    raids = {} if raids is None else raids
    named_raids = set() if named_raids is None else named_raids
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
        written = entry.get("kind") if isinstance(entry.get("kind"), str) else None
        raid = written == "raid" or (written is None and space in raids and space not in battles)
        if space is not None:
            (named_raids if raid and space in raids else named).add(space)  # a raid that is none: AA501 alone
        if space is None and isinstance(entry.get("at"), str):
            found.append(unknown_space(doc, board.map, entry.get("at"), (*where, "at")))
        retreat = entry.get("retreat")
        if retreat is not None and not isinstance(retreat, str):
            broken.add(index)  # the schema has said so (MC003)
        elif retreat is not None:
            retreat = board.map.resolve(retreat)
            if retreat is None:
                found.append(unknown_space(doc, board.map, entry.get("retreat"), (*where, "retreat")))
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
                                             (*where, f"{side}_losses", name)))
                elif unit is not None:
                    named_losses[side][name] = unit.type.name
                    losses[side][unit.type.name] = losses[side].get(unit.type.name, 0) + 1
                elif kind is None:
                    found.append(unknown_type(doc, board.map, name, (*where, f"{side}_losses", name), key=True))
                else:
                    losses[side][kind] = losses[side].get(kind, 0) + count
        submerged = _mapping(entry.get("submerged"))
        if entry.get("submerged") is not None and not isinstance(entry.get("submerged"), dict):
            broken.add(index)  # the schema has said so (MC003)
        if any(side not in SIDES or not isinstance(n, int) or isinstance(n, bool) for side, n in submerged.items()):
            broken.add(index)  # the schema has said so (MC003)
        extras, bad = read_extras(doc, board, entry, where, found)
        if raid and extras.bombing is None:
            extras.bombing_dice = damage_dice(entry.get("rounds")) or pasted_damage(entry.get("dice"))
            extras.bombing = None if extras.bombing_dice is None else sum(extras.bombing_dice)
        if bad:
            broken.add(index)  # the schema has said so (MC003)
        if found or index in broken or space is None:
            problems.extend(found)
            broken.add(index)
            continue
        assert space is not None
        key = f"raid:{space}" if raid else space
        results.append(Result(index, space, (raids if raid else battles).get(space), losses, retreat, submerged,
                              repeated=key in seen, named_losses=named_losses, extras=extras, kind=written))
        seen.add(key)
    return results, problems, broken


def damage_dice(rounds: Any) -> list[int] | None:
    """A raid's damage dice as its ``rounds:`` give them (aa-battle.md, "Details settled"), None when they give none."""
    for entry in rounds if isinstance(rounds, list) else []:
        step = entry.get("attacker", {}).get("damage") if isinstance(entry, dict) and isinstance(
            entry.get("attacker"), dict) else None
        if isinstance(step, dict):
            return [d for dice in step.values() if isinstance(dice, list) for d in dice if isinstance(d, int)]
    return None


def pasted_damage(text: Any) -> list[int] | None:
    """A raid's damage dice pasted under ``dice: |`` (the reader is imported only for a result with such text)."""
    if not isinstance(text, str):
        return None
    from movecheck.aa.battle.pasted import raid_damage

    return raid_damage(text)


def _mapping(value: Any) -> dict[Any, Any]:
    """A mapping the file gives, or none (the schema reports any other shape)."""
    return value if isinstance(value, dict) else {}


# -- resolving -------------------------------------------------------------------------


__all__ = [
    "STAYED_ABOARD", "SUNK", "Battle", "Resolution", "Result", "cargo_ashore", "pick_losses", "read_battles",
    "read_raids", "read_results", "writes_kinds",
]
