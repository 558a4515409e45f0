"""Batched Havannah: ``n`` games stepped together in compiled code, for
self-play and reinforcement learning (:class:`Batch`).

Actions are OpenSpiel's: ``(x-1)*(2S-1) + (y-1)`` for the judge's cell
(x, y), over the ``(2S-1)``-square that holds the hexagon; the square's
cells off the hexagon are never legal.  With ``swap=True`` (the pie rule,
as OpenSpiel plays it) the second player's first move may be the first
stone's own cell: that stone becomes the second player's, and the first
player moves again.

The observation is ``(n, 2S-1, 2S-1, 8)`` bool, from the view of the
player to move (NHWC, as pgx and EnvPool lay theirs out); its planes, by
index (:data:`PLANES`):

0. ``own``: the mover's stones;
1. ``opponent``: the other player's stones;
2. ``empty``: the empty cells of the hexagon;
3. ``on_board``: the cells of the hexagon (the square's others are off it);
4. ``edge``: the cells of the six edges, corners excluded;
5. ``corner``: the six corners;
6. ``swap``: every cell of the hexagon while the pie rule offers the swap
   (the second player's first move), else none;
7. ``last``: the cell of the last move (the stone it placed, or the one
   the swap took), none at the start.

Planes 3 to 5 let a network that is the same at every size find the
board's shape, its edges and corners (a fork's and a bridge's goals); 6
tells it the one fact of the position the stones do not show.  No plane
gives the mover's colour: Havannah's rules are the same for both colours,
so the position and the mover decide the game (the colour only decides
who may swap, which plane 6 gives).  Thus a move changes the words of the
stones alone, not of every cell.
"""
from __future__ import annotations

from .._batch import AUTORESET_MODES, MAX_GAMES, numpy
from .._batch import Batch as _Batch
from .._checks import integer
from ..errors import InputError
from . import _batch

# The annotations are for type checkers only: making a batch does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Literal, Optional, Sequence, Tuple

    from .board import Board

    _Array = Any  # numpy.ndarray; NumPy is not a dependency of havhex
    _Autoreset = Literal["next-step", "same-step", "disabled"]

__all__ = ["Batch", "PLANES", "STRUCTURES", "SYMMETRIES", "AUTORESET_MODES", "symmetry", "augment",
           "inverse_symmetry"]

PLANES: Tuple[str, ...] = ("own", "opponent", "empty", "on_board", "edge", "corner", "swap", "last")
STRUCTURES: Tuple[str, str, str] = ("bridge", "fork", "ring")

# The symmetries of the hexagon: six turns, each with or without a mirror.
SYMMETRIES: int = 12
RULES: Tuple[str, str] = ("official", "contest")
# The largest base, and the most memory a batch may ask for: refused up
# front rather than left to the system's overcommit.
MAX_BASE: int = 64
MAX_BYTES: int = 16 << 30


class Batch(_Batch):
    """``n`` Havannah games of base ``base`` stepped together in compiled
    code, the GIL released.

    ``Batch(n, base=8, *, rule="official", swap=False, seed=None,
    threads=1, autoreset="next-step")``: ``rule`` is the ring rule, as for
    :class:`havhex.havannah.Board`; ``swap=True`` offers the pie rule.
    Actions and planes: see the module's text.  The fields (see
    :mod:`havhex._batch`) and, for Havannah, ``structures`` (n,) uint8:
    the bits (``1 << STRUCTURES.index(kind)``) of what the winning move
    completed, 0 for none (a draw, or a game going on).  A full board is a
    draw: terminated, rewards 0, ``winner`` -1.  An illegal action in range
    (off the hexagon, on a stone) loses the game for its player, as in the
    Hex batch (pgx's rule: rewards -1 and +1, the board and the player to
    move as they were); with ``illegal="raise"`` it raises ValueError
    naming the game, like an action out of range, and no game changes.
    """

    _base: int
    _rule: Literal["official", "contest"]
    _swap: bool
    # The structures' field, which _setup makes (extra_fields).
    _view_structures: _Array
    # The pictures (havhex._batch.Batch.render): each row of the array half
    # a cell left of the one above, so that its neighbours are the board's.
    _ROW_SHIFT = -0.5
    _LETTERS = ("W", "B")
    _STONE_RGB = ((250, 250, 250), (30, 30, 30))
    _COLOUR_NAMES = ("White", "Black")

    def __init__(self, n: int, base: int = 8, *, rule: Literal["official", "contest"] = "official",
                 swap: bool = False, seed: Optional[int] = None, threads: int = 1,
                 autoreset: _Autoreset = "next-step",
                 illegal: Literal["lose", "raise"] = "lose") -> None:
        n = integer(n, "n")
        base = integer(base, "base")
        if not 2 <= base <= MAX_BASE:
            raise InputError(f"base must be between 2 and {MAX_BASE}, got {base}")
        if not isinstance(rule, str):
            raise TypeError(f"rule must be a str, not {type(rule).__name__}")
        if rule not in RULES:
            raise InputError(f"rule must be 'official' or 'contest', got {rule!r}")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        width = 2 * base - 1
        game_bytes = width * width * (2 * len(PLANES) + 3) + (2 * base + 1) ** 2 * 7 + 256
        if 0 < n <= MAX_GAMES and n * game_bytes > MAX_BYTES:
            raise InputError(f"{n} games of base {base} would take {n * game_bytes / 2**30:.1f} "
                             f"GiB, more than the {MAX_BYTES // 2**30} GiB a batch may")
        self._base, self._rule, self._swap = base, rule, swap
        def core(n: int, blocks: Dict[str, Any], parts: int) -> Any:
            # Each part of a call its own scratch for the contest rule's
            # search: one a part, so none for threads that never run.
            # The compiled core has no stub: to a type checker it is Any.
            return _batch.BatchCore(  # type: ignore[attr-defined]
                n, base, rule == "official", swap, parts, blocks)

        self._setup(n, seed, threads, autoreset, core, (width, width, len(PLANES)), width * width,
                    extra_fields=("structures",), illegal=illegal)

    @property
    def structures(self) -> _Array:
        """(n,) uint8: bits of :data:`STRUCTURES` the winning move of the
        game that ended on the last step completed, else 0."""
        return self._view_structures

    @property
    def base(self) -> int:
        return self._base

    @property
    def rule(self) -> str:
        return self._rule

    @property
    def swap(self) -> bool:
        return self._swap

    def stones(self) -> _Array:
        """The games' stones, (n, 2S-1, 2S-1) int8 as
        ``havannah.Board.to_array`` lays them out: 0 empty, 1 the first
        colour's (white), 2 the second's (black), -1 off the hexagon."""
        np = self._np
        width = 2 * self._base - 1
        return np.frombuffer(self._core.stones(), np.int8).reshape(self._n, width, width)

    def _game_cells(self, game: int) -> Tuple[_Array, int]:
        np = self._np
        width = 2 * self._base - 1
        cells, mover = self._core.cells(game)
        square = np.frombuffer(cells, np.uint8).astype(np.int8).reshape(width, width)
        x, y = np.indices(square.shape)
        square[np.abs(x - y) > self._base - 1] = -1
        return square, int(mover)

    # ---- start positions ---------------------------------------------------

    def set_positions(self, positions: _Array, mask: Optional[_Array] = None,
                      to_move: Optional[_Array] = None) -> None:
        """Start the games where ``mask`` is True (all by default) now from
        ``positions``: an integer array of shape (k, 2S-1, 2S-1), one square a
        chosen game (0 empty, 1 the first colour's stone, 2 the second's;
        the cells off the hexagon 0).  ``to_move`` (k,) gives the colour
        to move (1 or 2); by default the counts tell (as many of each: the
        first colour).  A position must be reachable: the counts must fit
        the colour to move (one more second-colour stone only after the
        pie rule's swap), and no structure may stand on it (no loop at all,
        under either rule); else :class:`havhex.InputError` naming the
        game, and no game changes.  A single first-colour stone with the
        pie rule on offers the swap."""
        np = self._np
        chosen = self._chosen(mask)
        # A copy: the caller's array may change while the core reads it.
        cells = np.array(positions, copy=True)
        width = 2 * self._base - 1
        if cells.dtype.kind not in "iu":
            raise TypeError(f"positions must be integers, not {cells.dtype}")
        if cells.shape != (len(chosen), width, width):
            raise ValueError(f"positions must have shape ({len(chosen)}, {width}, {width}), "
                             f"got {cells.shape}")
        if ((cells < 0) | (cells > 2)).any():
            raise InputError("a cell must be 0 (empty), 1 or 2 (a colour's stone)")
        cells = np.ascontiguousarray(cells, np.int8)
        if to_move is None:
            movers = [0] * len(chosen)
        else:
            movers = [integer(value, "to_move") for value in np.asarray(to_move).reshape(-1)]
            if len(movers) != len(chosen) or not all(m in (1, 2) for m in movers):
                raise ValueError(f"to_move must hold {len(chosen)} colours, each 1 or 2")
        self._call(self._start, (chosen, cells, movers), None)

    def _start(self, chosen: _Array, cells: _Array, movers: List[int]) -> None:
        """Every position checked first, then every game started: a refused
        position changes no game."""
        for apply in (False, True):
            for index, g in enumerate(chosen):
                why = self._core.set_position(int(g), cells[index], movers[index], apply)
                if why:
                    raise InputError(f"the start position of game {g} is refused: "
                                     f"{_START_REFUSED[why]}")

    def set_positions_from_records(self, games: Iterable[Any], mask: Optional[_Array] = None,
                                   seed: Optional[int] = None) -> None:
        """Start the games where ``mask`` is True from positions of game
        records (``havhex.records`` games of this base): for each, a
        record drawn at random and a random number of its first moves,
        stopped before the move that ends it (``seed`` makes the draws
        repeatable).  The moves are replayed on a live board of this
        batch's rule, so each position is one the record reached."""
        np = self._np
        games = list(games)
        for game in games:
            if getattr(game, "game", None) != "havannah" or game.size != self._base:
                raise InputError(f"records of Havannah games of base {self._base} are needed, "
                                 f"got {getattr(game, 'game', type(game).__name__)} "
                                 f"of size {getattr(game, 'size', '?')}")
        if not games:
            raise InputError("no game record to take positions from")
        chosen = self._chosen(mask)
        rng = np.random.default_rng(seed)
        width = 2 * self._base - 1
        inner = slice(1, width + 1)
        cells = np.zeros((len(chosen), width, width), np.int8)
        movers = np.zeros(len(chosen), np.int8)
        for index in range(len(chosen)):
            record = games[int(rng.integers(len(games)))]
            moves = [move for _, move in record.moves]
            board = self._record_board(record, moves[:int(rng.integers(len(moves) + 1))])
            while True:
                square = np.frombuffer(board._cells_bytes(), np.uint8).reshape(width + 2, width + 2)
                cells[index] = np.where(square[inner, inner] == 3, 0, square[inner, inner])
                movers[index] = 1 if board.to_move == "white" else 2
                if not self._call(self._core.set_position, (int(chosen[index]), cells[index],
                                                            int(movers[index]), False), None):
                    break
                board.undo()        # a loop the contest rule did not count: earlier
        self.set_positions(cells, mask, movers)

    def empty_board(self) -> Board:
        """An empty live board of the batch's base, ring rule and swap
        option (what :class:`havhex.search.BatchSearch` searches the games'
        positions on)."""
        from .board import Board

        return Board(self._base, self._rule, self._swap)

    def _record_board(self, record: Any, moves: Sequence[Any]) -> Board:
        """A live board of the record's first ``moves``, short of any move
        that cannot be played or that ends the game."""
        from .board import Board

        board = Board(self._base, self._rule, self._swap)
        for move in moves:
            if not (move == "swap" or isinstance(move, tuple)):
                break
            try:
                board.play(move)
            except InputError:
                break
            if board.is_over:
                board.undo()
                break
        return board


_START_REFUSED: Dict[int, str] = {
    1: "a cell is not 0, 1 or 2",
    2: "the counts of stones do not fit the colour to move",
    3: "a structure stands on it, or the board is full",
    4: "a stone is off the hexagon",
}


# ---- symmetries ----------------------------------------------------------------

def _checked_symmetry(base: int, k: int) -> Tuple[int, int]:
    base = integer(base, "base")
    k = integer(k, "k")
    if not 2 <= base <= MAX_BASE:
        raise InputError(f"base must be between 2 and {MAX_BASE}, got {base}")
    if not 0 <= k < SYMMETRIES:
        raise ValueError(f"k must be a symmetry from 0 to 11, got {k}")
    return base, k


def symmetry(base: int, k: int) -> _Array:
    """Symmetry ``k`` (0 to 11) of the hexagon of base ``base`` as a
    permutation of the actions: ``symmetry(base, k)[a]`` is the image of
    action ``a`` (the square's cells off the hexagon stay where they are).
    k = 0..5 turns the board by k times 60 degrees about the centre, k =
    6..11 mirrors it across the x = y diagonal first; 0 is the identity."""
    np = numpy()
    base, k = _checked_symmetry(base, k)
    width = 2 * base - 1
    x, y = np.divmod(np.arange(width * width), width)
    a, b = x - (base - 1), y - (base - 1)
    if k >= 6:
        a, b = b, a
    for _ in range(k % 6):
        # 60 degrees: the neighbour directions (1,0), (1,1), (0,1), (-1,0),
        # (-1,-1), (0,-1) each to the next.
        a, b = a - b, a
    image = (a + base - 1) * width + (b + base - 1)
    off = np.abs(x - y) > base - 1
    return np.where(off, np.arange(width * width), image)


def inverse_symmetry(base: int, k: int) -> _Array:
    """The permutation that undoes :func:`symmetry` ``(base, k)``."""
    np = numpy()
    forward = symmetry(base, k)
    inverse = np.empty_like(forward)
    inverse[forward] = np.arange(forward.size)
    return inverse


def augment(observation: _Array, policy: Optional[_Array] = None, k: int = 1,
            inverse: bool = False) -> Tuple[_Array, Optional[_Array]]:
    """Observations ``(..., 2S-1, 2S-1, C)`` and policies ``(..., (2S-1)**2)``
    (or None) under symmetry ``k``: the board's planes are the same on
    every symmetric board, so the stones alone move.  ``inverse=True``
    undoes symmetry ``k`` (a policy a network gave on a turned board, back
    to the game's actions).  New arrays; the inputs are left alone."""
    np = numpy()
    observation = np.asarray(observation)
    if observation.ndim < 3 or observation.shape[-2] != observation.shape[-3]:
        raise ValueError(f"observation must be (..., 2S-1, 2S-1, C), got {observation.shape}")
    width = observation.shape[-2]
    if width % 2 == 0:
        raise ValueError(f"observation must be (..., 2S-1, 2S-1, C), got {observation.shape}")
    base = (width + 1) // 2
    # out[image of a] = in[a]: out = in[inverse]; undoing, the other way.
    take = symmetry(base, k) if inverse else inverse_symmetry(base, k)
    flat = observation.reshape(observation.shape[:-3] + (width * width, observation.shape[-1]))
    turned = flat[..., take, :].reshape(observation.shape)
    if policy is None:
        return turned, None
    policy = np.asarray(policy)
    if policy.ndim < 1 or policy.shape[-1] != width * width:
        raise ValueError(f"policy must be (..., {width * width}), got {policy.shape}")
    return turned, policy[..., take]
