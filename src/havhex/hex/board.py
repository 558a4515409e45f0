"""The live Hex board for two players.

>>> from havhex.hex import Board
>>> board = Board(2)
>>> board.play((0, 0)), board.play((0, 1)), board.play((1, 0))
((), (), ('chain',))
>>> board.winner, board.winning_move
('red', 2)

The compiled core (``_board.BoardCore``) checks every argument itself, so
that ``play`` costs no Python frame; this module adds what is used once in
a while: arrays, the witness, the pictures, pickling.
"""
from __future__ import annotations

from ..errors import InputError
from ._names import CODE_LETTERS
from ._board import (MAX_CELLS, PLAYERS, STRUCTURES, SWAP_PIECES, SWAP_SIDES,
                     BoardCore, name_of_cell)
from ._board import UNMADE as _UNMADE

# The annotations are for type checkers only: making a board does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Dict, List, Literal, Optional, Tuple, Union

    from .._explanation import Explanation

    _Cell = Tuple[int, int]
    _Move = Union[_Cell, Literal["swap-pieces", "swap-sides"]]
    _Colour = Literal["red", "blue"]

__all__ = ["Board", "PLAYERS", "STRUCTURES", "SWAP_PIECES", "SWAP_SIDES", "MAX_CELLS",
           "name_of_cell"]

# The judge's letters of the cell codes 0 (empty), 1 (red), 2 (blue).


class Board(BoardCore):
    """A Hex board for two players, played move by move.

    ``Board(rows, cols=None, swap=False)``: cells are ``(row, col)``,
    0-based, as the judge writes them, with its neighbours; Red (SGF's
    Black) moves first and joins the top row to the bottom row, Blue the left
    column to the right column.  A move is a cell, its name in SGF Hex's
    notation as the records write it (``"a1"`` is ``(0, 0)``, ``"c2"`` is
    ``(1, 2)``, see :meth:`cell_name`) or a swap.  ``play`` returns
    ``("chain",)`` for the winning move and ``()`` otherwise.

    Misuse raises :class:`havhex.InputError` (a ``ValueError``) and changes
    nothing: a move off the board, on a stone, after the end, a swap out of
    turn, a size out of range, a count below 0 or above 2**62.  An argument of the wrong
    type raises ``TypeError``.  Integers are whatever ``operator.index``
    takes (NumPy integers too), never ``bool``.

    With ``swap=True`` Blue's first move may instead be one of the two pie
    rules of the SGF Hex specification, as separate moves:

    * ``"swap-pieces"``: Red's stone leaves ``(i, j)`` and a blue stone goes
      on its mirror image in the long diagonal, ``(j, i)`` (legal when that
      cell is on the board); Red moves next.  Colours stay with the players.
    * ``"swap-sides"``: the players exchange colours.  The stones are
      unchanged and it is again Blue's turn, but Blue is now the first
      player and Red the second.  Everything the board says is by colour:
      ``to_move``, the stones of :meth:`to_array` and ``winner`` name
      colours, and :attr:`sides_swapped` says that Red's owner is the
      second player (so ``winner == "red"`` then means the second player
      won).  The hash and ``==`` include :attr:`sides_swapped`.

    ``undo`` takes moves back down to the start; equal positions compare
    equal and hash equal whatever the moves behind them.  ``legal_moves``
    lists the empty cells in row-major order, then the swaps allowed.
    ``playout``/``playouts`` play uniformly random legal moves to the end in
    compiled code (no draws in Hex); Ctrl-C stops them between batches of
    games of some 2**16 cell steps (one game on a larger board), leaving the
    board as it was.

    Moves are also integer action ids, the batches' (and pgx's, EnvPool's,
    OpenSpiel's): cell ``(row, col)`` is ``row * cols + col`` and
    ``"swap-pieces"`` is ``rows * cols``, so ``num_actions`` is
    ``rows * cols + 1``; ``"swap-sides"`` has no id.  ``play_action(a)`` is
    ``play(move_of(a))``; ``legal_actions()`` is an ``array.array("i")`` of
    the legal ids, ascending; ``legal_mask()`` a NumPy bool array;
    ``action_of(move)`` and ``move_of(a)`` convert.
    """

    __slots__ = ()

    @property
    def is_draw(self) -> bool:
        """Always False: a Hex board filled up has a winner."""
        _check_made(self)
        return False

    def __repr__(self) -> str:
        if not self._initialised():
            return "<havhex.hex.Board made without __init__>"
        cols = "" if self.cols == self.rows else f", {self.cols}"
        swap = ", swap=True" if self.swap else ""
        state = f"{self.winner} won" if self.winner else f"{self.to_move} to move"
        return f"<havhex.hex.Board {self.rows}{cols}{swap}: {len(self)} moves, {state}>"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuilt, (type(self), self.rows, self.cols, self.swap, self._base(),
                           self._base_mover(), self.moves))

    # ---- arrays ----------------------------------------------------------

    def to_array(self) -> Any:  # numpy.ndarray of int8, shape (rows, cols)
        """The stones as a NumPy ``int8`` array of shape (rows, cols): 0 empty,
        1 red, 2 blue."""
        _check_made(self)
        np = _numpy()
        return np.frombuffer(bytearray(self._cells_bytes()), dtype=np.int8).reshape(
            self.rows, self.cols)

    @classmethod
    def from_array(cls, array: Any, swap: bool = False,
                   to_move: Optional[_Colour] = None) -> Board:
        """A board holding the stones of ``array`` (shape (rows, cols), 0
        empty, 1 red, 2 blue), with no moves behind it: :attr:`moves` is
        empty and :meth:`undo` cannot go below it.  ``to_move`` defaults to
        what the counts say: Blue when Red has one stone more, otherwise Red
        (Red also when Blue has one more, as after swap-pieces), and after
        a win the loser."""
        np = _numpy()
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        values = np.asarray(array)
        if values.dtype.kind not in "iub":
            raise TypeError(f"a Hex board array holds integers 0, 1, 2, not {values.dtype}")
        if values.ndim != 2 or values.shape[0] < 1 or values.shape[1] < 1:
            raise InputError(f"a Hex board array has shape (rows, cols), not {values.shape}")
        rows, cols = values.shape
        if (rows + 2) * (cols + 1) + 4 > MAX_CELLS:
            raise InputError(f"a {rows} x {cols} Hex board is too large")
        if values.size and (values.min() < 0 or values.max() > 2):
            bad = values[(values < 0) | (values > 2)][0]
            raise InputError(f"a Hex board array holds 0 (empty), 1 (red) and 2 (blue), "
                             f"not {int(bad)}")
        cells = np.ascontiguousarray(values, dtype=np.uint8).tobytes()
        return cls._from_start(rows, cols, swap, cells, to_move)

    @classmethod
    def _from_start(cls, rows: int, cols: int, swap: bool, cells: bytes,
                    mover: Optional[str]) -> Board:
        """A board whose start is ``cells`` (rows*cols bytes 0/1/2, checked by
        the caller) with ``mover`` ("red", "blue" or None to infer) to move."""
        board = cls._from_cells(rows, cols, swap, cells)
        red, blue = board.stone_counts
        winner = board.winner
        if mover is None:
            if winner:
                mover = PLAYERS[1 - PLAYERS.index(winner)]
            else:
                mover = "blue" if red == blue + 1 else "red"
        elif not isinstance(mover, str) or mover not in PLAYERS:
            raise InputError(f"to_move must be 'red' or 'blue', not {mover!r}")
        # Red moves at equal counts and after swap-pieces with one stone
        # fewer; Blue one stone behind, and at equal counts after swap-pieces.
        if not (red == blue or (red == blue + 1 and mover == "blue")
                or (blue == red + 1 and mover == "red")):
            raise InputError(f"{red} red and {blue} blue stones cannot be reached "
                             f"with {mover} to move")
        if winner == mover:
            raise InputError(f"{winner} has won, so {mover} cannot be to move")
        board._start_mover(PLAYERS.index(mover) + 1)
        return board

    def _rows_text(self) -> List[str]:
        """The rows as the judge writes them (R, B, .)."""
        cells = self._cells_bytes().translate(CODE_LETTERS)
        c = self.cols
        return [cells[k * c:(k + 1) * c].decode("ascii") for k in range(self.rows)]

    # ---- witness and pictures --------------------------------------------

    def explain(self) -> Optional[Explanation]:
        """The witness of the win as the judge gives it, a
        :class:`havhex.Explanation` (``case`` None): the ``result`` (its
        ``last_moves`` the winner's stones that lie on every winning chain),
        the stone counts and one winning chain from the winner's first side
        (top row, left column) to its second; None before a win."""
        if self.winner is None:
            return None
        from . import _position as judge

        if self.rows == self.cols:
            explanation = judge.explain(self._rows_text())
            if explanation.result.winner == self.winner:
                return explanation
        # A board the judge cannot take (not square), or a start that no
        # game reaches (two separate winning chains): the board's own search.
        from ._explanation import HexExplanation

        winner = self.winner
        chain = self._chain()
        if TYPE_CHECKING:
            # The board is won: the winner's sides are joined.
            assert chain is not None
        # A stone lies on every winning chain exactly when the sides come
        # apart without it; such a stone lies on any one chain.
        essential = [cell for cell in chain if self._chain(cell) is None]
        # "Red wins" or "Blue wins", one of the statuses.
        result = judge.Result(f"{winner.capitalize()} wins", None,  # type: ignore[arg-type]
                              frozenset(essential))
        red, blue = self.stone_counts
        chains = ((winner, tuple(chain)),)
        return HexExplanation.of(result, None, (red, blue, chains))

    def draw(self, as_text: bool = False, **options: Any) -> str:
        """The board as SVG (or as text with ``as_text=True``) through
        :func:`havhex.hex.picture.hex_svg` / ``hex_text``, with the
        winning chain marked; ``options`` go to them (``heading=``).  The
        pictures are of square boards: another raises
        :class:`havhex.InputError`."""
        from . import picture

        _check_made(self)
        if self.rows != self.cols:
            raise InputError(f"the pictures are of square boards (N x N); this one is "
                             f"{self.rows} x {self.cols}")
        explanation = self.explain() or {"answer": "Nobody wins"}
        function = picture.hex_text if as_text else picture.hex_svg
        return function(self._rows_text(), explanation, **options)


    def _repr_svg_(self) -> Optional[str]:
        """The picture a notebook shows (Jupyter calls this): both colours'
        stones, the last move ringed, a winning chain marked; None (the
        notebook shows the repr) for a board the pictures do not take.
        TypeError, as everywhere, for a board made without ``__init__``."""
        from . import picture

        if self.rows != self.cols or self.rows > picture.HEX_SVG_MAX:
            return None
        last = self.moves[-1] if self.moves else None
        if last == SWAP_PIECES:
            # The board's one stone, the blue one on the mirror cell (Red's
            # stone may have been no move but from_array's start).
            last = divmod(self._cells_bytes().index(2), self.cols)
        elif isinstance(last, str):
            last = None
        explanation = self.explain() or {"answer": "Nobody wins"}
        return picture.hex_svg(self._rows_text(), explanation, last_move=last)


def _check_made(board: Board) -> None:
    """TypeError for a board made without ``__init__`` (it has no cells), as
    every method of the compiled core raises."""
    if not board._initialised():
        raise TypeError(_UNMADE)


def _rebuilt(cls: Any, rows: Any, cols: Any, swap: Any, base: Any, base_to_move: Any,
             moves: Any) -> Board:
    """Unpickling: the start, then the moves again.  A pickle can bring
    anything: every argument is checked before the compiled core sees it,
    TypeError for what no board pickles of that type, InputError for a
    value no board holds (the moves are played, so each must be legal)."""
    if not (isinstance(cls, type) and issubclass(cls, Board)):
        raise TypeError(f"a pickled Hex board rebuilds a Board, not {cls!r:.60}")
    for name, value in (("rows", rows), ("cols", cols)):
        if type(value) is not int:
            raise TypeError(f"a pickled Hex board's {name} is an int, not {type(value).__name__}")
    if type(swap) is not bool:
        raise TypeError(f"a pickled Hex board's swap is a bool, not {type(swap).__name__}")
    if base is not None and type(base) is not bytes:
        raise TypeError(f"a pickled Hex board's start is bytes or None, not {type(base).__name__}")
    if rows < 1 or cols < 1 or (rows + 2) * (cols + 1) + 4 > MAX_CELLS:
        raise InputError(f"a Hex board cannot be {rows} x {cols}")
    if base is None and base_to_move not in (None, PLAYERS[0]):
        raise InputError(f"a pickled Hex board with no start has red to move first, "
                         f"not {base_to_move!r:.40}")
    if type(moves) is not tuple:
        raise InputError(f"a pickled Hex board's moves are a tuple, not {type(moves).__name__}")
    # A move fills a cell, or is the one swap: no board holds more moves.
    if len(moves) > rows * cols + 1:
        raise InputError(f"a {rows} x {cols} Hex board holds at most {rows * cols + 1} moves, "
                         f"not {len(moves)}")
    for move in moves:
        if not (move in (SWAP_PIECES, SWAP_SIDES) if type(move) is str else
                type(move) is tuple and len(move) == 2 and all(type(k) is int for k in move)):
            raise InputError(f"a pickled Hex board's move is a (row, col) pair of ints or a "
                             f"swap, not {move!r:.40}")
    if base is None:
        board = cls(rows, cols, swap)
    else:
        board = cls._from_start(rows, cols, swap, base, base_to_move)
    for move in moves:
        board.play(move)
    return board


def _numpy() -> ModuleType:
    try:
        import numpy
    except ImportError:
        raise ImportError("havhex.hex.Board.to_array and from_array need NumPy "
                          "(pip install numpy)") from None
    return numpy
