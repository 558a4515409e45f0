"""Boards that several test files build."""
import random

import ref_havannah


def snake(n):
    """Red (0, 0), then full rows 1, 3, ..., n-2 joined at alternate ends by
    one stone in the even row between, and one stone on the last row; Blue
    fills the rest of the even rows (each Blue row is walled in by Red rows,
    so Blue has no chain).  ``n`` odd; counts differ by one."""
    grid = [["."] * n for _ in range(n)]
    grid[0][0] = "R"
    for row in range(1, n - 1, 2):
        grid[row] = ["R"] * n
    for row in range(2, n, 2):
        # Row 1 runs left to right, row 3 back, ...: the joint is where the
        # odd row above ends.
        grid[row][n - 1 if (row // 2) % 2 == 1 else 0] = "R"
    for row in range(0, n, 2):
        grid[row] = [c if c == "R" else "B" for c in grid[row]]
    return ["".join(row) for row in grid]


def hex_ring(cx, cy, r):
    """The 6r Havannah hexagons at distance exactly r from (cx, cy), walking round.

    Starts at (cx, cy - r) and walks r steps in each of the six directions in
    turn; a closed loop of stones with the ball of radius r - 1 inside.
    """
    x, y = cx, cy - r
    cells = []
    for dx, dy in ref_havannah.NEIGHBOURS:
        for _ in range(r):
            cells.append((x, y))
            x += dx
            y += dy
    assert (x, y) == (cx, cy - r)
    return cells


def random_position(make, stones, seed):
    """A board of ``make()`` after ``stones`` random moves (the swap among
    them), none of them ending the game; None when every try ended it."""
    rng = random.Random(seed)
    for _ in range(50):
        board = make()
        for _ in range(stones):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board
    return None
