"""Parallel scaling: how close havhex's own parallel runs come to what the
machine gives two independent processes.

For the Havannah judge at scale (20 hard links of the scale input, 4 cases
of 10^6 moves each) and for ``havhex replay`` on a collection of random
11 x 11 Hex games (8 files, about 1.7 x 10^7 moves), each round runs, one
after the other:

* ``one process``: ``-j 1`` on every file;
* ``two processes``: two ``-j 1`` commands started together, each on half
  of the files (the machine's own speed-up: what no single command can beat
  without doing less work);
* ``-j 2``: one command on every file;
* ``2 Dask workers``: ``--scheduler`` to a scheduler and two single-threaded
  worker processes started here, as docs/dask.md says.

Rounds alternate the four, so a busy moment of the machine slows all of
them.  The figure that travels between machines is each speed-up over one
process as a fraction of the two processes' speed-up:
``t(two processes) / t(command)``, taken in each round, and its median
over the rounds.  Figures go
to extra_info and are printed; none is asserted (the machine may be
shared), but every command's output must equal the one process's.

Run: python -m pytest bench/test_parallel_scaling.py --benchmark-only -s
(about six minutes for the default 9 rounds; ``HAVHEX_SCALING_ROUNDS``
changes the count, with fewer than 9 this machine's drift shows;
``HAVHEX_SCALING_JUDGE_FILES`` the judge's files, 20 by default, and
``HAVHEX_SCALING_RECORD_FILES`` replay's, 8 by default: a cluster's client
costs the same on any number, a smaller share of more).  With benchmarks disabled (``.ci/run`` runs each once)
the inputs are small, so that the code runs without the cost.
"""
import os
import statistics
import subprocess
import sys
import time

import pytest


JUDGE_FILES = int(os.environ.get("HAVHEX_SCALING_JUDGE_FILES", "20"))
RECORD_FILES = int(os.environ.get("HAVHEX_SCALING_RECORD_FILES", "8"))
GAMES_PER_FILE = 20_000
ROUNDS = int(os.environ.get("HAVHEX_SCALING_ROUNDS", "9"))
COMMANDS = ("one process", "two processes", "-j 2", "2 Dask workers")


def _disabled(config):
    return bool(config.getoption("benchmark_disable", False))


@pytest.fixture(scope="module")
def judge_inputs(request, input_links):
    if _disabled(request.config):
        return input_links("havannah-random", 4)
    return input_links("havannah-scale", JUDGE_FILES)


@pytest.fixture(scope="module")
def record_inputs(request, hex_records):
    games = 200 if _disabled(request.config) else GAMES_PER_FILE
    return [hex_records(games=games, seed=2100 + number) for number in range(RECORD_FILES)]


def _command(program):
    return [sys.executable, "-m", "havhex", *map(str, program)]


def _run_together(programs):
    """Start every command at once; the wall time until the last ends, and
    their outputs joined in order.  Each writes into a file of its own (a
    pipe read one after the other would stop the second command once its
    pipe is full)."""
    import tempfile

    # In memory where there is a tmpfs: a disk's write-back would add its
    # noise to the figures.
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    outputs = [tempfile.TemporaryFile(dir=folder) for _ in programs]
    try:
        started = time.perf_counter()
        processes = [subprocess.Popen(_command(program), stdout=output, stderr=subprocess.PIPE)
                     for program, output in zip(programs, outputs)]
        errors = [process.communicate()[1] for process in processes]
        seconds = time.perf_counter() - started
        for program, process, error in zip(programs, processes, errors):
            assert process.returncode == 0, (program, error.decode(errors="replace"))
        joined = []
        for output in outputs:
            output.seek(0)
            joined.append(output.read())
    finally:
        for output in outputs:
            output.close()
    return seconds, b"".join(joined)


def _programs(command, files, scheduler):
    """What each of COMMANDS runs: a list of argument lists, started together."""
    half = len(files) // 2
    if command == "one process":
        return [["-j", "1", *files]]
    if command == "two processes":
        return [["-j", "1", *files[:half]], ["-j", "1", *files[half:]]]
    if command == "-j 2":
        return [["-j", "2", *files]]
    return [["--scheduler", scheduler, *files]]


def _measure(benchmark, subcommand, files, scheduler):
    seconds = {command: [] for command in COMMANDS}
    expected = []

    def one_round():
        for command in COMMANDS:
            programs = [[*subcommand, *program]
                        for program in _programs(command, files, scheduler)]
            taken, output = _run_together(programs)
            seconds[command].append(taken)
            if not expected:
                expected.append(output)
            assert output == expected[0], command

    benchmark.pedantic(one_round, rounds=1 if benchmark.disabled else ROUNDS, iterations=1)
    medians = {command: statistics.median(times) for command, times in seconds.items()}
    # The fraction is taken in each round (the two processes beside the
    # command of the same minute), then its median: the machine's speed
    # drifts from minute to minute, and a ratio of one round's runs less.
    fractions = {command: statistics.median(
        two / taken for two, taken in zip(seconds["two processes"], seconds[command]))
        for command in COMMANDS}
    info = benchmark.extra_info
    info["files"] = len(files)
    info["MB"] = round(sum(path.stat().st_size for path in files) / 1e6)
    info["rounds"] = len(seconds["one process"])
    for command in COMMANDS:
        info[f"{command} median s"] = round(medians[command], 3)
        info[f"{command} speed-up"] = round(medians["one process"] / medians[command], 3)
        info[f"{command} fraction of two processes"] = round(fractions[command], 3)
    info["load average"] = os.getloadavg()[0]
    print(f"\n{' '.join(subcommand)}: {len(files)} files, {info['MB']} MB, "
          f"{info['rounds']} rounds, load {info['load average']:.2f}")
    for command in COMMANDS:
        print(f"  {command:15} {medians[command]:7.3f} s  "
              f"speed-up {info[f'{command} speed-up']:.3f}  "
              f"fraction {fractions[command]:.3f}  "
              f"(all: {', '.join(f'{value:.3f}' for value in seconds[command])})")
    return info


@pytest.fixture(scope="module")
def scheduler(dask_scheduler):
    return dask_scheduler(workers=2)


def test_judge_scaling(benchmark, judge_inputs, scheduler):
    info = _measure(benchmark, ["havannah"], judge_inputs, scheduler)
    assert info["rounds"] >= 1


def test_replay_scaling(benchmark, record_inputs, scheduler):
    info = _measure(benchmark, ["replay", "--quiet"], record_inputs, scheduler)
    assert info["rounds"] >= 1


WORKER_COUNTS = (1, 2, 4)


def test_dask_worker_counts(benchmark, judge_inputs, record_inputs, dask_scheduler):
    """The same inputs on a scheduler with 1, 2 and 4 single-threaded
    workers (on a machine of C cores, 4 workers is 4/C per core), rounds
    alternating, beside one process without Dask: how a cluster's time
    follows its workers, and what is left when the workers are many (the
    client's start, its planning and gathering: the part that more machines
    do not shrink)."""
    addresses = {count: dask_scheduler(workers=count) for count in WORKER_COUNTS}
    workloads = {"havannah": (["havannah"], judge_inputs),
                 "replay": (["replay", "--quiet"], record_inputs)}
    seconds = {(name, count): [] for name in workloads for count in ("no Dask", *WORKER_COUNTS)}
    expected = {}

    def one_round():
        for name, (subcommand, files) in workloads.items():
            for count in ("no Dask", *WORKER_COUNTS):
                where = ["-j", "1"] if count == "no Dask" else ["--scheduler", addresses[count]]
                taken, output = _run_together([[*subcommand, *where, *files]])
                seconds[name, count].append(taken)
                assert expected.setdefault(name, output) == output, (name, count)

    benchmark.pedantic(one_round, rounds=1 if benchmark.disabled else max(3, ROUNDS - 2),
                       iterations=1)
    info = benchmark.extra_info
    print()
    for name in workloads:
        alone = statistics.median(seconds[name, "no Dask"])
        line = [f"{name}: no Dask {alone:.3f} s"]
        for count in WORKER_COUNTS:
            median = statistics.median(seconds[name, count])
            info[f"{name} {count} workers median s"] = round(median, 3)
            info[f"{name} {count} workers speed-up"] = round(alone / median, 3)
            line.append(f"{count} workers {median:.3f} s ({alone / median:.2f}x)")
        info[f"{name} no Dask median s"] = round(alone, 3)
        print("  " + ", ".join(line))
    info["cores"] = os.cpu_count()
    info["load average"] = os.getloadavg()[0]
