"""Batched Hex environments: havhex.hex.Batch beside EnvPool's ``Hex-v1``.

Run: python -m pytest bench/test_batch_speed.py --benchmark-only
Hex 11 x 11, the observation and the mask written at every step, random
legal actions drawn outside the timed step (each benchmark round is one
``step`` of the whole batch).  EnvPool, when installed, is measured in the
same run under the same conditions.  Each benchmark puts its steps a second
in ``extra_info``; the last one prints the ratios and the memory traffic of
the arrays a step writes beside a copy's bandwidth.  None asserts a timing.
"""
import pytest

import needs

np = needs.module("numpy")

from batch_timing import one_and_two_threads  # noqa: E402
from havhex.hex import Batch  # noqa: E402

ROUNDS = 400
_rates = {}


def _record(benchmark, name, n):
    stats = getattr(benchmark, "stats", None)
    if stats is None or not stats.stats.data:       # --benchmark-disable
        return
    rate = n / stats.stats.median
    benchmark.extra_info["steps_per_second"] = rate
    _rates[name] = rate


@pytest.mark.parametrize("n, threads", [(1024, 1), (4096, 1), (4096, 2)])
def test_hex_batch_step(benchmark, n, threads):
    batch = Batch(n, 11, seed=1, threads=threads)
    actions = np.zeros(n, np.int32)
    for _ in range(200):                 # into the middle of games
        batch.step(batch.sample_actions(actions))

    def draw():
        batch.sample_actions(actions)
        return (actions,), {}

    benchmark.pedantic(batch.step, setup=draw, rounds=ROUNDS, iterations=1, warmup_rounds=10)
    assert batch.legal_action_mask.any(axis=1).all()
    _record(benchmark, f"havhex n={n} threads={threads}", n)


def test_two_threads_in_alternation(benchmark):
    """One and two threads at a batch of 4,096, stepped in alternation (the
    ratio the goal names; the separate benchmarks above meet different
    minutes of the machine)."""
    n = 4096
    one, two = one_and_two_threads(benchmark, lambda threads: Batch(n, 11, seed=1,
                                                                   threads=threads),
                                   n, np.zeros(n, np.int32))
    _rates["alternating n=4096 threads=1"] = n / one
    _rates["alternating n=4096 threads=2"] = n / two


@pytest.mark.parametrize("n, threads", [(1024, 1), (1024, 2)])
def test_envpool_hex_step(benchmark, n, threads):
    envpool = needs.module("envpool", need="envpool")
    env = envpool.make("Hex-v1", env_type="gymnasium", num_envs=n, batch_size=n, seed=1,
                       num_threads=threads)
    _, info = env.reset()
    rng = np.random.default_rng(1)
    state = {"info": info}

    def draw():
        mask = state["info"]["legal_action_mask"]
        # A uniformly random legal action a game: the first legal one at a
        # random rank among the game's legal ones.
        scores = rng.random(mask.shape) * mask
        return (scores.argmax(axis=1).astype(np.int32),), {}

    def step(actions):
        state["info"] = env.step(actions)[-1]

    benchmark.pedantic(step, setup=draw, rounds=max(20, ROUNDS // 20), iterations=1,
                       warmup_rounds=2)
    _record(benchmark, f"envpool n={n} threads={threads}", n)


# What a step writes: the observation (cells * 4 bytes), the mover, the
# rewards, the end and winner flags, and a few bytes of the mask.
WRITTEN = 121 * 4 + 4 + 8 + 1 + 1 + 2


@pytest.mark.parametrize("nbytes", [1024 * WRITTEN, 64 << 20], ids=["batch-arrays", "64MB"])
def test_copy_bandwidth(benchmark, nbytes):
    """A NumPy copy of the bytes a step of 1,024 games writes (and of 64 MB,
    beyond the caches): the memory traffic bound the step is compared with."""
    source = np.ones(nbytes, np.uint8)
    target = np.zeros(nbytes, np.uint8)
    benchmark(np.copyto, target, source)
    assert target.all()
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.data:
        _rates[f"copy {nbytes}"] = nbytes / stats.stats.median
        benchmark.extra_info["bytes_per_second"] = nbytes / stats.stats.median


def test_report_ratios_and_memory_traffic(benchmark):
    """Prints what the benchmarks above measured (after them, in one run)."""
    benchmark(lambda: None)
    ours = _rates.get("havhex n=1024 threads=1")
    if ours is None:
        return
    lines = [f"havhex 11x11, batch 1024, 1 thread: {ours / 1e6:.2f} M steps/s"]
    for name, rate in sorted(_rates.items()):
        if not name.startswith("copy"):
            lines.append(f"  {name}: {rate / 1e6:.3f} M steps/s")
    peer = _rates.get("envpool n=1024 threads=1")
    if peer:
        lines.append(f"  ratio to EnvPool Hex-v1 (1 thread, 1024): {ours / peer:.0f}x")
    one = _rates.get("alternating n=4096 threads=1")
    two = _rates.get("alternating n=4096 threads=2")
    if one and two:
        lines.append(f"  threads=2 / threads=1 at 4096, in alternation: {two / one:.2f}x")
    for nbytes, label in ((1024 * WRITTEN, "the step's arrays"), (64 << 20, "64 MB")):
        bandwidth = _rates.get(f"copy {nbytes}")
        if bandwidth:
            lines.append(f"  writes {WRITTEN} B a step = {ours * WRITTEN / 1e9:.2f} GB/s; a copy "
                         f"of {label} writes {bandwidth / 1e9:.2f} GB/s: the step runs at "
                         f"{ours * WRITTEN / bandwidth:.0%} of that bound")
    print("\n" + "\n".join(lines))
