"""A match: one game of a pack, paused at its next decision, driven from Python.

The pack's flow runs in its own greenlet. When an effect needs a choice, `Interpreter.ask` switches
back here with the `Decision`; `apply` switches into the flow again with the chosen index. So
effects are plain function calls (no generator frame per statement), yet a match can stop at any
decision. `run` lets agents answer in place, inside the flow, and switches out only where it must
stop. `Match.played` plays a whole game that way from the start, in the caller's own stack: a game
that never pauses needs no greenlet.

A greenlet belongs to the thread that started it. A match remembers that thread; used from another
one it first rebuilds its flow there (as `fork` does), so a worker pool may hand a match from
thread to thread. Two threads at once get a `MoveError`: a match is one game, played by one caller
at a time.
"""

from __future__ import annotations

import bisect
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, cast

from greenlet import GreenletExit, getcurrent, greenlet

from engine.errors import GameOver, MoveError, RuleError, StopLoop
from engine.play.agents import Agent, Searcher, by_size, is_searcher, uniform_draw
from engine.play.log import Answer, GameLog, LoggedAnswer, make_rows
from engine.runtime.context import Ctx
from engine.runtime.decision import Decision, DecisionKind, not_an_option
from engine.runtime.defs import Pack
from engine.runtime.determinize import (
    DealPlan,
    deal_plan,
    offered_items,
    redeal_hidden,
    seen_items,
)
from engine.runtime.events import Event, EventKind
from engine.runtime.interpreter import NEVER, AgentFailed, InPlace, Interpreter, Unwatched
from engine.runtime.scoring import PlayerResult, Verdict, estimates, final_scores, team_lost, verdict
from engine.runtime.state import Item
from engine.runtime.views import in_simultaneous, seen_key, snapshot, state_hash

Observer = Callable[[Event], None]
# answers between checkpoints: fewer make play slower (a checkpoint copies the state), more make a fork
# replay more answers (measured with tools/bench/fork.py and random games; see docs/architecture.md)
CHECKPOINT_EVERY = 16
# a match that searching bots play is forked for every option or iteration of every decision: a checkpoint
# at each step start that follows an answer makes each fork replay at most the answers of one step (a shipped
# 4-player pack: fork 0.89 -> 0.62 ms; the checkpoints cost a `to_data` per step, sharing unchanged parts)
SEARCHED_CHECKPOINT_EVERY = 1
ANSWERED, GAME_ENDED = EventKind.ANSWERED, EventKind.GAME_ENDED
# a sample made inside a simultaneous step (`Match.determinize`): tries before settling for one its seat could
# tell apart, fewer when a try gives many answers (at most SECRET_TRY_ANSWERS in all, at least 1 try); random
# answers the other seats may give in a try (per answer the seat knows of, plus some)
SECRET_TRIES, SECRET_TRY_ANSWERS = 8, 200
SECRET_ANSWERS_PER_ANSWER, SECRET_ANSWERS_EXTRA = 4, 64


@dataclass
class Outcome:
    """How a finished match ended: each seat's result, the winning seats, the final hash, answers given."""

    results: list[PlayerResult]
    winners: list[int]
    hash: str
    decisions: int
    verdict: Verdict = Verdict.WIN


class Match:
    """One game of a pack, paused at its next decision (`decision`), or finished (`done`)."""

    def __init__(self, pack: Pack, players: int, seed: int, options: dict[str, bool] | None = None,
                 game: Interpreter | None = None, forkable: bool = False, log_forced: bool = False,
                 observers: Iterable[Observer] = (), checkpoint_every: int = CHECKPOINT_EVERY,
                 _resume: tuple[list[Answer], list[_Checkpoint], list[_Forced]] | None = None,
                 _played: list[Agent] | None = None, _watch: _StepWatch | None = None) -> None:
        """A match run up to its first decision. `forkable` keeps the flow trace and checkpoints that make
        `fork`, `undo` and a change of thread cost a short catch-up instead of a replay from the start;
        `log_forced` puts the decisions taken without asking (one option) in `to_log` too; `observers` are
        subscribed before the first step runs (`subscribe` later misses what happens up to the first decision);
        `checkpoint_every`: answers between checkpoints (`SEARCHED_CHECKPOINT_EVERY` for a match bots search).
        `_watch` (a forkable copy made inside this module): told at step starts instead of taking checkpoints."""
        if pack.flow is None:
            raise RuleError("the pack has no flow")
        self.pack = pack
        self.game = game if game is not None else Interpreter(pack, players, seed, options)
        self._log: list[Any] = []   # the answers given (forced decisions apart: `_forced`), rows from `_made` on
        self._made = 0              # (`log` makes them answers when read)
        self._released = False      # its state went to the spares (`release`)
        self.decision: Decision | None = None
        self._flow: greenlet | None = None   # where the flow runs, paused at `decision` (None: played through)
        self._every = checkpoint_every
        self._busy = threading.Lock()
        for observer in observers:
            self.game.watch(observer)
        self._checkpoints: list[_Checkpoint] = []
        self._forced: list[_Forced] = []
        self._redeals: list[_Redeal] = []   # a determinized match: where its hidden items were dealt again
        self._last_secret: _SecretCall | None = None   # the last sample made inside a simultaneous step
        self._secret_start: _SecretStart | None = None   # what the samples at the pending decision share
        if _resume is not None:
            self.log, self._checkpoints, self._forced = _resume
        if log_forced:
            self.game.on_forced = self._note_forced
        if forkable:
            if self.game.trace is None:
                self.game.keep_trace([])
            if _watch is None:
                self.game.at_step = self._at_step
                self._plan_checkpoint()
            else:
                _watch.match = self
                self.game.at_step, self.game.checkpoint_at = _watch, _watch.first()
        if _played is not None:
            self._play_through(_played)
            return
        self._start_flow()
        self._advance(None)

    @classmethod
    def played(cls, pack: Pack, players: int, seed: int, agents: list[Agent], options: dict[str, bool] | None = None,
               observers: Iterable[Observer] = ()) -> Match:
        """A whole game, `agents` answering every decision: the match `Match(...)` then `run(agents)` gives,
        played in the caller's own stack. A match that pauses needs its flow in a greenlet of its own; one
        played through does not, and skips that machinery (a short random game ~20% cheaper). A searching
        agent (`Searcher`) plays through `run`, on a match it can fork. An error (a rule's, an agent's) is
        raised without the match: to keep a failed game, play it again with `Match(...)` and `run`, which
        stops where it failed (the same seed and agents play the same game)."""
        for agent in agents:   # (a loop, not `any` of a generator: this runs for every game)
            if is_searcher(agent):
                match = cls(pack, players, seed, options, observers=observers)
                match.run(agents)
                return match
        return cls(pack, players, seed, options, observers=observers, _played=agents)

    @property
    def log(self) -> list[Answer]:
        """The answers given, in order (decisions taken without asking apart). A game played through logs an answer
        by the number of options as a row (`Interpreter.ask`: a tuple, no object made per decision); the rows are
        made answers here, at the first read after they were logged (`answered` counts them without that)."""
        log = self._log
        if self._made < len(log):
            make_rows(log, self._made)
            self._made = len(log)
        return log

    @log.setter
    def log(self, answers: list[Answer]) -> None:
        self._log, self._made = answers, len(answers)

    @property
    def answered(self) -> int:
        """How many answers were given: `len(log)`, without making the log's answers (a caller that only counts)."""
        return len(self._log)

    def _play_through(self, agents: list[Agent]) -> None:
        """Run the whole flow here, the agents answering in place (`played`)."""
        game = self.game
        # nobody watching: the quiet flow, which tells no observer and names only the steps someone reads;
        # nobody may start watching while it runs (`Unwatched`)
        watchers = game.observers
        unwatched = game.trace is None and not watchers
        flow = self.pack.flow if game.trace is not None else self.pack.quiet_flow if unwatched \
            else self.pack.untraced_flow
        assert flow is not None
        self._thread = threading.get_ident()
        # the agents answer inside `ask` (a searching agent, which reads its match, plays through `run`)
        driver, game.pause = game.pause, self._in_place(agents)
        if unwatched:
            game.observers = Unwatched()
        try:
            flow(Ctx(game, None))
        except GameOver:
            pass
        except StopLoop as exc:
            raise _stop_outside_repeat(exc) from None
        except AgentFailed as failed:
            raise failed.error from None
        finally:
            game.pause = driver   # (the agents' views hold the game)
            game.observers = watchers
        self._ended()

    def _note_forced(self, seat: int | None, kind: str, label: str) -> None:
        state = self.game.state
        entry: dict[str, Any] = {"step": state.step, "label": label, "forced": True}
        if seat is not None:
            entry["seat"] = seat
        self._forced.append(_Forced(len(self.log), state.steps, entry))

    def _at_step(self, trace_length: int) -> None:
        """At a flow step's start, `checkpoint_every` answers after the last checkpoint: keep one.

        (The interpreter calls this once `checkpoint_at` decisions were asked; at a step's start every
        decision asked has been answered, so that is the number of answers.)"""
        checkpoints, state = self._checkpoints, self.game.state
        like = checkpoints[-1].data if checkpoints else None
        checkpoints.append(_Checkpoint(len(self.log), state.steps, trace_length, state.to_data(like)))
        self._plan_checkpoint()

    def _plan_checkpoint(self) -> None:
        last = self._checkpoints[-1].answers if self._checkpoints else -self._every
        self.game.checkpoint_at = last + self._every

    def _start_flow(self) -> None:
        # a match without a trace now never gains one (only a fork drops it): it runs the flow untraced
        flow = self.pack.flow if self.game.trace is not None else self.pack.untraced_flow
        assert flow is not None
        self._flow = greenlet(lambda: flow(Ctx(self.game, None)))
        self._thread = threading.get_ident()
        # inside the flow, `Interpreter.ask` hands its decision to whoever advanced it and waits for the answer
        self.game.pause = self._parent().switch

    def _parent(self) -> greenlet:
        """Whoever advanced the flow last: where a decision is handed (a flow greenlet always has one)."""
        assert self._flow is not None
        parent = self._flow.parent
        assert parent is not None
        return parent

    def _advance(self, answer: int | None) -> None:
        flow = self._flow
        assert flow is not None
        caller = getcurrent()
        if flow.parent is not caller:
            flow.parent = caller
            self.game.pause = caller.switch
        try:
            pending = flow.switch() if answer is None else flow.switch(answer)
        except GameOver:
            pending = None
        except StopLoop as exc:
            raise _stop_outside_repeat(exc) from None
        if flow.dead:
            self._ended()
        else:
            self.decision = pending

    def _ended(self) -> None:
        """The flow has run to its end: no decision is pending; observers learn the result."""
        self.decision = None
        if GAME_ENDED in self.game.heard:
            outcome = self.outcome(digest=False)   # (the event has no hash)
            self.game.tell(Event(GAME_ENDED, None, {
                "scores": [r.score for r in outcome.results], "winners": outcome.winners}))

    # ---------------------------------------------------------------- the decision
    @property
    def done(self) -> bool:
        return self.decision is None

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending, or None once the match is over."""
        return None if self.decision is None else self.decision.seat

    def legal(self) -> list[str]:
        """The pending decision's option labels ([] once the match is over)."""
        return [] if self.decision is None else list(self.decision.labels)

    def apply(self, index: int) -> None:
        """Answer the pending decision with option `index`; the match runs on to its next decision."""
        with self._owned():
            decision = self.decision
            if decision is None:
                raise MoveError("the game is over; there is nothing to answer")
            self._record(decision, index)
            self._advance(index)

    def _record(self, decision: Decision, index: int) -> None:
        if type(index) is not int or not 0 <= index < decision.size:   # True is no option
            raise not_an_option(index, decision.size)
        self.log.append(Answer(decision, index))
        if ANSWERED in self.game.heard:
            said = {"step": decision.step, "kind": decision.kind.value}
            self.game.tell(Event(ANSWERED, decision.seat, {**said, "label": decision.labels[index]},
                                 frozenset((decision.seat,))))
            others = frozenset(range(len(self.game.state.players))) - {decision.seat}
            public = decision.public(index)
            # others learn the label only of an answer that reveals nothing hidden, and behind a simultaneous
            # step's divider not even that there was one (how many answers is part of the plan)
            if others and (public or not in_simultaneous(self.game)):
                shown = {**said, "label": decision.labels[index]} if public else said
                self.game.tell(Event(ANSWERED, decision.seat, shown, others))

    def apply_label(self, label: str) -> None:
        """Answer with the option whose label is `label` (exact, then case-insensitive)."""
        decision = self.decision
        if decision is None:
            raise MoveError(f"the game is over; cannot answer '{label}'")
        try:
            index = decision.index_of(label)
        except KeyError:
            raise MoveError(f"'{label}' is not a legal option for '{decision.prompt}' (seat {decision.seat + 1});"
                            f" legal: {', '.join(decision.labels)}") from None
        self.apply(index)

    # ---------------------------------------------------------------- looking at it
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see now, as JSON-safe data (hidden zones show only their size, or not even that
        while a simultaneous step runs: zone `size`); None: everything."""
        return snapshot(self.game, seat, full=seat is None)

    def seen_key(self, seat: int) -> int:
        """A hash of what `seat` may see now (what `view(seat)` shows): equal views, equal keys, in this process.
        Much cheaper than `view`, for a bot that only asks whether it has been somewhere before."""
        return seen_key(self.game, seat)

    def answers_known(self, seat: int) -> int:
        """How many answers `seat` knows were given: all of them, but inside a `simultaneous` step, where it
        is told only of its own and of public ones (`Decision.public`). A bot seeds its choices from this,
        not from `len(log)`, so its random draws do not tell how many secret answers another seat gave."""
        since = self.game.state.secret_since
        if since is None:
            return len(self.log)
        return since + sum(1 for answer in self.log[since:]
                           if answer.decision.seat == seat or answer.decision.public(answer.index))

    def state_hash(self) -> str:
        """A digest of everything that decides how the match goes on: equal hashes, identical futures."""
        return state_hash(self.game)

    def outcome(self, digest: bool = True) -> Outcome:
        """Scores and winners (of the position now, if the match is still running). `digest=False` leaves
        `hash` empty: a searching bot that only compares results skips the digest, which costs as much as
        the scores."""
        with self.game.looking():
            results = final_scores(self.game)
            kind, won = verdict(results, team_lost(self.game))
        return Outcome(results, won, state_hash(self.game) if digest else "", len(self._log), kind)

    def estimates(self) -> list[int]:
        """Each seat's position estimate now (`scoring.estimate`, the score where the pack has none): what a
        bot compares in a position that is not over. On a sample (`determinize`) it reads the sample."""
        with self.game.looking():
            return estimates(self.game)

    # ---------------------------------------------------------------- copies and history
    def fork(self, history: bool = True) -> Match:
        """An independent match at the same decision: answering one never changes the other.

        `history=False` gives a lighter copy for rollouts: it keeps no checkpoints, so it plays as fast as
        a match that is not forkable, but its own `fork` and `undo` replay from the start.
        """
        copy = self._replayed(len(self.log))
        if not history:
            copy._forget_history()
        return copy

    def _forget_history(self) -> None:
        """Keep no trace or checkpoints from now on (a light copy: its `fork` and `undo` replay from the start)."""
        self.game.keep_trace(None)
        self.game.at_step, self.game.checkpoint_at, self._checkpoints = None, NEVER, []

    def determinize(self, seat: int, rng: random.Random) -> Match:
        """A light copy (like `fork(history=False)`) in which every item `seat` cannot see now is dealt again
        at random among the hidden places of its owner and type, and the random generator is reseeded from
        `rng`: one of the games `seat` cannot tell from this one (engine/runtime/determinize.py says what
        the seat is taken to know). Information-set search plays on these instead of on `fork`s, so it
        never reads another hand or the deck order. The copy depends only on `seat`'s view and `rng`.

        Inside a `simultaneous` step, the answers the other seats gave since it began are secret too (the
        state says since when: `State.secret_since`), and its statements that ran before its first decision
        hold what they read (a loop's list of a hidden hand, say). Then the copy goes back to where the step
        began, deals there before the step's first statement runs, and plays forward: `seat`'s own answers
        again (by label), another seat's again only where `seat` knows it (every seat was told it, or it took
        items `seat` sees now), else a random option from `rng`, until `seat`'s decision is pending again with
        the same options (`_secret_sample`). A try whose view differs from this match's (`seen_key`) is
        rejected, up to `SECRET_TRIES` tries (fewer in a step of many answers: `SECRET_TRY_ANSWERS`); when none
        matches, the first try that reached the decision is kept (a sample `seat` could tell apart, but one
        made without the secret answers: from none to about half of the samples in the shipped packs,
        docs/analytics.md); when no try reaches it (or no copy found the step's start), the deal is made at the
        decision (keeping the others' answers, as outside a simultaneous step: the one case where they reach
        the copy; not seen in the shipped packs). The same call again (same decision, seat and generator state:
        a greedy bot, once per option) makes the same sample without the tries.

        A sample is a match like any other (`apply`, `fork`, `determinize` again), but it is not a game
        that happened: `to_log` refuses it (a log cannot say where the items were dealt), and so does an
        `undo` to before the deal. Its `fork` replays from the start, dealing again where it was dealt (the
        step's start, before its first statement, for a sample whose others' answers were replaced: those
        answers are in its log; the replay keeps a flow trace up to there, to be told of the step starts).
        """
        if not 0 <= seat < len(self.game.state.players):
            raise MoveError(f"there is no seat {seat} in a {len(self.game.state.players)}-player match")
        since = self.game.state.secret_since
        if since is not None and self.decision is not None:
            sample = self._secret_sample(seat, since, rng)
            if sample is not None:
                return sample
        copy = self.fork(history=False)
        copy._deal(_Redeal(len(copy.log), seat, rng.getstate()))
        rng.setstate(copy._redeals[-1].after)
        return copy

    def _secret_sample(self, seat: int, since: int, rng: random.Random) -> Match | None:
        """A sample for `seat` made from where the running simultaneous step began (after `since` answers):
        dealt there before the step's first statement ran, then played forward with `seat`'s own answers and
        random ones for the others (see `determinize`); None when no try reaches `seat`'s decision again (or no
        copy found where the step began).

        What is pinned at the deal: the items the pending decision offers `seat` and the items `seat` sees now
        (drawn in the step, say: they stay where they were, so the same draws draw them again)."""
        real = self.decision
        assert real is not None
        state, last = rng.getstate(), self._last_secret
        start = self._secret_start
        if start is None or start.decision is not real or start.seat != seat or start.answers != len(self.log):
            start = self._secret_start = self._started_secret(seat, since)
        if start.point is None:
            return None
        if last is not None and last.decision is real and last.seat == seat and last.rng == state:
            rng.setstate(last.after)    # the same call again (a greedy bot, once per option): the same sample
            return None if last.recipe is None else self._dealt_again(start, *last.recipe)
        sample = self._secret_tries(start, rng)
        recipe = None if sample is None else (sample._redeals[-1], [answer.index for answer in sample.log[since:]])
        self._last_secret = _SecretCall(real, seat, state, rng.getstate(), recipe)
        return sample

    def _started_secret(self, seat: int, since: int) -> _SecretStart:
        """What every sample for `seat` at the pending decision shares (see `_SecretStart`)."""
        real = self.decision
        assert real is not None
        state = self.game.state
        seen = seen_items(state, seat)
        offered = {item.uid for item in offered_items(real.payloads)} if real.seat == seat else set()
        answers = self.log[since:]
        known: dict[_Asked, list[str]] = {}
        for answer in answers:
            if answer.decision.seat != seat and _known(answer.decision, answer.index, seen):
                known.setdefault(_asked(answer.decision), []).append(answer.label)
        # where the step began: a copy replayed up to the step's first decision notes it on the way
        probe = _StepWatch(since)
        self._replayed(since, drop_later_deals=True, probe=probe).release()
        return _SecretStart(
            real, seat, len(self.log), since, seen, tuple(sorted(seen | offered)), self.seen_key(seat),
            [answer.label for answer in answers if answer.decision.seat == seat], known,
            probe.points[-1] if probe.points else None)

    def _dealt_again(self, start: _SecretStart, redeal: _Redeal, answers: list[int]) -> Match:
        """The sample a try made: dealt as `redeal` at the step's start, then given `answers`."""
        sample = self._secret_copy(start, redeal)
        for index in answers:
            sample._give(index)
        return sample

    def _secret_copy(self, start: _SecretStart, redeal: _Redeal) -> Match:
        """A light copy of this match dealt as `redeal` says where the simultaneous step `start` is about began,
        before its first statement ran, and played from there to the step's first decision."""
        point = start.point
        assert point is not None
        game = self.game
        inner = Interpreter(self.pack, len(game.state.players), game.seed, game.options, like=game, data=point.data)
        state = inner.state
        if start.plan is None:    # (every copy holds the same state there: one plan deals them all)
            start.plan = deal_plan(state, start.seat, [state.items[uid] for uid in start.pins])
        rng = random.Random()
        rng.setstate(redeal.rng)
        start.plan.deal(state, rng)
        # the catch-up moves no item and loads the rest of the state at the step's start: the reseeded generator
        inner.catch_up(list(point.trace), point.steps, {**point.data, "rng": state.rng.getstate()})
        sample = Match(self.pack, len(game.state.players), game.seed, game.options, game=inner, forkable=True,
                       log_forced=game.on_forced is not None, checkpoint_every=self._every,
                       _resume=(self.log[:start.since], [], list(point.forced)), _watch=_StepWatch())
        sample._redeals = [*point.redeals, replace(redeal, after=rng.getstate())]
        sample._forget_history()
        return sample

    def _secret_tries(self, start: _SecretStart, rng: random.Random) -> Match | None:
        """`_secret_sample`'s tries (up to `SECRET_TRIES`, fewer in a long step): the first whose view is this
        match's, else the first that reached `seat`'s decision, else None."""
        real, seat, since = start.decision, start.seat, start.since
        kept: Match | None = None
        tries = done = 0
        assert start.point is not None
        while done < max(tries, 1):
            sample = self._secret_copy(start, _Redeal(since, seat, rng.getstate(), start.pins,
                                                      steps=start.point.steps))
            rng.setstate(sample._redeals[-1].after)
            reached = sample._play_again(start, real, rng)
            if not done:    # as many tries as there is room for tries as long as this one
                tries = min(SECRET_TRIES, SECRET_TRY_ANSWERS // max(1, len(sample.log) - since))
            done += 1
            if reached:
                if sample.seen_key(seat) == start.want:
                    if kept is not None:
                        kept.release()
                    return sample
                if kept is None:
                    kept = sample
                    continue
            sample.release()
        return kept

    def _play_again(self, start: _SecretStart, real: Decision, rng: random.Random) -> bool:
        """Answer on from here (a copy of the match at the start of the step `start` is about, dealt again)
        as the answers given in the real match since then allow, until `seat`'s answers are given and the
        decision pending is `real`'s seat's (with `real`'s options, when it is `seat`'s); whether that was
        reached.

        `seat`'s own answers are given again in turn. Of the others' answers, `seat` knows only those it was
        told (`Decision.public`: an item taken from a public zone, a `choose { ... }` branch) and those that
        took items it sees now (`seen`: it sees what came of them); each is given again at the first decision
        of its seat, step and kind that offers it (`_take_known`). Every other answer is a random option
        that is neither (`_secret_option`): inside a simultaneous step nobody is told that a private answer
        was even given, so how many there were is not followed."""
        seat, mine, seen = start.seat, start.mine, start.seen
        known = {asked: list(labels) for asked, labels in start.known.items()}   # (each is taken once)
        limit = SECRET_ANSWERS_PER_ANSWER * (len(mine) + sum(map(len, known.values()))) + SECRET_ANSWERS_EXTRA
        given = others = 0
        while (pending := self.decision) is not None:
            if given == len(mine) and pending.seat == real.seat and \
                    (pending.seat != seat or pending.labels == real.labels):
                return True
            index: int | None = None
            if pending.seat == seat:
                index = _index_of(pending, mine[given]) if given < len(mine) else None
                if index is None:
                    return False
                given += 1
            else:
                index = _take_known(pending, known, seen) if known else None
                if index is None:
                    others += 1
                    if others > limit:
                        return False
                    index = _secret_option(pending, seen, rng)
            self._give(index)
        return False

    def _give(self, index: int) -> None:
        """`apply` for a copy only the caller holds (a sample being made): the same answer, without the check
        that no other call or thread is advancing it."""
        decision = self.decision
        assert decision is not None
        self._record(decision, index)
        self._advance(index)

    @property
    def is_sample(self) -> bool:
        """Whether this match came from `determinize` (its hidden items were dealt again)."""
        return bool(self._redeals)

    def _deal_at_step(self, redeal: _Redeal, plan: DealPlan | None = None) -> None:
        """Deal the hidden items again as `redeal` says, at the start of the flow step it was made at (no
        decision is pending: the flow is about to run the step's first statement); `plan`: as in `_deal`."""
        rng = random.Random()
        rng.setstate(redeal.rng)
        state = self.game.state
        if plan is None:
            plan = deal_plan(state, redeal.seat, [state.items[uid] for uid in redeal.pinned or ()])
        plan.deal(state, rng)
        self._redeals.append(replace(redeal, after=rng.getstate()))

    def _deal(self, redeal: _Redeal) -> None:
        """Deal the hidden items again as `redeal` says, at the pending decision it was made at (outside a
        simultaneous step: the items that decision offers stay where they are)."""
        rng = random.Random()
        rng.setstate(redeal.rng)
        pending = self.decision
        redeal_hidden(self.game.state, redeal.seat, rng, offered_items(pending.payloads) if pending is not None else [])
        self._redeals.append(replace(redeal, after=rng.getstate()))

    def close(self) -> None:
        """End this match's paused flow now, so its memory is freed: a paused flow is a greenlet in a reference
        cycle with its match, which the garbage collector never frees. Call it on a fork or sample you are
        done with before its end (a finished match needs nothing); the match cannot be played after."""
        flow = self._flow
        if flow is None or flow.dead:
            return
        with self._owned():
            _end(flow)
            self.decision = None

    def release(self) -> None:
        """Done with this match for good (a game `simulate` has recorded): let reference counting free it the
        moment it is dropped. Its items and zones refer to each other (an item to its zone, a zone to its items),
        so a dropped match otherwise waits for the garbage collector, whose collections walk every object of
        every match waiting (a short random game: ~6% more instructions, tools/bench/game_instructions.py
        --gc). This empties every zone (its list of items: a list read before stays as it was) and drops the
        match's own links to itself (a forkable or logging match's), ending a paused flow first (`close`).
        Read nothing of the match after: it shows empty zones, and its state (players, zones, items) is made
        the next new match's of the pack and player count (`Layout.spares`: making and freeing them was about a
        tenth of a short game). A finished match that is not released stays readable as long as it is held, and
        is freed by the collector."""
        if self._released:
            return
        self._released = True
        self.close()
        game = self.game
        zones = game.state.all_zones()
        for zone in zones:
            zone.items = []
        game.at_step = game.on_forced = None
        spares = game.layout.spares
        if len(spares) < spares.LIMIT:
            spares.append((game.state, zones))

    def undo(self, n: int = 1) -> None:
        """Go back to the decision `n` answers ago (its hash is the one that decision had)."""
        if not 0 <= n <= len(self.log):
            raise MoveError(f"cannot undo {n} answers: {len(self.log)} were given")
        with self._owned():
            earlier = self._replayed(len(self.log) - n)
            left = self._flow
            self._take(earlier)
            if left is not None:
                _end(left)      # the flow undone, paused at its decision: end it, or it is never freed

    def _replayed(self, answers: int, drop_later_deals: bool = False, probe: _StepWatch | None = None) -> Match:
        """A new match at the decision after the first `answers` answers: from the last checkpoint before
        it (a catch-up of the flow, then the answers given since), else replayed from the start.
        `drop_later_deals`: a sample may go back to the start of the simultaneous step it was dealt in (without
        the deals made there or later: the caller deals again). `probe`: told at the step starts on the way
        (it notes where a simultaneous step began: `_started_secret`)."""
        redeals = self._redeals
        if drop_later_deals:
            redeals = [r for r in redeals if r.answers < answers]
        elif redeals and answers < redeals[-1].answers:
            raise MoveError("a determinized match cannot go back to before its hidden items were dealt again")
        # deals made at a step's start need the flow told of each step start: a traced copy (a sample keeps
        # no trace of its own, so it is replayed from the start and forgets the trace after)
        at_steps = [r for r in redeals if r.steps is not None]
        watch = probe if probe is not None else _StepWatch() if at_steps else None
        if watch is not None:
            watch.deals = at_steps
        game = self.game
        players, labels = len(game.state.players), [entry.label for entry in self.log[:answers]]
        at = bisect.bisect_right(self._checkpoints, answers, key=_answers) - 1
        if game.trace is None or at < 0 or at_steps:
            copy = Match(self.pack, players, game.seed, game.options,
                         forkable=game.trace is not None or watch is not None, log_forced=game.on_forced is not None,
                         checkpoint_every=self._every, _watch=watch)
            copy._replay_dealing(labels, 0, redeals)
            if watch is not None and game.trace is None:
                copy._forget_history()
            return copy
        point = self._checkpoints[at]
        inner = Interpreter(self.pack, players, game.seed, game.options, like=game, data=point.data)
        inner.catch_up(game.trace[:point.trace_length], point.steps, point.data)
        forced = [f for f in self._forced if f.steps < point.steps]
        copy = Match(self.pack, players, game.seed, game.options, game=inner, forkable=True,
                     log_forced=game.on_forced is not None, checkpoint_every=self._every,
                     _resume=(self.log[:point.answers], self._checkpoints[:at + 1], forced), _watch=watch)
        copy._replay_dealing(labels[point.answers:], point.answers, redeals)
        return copy

    def _replay_dealing(self, labels: list[str], answered: int, redeals: list[_Redeal]) -> None:
        """`replay` from `answered` answers on, dealing the hidden items again where a sample's were dealt
        (those dealt at a step's start are dealt by the match's `_StepWatch`, as the flow begins that step).

        (A checkpoint after k answers is taken at a step's start, before the decision a deal after k
        answers waits at: so a deal at `answered` answers is still to be made.)"""
        at_decisions = [r for r in redeals if r.steps is None]
        if not at_decisions:
            self.replay(labels)
            return
        self._redeals.extend(r for r in at_decisions if r.answers < answered)
        later = [r for r in at_decisions if answered <= r.answers <= answered + len(labels)]
        for count in range(answered, answered + len(labels) + 1):
            while later and later[0].answers == count:
                self._deal(later.pop(0))
            if count < answered + len(labels):
                self.apply_label(labels[count - answered])

    def to_log(self) -> GameLog:
        if self._redeals:
            raise MoveError("a determinized match has no log: its hidden items were dealt again")
        game = self.game
        log = GameLog(pack=self.pack.id, version=self.pack.version, players=len(game.state.players), seed=game.seed,
                      options={k: v for k, v in game.options.items() if v}, decisions=self._with_forced(),
                      pack_path=self.pack.root, finished=self.done)
        if self.done:
            outcome = self.outcome()
            log.hash, log.scores, log.winners = outcome.hash, [r.score for r in outcome.results], outcome.winners
        return log

    def _with_forced(self) -> list[dict[str, Any]]:
        """The answers as the log file holds them (their labels made now), with the decisions taken without
        asking where they happened."""
        if not self._forced:
            return [answer.to_json() for answer in self.log]
        out: list[dict[str, Any]] = []
        forced = iter(self._forced)
        pending = next(forced, None)
        for i, entry in enumerate([*self.log, None]):
            while pending is not None and pending.answers <= i:
                out.append(pending.entry)
                pending = next(forced, None)
            if entry is not None:
                out.append(entry.to_json())
        return out

    @classmethod
    def from_log(cls, pack: Pack, log: GameLog, agents: list[Agent] | None = None, forkable: bool = True,
                 log_forced: bool = True, checkpoint_every: int = CHECKPOINT_EVERY) -> Match:
        """The logged match, replayed up to its last answer (agents are told each answer)."""
        log.check_options(pack.options)
        match = cls(pack, log.players, log.seed, log.options, forkable=forkable, log_forced=log_forced,
                    checkpoint_every=checkpoint_every)
        match.replay(log.labels(), agents)
        return match

    def replay(self, labels: list[str], agents: list[Agent] | None = None) -> None:
        """Answer with logged labels; agents are told so they can continue identically."""
        for label in labels:
            decision = self.decision
            self.apply_label(label)
            if agents is not None and decision is not None:
                agents[decision.seat].observe(decision, decision.index_of(label))

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.fork()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its pack's folder or name and its log: unpickling loads the pack and replays."""
        return (_unpickled, (self.pack.root or self.pack.id, self.to_log().to_json(), self.game.trace is not None))

    # ---------------------------------------------------------------- observers
    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call `observer(event)` for every event from now on; returns a function that unsubscribes it."""
        self.game.watch(observer)
        return lambda: self.game.unwatch(observer)

    # ---------------------------------------------------------------- agents
    def run(self, agents: list[Agent], stop_after: int | None = None) -> None:
        """Let the agents play until the game ends (or `stop_after` logged decisions).

        The agents answer inside the flow: `Interpreter.ask` calls them at once instead of switching out to this
        loop and back (two greenlet switches per decision); the game pauses for real only at `stop_after`.
        """
        for agent in agents:
            if is_searcher(agent):
                cast(Searcher, agent).bind(self)
        with self._owned():
            self._run(agents, stop_after)

    def _answerer(self, agents: list[Agent]) -> Callable[[Decision], int]:
        """What `Interpreter.ask` calls (`pause`) to have the agents answer in a match that can pause: the match
        notes the decision (a searching agent reads its match: `determinize` starts from it), then the seat's
        agent answers as in a match played through (`InPlace`)."""
        match = self
        answering = self._in_place(agents)

        def answer_here(decision: Decision) -> int:
            match.decision = decision
            return answering(decision)

        return answer_here

    def _in_place(self, agents: list[Agent]) -> InPlace:
        """The agents answering inside `ask` (`InPlace`), logging to this match's log."""
        return InPlace(self.game, [agent.choose for agent in agents], [by_size(agent) for agent in agents],
                       [uniform_draw(agent) for agent in agents], self._log, LoggedAnswer, self._record)

    def _run(self, agents: list[Agent], stop_after: int | None) -> None:
        game = self.game
        if self.decision is None:
            return
        answer_here = self._answerer(agents)

        def answer_here_until(decision: Decision) -> int:
            if len(self.log) >= cast(int, stop_after):
                return self._parent().switch(decision)
            return answer_here(decision)

        game.pause = answer_here if stop_after is None else answer_here_until
        try:
            while self.decision is not None:
                if stop_after is not None and len(self.log) >= stop_after:
                    return
                decision = self.decision
                index = answer_here(decision)
                self._advance(index)
        except AgentFailed as failed:
            raise failed.error from None
        finally:
            game.pause = self._parent().switch

    # ---------------------------------------------------------------- threads
    def _owned(self) -> _Owned:
        return _Owned(self)

    def _adopt_thread(self) -> None:
        """Rebuild the flow in the calling thread (a greenlet cannot be resumed from another thread)."""
        if self.decision is None:
            self._thread = threading.get_ident()
            return
        self._take(self._replayed(len(self.log)))

    def _take(self, other: Match) -> None:
        """Become `other` (a rebuilt copy of this match), keeping this match's observers."""
        if other.game.trace is not None:
            other.game.at_step = self._at_step   # (its checkpoint_at is planned already)
        for observer in self.game.observers:
            other.game.watch(observer)
        if other.game.on_forced is not None:
            other.game.on_forced = self._note_forced
        self.game, self.log, self.decision, self._checkpoints = other.game, other.log, other.decision, \
            other._checkpoints
        self._forced, self._redeals = other._forced, other._redeals
        self._flow, self._thread = other._flow, other._thread


@dataclass(frozen=True, slots=True)
class _Forced:
    """A decision taken without asking, after `answers` answers, in flow step number `steps`."""

    answers: int
    steps: int
    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Redeal:
    """Hidden items dealt again for `seat` after `answers` answers, by a generator in state `rng` (that ended
    in state `after`), the items with uids `pinned` staying where they were (None: the items the decision
    pending there offers): enough to deal them the same way when a sample is forked. `steps`: dealt as flow
    step number `steps` (`State.steps`) began, before its first statement ran (a simultaneous step's start);
    None: at the decision pending after `answers` answers."""

    answers: int
    seat: int
    rng: Any
    pinned: tuple[int, ...] | None = None
    after: Any = None
    steps: int | None = None


@dataclass(frozen=True, slots=True)
class _DealPoint:
    """Where a simultaneous step began, in a copy replayed up to it: flow step number `steps` began with the
    flow trace `trace` and the state `data`, the copy having dealt `redeals` and taken `forced` by then. A
    sample made inside that step is this state dealt again, its flow caught up with `trace` (`catch_up`)."""

    steps: int
    trace: list[Any]
    data: dict[str, Any]
    redeals: list[_Redeal]
    forced: list[_Forced]


class _StepWatch:
    """A copy's `Interpreter.at_step` (told at each flow step's start, once `first()` decisions were asked): it
    makes the deals `deals` at the step starts they were made at (`_Redeal.steps`, in order), and with
    `since`, notes each step start right after a simultaneous step began after `since` answers, before any
    statement of it ran (`points`; a simultaneous step's own start comes before the statement that says the
    step is secret, `State.secret_since`: the start of its first seat's first sub-step is the first where it
    says so, and only the seat order was read in between)."""

    def __init__(self, since: int | None = None) -> None:
        self.deals: list[_Redeal] = []
        self.since = since
        self.match: Match | None = None   # (set by the match it watches)
        self.points: list[_DealPoint] = []
        self._open = True   # the last step start seen was outside every simultaneous step

    def first(self) -> int:
        """The decisions asked before the first step start this watch needs to be told of."""
        return min([r.answers for r in self.deals] + ([] if self.since is None else [self.since]), default=NEVER)

    def __call__(self, trace_length: int) -> None:
        match = self.match
        assert match is not None
        state, deals = match.game.state, self.deals
        while deals and deals[0].steps == state.steps:
            match._deal_at_step(deals.pop(0))
        if self.since is not None and state.decisions == self.since:
            if state.secret_since is None:
                self._open = True
            elif self._open and state.secret_since == self.since:
                self._open = False
                trace = match.game.trace
                assert trace is not None
                self.points.append(_DealPoint(state.steps, trace[:trace_length], state.to_data(),
                                              list(match._redeals), list(match._forced)))


@dataclass(frozen=True, slots=True)
class _SecretCall:
    """A `_secret_sample` call: at `decision`, for `seat`, with a generator in state `rng` (left in state
    `after`), it made the sample `recipe` says how to make again (its deal, then its answers' indexes), or
    none."""

    decision: Decision
    seat: int
    rng: Any
    after: Any
    recipe: tuple[_Redeal, list[int]] | None


@dataclass(slots=True)
class _SecretStart:
    """What every sample for `seat` at `decision` (after `answers` answers) shares, worked out at the first:
    the simultaneous step began after `since` answers; the items `seat` sees (`seen`); those pinned at the
    deal (`pins`: seen or offered to it); its view's key (`want`); its own answers since (labels, `mine`);
    the others' answers it knows of (`known`); where the deal at the step's start deals (`plan`, made on the
    first try), and where that deal is made (`point`: the step's start; None if no copy found it). An MCTS
    decision makes a sample per iteration, each of several tries."""

    decision: Decision
    seat: int
    answers: int
    since: int
    seen: set[int]
    pins: tuple[int, ...]
    want: int
    mine: list[str]
    known: dict[_Asked, list[str]]
    point: _DealPoint | None
    plan: DealPlan | None = None


def _take_known(decision: Decision, known: dict[_Asked, list[str]], seen: set[int]) -> int | None:
    """The option of `decision` that gives the first answer of `known` (labels by how they were asked) it can
    give again (asked alike, and known in the sample too), taken off `known`; None when there is none."""
    labels = known.get(_asked(decision))
    if labels:
        for at, label in enumerate(labels):
            index = _index_of(decision, label)
            if index is not None and _known(decision, index, seen):
                del labels[at]
                return index
    return None


def _secret_option(decision: Decision, seen: set[int], rng: random.Random) -> int:
    """A random option for another seat's answer that `seat` does not know: not one it would know of (`_known`),
    if there is another."""
    options = [i for i in range(decision.size) if not _known(decision, i, seen)] or list(range(decision.size))
    return options[int(rng.random() * len(options))]


def _known(decision: Decision, index: int, seen: set[int]) -> bool:
    """Whether every seat was told option `index` of `decision` was chosen, or it takes only items of `seen`
    (it names items, each one of `seen`, by uid)."""
    if decision.public(index):
        return True
    payload = decision.payloads[index] if index < len(decision.payloads) else None
    if isinstance(payload, Item):   # (most options that name items name one)
        return payload.uid in seen
    if isinstance(payload, list | tuple):
        items = offered_items(payload)
        return bool(items) and all(item.uid in seen for item in items)
    return False


_Asked = tuple[int, str, DecisionKind]


def _asked(decision: Decision) -> _Asked:
    """How `decision` was asked as far as every seat may know: two decisions are alike when the same seat was
    asked, in the same step, the same kind of question (the prompt may name hidden items)."""
    return decision.seat, decision.step, decision.kind


def _index_of(decision: Decision, label: str) -> int | None:
    """The option of `decision` labelled `label` (as `apply_label` finds it), or None."""
    try:
        return decision.index_of(label)
    except KeyError:
        return None


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    """The state at a flow step's start: after `answers` answers, at flow step `steps`, trace length then."""

    answers: int
    steps: int
    trace_length: int
    data: dict[str, Any]


def _unpickled(spec: str, log: dict[str, Any], forkable: bool) -> Match:
    from engine.compile.loading import load_pack  # only here: a running match needs no compiler
    return Match.from_log(load_pack(spec), GameLog.from_json(log), forkable=forkable)


def _stop_outside_repeat(exc: StopLoop) -> RuleError:
    """`stop` ran outside any `repeat` (a procedure's `stop` ends its caller's repeat)."""
    where = exc.args[0]() if exc.args else None
    return RuleError("'stop' ran outside any repeat: there is no loop for it to end", where)


def _answers(checkpoint: _Checkpoint) -> int:
    return checkpoint.answers


def _end(flow: greenlet) -> None:
    """End a paused flow of this thread (it unwinds at once); a flow that has ended needs nothing."""
    if not flow.dead:
        flow.parent = getcurrent()     # where the flow returns once it has unwound
        flow.throw(GreenletExit)


class _Owned:
    """Held while a match is being advanced: refuses a second thread, moves the flow to a new one."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def __enter__(self) -> None:
        match = self.match
        if not match._busy.acquire(blocking=False):
            raise MoveError("this match is being advanced by another call (one caller at a time)")
        if match._thread != threading.get_ident():
            try:
                match._adopt_thread()
            except BaseException:
                match._busy.release()
                raise

    def __exit__(self, *exc: object) -> None:
        self.match._busy.release()
