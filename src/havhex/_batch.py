"""The Python part both games' batches share: argument checks, the fields,
the auto-reset modes and the threads; each game plugs in its compiled core.

A batch holds ``n`` games stepped together.  Its fields are NumPy arrays
made once and updated in place by :meth:`Batch.step` and
:meth:`Batch.reset` (copy one to keep it).  Each lies on memory the core
owns (a :class:`havhex._batch_core.Block`) whose buffer is read-only, so
that no array made on it can be written or made writable: a caller cannot
put a game in a state its rules never reach.  The cores keep what they
read back (whose turn it is, what is legal, which games have ended) in
memory of their own, and copy a call's actions before checking them, so
that nothing Python holds steers a write.

The core a game plugs in (a compiled class) is made by
``core_factory(n, blocks, parts)`` with the fields' blocks by name and the
number of parts a call is split into, and answers:

``num_actions``, ``observation_shape``
    the layout;
``illegal_raises``
    a writable flag: an illegal action raises in ``check_step`` instead of
    losing the game;
``reseed(seed)``
    restarts every game's random stream from ``seed`` (streams per game,
    so the games do not depend on how the batch is split over threads);
``check_step(actions, mode)``
    checks every action (any integer array of shape (n,), or the batch's
    own int32 buffer) before any game changes, keeps a copy of them for
    the parts, and raises ValueError naming the first bad game;
``step_part(lo, hi)``, ``reset_part(lo, hi)``, ``sample_part(lo, hi)``
    the games ``lo`` to ``hi - 1``, the GIL released (threads run parts of
    one call side by side); ``reset_part`` resets the games the mask given
    to ``check_reset(mask)`` names, ``sample_part`` writes the actions
    ``check_sample(out)`` was given.

Every call that reads or changes the games goes through the batch's
:class:`havhex._batch_core.Runner`, which lets one call in at a time (a
call from another thread meanwhile raises RuntimeError) and runs the parts
on the batch's threads; an interrupt (Ctrl-C) during a call is raised once
every part has finished, so the batch stays whole and usable.

NumPy is imported when the first batch is made: havhex itself does not
depend on it.
"""
from ._batch_core import Block, Runner
from ._checks import integer, thread_count
from .errors import InputError

# The annotations are for type checkers only, in quotes: a batch imports
# nothing more than before.  NumPy's arrays and the compiled cores are Any:
# NumPy is not a dependency of havhex.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, NoReturn, Optional, Tuple

AUTORESET_MODES: "Tuple[str, str, str]" = ("next-step", "same-step", "disabled")

# What an action that is in range but illegal in its game does: pgx's and
# EnvPool's rule, the game lost by the player who made it (the default), or
# a ValueError before any game changes.
ILLEGAL_RULES: "Tuple[str, str]" = ("lose", "raise")

# The games a batch may hold: its arrays are indexed by int64 in the cores,
# but a batch this large would need terabytes anyway; the bound only keeps a
# mistyped n from asking for them.
MAX_GAMES = 1 << 24

# The fewest games a part of a call holds: below a few hundred, handing a
# part to another thread costs more than it saves.
PART_GAMES = 256

# Codes of the modes as the cores take them (the order of AUTORESET_MODES).
NEXT_STEP, SAME_STEP, DISABLED = 0, 1, 2

# What Batch.render draws: text, and an RGB image (Gymnasium's names).
RENDER_MODES: "Tuple[str, str]" = ("ansi", "rgb_array")

# The pixels from one cell's centre to the next in a rendered image, and the
# colours of the background and of an empty cell.
CELL_PIXELS = 16
BACKGROUND = (235, 215, 170)
EMPTY_CELL = (205, 175, 120)


def numpy() -> "Any":
    """NumPy, or an ImportError that says how to get it."""
    try:
        import numpy
    except ImportError:
        raise ImportError("havhex's batches need NumPy: pip install numpy") from None
    return numpy


def check_games(n: object) -> int:
    """The number of games as an ``int`` from 1 to :data:`MAX_GAMES`."""
    n = integer(n, "n")
    if n < 1:
        raise InputError(f"n (the number of games) must be >= 1, got {n}")
    if n > MAX_GAMES:
        raise InputError(f"n (the number of games) must be at most {MAX_GAMES}, got {n}")
    return n


def check_seed(seed: "Optional[int]") -> int:
    """A seed as a 64-bit unsigned ``int``: ``None`` draws one from the
    system's entropy, an integer is taken modulo 2**64."""
    if seed is None:
        import os

        return int.from_bytes(os.urandom(8), "little")
    return integer(seed, "seed") & 0xFFFFFFFFFFFFFFFF


def check_autoreset(autoreset: str) -> int:
    if autoreset not in AUTORESET_MODES:
        raise InputError(f"autoreset must be one of {', '.join(map(repr, AUTORESET_MODES))}, "
                         f"got {autoreset!r}")
    return AUTORESET_MODES.index(autoreset)


def batch_threads(threads: object) -> int:
    """The threads a batch uses for ``threads=``: as many as asked (0:
    every core), but no more than the machine's cores (``os.cpu_count()``):
    the kernels keep a core busy each, so more threads only take turns."""
    import os

    return max(1, min(thread_count(threads), os.cpu_count() or 1))


def parts_of(n: int, threads: int) -> "Tuple[Tuple[int, int], ...]":
    """The parts a call over ``n`` games is split into: one a thread, none
    below :data:`PART_GAMES` games."""
    parts = max(1, min(threads, n // PART_GAMES))
    bounds = [n * k // parts for k in range(parts + 1)]
    return tuple(zip(bounds, bounds[1:]))


class Batch:
    """``n`` games stepped together by a compiled core (see the module's
    text); the game's class (``havhex.hex.Batch``, ``havhex.havannah.Batch``)
    checks its own arguments and passes its core's factory.

    A batch's calls run one at a time: a call from another thread while one
    runs raises RuntimeError (give each thread its own batch, or hold a lock
    around the calls).  A batch can be neither copied nor pickled (its games
    live in compiled memory its threads share): make another and start its
    games with ``set_positions``."""

    # Arrays every batch has (see _setup).
    _FIELDS = ("observation", "legal_action_mask", "current_player", "rewards",
               "terminated", "truncated", "final_observation", "final_mask", "winner")
    # Set by _setup, the views by name (setattr).
    _np: "Any"
    _core: "Any"
    _runner: "Runner"
    _call: "Callable[..., Any]"
    _check_step: "Callable[..., Any]"
    _step_part: "Callable[[int, int], Any]"
    _check_reset: "Callable[..., Any]"
    _reset_part: "Callable[[int, int], Any]"
    _all_games: "Any"
    _view_observation: "Any"
    _view_legal_action_mask: "Any"
    _view_current_player: "Any"
    _view_rewards: "Any"
    _view_terminated: "Any"
    _view_truncated: "Any"
    _view_final_observation: "Any"
    _view_final_mask: "Any"
    _view_winner: "Any"

    def _setup(self, n: int, seed: "Optional[int]", threads: int, autoreset: str,
               core_factory: "Callable[[int, Dict[str, Block], int], Any]",
               observation_shape: "Tuple[int, int, int]", num_actions: int,
               extra_fields: "Tuple[str, ...]" = (), illegal: str = "lose") -> None:
        np = numpy()
        self._np = np
        n = check_games(n)
        self._mode = check_autoreset(autoreset)
        self._autoreset = autoreset
        if not isinstance(illegal, str) or illegal not in ILLEGAL_RULES:
            raise ValueError(f"illegal must be one of {ILLEGAL_RULES}, got {illegal!r}")
        self._illegal = illegal
        threads = batch_threads(threads)
        self._threads = threads
        seed = check_seed(seed)
        self._n = n
        self._parts = parts = parts_of(n, threads)
        # Each field: its shape and type (the extras are a byte a game).
        layout: "Dict[str, Tuple[Tuple[int, ...], Any]]" = {
            "observation": ((n,) + observation_shape, np.bool_),
            "legal_action_mask": ((n, num_actions), np.bool_),
            "current_player": ((n,), np.int32),
            "rewards": ((n, 2), np.float32),
            "terminated": ((n,), np.bool_),
            "truncated": ((n,), np.bool_),
            "final_observation": ((n,) + observation_shape, np.bool_),
            "final_mask": ((n,), np.bool_),
            "winner": ((n,), np.int8),
        }
        for name in extra_fields:
            layout[name] = ((n,), np.uint8)
        blocks: "Dict[str, Block]" = {}
        for name, (shape, dtype) in layout.items():
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            blocks[name] = Block(size)
            setattr(self, "_view_" + name,
                    np.frombuffer(blocks[name], dtype).reshape(shape))
        self._core = core = core_factory(n, blocks, len(parts))
        core.illegal_raises = illegal == "raise"
        self._runner = runner = Runner(parts)
        if runner.workers:
            import weakref

            # Before the threads start: a start cut short still stops
            # those that did when the batch goes.
            weakref.finalize(self, runner.stop)
            runner.start()
        # The core's entry points, looked up once (a step is a few
        # microseconds at small batches).
        self._call = runner.call
        self._check_step = core.check_step
        self._step_part = core.step_part
        self._check_reset = core.check_reset
        self._reset_part = core.reset_part
        self._all_games = np.ones(n, np.uint8)
        self._all_games.flags.writeable = False
        self._call(core.reseed, (seed,), None)
        self._reset_all()

    # -- the fields -------------------------------------------------------

    @property
    def observation(self) -> "Any":
        """(n, H, W, C) bool: each game from the view of the player to move."""
        return self._view_observation

    @property
    def legal_action_mask(self) -> "Any":
        """(n, num_actions) bool; all True in a game that has ended (as pgx)."""
        return self._view_legal_action_mask

    @property
    def current_player(self) -> "Any":
        """(n,) int32: the seat (0 or 1) to move in each game."""
        return self._view_current_player

    @property
    def rewards(self) -> "Any":
        """(n, 2) float32 by seat: +1 for the winner and -1 for the loser on
        the step that ended the game, 0 otherwise."""
        return self._view_rewards

    @property
    def terminated(self) -> "Any":
        """(n,) bool: the game ended on the last step."""
        return self._view_terminated

    @property
    def truncated(self) -> "Any":
        """(n,) bool: always False (no game is cut short)."""
        return self._view_truncated

    @property
    def final_observation(self) -> "Any":
        """(n, H, W, C) bool: under ``autoreset="same-step"``, the last
        observation of each game that ended (and was reset) on the last
        step, where :attr:`final_mask` is True."""
        return self._view_final_observation

    @property
    def final_mask(self) -> "Any":
        """(n,) bool: the games whose :attr:`final_observation` is set."""
        return self._view_final_mask

    @property
    def winner(self) -> "Any":
        """(n,) int8: the seat that won the game that ended on the last step
        (or the game still shown ended, under ``"disabled"``), else -1."""
        return self._view_winner

    # -- the layout -------------------------------------------------------

    @property
    def num_envs(self) -> int:
        return self._n

    def __len__(self) -> int:
        return self._n

    @property
    def num_actions(self) -> int:
        actions: int = self._core.num_actions
        return actions

    @property
    def observation_shape(self) -> "Tuple[int, int, int]":
        shape: "Tuple[int, int, int]" = self._core.observation_shape
        return shape

    @property
    def threads(self) -> int:
        """The threads the batch's calls use: ``threads=`` as given (0:
        every core), at most ``os.cpu_count()``."""
        return self._threads

    @property
    def illegal(self) -> str:
        """What an illegal action does: ``"lose"`` (its player loses the
        game, pgx's rule) or ``"raise"`` (ValueError, no game changed)."""
        return self._illegal

    @property
    def autoreset(self) -> str:
        return self._autoreset

    # -- the calls --------------------------------------------------------

    def step(self, actions: "Any") -> None:
        """Play one action in every game (``actions``: integers, shape (n,)).

        An action out of range, or any action under ``autoreset="disabled"``
        for a game that has ended, raises ValueError (naming the game)
        before any game changes.  An illegal action in range loses the game
        for the player who made it, as pgx rules.  Under ``"next-step"`` a
        game that ended on the previous step is reset instead, its action
        ignored; under ``"same-step"`` a game that ends is reset at once,
        its last observation kept in :attr:`final_observation`."""
        self._call(self._check_step, (self._action_array(actions), self._mode), self._step_part)

    def reset(self, mask: "Any" = None, seed: "Optional[int]" = None) -> None:
        """Start every game again, or those where the bool array ``mask``
        (shape (n,)) is True; ``seed`` restarts every game's random stream
        first (all games, so that the same seed gives the same games)."""
        if mask is None:
            if seed is not None:
                self._call(self._core.reseed, (check_seed(seed),), None)
            self._reset_all()
            return
        np = self._np
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise TypeError(f"mask must be a bool array, not {mask.dtype}")
        if mask.shape != (self._n,):
            raise ValueError(f"mask must have shape ({self._n},), got {mask.shape}")
        if seed is not None:
            self._call(self._core.reseed, (check_seed(seed),), None)
        # The call's own copy: the caller's array may change meanwhile.
        self._call(self._check_reset, (mask.astype(np.uint8),), self._reset_part)

    def _chosen(self, mask: "Any") -> "Any":
        """The indices of the games ``mask`` (bool, shape (n,)) chooses; all
        when None."""
        np = self._np
        if mask is None:
            return np.arange(self._n)
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self._n,):
            raise ValueError(f"mask must be a bool array of shape ({self._n},), "
                             f"got {mask.dtype} {mask.shape}")
        return np.flatnonzero(mask)

    def _reset_all(self) -> None:
        self._call(self._check_reset, (self._all_games,), self._reset_part)

    def sample_actions(self, out: "Any" = None) -> "Any":
        """A uniformly random legal action for every game (any action, for a
        game that has ended), drawn from the games' own random streams; in
        ``out`` (int32, shape (n,)) when given, else in a new array."""
        np = self._np
        if out is None:
            out = np.empty(self._n, np.int32)
        elif not isinstance(out, np.ndarray) or out.dtype != np.int32 or out.shape != (self._n,):
            raise ValueError(f"out must be an int32 array of shape ({self._n},)")
        elif not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be a writable, contiguous array")
        self._call(self._core.check_sample, (out,), self._core.sample_part)
        return out

    def _action_array(self, actions: "Any") -> "Any":
        """The actions as an int32 or int64 array of shape (n,) the core can
        read, checked for shape and dtype (the core copies them and checks
        the range)."""
        np = self._np
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {actions.dtype}")
        if actions.shape != (self._n,):
            raise ValueError(f"actions must have shape ({self._n},) (one a game), "
                             f"got {actions.shape}")
        if actions.dtype in (np.int32, np.int64) and actions.flags.c_contiguous:
            return actions
        if actions.dtype == np.uint64 and actions.size and actions.max() > (1 << 62):
            bad = int(np.argmax(actions))
            raise ValueError(f"game {bad}: action {int(actions[bad])} is out of range "
                             f"[0, {self.num_actions})")
        # Every other integer dtype fits in int64.
        return actions.astype(np.int64)

    # -- pictures ---------------------------------------------------------

    # Set by each game: how rows of its array lie (each row this many cells
    # right of the one above), the letters and colours of its stones (codes
    # 1 and 2), and the colours' names.
    _ROW_SHIFT: float
    _LETTERS: "Tuple[str, str]"
    _STONE_RGB: "Tuple[Tuple[int, int, int], Tuple[int, int, int]]"
    _COLOUR_NAMES: "Tuple[str, str]"

    def _game_cells(self, game: int) -> "Tuple[Any, int]":
        """Game ``game``'s cells, (H, W) int8: 0 empty, 1 and 2 the
        colours' stones, -1 off the board; and the colour to move (1, 2)."""
        raise NotImplementedError

    def render(self, game: int = 0, mode: str = "ansi") -> "Any":
        """A picture of game ``game`` (0 by default) as it stands:
        ``"ansi"``, text, a letter a stone and ``.`` an empty cell, each row
        shifted half a cell as the board lies (docs/environments.md), then a
        line that says whose turn it is or who won; ``"rgb_array"``, an
        (H, W, 3) uint8 image of the board, a disc a cell.  The adapters'
        ``render`` draws with it."""
        game = integer(game, "game")
        if not 0 <= game < self._n:
            raise InputError(f"game must be from 0 to {self._n - 1}, got {game}")
        if mode not in RENDER_MODES:
            raise InputError(f"mode must be one of {', '.join(map(repr, RENDER_MODES))}, "
                             f"got {mode!r}")
        cells, mover = self._game_cells(game)
        if mode == "rgb_array":
            return self._image(cells)
        glyphs = {-1: " ", 0: ".", 1: self._LETTERS[0], 2: self._LETTERS[1]}
        height = len(cells)
        lines = []
        for row, values in enumerate(cells):
            indent = row if self._ROW_SHIFT > 0 else height - 1 - row
            lines.append((" " * indent + " ".join(glyphs[int(v)] for v in values)).rstrip())
        seat = int(self._view_current_player[game])
        if self._view_terminated[game]:
            winner = int(self._view_winner[game])
            lines.append(f"won by seat {winner}" if winner >= 0 else "a draw")
        else:
            lines.append(f"{self._COLOUR_NAMES[mover - 1]} (seat {seat}) to move")
        return "\n".join(lines) + "\n"

    def _image(self, cells: "Any") -> "Any":
        """An RGB image of ``cells``: a disc a cell of the board, at its
        centre as the rows lie."""
        np = self._np
        height, width = cells.shape
        step = CELL_PIXELS
        # The centres, in cells: column plus the row's shift, and rows
        # sqrt(3)/2 apart (neighbouring centres one cell apart).
        rows, cols = np.indices(cells.shape)
        x = cols + self._ROW_SHIFT * rows
        x = x - x[cells >= 0].min() if (cells >= 0).any() else x
        y = rows * 3 ** 0.5 / 2
        size_x = int(np.ceil((x[cells >= 0].max() if (cells >= 0).any() else 0) + 1)) * step
        size_y = int(np.ceil(y.max() + 1)) * step
        image = np.empty((size_y, size_x, 3), np.uint8)
        image[:] = BACKGROUND
        offsets = np.arange(step) - (step - 1) / 2
        disc = (offsets[:, None] ** 2 + offsets[None, :] ** 2) <= (0.45 * step) ** 2
        fills = {0: EMPTY_CELL, 1: self._STONE_RGB[0], 2: self._STONE_RGB[1]}
        for r in range(height):
            for c in range(width):
                value = int(cells[r, c])
                if value < 0:
                    continue
                top = int(round(y[r, c] * step))
                left = int(round(x[r, c] * step))
                image[top:top + step, left:left + step][disc] = fills[value]
        return image

    # -- no copies --------------------------------------------------------

    def _not_copied(self) -> "NoReturn":
        raise TypeError(f"a {type(self).__module__}.{type(self).__qualname__} can be neither "
                        f"copied nor pickled: its games live in compiled memory its threads "
                        f"share; make another batch and start its games with set_positions")

    def __copy__(self) -> "NoReturn":
        self._not_copied()

    def __deepcopy__(self, memo: "Any") -> "NoReturn":
        self._not_copied()

    def __reduce_ex__(self, protocol: "Any") -> "NoReturn":
        self._not_copied()

    def __repr__(self) -> str:
        return (f"<{type(self).__module__}.{type(self).__qualname__} of {self._n} games, "
                f"threads={self._threads}, autoreset={self._autoreset!r}>")
