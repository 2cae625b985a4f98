"""Boards as graphs: spaces linked to neighbours, and locations derived from the links.

A board's links are listed (`links: ATTR`) or follow from coordinates on a
grid (`grid: {shape: hex|square, at: ATTR}`: each component gives its cell in
ATTR, and cells one step apart are neighbours).

A grid board knows where each cell is (`Grid`): the DSL's grid functions read
it (`at`, `column`, `row`, `line`, `step`, `in_a_row`). A grid may be declared by its
size (`grid: {shape: square, size: [7, 6]}`): the builder then makes one
component per cell, with `col` and `row` attributes.

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

DERIVED_KINDS = ("edges", "corners")
GRID_STEPS = {  # the neighbours of a cell: axial coordinates (q, r) on hexes, (column, row) on squares
    "hex": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
    "square": ((1, 0), (-1, 0), (0, 1), (0, -1)),
}

# named directions on each shape: square (column, row) with row 1 at the bottom, so `n` is row + 1;
# hex axial (q, r) with r growing southwards (pointy-top hexes)
GRID_DIRECTIONS: dict[str, dict[str, tuple[int, int]]] = {
    "square": {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
               "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1)},
    "hex": {"e": (1, 0), "ne": (1, -1), "nw": (0, -1), "w": (-1, 0), "sw": (-1, 1), "se": (0, 1)},
}
# the lines through a cell, one direction per axis (its opposite is the other half of the line)
GRID_AXES = {"square": ((1, 0), (0, 1), (1, 1), (1, -1)), "hex": ((1, 0), (1, -1), (0, 1))}
FILES = "abcdefghijklmnopqrstuvwxyz"   # `names: chess` calls column 1 `a`


@dataclass(frozen=True)
class Grid:
    """Where each cell of a grid board is: component id -> (column, row), and back."""

    shape: str
    at: dict[str, tuple[int, int]]
    cell: dict[tuple[int, int], str]

    @classmethod
    def of(cls, shape: str, at: dict[str, tuple[int, int]]) -> Grid:
        return cls(shape, at, {xy: cid for cid, xy in at.items()})


def grid_cell_name(naming: str, col: int, row: int) -> str:
    """A generated cell's id and name: `b3` for `names: chess`, else `3,2`-style coordinates."""
    if naming == "chess":
        return f"{FILES[col - 1]}{row}"
    return f"{col},{row}"


@dataclass
class Graph:
    """Undirected links between the components of one type, in definition order.

    `blocked`: links taken out by `block A from B` (each pair sorted), put back by `unblock`: while
    blocked, the spaces are not neighbours.
    """

    type_id: str
    order: list[str]
    links: dict[str, list[str]] = field(default_factory=dict)
    blocked: set[tuple[str, str]] = field(default_factory=set)

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
        return Graph(self.type_id, self.order, {cid: list(others) for cid, others in self.links.items()},
                     set(self.blocked))

    def link(self, a: str, b: str) -> None:
        if a != b:
            _link(self.links, a, b)

    def unlink(self, a: str, b: str) -> None:
        for x, y in ((a, b), (b, a)):
            if y in self.links[x]:
                self.links[x].remove(y)

    def block(self, a: str, b: str) -> None:
        """Take the link out until unblocked (nothing happens where there is no link)."""
        if b in self.links[a]:
            self.unlink(a, b)
            self.blocked.add(_pair(a, b))

    def unblock(self, a: str, b: str) -> None:
        if _pair(a, b) in self.blocked:
            self.blocked.discard(_pair(a, b))
            self.link(a, b)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.links.get(a, ())

    def distance(self, a: str, b: str) -> int:
        """Fewest links from a to b; -1 when b cannot be reached."""
        return self.search(a, b)[0]

    def search(self, a: str, b: str) -> tuple[int, int]:
        """(`distance`, how many spaces the search visited: its work, paid by the match)."""
        if a == b:
            return 0, 1
        seen, queue = {a}, deque([(a, 0)])
        while queue:
            here, steps = queue.popleft()
            for nxt in self.links.get(here, ()):
                if nxt == b:
                    return steps + 1, len(seen)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, steps + 1))
        return -1, len(seen)

    def edges(self) -> list[tuple[str, str]]:
        """Each linked pair once, in definition order (neighbour lists, so a big grid stays linear)."""
        rank = {cid: i for i, cid in enumerate(self.order)}
        return [(a, b) for a in self.order for b in self.links[a] if rank[b] > rank[a]]

    def corners(self) -> list[tuple[str, str, str]]:
        """Each three mutually linked spaces once, in definition order."""
        rank = {cid: i for i, cid in enumerate(self.order)}
        return [(a, b, c) for a in self.order for b in self.links[a] if rank[b] > rank[a]
                for c in self.links[b] if rank[c] > rank[b] and c in self.links[a]]


def grid_neighbours(shape: str, cells: dict[str, tuple[int, int]]) -> dict[str, list[str]]:
    """Each cell's neighbours on a hex or square grid, from the cells' coordinates."""
    at = {xy: cid for cid, xy in cells.items()}
    return {cid: [at[(q + dq, r + dr)] for dq, dr in GRID_STEPS[shape] if (q + dq, r + dr) in at]
            for cid, (q, r) in cells.items()}


def _link(links: dict[str, list[str]], a: str, b: str) -> None:
    if b not in links[a]:
        links[a].append(b)
    if a not in links[b]:
        links[b].append(a)


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def faces_open(sides: list[str], exits: list[int], rotation: int, toward: str) -> bool:
    """Whether a turned tile has an exit on a side facing `toward`: side i is open when the tile, turned
    `rotation` steps clockwise, had an exit at side i - rotation."""
    count = len(sides)
    return any(near == toward and (i - rotation) % count in exits for i, near in enumerate(sides))


def turned_links(tiles: dict[str, tuple[list[str], list[int], int]]) -> dict[str, list[str]]:
    """Links of tiles that turn: tile -> (neighbour on each side, its exits unturned, how far it is turned);
    two tiles are linked when each has an exit facing the other."""
    out: dict[str, list[str]] = {}
    for a, (sides, exits, rotation) in tiles.items():
        near = dict.fromkeys(s for s in sides if s)
        out[a] = [b for b in near if b in tiles and faces_open(sides, exits, rotation, b) and faces_open(*tiles[b], a)]
    return out


def derived_id(ends: tuple[str, ...]) -> str:
    """The id of a derived location: its spaces' ids joined by double underscores."""
    return "__".join(ends)
