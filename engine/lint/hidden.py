"""HIDDEN001: a rule reads another seat's hidden zone at a moment that zone is not revealed.

The compiler notes every read of the items of another seat's `owner`/`hidden` zone (`q.hand`, not its
count; `Usage.hidden_reads`). This check decides, for each read, whether the zone is surely revealed when
the read runs, by following the flow in order and carrying what is revealed at each point:

- `all`: zones revealed for every seat (a flow step's `reveal:` list; `reveal Z` run by every seat of an
  `each_player`/`simultaneous` step, once that step is over);
- `mine`: zones the acting seat revealed of its own (`reveal Z`, `reveal me.Z`) in the current seat pass;
- `pairs`: one player's zone revealed by name in the text being read (`reveal q.hand`, then `q.hand`).

Where paths join (an `if` and its `else`, a `choose`, a `may`, a loop that may run again or not at all)
only what every path revealed is kept. `conceal` removes. `call P` follows the procedure with the caller's
state. Texts that run outside the flow's order (triggers, component actions and effects, costs,
conditions, scoring, and procedures the flow never calls) can run before any reveal, so they must reveal
the zone themselves before reading it. A zone that such a text conceals counts as revealed nowhere (it
could be concealed between any two statements). A read is reported when the zone may be hidden there.

A zone used as the target of `reveal`/`conceal`/`shuffle`, the source of a `draw` or the destination of
`move`/`draw`/`play` is not read: no item of it is shown to anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lark import Tree

from engine.diagnostics import Diagnostic
from engine.dsl.parse import DslText, choice_binders
from engine.dsl.sites import Site, procedure_text_path
from engine.packs.raw import RawPack
from engine.runtime.defs import Pack
from engine.usage import Where, position_of

CODE = "HIDDEN001"
# operands that name a zone without showing its items: (statement, child index)
_NOT_READ = {("reveal", 0), ("conceal", 0), ("shuffle", 0), ("move", 1), ("draw", 1), ("draw", 2), ("play", 1)}
_BLOCKS = ("block", "branch", "alternatives", "if_stmt")     # a statement's parts that hold statements
_BINDERS = ("choose_item", "choose_number", "repeat_choose_item", "for_stmt")   # bind a name over their block


@dataclass(frozen=True)
class Shown:
    """What is surely revealed at one point of a rule (see the module docstring)."""

    all: frozenset[str] = frozenset()
    mine: frozenset[str] = frozenset()
    pairs: frozenset[tuple[Any, str]] = frozenset()      # (the player expression's shape, zone)
    foreign: frozenset[str] = frozenset()                # zones concealed through another player in this pass

    def __and__(self, other: Shown) -> Shown:
        return Shown(self.all & other.all, self.mine & other.mine, self.pairs & other.pairs,
                     self.foreign | other.foreign)


_NOTHING = Shown()
Text = tuple[DslText, Tree]


def hidden_reads(raw: RawPack, pack: Pack, sites: Iterable[tuple[Site, DslText, Tree]]) -> Iterator[Diagnostic]:
    """HIDDEN001 findings: each read of another seat's hidden zone that may run while the zone is hidden."""
    if not pack.usage.hidden_reads:
        return
    walk = _Walk(raw, pack, list(sites))
    walk.run()
    revealed = walk.ever_revealed
    for where, name in dict.fromkeys(walk.exposed):
        visibility = pack.zones[name].visibility
        why = (", which nothing reveals" if name not in revealed else
               " where it may still be hidden: not every way the game reaches this read reveals it first")
        yield Diagnostic(CODE, f"reads the items of another player's zone '{name}' (visibility: {visibility}){why}",
                         where[0], where[1], where[2], severity="warning",
                         hint=f"count({name}) is public; else reveal the zone first on every path to this read "
                              "(`reveal`, or a flow step's `reveal:` before this step)")


class _Walk:
    """Follows the flow (and the procedures it calls) carrying `Shown`, then every other text from nothing."""

    def __init__(self, raw: RawPack, pack: Pack, sites: list[tuple[Site, DslText, Tree]]) -> None:
        self.raw = raw
        self.reads = {(position_of(place), name)
                      for name, places in pack.usage.hidden_reads.items() for place in places}
        self.hidden = set(pack.usage.hidden_reads)
        self.zones = set(pack.zones)
        self.texts: dict[tuple[str, tuple], Text] = {(s.src.display, s.path): (d, t) for s, d, t in sites}
        proc_paths = {(e.src.display, procedure_text_path(e)): name for name, e in raw.procedures.items()}
        self.procedures: dict[str, Text] = {proc_paths[key]: text for key, text in self.texts.items()
                                            if key in proc_paths}
        self.flow_texts = {key for key in self.texts if key not in proc_paths and _in_flow(raw, key)}
        outside = [text for key, text in self.texts.items() if key not in proc_paths and key not in self.flow_texts]
        self.outside = outside
        # a zone that a text outside the flow's order (or a procedure it calls) conceals may be concealed
        # between any two statements
        self.unstable = {z for _, t in self._reached(outside) for z in self._concealed(t)}
        self.ever_revealed = {z for _, t in self.texts.values() for z in _revealed(t)} | set(_flow_reveals(raw))
        self.exposed: list[tuple[Where, str]] = []
        self.called: set[str] = set()
        self.visited: set[tuple[str, tuple]] = set()
        self._done: dict[tuple[str, Shown], Shown] = {}
        self._stack: list[str] = []
        self._recursive: set[str] = set()
        self._blocks: dict[tuple[int, int, Shown], Shown] = {}

    def run(self) -> None:
        if self.raw.flow is not None:
            self.steps(self.raw.flow.src.display, self.raw.flow.path, self.raw.flow.data, _NOTHING)
        # the flow's texts a step kind this walk does not know holds, then the rules outside the flow's order
        for key in self.flow_texts - self.visited:
            self.text(self.texts[key], _NOTHING)
        for text in self.outside:
            self.text(text, _NOTHING)
        for name, text in self.procedures.items():
            if name not in self.called:
                self.text(text, _NOTHING)

    def _reached(self, texts: list[Text]) -> list[Text]:
        return reached(texts, self.procedures)

    def _concealed(self, tree: Tree) -> Iterator[str]:
        for t in tree.iter_subtrees():
            if t.data == "conceal":
                zone, _ = _zone_of(t.children[0])
                yield from self.zones if zone is None else (zone,)

    # ---------------------------------------------------------------- the flow
    def steps(self, file: str, path: tuple, data: Any, shown: Shown) -> Shown:
        for i, step in enumerate(data if isinstance(data, list) else []):
            if isinstance(step, Mapping):
                shown = self.step(file, (*path, i), step, shown)
        return shown

    def text_at(self, file: str, path: tuple, shown: Shown) -> Shown:
        text = self.texts.get((file, path))
        if text is None:
            return shown
        self.visited.add((file, path))
        return self.text(text, shown)

    def step(self, file: str, path: tuple, step: Mapping, shown: Shown) -> Shown:
        if "do" in step:
            after = self.text_at(file, (*path, "do"), shown)
            return Shown(after.all, after.mine, frozenset(), after.foreign)   # the text's own names end here
        if "if" in step:
            shown = self.text_at(file, (*path, "if"), shown)
            then = self.steps(file, (*path, "then"), step.get("then"), shown)
            return then & self.steps(file, (*path, "else"), step.get("else"), shown)
        for key in ("each_player", "simultaneous"):
            if key in step:
                def body(s: Shown, key: str = key) -> Shown:
                    s = self.text_at(file, (*path, "order"), Shown(s.all))
                    return self.steps(file, (*path, key), step.get(key), s)
                shown = self.per_seat(body, shown)
                extra = [str(z) for z in step.get("reveal") or [] if str(z) not in self.unstable]
                return Shown(shown.all | frozenset(extra))
        if "repeat" in step or "for" in step:
            shown = self.text_at(file, (*path, "for", "in"), self.text_at(file, (*path, "repeat", "count"), shown))
            until = (*path, "repeat", "until")
            return self.loop(lambda s: self.text_at(file, until, self.steps(file, (*path, "steps"),
                                                                            step.get("steps"), s)), shown)
        return shown

    def per_seat(self, body: Any, shown: Shown) -> Shown:
        """A body run once per seat (at least one): what each seat revealed of its own, and no seat concealed
        through another player, is revealed for every seat once all have run it."""
        start = Shown(shown.all)
        while True:
            after = body(start)
            nxt = Shown(start.all & after.all)
            if nxt == start:
                return Shown(after.all | (after.mine - after.foreign))
            start = nxt

    @staticmethod
    def loop(body: Any, shown: Shown) -> Shown:
        """A body that may run any number of times, none included: walk it from what holds before every
        pass (a fixpoint: the sets only shrink), and keep what holds whether it ran or not."""
        start = shown
        while True:
            nxt = start & body(start)
            if nxt == start:
                return start
            start = nxt

    # ---------------------------------------------------------------- DSL texts
    def text(self, text: Text, shown: Shown) -> Shown:
        root = text[1]
        if root.data == "effect":
            return self.effect(text, root, shown)
        self.check(text, root, shown)        # an expression or a cost
        return shown

    def effect(self, text: Text, tree: Tree, shown: Shown) -> Shown:
        if tree.data not in ("effect", "block", "branch"):
            return self.stmt(text, tree, shown)
        # a block met again with the same state ends the same way (its reads are noted already): nested
        # loops walk each block once per state, not once per pass of every loop around it
        return threaded_block(self._blocks, (id(text[0]), id(tree), shown), tree, shown,
                              lambda child, state: self.effect(text, child, state))

    def stmt(self, text: Text, t: Tree, shown: Shown) -> Shown:
        kind = str(t.data)
        blocks = [c for c in t.children if isinstance(c, Tree) and c.data in _BLOCKS]
        for i, child in enumerate(t.children):
            if isinstance(child, Tree) and not any(child is b for b in blocks) and (kind, i) not in _NOT_READ:
                self.check(text, child, shown)
        if kind == "reveal":
            return self.reveal(t.children[0], shown)
        if kind == "conceal":
            return self.conceal(t.children[0], shown)
        if kind == "call":
            out = self.call(str(t.children[0]), shown)     # the procedure's own names end with it
            return Shown(out.all, out.mine, shown.pairs & out.pairs, out.foreign)
        if kind == "as_stmt":      # another seat acts: what it reveals of its own is not the acting seat's
            concealed = set(self._concealed(blocks[0]))
            inner = self.effect(text, blocks[0], Shown(shown.all, frozenset(), shown.pairs, shown.foreign))
            return Shown(inner.all, shown.mine - concealed, inner.pairs, inner.foreign | concealed)
        if kind == "if_stmt":
            then = self.effect(text, blocks[0], shown)
            return then & (self.effect(text, blocks[1], shown) if len(blocks) > 1 else shown)
        if kind in _BINDERS:
            bound = {str(name) for name, _ in choice_binders(t)}
            pairs = frozenset(p for p in shown.pairs if not bound & set(_names(p[0])))
            inside = Shown(shown.all, shown.mine, pairs, shown.foreign)
            return shown & self.loop(lambda s: self.effect(text, blocks[0], s), inside)
        alts = [c for b in blocks if b.data == "alternatives" for c in b.children if isinstance(c, Tree)]
        if alts:                 # `choose { A | B }` runs one; `repeat choose { A | B }` any number
            def one(s: Shown) -> Shown:
                return _meet([self.effect(text, alt, s) for alt in alts])
            return one(shown) if kind == "choose_alt" else self.loop(one, shown)
        for block in blocks:     # `may`, `repeat N`, and any block a new statement has: maybe, maybe again
            # (a `branch` is a block that may carry a label)
            shown = self.loop(lambda s, b=block: self.effect(text, b, s), shown)
        return shown

    def check(self, text: Text, expr: Tree, shown: Shown) -> None:
        dsl = text[0]
        for node in expr.iter_subtrees():
            if node.data != "attr":
                continue
            base, name_tok = node.children
            name = str(name_tok)
            if name not in self.hidden or name in shown.all or (_shape(base), name) in shown.pairs:
                continue
            where = dsl.place(name_tok)
            if (where, name) in self.reads:
                self.exposed.append((where, name))

    def reveal(self, target: Any, shown: Shown) -> Shown:
        zone, base = _zone_of(target)
        if zone is None or zone in self.unstable:
            return shown
        if base is None:
            return Shown(shown.all, shown.mine | {zone}, shown.pairs, shown.foreign)
        return Shown(shown.all, shown.mine, shown.pairs | {(_shape(base), zone)}, shown.foreign)

    @staticmethod
    def conceal(target: Any, shown: Shown) -> Shown:
        zone, base = _zone_of(target)
        if zone is None:         # a zone only known at run time: it may be any
            return Shown(foreign=shown.foreign)
        foreign = shown.foreign | ({zone} if base is not None else set())
        return Shown(shown.all - {zone}, shown.mine - {zone}, frozenset(p for p in shown.pairs if p[1] != zone),
                     foreign)

    def call(self, name: str, shown: Shown) -> Shown:
        text = self.procedures.get(name)
        if text is None:
            return shown
        self.called.add(name)
        key = (name, shown)
        if key in self._done:
            return self._done[key]
        if name in self._stack:  # recursion: its reads are checked from nothing once; nothing is sure after it
            if name not in self._recursive:
                self._recursive.add(name)
                self.call_walk(name, text, _NOTHING)
            return Shown(foreign=shown.foreign)
        out = self.call_walk(name, text, shown)
        self._done[key] = out
        return out

    def call_walk(self, name: str, text: Text, shown: Shown) -> Shown:
        self._stack.append(name)
        try:
            return self.text(text, shown)
        finally:
            self._stack.pop()


def _meet(states: list[Shown]) -> Shown:
    out = states[0]
    for s in states[1:]:
        out = out & s
    return out


def _zone_of(target: Any) -> tuple[str | None, Tree | None]:
    """(zone, the player expression before it) for `Z`/`me.Z` (player None) or `q.Z`; (None, None) otherwise."""
    if isinstance(target, Tree) and target.data == "name":
        return str(target.children[0]), None
    if isinstance(target, Tree) and target.data == "attr":
        base, name = target.children
        me = isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "me"
        return str(name), None if me else base
    return None, None


def _shape(node: Any) -> Any:
    """A hashable form of an expression, positions left out: `p.hand` here is the same player as there."""
    if isinstance(node, Tree):
        return (str(node.data), *(_shape(c) for c in node.children))
    return str(node) if node is not None else None


def _names(shape: Any) -> Iterator[str]:
    if isinstance(shape, tuple):
        for part in shape[1:]:
            yield from _names(part)
    elif isinstance(shape, str):
        yield shape


def _revealed(tree: Tree) -> Iterator[str]:
    for t in tree.iter_subtrees():
        if t.data == "reveal":
            zone, _ = _zone_of(t.children[0])
            if zone is not None:
                yield zone


def _flow_reveals(raw: RawPack) -> Iterator[str]:
    stack: list[Any] = [raw.flow.data] if raw.flow is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if isinstance(node.get("reveal"), list):
                yield from (str(z) for z in node["reveal"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _in_flow(raw: RawPack, key: tuple[str, tuple]) -> bool:
    flow = raw.flow
    return flow is not None and key[0] == flow.src.display and key[1][:len(flow.path)] == flow.path


def threaded_block(memo: dict[Any, Any], key: Any, tree: Tree, state: Any, step: Any) -> Any:
    """Walk a block's statements in order, each taking the state the one before left (`step(child,
    state)`), and remember where it ends under `key`: a block met again in the same state ends the same
    way, so nested loops walk each block once per state, not once per pass of every loop around it."""
    done = memo.get(key)
    if done is None:
        done = state
        for child in tree.children:
            if isinstance(child, Tree):
                done = step(child, done)
        memo[key] = done
    return done


def reached(texts: Iterable[Text], procedures: Mapping[str, Text]) -> list[Text]:
    """`texts` and the procedures they call, directly or not."""
    found, todo, names = list(texts), list(texts), set()
    while todo:
        for t in todo.pop()[1].iter_subtrees():
            name = str(t.children[0]) if t.data == "call" else None
            if name is not None and name not in names and name in procedures:
                names.add(name)
                found.append(procedures[name])
                todo.append(procedures[name])
    return found
