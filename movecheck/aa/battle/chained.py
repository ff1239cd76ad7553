"""A results file's ``dice_chain:`` checked (aa-battle.md, "Dice anyone can verify"): AA521.

The file posts each side's chain links (``x_0, x_1, ...``; a list of chains when new chains followed), the
order of loss posted with ``x_0`` and, optionally, the state's digest.  Every posted link must hash to the
one before it, the digest must be the state's, and every die of every round must be the one the
construction (:mod:`movecheck.aa.battle.chain`) gives for the reveal that round was fought in.  Which reveal
that is follows from the battles and their rounds: reveal 1 is every battle's round 1, except that an
amphibious landing starts in the reveal after the sea battle of its zone ended, and a land battle in the
reveal after the raid on its territory.

The dice *counts* are the replay's (AA513): here only their values are judged, die by die, in the
construction's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from movecheck.aa.battle import chain
from movecheck.aa.battle.odds import model_of
from movecheck.aa.battle.replay import Replayer
from movecheck.aa.battle.rounds import Rolled, Roller, fight_round
from movecheck.clauses import Violation
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.turn.battles import Battle, Resolution, Result

SIDES = chain.SIDES


@dataclass
class Posted:
    """A side's posted chains: per chain, its links (None where a link is not 64 hex digits)."""

    chains: list[list[bytes | None]] = field(default_factory=list)

    def reveal(self, k: int) -> bytes | None:
        """The link of reveal ``k`` (k >= 1): the new chains' ``x_i`` continue where the earlier ones end."""
        for links in self.chains:
            if k < len(links):
                return links[k]
            k -= len(links) - 1
        return None

    @property
    def reveals(self) -> int:
        return sum(len(links) - 1 for links in self.chains if links)


def posted(value: Any) -> Posted:
    """A side's ``dice_chain`` entry: a list of links, or a list of such lists (the schema reports other shapes)."""
    if not isinstance(value, list):
        return Posted()
    if value and all(isinstance(v, list) for v in value):
        return Posted([[chain.from_hex(x) for x in links] for links in value])
    return Posted([[chain.from_hex(x) for x in value]])


def dice_chain(resolution: Resolution) -> dict[str, Any] | None:
    found = resolution.doc.get("dice_chain", default=None)
    return found if isinstance(found, dict) else None


def digest_of(resolution: Resolution) -> str:
    """The digest of the battles state file's bytes as stored (its text when the file cannot be read again)."""
    state = resolution.state
    if state is None:
        return chain.state_digest(b"")
    try:
        return chain.state_digest(Path(state.path).read_bytes())
    except OSError:
        return chain.state_digest(state.text.encode("utf-8"))


# -- which reveal each round is fought in ----------------------------------------------------------------


def rounds_written(resolution: Resolution, result: Result) -> list[Any]:
    rounds = resolution.doc.get("results", result.index, "rounds", default=None)
    return rounds if isinstance(rounds, list) else []


def predecessors(resolution: Resolution, battle: Battle) -> list[tuple[str, str]]:
    """The battles this one must follow, as (kind, space): the raid on its territory, the sea battles of the
    zones its amphibious units came from."""
    if battle.kind != "land":
        return []
    found = [("raid", battle.at)] if battle.at in resolution.raids else []
    if battle.amphibious:
        board = resolution.board
        found += [("sea", zone) for zone in battle.came_from if board.is_sea(zone) and zone in resolution.battles]
    return found


def first_reveals(resolution: Resolution, count: Any = None) -> dict[tuple[str, str], int | None]:
    """The reveal of each battle's round 1, by (kind, space); None where a battle it follows gives no rounds.

    ``count`` gives a battle's rounds fought (by default those its result writes)."""
    by_battle = {(r.battle.kind, r.battle.at): r for r in resolution.results if r.battle is not None
                 and not r.repeated}
    battles = [*resolution.raids.values(), *resolution.battles.values()]
    found: dict[tuple[str, str], int | None] = {}

    def length(key: tuple[str, str]) -> int | None:
        if count is not None:
            counted = count(key)
            return counted if isinstance(counted, int) else None
        result = by_battle.get(key)
        return len(rounds_written(resolution, result)) or None if result is not None else None

    def start(battle: Battle, seen: frozenset[tuple[str, str]]) -> int | None:
        key = (battle.kind, battle.at)
        if key in found:
            return found[key]
        first: int | None = 1
        for before in predecessors(resolution, battle):
            other = (resolution.raids if before[0] == "raid" else resolution.battles).get(before[1])
            if other is None or before in seen:
                continue
            begun, rounds = start(other, seen | {key}), length(before)
            first = None if first is None or begun is None or rounds is None else max(first, begun + rounds)
        found[key] = first
        return first

    for battle in battles:
        start(battle, frozenset())
    return found


# -- the check --------------------------------------------------------------------------------------------


def chain_problems(resolution: Resolution) -> Iterator[Violation]:
    """Every AA521 of a results file with ``dice_chain:``."""
    written = dice_chain(resolution)
    if written is None:
        return
    sides = {s: posted(written.get(s)) for s in SIDES}
    yield from link_problems(sides)
    digest = digest_of(resolution)
    given = written.get("digest")
    if isinstance(given, str) and given.lower() != digest:
        yield Violation(_("the digest posted is {given}, the battles state's bytes give {digest} (SHA-256 of the "
                          "state file as stored)").format(given=given, digest=digest), ("dice_chain", "digest"))
    starts = first_reveals(resolution)
    for result in resolution.results:
        if result.battle is None or result.repeated or not rounds_written(resolution, result):
            continue
        first = starts.get((result.battle.kind, result.battle.at))
        if first is None:
            yield Violation(_("the battle's reveals cannot be placed: a battle it follows (the raid on its territory "
                              "or the sea battle its landing comes from) gives no rounds"),
                            (*result.where, "rounds"), order=result.index + 1)
            continue
        yield from result_dice(resolution, result, first, sides, digest)


def link_problems(sides: dict[str, Posted]) -> Iterator[Violation]:
    for side, found in sides.items():
        nested = len(found.chains) > 1
        for c, links in enumerate(found.chains):
            base = ("dice_chain", side, c) if nested else ("dice_chain", side)
            for k, link in enumerate(links):
                if link is None:
                    yield Violation(_("the {side}'s x_{k} is not 64 hex digits").format(side=side, k=k), (*base, k))
            for k in chain.broken_links([x or b"" for x in links]):
                if links[k] is not None and links[k - 1] is not None:
                    yield Violation(_("the {side}'s x_{k} does not hash to its x_{before}: SHA-256 of it is {got}, "
                                      "x_{before} is {want}").format(
                        side=side, k=k, before=k - 1, got=chain.link_below(links[k] or b"").hex(),
                        want=(links[k - 1] or b"").hex()), (*base, k))
    attacker, defender = sides["attacker"].chains, sides["defender"].chains
    for c in range(min(len(attacker), len(defender)) - 1):
        if len(attacker[c]) != len(defender[c]):
            yield Violation(_("the sides' chains {number} hold {attacker} and {defender} reveals: both sides start "
                              "new chains after the same reveal").format(number=c + 1, attacker=len(attacker[c]) - 1,
                                                                        defender=len(defender[c]) - 1),
                            ("dice_chain", "defender", c))


def ordered(step: Any, resolve: Any, order: dict[str, int]) -> list[tuple[Any, list[int]]]:
    """A written step's dice in the construction's order: by value (lowest first), then plane type in the map's
    unit order."""
    if not isinstance(step, dict):
        return []
    groups = [(k, [d for d in v if isinstance(d, int)]) for k, v in step.items() if isinstance(v, list)]

    def rank(group: tuple[Any, list[int]]) -> tuple[int, int]:
        key = str(group[0])
        if key.isdigit():
            return (0, int(key))
        return (1, order.get(resolve(key) or key, len(order)))

    return sorted(groups, key=rank)


def result_dice(resolution: Resolution, result: Result, first: int, sides: dict[str, Posted],
                digest: str) -> Iterator[Violation]:
    """Each step's dice of each round against the construction (the first wrong die of a step is reported)."""
    battle = result.battle
    assert battle is not None
    board_map = resolution.board.map
    order = {name: i for i, name in enumerate(board_map.unit_types)}
    for number, entry in enumerate(rounds_written(resolution, result)):
        if not isinstance(entry, dict):
            continue
        reveal = first + number
        links = {s: sides[s].reveal(reveal) for s in SIDES}
        missing = [s for s in SIDES if links[s] is None]
        thrown: dict[str, dict[str, Any]] = {s: v for s in SIDES if isinstance(v := entry.get(s), dict) and v}
        if missing and thrown:
            yield Violation(_("round {round} is fought in reveal {reveal}, and the {side}'s x_{reveal} is not "
                              "posted: its dice cannot be checked").format(round=number + 1, reveal=reveal,
                                                                           side=missing[0]),
                            (*result.where, "rounds", number), order=result.index + 1)
            continue
        for side, steps in thrown.items():
            for step, dice in steps.items():
                if step not in chain.STEPS:
                    continue
                yield from step_problems(result, number, side, step, ordered(dice, board_map.resolve_type, order),
                                         chain.step_dice(links["attacker"] or b"", links["defender"] or b"", digest,
                                                         battle.at, battle.kind, number + 1, side, step,
                                                         sum(len(d) for _k, d in ordered(dice, board_map.resolve_type,
                                                                                          order))))


def step_problems(result: Result, number: int, side: str, step: str, groups: list[tuple[Any, list[int]]],
                  derived: list[int]) -> Iterator[Violation]:
    at = 0
    for key, dice in groups:
        for i, die in enumerate(dice):
            if die != derived[at]:
                yield Violation(_("round {round}: the {side}'s {step} die {number} (at {key}) is {die}, the dice chain "
                                  "gives {expected}").format(round=number + 1, side=side, step=step, number=at + 1,
                                                             key=key, die=die, expected=derived[at]),
                                (*result.where, "rounds", number, side, step, key, i), order=result.index + 1)
                return
            at += 1


# -- the choices inside a round (AA517) ------------------------------------------------------------------


def inside_choices(result: Result, resolution: Resolution) -> Iterator[Violation]:
    """Under a dice chain, the casualties chosen inside a round before later fire of that round (AA fire in 1942
    second edition, an uncountered surprise strike, Revised bombardment) are those of the order of loss posted
    with ``x_0``: the main fire's dice are then those ``dice roll`` gives, and a round whose main fire owes
    other dice chose otherwise."""
    written = dice_chain(resolution)
    battle = result.battle
    rounds = rounds_written(resolution, result)
    if written is None or battle is None or battle.raid or result.repeated or not rounds:
        return
    first = first_reveals(resolution).get((battle.kind, battle.at))
    if first is None:
        return
    sides = {s: posted(written.get(s)) for s in SIDES}
    model = model_of(resolution.state if resolution.state is not None else resolution.doc, resolution.board)
    ool = written.get("ool") if isinstance(written.get("ool"), dict) else None
    digest = digest_of(resolution)
    for number, entry in enumerate(rounds):
        attacker, defender = (sides[s].reveal(first + number) for s in SIDES)
        if not isinstance(entry, dict) or attacker is None or defender is None:
            continue
        replayer = Replayer(result, resolution, model, ool)
        replayer.run(rounds[:number])
        if replayer.out.outcome or replayer.out.retreat:
            return
        rolled = Rolled(battle.at, battle.kind, number + 1)
        fight_round(Roller(replayer, model, (attacker, defender), digest, rolled),
                    (replayer.state[0], replayer.state[1]), number == 0, entry)
        if rolled.chosen:
            yield from main_fire_differs(result, resolution, number, entry, rolled)


def main_fire_differs(result: Result, resolution: Resolution, number: int, entry: dict[str, Any],
                      rolled: Any) -> Iterator[Violation]:
    resolve = resolution.board.map.resolve_type
    for side in SIDES:
        value = entry.get(side)
        thrown: dict[str, Any] = value if isinstance(value, dict) else {}
        for step in ("subs", "air", "fire"):
            want = {k: len(v) for k, v in rolled.dice[side].get(step, {}).items() if v}
            got = {str(k) if str(k).isdigit() else (resolve(k) or str(k)): len(v) for k, v in ordered(
                thrown.get(step), resolve, {}) if v}
            if want != got:
                message = _("round {round}: {choices}, which leaves the {side} {owed} in its {step} step; the round "
                            "rolls {rolled}")
                yield Violation(message.format(round=number + 1, choices="; ".join(rolled.chosen), side=side,
                                               owed=counted(want), step=step, rolled=counted(got)),
                                (*result.where, "rounds", number, side))


def counted(dice: dict[str, int]) -> str:
    return ", ".join(f"{n} at {key}" for key, n in sorted(dice.items())) or _("none")


__all__ = ["Posted", "chain_problems", "digest_of", "first_reveals", "inside_choices", "ordered", "posted"]
