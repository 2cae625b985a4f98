"""Lark's LALR tables run by one tight loop: the same trees, about twice as fast.

Lark's own loop pays, per token and per reduction, for generality the DSL does not use:
a lexer thread, a `Token` made through `__new__`'s keyword handling, a chain of three wrapper
objects per reduction (positions, child filter, single-child expansion) computing positions
with `getattr` fallbacks, and rule names that are `Token`s (so every `tree.data == "x"` in
the engine ran `Token.__eq__` in Python). Parsing was ~40% of a cold `cogwork lint` of a
big pack. This module reads the tables and per-state lexers of the parser Lark built
(`parse.parser()`) and runs them directly, building the same trees: the same rule names,
children and tokens (with all of Lark's token positions), and the tree positions the engine
reads (`meta.start_pos`, `meta.end_pos`, `meta.empty`, as `Span`).

It only answers when the text parses: on any lexing or syntax error it returns None and the
caller lets Lark parse the text again, so error messages are Lark's own. Each token is read
by the scanner Lark made for the parser state at that point (its contextual lexer), so a text
that parses here is tokenised as Lark would. `tests/test_dsl_lalr.py` compares the two, tree
by tree and position by position, on every DSL text of the repository and on mutated texts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from lark import Lark, Token, Tree
from lark.grammar import Rule, Terminal
from lark.parsers.lalr_analysis import Shift
from lark.tree import Meta


class Span(Meta):
    """A tree's place in its text: Lark's `Meta` reduced to what the engine reads.

    `start_pos`/`end_pos` are the tree's own span; `container_*` also cover the filtered
    tokens and inlined rules around it (Lark's rule for how parents extend their span).
    """

    __slots__ = ("container_end_pos", "container_start_pos", "empty", "end_pos", "start_pos")

    def __init__(self, start: int | None, end: int | None) -> None:
        self.empty = start is None or end is None      # then no positions at all, as Lark's `Meta`
        if start is not None and end is not None:
            self.start_pos = self.container_start_pos = start
            self.end_pos = self.container_end_pos = end


Reducer = Callable[[list], Any]
Step = tuple[bool, Any]     # (shift?, the next state | (symbols taken, reducer or None, rule name))
_Lexer = tuple[list, dict, frozenset, frozenset]     # regexes, token callbacks, ignored and newline terminals


def _span(kids: list) -> tuple[int | None, int | None]:
    """Where matched symbols start and end, filtered tokens and inlined rules included
    (Lark's PropagatePositions: the first and last symbol that has a position)."""
    start = end = None
    for c in kids:
        if type(c) is Token:
            start = c.start_pos
            break
        if not c._meta.empty:
            start = c._meta.container_start_pos
            break
    else:
        return None, None
    for c in reversed(kids):
        if type(c) is Token:
            return start, c.end_pos
        if not c._meta.empty:
            return start, c._meta.container_end_pos
    return start, end


def _child_picker(rule: Rule, placeholders: bool) -> Callable[[list], list] | None:
    """How a rule's matched symbols become its children (Lark's ChildFilterLALR): filtered tokens
    dropped, `_rule`s inlined, None for each `[optional]` part not there; None when all are kept."""
    expansion = rule.expansion
    empty = rule.options.empty_indices if placeholders else ()
    nones = [len(run) for run in "".join(str(int(b)) for b in empty).split("0")] if empty \
        else [0] * (len(expansion) + 1)
    include: list[tuple[int, bool, int]] = []
    pending = 0
    for i, sym in enumerate(expansion):
        pending += nones[i]
        if rule.options.keep_all_tokens or not (isinstance(sym, Terminal) and sym.filter_out):
            include.append((i, not sym.is_term and sym.name.startswith("_"), pending))
            pending = 0
    trailing = pending + nones[len(expansion)]
    keep = [i for i, _, _ in include]
    if trailing or any(expand or added for _, expand, added in include):
        def pick(kids: list) -> list:
            children: list = []
            for i, expand, added in include:
                children += [None] * added
                if expand:
                    children += kids[i].children
                else:
                    children.append(kids[i])
            return children + [None] * trailing
        return pick
    if keep == list(range(len(expansion))):
        return None
    return lambda kids: [kids[i] for i in keep]


def _reducer(rule: Rule, placeholders: bool) -> Reducer | None:
    """The one function that turns a rule's matched symbols into its tree (Lark's wrapper chain
    of PropagatePositions, ChildFilterLALR and ExpandSingleChild, in that order, as one).

    None for a `?rule` alternative that is one kept symbol (`?sum: product`): its value is
    the symbol's own, positions included, so the loop only changes state.
    """
    data = str(rule.alias or rule.options.template_source or rule.origin.name)   # a str: `==` stays in C
    expand1 = bool(rule.options.expand1 and not rule.alias)
    pick = _child_picker(rule, placeholders)
    if expand1 and pick is None and len(rule.expansion) == 1:
        return None

    def reduce(kids: list) -> Any:
        start, end = _span(kids)
        children = kids if pick is None else pick(kids)
        if expand1 and len(children) == 1:
            return _inlined(children[0], start, end)
        return Tree(data, children, Span(start, end))

    return reduce


def _inlined(only: Any, start: int | None, end: int | None) -> Any:
    """A `?rule`'s single child standing for it: its container grows to the rule's symbols."""
    if type(only) is Tree and start is not None:
        span: Any = only._meta
        if span.empty:
            only._meta = span = Span(start, end)
        span.container_start_pos = start
        span.container_end_pos = end
    return only


class FastParser:
    """Parses with the tables of `lark`, which must be an LALR parser with the contextual lexer,
    `propagate_positions=True` and no transformer or lexer callbacks (the DSL parser)."""

    def __init__(self, lark: Lark) -> None:
        frontend = lark.parser
        table = frontend.parser.parser.parse_table
        self._start_states = table.start_states
        self._end_states = table.end_states
        placeholders = bool(lark.options.maybe_placeholders)
        reductions: dict[Rule, tuple[int, Reducer | None, str]] = {}
        self._actions: dict[int, dict[str, Step]] = {}
        for state, row in table.states.items():
            actions: dict[str, Step] = {}
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    actions[str(symbol)] = (True, arg)
                    continue
                if arg not in reductions:
                    reductions[arg] = (len(arg.expansion), _reducer(arg, placeholders), str(arg.origin.name))
                actions[str(symbol)] = (False, reductions[arg])
            self._actions[state] = actions
        self._state_lexers = frontend.lexer.lexers
        self._lexers: dict[int, _Lexer] = {}

    def _lexer(self, state: int) -> _Lexer:
        """The scanner of parser state `state`, built when first needed (as Lark does)."""
        if state not in self._lexers:
            lexer = self._state_lexers[state]
            self._lexers[state] = (lexer.scanner._mres, lexer.callback, lexer.ignore_types, lexer.newline_types)
        return self._lexers[state]

    def _tokens(self, text: str, states: list[int]) -> Iterator[Token | None]:
        """Lark's tokens, each read with the scanner of the parser's state at that point (`states[-1]`
        when the next token is asked for); None where no terminal matches."""
        lexers = self._lexers
        new = str.__new__
        pos, line, line_start = 0, 1, 0
        while pos < len(text):
            state = states[-1]
            mres, callback, ignore, newline = lexers[state] if state in lexers else self._lexer(state)
            m = mres[0].match(text, pos)
            if m is None and len(mres) > 1:     # Lark splits a scanner past 100 terminals
                m = next((found for mre in mres[1:] if (found := mre.match(text, pos))), None)
            if m is None:
                yield None
                return
            value, kind = m.group(0), m.lastgroup
            if kind in ignore and kind not in callback:
                if kind in newline and "\n" in value:
                    line += value.count("\n")
                    line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                continue
            token = new(Token, value)
            token.type, token.value, token.start_pos, token.line = kind, value, pos, line
            token.column = pos - line_start + 1
            if kind in newline and "\n" in value:
                line += value.count("\n")
                line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            token.end_line, token.end_column, token.end_pos = line, pos - line_start + 1, pos
            if kind in callback:
                token = callback[kind](token)
            if kind not in ignore:
                yield token

    def parse(self, text: str, start: str) -> Tree | None:
        """The tree Lark would build for `text` from rule `start`, or None if it does not parse."""
        actions = self._actions
        states = [self._start_states[start]]
        values: list = []
        for token in self._tokens(text, states):
            if token is None or not _feed(actions, states, values, token.type, token):
                return None
        end_state = self._end_states[start]
        while True:
            step = actions[states[-1]].get("$END")
            if step is None or step[0]:
                return None
            _reduce(actions, states, values, step[1])
            if states[-1] == end_state:
                return values[-1]


def _feed(actions: dict[int, dict[str, Step]], states: list[int], values: list, kind: str, token: Token) -> bool:
    """Reduce as the tables say, then shift `token`; False if the grammar does not allow it here."""
    while True:
        step = actions[states[-1]].get(kind)
        if step is None:
            return False
        if step[0]:
            states.append(step[1])
            values.append(token)
            return True
        _reduce(actions, states, values, step[1])


def _reduce(actions: dict[int, dict[str, Step]], states: list[int], values: list,
            reduction: tuple[int, Reducer | None, str]) -> None:
    size, reduce, origin = reduction
    if reduce is None:      # a `?rule` passing its one symbol through
        states[-1] = actions[states[-2]][origin][1]
        return
    if size:
        kids = values[-size:]
        del states[-size:]
        del values[-size:]
    else:
        kids = []
    values.append(reduce(kids))
    states.append(actions[states[-1]][origin][1])
