"""The carrier search: where carriers end so that the most fighters land, decided for all at once.

Fighters compete for carrier slots, and a carrier can end in only one zone,
so landing is not a per-aircraft question.  :mod:`movecheck.aa.landing` states
the problem and reads the answer; this module only searches:

1. every aircraft that reaches a territory friendly at the start of the turn
   lands there (territories have no capacity), so it never enters the search;
2. for the fighters left, it searches an assignment of each carrier (existing
   ones and carriers bought this turn) to one zone it can end in, such that a
   flow puts the most fighters in slots of carriers in zones they reach.
   Carriers no fighter can use are dropped, carriers that cannot move are
   fixed slots in their zone, and the problem splits into parts no fighter or
   carrier links.  In each part an iterative branch-and-bound places the
   movable carriers (alike carriers as one class, equal placements once),
   bounded by the flow of the relaxed problem (a carrier in all its zones at
   once), so it is exact.  Its work is counted (``MOVECHECK_LANDING_BUDGET``):
   when it runs out, the fighters of the parts not decided are *undecided*
   (:attr:`Landing.undecided`), never given a guessed place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from movecheck.aa.flow import Network
from movecheck.aa.landing_bound import chunks, reachable_zones, zone_gain_bound
from movecheck.aa.model import Unit
from movecheck.aa.partition import Partition
from movecheck.budget import SEARCHES, Meter, SearchLimit, current


@dataclass
class Deck:
    """A carrier (or a carrier to be bought and placed) that can end in some zones."""

    key: str
    slots: int
    zones: list[str]
    home: str | None
    unit: Unit | None = None
    """The carrier; None for a carrier bought this turn."""


@dataclass
class Flyer:
    """An aircraft that has to land, and where it can."""

    unit: Unit
    reach: dict[str, int]
    land: list[str] = field(default_factory=list)
    sea: set[str] = field(default_factory=set)


def _match(flyers: list[Flyer], decks: list[Deck], zone_of: dict[str, set[str]]) -> dict[int, int]:
    """Maximum b-matching of fighters to decks (deck capacity = slots), each deck in all of ``zone_of[deck.key]``.

    Solved as a maximum flow, without recursion (the brute-force tests place the decks and call it).
    """
    zones = sorted({z for f in flyers for z in f.sea} | {z for d in decks for z in zone_of[d.key]})
    where = {z: i for i, z in enumerate(zones)}
    source, sink = 0, 1
    first_flyer, first_zone = 2, 2 + len(flyers)
    first_deck = first_zone + len(zones)
    net = Network(first_deck + len(decks))
    for f, flyer in enumerate(flyers):
        net.add(source, first_flyer + f, 1)
        for z in sorted(flyer.sea):
            net.add(first_flyer + f, first_zone + where[z], 1)
    for d, deck in enumerate(decks):
        for z in sorted(zone_of[deck.key]):
            net.add(first_zone + where[z], first_deck + d, len(flyers))
        net.add(first_deck + d, sink, deck.slots)
    net.run(source, sink, _Work(10**18))
    # read the fighters off the flow: zone by zone, fighter by fighter
    into: dict[int, list[int]] = {}
    for f in range(len(flyers)):
        for e in net.adj[first_flyer + f]:
            if e % 2 == 0 and net.flow_on(e) > 0:
                into.setdefault(net.to[e] - first_zone, []).append(f)
    owner: dict[int, int] = {}
    for zi, members in sorted(into.items()):
        for e in net.adj[first_zone + zi]:
            if e % 2 == 0 and net.to[e] >= first_deck:
                for _ in range(net.flow_on(e)):
                    owner[members.pop(0)] = net.to[e] - first_deck
    return owner


# --- the landing search --------------------------------------------------------------------

LANDING_BUDGET_VARIABLE = "MOVECHECK_LANDING_BUDGET"

LANDING_BUDGET = SEARCHES[LANDING_BUDGET_VARIABLE][1]
"""Default work the landing searches of one file may spend (``MOVECHECK_LANDING_BUDGET``): edges their flows examine."""


class _Work(Meter):
    """The landing search's steps, charged to the file's budget: running out raises SearchLimit."""

    variable = LANDING_BUDGET_VARIABLE


@dataclass
class Landing:
    """The landing search's answer: fighter -> deck, deck key -> zone, and fighters it could not decide."""

    matching: dict[int, int] = field(default_factory=dict)
    zones: dict[str, str] = field(default_factory=dict)
    undecided: list[int] = field(default_factory=list)
    limit: SearchLimit | None = None


@dataclass
class _Part:
    """A connected part of the landing problem: fighter kinds (same zones) and the decks that can serve them."""

    kinds: list[tuple[frozenset[str], list[int]]]  # zones, fighters (indices, in priority order)
    decks: list[int]
    zones: list[str]


def solve_landing(flyers: list[Flyer], decks: list[Deck], work: _Work | None = None) -> Landing:
    """Land the most fighters: place each deck in one of its zones and fill its slots.

    Exact: an iterative branch-and-bound over where the movable decks go (equal
    placements are visited once), bounded by the flow of the relaxed problem in
    which a movable deck serves all its zones at once.  The problem splits into
    parts no fighter or deck links; a part whose search runs out of the budget
    leaves its fighters undecided (``limit`` says why), the others are exact.  The answer depends only on
    the fighters' zones and the decks, so a file meets each distinct problem once (the choice search's runs
    ask again): it is kept in the file's budget (:func:`movecheck.budget.current`).
    """
    work = work or _Work()
    file_budget = current()
    mark = (tuple(tuple(sorted(f.sea)) for f in flyers),
            tuple((d.key, d.slots, tuple(d.zones), d.home) for d in decks))
    if file_budget is not None and ("landing", mark) in file_budget.memo:
        known: Landing = file_budget.memo[("landing", mark)]
        return known  # the same problem met again in the file (another choice run)
    result = _solve(flyers, decks, work)
    if file_budget is not None:
        file_budget.memo[("landing", mark)] = result
    return result


def _solve(flyers: list[Flyer], decks: list[Deck], work: _Work) -> Landing:
    result = Landing()
    useful = {z for d in decks for z in d.zones}
    kinds: dict[frozenset[str], list[int]] = {}
    for f, flyer in enumerate(flyers):
        zones = frozenset(flyer.sea & useful)
        if zones:
            kinds.setdefault(zones, []).append(f)
    partition: Partition[str] = Partition()
    find = partition.find

    wanted = set().union(*kinds) if kinds else set()
    # a zone whose fighters all reach another zone of the same carrier is never a better place for it: slots
    # there serve every fighter slots here would (of two zones with the same fighters, home or the first stays)
    reached_by: dict[str, set[int]] = {}
    for k, zones in enumerate(kinds):
        for z in zones:
            reached_by.setdefault(z, set()).add(k)
    kind_zones = list(kinds)
    choices: dict[int, list[str]] = {}
    known: dict[tuple[str | None, tuple[str, ...]], list[str]] = {}
    for d, deck in enumerate(decks):
        mark = (deck.home, tuple(deck.zones))
        if mark not in known:
            open_zones = [z for z in _zone_order(deck, deck.zones) if z in wanted]
            known[mark] = _undominated(open_zones, reached_by, kind_zones)
        choices[d] = known[mark]
    for zones in kinds:
        first, *rest = sorted(zones)
        for z in rest:
            partition.join(z, first)
    for zs in known.values():  # decks alike in home and reach have one list of choices: joined once
        for z in zs[1:]:
            partition.join(z, zs[0])
    parts: dict[str, _Part] = {}
    for zones, members in sorted(kinds.items(), key=lambda item: item[1][0]):
        parts.setdefault(find(min(zones)), _Part([], [], [])).kinds.append((zones, members))
    for d in range(len(decks)):
        if choices[d] and find(choices[d][0]) in parts:
            parts[find(choices[d][0])].decks.append(d)
    for root, part in parts.items():
        part.zones = sorted(z for z in wanted if find(z) == root)
    ordered = sorted(
        parts.values(), key=lambda p: (sum(len(choices[d]) > 1 for d in p.decks), len(p.decks), p.kinds[0][1][0])
    )
    for part in ordered:
        if result.limit is not None:
            result.undecided.extend(f for _, members in part.kinds for f in members)
            continue
        try:
            placement = _place(part, decks, choices, work)
        except SearchLimit as limit:
            result.limit = limit
            result.undecided.extend(f for _, members in part.kinds for f in members)
            continue
        _fill(part, decks, placement, result)
    result.undecided.sort()
    return result


def _undominated(zones: list[str], reached_by: dict[str, set[int]], kind_zones: list[frozenset[str]]) -> list[str]:
    """The zones of a deck that no other zone of it dominates (every fighter reaching it reaches the other too).

    A zone's dominators lie among the zones of any one kind of fighter reaching it, so only the zones of its
    narrowest kind are compared, not every pair of zones.
    """
    place = {z: i for i, z in enumerate(zones)}
    kept = []
    for i, z in enumerate(zones):
        mine = reached_by[z]
        narrowest = min(mine, key=lambda k: (len(kind_zones[k]), k))
        if not any(o != z and o in place and (mine < reached_by[o] or (mine == reached_by[o] and place[o] < i))
                   for o in kind_zones[narrowest]):
            kept.append(z)
    return kept


def _flow(part: _Part, caps: dict[str, int], free: list[tuple[int, list[str], list[int]]], work: _Work
          ) -> tuple[int, Network, int, list[list[int]]]:
    """Most fighters of a part landed with ``caps`` slots fixed per zone and ``free`` (slots, zones, the most per
    zone) serving all their zones.

    Returns the value, the network, the index of the first zone node and, per free entry, its edges from zones.
    """
    index = {z: i for i, z in enumerate(part.zones)}
    source, sink = 0, 1
    first_zone = 2 + len(part.kinds)
    first_free = first_zone + len(part.zones)
    net = Network(first_free + len(free))
    for k, (zones, members) in enumerate(part.kinds):
        net.add(source, 2 + k, len(members))
        for z in sorted(zones):
            net.add(2 + k, first_zone + index[z], len(members))
    for z, i in index.items():
        if caps.get(z):
            net.add(first_zone + i, sink, caps[z])
    feeds: list[list[int]] = []
    for j, (slots, served, most) in enumerate(free):
        feeds.append([net.add(first_zone + index[z], first_free + j, m) for z, m in zip(served, most, strict=True)])
        net.add(first_free + j, sink, slots)
    return net.run(source, sink, work), net, first_zone, feeds


def _place(part: _Part, decks: list[Deck], choices: dict[int, list[str]], work: _Work) -> dict[int, str]:
    """The zone of every deck of a part in a placement landing the most fighters."""
    caps: dict[str, int] = {}
    placed: dict[int, str] = {}
    classes: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for d in part.decks:
        if len(choices[d]) == 1:
            placed[d] = choices[d][0]
            caps[placed[d]] = caps.get(placed[d], 0) + decks[d].slots
        else:
            classes.setdefault((decks[d].slots, tuple(choices[d])), []).append(d)
    # movable decks alike (same slots, same zones) form a class: where they go is a count per zone;
    # classes are decided in an order that sweeps across the part, so decided ones soon stop mattering
    position = _sweep(part, list(classes))
    kinds = sorted(
        classes, key=lambda c: (min(position[z] for z in c[1]), max(position[z] for z in c[1]), classes[c][0])
    )
    homes = [decks[classes[c][0]].home for c in kinds]
    demand: dict[str, int] = {}
    for zones, members in part.kinds:
        for z in zones:
            demand[z] = demand.get(z, 0) + len(members)

    def relaxed(caps: dict[str, int], left: tuple[int, ...], floor: int
                ) -> tuple[int, list[dict[str, int]], dict[str, int]]:
        """The relaxed bound, the flow through each class's zones, and the fighters landed in fixed slots per zone.

        The relaxation lets the decks of a class serve all their zones at once, but no more than they could
        each in one zone: in a best plan a zone's fixed slots are filled before a deck's there (a fighter on a
        deck moves to a free fixed slot), so the decks in zone ``z`` seat at most ``room = demand - caps`` of
        it, a deck of ``s`` slots at most ``s``; the class seats at most its ``n`` largest chunks of those
        rooms cut in pieces of ``s`` (:func:`~movecheck.aa.landing_bound.chunks`), each zone at most
        ``min(s * n, room)``.  Every plan completing ``caps`` is a flow of this network, so it is an upper bound.
        """
        first = next((c for c, n in enumerate(left) if n), -1)
        free: list[tuple[int, list[str], list[int]]] = []
        live = []
        for c, n in enumerate(left):
            zones = [z for z in (kinds[c][1][floor:] if c == first else kinds[c][1]) if demand[z] > caps.get(z, 0)]
            room = [demand[z] - caps.get(z, 0) for z in zones]
            if n and zones:
                live.append(c)
                free.append((chunks(kinds[c][0], n, room), zones, [min(kinds[c][0] * n, r) for r in room]))
        value, net, first_zone, feeds = _flow(part, caps, free, work)
        through: list[dict[str, int]] = [{} for _ in kinds]
        for c, (_, zones, _), edges in zip(live, free, feeds, strict=True):
            for z, e in zip(zones, edges, strict=True):
                if net.flow_on(e):
                    through[c][z] = net.flow_on(e)
        return value, through, _seated(part, net, first_zone)

    def exact(caps: dict[str, int]) -> int:
        return _flow(part, caps, [], work)[0]

    total = sum(len(m) for _, m in part.kinds)
    index = {z: i for i, z in enumerate(part.zones)}
    group_zones = [[index[z] for z in c[1]] for c in kinds]

    def gain_bound(caps: dict[str, int], left: tuple[int, ...], floor: int) -> int:
        """What the fixed slots seat plus the most the decks left can add zone by zone (``landing_bound``)."""
        value, net, first_zone, _ = _flow(part, caps, [], work)
        reached = reachable_zones(net, first_zone, len(part.zones))
        seated = _seated(part, net, first_zone)
        room = [demand[z] - seated.get(z, 0) if reached[i] else 0 for i, z in enumerate(part.zones)]
        first = next((c for c, n in enumerate(left) if n), 0)
        groups = [(kinds[c][0], n, group_zones[c][floor:] if c == first else group_zones[c]) for c, n in enumerate(left)]
        return value + zone_gain_bound(groups, room, total - value, work)

    def with_picks(caps: dict[str, int], picks: dict[tuple[int, str], int]) -> dict[str, int]:
        out = dict(caps)
        for (c, z), k in picks.items():
            out[z] = out.get(z, 0) + k * kinds[c][0]
        return out

    def open_zones(left: tuple[int, ...]) -> set[str]:
        """Zones still linked (through fighters' zones) to a deck not placed yet."""
        linked = {z for c, n in enumerate(left) if n for z in kinds[c][1]}
        grow = list(linked)
        while grow:
            for k in reach_of.get(grow.pop(), ()):
                for z in part.kinds[k][0]:
                    if z not in linked:
                        linked.add(z)
                        grow.append(z)
        return linked

    reach_of: dict[str, list[int]] = {}
    for k, (zones, _) in enumerate(part.kinds):
        for z in zones:
            reach_of.setdefault(z, []).append(k)
    left = tuple(len(classes[c]) for c in kinds)
    root, _, _ = relaxed(caps, left, 0)
    best_value, best_picks = -1, {}
    # what the rest of the search can add depends only on the useful slots (slots beyond the fighters that reach
    # a zone are worth nothing) in the zones still linked to decks not placed yet; the other zones' fighters are
    # settled.  A node whose open state was searched already, with at least as many settled, is no better.
    settled_best: dict[tuple[tuple[int, ...], int, tuple[tuple[str, int], ...]], int] = {}
    # a class's decks are placed in the order of its zones (a deck never goes before the zone of the one placed
    # before it), so each multiset of destinations is one node: ``floor`` is the index of that zone
    stack: list[tuple[dict[tuple[int, str], int], tuple[int, ...], int]] = [({}, left, 0)]
    while stack and best_value < root:
        picks, left, floor = stack.pop()
        here = with_picks(caps, picks)
        linked = open_zones(left)
        key = (left, floor, tuple(sorted((z, min(v, demand[z])) for z, v in here.items() if z in linked)))
        work.spend(1 + len(linked) + len(picks))
        bound, through, seated = relaxed(here, left, floor)
        settled = sum(v for z, v in seated.items() if z not in linked)
        if settled_best.get(key, -1) >= settled:
            continue
        settled_best[key] = settled
        if bound <= best_value:
            continue
        # a class whose flow fits in its decks, each in one zone, makes the relaxation a real plan
        need = [{z: -(-amount // kinds[c][0]) for z, amount in through[c].items()} for c in range(len(kinds))]
        if all(sum(need[c].values()) <= n for c, n in enumerate(left)):
            best_value, best_picks = bound, _add(picks, need)
            continue
        bound = min(bound, gain_bound(here, left, floor))  # no deck splits its slots between zones
        if bound <= best_value:
            continue
        # else each class where the relaxed flow uses it most: a lower bound
        guess: list[dict[str, int]] = [{} for _ in kinds]
        for c, n in enumerate(left):
            for z in sorted(need[c], key=lambda z: (-through[c][z], kinds[c][1].index(z))):
                guess[c][z] = min(n, need[c][z])
                n -= guess[c][z]
        value = exact(with_picks(here, _add({}, guess)))
        if value > best_value:
            best_value, best_picks = value, _add(picks, guess)
        if value >= bound:
            continue
        c = next(c for c, n in enumerate(left) if n)
        rest = (*left[:c], left[c] - 1, *left[c + 1:])
        # more slots never land fewer: a zone already holding slots for every fighter that reaches it is no choice
        targets = [j for j, z in enumerate(kinds[c][1]) if j >= floor and here.get(z, 0) < demand[z]]
        if not targets:
            stack.append((picks, (*left[:c], 0, *left[c + 1:]), 0))  # the rest of this class is of no use
        # follow the relaxed flow first (a dive along the relaxation), then home
        for j in sorted(
            targets, key=lambda j: (-through[c].get(kinds[c][1][j], 0), kinds[c][1][j] != homes[c], j), reverse=True
        ):
            z = kinds[c][1][j]
            stack.append(({**picks, (c, z): picks.get((c, z), 0) + 1}, rest, j if rest[c] else 0))
    # hand the chosen zones to the decks of each class, home first; a deck the plan does not use stays home
    for c, cls in enumerate(kinds):
        counts: dict[str | None, int] = {z: k for (cc, z), k in best_picks.items() if cc == c and k}
        members = classes[cls]
        for d in sorted(members, key=lambda d: (counts.get(decks[d].home, 0) == 0, d)):
            home = decks[d].home
            zone = home if counts.get(home, 0) else next((z for z in cls[1] if counts.get(z, 0)), None)
            if zone is None:
                zone = home if home is not None and home in cls[1] else cls[1][0]
            else:
                counts[zone] -= 1
            placed[d] = zone
    # no carrier moves where staying home lands as many: a nicety, on a small budget of its own
    polish = _Work(min(work.limit // 10, work.left))
    try:
        caps = _caps_of(placed, decks)
        total, net, first_zone, _ = _flow(part, caps, [], polish)
        seated = _seated(part, net, first_zone)
        for d in sorted(placed):
            home, zone = decks[d].home, placed[d]
            if zone == home or home not in decks[d].zones:
                continue
            if home not in demand:
                # at home it seats no one: it may go home when the other decks in its zone seat what it seated
                # (decided by counting; rerouting fighters to other zones is not tried: a flow per deck cost more
                # than the search)
                if seated.get(zone, 0) <= caps[zone] - decks[d].slots:
                    placed = {**placed, d: home}
                    caps[zone] -= decks[d].slots
                continue
            trial = {**placed, d: home}
            value, net, first_zone, _ = _flow(part, _caps_of(trial, decks), [], polish)
            if value >= total:
                placed, caps, seated = trial, _caps_of(trial, decks), _seated(part, net, first_zone)
    except SearchLimit:
        pass  # the placement lands the most fighters already
    work.spend(min(polish.used, work.left))  # within what was left: the nicety never runs the search out
    return placed


def _seated(part: _Part, net: Network, first_zone: int) -> dict[str, int]:
    """Fighters the flow seats in each zone."""
    seated: dict[str, int] = {}
    for i, z in enumerate(part.zones):
        for e in net.adj[first_zone + i]:
            if e % 2 == 0 and net.to[e] == 1:
                seated[z] = seated.get(z, 0) + net.flow_on(e)
    return seated


def _sweep(part: _Part, classes: list[tuple[int, tuple[str, ...]]]) -> dict[str, int]:
    """A position for every zone of a part, in breadth-first order over zones linked by a fighter or a class."""
    links: dict[str, set[str]] = {z: set() for z in part.zones}
    for zones in [k[0] for k in part.kinds] + [c[1] for c in classes]:
        for z in zones:
            links[z].update(zones)
    position: dict[str, int] = {}
    for start in sorted(part.zones, key=lambda z: (len(links[z]), z)):
        if start in position:
            continue
        position[start] = len(position)
        queue = [start]
        for z in queue:
            for other in sorted(links[z] - position.keys()):
                position[other] = len(position)
                queue.append(other)
    return position


def _add(picks: dict[tuple[int, str], int], more: list[dict[str, int]]) -> dict[tuple[int, str], int]:
    out = dict(picks)
    for c, zones in enumerate(more):
        for z, k in zones.items():
            if k:
                out[(c, z)] = out.get((c, z), 0) + k
    return out


def _caps_of(placed: dict[int, str], decks: list[Deck]) -> dict[str, int]:
    caps: dict[str, int] = {}
    for d, z in placed.items():
        caps[z] = caps.get(z, 0) + decks[d].slots
    return caps


def _fill(part: _Part, decks: list[Deck], placed: dict[int, str], result: Landing) -> None:
    """Seat the fighters of a part on the placed decks: earlier fighters first, decks at home first."""
    _, net, first_zone, _ = _flow(part, _caps_of(placed, decks), [], _Work(10**18))
    room = {d: decks[d].slots for d in placed}
    by_zone: dict[str, list[int]] = {}
    for d in sorted(placed, key=lambda d: (placed[d] != decks[d].home, decks[d].unit is None, decks[d].key)):
        by_zone.setdefault(placed[d], []).append(d)
    for k, (_zones, members) in enumerate(part.kinds):
        queue = list(members)
        for e in net.adj[2 + k]:
            if e % 2 == 1:
                continue
            z = part.zones[net.to[e] - first_zone]
            for _ in range(net.flow_on(e)):
                f = queue.pop(0)
                d = next(d for d in by_zone[z] if room[d] > 0)
                room[d] -= 1
                result.matching[f] = d
                result.zones[decks[d].key] = z


def assign_decks(flyers: list[Flyer], decks: list[Deck], work: _Work | None = None
                 ) -> tuple[dict[int, int], dict[str, str]]:
    """Best assignment of fighters to decks with each deck in one zone: (fighter -> deck, deck -> zone).

    Raises SearchLimit when the budget runs out before every fighter is decided.
    """
    landing = solve_landing(flyers, decks, work)
    if landing.limit is not None:
        raise landing.limit
    return landing.matching, landing.zones


def _zone_order(deck: Deck, zones: list[str]) -> list[str]:
    """Try a carrier's own zone first, so that plans needing no carrier move come first."""
    return sorted(zones, key=lambda z: (z != deck.home, z))
