"""The solver beside morat's proof-number solver (../shared/engines, MIT) on
Havannah base-4 positions of 10 to 14 random stones: both answers, where
both solve, must agree; the times and the positions each solves are
reported.

Run: python -m pytest bench/test_solve_morat.py --benchmark-only -s
Each position gets ``HAVHEX_SOLVE_SECONDS`` (default 10) from each solver,
one thread each, one after the other.  morat is driven over GTP (``pns``,
then ``solve SECONDS`` with ``verbose 1``: its answer is the line "Solved
as a win|loss|draw" on stderr, for the player to move).  None asserts a
timing.
"""
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import needs
from havhex.games import get
from havhex.havannah import Board
from havhex.search import Solver

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
import morat as morat_support  # noqa: E402

SECONDS = float(os.environ.get("HAVHEX_SOLVE_SECONDS", "10"))
POSITIONS = int(os.environ.get("HAVHEX_SOLVE_MORAT_POSITIONS", "12"))


def positions(count, seed=39):
    """``count`` base-4 positions of 10 to 14 random stones, none over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(4)
        for _ in range(rng.randint(10, 14)):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            found.append(board)
    return found


def morat_solve(binary, board, seconds):
    """morat's answer for the player to move ("win", "loss", "draw" or
    "unknown") and its seconds."""
    names = get("havannah").engines["morat"]
    script = ["boardsize 4", "pns", "verbose 1"]
    for move in board.moves:
        colour = "w" if len(script) % 2 == 1 else "b"
        script.append(f"play {colour} {names.cell_name(4, move)}")
    script += [f"solve {seconds}", "quit"]
    started = time.perf_counter()
    done = subprocess.run([str(binary)], input="\n".join(script) + "\n", text=True,
                          capture_output=True, timeout=seconds * 3 + 30)
    elapsed = time.perf_counter() - started
    for line in (done.stderr + done.stdout).splitlines():
        if line.startswith("Solved as a "):
            return line.split()[-1], elapsed
    return "unknown", elapsed


@pytest.fixture(scope="module")
def morat_binary(tmp_path_factory):
    needs.shared("engines", "morat", need="engines")
    return morat_support.Morat(morat_support.build(tmp_path_factory.mktemp("engines"))).havannah


def test_havannah_base_4_beside_morat(benchmark, morat_binary):
    boards = positions(POSITIONS)
    found = {}

    def once():
        solver = Solver(256 << 20)
        ours, theirs = [], []
        for board in boards:
            solution = solver.solve(board, seconds=SECONDS)
            ours.append((solution.result, solution.seconds))
            theirs.append(morat_solve(morat_binary, board, SECONDS))
        found["answers"] = ours, theirs

    benchmark.pedantic(once, rounds=1, iterations=1)
    ours, theirs = found["answers"]
    both = [(a, b) for (a, _), (b, _) in zip(ours, theirs)
            if a != "unknown" and b != "unknown"]
    assert all(a == b for a, b in both), list(zip(ours, theirs))
    solved = [seconds for result, seconds in ours if result != "unknown"]
    benchmark.extra_info.update(
        positions=len(boards), havhex_solved=len(solved),
        morat_solved=sum(result != "unknown" for result, _ in theirs), both_solved=len(both),
        havhex_slowest=round(max(solved, default=0.0), 3),
        havhex_seconds=round(sum(seconds for _, seconds in ours), 3),
        morat_seconds=round(sum(seconds for _, seconds in theirs), 3))
