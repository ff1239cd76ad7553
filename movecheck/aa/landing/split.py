"""The carrier search over pieces that only carriers link: how many carriers of each group go to each piece.

A part of the landing problem (:mod:`movecheck.aa.landing.carriers`) is held
together by fighters *and* by the movable carriers that could serve several
zones.  Without the carriers it falls apart into *pieces*: sets of zones that
fighters link (a fighter reaching two zones joins them).  A carrier ends in
one zone, so in one piece, and a fighter lands only in its own piece, so a
placement lands exactly the sum over pieces of what the carriers sent to each
piece land there.  The best placement is therefore a choice of how many
carriers of each group (alike movable carriers) go to each piece, and that is
a dynamic programme over the pieces whose state is how many of each group are
left (the multiset of the groups' destinations, counted per piece):

    best(i, left) = max over k <= left of value_i(k) + best(i + 1, left - k)

where ``value_i(k)`` is the most piece ``i`` lands with ``k[c]`` carriers of
group ``c`` (each in one of its zones there), found by the exact
branch-and-bound of :func:`movecheck.aa.landing.branch.branch` on the piece
alone.  It is exact, and polynomial for a fixed number of groups when the
pieces are small: seven alike carriers over six triangles of fighters (each
fighter reaching two zones of its triangle), which the branch-and-bound alone
searches for about a million steps (past ten million before its tighter
bounds), takes 651 here.  A vector ``k``
that lands no more than ``k`` less one carrier of some group is never needed
(the carrier is better left for another piece), pieces alike in shape ask
the branch-and-bound once, and a group no piece still to come can use leaves
the state (the pieces more groups reach come first).  Its work is charged to the landing budget.
"""

from __future__ import annotations

import itertools

from movecheck.aa.landing.branch import Classes, Part, Picks, branch
from movecheck.aa.partition import Partition
from movecheck.budget import Meter

MOST_STATES = 20_000
"""The most states (combinations of carriers left per group still needed) the programme keeps at a piece; past it
the part is searched whole."""

MOST_STEPS = 400_000
"""The most transitions (states times useful vectors, summed over pieces) it may take; past it, searched whole."""


def split(part: Part, caps: dict[str, int], kinds: Classes, left: tuple[int, ...], homes: list[str | None],
          work: Meter) -> tuple[int, Picks] | None:
    """The most fighters of ``part`` that land and a placement, by pieces; None when it has one piece or too many
    combinations (the caller searches the part whole)."""
    pieces = _pieces(part)
    if len(pieces) < 2:
        return None
    reach = [{c for c, (_, zones) in enumerate(kinds) if left[c] and set(zones) & set(p.zones)} for p in pieces]
    # pieces more groups reach first: a group no piece after this one reaches leaves the state (its count is 0)
    order = sorted(range(len(pieces)), key=lambda i: (-len(reach[i]), sorted(reach[i]), i))
    pieces, reach = [pieces[i] for i in order], [reach[i] for i in order]
    absorbed = _absorbed(pieces, reach, kinds, left)
    region = {c: {i for i, groups in enumerate(reach) if c in groups} for c in absorbed}
    last = {c: max(region[c]) for c in absorbed}
    count = list(left)  # what the programme counts: an absorbed group's carriers with the group that absorbs it
    for c, into in absorbed.items():
        count[into] += left[c]
        count[c] = 0
        for groups in reach:
            groups.discard(c)
    active: list[set[int]] = [set() for _ in pieces]
    ahead: set[int] = set()
    for i in range(len(pieces) - 1, -1, -1):
        ahead |= reach[i]
        active[i] = set(ahead)
    sizes = []
    for groups in active:
        size = 1
        for c in groups:
            size *= count[c] + 1
        sizes.append(size)
    if max(sizes) > MOST_STATES:
        return None
    shapes: dict[tuple[object, ...], tuple[int, dict[tuple[int, int], int]]] = {}
    options: list[list[tuple[tuple[int, ...], int, Picks]]] = []
    for piece, groups in zip(pieces, reach, strict=True):
        found = _options(piece, caps, kinds, [count[c] if c in groups else 0 for c in range(len(kinds))], homes,
                         work, shapes)
        if found is None:
            return None
        options.append(found)
    if sum(size * len(o) for size, o in zip(sizes, options, strict=True)) > MOST_STEPS:
        return None
    # the programme, piece by piece: for each count of carriers left, the most landed so far, and where it came from
    table: dict[tuple[int, ...], int] = {tuple(n if c in active[0] else 0 for c, n in enumerate(count)): 0}
    back: list[dict[tuple[int, ...], tuple[tuple[int, ...], int]]] = []
    tail = _tail(options, active, max(last.values(), default=-1))
    for i, choices in enumerate(options[:tail]):
        later = active[i + 1] if i + 1 < len(pieces) else set()
        drop = [c for c in active[i] if c not in later]
        # past the last piece an absorbed group reaches, the absorbing group keeps no more than its own carriers
        # (the absorbed ones are used first: they can go nowhere else)
        ends = [(into, left[into]) for c, into in absorbed.items() if last[c] == i]
        sparse = [([(c, a) for c, a in enumerate(k) if a], gained) for k, gained, _ in choices]
        grown: dict[tuple[int, ...], int] = {}
        came: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        for rest in sorted(table):
            value = table[rest]
            work.spend(len(choices))
            for v, (need, gained) in enumerate(sparse):
                if any(rest[c] < a for c, a in need):
                    continue
                after = list(rest)
                for c, a in need:
                    after[c] -= a
                for c in drop:
                    after[c] = 0
                for into, own in ends:
                    after[into] = min(after[into], own)
                mark = tuple(after)
                if value + gained > grown.get(mark, -1):
                    grown[mark] = value + gained
                    came[mark] = (rest, v)
        table = grown
        back.append(came)
    path = [0] * len(options)
    if tail < len(options):
        # the pieces from ``tail`` on are one group's alone and each gains less with every carrier more: the best
        # share of ``r`` carriers among them takes the ``r`` largest gains (prefix sums ``ahead_best``)
        (group,) = active[tail]
        gains = sorted(
            (-(o[j][1] - o[j - 1][1]), i, j) for i, o in enumerate(options[tail:], start=tail) for j in range(1, len(o))
        )
        work.spend(len(gains) + len(table))
        ahead_best = [0]
        for gain, _, _ in gains:
            ahead_best.append(ahead_best[-1] - gain)
        share = {rest: min(rest[group], len(gains)) for rest in table}
        state = max(table, key=lambda rest: (table[rest] + ahead_best[share[rest]], rest))
        best = table[state] + ahead_best[share[state]]
        for _, i, j in gains[:share[state]]:
            path[i] = max(path[i], j)  # a piece's gains are taken in order: its count is the last one taken
    else:
        state = max(table, key=lambda rest: (table[rest], rest))
        best = table[state]
    for i in range(tail - 1, -1, -1):
        state, path[i] = back[i][state]
    picks: Picks = {}
    for i, (choices, v) in enumerate(zip(options, path, strict=True)):
        for (c, z), n in sorted(choices[v][2].items()):
            for absorbed_group in (g for g, into in absorbed.items() if into == c and i in region[g]):
                # an absorbed group's carriers take the first places of the group that absorbs it
                given = sum(m for (g, _), m in picks.items() if g == absorbed_group)
                moved = min(n, left[absorbed_group] - given)
                if moved > 0:
                    picks[(absorbed_group, z)] = picks.get((absorbed_group, z), 0) + moved
                    n -= moved
            if n:
                picks[(c, z)] = picks.get((c, z), 0) + n
    return best, picks


def _tail(options: list[list[tuple[tuple[int, ...], int, Picks]]], active: list[set[int]], absorbed_last: int
          ) -> int:
    """The first piece from which every piece is reached by one group only, whose useful counts are 0, 1, ... of it
    (option ``j`` is ``j`` carriers) and whose gains never grow: past it the programme is a greedy share."""
    tail = len(options)
    while tail - 1 > absorbed_last and len(active[tail - 1]) == 1:
        (group,) = active[tail - 1]
        choices = options[tail - 1]
        if any(k[group] != j for j, (k, _, _) in enumerate(choices)):
            break
        gains = [choices[j][1] - choices[j - 1][1] for j in range(1, len(choices))]
        if any(a < b for a, b in itertools.pairwise(gains)):
            break
        tail -= 1
    return tail


def _absorbed(pieces: list[Part], reach: list[set[int]], kinds: Classes, left: tuple[int, ...]) -> dict[int, int]:
    """Groups whose carriers another group's could replace everywhere they go: group -> the group absorbing it.

    Group ``c`` is absorbed by ``d`` when they have the same slots and, in every piece ``c`` reaches, ``d``
    reaches it too and ends in the same zones of it, and the pieces ``c`` reaches are the first ``d`` reaches
    (in the programme's order).  There the two are alike, so only how many of both go to a piece matters, and
    a plan uses ``c``'s carriers first (they can go nowhere ``d``'s cannot); past those pieces ``d`` has no
    more than its own carriers left.  A group that absorbs is never absorbed itself.
    """
    absorbed: dict[int, int] = {}
    for c in range(len(kinds)):
        if not left[c] or c in absorbed.values():
            continue
        mine = [i for i, groups in enumerate(reach) if c in groups]
        if not mine:
            continue
        for d in range(len(kinds)):
            if d == c or not left[d] or d in absorbed or kinds[d][0] != kinds[c][0]:
                continue
            alike = all(
                d in reach[i] and set(kinds[c][1]) & set(pieces[i].zones) == set(kinds[d][1]) & set(pieces[i].zones)
                for i in mine
            )
            if alike and all(c in reach[i] for i in range(max(mine) + 1) if d in reach[i]):
                absorbed[c] = d
                break
    return absorbed


def _pieces(part: Part) -> list[Part]:
    """The part's pieces: zones linked by fighters (not by carriers), in the order of their first zone."""
    partition: Partition[str] = Partition()
    for zones, _ in part.kinds:
        first, *rest = sorted(zones)
        partition.find(first)
        for z in rest:
            partition.join(z, first)
    pieces: dict[str, Part] = {}
    for z in part.zones:
        pieces.setdefault(partition.find(z), Part([], [], [])).zones.append(z)
    for zones, members in part.kinds:
        pieces[partition.find(min(zones))].kinds.append((zones, members))
    return [p for p in pieces.values() if p.kinds]


def _options(piece: Part, caps: dict[str, int], kinds: Classes, left: list[int], homes: list[str | None],
             work: Meter, shapes: dict[tuple[object, ...], tuple[int, dict[tuple[int, int], int]]]
             ) -> list[tuple[tuple[int, ...], int, Picks]] | None:
    """Every useful count of carriers per group for one piece: (counts, fighters landed, placement in the piece).

    A count is useful when each of its carriers adds a fighter (taking one of any group away lands fewer).
    """
    inside = set(piece.zones)
    local = {z: i for i, z in enumerate(piece.zones)}
    reach = [c for c, (_, zones) in enumerate(kinds) if left[c] and any(z in inside for z in zones)]
    sub: Classes = [(kinds[c][0], tuple(z for z in kinds[c][1] if z in inside)) for c in reach]
    fighters = sum(len(m) for _, m in piece.kinds)
    most = [min(left[c], fighters) for c in reach]
    count = 1
    for m in most:
        count *= m + 1
    if count > MOST_STATES:
        return None
    piece_caps = {z: caps[z] for z in piece.zones if caps.get(z)}
    shape = (
        tuple(sorted((tuple(sorted(local[z] for z in zones)), len(m)) for zones, m in piece.kinds)),
        tuple(piece_caps.get(z, 0) for z in piece.zones),
        tuple((s, tuple(local[z] for z in zs), local.get(homes[c] or "", -1)) for c, (s, zs) in zip(reach, sub,
                                                                                                  strict=True)),
    )
    values: dict[tuple[int, ...], int] = {}
    out: list[tuple[tuple[int, ...], int, Picks]] = []
    for k in itertools.product(*[range(m + 1) for m in most]):
        if sum(k) > fighters:
            continue
        below = [values[(*k[:i], k[i] - 1, *k[i + 1:])] for i in range(len(k)) if k[i]]
        if below and max(below) >= fighters:
            values[k] = fighters  # every fighter of the piece lands with fewer carriers: no option, no search
            continue
        mark = (*shape, k)
        if mark not in shapes:
            value, found = branch(piece, piece_caps, sub, k, [homes[c] for c in reach], work)
            # a placement kept by local zone index, so that a piece alike in shape can reuse it
            shapes[mark] = (value, {(c, local[z]): n for (c, z), n in found.items()})
        value, kept = shapes[mark]
        values[k] = value
        if any(k[i] and values[(*k[:i], k[i] - 1, *k[i + 1:])] >= value for i in range(len(k))):
            continue  # a carrier of this count adds nothing here
        full = [0] * len(kinds)
        for i, c in enumerate(reach):
            full[c] = k[i]
        picks = {(reach[c], piece.zones[z]): n for (c, z), n in kept.items()}
        out.append((tuple(full), value, picks))
    return out
