"""Hex plain output on snake boards, beside a straightforward C judge.

A snake (bench/generate.py) is a board whose one winning chain winds across
the whole board, so about half its stones are possible last moves: the input
on which a judge that built the witness for plain output would pay most.
The peer, bench/peers/hex_plain.c, is what a contestant would write in C;
it is compiled here with gcc -O2 (the benchmarks skip, saying so, when there
is no gcc).  Each round runs havhex's CLI and the peer in turn, each in a
fresh child (the order swapped every other round, so that the machine's
drift falls on both alike), and takes the child's own peak resident memory
from os.wait4 in a fresh launcher.  The extra info gives the medians, the peaks and their
ratios (havhex / peer); nothing asserts a timing, but both must print the
same output.
"""
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

import needs
PEER_SOURCE = Path(__file__).resolve().parent / "peers" / "hex_plain.c"
SNAKES = ["hex-snake-4999", "hex-snake-10000", "hex-snakes-100mb"]
SNAKE_ROUNDS = 3


@pytest.fixture(scope="session")
def c_peer(tmp_path_factory):
    """The C peer, compiled into a temporary folder."""
    compiler = shutil.which("gcc")
    if compiler is None:
        needs.missing("compiler", "gcc not found: the C peer bench/peers/hex_plain.c cannot be built")
    binary = tmp_path_factory.mktemp("peer") / "hex_plain"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(PEER_SOURCE)], check=True)
    return binary


# Runs one command with a file on its standard input and prints the
# command's wall time, its own peak resident memory (os.wait4) and exit
# status on one line, then its output.  It is started afresh for every
# measurement because on Linux a child's peak counts the memory of the
# process it was forked from: the benchmark process itself holds the inputs.
_LAUNCHER = """
import os, subprocess, sys, time
with open(sys.argv[1], "rb") as stdin:
    start = time.perf_counter()
    child = subprocess.Popen(sys.argv[2:], stdin=stdin, stdout=subprocess.PIPE)
    with child.stdout:
        output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
child.returncode = os.waitstatus_to_exitcode(status)
sys.stdout.buffer.write(b"%r %d %d\\n" % (seconds, usage.ru_maxrss, child.returncode) + output)
"""


def run_measured(command, path):
    """(seconds, peak resident MB, standard output) of ``command`` reading
    ``path`` on its standard input, run from a fresh launcher."""
    done = subprocess.run([sys.executable, "-c", _LAUNCHER, str(path), *command],
                          capture_output=True, check=True)
    header, _, output = done.stdout.partition(b"\n")
    seconds, peak_kb, status = header.split()
    if int(status) != 0:
        raise subprocess.CalledProcessError(int(status), command)
    return float(seconds), int(peak_kb) / 1024, output


@pytest.mark.parametrize("kind", SNAKES)
def test_hex_snake_cli_beside_c(benchmark, bench_input, c_peer, kind):
    path = bench_input(kind)
    commands = {"havhex": [sys.executable, "-m", "havhex", "hex", str(path)],
                "C": [str(c_peer)]}
    seconds = {name: [] for name in commands}
    peak_mb = {name: [] for name in commands}
    outputs = {name: set() for name in commands}
    order = list(commands)

    def pair():
        for name in order:
            took, peak, output = run_measured(commands[name], path)
            seconds[name].append(took)
            peak_mb[name].append(peak)
            outputs[name].add(output)
        order.reverse()

    benchmark.pedantic(pair, rounds=SNAKE_ROUNDS, iterations=1)
    assert len(outputs["havhex"]) == 1 and outputs["havhex"] == outputs["C"]
    answers = next(iter(outputs["C"])).decode().splitlines()
    assert answers and all(line.endswith(" wins") for line in answers), answers
    if benchmark.stats:
        ours, theirs = statistics.median(seconds["havhex"]), statistics.median(seconds["C"])
        ours_mb, theirs_mb = max(peak_mb["havhex"]), max(peak_mb["C"])
        benchmark.extra_info["havhex s"] = round(ours, 2)
        benchmark.extra_info["C s"] = round(theirs, 2)
        benchmark.extra_info["time havhex / C"] = round(ours / theirs, 2)
        benchmark.extra_info["havhex peak RSS MB"] = round(ours_mb, 1)
        benchmark.extra_info["C peak RSS MB"] = round(theirs_mb, 1)
        benchmark.extra_info["peak RSS havhex / C"] = round(ours_mb / theirs_mb, 2)
