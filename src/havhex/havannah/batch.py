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
7. ``second``: every cell of the hexagon when the mover plays the second
   colour (black, who did not open), else none.

Planes 3 to 5 let a network that is the same at every size find the
board's shape, its edges and corners (a fork's and a bridge's goals); 6
and 7 tell it the two facts of the position that the stones do not show.
"""
import os

from .._checks import count, integer, thread_count
from ..errors import InputError
from . import _batch

__all__ = ["Batch", "PLANES", "STRUCTURES", "AUTORESET_MODES", "symmetry", "augment",
           "inverse_symmetry"]

PLANES = ("own", "opponent", "empty", "on_board", "edge", "corner", "swap", "second")
STRUCTURES = ("bridge", "fork", "ring")
AUTORESET_MODES = ("next-step", "same-step", "disabled")
RULES = ("official", "contest")
# The largest batch and base: the arrays stay below a few GiB.
MAX_GAMES = 1 << 22
MAX_BASE = 64

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
        if seed is not None or not hasattr(self, "_seeded"):
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            self._core.seed(integer(seed, "seed"))
            self._seeded = True
        if mask is None:
            self._core.reset(None)
            return
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"mask must be a bool array of shape ({self.num_envs},), "
                             f"got {mask.dtype} {mask.shape}")
        self._core.reset(np.ascontiguousarray(mask).view(np.uint8))

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
