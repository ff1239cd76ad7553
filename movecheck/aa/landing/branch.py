"""The branch-and-bound of the carrier search: where the movable decks of one part of the landing problem go.

:mod:`movecheck.aa.landing.carriers` splits the landing problem into parts and
groups alike movable decks into classes; :func:`branch` places the decks of
each class (how many in each zone, never which one), bounded by the smaller of
two upper bounds on what a partial placement can still land (the relaxed flow
of :func:`branch`'s ``relaxed`` and :func:`movecheck.aa.landing.bound.zone_gain_bound`),
so it is exact; :mod:`movecheck.aa.landing.split` first splits a part into the
pieces that only decks link.  A deck of the class whose relaxed flow is split the most is placed first, and a walk
of one-deck moves betters each plan the dive finds (``improve``): where the bound is the optimum, that ends the
search early (issue 37).
"""

from __future__ import annotations

from typing import Any

from movecheck.aa.flow import Network
from movecheck.aa.landing.bound import chunks, reachable_zones, zone_gain_bound
from movecheck.budget import Meter
from movecheck.records import dataclass_on_first_use

REUSE_FLOWS = True
"""Whether :func:`branch` runs each of its networks once (False: every time it is asked for, as before issue 37's
reuse; the steps charged are the same either way)."""

SPLIT_FIRST = True
"""Whether :func:`branch` places a deck of the class whose relaxed flow is split the most first (issue 37), rather
than of the first class in the sweep's order."""

LOCAL_SHARE = 8
"""The walk that betters the dive's guess (``improve`` in :func:`branch`) stops once it has spent this share of the
steps left when it began (1 / LOCAL_SHARE), or all its walks together ``WALK_FLOOR`` more than the search proper
spent: it only finds plans, so it never takes the search's steps from it."""

WALK_FLOOR = 250_000
"""Steps the walks of one :func:`branch` may spend beyond what its search proper has spent (issue 37: the walk
from the first guess of ``pacific_case(48, 8)`` meets the bound in about 230,000)."""

Classes = list[tuple[int, tuple[str, ...]]]
"""Classes of alike movable decks: (slots, the zones each can end in, home first)."""
Picks = dict[tuple[int, str], int]
"""How many decks of class ``c`` end in zone ``z``: ``{(c, z): count}``."""


@dataclass_on_first_use
class Part:
    """A connected part of the landing problem: fighter kinds (same zones) and the decks that can serve them."""

    kinds: list[tuple[frozenset[str], list[int]]]  # zones, fighters (indices, in priority order)
    decks: list[int]
    zones: list[str]


def flow(part: Part, caps: dict[str, int], free: list[tuple[int, list[str], list[int]]], work: Meter
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


def branch(part: Part, caps: dict[str, int], kinds: Classes, left: tuple[int, ...], homes: list[str | None],
           work: Meter) -> tuple[int, Picks]:
    """Where ``left[c]`` decks of each class ``kinds[c]`` go so that, with the fixed ``caps``, the most fighters land.

    Returns how many land and the placement.  Exact (an iterative branch-and-bound, see the module's docstring); raises
    :class:`~movecheck.budget.SearchLimit` when ``work`` runs out.
    """
    demand: dict[str, int] = {}
    for zones, members in part.kinds:
        for z in zones:
            demand[z] = demand.get(z, 0) + len(members)

    def relaxed(caps: dict[str, int], left: tuple[int, ...], floors: tuple[int, ...]
                ) -> tuple[int, list[dict[str, int]], dict[str, int]]:
        """The relaxed bound, the flow through each class's zones, and the fighters landed in fixed slots per zone.

        The relaxation lets the decks of a class serve all their zones at once, but no more than they could
        each in one zone: in a best plan a zone's fixed slots are filled before a deck's there (a fighter on a
        deck moves to a free fixed slot), so the decks in zone ``z`` seat at most ``room = demand - caps`` of
        it, a deck of ``s`` slots at most ``s``; the class seats at most its ``n`` largest chunks of those
        rooms cut in pieces of ``s`` (:func:`~movecheck.aa.landing.bound.chunks`), each zone at most
        ``min(s * n, room)``.  Every plan completing ``caps`` is a flow of this network, so it is an upper bound.
        """
        free: list[tuple[int, list[str], list[int]]] = []
        live = []
        for c, n in enumerate(left):
            zones = [z for z in kinds[c][1][floors[c]:] if demand[z] > caps.get(z, 0)]
            room = [demand[z] - caps.get(z, 0) for z in zones]
            if n and zones:
                live.append(c)
                free.append((chunks(kinds[c][0], n, room), zones, [min(kinds[c][0] * n, r) for r in room]))
        value, net, first_zone, feeds = once(caps, free)
        through: list[dict[str, int]] = [{} for _ in kinds]
        for c, (_, zones, _), edges in zip(live, free, feeds, strict=True):
            for z, e in zip(zones, edges, strict=True):
                if net.flow_on(e):
                    through[c][z] = net.flow_on(e)
        return value, through, seats(part, net, first_zone)

    flows: dict[Any, tuple[tuple[int, Network, int, list[list[int]]], list[int]]] = {}

    def once(caps: dict[str, int], free: list[tuple[int, list[str], list[int]]]
             ) -> tuple[int, Network, int, list[list[int]]]:
        """:func:`flow`, run once per network and charged as often as it is asked for, so the budget runs out
        where it did (issue 37: a Pacific position of 24 carriers asked for 8,960 flows of 2,821 networks; a
        node's bound, its guess and its children's bounds meet the same slots).  The network is only read."""
        key = (tuple(sorted((z, v) for z, v in caps.items() if v)),
               tuple((slots, tuple(zones), tuple(most)) for slots, zones, most in free))
        found = flows.get(key) if REUSE_FLOWS else None
        if found is None:
            charges = _Charges(work)
            answer = flow(part, caps, free, charges)
            flows[key] = (answer, charges.amounts)
            return answer
        for amount in found[1]:  # charged as its run charged, amount by amount: the budget ends at the same step
            work.spend(amount)
        return found[0]

    def exact(caps: dict[str, int]) -> int:
        return once(caps, [])[0]

    total = sum(len(m) for _, m in part.kinds)
    index = {z: i for i, z in enumerate(part.zones)}
    group_zones = [[index[z] for z in c[1]] for c in kinds]

    def gain_bound(caps: dict[str, int], left: tuple[int, ...], floors: tuple[int, ...]) -> int:
        """What the fixed slots seat plus the most the decks left can add zone by zone (``landing_bound``)."""
        value, net, first_zone, _ = once(caps, [])
        reached = reachable_zones(net, first_zone, len(part.zones))
        seated = seats(part, net, first_zone)
        room = [demand[z] - seated.get(z, 0) if reached[i] else 0 for i, z in enumerate(part.zones)]
        groups = [(kinds[c][0], n, group_zones[c][floors[c]:]) for c, n in enumerate(left)]
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

    def improve(value: int, picks: Picks) -> tuple[int, Picks]:
        """A better plan near the dive's guess (issue 37): its decks moved one at a time.

        A deck (or a deck of its class not placed yet) moves to a zone where one more slot would seat one more
        fighter (a zone the residual network of the plan's flow reaches).  A move that lands more is kept; where
        none does, a move that lands as many to a plan not met before (a walk along the plateau, at most
        ``len(part.decks)`` moves) may open one.  Every plan it keeps is a real placement, so it only raises
        the incumbent; the bound still decides exactness.
        """
        best = (value, picks)
        seen = {_mark(picks)}
        walk = 0
        start = work.used
        proper = start - began - walked[0]  # what the search proper has spent so far
        until = start + min(work.left // LOCAL_SHARE, WALK_FLOOR + proper - walked[0])
        while value < root and walk <= len(part.decks) and work.used <= until:
            moved = better_move(value, picks, seen, until)
            if moved is None:
                break
            if moved[0] > best[0]:
                best, walk = moved, 0
            else:
                walk += 1
            value, picks = moved
            seen.add(_mark(picks))
        walked[0] += work.used - start
        return best

    def better_move(value: int, picks: Picks, seen: set[tuple[tuple[int, str, int], ...]], until: int
                    ) -> tuple[int, Picks] | None:
        """The first move of one deck that lands more than ``value``, else the first that lands as many to a plan
        not in ``seen``, or None (also when the steps spent pass ``until``)."""
        here = with_picks(caps, picks)
        _, net, first_zone, _ = once(here, [])
        reached = reachable_zones(net, first_zone, len(part.zones))
        wanted = [z for i, z in enumerate(part.zones) if reached[i]]
        if not wanted:
            return None
        placed = [0] * len(kinds)
        for (c, _), k in picks.items():
            placed[c] += k
        starts: list[tuple[int, str | None]] = [(c, None) for c in range(len(kinds)) if placed[c] < left[c]]
        starts += sorted((c, z) for (c, z), k in picks.items() if k)
        level: tuple[int, Picks] | None = None
        for c, start in starts:
            for z in wanted:
                if z == start or z not in kinds[c][1]:
                    continue
                if work.used > until:
                    return level
                trial = {**picks, (c, z): picks.get((c, z), 0) + 1}
                if start is not None:
                    trial[(c, start)] -= 1
                    if not trial[(c, start)]:
                        del trial[(c, start)]
                gained = exact(with_picks(caps, trial))
                if gained > value:
                    return gained, trial
                if gained == value and level is None and _mark(trial) not in seen:
                    level = (gained, trial)
        return level

    reach_of: dict[str, list[int]] = {}
    for k, (zones, _) in enumerate(part.kinds):
        for z in zones:
            reach_of.setdefault(z, []).append(k)
    began, walked = work.used, [0]
    ground = (0,) * len(kinds)
    root, _, _ = relaxed(caps, left, ground)
    root = min(root, gain_bound(caps, left, ground))  # the walk of ``improve`` may meet it: the search is over
    best_value, best_picks = -1, {}
    # what the rest of the search can add depends only on the useful slots (slots beyond the fighters that reach
    # a zone are worth nothing) in the zones still linked to decks not placed yet; the other zones' fighters are
    # settled.  A node whose open state was searched already, with at least as many settled, is no better.
    settled_best: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, int], ...]], int] = {}
    # a class's decks are placed in the order of its zones (a deck never goes before the zone of the one placed
    # before it), so each multiset of destinations is one node: ``floors[c]`` is the index of that zone, and the
    # bounds send no deck of the class below it
    stack: list[tuple[dict[tuple[int, str], int], tuple[int, ...], tuple[int, ...]]] = [({}, left, ground)]
    while stack and best_value < root:
        picks, left, floors = stack.pop()
        here = with_picks(caps, picks)
        linked = open_zones(left)
        key = (left, floors, tuple(sorted((z, min(v, demand[z])) for z, v in here.items() if z in linked)))
        work.spend(1 + len(linked) + len(picks))
        bound, through, seated = relaxed(here, left, floors)
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
        bound = min(bound, gain_bound(here, left, floors))  # no deck splits its slots between zones
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
            best_value, best_picks = improve(value, _add(picks, guess))
        if value >= bound:
            continue
        c = _branching_class(left, need)
        rest = (*left[:c], left[c] - 1, *left[c + 1:])
        # more slots never land fewer: a zone already holding slots for every fighter that reaches it is no choice
        targets = [j for j, z in enumerate(kinds[c][1]) if j >= floors[c] and here.get(z, 0) < demand[z]]
        if not targets:
            # the rest of this class is of no use
            stack.append((picks, (*left[:c], 0, *left[c + 1:]), (*floors[:c], 0, *floors[c + 1:])))
        # follow the relaxed flow first (a dive along the relaxation), then home
        for j in sorted(
            targets, key=lambda j: (-through[c].get(kinds[c][1][j], 0), kinds[c][1][j] != homes[c], j), reverse=True
        ):
            z = kinds[c][1][j]
            stack.append(({**picks, (c, z): picks.get((c, z), 0) + 1}, rest,
                          (*floors[:c], j if rest[c] else 0, *floors[c + 1:])))
    return best_value, best_picks


class _Charges(Meter):
    """Charges ``work`` and keeps each amount, so that a flow asked for again is charged as its run was."""

    def __init__(self, work: Meter) -> None:  # no account of its own: ``work``'s
        self.work = work
        self.amounts: list[int] = []

    @property
    def used(self) -> int:
        return self.work.used

    @property
    def left(self) -> int:
        return self.work.left

    def spend(self, amount: int = 1) -> None:
        self.amounts.append(amount)
        self.work.spend(amount)


def _branching_class(left: tuple[int, ...], need: list[dict[str, int]]) -> int:
    """The class to place a deck of next: with ``SPLIT_FIRST``, the one whose relaxed flow needs the most decks
    more than it has (the relaxation's gap is there: issue 37), the first of those in the sweep's order;
    else the first class with decks left."""
    if SPLIT_FIRST:
        over = [(sum(need[c].values()) - n, -c) for c, n in enumerate(left) if n]
        most = max(over)
        if most[0] > 0:
            return -most[1]
    return next(c for c, n in enumerate(left) if n)


def seats(part: Part, net: Network, first_zone: int) -> dict[str, int]:
    """Fighters the flow seats in each zone."""
    seated: dict[str, int] = {}
    for i, z in enumerate(part.zones):
        for e in net.adj[first_zone + i]:
            if e % 2 == 0 and net.to[e] == 1:
                seated[z] = seated.get(z, 0) + net.flow_on(e)
    return seated


def _mark(picks: Picks) -> tuple[tuple[int, str, int], ...]:
    return tuple(sorted((c, z, k) for (c, z), k in picks.items() if k))


def _add(picks: dict[tuple[int, str], int], more: list[dict[str, int]]) -> dict[tuple[int, str], int]:
    out = dict(picks)
    for c, zones in enumerate(more):
        for z, k in zones.items():
            if k:
                out[(c, z)] = out.get((c, z), 0) + k
    return out


