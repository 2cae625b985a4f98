"""Prove a change to the determinizer made the same samples: print a digest of many `Match.determinize` samples.

    python tools/sample_hashes.py > before.txt     # on the old commit
    python tools/sample_hashes.py > after.txt      # on the new one
    diff before.txt after.txt                      # no output: the same samples

Plays seeded random games of several packs (Raising Robots 4p and 3p with bidding, Robot Factory, Stress
Botics 3p, Goofspiel, Robotopia 3p) and, at a seeded share of the decisions (most inside a `simultaneous`
step after another seat answered there, where samples are made by replaying from the step's start), makes
samples for the seat to move with `random.Random(k)`. Per pack it prints one line: how many samples, how
many were made inside such a step (and how many of those show the seat the real view: the rest differ in
something it can see, see `Match.determinize`), and a digest over each sample's state hash, its answers, the
generator's state after the call, the same call made again (a greedy bot's path), a sample of the sample
and a fork of the sample after one answer. `--bots` adds greedy and MCTS choices at a few positions.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.bots import BotSpec  # noqa: E402
from engine.play.match import SEARCHED_CHECKPOINT_EVERY, Match  # noqa: E402

RUNS = [("raising-robots", 4, {}, 6), ("raising-robots", 3, {"bidding": True}, 6), ("robot-factory", 2, {}, 6),
        ("stress-botics", 3, {}, 4), ("goofspiel", 2, {}, 6), ("robotopia", 3, {}, 2)]


def _in_secret_step(match: Match) -> bool:
    since = match.game.state.secret_since
    seat = match.to_move
    return since is not None and any(answer.decision.seat != seat for answer in match.log[since:])


def _sample_digest(match: Match, seat: int, k: int) -> tuple[str, bool]:
    """The facts of `determinize(seat, Random(k))` and of what a bot does with such a sample next; whether the
    sample shows `seat` what the match does."""
    rng = random.Random(k)
    sample = match.determinize(seat, rng)
    real_view = sample.seen_key(seat) == match.seen_key(seat)
    again_rng = random.Random(k)
    again = match.determinize(seat, again_rng)          # the same call again (greedy: once per option)
    same_after = again_rng.getstate() == rng.getstate()
    facts = [sample.state_hash(), len(sample.log), [a.label for a in sample.log], rng.getrandbits(64),
             again.state_hash(), same_after, sample.legal()]
    if not sample.done:
        deeper = sample.determinize(seat, random.Random(k + 1000))   # a sample of a sample
        facts.append(deeper.state_hash())
        sample.apply(k % len(sample.legal()))
        copy = sample.fork()
        facts += [sample.state_hash(), copy.state_hash(), copy.legal()]
        for one in (deeper, copy):
            one.close()
    for one in (sample, again):
        one.close()
    return repr(facts), real_view


def digest_pack(name: str, players: int, options: dict[str, bool], games: int,
                share: float) -> tuple[int, int, int, str]:
    pack = load_pack(name)
    digest = hashlib.blake2b(digest_size=8)
    samples = inside = real = 0
    for seed in range(games):
        match = Match(pack, players, seed, options, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
        agents = [RandomAgent(seed, seat) for seat in range(players)]
        pick = random.Random(seed)
        while not match.done and len(match.log) < 400:
            secret = _in_secret_step(match)
            if pick.random() < (share if secret else share / 6):
                seat = match.to_move
                assert seat is not None
                for k in range(2):
                    facts, real_view = _sample_digest(match, seat, seed * 100 + len(match.log) * 3 + k)
                    digest.update(facts.encode())
                    samples += 1
                    inside += secret
                    real += secret and real_view
            match.run(agents, stop_after=len(match.log) + 1)
        match.close()
    return samples, inside, real, digest.hexdigest()


def bot_choices(specs: list[str]) -> str:
    """Greedy and MCTS choices at the bench's positions (tools/bench/bots.py) and a few more."""
    out = []
    for name, players in (("robot-factory", 2), ("raising-robots", 4)):
        pack = load_pack(name)
        for answers in (10, 25, 40, 55, 90):
            match = Match(pack, players, 7, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
            match.run([RandomAgent(7, seat) for seat in range(players)], stop_after=answers)
            if match.decision is None:
                continue
            for text in specs:
                bot = BotSpec.parse(text).make(7, match.decision.seat)
                bot.bind(match)   # type: ignore[attr-defined]
                out.append(f"{name} {answers} {text}: {bot.choose({}, match.decision)}")
    return "\n".join(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--share", type=float, default=0.3, help="share of the decisions inside a secret step sampled")
    p.add_argument("--games", type=float, default=1.0, help="scale the games per pack")
    p.add_argument("--bots", action="store_true", help="also print greedy and MCTS choices at a few positions")
    args = p.parse_args()
    for name, players, options, games in RUNS:
        samples, inside, real, digest = digest_pack(name, players, options, max(1, round(games * args.games)),
                                                    args.share)
        print(f"{name} {players}p {options or ''}: {samples} samples ({inside} in a secret step, {real} of them"
              f" with the real view) {digest}", flush=True)
    if args.bots:
        print(bot_choices(["greedy", "mcts:iterations=30,depth=20",
                           "mcts:iterations=30,depth=12,rescale=1,epsilon=0.3"]), flush=True)


if __name__ == "__main__":
    main()
