"""A flow network with Dinic's maximum flow, without recursion: what the landing search is built on.

Edge ``e`` and its reverse ``e ^ 1``; the work of each run (edges examined) is
charged to a :class:`~movecheck.budget.Meter`, so a search built on it is bounded.
"""

from __future__ import annotations

from movecheck.budget import Meter


class Network:
    """A flow network (edge ``e`` and its reverse ``e ^ 1``), maximum flow by Dinic's algorithm, without recursion."""

    def __init__(self, size: int) -> None:
        self.adj: list[list[int]] = [[] for _ in range(size)]
        self.to: list[int] = []
        self.cap: list[int] = []
        self.initial: list[int] = []

    def add(self, u: int, v: int, capacity: int) -> int:
        edge = len(self.to)
        self.to += [v, u]
        self.cap += [capacity, 0]
        self.initial += [capacity, 0]
        self.adj[u].append(edge)
        self.adj[v].append(edge + 1)
        return edge

    def flow_on(self, edge: int) -> int:
        return self.initial[edge] - self.cap[edge]

    def run(self, source: int, sink: int, work: Meter) -> int:
        adj, to, cap = self.adj, self.to, self.cap
        total = 0
        while True:
            level = [-1] * len(adj)
            level[source] = 0
            queue = [source]
            for u in queue:
                for e in adj[u]:
                    if cap[e] > 0 and level[to[e]] < 0:
                        level[to[e]] = level[u] + 1
                        queue.append(to[e])
            work.spend(len(to) // 2 + 1)
            if level[sink] < 0:
                return total
            nxt = [0] * len(adj)
            scanned = 0
            while True:  # augmenting paths along the levels, depth first with an explicit stack
                path: list[int] = []
                u = source
                while u != sink:
                    edges = adj[u]
                    while nxt[u] < len(edges):
                        e = edges[nxt[u]]
                        scanned += 1
                        if cap[e] > 0 and level[to[e]] == level[u] + 1:
                            break
                        nxt[u] += 1
                    else:
                        if u == source:
                            break
                        level[u] = -1  # dead end
                        e = path.pop()
                        u = to[e ^ 1]
                        nxt[u] += 1
                        continue
                    path.append(e)
                    u = to[e]
                if u != sink:
                    break
                push = min(cap[e] for e in path)
                for e in path:
                    cap[e] -= push
                    cap[e ^ 1] += push
                total += push
            work.spend(scanned)
