"""Benchmark inputs, generated once per session into a temporary folder, and
a Dask scheduler with its workers, started once per session."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
# tests/support/needs.py: the benchmarks skip for a missing dependency or
# data as the tests do (HAVHEX_REQUIRE makes such a skip a failure).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

import generate  # noqa: E402
import needs  # noqa: E402
import records_data  # noqa: E402

_cache = {}


@pytest.fixture(scope="session")
def bench_input(tmp_path_factory):
    """Path of a generated input by kind (see bench/generate.py)."""
    folder = tmp_path_factory.mktemp("bench-inputs")

    def make(kind):
        if kind not in _cache:
            path = folder / f"{kind}.in"
            path.write_text(generate.generate(kind))
            _cache[kind] = path
        return _cache[kind]

    return make


@pytest.fixture(scope="session")
def input_links(bench_input, tmp_path_factory):
    """``input_links(kind, count)``: ``count`` hard links of one generated
    input (the same bytes under as many names, at the cost of one)."""
    def make(kind, count):
        source = bench_input(kind)
        folder = tmp_path_factory.mktemp(f"{kind}-links")
        paths = []
        for number in range(count):
            paths.append(folder / f"{kind}-{number:02d}.in")
            os.link(source, paths[-1])
        return paths

    return make


@pytest.fixture(scope="session")
def hex_records(tmp_path_factory):
    """Path of an SGF collection of random 11 x 11 Hex games (see
    bench/records_data.py), written once per session and number of games."""
    folder = tmp_path_factory.mktemp("bench-records")

    def make(games=100_000, seed=2014):
        key = ("hex-records", games, seed)
        if key not in _cache:
            _cache[key] = records_data.write(folder / f"hex-{games}-{seed}.sgf", games, seed)
        return _cache[key]

    return make


def run_cli(*args):
    """``python -m havhex ARGS``; returns the CompletedProcess (output captured)."""
    return subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                          capture_output=True, check=True)


def interpreter_start():
    return subprocess.run([sys.executable, "-c", "pass"], check=True)


def child_peak_rss_mb(function):
    """Run ``function`` (which starts one child) in a fresh process and return
    that child's peak resident memory in MB, via RUSAGE_CHILDREN."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *function], capture_output=True,
                         check=True, text=True)
    return int(out.stdout) / 1024


@pytest.fixture(scope="session")
def dask_scheduler(tmp_path_factory):
    """``dask_scheduler(workers=N)``: the address of a scheduler with N
    single-threaded worker processes, each started as docs/dask.md says
    (``dask scheduler``, ``dask worker ADDRESS --nworkers N --nthreads 1``),
    started once per count and stopped at the end of the session."""
    distributed = needs.module("distributed", need="dask")
    addresses = {}
    started = []

    def start(workers=2):
        if workers in addresses:
            return addresses[workers]
        folder = tmp_path_factory.mktemp("dask-cluster")
        address_file = folder / "scheduler.json"
        # ``python -m dask``: the ``dask`` command of this interpreter.
        dask = [sys.executable, "-m", "dask"]
        started.append(subprocess.Popen(
            dask + ["scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--dashboard-address", ":0", "--scheduler-file", str(address_file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        while not address_file.exists() or not address_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        started.append(subprocess.Popen(
            dask + ["worker", address, "--nworkers", str(workers), "--nthreads", "1",
                    "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(workers, timeout=60)
        addresses[workers] = address
        return address

    try:
        yield start
    finally:
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
