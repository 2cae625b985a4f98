"""Roboston: the hidden roles never leak, and the pack's scenarios pass.

Leak proof: over seeded random games, at every decision, every seat's view (what an agent is
given: `engine/runtime/views.py`) is searched for the other seats' role cards. Before the
resolution step it may only show the Project Leader's (the public exception) and the seat's own;
the sacrificed role, face down with the leader, stays out of every view until then.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.compile.loading import load_pack
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.play.simulate import play_one
from engine.runtime.decision import Decision
from engine.runtime.views import snapshot

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "content" / "roboston"
SCENARIOS = sorted((PACK / "scenarios").glob("*.yaml"))
LEADER = "project_leader"


def _role_ids(pack: Any) -> set[str]:
    return {cid for cid, comp in pack.components.items() if comp.ctype.id == "role"}


class _Watcher:
    """A random agent that, before each answer, checks every seat's view for leaked roles."""

    def __init__(self, session: Match, seed: int, seat: int, roles: set[str], leaks: list[str]) -> None:
        self.session, self.bot, self.roles, self.leaks = session, RandomAgent(seed, seat), roles, leaks

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        game = self.session.game
        if "resolution" not in str(game.state.step):
            state = game.state
            secret = {p.seat: {i.comp.id for z in ("role_card", "sacrificed") for i in p.zones[z].items}
                      for p in state.players}
            held = {p.seat: {i.comp.id for i in p.zones["role_card"].items} for p in state.players}
            for seat in range(len(state.players)):
                text = json.dumps(snapshot(game, seat), default=str) + json.dumps(decision.labels) + decision.prompt
                for owner, ids in secret.items():
                    for role in ids & self.roles:
                        mine = owner == seat and role in held[owner]
                        public = role == LEADER and role in held[owner]
                        if not (mine or public) and f'"{role}"' in text:
                            self.leaks.append(f"seat {seat + 1} sees {role} of seat {owner + 1} at {game.state.step}")
        return self.bot.choose(view, decision)

    def observe(self, decision: Decision, index: int) -> None:
        self.bot.observe(decision, index)


@pytest.mark.parametrize("seed", range(1, 13))
def test_no_seat_sees_another_seats_hidden_role_before_the_reveal(seed: int) -> None:
    pack = load_pack(str(PACK))
    players = 3 + seed % 4
    session = Match(pack, players, seed, {})
    leaks: list[str] = []
    session.run([_Watcher(session, seed, s, _role_ids(pack), leaks) for s in range(players)])
    assert session.done
    assert leaks == []


def test_the_watcher_catches_a_public_role() -> None:
    """The proof can fail: with the role zones made public, the same watcher reports leaks."""
    pack = load_pack(str(PACK))
    session = Match(pack, 4, 1, {})
    leaks: list[str] = []
    agents = [_Watcher(session, 1, s, _role_ids(pack), leaks) for s in range(4)]
    for player in session.game.state.players:
        player.zones["role_card"].visibility = "public"
    session.run(agents)
    assert leaks


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_finish_replay_and_a_failed_robot_is_a_team_loss(players: int) -> None:
    pack = load_pack(str(PACK))
    for seed in (1, 2):
        record = play_one(pack, players, seed, {}, check_replay=True)
        assert record.error is None and record.replayed
        session = Match(pack, players, seed, {})
        session.run([RandomAgent(seed, s) for s in range(players)])
        failed = session.game.state.counters["failed"] == 1
        assert (record.verdict == "team_loss") == failed
        assert not failed or record.winners == []


def test_the_issue_s_named_scenarios_exist() -> None:
    """A failed launch where everyone loses, a heroic sacrifice and a bullhorn reroll (issue 13)."""
    assert {"failed-launch-everyone-loses", "heroic-sacrifice", "bullhorn-reroll"} <= {p.stem for p in SCENARIOS}
