"""havhex.gtp.players: the random player's spread, the MCTS player's sense
(it wins when it can, blocks when it must, beats the random player), its
budgets, and that neither changes the board it is given."""
import collections
import time

import pytest

from havhex.gtp.players import MctsPlayer, RandomPlayer
from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard


def hex_position(size, moves):
    board = HexBoard(size)
    for move in moves:
        board.play(move)
    return board


def test_random_player_is_uniform_over_the_legal_actions_swap_included():
    board = HexBoard(3, swap=True)
    board.play("b2")
    player = RandomPlayer(7)
    counts = collections.Counter(player.genmove(board) for _ in range(4000))
    assert set(counts) == set(board.legal_moves()) - {"swap-sides"}
    assert "swap-pieces" in counts
    # 9 moves, 4000 draws: about 444 each; 300 is far below any fair count.
    assert min(counts.values()) > 300
    assert board.moves == ((1, 1),)


def test_random_player_repeats_with_its_seed():
    board = HavannahBoard(5)
    first = [RandomPlayer(3).genmove(board) for _ in range(5)]
    assert first == [RandomPlayer(3).genmove(board) for _ in range(5)]
    player = RandomPlayer(3)
    assert len({player.genmove(board) for _ in range(50)}) > 5


@pytest.mark.parametrize("player", [RandomPlayer(1), MctsPlayer(simulations=20, seed=1)])
def test_a_finished_game_has_no_move(player):
    board = hex_position(2, ["a1", "b1", "a2"])
    assert board.is_over
    with pytest.raises(ValueError):
        player.genmove(board)


def test_mcts_takes_the_winning_move():
    # Red holds a1, a2, a3 on 4x4: only a4 joins top and bottom now.
    board = hex_position(4, ["a1", "d1", "a2", "d2", "a3", "c2"])
    assert board.to_move == "red"
    move = MctsPlayer(simulations=400, seed=2).genmove(board)
    assert board.cell_name(move) == "a4"
    assert len(board.moves) == 6


def test_mcts_blocks_the_losing_cell():
    # The same wall, Blue to move: anything but a4 loses at once.
    board = hex_position(4, ["a1", "d1", "a2", "d2", "a3"])
    assert board.to_move == "blue"
    move = MctsPlayer(simulations=2000, seed=3).genmove(board)
    assert board.cell_name(move) == "a4"


def test_mcts_takes_a_havannah_win():
    # White's stones along the edge from (1, 1): one cell short of a bridge
    # (a chain joining two corners) on base 3.
    board = HavannahBoard(3)
    white = [(1, 1), (1, 2)]
    black = [(3, 3), (4, 4)]
    for w, b in zip(white, black):
        board.play(w)
        board.play(b)
    wins = []
    for move in board.legal_moves():
        trial = board.copy()
        if trial.play(move):
            wins.append(move)
    assert wins, "the position must hold a winning move"
    move = MctsPlayer(simulations=1500, seed=4).genmove(board)
    assert move in wins


def play_out(game, size, players, swap=False):
    board = HexBoard(size, swap=swap) if game == "hex" else HavannahBoard(size, swap=swap)
    seat = 0
    while not board.is_over:
        move = players[seat].genmove(board)
        board.play(move)
        seat = 1 - seat
    return board


@pytest.mark.parametrize("game, size", [("hex", 5), ("havannah", 4)])
def test_mcts_beats_the_random_player(game, size):
    wins = 0
    first = ("red", "blue") if game == "hex" else ("white", "black")
    for game_number in range(8):
        mcts = MctsPlayer(simulations=300, seed=game_number)
        rand = RandomPlayer(100 + game_number)
        mcts_seat = game_number % 2
        players = (mcts, rand) if mcts_seat == 0 else (rand, mcts)
        board = play_out(game, size, players, swap=True)
        wins += board.winner == first[mcts_seat]
    assert wins >= 7


def test_mcts_is_repeatable_with_a_seed():
    board = hex_position(6, ["c3", "d4"])
    moves = {MctsPlayer(simulations=200, seed=9).genmove(board) for _ in range(3)}
    assert len(moves) == 1


def test_mcts_budgets():
    board = HexBoard(7)
    player = MctsPlayer(simulations=123, seed=1)
    player.genmove(board)
    assert player.last_simulations == 123
    player = MctsPlayer(seconds=0.2, seed=1)
    start = time.perf_counter()
    player.genmove(board)
    assert time.perf_counter() - start < 5
    assert player.last_simulations > 0
    # A clock nearly run out: a twentieth of what is left past the reserve.
    player = MctsPlayer(simulations=10 ** 9, seed=1)
    start = time.perf_counter()
    player.genmove(board, time_left=1.0)
    assert time.perf_counter() - start < 5
    assert player.last_simulations < 10 ** 9


def test_mcts_arguments_are_checked():
    with pytest.raises(ValueError):
        MctsPlayer(simulations=0)
    with pytest.raises(ValueError):
        MctsPlayer(seconds=0)
    assert MctsPlayer().simulations == 1000


def test_one_legal_move_is_played_without_search():
    board = HexBoard(2)
    for move in ["a1", "b1", "b2"]:
        board.play(move)
    player = MctsPlayer(simulations=500, seed=1)
    assert player.genmove(board) == (1, 0)
    assert player.last_simulations == 0
