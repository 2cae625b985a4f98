"""A static type pass over every DSL text of a pack: values of the wrong kind, found before any game runs.

The compiler resolves names; this pass follows what each name and expression
*is* (a number, a zone, an item, a player, a list) and reports a statement
given the wrong kind, such as a zone where a number is counted. It is
conservative: whatever it cannot tell is `any`, and `any` fits everywhere, so
a finding is always a value that would fail when that rule runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from lark import Token, Tree

from engine.diagnostics import Diagnostic, did_you_mean
from engine.dsl.functions import FUNCTIONS
from engine.dsl.parse import DslText, choice_binders, counter_chain, parse
from engine.dsl.prompt_fields import prompt_parts
from engine.dsl.sites import Site
from engine.dsl.types import (
    A_COST,
    A_COUNTER,
    A_PLAYER,
    A_ZONE,
    AN_ITEM,
    ANY,
    BOOL,
    COLLECTION,
    CONTAINER,
    CONTAINERS,
    COST,
    COUNTER,
    DOABLE,
    EFFECT,
    HAS_ATTRS,
    INT,
    LIST,
    NOUNS,
    NUMBER,
    ORDERED,
    PLAYER,
    SHOWN,
    STR,
    ZONE,
    Expect,
    T,
    common,
    element,
    list_of,
)
from engine.dsl.walk import EXPRESSION, STATEMENT, Walker
from engine.runtime.boards import GRID_DIRECTIONS
from engine.runtime.defs import AttrDef, Pack

_ATTR_KINDS = {"int": INT, "str": STR, "bool": BOOL, "list": LIST, "zone": ZONE, "cond": BOOL, "effect": EFFECT,
               "cost": COST, "counter": COUNTER}
_ITEM_BUILTINS = {"name": STR, "id": STR, "owner": PLAYER, "zone": ZONE}
_PLAYER_ONLY = ("seat", "position")       # built-in attributes of players that items do not have
_ACTION_ATTRS = {"threshold": INT, "label": STR, "id": STR}


def typecheck(sites: Iterable[tuple[Site, DslText, Tree]], pack: Pack) -> list[Diagnostic]:
    """Type findings for the parsed DSL texts of a pack (see `parsed_sites`)."""
    found: list[Diagnostic] = []
    for site, dsl, tree in sites:
        Checker(pack, dsl, site_scope(pack, site)).check(tree, site.start, site.number)
        found.extend(dsl.diagnostics)
    return found


def site_scope(pack: Pack, site: Site) -> dict[str, T]:
    """The names a site's text starts with: `self`, and the flow `for` variables around it."""
    scope = {"self": T("item", site.self_type) if site.self_type else ANY}
    scope.update({param: ANY for param in site.params})   # a procedure's parameters: any value
    for var, over in site.bound:
        tree = parse(over.text, "expr")
        silent = DslText(over.text, over.src, over.path)     # `over` is checked as a site of its own
        scope[var] = ANY if tree is None else element(Checker(pack, silent, dict(scope)).infer(tree))
    return scope


class Checker(Walker):
    """Infers the type of each expression of one DSL text and checks what statements are given."""

    def __init__(self, pack: Pack, dsl: DslText, scope: dict[str, T]) -> None:
        self.pack = pack
        self.dsl = dsl
        self.scope = scope

    # ---------------------------------------------------------------- entry points
    def check(self, tree: Tree, start: str, number: str | None = None) -> None:
        """Check one text; `number` names the value when it must be a number."""
        if start == "effect":
            self.effect(tree)
        elif start == "cost":
            self.cost(tree)
        elif number is not None:
            self.want(tree, NUMBER, number)
        else:
            self.infer(tree)

    def infer(self, tree: Tree | Token) -> T:
        if not isinstance(tree, Tree):
            return ANY
        method = getattr(self, EXPRESSION + tree.data, None)     # Walker.walk, inlined: called per node
        return method(tree) if method is not None else self.no_method(EXPRESSION, tree)

    def want(self, tree: Tree | Token, expect: Expect, what: str) -> T:
        """Infer `tree` and report it when it cannot be what `what` needs."""
        return self.report(tree, self.infer(tree), expect, what)

    def report(self, tree: Tree | Token, t: T, expect: Expect, what: str) -> T:
        """Report `tree`, already inferred as `t`, when it cannot be what `what` needs."""
        if not expect.fits(t):
            self.dsl.error(tree, expect.code, f"{what} needs {expect.noun}, got {self._describe(tree, t)}",
                           self._hint(tree, t, expect, what))
        return t

    # ---------------------------------------------------------------- reporting
    def _describe(self, tree: Tree | Token, t: T) -> str:
        name = _name_of(tree)
        if name is not None and name not in self.scope:
            if name in self.pack.counters:
                return f"the counter '{name}' (a number)"
            if name in self.pack.zones:
                return f"the zone '{name}'"
            if name in self.pack.components:
                return f"the component '{name}' (an item)"
        return f"'{self.dsl.snippet(tree)}' ({NOUNS[t.kind]})"

    def _hint(self, tree: Tree | Token, t: T, expect: Expect, what: str) -> str | None:
        snippet = self.dsl.snippet(tree)
        counter = self.pack.counters.get(_name_of(tree) or "")
        if expect is A_ZONE and counter is not None and counter.zone is not None:
            return f"'{counter.id}' counts the items in zone '{counter.zone}': name the zone"
        if expect is A_ZONE and t.kind == "item":
            return f"the zone an item is in is {snippet}.zone"
        if expect.code == "TYPE010" and t.kind in ("zone", "list"):
            return f"to count its items, write count({snippet})"
        if expect is AN_ITEM and t.kind in ("zone", "list"):
            return f"pick one of its items first: choose x in {snippet} {{ ... }}"
        if expect.code == "TYPE013" and t.kind == "int" and what.startswith(("'for", "'choose", "'repeat")):
            return f"to do something {snippet} times, write repeat {snippet} {{ ... }}"
        if expect.code == "TYPE013" and t.kind == "int" and what == "count()":
            return f"{snippet} is a number already: drop count()"
        return None

    # ---------------------------------------------------------------- scopes
    def bind(self, name: Token | Tree, t: T, body: Callable[[], Any]) -> None:
        """Run `body` with a local variable bound, then restore the names as they were."""
        saved = self.scope
        self.scope = {**saved, str(name): t}
        try:
            body()
        finally:
            self.scope = saved

    def effect(self, tree: Tree) -> None:
        """The statements in order; a `let` binds its name for the statements after it, to the list's end."""
        saved = self.scope
        try:
            for stmt in tree.children:
                if isinstance(stmt, Tree):
                    self.walk(STATEMENT, stmt)
        finally:
            self.scope = saved

    def direction(self, tree: Tree | Token, cell: T) -> None:
        """A direction written as text must be one of the grid's (when the cell's board is known)."""
        ctype = self.pack.types.get(cell.ctype or "") if cell.kind == "item" else None
        if ctype is None or ctype.grid is None or not (isinstance(tree, Tree) and tree.data == "string"):
            return
        names = GRID_DIRECTIONS.get(ctype.grid[0], {})
        word = str(tree.children[0])[1:-1]
        if word not in names:
            self.dsl.error(tree, "BOARD004", f"'{word}' is not a direction of the {ctype.grid[0]} grid of "
                           f"'{ctype.id}' (its directions: {', '.join(names)})", did_you_mean(word, list(names)))

    def block(self, tree: Tree) -> None:
        """A `block` or a `branch` (its effect is its last child, after the branch's label)."""
        self.effect(tree.children[-1])

    def cost(self, tree: Tree) -> None:
        for term in tree.children:
            self.want(term.children[0], NUMBER, f"the amount of '{self.dsl.snippet(term.children[1])}'")
            self.counter_place(term.children[1], "a cost")

    def prompt(self, token: Tree | Token | None) -> None:
        """A statement's prompt: each `{EXPR}` field is an expression read where the statement stands (before
        its choice is bound), and what it reads must show as text: not a rule (an effect or cost attribute)."""
        if not isinstance(token, Token) or token.type != "STRING" or "{" not in token:
            return
        for _, tree in prompt_parts(token, self.dsl)[1]:
            if tree is not None:     # (a field that does not parse is the compiler's to report)
                self.want(tree, SHOWN, "a prompt field")

    def counter_place(self, name: Tree | Token, what: str) -> None:
        """A counter named through data (`c.colour.cube`) must be a `counter` attribute of the item's type.

        When no type declares the attribute a counter, the compiler reports DSL015 instead."""
        if not isinstance(name, Tree):
            return
        attr = str(name.children[-1])
        if not any(a.type == "counter" for ctype in self.pack.types.values() if (a := ctype.attrs.get(attr))):
            return
        t = self.infer(counter_chain(name))
        if not A_COUNTER.fits(t):
            self.dsl.error(name, A_COUNTER.code, f"the counter of {what} needs {A_COUNTER.noun}, got "
                           f"'{self.dsl.snippet(name)}' ({NOUNS[t.kind]})", None)

    # ---------------------------------------------------------------- statements
    def _s_gain(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'gain'")
        self.counter_place(t.children[1], "'gain'")

    def _s_lose(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'lose'")
        self.counter_place(t.children[1], "'lose'")

    def _s_pay(self, t: Tree) -> None:
        self.cost(t.children[0])

    def _s_set(self, t: Tree) -> None:
        target, value = t.children
        if _name_of(target) in self.pack.counters:
            self.want(value, NUMBER, f"'set {_name_of(target)} ='")
            return
        self.infer(target)
        self.infer(value)

    def _s_draw(self, t: Tree) -> None:
        amount, source, dest = t.children
        self.want(amount, NUMBER, "'draw'")
        self.want(source, A_ZONE, "'draw ... from'")
        self.want(dest, A_ZONE, "'draw ... to'")

    def _s_move(self, t: Tree) -> None:
        self.want(t.children[0], AN_ITEM, "'move'")
        self.want(t.children[1], A_ZONE, "'move ... to'")

    def _zone_stmt(self, t: Tree) -> None:
        self.want(t.children[0], A_ZONE, f"'{t.data}'")

    _s_shuffle = _s_reveal = _s_conceal = _zone_stmt

    def _s_link(self, t: Tree) -> None:
        for child in t.children:
            self.want(child, AN_ITEM, f"'{t.data}'")

    _s_unlink = _s_block_link = _s_unblock_link = _s_link

    def _s_rotate(self, t: Tree) -> None:
        self.want(t.children[0], AN_ITEM, "'rotate'")
        self.want(t.children[1], NUMBER, "the steps of 'rotate'")

    def _s_roll_dice(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, f"'roll ... {t.children[1]}'")

    def _s_reroll(self, t: Tree) -> None:
        die, cond, limit, prompt = t.children
        self.prompt(prompt)
        if cond is not None:
            self.bind(Token("NAME", "it"), INT, lambda: self.infer(cond))
        if limit is not None:
            self.want(limit, NUMBER, f"'reroll {die} up to'")

    def _s_if_stmt(self, t: Tree) -> None:
        self.infer(t.children[0])
        for branch in t.children[1:]:
            self.block(branch) if branch.data == "block" else self._s_if_stmt(branch)

    def _s_may(self, t: Tree) -> None:
        self.prompt(t.children[0])
        self.block(t.children[-1])

    def _s_choose_alt(self, t: Tree) -> None:
        self.prompt(t.children[0])
        for alternative in t.children[-1].children:
            self.block(alternative)

    _s_repeat_choose_alt = _s_choose_alt

    def _s_choose_item(self, t: Tree) -> None:
        """Each `NAME in COLLECTION` part binds NAME to the collection's elements for the parts after it and
        the block (a `choose` of several parts: `choose p in board, t in line(p, "n")`)."""
        binders = choice_binders(t)
        if t.data != "for_stmt":
            self.prompt(t.children[-2])

        def bind_from(i: int) -> None:
            if i == len(binders):
                self.block(t.children[-1])
                return
            var, coll = binders[i]
            over = element(self.want(coll, COLLECTION, f"'{_keyword(t)} {var} in'"))
            self.bind(var, over, lambda: bind_from(i + 1))

        bind_from(0)

    _s_repeat_choose_item = _s_for_stmt = _s_choose_item

    def _s_choose_number(self, t: Tree) -> None:
        var, low, high, prompt = t.children[:4]
        self.prompt(prompt)
        self.want(low, NUMBER, f"'choose {var} from'")
        self.want(high, NUMBER, f"'choose {var} from ... to'")
        self.bind(var, INT, lambda: self.block(t.children[-1]))

    def _s_repeat_n(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'repeat'")
        self.block(t.children[1])

    def _s_while_stmt(self, t: Tree) -> None:
        self.infer(t.children[0])
        self.block(t.children[1])

    def _s_let(self, t: Tree) -> None:
        """`let NAME = VALUE`: NAME has VALUE's type from here to the end of the statement list."""
        self.scope = {**self.scope, str(t.children[0]): self.infer(t.children[1])}

    def _s_do_stmt(self, t: Tree) -> None:
        self.want(t.children[0], DOABLE, "'do'")

    def _s_pay_attr(self, t: Tree) -> None:
        """`pay ITEM.ATTR` where some type declares ATTR a cost: this item's type must too (else DSL014)."""
        target = t.children[0]
        if not (isinstance(target, Tree) and target.data == "attr"):
            return
        name = str(target.children[1])
        if not any(a.type == "cost" for ctype in self.pack.types.values() if (a := ctype.attrs.get(name))):
            return
        base = self.infer(target.children[0])
        if base.kind in ("list", "zone"):  # a row of items: their costs added up
            base = element(base)
        found = self.attr_type(base, name) if base.kind in ("item", "any") else base
        if not A_COST.fits(found):
            self.dsl.error(target, A_COST.code, f"'pay ITEM.ATTR' needs {A_COST.noun}, got "
                           f"'{self.dsl.snippet(target)}' ({NOUNS.get(found.kind, found.kind)})", None)

    def _s_activate(self, t: Tree) -> None:
        self.want(t.children[0], AN_ITEM, "'activate'")
        self.want(t.children[1], NUMBER, "'activate ... with'")

    def _s_play(self, t: Tree) -> None:
        self.want(t.children[0], AN_ITEM, "'play'")
        self.want(t.children[1], A_ZONE, "'play ... to'")

    def _s_emit(self, t: Tree) -> None:
        for arg in t.children[1:]:
            if isinstance(arg, Tree):
                self.infer(arg.children[1])

    def _no_values(self, t: Tree) -> None:
        """`stop`, `end_game`: no value in them to check."""

    _s_stop = _s_end_game = _no_values

    def _s_call(self, t: Tree) -> None:
        for arg in t.children[1:]:
            if isinstance(arg, Tree):
                self.infer(arg)

    def _s_as_stmt(self, t: Tree) -> None:
        self.want(t.children[0], A_PLAYER, "'as'")
        self.block(t.children[1])

    def _s_reorder(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'reorder by'")

    def _s_within(self, t: Tree) -> None:
        self.want(t.children[0], CONTAINERS, "'within'")
        self.block(t.children[1])

    # ---------------------------------------------------------------- expressions
    def _x_number(self, t: Tree) -> T:
        return INT

    def _x_string(self, t: Tree) -> T:
        return STR

    def _x_true(self, t: Tree) -> T:
        return BOOL

    _x_false = _x_true

    def _x_list(self, t: Tree) -> T:
        return list_of(common([self.infer(c) for c in t.children if c is not None]))

    def _x_name(self, t: Tree) -> T:
        name = str(t.children[0])
        if name in self.scope:
            return self.scope[name]
        pack = self.pack
        if name in pack.counters or name == "players":
            return INT
        if name in pack.zones:
            return ZONE
        if name in pack.components:
            return T("item", pack.components[name].ctype.id)
        if name in pack.dice:
            return list_of(INT)
        return {"me": PLAYER, "next_player": PLAYER, "others": list_of(PLAYER),
                "everyone": list_of(PLAYER)}.get(name, ANY)

    def _logic(self, t: Tree) -> T:
        for child in t.children:
            self.infer(child)
        return BOOL

    _x_or_ = _x_and_ = _x_not_ = _x_eq = _x_ne = _logic

    def _ordered(self, t: Tree) -> T:
        for child in t.children:
            self.want(child, ORDERED, f"'{_SYMBOLS[t.data]}'")
        return BOOL

    _x_lt = _x_le = _x_gt = _x_ge = _ordered

    def _x_in_(self, t: Tree) -> T:
        self.infer(t.children[0])
        self.want(t.children[1], CONTAINER, "'in'")
        return BOOL

    def _arithmetic(self, t: Tree) -> T:
        for child in t.children:
            self.want(child, NUMBER, f"'{_SYMBOLS[t.data]}'")
        return INT

    _x_sub = _x_mul = _x_div = _x_mod = _x_neg = _arithmetic

    def _x_add(self, t: Tree) -> T:
        """`+` also joins two lists or two texts. Each side is inferred once: a chain of `+` is checked in
        linear time (inferring again to report would double the work at every level)."""
        sides = [(c, self.infer(c)) for c in t.children]
        (_, left), (_, right) = sides
        if left == right and left.kind in ("list", "str"):
            return left
        for child, found in sides:
            self.report(child, found, NUMBER, "'+'")
        return INT

    def _x_attr(self, t: Tree) -> T:
        base, name = t.children
        if _name_of(base) == "option":
            return BOOL
        if _name_of(base) == "event":
            return ANY
        owner = self.want(base, HAS_ATTRS, f"'.{name}'")
        if (str(name) in _PLAYER_ONLY and owner.kind == "item" and owner.ctype in self.pack.types
                and str(name) not in self.pack.types[owner.ctype].attrs):
            self.dsl.error(name, HAS_ATTRS.code, f"'.{name}' is an attribute of players, but "
                           f"'{self.dsl.snippet(base)}' is an item ({owner.ctype})", "an item's owner is a player: "
                           f"'{self.dsl.snippet(base)}.owner.{name}'")
        return self.attr_type(owner, str(name))

    def _x_index(self, t: Tree) -> T:
        base = self.want(t.children[0], COLLECTION, "'[...]'")
        self.want(t.children[1], NUMBER, "the index in '[...]'")
        return element(base)

    def _x_collection(self, t: Tree) -> T:
        """`COLL where COND`: the items of COLL, with `it` bound in COND."""
        over = element(self.want(t.children[0], COLLECTION, "'where'"))
        self.bind(Token("NAME", "it"), over, lambda: self.infer(t.children[1]))
        return list_of(over)

    def _x_call_fn(self, t: Tree) -> T:
        name, *args = t.children
        args = [a for a in args if a is not None]
        fn = FUNCTIONS.get(str(name))
        if fn is None or not fn.takes(len(args)):
            return ANY  # the compiler reports unknown functions and wrong argument counts
        return fn.type_of(self, args)

    # ---------------------------------------------------------------- attributes
    def attr_type(self, base: T, name: str) -> T:
        """The type of `base.name`: declared attributes, built-ins, a player's counters and zones."""
        pack = self.pack
        if base.kind == "action":
            return _ACTION_ATTRS.get(name, ANY)
        if base.kind == "item" and base.ctype in pack.types:
            declared = pack.types[base.ctype].attrs.get(name)
            return self._declared(declared) if declared else _ITEM_BUILTINS.get(name, ANY)
        candidates = [self._declared(a) for t in pack.types.values() if (a := t.attrs.get(name))]
        if not candidates and name in _ITEM_BUILTINS:
            candidates.append(_ITEM_BUILTINS[name])
        if base.kind in ("player", "any"):
            candidates += self._player_attr(name)
        return common(candidates)

    def _declared(self, a: AttrDef) -> T:
        if a.type in self.pack.types:
            return T("item", a.type)
        return _ATTR_KINDS.get(a.type, ANY)

    def _player_attr(self, name: str) -> list[T]:
        if name in ("seat", "position") or name in self.pack.counters:
            return [INT]
        return [ZONE] if name in self.pack.zones else []


_SYMBOLS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "add": "+", "sub": "-", "mul": "*", "div": "/",
            "mod": "%", "neg": "-"}


def _name_of(tree: Any) -> str | None:
    """The name a `name` tree stands for, else None."""
    if isinstance(tree, Tree) and tree.data == "name":
        return str(tree.children[0])
    return None


def _keyword(t: Tree) -> str:
    return {"for_stmt": "for", "repeat_choose_item": "repeat choose"}.get(str(t.data), "choose")
