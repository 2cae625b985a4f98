"""Semantic checks: a pack that loads and compiles, yet cannot do what its designer meant.

Each check reads the compiled `Pack` (its `usage` cross-reference says what is
used, emitted, produced and paid where) and the `RawPack` (where each
definition is written), and reports stable codes:

- EVENT001 a trigger listens to an event nothing emits;
- COST001  a cost names a counter nothing can produce;
- UNUSED001 a definition nothing uses;
- HIDDEN001 a rule reads another seat's hidden zone before it is revealed (engine/lint/hidden.py);
- HIDDEN002 / HIDDEN003 a `simultaneous` step shows one seat's plan to the seats after it: a write others
  see, a count of a zone whose size is secret then (engine/lint/simultaneous.py);
- TEXT001  a component's printed `text` disagrees with its rules;
- DECK001 / RUN001 / RUN002 from a few seeded random games at every player count:
  a draw that finds its zone empty, a rule that fails while playing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from lark import Tree

from engine.diagnostics import Diagnostic, did_you_mean
from engine.dsl.english import and_list, plural
from engine.dsl.parse import DslText
from engine.dsl.render import Renderer, threshold_unit
from engine.dsl.sites import Site
from engine.dsl.walk import RuleNodes
from engine.errors import RuleError
from engine.lint.hidden import hidden_reads
from engine.lint.simultaneous import simultaneous_leaks
from engine.packs.raw import Entry, RawPack
from engine.packs.source import DataPath, SourceFile
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.defs import CounterDef, Pack, WildcardDef
from engine.runtime.events import Event, EventKind
from engine.runtime.interpreter import BUILTIN_EVENTS, Interpreter
from engine.runtime.limits import LimitError
from engine.runtime.state import Zone
from engine.usage import Place, Where, position_of

ENGINE_COUNTERS = ("first_player",)     # read by the engine itself: the seat that goes first
MAX_PLAYTEST_DECISIONS = 20_000         # a random game longer than this is cut short, not reported


def semantic_checks(raw: RawPack, pack: Pack, sites: list[tuple[Site, DslText, Tree]], games: int) -> list[Diagnostic]:
    """Every semantic finding of a pack that compiled; `sites` are all its DSL texts with their parse trees."""
    trees = list({id(tree): tree for _, _, tree in sites}.values())    # texts repeat; their trees are shared
    nodes = RuleNodes()     # each tree walked once for the rules every check looks for
    return [*unheard_events(pack), *unproducible_costs(pack, trees, nodes),
            *unused_definitions(raw, pack, trees, nodes), *hidden_reads(raw, pack, sites),
            *simultaneous_leaks(raw, pack, sites),
            *text_mismatches(raw, pack, trees, sites, nodes), *playtest(raw, pack, games)]


def _at(code: str, message: str, place: Place, hint: str | None = None, severity: str = "warning") -> Diagnostic:
    file, line, col = position_of(place)
    return Diagnostic(code, message, file, line, col, severity=severity, hint=hint)


def _key(entry: Entry) -> Where:
    line, col = entry.src.key_pos(entry.path)
    return entry.src.display, line, col


# ---------------------------------------------------------------- EVENT001


def unheard_events(pack: Pack) -> Iterator[Diagnostic]:
    """Triggers on an event that is neither built in nor emitted by any `emit`: they never fire."""
    heard = [*BUILTIN_EVENTS, *pack.usage.emitted]
    for name, places in pack.usage.listened.items():
        if name in heard:
            continue
        hint = did_you_mean(name, heard) or f"emit it with `emit {name}()`, or listen to one of: {', '.join(heard)}"
        for where in places:
            yield _at("EVENT001", f"nothing emits '{name}': this trigger never fires", where, hint)


# ---------------------------------------------------------------- COST001


def unproducible_costs(pack: Pack, trees: list[Tree], nodes: RuleNodes) -> Iterator[Diagnostic]:
    """Costs naming a counter (or a wildcard of counters) that no rule can ever give a player."""
    produced = _produced(pack, trees, nodes)

    def payable(name: str) -> bool:
        wildcard = pack.wildcards.get(name)
        if wildcard is not None:
            return any(payable(member) for member in wildcard.pay if member in pack.counters)
        return name in produced or any(name in pack.counters[c].substitutes for c in produced)

    for name, places in pack.usage.paid.items():
        if (name in pack.counters or name in pack.wildcards) and not payable(name):
            wildcard = pack.wildcards.get(name)
            members = ", ".join(wildcard.pay) if wildcard else ""
            what = f"any counter that wildcard '{name}' is paid with ({members})" if wildcard else f"'{name}'"
            needed = f"one of {members}" if wildcard else f"'{name}'"
            for where in places:
                yield _at("COST001", f"nothing can produce {what}, so this cost can never be paid", where,
                          f"gain or set {needed} in some rule, give it an `initial` value, "
                          "or let a counter that can be produced substitute it")


def _produced(pack: Pack, trees: list[Tree], nodes: RuleNodes) -> set[str]:
    """Counters a player can ever have more than 0 of."""
    gained = set(pack.usage.produced)
    for wid in [w for w in gained if w in pack.wildcards]:
        gained.update(pack.wildcards[wid].gain)
    holding = _zones_with_items(pack, trees, nodes)
    out = {c for c in gained if c in pack.counters and pack.counters[c].zone is None}
    out |= {c.id for c in pack.counters.values() if c.initial > 0}
    for c in pack.counters.values():
        zone = pack.zones.get(c.zone or "")
        if zone is not None and (zone.id in holding or (c.id in gained and zone.draw_from in holding)):
            out.add(c.id)
        if c.items is not None and c.items.zone in holding:  # items in play pay for it
            out.add(c.id)
    return out


def _zones_with_items(pack: Pack, trees: list[Tree], nodes: RuleNodes) -> set[str]:
    """Zones that start with items or that some rule moves, draws or plays items into (all, if unsure)."""
    holding = {t.zone for t in pack.types.values() if t.zone is not None and _has_components(pack, t.id)}
    for stmt in nodes.each(trees, *_DESTINATION):
        target = stmt.children[_DESTINATION[stmt.data]]
        if not (isinstance(target, Tree) and target.data == "name"):
            return set(pack.zones)
        holding.add(str(target.children[0]))
    holding |= {z.id for z in pack.zones.values() if z.refill_from in holding}
    return holding


_DESTINATION = {"move": 1, "play": 1, "draw": 2}     # which child of the statement is where items go


def _has_components(pack: Pack, type_id: str) -> bool:
    return any(c.ctype.id == type_id and c.copies > 0 for c in pack.components.values())


# ---------------------------------------------------------------- UNUSED001

_UNUSED_KINDS = (("counters", "counter"), ("wildcards", "wildcard"), ("dice", "die"), ("zones", "zone"),
                 ("procedures", "procedure"), ("component_types", "component type"))


def unused_definitions(raw: RawPack, pack: Pack, trees: list[Tree], nodes: RuleNodes) -> Iterator[Diagnostic]:
    """Counters, wildcards, dice, zones, procedures and component types that nothing refers to."""
    usage = pack.usage
    used = {*usage.refs, *usage.produced, *usage.paid, *ENGINE_COUNTERS, *_definition_refs(raw),
            *(c.ctype.id for c in pack.components.values()),      # derived components (board edges) too
            *(str(t.children[1]) for t in nodes.each(trees, "lose"))}
    for section, kind in _UNUSED_KINDS:
        for name, entry in getattr(raw, section).items():
            if name not in used:
                yield _at("UNUSED001", f"{kind} '{name}' is never used", _key(entry),
                          "remove it, or refer to it from a rule")


def _definition_refs(raw: RawPack) -> Iterator[str]:
    """Names used outside DSL texts that the compiler does not record: flow counters and
    revealed zones, component types named as attribute types."""
    for entry in raw.component_types.values():
        attrs = entry.data.get("attrs") if isinstance(entry.data, Mapping) else None
        yield from (str(spec.get("type")) for spec in (attrs or {}).values() if isinstance(spec, Mapping))
    if raw.flow is not None:
        yield from _flow_refs(raw.flow.data)


def _flow_refs(steps: Any) -> Iterator[str]:
    for step in steps if isinstance(steps, list) else ():
        if not isinstance(step, Mapping):
            continue
        repeat = step.get("repeat")
        if isinstance(repeat, Mapping) and repeat.get("counter") is not None:
            yield str(repeat["counter"])
        yield from (str(z) for z in step.get("reveal") or ())
        for key in ("each_player", "simultaneous", "then", "else", "steps"):
            yield from _flow_refs(step.get(key))


# ---------------------------------------------------------------- TEXT001


@dataclass
class _Amounts:
    """What a component's rules say about amounts: literal amounts per counter, counters with
    computed amounts, and numbers its other attributes hold (a price kept in an attribute)."""

    fixed: dict[str, set[int]]
    variable: set[str]
    loose: set[int]


_Noted = tuple[str, int | None]         # a counter a rule names, and the amount (None: computed)
_PLAIN_ATTRS = ("int", "str", "list")
_AMOUNT_NODES = frozenset({"gain", "lose", "cost_term", "set"})


def text_mismatches(raw: RawPack, pack: Pack, trees: list[Tree], sites: list[tuple[Site, DslText, Tree]],
                    nodes: RuleNodes) -> Iterator[Diagnostic]:
    """Printed `text` naming amounts of a counter that the component's rules do not.

    Conservative: only "N NAME" pairs are compared; a counter whose rules amount is computed
    is skipped; a number one of the component's attributes holds may be printed; components
    without costs, actions or triggers are left alone; text that never names a counter is
    not a disagreement (it may use other words for it).
    """
    unit = threshold_unit(trees, pack, nodes)
    renderer = Renderer(pack, unit)
    names = _counter_names(pack)
    by_word = _words_of(names)
    rule_trees = _rule_trees(raw, sites)
    noted: dict[int, list[_Noted]] = {}
    for entry in raw.components.values():
        text = entry.data.get("text") if isinstance(entry.data, Mapping) else None
        rules = _rules_amounts(pack, entry, rule_trees.get((entry.src, entry.path)), unit, noted, nodes)
        if not isinstance(text, str) or rules is None:
            continue
        for offset, message in _disagreements(pack, rules, text, names, by_word):
            line, col = entry.src.dsl_pos((*entry.path, "text"), offset)
            yield _at("TEXT001", message, (entry.src.display, line, col),
                      "the rules read: " + " ".join(part.strip() for part in renderer.component(entry)))


def _rule_trees(raw: RawPack, sites: list[tuple[Site, DslText, Tree]]) -> dict[tuple[SourceFile, DataPath], list[Tree]]:
    """The parse trees of each component's costs, actions, triggers, anytime actions and modifiers (not its
    expressions, nor its DSL attributes), by the component's file and path: from the sites already parsed
    (the semantic checks run on packs that compiled, so every text parsed)."""
    lengths = {len(e.path) for e in raw.components.values()}
    out: dict[tuple[SourceFile, DataPath], list[Tree]] = {}
    for site, _, tree in sites:
        if site.start == "expr":
            continue
        for n in lengths:
            if len(site.path) > n + 1:      # a DSL attribute's own value sits at n + 1
                out.setdefault((site.src, site.path[:n]), []).append(tree)
    return out


def _rules_amounts(pack: Pack, entry: Entry, trees: list[Tree] | None, unit: str | None,
                   noted: dict[int, list[_Noted]], nodes: RuleNodes) -> _Amounts | None:
    """Amounts in the component's costs, actions and triggers (`trees`); None when it has none of them.

    `noted` keeps what each parse tree says, as many components share texts (and so trees)."""
    if not trees:
        return None
    amounts = _Amounts({}, set(), set())
    for tree in trees:
        found = noted.get(id(tree))
        if found is None:
            found = noted[id(tree)] = [n for node in nodes.each([tree], *_AMOUNT_NODES) if (n := _note(pack, node))]
        for name, amount in found:
            if amount is None:
                amounts.variable.add(name)
            else:
                amounts.fixed.setdefault(name, set()).add(amount)
    _declared_amounts(pack, entry, unit, amounts)
    return amounts


def _declared_amounts(pack: Pack, entry: Entry, unit: str | None, amounts: _Amounts) -> None:
    """Amounts written outside DSL: action thresholds (in `unit`) and numeric attributes."""
    data = entry.data
    for rule in _seq(data.get("actions")):
        if unit is not None and isinstance(rule, Mapping) and isinstance(rule.get("threshold"), int):
            amounts.fixed.setdefault(unit, set()).add(rule["threshold"])
    ctype = pack.types.get(entry.ctype or "")
    for name, attr in (ctype.attrs.items() if ctype else ()):
        value = data.get(name)
        if name in pack.counters and isinstance(value, int) and not isinstance(value, bool):
            amounts.fixed.setdefault(name, set()).add(value)     # an attribute named like a counter
        elif attr.type in _PLAIN_ATTRS:
            amounts.loose |= set(_numbers(value))


def _note(pack: Pack, node: Tree) -> _Noted | None:
    """The counter of a gain, lose, cost term or `set COUNTER = N`, and its amount (None: computed)."""
    if node.data not in _AMOUNT_NODES:
        return None
    amount, target = node.children[::-1] if node.data == "set" else node.children
    name = str(target.children[0]) if isinstance(target, Tree) and target.data == "name" else str(target)
    if name not in pack.counters and name not in pack.wildcards:
        return None
    return name, int(str(amount.children[0])) if isinstance(amount, Tree) and amount.data == "number" else None


def _numbers(value: Any) -> Iterator[int]:
    """Every whole number in an attribute value: numbers, and digits inside text and lists."""
    if isinstance(value, int) and not isinstance(value, bool):
        yield value
    elif isinstance(value, str):
        yield from (int(n) for n in _PRINTED_NUMBER.findall(value))
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


@dataclass(frozen=True)
class _Named:
    """How printed text names one counter or wildcard after an amount."""

    pattern: re.Pattern[str]
    words: frozenset[str] | None    # each form's first word, when comparing words is exact (ASCII, no digits)


# a printed number the rules could hold: longer ones (past the engine's value limit) are not amounts
_DIGITS = r"\d{1,18}(?!\d)"
_PRINTED_NUMBER = re.compile(rf"(?<!\d){_DIGITS}")
# where a match of a counter's pattern that needs an amount can start (its `(?<![\w.])` and amount), and the
# word after the amount
_AMOUNT_BEFORE_WORD = re.compile(rf"(?<![\w.]){_DIGITS}(?=\s+(\w+))")


def _counter_names(pack: Pack) -> dict[str, _Named]:
    """For each counter and wildcard, the ways text may name it (name, id, plurals) after an amount.

    Only amounts count, so the amount is required (twice as fast), unless a form holds a digit
    (a match of the bare name could then cover a later amount).
    """
    out = {}
    named: list[tuple[str, CounterDef | WildcardDef]] = [*pack.counters.items(), *pack.wildcards.items()]
    for ident, d in named:
        forms = {f.lower() for base in (str(d.name), ident.replace("_", " "))
                 for f in (base, plural(base, "2"), plural(base, "1"))}
        alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        digits = any(c.isdigit() for f in forms for c in f)
        amount = rf"(?:({_DIGITS})\s+)?" if digits else rf"({_DIGITS})\s+"
        firsts = [re.match(r"\w+", f) if f.isascii() else None for f in forms]
        words = None if digits or None in firsts else frozenset(m[0] for m in firsts if m)
        out[ident] = _Named(re.compile(rf"(?<![\w.]){amount}(?:{alternatives})\b", re.IGNORECASE), words)
    return out


def _disagreements(pack: Pack, rules: _Amounts, text: str, names: dict[str, _Named],
                   by_word: dict[str, list[str]]) -> Iterator[tuple[int, str]]:
    """(offset in `text`, message) for each counter the text gives amounts of that the rules do not.

    `by_word`: the counters whose forms all start with a word (`_Named.words`), by those words. Such a
    counter can only match where an amount stands before one of its words, so it is tried there alone.
    """
    starts_of = _amount_starts(text, by_word) if text.isascii() else None
    for ident, named in names.items():
        if ident in rules.variable:
            continue        # computed by the rules
        if starts_of is not None and named.words is not None:
            printed = _printed_at(named, text, starts_of.get(ident, ()))
        else:
            printed = {int(m[1]): m.start() for m in reversed(list(named.pattern.finditer(text))) if m[1]}
        if not printed:
            continue        # the text gives no amount of it: nothing to disagree with
        wanted = rules.fixed.get(ident, set())
        extra, lacking = printed.keys() - wanted - rules.loose, wanted - printed.keys()
        if not extra and not lacking:
            continue
        name = pack.counters[ident].name if ident in pack.counters else pack.wildcards[ident].name
        if extra:
            rules_say = f"only use {_count(wanted, name)}" if wanted else f"never use {plural(name, '2')}"
            yield printed[min(extra)], f"the printed text says {_count(extra, name)} but the rules {rules_say}"
        elif printed and lacking:
            yield min(printed.values()), (f"the rules use {_count(lacking, name)} but the printed text only "
                                          f"says {_count(set(printed), name)}")


def _words_of(names: dict[str, _Named]) -> dict[str, list[str]]:
    """The counters whose forms all start with a word, by each of those words."""
    out: dict[str, list[str]] = {}
    for ident, named in names.items():
        for word in named.words or ():
            out.setdefault(word, []).append(ident)
    return out


def _amount_starts(text: str, by_word: dict[str, list[str]]) -> dict[str, list[int]]:
    """Where an amount stands before one of a counter's words, for each such counter (in order)."""
    out: dict[str, list[int]] = {}
    for m in _AMOUNT_BEFORE_WORD.finditer(text):
        for ident in by_word.get(m[1].lower(), ()):
            out.setdefault(ident, []).append(m.start())
    return out


def _printed_at(named: _Named, text: str, starts: Iterable[int]) -> dict[int, int]:
    """Each amount `text` gives of one counter, and where it is first given, trying its pattern only at
    `starts`. A match of a form that starts with a word holds one run of digits, at its start: such
    matches cannot overlap, so this finds exactly what a search of the whole text finds."""
    printed: dict[int, int] = {}
    for start in starts:
        m = named.pattern.match(text, start)
        if m is not None:
            printed.setdefault(int(m[1]), start)
    return printed


def _count(values: Iterable[int], name: str) -> str:
    """"2 Coins", "1 and 3 Coins"."""
    shown = [str(v) for v in sorted(values)]
    return f"{and_list(shown)} {plural(name, shown[-1] if len(shown) == 1 else '2')}"


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# ---------------------------------------------------------------- DECK001 and RUN001


@dataclass(frozen=True)
class _Short:
    """A draw that asked for more items than its zone (and the zone refilling it) held."""

    zone: str
    wanted: int
    had: int
    step: str


class _DrawWatch:
    """Notes every draw its zone (and the zone refilling it) cannot satisfy; the engine then just draws fewer."""

    event_kinds = frozenset((EventKind.DRAWN,))   # all it reads: the game makes no other event

    def __init__(self, game: Interpreter) -> None:
        self.game = game
        self.short: list[_Short] = []

    def __call__(self, event: Event) -> None:
        if event.kind is not EventKind.DRAWN:
            return
        zid, owner = event.data["from"]
        src, amount = self.game.state.zone(zid, owner), event.data["amount"]
        had = len(src.items) + self._refill_size(src)
        if amount > had:
            self.short.append(_Short(src.id, amount, had, self.game.state.step))

    def _refill_size(self, zone: Zone) -> int:
        if zone.zdef.refill_from is None:
            return 0
        try:
            return len(self.game.state.zone(zone.zdef.refill_from, zone.owner).items)
        except KeyError:
            return 0


def _random_game(pack: Pack, players: int, seed: int) -> tuple[list[_Short], RuleError | None]:
    """Play one game with seeded random bots; the short draws and the rule error that stopped it, if any."""
    game = Interpreter(pack, players, seed)
    watch = _DrawWatch(game)
    game.watch(watch)
    if pack.flow is None:
        return watch.short, None
    try:
        Match(pack, players, seed, game=game).run([RandomAgent(seed, seat) for seat in range(players)],
                                                    stop_after=MAX_PLAYTEST_DECISIONS)
    except RuleError as exc:
        return watch.short, exc
    return watch.short, None


def playtest(raw: RawPack, pack: Pack, games: int) -> Iterator[Diagnostic]:
    """`games` random games at every player count: zones that run dry, rules that fail."""
    short: dict[str, dict[int, tuple[_Short, int]]] = {}
    errors: dict[str, Diagnostic] = {}
    for players, seed in product(range(pack.min_players, pack.max_players + 1), range(1, games + 1)):
        shorts, error = _random_game(pack, players, seed)
        for s in shorts:
            short.setdefault(s.zone, {}).setdefault(players, (s, seed))
        if error is not None:
            diag = _run_error(raw, error, players, seed)
            errors.setdefault(f"{diag.file}:{diag.line}:{diag.col}", diag)
            if isinstance(error, LimitError):  # a runaway rule: more games would only run away again
                break
    for zone, by_players in short.items():
        yield _dry_zone(raw, zone, by_players)
    yield from errors.values()


def _dry_zone(raw: RawPack, zone: str, by_players: dict[int, tuple[_Short, int]]) -> Diagnostic:
    counts = sorted(by_players)
    first, seed = by_players[counts[0]]
    items = f"{first.had} item{'s' if first.had != 1 else ''}"
    message = (f"zone '{zone}' runs out with {and_list([str(n) for n in counts])} player"
               f"{'s' if counts != [1] else ''}: at {counts[0]} (seed {seed}) step '{first.step}' draws "
               f"{first.wanted} and finds {items}, with nothing to refill it")
    return _at("DECK001", message, _key(raw.zones[zone]),
               "add items to it or to its `refill_from` zone, or draw fewer at these player counts")


def _run_error(raw: RawPack, error: RuleError, players: int, seed: int) -> Diagnostic:
    """RUN001 (RUN002 past an engine limit) where the failing DSL text is (the manifest when unknown)."""
    where: Where = (raw.manifest_src.display, 1, 1)
    located = re.fullmatch(r"(.+):(\d+):(\d+)", error.where or "")
    if located:
        where = (located[1], int(located[2]), int(located[3]))
    who = f"{players} player{'s' if players != 1 else ''}"
    return _at(error.code, f"{error.message} (a random game with {who}, seed {seed})", where,
               f"watch it happen: cogwork play {raw.root} --players {players} --seed {seed}", severity="error")
