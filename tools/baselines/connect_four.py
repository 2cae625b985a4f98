"""Connect Four written by hand in plain Python: the speed reference for content/connect-four.

Offers the same moves in the same order as the pack (open columns, left to
right) and asks only when there is a choice, so the same chooser plays the
same game in both. It does not import `engine/`.

    play(seed, chooser) -> {"winners": [seat, ...], "board": [0|1|2] * 42}     chooser: baselines.random_bots

The board is row by row from the bottom (cell = 7 * row + column), as the pack lists its cells.
"""

from __future__ import annotations

from baselines.random_bots import Chooser

COLUMNS, ROWS = 7, 6
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]     # (column, row) steps: across, up, both diagonals


def four_through(board: list[int], column: int, row: int, mark: int) -> bool:
    for dc, dr in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < COLUMNS and 0 <= r < ROWS and board[COLUMNS * r + c] == mark:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def play(seed: int, chooser: Chooser) -> dict[str, object]:
    board = [0] * (COLUMNS * ROWS)
    heights = [0] * COLUMNS
    for move in range(COLUMNS * ROWS):
        seat = move % 2
        options = [c for c in range(COLUMNS) if heights[c] < ROWS]
        column = options[chooser(seat, len(options))] if len(options) > 1 else options[0]
        row = heights[column]
        heights[column] += 1
        mark = board[COLUMNS * row + column] = seat + 1
        if four_through(board, column, row, mark):
            return {"winners": [seat], "board": board}
    return {"winners": [0, 1], "board": board}

