"""Income at the end of a power's turn (aa-turn.md, "Income").

The power collects the IPC value of every territory it controls once its mobilization is
over; a power that does not hold its own capital then collects nothing (a capital it took back
during the turn counts as held: control at the end of the turn is what counts).  The map's
``production:`` gives each territory's value; a power the map names no capital for always
collects.
"""

from __future__ import annotations

from movecheck.aa.model import Board
from movecheck.aa.turn.apply_report import Income


def income(board: Board, power: str) -> Income:
    """What ``power`` collects on ``board`` as it stands: the amount, the territories counted, why nothing."""
    held = {space: value for space, value in sorted(board.map.production.items())
            if value > 0 and board.control.get(space) == power}
    capital = board.map.capitals.get(power)
    if capital is not None and board.control.get(capital) != power:
        holder = board.control.get(capital) or "nobody"
        return Income(power, 0, held, f"its capital {capital} is held by the {holder}: no income")
    return Income(power, sum(held.values()), held)


def collect(board: Board, power: str) -> Income:
    """``power`` collects its income: added to its treasury (when the board knows the treasuries)."""
    found = income(board, power)
    if board.ipcs is not None:
        board.ipcs[power] = board.ipcs.get(power, 0) + found.amount
    return found


__all__ = ["collect", "income"]
