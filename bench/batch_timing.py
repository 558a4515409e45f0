"""Timing shared by the batches' benchmarks: one and two threads stepped
in alternation, so that both meet the same minute of the machine."""
import time


def timed_steps(batch, actions, rounds):
    """Seconds spent in ``batch.step`` over ``rounds`` steps, the random
    legal actions drawn outside the timing."""
    total = 0.0
    for _ in range(rounds):
        batch.sample_actions(actions)
        start = time.perf_counter()
        batch.step(actions)
        total += time.perf_counter() - start
    return total


def one_and_two_threads(benchmark, make, n, actions, steps=20, rounds=10):
    """Batches of ``n`` games made by ``make(threads)`` on one and two
    threads, stepped ``steps`` at a time in alternation for ``rounds``
    rounds; the best step time of each, the rates and their ratio in the
    benchmark's extra_info.  Returns (best one-thread, best two-thread)
    seconds a step."""
    batches = {threads: make(threads) for threads in (1, 2)}
    for batch in batches.values():
        timed_steps(batch, actions, 100)            # into the middle of games
    best = {1: float("inf"), 2: float("inf")}

    def alternate():
        for threads, batch in batches.items():
            best[threads] = min(best[threads], timed_steps(batch, actions, steps) / steps)

    benchmark.pedantic(alternate, rounds=rounds, iterations=1)
    benchmark.extra_info["M steps/s, 1 thread"] = round(n / best[1] / 1e6, 2)
    benchmark.extra_info["M steps/s, 2 threads"] = round(n / best[2] / 1e6, 2)
    benchmark.extra_info["ratio"] = round(best[1] / best[2], 2)
    return best[1], best[2]
