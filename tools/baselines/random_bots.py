"""The engine's random bots for the hand-written classic games: one generator per seat, one draw per
decision asked (`RandomAgent` in engine/agents.py), so a baseline plays the same game as the pack."""

from __future__ import annotations

import random
from collections.abc import Callable

Chooser = Callable[[int, int], int]     # (seat, number of options) -> index


def random_chooser(seed: int, seats: int = 2) -> Chooser:
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(seats)]
    return lambda seat, options: int(rngs[seat].random() * options)
