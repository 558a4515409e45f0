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
import os

from .._checks import count, integer, thread_count
from ..errors import InputError
from . import _batch

__all__ = ["Batch", "PLANES", "STRUCTURES", "AUTORESET_MODES", "symmetry", "augment",
           "inverse_symmetry"]

PLANES = ("own", "opponent", "empty", "on_board", "edge", "corner", "swap", "last")
STRUCTURES = ("bridge", "fork", "ring")
AUTORESET_MODES = ("next-step", "same-step", "disabled")
RULES = ("official", "contest")
# The largest batch and base: the arrays stay below a few GiB.
MAX_GAMES = 1 << 22
MAX_BASE = 64
MAX_BYTES = 16 << 30

_REFUSED = {1: "an action out of range", 2: "an illegal action", 3: "a step after the end"}


def _numpy():
    try:
        import numpy
    except ImportError:
        raise ImportError("havhex.havannah.Batch needs NumPy: pip install numpy") from None
    return numpy


def _read_only(array):
    view = array.view()
    view.flags.writeable = False
    return view


class Batch:
    """``n`` Havannah games of base ``base`` stepped together.

    The fields are NumPy arrays made once and updated in place by
    :meth:`step` and :meth:`reset` (copy one to keep it): ``observation``,
    ``legal_action_mask`` (all True once a game is over, as pgx has it),
    ``current_player`` (the seat, 0 or 1, to move: seats are drawn at
    random per game at each reset, the colours go by move order),
    ``rewards`` (n, 2) by seat, ``terminated``, ``truncated`` (never set:
    a full board is a draw, and terminated), ``winner`` (the winning seat,
    -1 for none), ``structures`` (bits of :data:`STRUCTURES` the winning
    move completed) and, under ``autoreset="same-step"``,
    ``final_observation`` and ``final_mask``.
    """

    def __init__(self, n, base=8, *, rule="official", swap=False, seed=None, threads=1,
                 autoreset="next-step"):
        np = _numpy()
        n = count(n, "n")
        if not 1 <= n <= MAX_GAMES:
            raise ValueError(f"n must be between 1 and {MAX_GAMES}, got {n}")
        base = integer(base, "base")
        if not 2 <= base <= MAX_BASE:
            raise InputError(f"base must be between 2 and {MAX_BASE}, got {base}")
        if rule not in RULES:
            raise InputError(f"rule must be 'official' or 'contest', got {rule!r}")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be a bool, not {type(swap).__name__}")
        if autoreset not in AUTORESET_MODES:
            raise ValueError(f"autoreset must be one of {AUTORESET_MODES}, got {autoreset!r}")
        threads = min(thread_count(threads), n)
        width = 2 * base - 1
        # The arrays and the games' memory, made at once: refused up front
        # rather than left to the system's overcommit.
        game_bytes = width * width * (2 * len(PLANES) + 3) + (2 * base + 1) ** 2 * 7 + 256
        if n * game_bytes > MAX_BYTES:
            raise ValueError(f"{n} games of base {base} would take {n * game_bytes / 2**30:.1f} "
                             f"GiB, more than the {MAX_BYTES // 2**30} GiB a batch may")
        shape = (n, width, width, len(PLANES))
        self._observation = np.zeros(shape, np.bool_)
        self._final_observation = np.zeros(shape, np.bool_)
        self._mask = np.zeros((n, width * width), np.bool_)
        self._current_player = np.zeros(n, np.int32)
        self._rewards = np.zeros((n, 2), np.float32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._winner = np.full(n, -1, np.int8)
        self._structures = np.zeros(n, np.uint8)
        self._final_mask = np.zeros(n, np.bool_)
        self._core = _batch.BatchCore(
            n, base, rule == "official", swap, threads, AUTORESET_MODES.index(autoreset),
            self._observation.view(np.uint8), self._mask.view(np.uint8), self._current_player,
            self._rewards, self._terminated.view(np.uint8), self._truncated.view(np.uint8),
            self._winner, self._structures, self._final_observation.view(np.uint8),
            self._final_mask.view(np.uint8))
        self._np = np
        self._base = base
        self._rule = rule
        self._swap = swap
        self._autoreset = autoreset
        self._threads = threads
        self._seeded = False
        self.observation = _read_only(self._observation)
        self.legal_action_mask = _read_only(self._mask)
        self.current_player = _read_only(self._current_player)
        self.rewards = _read_only(self._rewards)
        self.terminated = _read_only(self._terminated)
        self.truncated = _read_only(self._truncated)
        self.winner = _read_only(self._winner)
        self.structures = _read_only(self._structures)
        self.final_observation = _read_only(self._final_observation)
        self.final_mask = _read_only(self._final_mask)
        self.reset(seed=seed)

    # ---- properties --------------------------------------------------------

    @property
    def num_envs(self):
        return self._core.n

    @property
    def num_actions(self):
        return self._core.n_actions

    @property
    def observation_shape(self):
        return self._observation.shape[1:]

    @property
    def threads(self):
        return self._threads

    @property
    def autoreset(self):
        return self._autoreset

    @property
    def base(self):
        return self._base

    @property
    def rule(self):
        return self._rule

    @property
    def swap(self):
        return self._swap

    # ---- stepping ----------------------------------------------------------

    def reset(self, mask=None, seed=None):
        """Empty boards for every game, or for those where the bool ``mask``
        (shape (n,)) is True; ``seed`` reseeds every game's stream first
        (game g draws from stream g of the seed)."""
        np = self._np
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                raise ValueError(f"mask must be a bool array of shape ({self.num_envs},), "
                                 f"got {mask.dtype} {mask.shape}")
            mask = np.ascontiguousarray(mask).view(np.uint8)
        if seed is not None or not self._seeded:
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            self._core.seed(integer(seed, "seed"))
            self._seeded = True
        self._core.reset(mask)

    def step(self, actions):
        """Play one action a game (an integer array of shape (n,)); a bad
        action anywhere raises ValueError and changes no game."""
        np = self._np
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        if not actions.flags.c_contiguous:
            actions = np.ascontiguousarray(actions)
        why, game = self._core.check_actions(actions)
        if why:
            raise ValueError(f"{_REFUSED[why]} in game {game}: {actions[game]}")
        if self._core.step_checked():
            from .._threads import run_workers

            run_workers(self._core.step_part, self._threads)

    def sample_actions(self, out=None):
        """A uniformly random legal action per game (int32, shape (n,)), each
        game's drawn from its own stream."""
        np = self._np
        if out is None:
            out = np.empty(self.num_envs, np.int32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int32
                  and out.shape == (self.num_envs,) and out.flags.c_contiguous):
            raise ValueError(f"out must be a contiguous int32 array of shape ({self.num_envs},)")
        self._core.sample(out)
        return out

    # ---- start positions ---------------------------------------------------

    def set_positions(self, cells, mask=None, to_move=None):
        """Start the games where ``mask`` is True (all by default) from
        ``cells``: an integer array of shape (k, 2S-1, 2S-1), one square a
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
        cells = np.asarray(cells)
        width = 2 * self._base - 1
        if cells.dtype.kind not in "iu":
            raise TypeError(f"cells must be integers, not {cells.dtype}")
        if cells.shape != (len(chosen), width, width):
            raise ValueError(f"cells must have shape ({len(chosen)}, {width}, {width}), "
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
        for apply in (False, True):
            for index, g in enumerate(chosen):
                why = self._core.set_position(int(g), cells[index], movers[index], apply)
                if why:
                    raise InputError(f"the start position of game {g} is refused: "
                                     f"{_START_REFUSED[why]}")

    def set_positions_from_records(self, games, mask=None, seed=None):
        """Start the games where ``mask`` is True from positions of game
        records (``havhex.records`` games of this base): for each, a
        record drawn at random and a random number of its first moves,
        stopped before the move that ends it (``seed`` makes the draws
        repeatable).  The moves are replayed on a live board of this
        batch's rule, so each position is one the record reached."""
        np = self._np
        games = list(games)
        for game in games:
            if getattr(game, "kind", None) != "havannah" or game.size != self._base:
                raise InputError(f"records of Havannah games of base {self._base} are needed, "
                                 f"got {getattr(game, 'kind', type(game).__name__)} "
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
                if not self._core.set_position(int(chosen[index]), cells[index],
                                               int(movers[index]), False):
                    break
                board.undo()        # a loop the contest rule did not count: earlier
        self.set_positions(cells, mask, movers)

    def _record_board(self, record, moves):
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

    def _chosen(self, mask):
        np = self._np
        if mask is None:
            return np.arange(self.num_envs)
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"mask must be a bool array of shape ({self.num_envs},), "
                             f"got {mask.dtype} {mask.shape}")
        return np.nonzero(mask)[0]


_START_REFUSED = {
    1: "a cell is not 0, 1 or 2",
    2: "the counts of stones do not fit the colour to move",
    3: "a structure stands on it, or the board is full",
    4: "a stone is off the hexagon",
}


# ---- symmetries ----------------------------------------------------------------

def _checked_symmetry(base, k):
    base = integer(base, "base")
    k = integer(k, "k")
    if not 2 <= base <= MAX_BASE:
        raise InputError(f"base must be between 2 and {MAX_BASE}, got {base}")
    if not 0 <= k < 12:
        raise ValueError(f"k must be a symmetry from 0 to 11, got {k}")
    return base, k


def symmetry(base, k):
    """Symmetry ``k`` (0 to 11) of the hexagon of base ``base`` as a
    permutation of the actions: ``symmetry(base, k)[a]`` is the image of
    action ``a`` (the square's cells off the hexagon stay where they are).
    k = 0..5 turns the board by k times 60 degrees about the centre, k =
    6..11 mirrors it across the x = y diagonal first; 0 is the identity."""
    np = _numpy()
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


def inverse_symmetry(base, k):
    """The permutation that undoes :func:`symmetry` ``(base, k)``."""
    np = _numpy()
    forward = symmetry(base, k)
    inverse = np.empty_like(forward)
    inverse[forward] = np.arange(forward.size)
    return inverse


def augment(observation, policy, k, inverse=False):
    """Observations ``(..., 2S-1, 2S-1, C)`` and policies ``(..., (2S-1)**2)``
    (or None) under symmetry ``k``: the board's planes are the same on
    every symmetric board, so the stones alone move.  ``inverse=True``
    undoes symmetry ``k`` (a policy a network gave on a turned board, back
    to the game's actions).  New arrays; the inputs are left alone."""
    np = _numpy()
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
    if policy.shape[-1] != width * width:
        raise ValueError(f"policy must be (..., {width * width}), got {policy.shape}")
    return turned, policy[..., take]
