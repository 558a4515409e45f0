"""havhex.gymnasium: the batches as Gymnasium vector environments, found by
``gymnasium.make_vec``, handing out what the batch holds (EnvPool's info
keys), the reward of the seat that played, and Gymnasium's three auto-reset
modes; one class for every game of the registry that has a batch, and the
deprecated classes of one game each."""
import importlib
import subprocess
import sys
import warnings

import pytest

import needs

np = needs.module("numpy")


@pytest.fixture(scope="module")
def gymnasium():
    module = needs.module("gymnasium")
    import havhex.gymnasium  # noqa: F401  (registers the ids)

    return module


def batch_class(game):
    return importlib.import_module(f"havhex.{game}.batch").Batch


def batch_of(env):
    return env.unwrapped.batch


def test_make_vec_finds_both_games(gymnasium):
    from havhex.gymnasium import ENV_IDS, VectorEnv

    assert set(ENV_IDS) == {"havhex/Hex-v0", "havhex/Havannah-v0"}
    hex_env = gymnasium.make_vec("havhex/Hex-v0", num_envs=6, seed=3, size=7)
    assert isinstance(hex_env.unwrapped, VectorEnv)
    assert hex_env.unwrapped.game == "hex"
    assert isinstance(hex_env.unwrapped, gymnasium.vector.VectorEnv)
    assert hex_env.num_envs == 6
    assert hex_env.single_observation_space.shape == (7, 7, 4)
    assert hex_env.single_observation_space.dtype == np.bool_
    assert hex_env.observation_space.shape == (6, 7, 7, 4)
    assert hex_env.single_action_space == gymnasium.spaces.Discrete(50)
    assert hex_env.action_space.shape == (6,)
    assert hex_env.spec.id == "havhex/Hex-v0"
    havannah_env = gymnasium.make_vec("havhex/Havannah-v0", num_envs=5, base=4, seed=3)
    assert isinstance(havannah_env.unwrapped, VectorEnv)
    assert havannah_env.unwrapped.game == "havannah"
    assert isinstance(batch_of(havannah_env), batch_class("havannah"))
    batch = batch_of(havannah_env)
    assert havannah_env.single_observation_space.shape == batch.observation_shape
    assert havannah_env.single_action_space.n == batch.num_actions == 7 * 7
    assert havannah_env.observation_space.shape == (5,) + batch.observation_shape


def test_make_vec_imports_the_module_named_in_the_id():
    """Without ``import havhex.gymnasium`` first, the id names the module."""
    needs.module("gymnasium")
    code = ("import gymnasium\n"
            "env = gymnasium.make_vec('havhex.gymnasium:havhex/Hex-v0', num_envs=3, size=5)\n"
            "print(type(env.unwrapped).__name__, env.num_envs)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["VectorEnv", "3"]


@pytest.mark.parametrize("mode, name", [("next-step", "NEXT_STEP"), ("same-step", "SAME_STEP"),
                                        ("disabled", "DISABLED")])
def test_metadata_names_the_batch_autoreset_mode(gymnasium, mode, name):
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=2, size=3, autoreset=mode)
    assert env.metadata["autoreset_mode"] is getattr(gymnasium.vector.AutoresetMode, name)
    assert batch_of(env).autoreset == mode
    # Gymnasium's enum is taken as well as the batch's name.
    enum = gymnasium.make_vec("havhex/Hex-v0", num_envs=2, size=3,
                              autoreset=getattr(gymnasium.vector.AutoresetMode, name))
    assert batch_of(enum).autoreset == mode


def _actor_rewards(rewards, actors):
    return rewards[np.arange(len(actors)), actors]


@pytest.mark.parametrize("game, kwargs", [("Hex", {"size": 5}), ("Havannah", {"base": 3})])
@pytest.mark.parametrize("mode", ["next-step", "same-step", "disabled"])
def test_steps_hand_out_the_batch_and_the_actor_reward(gymnasium, game, kwargs, mode):
    """The adapter beside a raw batch of the same seed, step by step over
    many games: the same observation, mask, current player, ends and
    by-seat rewards, and a reward that is the acting seat's."""
    raw = batch_class(game.lower())(64, seed=11, autoreset=mode, **kwargs)
    env = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=64, seed=11, autoreset=mode, **kwargs)
    observation, info = env.reset(seed=5)
    raw.reset(seed=5)
    assert np.array_equal(observation, raw.observation)
    ended = wins = 0
    for _ in range(300):
        if mode == "disabled" and raw.terminated.any():
            ended_games = raw.terminated.copy()
            raw.reset(mask=ended_games)
            observation, info = env.reset(options={"reset_mask": ended_games})
            assert np.array_equal(observation, raw.observation)
        # Both draw, so that both batches' random streams (which draw the
        # seats at each reset) stay in step.
        actions = raw.sample_actions()
        assert np.array_equal(batch_of(env).sample_actions(), actions)
        actors = raw.current_player.copy()
        raw.step(actions)
        observation, reward, terminated, truncated, info = env.step(actions)
        assert np.array_equal(observation, raw.observation)
        assert np.array_equal(terminated, raw.terminated)
        assert np.array_equal(truncated, raw.truncated)
        assert np.array_equal(info["current_player"], raw.current_player)
        assert np.array_equal(info["legal_action_mask"], raw.legal_action_mask)
        assert np.array_equal(info["rewards"], raw.rewards)
        assert np.array_equal(info["winner"], raw.winner)
        if game == "Havannah":
            assert np.array_equal(info["structures"], raw.structures)
            assert np.all((info["structures"] != 0) == (terminated & (info["winner"] >= 0)))
        else:
            assert "structures" not in info
        assert reward.shape == (64,) and reward.dtype == np.float32
        assert np.array_equal(reward, _actor_rewards(raw.rewards, actors))
        # A legal move that ends the game wins it for the seat that played.
        won = terminated & (info["winner"] >= 0)
        assert np.all(reward[won] == 1) and np.all(info["winner"][won] == actors[won])
        assert np.all(reward[~terminated] == 0)
        if mode == "same-step":
            assert np.array_equal(info["_final_obs"], raw.final_mask)
            assert np.array_equal(info["_final_obs"], terminated)
            assert np.array_equal(info["final_obs"][terminated],
                                  raw.final_observation[terminated])
        else:
            assert "final_obs" not in info
        ended += int(terminated.sum())
        wins += int(won.sum())
    assert ended > 50 and wins > 0


def test_an_illegal_move_costs_its_player(gymnasium):
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=4, size=4, seed=2)
    env.reset()
    env.step(np.array([0, 1, 2, 3]))
    *_, info = env.step(np.array([5, 6, 7, 8]))
    actors = info["current_player"].copy()
    # The first move's cells again: taken, so illegal.
    observation, reward, terminated, _, info = env.step(np.array([0, 1, 2, 3]))
    assert np.all(terminated)
    assert np.all(reward == -1)
    assert np.array_equal(info["winner"], 1 - actors)


@pytest.mark.parametrize("game, kwargs, cells", [("Hex", {"size": 4}, [0, 1, 2, 3]),
                                                 ("Havannah", {"base": 3}, [6, 7, 8, 12])])
@pytest.mark.parametrize("mode", ["next-step", "same-step", "disabled"])
def test_an_illegal_move_costs_its_player_in_every_game_and_mode(gymnasium, game, kwargs, cells,
                                                                 mode):
    """Havannah's forfeit leaves its mover as it was (Hex's passes the turn,
    as pgx): the reward is the seat's that played either way."""
    env = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=4, seed=2, autoreset=mode, **kwargs)
    _, info = env.reset()
    env.step(np.array(cells))
    *_, info = env.step(np.array(cells[1:] + cells[:1]) + 10)
    actors = info["current_player"].copy()
    # The first move's cells again: taken, so illegal.
    observation, reward, terminated, _, info = env.step(np.array(cells))
    assert np.all(terminated)
    assert np.all(reward == -1)
    assert np.array_equal(info["winner"], 1 - actors)


@pytest.mark.parametrize("game, kwargs", [("Hex", {"size": 5}), ("Havannah", {"base": 3})])
def test_reward_wrappers_change_the_reward_in_place(gymnasium, game, kwargs):
    """Gymnasium's ClipReward (a VectorizeTransformReward) writes into the
    reward it is handed; what it writes does not reach the next step's."""
    from gymnasium.wrappers.vector import ClipReward, VectorizeTransformReward
    from gymnasium.wrappers import TransformReward

    env = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=64, seed=3, **kwargs)
    clipped = ClipReward(env, -0.5, 0.5)
    shifted = VectorizeTransformReward(
        gymnasium.make_vec(f"havhex/{game}-v0", num_envs=64, seed=3, **kwargs),
        TransformReward, func=lambda r: r - 0.25)
    clipped.reset(seed=3)
    shifted.reset(seed=3)
    seen = 0
    for _ in range(100):
        actions = batch_of(env).sample_actions()
        assert np.array_equal(batch_of(shifted).sample_actions(), actions)
        _, reward, terminated, _, info = clipped.step(actions)
        _, moved, _, _, _ = shifted.step(actions)
        assert reward.dtype == np.float32 and reward.flags.writeable
        assert np.all(reward[~terminated] == 0)
        assert np.all(np.isin(reward[terminated], (-0.5, 0, 0.5)))       # 0: a draw
        assert np.allclose(moved, np.where(terminated, reward * 2, 0) - 0.25)
        seen += int(terminated.sum())
    assert seen > 0


@pytest.mark.parametrize("game, kwargs", [("Hex", {"size": 5}), ("Havannah", {"base": 3})])
def test_render_modes(gymnasium, game, kwargs):
    env = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=3, seed=1, render_mode="ansi",
                             **kwargs)
    assert env.render_mode == "ansi"
    assert env.metadata["render_modes"] == ["ansi", "rgb_array"]
    env.reset()
    env.step(batch_of(env).sample_actions())
    texts = env.render()
    assert isinstance(texts, tuple) and len(texts) == 3
    for game_index, text in enumerate(texts):
        assert isinstance(text, str) and text.endswith("to move\n")
        # One letter a stone: one stone a game after one step.
        board = text.splitlines()[:-1]
        assert sum(line.count(letter) for line in board for letter in batch_of(env)._LETTERS) == 1
        assert text == batch_of(env).render(game_index)
    images = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=2, seed=1,
                                render_mode="rgb_array", **kwargs)
    images.reset()
    frames = images.render()
    assert len(frames) == 2
    for frame in frames:
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert gymnasium.make_vec(f"havhex/{game}-v0", num_envs=2, **kwargs).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        gymnasium.make_vec(f"havhex/{game}-v0", num_envs=2, render_mode="human", **kwargs)


def test_the_arrays_are_read_only_and_copy_makes_them_the_callers(gymnasium):
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=3, size=5, seed=1)
    observation, info = env.reset()
    with pytest.raises(ValueError):
        observation[0, 0, 0, 0] = True
    kept = observation.copy()
    step = env.step(batch_of(env).sample_actions())
    # The same arrays, updated in place: what the docs tell to copy.
    assert step[0] is observation or np.shares_memory(step[0], observation)
    assert not np.array_equal(observation, kept)
    copied = gymnasium.make_vec("havhex/Hex-v0", num_envs=3, size=5, seed=1, copy=True)
    first, _ = copied.reset()
    first[0, 0, 0, 0] = True        # the caller's own
    second = copied.step(batch_of(copied).sample_actions())[0]
    assert not np.shares_memory(first, second)
    assert not np.shares_memory(second, batch_of(copied).observation)


def test_disabled_mode_resets_by_mask(gymnasium):
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=8, size=3, seed=4, autoreset="disabled")
    env.reset()
    batch = batch_of(env)
    for _ in range(30):
        if batch.terminated.any():
            break
        env.step(batch.sample_actions())
    ended = batch.terminated.copy()
    assert ended.any()
    # A game that has ended takes no step until it is reset.
    with pytest.raises(ValueError):
        env.step(batch.sample_actions())
    observation, info = env.reset(options={"reset_mask": ended})
    assert not batch.terminated.any()
    assert np.all(observation[ended][..., :2].sum(axis=(1, 2, 3)) == 0)
    env.step(batch.sample_actions())


def test_gymnasium_wrappers_take_it(gymnasium):
    """A wrapper of Gymnasium's that sums rewards per game reads the (n,)
    rewards and the ends."""
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=16, size=3, seed=9)
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    env.reset(seed=1)
    episodes = 0
    for _ in range(60):
        _, _, terminated, _, info = env.step(env.unwrapped.batch.sample_actions())
        if "episode" in info:
            returns = info["episode"]["r"][info["_episode"]]
            assert set(np.unique(returns)) <= {1.0, -1.0}
            episodes += int(info["_episode"].sum())
    assert episodes > 16


def test_the_module_imports_without_gymnasium_and_says_what_to_install():
    code = ("import sys\n"
            "sys.modules['gymnasium'] = None\n"
            "import havhex.gymnasium as g\n"
            "for make in (lambda: g.VectorEnv('hex', 2), lambda: g.HexVectorEnv(2)):\n"
            "    try:\n"
            "        make()\n"
            "    except ImportError as e:\n"
            "        print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all('pip install "havhex[gymnasium]"' in line for line in lines)


@pytest.mark.parametrize("actions", [np.zeros(3, np.int64), np.zeros((4, 1), np.int64),
                                     np.full(4, 26), np.full(4, -1), np.zeros(4, np.float32)])
def test_bad_actions_raise_and_change_nothing(gymnasium, actions):
    env = gymnasium.make_vec("havhex/Hex-v0", num_envs=4, size=5, seed=6)
    env.reset()
    observation, reward, terminated, _, info = env.step(batch_of(env).sample_actions())
    before = [observation.copy(), reward.copy(), terminated.copy(),
              info["current_player"].copy(), info["legal_action_mask"].copy()]
    with pytest.raises((TypeError, ValueError)):
        env.step(actions)
    after = [batch_of(env).observation, reward, batch_of(env).terminated,
             batch_of(env).current_player, batch_of(env).legal_action_mask]
    for old, new in zip(before, after):
        assert np.array_equal(old, new)


def test_threads_give_the_same_games(gymnasium):
    """The batch's promise, through the adapter: the same seed, the same
    games on one thread and on two."""
    runs = []
    for threads in (1, 2):
        env = gymnasium.make_vec("havhex/Hex-v0", num_envs=1024, size=5, seed=8, threads=threads)
        env.reset(seed=8)
        rewards = []
        for _ in range(40):
            step = env.step(batch_of(env).sample_actions())
            rewards.append(step[1].copy())
        runs.append((step[0].copy(), np.array(rewards)))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])
    assert np.abs(runs[0][1]).sum() > 100


def test_a_gymnasium_without_autoreset_modes_is_named_too_old():
    """Gymnasium 1.0 has vector environments but no AutoresetMode: the
    module imports, registers nothing, and says to upgrade."""
    needs.module("gymnasium")
    code = ("import gymnasium.vector\n"
            "del gymnasium.vector.AutoresetMode\n"
            "import havhex.gymnasium as g\n"
            "print('havhex/Hex-v0' in gymnasium.registry)\n"
            "try:\n"
            "    g.VectorEnv('hex', 2)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    registered, message = done.stdout.splitlines()
    assert registered == "False"
    assert "Gymnasium 1.1 or later" in message and "--upgrade" in message


def test_vector_env_makes_a_batch_of_the_game_with_its_own_defaults(gymnasium):
    """VectorEnv(game, num_envs, ...): the arguments after the number of
    games are the game's batch's, positional ones too, and what is not
    given is the batch's default."""
    from havhex.gymnasium import VectorEnv

    hex_env = VectorEnv("hex")
    assert hex_env.num_envs == 1 and hex_env.game == "hex"
    assert (hex_env.batch.rows, hex_env.batch.cols, hex_env.batch.swap) == (11, 11, True)
    assert hex_env.batch.autoreset == "next-step" and not hex_env.copy
    havannah_env = VectorEnv("havannah", 3)
    assert havannah_env.num_envs == 3
    batch = havannah_env.batch
    assert (batch.base, batch.rule, batch.swap) == (8, "official", False)
    assert VectorEnv("hex", 2, 5).batch.rows == 5
    assert VectorEnv("havannah", 2, 4, rule="contest").batch.rule == "contest"
    sized = VectorEnv("hex", 2, size=4, cols=6, swap=False, autoreset="same-step", copy=True)
    assert (sized.batch.rows, sized.batch.cols, sized.batch.autoreset) == (4, 6, "same-step")
    assert sized.copy
    enum = VectorEnv("hex", 2, 3, autoreset=gymnasium.vector.AutoresetMode.DISABLED)
    assert enum.batch.autoreset == "disabled"


def test_a_game_not_there_or_without_a_batch_is_refused(gymnasium, other_game):
    from havhex import games
    from havhex.gymnasium import VectorEnv, register

    with pytest.raises(games.UnknownGame):
        VectorEnv("chess", 2)
    other_game.batch = None
    with pytest.raises(ValueError, match="otherhex has no batched environment"):
        VectorEnv("otherhex", 2)
    # Nor is it registered with Gymnasium.
    assert "havhex/OtherHex-v0" not in register()
    assert "havhex/OtherHex-v0" not in gymnasium.registry


def test_a_game_registered_at_run_time_gets_a_vector_env(gymnasium, other_game):
    """A game the registry gains at run time, with a batch: VectorEnv makes
    it by name, register() gives it its id (its title as one word), and
    make_vec finds it there."""
    import havhex.gymnasium as adapter

    env_id = "havhex/OtherHex-v0"
    assert env_id not in gymnasium.registry
    try:
        env = adapter.VectorEnv("otherhex", 4, size=5, seed=2)
        assert env.game == "otherhex" and env.batch.rows == 5
        assert adapter.env_id("otherhex") == env_id
        ids = adapter.register()
        assert ids[-1] == env_id and set(adapter.ENV_IDS) <= set(ids)
        assert gymnasium.registry[env_id].kwargs == {"game": "otherhex"}
        made = gymnasium.make_vec(env_id, num_envs=4, size=5, seed=2)
        assert made.unwrapped.game == "otherhex" and made.num_envs == 4
        assert made.single_observation_space.shape == (5, 5, 4)
        observation, _ = made.reset(seed=1)
        env.reset(seed=1)
        actions = env.batch.sample_actions()
        assert np.array_equal(made.unwrapped.batch.sample_actions(), actions)
        assert np.array_equal(made.step(actions)[0], env.step(actions)[0])
        # Its deprecated class of one game too, found by its title.
        with pytest.warns(DeprecationWarning, match=r"VectorEnv\('otherhex'"):
            one_game = adapter.OtherHexVectorEnv
        assert one_game(2, 3).batch.rows == 3
    finally:
        gymnasium.registry.pop(env_id, None)
        adapter._deprecated.pop("OtherHexVectorEnv", None)


# The deprecated classes: name, game, the batch's defaults they keep, a
# positional size and what it sets.
DEPRECATED = [
    ("HexVectorEnv", "hex", {"rows": 11, "cols": 11, "swap": True}, 5, "rows"),
    ("HavannahVectorEnv", "havannah", {"base": 8, "rule": "official", "swap": False}, 3, "base"),
]


@pytest.mark.parametrize("name, game, defaults, size, field", DEPRECATED)
def test_the_deprecated_classes_warn_and_make_the_games_vector_env(gymnasium, name, game,
                                                                   defaults, size, field):
    import havhex.gymnasium as adapter

    with pytest.warns(DeprecationWarning, match=rf"havhex\.gymnasium\.{name} is deprecated: "
                                                rf"use havhex\.gymnasium\.VectorEnv\('{game}'"
                      ) as caught:
        made = getattr(adapter, name)
    # The warning points at the caller's line.
    assert caught[0].filename == __file__
    assert made.__name__ == name and made.__module__ == "havhex.gymnasium"
    assert issubclass(made, adapter.VectorEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        # One class a name, whichever way it is reached.
        namespace = {}
        exec(f"from havhex.gymnasium import {name} as again", namespace)
        assert namespace["again"] is made
    env = made()
    assert env.game == game and env.num_envs == 1
    assert {key: getattr(env.batch, key) for key in defaults} == defaults
    assert getattr(made(2, size).batch, field) == size
    # The same games as the new class's of the same arguments.
    old, new = made(16, size, seed=4), adapter.VectorEnv(game, 16, size, seed=4)
    assert np.array_equal(old.reset(seed=4)[0], new.reset(seed=4)[0])
    for _ in range(20):
        actions = new.batch.sample_actions()
        assert np.array_equal(old.batch.sample_actions(), actions)
        for one, other in zip(old.step(actions), new.step(actions)):
            if isinstance(one, dict):
                assert one.keys() == other.keys()
                assert all(np.array_equal(one[key], other[key]) for key in one)
            else:
                assert np.array_equal(one, other)


def test_other_names_are_not_found(gymnasium):
    import havhex.gymnasium as adapter

    for name in ("ChessVectorEnv", "VectorEnvs", "hexVectorEnv", "__path__"):
        assert not hasattr(adapter, name), name
    with pytest.raises(AttributeError, match="has no attribute 'ChessVectorEnv'"):
        adapter.ChessVectorEnv
