"""Purchase clauses (aa-turn.md, "Purchase"): AA601-AA606, each run once on a purchase file.

A clause looks at the :class:`~movecheck.aa.turn.purchase.Bought` (what the file buys, repairs and
spends on research, read against the state's board and treasury).  The seed rule texts have no
paragraph on purchasing: the clauses follow the 1942 second edition's rulebook as aa-turn.md
words it, and TripleA where the rulebook is silent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from movecheck.aa.turn.purchase import PURCHASE, Bought
from movecheck.aa.wording import unit_phrase
from movecheck.clauses import Violation, clause
from movecheck.i18n import _, ngettext


def purchase_clause(
    code: str, name: str, severity: str, summary: str, *, example: tuple[str, str],
) -> Callable[[Callable[..., Iterable[Violation]]], Callable[..., Iterable[Violation]]]:
    """Declare an aa clause of the purchase phase, run once on the purchase file."""
    return clause(code, name, severity, summary, (), system="aa", phase="purchase", runs=[PURCHASE], example=example)


@purchase_clause("AA601", "purchase-over-budget", "error",
                 "the purchase, repairs and research cost more than the power's IPCs",
                 example=("``purchase: {battleship: 3}`` with 41 IPCs", "``purchase: {battleship: 2}`` with 41 IPCs"))
def purchase_over_budget(bought: Bought) -> Iterator[Violation]:
    """A power spends at most the IPCs it has: the units bought (at the map's costs), the factory damage
    repaired (1 IPC a point) and the IPCs written under ``research:`` together.

    The finding gives the cost, the treasury and the shortfall.  Units the map gives no cost
    for count nothing here (they are AA602).
    """
    cost, treasury = bought.total(), bought.treasury
    if cost > treasury:
        where = ("purchase",) if bought.units else ("repair",) if bought.repair else ("research",)
        short = cost - treasury
        yield Violation(ngettext("the purchase costs {cost} IPCs but the {power} have {treasury}: {short} IPC short",
                                 "the purchase costs {cost} IPCs but the {power} have {treasury}: {short} IPCs short",
                                 short).format(cost=cost, power=bought.power, treasury=treasury, short=short), where)


@purchase_clause("AA602", "purchase-not-buildable", "error",
                 "a unit type the power may not buy on this map (no cost for it)",
                 example=("``purchase: {factory: 1}`` on a map that gives factories no cost",
                          "``purchase: {infantry: 1}``, which costs 3"))
def purchase_not_buildable(bought: Bought) -> Iterator[Violation]:
    """Only unit types with a cost on the map may be bought: a map (an imported TripleA game, say) that
    has no production rule for a type gives it no ``cost``, and no power can buy it."""
    for kind in bought.units:
        if bought.board.map.unit_types[kind].cost is None:
            yield Violation(_("{kind} cannot be bought on this map: the map gives it no cost").format(kind=kind),
                            bought.unit_where(kind))


@purchase_clause("AA603", "purchase-unplaceable", "warning",
                 "more units are bought than the power's factories can place, or ships with no factory on a coast",
                 example=("``purchase: {infantry: 20}`` with factories worth 10 + 3",
                          "``purchase: {infantry: 13}``"))
def purchase_unplaceable(bought: Bought) -> Iterator[Violation]:
    """The units bought (factories excepted) and those still waiting to be placed (``to_place:``) should fit
    the mobilization capacity of the factories the power holds: each mobilizes its territory's IPC value
    less its damage.  Sea units need a factory on a coast (a territory bordering a sea zone).

    Legal all the same: what cannot be placed at mobilization is handled there (AA707).
    """
    board = bought.board
    factories = bought.factories()
    placed = {**bought.waiting}
    for kind, n in bought.units.items():
        placed[kind] = placed.get(kind, 0) + n
    count = sum(n for kind, n in placed.items() if not board.map.unit_types[kind].is_factory)
    capacity = sum(bought.capacity(f) for f in factories)
    if bought.units and count > capacity:
        message = _("{count} units wait to be placed but the factories of the {power} mobilize {capacity}: "
                    "the rest cannot be placed (AA707)")
        yield Violation(message.format(count=count, power=bought.power, capacity=capacity), ("purchase",))
    ships = [kind for kind in bought.units if board.map.unit_types[kind].is_sea]
    coastal = [f for f in factories if any(board.is_sea(n) for n in board.map.neighbours(f.at))]
    if ships and not coastal:
        for kind in ships:
            yield Violation(_("{units} cannot be placed: no factory of the {power} is on a coast").format(
                units=unit_phrase(bought.units[kind], kind), power=bought.power), bought.unit_where(kind))


@purchase_clause("AA604", "repair-exceeds-damage", "error",
                 "a repair mends more damage than the factory has",
                 example=("``repair: {Germany: 4}`` where the factory in Germany has 3 damage",
                          "``repair: {Germany: 3}``"))
def repair_exceeds_damage(bought: Bought) -> Iterator[Violation]:
    """A repair mends the damage of one of the power's own factories (1942 second edition: 1 IPC a point),
    at most the damage it has; a territory holding no factory of the power has nothing to repair."""
    for space, points in bought.repair.items():
        factory = bought.factory_at(space)
        if factory is None:
            message = _("{space} holds no factory of the {power} to repair")
            yield Violation(message.format(space=space, power=bought.power), bought.repair_where(space))
        elif points > factory.damage:
            message = _("a repair of {points} in {space} is more than the damage of its factory ({damage})")
            where = bought.repair_where(space)
            yield Violation(message.format(points=points, space=space, damage=factory.damage), where)


@purchase_clause("AA605", "purchase-without-capital", "error",
                 "a power that does not hold its own capital buys and repairs nothing",
                 example=("``purchase: {infantry: 1}`` for the Russians while the Germans hold Russia",
                          "``purchase: {}`` for them"))
def purchase_without_capital(bought: Bought) -> Iterator[Violation]:
    """A power whose capital is in enemy hands skips its purchase (TripleA skips the phase): it buys no
    unit, repairs no factory and spends nothing on research; whatever IPCs it has stay in its treasury.
    A purchase of nothing (``purchase: {}``) is legal."""
    if bought.has_capital() or not (bought.units or bought.repair or bought.research):
        return
    capital = bought.board.map.capitals.get(bought.power)
    holder = bought.board.control.get(capital or "")
    where = ("purchase",) if bought.units else ("repair",) if bought.repair else ("research",)
    yield Violation(_("the {power} do not hold their capital {capital} (the {holder} do): they buy and repair "
                      "nothing").format(power=bought.power, capital=capital, holder=holder), where)


@purchase_clause("AA606", "research-not-in-edition", "error",
                 "IPCs under research: in a purchase where the edition has no research step (1942 second edition); "
                 "Revised keeps it",
                 example=("``research: 5`` under the 1942 second edition", "``research: 5`` under Revised"))
def research_not_in_edition(bought: Bought) -> Iterator[Violation]:
    """IPCs go to research only where the turn has a research step: Revised's weapons development
    (option ``research_step``).  The 1942 second edition has none, nor Anniversary as the built-in
    presets play it (technology off): there ``research:`` would spend IPCs on nothing, so it is an
    error rather than a silent loss.  ``research: 0`` spends nothing and is never reported.
    """
    if bought.research and not bought.board.options["research_step"]:
        yield Violation(_("research: {ipcs} IPCs, but these rules have no research step: no IPCs are spent on "
                          "research (option research_step is off)").format(ipcs=bought.research), ("research",))
