"""Gymnasium vector environments over the batches (``pip install "havhex[gymnasium]"``).

>>> import gymnasium, havhex.gymnasium                  # doctest: +SKIP
>>> envs = gymnasium.make_vec("havhex/Hex-v0", num_envs=1024, seed=0)
>>> observation, info = envs.reset()
>>> actions = envs.unwrapped.batch.sample_actions()
>>> observation, reward, terminated, truncated, info = envs.step(actions)

:class:`HexVectorEnv` and :class:`HavannahVectorEnv` are
``gymnasium.vector.VectorEnv``\\ s whose games are one
:class:`havhex.hex.Batch` or :class:`havhex.havannah.Batch`, stepped in
compiled code; :class:`BatchVectorEnv` wraps a batch already made.  What
they hand out, as EnvPool's ``Hex-v1`` does:

* the observation, (n, H, W, C) bool, each game from the view of the
  player to move;
* ``info["current_player"]`` (n,) int32, the seat (0 or 1) to move, and
  ``info["legal_action_mask"]`` (n, num_actions) bool;
* ``info["rewards"]`` (n, 2) float32 by seat, ``info["winner"]`` (n,)
  int8 (-1: no winner) and, for Havannah, ``info["structures"]`` (n,)
  uint8 (the bits of ``havhex.havannah.batch.STRUCTURES``), the batch's
  own fields;
* the reward, (n,) float32: the reward of the seat that played the step's
  action (+1 for the move that wins, -1 for an illegal move, 0
  otherwise);
* under ``autoreset="same-step"``, ``info["final_obs"]`` (the last
  observation of each game that ended and was reset on this step) and
  ``info["_final_obs"]``, the games where it is set.

The arrays are the batch's own, updated in place by the next ``step`` or
``reset`` and read-only: copy what you keep (``copy=True`` copies every
array a call returns, at the price of the copies).

Registration: importing this module registers ``havhex/Hex-v0`` and
``havhex/Havannah-v0`` with Gymnasium (Gymnasium 1.x loads no plugins of
its own accord), so ``gymnasium.make_vec("havhex/Hex-v0", num_envs=...)``
works after ``import havhex.gymnasium``, or without that import as
``gymnasium.make_vec("havhex.gymnasium:havhex/Hex-v0", num_envs=...)``.
The keyword arguments of ``make_vec`` go to the batch (``size``, ``swap``,
``seed``, ``threads``, ``autoreset``, ...).
"""
from . import _batch

# The module imports without the extra, or with a Gymnasium older than 1.1
# (which has no autoreset modes): the API reference and the type stubs read
# it, and making an environment says what to install.
try:
    import gymnasium as _gymnasium
    import gymnasium.vector
except ImportError:
    _gymnasium = None
_AutoresetMode = getattr(getattr(_gymnasium, "vector", None), "AutoresetMode", None)
_VectorEnv = _gymnasium.vector.VectorEnv if _AutoresetMode is not None else object

__all__ = ["BatchVectorEnv", "HexVectorEnv", "HavannahVectorEnv", "register", "ENV_IDS"]

# The ids this module registers (see register).
ENV_IDS = ("havhex/Hex-v0", "havhex/Havannah-v0")


def _require():
    if _gymnasium is None:
        raise ImportError("havhex.gymnasium needs Gymnasium: pip install \"havhex[gymnasium]\"")
    if _AutoresetMode is None:
        raise ImportError(f"havhex.gymnasium needs Gymnasium 1.1 or later (its autoreset modes), "
                          f"not {getattr(_gymnasium, '__version__', 'this one')}: "
                          f"pip install \"havhex[gymnasium]\" --upgrade")
    return _gymnasium


def _autoreset_name(autoreset):
    """The batch's name of an auto-reset mode given as Gymnasium's enum or
    as the batch's string."""
    if _AutoresetMode is not None and isinstance(autoreset, _AutoresetMode):
        return {_AutoresetMode.NEXT_STEP: "next-step", _AutoresetMode.SAME_STEP: "same-step",
                _AutoresetMode.DISABLED: "disabled"}[autoreset]
    return autoreset


class BatchVectorEnv(_VectorEnv):
    """A Gymnasium vector environment over ``batch``, a
    :class:`havhex.hex.Batch` or :class:`havhex.havannah.Batch` (see the
    module's text for what ``step`` and ``reset`` return).  ``copy=True``
    returns copies of the batch's arrays instead of its read-only views."""

    def __init__(self, batch, *, copy=False):
        gymnasium = _require()
        spaces = gymnasium.spaces
        np = _batch.numpy()
        self._np = np
        self.batch = batch
        self.copy = bool(copy)
        self.num_envs = n = batch.num_envs
        self.metadata = {"autoreset_mode": {
            "next-step": _AutoresetMode.NEXT_STEP, "same-step": _AutoresetMode.SAME_STEP,
            "disabled": _AutoresetMode.DISABLED}[batch.autoreset]}
        self.render_mode = None
        self.single_observation_space = spaces.Box(0, 1, batch.observation_shape, np.bool_)
        self.single_action_space = spaces.Discrete(batch.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, n)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, n)
        self._same_step = batch.autoreset == "same-step"
        # Havannah's winning structures (bits of STRUCTURES), where the
        # batch keeps them.
        self._structures = hasattr(batch, "structures")
        # The step's reward is the acting seat's; it is nonzero only in the
        # games that ended, so only those are written (and cleared on the
        # next step), into an array made once.
        self._actor = np.zeros(n, np.int32)
        self._reward = np.zeros(n, np.float32)
        self._reward_view = self._reward.view()
        self._reward_view.flags.writeable = False
        self._ended = np.zeros(0, np.intp)

    def reset(self, *, seed=None, options=None):
        """Start every game again (``seed`` restarts the batch's random
        streams), or under ``autoreset="disabled"`` those where
        ``options["reset_mask"]`` (bool, shape (n,)) is True, as
        Gymnasium's own vector environments take it."""
        super().reset(seed=seed)
        mask = None
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
        self.batch.reset(mask=mask, seed=seed)
        self._reward.fill(0)
        self._ended = self._ended[:0]
        observation = self.batch.observation
        return (observation.copy() if self.copy else observation), self._info()

    def step(self, actions):
        """One action a game (integers, shape (n,)); returns the observation,
        the reward of the seat that played, terminated, truncated and info."""
        batch = self.batch
        same_step = self._same_step
        if same_step:
            # A game that ends is reset at once: its seat to move is the
            # new game's, so the seats that act are kept beforehand.
            self._np.copyto(self._actor, batch.current_player)
        batch.step(actions)
        reward = self._reward
        if self._ended.size:
            reward[self._ended] = 0
        self._ended = ended = batch.terminated.nonzero()[0]
        if ended.size:
            # Otherwise the seat to move in a game that has just ended is
            # the other one (as pgx turns it), so the actor is read after
            # the step, from the games that ended alone.
            actor = self._actor[ended] if same_step else 1 - batch.current_player[ended]
            reward[ended] = batch.rewards[ended, actor]
        arrays = (batch.observation, self._reward_view, batch.terminated, batch.truncated)
        if self.copy:
            arrays = tuple(array.copy() for array in arrays)
        return arrays + (self._info(),)

    def _info(self):
        batch = self.batch
        info = {"current_player": batch.current_player,
                "legal_action_mask": batch.legal_action_mask,
                "rewards": batch.rewards, "winner": batch.winner}
        if self._structures:
            info["structures"] = batch.structures
        if self._same_step:
            info["final_obs"] = batch.final_observation
            info["_final_obs"] = batch.final_mask
        if self.copy:
            info = {key: array.copy() for key, array in info.items()}
        return info

    def __repr__(self):
        return f"{type(self).__name__}({getattr(self, 'batch', None)!r})"


class HexVectorEnv(BatchVectorEnv):
    """``num_envs`` games of Hex as a Gymnasium vector environment: the
    keyword arguments are :class:`havhex.hex.Batch`'s."""

    def __init__(self, num_envs=1, size=11, *, cols=None, swap=True, seed=None, threads=1,
                 autoreset="next-step", illegal="lose", copy=False):
        _require()
        from .hex.batch import Batch

        super().__init__(Batch(num_envs, size, cols=cols, swap=swap, seed=seed, threads=threads,
                               autoreset=_autoreset_name(autoreset), illegal=illegal),
                         copy=copy)


class HavannahVectorEnv(BatchVectorEnv):
    """``num_envs`` games of Havannah as a Gymnasium vector environment:
    the keyword arguments are :class:`havhex.havannah.Batch`'s."""

    def __init__(self, num_envs=1, base=8, *, rule="official", swap=False, seed=None, threads=1,
                 autoreset="next-step", illegal="lose", copy=False):
        _require()
        from .havannah.batch import Batch

        super().__init__(Batch(num_envs, base, rule=rule, swap=swap, seed=seed, threads=threads,
                               autoreset=_autoreset_name(autoreset), illegal=illegal),
                         copy=copy)


def register():
    """Register ``havhex/Hex-v0`` and ``havhex/Havannah-v0`` with Gymnasium
    (importing this module does it when Gymnasium is installed)."""
    gymnasium = _require()
    for env_id, creator in zip(ENV_IDS, ("HexVectorEnv", "HavannahVectorEnv")):
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, vector_entry_point=f"{__name__}:{creator}")


if _AutoresetMode is not None:
    register()
