"""A third game, in plain Python, that plugs into havhex with one package and
one registry line: the proof that nothing outside a game's package knows
which games there are.

The game: a connection game on an N x N grid of squares (N = 3 by
default).  Each cell touches the four beside it.  Black moves first and
joins the top row to the bottom row; white joins the left column to the
right column.  On squares both can fail, so a full board with neither
connection is a draw.  With the pie rule, white's first move may be
``swap``: the black stone becomes white's, mirrored in the diagonal.

Cells are ``(row, col)``, 0-based; their names are the column letter and
the row number, ``a1`` top left.  Nothing here imports a private part of
havhex: the descriptor and the notation helpers are all it needs.
"""
from havhex import InputError
from havhex.descriptor import Descriptor, EngineWords

PLAYERS = ("black", "white")
SWAP = "swap"


def cell_name(size, move):
    row, col = move
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(size, text):
    word = text.strip().lower()
    if len(word) < 2 or not ("a" <= word[0] <= "z") or not word[1:].isdigit() \
            or not word[1:].isascii():
        raise ValueError(f"not a cell name: {text[:40]!r}")
    cell = (int(word[1:]) - 1, ord(word[0]) - ord("a"))
    if not (0 <= cell[0] < size and 0 <= cell[1] < size):
        raise ValueError(f"{text!r} is off the {size}x{size} board")
    return cell


class Board:
    """A toy board that meets havhex.contract.Board."""

    def __init__(self, size=3, swap=False):
        if type(size) is not int or not 2 <= size <= 9:
            raise InputError(f"size is 2 to 9, not {size!r}")
        self.size = size
        self.swap = bool(swap)
        self._moves = []
        self._stones = {}          # cell -> seat
        self._winner = None

    # What the contract reads
    @property
    def moves(self):
        return tuple(self._moves)

    @property
    def to_move(self):
        return PLAYERS[len(self._moves) % 2]

    @property
    def winner(self):
        return None if self._winner is None else PLAYERS[self._winner]

    @property
    def is_over(self):
        return self._winner is not None or len(self._stones) == self.size ** 2

    def __len__(self):
        return len(self._moves)

    def cell_name(self, move):
        return move if isinstance(move, str) else cell_name(self.size, move)

    def legal_moves(self):
        if self.is_over:
            return []
        cells = [(row, col) for row in range(self.size) for col in range(self.size)
                 if (row, col) not in self._stones]
        return cells + ([SWAP] if self._swap_legal() else [])

    def legal_actions(self):
        return [self._action(move) for move in self.legal_moves()]

    def move_of(self, action):
        if action == self.size ** 2:
            return SWAP
        return divmod(action, self.size)

    def _action(self, move):
        return self.size ** 2 if move == SWAP else move[0] * self.size + move[1]

    def _swap_legal(self):
        return self.swap and len(self._moves) == 1

    def play(self, move):
        if isinstance(move, str) and move.lower() != SWAP:
            move = parse_cell(self.size, move)
        if self.is_over:
            raise InputError("the game is over")
        seat = len(self._moves) % 2
        if isinstance(move, str):
            if not self._swap_legal():
                raise InputError("no swap here")
            ((row, col), _), = self._stones.items()
            self._stones = {(col, row): 1}
            self._moves.append(SWAP)
            return self._after(seat)
        if not (isinstance(move, tuple) and len(move) == 2
                and all(type(value) is int for value in move)):
            raise TypeError(f"a move is a cell or {SWAP!r}, not {move!r}")
        if not all(0 <= value < self.size for value in move):
            raise InputError(f"{move} is off the board")
        if move in self._stones:
            raise InputError(f"{move} is taken")
        self._stones[move] = seat
        self._moves.append(move)
        return self._after(seat)

    def _after(self, seat):
        if self._connects(seat):
            self._winner = seat
            return ("connection",)
        return ()

    def _connects(self, seat):
        """True when ``seat``'s stones join its two sides (seat 0: top to
        bottom, rows; seat 1: left to right, columns)."""
        axis = 0 if seat == 0 else 1
        todo = [cell for cell, owner in self._stones.items()
                if owner == seat and cell[axis] == 0]
        seen = set(todo)
        while todo:
            row, col = todo.pop()
            if (row, col)[axis] == self.size - 1:
                return True
            for near in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
                if near not in seen and self._stones.get(near) == seat:
                    seen.add(near)
                    todo.append(near)
        return False

    def undo(self):
        if not self._moves:
            raise InputError("no move to undo")
        moves = self._moves[:-1]
        last = self._moves[-1]
        self.__init__(self.size, self.swap)
        for move in moves:
            self.play(move)
        return last

    def copy(self):
        board = Board(self.size, self.swap)
        for move in self._moves:
            board.play(move)
        return board

    def draw(self, as_text=False, **options):
        return "\n".join(" ".join(".XO"[self._stones.get((row, col), -1) + 1]
                                  for col in range(self.size)) for row in range(self.size))


DESCRIPTOR = Descriptor(
    name="toy", title="Toy", players=PLAYERS, swap_move=SWAP, default_size=3, min_size=2,
    max_size=9,
    new_board=lambda size, rule="official", swap=False: Board(size, swap),
    board_size=lambda board: board.size,
    win_reason=lambda kinds: "connection",
    engines={"havhex": EngineWords(PLAYERS, cell_name, parse_cell, SWAP, "swap {}")},
)
