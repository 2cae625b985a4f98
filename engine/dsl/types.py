"""A static type pass over every DSL text of a pack: values of the wrong kind, found before any game runs.

The compiler resolves names; this pass follows what each name and expression
*is* (a number, a zone, an item, a player, a list) and reports a statement
given the wrong kind, such as a zone where a number is counted. It is
conservative: whatever it cannot tell is `any`, and `any` fits everywhere, so
a finding is always a value that would fail when that rule runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from engine.diagnostics import Diagnostic
from engine.dsl.parse import DslText
from engine.packs.files import RawPack
from engine.packs.source import DataPath, SourceFile
from engine.runtime.defs import AttrDef, Pack

# ---------------------------------------------------------------- types


@dataclass(frozen=True)
class T:
    """A static type: `kind` is int, bool, str, item, zone, player, list, action or any."""

    kind: str
    ctype: str | None = None     # items: their component type, when known
    elem: T | None = None        # lists: the type of their elements, when known


INT, BOOL, STR, ZONE, PLAYER, ACTION, ANY = (T(k) for k in ("int", "bool", "str", "zone", "player", "action", "any"))
ITEM, LIST = T("item"), T("list")
NOUNS = {"int": "a number", "bool": "true or false", "str": "text", "item": "an item", "zone": "a zone",
         "player": "a player", "list": "a list", "action": "an action"}


def list_of(elem: T) -> T:
    return T("list", elem=elem)


def element(t: T) -> T:
    """The type of one element of a collection."""
    if t.kind == "zone":
        return ITEM
    return (t.elem or ANY) if t.kind == "list" else ANY


def common(types: list[T]) -> T:
    """One type for several values: theirs if they agree, else any."""
    return types[0] if types and all(t == types[0] for t in types) else ANY


@dataclass(frozen=True)
class Expect:
    """What a place in a rule needs, and the code reported when it gets something else."""

    code: str
    noun: str
    kinds: frozenset[str]

    def fits(self, t: T) -> bool:
        return t.kind == "any" or t.kind in self.kinds


NUMBER = Expect("TYPE010", "a number", frozenset({"int", "bool"}))
ORDERED = Expect("TYPE010", "a number", frozenset({"int", "bool", "str", "list"}))
A_ZONE = Expect("TYPE011", "a zone", frozenset({"zone"}))
AN_ITEM = Expect("TYPE012", "an item", frozenset({"item"}))
COLLECTION = Expect("TYPE013", "a collection (a zone or a list)", frozenset({"zone", "list"}))
CONTAINER = Expect("TYPE013", "a collection (a zone or a list)", frozenset({"zone", "list", "str"}))
A_LIST = Expect("TYPE013", "a list", frozenset({"list"}))
A_PLAYER = Expect("TYPE014", "a player", frozenset({"player"}))
HAS_ATTRS = Expect("TYPE015", "an item or a player", frozenset({"item", "player", "action"}))

_ATTR_KINDS = {"int": INT, "str": STR, "bool": BOOL, "list": LIST, "zone": ZONE, "cond": BOOL}
_ITEM_BUILTINS = {"name": STR, "id": STR, "owner": PLAYER, "zone": ZONE}
_ACTION_ATTRS = {"threshold": INT, "label": STR, "id": STR}

# ---------------------------------------------------------------- where DSL texts are


@dataclass(frozen=True)
class Site:
    """One DSL text of a pack: where it is, the grammar rule that parses it, and what it may name."""

    src: SourceFile
    path: DataPath
    text: str
    start: str                                   # "effect", "expr" or "cost"
    self_type: str | None = None                 # component type of `self`, when the text belongs to one
    bound: tuple[tuple[str, Site], ...] = ()     # flow `for` variables and the expression each ranges over
    number: str | None = None                    # what the value is, when it must be a number ("the score")


def pack_sites(raw: RawPack) -> Iterator[Site]:
    """Every DSL text the builder compiles, in the same places."""
    for e in raw.zones.values():
        for i, slot in enumerate(_seq(e.data.get("slots"))):
            if isinstance(slot, Mapping) and slot.get("cost") is not None:
                yield Site(e.src, (*e.path, "slots", i, "cost"), str(slot["cost"]), "cost")
    for e in raw.counters.values():
        pool = e.data.get("items") if isinstance(e.data, Mapping) else None
        if isinstance(pool, Mapping):
            yield from _keyed(e.src, (*e.path, "items"), pool, (("where", "expr"), ("discard", "expr")), None)
            if pool.get("value") is not None:
                yield Site(e.src, (*e.path, "items", "value"), str(pool["value"]), "expr",
                           number="an item's value of an item-backed counter")
    derived = {tid: _derived_attrs(e.data) for tid, e in raw.component_types.items()}
    for tid, e in raw.component_types.items():
        for name, default in derived[tid].items():
            if default is not None:
                yield Site(e.src, (*e.path, "attrs", name, "default"), str(default), "expr", tid)
        if isinstance(e.data, Mapping) and e.data.get("admits") is not None:
            yield Site(e.src, (*e.path, "admits"), str(e.data["admits"]), "expr", tid)
    for e in raw.components.values():
        yield from component_sites(e.src, e.path, e.data, e.ctype, derived.get(e.ctype or "", {}))
    for e in raw.procedures.values():
        yield Site(e.src, e.path, str(e.data), "effect")
    for e in raw.triggers:
        yield from _trigger_sites(e.src, e.path, e.data, None)
    if raw.flow is not None:
        yield from _flow_sites(raw.flow.src, raw.flow.path, raw.flow.data, ())
    if raw.scoring is not None:
        yield from _scoring_sites(raw.scoring.src, raw.scoring.path, raw.scoring.data)


def component_sites(src: SourceFile, path: DataPath, data: Any, ctype: str | None,
                    derived: Mapping[str, Any]) -> Iterator[Site]:
    """A component's expression attributes, costs, actions and triggers."""
    if not isinstance(data, Mapping):
        return
    for name in derived:
        if data.get(name) is not None:
            yield Site(src, (*path, name), str(data[name]), "expr", ctype)
    for i, text in enumerate(_seq(data.get("costs"))):
        yield Site(src, (*path, "costs", i), str(text), "cost", ctype)
    for i, action in enumerate(_seq(data.get("actions"))):
        if isinstance(action, Mapping):
            at = (*path, "actions", i)
            yield from _keyed(src, at, action, (("cost", "cost"), ("when", "expr"), ("effect", "effect")), ctype)
    for i, trigger in enumerate(_seq(data.get("triggers"))):
        yield from _trigger_sites(src, (*path, "triggers", i), trigger, ctype)


def _derived_attrs(data: Any) -> dict[str, Any]:
    """A component type's `expr`/`cond` attributes and their defaults."""
    attrs = data.get("attrs") if isinstance(data, Mapping) else None
    return {str(name): spec.get("default") for name, spec in (attrs or {}).items()
            if isinstance(spec, Mapping) and spec.get("type") in ("expr", "cond")}


def _trigger_sites(src: SourceFile, path: DataPath, data: Any, ctype: str | None) -> Iterator[Site]:
    if isinstance(data, Mapping):
        yield from _keyed(src, path, data, (("when", "expr"), ("effect", "effect")), ctype)


def _keyed(src: SourceFile, path: DataPath, data: Mapping, keys: tuple[tuple[str, str], ...],
           ctype: str | None) -> Iterator[Site]:
    for key, start in keys:
        if data.get(key) is not None:
            yield Site(src, (*path, key), str(data[key]), start, ctype)


def _flow_sites(src: SourceFile, path: DataPath, steps: Any, bound: tuple[tuple[str, Site], ...]) -> Iterator[Site]:
    for i, step in enumerate(_seq(steps)):
        if not isinstance(step, Mapping):
            continue
        at = (*path, i)
        for key, start in (("do", "effect"), ("order", "expr"), ("if", "expr")):
            if step.get(key) is not None:
                yield Site(src, (*at, key), str(step[key]), start, bound=bound)
        repeat = step.get("repeat")
        if isinstance(repeat, Mapping):
            for key in ("count", "until"):
                if repeat.get(key) is not None:
                    yield Site(src, (*at, "repeat", key), str(repeat[key]), "expr", bound=bound,
                               number="the repeat count" if key == "count" else None)
        inner = bound
        loop = step.get("for")
        if isinstance(loop, Mapping):
            over = Site(src, (*at, "for", "in"), str(loop.get("in", "[]")), "expr", bound=bound)
            yield over
            inner = (*bound, (str(loop.get("var", "x")), over))
        for key in ("each_player", "simultaneous", "then", "else"):
            yield from _flow_sites(src, (*at, key), step.get(key), bound)
        yield from _flow_sites(src, (*at, "steps"), step.get("steps"), inner)


def _scoring_sites(src: SourceFile, path: DataPath, data: Any) -> Iterator[Site]:
    if not isinstance(data, Mapping):
        return
    if data.get("score") is not None:
        yield Site(src, (*path, "score"), str(data["score"]), "expr", number="the score")
    for i, text in enumerate(_seq(data.get("tiebreak"))):
        yield Site(src, (*path, "tiebreak", i), str(text), "expr", number="a tiebreak")
    breakdown = data.get("breakdown")
    for key, text in (breakdown.items() if isinstance(breakdown, Mapping) else ()):
        yield Site(src, (*path, "breakdown", key), str(text), "expr", number=f"the breakdown line '{key}'")
    for key in ("team_loss", "eliminated"):
        if data.get(key) is not None:
            yield Site(src, (*path, key), str(data[key]), "expr")


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# ---------------------------------------------------------------- the pass


def parse(text: str, start: str) -> Tree | None:
    """The parse tree of a DSL text, or None if it does not parse (the loader reports why).

    Trees are shared (dsl.py keeps them by text): never change one.
    """
    return DslText(text, None, ()).parse(start)


def parsed_sites(raw: RawPack) -> Iterator[tuple[Site, DslText, Tree]]:
    """Each site with its parse tree (and a `DslText` to report at); texts that do not parse are left out."""
    for site in pack_sites(raw):
        tree = parse(site.text, site.start)
        if tree is not None:
            yield site, DslText(site.text, site.src, site.path), tree


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
    for var, over in site.bound:
        tree = parse(over.text, "expr")
        silent = DslText(over.text, over.src, over.path)     # `over` is checked as a site of its own
        scope[var] = ANY if tree is None else element(Checker(pack, silent, dict(scope)).infer(tree))
    return scope


class Checker:
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
        method = getattr(self, f"_x_{tree.data}", None) if isinstance(tree, Tree) else None
        return ANY if method is None else method(tree)

    def want(self, tree: Tree | Token, expect: Expect, what: str) -> T:
        """Infer `tree` and report it when it cannot be what `what` needs."""
        t = self.infer(tree)
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
    def bind(self, name: Token, t: T, body: Callable[[], Any]) -> None:
        """Run `body` with a local variable bound, then restore the names as they were."""
        saved = self.scope
        self.scope = {**saved, str(name): t}
        try:
            body()
        finally:
            self.scope = saved

    def effect(self, tree: Tree) -> None:
        for stmt in tree.children:
            if isinstance(stmt, Tree):
                method = getattr(self, f"_s_{stmt.data}", None)
                if method is not None:
                    method(stmt)

    def block(self, tree: Tree) -> None:
        self.effect(tree.children[0])

    def cost(self, tree: Tree) -> None:
        for term in tree.children:
            self.want(term.children[0], NUMBER, f"the amount of '{term.children[1]}'")

    # ---------------------------------------------------------------- statements
    def _s_gain(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'gain'")

    def _s_lose(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'lose'")

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

    _s_unlink = _s_link

    def _s_if_stmt(self, t: Tree) -> None:
        self.infer(t.children[0])
        for branch in t.children[1:]:
            self.block(branch) if branch.data == "block" else self._s_if_stmt(branch)

    def _s_may(self, t: Tree) -> None:
        self.block(t.children[-1])

    def _s_choose_alt(self, t: Tree) -> None:
        for alternative in t.children[-1].children:
            self.effect(alternative)

    _s_repeat_choose_alt = _s_choose_alt

    def _s_choose_item(self, t: Tree) -> None:
        over = element(self.want(t.children[1], COLLECTION, f"'{_keyword(t)} {t.children[0]} in'"))
        self.bind(t.children[0], over, lambda: self.block(t.children[-1]))

    _s_repeat_choose_item = _s_for_stmt = _s_choose_item

    def _s_choose_number(self, t: Tree) -> None:
        var, low, high = t.children[:3]
        self.want(low, NUMBER, f"'choose {var} from'")
        self.want(high, NUMBER, f"'choose {var} from ... to'")
        self.bind(var, INT, lambda: self.block(t.children[-1]))

    def _s_repeat_n(self, t: Tree) -> None:
        self.want(t.children[0], NUMBER, "'repeat'")
        self.block(t.children[1])

    def _s_do_stmt(self, t: Tree) -> None:
        self.want(t.children[0], AN_ITEM, "'do'")

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

    def _s_as_stmt(self, t: Tree) -> None:
        self.want(t.children[0], A_PLAYER, "'as'")
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
        """`+` also joins two lists or two texts."""
        left, right = (self.infer(c) for c in t.children)
        if left == right and left.kind in ("list", "str"):
            return left
        return self._arithmetic(t)

    def _x_attr(self, t: Tree) -> T:
        base, name = t.children
        if _name_of(base) == "option":
            return BOOL
        if _name_of(base) == "event":
            return ANY
        return self.attr_type(self.want(base, HAS_ATTRS, f"'.{name}'"), str(name))

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
        method = getattr(self, f"_fn_{name}", None)
        arity = _ARITY.get(str(name))
        if method is None or arity is None or not arity[0] <= len(args) <= arity[1]:
            return ANY  # the compiler reports unknown functions and wrong argument counts
        return method(str(name), args)

    # ---------------------------------------------------------------- functions
    def _fn_count(self, name: str, args: list) -> T:
        self.want(args[0], COLLECTION, "count()")
        return INT

    def _fn_sum(self, name: str, args: list) -> T:
        over = element(self.want(args[0], COLLECTION, "sum()"))
        self.bind(Token("NAME", "it"), over, lambda: self.want(args[1], NUMBER, "the value summed by sum()"))
        return INT

    def _fn_sorted(self, name: str, args: list) -> T:
        over = element(self.want(args[0], COLLECTION, "sorted()"))
        self.bind(Token("NAME", "it"), over, lambda: self.infer(args[1]))
        return list_of(over)

    def _fn_items(self, name: str, args: list) -> T:
        return list_of(common([element(self.want(a, COLLECTION, "items()")) for a in args]))

    def _fn_all(self, name: str, args: list) -> T:
        ctype = _name_of(args[0])
        return list_of(T("item", ctype) if ctype in self.pack.types else ITEM)

    def _fn_max(self, name: str, args: list) -> T:
        types = [self.infer(a) for a in args]
        return INT if all(t.kind in ("int", "bool") for t in types) else ANY

    _fn_min = _fn_max

    def _numbers(self, name: str, args: list) -> T:
        for arg in args:
            self.want(arg, NUMBER, f"{name}()")
        return INT

    _fn_abs = _fn_roll = _numbers

    def _fn_range(self, name: str, args: list) -> T:
        self._numbers(name, args)
        return list_of(INT)

    def _fn_rank(self, name: str, args: list) -> T:
        self.want(args[0], NUMBER, "rank()")
        self.want(args[1], A_LIST, "the minimums of rank()")
        return INT

    def _fn_pick(self, name: str, args: list) -> T:
        table = self.want(args[0], A_LIST, "pick()")
        self.want(args[1], NUMBER, "the position in pick()")
        return element(table)

    def _fn_neighbors(self, name: str, args: list) -> T:
        space = self.want(args[0], AN_ITEM, "neighbors()")
        return list_of(space if space.kind == "item" else ITEM)

    def _spaces(self, name: str, args: list) -> T:
        for arg in args:
            self.want(arg, AN_ITEM, f"{name}()")
        return BOOL if name == "adjacent" else INT

    _fn_adjacent = _fn_distance = _spaces

    def _fn_actions(self, name: str, args: list) -> T:
        self.want(args[0], AN_ITEM, "actions()")
        return list_of(ACTION)

    def _fn_admits(self, name: str, args: list) -> T:
        self.want(args[0], AN_ITEM, "admits()")
        self.want(args[1], AN_ITEM, "admits()")
        return BOOL

    def _fn_can_play(self, name: str, args: list) -> T:
        self.want(args[0], AN_ITEM, "can_play()")
        self.want(args[1], A_ZONE, "can_play()")
        return BOOL

    def _fn_cost_uses(self, name: str, args: list) -> T:
        self.want(args[0], AN_ITEM, "cost_uses()")
        if len(args) == 3:
            self.want(args[2], NUMBER, "the amount in cost_uses()")
        return BOOL

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
        if name == "seat" or name in self.pack.counters:
            return [INT]
        return [ZONE] if name in self.pack.zones else []


_SYMBOLS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "add": "+", "sub": "-", "mul": "*", "div": "/",
            "mod": "%", "neg": "-"}
_ARITY = {"count": (1, 1), "sum": (2, 2), "sorted": (2, 2), "items": (0, 99), "all": (1, 1), "max": (1, 8),
          "min": (1, 8), "abs": (1, 1), "roll": (1, 1), "range": (2, 2), "rank": (2, 2), "pick": (2, 2),
          "actions": (1, 1), "can_play": (2, 2), "admits": (2, 2), "cost_uses": (2, 3), "neighbors": (1, 1),
          "adjacent": (2, 2), "distance": (2, 2)}


def _name_of(tree: Any) -> str | None:
    """The name a `name` tree stands for, else None."""
    if isinstance(tree, Tree) and tree.data == "name":
        return str(tree.children[0])
    return None


def _keyword(t: Tree) -> str:
    return {"for_stmt": "for", "repeat_choose_item": "repeat choose"}.get(str(t.data), "choose")
