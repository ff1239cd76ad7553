"""China's clauses in the Anniversary edition (aa-anniversary.md, "China"; option ``chinese_rules``):
AA110 on movement, AA710 and AA711 on placement.  Each runs only for a power the map's ``player_rules`` name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from movecheck.aa.checks import aa_clause, mobilize_clause
from movecheck.aa.turn.china import allowed_spaces, placement_limit, places_anywhere
from movecheck.clauses import Violation
from movecheck.i18n import _

if TYPE_CHECKING:
    from movecheck.aa.moves import Move
    from movecheck.aa.phase import Phase
    from movecheck.aa.turn.mobilize import Mobilization, Placement


@aa_clause("AA110", "move-not-allowed", "error",
           "a unit of a power with a movement restriction (the Chinese in Anniversary) enters only the territories "
           "its rules list, never a sea zone", phase="both",
           example=("a Chinese infantry moves from Yunnan to Burma", "it moves from Yunnan to Kwangtung"))
def move_outside_allowed(move: Move, phase: Phase) -> Iterator[Violation]:
    """The Chinese units (land and air alike) move only within the map's listed Chinese territories
    (``player_rules``: ``move_only_in``); any other space, sea zones included, is out of bounds.

    Governed by the option ``chinese_rules`` (on in aa-anniversary)."""
    allowed = allowed_spaces(phase.board, phase.board.power)
    if allowed is None:
        return
    for k, space in enumerate(move.path[1:], start=1):
        if space not in allowed:
            yield Violation(
                _("{units} cannot enter {space}: the {power} move only within {allowed}").format(
                    units=move.label(), space=space, power=phase.board.power, allowed=", ".join(sorted(allowed))),
                move.step(k),
            )
            return


@mobilize_clause("AA710", "place-not-own", "error",
                 "a power that places without a factory (the Chinese in Anniversary) places only in a territory it "
                 "controls (captured ones included), never at sea",
                 example=("``- {at: Burma, units: {infantry: 1}}`` by the Chinese",
                          "``- {at: Yunnan, units: {infantry: 1}}``"))
def place_outside_own(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """The Chinese place their free infantry in any territory they control, no factory needed (TripleA's
    ``placementAnyTerritory`` and ``placementCapturedTerritory``); AA702 does not apply to them."""
    board = mob.board
    if not places_anywhere(board, mob.power):
        return
    if board.is_sea(placement.at):
        yield Violation(_("the {power} place no units at sea ({space})").format(power=mob.power, space=placement.at),
                        (*placement.where, "at"))
    elif board.control.get(placement.at) != mob.power:
        yield Violation(_("the {power} do not hold {space}").format(power=mob.power, space=placement.at),
                        (*placement.where, "at"))


@mobilize_clause("AA711", "place-crowded", "error",
                 "a power with a placement limit (the Chinese in Anniversary: 3) places nothing in a territory holding "
                 "that many of its units when placing starts",
                 example=("Chinese infantry placed in Yunnan, holding 3 Chinese units",
                          "placed in Sikang, holding 2"))
def place_crowded(placement: Placement, mob: Mobilization) -> Iterator[Violation]:
    """TripleA counts the power's units in the territory before placing (``placementPerTerritory``): a territory
    under the limit takes any number; one at it or above takes none."""
    limit = placement_limit(mob.board, mob.power)
    if limit is None or mob.board.is_sea(placement.at):
        return
    there = sum(1 for u in mob.board.units_at(placement.at) if u.power == mob.power)
    if there >= limit:
        yield Violation(_("{space} holds {count} units of the {power} when placing starts: they place nothing where "
                          "they have {limit} or more").format(space=placement.at, count=there, power=mob.power,
                                                              limit=limit),
                        (*placement.where, "at"))
