"""The Python part both games' batches share: argument checks, the fields,
the auto-reset modes and the threads; each game plugs in its compiled core.

A batch holds ``n`` games stepped together.  Its fields are NumPy arrays
made once and updated in place by :meth:`Batch.step` and
:meth:`Batch.reset` (copy one to keep it); each is handed out as a
read-only view, so that a caller cannot put a game in a state its rules
never reach.

The core a game plugs in (a compiled class) is made by
``core_factory(n, arrays)`` with the fields' writable arrays and answers:

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
    own int32 buffer) before any game changes, keeps them for the parts,
    and raises ValueError naming the first bad game;
``step_part(lo, hi)``, ``reset_part(lo, hi)``, ``sample_part(lo, hi)``
    the games ``lo`` to ``hi - 1``, the GIL released (threads run parts of
    one call side by side); ``reset_part`` resets the games the mask given
    to ``check_reset(mask)`` names, ``sample_part`` writes the actions
    ``check_sample(out)`` was given.

NumPy is imported when the first batch is made: havhex itself does not
depend on it.
"""
from ._checks import integer, thread_count
from .errors import InputError

# The annotations are for type checkers only, in quotes: a batch imports
# nothing more than before.  NumPy's arrays and the compiled cores are Any:
# NumPy is not a dependency of havhex.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import _thread
    from typing import Any, Callable, Dict, List, Optional, Tuple

    # A part of a call: the games lo to hi - 1.
    _Part = Callable[[int, int], object]

AUTORESET_MODES: "Tuple[str, str, str]" = ("next-step", "same-step", "disabled")

# What an action that is in range but illegal in its game does: pgx's and
# EnvPool's rule, the game lost by the player who made it (the default), or
# a ValueError before any game changes.
ILLEGAL_RULES: "Tuple[str, str]" = ("lose", "raise")

# The games a batch may hold: its arrays are indexed by int64 in the cores,
# but a batch this large would need terabytes anyway; the bound only keeps a
# mistyped n from asking for them.
MAX_GAMES = 1 << 24

# Codes of the modes as the cores take them (the order of AUTORESET_MODES).
NEXT_STEP, SAME_STEP, DISABLED = 0, 1, 2


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


def _read_only(array: "Any") -> "Any":
    view = array.view()
    view.flags.writeable = False
    return view


class Batch:
    """``n`` games stepped together by a compiled core (see the module's
    text); the game's class (``havhex.hex.Batch``, ``havhex.havannah.Batch``)
    checks its own arguments and passes its core's factory.  A batch's calls
    run one at a time: two threads must not call the same batch at once."""

    # Arrays every batch has, and their read-only views (see _fields).
    _FIELDS = ("observation", "legal_action_mask", "current_player", "rewards",
               "terminated", "truncated", "final_observation", "final_mask", "winner")
    # Set by _setup, the views by name (setattr).
    _np: "Any"
    _core: "Any"
    _crew: "Optional[_Crew]"
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
               core_factory: "Callable[[int, Dict[str, Any]], Any]",
               extra_fields: "Tuple[str, ...]" = (), illegal: str = "lose") -> None:
        np = numpy()
        self._np = np
        n = check_games(n)
        self._mode = check_autoreset(autoreset)
        self._autoreset = autoreset
        if not isinstance(illegal, str) or illegal not in ILLEGAL_RULES:
            raise ValueError(f"illegal must be one of {ILLEGAL_RULES}, got {illegal!r}")
        self._illegal = illegal
        threads = thread_count(threads)
        self._threads = threads
        seed = check_seed(seed)
        arrays: "Dict[str, Any]" = {}
        self._n = n
        self._core = core_factory(n, arrays)
        self._core.illegal_raises = illegal == "raise"
        # The parts a call is split into: one per thread, but none below a
        # few hundred games, where handing a part to another thread costs more
        # than it saves.
        parts = max(1, min(threads, n // 256))
        bounds = [n * k // parts for k in range(parts + 1)]
        self._parts = tuple(zip(bounds, bounds[1:]))
        self._crew = None
        self._arrays = arrays
        for name in self._FIELDS + tuple(extra_fields):
            setattr(self, "_view_" + name, _read_only(arrays[name]))
        self._actions = np.zeros(n, np.int64)
        self._mask = np.zeros(n, np.uint8)
        self._core.reseed(seed)
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
        self._core.check_step(self._action_array(actions), self._mode)
        self._run(self._core.step_part)

    def reset(self, mask: "Any" = None, seed: "Optional[int]" = None) -> None:
        """Start every game again, or those where the bool array ``mask``
        (shape (n,)) is True; ``seed`` restarts every game's random stream
        first (all games, so that the same seed gives the same games)."""
        if mask is None:
            if seed is not None:
                self._core.reseed(check_seed(seed))
            self._reset_all()
            return
        np = self._np
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise TypeError(f"mask must be a bool array, not {mask.dtype}")
        if mask.shape != (self._n,):
            raise ValueError(f"mask must have shape ({self._n},), got {mask.shape}")
        if seed is not None:
            self._core.reseed(check_seed(seed))
        np.copyto(self._mask, mask, casting="unsafe")
        self._core.check_reset(self._mask)
        self._run(self._core.reset_part)

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
        self._mask.fill(1)
        self._core.check_reset(self._mask)
        self._run(self._core.reset_part)

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
        self._core.check_sample(out)
        self._run(self._core.sample_part)
        return out

    def _action_array(self, actions: "Any") -> "Any":
        """The actions as an int32 or int64 array of shape (n,) the core can
        read, checked for shape and dtype (the core checks the range)."""
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
        np.copyto(self._actions, actions, casting="unsafe")
        return self._actions

    def _run(self, part: "_Part") -> None:
        """``part(lo, hi)`` over the whole batch: here when there is one
        part, else on this thread and the batch's crew, each on its own
        range of games."""
        parts = self._parts
        if len(parts) == 1:
            part(0, self._n)
            return
        crew = self._crew
        if crew is None:
            import weakref

            crew = self._crew = _Crew(len(parts) - 1)
            weakref.finalize(self, crew.stop)
        crew.run(part, parts)

    def __repr__(self) -> str:
        return (f"<{type(self).__module__}.{type(self).__qualname__} of {self._n} games, "
                f"threads={self._threads}, autoreset={self._autoreset!r}>")


class _Crew:
    """Threads kept for a batch's calls: starting a thread for each step
    would cost a good part of the step.  Each worker waits on its own lock
    for a part, runs it (the GIL released in the kernel) and says so on
    another lock; the calling thread runs the first part meanwhile.  The
    workers hold this object, not the batch: when the batch goes, its
    finaliser stops them."""

    def __init__(self, workers: int) -> None:
        import _thread

        self._stopping = False
        self._job: "Optional[Tuple[_Part, Tuple[Tuple[int, int], ...]]]" = None
        self._error: "Optional[BaseException]" = None
        self._go: "List[_thread.LockType]" = []
        self._done: "List[_thread.LockType]" = []
        for _ in range(workers):
            go = _thread.allocate_lock()
            done = _thread.allocate_lock()
            go.acquire()
            done.acquire()
            self._go.append(go)
            self._done.append(done)
        for k in range(workers):
            _thread.start_new_thread(self._work, (k,))

    def _work(self, k: int) -> None:
        # _threads takes these from _signal, which has no stub: to a type
        # checker they are not its own.
        from ._threads import pthread_sigmask as block  # type: ignore[attr-defined]

        if block is not None:       # the stopping signals go to the main thread
            from ._threads import _STOPPING_SIGNALS, SIG_BLOCK  # type: ignore[attr-defined]

            block(SIG_BLOCK, _STOPPING_SIGNALS)
        go, done = self._go[k], self._done[k]
        while True:
            go.acquire()
            if self._stopping:
                return
            if TYPE_CHECKING:
                assert self._job is not None    # run sets it before releasing go
            part, (lo, hi) = self._job[0], self._job[1][k + 1]
            try:
                part(lo, hi)
            except BaseException as error:     # handed to the calling thread
                self._error = error
            done.release()

    def run(self, part: "_Part",
            parts: "Tuple[Tuple[int, int], ...]") -> None:
        self._job = (part, parts)
        self._error = None
        for go in self._go:
            go.release()
        interrupted = None
        try:
            part(*parts[0])
        finally:
            # Every worker is waited for, even when interrupted here: the
            # arrays they write must not change under the caller.
            for done in self._done:
                while True:
                    try:
                        done.acquire()
                        break
                    except BaseException as error:  # raised once all are done
                        interrupted = error
            self._job = None
        if interrupted is not None:
            raise interrupted
        if self._error is not None:
            raise self._error

    def stop(self) -> None:
        self._stopping = True
        for go in self._go:
            go.release()
