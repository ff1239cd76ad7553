"""A battle result's replay, made once per check and kept on its resolution: its written rounds played on the
battle (:mod:`movecheck.aa.battle.replay`), or its pasted dice read and settled (:mod:`movecheck.aa.battle.settle`).
The clauses of the dice read their findings from here (:func:`mismatches`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.battle.odds import model_of
from movecheck.aa.battle.replay import Replay, pasted_text, raid_replay, replay, rounds_of
from movecheck.aa.battle.settle import pasted_replay
from movecheck.clauses import Violation

if TYPE_CHECKING:
    from movecheck.aa.turn.battles import Resolution, Result


def replayed(result: Result, resolution: Resolution) -> Replay | None:
    """The result's rounds re-derived (None: no rounds or pasted dice, or no battle to judge them on)."""
    text = pasted_text(result, resolution)
    if result.battle is None or result.repeated or not (rounds_of(result, resolution) or text is not None):
        return None
    if result.index in resolution.replays:
        found: Replay | None = resolution.replays[result.index]
        return found
    state = resolution.state if resolution.state is not None else resolution.doc
    model = model_of(state, resolution.board)
    ool = resolution.doc.get("results", result.index, "ool", default=None) or resolution.doc.get("ool")
    ool = ool if isinstance(ool, dict) else None
    if text is not None:
        found = pasted_replay(result, resolution, model, ool, text)
    elif result.battle.raid:
        found = raid_replay(result, rounds_of(result, resolution), model, not model.aa_attacker_chooses)
    else:
        found = replay(result, resolution, rounds_of(result, resolution), model, ool)
    if found is not None and text is None:
        found.rounds = len(rounds_of(result, resolution))
    resolution.replays[result.index] = found
    return found


def mismatches(code: str, result: Result, resolution: Resolution) -> Iterator[Violation]:
    found = replayed(result, resolution)
    for mismatch in found.mismatches if found else []:
        if mismatch.code == code:
            yield Violation(mismatch.message, mismatch.where)
