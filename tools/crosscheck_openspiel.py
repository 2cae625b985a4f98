"""The classic packs against OpenSpiel: the same seeded random games in both, decision for decision.

    python tools/crosscheck_openspiel.py [--games 1000] [--seed 1] [GAME ...]

For every game (`tic-tac-toe`, `connect-four`, `goofspiel`, `breakthrough`;
default: all), each seed plays one game in our engine (content/GAME, driven
through `Match`) and in OpenSpiel (`pip install open_spiel`, the game with
its default parameters) side by side. At every OpenSpiel node:

- a chance node (Goofspiel's prize card) takes the outcome our game dealt;
- the position must be the same (our board rendered in OpenSpiel's text);
- a player with two or more legal actions must be the seat our game asks, and
  our options, mapped to OpenSpiel actions, must be exactly OpenSpiel's legal
  actions; a seeded RNG picks one, answered in both. A single legal action is
  not asked by our engine (a forced choice is taken without asking); the
  position check at the next node shows it took the same one.

At the end both must be over with the same returns (+1 win, -1 loss, 0 draw).
Prints one line per game and exits 1 if any game differed. The mapping from
our labels and state to OpenSpiel's actions and text lives here, not in the
engine: the packs know nothing of OpenSpiel.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.match import Match  # noqa: E402
from engine.runtime.defs import Pack  # noqa: E402
from engine.runtime.scoring import Verdict  # noqa: E402

MARKS = ".xo"        # tic-tac-toe and connect four: empty, seat 1 (OpenSpiel player 0), seat 2
PIECES = ".bw"       # breakthrough: empty, Black (seat 1, OpenSpiel player 0), White (seat 2)
TIC_TAC_TOE_CELLS = ["top left", "top", "top right", "left", "center", "right",
                     "bottom left", "bottom", "bottom right"]   # OpenSpiel's actions 0..8, row by row
FILES = "abcdefgh"
# OpenSpiel's breakthrough directions, (row, column) offsets with row 0 at the top (rank 8)
BREAKTHROUGH_DIRECTIONS = [(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)]


def _items(session: Match, zone: str, seat: int | None = None) -> list[Any]:
    return session.game.state.zone(zone, seat).items


# ---------------------------------------------------------------- tic-tac-toe
def tic_tac_toe_actions(session: Match, labels: list[str]) -> list[int]:
    return [TIC_TAC_TOE_CELLS.index(label) for label in labels]


def tic_tac_toe_position(session: Match) -> str:
    marks = "".join(MARKS[cell.attrs["mark"]] for cell in _items(session, "board"))
    return "\n".join(marks[row:row + 3] for row in (0, 3, 6))


# ---------------------------------------------------------------- connect four
def connect_four_actions(session: Match, labels: list[str]) -> list[int]:
    return [int(label) - 1 for label in labels]   # our option k is column k


def connect_four_position(session: Match) -> str:
    marks = "".join(MARKS[cell.attrs["mark"]] for cell in _items(session, "board"))   # row 1 (bottom) first
    return "".join(marks[row:row + 7] + "\n" for row in range(35, -1, -7))


# ---------------------------------------------------------------- goofspiel
def goofspiel_actions(session: Match, labels: list[str]) -> list[int]:
    return [int(label) - 1 for label in labels]


def goofspiel_chance(session: Match) -> int:
    (prize,) = _items(session, "prize")
    return prize.attrs["value"] - 1


def goofspiel_position(session: Match) -> str:
    lines = []
    for seat in range(2):
        hand = sorted(card.attrs["value"] for card in _items(session, "hand", seat))
        lines.append(f"P{seat} hand: " + "".join(f"{v} " for v in hand))
    points = [sum(card.attrs["value"] for card in _items(session, "winnings", seat)) for seat in range(2)]
    return "\n".join(lines) + "\nPoints: " + "".join(f"{p} " for p in points) + "\n"


def goofspiel_openspiel_position(text: str) -> str:
    """OpenSpiel's text without the point card sequence (our zones do not keep the order of both piles)."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("Point card sequence"))


# ---------------------------------------------------------------- breakthrough
def breakthrough_actions(session: Match, labels: list[str]) -> list[int]:
    """`a7, b6` -> OpenSpiel's ((row * 8 + column) * 6 + direction) * 2 + capture, row 0 = rank 8."""
    occupied = {cell.comp.id: cell.attrs["piece"] != 0 for cell in _items(session, "board")}
    actions = []
    for label in labels:
        start, end = label.split(", ")
        c1, r1, c2, r2 = FILES.index(start[0]), 8 - int(start[1]), FILES.index(end[0]), 8 - int(end[1])
        direction = BREAKTHROUGH_DIRECTIONS.index((r2 - r1, c2 - c1))
        actions.append(((r1 * 8 + c1) * 6 + direction) * 2 + int(occupied[end]))
    return actions


def breakthrough_position(session: Match) -> str:
    pieces = {(cell.attrs["col"], cell.attrs["row"]): PIECES[cell.attrs["piece"]]
              for cell in _items(session, "board")}
    rows = [f"{row}{''.join(pieces[col, row] for col in range(1, 9))}\n" for row in range(8, 0, -1)]
    return "".join(rows) + " " + FILES + "\n"


@dataclass(frozen=True)
class Classic:
    """How one of our packs maps onto an OpenSpiel game."""

    pack: str
    openspiel: str
    actions: Callable[[Match, list[str]], list[int]]   # our option labels (in this position) -> OpenSpiel actions
    position: Callable[[Match], str]                   # our state in OpenSpiel's `str(state)` text
    openspiel_position: Callable[[str], str] = lambda text: text
    chance: Callable[[Match], int] | None = None       # the chance outcome our game dealt


CLASSICS = {c.pack: c for c in [
    Classic("tic-tac-toe", "tic_tac_toe", tic_tac_toe_actions, tic_tac_toe_position),
    Classic("connect-four", "connect_four", connect_four_actions, connect_four_position),
    Classic("goofspiel", "goofspiel", goofspiel_actions, goofspiel_position, goofspiel_openspiel_position,
            goofspiel_chance),
    Classic("breakthrough", "breakthrough", breakthrough_actions, breakthrough_position),
]}


class MismatchError(AssertionError):
    """The two engines disagree; the message says where."""


def our_returns(session: Match) -> list[float]:
    """OpenSpiel's zero-sum returns: +1 the winner, -1 the loser, 0 each in a draw."""
    outcome = session.outcome()
    players = len(session.game.state.players)
    if outcome.verdict == Verdict.DRAW:
        return [0.0] * players
    if outcome.verdict != Verdict.WIN:
        raise MismatchError(f"a two-player classic ended as {outcome.verdict}")
    return [1.0 if seat in outcome.winners else -1.0 for seat in range(players)]


def crosscheck_game(classic: Classic, pack: Pack, openspiel_game: Any, seed: int) -> int:
    """Play seed `seed` in both engines; return the number of decisions asked. Raises MismatchError."""
    return _Crosscheck(classic, pack, openspiel_game, seed).run()


class _Crosscheck:
    """One seeded game played in both engines side by side."""

    def __init__(self, classic: Classic, pack: Pack, openspiel_game: Any, seed: int) -> None:
        self.classic, self.seed = classic, seed
        self.session = Match(pack, 2, seed)
        self.state = openspiel_game.new_initial_state()
        self.rng = random.Random(f"crosscheck/{seed}")
        self.asked = 0

    def run(self) -> int:
        state, session = self.state, self.session
        while not state.is_terminal():
            self.step()
        self.same_position()
        if not session.done:
            raise self.fail(f"OpenSpiel's game is over, ours still asks: {session.decision}")
        ours, theirs = our_returns(session), list(state.returns())
        if ours != theirs:
            raise self.fail(f"returns differ: ours {ours}, OpenSpiel {theirs}")
        return self.asked

    def step(self) -> None:
        """One OpenSpiel node: a chance outcome, or every acting player's move."""
        state = self.state
        if state.is_chance_node():
            if self.classic.chance is None:
                raise self.fail("OpenSpiel is at a chance node this pack does not map")
            state.apply_action(self.classic.chance(self.session))
            return
        players = range(state.num_players()) if state.is_simultaneous_node() else [state.current_player()]
        if any(len(state.legal_actions(player)) > 1 for player in players):
            self.same_position()                  # (after a forced move ours is already past this node)
        if state.is_simultaneous_node():
            state.apply_actions([self.decide(player) for player in players])
        else:
            state.apply_action(self.decide(state.current_player()))

    def fail(self, message: str) -> MismatchError:
        return MismatchError(f"{self.classic.pack} seed {self.seed}, OpenSpiel history {self.state.history()}: "
                             f"{message}")

    def same_position(self) -> None:
        ours, theirs = self.classic.position(self.session), self.classic.openspiel_position(str(self.state))
        if ours != theirs:
            raise self.fail(f"positions differ\nours:\n{ours}\nOpenSpiel:\n{theirs}")

    def decide(self, player: int) -> int:
        legal = sorted(self.state.legal_actions(player))
        if len(legal) == 1:
            return legal[0]                       # ours took it without asking
        decision = self.session.decision
        if decision is None or decision.seat != player:
            who = "nobody (game over)" if decision is None else f"seat {decision.seat + 1}"
            raise self.fail(f"OpenSpiel asks player {player} to choose among {legal}; ours asks {who}")
        mapped = self.classic.actions(self.session, decision.labels)
        if sorted(mapped) != legal:
            raise self.fail(f"legal moves differ: ours {decision.labels} -> {sorted(mapped)}, OpenSpiel {legal}")
        index = self.rng.randrange(len(mapped))
        self.session.apply(index)
        self.asked += 1
        return mapped[index]


def crosscheck(name: str, seeds: range) -> tuple[int, list[str]]:
    """Cross-check every seed; return (decisions asked, mismatch messages)."""
    import pyspiel

    classic = CLASSICS[name]
    pack, openspiel_game = load_pack(name), pyspiel.load_game(classic.openspiel)
    asked, failures = 0, []
    for seed in seeds:
        try:
            asked += crosscheck_game(classic, pack, openspiel_game, seed)
        except MismatchError as exc:
            failures.append(str(exc))
    return asked, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_check", nargs="*", metavar="GAME", choices=[*CLASSICS, []], default=[])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per classic game")
    parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    failed = False
    for name in args.games_to_check or list(CLASSICS):
        start = time.perf_counter()
        asked, failures = crosscheck(name, seeds)
        seconds = time.perf_counter() - start
        print(f"{name}: {len(seeds) - len(failures)}/{len(seeds)} games identical to OpenSpiel "
              f"({asked} decisions compared, {seconds:.1f} s)")
        for message in failures[:5]:
            print("  " + message.replace("\n", "\n  "))
        failed = failed or bool(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
