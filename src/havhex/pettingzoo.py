"""PettingZoo AEC environments of one game (``pip install "havhex[pettingzoo]"``).

>>> from havhex.pettingzoo import AECEnv                 # doctest: +SKIP
>>> env = AECEnv("hex", size=11, seed=0)
>>> env.reset()
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else \\
...         env.action_space(agent).sample(observation["action_mask"])
...     env.step(action)

:class:`AECEnv` is a PettingZoo ``AECEnv`` of one game of
:mod:`havhex.games` (``AECEnv("havannah", base=4)``), its game one game
of the game's batch (:class:`havhex.hex.Batch`,
:class:`havhex.havannah.Batch`: the module the game's descriptor names
as its ``batch``), with the same rules, observation planes and action ids;
:class:`BatchAECEnv` wraps a batch of one game already made.  The agents
are ``"player_0"`` and ``"player_1"``, the batch's seats: as in pgx, which
seat moves first is drawn at each reset.
``observe(agent)`` gives, as PettingZoo's board games do,
``{"observation": (H, W, C) int8, "action_mask": (num_actions,) int8}``,
the observation from that agent's own view and the mask all zeros but for
the agent to move in a game that has not ended.  The rewards are +1 for
the winner and -1 for the loser at the end, 0 for both in a draw; an
illegal action is the batch's affair: it loses the game for the agent
that played it (pgx's rule), or raises ValueError with ``illegal="raise"``.
``render_mode`` is one of ``metadata["render_modes"]``: ``"ansi"`` (the
game as text, see ``Batch.render``), ``"rgb_array"`` (an RGB image) or
``"human"`` (the text written to standard output).

``HexEnv`` and ``HavannahEnv``, the classes of one game each, are
deprecated: ``AECEnv("hex", ...)`` and ``AECEnv("havannah", ...)`` take the
same arguments after the game.
"""
from __future__ import annotations

import warnings

from . import _batch, games

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Dict, List, Optional, Sequence, Tuple

    from .descriptor import Descriptor

    # PettingZoo is an extra, which a type checker need not have (and it
    # has no types): to it, the base class is Any.
    _AECEnv = Any
else:
    # The base class: pettingzoo.AECEnv when PettingZoo is installed.
    try:
        from pettingzoo import AECEnv as _AECEnv
    except ImportError:
        # The module imports without the extra (the API reference reads
        # it); making an environment says what to install.
        _AECEnv = object

__all__ = ["AECEnv", "BatchAECEnv"]

AGENTS: Tuple[str, str] = ("player_0", "player_1")

# What the deprecated classes' names end with: the game's title comes first
# (HexEnv).
_DEPRECATED_SUFFIX = "Env"


def _require() -> ModuleType:
    if _AECEnv is object:
        raise ImportError("havhex.pettingzoo needs PettingZoo: pip install \"havhex[pettingzoo]\"")
    # Gymnasium comes with PettingZoo; a type checker need not have either,
    # so it finds the module by name, as a module.
    import importlib

    return importlib.import_module("gymnasium")


def _check_render_mode(render_mode: Optional[str]) -> None:
    modes = BatchAECEnv.metadata["render_modes"]
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, modes))}, "
                         f"got {render_mode!r}")


# The base is Any to a type checker (PettingZoo is an extra, and untyped).
class BatchAECEnv(_AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over one game of ``batch`` (a batch of
    one game with ``autoreset="disabled"``) whose observation has the
    planes named by ``planes`` (the game's ``PLANES``); ``render_mode``,
    one of ``metadata["render_modes"]`` or None, is what ``render()``
    draws."""

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"],
                                "name": "havhex", "is_parallelizable": False}
    batch: Any
    possible_agents: List[str]
    agents: List[str]
    render_mode: Optional[str]
    observation_spaces: Dict[str, Any]
    action_spaces: Dict[str, Any]
    rewards: Dict[str, float]
    terminations: Dict[str, bool]
    truncations: Dict[str, bool]
    infos: Dict[str, Dict[str, Any]]
    agent_selection: str

    def __init__(self, batch: Any, planes: Sequence[str],
                 render_mode: Optional[str] = None) -> None:
        gymnasium = _require()
        _check_render_mode(render_mode)
        super().__init__()
        self._planes = tuple(planes)
        if batch.num_envs != 1 or batch.autoreset != "disabled":
            raise ValueError("a PettingZoo environment plays one game: "
                             "a batch of n=1 with autoreset=\"disabled\"")
        np = _batch.numpy()
        self._np = np
        self.batch = batch
        self.possible_agents = list(AGENTS)
        self.render_mode = render_mode
        shape = batch.observation_shape
        observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 1, shape, np.int8),
            "action_mask": gymnasium.spaces.Box(0, 1, (batch.num_actions,), np.int8),
        })
        action_space = gymnasium.spaces.Discrete(batch.num_actions)
        self.observation_spaces = {agent: observation_space for agent in AGENTS}
        self.action_spaces = {agent: action_space for agent in AGENTS}
        self._action = np.zeros(1, np.int64)
        self._no_moves = np.zeros(batch.num_actions, np.int8)
        self._no_moves.flags.writeable = False
        self._started = False

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> None:
        """A new game (``seed`` restarts the game's random stream, which
        draws the seats)."""
        self.batch.reset(seed=seed)
        self._started = True
        self.agents = list(AGENTS)
        self.rewards = {agent: 0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[int(self.batch.current_player[0])]

    def observe(self, agent: str) -> Dict[str, Any]:
        np = self._np
        batch = self.batch
        observation = batch.observation[0]
        mover = AGENTS[int(batch.current_player[0])]
        if agent != mover:
            observation = self._other_view(observation)
        ended = bool(batch.terminated[0])
        if agent == mover and not ended:
            mask = batch.legal_action_mask[0].astype(np.int8)
        else:
            mask = self._no_moves.copy()
        return {"observation": observation.astype(np.int8), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        """Play ``action`` (an action id) for the agent to move; ``None``
        for an agent whose game has ended, as PettingZoo asks."""
        if not self._started:
            raise RuntimeError("reset() the environment before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent}: the action is None in a game that has not ended")
        batch = self.batch
        self._action[0] = self._action_id(action)
        self._cumulative_rewards[agent] = 0
        batch.step(self._action)
        rewards = batch.rewards[0]
        self.rewards = {seat: float(rewards[k]) for k, seat in enumerate(AGENTS)}
        if batch.terminated[0]:
            self.terminations = {seat: True for seat in self.agents}
            winner = int(batch.winner[0])
            self.infos = {seat: {"winner": AGENTS[winner] if winner >= 0 else None}
                          for seat in self.agents}
        self.agent_selection = AGENTS[int(batch.current_player[0])]
        self._accumulate_rewards()

    def _action_id(self, action: Any) -> int:
        """The action as an int; anything else (a float, a bool, an array of
        more than one value) is a TypeError, before the game changes."""
        np = self._np
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = action.reshape(())[()]
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an integer action id, not {action!r}")
        action_id = int(action)
        if not 0 <= action_id < self.batch.num_actions:
            raise ValueError(f"action {action_id} is out of range [0, {self.batch.num_actions})")
        return action_id

    def render(self) -> Any:
        """The game as it stands under the ``render_mode`` given: text
        (``"ansi"``), an RGB image (``"rgb_array"``), or the text written
        to standard output (``"human"``, which returns None); None, with a
        warning, without a mode."""
        if self.render_mode is None:
            _require().logger.warn("render() was called without a render_mode: "
                                   "give one of " + ", ".join(self.metadata["render_modes"]))
            return None
        if self.render_mode == "human":
            print(self.batch.render(0, "ansi"), end="")
            return None
        return self.batch.render(0, self.render_mode)

    def close(self) -> None:
        pass

    def _other_view(self, observation: Any) -> Any:
        """The observation of the seat not to move, from the mover's: the
        stones change hands, a plane of the viewer's colour (Hex's
        ``colour``) flips, and the planes that do not depend on the viewer
        (the board's shape, the swap, the last move) stay."""
        planes = self._planes
        own, opponent = planes.index("own"), planes.index("opponent")
        other = observation.copy()
        other[..., own] = observation[..., opponent]
        other[..., opponent] = observation[..., own]
        if "colour" in planes:
            other[..., planes.index("colour")] ^= True
        return other


class AECEnv(BatchAECEnv):
    """One game of ``game`` (a name of :mod:`havhex.games`) as a PettingZoo
    AEC environment, over a new batch of one game: the other arguments,
    positional ones too, are its ``Batch``'s after the number of games
    (``AECEnv("hex", 7)`` is ``Batch(1, 7)``, a board of 7 x 7), so each
    game keeps its own defaults (Hex: ``size=11, swap=True``; Havannah:
    ``base=8, rule="official", swap=False``); the auto-reset is the
    environment's own (``"disabled"``); ``render_mode`` is the
    environment's, as for :class:`BatchAECEnv`.  ``metadata["name"]`` is
    ``havhex_<game>_v0``.  ValueError for a game without a batch
    (:class:`havhex.games.UnknownGame` for a name no game has)."""

    game: str

    def __init__(self, game: str, *args: Any, render_mode: Optional[str] = None,
                 **options: Any) -> None:
        _require()
        _check_render_mode(render_mode)
        descriptor = games.get(game)
        # The registry is read here, once: the steps go to the batch alone.
        module = descriptor.batch_module()
        super().__init__(module.Batch(1, *args, autoreset="disabled", **options), module.PLANES,
                         render_mode)
        self.game = descriptor.name
        self.metadata = _metadata(descriptor)


def _metadata(descriptor: Descriptor) -> Dict[str, Any]:
    return {**BatchAECEnv.metadata, "name": f"havhex_{descriptor.name}_v0"}


def _word(descriptor: Descriptor) -> str:
    """The game's title as one word (its spaces left out), as the
    deprecated classes' names give it."""
    return "".join(descriptor.title.split())


# The deprecated classes made so far, by name: a name stands for one class,
# so that isinstance holds across look-ups.
_deprecated: Dict[str, type] = {}


def __getattr__(name: str) -> Any:
    """The deprecated classes of one game each (``HexEnv``,
    ``HavannahEnv``): the game whose title comes before ``Env``, with a
    DeprecationWarning naming :class:`AECEnv`."""
    # Any other name (``__path__``, ``__wrapped__``, ...) is refused
    # without reading the registry.
    title = name[:-len(_DEPRECATED_SUFFIX)] if name.endswith(_DEPRECATED_SUFFIX) else ""
    found = []
    if title:
        described = (games.get(game) for game in games.names())
        found = [descriptor for descriptor in described
                 if descriptor.batch is not None and _word(descriptor) == title]
    if not found:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    descriptor = found[0]
    warnings.warn(f"havhex.pettingzoo.{name} is deprecated: use "
                  f"havhex.pettingzoo.AECEnv({descriptor.name!r}, ...)",
                  DeprecationWarning, stacklevel=2)
    made = _deprecated.get(name)
    if made is None:
        made = _deprecated[name] = _one_game(name, descriptor)
    return made


def _one_game(name: str, descriptor: Descriptor) -> type:
    """A deprecated class of one game: :class:`AECEnv` of the game, with
    the same arguments after it, and its metadata on the class too."""
    game = descriptor.name

    def __init__(self: AECEnv, *args: Any, **options: Any) -> None:
        AECEnv.__init__(self, game, *args, **options)

    # Made by type(), not a class statement, so that a type checker sees no
    # class of this module that the module does not have.
    return type(name, (AECEnv,), {
        "__init__": __init__, "__module__": __name__, "__qualname__": name,
        "metadata": _metadata(descriptor),
        "__doc__": f"Deprecated: ``AECEnv({game!r}, ...)``, whose arguments after the game "
                   f"it takes."})
