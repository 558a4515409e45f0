"""Positions with a forced win in at most five plies, found by brute force
on small boards of both games: the search proves the win and the move it
plays keeps it, whatever its seed; positions lost with best play are
proven lost."""
import random
import zlib

import pytest

import solver
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.search import Search

SEEDS = range(5)


def forced_positions(make, stones, plies, count, seed, tries=400):
    """Up to ``count`` boards of ``make()`` after ``stones`` random moves
    where the mover forces a win within ``plies`` plies but not in one."""
    rng = random.Random(seed)
    found = []
    for _ in range(tries):
        board = make()
        for _ in range(stones):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if board.is_over or solver.wins_within(board, 1):
            continue
        if solver.wins_within(board, plies):
            found.append(board)
            if len(found) == count:
                break
    return found


def lost_positions(make, stones, count, seed, tries=400):
    """Boards after ``stones`` random moves that the mover loses with best
    play, not at once."""
    rng = random.Random(seed)
    found = []
    for _ in range(tries):
        board = make()
        for _ in range(stones):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if board.is_over:
            continue
        if solver.value(board) == solver.LOSS:
            found.append(board)
            if len(found) == count:
                break
    return found


FORCED = [
    ("hex 5x5, 3 plies", lambda: HexBoard(5), 15, 3),
    ("hex 5x5, 5 plies", lambda: HexBoard(5), 14, 5),
    ("hex 4x6, 5 plies", lambda: HexBoard(4, 6), 12, 5),
    ("havannah 3, 3 plies", lambda: HavannahBoard(3), 9, 3),
    ("havannah 3, 5 plies", lambda: HavannahBoard(3), 9, 5),
    ("havannah 3 contest, 5 plies", lambda: HavannahBoard(3, rule="contest"), 10, 5),
]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name, make, stones, plies", FORCED, ids=[case[0] for case in FORCED])
def test_forced_wins_are_proven_and_kept(name, make, stones, plies, threads):
    boards = forced_positions(make, stones, plies, count=8, seed=zlib.crc32(name.encode()))
    assert boards, "no such position found: the case tests nothing"
    for board in boards:
        table = {}
        winning = solver.winning_moves(board, table)
        assert winning
        for seed in SEEDS:
            search = Search(board, max_nodes=500_000, seed=seed, threads=threads)
            analysis = search.run(simulations=300_000)
            assert analysis.proven == "win", (board.moves, seed, analysis)
            assert analysis.win_rate == 1.0
            assert analysis.best_move in winning, (board.moves, seed, analysis)
            assert analysis.moves[0][0] == analysis.best_move
            assert analysis.moves[0][3] == "win"
            assert analysis.principal_variation[0] == analysis.best_move
            # The shortest proof is played, and its length is a real bound:
            # the win comes within that many more moves whatever the
            # opponent plays.
            plies = analysis.proof_plies[0]
            assert plies is not None and 0 <= plies < 99
            won = [length for (_, _, _, proven), length in zip(analysis.moves,
                                                                analysis.proof_plies)
                   if proven == "win"]
            assert plies == min(won)
            assert solver.wins_within(board, plies + 1), (board.moves, analysis.best_move, plies)


LOST = [
    ("hex 5x5", lambda: HexBoard(5), 14),
    ("hex 4x4 swap", lambda: HexBoard(4, swap=True), 5),
    ("havannah 3", lambda: HavannahBoard(3), 10),
    ("havannah 3 contest", lambda: HavannahBoard(3, rule="contest"), 10),
]


@pytest.mark.parametrize("name, make, stones", LOST, ids=[case[0] for case in LOST])
def test_lost_positions_are_proven_lost(name, make, stones):
    boards = lost_positions(make, stones, count=3, seed=zlib.crc32(name.encode()))
    assert boards, "no such position found: the case tests nothing"
    for board in boards:
        for seed in SEEDS[:2]:
            analysis = Search(board, max_nodes=2_000_000, seed=seed).run(simulations=500_000)
            assert analysis.proven == "loss", (board.moves, seed, analysis)
            assert analysis.win_rate == 0.0
            assert all(proven == "loss" for _, _, _, proven in analysis.moves)
            # The move played resists longest by the tree's proofs, and each
            # proof's length bounds the opponent's win after that move.
            lengths = dict(zip((move for move, _, _, _ in analysis.moves), analysis.proof_plies))
            assert lengths[analysis.best_move] == max(lengths.values())
            for move, plies in lengths.items():
                after = board.copy()
                after.play(move)
                assert plies is not None and plies >= 1
                assert solver.wins_within(after, plies), (board.moves, move, plies)


def test_a_win_in_one_is_found_by_the_first_simulation():
    board = HexBoard(3)
    for move in [(0, 0), (2, 2), (1, 0)]:
        board.play(move)
    # Blue to move: (1, 1)... no: Red holds (0, 0) and (1, 0); Blue moves.
    board.play((0, 1))
    # Red: (2, 0) joins top and bottom at once.
    analysis = Search(board, seed=0).run(simulations=1)
    assert analysis.proven == "win"
    assert analysis.best_move == (2, 0)
    assert analysis.simulations == 1


def test_a_threat_leaves_only_the_block():
    """Red threatens to win on one cell: Blue's root holds that move alone."""
    board = HexBoard(4)
    for move in [(0, 1), (3, 3), (1, 1), (3, 2), (2, 1), (3, 1)]:
        board.play(move)
    # Red holds (0,1), (1,1), (2,1): (3, 0) joins the bottom.  Blue to move.
    analysis = Search(board, seed=0).run(simulations=50)
    assert [move for move, *_ in analysis.moves] == [(3, 0)]
