"""Goofspiel (13 cards, ties discard the prize) written by hand in plain Python: the speed reference
for content/goofspiel.

Shuffles the prizes with the same seeded generator as the engine (`random.Random(seed)`, the game's
first random act), offers the same bids in the same order (the hand, lowest first) and asks only when
there is a choice, so the same chooser plays the same game in both. It does not import `engine/`.

    play(seed, chooser) -> {"winners": [seat, ...], "points": [p1, p2]}      chooser: baselines.random_bots
"""

from __future__ import annotations

import random

from baselines.random_bots import Chooser

CARDS = 13


def play(seed: int, chooser: Chooser) -> dict[str, object]:
    prizes = list(range(1, CARDS + 1))
    random.Random(seed).shuffle(prizes)
    hands = [list(range(1, CARDS + 1)) for _ in range(2)]
    points = [0, 0]
    for prize in prizes:
        bids = []
        for seat, hand in enumerate(hands):
            bids.append(hand.pop(chooser(seat, len(hand)) if len(hand) > 1 else 0))
        if bids[0] != bids[1]:
            points[0 if bids[0] > bids[1] else 1] += prize     # a tie discards the prize
    best = max(points)
    return {"winners": [seat for seat in range(2) if points[seat] == best], "points": points}

