"""A point where a player must choose: the interpreter pauses here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import MoveError
from engine.runtime.dsl_values import option_labels, show
from engine.runtime.state import Item


class DecisionKind(StrEnum):
    """What a decision asks for (the generated code names these by value)."""

    CHOOSE = "choose"    # one of several items or values
    NUMBER = "number"    # a number from a range
    MAY = "may"          # yes or no to an optional effect or trigger
    ACTION = "action"    # which of an item's actions to perform
    COST = "cost"        # which alternative cost to pay
    PAY = "pay"          # which counters pay a cost (substitutes, wildcards)
    GAIN = "gain"        # what a wildcard gain becomes
    REROLL = "reroll"    # which die of a dice pool to throw again (by the face it shows), or done


KINDS = {kind.value: kind for kind in DecisionKind}
# kinds whose answer every seat is told anyway: a dice pool lies on the table; a wildcard gain's counter and the
# counters a payment spends are told to every seat (`gained`, `paid` events) and shown in every view
_TOLD = frozenset((DecisionKind.REROLL, DecisionKind.GAIN, DecisionKind.PAY))
DONE = "done"   # the option that ends a repeated choice (`repeat choose`, `optional`, `reroll`)
YES = "yes: "   # an unlabelled `may`'s yes option is "yes: <its DSL>"
Prompt = str | tuple[Any, ...]   # a prompt's text, or (PIECES, v1, v2, ...) joined when read (`joined_prompt`)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer: its position in `Decision.options` and its stable label (JSON-safe)."""

    index: int
    label: str


class Decision:
    """A pending choice with its enumerated legal options.

    Labels are stable and readable (what scripts, logs and humans use); `payloads` carries what each
    option means to the interpreter (live items, actions: not for callers). `rules` holds, for an option
    that runs a block of the rules (a `choose { ... }` alternative, a `may`'s yes), that block's DSL text,
    else "": tables render it as English, and it is the option's label when the designer wrote none, so a
    log written before a label was added still names the option.

    Labels given as None are made from the payloads when first read (`derived_labels`): a bot that answers
    by index never pays for them. The interpreter passes None only where they depend on nothing that
    changes (numbers, items of different components: names and ids), so reading them later, from the log
    once the game has moved on, gives the labels the decision had.
    """

    __slots__ = ("_labels", "_prompt", "kind", "open_source", "payloads", "rules", "seat", "size", "step")

    def __init__(self, seat: int, kind: DecisionKind, prompt: Prompt, labels: list[str] | None,
                 payloads: list[Any] | None = None, step: str = "", rules: list[str] | tuple[str, ...] = (),
                 open_source: bool = True) -> None:
        self.seat = seat
        self.kind = kind
        self._prompt = prompt
        self._labels = labels
        self.payloads: list[Any] = payloads if payloads is not None else []
        self.size = len(labels) if labels is not None else len(self.payloads)   # how many options there are
        self.step = step
        self.rules = rules
        self.open_source = open_source    # the rules asking are public (not an item some seat cannot see)

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat}, kind={self.kind.value}, prompt={self.prompt!r}, labels={self.labels!r})"

    @property
    def prompt(self) -> str:
        """What the player is asked. A prompt with `{EXPR}` fields comes as `(PIECES, v1, v2, ...)`, its
        values worked out at the `ask` (engine/compile/prompts.py), and is joined here at the first read."""
        prompt = self._prompt
        if prompt.__class__ is not str:
            prompt = self._prompt = joined_prompt(prompt)
        return prompt

    @property
    def labels(self) -> list[str]:
        labels = self._labels
        if labels is None:
            labels = self._labels = derived_labels(self.payloads)
        return labels

    def label(self, index: int) -> str:
        """Option `index`'s label."""
        return self.labels[index]

    @property
    def options(self) -> list[Option]:
        return [Option(i, label) for i, label in enumerate(self.labels)]

    def index_of(self, label: str) -> int:
        """The option whose label is `label` (exact, then case-insensitive, then its unlabelled name)."""
        if label in self.labels:
            return self.labels.index(label)
        folded = [option.casefold() for option in self.labels]
        if label.casefold() in folded:
            return folded.index(label.casefold())
        unlabelled = [self.unlabelled(i) for i in range(len(self.labels))]
        if label in unlabelled:
            return unlabelled.index(label)
        raise KeyError(label)

    def rules_of(self, index: int) -> str:
        """The DSL text option `index` runs ("" for an option that runs no block of its own)."""
        return self.rules[index] if index < len(self.rules) else ""

    def unlabelled(self, index: int) -> str:
        """Option `index`'s label had the designer written none (its DSL; "yes: <DSL>" for a `may`)."""
        text = self.rules_of(index)
        if not text:
            return self.labels[index]
        return YES + text if self.kind is DecisionKind.MAY else text

    def public(self, index: int) -> bool:
        """Whether every seat may learn that option `index` was chosen: it names no item hidden from anyone
        and the rules asking belong to no hidden item. A `choose { ... }` alternative or a `may` statement's
        answer, an item in a public zone, or several such items chosen together; what a wildcard gain
        becomes and which counters pay a cost (every seat is told what a seat gains and pays: the `gained`
        and `paid` events, and every view shows the counters); anything else (actions, alternative costs,
        numbers, other values) stays private."""
        if not self.open_source:
            return False
        payload = self.payloads[index] if index < len(self.payloads) else None
        if isinstance(payload, Item):
            return in_public_zone(payload)
        if isinstance(payload, tuple):           # a choice of several parts (`choose p in A, t in B`)
            return all(isinstance(part, Item) and in_public_zone(part) for part in payload)
        if self.kind in _TOLD:
            return True
        return self.is_branch(index) or (self.kind is DecisionKind.MAY and self.is_branch(0))

    def is_branch(self, index: int) -> bool:
        """Option `index` runs a block of the rules (a `choose { ... }` alternative, a `may`'s yes)."""
        return bool(self.rules_of(index))

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind.value, "prompt": self.prompt, "step": self.step,
                "options": list(self.labels)}


class MadeDecision(Decision):
    """A `Decision` whose slots its maker stores one by one (`Interpreter.ask`, for every decision of every game):
    the class call runs no `__init__` (a Python frame called from C) and builds no argument tuple, as
    `object.__new__(Decision)` would. The same object as `Decision(...)`'s (tests/test_decision_made.py)."""

    __slots__ = ()
    __init__ = object.__init__


def not_an_option(index: Any, size: int) -> MoveError:
    """The error for an answer that is no option of a decision of `size` options (True is none either)."""
    return MoveError(f"option {index!r} is not one of the {size} options")


def joined_prompt(prompt: Prompt) -> str:
    """A prompt's text: the pieces of a `(PIECES, v1, v2, ...)` prompt with each value shown between them
    (an item by its name), as the f-string it replaces would have made it."""
    if isinstance(prompt, str):
        return prompt
    pieces, values = prompt[0], prompt[1:]
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:], strict=True):
        out += (show(value), piece)
    return "".join(out)


def derived_labels(payloads: list[Any]) -> list[str]:
    """The labels of options offered without them: `option_labels` of the values, the None that ends a
    repeated or optional choice labelled `done`."""
    if payloads and payloads[-1] is None:
        return [*option_labels(payloads[:-1]), DONE]
    return option_labels(payloads)


def in_public_zone(item: Item) -> bool:
    """The item lies in a zone every seat sees."""
    return item.zone is not None and item.zone.visibility == "public"
