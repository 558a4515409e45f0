"""Replaying records: games/s and moves/s for the CLI (-j 1 and -j 2) and the
API, on a collection of random 11 x 11 Hex games (bench/records_data.py) and
on the Little Golem Havannah folder.

The two CLI runs alternate round by round, so that a busy moment of the
machine slows both; their ratio is the figure to read.  With
--benchmark-disable (CI runs every benchmark once as a test) the collection
is 2,000 games instead of 100,000.
"""
import subprocess
import sys
import time
from pathlib import Path

import needs
LITTLE_GOLEM = Path(__file__).resolve().parents[1].parent / "shared" / "records" / "littlegolem-havannah"


def games_for(request):
    return 2_000 if request.config.getoption("benchmark_disable") else 100_000


def replay_cli(*args):
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "havhex", "replay", "--quiet", *map(str, args)],
                          capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def interpreter_start():
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


# The machine's own parallelism, measured in the same rounds: a pure Python
# loop run twice in one process, then once in each of two processes.
SPIN = """
import sys, time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing

def spin(n):
    total = 0
    for i in range(n):
        total += i * i
    return total

if __name__ == "__main__":
    n = int(sys.argv[1])
    start = time.perf_counter()
    spin(n), spin(n)
    serial = time.perf_counter() - start
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        start = time.perf_counter()
        list(pool.map(spin, [n, n]))
        parallel = time.perf_counter() - start
    print(serial / parallel)
"""


def machine_ratio(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(SPIN)
    done = subprocess.run([sys.executable, str(script), "5000000"], capture_output=True,
                          text=True, check=True)
    return float(done.stdout)


def moves_of(path):
    from havhex import records

    replays = list(records.replay(path))
    return len(replays), sum(replayed.moves for replayed in replays)


def test_replay_cli_jobs(benchmark, hex_records, request, tmp_path):
    """havhex replay -j 1 and -j 2 on the Hex collection, alternating; the
    interpreter's own start and what two processes give a pure Python loop
    on this machine are measured in the same rounds and reported."""
    path = hex_records(games_for(request))
    games, moves = moves_of(path)
    rounds = 1 if request.config.getoption("benchmark_disable") else 9
    times = {"1": [], "2": [], "start": [], "machine": []}
    outputs = {}

    def measure():
        for _ in range(rounds):
            for jobs in ("1", "2"):
                elapsed, outputs[jobs] = replay_cli("-j", jobs, path)
                times[jobs].append(elapsed)
            times["start"].append(interpreter_start())
            times["machine"].append(machine_ratio(tmp_path))

    benchmark.pedantic(measure, rounds=1, iterations=1)
    assert outputs["1"] == outputs["2"]
    assert outputs["1"].count(b"\n") == games
    one, two = min(times["1"]), min(times["2"])
    # The machine's speed drifts within seconds: each round's -j 1 and -j 2
    # ran back to back, so the median of the rounds' ratios is the figure.
    ratios = sorted(a / b for a, b in zip(times["1"], times["2"]))
    benchmark.extra_info["-j 2 / -j 1, median of rounds"] = round(ratios[len(ratios) // 2], 2)
    machine = sorted(times["machine"])
    benchmark.extra_info["two processes / one, pure Python loop, median"] = round(
        machine[len(machine) // 2], 2)
    benchmark.extra_info["games"] = games
    benchmark.extra_info["moves"] = moves
    benchmark.extra_info["-j 1 s"] = round(one, 3)
    benchmark.extra_info["-j 2 s"] = round(two, 3)
    benchmark.extra_info["interpreter start s"] = round(min(times["start"]), 3)
    benchmark.extra_info["-j 1 M moves/s"] = round(moves / one / 1e6, 2)
    benchmark.extra_info["-j 1 games/s"] = round(games / one)
    benchmark.extra_info["-j 2 M moves/s"] = round(moves / two / 1e6, 2)
    benchmark.extra_info["-j 2 / -j 1, best times"] = round(one / two, 2)


def test_replay_api(benchmark, hex_records, request):
    """records.replay over the collection, in the benchmark's process."""
    from havhex import records

    path = hex_records(games_for(request))
    result = benchmark.pedantic(lambda: sum(r.moves for r in records.replay(path)),
                                rounds=3, iterations=1)
    seconds = benchmark.stats.stats.min if benchmark.stats else None
    assert result > 0
    if seconds:
        benchmark.extra_info["M moves/s"] = round(result / seconds / 1e6, 2)
        benchmark.extra_info["games/s"] = round(games_for(request) / seconds)


def test_cut_walk_blocks_beside_bytes(benchmark, hex_records, request):
    """The walk that cuts a collection for replay -j (``game_ranges``) over
    the Hex collection, passing over 16-byte blocks and byte by byte,
    alternating in each round; both must give the same cuts."""
    from havhex.records import _reader

    data = hex_records(games_for(request)).read_bytes()
    seconds = {True: [], False: []}
    cuts = {}

    def one_round():
        for blocks in (True, False):
            if _reader.set_block_walk(blocks) != blocks:
                continue                # no block walk on this CPU
            start = time.perf_counter()
            cuts[blocks] = _reader.game_ranges(memoryview(data), 64)
            seconds[blocks].append(time.perf_counter() - start)

    try:
        benchmark.pedantic(one_round, rounds=1 if benchmark.disabled else 15, iterations=1)
    finally:
        _reader.set_block_walk(True)
    assert len(cuts[False]) > 2
    if seconds[True]:
        assert cuts[True] == cuts[False]
        ratios = sorted(b / a for a, b in zip(seconds[True], seconds[False]))
        benchmark.extra_info["blocks GB/s, best"] = round(len(data) / min(seconds[True]) / 1e9, 2)
        benchmark.extra_info["bytes / blocks, median of rounds"] = round(
            ratios[len(ratios) // 2], 2)
    benchmark.extra_info["bytes GB/s, best"] = round(len(data) / min(seconds[False]) / 1e9, 2)
    benchmark.extra_info["MB"] = round(len(data) / 1e6, 1)


def test_replay_little_golem(benchmark):
    """The 2,146 Little Golem files, -j 1, through the CLI."""
    needs.shared("records", "littlegolem-havannah", need="records")
    elapsed = []

    def run():
        seconds, output = replay_cli(LITTLE_GOLEM)
        elapsed.append(seconds)
        return output

    output = benchmark.pedantic(run, rounds=3, iterations=1)
    counts = [moves_of(path) for path in sorted(LITTLE_GOLEM.glob("*.hgf"))]
    games = sum(count for count, _ in counts)
    moves = sum(moves for _, moves in counts)
    assert output.count(b"\n") == games
    benchmark.extra_info["games/s"] = round(games / min(elapsed))
    benchmark.extra_info["M moves/s"] = round(moves / min(elapsed) / 1e6, 3)
