"""The carrier search over pieces that only carriers link: how many carriers of each group go to each piece.

A part of the landing problem (:mod:`movecheck.aa.carrier_search`) is held
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
branch-and-bound of :func:`movecheck.aa.landing_branch.branch` on the piece
alone.  It is exact, and polynomial for a fixed number of groups when the
pieces are small: seven alike carriers over six triangles of fighters (each
fighter reaching two zones of its triangle), which the branch-and-bound alone
searches for over a million steps, is a few thousand here.  A vector ``k``
that lands no more than ``k`` less one carrier of some group is never needed
(the carrier is better left for another piece), and pieces alike in shape ask
the branch-and-bound once.  Its work is charged to the landing budget.
"""

from __future__ import annotations

import itertools

from movecheck.aa.landing_branch import Classes, Part, Picks, branch
from movecheck.aa.partition import Partition
from movecheck.budget import Meter

MOST_STATES = 20_000
"""The most states (combinations of carriers left per group) the programme keeps; past it the part is searched whole."""

MOST_STEPS = 400_000
"""The most transitions (states times useful vectors, summed over pieces) it may take; past it, searched whole."""


def split(part: Part, caps: dict[str, int], kinds: Classes, left: tuple[int, ...], homes: list[str | None],
          work: Meter) -> tuple[int, Picks] | None:
    """The most fighters of ``part`` that land and a placement, by pieces; None when it has one piece or too many
    combinations (the caller searches the part whole)."""
    pieces = _pieces(part)
    if len(pieces) < 2:
        return None
    states = 1
    for n in left:
        states *= n + 1
    if states > MOST_STATES:
        return None
    shapes: dict[tuple[object, ...], tuple[int, dict[tuple[int, int], int]]] = {}
    options: list[list[tuple[tuple[int, ...], int, Picks]]] = []
    for piece in pieces:
        found = _options(piece, caps, kinds, left, homes, work, shapes)
        if found is None:
            return None
        options.append(found)
    if sum(len(o) for o in options) * min(states, MOST_STATES) > MOST_STEPS:
        return None
    # the programme, piece by piece: for each count of carriers left, the most landed so far and how
    table: dict[tuple[int, ...], tuple[int, list[int]]] = {left: (0, [])}
    for choices in options:
        grown: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        for rest, (value, path) in sorted(table.items()):
            work.spend(len(choices))
            for v, (k, gained, _) in enumerate(choices):
                if any(a > b for a, b in zip(k, rest, strict=True)):
                    continue
                after = tuple(b - a for a, b in zip(k, rest, strict=True))
                if value + gained > grown.get(after, (-1, []))[0]:
                    grown[after] = (value + gained, [*path, v])
        table = grown
    best, path = max(table.values(), key=lambda item: (item[0], item[1]))
    picks: Picks = {}
    for choices, v in zip(options, path, strict=True):
        for (c, z), count in choices[v][2].items():
            picks[(c, z)] = picks.get((c, z), 0) + count
    return best, picks


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


def _options(piece: Part, caps: dict[str, int], kinds: Classes, left: tuple[int, ...], homes: list[str | None],
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
