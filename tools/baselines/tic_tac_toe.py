"""Tic-tac-toe written by hand in plain Python: the speed reference for content/tic-tac-toe.

Offers the same moves in the same order as the pack (empty cells in reading
order) and asks only when there is a choice, so the same chooser plays the
same game in both. It does not import `engine/`.

    play(seed, chooser) -> {"winners": [seat, ...], "board": [0|1|2] * 9}      chooser: baselines.random_bots
"""

from __future__ import annotations

from baselines.random_bots import Chooser

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LINES_THROUGH = [[line for line in LINES if cell in line] for cell in range(9)]


def play(seed: int, chooser: Chooser) -> dict[str, object]:
    board = [0] * 9
    for move in range(9):
        seat = move % 2
        options = [cell for cell in range(9) if board[cell] == 0]
        cell = options[chooser(seat, len(options))] if len(options) > 1 else options[0]
        mark = board[cell] = seat + 1
        if any(board[a] == mark and board[b] == mark and board[c] == mark for a, b, c in LINES_THROUGH[cell]):
            return {"winners": [seat], "board": board}
    return {"winners": [0, 1], "board": board}

