"""Whole games: random bots finish, logs replay to the same state hash, save/resume continues identically.

Raising Robots is played with every player count it allows over a few seeds; the tiny generic pack
in tests/fixtures/packs/minimal checks determinism of a folder pack.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.compile.loading import load_pack
from engine.play.agents import RandomAgent
from engine.play.session import Session
from engine.runtime.decision import Decision
from engine.runtime.defs import Pack

BUILT_IN = "raising-robots"
SEEDS = tuple(range(1, 11))
MINIMAL = Path(__file__).resolve().parent / "fixtures" / "packs" / "minimal"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(BUILT_IN)


@pytest.fixture(scope="module")
def minimal() -> Pack:
    return load_pack(str(MINIMAL))


class Recorder:
    """A random bot that also remembers every decision's options (to tamper with a log sensibly)."""

    def __init__(self, seed: int, seat: int, seen: list[list[str]]) -> None:
        self.bot = RandomAgent(seed, seat)
        self.seen = seen

    def choose(self, view: dict[str, Any], decision: Decision) -> int:
        self.seen.append(list(decision.labels))
        return self.bot.choose(view, decision)

    def observe(self, decision: Decision, index: int) -> None:
        self.bot.observe(decision, index)


def bots(players: int, seed: int) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


def play(pack: Pack, players: int, seed: int) -> Session:
    session = Session(pack, players, seed)
    session.run(bots(players, seed))
    return session


def labels(log: dict[str, Any]) -> list[str]:
    return [d["label"] for d in log["decisions"]]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


# --- random games of the built-in pack ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(1, 7))
def test_random_games_finish_and_replay(pack: Pack, players: int) -> None:
    for seed in SEEDS:
        session = play(pack, players, seed)
        assert session.done and session.game.state.finished
        outcome = session.outcome()
        assert len(outcome.results) == players
        assert outcome.winners and set(outcome.winners) <= set(range(players))
        assert outcome.decisions == len(session.log) > 0
        log = json.loads(json.dumps(session.to_log().to_json()))          # exactly what `--log` writes
        assert log["finished"] and log["hash"] == outcome.hash
        assert log["scores"] == [r.score for r in outcome.results]

        replay = Session(pack, log["players"], log["seed"], log["options"])
        replay.replay(labels(log))
        assert replay.done
        assert replay.outcome().hash == outcome.hash, f"{players} players, seed {seed}"
        assert replay.log == session.log


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12), (6, 13)])
def test_replay_with_bots_then_play_on_is_identical(pack: Pack, players: int, seed: int) -> None:
    """Replaying a prefix with the bots told of their answers, then letting them play, ends the same."""
    whole = play(pack, players, seed)
    for cut in (0, 1, len(whole.log) // 2, len(whole.log) - 1):
        agents = bots(players, seed)
        resumed = Session(pack, players, seed)
        resumed.replay([d["label"] for d in whole.log[:cut]], agents)
        resumed.run(agents)
        assert resumed.log == whole.log, f"cut at {cut}"
        assert resumed.outcome().hash == whole.outcome().hash


def test_same_seed_same_game_different_seed_different_game(pack: Pack) -> None:
    assert play(pack, 3, 21).outcome().hash == play(pack, 3, 21).outcome().hash
    assert len({play(pack, 3, seed).outcome().hash for seed in (21, 22, 23)}) > 1


# --- the command line: play --log, replay, tampering ----------------------------------------------------------------

def test_cli_log_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.json"
    code, out, _ = cli(capsys, "play", BUILT_IN, "--players", "3", "--seed", "4", "--log", str(log), "-q")
    assert code == 0 and "Winner" in out
    data = read(log)
    assert data["hash"] in out
    code, out, _ = cli(capsys, "replay", str(log))
    assert code == 0
    assert out.startswith("OK:") and data["hash"] in out


def test_cli_replay_rejects_tampered_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str], pack: Pack) -> None:
    players, seed = 2, 6
    log = tmp_path / "game.json"
    code, _, _ = cli(capsys, "play", BUILT_IN, "--players", str(players), "--seed", str(seed), "--log", str(log), "-q")
    assert code == 0
    data = read(log)

    seen: list[list[str]] = []                              # the options of each decision of that same game
    session = Session(pack, players, seed)
    session.run([Recorder(seed, seat, seen) for seat in range(players)])
    assert [d["label"] for d in session.log] == labels(data)
    chosen = labels(data)
    at = next(i for i, options in enumerate(seen) if len(options) > 1)
    other = next(o for o in seen[at] if o != chosen[at])

    tampered: dict[str, dict[str, Any]] = {}
    tampered["illegal label"] = json.loads(json.dumps(data))
    tampered["illegal label"]["decisions"][len(chosen) // 2]["label"] = "no such option"
    tampered["other legal label"] = json.loads(json.dumps(data))
    tampered["other legal label"]["decisions"][at]["label"] = other
    tampered["hash"] = dict(data, hash="0" * 16)
    tampered["truncated"] = dict(data, decisions=data["decisions"][:-1])
    tampered["extra decision"] = dict(data, decisions=[*data["decisions"], data["decisions"][-1]])
    for name, bad in tampered.items():
        path = tmp_path / f"{name.replace(' ', '_')}.json"
        write(path, bad)
        code, out, err = cli(capsys, "replay", str(path))
        assert code == 1, f"{name}: {out}{err}"
        assert not out.startswith("OK")


# --- save and resume ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "seed", "stop"), [(2, 3, 0), (2, 3, 1), (3, 8, 40), (5, 2, 250), (1, 9, 10_000)])
def test_stop_and_resume_ends_like_one_game(players: int, seed: int, stop: int, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    common = ("--players", str(players), "--seed", str(seed), "-q")
    whole, part, rest = tmp_path / "whole.json", tmp_path / "part.json", tmp_path / "rest.json"
    assert cli(capsys, "play", BUILT_IN, *common, "--log", str(whole))[0] == 0
    code, out, _ = cli(capsys, "play", BUILT_IN, *common, "--stop-after", str(stop), "--log", str(part))
    assert code == 0
    total = len(read(whole)["decisions"])
    saved = read(part)
    if stop < total:
        assert "stopped after" in out and "Winner" not in out
        assert not saved["finished"] and "hash" not in saved
        assert labels(saved) == labels(read(whole))[:stop]
        code, out, _ = cli(capsys, "play", "--resume", str(part), "--log", str(rest), "-q")
        assert code == 0 and "Winner" in out
    else:                                   # the game ended before the stop: nothing to resume
        rest = part
    assert read(rest)["hash"] == read(whole)["hash"]
    assert read(rest)["decisions"] == read(whole)["decisions"]
    assert cli(capsys, "replay", str(rest))[0] == 0


def test_resume_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--stop-after counts every logged decision, replayed ones included."""
    common = ("--players", "4", "--seed", "5", "-q")
    whole, first, second, last = (tmp_path / f"{n}.json" for n in ("whole", "first", "second", "last"))
    assert cli(capsys, "play", BUILT_IN, *common, "--log", str(whole))[0] == 0
    assert cli(capsys, "play", BUILT_IN, *common, "--stop-after", "30", "--log", str(first))[0] == 0
    assert cli(capsys, "play", "--resume", str(first), "--stop-after", "90", "--log", str(second), "-q")[0] == 0
    assert len(read(second)["decisions"]) == 90
    assert cli(capsys, "play", "--resume", str(second), "--log", str(last), "-q")[0] == 0
    assert read(last)["hash"] == read(whole)["hash"]


def test_replay_of_an_unfinished_log_is_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    part = tmp_path / "part.json"
    assert cli(capsys, "play", BUILT_IN, "--players", "2", "--stop-after", "20", "--log", str(part), "-q")[0] == 0
    code, out, _ = cli(capsys, "replay", str(part))
    assert code == 1 and "still running" in out


# --- the minimal folder pack ----------------------------------------------------------------------------------------

def test_minimal_pack_is_deterministic(minimal: Pack) -> None:
    first, again = play(minimal, 2, 7), play(minimal, 2, 7)
    assert first.log == again.log
    assert first.outcome().hash == again.outcome().hash
    hashes = {play(minimal, 2, seed).outcome().hash for seed in range(1, 11)}
    assert len(hashes) > 1
    for seed in range(1, 11):
        session = play(minimal, 2, seed)
        replay = Session(minimal, 2, seed)
        replay.replay([d["label"] for d in session.log])
        assert replay.outcome().hash == session.outcome().hash


def test_minimal_pack_replays_with_pack_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack_dir = tmp_path / "minimal"
    shutil.copytree(MINIMAL, pack_dir)
    log = tmp_path / "game.json"
    assert cli(capsys, "play", str(pack_dir), "--players", "2", "--seed", "3", "--log", str(log), "-q")[0] == 0
    code, out, _ = cli(capsys, "replay", str(log), "--pack", str(pack_dir))
    assert code == 0 and out.startswith("OK:")


def test_minimal_pack_resumes_from_its_log(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pack_dir = tmp_path / "packs" / "minimal"
    shutil.copytree(MINIMAL, pack_dir)
    monkeypatch.chdir(tmp_path)                 # not inside the pack's parent folder
    whole, part, rest = tmp_path / "whole.json", tmp_path / "part.json", tmp_path / "rest.json"
    common = ("--players", "2", "--seed", "3", "-q")
    assert cli(capsys, "play", str(pack_dir), *common, "--log", str(whole))[0] == 0
    assert cli(capsys, "play", str(pack_dir), *common, "--stop-after", "2", "--log", str(part))[0] == 0
    code, _, err = cli(capsys, "play", "--resume", str(part), "--log", str(rest), "-q")
    assert code == 0, err
    assert read(rest)["hash"] == read(whole)["hash"]
