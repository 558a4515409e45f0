"""The tree search's speed: simulations a second of havhex.search.Search,
beside the GTP engine's old MctsPlayer and morat (../shared/engines/morat,
built as tests/support/morat.py builds it), each given the same seconds on
the same position, in the same run.

Run: python -m pytest bench/test_search_speed.py --benchmark-only -s
Positions: the empty board and a mid-game position (random moves under a
fixed seed, the game not over) of Hex 7, 11 and 13 and Havannah base 4, 8
and 10.  Each benchmark records in extra_info the simulations a second of
each searcher (morat's "runs", each of which plays five rollouts by its
default, and its rollouts a second); none asserts a timing.
"""
import os
import random
import re
import subprocess
import time

import pytest

from havhex import games
from havhex.gtp.players import MctsPlayer
from havhex.search import Search

SECONDS = float(os.environ.get("HAVHEX_SEARCH_BENCH_SECONDS", "2"))
MAX_NODES = 20_000_000
# The mid-game positions: this many random moves.
CASES = [
    ("hex", 7, 0), ("hex", 7, 12),
    ("hex", 11, 0), ("hex", 11, 30),
    ("hex", 13, 0), ("hex", 13, 40),
    ("havannah", 4, 0), ("havannah", 4, 10),
    ("havannah", 8, 0), ("havannah", 8, 40),
    ("havannah", 10, 0), ("havannah", 10, 60),
]
_FINISHED = re.compile(r"Finished:\s+(\d+) runs in (\d+) msec")
_GAMES = re.compile(r"Game length:.*num=(\d+)")


def position(game, size, moves, seed=37):
    """The board of ``game`` after ``moves`` random moves (the game not over)."""
    descriptor = games.get(game)
    rng = random.Random(seed)
    while True:
        board = descriptor.new_board(size, descriptor.rules[0] if descriptor.rules else None,
                                     False)
        for _ in range(moves):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board


def morat_binary(game):
    folder = os.environ.get("HAVHEX_MORAT_DIR")
    if not folder:
        return None
    path = os.path.join(folder, f"morat-{game}")
    return path if os.access(path, os.X_OK) else None


def morat_rate(game, board, size, seconds):
    """morat's runs and rollouts a second on ``board``'s position, from
    the statistics it prints on stderr after genmove (verbose 1)."""
    binary = morat_binary(game)
    if binary is None:
        return None
    words = games.get(game).engines["morat"]
    lines = [f"boardsize {size}"]
    for index, move in enumerate(board.moves):
        lines.append(f"play {words.colours[index % 2]} {words.cell_name(size, move)}")
    lines += [f"time -m {seconds}", "verbose 1",
              f"genmove {words.colours[len(board.moves) % 2]}", "quit"]
    done = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=seconds * 10 + 60)
    finished = _FINISHED.search(done.stderr)
    played = _GAMES.search(done.stderr)
    if finished is None:
        return None
    runs, msec = int(finished.group(1)), int(finished.group(2))
    rollouts = int(played.group(1)) if played else runs
    return runs / (msec / 1000), rollouts / (msec / 1000)


@pytest.mark.parametrize("game, size, moves", CASES,
                         ids=[f"{g}{s}-{'empty' if m == 0 else f'{m}moves'}" for g, s, m in CASES])
def test_simulations_a_second(benchmark, game, size, moves):
    board = position(game, size, moves)
    found = {}

    def search():
        analysis = Search(board, max_nodes=MAX_NODES, seed=1).run(seconds=SECONDS)
        found["search"] = analysis.simulations / analysis.seconds
        return analysis

    analysis = benchmark.pedantic(search, rounds=1, iterations=1)
    assert analysis.best_move in board.legal_moves()
    player = MctsPlayer(seconds=SECONDS, seed=1)
    start = time.perf_counter()
    move = player.genmove(board)
    found["mcts_player"] = player.last_simulations / (time.perf_counter() - start)
    assert move in board.legal_moves()
    rates = morat_rate(game, board, size, SECONDS)
    if rates is not None:
        found["morat_runs"], found["morat_rollouts"] = rates
    benchmark.extra_info.update({key: round(value) for key, value in found.items()})
    benchmark.extra_info["seconds"] = SECONDS
    shown = ", ".join(f"{key} {value:,.0f}/s" for key, value in found.items())
    print(f"\n{game} {size} after {moves} moves: {shown}")


THREAD_CASES = [("hex", 11, 0), ("hex", 11, 30), ("havannah", 8, 0), ("havannah", 8, 40)]
THREAD_ROUNDS = int(os.environ.get("HAVHEX_SEARCH_BENCH_ROUNDS", "5"))


@pytest.mark.parametrize("game, size, moves", THREAD_CASES,
                         ids=[f"{g}{s}-{'empty' if m == 0 else f'{m}moves'}"
                              for g, s, m in THREAD_CASES])
def test_two_threads_against_one(benchmark, game, size, moves):
    """Simulations a second of one tree searched by two threads over one
    thread's, alternating one and two threads for a few rounds of the
    same seconds each; the median of the rounds' ratios (the machine's
    speed drifts between rounds, not within one)."""
    board = position(game, size, moves)
    ratios, rates = [], {1: [], 2: []}

    def rate(threads):
        search = Search(board, max_nodes=MAX_NODES, seed=1, threads=threads)
        analysis = search.run(seconds=SECONDS / 2)
        assert analysis.best_move in board.legal_moves()
        return analysis.simulations / analysis.seconds

    def rounds():
        for _ in range(THREAD_ROUNDS):
            one, two = rate(1), rate(2)
            rates[1].append(one)
            rates[2].append(two)
            ratios.append(two / one)

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    ratio = sorted(ratios)[len(ratios) // 2]
    benchmark.extra_info.update({
        "one_thread": round(sorted(rates[1])[len(ratios) // 2]),
        "two_threads": round(sorted(rates[2])[len(ratios) // 2]),
        "ratio_median": round(ratio, 3),
        "ratios": [round(r, 3) for r in ratios],
    })
    print(f"\n{game} {size} after {moves} moves: two threads {ratio:.2f}x one "
          f"(rounds {', '.join(f'{r:.2f}' for r in ratios)})")
