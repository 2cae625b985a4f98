"""A person at the terminal: sees the seat's view and news as a table shows them, asks for rules text
(`?N`, `help N`) and the log (`log`) before answering."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, TextIO

from engine.play.seat_feed import SeatFeed
from engine.play.table_text import TableText
from engine.runtime.decision import Decision

LOG_LINES = 30   # events `log` prints


class HumanAgent:
    """Answers decisions from typed lines: an option's number or label, or a question first."""

    def __init__(self, table: TableText, feed: SeatFeed | None = None, stdin: TextIO | None = None) -> None:
        self.table, self.feed, self._stdin = table, feed, stdin

    @property
    def stdin(self) -> TextIO:
        return self._stdin or sys.stdin  # looked up at use, so redirection after import works

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        table, out, seat = self.table, self.table.out, decision.seat
        out.write(f"\n== seat {seat + 1} ({decision.step}) ==\n")
        if self.feed is not None:
            table.show_events(self.feed.since_mark(), seat, "Since your last answer")
        table.show_view(view, seat)
        table.show_decision(decision)
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("input ended while a decision was pending")
            answer = line.strip()
            index = self._question(answer, decision)
            if index is not None:
                if 0 <= index < len(decision.labels):
                    table.show_option(decision, index)
                else:
                    out.write(f"  there is no option {index + 1}\n")
                continue
            if answer == "log":
                table.show_events(self.feed.recent(LOG_LINES) if self.feed else [], seat, "Recent events")
                continue
            chosen = self._answer(answer, decision)
            if chosen is not None:
                if self.feed is not None:
                    self.feed.answered()
                return chosen
            out.write(f"  please type 1-{len(decision.labels)}, an option's text, ?N for its rules or log\n")

    @staticmethod
    def _question(answer: str, decision: Decision) -> int | None:
        """`?N` / `help N` -> N-1; None when the line is not a question."""
        for head in ("?", "help "):
            if answer.startswith(head) and answer[len(head):].strip().isdigit():
                return int(answer[len(head):].strip()) - 1
        return None

    @staticmethod
    def _answer(answer: str, decision: Decision) -> int | None:
        if answer.isdigit() and 1 <= int(answer) <= len(decision.labels):
            return int(answer) - 1
        try:
            return decision.index_of(answer)
        except KeyError:
            return None

    def observe(self, decision: Decision, index: int) -> None:
        return None
