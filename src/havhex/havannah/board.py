"""The live Havannah board for two players.

>>> from havhex.havannah import Board
>>> board = Board(2)
>>> board.play((1, 1)), board.play((3, 3)), board.play((1, 2))
((), (), ('bridge',))
>>> board.winner, board.winning_move
('white', 2)

The compiled core (``_board.BoardCore``) checks every argument itself, so
that ``play`` costs no Python frame; this module adds what is used once in
a while: arrays, the witness, the pictures, pickling.
"""
from __future__ import annotations

from ..errors import InputError
from ._board import MAX_BOARD_SIZE, PLAYERS, RULES, SWAP, BoardCore, name_of_cell
from ._board import UNMADE as _UNMADE

# The annotations are for type checkers only: making a board does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, List, Literal, Optional, Sequence, Tuple, Union

    from .._explanation import Explanation

    _Cell = Tuple[int, int]
    _Move = Union[_Cell, Literal["swap"]]

__all__ = ["Board", "PLAYERS", "RULES", "SWAP", "MAX_BOARD_SIZE", "name_of_cell"]

# to_array()'s values: the index of a player in PLAYERS plus one.
EMPTY_VALUE, OFF_BOARD_VALUE = 0, -1


class Board(BoardCore):
    """A Havannah board that two players play move by move.

    ``Board(size, rule="official", swap=False)``: base ``size`` from 2 to
    ``MAX_BOARD_SIZE``, cells ``(x, y)`` with ``1 <= x, y <= 2S-1`` and
    ``|x - y| <= S-1`` (the judge's coordinates and neighbours).  "white"
    moves first, then "black".

    * ``rule="official"``: a ring is a loop of one player's stones around one
      or more cells, whatever they hold (six stones around a seventh of the
      same player count).  ``rule="contest"``: the contest statement's rule,
      some EMPTY cell cut off from the board's outside by the player's stones;
      one player's stones alone then give :func:`havhex.havannah.first_win`'s
      answer.
    * ``swap=True``: black's first move may be ``"swap"`` (Little Golem's pie
      rule): white's stone becomes black's and white moves again.

    ``play(move)`` returns the kinds the move completed for the mover, in
    the order bridge, fork, ring (``()`` for none); the first move that
    completes one wins.  A move is a cell ``(x, y)``, its name in Little
    Golem's notation as the records write it (``"A1"`` is ``(1, 1)``, see
    :meth:`cell_name`) or ``"swap"``.

    Misuse raises :class:`havhex.InputError` (a ``ValueError``) and changes
    nothing: a move off the board, on a stone, after the end, a swap that is
    not allowed, a size out of range, a count below 0 or above 2**62.  An argument of the
    wrong type raises ``TypeError``.  Integers are whatever
    ``operator.index`` takes (NumPy integers too), never ``bool``.
    ``undo()`` takes back the last move exactly, down to the empty board;
    ``copy()`` copies the arrays.  ``hash`` is a 64-bit Zobrist hash of the
    stones and the player to move; boards compare equal when their stones,
    player to move, size, rule and swap option are the same.
    ``legal_moves()`` lists the empty cells in ``(x, y)`` order, then
    ``"swap"`` when it is legal.  ``playout(seed)`` and ``playouts(n, seed,
    threads)`` play random games in C from the position; Ctrl-C stops them
    between batches of games of some 2**16 cell steps (one game on a larger
    board), leaving the board as it was.

    Moves are also integer action ids, the batches' and OpenSpiel's: cell
    ``(x, y)`` is ``(x-1) * (2S-1) + (y-1)`` (``num_actions`` is
    ``(2S-1)**2``; the square's corners off the hexagon are never legal),
    and the swap is the first stone's cell again, while it is legal.
    ``play_action(a)`` is ``play(move_of(a))``; ``legal_actions()`` is an
    ``array.array("i")`` of the legal ids, ascending; ``legal_mask()`` a
    NumPy bool array; ``action_of(move)`` and ``move_of(a)`` convert.

    Memory: 7 bytes per cell of the ``(2S+1)**2`` square around the board,
    plus 40 bytes per move (and, under the contest rule, 8 bytes per cell
    of scratch touched only by the cells a ring search visits).
    """

    __slots__ = ()

    def __repr__(self) -> str:
        if not self._initialised():
            return "<havhex.havannah.Board made without __init__>"
        state = (f"{self.winner} won" if self.winner else "draw" if self.is_draw
                 else f"{self.to_move} to move")
        return (f"<havhex.havannah.Board size={self.size} rule={self.rule!r} swap={self.swap}: "
                f"{len(self)} moves, {state}>")

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuilt, (type(self), self.size, self.rule, self.swap, self.moves,
                           tuple(self._players())))

    # ---- arrays ----------------------------------------------------------

    def to_array(self) -> Any:  # numpy.ndarray of int8, shape (2S-1, 2S-1)
        """The stones as a NumPy int8 array of shape ``(2S-1, 2S-1)``: entry
        ``[x-1, y-1]`` is 0 for an empty cell, 1 for white, 2 for black, and
        -1 for the corners of the square that are off the hexagon."""
        _check_made(self)
        np = _numpy()
        width = 2 * self.size + 1
        square = np.frombuffer(self._cells_bytes(), dtype=np.int8).reshape(width, width)
        array = square[1:-1, 1:-1].copy()
        array[array == 3] = OFF_BOARD_VALUE
        return array

    @classmethod
    def from_array(cls, array: Any, rule: Literal["official", "contest"] = "official",
                   swap: bool = False) -> Board:
        """The board holding ``array``'s stones (the layout of :meth:`to_array`;
        0 or -1 off the hexagon; integers, or bools for white's stones alone).

        The order of the moves is not in an array: the board replays the
        stones in row-major order, white and black alternating, so that
        ``moves`` and ``undo()`` follow that order.  White must have as many
        stones as black (white to move) or one more (black to move).  A
        position in which some prefix of that order completes a structure
        raises :class:`havhex.InputError`: this makes positions of games in
        progress.
        """
        np = _numpy()
        values = np.asarray(array)
        if values.dtype.kind not in "iub":
            raise TypeError(f"the array must hold integers, not {values.dtype}")
        if values.ndim != 2 or values.shape[0] != values.shape[1] or values.shape[0] % 2 == 0:
            raise InputError(f"the array must be square with an odd side 2S-1, got shape {values.shape}")
        size = (values.shape[0] + 1) // 2
        if size < 2:
            raise InputError(f"the array must be at least 3 x 3 (S = 2), got shape {values.shape}")
        board = cls(size, rule, swap)
        x, y = np.indices(values.shape)
        off = np.abs(x - y) > size - 1
        if np.any(values[off] > 0) or np.any(values[~off] < 0) or np.any(values[off] < -1):
            raise InputError("the array holds stones off the hexagon, or negative values on it")
        if np.any(values > 2):
            raise InputError("the array's values must be 0 (empty), 1 (white) or 2 (black)")
        stones = [[(int(a) + 1, int(b) + 1) for a, b in zip(*np.nonzero(values == value))]
                  for value in (1, 2)]
        white, black = stones
        if len(white) not in (len(black), len(black) + 1):
            raise InputError(f"white must have as many stones as black or one more, "
                             f"got {len(white)} and {len(black)}")
        for number in range(len(white) + len(black)):
            move = (white if number % 2 == 0 else black)[number // 2]
            if board.play(move):
                raise InputError(f"the position holds a winning structure (found at {move} "
                                 f"replaying the stones in row-major order)")
        return board

    # ---- witness and pictures --------------------------------------------

    def _winner_stones(self) -> List[_Cell]:
        """The winner's stones in the order they were played (the swapped
        stone first), the winning move last."""
        winner = self.winner
        if TYPE_CHECKING:
            # Asked for after a win only.
            assert self.winning_move is not None
        cells: List[_Cell] = []
        moves = self.moves
        for index, (move, player) in enumerate(zip(moves, self._players())):
            if move == SWAP:
                continue
            if TYPE_CHECKING:
                assert not isinstance(move, str)
            colour = player
            if index == 0 and len(moves) > 1 and moves[1] == SWAP:
                colour = 1              # the swap gave white's first stone to black
            if PLAYERS[colour] == winner and index <= self.winning_move:
                cells.append(move)
        return cells

    def explain(self) -> Optional[Explanation]:
        """The win with a witness per structure, as
        :func:`havhex.havannah.explain` gives it (an :class:`havhex.Explanation`,
        ``case`` None), or None before a win.  Its ``result`` numbers the
        winning move in :attr:`moves` from 1; ``winner`` says whose it is.

        A ring's ``loop`` is a cycle of the winner's stones; it passes
        through the winning move unless the ring is a flower completed at its
        centre.  ``enclosed_runs`` holds, as row runs ``[x, first_y,
        last_y]``, every cell cut off from the outside by the winner's
        stones: under the official rule whatever it holds (a flower's centre
        too), under the contest rule the empty ones.
        """
        if self.winner is None:
            return None
        from . import _board_witness

        return _board_witness.explain_board(self)

    def draw(self, as_text: bool = False, **options: Any) -> str:
        """The board as an SVG document (or text with ``as_text=True``)
        through :func:`havhex.havannah.picture.havannah_svg` / ``havannah_text``.

        Those pictures show one player's stones: the winner's, with the
        witness of the win, or, before a win, the stones of ``player=``
        (default the player to move).  ``options`` go to the drawing
        function (``heading=``)."""
        from . import picture

        _check_made(self)
        player = options.pop("player", None)
        # The explanation, then the picture's record of it (a dict) or None.
        explanation: Any = self.explain()
        if player is None:
            player = self.winner or self.to_move
        if player not in PLAYERS:
            raise InputError(f"player must be 'white' or 'black', got {player!r}")
        if explanation is not None and player == self.winner:
            stones: Sequence[Sequence[int]] = self._winner_stones()
            explanation = dict(explanation.to_dict(), move=len(stones))
        else:
            explanation = None
            stones = [tuple(map(int, cell)) for cell in _stones_of(self, PLAYERS.index(player) + 1)]
        if as_text:
            return picture.havannah_text(self.size, stones, explanation, **options)
        return picture.havannah_svg(self.size, stones, explanation, **options)


    def _repr_svg_(self) -> str:
        """The picture a notebook shows (Jupyter calls this): the winner's
        stones numbered with the witness of the win (before a win, those of
        the player to move), the other player's stones unnumbered, the last
        move ringed.  TypeError, as everywhere, for a board made without
        ``__init__``."""
        from . import picture

        # The explanation, then the picture's record of it (a dict) or None.
        explanation: Any = self.explain()
        if explanation is not None:
            player = self.winner
            stones: Sequence[Sequence[int]] = self._winner_stones()
            explanation = dict(explanation.to_dict(), move=len(stones))
        else:
            player = self.to_move
            stones = self._stones_in_order(PLAYERS.index(player) + 1)
            explanation = None
        others = [tuple(map(int, cell)) for cell in _stones_of(self, 2 - PLAYERS.index(player))]
        last = next((move for move in reversed(self.moves) if move != SWAP), None)
        # The swap, a str, is not the last move drawn.
        return picture.havannah_svg(self.size, stones, explanation, others=others,
                                    last_move=last,  # type: ignore[arg-type]
                                    total_moves=len(self))

    def _stones_in_order(self, value: int) -> List[_Cell]:
        """The stones of colour ``value`` (1 white, 2 black) in the order
        they were played (the swapped stone where it was first played)."""
        cells = self._cells_bytes()
        width = 2 * self.size + 1
        # The swap, a str, is left out before a move's coordinates are read.
        return [move for move in self.moves  # type: ignore[misc]
                if move != SWAP
                and cells[move[0] * width + move[1]] == value]  # type: ignore[operator, index]


def _check_made(board: Board) -> None:
    """TypeError for a board made without ``__init__`` (it has no cells), as
    every method of the compiled core raises."""
    if not board._initialised():
        raise TypeError(_UNMADE)


def _stones_of(board: Board, value: int) -> List[Tuple[int, int]]:
    width = 2 * board.size + 1
    cells = board._cells_bytes()
    return [divmod(index, width) for index, held in enumerate(cells) if held == value]


def _rebuilt(cls: Any, size: Any, rule: Any, swap: Any, moves: Any, players: Any) -> Board:
    """Unpickling: the moves again, each by its player (0 white, 1 black).
    A pickle can bring anything: every argument is checked before the
    compiled core sees it, TypeError for what no board pickles of that
    type, InputError for a value no board holds (the moves are played, so
    each must be legal, and none is left out)."""
    if not (isinstance(cls, type) and issubclass(cls, Board)):
        raise TypeError(f"a pickled Havannah board rebuilds a Board, not {cls!r:.60}")
    if type(size) is not int:
        raise TypeError(f"a pickled Havannah board's size is an int, not {type(size).__name__}")
    if type(rule) is not str or type(swap) is not bool:
        raise TypeError("a pickled Havannah board's rule is a str and its swap a bool")
    if not 2 <= size <= MAX_BOARD_SIZE or rule not in RULES:
        raise InputError(f"a Havannah board cannot be of size {size} under rule {rule!r:.40}")
    if not isinstance(moves, tuple) or not isinstance(players, tuple) \
            or len(moves) != len(players) or any(type(p) is not int or p not in (0, 1)
                                                 for p in players):
        raise InputError("a pickled Havannah board holds its moves and, for each, "
                         "its player 0 (white) or 1 (black)")
    # A move fills a cell, or is the one swap: no board holds more moves.
    cells = 3 * size * (size - 1) + 1
    if len(moves) > cells + 1:
        raise InputError(f"a Havannah board of size {size} holds at most {cells + 1} moves, "
                         f"not {len(moves)}")
    for move in moves:
        if not (move == SWAP if type(move) is str else
                type(move) is tuple and len(move) == 2 and all(type(k) is int for k in move)):
            raise InputError(f"a pickled Havannah board's move is an (x, y) pair of ints or "
                             f"'swap', not {move!r:.40}")
    # The rule is one of RULES, checked above.
    board = cls(size, rule, swap)  # type: ignore[arg-type]
    for move, player in zip(moves, players):
        if move == SWAP:
            if PLAYERS[player] != board.to_move:
                raise InputError(f"a pickled Havannah board's swap is {board.to_move}'s move, "
                                 f"not {PLAYERS[player]}'s")
            board.play(move)
        else:
            board._play_as(move, PLAYERS[player])
    if len(board) != len(moves):
        raise InputError(f"a pickled Havannah board left {len(moves) - len(board)} moves out")
    return board


def _numpy() -> ModuleType:
    try:
        import numpy
    except ImportError:
        raise ImportError("Board.to_array and Board.from_array need NumPy "
                          "(pip install numpy)") from None
    return numpy
