"""Rules text from DSL: what a component's rules say, in plain English, to proofread and to print.

Parse trees are turned into clauses ("gain 2 Coins", "pay 1 Coin to gain 2
Stars", "choose one: ... or ..."), calling counters, zones and components by
their `name`. A statement list reads as one sentence per statement; blocks
inside a statement read as clauses joined by "then".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from lark import Token, Tree

from engine.dsl.english import and_list, plural, sentences, words
from engine.dsl.functions import FUNCTIONS
from engine.dsl.parse import branch_parts, choice_binders, counter_chain, label_text, parse
from engine.dsl.phrase import fill_phrase
from engine.dsl.walk import EXPRESSION, STATEMENT, RuleNodes, Walker
from engine.packs.raw import Entry
from engine.runtime.defs import Pack

_COMPARE = {"eq": "is", "ne": "is not", "lt": "is less than", "le": "is at most", "gt": "is more than",
            "ge": "is at least", "in_": "is in"}
_ARITHMETIC = {"add": ("+", 4), "sub": ("-", 4), "mul": ("×", 5), "div": ("/", 5), "mod": ("mod", 5)}
_PLAYERS = {"me": "you", "next_player": "the next player", "others": "the other players",
            "everyone": "every player", "players": "the number of players", "self": "this", "event": "the event"}
_EVENTS = {"gained": "a counter is gained", "paid": "a counter is paid", "changed": "a counter changes",
           "passed": "a marker lands on or passes a marked space",
           "exhausted": "a deck runs out",
           "moved": "an item moves", "placed": "an item is played", "step_start": "a step starts",
           "step_end": "a step ends"}
_TIMING = {"before": "Before", "instead": "Instead of", "after": "On"}


def threshold_unit(trees: Iterable[Tree], pack: Pack, nodes: RuleNodes | None = None) -> str | None:
    """The counter every `activate ITEM with COUNTER` names, if they all name the same one.

    Action thresholds are then amounts of that counter ("3 Coins: ..."). `nodes`: the trees' nodes
    by rule, when the caller walks them for other rules too.
    """
    units: set[str | None] = set()
    for stmt in (nodes or RuleNodes()).each(trees, "activate"):
        with_ = stmt.children[1]
        name = str(with_.children[0]) if isinstance(with_, Tree) and with_.data == "name" else None
        units.add(name if name in pack.counters else None)
    return units.pop() if len(units) == 1 else None


class Renderer(Walker):
    """English for the parse trees of one pack's DSL texts."""

    def __init__(self, pack: Pack, unit: str | None = None) -> None:
        self.pack = pack
        self.unit = unit
        self.bools = self._attrs_of_type("bool")
        self.conds = self._attrs_of_type("cond")
        self.effects = self._attrs_of_type("effect")
        self.declared = {name for t in pack.types.values() for name in t.attrs}
        self.holder: str | None = None  # while rendering an admission rule: how `self` reads ("the Socket")

    def admission(self, text: str, holder: str) -> str:
        """An `admits` rule as English: `self` is the holder ("the Slot"), `it` the item offered."""
        self.holder = holder
        try:
            return self.text(text, "expr")
        finally:
            self.holder = None

    def _attrs_of_type(self, kind: str) -> set[str]:
        return {name for t in self.pack.types.values() for name, a in t.attrs.items() if a.type == kind}

    # ---------------------------------------------------------------- whole texts
    def text(self, text: str, start: str) -> str:
        """A DSL text as English; the text itself when it does not parse."""
        tree = parse(str(text), start)
        if tree is None:
            return str(text)
        if start == "effect":
            return sentences(self.clauses(tree))
        return self.cost(tree) if start == "cost" else self.expr(tree)

    def clauses(self, tree: Tree) -> list[str]:
        """One clause per statement, with runs of `gain` merged and a leading `pay` read as "pay X to ..."."""
        stmts = [s for s in tree.children if isinstance(s, Tree)]
        out: list[str] = []
        gains: list[str] = []
        for stmt in stmts:
            if stmt.data == "gain":
                gains.append(self.amount(*stmt.children))
                continue
            if gains:
                out.append(f"gain {and_list(gains)}")
                gains = []
            out.append(self.stmt(stmt))
        if gains:
            out.append(f"gain {and_list(gains)}")
        if len(out) > 1 and stmts[0].data == "pay":
            return [f"{out[0]} to {', then '.join(out[1:])}"]
        return out

    def block(self, tree: Tree) -> str:
        return ", then ".join(self.clauses(tree.children[0]))

    def branch(self, tree: Tree) -> str:
        """A `choose { ... }` alternative or a `may`'s block: "Label (what it does)" when labelled."""
        label, effect = branch_parts(tree)
        text = ", then ".join(self.clauses(effect))
        if label is None:
            return text
        shown = label_text(label)   # a label that says what the option does is printed once
        return shown if shown.lower() == text.lower() else f"{shown} ({text})"

    def cost(self, tree: Tree) -> str:
        return and_list([self.amount(*term.children) for term in tree.children])

    def amount(self, amount: Any, name: Token | Tree) -> str:
        n = self.expr(amount)
        shown = n if isinstance(amount, Tree) and amount.data in ("number", "name") else f"({n})"
        if isinstance(name, Tree):  # a counter named through data
            return f"{shown} of {self.expr(counter_chain(name))}"
        return f"{shown} {plural(self.name_of(str(name)), n)}"

    def name_of(self, ident: str) -> str:
        """A definition's `name`, the identifier in words when it has none."""
        pack = self.pack
        for table in (pack.counters, pack.wildcards, pack.dice, pack.zones, pack.components, pack.types):
            if ident in table:
                return str(table[ident].name)
        return words(ident)

    # ---------------------------------------------------------------- statements
    def stmt(self, t: Tree) -> str:
        return str(self.walk(STATEMENT, t))

    def _s_gain(self, t: Tree) -> str:
        return f"gain {self.amount(*t.children)}"

    def _s_lose(self, t: Tree) -> str:
        return f"lose {self.amount(*t.children)}"

    def _s_pay(self, t: Tree) -> str:
        return f"pay {self.cost(t.children[0])}"

    def _s_set(self, t: Tree) -> str:
        target, value = t.children
        if target.data == "attr":
            return f"set the {words(str(target.children[1]))} of {self.expr(target.children[0])} to {self.expr(value)}"
        return f"set {self.expr(target)} to {self.expr(value)}"

    def _s_draw(self, t: Tree) -> str:
        n, source, dest = (self.expr(c) for c in t.children)
        return f"draw {n} from {source} to {dest}"

    def _s_move(self, t: Tree) -> str:
        item, zone = self.expr(t.children[0]), self.expr(t.children[1])
        return f"move {item} to the top of {zone}" if t.children[2] is not None else f"move {item} to {zone}"

    def _zone_stmt(self, t: Tree) -> str:
        return f"{t.data} {self.expr(t.children[0])}"

    def _s_link(self, t: Tree) -> str:
        return f"join {self.expr(t.children[0])} to {self.expr(t.children[1])} (now adjacent)"

    def _s_block_link(self, t: Tree) -> str:
        return f"block the link between {self.expr(t.children[0])} and {self.expr(t.children[1])}"

    def _s_unblock_link(self, t: Tree) -> str:
        return f"unblock the link between {self.expr(t.children[0])} and {self.expr(t.children[1])}"

    def _s_rotate(self, t: Tree) -> str:
        return f"turn {self.expr(t.children[0])} {self.expr(t.children[1])} sides clockwise"

    def _s_unlink(self, t: Tree) -> str:
        return f"cut the link between {self.expr(t.children[0])} and {self.expr(t.children[1])}"

    _s_shuffle = _s_reveal = _s_conceal = _zone_stmt

    def _s_roll_dice(self, t: Tree) -> str:
        count = self.expr(t.children[0])
        return f"roll {count} {plural(self.name_of(str(t.children[1])), count)}"

    def _s_reroll(self, t: Tree) -> str:
        die, cond, limit = t.children[:3]
        dice = plural(self.name_of(str(die)), "2")
        which = f"{dice} whose face {self.expr(cond).replace('it ', '', 1)}" if cond is not None else dice
        most = f"up to {self.expr(limit)} of " if limit is not None else "any of "
        return f"you may reroll {most}the {which}, each once"

    def _s_if_stmt(self, t: Tree) -> str:
        text = f"if {self.expr(t.children[0])}: {self.block(t.children[1])}"
        if len(t.children) > 2:
            other = t.children[2]
            text += f"; otherwise {self.block(other) if other.data == 'block' else self._s_if_stmt(other)}"
        return text

    def _s_may(self, t: Tree) -> str:
        return f"you may {self.branch(t.children[-1])}"

    def _s_choose_alt(self, t: Tree) -> str:
        return "choose one: " + " or ".join(self.branch(b) for b in t.children[-1].children)

    def _s_repeat_choose_alt(self, t: Tree) -> str:
        return f"any number of times, {self._s_choose_alt(t)}"

    def _s_choose_item(self, t: Tree) -> str:
        optional = any(isinstance(c, Token) and c.type == "OPTIONAL" for c in t.children)
        binders = choice_binders(t)
        parts = "; ".join(f"{var} from {self.expr(coll)}" for var, coll in binders)
        if len(binders) > 1:   # one decision over the combinations
            parts = f"{' and '.join(str(var) for var, _ in binders)} together, {parts}"
        text = f"choose {parts}: {self.block(t.children[-1])}"
        return f"you may {text}" if optional else text

    def _s_repeat_choose_item(self, t: Tree) -> str:
        return f"any number of times, {self._s_choose_item(t)}"

    def _s_choose_number(self, t: Tree) -> str:
        var, low, high = t.children[:3]
        return f"choose a number {var} from {self.expr(low)} to {self.expr(high)}: {self.block(t.children[-1])}"

    def _s_for_stmt(self, t: Tree) -> str:
        return f"for each {t.children[0]} in {self.expr(t.children[1])}: {self.block(t.children[2])}"

    def _s_repeat_n(self, t: Tree) -> str:
        return f"{self.expr(t.children[0])} times: {self.block(t.children[1])}"

    def _s_while_stmt(self, t: Tree) -> str:
        return f"as long as {self.expr(t.children[0])}: {self.block(t.children[1])}"

    def _s_let(self, t: Tree) -> str:
        return f"let {t.children[0]} be {self.expr(t.children[1])}"

    def _s_do_stmt(self, t: Tree) -> str:
        target = t.children[0]
        if isinstance(target, Tree) and target.data == "attr" and str(target.children[1]) in self.effects:
            return f"carry out {self.expr(target)}"
        return f"do an action of {self.expr(target)}"

    def _s_pay_attr(self, t: Tree) -> str:
        return f"pay {self.expr(t.children[0])}"

    def _s_activate(self, t: Tree) -> str:
        return f"activate {self.expr(t.children[0])} with {self.expr(t.children[1])}"

    def _s_play(self, t: Tree) -> str:
        text = f"play {self.expr(t.children[0])} to {self.expr(t.children[1])}"
        return text + (" for free" if t.children[2] is not None else ", paying its cost")

    def _s_call(self, t: Tree) -> str:
        """A call as its procedure's card phrase ("draw 2 cards") when it has one, else "NAME with ARGS".

        In a phrase a list of values reads the way cards print a row of them, "1/2/3/3", not "[1, 2, 3, 3]"."""
        given = [a for a in t.children[1:] if a is not None]
        phrase = self.pack.phrases.get(str(t.children[0]))
        if phrase is not None and len(phrase[0]) == len(given):
            return fill_phrase(phrase[1], dict(zip(phrase[0], map(self._slot, given), strict=True)))
        return words(str(t.children[0])) + (f" with {and_list([self.expr(a) for a in given])}" if given else "")

    def _slot(self, arg: Tree | Token) -> str:
        """A call's argument as it reads in a card phrase's `{field}`."""
        if isinstance(arg, Tree) and arg.data == "list" and arg.children and None not in arg.children:
            return "/".join(self.expr(c) for c in arg.children)
        return self.expr(arg)

    def _s_emit(self, t: Tree) -> str:
        return f"announce {words(str(t.children[0]))}"

    def _s_stop(self, t: Tree) -> str:
        return "stop repeating"

    def _s_end_game(self, t: Tree) -> str:
        return "the game ends"

    def _s_as_stmt(self, t: Tree) -> str:
        return f"as {self.expr(t.children[0])}: {self.block(t.children[1])}"

    def _s_reorder(self, t: Tree) -> str:
        return f"the turn order becomes every player by {self.expr(t.children[0])}, lowest first (ties keep" \
               " their order)"

    def _s_within(self, t: Tree) -> str:
        return f"using only what {self.expr(t.children[0])} holds: {self.block(t.children[1])}"

    # ---------------------------------------------------------------- expressions
    def expr(self, t: Tree | Token | None) -> str:
        if not isinstance(t, Tree):
            return "" if t is None else str(t)
        return str(self.walk(EXPRESSION, t))

    def _x_number(self, t: Tree) -> str:
        return str(t.children[0])

    def _x_string(self, t: Tree) -> str:
        return str(t.children[0])[1:-1] or "empty"   # `x == ""` reads "x is empty"

    def _x_true(self, t: Tree) -> str:
        return "true"

    def _x_false(self, t: Tree) -> str:
        return "false"

    def _x_list(self, t: Tree) -> str:
        return "[" + ", ".join(self.expr(c) for c in t.children if c is not None) + "]"

    def _x_name(self, t: Tree) -> str:
        name = str(t.children[0])
        return _PLAYERS.get(name) or self.name_of(name)

    def _x_or_(self, t: Tree) -> str:
        return " or ".join(self.expr(c) for c in t.children)

    def _x_and_(self, t: Tree) -> str:
        return " and ".join(self.expr(c) for c in t.children)

    def _x_not_(self, t: Tree) -> str:
        inner = t.children[0]
        if isinstance(inner, Tree) and inner.data == "attr" and str(inner.children[1]) in self.bools:
            return self._is(inner, "is not")
        if isinstance(inner, Tree) and inner.data in ("in_", "eq"):
            left, right = (self.expr(c) for c in inner.children)
            return f"{left} is not {'in ' if inner.data == 'in_' else ''}{right}"
        return f"not ({self.expr(inner)})"

    def _compare(self, t: Tree) -> str:
        left, right = (self.expr(c) for c in t.children)
        return f"{left} {_COMPARE[str(t.data)]} {right}"

    _x_eq = _x_ne = _x_lt = _x_le = _x_gt = _x_ge = _x_in_ = _compare

    def _arithmetic(self, t: Tree) -> str:
        symbol, rank = _ARITHMETIC[str(t.data)]
        left, right = (self._operand(c, rank, i == 1) for i, c in enumerate(t.children))
        text = f"{left} {symbol} {right}"
        return f"{text}, rounded down" if t.data == "div" else text

    _x_add = _x_sub = _x_mul = _x_div = _x_mod = _arithmetic

    def _operand(self, t: Any, rank: int, right: bool) -> str:
        """An operand, in parentheses where reading it plainly would change the order of operations."""
        text = self.expr(t)
        inner = _ARITHMETIC.get(str(t.data)) if isinstance(t, Tree) else None
        nested = inner is not None and (inner[1] < rank or (right and inner[1] == rank))
        if nested or any(mark in text for mark in ("rounded", ", ", " and ")):
            return f"({text})"
        return text

    def _x_neg(self, t: Tree) -> str:
        return f"-{self.expr(t.children[0])}"

    def _x_attr(self, t: Tree) -> str:
        base, name = t.children
        base_name = str(base.children[0]) if isinstance(base, Tree) and base.data == "name" else None
        if base_name == "option":
            return f"option {words(str(name))} is on"
        if str(name) in self.bools:
            return self._is(t, "is")
        if base_name == "self":
            if self.holder is not None:
                return f"the {words(str(name))} of {self.holder}"
            return f"its {words(str(name))}" + (" is met" if str(name) in self.conds else "")
        if base_name == "it" and self.holder is not None:
            return f"its {words(str(name))}"
        if base_name == "event":
            return f"the event's {words(str(name))}"
        if str(name) == "position" and "position" not in self.declared:
            return f"the place in turn order of {self.expr(base)} (1 = the first player)"
        return f"the {words(str(name))} of {self.expr(base)}"

    def _is(self, attr: Tree, verb: str) -> str:
        """A yes/no attribute as a statement about its item: "it is ...", "X is not ..."."""
        base, name = attr.children
        subject = "it" if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "self" \
            else self.expr(base)
        if self.holder is not None and subject == "it":
            subject = self.holder
        return f"{subject} {verb} {words(str(name))}"

    def _x_index(self, t: Tree) -> str:
        index = t.children[1]
        shown = self.expr(index)
        simple = isinstance(index, Tree) and index.data in ("number", "name")
        return f"item {shown if simple else f'({shown})'} of {self.expr(t.children[0])}"

    def _x_collection(self, t: Tree) -> str:
        return f"{self.expr(t.children[0])} where {self.expr(t.children[1])}"

    def _x_call_fn(self, t: Tree) -> str:
        name, *args = t.children
        args = [a for a in args if a is not None]
        shown = [self.expr(a) for a in args]
        fn = FUNCTIONS.get(str(name))
        return fn.english(shown, args) if fn is not None and fn.takes(len(args)) else f"{name}({', '.join(shown)})"

    # ---------------------------------------------------------------- components
    def component(self, entry: Entry) -> Iterator[str]:
        """Lines describing one component: its attributes, costs, actions and triggers."""
        data = entry.data
        attrs = self.attributes(entry)
        if attrs:
            yield f"Attributes: {attrs}"
        yield from self.rule_attributes(entry)
        graph = self.pack.graphs.get(entry.ctype or "")
        if graph is not None and entry.id in graph.links:  # a board space: its neighbours, listed or from its grid
            near = [self.pack.components[n].name for n in graph.links[entry.id]]
            yield f"Next to: {', '.join(near) if near else 'nothing'}."
        costs = [self.text(c, "cost") for c in _seq(data.get("costs"))]
        if costs:
            yield f"Cost: {'; or '.join(costs)}."
        actions = [self.action(a) for a in _seq(data.get("actions")) if isinstance(a, Mapping)]
        if len(actions) > 1:
            yield "Actions (one per activation):" if data.get("mode", "one") == "one" else "Actions (each, in order):"
        yield from (f"  {a}" if len(actions) > 1 else a for a in actions)
        yield from (self.trigger(t) for t in _seq(data.get("triggers")) if isinstance(t, Mapping))
        yield from (self.modifier(m) for m in _seq(data.get("modifiers")) if isinstance(m, Mapping))
        yield from (self.anytime(a) for a in _seq(data.get("anytime")) if isinstance(a, Mapping))

    def anytime(self, data: Mapping) -> str:
        """An anytime action as a rule: when it may be taken, what it costs and does."""
        window = f" while {self.text(str(data['window']), 'expr')}" if data.get("window") is not None else ""
        limit = {"turn": ", once a turn", "round": ", once a round", "game": ", once a game"}.get(
            str(data.get("limit")), "")
        cost = f"pay {self.text(str(data['cost']), 'cost')} to " if data.get("cost") is not None else ""
        does = self.text(str(data.get("effect", "")), "effect")
        return f"At any of your choices{window}{limit}: you may {cost}{does[:1].lower()}{does[1:]}"

    def modifier(self, data: Mapping) -> str:
        """A cost modifier as a rule: which costs, and how they change."""
        which = "every cost you pay" if data.get("applies") is None else \
            f"the cost of an item (it) you pay for, if {self.text(str(data['applies']), 'expr')}"
        parts = []
        if data.get("discount") is not None:
            parts.append(f"{self.text(str(data['discount']), 'expr')} less (you choose of what)")
        if data.get("surcharge") is not None:
            parts.append(f"{self.text(str(data['surcharge']), 'cost')} more")
        if data.get("from") is not None:
            parts.append(f"paid from what {self.text(str(data['from']), 'expr')} holds")
        return f"While in play, {which}: {'; '.join(parts) or 'unchanged'}."

    def attributes(self, entry: Entry) -> str:
        """Declared attribute values, references by name and expressions in words."""
        ctype = self.pack.types.get(entry.ctype or "")
        if ctype is None:
            return ""
        shown = []
        for name, a in ctype.attrs.items():
            value = entry.data.get(name)
            if value is None or a.type in ("effect", "cost"):
                continue
            if a.type in ("expr", "cond"):
                value = self.text(str(value), "expr")
            elif isinstance(value, str):
                value = self.name_of(value)
            shown.append(f"{words(name)} = {value}")
        return "; ".join(shown)

    def rule_attributes(self, entry: Entry) -> Iterator[str]:
        """`effect` and `cost` attributes as printed rules: "Reward: gain 3 Coins." (`do`/`pay ITEM.ATTR`)."""
        ctype = self.pack.types.get(entry.ctype or "")
        for name, a in (ctype.attrs.items() if ctype is not None else ()):
            value = entry.data.get(name, a.default)
            if value is not None and a.type in ("effect", "cost"):
                text = self.text(str(value), a.type).rstrip(".")
                yield f"{words(name)[:1].upper()}{words(name)[1:]}: {text[:1].upper()}{text[1:]}."

    def action(self, a: Mapping) -> str:
        head = []
        if a.get("threshold") is not None:
            threshold = str(a["threshold"])
            head.append(f"{threshold} {plural(self.name_of(self.unit), threshold)}" if self.unit else threshold)
        if a.get("when") is not None:
            head.append(f"if {self.text(str(a['when']), 'expr')}")
        body = self.text(str(a.get("effect", "")), "effect")
        if a.get("cost") is not None:
            body = f"Pay {self.text(str(a['cost']), 'cost')}: {body}"
        group = f" (only one of '{a['or_group']}')" if a.get("or_group") else ""
        text = f"{', '.join(head)}: {body}{group}" if head else body + group
        return text[:1].upper() + text[1:]

    def trigger(self, t: Mapping) -> str:
        event = str(t.get("on", ""))
        timing = _TIMING.get(str(t.get("timing", "after")), "On")
        head = f"{timing} {words(event)}"
        if event in _EVENTS:
            head = f"{'When' if timing == 'On' else timing + ' the usual result when'} {_EVENTS[event]}"
        if t.get("when") is not None:
            head += f", if {self.text(str(t['when']), 'expr')}"
        extras = [x for x in ("optional" if t.get("optional") else "",
                              f"once per {t['limit']}" if t.get("limit") else "") if x]
        tail = f" ({', '.join(extras)})" if extras else ""
        return f"{head}: {self.text(str(t.get('effect', '')), 'effect')}{tail}"


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
