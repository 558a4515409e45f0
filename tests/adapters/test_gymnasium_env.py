"""havhex.gymnasium: the batches as Gymnasium vector environments, found by
``gymnasium.make_vec``, handing out what the batch holds (EnvPool's info
keys), the reward of the seat that played, and Gymnasium's three auto-reset
modes."""
import importlib
import subprocess
import sys

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
    from havhex.gymnasium import HavannahVectorEnv, HexVectorEnv

    hex_env = gymnasium.make_vec("havhex/Hex-v0", num_envs=6, seed=3, size=7)
    assert isinstance(hex_env.unwrapped, HexVectorEnv)
    assert isinstance(hex_env.unwrapped, gymnasium.vector.VectorEnv)
    assert hex_env.num_envs == 6
    assert hex_env.single_observation_space.shape == (7, 7, 4)
    assert hex_env.single_observation_space.dtype == np.bool_
    assert hex_env.observation_space.shape == (6, 7, 7, 4)
    assert hex_env.single_action_space == gymnasium.spaces.Discrete(50)
    assert hex_env.action_space.shape == (6,)
    assert hex_env.spec.id == "havhex/Hex-v0"
    havannah_env = gymnasium.make_vec("havhex/Havannah-v0", num_envs=5, base=4, seed=3)
    assert isinstance(havannah_env.unwrapped, HavannahVectorEnv)
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
    assert done.stdout.split() == ["HexVectorEnv", "3"]


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
            "try:\n"
            "    g.HexVectorEnv(2)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert 'pip install "havhex[gymnasium]"' in done.stdout


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
    after = [batch_of(env).observation, env.unwrapped._reward, batch_of(env).terminated,
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
            "    g.HexVectorEnv(2)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    registered, message = done.stdout.splitlines()
    assert registered == "False"
    assert "Gymnasium 1.1 or later" in message and "--upgrade" in message
