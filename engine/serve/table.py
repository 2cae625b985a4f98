"""One table of `cogwork serve`: a match, who sits where (people with secret tokens, bots), each seat's
event feed, and the log kept on disk after every answer so a crash loses nothing.

Framework-free: the web app (engine/serve/app.py) calls `answer`, `undo`, `bot_step` and `payload`;
everything a seat receives is built by `payload(seat)` from the seat's redacted view and its own feed.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import MoveError
from engine.play.agents import Searcher
from engine.play.bots import DEFAULT, BotSpec
from engine.play.layout import layout
from engine.play.log import GameLog
from engine.play.match import Match
from engine.play.rules_text import RulesText
from engine.play.seat_feed import SeatFeed
from engine.runtime.defs import Pack

HUMAN, BOT = "human", "bot"
PAST_EVENTS = 200   # events a page receives when it (re)connects


class RefusedError(Exception):
    """An answer or undo that is not applied, with the message the page shows."""


@dataclass
class _Answered:
    """Answer number `answers`, and how long each seat's feed was before it (what it caused comes after;
    undoing it cuts the feeds back to these lengths)."""

    answers: int
    feed_lengths: dict[int, int] = field(default_factory=dict)


class Table:
    """A served match. `changes` counts every change (a bot's answer is applied only if none came since it
    began to think); a page sees `page_version(seat)`, which moves only when what that seat is shown moves,
    so it can tell a stale answer without learning how many secret answers another seat gave."""

    def __init__(self, name: str, pack: Pack, rules: RulesText, match: Match, seats: list[str],
                 log_path: Path | None, seed: int, bots: dict[int, BotSpec] | None = None) -> None:
        """`bots`: the kind of each bot seat named (random for the others)."""
        self.name, self.pack, self.rules, self.match, self.seats = name, pack, rules, match, seats
        self.log_path, self.seed = log_path, seed
        self.tokens = {secrets.token_urlsafe(16): seat for seat, kind in enumerate(seats) if kind == HUMAN}
        self.feeds = {seat: SeatFeed(seat) for seat in range(len(seats))}
        for feed in self.feeds.values():
            match.subscribe(feed)
        kinds = bots or {}
        self.bots = {seat: kinds.get(seat, BotSpec(DEFAULT)).make(seed, seat)
                     for seat, kind in enumerate(seats) if kind == BOT}
        self.bot_kinds = {seat: str(kinds.get(seat, BotSpec(DEFAULT))) for seat in self.bots}
        for bot in self.bots.values():
            if isinstance(bot, Searcher):
                bot.bind(match)
        self.thinking = False   # a bot is choosing (in a worker thread): the match must not change meanwhile
        self.history: list[_Answered] = []
        self.changes = 0
        self._shown: dict[int, tuple[bytes, int]] = {}   # per seat: digest of its last payload, its version
        self.layout = layout(pack)
        self._save()

    @classmethod
    def new(cls, name: str, pack: Pack, rules: RulesText, seats: list[str], seed: int,
            options: dict[str, bool], log_path: Path | None, bots: dict[int, BotSpec] | None = None) -> Table:
        return cls(name, pack, rules, Match(pack, len(seats), seed, options, forkable=True), seats, log_path, seed,
                   bots)

    @classmethod
    def resume(cls, name: str, pack: Pack, rules: RulesText, log: GameLog, seats: list[str],
               log_path: Path | None, bots: dict[int, BotSpec] | None = None) -> Table:
        return cls(name, pack, rules, Match.from_log(pack, log, forkable=True), seats, log_path, log.seed, bots)

    # ---------------------------------------------------------------- who may do what
    def seat_of(self, token: str) -> int | None:
        return self.tokens.get(token)

    def bot_to_move(self) -> bool:
        decision = self.match.decision
        return decision is not None and decision.seat in self.bots

    # ---------------------------------------------------------------- changes
    def answer(self, seat: int, index: int, version: int) -> None:
        """A person's answer to the decision their page showed at `version`; refused unless that is still
        what the page would show."""
        decision = self.match.decision
        if version != self.page_version(seat):
            raise RefusedError("that decision was already answered (another tab?): the table is up to date now")
        if decision is None or decision.seat != seat:
            raise RefusedError("it is not your turn")
        if not 0 <= index < len(decision.labels):
            raise RefusedError(f"there is no option {index + 1}")
        self._apply(index)

    def bot_step(self) -> None:
        """One bot answer (the app calls this after a short, visible delay)."""
        thought = self.bot_think()
        if thought is not None:
            self.bot_answer(*thought)

    def bot_think(self) -> tuple[int, int] | None:
        """The bot to move's choice and the table version it was made at (None: no bot to move).

        Safe in a worker thread while the page keeps being served: a searching bot reads the match only
        through forks and samples, and nothing changes the match while `thinking` (undo is refused)."""
        decision = self.match.decision
        if decision is None or decision.seat not in self.bots:
            return None
        version = self.changes
        self.thinking = True
        try:
            return version, self.bots[decision.seat].choose(self.match.view(decision.seat), decision)
        finally:
            self.thinking = False

    def bot_answer(self, version: int, index: int) -> None:
        """Apply a bot's choice, unless the table changed since it was made."""
        if version == self.changes and self.bot_to_move():
            self._apply(index)

    def _apply(self, index: int) -> None:
        decision = self.match.decision
        assert decision is not None
        before = {s: len(f.events) for s, f in self.feeds.items()}
        self.match.apply(index)
        self.feeds[decision.seat].answered()
        self.history.append(_Answered(len(self.match.log), before))
        self.changes += 1
        self._save()

    def can_undo(self, seat: int) -> int:
        """How many answers undoing `seat`'s last answer takes back (0: none may be): only bots may have
        answered since, and nothing this seat could not see before may have reached it since.

        Inside a `simultaneous` step with other people at the table, only while the seat is still the one
        to answer: whether another person answered since is their secret, and an undo button that went
        away when they did would tell it."""
        log = self.match.log
        decision = self.match.decision
        if self.match.game.state.secret_since is not None and (decision is None or decision.seat != seat) \
                and any(kind == HUMAN for s, kind in enumerate(self.seats) if s != seat):
            return 0
        mine = [i for i, entry in enumerate(log) if entry.seat == seat]    # (forced decisions are not in it)
        if not mine:
            return 0
        last = mine[-1]
        if any(log[i].seat not in self.bots for i in range(last + 1, len(log))):
            return 0
        since = next((h for h in self.history if h.answers == last + 1), None)
        if since is None:          # answered before this server started (a resumed log): no feed to check
            return 0
        news = self.feeds[seat].events[since.feed_lengths[seat]:]
        if any(self._reveals(event, seat) for event in news):
            return 0
        return len(log) - last

    def _reveals(self, event: dict[str, Any], seat: int) -> bool:
        """Did `event` show `seat` something it could not see before (an item out of a hidden zone)?"""
        if event["kind"] == "revealed" and event.get("components"):
            return True
        if event["kind"] == "drawn":
            return True
        if event["kind"] == "moved" and event.get("component"):
            source = event.get("from")
            if isinstance(source, list) and len(source) == 2:
                zdef = self.pack.zones.get(str(source[0]))
                visible = zdef is not None and (zdef.visibility == "public"
                                                or (zdef.visibility == "owner" and source[1] == seat))
                return not visible
        return False

    def undo(self, seat: int, version: int) -> None:
        if self.thinking:
            raise RefusedError("a bot is choosing its answer: undo once it has answered")
        if version != self.page_version(seat):
            raise RefusedError("the table moved on: undo again if you still want to")
        n = self.can_undo(seat)
        if n == 0:
            raise RefusedError("nothing to undo: others answered since, or something hidden was revealed")
        keep = len(self.match.log) - n
        undone = next(h for h in self.history if h.answers == keep + 1)
        try:
            self.match.undo(n)
        except MoveError as exc:
            raise RefusedError(str(exc)) from None
        self.history = [h for h in self.history if h.answers <= keep]
        for s, feed in self.feeds.items():
            del feed.events[undone.feed_lengths[s]:]
            feed.mark = min(feed.mark, len(feed.events))
        self.changes += 1
        self._save()

    def _save(self) -> None:
        """Write the log (to a temporary file first, then rename: a crash mid-write keeps the old one)."""
        if self.log_path is None:
            return
        tmp = self.log_path.with_suffix(self.log_path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.match.to_log().to_json(), indent=1))
        os.replace(tmp, self.log_path)

    # ---------------------------------------------------------------- what a seat receives
    def page_version(self, seat: int) -> int:
        """The version of what `seat`'s page shows now (see `payload`)."""
        return int(self.payload(seat)["version"])

    def payload(self, seat: int) -> dict[str, Any]:
        """Everything the page of `seat` shows: its redacted view, its decision, rules text of the options
        and of every card it can see, the recent part of its feed (`new`: since its last answer), and a
        `version` that moves only when the rest of the payload does (a digest of it is kept per seat)."""
        data = self._content(seat)
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).digest()
        shown = self._shown.get(seat)
        version = 0 if shown is None else shown[1] + (shown[0] != digest)
        self._shown[seat] = (digest, version)
        data["version"] = version
        return data

    def _content(self, seat: int) -> dict[str, Any]:
        match, rules = self.match, self.rules
        view = match.view(seat)
        decision = match.decision
        feed = self.feeds[seat]
        first = max(0, len(feed.events) - PAST_EVENTS)
        data: dict[str, Any] = {
            "table": self.name, "pack": self.pack.name, "seat": seat,
            "seats": [{"seat": s, "kind": kind, **({"bot": self.bot_kinds[s]} if s in self.bot_kinds else {})}
                      for s, kind in enumerate(self.seats)],
            "names": self._names(view), "view": view, "layout": self.layout,
            "cards": {cid: rules.card(cid) for cid in _components(view)},
            "events": [{"text": line, "kind": e["kind"], "new": i >= feed.mark}
                       for i, e in enumerate(feed.events[first:], first) if (line := rules.event(e, seat))],
            "to_move": None if decision is None else decision.seat,
            "decision": None, "can_undo": self.can_undo(seat) > 0, "result": None,
        }
        if decision is not None and decision.seat == seat:
            data["decision"] = {
                "prompt": rules.prompt(decision), "kind": decision.kind.value,
                "options": [{"index": i, "label": label, "short": rules.short(decision, i),
                             "text": rules.option(decision, i)} for i, label in enumerate(decision.labels)]}
        if decision is None:
            outcome = match.outcome()
            data["result"] = {"scores": [{"seat": r.seat, "score": r.score, "breakdown": r.breakdown}
                                         for r in outcome.results],
                              "winners": outcome.winners, "verdict": outcome.verdict.value}
        return data

    def _names(self, view: dict[str, Any]) -> dict[str, str]:
        keys = set(view["counters"]) | set(view["zones"]) | set(view.get("dice", {}))
        for player in view["players"]:
            keys |= set(player["counters"]) | set(player["zones"])
        return {k: self.rules.name(k) for k in sorted(keys)}


def _components(view: dict[str, Any]) -> set[str]:
    """Component ids of every item the view shows (a face-down item shows none: only that it is there)."""
    zones = [*view["zones"].values()]
    for player in view["players"]:
        zones += player["zones"].values()
    return {item["id"] for zone in zones if isinstance(zone, list) for item in zone if "id" in item}
