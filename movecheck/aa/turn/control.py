"""Who holds a territory after it is taken (aa-turn.md, "Control: capture and liberation").

``movecheck apply`` calls :func:`take` for every hostile territory the moving power takes:
an empty one its land units enter in the combat move (the ones a tank blitzes through
included), and one whose defenders are gone after the battle results.  A territory first
held by a power of the capturer's side is *liberated*: it returns to that power, provided
the power holds its own capital or its capital is held by no power (while the capital is in
another power's hands the liberator holds it).  A territory's first holder is its original owner
(the map's ``original_owner``, TripleA's ``originalOwner``; else its initial control).  A capital
liberated returns at once, and with it every territory its power first held that an ally holds
(also when the power takes it back itself).  The units that change hands with
a territory (factories, and AA guns where ``aa_guns_captured``:
:meth:`~movecheck.aa.model.Board.changes_hands`) go to the new holder; a factory keeps its damage.
Control changes in no other way (C5).
"""

from __future__ import annotations

from movecheck.aa.model import Board


def take(board: Board, space: str, power: str) -> None:
    """``power`` takes the hostile territory ``space``: it changes hands, and joins ``captured_this_turn``.

    Taking an enemy capital that its own power holds takes that power's IPCs at once
    (aa-turn.md, "Income"); liberating one moves none.  Each taking is logged in
    ``board.taken`` (and the IPCs moved in ``board.transfers``) for the apply header and report.
    """
    holder = new_holder(board, space, power)
    was = board.control.get(space)
    if was is not None and board.map.capitals.get(was) == space and not _allies(board, was, power):
        seize_treasury(board, was, power, space)
    hand_over(board, space, holder)
    board.captured.add(space)
    board.taken.append((space, power, holder, was))
    if board.map.capitals.get(holder) == space:  # a capital back with its power: so are its lands an ally holds
        for other, first in sorted(board.map.original_owner.items()):
            owner = board.control.get(other)
            if first == holder and owner != holder and _allies(board, owner, holder):
                hand_over(board, other, holder)
                if other not in board.captured:  # returned with the capital: the header and the post say so
                    board.taken.append((other, power, holder, owner))


def new_holder(board: Board, space: str, power: str) -> str:
    """Who holds ``space`` once ``power`` takes it: its original owner when that is an ally of ``power``
    holding its own capital (or it is that capital, or the power has none, or no power holds it: China's
    in TripleA's v3 maps, as TripleA does), else ``power``."""
    first = board.map.original_owner.get(space)
    if first is None or first == power or not _allies(board, first, power):
        return power
    capital = board.map.capitals.get(first)
    if capital is None or capital == space or board.control.get(capital) in (first, None):
        return first
    return power


def hand_over(board: Board, space: str, holder: str) -> None:
    """``space`` passes to ``holder``, with the factories (and captured AA guns) of its former holder or of
    ``holder``'s enemies there."""
    before = board.control.get(space)
    board.control[space] = holder
    for unit in board.units_at(space):
        if board.changes_hands(unit) and (unit.power == before or not _allies(board, unit.power, holder)):
            unit.power = holder


def seize_treasury(board: Board, loser: str, taker: str, capital: str) -> None:
    """``taker`` takes ``loser``'s capital: all of ``loser``'s IPCs pass to ``taker``."""
    if board.ipcs is None:
        return  # the treasuries are not known (no ipcs: past round 1): nothing to move
    amount = board.ipcs.get(loser, 0)
    board.ipcs[loser] = 0
    board.ipcs[taker] = board.ipcs.get(taker, 0) + amount
    board.transfers.append((loser, taker, amount, capital))


def _allies(board: Board, a: str | None, b: str | None) -> bool:
    """Two powers of one side."""
    side = board.map.side_of.get(a) if a is not None else None
    return side is not None and b is not None and side == board.map.side_of.get(b)


__all__ = ["hand_over", "new_holder", "seize_treasury", "take"]
