"""The exact solver's speed: every opening of small boards solved, one
thread, one table kept across a board's openings (as ``Solver`` keeps it).

Run: python -m pytest bench/test_solve_speed.py --benchmark-only -s
Each benchmark round solves every opening of one board; ``extra_info``
holds the openings solved, those left unknown within the time a position
(``HAVHEX_SOLVE_SECONDS``, default 60), the first player's winning
openings, the nodes and the slowest opening.  benzene's DFPN solver (MoHex's,
with virtual connections and inferior cells), measured by hand on this
machine (issue 39; it is not on the package index): Hex 5x5 every opening
in 0.08 s in all, 6x6 in 2.2 s, 7x7 0.15 s (centre) to 7.2 s an opening.
morat's proof-number solver: each Havannah base-3 opening in 7-34 ms.
The Hex boards past 5x5 take minutes here: ``HAVHEX_SOLVE_HEX_LARGEST``
(default 5) adds them.  None asserts a timing; each checks the openings'
answers against the known results it can.
"""
import os
import time

import pytest

from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.search import DEFAULT_MEMORY, Solver

SECONDS = float(os.environ.get("HAVHEX_SOLVE_SECONDS", "60"))
HEX_LARGEST = int(os.environ.get("HAVHEX_SOLVE_HEX_LARGEST", "5"))
MEMORY = DEFAULT_MEMORY
# Published (Hayward et al.; van Rijswijck): the first player's winning
# openings of small Hex boards, counted.
KNOWN_WINNING_OPENINGS = {3: 5, 4: 4}


def solve_openings(empty, solver):
    """Every first move of ``empty`` solved: (winning openings for the
    first player, unknown, nodes, slowest seconds)."""
    winning, unknown, nodes, slowest = [], [], 0, 0.0
    for move in empty.legal_moves():
        board = empty.copy()
        board.play(move)
        started = time.perf_counter()
        solution = solver.solve(board, seconds=SECONDS)
        slowest = max(slowest, time.perf_counter() - started)
        nodes += solution.nodes
        if solution.result == "loss":
            winning.append(move)
        elif solution.result == "unknown":
            unknown.append(move)
    return winning, unknown, nodes, slowest


def run(benchmark, empty):
    found = {}

    def once():
        # A fresh table each round: every round solves from nothing.
        found["answer"] = solve_openings(empty, Solver(MEMORY))

    benchmark.pedantic(once, rounds=1, iterations=1)
    winning, unknown, nodes, slowest = found["answer"]
    benchmark.extra_info.update(openings=len(empty.legal_moves()), unknown=len(unknown),
                                first_player_wins=len(winning), nodes=nodes,
                                slowest_seconds=round(slowest, 3))
    return winning, unknown


@pytest.mark.parametrize("size", [s for s in (3, 4, 5, 6, 7) if s <= HEX_LARGEST])
def test_hex_openings(benchmark, size):
    winning, unknown = run(benchmark, HexBoard(size))
    if not unknown and size in KNOWN_WINNING_OPENINGS:
        assert len(winning) == KNOWN_WINNING_OPENINGS[size]
    if not unknown:
        # Hex's board is symmetric under the half turn: so are the answers.
        assert {(size - 1 - r, size - 1 - c) for r, c in winning} == set(winning)


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_havannah_base_3_openings(benchmark, rule):
    winning, unknown = run(benchmark, HavannahBoard(3, rule=rule))
    assert not unknown and len(winning) == 6   # the six corners
