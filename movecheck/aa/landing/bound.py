"""A second upper bound for the carrier search: what the carriers not placed yet can still add, zone by zone.

The carrier search (:mod:`movecheck.aa.landing.carriers`) places groups of alike
movable carriers one carrier at a time.  Its first bound lets every carrier
not placed yet serve all its zones at once, so a carrier with two slots may
seat one fighter in one zone and another fighter in a second zone: where few
fighters reach each zone (fighters that reach two zones each, say) that bound
stays far above what any placement lands, and the search cannot stop.  This
bound forbids that split.

**Why it is an upper bound.**  Let ``A`` be the slots placed so far (fixed
carriers and the carriers the search has placed) and ``f`` the most fighters
a set of slots seats.  ``f`` is the rank function of a transversal matroid
(a set of slots is independent when some matching seats a distinct fighter
in each), so it is submodular: for the carriers ``B`` still to place,
grouped by the zone they end in (``B_z``),

    f(A + B) <= f(A) + sum over zones z of (f(A + B_z) - f(A)).

Adding ``t`` slots in one zone ``z`` lands ``min(t, R_z)`` more fighters,
where ``R_z`` is the maximum flow that can still reach ``z`` in the residual
network of a maximum flow of ``A``; ``R_z`` is at most the fighters that
reach ``z`` less those ``A``'s flow seats there, and zero when the residual
network reaches no path to ``z``.  The bound uses that ceiling ``r_z >= R_z``
(a larger number keeps it an upper bound).  A carrier of a group with ``s``
slots ends in one zone, so in zone ``z`` the group's carriers add at most
``min(s * k, r_z)`` for the ``k`` of them there: cut each zone's ``r_z`` into
chunks of ``s`` (and one remainder) and a group of ``n`` carriers adds at
most its ``n`` largest chunks over its zones (``chunk_c``).  Giving each zone's
gain to the groups whose carriers end there is then a flow in the network

    source -> group c (capacity chunk_c) -> zone z (capacity min(s_c * n_c, r_z)) -> sink (capacity r_z),

so its maximum flow ``G`` is at least the gain of every placement, and
``f(A) + min(G, fighters not seated by A)`` is an upper bound on every
placement that completes ``A``: cutting the search where it is no better than
a plan found never loses a better plan.  Its work is charged like any flow.
"""

from __future__ import annotations

from collections.abc import Sequence

from movecheck.aa.flow import Network
from movecheck.budget import Meter


def reachable_zones(net: Network, first_zone: int, count: int, source: int = 0) -> list[bool]:
    """Which zone nodes (``count`` from ``first_zone``) the residual network of ``net`` reaches from the source."""
    seen = [False] * len(net.adj)
    seen[source] = True
    queue = [source]
    for u in queue:
        for e in net.adj[u]:
            if net.cap[e] > 0 and not seen[net.to[e]]:
                seen[net.to[e]] = True
                queue.append(net.to[e])
    return seen[first_zone:first_zone + count]


def chunks(slots: int, carriers: int, room: Sequence[int]) -> int:
    """The most ``carriers`` carriers of ``slots`` slots add, each in one zone, where zone i takes ``room[i]`` more."""
    pieces: list[int] = []
    for r in room:
        if r > 0:
            pieces += [slots] * min(r // slots, carriers)
            if r % slots:
                pieces.append(r % slots)
    pieces.sort(reverse=True)
    return sum(pieces[:carriers])


def zone_gain_bound(groups: Sequence[tuple[int, int, Sequence[int]]], room: Sequence[int], unseated: int,
                    work: Meter) -> int:
    """The most the groups ``(slots, carriers, zone indices)`` add where zone i takes at most ``room[i]`` more.

    A maximum flow (see the module's docstring), never more than ``unseated``.
    """
    live = [(s, n, [z for z in zs if room[z] > 0]) for s, n, zs in groups if n > 0]
    live = [g for g in live if g[2]]
    if not live or unseated <= 0:
        return 0
    zones = sorted({z for _, _, zs in live for z in zs})
    where = {z: i for i, z in enumerate(zones)}
    source, sink, first_group = 0, 1, 2
    first_zone = first_group + len(live)
    net = Network(first_zone + len(zones))
    for g, (slots, carriers, zs) in enumerate(live):
        cap = chunks(slots, carriers, [room[z] for z in zs])
        if cap:
            net.add(source, first_group + g, cap)
            for z in zs:
                net.add(first_group + g, first_zone + where[z], min(slots * carriers, room[z]))
    for z, i in where.items():
        net.add(first_zone + i, sink, room[z])
    return min(net.run(source, sink, work), unseated)
