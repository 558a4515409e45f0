"""havhex.havannah.Batch: steps a second.

Run:  python -m pytest bench/test_havannah_batch_speed.py --benchmark-only

* one thread, a batch of 1,024, bases 8 and 10: each round is one
  ``step`` of the whole batch (observation and mask written), its random
  legal actions drawn by ``sample_actions`` before the round, untimed;
* threads: one and two threads at a batch of 4,096, timed in alternation
  (the ratio in extra_info).
Each records its rate in extra_info.  None asserts a timing.
"""
import pytest

import needs

np = needs.module("numpy")

from batch_timing import one_and_two_threads  # noqa: E402
from havhex.havannah.batch import Batch  # noqa: E402

ROUNDS = 2000


def stepping(batch):
    """The pedantic benchmark's setup and target: the actions drawn in the
    setup (untimed), the step timed."""
    actions = np.zeros(batch.num_envs, np.int32)

    def setup():
        batch.sample_actions(actions)
        return (actions,), {}

    return setup, batch.step


@pytest.mark.parametrize("base", [8, 10])
def test_step(benchmark, base):
    batch = Batch(1024, base, seed=1)
    setup, step = stepping(batch)
    for _ in range(200):            # past the first games' short boards
        step(*setup()[0])
    benchmark.pedantic(step, setup=setup, rounds=ROUNDS, iterations=1)
    if benchmark.stats:
        benchmark.extra_info["M steps/s"] = round(
            batch.num_envs / benchmark.stats.stats.median / 1e6, 2)


@pytest.mark.parametrize("base", [8, 10])
def test_two_threads(benchmark, base):
    """One and two threads in alternation, best of several rounds each;
    the ratio in extra_info."""
    n = 4096
    one_and_two_threads(benchmark, lambda threads: Batch(n, base, seed=1, threads=threads), n,
                        np.zeros(n, np.int32))
