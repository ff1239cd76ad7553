"""The carrier search: where carriers end so that the most fighters land, decided for all at once.

Fighters compete for carrier slots, and a carrier can end in only one zone,
so landing is not a per-aircraft question.  :mod:`movecheck.aa.landing.aircraft` states
the problem and reads the answer; this module only searches:

1. every aircraft that reaches a territory friendly at the start of the turn
   lands there (territories have no capacity), so it never enters the search;
2. for the fighters left, it searches an assignment of each carrier (existing
   ones and carriers bought this turn) to one zone it can end in, such that a
   flow puts the most fighters in slots of carriers in zones they reach.
   Carriers no fighter can use are dropped, carriers that cannot move are
   fixed slots in their zone, and the problem splits into parts no fighter or
   carrier links.  In each part an iterative branch-and-bound
   (:mod:`movecheck.aa.landing.branch`) places the movable carriers (alike
   carriers as one group, each multiset of destinations once), bounded by
   upper bounds that never cut off a better plan, so it is exact; where it
   does not finish soon and the part falls into pieces only carriers link,
   it takes turns on doubling budgets with the search by pieces
   (:mod:`movecheck.aa.landing.split`), which decides how many of each group
   go to each piece.  Its work is counted (``MOVECHECK_LANDING_BUDGET``):
   when it runs out, the fighters of the parts not decided are *undecided*
   (:attr:`Landing.undecided`), never given a guessed place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from movecheck.aa.flow import Network
from movecheck.aa.landing.branch import Classes, Part, Picks, branch, flow, seats
from movecheck.aa.landing.split import split
from movecheck.aa.partition import Partition
from movecheck.aa.units import Unit
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


TRIAL = 20_000
"""Steps the branch-and-bound gets on a whole part before the search by pieces is tried."""


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
    parts: dict[str, Part] = {}
    for zones, members in sorted(kinds.items(), key=lambda item: item[1][0]):
        parts.setdefault(find(min(zones)), Part([], [], [])).kinds.append((zones, members))
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


def _place(part: Part, decks: list[Deck], choices: dict[int, list[str]], work: _Work) -> dict[int, str]:
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
    sizes = tuple(len(classes[c]) for c in kinds)
    best_picks = _search(part, caps, kinds, sizes, homes, work)
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
        total, net, first_zone, _ = flow(part, caps, [], polish)
        seated = seats(part, net, first_zone)
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
            value, net, first_zone, _ = flow(part, _caps_of(trial, decks), [], polish)
            if value >= total:
                placed, caps, seated = trial, _caps_of(trial, decks), seats(part, net, first_zone)
    except SearchLimit:
        pass  # the placement lands the most fighters already
    work.spend(min(polish.used, work.left))  # within what was left: the nicety never runs the search out
    return placed


def _search(part: Part, caps: dict[str, int], kinds: Classes, sizes: tuple[int, ...], homes: list[str | None],
            work: _Work) -> Picks:
    """The best placement of the classes' decks: the branch-and-bound and the search by pieces, taking turns.

    The branch-and-bound first (it meets its bound at once where carriers can fill what they reach).  If it does
    not within ``TRIAL`` steps and the part has pieces that only decks link, the search by pieces (exact too)
    and the branch-and-bound take turns on budgets that double (issue 37: a Pacific position the branch-and-bound
    decides in 75,000 steps spent 5,000,000 in the search by pieces first), so neither wastes more than about
    what the one that decides needs; the last turn is the branch-and-bound's on all that is left, and its end is
    the search's end (SearchLimit).  A part with no pieces goes to the branch-and-bound on all that is left.
    """
    size = max(TRIAL, 1)
    pieces = True
    while True:
        for by_pieces in (False, True) if pieces else (False,):
            if not by_pieces and size >= work.left:
                return branch(part, caps, kinds, sizes, homes, work)[1]
            attempt = _Work(min(size, work.left))
            try:
                if not by_pieces:
                    return branch(part, caps, kinds, sizes, homes, attempt)[1]
                found = split(part, caps, kinds, sizes, homes, attempt)
                if found is None:
                    pieces = False
                else:
                    return found[1]
            except SearchLimit:
                pass
            finally:
                work.spend(min(attempt.used, work.left))
            if not pieces:
                size = work.left  # no search by pieces: the branch-and-bound on all that is left
        size *= 2


def _sweep(part: Part, classes: list[tuple[int, tuple[str, ...]]]) -> dict[str, int]:
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


def _caps_of(placed: dict[int, str], decks: list[Deck]) -> dict[str, int]:
    caps: dict[str, int] = {}
    for d, z in placed.items():
        caps[z] = caps.get(z, 0) + decks[d].slots
    return caps


def _fill(part: Part, decks: list[Deck], placed: dict[int, str], result: Landing) -> None:
    """Seat the fighters of a part on the placed decks: earlier fighters first, decks at home first."""
    _, net, first_zone, _ = flow(part, _caps_of(placed, decks), [], _Work(10**18))
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
