"""Which bot plays which seat: `--bot SEAT=KIND[:PARAMS]` specs, and the agents they make.

A spec is plain text (`mcts:iterations=400,depth=60`), so it crosses process and machine boundaries
in a simulation plan unchanged, and the same text labels the bot in reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import CogworkError
from engine.play.agents import Agent, RandomAgent
from engine.play.greedy import GreedyAgent
from engine.play.mcts import EXPLORATION, MctsAgent

# kind -> its parameters and their types (every parameter is optional)
KINDS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": int, "seconds": float, "depth": int, "exploration": float, "rescale": int,
             "epsilon": float, "prior": int, "paired": int, "settle": int},
}
# the parameters whose range is not "above 0": (lowest, highest, the range in words)
RANGES: dict[str, tuple[float, float, str]] = {
    "depth": (0, math.inf, "0 or more"),
    "rescale": (0, 1, "0 or 1"),
    "epsilon": (1e-9, 1, "above 0 and at most 1"),
    "prior": (0, math.inf, "0 or more"),
    "paired": (0, 1, "0 or 1"),
    "settle": (0, 1, "0 or 1"),
}
DEFAULT = "random"


class BotSpecError(CogworkError):
    """A `--bot` that names no seat, an unknown kind or parameter, or a bad value."""


@dataclass(frozen=True)
class BotSpec:
    """A bot kind and its parameters; `str()` is its canonical text (what reports show)."""

    kind: str
    params: tuple[tuple[str, int | float], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        kind, _, rest = text.strip().partition(":")
        kind = kind.strip().lower()
        if kind not in KINDS:
            raise BotSpecError(f"unknown bot kind '{kind}' (kinds: {', '.join(KINDS)})")
        allowed, params = KINDS[kind], {}
        for part in filter(None, (p.strip() for p in rest.split(","))):
            name, eq, value = part.partition("=")
            name = name.strip()
            if not eq or name not in allowed:
                known = ", ".join(f"{n}=N" for n in allowed) or "none"
                raise BotSpecError(f"'{part}' is not a parameter of the {kind} bot (its parameters: {known})")
            try:
                number = allowed[name](value.strip())
            except ValueError:
                raise BotSpecError(f"{kind} bot: {name} must be a {allowed[name].__name__}, not '{value}'") from None
            low, high, words = RANGES.get(name, (1e-9, math.inf, "above 0"))
            if not low <= number <= high:
                raise BotSpecError(f"{kind} bot: {name} must be {words}, not {number}")
            params[name] = number
        return cls(kind, tuple(sorted(params.items())))

    def __str__(self) -> str:
        return self.kind + (":" + ",".join(f"{n}={v}" for n, v in self.params) if self.params else "")

    def make(self, seed: int, seat: int) -> Agent:
        """The agent for `seat` of a game with `seed` (a searching one is bound to its match by `Match.run`)."""
        if self.kind == "greedy":
            return GreedyAgent(seed, seat)
        if self.kind == "mcts":
            p = dict(self.params)
            return MctsAgent(seed, seat, _whole(p.get("iterations")), _real(p.get("seconds")), _whole(p.get("depth")),
                             float(p.get("exploration", EXPLORATION)), bool(p.get("rescale", 0)),
                             float(p.get("epsilon", 1.0)), int(p.get("prior", 0)),
                             bool(p.get("paired", 0)), bool(p.get("settle", 0)))
        return RandomAgent(seed, seat)

    @property
    def searches(self) -> bool:
        """Whether it looks ahead (its match should then be forkable: each look starts from a fork)."""
        return self.kind != "random"


def parse_seats(specs: list[str] | None, max_players: int) -> dict[int, BotSpec]:
    """`SEAT=KIND[:PARAMS]` texts (seats 1-based) as {seat index: spec}; seats not named play random."""
    seats: dict[int, BotSpec] = {}
    for text in specs or []:
        seat, eq, kind = text.partition("=")
        if not eq or not seat.strip().isdigit():
            raise BotSpecError(f"--bot '{text}': give SEAT=KIND[:PARAMS], e.g. 1=mcts:iterations=200")
        index = int(seat) - 1
        if not 0 <= index < max_players:
            raise BotSpecError(f"--bot '{text}': seat {seat.strip()} does not exist (seats 1 to {max_players})")
        if index in seats:
            raise BotSpecError(f"--bot: seat {index + 1} is given twice")
        seats[index] = BotSpec.parse(kind)
    return seats


def describe_seats(seats: dict[int, BotSpec]) -> str:
    """The bots of a run in words, for reports: `P1 mcts:iterations=200, P2 greedy; random elsewhere`."""
    if not seats:
        return f"{DEFAULT} in every seat"
    named = ", ".join(f"P{seat + 1} {spec}" for seat, spec in sorted(seats.items()))
    return f"{named}; {DEFAULT} elsewhere"


def lineup(seats: dict[int, BotSpec], players: int) -> list[BotSpec]:
    """The spec of every seat of a `players`-player game."""
    return [seats.get(seat, BotSpec(DEFAULT)) for seat in range(players)]


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value)


def _real(value: float | None) -> float | None:
    return None if value is None else float(value)
