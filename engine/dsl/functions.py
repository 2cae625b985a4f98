"""The DSL's built-in functions, described once: for each, how many arguments it takes, its type rule,
the code it compiles to and how `cogwork explain` says it in English.

The grammar reads any `NAME(args)` as a call; this table is what makes a name a function. The
compiler (engine/compile/expr.py), the type pass (engine/dsl/typecheck.py) and the renderer
(engine/dsl/render.py) all look functions up here, so adding one is one entry. Most functions
compile from a code template over their compiled arguments (`A`, `B`, `C`, in the template language
of engine/compile/codegen.py); the few whose code depends on what the compiler knows about an
argument (a zone or a list, a bound `it`) say `code=None` and have a `lower_NAME` method on the
expression compiler (a test checks each side has the other).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Token, Tree

from engine.dsl.english import and_list, plural, words
from engine.dsl.types import (
    A_LIST,
    A_ZONE,
    ACTION,
    AN_ITEM,
    ANY,
    BOOL,
    COLLECTION,
    INT,
    ITEM,
    LIST,
    NUMBER,
    TEXT,
    Expect,
    T,
    common,
    element,
    list_of,
)

if TYPE_CHECKING:
    from engine.dsl.typecheck import Checker

TypeRule = Callable[["Checker", str, list[Any]], T]
English = Callable[[list[str], list[Any]], str]   # (the arguments in English, their parse trees) -> English


@dataclass(frozen=True)
class Param:
    """What one argument must be, and how a finding names it (default: `NAME()`)."""

    expect: Expect | None          # None: not a value (a counter name), not type-checked
    what: str | None = None


@dataclass(frozen=True)
class Function:
    """One built-in function of the DSL."""

    name: str
    arity: tuple[int, int | None]                 # fewest and most arguments (None: no limit)
    returns: T                                    # its type when `params` say it all; also what a call
    #                                               with the wrong number of arguments compiles to (0, [], false)
    english: English
    params: Sequence[Param | Expect] = ()         # what each argument must be, in order
    rule: TypeRule | None = None                  # the type rule, when `params` and `returns` cannot say it
    code: str | None = None                       # code template over the compiled arguments A, B, C
    code_kind: str | None = None                  # what the template's value is known to hold (see expr.kinded)
    charged: bool = False                         # making the value already paid its length from the work budget

    def takes(self, count: int) -> bool:
        low, high = self.arity
        return low <= count and (high is None or count <= high)

    def arity_text(self) -> str:
        low, high = self.arity
        return str(low) if low == high else f"{low} to {high}" if high is not None else f"at least {low}"

    def type_of(self, checker: Checker, args: list[Any]) -> T:
        """Check the arguments of a call with the right number of them; the type of its value."""
        if self.rule is not None:
            return self.rule(checker, self.name, args)
        for param, arg in zip(self.params, args, strict=False):
            expect, what = (param.expect, param.what) if isinstance(param, Param) else (param, None)
            if expect is not None:
                checker.want(arg, expect, what or f"{self.name}()")
        return self.returns


# ---------------------------------------------------------------- type rules that depend on the arguments


def _over_it(what: str, key: Expect | None) -> TypeRule:
    """`f(COLL, KEY)` with `it` bound to each element of COLL in KEY (sum, sorted)."""
    def rule(check: Checker, name: str, args: list[Any]) -> T:
        over = element(check.want(args[0], COLLECTION, f"{name}()"))
        if key is None:
            check.bind(Token("NAME", "it"), over, lambda: check.infer(args[1]))
            return list_of(over)
        check.bind(Token("NAME", "it"), over, lambda: check.want(args[1], key, what))
        return INT
    return rule


def _items(check: Checker, name: str, args: list[Any]) -> T:
    return list_of(common([element(check.want(a, COLLECTION, "items()")) for a in args]))


def _all(check: Checker, name: str, args: list[Any]) -> T:
    arg = args[0]
    ctype = str(arg.children[0]) if isinstance(arg, Tree) and arg.data == "name" else None
    return list_of(T("item", ctype) if ctype in check.pack.types else ITEM)


def _extreme(check: Checker, name: str, args: list[Any]) -> T:
    types = [check.infer(a) for a in args]
    return INT if all(t.kind in ("int", "bool") for t in types) else ANY


def _pick(check: Checker, name: str, args: list[Any]) -> T:
    table = check.want(args[0], A_LIST, "pick()")
    check.want(args[1], NUMBER, "the position in pick()")
    return element(table)


def _neighbors(check: Checker, name: str, args: list[Any]) -> T:
    space = check.want(args[0], AN_ITEM, "neighbors()")
    return list_of(space if space.kind == "item" else ITEM)


def _grid_type(check: Checker, arg: Any) -> T:
    """The cells of a grid type named as the first argument (`at(cell, 1, 2)`); the compiler reports a name
    that is no grid type."""
    tname = str(arg.children[0]) if isinstance(arg, Tree) and arg.data == "name" else ""
    return T("item", tname) if tname in check.pack.types else ITEM


def _grid_at(check: Checker, name: str, args: list[Any]) -> T:
    for arg, what in zip(args[1:], ("the column", "the row"), strict=False):
        check.want(arg, NUMBER, f"{what} in {name}()")
    return _grid_type(check, args[0])


def _grid_run(check: Checker, name: str, args: list[Any]) -> T:
    check.want(args[1], NUMBER, f"the {name} in {name}()")
    return list_of(_grid_type(check, args[0]))


def _line(check: Checker, name: str, args: list[Any]) -> T:
    cell = check.want(args[0], AN_ITEM, "line()")
    check.want(args[1], TEXT, "the direction in line()")
    check.direction(args[1], cell)
    return list_of(cell if cell.kind == "item" else ITEM)


def _step(check: Checker, name: str, args: list[Any]) -> T:
    cell = check.want(args[0], AN_ITEM, "step()")
    way = args[1]
    if isinstance(way, Tree) and way.data == "list":    # each direction written out is checked as `line`'s
        for word in way.children:
            if word is not None:
                check.want(word, TEXT, "each direction in step()")
                check.direction(word, cell)
    else:
        directions = check.want(way, DIRECTIONS, "the direction in step()")
        if directions.kind == "list":
            check.report(way, element(directions), TEXT, "each direction in step()")
        check.direction(way, cell)
    return list_of(cell if cell.kind == "item" else ITEM)


def _step_english(shown: list[str], args: list[Any]) -> str:
    way = args[1]
    if isinstance(way, Tree) and way.data == "list":
        words_ = [str(w.children[0])[1:-1] if isinstance(w, Tree) and w.data == "string" else None
                  for w in way.children if w is not None]
        if words_ and None not in words_:
            return (f"the cells next to {shown[0]} going {and_list([_COMPASS.get(w, w) for w in words_ if w])}"
                    ", in that order (none past the edge)")
    if isinstance(way, Tree) and way.data == "string":
        return f"the cell next to {shown[0]} going {_COMPASS.get(shown[1], shown[1])} (none past the edge)"
    return f"the cells next to {shown[0]} in the directions {shown[1]}, in that order (none past the edge)"


def _first(check: Checker, name: str, args: list[Any]) -> T:
    return element(check.want(args[0], COLLECTION, "first()"))


def _in_a_row(check: Checker, name: str, args: list[Any]) -> T:
    cell = check.want(args[0], AN_ITEM, "in_a_row()")
    check.want(args[1], NUMBER, "the length in in_a_row()")
    check.bind(Token("NAME", "it"), cell if cell.kind == "item" else ITEM, lambda: check.infer(args[2]))
    return BOOL


# ---------------------------------------------------------------- English that reads the parse trees


def _sum_english(shown: list[str], args: list[Any]) -> str:
    value = args[-1]
    if isinstance(value, Tree) and value.data == "attr" and _is_it(value.children[0]):
        return f"the total {words(str(value.children[1]))} of {shown[0]}"
    return f"the total of {shown[-1]} over {shown[0]}"


def _is_it(tree: Any) -> bool:
    return isinstance(tree, Tree) and tree.data == "name" and str(tree.children[0]) == "it"


def _cost_uses_english(shown: list[str], args: list[Any]) -> str:
    what = plural(shown[1], "2") if len(shown) == 2 else f"{shown[2]} {plural(shown[1], shown[2])}"
    return f"a cost of {shown[0]} uses {what}"


_COMPASS = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east", "s": "south", "sw": "south-west",
            "w": "west", "nw": "north-west"}


# ---------------------------------------------------------------- the functions

DIRECTIONS = Expect("TYPE018", "a direction (text) or a list of directions", frozenset({"str", "list"}))

FUNCTIONS: dict[str, Function] = {f.name: f for f in (
    Function("count", (1, 1), INT, lambda s, a: f"the number of items in {s[0]}", params=(COLLECTION,)),
    Function("sum", (2, 2), INT, _sum_english, rule=_over_it("the value summed by sum()", NUMBER)),
    Function("sorted", (2, 2), LIST, lambda s, a: f"{s[0]} sorted by {s[-1]}",
             rule=_over_it("", None)),
    Function("items", (0, None), LIST, lambda s, a: and_list(s) if s else "nothing", rule=_items),
    Function("all", (1, 1), LIST, lambda s, a: f"every {s[0]}", rule=_all),
    Function("max", (1, 8), INT, lambda s, a: f"the highest of {and_list(s)}", rule=_extreme),
    Function("min", (1, 8), INT, lambda s, a: f"the lowest of {and_list(s)}", rule=_extreme),
    Function("abs", (1, 1), INT, lambda s, a: f"the absolute value of {s[0]}", params=(NUMBER,),
             code="abs(A)"),
    Function("roll", (1, 1), INT, lambda s, a: f"a roll of a {s[0]}-sided die", params=(NUMBER,),
             code="game.state.rng.randint(1, int(A))"),
    Function("range", (2, 2), list_of(INT), lambda s, a: f"{s[0]} to {s[-1]}", params=(NUMBER, NUMBER)),
    Function("rank", (2, 2), INT, lambda s, a: f"how many of {s[-1]} {s[0]} reaches",
             params=(NUMBER, Param(A_LIST, "the minimums of rank()")), code="rank(A, game.each(B))"),
    Function("pick", (2, 2), ANY, lambda s, a: f"entry {s[-1]} of {s[0]}", rule=_pick, code="pick(A, B)"),
    Function("actions", (1, 1), list_of(ACTION), lambda s, a: f"the actions of {s[0]}", params=(AN_ITEM,),
             code="item_actions(ctx, A)"),
    Function("admits", (2, 2), BOOL, lambda s, a: f"{s[0]} takes {s[-1]}", params=(AN_ITEM, AN_ITEM),
             code="game.admits(ctx, A, B)"),
    Function("can_play", (2, 2), BOOL, lambda s, a: f"{s[0]} can be played to {s[-1]}",
             params=(AN_ITEM, A_ZONE), code="game.can_play(ctx, A, B, False)"),
    Function("cost_uses", (2, 3), BOOL, _cost_uses_english,
             params=(AN_ITEM, Param(None), Param(NUMBER, "the amount in cost_uses()"))),
    Function("held", (2, 2), INT, lambda s, a: f"the {s[1]} held in {s[0]}",
             params=(Param(AN_ITEM, "the container in held()"), Param(None))),
    Function("room", (2, 2), INT, lambda s, a: f"how many more {s[1]} fit in {s[0]}",
             params=(Param(AN_ITEM, "the container in room()"), Param(None))),
    Function("blocked", (2, 2), BOOL, lambda s, a: f"the link between {s[0]} and {s[-1]} is blocked",
             params=(AN_ITEM, AN_ITEM), code="game.is_blocked(A, B)"),
    Function("neighbors", (1, 1), LIST, lambda s, a: f"the neighbours of {s[0]}", rule=_neighbors,
             code="game.neighbors(A)"),
    Function("adjacent", (2, 2), BOOL, lambda s, a: f"{s[0]} is next to {s[-1]}", params=(AN_ITEM, AN_ITEM),
             code="game.graph_of(A).adjacent(A.comp.id, B.comp.id)"),
    Function("at", (3, 3), ITEM, lambda s, a: f"the {s[0]} at column {s[1]}, row {s[2]}", rule=_grid_at),
    Function("column", (2, 2), LIST, lambda s, a: f"column {s[1]} of the {s[0]} grid, lowest first",
             rule=_grid_run),
    Function("row", (2, 2), LIST, lambda s, a: f"row {s[1]} of the {s[0]} grid, leftmost first",
             rule=_grid_run),
    Function("line", (2, 2), LIST,
             lambda s, a: f"the cells from {s[0]} going {_COMPASS.get(s[1], s[1])} to the edge", rule=_line,
             code="game.grids.line(A, B)", code_kind="items"),
    Function("step", (2, 2), LIST, _step_english, rule=_step),
    Function("first", (1, 1), ANY, lambda s, a: f"the first of {s[0]}", rule=_first),
    Function("in_a_row", (3, 3), BOOL,
             lambda s, a: f"{s[0]} is one of {s[1]} cells in a row (a straight line) that each are such that {s[2]}",
             rule=_in_a_row),
    Function("distance", (2, 2), INT, lambda s, a: f"the distance from {s[0]} to {s[-1]}",
             params=(AN_ITEM, AN_ITEM), code="game.distance(A, B)"),
)}
