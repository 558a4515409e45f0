"""The search against brute force on boards small enough to solve exactly
(Hex 3x3 and 4x4, Havannah base 2 and 3): what it proves is the exact
value, and the move it plays from a won position keeps the win."""

import pytest

import solver
from boards import random_position
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.search import Search

PROVEN = {solver.WIN: "win", solver.LOSS: "loss", solver.DRAW: None}


def positions(make, stones, count, seed):
    found = []
    for k in range(count):
        board = random_position(make, stones, seed * 1000 + k)
        if board is not None:
            found.append(board)
    return found


def check_against_exact(board, simulations, seed):
    table = {}
    exact = solver.value(board, table)
    analysis = Search(board, max_nodes=2_000_000, seed=seed).run(simulations=simulations)
    # Anything the search proves is the exact value.
    if analysis.proven is not None:
        assert analysis.proven == PROVEN[exact], (board.moves, analysis)
    # On these boards the budget suffices to prove every decided game.
    if exact != solver.DRAW:
        assert analysis.proven == PROVEN[exact], (board.moves, exact, analysis)
    if exact == solver.WIN:
        assert analysis.best_move in solver.winning_moves(board, table), (board.moves, analysis)
    return exact


HEX_SMALL = [
    (lambda: HexBoard(3), 0),
    (lambda: HexBoard(3, swap=True), 0),
    (lambda: HexBoard(3), 2),
    (lambda: HexBoard(3, swap=True), 1),
    (lambda: HexBoard(3), 3),
    (lambda: HexBoard(2, 3), 1),
    (lambda: HexBoard(4), 5),
    (lambda: HexBoard(4), 6),
    (lambda: HexBoard(4), 8),
    (lambda: HexBoard(4, swap=True), 5),
]


@pytest.mark.parametrize("case", range(len(HEX_SMALL)))
def test_hex_matches_brute_force(case):
    make, stones = HEX_SMALL[case]
    seen = set()
    for board in positions(make, stones, 6, seed=case):
        seen.add(check_against_exact(board, 200_000, seed=case))
    assert seen


HAVANNAH_SMALL = [
    (lambda: HavannahBoard(2), 0),
    (lambda: HavannahBoard(2, rule="contest"), 0),
    (lambda: HavannahBoard(2, swap=True), 0),
    (lambda: HavannahBoard(2, swap=True), 1),
    (lambda: HavannahBoard(2), 2),
    (lambda: HavannahBoard(3), 11),
    (lambda: HavannahBoard(3, rule="contest"), 11),
    (lambda: HavannahBoard(3), 12),
    (lambda: HavannahBoard(3, rule="contest"), 13),
]


@pytest.mark.parametrize("case", range(len(HAVANNAH_SMALL)))
def test_havannah_matches_brute_force(case):
    make, stones = HAVANNAH_SMALL[case]
    seen = set()
    for board in positions(make, stones, 5, seed=100 + case):
        seen.add(check_against_exact(board, 200_000, seed=case))
    assert seen


def test_the_cases_hold_every_result():
    """The positions above hold wins and losses of both games, so that a
    search that proved nothing (or always the same) could not pass."""
    results = {"hex": set(), "havannah": set()}
    for game, cases in (("hex", HEX_SMALL), ("havannah", HAVANNAH_SMALL)):
        for case, (make, stones) in enumerate(cases):
            offset = 0 if game == "hex" else 100
            for board in positions(make, stones, 6 if game == "hex" else 5, seed=offset + case):
                results[game].add(solver.value(board))
    assert {solver.WIN, solver.LOSS} <= results["hex"]
    assert {solver.WIN, solver.LOSS} <= results["havannah"]
