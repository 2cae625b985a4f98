"""Cogwork: a data-driven rules interpreter for tabletop games.

The public API (docs/api.md) is the names in `__all__`. They are imported on first use, so
`import engine` stays cheap and the modules inside the engine may import `engine.__version__`
without a cycle. (`lint_pack` and `play_match` are not `lint` and `play`: those names are the
engine's `lint` and `play` subpackages.)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "load_pack": "engine.api", "lint_pack": "engine.api", "new_match": "engine.api", "play_match": "engine.api",
    "Match": "engine.play.match", "Outcome": "engine.play.match",
    "Decision": "engine.runtime.decision", "DecisionKind": "engine.runtime.decision",
    "Option": "engine.runtime.decision",
    "Event": "engine.runtime.events", "EventKind": "engine.runtime.events",
    "GameLog": "engine.play.log",
    "Agent": "engine.play.agents", "RandomAgent": "engine.play.agents", "ScriptedAgent": "engine.play.agents",
    "GreedyAgent": "engine.play.greedy", "MctsAgent": "engine.play.mcts",
    "Pack": "engine.runtime.defs", "PlayerResult": "engine.runtime.scoring",
    "Diagnostic": "engine.diagnostics", "PackError": "engine.diagnostics",
    "CogworkError": "engine.errors", "RuleError": "engine.errors", "MoveError": "engine.errors",
}

__all__ = [
    "Agent", "CogworkError", "Decision", "DecisionKind", "Diagnostic", "Event", "EventKind", "GameLog",
    "GreedyAgent", "Match", "MctsAgent", "MoveError", "Option", "Outcome", "Pack", "PackError", "PlayerResult",
    "RandomAgent", "RuleError", "ScriptedAgent", "__version__", "lint_pack", "load_pack", "new_match", "play_match",
]

if TYPE_CHECKING:
    from engine.api import lint_pack, load_pack, new_match, play_match
    from engine.diagnostics import Diagnostic, PackError
    from engine.errors import CogworkError, MoveError, RuleError
    from engine.play.agents import Agent, RandomAgent, ScriptedAgent
    from engine.play.greedy import GreedyAgent
    from engine.play.log import GameLog
    from engine.play.match import Match, Outcome
    from engine.play.mcts import MctsAgent
    from engine.runtime.decision import Decision, DecisionKind, Option
    from engine.runtime.defs import Pack
    from engine.runtime.events import Event, EventKind
    from engine.runtime.scoring import PlayerResult


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute '{name}'")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
