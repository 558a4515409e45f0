"""Benchmark inputs, generated once per session into a temporary folder."""
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
# tests/support/needs.py: the benchmarks skip for a missing dependency or
# data as the tests do (HAVHEX_REQUIRE makes such a skip a failure).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

import generate  # noqa: E402
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
