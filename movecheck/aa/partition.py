"""Disjoint sets (union-find without recursion): how the searches split a problem into parts nothing links."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Partition(Generic[T]):
    """Elements joined into parts; :meth:`find` names an element's part by one of its members."""

    def __init__(self) -> None:
        self.parent: dict[T, T] = {}

    def find(self, x: T) -> T:
        parent = self.parent
        root = parent.setdefault(x, x)
        while parent[root] != root:
            root = parent[root]
        while x != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def join(self, a: T, b: T) -> None:
        """Put ``a`` and ``b`` (and their parts) in one part: ``b``'s root stays the root."""
        self.parent[self.find(a)] = self.find(b)
