"""A zone's size kept secret while a `simultaneous` step runs (`size: secret_in_simultaneous`), alone.

The fixture pack tests/fixtures/packs/divider: each round every seat commits chips from hand to a stash
at once, then draws as many from its pile; the stashes are revealed together. How many chips P1 commits
is P1's plan: until the step is over, P2 must not learn it from its view, its seen key (what searching
bots compare samples by), its feed, its page at `serve`, the terminal, or any event it may see.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.play.rules_text import load_with_rules
from engine.play.seat_feed import SeatFeed
from engine.play.table_text import TableText
from engine.runtime.events import Event, EventKind
from engine.runtime.views import snapshot

PACK = Path(__file__).parent / "fixtures" / "packs" / "divider"
SECRET = ("pile", "hand", "stash")


def _commit(match: Match, chips: int) -> None:
    """The seat to move commits `chips` chips, then stops (committing its whole hand ends the choice)."""
    assert match.decision is not None
    seat = match.decision.seat
    for _ in range(chips):
        match.apply_label("Chip")
    if match.decision is not None and match.decision.seat == seat:
        match.apply_label("done")


def _after_p1_commits(chips: int) -> tuple[Match, list[Event], SeatFeed]:
    """A 2-player match (seed 3) at P2's first decision, P1 having committed `chips` chips."""
    match = Match(load_pack(str(PACK)), 2, 3, {})
    events: list[Event] = []
    feed = SeatFeed(1)
    match.subscribe(events.append)
    match.subscribe(feed)
    _commit(match, chips)
    assert match.decision is not None and match.decision.seat == 1
    return match, events, feed


def test_the_other_seat_sees_neither_the_items_nor_how_many_while_the_step_runs() -> None:
    games = [_after_p1_commits(n) for n in range(4)]
    sizes = [{z: len(m.view(None)["players"][0]["zones"][z]) for z in SECRET} for m, _, _ in games]
    assert len({tuple(s.values()) for s in sizes}) == 4         # the real sizes differ in every game
    first, _, first_feed = games[0]
    for match, events, feed in games:
        theirs = match.view(1)["players"][0]["zones"]
        assert all(theirs[z] == {"hidden": None} for z in SECRET)
        assert theirs["spent"] == {"hidden": 0}                  # the default: a size is shown
        assert match.view(1) == first.view(1)
        assert match.seen_key(1) == first.seen_key(1)
        assert feed.events == first_feed.events
        assert [e.to_json() for e in events if e.seen_by(1)] == [e.to_json() for e in games[0][1] if e.seen_by(1)]
        assert isinstance(match.view(0)["players"][0]["zones"]["stash"], list)   # the owner sees the items


def test_no_event_it_may_see_tells_it_a_move_or_a_draw_in_the_step() -> None:
    _, events, _ = _after_p1_commits(2)
    in_step = [e for e in events if e.seat == 0 and e.kind in (EventKind.MOVED, EventKind.DRAWN, EventKind.ANSWERED)]
    assert {e.kind for e in in_step} == {EventKind.MOVED, EventKind.DRAWN, EventKind.ANSWERED}
    assert all(not e.seen_by(1) and e.seen_by(0) for e in in_step)


def test_sizes_show_again_once_the_step_is_over() -> None:
    match = Match(load_pack(str(PACK)), 2, 3, {})
    seen: list[dict[str, Any]] = []

    def at_score(event: Event) -> None:
        if event.kind == EventKind.STEP_STARTED and event.data["step"] == "rounds/score":
            seen.append(snapshot(match.game, 1)["players"][0]["zones"])
    match.subscribe(at_score)
    _commit(match, 2)
    _commit(match, 1)
    assert seen and seen[0]["hand"] == {"hidden": 3} and seen[0]["pile"] == {"hidden": 3}
    assert len(seen[0]["stash"]) == 2                            # revealed by the step's `reveal:`


def test_the_page_at_serve_is_the_same_whatever_the_other_seat_committed() -> None:
    pytest.importorskip("starlette")
    from engine.serve.table import Table

    pack, rules = load_with_rules(str(PACK))
    pages = []
    for chips in range(3):
        table = Table.new("1", pack, rules, ["human", "human"], 3, {}, None)
        _commit(table.match, chips)
        page = table.payload(1)
        assert all(page["view"]["players"][0]["zones"][z] == {"hidden": None} for z in SECRET)
        pages.append(page)
    assert pages[0] == pages[1] == pages[2]


def test_the_terminal_says_hidden_without_a_count() -> None:
    match, _, _ = _after_p1_commits(2)
    _, rules = load_with_rules(str(PACK))
    out = io.StringIO()
    sections = dict(TableText(rules, out, fancy=False).sections(match.view(1), 1))
    rows = dict(sections["P1 (seat 1)"])
    assert rows["Hand"] == rows["Stash"] == rows["Pile"] == "(hidden)"
    assert "Spent" not in rows                                   # an empty hidden zone, as before


def test_explain_prints_the_rule_and_lint_is_silent(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import main

    assert main(["explain", str(PACK), "stash"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Zone Stash (stash): while players choose at once (a simultaneous step, until its reveal), those who"
        " cannot see the items in a player's Stash do not see how many there are either")
    assert main(["lint", str(PACK), "--games", "1"]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().err
