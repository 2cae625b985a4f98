"""Driving a game: feeding decisions to agents, logging them, replaying a log.

The pack's flow runs in its own greenlet. When an effect needs a choice,
`Game.ask` switches back here with the `Decision`; `answer` switches into the
flow again with the chosen index. So effects are plain function calls (no
generator frame per statement), yet a game can stop at any decision, be
saved as its log and resumed. `run` lets the agents answer in place, inside
the flow, and switches out only where it must stop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from greenlet import getcurrent, greenlet

from engine.errors import GameOver, RuleError, StopLoop
from engine.play.agents import Agent
from engine.play.log import GameLog
from engine.runtime.context import Ctx
from engine.runtime.decision import Decision
from engine.runtime.defs import Pack
from engine.runtime.interpreter import Game
from engine.runtime.scoring import PlayerResult, Verdict, final_scores, team_lost, verdict
from engine.runtime.views import SeatView, state_hash


@dataclass
class Outcome:
    results: list[PlayerResult]
    winners: list[int]
    hash: str
    decisions: int
    verdict: Verdict = Verdict.WIN


class Session:
    """One game paused at its next decision (or finished)."""

    def __init__(self, pack: Pack, players: int, seed: int, options: dict[str, bool] | None = None,
                 game: Game | None = None) -> None:
        self.pack = pack
        self.game = game if game is not None else Game(pack, players, seed, options)
        self.log: list[dict[str, Any]] = []
        flow = pack.flow
        if flow is None:
            raise RuleError("the pack has no flow")
        self._flow = greenlet(lambda: flow(Ctx(self.game, None)))
        # inside the flow, `Game.ask` hands its decision to whoever advanced it and waits for the answer
        self.game.pause = self._parent().switch
        self.pending: Decision | None = None
        self._advance(None)

    def _parent(self) -> greenlet:
        """Whoever advanced the flow last: where a decision is handed (a flow greenlet always has one)."""
        parent = self._flow.parent
        assert parent is not None
        return parent

    def _advance(self, answer: int | None) -> None:
        caller = getcurrent()
        if self._flow.parent is not caller:
            self._flow.parent = caller
            self.game.pause = caller.switch
        try:
            pending = self._flow.switch() if answer is None else self._flow.switch(answer)
        except GameOver:
            pending = None
        except StopLoop as exc:  # `stop` outside any `repeat` (a procedure's `stop` ends its caller's repeat)
            where = exc.args[0]() if exc.args else None
            raise RuleError("'stop' ran outside any repeat: there is no loop for it to end", where) from None
        if self._flow.dead:
            self.pending = None
            self.game.state.finished = True
        else:
            self.pending = pending

    @property
    def done(self) -> bool:
        return self.pending is None

    def answer(self, index: int) -> None:
        decision = self.pending
        if decision is None:
            raise RuleError("the game is over; there is nothing to answer")
        self._record(decision, index)
        self._advance(index)

    def _record(self, decision: Decision, index: int) -> None:
        if not 0 <= index < len(decision.labels):
            raise RuleError(f"option {index} is not one of the {len(decision.labels)} options")
        self.log.append({"seat": decision.seat, "step": decision.step, "label": decision.labels[index]})

    def answer_label(self, label: str) -> None:
        decision = self.pending
        if decision is None:
            raise RuleError(f"the game is over; cannot answer '{label}'")
        try:
            index = decision.index_of(label)
        except KeyError:
            raise RuleError(f"'{label}' is not a legal option for '{decision.prompt}' (seat {decision.seat + 1});"
                            f" legal: {', '.join(decision.labels)}") from None
        self.answer(index)

    def view(self, seat: int) -> SeatView:
        """What `seat` may see now (built lazily, on first look)."""
        return SeatView(self.game, seat)

    def run(self, agents: list[Agent], stop_after: int | None = None) -> None:
        """Let the agents play until the game ends (or `stop_after` logged decisions).

        The agents answer inside the flow: `Game.ask` calls them at once instead of switching out to this
        loop and back (two greenlet switches per decision); the game pauses for real only at `stop_after`.
        """
        game = self.game

        def answer_here(decision: Decision) -> int:
            if stop_after is not None and len(self.log) >= stop_after:
                return self._parent().switch(decision)
            try:
                index = agents[decision.seat].choose(SeatView(game, decision.seat), decision)
                self._record(decision, index)
            except Exception as exc:  # the generated code would take it for a content mistake
                raise _AgentFailed(exc) from None
            return index

        game.pause = answer_here
        try:
            while self.pending is not None:
                if stop_after is not None and len(self.log) >= stop_after:
                    return
                decision = self.pending
                self.answer(agents[decision.seat].choose(SeatView(game, decision.seat), decision))
        except _AgentFailed as failed:
            raise failed.error from None
        finally:
            game.pause = self._parent().switch

    def replay(self, labels: list[str], agents: list[Agent] | None = None) -> None:
        """Answer with logged labels; agents are told so they can continue identically."""
        for label in labels:
            decision = self.pending
            self.answer_label(label)
            if agents is not None and decision is not None:
                agents[decision.seat].observe(decision, decision.index_of(label))

    def outcome(self) -> Outcome:
        results = final_scores(self.game)
        kind, won = verdict(results, team_lost(self.game))
        return Outcome(results, won, state_hash(self.game), len(self.log), kind)

    def to_log(self) -> GameLog:
        game = self.game
        log = GameLog(pack=self.pack.id, version=self.pack.version, players=len(game.state.players), seed=game.seed,
                      options={k: v for k, v in game.options.items() if v}, decisions=self.log,
                      pack_path=self.pack.root, finished=self.done)
        if self.done:
            outcome = self.outcome()
            log.hash, log.scores, log.winners = outcome.hash, [r.score for r in outcome.results], outcome.winners
        return log

    @classmethod
    def from_log(cls, pack: Pack, log: GameLog, agents: list[Agent] | None = None) -> Session:
        """The logged match, replayed up to its last answer (agents are told each answer)."""
        log.check_options(pack.options)
        session = cls(pack, log.players, log.seed, log.options)
        session.replay(log.labels(), agents)
        return session


class _AgentFailed(BaseException):
    """An agent's error on its way out through the flow, past handlers meant for content mistakes."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error
