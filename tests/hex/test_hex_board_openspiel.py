"""havhex.hex.Board against OpenSpiel's Hex (optional extra ``openspiel``).

OpenSpiel's action ``row * cols + col`` is the cell (row, col); its player 0
moves first and joins top and bottom (Red), and its neighbours are the
judge's.  Both play the same random games; the terminal move, the winner and
the legal moves must agree at every step.
"""
import random

import needs
from havhex.hex import Board

pyspiel = needs.module("pyspiel", need="openspiel")


def _agree(rng, rows, cols):
    game = pyspiel.load_game("hex", {"num_rows": rows, "num_cols": cols})
    state = game.new_initial_state()
    board = Board(rows, cols)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert [row * cols + col for row, col in board.legal_moves()] == legal
        action = rng.choice(legal)
        state.apply_action(action)
        won = board.play(divmod(action, cols))
        assert (won == ("chain",)) == state.is_terminal()
    returns = state.returns()
    assert board.winner == ("red" if returns[0] > 0 else "blue")
    assert board.winning_move == len(state.history()) - 1


def test_random_games_on_eleven_by_eleven_end_alike():
    rng = random.Random(11)
    for _ in range(300):
        _agree(rng, 11, 11)


def test_random_games_on_other_sizes_end_alike():
    """Rows and columns from 2: on a board one cell wide OpenSpiel does not
    end the game when a stone touches both of its player's sides at once
    (on 1 x 7 Red's first stone, on 3 x 1 Blue's), which the rules make a
    win; the board's tests check those sizes against the reference."""
    rng = random.Random(12)
    for _ in range(300):
        _agree(rng, rng.randint(2, 9), rng.randint(2, 9))


def test_legal_actions_are_openspiels():
    """The board's action ids are OpenSpiel's: the same legal actions at
    every step of random games played by them."""
    rng = random.Random(9)
    for rows, cols in [(11, 11)] * 40 + [(rng.randint(2, 9), rng.randint(2, 9)) for _ in range(60)]:
        game = pyspiel.load_game("hex", {"num_rows": rows, "num_cols": cols})
        state = game.new_initial_state()
        board = Board(rows, cols)
        while not state.is_terminal():
            assert list(board.legal_actions()) == state.legal_actions()
            action = rng.choice(board.legal_actions())
            won = board.play_action(action)
            state.apply_action(action)
            assert (won == ("chain",)) == state.is_terminal()
        assert board.is_over and len(board.legal_actions()) == 0
