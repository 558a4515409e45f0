"""The GTP engine's own cost per command (``havhex gtp``).

Run:  python -m pytest bench/test_gtp_speed.py --benchmark-only -s

In-process, ``Engine.serve`` answers a script of commands read from bytes,
as ``havhex gtp`` reads its standard input (the reading of lines, their
parsing, the board's work, the answers): the moves and takebacks of a game,
the administrative commands, ``showboard``.  Over pipes, one ``havhex gtp``
process answers commands one at a time, each waited for, as a controller
asks them.  extra_info holds the microseconds a command; none asserts a
timing.
"""
import io
import os
import subprocess
import sys

import pytest

from havhex.gtp.players import RandomPlayer
from havhex.gtp.server import Engine

ROUNDS = 200


def _script(game):
    """Lines of a session: every cell of a row played and taken back, with
    the commands a controller sends between moves."""
    if game == "hex":
        colour, cells = "red", [f"{letter}5" for letter in "abcdefghijk"]
    else:
        colour, cells = "white", [f"H{number}" for number in range(1, 16)]
    lines = []
    for number, cell in enumerate(cells):
        lines += [f"{number} play {colour} {cell}", "undo", "name", "known_command play",
                  "protocol_version", f"play {colour} {cell}", "history", "undo"]
    return ("\n".join(lines) + "\n").encode(), len(lines)


def _median(benchmark):
    """The median seconds a round, or None when nothing was timed
    (``--benchmark-disable``, as CI runs the benchmarks once)."""
    stats = benchmark.stats
    if stats is None or not stats.stats.data:
        return None
    return stats.stats.median


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_serve_cost_per_command(benchmark, game):
    data, count = _script(game)
    engine = Engine(game, player=RandomPlayer(1))

    def serve():
        engine.serve(io.BytesIO(data), io.StringIO())

    benchmark(serve)
    benchmark.extra_info["commands"] = count
    median = _median(benchmark)
    if median is not None:
        benchmark.extra_info["us_per_command"] = median / count * 1e6


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_showboard(benchmark, game):
    engine = Engine(game, player=RandomPlayer(1))
    for _ in range(10):
        engine.handle(f"genmove {'red' if game == 'hex' else 'white'}"
                      if len(engine.board.moves) % 2 == 0 else
                      f"genmove {'blue' if game == 'hex' else 'black'}")
    benchmark(engine.handle, "showboard")


def test_round_trip_over_pipes(benchmark):
    process = subprocess.Popen(
        [sys.executable, "-m", "havhex", "gtp", "hex", "--player", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})

    def ask():
        for _ in range(ROUNDS):
            process.stdin.write(b"name\n")
            process.stdin.flush()
            process.stdout.readline()
            process.stdout.readline()

    try:
        benchmark(ask)
    finally:
        process.stdin.close()
        process.wait(timeout=60)
        process.stdout.close()
    median = _median(benchmark)
    if median is not None:
        benchmark.extra_info["us_per_round_trip"] = median / ROUNDS * 1e6
