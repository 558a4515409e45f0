"""Havannah speed: parsing, kernel, API and CLI beside the plain-Python baseline.

Run: python -m pytest bench --benchmark-only
Each benchmark checks its answer (against the baseline), and records moves per
second in extra_info; none asserts a timing.
"""
import os
import statistics
import time

import pytest

import baseline
from conftest import child_peak_rss_mb, interpreter_start, run_cli
from havhex import havannah
from havhex.havannah import _judge as havannah_engine

LIMIT_KINDS = ["havannah-random", "havannah-chains", "havannah-loop"]
# The baseline is too slow for a full run at scale: it judges this many moves
# of each case and the ratio is scaled by moves per second.
SCALE_SLICE = 100_000
# Runs at scale vary by +-20 ms here (memory faults on a shared VM); the
# -j 1 / -j 2 ratio is read from medians of this many runs.
SCALE_ROUNDS = 9


def _expected(path):
    return [havannah.Result._from_engine(bits, move)
            for bits, move in baseline.havannah_judge_text(path.read_text())]


def _parsed(path):
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return havannah_engine.parse(descriptor)
    finally:
        os.close(descriptor)


def _played_moves(results, path):
    """Moves the kernel actually plays: up to each case's win (or all)."""
    total = 0
    for result, (size, moves) in zip(results, baseline.havannah_parse(path.read_text())):
        total += result.move or len(moves)
    return total


@pytest.fixture(scope="module")
def limit_expected(bench_input):
    return {kind: _expected(bench_input(kind)) for kind in LIMIT_KINDS}


@pytest.mark.parametrize("kind", LIMIT_KINDS)
def test_parse(benchmark, bench_input, kind):
    path = bench_input(kind)
    data = path.read_bytes()
    parsed = benchmark(havannah_engine.parse, data)
    assert parsed.err_code == 0 and parsed.n_cases == 20
    benchmark.extra_info["moves"] = parsed.n_moves
    benchmark.extra_info["MB"] = round(len(data) / 1e6, 2)


@pytest.mark.parametrize("kind", LIMIT_KINDS)
def test_kernel(benchmark, bench_input, limit_expected, kind):
    path = bench_input(kind)
    parsed = _parsed(path)
    benchmark(parsed.judge)
    kinds, moves, duplicate = parsed.results()
    got = [havannah.Result._from_engine(b, m) for b, m in zip(kinds, moves)]
    assert got == limit_expected[kind] and duplicate is None
    played = _played_moves(got, path)
    benchmark.extra_info["moves played"] = played
    if benchmark.stats:
        benchmark.extra_info["M moves/s"] = round(played / benchmark.stats.stats.median / 1e6, 1)


@pytest.mark.parametrize("kind", LIMIT_KINDS)
def test_api(benchmark, bench_input, limit_expected, kind):
    path = bench_input(kind)
    results = benchmark(havannah.judge_file, path)
    assert results == limit_expected[kind]


@pytest.mark.parametrize("kind", LIMIT_KINDS)
def test_baseline(benchmark, bench_input, limit_expected, kind):
    """Plain Python, the same algorithm, the same input."""
    path = bench_input(kind)
    text = path.read_text()
    results = benchmark.pedantic(baseline.havannah_judge_text, (text,), rounds=3, iterations=1)
    assert [havannah.Result._from_engine(b, m) for b, m in results] == limit_expected[kind]
    if benchmark.stats:
        played = _played_moves(limit_expected[kind], path)
        benchmark.extra_info["M moves/s"] = round(played / benchmark.stats.stats.median / 1e6, 3)


@pytest.mark.parametrize("kind", LIMIT_KINDS)
def test_cli(benchmark, bench_input, limit_expected, kind):
    """Through the CLI in a subprocess; compare with test_interpreter_start."""
    path = bench_input(kind)
    done = benchmark.pedantic(run_cli, ("havannah", path), rounds=10, iterations=1)
    assert done.stdout.decode() == havannah.format_results(limit_expected[kind])


def test_interpreter_start(benchmark):
    """`python -c pass`: subtract from the CLI figures."""
    benchmark.pedantic(interpreter_start, rounds=10, iterations=1)


# ---------------------------------------------------------------------------
# At scale: 4 cases of S = 10^5, M = 10^6 uniformly random moves (52 MB)
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scale(bench_input):
    path = bench_input("havannah-scale")
    return path, baseline.havannah_parse(path.read_text())


def test_scale_baseline_slice(benchmark, scale):
    """Plain Python on the first SCALE_SLICE moves of every case."""
    _, cases = scale
    sliced = [(size, moves[:SCALE_SLICE]) for size, moves in cases]
    results = benchmark.pedantic(
        lambda: [baseline.havannah_first_win(size, moves) for size, moves in sliced],
        rounds=1, iterations=1)
    expected = [(0, 0) if r.move is None else (r.move, r.move)
                for r in (havannah.first_win(size, moves) for size, moves in sliced)]
    assert [(m, m) for _, m in results] == [(e[1], e[1]) for e in expected]
    if benchmark.stats:
        benchmark.extra_info["M moves/s"] = round(
            len(sliced) * SCALE_SLICE / benchmark.stats.stats.median / 1e6, 3)


def test_scale_parse(benchmark, scale):
    path, cases = scale
    parsed = benchmark.pedantic(_parsed, (path,), rounds=3, iterations=1)
    assert parsed.n_moves == sum(len(moves) for _, moves in cases)


@pytest.mark.parametrize("threads", [1, 2])
def test_scale_kernel(benchmark, scale, threads):
    """The parsed cases judged on 1 and 2 threads: what two threads cost
    each other (fresh tables, shared memory) without reading in the way."""
    path, cases = scale
    parsed = _parsed(path)
    benchmark.pedantic(parsed.judge, (threads,), rounds=3, iterations=1)
    kinds, moves, _ = parsed.results()
    assert list(kinds) == [baseline.havannah_first_win(size, moves)[0] for size, moves in cases]
    if benchmark.stats:
        benchmark.extra_info["M moves/s"] = round(
            parsed.n_moves / benchmark.stats.stats.median / 1e6, 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_scale_api(benchmark, scale, threads):
    """judge_file with 1 and 2 threads: reading and judging, no interpreter start."""
    path, cases = scale
    results = benchmark.pedantic(havannah.judge_file, (path,), {"threads": threads},
                                 rounds=SCALE_ROUNDS, iterations=1)
    assert len(results) == len(cases)
    if benchmark.stats:
        n_moves = sum(len(moves) for _, moves in cases)
        benchmark.extra_info["M moves/s"] = round(n_moves / benchmark.stats.stats.median / 1e6, 2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_scale_cli(benchmark, scale, jobs):
    """End to end through the CLI (interpreter start included)."""
    path, cases = scale
    done = benchmark.pedantic(run_cli, ("havannah", "-j", jobs, path), rounds=SCALE_ROUNDS,
                              iterations=1)
    assert done.stdout.decode().count("\n") == len(cases)
    if benchmark.stats:
        n_moves = sum(len(moves) for _, moves in cases)
        benchmark.extra_info["M moves/s"] = round(n_moves / benchmark.stats.stats.median / 1e6, 2)


def test_scale_cli_alternating(benchmark, scale):
    """-j 1 and -j 2 in turn, a pair a round (the order swapped every other
    round): the machine's drift from one round to the next falls on both
    alike, so their ratio is steadier than that of test_scale_cli[1] and [2],
    which run one after the other."""
    path, cases = scale
    seconds = {1: [], 2: []}
    outputs = set()
    order = [1, 2]

    def pair():
        for jobs in order:
            start = time.perf_counter()
            done = run_cli("havannah", "-j", jobs, path)
            seconds[jobs].append(time.perf_counter() - start)
            outputs.add(done.stdout)
        order.reverse()

    benchmark.pedantic(pair, rounds=SCALE_ROUNDS, iterations=1)
    assert len(outputs) == 1
    assert next(iter(outputs)).decode().count("\n") == len(cases)
    if benchmark.stats:
        one, two = statistics.median(seconds[1]), statistics.median(seconds[2])
        benchmark.extra_info["-j 1 ms"] = round(one * 1e3, 1)
        benchmark.extra_info["-j 2 ms"] = round(two * 1e3, 1)
        benchmark.extra_info["-j 1 / -j 2"] = round(one / two, 2)


def test_scale_cli_peak_memory(benchmark, scale):
    """Peak resident memory of the CLI on the scale input (RUSAGE_CHILDREN)."""
    path, _ = scale
    import sys
    peak = benchmark.pedantic(child_peak_rss_mb,
                              ([sys.executable, "-m", "havhex", "havannah", str(path)],),
                              rounds=1, iterations=1)
    benchmark.extra_info["peak RSS MB"] = round(peak, 1)
    assert peak > 0
