"""Breakthrough (8×8, as OpenSpiel plays it: Black moves first, down from rows 7-8) written by hand in
plain Python: the speed reference for content/breakthrough.

Offers the same moves in the same order as the pack (by starting cell in board order, rank 1 first and
files a to h, then target file left/straight/right) and asks only when there is a choice, so the same
chooser plays the same game in both. It does not import `engine/`.

    play(seed, chooser) -> {"winners": [seat], "board": [0|1|2] * 64}       chooser: baselines.random_bots

The board is a1..h1 first, a8..h8 last (cell = 8 * (rank - 1) + file), as the pack's grid orders its cells.
"""

from __future__ import annotations

from baselines.random_bots import Chooser

SIZE = 8
FORWARD = [-SIZE, SIZE]                                          # Black moves down the list, White up
GOAL_ROW = [0, SIZE - 1]                                         # row index (0 = rank 1) each side must reach


def steps_from(cell: int, seat: int) -> list[tuple[int, bool]]:
    """(target, diagonal) for a piece of `seat` on `cell`, left, straight, right."""
    file, target_row = cell % SIZE, cell // SIZE + FORWARD[seat] // SIZE
    if not 0 <= target_row < SIZE:
        return []
    return [(SIZE * target_row + file + df, df != 0) for df in (-1, 0, 1) if 0 <= file + df < SIZE]


STEPS = [[steps_from(cell, seat) for cell in range(SIZE * SIZE)] for seat in range(2)]


def play(seed: int, chooser: Chooser) -> dict[str, object]:
    board = [2] * 16 + [0] * 32 + [1] * 16
    pieces = [16, 16]
    seat = 0
    while True:
        mark = seat + 1
        steps = STEPS[seat]
        options = [(cell, target) for cell in range(SIZE * SIZE) if board[cell] == mark
                   for target, diagonal in steps[cell]
                   if board[target] == 0 or (diagonal and board[target] != mark)]
        cell, target = options[chooser(seat, len(options))] if len(options) > 1 else options[0]
        if board[target]:
            pieces[1 - seat] -= 1
        board[cell], board[target] = 0, mark
        if target // SIZE == GOAL_ROW[seat] or pieces[1 - seat] == 0:
            return {"winners": [seat], "board": board}
        seat = 1 - seat

