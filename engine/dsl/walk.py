"""One way to walk DSL parse trees: dispatch on a node's rule name, and one failure for a node nobody knows.

The compiler, the type pass and the renderer each turn a parse tree into something (code, a type,
English) with one method per grammar rule: `_x_NAME` for an expression node, `_s_NAME` for a
statement. They all dispatch through `Walker.walk`, so a rule added to the grammar but missing from a
walker fails the same way in each: `UnknownNodeError`, an engine bug, never a pack's fault. A test
(tests/test_dsl_described_once.py) checks every walker has a method for every rule, so none reaches a release.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from lark import Tree

EXPRESSION, STATEMENT = "_x_", "_s_"


class UnknownNodeError(Exception):
    """A walker met a parse tree node it has no method for (a grammar rule it was not taught)."""

    def __init__(self, walker: object, family: str, tree: Tree) -> None:
        kind = "expression" if family == EXPRESSION else "statement"
        super().__init__(f"{type(walker).__name__} has no method for the {kind} '{tree.data}' ({family}{tree.data})")
        self.tree = tree


class Walker:
    """Dispatch by rule name: `walk(EXPRESSION, tree)` calls `self._x_<tree.data>(tree)`.

    The compiler's and the type pass's hottest entry points inline the same lookup (one Python call
    less per node on a 50,000-text pack) and fail through `no_method`, so they fail the same way.
    """

    def walk(self, family: str, tree: Tree) -> Any:
        method = getattr(self, family + tree.data, None)
        return method(tree) if method is not None else self.no_method(family, tree)

    def no_method(self, family: str, tree: Tree) -> Any:
        raise UnknownNodeError(self, family, tree)


class RuleNodes:
    """The nodes of parse trees grouped by rule name, each tree walked once.

    Lint's semantic checks each look for a few rules (`activate`, `lose`, `move`, ...) in every text;
    a walk of every tree per check was ~5% of a cold lint of a big pack. Trees are shared and never
    changed, so a tree's groups hold as long as this object (which keeps the trees it indexed).
    """

    def __init__(self) -> None:
        self._groups: dict[int, tuple[Tree, dict[str, list[Tree]]]] = {}

    def of(self, tree: Tree) -> dict[str, list[Tree]]:
        """`tree`'s nodes (itself included) by rule name."""
        found = self._groups.get(id(tree))
        if found is None:
            groups: dict[str, list[Tree]] = {}
            stack = [tree]
            while stack:
                node = stack.pop()
                groups.setdefault(node.data, []).append(node)
                for child in node.children:
                    if type(child) is Tree:
                        stack.append(child)
            found = self._groups[id(tree)] = (tree, groups)
        return found[1]

    def each(self, trees: Iterable[Tree], *rules: str) -> Iterator[Tree]:
        """Every node of `trees` made by one of `rules`."""
        for tree in trees:
            groups = self.of(tree)
            for rule in rules:
                yield from groups.get(rule, ())
