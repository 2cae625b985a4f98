"""A procedure body that runs no other rules: its call needs no count of the procedures running.

A procedure's prologue counts the procedures running (`game.call_depth`, checked against MAX_CALL_DEPTH), so
a rule that calls itself ends in a rule error, not a crash; the count is put back however the body ends. What
reads the count: a procedure called inside (its own prologue), `do`, `can call`/`can do`, and so what a
trigger or an anytime action runs. A body that runs none of those, directly or not, can leave the count as
it is: nothing reads it while the body runs, so the game goes the same way (the call still checks the count
and still pays its work, so a hostile pack meets the same limits with the same errors). A move written as a
procedure and called once a decision is often one.

`runs_no_rules` proves it from the generated body by a list of calls known not to run rules (anything else,
or anything new, keeps the count): the helpers and `game` methods below, `append` to a list the body made, and
`game.ask` in a pack without anytime actions (beside a choice an anytime action may be taken and run).
Reads (`x.attrs[...]`, a board map's cells) run no rules, nor do calls the compilers mark as reads (`cog_reads`:
a shared board's row or column, its getter called on the match's items); a derived attribute is read through a
call (`item_attr`, `get_attr`), which is not on the list.
"""

from __future__ import annotations

import ast

# helpers of generated code (engine/compile/expr.py HELPERS) and builtins that run no rules
_QUIET_HELPERS = frozenset({"len", "range", "list", "first", "index", "offer", "set_item_attr", "refuse"})
_QUIET_GAME = frozenset({"overrun", "out_of_work", "acting"})   # `game.X(...)`: errors made, nothing run
_QUIET_GRIDS = frozenset({"in_a_row_of"})                        # `game.grids.X(...)`: reads a plain attribute


def runs_no_rules(body: list[ast.stmt], asks_run_rules: bool) -> bool:
    """Whether the generated `body` surely runs no other rules (see the module's docstring); `asks_run_rules`:
    the pack has anytime actions, which `game.ask` may run."""
    made = _new_lists(body)
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and not getattr(node, "cog_reads", False) \
                    and not _quiet(node.func, made, asks_run_rules):
                return False
    return True


def _quiet(func: ast.expr, made: set[str], asks_run_rules: bool) -> bool:
    if isinstance(func, ast.Name):
        return func.id in _QUIET_HELPERS
    if not isinstance(func, ast.Attribute):
        return False
    owner, name = func.value, func.attr
    if isinstance(owner, ast.Name):
        if owner.id == "game":
            return name in _QUIET_GAME or (name == "ask" and not asks_run_rules)
        return name == "append" and owner.id in made
    return (name in _QUIET_GRIDS and isinstance(owner, ast.Attribute) and owner.attr == "grids"
            and isinstance(owner.value, ast.Name) and owner.value.id == "game")


def _new_lists(body: list[ast.stmt]) -> set[str]:
    """The locals every store to which is `NAME = []` (a list the body made; nothing else ever bound to it)."""
    stores: dict[str, int] = {}
    empty: dict[str, int] = {}
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                  and isinstance(node.value, ast.List) and not node.value.elts):
                empty[node.targets[0].id] = empty.get(node.targets[0].id, 0) + 1
    return {name for name, count in empty.items() if stores.get(name) == count}
