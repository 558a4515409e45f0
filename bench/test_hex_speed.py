"""Hex speed: parsing, kernel, API and CLI beside the plain-Python baseline.

Run: python -m pytest bench --benchmark-only
Each benchmark checks its answers against the baseline; none asserts a timing.
"""
import os

import pytest

import needs
import baseline
from conftest import child_peak_rss_mb, run_cli
from havhex import hex as hex_judge
from havhex.hex import _judge as hex_engine

KINDS = ["hex-games", "hex-rows", "hex-big"]


@pytest.fixture(scope="module")
def expected(bench_input):
    return {kind: baseline.hex_judge_text(bench_input(kind).read_text()) for kind in KINDS}


def _parsed(path):
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return hex_engine.parse(descriptor)
    finally:
        os.close(descriptor)


@pytest.mark.parametrize("kind", KINDS)
def test_hex_parse(benchmark, bench_input, kind):
    path = bench_input(kind)
    parsed = benchmark(_parsed, path)
    assert parsed.err_code == 0
    assert parsed.n_cases == len(baseline.hex_parse(path.read_text()))


@pytest.mark.parametrize("kind", KINDS)
def test_hex_kernel(benchmark, bench_input, expected, kind):
    parsed = _parsed(bench_input(kind))
    benchmark(parsed.judge)
    statuses, _ = parsed.verdict_codes()
    assert [hex_judge.STATUSES[code] for code in statuses] == expected[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_hex_api(benchmark, bench_input, expected, kind):
    results = benchmark(hex_judge.judge_file, bench_input(kind))
    assert [str(result) for result in results] == expected[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_hex_baseline(benchmark, bench_input, expected, kind):
    text = bench_input(kind).read_text()
    got = benchmark.pedantic(baseline.hex_judge_text, (text,), rounds=2, iterations=1)
    assert got == expected[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_hex_cli(benchmark, bench_input, expected, kind):
    """Through the CLI in a subprocess; compare with test_interpreter_start."""
    path = bench_input(kind)
    done = benchmark.pedantic(run_cli, ("hex", path), rounds=10, iterations=1)
    assert done.stdout.decode().splitlines() == [
        f"Case #{number}: {status}" for number, status in enumerate(expected[kind], 1)]


def test_hex_cli_official_test_set_2(benchmark):
    """The official large test set, when ../shared/conformance is present."""
    folder = needs.shared("conformance", "hex", need="conformance")
    done = benchmark.pedantic(run_cli, ("hex", folder / "test-set-2.in"), rounds=10, iterations=1)
    assert done.stdout.decode() == (folder / "test-set-2.out").read_text()


def test_hex_big_cli_peak_memory(benchmark, bench_input):
    import sys

    path = bench_input("hex-big")
    peak = benchmark.pedantic(child_peak_rss_mb,
                              ([sys.executable, "-m", "havhex", "hex", str(path)],),
                              rounds=1, iterations=1)
    benchmark.extra_info["peak RSS MB"] = round(peak, 1)
    assert peak > 0
