"""Per-item visibility, the deck-exhausted event and zone sizes by player count, alone.

The fixture pack tests/fixtures/packs/topdeck: a deck with only its top card visible (`visibility: top`),
a market of 2 cards (2 players) or 3 (more), cards programmed face down (`face_down: down`) and flipped,
and a trigger on `exhausted` that sees the discard pile before it is shuffled back into the deck.
"""

from __future__ import annotations

from pathlib import Path

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.context import Ctx
from engine.runtime.events import Event
from engine.runtime.views import snapshot

PACK = Path(__file__).parent / "fixtures" / "packs" / "topdeck"


def _match(players: int) -> Match:
    return Match(load_pack(str(PACK)), players, 3, {})


def test_only_the_top_of_the_deck_is_seen() -> None:
    match = _match(2)
    deck = match.game.state.zones["deck"]
    for seat in (0, 1, None):
        shown = snapshot(match.game, seat)["zones"]["deck"]
        assert shown[0]["uid"] == deck.items[0].uid
        assert all(entry == {"face_down": True, "name": "face down"} for entry in shown[1:])
        assert len(shown) == len(deck.items)


def test_market_size_by_player_count() -> None:
    assert len(_match(2).game.state.zones["market"].items) == 2
    three = _match(3)
    assert len(three.game.state.zones["market"].items) == 3
    three.apply(0)                                           # a card leaves: the market refills to 3
    assert len(three.game.state.zones["market"].items) == 3
    assert three.game.state.zones["market"].keep_filled == 3
    assert three.fork().game.state.zones["market"].keep_filled == 3


def test_face_down_items_are_seen_by_their_owner_only_until_flipped() -> None:
    match = _match(2)
    events: list[Event] = []
    match.game.watch(events.append)
    match.apply(0)                                           # P1 programs an order from hand, face down
    card = match.game.state.players[0].zones["program"].items[0]
    mine = snapshot(match.game, 0)["players"][0]["zones"]["program"]
    theirs = snapshot(match.game, 1)["players"][0]["zones"]["program"]
    assert mine[0]["uid"] == card.uid
    assert theirs == [{"face_down": True, "name": "face down"}]
    moved = [e for e in events if e.kind.value == "moved" and e.data.get("to") == ["program", 0]]
    assert moved and all("item" not in e.data for e in moved if e.seen_by(1))
    assert any(e.data.get("item") == card.uid for e in moved if e.seen_by(0))
    match.apply(0)                                           # P1 takes a market card: public, seen by all
    taken = [e for e in events if e.kind.value == "moved" and e.data.get("to") == ["taken", 0]]
    assert taken and all("item" in e.data for e in taken if e.seen_by(1))
    for _ in range(2):                                       # P1 takes, P2 programs and takes; all flip
        match.apply(0)
    assert card.zone is match.game.state.players[0].zones["hand"] and not card.attrs["down"]


def test_the_deck_end_event_comes_before_the_reshuffle() -> None:
    match = _match(4)
    game = match.game
    while not match.done and game.state.counters["alarms"] == 0:
        match.apply(0)
    assert game.state.counters["alarms"] == 1
    assert game.state.counters["discards_seen"] > 0          # the trigger saw the discard pile still full
    assert not game.state.zones["discard"].items or game.state.zones["deck"].items   # then it became the deck


def test_taking_a_card_from_under_the_top_tells_no_one_which() -> None:
    match = _match(2)
    game = match.game
    events: list[Event] = []
    game.watch(events.append)
    deck, hand = game.state.zones["deck"], game.state.players[0].zones["hand"]
    second, top = deck.items[1], deck.items[0]
    game.move(Ctx(game, 0), second, hand)              # from under the visible top into P1's hand
    game.move(Ctx(game, 0), top, hand)                 # the visible top itself
    moves = [e for e in events if e.kind.value == "moved"]
    assert moves[0].data["item"] == second.uid and moves[0].visible_to == frozenset({0})
    assert "item" not in moves[1].data and moves[1].visible_to == frozenset({1})    # P2 is told: a card
    assert moves[2].data["item"] == top.uid and moves[2].visible_to == frozenset({0, 1})
