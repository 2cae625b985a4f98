"""`cogwork serve` on the server side, through Starlette's TestClient: a whole game by WebSocket, no
payload with another seat's hidden items, stale answers from a second tab refused, reload, undo,
resume from the table's log."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from engine.cli import main
from engine.play.log import GameLog
from engine.play.rules_text import load_with_rules
from engine.serve.app import Server, create_app
from engine.serve.table import Table

RF = load_with_rules("robot-factory")


def _table(seats: list[str], seed: int = 3, log: Path | None = None, spec: tuple[Any, Any] = RF) -> Table:
    pack, rules = spec
    return Table.new("1", pack, rules, seats, seed, {}, log)


def _state(ws: Any) -> dict[str, Any]:
    """The next state message (a refusal before it is returned in `refused`)."""
    message = ws.receive_json()
    refused = None
    if message["type"] == "refused":
        refused = message["message"]
        message = ws.receive_json()
    assert message["type"] == "state"
    message["refused"] = refused
    return message


def _synced(ws: Any, key: int) -> tuple[dict[str, Any], int]:
    """Ask for the state (`sync` with id `key`) and read up to its answer: the state, and how many pushed
    states came before it."""
    ws.send_json({"type": "sync", "id": key})
    pushed = 0
    while True:
        message = ws.receive_json()
        if message["type"] == "state" and message.get("sync") == key:
            return message, pushed
        pushed += 1


def test_a_whole_robot_factory_game_as_seat_1_over_the_websocket(tmp_path: Path) -> None:
    log = tmp_path / "table.json"
    table = _table(["human", "bot"], log=log)
    token = next(iter(table.tokens))
    with TestClient(create_app(Server([table], bot_delay=0))) as client:
        page = client.get(f"/t/1/{token}")
        assert page.status_code == 200 and "/static/table.js" in page.text
        assert client.get("/static/table.js").status_code == 200
        assert client.get("/t/1/not-a-token").status_code == 404
        answers = 0
        with client.websocket_connect(f"/ws/1/{token}") as ws:
            state = _state(ws)
            while state["result"] is None:
                if state["decision"] is not None:
                    options = state["decision"]["options"]
                    assert all(o["short"] and "{" not in o["short"] for o in options)
                    ws.send_json({"type": "answer", "index": len(options) - 1, "version": state["version"]})
                    answers += 1
                state = _state(ws)
    assert answers > 10 and state["result"]["winners"]
    assert table.match.done
    saved = GameLog.read(log)                      # the log on disk is the whole game
    assert saved.finished and saved.hash == table.match.state_hash()


def _hidden_uids(table: Table, seat: int) -> set[int]:
    state = table.match.game.state
    zones = [*state.zones.values()] + [z for p in state.players for z in p.zones.values()]
    return {item.uid for zone in zones for item in zone.items if not zone.shows(item, seat)}


def _uids(data: Any) -> set[int]:
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("uid", "item") and isinstance(value, int):
                found.add(value)
            elif key == "items" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, int))
            else:
                found |= _uids(value)
    elif isinstance(data, list):
        for value in data:
            found |= _uids(value)
    return found


class CheckedTable(Table):
    """A table that checks every payload it builds (all a page ever receives) against the hidden state."""

    checked = 0

    def payload(self, seat: int) -> dict[str, Any]:
        data = super().payload(seat)
        leaked = _uids(data) & _hidden_uids(self, seat)
        assert not leaked, f"seat {seat + 1} was sent hidden items {sorted(leaked)}"
        seen = [e for e in self.feeds[seat].events]
        everyone = self._observed
        assert all(e in everyone[seat] for e in seen)
        CheckedTable.checked += 1
        return data


@pytest.mark.parametrize(("pack", "players", "seed"), [("robot-factory", 2, 1), ("robot-factory", 2, 2),
                                                       ("raising-robots", 3, 5), ("goofspiel", 2, 4),
                                                       ("stress-botics", 2, 3)])   # face-down items, deck tops
def test_no_payload_holds_another_seats_hidden_items(pack: str, players: int, seed: int) -> None:
    spec = load_with_rules(pack)
    table = CheckedTable.new("1", spec[0], spec[1], ["human"] * players, seed, {}, None)
    table._observed = {s: [] for s in range(players)}   # an independent observer: what each seat may see

    def observe(event: Any) -> None:
        for s in range(players):
            if event.seen_by(s):
                data = event.to_json()
                data.pop("visible_to")
                table._observed[s].append(data)
    table.match.subscribe(observe)
    rng = random.Random(seed)
    tokens = {seat: token for token, seat in table.tokens.items()}
    with TestClient(create_app(Server([table], bot_delay=0))) as client:
        sockets = [client.websocket_connect(f"/ws/1/{tokens[s]}").__enter__() for s in range(players)]
        states = [_state(ws) for ws in sockets]
        for _ in range(120):
            mover = states[0]["to_move"]
            if mover is None:
                break
            options = states[mover]["decision"]["options"]
            sockets[mover].send_json({"type": "answer", "index": rng.randrange(len(options)),
                                      "version": states[mover]["version"]})
            states = [_synced(ws, _)[0] for ws in sockets]   # a page is pushed a state only when it changed
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert CheckedTable.checked > 100


def test_a_stale_answer_from_a_second_tab_is_refused_not_applied_twice() -> None:
    table = _table(["human", "human"])
    token = next(t for t, seat in table.tokens.items() if seat == 0)
    with TestClient(create_app(Server([table], bot_delay=0))) as client, \
            client.websocket_connect(f"/ws/1/{token}") as tab1, client.websocket_connect(f"/ws/1/{token}") as tab2:
            first, second = _state(tab1), _state(tab2)
            assert first["decision"] == second["decision"] and first["version"] == second["version"]
            tab1.send_json({"type": "answer", "index": 0, "version": first["version"]})
            _state(tab1)
            _state(tab2)                                   # both tabs see the answer
            tab2.send_json({"type": "answer", "index": 1, "version": second["version"]})
            refused = _state(tab2)
            assert refused["refused"] and "already answered" in refused["refused"]
            assert len(table.match.log) == 1 and table.match.log[0]["label"] == first["decision"]["options"][0]["label"]
            tab2.send_json({"type": "answer", "index": 99, "version": refused["version"]})
            assert _state(tab2)["refused"] == "there is no option 100"


def test_reload_mid_game_resyncs_and_play_goes_on() -> None:
    table = _table(["human", "bot"], seed=5)
    token = next(iter(table.tokens))
    with TestClient(create_app(Server([table], bot_delay=0))) as client:
        with client.websocket_connect(f"/ws/1/{token}") as ws:
            state = _state(ws)
            for _ in range(3):
                ws.send_json({"type": "answer", "index": 0, "version": state["version"]})
                state = _state(ws)
                while state["decision"] is None and state["result"] is None:
                    state = _state(ws)
        with client.websocket_connect(f"/ws/1/{token}") as ws:   # the page reloaded
            again = _state(ws)
            assert (again["version"], again["decision"], again["view"]) == (state["version"], state["decision"],
                                                                           state["view"])
            assert any(e["text"] for e in again["events"])
            ws.send_json({"type": "answer", "index": 0, "version": again["version"]})
            assert _state(ws)["refused"] is None


def test_undo_takes_back_the_seats_own_answer_and_the_bots_after_it() -> None:
    pack, rules = load_with_rules("tic-tac-toe")
    table = Table.new("1", pack, rules, ["human", "bot"], 1, {}, None)
    before = table.match.state_hash()
    assert not table.can_undo(0)
    table.answer(0, 4, table.page_version(0))
    table.bot_step()
    assert table.can_undo(0) == 2
    table.undo(0, table.page_version(0))
    assert table.match.state_hash() == before and table.match.decision is not None
    assert table.match.decision.seat == 0 and not table.can_undo(0)


def test_undo_is_refused_once_something_hidden_was_revealed() -> None:
    pack, rules = RF
    table = Table.new("1", pack, rules, ["human", "human"], 3, {}, None)
    previous, revealed = None, False
    for _ in range(60):
        decision = table.match.decision
        assert decision is not None
        seat = decision.seat
        start = len(table.feeds[seat].events)
        table.answer(seat, 0, table.page_version(seat))
        if previous is not None and previous != seat:
            assert table.can_undo(previous) == 0          # another person answered since
        if any(table._reveals(e, seat) for e in table.feeds[seat].events[start:]):
            assert table.can_undo(seat) == 0
            revealed = True
        previous = seat
    assert revealed, "no answer revealed anything hidden in 60 answers"


def test_resume_continues_a_table_from_its_log(tmp_path: Path) -> None:
    log = tmp_path / "t.json"
    table = _table(["human", "bot"], seed=2, log=log)
    for _ in range(4):
        if table.bot_to_move():
            table.bot_step()
        else:
            decision = table.match.decision
            assert decision is not None
            table.answer(decision.seat, 0, table.page_version(decision.seat))
    pack, rules = RF
    again = Table.resume("1", pack, rules, GameLog.read(log), ["human", "bot"], log)
    assert again.match.state_hash() == table.match.state_hash()


def test_serve_rejects_bad_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "robot-factory", "--seats", "human,robot"]) == 2
    assert "'robot' is neither human nor bot" in capsys.readouterr().err
    assert main(["serve", "robot-factory", "--seats", "human", "--logs", "/dev/null/x"]) == 2


def _secret_stretch(table: Table) -> int:
    """Answer (first option) until seat 1 is to move inside a `simultaneous` step: the seat that answers
    secretly next, whose answers seat 2 must not be able to count."""
    for _ in range(400):
        decision = table.match.decision
        assert decision is not None
        if decision.seat == 0 and table.match.game.state.secret_since is not None:
            return decision.seat
        table.answer(decision.seat, 0, table.page_version(decision.seat))
    raise AssertionError("no simultaneous step reached")


def test_another_seats_secret_answers_neither_move_a_page_nor_push_to_it() -> None:
    """Robot Factory's programming is secret (rulebook: the divider is up): P1's answers behind it change
    nothing P2's page shows, not even its version, and P2's page is sent no message for them."""
    table = _table(["human", "human"])
    _secret_stretch(table)
    tokens = {seat: token for token, seat in table.tokens.items()}
    with TestClient(create_app(Server([table], bot_delay=0))) as client, \
            client.websocket_connect(f"/ws/1/{tokens[0]}") as p1, client.websocket_connect(f"/ws/1/{tokens[1]}") as p2:
        first, seen = _state(p1), _state(p2)
        assert not seen["can_undo"]                     # whether P1 answered since would be P1's secret
        answered = 0
        while answered < 6:
            p1.send_json({"type": "answer", "index": 0, "version": first["version"]})
            first = _synced(p1, answered)[0]
            answered += 1
            decision = table.match.decision
            if decision is None or decision.seat != 0 or table.match.game.state.secret_since is None:
                break                                   # P1 is done: that P2 may see (its turn comes)
            now, pushed = _synced(p2, 100 + answered)
            assert pushed == 0
            assert {k: v for k, v in now.items() if k != "sync"} == {k: v for k, v in seen.items() if k != "refused"}
        assert answered >= 3


def test_inside_a_simultaneous_step_only_the_seat_answering_may_undo() -> None:
    """P1 may take back its own secret answers while it is still answering; P2's undo button does not
    depend on whether P1 answered (it would tell P2 so)."""
    table = _table(["human", "human"])
    _secret_stretch(table)
    table.answer(0, 0, table.page_version(0))
    decision = table.match.decision
    assert decision is not None and decision.seat == 0 and table.match.game.state.secret_since is not None
    assert table.can_undo(0) == 1 and table.can_undo(1) == 0
    answers = len(table.match.log)
    table.undo(0, table.page_version(0))
    assert len(table.match.log) == answers - 1


def test_a_page_version_moves_only_with_its_payload() -> None:
    table = _table(["human", "human"])
    before = table.page_version(1), table.page_version(0)
    assert before == (table.page_version(1), table.page_version(0))   # asking again moves nothing
    decision = table.match.decision
    assert decision is not None
    table.answer(decision.seat, 0, table.page_version(decision.seat))
    assert table.page_version(decision.seat) == before[decision.seat == 0] + 1
