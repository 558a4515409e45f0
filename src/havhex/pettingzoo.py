"""PettingZoo AEC environments of one game (``pip install "havhex[pettingzoo]"``).

>>> from havhex.pettingzoo import HexEnv                 # doctest: +SKIP
>>> env = HexEnv(size=11, seed=0)
>>> env.reset()
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else \\
...         env.action_space(agent).sample(observation["action_mask"])
...     env.step(action)

:class:`HexEnv` and :class:`HavannahEnv` are PettingZoo ``AECEnv``\\ s,
their game one game of a :class:`havhex.hex.Batch` or
:class:`havhex.havannah.Batch` (the same rules, observation planes and
action ids).  The agents are ``"player_0"`` and ``"player_1"``, the
batch's seats: as in pgx, which seat moves first is drawn at each reset.
``observe(agent)`` gives, as PettingZoo's board games do,
``{"observation": (H, W, C) int8, "action_mask": (num_actions,) int8}``,
the observation from that agent's own view and the mask all zeros but for
the agent to move in a game that has not ended.  The rewards are +1 for
the winner and -1 for the loser at the end, 0 for both in a draw; an
illegal action is the batch's affair: it loses the game for the agent
that played it (pgx's rule), or raises ValueError with ``illegal="raise"``.
"""
from . import _batch

try:
    from pettingzoo import AECEnv as _AECEnv
except ImportError:
    # The module imports without the extra (the API reference and the type
    # stubs read it); making an environment says what to install.
    _AECEnv = object

__all__ = ["BatchAECEnv", "HexEnv", "HavannahEnv"]

AGENTS = ("player_0", "player_1")


def _require():
    if _AECEnv is object:
        raise ImportError("havhex.pettingzoo needs PettingZoo: pip install \"havhex[pettingzoo]\"")
    import gymnasium

    return gymnasium


class BatchAECEnv(_AECEnv):
    """A PettingZoo AEC environment over one game of ``batch`` (a batch of
    one game with ``autoreset="disabled"``) whose observation has the
    planes named by ``planes`` (the game's ``PLANES``)."""

    metadata = {"render_modes": [], "name": "havhex", "is_parallelizable": False}

    def __init__(self, batch, planes):
        gymnasium = _require()
        super().__init__()
        self._planes = tuple(planes)
        if batch.num_envs != 1 or batch.autoreset != "disabled":
            raise ValueError("a PettingZoo environment plays one game: "
                             "a batch of n=1 with autoreset=\"disabled\"")
        np = _batch.numpy()
        self._np = np
        self.batch = batch
        self.possible_agents = list(AGENTS)
        self.render_mode = None
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

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
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

    def observe(self, agent):
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

    def step(self, action):
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

    def _action_id(self, action):
        """The action as an int; anything else (a float, a bool, an array of
        more than one value) is a TypeError, before the game changes."""
        np = self._np
        if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = action.reshape(())[()]
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an integer action id, not {action!r}")
        action = int(action)
        if not 0 <= action < self.batch.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.batch.num_actions})")
        return action

    def render(self):
        """Nothing to show: draw a position with :mod:`havhex.draw` instead."""
        return None

    def close(self):
        pass

    def _other_view(self, observation):
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


class HexEnv(BatchAECEnv):
    """One game of Hex (the arguments are :class:`havhex.hex.Batch`'s)."""

    metadata = {"render_modes": [], "name": "havhex_hex_v0", "is_parallelizable": False}

    def __init__(self, size=11, *, cols=None, swap=True, seed=None, illegal="lose"):
        _require()
        from .hex.batch import PLANES, Batch

        super().__init__(Batch(1, size, cols=cols, swap=swap, seed=seed, autoreset="disabled",
                               illegal=illegal), PLANES)


class HavannahEnv(BatchAECEnv):
    """One game of Havannah (the arguments are
    :class:`havhex.havannah.Batch`'s)."""

    metadata = {"render_modes": [], "name": "havhex_havannah_v0", "is_parallelizable": False}

    def __init__(self, base=8, *, rule="official", swap=False, seed=None, illegal="lose"):
        _require()
        from .havannah.batch import PLANES, Batch

        super().__init__(Batch(1, base, rule=rule, swap=swap, seed=seed, autoreset="disabled",
                               illegal=illegal), PLANES)
