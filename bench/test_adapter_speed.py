"""The Gymnasium adapter beside the raw batch, in the same run.

Run:  python -m pytest bench/test_adapter_speed.py --benchmark-only
(skips without Gymnasium: pip install ".[gymnasium]").

Hex 11 x 11 and Havannah base 8, a batch of 1,024 games, one thread: the
same steps through ``Batch.step`` and through ``VectorEnv.step`` of the
game (made by ``gymnasium.make_vec``), random legal actions drawn (by
``sample_actions``) outside the timed step.  The two sides step in turn,
one step each (the best of several rounds, in CPU time), so that a busy
machine slows both alike; extra_info holds both rates and the adapter's cost over the
batch.  None asserts a timing.
"""
import importlib
import time

import pytest

import needs

GAMES = 1024
STEPS = 300
ROUNDS = 5


@pytest.fixture(scope="module")
def gymnasium():
    module = needs.module("gymnasium")
    import havhex.gymnasium  # noqa: F401  (registers the ids)

    return module


def timed_rounds(sides, actions, steps, rounds):
    """Seconds each side spends in its step over ``steps`` steps, the best
    of ``rounds`` rounds.  ``sides`` is ``[(step, batch), ...]``; the sides
    step in turn, one step each, so that a load on the machine falls on
    all alike; the actions are drawn (by the side's own batch, from the
    same random streams) between the timed calls."""
    # CPU time of this thread: a batch on one thread steps in the caller's
    # thread, and another process's turn on the core is not counted.
    clock = time.thread_time
    best = [float("inf")] * len(sides)
    for _ in range(rounds):
        totals = [0.0] * len(sides)
        for _ in range(steps):
            for k, (step, batch) in enumerate(sides):
                batch.sample_actions(actions)
                start = clock()
                step(actions)
                totals[k] += clock() - start
        best = [min(b, t) for b, t in zip(best, totals)]
    return best


@pytest.mark.parametrize("game, kwargs", [("Hex", {"size": 11}), ("Havannah", {"base": 8})])
def test_adapter_cost(benchmark, gymnasium, game, kwargs):
    np = needs.module("numpy")
    Batch = importlib.import_module(f"havhex.{game.lower()}.batch").Batch

    raw = Batch(GAMES, seed=1, **kwargs)
    env = gymnasium.make_vec(f"havhex/{game}-v0", num_envs=GAMES, seed=1, **kwargs)
    env.reset(seed=1)
    adapted = env.unwrapped.batch
    actions = np.zeros(GAMES, np.int32)

    def measure():
        return timed_rounds([(raw.step, raw), (env.step, adapted)], actions, STEPS, ROUNDS)

    raw_time, adapter_time = benchmark.pedantic(measure, rounds=1, iterations=1)
    steps = GAMES * STEPS
    benchmark.extra_info["batch M steps/s"] = round(steps / raw_time / 1e6, 2)
    benchmark.extra_info["adapter M steps/s"] = round(steps / adapter_time / 1e6, 2)
    benchmark.extra_info["adapter cost %"] = round((adapter_time / raw_time - 1) * 100, 1)
    benchmark.extra_info["adapter us per step call"] = round(
        (adapter_time - raw_time) / STEPS * 1e6, 2)
