"""The arbiter's own speed: its cost per move, games per second for one
pair of instant engines, and --concurrency 2 against 1.

Run:  python -m pytest bench/test_match_speed.py --benchmark-only -s

The engines are tests/support/gtp_engines/instant_engine.py over pipes (a
random cell from a shuffled list: a few microseconds a move).  The cost of
the arbiter is the wall time of a game minus the time spent inside the
players' calls (genmove, play, the claims: the engine's work and the pipes'
round trips), over its moves: parsing, checking on havhex's board, the
clock, the result.  extra_info holds the figures; none asserts a timing.
"""
import os
import statistics
import sys
import time
from pathlib import Path

import pytest

from havhex.match.arbiter import play_game
from havhex.match.engines import EngineSpec, make_player
from havhex.match.schedule import Session, plan, run

ENGINE = Path(__file__).resolve().parents[1] / "tests" / "support" / "gtp_engines" / \
    "instant_engine.py"


def _spec(seed, game="hex"):
    return EngineSpec([sys.executable, str(ENGINE), "--game", game, "--seed", str(seed)],
                      name=f"instant{seed}")


class _Timed:
    """A player whose calls to the engine are timed (the rest is the
    arbiter's)."""

    def __init__(self, player):
        self.player = player
        self.name, self.version = player.name, player.version
        self.waited = 0.0

    @property
    def alive(self):
        return self.player.alive

    def _timed(self, method, *args):
        started = time.perf_counter()
        try:
            return method(*args)
        finally:
            self.waited += time.perf_counter() - started

    def new_game(self, *args):
        return self._timed(self.player.new_game, *args)

    def play(self, *args):
        return self._timed(self.player.play, *args)

    def forward(self, *args):
        return self._timed(self.player.forward, *args)

    def genmove(self, *args):
        return self._timed(self.player.genmove, *args)

    def claimed_winner(self, *args):
        return self._timed(self.player.claimed_winner, *args)

    def parse_move(self, text, board):
        return self.player.parse_move(text, board)


@pytest.mark.parametrize("game, size", [("hex", 11), ("havannah", 8)])
def test_arbiter_cost_per_move(benchmark, game, size):
    players = [_Timed(make_player(_spec(seed, game), game)) for seed in (1, 2)]
    for timed in players:
        timed.player.start()
        timed.name = timed.player.name
    costs = []

    def one_game():
        waited = sum(timed.waited for timed in players)
        started = time.perf_counter()
        result = play_game(game, size, players)
        wall = time.perf_counter() - started
        engines = sum(timed.waited for timed in players) - waited
        costs.append((wall - engines) / len(result.moves))

    try:
        benchmark.pedantic(one_game, rounds=200, iterations=1, warmup_rounds=5)
    finally:
        for timed in players:
            timed.player.close()
    median = statistics.median(costs)
    benchmark.extra_info["arbiter_us_per_move_median"] = round(median * 1e6, 2)
    print(f"\n{game} {size}: arbiter's own cost per move, median over {len(costs)} games: "
          f"{median * 1e6:.1f} us")


def _games_per_second(concurrency, games):
    session = Session("hex", [_spec(1), _spec(2)], 11, games=games, concurrency=concurrency)
    # The players start before the clock: a match's start-up is not a game.
    slots = {}

    def make(index):
        return session.make_player(index)

    warm = plan(2, 2 * concurrency)
    run(warm, make, "hex", 11, concurrency=concurrency)   # a warm-up match
    started = time.perf_counter()
    results = run(session.planned, make, "hex", 11, concurrency=concurrency)
    seconds = time.perf_counter() - started
    assert len(results) == games
    del slots
    return games / seconds


def test_hex_games_per_second_one_pair(benchmark):
    # Processor time of this process (the arbiter) and of the engines,
    # whose times count once they have exited at the end of each match.
    before = os.times()
    rate = benchmark.pedantic(_games_per_second, args=(1, 400), rounds=3, iterations=1)
    after = os.times()
    games = 3 * (400 + 2)
    arbiter = (after.user - before.user + after.system - before.system) / games
    engines = (after.children_user - before.children_user + after.children_system
               - before.children_system) / games
    benchmark.extra_info.update(games_per_second=round(rate, 1),
                                arbiter_cpu_ms_per_game=round(arbiter * 1e3, 2),
                                engines_cpu_ms_per_game=round(engines * 1e3, 2))
    print(f"\nHex 11x11, one pair of instant engines: {rate:.0f} games/s; processor time "
          f"a game: arbiter {arbiter * 1e3:.2f} ms, engines {engines * 1e3:.2f} ms")


def test_concurrency_two_against_one(benchmark):
    rates = {1: [], 2: []}

    def alternate():
        for concurrency in (1, 2):
            rates[concurrency].append(_games_per_second(concurrency, 400))

    benchmark.pedantic(alternate, rounds=3, iterations=1)
    one, two = max(rates[1]), max(rates[2])
    benchmark.extra_info.update(one=round(one, 1), two=round(two, 1), ratio=round(two / one, 2))
    print(f"\nHex 11x11 games/s: concurrency 1 {one:.0f}, concurrency 2 {two:.0f}, "
          f"ratio {two / one:.2f}")
