"""The static types of DSL values, and what a place in a rule needs: the vocabulary of the type pass.

A value is a number, true or false, text, an item, a zone, a player, a list or
an action; `any` is what the pass cannot tell, and it fits everywhere. The pass
itself is `engine/dsl/typecheck.py`; each built-in function's type rule is in
`engine/dsl/functions.py`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class T:
    """A static type: `kind` is int, bool, str, item, zone, player, list, action or any."""

    kind: str
    ctype: str | None = None     # items: their component type, when known
    elem: T | None = None        # lists: the type of their elements, when known


INT, BOOL, STR, ZONE, PLAYER, ACTION, ANY = (T(k) for k in ("int", "bool", "str", "zone", "player", "action", "any"))
ITEM, LIST, EFFECT, COST, COUNTER = T("item"), T("list"), T("effect"), T("cost"), T("counter")
NOUNS = {"int": "a number", "bool": "true or false", "str": "text", "item": "an item", "zone": "a zone",
         "player": "a player", "list": "a list", "action": "an action", "effect": "an effect attribute",
         "cost": "a cost attribute", "counter": "a counter attribute"}


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
CONTAINERS = Expect("TYPE012", "a container or several (an item, a zone or a list)",
                    frozenset({"item", "zone", "list"}))
DOABLE = Expect("TYPE012", "an item or an effect attribute", frozenset({"item", "effect"}))
A_COST = Expect("TYPE016", "a cost attribute", frozenset({"cost"}))
A_COUNTER = Expect("TYPE017", "a counter attribute", frozenset({"counter"}))
COLLECTION = Expect("TYPE013", "a collection (a zone or a list)", frozenset({"zone", "list"}))
CONTAINER = Expect("TYPE013", "a collection (a zone or a list)", frozenset({"zone", "list", "str"}))
A_LIST = Expect("TYPE013", "a list", frozenset({"list"}))
A_PLAYER = Expect("TYPE014", "a player", frozenset({"player"}))
TEXT = Expect("TYPE018", "text", frozenset({"str"}))
SHOWN = Expect("TYPE019", "a value to show (a number, text, true or false, an item, a player, a zone or a list)",
               frozenset({"int", "bool", "str", "item", "player", "zone", "list", "action", "counter"}))
HAS_ATTRS = Expect("TYPE015", "an item or a player", frozenset({"item", "player", "action"}))
