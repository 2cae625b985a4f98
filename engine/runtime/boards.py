"""Boards as graphs: spaces linked to neighbours, and locations derived from the links.

A component type declares `links: ATTR` when each of its components lists its
neighbours' ids in the list attribute ATTR (links count both ways). Another
type may declare `derive: {edges: SPACE_TYPE}` to get one component per pair
of linked spaces (a shared edge: roads, walls) or `derive: {corners:
SPACE_TYPE}` for one per three mutually linked spaces (an intersection). A
derived component's `ends` attribute lists the ids of the spaces it touches.

The pack's graphs are the printed boards, shared by every match. A match that
changes links (`link A to B`, `unlink A from B`: a board built during play)
gets its own copy of that board in its state; derived locations stay those of
the printed links.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import combinations

DERIVED_KINDS = ("edges", "corners")


@dataclass
class Graph:
    """Undirected links between the components of one type, in definition order."""

    type_id: str
    order: list[str]
    links: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, type_id: str, neighbours: dict[str, list[str]]) -> Graph:
        graph = cls(type_id, list(neighbours), {cid: [] for cid in neighbours})
        for cid, others in neighbours.items():
            for other in others:
                if other in graph.links and other != cid:
                    _link(graph.links, cid, other)
        rank = {cid: i for i, cid in enumerate(graph.order)}
        for cid in graph.links:
            graph.links[cid].sort(key=rank.__getitem__)
        return graph

    def copy(self) -> Graph:
        """An independent copy, for a match that changes its links."""
        return Graph(self.type_id, self.order, {cid: list(others) for cid, others in self.links.items()})

    def link(self, a: str, b: str) -> None:
        if a != b:
            _link(self.links, a, b)

    def unlink(self, a: str, b: str) -> None:
        for x, y in ((a, b), (b, a)):
            if y in self.links[x]:
                self.links[x].remove(y)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.links.get(a, ())

    def distance(self, a: str, b: str) -> int:
        """Fewest links from a to b; -1 when b cannot be reached."""
        if a == b:
            return 0
        seen, queue = {a}, deque([(a, 0)])
        while queue:
            here, steps = queue.popleft()
            for nxt in self.links.get(here, ()):
                if nxt == b:
                    return steps + 1
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, steps + 1))
        return -1

    def edges(self) -> list[tuple[str, str]]:
        return [(a, b) for i, a in enumerate(self.order) for b in self.order[i + 1:] if self.adjacent(a, b)]

    def corners(self) -> list[tuple[str, str, str]]:
        return [(a, b, c) for a, b, c in combinations(self.order, 3)
                if self.adjacent(a, b) and self.adjacent(b, c) and self.adjacent(a, c)]


def _link(links: dict[str, list[str]], a: str, b: str) -> None:
    if b not in links[a]:
        links[a].append(b)
    if a not in links[b]:
        links[b].append(a)


def derived_id(ends: tuple[str, ...]) -> str:
    """The id of a derived location: its spaces' ids joined by double underscores."""
    return "__".join(ends)
