"""``movecheck odds``: the exact odds of every battle of a battles state, and of the whole turn.

A battle of the state (``battles:``) is made into a :class:`movecheck.aa.battle.engine.Battle`
under its edition's model, solved, and summed up (:class:`Priced`): the outcomes, the
survivors, the IPCs each side loses and the swing.  The turn joins them: battles that do not
depend on each other are independent; an amphibious landing depends on the sea battle of the
zone its cargo comes from, and is priced again for each number of transports that come through.
Raids are priced in closed form (:func:`price_raid`).  The report is written by
:mod:`movecheck.aa.battle.report`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from movecheck.aa.battle.engine import Battle
from movecheck.aa.battle.model import BattleModel, model_for
from movecheck.aa.battle.side import (
    ATTACKER_WINS,
    BOTH_DESTROYED,
    BUDGET_VARIABLE,
    DEFAULT_BUDGET,
    DEFENDER_HOLDS,
    RETREAT,
    STALEMATE,
    Inexact,
    Num,
    State,
    binomial,
)
from movecheck.aa.battle.solve import solve_switched
from movecheck.aa.battle.units import Landing, make_battle
from movecheck.aa.prepare import state_board
from movecheck.aa.turn.battles import territory_guns
from movecheck.budget import SearchLimit, budget
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.systems import has_errors, resolve_rules, system


@dataclass
class Ask:
    """What the command line asks: order of loss, retreat rule, submerges, exactness, one space."""

    ool: dict[str, list[str]] = field(default_factory=dict)
    keep_land: int | None = None
    retreat_after: int | None = None
    retreat_below: float | None = None
    best_retreat: bool = False
    submerge: frozenset[str] = frozenset()
    submerge_from: int = 0
    """The round from which ``submerge`` applies (a result's submerge written at that round); 0: from the
    first moment the edition allows."""
    exact: bool = False
    battle: str | None = None
    bombard: bool = True


@dataclass
class Spec:
    """One battle of the state, as read: where, which kind, who, from where."""

    at: str
    kind: str
    attackers: dict[str, int]
    defenders: dict[str, int]
    origins: list[str]
    amphibious: dict[str, int]
    index: int


@dataclass
class Priced:
    """A battle's odds: the ends with their probabilities, and what the report needs of them."""

    spec: Spec
    ool: dict[str, list[str]] | None = None
    keep_land: int = 0
    outcomes: dict[str, Num] = field(default_factory=dict)
    survivors: dict[str, dict[str, dict[int, Num]]] = field(default_factory=dict)
    ipc_lost: dict[str, Num] = field(default_factory=dict)
    swing: dict[int, Num] = field(default_factory=dict)
    rounds: Num = 0
    retreat: dict[str, Any] | None = None
    best: tuple[Num, Num] | None = None
    """With --best-retreat: its expected swing, and fighting to the end's."""
    raid: dict[str, dict[int, Num]] | None = None
    ends: dict[tuple[State, str], Num] = field(default_factory=dict)
    battle: Battle | None = None
    unchecked: str | None = None
    """Why the odds could not be given (MC012): the budget ran out."""
    result: dict[str, Any] | None = None
    """For a results file: the result's IPC swing and its luck (:mod:`movecheck.aa.battle.luck`)."""
    low_luck: tuple[str, ...] = ()
    """The Low Luck options on for the battle (aa-battle.md, "Low Luck")."""
    aa_guns: int = 0
    """The territory's AA guns that fire though they are no defenders of the battle (infrastructure)."""


class Game:
    """The state's map, edition model, units and treasuries, as the odds need them."""

    def __init__(self, board: Any, model: type[BattleModel], production: dict[str, int]) -> None:
        self.board = board
        self.model = model
        self.types = board.map.unit_types
        self.production = production

    def is_sea(self, space: str) -> bool:
        return bool(self.board.is_sea(space))

    def low_luck(self) -> dict[str, bool]:
        """The battle's Low Luck options (aa-battle.md, "Low Luck"), as :func:`make_battle` takes them."""
        options = self.board.options
        return {"low_luck": bool(options["low_luck"]), "low_luck_aa": bool(options["low_luck_aa"])}

    def low_luck_bombing(self) -> bool:
        return bool(self.board.options["low_luck_bombing"])

    def low_luck_names(self) -> tuple[str, ...]:
        """The Low Luck options that are on."""
        on = {**self.low_luck(), "low_luck_bombing": self.low_luck_bombing()}
        return tuple(name for name, value in on.items() if value)


def read_state(path: str, kernel: Any = None) -> tuple[Game, list[Spec]]:
    """The game and the battles of a battles state, or of the battles state a legal combat-move orders
    file leads to (``kernel``: the run's services, to check the orders); InputError (one line, exit 2)
    when there are none."""
    from movecheck.files import read

    loaded = read(path)
    if loaded.usable and loaded.kind == "aa-orders" and kernel is not None and not has_errors(loaded.findings):
        loaded = orders_battles(path, kernel)
    rules = configured_rules(loaded, path)
    board = state_board(loaded, path, _("not an aa battles state (it is {kind})"), rules)
    game = Game(board, model_of(loaded.doc, board, rules), board.map.production)
    specs = battle_specs(game, loaded.doc.data.get("battles"))
    if not specs:
        raise InputError(f"{path}: " + _("the state lists no battles (odds need a state in its battles phase)"))
    return game, specs


def configured_rules(loaded: Any, path: str) -> Any:
    """The edition and options of an aa state as ``check`` resolves them: its own, then the configuration that
    applies to it (``aa.rules``, ``aa.options``); None for a file that is no usable aa state."""
    from movecheck.session import Session

    if not (loaded.usable and loaded.kind == "aa-state"):
        return None
    return Session.start([path], fmt="text", color="never").settings().rules_for(loaded)


def model_of(doc: Any, board: Any, rules: Any = None) -> type[BattleModel]:
    """The battle model of a state's edition (its own, the configuration's, its map's, the default)."""
    from movecheck.aa.maps.files import edition_of

    edition, _problems = edition_of(doc, board.map, rules or resolve_rules(system("aa"), doc.data))
    extends = tuple(str(getattr(e, "name", "")) for e in edition.__mro__[1:] if getattr(e, "name", ""))
    return model_for(edition.name, extends)


def post_odds(board: Any, doc: Any, battles: list[dict[str, Any]]) -> list[Priced]:
    """The odds of the battles a combat move starts, for its post (``battles``: the battles state's
    entries, ``board``: the board after the move), in the order of ``battles``."""
    game = Game(board, model_of(doc, board), board.map.production)
    specs = battle_specs(game, battles)
    priced = [price(game, spec, specs, Ask(), {}) for spec in specs]
    return sorted(priced, key=lambda p: p.spec.index)


def orders_battles(path: str, kernel: Any) -> Any:
    """The battles state that legal combat-move orders lead to, as ``movecheck apply`` would write it."""
    from movecheck.files import examine
    from movecheck.loading import load_bytes
    from movecheck.session import Session

    session = Session.start([path], fmt="text", color="never")
    outcomes: dict[str, Any] = {}
    report, _status = kernel.check([path], session.settings(), outcomes)
    found = next(iter(outcomes.values()), None)
    if report.exit_code() != 0 or found is None or found[0].final is None or found[0].hold:
        raise InputError(f"{path}: " + _("the orders are not legal, so their battles are not known; see "
                                         "'movecheck check {path}'").format(path=path))
    outcome, prepared = found
    text = system("aa").next_state(outcome, prepared, path, None, False)
    return examine(load_bytes(text.encode("utf-8"), path))


def battle_specs(game: Game, entries: Any) -> list[Spec]:
    """The battles of a state's ``battles:``, raids first at their space (names resolved by the board)."""
    found = []
    names = game.board.map
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        at = names.resolve(entry.get("at")) or str(entry.get("at"))
        kind = entry.get("kind") or ("sea" if game.is_sea(at) else "land")

        def units(key: str, entry: dict[str, Any] = entry) -> dict[str, int]:
            table = entry.get(key) or {}
            return {names.resolve_type(t) or str(t): int(n) for t, n in table.items() if isinstance(n, int) and n > 0}

        origins = [names.resolve(o) or str(o) for o in entry.get("from") or []]
        found.append(Spec(at, str(kind), units("attackers"), units("defenders"), origins, units("amphibious"), index))
    return sorted(found, key=lambda s: (s.kind != "raid", s.index))


def check_ool(game: Game, ask: Ask) -> dict[str, list[str]]:
    """The --ool lists with the map's type names; an unknown name is a usage error (exit 2)."""
    resolved: dict[str, list[str]] = {}
    for side, names in ask.ool.items():
        resolved[side] = []
        for name in names:
            kind = game.board.map.resolve_type(name)
            if kind is None:
                raise InputError(_("--ool {side}: {name} is no unit type of map {map}").format(
                    side=side, name=repr(name), map=game.board.map.name))
            resolved[side].append(kind)
    return resolved


def bombarding(game: Game, spec: Spec, specs: list[Spec]) -> tuple[int, ...]:
    """The values of the ships that bombard a landing: the moving power's ships that bombard (the map's
    ``bombard`` stat, else the edition's bombarding types) in the zones its amphibious units came from, none
    from a zone with a sea battle."""
    if not spec.amphibious:
        return ()
    fought = {s.at for s in specs if s.kind == "sea"}
    ships = []
    for zone in spec.origins:
        if not game.is_sea(zone) or zone in fought:
            continue
        for unit in game.board.units_at(zone):
            value = game.model.bombard_value(game.types[unit.type])
            if unit.power == game.board.power and value:
                ships.append(value)
    ships.sort(reverse=True)
    if game.model.bombard_per_land_unit:
        ships = ships[: sum(spec.amphibious.values())]
    return tuple(ships)


def may_retreat(game: Game, spec: Spec, ask: Ask | None = None, attackers: dict[str, int] | None = None) -> bool:
    """A retreat space exists (a space it came from that is no sea zone with a battle), or only aircraft
    attack.  With amphibious units, only when a retreat is asked and some attacker may leave (the partial
    amphibious retreat, :func:`landing`)."""
    if spec.amphibious:
        found = landing(game, spec, ask, attackers)
        return found is not None and any(found.leaves_type(game.types[t]) for t in found.overland)
    return bool(spec.origins) or all(game.types[t].is_air for t in spec.attackers)


def retreat_asked(ask: Ask | None) -> bool:
    return ask is not None and (ask.retreat_after is not None or ask.retreat_below is not None or ask.best_retreat)


def landing(game: Game, spec: Spec, ask: Ask | None, attackers: dict[str, int] | None = None) -> Landing | None:
    """A battle with amphibious units under a retreat rule: its amphibious units (less the cargo of the
    transports sunk, when ``attackers`` replaces the battle's), and whether its overland land units may
    leave (the edition's partial amphibious retreat, and a land space they came from).  None without a
    retreat asked: the battle is then priced as one force."""
    if not spec.amphibious or not retreat_asked(ask):
        return None
    attackers = spec.attackers if attackers is None else attackers
    sunk = {t: spec.attackers.get(t, 0) - attackers.get(t, 0) for t in spec.attackers}
    from_sea = {t: max(0, n - sunk.get(t, 0)) for t, n in spec.amphibious.items()}
    overland = {t: n - from_sea.get(t, 0) for t, n in attackers.items() if n > from_sea.get(t, 0)}
    land_origin = any(not game.is_sea(o) for o in spec.origins)
    return Landing(from_sea, game.model.partial_amphibious_retreat and land_origin, overland)


def price(game: Game, spec: Spec, specs: list[Spec], ask: Ask, ool: dict[str, list[str]],
          attackers: dict[str, int] | None = None) -> Priced:
    """The odds of one battle (its attackers replaced by ``attackers`` when given)."""
    if spec.kind == "raid":
        raid = price_raid(game, spec)
        raid.low_luck = game.low_luck_names()
        return raid
    land = spec.kind == "land"
    guns = infrastructure_guns(game, spec)

    def made(submerge: frozenset[str]) -> tuple[Battle, dict[str, list[str]]]:
        return make_battle(
            game.model, game.types, attackers if attackers is not None else spec.attackers, spec.defenders,
            land=land, ool=ool, keep_land=ask.keep_land, bombard=bombarding(game, spec, specs) if ask.bombard else (),
            may_retreat=may_retreat(game, spec, ask, attackers), submerge=submerge, exact=ask.exact,
            budget=budget(BUDGET_VARIABLE, DEFAULT_BUDGET), landing=landing(game, spec, ask, attackers),
            aa_guns=guns, **game.low_luck())

    battle, used = made(ask.submerge)
    before = made(frozenset())[0] if ask.submerge and ask.submerge_from > 1 else None
    planes = any(game.types[t].is_air for t in (spec.attackers if attackers is None else attackers))
    priced = Priced(spec, used, battle.att.keep_land, low_luck=game.low_luck_names(), aa_guns=guns if planes else 0)
    try:
        solve(battle, game, spec, ask, priced, before)
    except SearchLimit as limit:
        priced.unchecked = limit.reason()
    except Inexact:
        ask_exact = Ask(**{**ask.__dict__, "exact": True})
        return price(game, spec, specs, ask_exact, ool, attackers)
    return priced


def infrastructure_guns(game: Game, spec: Spec) -> int:
    """The AA guns of a land battle's territory that fire though the state leaves them out of its defenders
    (infrastructure: Revised, Anniversary), as the dice replay counts them; none that the defenders list."""
    if spec.kind != "land":
        return 0
    return max(0, territory_guns(game.board, spec.at) - spec.defenders.get("aa_gun", 0))


def taken_value(game: Game, spec: Spec) -> int:
    """What the defending side loses when the territory is taken: its IPC value, and the treasury of a
    power whose capital it is."""
    value = game.production.get(spec.at, 0)
    board = game.board
    for power, capital in board.map.capitals.items():
        if capital == spec.at and board.ipcs is not None and not board.friendly_power(power):
            value += board.ipcs.get(power, 0)
    return value


def solve(battle: Battle, game: Game, spec: Spec, ask: Ask, priced: Priced, before: Battle | None = None) -> None:
    """Solve a battle under the retreat rule asked, and sum its ends up into ``priced`` (``before``: the
    battle without the chosen submerges, fought before round ``ask.submerge_from``)."""
    worth = taken_value(game, spec) if spec.kind == "land" else 0

    def swing(state: State, outcome: str) -> Num:
        a, d = state
        lost_a = sum((n - c) * k.cost for n, c, k in zip(battle.start[0], a, battle.att.kinds, strict=True))
        lost_d = sum((n - c) * k.cost for n, c, k in zip(battle.start[1], d, battle.dfn.kinds, strict=True))
        gained = worth if outcome == ATTACKER_WINS and battle.taken(state) else 0
        return lost_d + gained - lost_a

    rule: Callable[[State, int], bool] | None = None
    explicit = 0
    if ask.retreat_after is not None:
        after = ask.retreat_after
        priced.retreat = {"after": after}
        explicit = after

        def rule(_state: State, round_number: int) -> bool:
            return round_number >= after
    elif ask.retreat_below is not None:
        below = ask.retreat_below
        priced.retreat = {"below": below}
        wins, _none = battle.values(lambda s, o: battle.one if win(battle, s, o) else 0 * battle.one)

        def rule(state: State, _round: int) -> bool:
            return bool(wins[state] < below)
    elif ask.best_retreat:
        priced.retreat = {"best": True}
        _best, retreats = battle.values(swing, lambda s: swing(s, RETREAT))

        def rule(state: State, _round: int) -> bool:
            return state in retreats
    if before is not None:
        solution = solve_switched(before, battle, ask.submerge_from, rule, explicit)
    else:
        solution = battle.solve(rule, explicit)
    priced.ends, priced.battle = solution.ends, battle
    summarise(battle, solution.ends, swing, priced)
    priced.rounds = solution.rounds
    if ask.best_retreat:
        priced.best = (priced_mean(priced.swing), fight_to_end(battle, swing))


def win(battle: Battle, state: State, outcome: str) -> bool:
    """Winning, for --retreat-below: taking the territory in a land battle, else an attacker win."""
    return outcome == ATTACKER_WINS and (battle.taken(state) or not battle.land)


def fight_to_end(battle: Battle, swing: Callable[[State, str], Num]) -> Num:
    ends = battle.solve().ends
    return sum((p * swing(s, o) for (s, o), p in ends.items()), 0 * battle.one)


def priced_mean(dist: dict[int, Num]) -> Num:
    return sum((v * p for v, p in dist.items()), 0)


def summarise(battle: Battle, ends: dict[tuple[State, str], Num], swing: Callable[[State, str], Num],
              priced: Priced) -> None:
    zero = 0 * battle.one
    outcomes = {"attacker_wins": zero, "territory_taken": zero, "defender_holds": zero, "both_destroyed": zero,
                "stalemate": zero}
    names = {ATTACKER_WINS: "attacker_wins", DEFENDER_HOLDS: "defender_holds", RETREAT: "defender_holds",
             BOTH_DESTROYED: "both_destroyed", STALEMATE: "stalemate"}
    survivors: dict[str, dict[str, dict[int, Num]]] = {"attacker": {}, "defender": {}}
    lost = {"attacker": zero, "defender": zero}
    swings: dict[int, Num] = {}
    for (state, outcome), p in sorted(ends.items(), key=lambda e: (e[0][1], e[0][0])):
        outcomes[names[outcome]] += p
        if outcome == ATTACKER_WINS and battle.taken(state):
            outcomes["territory_taken"] += p
        for role, side, counts, start in (("attacker", battle.att, state[0], battle.start[0]),
                                          ("defender", battle.dfn, state[1], battle.start[1])):
            by_type: dict[str, int] = {}
            for kind, c in zip(side.kinds, counts, strict=True):
                name = kind.base if kind.out or kind.amphibious else kind.name
                by_type[name] = by_type.get(name, 0) + c
            for name, c in by_type.items():
                table = survivors[role].setdefault(name, {})
                table[c] = table.get(c, zero) + p
            lost[role] += p * sum((n - c) * k.cost for n, c, k in zip(start, counts, side.kinds, strict=True))
        value = int(swing(state, outcome))
        swings[value] = swings.get(value, zero) + p
    priced.outcomes = outcomes
    priced.survivors = survivors
    priced.ipc_lost = lost
    priced.swing = dict(sorted(swings.items()))


def price_raid(game: Game, spec: Spec) -> Priced:
    """A raid: AA fire at the bombers (one die each, a hit on 1), then a d6 per surviving bomber, capped
    (aa-battle.md, "Strategic bombing raids"); the bombers lost and the damage, with their joint swing."""

    model = game.model
    bombers = sum(n for t, n in spec.attackers.items() if game.types[t].is_air)
    cost = max((game.types[t].cost or 0 for t in spec.attackers), default=0)
    guns = sum(n for t, n in spec.defenders.items() if game.types[t].is_aa_gun)
    fires = model.raid_aa == "factory" or guns > 0
    value = game.production.get(spec.at, 0)
    owner = game.board.controller(spec.at)
    treasury = (game.board.ipcs or {}).get(owner, 0) if owner else 0
    lost: dict[int, Num] = {}
    damage: dict[int, Num] = {}
    swings: dict[int, Num] = {}
    shot = raid_aa(bombers, any(game.low_luck().values())) if fires else [1.0] + [0.0] * bombers
    faces = (3, 4) if game.low_luck_bombing() else (1, 2, 3, 4, 5, 6)
    for down, p in enumerate(shot):
        if not p:
            continue
        lost[down] = lost.get(down, 0) + p
        per_die = value if model.raid_cap == "ipcs" else 6
        for total, q in dice_sums(bombers - down, per_die, faces).items():
            capped = min(total, 2 * value) if model.raid_cap == "factory" else min(total, treasury)
            damage[capped] = damage.get(capped, 0) + p * q
            swing = capped - down * cost
            swings[swing] = swings.get(swing, 0) + p * q
    priced = Priced(spec)
    priced.raid = {"bombers_lost": dict(sorted(lost.items())), "damage": dict(sorted(damage.items()))}
    priced.rounds = 1.0
    priced.ipc_lost = {"attacker": sum(k * p for k, p in lost.items()) * cost,
                       "defender": sum(k * p for k, p in damage.items())}
    priced.outcomes = {"territory_taken": 0.0}
    priced.survivors = {"attacker": {name: {bombers - k: p for k, p in sorted(lost.items(), reverse=True)}
                                     for name in spec.attackers}, "defender": {}}
    priced.swing = dict(sorted(swings.items()))
    return priced


def raid_aa(bombers: int, low_luck: bool) -> list[Num]:
    """The bombers AA fire shoots down: one die each, a hit on 1; under Low Luck (AA) bombers // 6 sure hits and
    one die hitting on bombers mod 6."""
    if not low_luck:
        return binomial(bombers, 1 / 6)
    sure, rest = divmod(bombers, 6)
    return [0.0] * sure + ([1 - rest / 6, rest / 6] if rest else [1.0])


def dice_sums(count: int, cap: int, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)) -> dict[int, Num]:
    """The distribution of the sum of ``count`` dice of ``faces`` (a d6, or Low Luck bombing's 3 or 4), each
    die counting at most ``cap``."""
    dist: dict[int, Num] = {0: 1.0}
    face = {min(v, cap): 0.0 for v in faces}
    for v in faces:
        face[min(v, cap)] += 1 / len(faces)
    for _die in range(count):
        nxt: dict[int, Num] = {}
        for total, p in dist.items():
            for v, q in face.items():
                nxt[total + v] = nxt.get(total + v, 0) + p * q
        dist = nxt
    return dist
