"""The live Hex board beside OpenSpiel's, in the same run.

Run:  python -m pytest bench/test_hex_board.py --benchmark-only
(OpenSpiel's benchmarks skip without pyspiel: pip install ".[openspiel]").

* replay: the same precomputed random games through ``Board.play`` and
  through OpenSpiel's ``apply_action`` (a new board or state per game);
* random games: ``Board.playouts`` (C, one thread) and OpenSpiel driven
  from Python (legal actions, a random choice, apply);
* the loop a tree search written in Python runs (legal moves, a random
  choice, play) on the board by action ids (``legal_actions``,
  ``play_action``) and by moves (``legal_moves``, ``play``), beside
  OpenSpiel's (``legal_actions``, ``apply_action``);
* ``copy()``, and ``undo()`` (a game played then undone move by move, beside
  the same game only played).
Each records its rate in extra_info; ``test_ratios`` times both sides in
alternation and records the ratios.  None asserts a timing.
"""
import random
import time

import pytest

import needs
from havhex.hex import Board

SIZES = [11]
GAMES = 300


@pytest.fixture(scope="module")
def pyspiel():
    return needs.module("pyspiel", need="openspiel")


def random_games(size, count, seed=1):
    """Random games to their end, as cell lists (ended by Board).

    The games share one tuple per cell, as OpenSpiel's actions share one
    int per cell (Python keeps a single object of each small int): with a
    new tuple for every move, a replay would mostly time the cache misses of
    reading thousands of scattered tuples, not the boards."""
    rng = random.Random(seed)
    cells_of_board = Board(size).legal_moves()
    games = []
    for _ in range(count):
        board = Board(size)
        cells = list(cells_of_board)
        rng.shuffle(cells)
        moves = []
        for cell in cells:
            moves.append(cell)
            if board.play(cell):
                break
        games.append(moves)
    return games


def actions(size, games):
    """OpenSpiel's actions for the cells: row * columns + column."""
    return [[row * size + col for row, col in moves] for moves in games]


_games = {}


def games_of(size):
    if size not in _games:
        _games[size] = random_games(size, GAMES)
    return _games[size]


def replay_board(size, games):
    for moves in games:
        play = Board(size).play
        for move in moves:
            play(move)


def replay_builtin(games):
    for moves in games:
        call = len
        for move in moves:
            call(move)


def replay_openspiel(game, games):
    for moves in games:
        apply = game.new_initial_state().apply_action
        for action in moves:
            apply(action)


def openspiel_random_games(game, count, rng):
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


def n_moves(games):
    return sum(map(len, games))


@pytest.mark.parametrize("size", SIZES)
def test_replay_board(benchmark, size):
    games = games_of(size)
    benchmark(replay_board, size, games)
    if benchmark.stats:
        benchmark.extra_info["M moves/s"] = round(n_moves(games) / benchmark.stats.stats.median / 1e6, 2)


@pytest.mark.parametrize("size", SIZES)
def test_replay_openspiel(benchmark, size, pyspiel):
    games = games_of(size)
    game = pyspiel.load_game("hex", {"board_size": size})
    replayed = actions(size, games)
    benchmark(replay_openspiel, game, replayed)
    for moves in replayed[:20]:     # the same games: OpenSpiel ends them where Board does
        state = game.new_initial_state()
        for action in moves[:-1]:
            state.apply_action(action)
            assert not state.is_terminal()
        state.apply_action(moves[-1])
        assert state.is_terminal()
    if benchmark.stats:
        benchmark.extra_info["M moves/s"] = round(n_moves(games) / benchmark.stats.stats.median / 1e6, 2)


@pytest.mark.parametrize("size", SIZES)
def test_playouts_board(benchmark, size):
    board = Board(size)
    count = 20000
    counts = benchmark(board.playouts, count, 7)
    assert sum(counts.values()) == count
    if benchmark.stats:
        benchmark.extra_info["games/s"] = round(count / benchmark.stats.stats.median)


@pytest.mark.parametrize("size", SIZES)
def test_random_games_openspiel(benchmark, size, pyspiel):
    game = pyspiel.load_game("hex", {"board_size": size})
    count = 50
    benchmark(openspiel_random_games, game, count, random.Random(7))
    if benchmark.stats:
        benchmark.extra_info["games/s"] = round(count / benchmark.stats.stats.median)


def midgame(size):
    board = Board(size)
    for move in games_of(size)[0][:len(games_of(size)[0]) // 2]:
        board.play(move)
    return board


@pytest.mark.parametrize("size", SIZES)
def test_copy(benchmark, size):
    board = midgame(size)
    other = benchmark(board.copy)
    assert other == board
    if benchmark.stats:
        benchmark.extra_info["ns"] = round(benchmark.stats.stats.median * 1e9)


def copy_many(board, count):
    copy = board.copy
    for _ in range(count):
        copy()


def play_and_undo(size, games):
    for moves in games:
        board = Board(size)
        play = board.play
        undo = board.undo
        for move in moves:
            play(move)
        for _ in moves:
            undo()


@pytest.mark.parametrize("size", SIZES)
def test_play_and_undo(benchmark, size):
    """Beside test_replay_board: the difference is the cost of the undos."""
    games = games_of(size)
    benchmark(play_and_undo, size, games)
    if benchmark.stats:
        benchmark.extra_info["ns per move (play + undo)"] = round(
            benchmark.stats.stats.median / n_moves(games) * 1e9)


def best_time(function, *args, rounds=5):
    """The least CPU time of the rounds: on a shared machine the time the
    process waits for a core is not the work's."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        function(*args)
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("size", SIZES)
def test_ratios(benchmark, size, pyspiel):
    """Both sides timed in alternation (the best of five rounds each, CPU
    time), so that a busy machine slows both alike; the ratios go to
    extra_info.  "loop ns" is the same replay calling a do-nothing builtin
    (len) instead of play(): the part of every figure that is the
    interpreter's."""
    games = games_of(size)
    game = pyspiel.load_game("hex", {"board_size": size})
    replayed = actions(size, games)
    board = Board(size)
    copied = midgame(size)
    n = n_moves(games)

    def measure():
        ours = best_time(replay_board, size, games)
        theirs = best_time(replay_openspiel, game, replayed)
        undo = best_time(play_and_undo, size, games) - ours
        loop = best_time(replay_builtin, games)
        copy = best_time(copy_many, copied, 10000) / 10000
        playouts = best_time(board.playouts, 20000, 7) / 20000
        driven = best_time(openspiel_random_games, game, 50, random.Random(7), rounds=3) / 50
        return ours, theirs, undo, loop, copy, playouts, driven

    ours, theirs, undo, loop, copy, playouts, driven = benchmark.pedantic(
        measure, rounds=1, iterations=1)
    benchmark.extra_info["play() M moves/s"] = round(n / ours / 1e6, 2)
    benchmark.extra_info["apply_action M moves/s"] = round(n / theirs / 1e6, 2)
    benchmark.extra_info["replay ratio"] = round(theirs / ours, 2)
    benchmark.extra_info["play ns"] = round(ours / n * 1e9)
    benchmark.extra_info["loop ns"] = round(loop / n * 1e9)
    benchmark.extra_info["undo ns"] = round(undo / n * 1e9)
    benchmark.extra_info["copy ns"] = round(copy * 1e9)
    benchmark.extra_info["playouts games/s"] = round(1 / playouts)
    benchmark.extra_info["OpenSpiel driven games/s"] = round(1 / driven)
    benchmark.extra_info["playouts ratio"] = round(driven / playouts, 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_playouts_thousand_by_thousand(benchmark, threads):
    """Playouts where OpenSpiel has no counterpart to time: 1,000 x 1,000
    cells from the empty board, on one thread and on two."""
    board = Board(1000)
    count = 8
    counts = benchmark.pedantic(board.playouts, (count, 7, threads), rounds=3, iterations=1)
    assert sum(counts.values()) == count
    if benchmark.stats:
        benchmark.extra_info["games/s"] = round(count / benchmark.stats.stats.median, 1)


def search_loop(size, count, rng):
    """The loop a tree search written in Python runs, in action ids: legal
    actions, a random choice, play (OpenSpiel's: openspiel_random_games)."""
    for _ in range(count):
        board = Board(size)
        while not board.is_over:
            board.play_action(rng.choice(board.legal_actions()))


def search_loop_moves(size, count, rng):
    """The same loop in moves: legal_moves() and play()."""
    for _ in range(count):
        board = Board(size)
        while not board.is_over:
            board.play(rng.choice(board.legal_moves()))


@pytest.mark.parametrize("loop", [search_loop, search_loop_moves], ids=["actions", "moves"])
@pytest.mark.parametrize("size", SIZES)
def test_search_loop_board(benchmark, size, loop):
    count = 50
    benchmark(loop, size, count, random.Random(7))
    if benchmark.stats:
        benchmark.extra_info["games/s"] = round(count / benchmark.stats.stats.median)


@pytest.mark.parametrize("size", SIZES)
def test_search_loop_ratios(benchmark, size, pyspiel):
    """The three loops timed in alternation (the best of eleven rounds each,
    CPU time); their games/s and the ratios to OpenSpiel's go to extra_info."""
    game = pyspiel.load_game("hex", {"board_size": size})
    count = 200

    def measure():
        times = {"actions": float("inf"), "moves": float("inf"), "openspiel": float("inf")}
        for _ in range(11):
            for name, call in (("actions", lambda: search_loop(size, count, random.Random(7))),
                               ("moves", lambda: search_loop_moves(size, count, random.Random(7))),
                               ("openspiel", lambda: openspiel_random_games(
                                   game, count, random.Random(7)))):
                times[name] = min(times[name], best_time(call, rounds=1))
        return times

    times = benchmark.pedantic(measure, rounds=1, iterations=1)
    for name, seconds in times.items():
        benchmark.extra_info[f"{name} games/s"] = round(count / seconds)
    benchmark.extra_info["actions ratio"] = round(times["openspiel"] / times["actions"], 2)
    benchmark.extra_info["moves ratio"] = round(times["openspiel"] / times["moves"], 2)
