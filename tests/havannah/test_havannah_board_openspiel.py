"""havhex.havannah.Board against OpenSpiel's Havannah (the ``openspiel``
extra): the same terminal move and winner on random games.  OpenSpiel's
rings are the official ones.  Skipped when pyspiel is not installed."""
import random

import pytest

import needs
from havhex.havannah import Board

pyspiel = needs.module("pyspiel", need="openspiel")


def action_of(size, cell):
    """OpenSpiel's action for the judge's cell: its board is the same
    (2S-1)-square, row x-1 and column y-1, with the same neighbours (found
    by experiment, and held by this test)."""
    x, y = cell
    return (x - 1) * (2 * size - 1) + (y - 1)


@pytest.mark.parametrize("size", range(4, 11))
def test_same_terminal_move_and_winner_as_openspiel(size):
    game = pyspiel.load_game("havannah", {"board_size": size})
    rng = random.Random(size)
    for _ in range(150):
        board = Board(size)
        state = game.new_initial_state()
        legal = board.legal_moves()
        rng.shuffle(legal)
        for cell in legal:
            assert not state.is_terminal()
            assert action_of(size, cell) in state.legal_actions()
            board.play(cell)
            state.apply_action(action_of(size, cell))
            assert state.is_terminal() == board.is_over, (board.moves, state)
            if board.is_over:
                break
        returns = state.returns()
        expected = None if returns[0] == returns[1] else ("white" if returns[0] > 0 else "black")
        assert board.winner == expected, (board.moves, str(state))


def test_openspiel_legal_actions_are_the_empty_cells():
    size = 5
    game = pyspiel.load_game("havannah", {"board_size": size})
    state = game.new_initial_state()
    board = Board(size)
    rng = random.Random(1)
    while not board.is_over:
        assert sorted(action_of(size, cell) for cell in board.legal_moves()) == state.legal_actions()
        cell = rng.choice(board.legal_moves())
        board.play(cell)
        state.apply_action(action_of(size, cell))


def test_a_flower_ends_the_game_in_both():
    """Six stones around a seventh of the same player (the centre first): a
    ring under the official rule, in OpenSpiel as in Board."""
    size = 5
    game = pyspiel.load_game("havannah", {"board_size": size})
    state = game.new_initial_state()
    board = Board(size)
    white = [(5, 5), (6, 6), (5, 6), (4, 5), (4, 4), (5, 4), (6, 5)]
    black = [(1, 1), (1, 3), (2, 1), (9, 9), (9, 7), (8, 9)]
    for number, cell in enumerate([c for pair in zip(white, black + [None]) for c in pair][:13]):
        kinds = board.play(cell)
        state.apply_action(action_of(size, cell))
        assert state.is_terminal() == (number == 12) == bool(kinds)
    assert kinds == ("ring",) and state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("size", [2, 4, 6, 8])
@pytest.mark.parametrize("swap", [False, True])
def test_legal_actions_are_openspiels(size, swap):
    """The board's action ids are OpenSpiel's, the swap too: OpenSpiel's is
    a move on the first stone's cell, as the board's is."""
    game = pyspiel.load_game("havannah", {"board_size": size, "swap": swap})
    rng = random.Random(size)
    swapped = 0
    for _ in range(60):
        state = game.new_initial_state()
        board = Board(size, swap=swap)
        while not state.is_terminal():
            assert list(board.legal_actions()) == state.legal_actions()
            actions = board.legal_actions()
            action = actions[rng.randrange(len(actions))]
            if len(board) == 1 and swap and rng.random() < 0.5:
                action = board.action_of("swap")
            board.play_action(action)
            state.apply_action(action)
            swapped += board.moves[-1] == "swap"
            assert state.is_terminal() == board.is_over
        returns = state.returns()
        expected = None if returns[0] == returns[1] else ("white" if returns[0] > 0 else "black")
        assert board.winner == expected and len(board.legal_actions()) == 0
    assert swapped > 0 or not swap
