"""The terminal player: options read as rules text (labels stay as logged), `?N`, `log`, news since the
last answer, and `cogwork play --human` end to end on a shipped pack."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from engine.play.match import Match
from engine.play.rules_text import load_with_rules
from engine.play.seat_feed import SeatFeed
from engine.play.table_text import TableText
from engine.play.terminal_player import HumanAgent
from tests.test_engine_mechanisms import make_pack
from tests.test_engine_mechanisms_rf import flow

ROOT = Path(__file__).resolve().parents[1]
COINS = """\
counters:
  coin: {name: Gold Coin, resource: true}
zones:
  pool: {}
"""


def _table(tmp_path: Path, effect: str) -> tuple[Match, HumanAgent, io.StringIO, SeatFeed]:
    make_pack(tmp_path, COINS + flow(effect))
    pack, rules = load_with_rules(str(tmp_path / "toy"))
    feed = SeatFeed(0)
    match = Match(pack, 2, 1, observers=[feed])
    out = io.StringIO()
    return match, HumanAgent(TableText(rules, out), feed), out, feed


def test_choose_alternatives_and_may_read_as_rules_text_and_keep_their_labels(tmp_path: Path) -> None:
    match, human, out, _ = _table(tmp_path, "choose { gain 1 coin | gain 2 coin }\nmay { gain 3 coin }\n")
    assert match.decision is not None and match.decision.labels == ["gain 1 coin", "gain 2 coin"]
    human._stdin = io.StringIO("?2\n2\n")
    assert human.choose(match.view(0), match.decision) == 1
    text = out.getvalue()
    assert "  1) Gain 1 Gold Coin\n  2) Gain 2 Gold Coins\n" in text
    assert "  2) gain 2 coin\n     Gain 2 Gold Coins.\n" in text     # ?2: the stored label and its rules
    match.apply(1)
    assert match.decision is not None and match.decision.labels == ["yes: gain 3 coin", "no"]
    out.truncate(0)
    human._stdin = io.StringIO("yes: gain 3 coin\n")
    assert human.choose(match.view(0), match.decision) == 0
    assert "Do this? Gain 3 Gold Coins.:\n  1) Yes: Gain 3 Gold Coins\n  2) no\n" in out.getvalue()


def test_news_since_the_last_answer_and_the_log(tmp_path: Path) -> None:
    match, human, out, feed = _table(tmp_path, "gain 2 coin\nchoose { gain 1 coin | gain 2 coin }\n")
    human._stdin = io.StringIO("log\n?9\nnonsense\n1\n")
    assert match.decision is not None
    assert human.choose(match.view(0), match.decision) == 0
    text = out.getvalue()
    assert "-- Since your last answer --\n  you gained 2 Gold Coins\n" in text
    assert "-- Recent events --\n  you gained 2 Gold Coins\n" in text
    assert "there is no option 9" in text and "please type 1-2" in text
    assert feed.since_mark() == []
    match.apply(0)   # seat 2 gains 2 (public): news for seat 1's next turn
    assert any(e["kind"] == "gained" and e["seat"] == 1 for e in feed.since_mark())


def test_play_human_at_the_terminal_shows_cards_names_and_rules(tmp_path: Path) -> None:
    answers = "?1\nhelp 2\nlog\n" + "1\n" * 3
    run = subprocess.run([sys.executable, "-m", "engine.cli", "play", "raising-robots", "--players", "2",
                          "--human", "1", "--stop-after", "3"], input=answers, capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert run.returncode == 0, run.stderr
    text = run.stdout
    assert "-- You (seat 1) --\n  Duct Tape: 3\n  Battery: 3\n" in text          # counters by name
    assert "Central board phase spaces: Upgrade, Assemble, Design, Fabricate, Recycle" in text   # shared zones
    assert "     Cost: 3 Energy, 2 Gears, 1 Microchip and 1 Sensor" in text        # ?1: the card's rules
    assert "-- Recent events --\n" in text and "stopped after 3 decisions" in text


def test_a_display_grid_is_drawn_as_a_grid_plain_and_with_rich() -> None:
    pack, rules = load_with_rules(str(ROOT / "content" / "connect-four"))
    match = Match(pack, 2, 1)
    for _ in range(3):
        match.apply(3)                     # discs 1, 2, 1 in column 4
    for fancy in (False, True):
        out = io.StringIO()
        TableText(rules, out, fancy=fancy).show_view(match.view(0), 0)
        text = out.getvalue()
        assert "Lines" not in text                  # `lines: {as: off}` is not drawn
        rows = [line for line in text.splitlines() if ". . ." in line]
        assert len(rows) == 6 and ". . . 2 . . ." in rows[4] and ". . . 1 . . ." in rows[5]
