"""The engine's hard bounds on one game: total work, the size of values, the options of one choice.

Why: a pack is written by a stranger. Nesting limits alone do not stop a
`repeat 1000000000`, a procedure that calls itself twice per level, or a
counter squared forty times. Every game therefore has a *work budget*: loop
passes, procedure calls, items drawn and collection elements visited all
spend from it, and running out is a `RuleError` at the DSL statement that
ran away. The budget bounds the work between two decisions (a runaway rule
is one that works too long without asking anyone), and a much larger total
bounds a whole game of many decisions. Numbers, texts and lists that a game stores are bounded too, so no
value grows without limit. docs/limits.md lists every limit with its value
and the diagnostic it gives.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Protocol

from engine.errors import RuleError

# Units of work a game may spend between two decisions (a loop pass, a procedure call, an item drawn,
# an element of a collection a rule goes through); asking a player starts a new stretch.
MAX_WORK = 5_000_000
# Units of work one whole game may spend, over all its stretches: a game of many decisions is bounded too.
MAX_GAME_WORK = 200_000_000
CALL_WORK = 4  # a procedure call costs more than a loop pass: the units stand for roughly equal time
MAX_CALL_DEPTH = 64  # procedure calls (and `do`) nested inside one another
DRAW_WORK = 2  # an item drawn (moved from one zone to another)
# The largest magnitude a stored number may have (a counter, an item attribute): far beyond any game,
# small enough that arithmetic on it stays fast and any value prints (Python refuses past 4,300 digits).
MAX_VALUE = 10**18
# The most elements a list made by a rule may have (`range`), and the longest stored text or list.
MAX_LIST = 100_000
# The most items one game may hold (components' copies; per-player ones once per seat).
MAX_ITEMS = 1_000_000
# The most options one `choose n from A to B` may offer.
MAX_OPTIONS = 10_000
# Operations whose cost grows with the size of what they touch (joining lists or texts with `+`, repeating
# one with `*`, comparing lists, sorting, taking an item out of a zone) are free up to SIZE_FREE elements
# (a game's hands, rows and decks: the hot path pays one length test) and beyond it cost one unit of work
# per ELEMENTS_PER_UNIT elements (they run in C, far faster per element than a loop pass).
SIZE_FREE = 256
ELEMENTS_PER_UNIT = 16


class Budget(Protocol):
    """What the size charges need of a game (engine/runtime/interpreter.py): spending from its work budget."""

    def spend(self, units: int, what: str) -> None: ...


class LimitError(RuleError):
    """A game went past one of the engine's hard bounds: a runaway rule, not a move a player made."""

    code = "RUN002"


def out_of_work(what: str, limit: int, whole_game: bool) -> LimitError:
    """The error for a game out of work: past `limit` units since the last decision, or in the whole game."""
    if whole_game:
        return LimitError(f"this game has done more than {limit:,} units of work in all (loop passes,"
                          f" procedure calls, draws, elements visited), here {what}: a game that never ends?")
    return LimitError(f"this game has done more than {limit:,} units of work (loop passes, procedure"
                      f" calls, draws, elements visited) without asking anyone, here {what}:"
                      " a rule that never ends?")


def too_large(value: int, what: str) -> LimitError:
    return LimitError(f"{what} would be {_magnitude(value)}; the engine's limit is ±{MAX_VALUE:,}")


def refuse(value: int, what: str) -> int:
    """Raise for a number past the hard limit (generated code calls it where an expression must stand)."""
    raise too_large(value, what)


def _magnitude(value: int) -> str:
    digits = len(str(abs(value))) if abs(value) < 10**4000 else "more than 4,000"  # str() of a huge int fails
    return f"a number of {digits} digits"


def bounded(value: Any, what: str) -> Any:
    """`value` if the engine may store it: a number within ±MAX_VALUE, a text or list of at most MAX_LIST."""
    if value.__class__ is int:
        if -MAX_VALUE <= value <= MAX_VALUE:
            return value
        raise too_large(value, what)
    if isinstance(value, (str, list)) and len(value) > MAX_LIST:
        raise LimitError(f"{what} would hold {len(value):,} elements; the engine's limit is {MAX_LIST:,}")
    return value


def number_span(low: Any, high: Any, what: str, limit: int) -> range:
    """The numbers low..high inclusive as a range, refused when it would have more than `limit` of them."""
    low, high = int(low), int(high)
    span = range(low, high + 1)
    if len(span) > limit:
        raise LimitError(f"{what} from {low} to {high} has {len(span):,} numbers; the limit is {limit:,}")
    return span


# ---------------------------------------------------------------- work that grows with size
# The compiler calls these instead of Python's operators only where an operand may be a list or a text (a
# number known at compile time keeps the plain operator: engine/compile/expr.py), so counters and
# attributes declared `int` pay nothing.

_SIZED = (list, str, tuple)


def charge_size(game: Budget, size: int, what: str) -> None:
    """Spend the work of touching `size` elements (only called past SIZE_FREE); `what` names the operation."""
    game.spend(size // ELEMENTS_PER_UNIT, what)


def plus(game: Budget, a: Any, b: Any) -> Any:
    """`a + b`: numbers add; two lists or two texts join, paid by the joined length and refused past MAX_LIST
    before anything is built (a chain of `+` in one text cannot build a list of billions)."""
    if a.__class__ in _SIZED and b.__class__ in _SIZED:
        size = len(a) + len(b)
        if size > SIZE_FREE:
            if size > MAX_LIST:
                raise LimitError(f"joining with '+' would make {size:,} elements; the engine's limit is {MAX_LIST:,}")
            charge_size(game, size, f"joining {size:,} elements with '+'")
    return a + b


def times(game: Budget, a: Any, b: Any) -> Any:
    """`a * b`: numbers multiply; a list or text repeated (the type pass refuses it, but `play` runs packs
    lint never saw) is paid and bounded like `+`, before it is built."""
    if a.__class__ in _SIZED or b.__class__ in _SIZED:
        seq, n = (a, b) if a.__class__ in _SIZED else (b, a)
        size = len(seq) * n if n.__class__ is int and n > 0 else 0
        if size > SIZE_FREE:
            if size > MAX_LIST:
                raise LimitError(f"repeating with '*' would make {size:,} elements; the engine's limit is {MAX_LIST:,}")
            charge_size(game, size, f"repeating to {size:,} elements with '*'")
    return a * b


def compared(game: Budget, a: Any, b: Any, op: Callable[[Any, Any], Any]) -> Any:
    """`a == b`, `a < b`...: two lists (or tuples) compare element by element, paid by the shorter length."""
    if a.__class__ in _SIZED and b.__class__ in _SIZED:
        size = min(len(a), len(b))
        if size > SIZE_FREE:
            charge_size(game, size, f"comparing lists of {size:,} elements")
    return op(a, b)


def sorting(game: Budget, values: Any) -> Any:
    """What `sorted()` is about to sort, its n·log2(n) comparisons paid past SIZE_FREE elements (making
    the collection paid only its length once)."""
    size = len(values)
    if size > SIZE_FREE:
        charge_size(game, size * size.bit_length(), f"sorting {size:,} elements")
    return values


def taking_out(game: Budget, size: int) -> None:
    """An item taken out of (or put on top of) a zone of `size` items: the items after it shift."""
    charge_size(game, size, f"taking an item out of (or onto the top of) a zone of {size:,} items")


def searching(game: Budget, visited: int) -> None:
    """A board search (`distance`) that visited this many spaces: a step in Python, a unit each, like a loop
    pass (only called past SIZE_FREE)."""
    game.spend(visited, f"searching {visited:,} spaces of a board")


COMPARISONS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
               "ge": operator.ge}
