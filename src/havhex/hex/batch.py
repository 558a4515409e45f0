"""Hex games stepped by the thousand, for self-play and reinforcement
learning: :class:`Batch`, EnvPool's ``Hex-v1`` and pgx's ``hex`` bit for
bit on any board size.

>>> from havhex.hex import Batch
>>> batch = Batch(4, size=5, seed=1)
>>> batch.observation.shape, batch.num_actions
((4, 5, 5, 4), 26)
>>> batch.step(batch.sample_actions())
>>> int(batch.observation[..., :2].sum())      # one stone a game
4
"""
from __future__ import annotations

from .._batch import Batch as _Batch
from .._batch import MAX_GAMES, numpy
from .._checks import integer
from ..errors import InputError
# The compiled core has no stub: to a type checker its objects are Any.
from ._batch import MAX_CELLS, HexCore  # type: ignore[import-not-found]

# The annotations are for type checkers only: making a batch does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Optional, Tuple

__all__ = ["Batch", "augment", "record_positions", "MAX_GAMES", "PLANES", "SYMMETRIES"]

PLANES: Tuple[str, str, str, str] = ("own", "opponent", "colour", "swap")

# The symmetries of a Hex board that keep each player's sides: the
# identity and the 180-degree turn.
SYMMETRIES: int = 2


class Batch(_Batch):
    """``n`` Hex games stepped together in compiled code, the GIL released.

    ``Batch(n, size=11, *, cols=None, swap=True, seed=None, threads=1,
    autoreset="next-step")``: boards of ``size`` rows and ``cols`` columns
    (``size`` when None).  Action ``r * cols + c`` puts a stone on row r,
    column c (0-based); action ``rows * cols``, the last, swaps pieces (the
    first stone leaves (r, c) and the second player's goes on (c, r)),
    legal only as the second move and only with ``swap=True`` on a square
    board.  The first mover (pgx's black, havhex's Red) joins the top and
    bottom rows, the second the left and right columns.

    ``observation`` is (n, rows, cols, 4) bool from the view of the player
    to move: plane 0 that player's stones, plane 1 the opponent's, plane 2
    all True when that player moves second (colour 1), plane 3 all True
    when a swap is legal.  ``current_player`` is the seat (0 or 1) to move;
    the seat that moves first is drawn at random for each game at each
    reset, as pgx draws it.  An illegal action in range loses the game for
    its player (pgx's rule; the board changes as pgx's does), or raises
    ValueError, no game changed, with ``illegal="raise"``.  See :mod:`havhex._batch` for the fields, the
    reset modes and the threads.

    Start positions: :meth:`set_positions` and
    :meth:`set_positions_from_records` start chosen games now, as on the
    Havannah batch; :meth:`set_starts` (arrays, or :func:`record_positions`
    of game records) gives the positions every later reset draws from.
    """

    _rows: int
    _cols: int
    _swap: bool
    # The pictures (havhex._batch.Batch.render): each row half a cell right
    # of the one above, as docs/conventions.md lays the board out.
    _ROW_SHIFT = 0.5
    _LETTERS = ("R", "B")
    _STONE_RGB = ((200, 40, 40), (40, 80, 200))
    _COLOUR_NAMES = ("Red", "Blue")

    def __init__(self, n: int, size: int = 11, *, cols: Optional[int] = None, swap: bool = True,
                 seed: Optional[int] = None, threads: int = 1, autoreset: str = "next-step",
                 illegal: str = "lose") -> None:
        rows = integer(size, "size")
        cols = rows if cols is None else integer(cols, "cols")
        if rows < 1 or cols < 1:
            raise InputError(f"the board must have at least one row and one column, "
                             f"got {rows} x {cols}")
        if rows * cols > MAX_CELLS:
            raise InputError(f"a board has at most {MAX_CELLS} cells, got {rows} x {cols}")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        if swap and rows != cols:
            raise InputError(f"swap needs a square board, got {rows} x {cols}")
        self._rows, self._cols, self._swap = rows, cols, swap

        def core(n: int, blocks: Dict[str, Any], parts: int) -> Any:
            return HexCore(n, rows, cols, swap, blocks)

        self._setup(n, seed, threads, autoreset, core, (rows, cols, 4), rows * cols + 1,
                    illegal=illegal)

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    @property
    def swap(self) -> bool:
        return self._swap

    def set_starts(self, positions: Any, to_move: Optional[Any] = None) -> None:
        """Start every later reset from one of ``positions`` (drawn at
        random from each game's stream); ``None`` (or no position) for the
        empty board.  Not a reset itself: call :meth:`reset` to apply it
        now, or :meth:`set_positions` to start chosen games from chosen
        positions.

        ``positions``: (k, rows, cols) integers, 0 empty, 1 Red (the first
        mover), 2 Blue, as ``hex.Board.to_array`` gives them; ``to_move``
        (k,): the colour to move in each, 1 (Red) or 2 (Blue).  By default
        the counts tell: Red at equal counts and after a swap (Blue one
        stone ahead), Blue when Red is one ahead; give ``to_move`` for a
        position after a swap where the counts are equal again (Blue to
        move).  Each must be reachable and not over: Red has as many stones
        as Blue (Red to move) or one more (Blue to move), or, only with
        ``swap=True``, after a swap, Blue one more (Red to move) or as many
        (Blue to move); and nobody has won.  A position of one red stone
        and no blue one, Blue to move, lets the swap come next (with
        ``swap=True``), as after the first move."""
        np = self._np
        if positions is None or (np.ndim(positions) >= 1 and len(positions) == 0):
            self._call(self._core.set_starts, (np.zeros((0, self._rows * self._cols), np.uint8),
                                               []), None)
            return
        self._call(self._core.set_starts, self._checked_positions(positions, to_move), None)

    def set_positions(self, positions: Any, mask: Optional[Any] = None,
                      to_move: Optional[Any] = None) -> None:
        """Start the games where ``mask`` is True (all by default) now, game
        by game from ``positions`` (k, rows, cols), k the number of games
        chosen, each with its colour ``to_move`` (k,), as :meth:`set_starts`
        takes them.  A seat is drawn for the first mover as at a reset; the
        starts later resets draw from stay as they were.  A refused
        position changes no game."""
        np = self._np
        chosen = self._chosen(mask)
        stones, steps = self._checked_positions(positions, to_move)
        if len(stones) != len(chosen):
            raise ValueError(f"positions must hold one position a chosen game: "
                             f"{len(chosen)}, got {len(stones)}")
        self._call(self._core.start_games,
                   (np.ascontiguousarray(chosen, np.int64), stones, steps), None)

    def set_positions_from_records(self, games: Iterable[Any], mask: Optional[Any] = None,
                                   seed: Optional[int] = None) -> None:
        """Start the games where ``mask`` is True (all by default) now, each
        from a random prefix of a random game of ``games`` (records of Hex
        games of this board's size, as :func:`record_positions` draws them,
        the colour to move with each; ``seed`` makes the draw repeatable)."""
        count = len(self._chosen(mask))
        positions, to_move = record_positions(games, count, seed, (self._rows, self._cols),
                                              with_to_move=True)
        self.set_positions(positions, mask, to_move)

    def _checked_positions(self, positions: Any,
                           to_move: Optional[Any]) -> Tuple[Any, List[int]]:
        """``positions`` and ``to_move`` checked against the rules: (stones
        (k, cells) uint8, a copy of the caller's, and the steps of each: its
        moves since the empty board, a swap included)."""
        np = self._np
        cells = self._rows * self._cols
        # A copy: the caller's array may change while the core reads it.
        array = np.array(positions, copy=True)
        if array.dtype.kind not in "iu":
            raise TypeError(f"positions must be an integer array, not {array.dtype}")
        if array.ndim != 3 or array.shape[1:] != (self._rows, self._cols):
            raise ValueError(f"positions must have shape (k, {self._rows}, {self._cols}), "
                             f"got {array.shape}")
        if array.size and (array.min() < 0 or array.max() > 2):
            raise ValueError("positions hold 0 (empty), 1 (Red) or 2 (Blue)")
        movers: List[int] = []
        if to_move is not None:
            given = np.asarray(to_move)
            if given.dtype.kind not in "iu" or given.shape != (len(array),):
                raise ValueError(f"to_move must hold {len(array)} colours, each 1 (Red) or "
                                 f"2 (Blue)")
            movers = [int(value) for value in given]
            if any(mover not in (1, 2) for mover in movers):
                raise ValueError("to_move holds 1 (Red) or 2 (Blue)")
        from .board import Board

        stones = np.ascontiguousarray(array.reshape(len(array), cells), np.uint8)
        steps: List[int] = []
        for k, position in enumerate(array):
            red = int((position == 1).sum())
            blue = int((position == 2).sum())
            mover = movers[k] if movers else (2 if red == blue + 1 else 1)
            # Red moves at equal counts, or after a swap one stone behind;
            # Blue one stone behind, or after a swap at equal counts.
            plain = red == blue if mover == 1 else red == blue + 1
            swapped = blue == red + 1 if mover == 1 else red == blue >= 1
            if not plain and not (swapped and self._swap):
                after = " (after a swap, which swap=False rules out)" if swapped else ""
                raise ValueError(f"position {k} cannot be reached: {red} red and {blue} blue "
                                 f"stones with {'Red' if mover == 1 else 'Blue'} to move{after}")
            board = Board.from_array(position.astype(np.int8), swap=self._swap,
                                     to_move="red" if mover == 1 else "blue")
            if board.winner is not None:
                raise ValueError(f"position {k} is over: {board.winner} has won")
            steps.append(red + blue + (0 if plain else 1))
        return stones, steps

    def _game_cells(self, game: int) -> Tuple[Any, int]:
        np = self._np
        cells, mover = self._core.cells(game)
        return np.frombuffer(cells, np.uint8).astype(np.int8).reshape(
            self._rows, self._cols), mover

    def empty_board(self) -> Any:
        """An empty live board of the batch's size and swap rule (what
        :class:`havhex.search.BatchSearch` searches the games' positions on)."""
        from .board import Board

        return Board(self._rows, self._cols, swap=self._swap)

    def stones(self) -> Any:
        """The games' stones, (n, rows, cols) int8: 0 empty, 1 the first
        mover's (Red), 2 the second's (Blue), as ``hex.Board.to_array``."""
        np = self._np
        cells, _ = self._core.stones()
        return np.frombuffer(cells, np.uint8).astype(np.int8).reshape(
            self._n, self._rows, self._cols)


def augment(observation: Any, policy: Optional[Any] = None, k: int = 1,
            inverse: bool = False) -> Tuple[Any, Optional[Any]]:
    """Hex observations (..., rows, cols, C) and policies
    (..., rows * cols + 1) under symmetry ``k`` of :data:`SYMMETRIES`: 0 the
    identity, 1 the 180-degree turn (cell (r, c) goes to
    (rows - 1 - r, cols - 1 - c), the swap action stays).  Returns
    ``(observation, policy)`` as new arrays (``policy`` None when not
    given), as the Havannah batch's ``augment`` does; the turn is its own
    inverse, so ``inverse`` changes nothing here."""
    np = numpy()
    k = integer(k, "k")
    if not isinstance(inverse, bool):
        raise TypeError(f"inverse must be True or False, not {type(inverse).__name__}")
    if k not in range(SYMMETRIES):
        raise ValueError(f"k must be 0 or 1 (Hex has one symmetry but the identity), got {k}")
    observation = np.asarray(observation)
    if observation.ndim < 3:
        raise ValueError("observation must have shape (..., rows, cols, channels)")
    rows, cols = observation.shape[-3], observation.shape[-2]
    turned = observation[..., ::-1, ::-1, :] if k else observation
    turned = np.ascontiguousarray(turned)
    if policy is None:
        return turned, None
    policy = np.asarray(policy)
    if policy.ndim < 1 or policy.shape[-1] != rows * cols + 1:
        raise ValueError(f"policy must have rows * cols + 1 = {rows * cols + 1} actions "
                         f"on its last axis, got shape {policy.shape}")
    if k:
        policy = np.concatenate([policy[..., -2::-1], policy[..., -1:]], axis=-1)
    return turned, np.ascontiguousarray(policy)


def record_positions(games: Iterable[Any], count: int, seed: Optional[int] = None,
                     size: Optional[Tuple[int, int]] = None, *,
                     with_to_move: bool = False) -> Any:
    """``count`` start positions for :meth:`Batch.set_starts`, each a random
    prefix of a random Hex game of ``games`` (``havhex.records.Record``
    objects, as ``records.read`` gives them): a game drawn uniformly, then
    a number of its moves drawn uniformly from 0 to the last before the
    winning move (or before a move the board refuses).  Games of another
    size than ``size`` ((rows, cols); the first Hex game's when None) and
    other games are left out.  Returns (count, rows, cols) int8, as
    :meth:`Batch.set_starts` takes it; with ``with_to_move=True``, the
    pair of it and the colour to move in each, (count,) int8, 1 (Red) or
    2 (Blue), which the stones alone do not tell after a swap.  ``seed``
    makes the draw repeatable.  The position just after swap-sides is left
    out: its stones and mover are the position's before it, where the swap
    was still open, and a batch would offer the swap again."""
    import random

    np = numpy()
    count = integer(count, "count")
    if count < 0:
        raise InputError(f"count must be >= 0, got {count}")
    if not isinstance(with_to_move, bool):
        raise TypeError(f"with_to_move must be True or False, not {type(with_to_move).__name__}")
    picked: List[Any] = []
    for game in games:
        if getattr(game, "game", None) != "hex":
            continue
        if size is None:
            size = tuple(game.size)
        if tuple(game.size) == tuple(size):
            picked.append(game)
    if not picked:
        raise InputError("no Hex game of that size among the records")
    if TYPE_CHECKING:
        # The first game's when not given: some game was picked.
        assert size is not None
    rows, cols = size
    draw = random.Random(seed)
    # A game's positions and movers, replayed once when first drawn.
    prefixes: Dict[int, List[Tuple[Any, int]]] = {}
    out = np.zeros((count, rows, cols), np.int8)
    movers = np.zeros(count, np.int8)
    for k in range(count):
        index = draw.randrange(len(picked))
        if index not in prefixes:
            prefixes[index] = _positions(picked[index])
        positions = prefixes[index]
        out[k], movers[k] = positions[draw.randrange(len(positions))]
    return (out, movers) if with_to_move else out


def _positions(game: Any) -> List[Tuple[Any, int]]:
    """The positions of a record's game before each of its moves, up to the
    last before the end (the winning move, or a move the board refuses),
    each with its colour to move (1 Red, 2 Blue); the one just after
    swap-sides left out (see :func:`record_positions`)."""
    board = game.board()
    positions = [(board.to_array(), _MOVERS[board.to_move])]
    for _player, move in game.moves:
        try:
            if board.play(move):
                break
        except ValueError:
            break
        if move != "swap-sides":
            positions.append((board.to_array(), _MOVERS[board.to_move]))
    return positions


# The colours to move as the batch's start positions name them.
_MOVERS: Dict[str, int] = {"red": 1, "blue": 2}
