"""The public Python API: load a pack, lint one, start a match and drive it.

Everything here is re-exported by `engine` (`engine.__all__`); the stage packages behind it may change.
A match is a value: `fork()` copies it, `undo(n)` takes answers back, `to_log()` stores it and
`Match.from_log` brings it back; `view(seat)` and `Decision.options` are JSON-safe.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.compile import loading
from engine.diagnostics import Diagnostic
from engine.lint import run as lint_run
from engine.play.agents import Agent
from engine.play.match import Match, Observer, Outcome
from engine.runtime.defs import Pack


def load_pack(spec: str | Path) -> Pack:
    """The pack named `spec` (a shipped pack's name, or a folder): raises `PackError` with every diagnostic."""
    return loading.load_pack(str(spec))


def lint_pack(path: str | Path, games: int = lint_run.DEFAULT_GAMES) -> list[Diagnostic]:
    """Every finding for the pack in folder `path`, sorted by file and position.

    `games` random games per player count exercise the rules; 0 checks without playing.
    """
    return lint_run.lint(Path(path), games)


def new_match(pack: Pack, players: int, seed: int = 1, options: dict[str, bool] | None = None,
              forkable: bool = True, observers: Iterable[Observer] = ()) -> Match:
    """A match of `pack` for `players` seats, run up to its first decision.

    The same pack, players, seed and options always give the same match; unknown options raise
    `RuleError`. `forkable` keeps checkpoints so `fork`, `undo` and a change of thread are fast (about
    a quarter to a half more time per game); without, they replay the match from its start. `observers` see
    every event from the first step on (`Match.subscribe` sees those after it is called).
    """
    return Match(pack, players, seed, options, forkable=forkable, log_forced=True, observers=observers)


def play_match(match: Match, agents: list[Agent]) -> Outcome:
    """Let `agents` (one per seat) answer every decision until the match ends; its outcome."""
    match.run(agents)
    return match.outcome()
