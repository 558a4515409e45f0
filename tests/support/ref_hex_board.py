"""Literal two-player Hex game for checking havhex.hex.Board, in plain Python.

Written from the rules, for clarity rather than speed: a rows x cols board
with the judge's neighbours (ref_hex.NEIGHBOURS); Red moves first and joins
the top row to the bottom row, Blue the left column to the right column.  A
player has won when a breadth-first flood fill over their stones from their
first side reaches their second side.  With the swap option, Blue's first
move (the game's second move) may be a swap, in the two forms of the SGF Hex
specification:

* "swap-pieces": Red's stone leaves the board and a blue stone goes on its
  mirror image in the long diagonal, (i, j) -> (j, i); Red moves next;
* "swap-sides": the players exchange colours; the stone stays red and the
  player now holding Blue (the first player) moves next.

Standard library only.
"""
from collections import deque

from ref_hex import NEIGHBOURS

RED = "red"
BLUE = "blue"
SWAPS = ("swap-pieces", "swap-sides")


def other(colour):
    return BLUE if colour == RED else RED


class Game:
    """A game from the empty board, move by move."""

    def __init__(self, rows, cols=None, swap=False):
        self.rows = rows
        self.cols = rows if cols is None else cols
        self.swap = swap
        self.stones = {}              # (row, col) -> colour
        self.moves = []
        self.to_move = RED
        self.sides_swapped = False
        self.winner = None
        self.winning_move = None

    def on_board(self, cell):
        row, col = cell
        return 0 <= row < self.rows and 0 <= col < self.cols

    def joined(self, colour):
        """Does a flood fill over the colour's stones get from its first side
        to its second?"""
        if colour == RED:
            starts = [(0, col) for col in range(self.cols)]
            arrived = lambda cell: cell[0] == self.rows - 1  # noqa: E731
        else:
            starts = [(row, 0) for row in range(self.rows)]
            arrived = lambda cell: cell[1] == self.cols - 1  # noqa: E731
        seen = {cell for cell in starts if self.stones.get(cell) == colour}
        queue = deque(seen)
        while queue:
            cell = queue.popleft()
            if arrived(cell):
                return True
            for d_row, d_col in NEIGHBOURS:
                near = (cell[0] + d_row, cell[1] + d_col)
                if near not in seen and self.on_board(near) and self.stones.get(near) == colour:
                    seen.add(near)
                    queue.append(near)
        return False

    def swap_allowed(self):
        return (self.swap and self.winner is None and len(self.moves) == 1)

    def legal_moves(self):
        if self.winner is not None:
            return []
        moves = [(row, col) for row in range(self.rows) for col in range(self.cols)
                 if (row, col) not in self.stones]
        if self.swap_allowed():
            row, col = self.moves[0]
            if self.on_board((col, row)):
                moves.append("swap-pieces")
            moves.append("swap-sides")
        return moves

    def play(self, move):
        """Play a legal move; returns the colour that won with it, or None."""
        assert move in self.legal_moves(), move
        mover = self.to_move
        if move == "swap-pieces":
            row, col = self.moves[0]
            del self.stones[(row, col)]
            self.stones[(col, row)] = BLUE
            self.to_move = RED
        elif move == "swap-sides":
            self.sides_swapped = True         # Blue's turn again, by the other player
        else:
            self.stones[move] = mover
            self.to_move = other(mover)
        self.moves.append(move)
        colour = BLUE if move == "swap-pieces" else mover
        if move != "swap-sides" and self.joined(colour):
            assert not self.joined(other(colour))
            self.winner = colour
            self.winning_move = len(self.moves) - 1
            return colour
        return None

    def array(self):
        """Rows of 0 (empty), 1 (red), 2 (blue)."""
        code = {RED: 1, BLUE: 2}
        return [[code.get(self.stones.get((row, col)), 0) for col in range(self.cols)]
                for row in range(self.rows)]

    def on_every_chain(self, colour):
        """The colour's stones without which it no longer joins its sides."""
        cells = []
        for cell, owner in sorted(self.stones.items()):
            if owner == colour:
                del self.stones[cell]
                if not self.joined(colour):
                    cells.append(cell)
                self.stones[cell] = colour
        return cells
