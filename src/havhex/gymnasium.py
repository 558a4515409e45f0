"""Gymnasium vector environments over the batches (``pip install "havhex[gymnasium]"``).

>>> import gymnasium, havhex.gymnasium                  # doctest: +SKIP
>>> envs = gymnasium.make_vec("havhex/Hex-v0", num_envs=1024, seed=0)
>>> observation, info = envs.reset()
>>> actions = envs.unwrapped.batch.sample_actions()
>>> observation, reward, terminated, truncated, info = envs.step(actions)

:class:`VectorEnv` is a ``gymnasium.vector.VectorEnv`` of ``num_envs``
games of one game of :mod:`havhex.games` (``VectorEnv("hex", 1024)``),
its games one batch (:class:`havhex.hex.Batch`,
:class:`havhex.havannah.Batch`: the module the game's descriptor names
as its ``batch``) stepped in compiled code; :class:`BatchVectorEnv` wraps a
batch already made.  What they hand out, as EnvPool's ``Hex-v1`` does:

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
  otherwise), a new writable array each step (reward wrappers such as
  Gymnasium's ``ClipReward`` change it in place);
* under ``autoreset="same-step"``, ``info["final_obs"]`` (the last
  observation of each game that ended and was reset on this step) and
  ``info["_final_obs"]``, the games where it is set.

The other arrays are the batch's own, updated in place by the next
``step`` or ``reset`` and read-only: copy what you keep (``copy=True``
copies every array a call returns, at the price of the copies).

``render_mode="ansi"`` or ``"rgb_array"`` (``metadata["render_modes"]``)
makes ``render()`` return a tuple of one picture a game, text or an RGB
image (see ``Batch.render``).

Registration: importing this module registers ``havhex/<title>-v0`` with
Gymnasium for every game of :mod:`havhex.games` that has a batch
(``havhex/Hex-v0`` and ``havhex/Havannah-v0`` for the built-in games;
Gymnasium 1.x loads no plugins of its own accord), so
``gymnasium.make_vec("havhex/Hex-v0", num_envs=...)`` works after ``import
havhex.gymnasium``, or without that import as
``gymnasium.make_vec("havhex.gymnasium:havhex/Hex-v0", num_envs=...)``.
The keyword arguments of ``make_vec`` go to the batch (``size``, ``swap``,
``seed``, ``threads``, ``autoreset``, ...).

``HexVectorEnv`` and ``HavannahVectorEnv``, the classes of one game each,
are deprecated: ``VectorEnv("hex", ...)`` and ``VectorEnv("havannah", ...)``
take the same arguments after the game.
"""
from __future__ import annotations

import warnings

from . import _batch, games

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Dict, Optional, Tuple

    from .descriptor import Descriptor

    # Gymnasium is an extra, which a type checker need not have: to it, the
    # module is a module (or None without it) and the base class Any.
    _gymnasium: Optional[ModuleType]
    _AutoresetMode: Any
    _VectorEnv = Any
else:
    # The module imports without the extra, or with a Gymnasium older than
    # 1.1 (which has no autoreset modes): the API reference reads it, and
    # making an environment says what to install.
    try:
        import gymnasium as _gymnasium
        import gymnasium.vector
    except ImportError:
        _gymnasium = None
    _AutoresetMode = getattr(getattr(_gymnasium, "vector", None), "AutoresetMode", None)
    # The base class: gymnasium.vector.VectorEnv when Gymnasium is installed.
    _VectorEnv = _gymnasium.vector.VectorEnv if _AutoresetMode is not None else object

__all__ = ["VectorEnv", "BatchVectorEnv", "register", "env_id", "ENV_IDS"]

# What the deprecated classes' names end with: the game's title comes first
# (HexVectorEnv).
_DEPRECATED_SUFFIX = "VectorEnv"


def _require() -> ModuleType:
    if _gymnasium is None:
        raise ImportError("havhex.gymnasium needs Gymnasium: pip install \"havhex[gymnasium]\"")
    if _AutoresetMode is None:
        raise ImportError(f"havhex.gymnasium needs Gymnasium 1.1 or later (its autoreset modes), "
                          f"not {getattr(_gymnasium, '__version__', 'this one')}: "
                          f"pip install \"havhex[gymnasium]\" --upgrade")
    return _gymnasium


def _check_render_mode(render_mode: Optional[str]) -> None:
    if render_mode is not None and render_mode not in _batch.RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of "
                         f"{', '.join(map(repr, _batch.RENDER_MODES))}, got {render_mode!r}")


def _autoreset_name(autoreset: Any) -> Any:
    """The batch's name of an auto-reset mode given as Gymnasium's enum or
    as the batch's string."""
    if _AutoresetMode is not None and isinstance(autoreset, _AutoresetMode):
        return {_AutoresetMode.NEXT_STEP: "next-step", _AutoresetMode.SAME_STEP: "same-step",
                _AutoresetMode.DISABLED: "disabled"}[autoreset]
    return autoreset


# The base is Any to a type checker (Gymnasium is an extra).
class BatchVectorEnv(_VectorEnv):  # type: ignore[misc]
    """A Gymnasium vector environment over ``batch``, a
    :class:`havhex.hex.Batch` or :class:`havhex.havannah.Batch` (see the
    module's text for what ``step`` and ``reset`` return).  ``copy=True``
    returns copies of the batch's arrays instead of its read-only views;
    ``render_mode`` (``"ansi"``, ``"rgb_array"`` or None) is what
    ``render()`` draws."""

    batch: Any
    copy: bool
    num_envs: int
    metadata: Dict[str, Any]
    render_mode: Optional[str]
    single_observation_space: Any
    single_action_space: Any
    observation_space: Any
    action_space: Any

    def __init__(self, batch: Any, *, copy: bool = False,
                 render_mode: Optional[str] = None) -> None:
        gymnasium = _require()
        _check_render_mode(render_mode)
        spaces = gymnasium.spaces
        np = _batch.numpy()
        self._np = np
        self.batch = batch
        self.copy = bool(copy)
        self.num_envs = n = batch.num_envs
        self.metadata = {"autoreset_mode": {
            "next-step": _AutoresetMode.NEXT_STEP, "same-step": _AutoresetMode.SAME_STEP,
            "disabled": _AutoresetMode.DISABLED}[batch.autoreset],
            "render_modes": list(_batch.RENDER_MODES)}
        self.render_mode = render_mode
        self.single_observation_space = spaces.Box(0, 1, batch.observation_shape, np.bool_)
        self.single_action_space = spaces.Discrete(batch.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, n)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, n)
        self._same_step = batch.autoreset == "same-step"
        # Havannah's winning structures (bits of STRUCTURES), where the
        # batch keeps them.
        self._structures = hasattr(batch, "structures")
        # The seat to move in each game before a step: the seat that acts.
        # Read after the step it could be either (a game that ended may be
        # reset, and an illegal move leaves Havannah's mover as it was).
        self._actor = np.zeros(n, np.int32)

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        """Start every game again (``seed`` restarts the batch's random
        streams), or under ``autoreset="disabled"`` those where
        ``options["reset_mask"]`` (bool, shape (n,)) is True, as
        Gymnasium's own vector environments take it."""
        super().reset(seed=seed)
        mask = None
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
        self.batch.reset(mask=mask, seed=seed)
        observation = self.batch.observation
        return (observation.copy() if self.copy else observation), self._info()

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Dict[str, Any]]:
        """One action a game (integers, shape (n,)); returns the observation,
        the reward of the seat that played, terminated, truncated and info."""
        batch = self.batch
        np = self._np
        actor = self._actor
        np.copyto(actor, batch.current_player)
        batch.step(actions)
        # The step's reward is the acting seat's, nonzero only in the games
        # that ended; a new array, the caller's to change.
        reward = np.zeros(self.num_envs, np.float32)
        ended = batch.terminated.nonzero()[0]
        if ended.size:
            reward[ended] = batch.rewards[ended, actor[ended]]
        arrays = (batch.observation, batch.terminated, batch.truncated)
        if self.copy:
            arrays = tuple(array.copy() for array in arrays)
        return (arrays[0], reward, arrays[1], arrays[2], self._info())

    def _info(self) -> Dict[str, Any]:
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

    def render(self) -> Optional[Tuple[Any, ...]]:
        """One picture a game under the ``render_mode`` given, text
        (``"ansi"``) or an RGB image (``"rgb_array"``); None without one."""
        if self.render_mode is None:
            return None
        batch = self.batch
        return tuple(batch.render(game, self.render_mode) for game in range(self.num_envs))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({getattr(self, 'batch', None)!r})"


class VectorEnv(BatchVectorEnv):
    """``num_envs`` games of ``game`` (a name of :mod:`havhex.games`) as a
    Gymnasium vector environment, over a new batch of the game: the other
    arguments, positional ones too, are its ``Batch``'s after the number of
    games (``VectorEnv("hex", 8, 11)`` is ``Batch(8, 11)``, boards of 11 x
    11), so each game keeps its own defaults (Hex: ``size=11, swap=True``;
    Havannah: ``base=8, rule="official", swap=False``).  ``autoreset`` is
    the batch's name of a mode or Gymnasium's ``AutoresetMode``;
    ``copy=True`` and ``render_mode`` as for :class:`BatchVectorEnv`.  ValueError for a game
    without a batch (:class:`havhex.games.UnknownGame` for a name no game
    has)."""

    game: str

    def __init__(self, game: str, num_envs: int = 1, *args: Any, autoreset: Any = "next-step",
                 copy: bool = False, render_mode: Optional[str] = None,
                 **options: Any) -> None:
        _require()
        _check_render_mode(render_mode)
        descriptor = games.get(game)
        # The registry is read here, once: the steps go to the batch alone.
        made = descriptor.batch_module().Batch(num_envs, *args,
                                               autoreset=_autoreset_name(autoreset), **options)
        super().__init__(made, copy=copy, render_mode=render_mode)
        self.game = descriptor.name


def _word(descriptor: Descriptor) -> str:
    """The game's title as one word (its spaces left out), as the ids and
    the deprecated classes' names give it."""
    return "".join(descriptor.title.split())


def _id(descriptor: Descriptor) -> str:
    return f"havhex/{_word(descriptor)}-v0"


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``'s vector environment,
    ``havhex/<title>-v0`` (``"havhex/Hex-v0"`` for ``"hex"``)."""
    return _id(games.get(game))


def _batched() -> Tuple[Descriptor, ...]:
    """The descriptors of the games of the registry that have a batch."""
    found = (games.get(name) for name in games.names())
    return tuple(descriptor for descriptor in found if descriptor.batch is not None)


def register() -> Tuple[str, ...]:
    """Register ``havhex/<title>-v0`` with Gymnasium for every game of
    :mod:`havhex.games` that has a batch, each made by :class:`VectorEnv`
    with the game as the keyword argument ``game``, and return their ids.
    Importing this module does it when Gymnasium is installed; call it
    again for a game registered since.  An id registered already is left
    as it is."""
    gymnasium = _require()
    ids = []
    for descriptor in _batched():
        made = _id(descriptor)
        if made not in gymnasium.registry:
            gymnasium.register(made, vector_entry_point=f"{__name__}:{VectorEnv.__name__}",
                               kwargs={"game": descriptor.name})
        ids.append(made)
    return tuple(ids)


# The ids of the games with a batch when this module is imported (the
# built-in games first), which it registers.
ENV_IDS: Tuple[str, ...] = (register() if _AutoresetMode is not None
                            else tuple(_id(descriptor) for descriptor in _batched()))

# The deprecated classes made so far, by name: a name stands for one class,
# so that isinstance holds across look-ups.
_deprecated: Dict[str, type] = {}


def __getattr__(name: str) -> Any:
    """The deprecated classes of one game each (``HexVectorEnv``,
    ``HavannahVectorEnv``): the game whose title comes before
    ``VectorEnv``, with a DeprecationWarning naming :class:`VectorEnv`."""
    # Any other name (``__path__``, ``__wrapped__``, ...) is refused
    # without reading the registry.
    title = name[:-len(_DEPRECATED_SUFFIX)] if name.endswith(_DEPRECATED_SUFFIX) else ""
    found = [descriptor for descriptor in _batched() if _word(descriptor) == title] if title else []
    if not found:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    game = found[0].name
    warnings.warn(f"havhex.gymnasium.{name} is deprecated: use "
                  f"havhex.gymnasium.VectorEnv({game!r}, num_envs, ...)",
                  DeprecationWarning, stacklevel=2)
    made = _deprecated.get(name)
    if made is None:
        made = _deprecated[name] = _one_game(name, game)
    return made


def _one_game(name: str, game: str) -> type:
    """A deprecated class of one game: :class:`VectorEnv` of ``game``, with
    the same arguments after it."""

    def __init__(self: VectorEnv, num_envs: int = 1, *args: Any, **options: Any) -> None:
        VectorEnv.__init__(self, game, num_envs, *args, **options)

    # Made by type(), not a class statement, so that a type checker sees no
    # class of this module that the module does not have.
    return type(name, (VectorEnv,), {
        "__init__": __init__, "__module__": __name__, "__qualname__": name,
        "__doc__": f"Deprecated: ``VectorEnv({game!r}, num_envs, ...)``, whose arguments "
                   f"after the game it takes."})
