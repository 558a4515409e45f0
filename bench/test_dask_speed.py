"""Dask speed: ``havhex havannah --scheduler`` against a scheduler and two
single-threaded worker processes started here (``dask scheduler``, ``dask
worker ADDRESS --nworkers 2 --nthreads 1``), beside ``-j 1`` without Dask.

Run: python -m pytest bench/test_dask_speed.py --benchmark-only
The input is 40 hard links of the Havannah scale input (4 cases of 10^6
moves, 52 MB); the two commands alternate in one run, and the speed-up is the
ratio of their medians; the same for one input of 8 copies' cases (413 MB),
which the client cuts into runs of whole cases.  Also measured: the
scheduler's overhead per task,
and how long ``--cluster local:2`` takes to start.  Figures go to
extra_info; none asserts a timing (the machine may be shared).  With
benchmarks disabled (``.ci/run`` runs each once) the input is 4 links of a
small one, so that the code runs without the cost.
"""
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

import needs
distributed = needs.module("distributed", need="dask")

ROOT = Path(__file__).resolve().parents[1]
COPIES = 40
ROUNDS = 3


def _disabled(config):
    return bool(config.getoption("benchmark_disable", False))


@pytest.fixture(scope="module")
def scheduler(dask_scheduler):
    return dask_scheduler(workers=2)


@pytest.fixture(scope="module")
def copies(request, input_links):
    if _disabled(request.config):
        return input_links("havannah-random", 4)
    return input_links("havannah-scale", COPIES)


def _timed(args):
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                          capture_output=True, check=True)
    return time.perf_counter() - started, done.stdout


def test_dask_beside_one_core(benchmark, scheduler, copies):
    on_dask, on_one_core = [], []
    expected = []

    def pair():
        seconds, local = _timed(["havannah", "-j", "1", *copies])
        on_one_core.append(seconds)
        seconds, remote = _timed(["havannah", "--scheduler", scheduler, *copies])
        on_dask.append(seconds)
        assert remote == local
        expected.append(local)

    rounds = 1 if benchmark.disabled else ROUNDS
    benchmark.pedantic(pair, rounds=rounds, iterations=1)
    assert expected[0].count(b"\n") == len(copies) * (20 if benchmark.disabled else 4)
    info = benchmark.extra_info
    info["files"] = len(copies)
    info["MB"] = round(sum(path.stat().st_size for path in copies) / 1e6)
    info["-j 1 median s"] = round(statistics.median(on_one_core), 2)
    info["--scheduler median s"] = round(statistics.median(on_dask), 2)
    info["speed-up"] = round(statistics.median(on_one_core) / statistics.median(on_dask), 2)
    info["load average"] = os.getloadavg()[0]


@pytest.fixture(scope="module")
def one_large_file(copies, tmp_path_factory):
    """One input of the cases of 8 copies (32 cases of 10^6 moves, 413 MB),
    which the client cuts into runs of whole cases for the workers."""
    import re

    folder = tmp_path_factory.mktemp("dask-large")
    source = copies[0].read_bytes()
    head = re.match(rb"\s*(\d+)\s", source)
    body = source[head.end():]
    path = folder / "large.in"
    with open(path, "wb") as stream:
        stream.write(b"%d\n" % (8 * int(head.group(1))))
        for _ in range(8):
            stream.write(body if body.endswith(b"\n") else body + b"\n")
    return path


def test_one_large_file_in_byte_ranges(benchmark, scheduler, one_large_file):
    on_dask, on_one_core = [], []

    def pair():
        seconds, local = _timed(["havannah", "-j", "1", one_large_file])
        on_one_core.append(seconds)
        seconds, remote = _timed(["havannah", "--scheduler", scheduler, one_large_file])
        on_dask.append(seconds)
        assert remote == local

    benchmark.pedantic(pair, rounds=1 if benchmark.disabled else ROUNDS, iterations=1)
    info = benchmark.extra_info
    info["MB"] = round(one_large_file.stat().st_size / 1e6)
    info["-j 1 median s"] = round(statistics.median(on_one_core), 2)
    info["--scheduler median s"] = round(statistics.median(on_dask), 2)
    info["speed-up"] = round(statistics.median(on_one_core) / statistics.median(on_dask), 2)
    info["load average"] = os.getloadavg()[0]


def test_scheduler_overhead_per_task(benchmark, scheduler):
    """Empty tasks through the scheduler (``abs``: a builtin, which the
    workers unpickle without this module): the time each costs beside the
    work (a task of havhex.dask judges megabytes, for a second or so)."""
    tasks = 50 if benchmark.disabled else 1000
    with distributed.Client(scheduler, timeout="30s") as client:
        def many():
            futures = client.map(abs, range(tasks), pure=False)
            assert client.gather(futures) == list(range(tasks))

        def one_after_another():
            for value in range(20):
                assert client.submit(abs, value, pure=False).result() == value

        benchmark.pedantic(many, rounds=1 if benchmark.disabled else 5, iterations=1)
        started = time.perf_counter()
        one_after_another()
        single = (time.perf_counter() - started) / 20
    median = benchmark.stats.stats.median if benchmark.stats else 0
    benchmark.extra_info["tasks"] = tasks
    benchmark.extra_info["ms per task (many in flight)"] = round(median / tasks * 1e3, 2)
    benchmark.extra_info["ms per task (one at a time)"] = round(single * 1e3, 2)


def test_local_cluster_start(benchmark):
    """``--cluster local:2`` beside the same command without it: the
    difference is the cluster's start (and stop)."""
    example = ROOT / "examples" / "hex.in"
    plain, clustered = [], []

    def pair():
        plain.append(_timed(["hex", example])[0])
        clustered.append(_timed(["hex", "--cluster", "local:2", example])[0])

    benchmark.pedantic(pair, rounds=1 if benchmark.disabled else 3, iterations=1)
    benchmark.extra_info["plain s"] = round(statistics.median(plain), 2)
    benchmark.extra_info["--cluster local:2 s"] = round(statistics.median(clustered), 2)
    benchmark.extra_info["start s"] = round(statistics.median(clustered)
                                            - statistics.median(plain), 2)
