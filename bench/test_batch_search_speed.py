"""The batched search's speed: havhex.search.BatchSearch's simulations a
second with a trivial evaluator (even priors, value 0), its own cost per
simulation beside the evaluator's, self-play moves a second, the cost's
growth with the simulations, and two threads beside one.

Run: python -m pytest bench/test_batch_search_speed.py --benchmark-only -s
Hex 11x11 and Havannah base 8, from positions a few random moves in
(``PLIES``).  Each benchmark round is one ``search()`` of the whole batch;
``extra_info`` holds the simulations a second, the moves a second (one a
game a search) and the nanoseconds a simulation spends outside the
evaluator.  The two-thread figure alternates one and two threads round by
round (the machine's speed drifts) and reports the median ratio.  mctx's
figures at the same setting are measured by bench/peers/mctx_peer.py in a
venv of its own (JAX is not a dependency of havhex); docs/self-play.md has
both.  None asserts a timing.
"""
import os
import statistics
import time

import pytest

import needs

np = needs.module("numpy")

from havhex.havannah import Batch as HavannahBatch  # noqa: E402
from havhex.hex import Batch as HexBatch  # noqa: E402
from havhex.search import BatchSearch  # noqa: E402

PLIES = 6
ROUNDS = int(os.environ.get("HAVHEX_BATCH_SEARCH_ROUNDS", "3"))
# The largest batch, which CI lowers to keep its run short.
LARGEST = int(os.environ.get("HAVHEX_BATCH_SEARCH_LARGEST", "4096"))


class Timed:
    """A trivial evaluator that keeps the seconds spent inside it."""

    def __init__(self):
        self.seconds = 0.0

    def __call__(self, observations, masks):
        start = time.perf_counter()
        answer = np.zeros(masks.shape, np.float32), np.zeros(len(masks), np.float32)
        self.seconds += time.perf_counter() - start
        return answer


def make_batch(game, n):
    batch = HexBatch(n, 11, seed=1) if game == "hex" else HavannahBatch(n, 8, seed=1)
    for _ in range(PLIES):
        batch.step(batch.sample_actions())
    return batch


def measure(benchmark, game, n, simulations, rule, threads=1):
    batch = make_batch(game, n)
    evaluator = Timed()
    search = BatchSearch(batch, simulations=simulations, evaluator=evaluator, rule=rule,
                         threads=threads, seed=1)
    search.search()             # the pool's pages touched once
    evaluator.seconds = 0.0
    benchmark.pedantic(search.search, rounds=ROUNDS, iterations=1)
    stats = getattr(benchmark, "stats", None)
    if stats is None or not stats.stats.data:       # --benchmark-disable
        return None
    seconds = stats.stats.median
    total = sum(stats.stats.data)
    live = int((~batch.terminated).sum())
    info = benchmark.extra_info
    info["simulations_per_second"] = live * simulations / seconds
    info["moves_per_second"] = live / seconds
    info["evaluator_share"] = evaluator.seconds / total
    info["ns_per_simulation_beyond_evaluator"] = (
        (total - evaluator.seconds) / (ROUNDS * live * simulations) * 1e9)
    print(f"\n{game} batch {n} {simulations} simulations {rule} threads {threads}: "
          f"{info['simulations_per_second'] / 1e6:.2f} M simulations/s, "
          f"{info['moves_per_second']:.0f} moves/s, evaluator {info['evaluator_share']:.0%}, "
          f"{info['ns_per_simulation_beyond_evaluator']:.0f} ns a simulation beside it")
    return info


@pytest.mark.parametrize("rule", ["gumbel", "puct"])
@pytest.mark.parametrize("n", [n for n in (64, 256, 1024, 4096) if n <= LARGEST])
@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_trivial_evaluator(benchmark, game, n, rule):
    measure(benchmark, game, n, 128, rule)


@pytest.mark.parametrize("simulations", [32, 64, 128, 256])
def test_cost_grows_with_the_simulations(benchmark, simulations):
    info = measure(benchmark, "hex", min(1024, LARGEST), simulations, "gumbel")
    if info is not None:
        benchmark.extra_info["ms_per_search"] = (
            min(1024, LARGEST) / info["moves_per_second"] * 1e3)


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_two_threads_against_one(benchmark, game):
    n = min(1024, LARGEST)
    batch = make_batch(game, n)
    searches = {threads: BatchSearch(batch, simulations=64, evaluator=Timed(),
                                     threads=threads, seed=1)
                for threads in (1, 2)}
    for search in searches.values():
        search.search()
    ratios = []

    def alternate():
        seconds = {}
        for threads in (1, 2):
            start = time.perf_counter()
            searches[threads].search()
            seconds[threads] = time.perf_counter() - start
        ratios.append(seconds[1] / seconds[2])

    benchmark.pedantic(alternate, rounds=max(ROUNDS, 5), iterations=1)
    benchmark.extra_info["two_threads_over_one"] = statistics.median(ratios)
    print(f"\n{game} batch {n}: two threads {statistics.median(ratios):.2f}x one "
          f"(rounds {[round(r, 2) for r in ratios]})")
