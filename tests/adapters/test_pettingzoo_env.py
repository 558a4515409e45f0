"""havhex.pettingzoo: one game as a PettingZoo AEC environment that passes
PettingZoo's own api_test, whose observations are each agent's view and
whose games are the batch's; one class for every game of the registry that
has a batch, and the deprecated classes of one game each."""
import importlib
import subprocess
import sys
import warnings

import pytest

import needs

np = needs.module("numpy")

GAMES = [("hex", {"size": 5}), ("hex", {"size": 11}), ("havannah", {"base": 4}),
         ("havannah", {"base": 3, "rule": "contest", "swap": True})]


@pytest.fixture(scope="module")
def pettingzoo():
    return needs.module("pettingzoo")


def make(game, kwargs, seed=0):
    from havhex.pettingzoo import AECEnv

    return AECEnv(game, seed=seed, **kwargs)


# What api_test warns of for every environment outside PettingZoo's own
# lists of names: a dict observation (the {"observation", "action_mask"} of
# its board games), and the empty board's planes of the first mover (all
# False in Hex).
KNOWN_WARNINGS = ("Observation is not a NumPy array",
                  "Observation space for each agent probably should be gymnasium.spaces.box",
                  "Observation numpy array is all zeros.")


@pytest.mark.parametrize("game, kwargs", GAMES)
def test_api_test_passes(pettingzoo, game, kwargs):
    from pettingzoo.test import api_test

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(game, kwargs), num_cycles=300)
    other = [str(w.message) for w in caught if not str(w.message).startswith(KNOWN_WARNINGS)]
    assert not other, other


@pytest.mark.parametrize("game, kwargs", GAMES[:1] + GAMES[2:])
def test_seed_test_passes(pettingzoo, game, kwargs):
    """PettingZoo's own check that the same seed gives the same games."""
    from pettingzoo.test import seed_test

    seed_test(lambda: make(game, kwargs, seed=None), num_cycles=200)


def _play_out(env, rng):
    """A random game to its end; returns the (agent, observation) seen at
    each move and the final rewards."""
    seen = []
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        action = int(rng.choice(np.flatnonzero(mask)))
        seen.append((agent, observation, action, env.observe(_other(env, agent))))
        env.step(action)
    return seen, totals


def _other(env, agent):
    return env.possible_agents[1 - env.possible_agents.index(agent)]


@pytest.mark.parametrize("game, kwargs", GAMES)
def test_each_agent_sees_its_own_view(pettingzoo, game, kwargs):
    """The agent not to move sees the board the mover sees with the stones
    exchanged: after the mover plays, the view the next mover gives of the
    previous one (the other view) holds the previous mover's stones plus
    the new one."""
    planes = importlib.import_module(f"havhex.{game}.batch").PLANES
    env = make(game, kwargs, seed=1)
    # The planes that do not change hands with a move: Hex's colour plane
    # (the viewer's colour), the board's shape.
    kept = [planes.index(name) for name in ("colour", "on_board", "edge", "corner")
            if name in planes]
    rng = np.random.default_rng(3)
    for _ in range(5):
        env.reset()
        seen, totals = _play_out(env, rng)
        assert len(seen) >= 2
        for (agent, observation, action, idle), (next_agent, _, _, _) in zip(seen, seen[1:]):
            assert next_agent != agent
            own, opponent = observation["observation"][..., 0], observation["observation"][..., 1]
            assert np.array_equal(idle["observation"][..., 0], opponent)
            assert np.array_equal(idle["observation"][..., 1], own)
            assert not idle["action_mask"].any()
        # One move later, the other view of the agent that played is its
        # view before the move with the new stone: the views are the
        # batch's, not merely exchanged planes.
        for (agent, observation, action, _), (_, _, _, idle_later) in zip(seen, seen[1:]):
            own = observation["observation"][..., 0]
            if action >= own.size or own.flat[action] or observation["observation"][..., 1].flat[action]:
                continue        # the swap (pie rule): the stone moves
            expected = own.copy()
            expected.flat[action] = 1
            assert np.array_equal(idle_later["observation"][..., 0], expected)
            assert np.array_equal(idle_later["observation"][..., kept],
                                  observation["observation"][..., kept])
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game, kwargs", GAMES[:1] + GAMES[2:3])
def test_the_games_are_the_batchs(pettingzoo, game, kwargs):
    """The same seed gives the same game as a one-game batch, and the
    winner's reward is +1."""
    env = make(game, kwargs, seed=7)
    env.reset(seed=7)
    raw = importlib.import_module(f"havhex.{game}.batch").Batch(1, seed=7, autoreset="disabled",
                                                                 **kwargs)
    raw.reset(seed=7)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            winner = raw.winner[0]
            assert info["winner"] == (env.possible_agents[winner] if winner >= 0 else None)
            env.step(None)
            continue
        assert agent == env.possible_agents[raw.current_player[0]]
        assert np.array_equal(observation["observation"], raw.observation[0].astype(np.int8))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        raw.step(np.array([action]))
        env.step(action)
    assert raw.terminated[0]


@pytest.mark.parametrize("game, kwargs", GAMES)
def test_render_test_passes(pettingzoo, game, kwargs, capsys):
    from pettingzoo.test import render_test

    from havhex.pettingzoo import AECEnv

    render_test(lambda render_mode=None: AECEnv(game, seed=1, render_mode=render_mode, **kwargs))
    # "human" writes the text picture.
    assert "to move" in capsys.readouterr().out


def test_render_modes_draw_the_game(pettingzoo):
    from havhex.pettingzoo import AECEnv

    env = AECEnv("havannah", base=3, seed=2, render_mode="ansi")
    env.reset()
    env.step(12)
    text = env.render()
    assert text == env.batch.render(0) and "".join(text.splitlines()[:-1]).count("W") == 1
    image = AECEnv("hex", size=5, render_mode="rgb_array")
    image.reset()
    assert image.render().shape[2] == 3
    with pytest.warns(UserWarning, match="render_mode"):
        assert make("hex", {"size": 3}).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        AECEnv("hex", size=3, render_mode="svg")


def test_an_illegal_action_loses(pettingzoo):
    env = make("hex", {"size": 5}, seed=2)
    env.reset()
    first = env.agent_selection
    env.step(12)
    second = env.agent_selection
    env.step(12)            # taken: illegal
    assert env.terminations == {first: True, second: True}
    assert env.rewards == {first: 1.0, second: -1.0}


def test_an_illegal_havannah_action_loses(pettingzoo):
    env = make("havannah", {"base": 4}, seed=2)
    env.reset()
    first = env.agent_selection
    env.step(24)
    second = env.agent_selection
    env.step(6)             # off the hexagon: x = 1, y = 7
    assert env.terminations == {first: True, second: True}
    assert env.rewards == {first: 1.0, second: -1.0}


def test_an_illegal_havannah_action_raises_and_changes_nothing(pettingzoo):
    env = make("havannah", {"base": 4, "illegal": "raise"}, seed=2)
    env.reset()
    env.step(24)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(ValueError):
        env.step(24)            # taken
    with pytest.raises(ValueError):
        env.step(6)             # off the hexagon: x = 1, y = 7
    assert env.agent_selection == agent and not any(env.terminations.values())
    assert np.array_equal(env.observe(agent)["observation"], before)


@pytest.mark.parametrize("action", [1.5, True, "3", np.array([1, 2]), -1, 26])
def test_bad_actions_raise_and_change_nothing(pettingzoo, action):
    env = make("hex", {"size": 5}, seed=2)
    env.reset()
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises((TypeError, ValueError)):
        env.step(action)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], before)


def test_the_module_imports_without_pettingzoo_and_says_what_to_install():
    code = ("import sys\n"
            "sys.modules['pettingzoo'] = None\n"
            "import havhex.pettingzoo as p\n"
            "for make in (lambda: p.AECEnv('hex'), lambda: p.HexEnv()):\n"
            "    try:\n"
            "        make()\n"
            "    except ImportError as e:\n"
            "        print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all('pip install "havhex[pettingzoo]"' in line for line in lines)


def test_aec_env_makes_one_game_of_the_game_with_its_own_defaults(pettingzoo):
    """AECEnv(game, ...): the arguments after the game are its batch's
    after the number of games, positional ones too; the metadata names the
    game."""
    from havhex.pettingzoo import AECEnv, BatchAECEnv

    hex_env = AECEnv("hex")
    assert hex_env.game == "hex" and hex_env.metadata["name"] == "havhex_hex_v0"
    assert (hex_env.batch.rows, hex_env.batch.swap) == (11, True)
    assert (hex_env.batch.num_envs, hex_env.batch.autoreset) == (1, "disabled")
    havannah_env = AECEnv("havannah")
    assert havannah_env.metadata == {"render_modes": ["human", "ansi", "rgb_array"],
                                     "name": "havhex_havannah_v0",
                                     "is_parallelizable": False}
    batch = havannah_env.batch
    assert (batch.base, batch.rule, batch.swap) == (8, "official", False)
    assert AECEnv("hex", 7).batch.rows == 7
    assert AECEnv("havannah", 3, rule="contest").batch.rule == "contest"
    # The class's own metadata stays the wrapper's, whose game it cannot know.
    assert BatchAECEnv.metadata["name"] == AECEnv.metadata["name"] == "havhex"


def test_a_game_not_there_or_without_a_batch_is_refused(pettingzoo, other_game):
    from havhex import games
    from havhex.pettingzoo import AECEnv

    with pytest.raises(games.UnknownGame):
        AECEnv("chess")
    other_game.batch = None
    with pytest.raises(ValueError, match="otherhex has no batched environment"):
        AECEnv("otherhex")


def test_a_game_registered_at_run_time_gets_an_aec_env(pettingzoo, other_game):
    from pettingzoo.test import api_test

    import havhex.pettingzoo as adapter

    env = adapter.AECEnv("otherhex", 4, seed=0)
    assert env.game == "otherhex" and env.metadata["name"] == "havhex_otherhex_v0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=50)
    try:
        with pytest.warns(DeprecationWarning, match=r"AECEnv\('otherhex'"):
            one_game = adapter.OtherHexEnv
        assert one_game.metadata["name"] == "havhex_otherhex_v0"
        assert one_game(3).batch.rows == 3
    finally:
        adapter._deprecated.pop("OtherHexEnv", None)


# The deprecated classes: name, game, the batch's defaults they keep, a
# positional size and what it sets.
DEPRECATED = [
    ("HexEnv", "hex", {"rows": 11, "cols": 11, "swap": True}, 5, "rows"),
    ("HavannahEnv", "havannah", {"base": 8, "rule": "official", "swap": False}, 3, "base"),
]


@pytest.mark.parametrize("name, game, defaults, size, field", DEPRECATED)
def test_the_deprecated_classes_warn_and_make_the_games_aec_env(pettingzoo, name, game,
                                                                defaults, size, field):
    import havhex.pettingzoo as adapter

    with pytest.warns(DeprecationWarning, match=rf"havhex\.pettingzoo\.{name} is deprecated: "
                                                rf"use havhex\.pettingzoo\.AECEnv\('{game}'"
                      ) as caught:
        made = getattr(adapter, name)
    # The warning points at the caller's line.
    assert caught[0].filename == __file__
    assert made.__name__ == name and made.__module__ == "havhex.pettingzoo"
    assert issubclass(made, adapter.AECEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        namespace = {}
        exec(f"from havhex.pettingzoo import {name} as again", namespace)
        assert namespace["again"] is made
    # The metadata of one release ago, on the class and on its instances.
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": f"havhex_{game}_v0",
                "is_parallelizable": False}
    assert made.metadata == metadata
    env = made()
    assert env.metadata == metadata and env.game == game
    assert {key: getattr(env.batch, key) for key in defaults} == defaults
    assert getattr(made(size).batch, field) == size
    # The same game as the new class's of the same arguments.
    old, new = made(size, seed=5), adapter.AECEnv(game, size, seed=5)
    old.reset(seed=5)
    new.reset(seed=5)
    rng = np.random.default_rng(1)
    for agent in new.agent_iter():
        assert old.agent_selection == agent
        last, other = new.last(), old.last()
        assert np.array_equal(last[0]["observation"], other[0]["observation"])
        assert last[1:] == other[1:]
        if last[2] or last[3]:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(last[0]["action_mask"])))
        new.step(action)
        old.step(action)
    assert not old.agents


def test_other_names_are_not_found(pettingzoo):
    import havhex.pettingzoo as adapter

    for name in ("ChessEnv", "Env", "hexEnv", "__path__"):
        assert not hasattr(adapter, name), name
