"""The whole turn's odds: every battle asked, and the chance that every battle is won and every
territory taken, an amphibious landing mixed over the sea battle that decides it (aa-battle.md,
"A whole turn")."""

from __future__ import annotations

from movecheck.aa.battle.odds import Ask, Game, Priced, Spec, check_ool, price
from movecheck.aa.battle.side import ATTACKER_WINS, Num
from movecheck.i18n import _
from movecheck.reading import InputError


def price_all(game: Game, specs: list[Spec], ask: Ask) -> tuple[list[Priced], dict[str, Num] | None]:
    """Every battle asked (``--battle``: those of one space), and the turn's joint odds (None when a
    battle's odds could not be given)."""
    ool = check_ool(game, ask)
    chosen = specs
    if ask.battle is not None:
        at = game.board.map.resolve(ask.battle)
        chosen = [s for s in specs if s.at == at]
        if not chosen:
            raise InputError(_("no battle at {space} in this state").format(space=repr(ask.battle)))
    priced = [price(game, spec, specs, ask, ool) for spec in chosen]
    if any(p.unchecked for p in priced):
        return priced, None
    return priced, turn_odds(game, priced, specs, ask, ool)


def turn_odds(game: Game, priced: list[Priced], specs: list[Spec], ask: Ask, ool: dict[str, list[str]]
              ) -> dict[str, Num]:
    """The chance that every battle is won and that every territory attacked is taken."""
    one: Num = priced[0].battle.one if priced and priced[0].battle is not None else 1.0
    by_at = {p.spec.at: p for p in priced if p.spec.kind == "sea"}
    landings: dict[str, list[Priced]] = {}
    for p in priced:
        zone = next((o for o in p.spec.origins if o in by_at), None) if p.spec.amphibious else None
        if zone is not None:
            landings.setdefault(zone, []).append(p)
    dependent = {id(p) for group in landings.values() for p in group}
    won, taken = one, one
    for p in priced:
        if id(p) in dependent:
            continue
        if p.spec.at in landings:
            w, t = sea_and_landings(game, p, landings[p.spec.at], specs, ask, ool)
        elif p.spec.kind == "raid":
            w, t = one, one
        elif p.spec.kind == "sea":
            w, t = p.outcomes["attacker_wins"], one
        else:
            w, t = p.outcomes["attacker_wins"], p.outcomes["territory_taken"]
        won, taken = won * w, taken * t
    return {"every_battle_won": won, "every_territory_taken": taken}


def sea_and_landings(game: Game, sea: Priced, landings: list[Priced], specs: list[Spec], ask: Ask,
                     ool: dict[str, list[str]]) -> tuple[Num, Num]:
    """A sea battle and the landings it decides: mixed over the transports that come through."""
    battle = sea.battle
    assert battle is not None
    transports = [i for i, k in enumerate(battle.att.kinds) if k.transport and not k.out]
    count = sum(battle.start[0][i] for i in transports)
    loads = pack(game, [p.spec for p in landings], count)
    cache: dict[tuple[int, int], tuple[Num, Num]] = {}
    won, taken = 0 * battle.one, 0 * battle.one
    for (state, outcome), p in sea.ends.items():
        through = sum(state[0][i] for i in transports) if outcome == ATTACKER_WINS else 0
        w_all, t_all = (battle.one if outcome == ATTACKER_WINS else 0 * battle.one), battle.one
        for index, landing in enumerate(landings):
            key = (index, through)
            if key not in cache:
                cache[key] = landing_odds(game, landing, loads, index, count - through, specs, ask, ool)
            w, t = cache[key]
            w_all, t_all = w_all * w, t_all * t
        won += p * w_all
        taken += p * t_all
    return won, taken


def pack(game: Game, landings: list[Spec], count: int) -> list[list[tuple[int, str]]]:
    """The amphibious units of ``landings`` in ``count`` transports (first fit, costliest first), the
    transports whose cargo costs least first: what each transport carries, as (landing, type)."""
    transport = next((t for t in game.types.values() if t.is_transport), None)
    room = transport.transport_capacity if transport is not None else 5
    holds: list[list[tuple[int, str]]] = [[] for _slot in range(count)]
    space = [room] * count
    cargo = [(index, name) for index, spec in enumerate(landings) for name, n in spec.amphibious.items()
             for _unit in range(n)]
    cargo.sort(key=lambda c: -(game.types[c[1]].cost or 0))
    for index, name in cargo:
        need = game.types[name].transport_cost
        slot = next((i for i in range(count) if space[i] >= need), None)
        if slot is None:
            slot = max(range(count), key=lambda i: space[i]) if count else None
        if slot is not None:
            holds[slot].append((index, name))
            space[slot] -= need
    return sorted(holds, key=lambda h: sum(game.types[n].cost or 0 for _i, n in h))


def landing_odds(game: Game, landing: Priced, loads: list[list[tuple[int, str]]], index: int, sunk: int,
                 specs: list[Spec], ask: Ask, ool: dict[str, list[str]]) -> tuple[Num, Num]:
    """A landing's chance of winning and of taking its territory when ``sunk`` transports did not come."""
    attackers = dict(landing.spec.attackers)
    for hold in loads[:sunk]:
        for owner, name in hold:
            if owner == index and attackers.get(name):
                attackers[name] -= 1
    attackers = {t: n for t, n in attackers.items() if n > 0}
    if attackers == landing.spec.attackers:
        return landing.outcomes["attacker_wins"], landing.outcomes["territory_taken"]
    if not attackers:
        zero = 0 * (landing.battle.one if landing.battle is not None else 1.0)
        return zero, zero
    again = price(game, landing.spec, specs, ask, ool, attackers)
    return again.outcomes["attacker_wins"], again.outcomes["territory_taken"]
