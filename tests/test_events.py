"""Events: typed, tagged with who may see them; a seat's feed never names an item that seat cannot see."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.play.log import GameLog
from engine.runtime.decision import Decision, DecisionKind
from engine.runtime.events import Event, EventKind
from engine.runtime.interpreter import Interpreter
from engine.runtime.state import Item

CONTENT = Path(__file__).resolve().parents[1] / "content"
PACKS = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())   # every shipped pack
GAMES = 200
# a Robotopia game takes thousands of decisions (seconds each on 2 cores): fewer games keep the suite fast
GAMES_OF = {"robotopia": 12, "stress-botics": 12}
# packs whose answers never reach another seat: Goofspiel's are card bids from a hidden hand; Connect Four's
# are column numbers, and a chosen plain value stays private because the kernel cannot yet tell one asked in
# the open from a sealed one (a `simultaneous` step's): docs/status.md, issue 15; Robot Factory's are made
# behind the divider (programming) or from a hand (until session 6 its robot assignments to the public action
# slots told the other seat "P1 chose Attack")
NO_PUBLIC_ANSWERS = {"goofspiel", "connect-four", "robot-factory"}


class FeedCheck:
    """An observer that checks, as each event happens, that every seat shown an item may see it."""

    def __init__(self, game: Interpreter) -> None:
        self.game = game
        self.answering: Decision | None = None     # the decision being answered (see `watch_answers`)
        self.seen = self.hidden = self.public = 0
        self.kinds: set[EventKind] = set()

    def __call__(self, event: Event) -> None:
        state = self.game.state
        self.kinds.add(event.kind)
        for seat in range(len(state.players)):
            if not event.seen_by(seat):
                self.hidden += 1
                continue
            self.seen += 1
            data = event.data
            if "label" in data and event.kind in (EventKind.ANSWERED, EventKind.FORCED) and seat != event.seat:
                self.check_public_answer(event, seat)
            if "item" in data:
                item = state.items[data["item"]]
                origin = data.get("from")
                was = state.zone(origin[0], origin[1]) if origin else None
                # `shows`: a `top` zone shows its first item only; an item leaving a `top` zone is named only when
                # it was that first item (the interpreter checks), so leaving one counts as seen
                seen_there = item.zone is not None and item.zone.shows(item, seat)
                saw_it_leave = was is not None and (was.visible_to(seat) or was.visibility == "top")
                assert item.zone is not None and (seen_there or saw_it_leave), \
                    (event, seat)
            if event.kind is EventKind.REVEALED:
                assert event.visible_to is None

    def watch_answers(self, match: engine.Match) -> None:
        """Note each decision as the match records its answer (agents answer inline: `match.decision` lags)."""
        record = match._record

        def noting(decision: Decision, index: int) -> None:
            self.answering = decision
            record(decision, index)
        match._record = noting  # type: ignore[method-assign]

    def check_public_answer(self, event: Event, seat: int) -> None:
        """Another seat is told an answer's label: it must name no item that seat cannot see, and the
        rules asking must not be a hidden item's."""
        decision = self.answering
        assert event.kind is EventKind.ANSWERED
        assert decision is not None and decision.seat == event.seat and decision.open_source
        chosen = decision.labels.index(event.data["label"])
        payload = decision.payloads[chosen]
        parts = payload if isinstance(payload, tuple) else (payload,)   # several parts chosen together
        if all(isinstance(part, Item) for part in parts):
            assert all(part.zone is not None and part.zone.visible_to(seat) for part in parts), (event, seat)
        elif decision.kind not in _TOLD:
            assert decision.kind in (DecisionKind.MAY, DecisionKind.CHOOSE), (event, seat)
            assert decision.is_branch(chosen) or decision.is_branch(0), (event, seat)
        self.public += 1


# answers every seat learns anyway: a die's face (dice pools are public), what a wildcard gain becomes and which
# counters pay (the `gained` and `paid` events tell every seat; tests/test_secret_samples.py checks they agree)
_TOLD = (DecisionKind.REROLL, DecisionKind.GAIN, DecisionKind.PAY)


@pytest.mark.parametrize("name", PACKS)
def test_no_hidden_item_reaches_another_seats_feed(name: str) -> None:
    pack = engine.load_pack(name)
    hidden = seen = public = 0
    kinds: set[EventKind] = set()
    for seed in range(GAMES_OF.get(name, GAMES)):
        players = min(max(2 + seed % 2, pack.min_players), pack.max_players)
        game = Interpreter(pack, players, seed)
        check = FeedCheck(game)             # from the first step on; not forkable: no checkpoints, a cheaper game
        match = engine.Match(pack, players, seed, game=game, observers=[check])
        check.watch_answers(match)
        engine.play_match(match, [engine.RandomAgent(seed, s) for s in range(players)])
        hidden, seen, kinds = hidden + check.hidden, seen + check.seen, kinds | check.kinds
        public += check.public
    assert hidden and seen     # the feeds really differ from seat to seat
    assert public or name in NO_PUBLIC_ANSWERS, "no answer's label ever reached another seat"
    assert {EventKind.ANSWERED, EventKind.STEP_STARTED, EventKind.GAME_ENDED} <= kinds


def test_event_kinds_and_unsubscribe() -> None:
    match = engine.new_match(engine.load_pack("robot-factory"), 2, 3)
    got: list[Event] = []
    stop = match.subscribe(got.append)
    for _ in range(40):
        match.apply(0)
    kinds = {e.kind for e in got}
    assert {EventKind.ANSWERED, EventKind.MOVED, EventKind.DRAWN, EventKind.STEP_STARTED,
            EventKind.REVEALED} <= kinds
    assert all(isinstance(e.to_json()["kind"], str) for e in got)
    fork = match.fork()                     # a fork has its own observers (none)
    count = len(got)
    fork.apply(0)
    assert len(got) == count
    match.undo(1)                           # undo keeps them; the catch-up tells nothing
    assert len(got) == count
    match.apply(0)
    assert len(got) > count
    stop()
    count = len(got)
    match.apply(0)
    assert len(got) == count


def test_forced_moves_are_in_the_log_and_skipped_on_replay(tmp_path: Path) -> None:
    pack = engine.load_pack("raising-robots")
    match = engine.new_match(pack, 2, 4)
    rng = random.Random(4)
    for _ in range(150):
        match.apply(rng.randrange(len(match.legal())))
    log = match.to_log()
    forced = [d for d in log.decisions if d.get("forced")]
    assert forced and len(log.decisions) == 150 + len(forced)
    log.write(tmp_path / "game.json")
    again = engine.Match.from_log(pack, GameLog.read(tmp_path / "game.json"))
    assert again.state_hash() == match.state_hash()
    assert again.to_log().decisions == log.decisions
    match.undo(30)                         # forced moves after the point undone are gone too
    assert match.to_log().decisions == log.decisions[:len(match.to_log().decisions)]
    fork = again.fork()
    assert fork.to_log().decisions == log.decisions
