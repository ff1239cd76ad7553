"""``movecheck dice roll``: the dice of every battle that fights in one reveal (aa-battle.md, "Dice anyone can
verify").

The battles state gives the battles; the results written so far (optional) give the rounds already fought,
so which battles are over, which units are alive and in which reveal each battle's next round falls.  For
every battle whose next round is fought in reveal K, each firing step's dice come from the construction
(:mod:`movecheck.aa.battle.chain`) keyed by both sides' ``x_K``; the number of dice is what the battle model
says the step owes, the casualties chosen inside the round (AA fire in 1942 second edition, an uncountered
surprise strike, bombardment in Revised) taken by the order of loss posted with ``x_0`` (``dice_chain.ool``),
else the default.  The output is the rounds in the results format, losses left to the players.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from movecheck.aa.battle import chain
from movecheck.aa.battle.chained import first_reveals, posted
from movecheck.aa.battle.odds import model_of
from movecheck.aa.battle.replay import Replayer
from movecheck.aa.battle.rounds import Rolled, Roller, fight_round, raid_round
from movecheck.aa.prepare import state_board
from movecheck.aa.turn.battles import Resolution, Result, read_battles, read_raids, read_results, writes_kinds
from movecheck.document import Document
from movecheck.files import read
from movecheck.i18n import _
from movecheck.reading import InputError, read_bytes

if TYPE_CHECKING:
    from movecheck.aa.battle.model import BattleModel
    from movecheck.aa.turn.battles import Battle

SIDES = chain.SIDES


class ChainRefused(Exception):
    """A revealed link does not hash to the one posted before it (AA521: exit 1)."""


# -- reading the inputs ----------------------------------------------------------------------------------


@dataclass
class Inputs:
    resolution: Resolution
    model: type[BattleModel]
    digest: str
    ool: dict[str, Any] | None
    chains: dict[str, Any]


def read_inputs(state_path: str, results_path: str | None) -> Inputs:

    raw = read_bytes(state_path)
    loaded = read(state_path)
    board = state_board(loaded, state_path, _("not an aa battles state (it is {kind})"))
    if (loaded.doc.get("turn", default={}) or {}).get("phase") != "battles":
        raise InputError(f"{state_path}: " + _("not a battles state (turn.phase: battles)"))
    battles, raids = read_battles(loaded.doc, board), read_raids(loaded.doc, board)
    doc = Document(path="-", data={"results": []})
    if results_path is not None:
        results = read(results_path)
        if not results.usable or results.kind != "aa-battles":
            raise InputError(f"{results_path}: " + _("not aa battle results"))
        doc = results.doc
        same_state(state_path, results_path, doc.get("state", default=None))
    found, problems, _broken = read_results(doc, board, battles, set(), raids, set())
    if problems:
        raise InputError(f"{results_path}: " + problems[0].message)
    resolution = Resolution(board, doc, battles, found, True, raids=raids, kinds=writes_kinds(loaded.doc),
                            state=loaded.doc)
    written = doc.get("dice_chain", default=None)
    written = written if isinstance(written, dict) else {}
    ool = written.get("ool") if isinstance(written.get("ool"), dict) else None
    return Inputs(resolution, model_of(loaded.doc, board), chain.state_digest(raw), ool,
                  {s: written.get(s) for s in SIDES} if written else {})


def same_state(state_path: str, results_path: str, named: Any) -> None:
    """The results are for STATE: the dice are bound to its digest and its battles."""
    if not isinstance(named, str):
        return
    target = Path(results_path).parent / named
    try:
        same = os.path.samefile(target, state_path)
    except OSError:
        same = False
    if not same:
        raise InputError(f"{results_path}: " + _("the results are for the state {named}, not {state}").format(
            named=named, state=state_path))


def check_links(inputs: Inputs, reveal: int, links: dict[str, bytes]) -> None:
    """Each revealed link hashes to the link before it that the results post (ChainRefused otherwise)."""
    for side in SIDES:
        chains = posted(inputs.chains.get(side)).chains
        if not chains:
            continue
        before = previous_link(chains, reveal)
        if before is None and known_index(chains, reveal):
            raise InputError(_("the {side}'s x_{before} in the results is not 64 hex digits").format(
                side=side, before=reveal - 1))
        if before is None:
            raise InputError(_("the results post the {side}'s links up to x_{last}: reveal {reveal} needs its "
                               "x_{before} posted first").format(side=side, last=sum(len(c) - 1 for c in chains),
                                                                 reveal=reveal, before=reveal - 1))
        if not chain.follows(links[side], before):
            raise ChainRefused(_("AA521 the {side}'s x_{reveal} does not hash to the x_{before} the results post "
                                 "(SHA-256 of it is {got}, x_{before} is {want})").format(
                side=side, reveal=reveal, before=reveal - 1, got=chain.link_below(links[side]).hex(),
                want=before.hex()))


def known_index(chains: list[list[bytes | None]], reveal: int) -> bool:
    """The results hold an entry (well written or not) where reveal ``reveal``'s previous link belongs."""
    return reveal <= sum(len(links) - 1 for links in chains) + 1 if chains and chains[-1] else False


def previous_link(chains: list[list[bytes | None]], reveal: int) -> bytes | None:
    """The link reveal ``reveal``'s link must hash to: the one before it in its chain (the last chain posted goes
    on past its last link; a new chain posted with its x_0 alone starts from it).  None when none is posted."""
    base = 0
    for i, links in enumerate(chains):
        if reveal - base < len(links) or (i == len(chains) - 1 and reveal - base == len(links)):
            return links[reveal - base - 1]
        base += len(links) - 1
    return None


# -- the reveal ------------------------------------------------------------------------------------------


def result_for(resolution: Resolution, battle: Battle) -> Result:
    for result in resolution.results:
        if result.battle is battle and not result.repeated:
            return result
    return Result(-1, battle.at, battle, {s: {} for s in SIDES})


def rounds_of(resolution: Resolution, result: Result) -> list[Any]:
    if result.index < 0:
        return []
    rounds = resolution.doc.get("results", result.index, "rounds", default=None)
    return rounds if isinstance(rounds, list) else []


def reveal_rounds(inputs: Inputs, reveal: int, links: dict[str, bytes]) -> tuple[list[Rolled], list[str]]:
    """The rounds fought in reveal ``reveal`` and notes about battles left behind."""
    resolution = inputs.resolution
    battles = [*resolution.raids.values(), *resolution.battles.values()]
    replayers: dict[tuple[str, str], tuple[Replayer | None, list[Any], bool]] = {}
    pendings: dict[tuple[str, str], dict[str, Any]] = {}
    for battle in battles:
        result = result_for(resolution, battle)
        rounds = rounds_of(resolution, result)
        if rounds and pending(rounds[-1]):
            pendings[(battle.kind, battle.at)] = rounds[-1]
            rounds = rounds[:-1]
        if battle.raid:
            replayers[(battle.kind, battle.at)] = (None, rounds, bool(rounds))
            continue
        played = Replayer(result, resolution, inputs.model, inputs.ool)
        out = played.run(rounds)
        replayers[(battle.kind, battle.at)] = (played, rounds, bool(out.outcome or out.retreat))
    starts = first_reveals(resolution, lambda key: len(replayers[key][1]) if replayers[key][2] else None)
    found: list[Rolled] = []
    notes: list[str] = []
    for battle in sorted(battles, key=lambda b: (b.at, b.kind != "raid")):
        key = (battle.kind, battle.at)
        replayer, rounds, over = replayers[key]
        start = starts.get(key)
        if over or start is None:
            continue
        due = start + len(rounds)
        if due < reveal:
            notes.append(_("{space} ({kind}): round {round} was fought in reveal {due}, and the results do not give "
                           "it").format(space=battle.at, kind=battle.kind, round=len(rounds) + 1, due=due))
        if due != reveal:
            continue
        rolled = Rolled(battle.at, battle.kind, len(rounds) + 1)
        roller = Roller(replayer, inputs.model, (links["attacker"], links["defender"]), inputs.digest, rolled)
        if battle.raid:
            raid_round(roller, battle)
        else:
            assert replayer is not None
            fight_round(roller, (replayer.state[0], replayer.state[1]), not rounds, pendings.get(key))
        found.append(rolled)
    return found, notes


def pending(entry: Any) -> bool:
    """A round written with its start's decision alone (``submerged:``), its dice still to be rolled: the
    decision a side posts before the round's reveal."""
    return isinstance(entry, dict) and bool(entry.get("submerged")) and not any(
        key in entry for key in ("attacker", "defender", "attacker_losses", "defender_losses", "removed", "retreat"))


def render(digest: str, reveal: int, rolled: list[Rolled]) -> str:
    """The reveal's rounds as YAML, in the results format (byte-identical for the same inputs)."""
    lines = [f"# movecheck dice roll: reveal {reveal}", f"digest: {digest}", f"reveal: {reveal}"]
    if not rolled:
        lines.append("rounds: []  # " + _("no battle fights in this reveal"))
    else:
        lines.append("rounds:")
    for entry in rolled:
        lines.append(f"  - at: {json.dumps(entry.at, ensure_ascii=False)}")
        lines.append(f"    kind: {entry.kind}")
        lines.append(f"    round: {entry.round}")
        for said in ([entry.note] if entry.note else []) + entry.chosen:
            lines.append("    # " + said.replace("\n", " "))
        for side in SIDES:
            steps = entry.dice[side]
            if steps:
                text = ", ".join(f"{step}: {{{groups(steps[step])}}}" for step in chain.STEPS if step in steps)
                lines.append(f"    {side}: {{{text}}}")
    return "\n".join(lines) + "\n"


def groups(dealt: dict[str, list[int]]) -> str:
    return ", ".join(f"{key}: [{', '.join(map(str, dice))}]" for key, dice in dealt.items())


def run_roll(state: str, results: str | None, reveal: int, attacker: str, defender: str) -> tuple[str, list[str], int]:
    """The output of ``movecheck dice roll``, lines for stderr, and the exit code (1: a link refused, AA521)."""
    if reveal < 1:
        raise InputError(_("--round counts reveals from 1 (not {round})").format(round=reveal))
    links: dict[str, bytes] = {}
    for side, text in (("attacker", attacker), ("defender", defender)):
        link = chain.from_hex(text)
        if link is None:
            raise InputError(_("--{side} takes the side's x_K, 64 hex digits").format(side=side))
        links[side] = link
    inputs = read_inputs(state, results)
    try:
        check_links(inputs, reveal, links)
    except ChainRefused as refused:
        return "", [str(refused)], 1
    rolled, notes = reveal_rounds(inputs, reveal, links)
    if not inputs.chains:
        notes.append(_("the results post no dice_chain: the links were not checked against x_{before}").format(
            before=reveal - 1))
    return render(inputs.digest, reveal, rolled), notes, 0


def write_chain(path: str, length: int, force: bool) -> str:
    """A new chain of ``length`` reveals written to ``path`` (its owner alone may read it); its head."""
    if length < 1:
        raise InputError(_("--length takes a number of reveals of 1 or more (not {length})").format(length=length))
    links = chain.new_chain(length)
    target = Path(path)
    text = "".join(f"{link.hex()}\n" for link in links)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL)
    try:
        fd = os.open(target, flags, 0o600)
    except FileExistsError:
        raise InputError(f"{path}: " + _("the file exists: a chain is never overwritten (give --force, or another "
                                         "file)")) from None
    except OSError as error:
        raise InputError(f"{path}: " + _("cannot write the chain ({reason})").format(
            reason=error.strerror or type(error).__name__)) from None
    with os.fdopen(fd, "w", encoding="ascii") as out:
        if hasattr(os, "fchmod"):  # the mode os.open gave, whatever the umask
            os.fchmod(out.fileno(), 0o600)
        out.write(text)
    return links[0].hex()


__all__ = ["ChainRefused", "reveal_rounds", "run_roll", "write_chain"]
