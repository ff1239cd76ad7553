"""The odds engine's later rounds on arrays: the same dynamic programme, with numpy where it is installed.

The live states' probabilities are one matrix, a row per attacker's units left and a column per
defender's.  A round from a state is a few blocks, each the product of two independent
distributions (:meth:`movecheck.aa.battle.engine.Battle.blocks`), so it is added to the matrix
as an outer product in one step, instead of pair by pair.  The end steps of a round (units
removed without dice, submerges, the end check) are applied to a state when it is taken up;
they only lower its hit points.  States are taken up from the most hit points down, as in
:meth:`movecheck.aa.battle.engine.Battle.drain`, so each is taken up once.  numpy is imported
here only (``movecheck[odds]``); without it the engine's own loop does the same in pure Python.

A battle whose casualties are one sequence per side (every land battle) is a :class:`Chain`: its grid
holds the units gone from each sequence, and a big grid is taken up a level at a time
(:class:`Levels`), the cells with the same units gone in all fought in one matrix product.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from movecheck.aa.battle.side import DROP, RETREAT, STALEMATE, Counts, Num, State, add, binomial

Battle = Any
"""A :class:`movecheck.aa.battle.engine.Battle` (not imported: the engine imports this module)."""


def available() -> bool:
    """numpy can be imported."""
    try:
        import numpy  # noqa: F401
    except ImportError:  # pragma: no cover - numpy is in the test environment
        return False
    return True


class Grid:
    """The live states' probabilities: side states numbered as they are met, a growing matrix."""

    def __init__(self, battle: Battle) -> None:
        import numpy as np

        self.np = np
        self.battle = battle
        self.ids: tuple[dict[Counts, int], dict[Counts, int]] = ({}, {})
        self.states: tuple[list[Counts], list[Counts]] = ([], [])
        self.points: tuple[list[int], list[int]] = ([], [])
        self.mass = np.zeros((16, 16))
        self.vectors: dict[int, tuple[Any, Any, dict[Counts, Num]]] = {}

    def id(self, role: int, counts: Counts) -> int:
        found = self.ids[role].get(counts)
        if found is None:
            found = self.ids[role][counts] = len(self.states[role])
            self.states[role].append(counts)
            side = self.battle.att if role == 0 else self.battle.dfn
            self.points[role].append(side.points(counts))
            rows, cols = self.mass.shape
            if found >= (rows if role == 0 else cols):
                grow = ((0, rows), (0, 0)) if role == 0 else ((0, 0), (0, cols))
                self.mass = self.np.pad(self.mass, grow)
        return found

    def vector(self, role: int, outcomes: list[tuple[Counts, Num]], now: Counts) -> tuple[Any, Any, float]:
        """A side's outcomes as (ids, probabilities), and the chance it stays as ``now`` (kept per list)."""
        found = self.vectors.get(id(outcomes))
        if found is None:
            ids = [self.id(role, c) for c, _p in outcomes]
            found = self.vectors[id(outcomes)] = (ids, [p for _c, p in outcomes], dict(outcomes))
        ids, probs, table = found
        return ids, probs, table.get(now, 0.0)

    def put(self, state: State, p: Num) -> None:
        row, col = self.id(0, state[0]), self.id(1, state[1])
        self.mass[row, col] += p

    def level(self, top: int) -> list[tuple[int, int]]:
        """The states with probability whose hit points are ``top``."""
        np = self.np
        rows, cols = len(self.states[0]), len(self.states[1])
        pa = np.asarray(self.points[0])[:, None]
        pd = np.asarray(self.points[1])[None, :]
        found = np.argwhere(((pa + pd) == top) & (self.mass[:rows, :cols] > 0))
        return [(int(i), int(j)) for i, j in found]


def drain(battle: Battle, live: dict[State, Num], ends: dict[tuple[State, str], Num],
          retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
    """Fight every live state to its end (as :meth:`Battle.drain`); the expected rounds it adds.

    The states of one level (the same hit points) do not feed each other: a round from one either leaves it as
    it is (summed in closed form) or lowers its hit points.  Their rounds are gathered (:class:`Batch`) and added
    to the grid at once, one matrix product per level."""
    grid = Grid(battle)
    for state, p in live.items():
        grid.put(state, p)
    rounds: Num = 0.0
    top = max(battle.potential(s) for s in live)
    cache: dict[State, tuple[Num, list[tuple[Num, Any, Any, Any, Any]], list[tuple[tuple[State, str], Num]]]] = {}
    for level in range(top, -1, -1):
        batch = Batch(grid)
        for i, j in grid.level(level):
            mass = float(grid.mass[i, j])
            grid.mass[i, j] = 0.0
            state = (grid.states[0][i], grid.states[1][j])
            if mass < DROP:
                battle.dropped += mass
                continue
            after, outcome = battle.round_end(state)
            if outcome:
                add(ends, (after, outcome), mass)
                continue
            if after != state:
                grid.put(after, mass)
                continue
            if retreat is not None and battle.retreat_allowed(state) and retreat(state, round_number):
                after, outcome = battle.retreat_end(state)
                if outcome:
                    add(ends, (after, outcome), mass)
                else:
                    grid.put(after, mass)  # a partial amphibious retreat: fewer hit points, taken up later
                continue
            rounds += take_up(battle, grid, state, (i, j), mass, ends, cache, batch)
        batch.add()
    return rounds


def take_up(battle: Battle, grid: Grid, state: State, cell: tuple[int, int], mass: float,
            ends: dict[tuple[State, str], Num], cache: dict[State, Any], batch: Batch) -> float:
    """Fight one round from a live state, summing the rounds it stays as it is (its blocks go to ``batch``); the
    rounds it adds."""
    found = cache.get(state)
    if found is None:
        settled, blocks = battle.blocks(state, first=False)
        stay = 0.0
        arrays = []
        for weight, hit_a, hit_d in blocks:
            battle.spend(len(hit_a) + len(hit_d))  # one outer product, done by numpy
            rows, pa, at_a = grid.vector(0, hit_a, state[0])
            cols, pd, at_d = grid.vector(1, hit_d, state[1])
            stay += weight * at_a * at_d
            arrays.append((weight, rows, pa, cols, pd))
        found = cache[state] = (stay, arrays, settled)
    stay, arrays, settled = found
    leave = 1.0 - stay
    if leave < 1e-15:
        add(ends, (state, STALEMATE), mass)
        return 0.0
    share = mass / leave
    for key, p in settled:
        add(ends, key, share * p)
    for weight, rows, pa, cols, pd in arrays:
        batch.put(share * weight, rows, pa, cols, pd)
    batch.cells.append(cell)
    return share


class Batch:
    """The rounds of one level's states, added to the grid at once: block k adds ``coef[k] * pa[k] (x) pd[k]``
    at (rows[k], cols[k]); summed over the blocks that is ``X.T @ Y`` with ``X[k, rows[k]] = coef[k] * pa[k]``
    and ``Y[k, cols[k]] = pd[k]``, one matrix product (split to stay on one thread, :data:`ONE_THREAD`).  The
    part of each round that leaves its state as it was (summed in closed form) is then taken off its cell."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.coefs: list[float] = []
        self.rows: list[Any] = []
        self.pa: list[Any] = []
        self.cols: list[Any] = []
        self.pd: list[Any] = []
        self.cells: list[tuple[int, int]] = []

    def put(self, coef: float, rows: Any, pa: Any, cols: Any, pd: Any) -> None:
        self.coefs.append(coef)
        self.rows.append(rows)
        self.pa.append(pa)
        self.cols.append(cols)
        self.pd.append(pd)

    def add(self) -> None:
        if not self.coefs:
            return
        grid = self.grid
        np = grid.np
        count = len(self.coefs)
        height, width = len(grid.states[0]), len(grid.states[1])
        every = itertools.chain.from_iterable
        coefs = np.asarray(self.coefs)
        x = np.zeros((count, height))
        lengths = [len(r) for r in self.rows]
        x[np.repeat(np.arange(count), lengths), list(every(self.rows))] = (
            np.fromiter(every(self.pa), float) * np.repeat(coefs, lengths))
        y = np.zeros((count, width))
        lengths = [len(c) for c in self.cols]
        y[np.repeat(np.arange(count), lengths), list(every(self.cols))] = np.fromiter(every(self.pd), float)
        xt = x.T
        step = max(1, ONE_THREAD // (height * count))
        for start in range(0, width, step):  # products small enough for one thread
            grid.mass[:height, start:min(width, start + step)] += xt @ y[:, start:start + step]
        for cell in self.cells:
            grid.mass[cell] = 0.0


class OffChain(Exception):
    """A state left the chain of its grid: the general drain is used instead."""


def is_chain(battle: Battle) -> bool:
    """Every later round is one exchange at every unit (no submarines, no two-hit units, no partial
    retreat): each side's
    casualties are a fixed sequence, the first N units of it after N hits."""
    return not any(side.two_hit or side.of["sub"] or side.of["first"] or side.of["cannot"] or side.landing
                   for side in (battle.att, battle.dfn))


def chain_drain(battle: Battle, live: dict[State, Num], ends: dict[tuple[State, str], Num],
                retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
    """:func:`drain` for a battle whose casualties are a sequence per side: a state is how many units of
    each side's sequence are gone, and a round from it adds one outer product to a slice of the grid."""
    chains: list[tuple[Chain, dict[State, Num]]] = []
    for state, p in live.items():
        for chain, members in chains:
            if state[0] in chain.pos[0] and state[1] in chain.pos[1]:
                members[state] = p
                break
        else:
            chains.append((Chain(battle, state), {state: p}))
    return sum((chain.run(members, ends, retreat, round_number) for chain, members in chains), 0.0)


def on_chain(battle: Battle, root: State, state: State) -> bool:
    for side, r, c in ((battle.att, root[0], state[0]), (battle.dfn, root[1], state[1])):
        gone = side.in_battle(r) - side.in_battle(c)
        if gone < 0 or side.take(r, gone, "any")[0] != c:
            return False
    return True


class Chain:
    """One grid: the states on the chains of a root state, and each position's hit distribution."""

    def __init__(self, battle: Battle, root: State) -> None:
        import numpy as np

        self.np = np
        self.battle = battle
        self.seq: list[list[Counts]] = []
        self.pos: list[dict[Counts, int]] = []
        self.dists: list[list[Any]] = []
        self.binomials: dict[tuple[int, int], Any] = {}
        for side, counts, enemy, enemy_counts, attacking in ((battle.att, root[0], battle.dfn, root[1], True),
                                                             (battle.dfn, root[1], battle.att, root[0], False)):
            seq = [side.take(counts, k, "any")[0] for k in range(side.in_battle(counts) + 1)]
            self.seq.append(seq)
            self.pos.append({c: k for k, c in enumerate(seq)})
            dists = []
            for c in seq:
                groups = battle.groups(side, c, enemy, enemy_counts, attacking, "main")
                if any(cls != "any" for _n, cls, _d in groups):
                    raise OffChain
                dice = tuple(pair for _n, _c, d in groups for pair in d)
                dists.append(self.hits(tuple(sorted(dice))))
            self.dists.append(dists)
        self.size = (len(self.seq[0]), len(self.seq[1]))

    def hits(self, dice: tuple[tuple[int, int], ...]) -> Any:
        """:meth:`Battle.hits` of a position's dice as an array: the same convolution of binomials, done by numpy
        (a side's positions share most of their groups, so each binomial is worked out once)."""
        battle = self.battle
        if battle.low_luck:
            return self.np.asarray(battle.hits(dice, 10**9), dtype=float)
        found = self.np.ones(1)
        for value, count in dice:
            if count <= 0 or value <= 0:
                continue
            group = self.binomials.get((value, count))
            if group is None:
                group = self.binomials[value, count] = self.np.asarray(binomial(count, battle.hit_chance(value)))
            battle.spend(len(found) * len(group))
            found = self.np.convolve(found, group)
        return found

    def run(self, members: dict[State, Num], ends: dict[tuple[State, str], Num],
            retreat: Callable[[State, int], bool] | None, round_number: int) -> Num:
        np = self.np
        na, nd = self.size
        longest_a = max(len(d) for d in self.dists[0])
        longest_d = max(len(d) for d in self.dists[1])
        grid = np.zeros((na + longest_d, nd + longest_a))
        for (a, d), p in members.items():
            grid[self.pos[0][a], self.pos[1][d]] += p
        battle = self.battle
        levels = Levels(self, grid.shape) if na * nd >= LEVELS_FROM else None
        rounds = 0.0
        for level in range(na + nd - 1):
            if levels is not None:
                rounds += levels.take_up(level, grid, ends, retreat, round_number)
            else:
                rounds += self.take_up_cells(level, grid, ends, retreat, round_number)
        for i, j in np.argwhere(grid > 0):  # every side gone: ends
            state = (self.seq[0][min(int(i), na - 1)], self.seq[1][min(int(j), nd - 1)])
            after, outcome = battle.round_end(state)
            add(ends, (after, outcome or STALEMATE), float(grid[i, j]))
        return rounds

    def take_up_cells(self, level: int, grid: Any, ends: dict[tuple[State, str], Num],
                      retreat: Callable[[State, int], bool] | None, round_number: int) -> float:
        """A level of a small grid, cell by cell: an outer product each."""
        na, nd = self.size
        rounds = 0.0
        for i in range(max(0, level - nd + 1), min(na - 1, level) + 1):
            mass = float(grid[i, level - i])
            if mass != 0.0:
                grid[i, level - i] = 0.0
                rounds += self.take_up((i, level - i), mass, grid, ends, retreat, round_number)
        return rounds

    def take_up(self, cell: tuple[int, int], mass: float, grid: Any, ends: dict[tuple[State, str], Num],
                retreat: Callable[[State, int], bool] | None, round_number: int) -> float:
        battle = self.battle
        i, j = cell
        state = (self.seq[0][i], self.seq[1][j])
        if mass < DROP:
            battle.dropped += mass
            return 0.0
        pa, pd = self.dists[0][i], self.dists[1][j]  # the attacker's hits (on the defender), the defender's
        if len(pa) > 1 and len(pd) > 1:  # both sides fire at every enemy unit: the battle goes on as it is
            return self.fire(cell, mass, pa, pd, grid, ends, state, retreat, round_number)
        after, outcome = battle.round_end(state)
        if outcome:
            add(ends, (after, outcome), mass)
            return 0.0
        if after != state:
            moved = (self.pos[0].get(after[0]), self.pos[1].get(after[1]))
            if moved[0] is None or moved[1] is None:
                raise OffChain
            grid[moved] += mass
            return 0.0
        return self.fire(cell, mass, pa, pd, grid, ends, state, retreat, round_number)

    def fire(self, cell: tuple[int, int], mass: float, pa: Any, pd: Any, grid: Any,
             ends: dict[tuple[State, str], Num], state: State, retreat: Callable[[State, int], bool] | None,
             round_number: int) -> float:
        """A round from a live state on the grid: one outer product added, the stays summed."""
        battle = self.battle
        i, j = cell
        if retreat is not None and battle.retreat_allowed(state) and retreat(state, round_number):
            add(ends, (state, RETREAT), mass)
            return 0.0
        stay = float(pa[0] * pd[0])
        leave = 1.0 - stay
        if leave < 1e-15:
            add(ends, (state, STALEMATE), mass)
            return 0.0
        battle.spend(len(pa) + len(pd))  # one outer product, done by numpy
        share = mass / leave
        grid[i:i + len(pd), j:j + len(pa)] += (share * pd)[:, None] * pa
        grid[i, j] = 0.0
        return share


LEVELS_FROM = 200
"""The fewest cells of a grid taken up a level at a time (:class:`Levels`); a smaller grid is taken cell by cell,
which costs less there (about 13 units a side, measured on the benchmark's armies)."""

ONE_THREAD = 200_000
"""The most multiply-adds one matrix product of :class:`Levels` does: OpenBLAS runs a product this small on the
calling thread (its threshold is 4 x 65,536), and one core is what a battle has (on a busy machine, threads
spinning for a core made the 100-per-side battle ten times slower).  Splitting a product by its columns leaves
each figure's sum as it was."""


class Levels:
    """A chain's grid taken up a level at a time: the states with the same units gone in all are fought at once.

    A round from the cell (i, j) (i of the attacker's units gone, j of the defender's) adds
    ``share * pd[a] * pa[b]`` to the cell (i + a, j + b), ``pd`` the defender's hits, ``pa`` the
    attacker's.  Summed over the cells of a level (i + j fixed), that is one matrix product
    ``X @ Y``: ``X[i', i] = pd_j[i' - i]`` and ``Y[i, j'] = share_i * pa_i[j' - j]``.  Hits beyond
    a side's units left are summed into its last cell (all gone), which ends the battle the same
    way.  The few cells where a side does not fire (the battle's end, units that cannot hit) and
    the retreat rule are taken up one by one, as :meth:`Chain.take_up` does.
    """

    def __init__(self, chain: Chain, shape: tuple[int, int]) -> None:
        np = self.np = chain.np
        self.chain = chain
        na, nd = chain.size
        self.pad = pad = max(na, nd)
        self.spread: list[Any] = []
        self.tails: list[Any] = []
        lengths = []
        for dists in chain.dists:
            width = max(len(d) for d in dists)
            spread = np.zeros((len(dists), width + 2 * pad))
            for k, dist in enumerate(dists):
                spread[k, pad:pad + len(dist)] = dist
            tails = np.ascontiguousarray(np.cumsum(spread[:, ::-1], axis=1)[:, ::-1])  # [k, pad + a]: a hits or more
            self.spread.append(spread)
            self.tails.append(tails)
            lengths.append(np.asarray([len(d) for d in dists]))
        # the attacker's rows from the last position to the first: a level's rows are then read forwards
        self.reversed = (np.ascontiguousarray(self.spread[0][::-1]), np.ascontiguousarray(self.tails[0][::-1]))
        len_a, len_d = lengths
        leave = 1.0 - self.spread[0][:, pad, None] * self.spread[1][None, :, pad]
        both = (len_a[:, None] > 1) & (len_d[None, :] > 1) & (leave >= 1e-15)
        # laid out as the grid, so that a level is a strided slice of each (the cells i * (width - 1) + level)
        self.both = np.zeros(shape, dtype=bool)
        self.both[:na, :nd] = both
        """Cells where both sides fire and a round changes something: fought in the matrix product."""
        self.leave = np.ones(shape)
        self.leave[:na, :nd] = np.where(both, leave, 1.0)
        self.steps = np.zeros(shape, dtype=np.int64)
        self.steps[:na, :nd] = len_a[:, None] + len_d[None, :]
        self.both, self.leave, self.steps = self.both.reshape(-1), self.leave.reshape(-1), self.steps.reshape(-1)
        self.stride = shape[1] - 1

    def cells(self, level: int, first: int, last: int) -> slice:
        """The cells (i, level - i) for i from ``first`` to ``last`` in the flat grid."""
        return slice(level + first * self.stride, level + last * self.stride + 1, self.stride)

    def take_up(self, level: int, grid: Any, ends: dict[tuple[State, str], Num],
                retreat: Callable[[State, int], bool] | None, round_number: int) -> float:
        """Fight a round from every live cell of a level; the rounds it adds."""
        np = self.np
        chain = self.chain
        na, nd = chain.size
        flat = grid.reshape(-1)
        first, last = max(0, level - nd + 1), min(na - 1, level)
        cells = self.cells(level, first, last)
        mass = flat[cells].copy()
        if not mass.any():
            return 0.0
        flat[cells] = 0.0
        fought = self.both[cells] & (mass >= DROP)
        rounds = 0.0
        if not fought.all():
            for k in np.flatnonzero((mass > 0) & ~fought):
                rounds += chain.take_up((first + int(k), level - first - int(k)), float(mass[k]), grid, ends,
                                        retreat, round_number)
        if retreat is not None:
            self.retreats(level, first, mass, fought, ends, retreat, round_number)
        if not fought.any():
            return rounds
        share = mass / self.leave[cells]
        share[~fought] = 0.0
        chain.battle.spend(int(np.dot(self.steps[cells], fought)))  # outer products, done by numpy
        self.add(level, first, last, share, grid)
        flat[cells] = 0.0
        return rounds + float(share.sum())

    def retreats(self, level: int, first: int, mass: Any, fought: Any, ends: dict[tuple[State, str], Num],
                 retreat: Callable[[State, int], bool], round_number: int) -> None:
        """The attacker retreats from the cells the rule says, before their round (as :meth:`Chain.fire`)."""
        chain = self.chain
        battle = chain.battle
        for k in self.np.flatnonzero(fought):
            state = (chain.seq[0][first + k], chain.seq[1][level - first - k])
            if battle.retreat_allowed(state) and retreat(state, round_number):
                add(ends, (state, RETREAT), float(mass[k]))
                fought[k] = False

    def add(self, level: int, top: int, last: int, share: Any, grid: Any) -> None:
        """Add every cell's round to the grid: one matrix product, hits beyond the units left summed at the end.

        Taken from the last row of the level to the first (k-th: the attacker's ``last - k`` units gone, the
        defender's ``left + k``), ``X.T[k, r]`` and ``Y[k, c]`` are read at fixed strides from the hit
        distributions laid out with ``pad`` zeros on each side: views, nothing gathered."""
        na, nd = self.chain.size
        pad = self.pad
        count = last - top + 1
        left = level - last  # the first column reached
        spread_d, tails_d = self.spread[1], self.tails[1]
        spread_a, tails_a = self.reversed
        wide_d, wide_a = spread_d.shape[1], spread_a.shape[1]
        height = min(count + wide_d - 2 * pad - 1, na - top)
        width = min(count + wide_a - 2 * pad - 1, nd - left)
        start_d = left * wide_d + pad + top - last
        xt = self.view(spread_d, start_d, (count, height), (wide_d + 1, 1)).copy()
        if height == na - top:
            xt[:, -1] = self.view(tails_d, start_d + na - 1 - top, (count,), (wide_d + 1,))
        start_a = (na - 1 - last) * wide_a + pad
        share = share[::-1]
        y = self.view(spread_a, start_a, (count, width), (wide_a - 1, 1)) * share[:, None]
        if width == nd - left:
            y[:, -1] = self.view(tails_a, start_a + nd - 1 - left, (count,), (wide_a - 1,)) * share
        x = xt.T
        step = max(1, ONE_THREAD // (height * count))
        for start in range(0, width, step):  # products small enough for one thread
            grid[top:top + height, left + start:left + min(width, start + step)] += x @ y[:, start:start + step]

    def view(self, table: Any, start: int, shape: tuple[int, ...], strides: tuple[int, ...]) -> Any:
        """Elements of a table read from flat index ``start`` at the given strides (in elements)."""
        size = table.itemsize
        return self.np.ndarray(shape, table.dtype, table, start * size, tuple(s * size for s in strides))
